"""Legendre series, as :mod:`numpy.polynomial.legendre`.

Series in the Legendre polynomials ``P_k``, orthogonal on [-1, 1]. Coefficients are
lowest degree first. The functions come from the shared implementation in
:mod:`xnp.polynomial._basis`, parametrized by the recurrence ``P[k+1] = ((2k+1) x P[k] -
k P[k-1]) / (k+1)``: evaluation, fitting, calculus, arithmetic and the conversions to
and from power series are xnp computations that trace, differentiate, batch and compile.
``legroots`` and ``legtrim`` (and the dropping of trailing zeros in arithmetic) depend
on the values and need them concrete; see :mod:`xnp.polynomial.polyutils`.
"""

from __future__ import annotations

from fractions import Fraction

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial._basis import Basis

__all__ = [
    "legzero", "legone", "legx", "legdomain", "legline", "legadd", "legsub", "legmulx",
    "legmul", "legdiv", "legpow", "legval", "legder", "legint", "leg2poly", "poly2leg",
    "legfromroots", "legvander", "legfit", "legtrim", "legroots", "Legendre", "legval2d",
    "legval3d", "leggrid2d", "leggrid3d", "legvander2d", "legvander3d", "legcompanion",
    "leggauss", "legweight"]

_B = Basis("leg", "legendre", "Legendre",
           lambda k: (Fraction(2 * k + 1, k + 1), 0, Fraction(k, k + 1)),
           mu0=2.0)

legtrim = pu.trimcoef
legdomain = xnp.asarray([-1.0, 1.0])
legzero = xnp.asarray([0])
legone = xnp.asarray([1])
legx = xnp.asarray([0, 1])

legline = _B.export("line")
legadd = _B.export("add")
legsub = _B.export("sub")
legmulx = _B.export("mulx")
legmul = _B.export("mul")
legdiv = _B.export("div")
legpow = _B.export("pow")
legval = _B.export("val")
legder = _B.export("der")
legint = _B.export("int")
leg2poly = _B.export("to_poly", "leg2poly")
poly2leg = _B.export("from_poly", "poly2leg")
legfromroots = _B.export("fromroots")
legvander = _B.export("vander")
legfit = _B.export("fit")
legroots = _B.export("roots")
legcompanion = _B.export("companion")
legval2d = _B.export("val2d")
legval3d = _B.export("val3d")
leggrid2d = _B.export("grid2d")
leggrid3d = _B.export("grid3d")
legvander2d = _B.export("vander2d")
legvander3d = _B.export("vander3d")
leggauss = _B.export("gauss")


def legweight(x) -> ndarray:
    """The weight function of the Legendre polynomials, ``1``, as
    :func:`numpy.polynomial.legendre.legweight`.

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
    return x * 0.0 + 1.0


class Legendre(ABCPolyBase):
    """A Legendre series, as :class:`numpy.polynomial.Legendre`.

    Parameters
    ----------
    coef : array_like
        Coefficients, lowest degree first.
    domain, window : (2,) array_like, optional
        Default ``[-1.0, 1.0]`` both.
    symbol : str, optional
        Name of the variable when printing.

    Notes
    -----
    See :class:`xnp.polynomial._base.ABCPolyBase` for the methods and the differences
    from NumPy.
    """

    _basis = _B
    domain = xnp.asarray([-1.0, 1.0])
    window = xnp.asarray([-1.0, 1.0])
    basis_name = "P"
