"""HermiteE series (probabilists' Hermite), as :mod:`numpy.polynomial.hermite_e`.

Series in the Hermite polynomials ``He_k``, orthogonal for the weight ``exp(-x**2/2)``.
Coefficients are lowest degree first. The functions come from the shared implementation
in :mod:`xnp.polynomial._basis`, parametrized by the recurrence ``He[k+1] = x He[k] - k
He[k-1]``: evaluation, fitting, calculus, arithmetic and the conversions to and from
power series are xnp computations that trace, differentiate, batch and compile.
``hermeroots`` and ``hermetrim`` (and the dropping of trailing zeros in arithmetic)
depend on the values and need them concrete; see :mod:`xnp.polynomial.polyutils`.
"""

from __future__ import annotations

import math

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial._basis import Basis

__all__ = [
    "hermezero", "hermeone", "hermex", "hermedomain", "hermeline", "hermeadd",
    "hermesub", "hermemulx", "hermemul", "hermediv", "hermepow", "hermeval", "hermeder",
    "hermeint", "herme2poly", "poly2herme", "hermefromroots", "hermevander", "hermefit",
    "hermetrim", "hermeroots", "HermiteE", "hermeval2d", "hermeval3d", "hermegrid2d",
    "hermegrid3d", "hermevander2d", "hermevander3d", "hermecompanion", "hermegauss",
    "hermeweight"]

_B = Basis("herme", "hermite_e", "HermiteE",
           lambda k: (1, 0, k),
           mu0=math.sqrt(2 * math.pi))

hermetrim = pu.trimcoef
hermedomain = xnp.asarray([-1.0, 1.0])
hermezero = xnp.asarray([0])
hermeone = xnp.asarray([1])
hermex = xnp.asarray([0, 1])

hermeline = _B.export("line")
hermeadd = _B.export("add")
hermesub = _B.export("sub")
hermemulx = _B.export("mulx")
hermemul = _B.export("mul")
hermediv = _B.export("div")
hermepow = _B.export("pow")
hermeval = _B.export("val")
hermeder = _B.export("der")
hermeint = _B.export("int")
herme2poly = _B.export("to_poly", "herme2poly")
poly2herme = _B.export("from_poly", "poly2herme")
hermefromroots = _B.export("fromroots")
hermevander = _B.export("vander")
hermefit = _B.export("fit")
hermeroots = _B.export("roots")
hermecompanion = _B.export("companion")
hermeval2d = _B.export("val2d")
hermeval3d = _B.export("val3d")
hermegrid2d = _B.export("grid2d")
hermegrid3d = _B.export("grid3d")
hermevander2d = _B.export("vander2d")
hermevander3d = _B.export("vander3d")
hermegauss = _B.export("gauss")


def hermeweight(x) -> ndarray:
    """The weight function of the HermiteE polynomials, ``exp(-x**2/2)``, as
    :func:`numpy.polynomial.hermite_e.hermeweight`.

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
    return xnp.exp(-.5 * x ** 2)


class HermiteE(ABCPolyBase):
    """A HermiteE series, as :class:`numpy.polynomial.HermiteE`.

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
    basis_name = "He"
