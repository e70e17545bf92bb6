"""Hermite series (physicists'), as :mod:`numpy.polynomial.hermite`.

Series in the Hermite polynomials ``H_k``, orthogonal for the weight ``exp(-x**2)``.
Coefficients are lowest degree first. The functions come from the shared implementation
in :mod:`xnp.polynomial._basis`, parametrized by the recurrence ``H[k+1] = 2x H[k] - 2k
H[k-1]``: evaluation, fitting, calculus, arithmetic and the conversions to and from
power series are xnp computations that trace, differentiate, batch and compile.
``hermroots`` and ``hermtrim`` (and the dropping of trailing zeros in arithmetic) depend
on the values and need them concrete; see :mod:`xnp.polynomial.polyutils`.
"""

from __future__ import annotations

import math

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial._basis import Basis

__all__ = [
    "hermzero", "hermone", "hermx", "hermdomain", "hermline", "hermadd", "hermsub", "hermmulx",
    "hermmul", "hermdiv", "hermpow", "hermval", "hermder", "hermint", "herm2poly", "poly2herm",
    "hermfromroots", "hermvander", "hermfit", "hermtrim", "hermroots", "Hermite", "hermval2d",
    "hermval3d", "hermgrid2d", "hermgrid3d", "hermvander2d", "hermvander3d", "hermcompanion",
    "hermgauss", "hermweight"]

_B = Basis("herm", "hermite", "Hermite",
           lambda k: (2, 0, 2 * k),
           mu0=math.sqrt(math.pi))

hermtrim = pu.trimcoef
hermdomain = xnp.asarray([-1.0, 1.0])
hermzero = xnp.asarray([0])
hermone = xnp.asarray([1])
hermx = xnp.asarray([0, 0.5])

hermline = _B.export("line")
hermadd = _B.export("add")
hermsub = _B.export("sub")
hermmulx = _B.export("mulx")
hermmul = _B.export("mul")
hermdiv = _B.export("div")
hermpow = _B.export("pow")
hermval = _B.export("val")
hermder = _B.export("der")
hermint = _B.export("int")
herm2poly = _B.export("to_poly", "herm2poly")
poly2herm = _B.export("from_poly", "poly2herm")
hermfromroots = _B.export("fromroots")
hermvander = _B.export("vander")
hermfit = _B.export("fit")
hermroots = _B.export("roots")
hermcompanion = _B.export("companion")
hermval2d = _B.export("val2d")
hermval3d = _B.export("val3d")
hermgrid2d = _B.export("grid2d")
hermgrid3d = _B.export("grid3d")
hermvander2d = _B.export("vander2d")
hermvander3d = _B.export("vander3d")
hermgauss = _B.export("gauss")


def hermweight(x) -> ndarray:
    """The weight function of the Hermite polynomials, ``exp(-x**2)``, as
    :func:`numpy.polynomial.hermite.hermweight`.

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
    return xnp.exp(-x ** 2)


class Hermite(ABCPolyBase):
    """A Hermite series, as :class:`numpy.polynomial.Hermite`.

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
    basis_name = "H"
