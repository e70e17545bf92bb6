"""Laguerre series, as :mod:`numpy.polynomial.laguerre`.

Series in the Laguerre polynomials ``L_k``, orthogonal on [0, inf) for the weight
``exp(-x)``. Coefficients are lowest degree first. The functions come from the shared
implementation in :mod:`xnp.polynomial._basis`, parametrized by the recurrence ``L[k+1]
= ((2k+1-x) L[k] - k L[k-1]) / (k+1)``: evaluation, fitting, calculus, arithmetic and
the conversions to and from power series are xnp computations that trace, differentiate,
batch and compile. ``lagroots`` and ``lagtrim`` (and the dropping of trailing zeros in
arithmetic) depend on the values and need them concrete; see
:mod:`xnp.polynomial.polyutils`.
"""

from __future__ import annotations

from fractions import Fraction

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial._basis import Basis

__all__ = [
    "lagzero", "lagone", "lagx", "lagdomain", "lagline", "lagadd", "lagsub", "lagmulx",
    "lagmul", "lagdiv", "lagpow", "lagval", "lagder", "lagint", "lag2poly", "poly2lag",
    "lagfromroots", "lagvander", "lagfit", "lagtrim", "lagroots", "Laguerre", "lagval2d",
    "lagval3d", "laggrid2d", "laggrid3d", "lagvander2d", "lagvander3d", "lagcompanion",
    "laggauss", "lagweight"]

_B = Basis("lag", "laguerre", "Laguerre",
           lambda k: (Fraction(-1, k + 1), Fraction(2 * k + 1, k + 1), Fraction(k, k + 1)),
           mu0=1.0, symmetric=False)

lagtrim = pu.trimcoef
lagdomain = xnp.asarray([0.0, 1.0])
lagzero = xnp.asarray([0])
lagone = xnp.asarray([1])
lagx = xnp.asarray([1, -1])

lagline = _B.export("line")
lagadd = _B.export("add")
lagsub = _B.export("sub")
lagmulx = _B.export("mulx")
lagmul = _B.export("mul")
lagdiv = _B.export("div")
lagpow = _B.export("pow")
lagval = _B.export("val")
lagder = _B.export("der")
lagint = _B.export("int")
lag2poly = _B.export("to_poly", "lag2poly")
poly2lag = _B.export("from_poly", "poly2lag")
lagfromroots = _B.export("fromroots")
lagvander = _B.export("vander")
lagfit = _B.export("fit")
lagroots = _B.export("roots")
lagcompanion = _B.export("companion")
lagval2d = _B.export("val2d")
lagval3d = _B.export("val3d")
laggrid2d = _B.export("grid2d")
laggrid3d = _B.export("grid3d")
lagvander2d = _B.export("vander2d")
lagvander3d = _B.export("vander3d")
laggauss = _B.export("gauss")


def lagweight(x) -> ndarray:
    """The weight function of the Laguerre polynomials, ``exp(-x)``, as
    :func:`numpy.polynomial.laguerre.lagweight`.

    Parameters
    ----------
    x : array_like
        Points.

    Returns
    -------
    ndarray
        The weight at ``x``. Differentiable.
    """
    x = xnp.asarray(x)
    return xnp.exp(-x)


class Laguerre(ABCPolyBase):
    """A Laguerre series, as :class:`numpy.polynomial.Laguerre`.

    Parameters
    ----------
    coef : array_like
        Coefficients, lowest degree first.
    domain, window : (2,) array_like, optional
        Default ``[0.0, 1.0]`` both.
    symbol : str, optional
        Name of the variable when printing.

    Notes
    -----
    See :class:`xnp.polynomial._base.ABCPolyBase` for the methods and the differences
    from NumPy.
    """

    _basis = _B
    domain = xnp.asarray([0.0, 1.0])
    window = xnp.asarray([0.0, 1.0])
    basis_name = "L"
