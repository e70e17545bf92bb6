"""Power series, as :mod:`numpy.polynomial.polynomial`.

Coefficients are lowest degree first (``[1, 2, 3]`` is ``1 + 2x + 3x**2``), unlike the
legacy ``xnp.polyval`` family. Every function is built from xnp functions on top of the
shared implementation in :mod:`xnp.polynomial._basis` (the power basis is the recurrence
``P[k+1] = x P[k]``), so evaluation, fitting, calculus and arithmetic trace,
differentiate, batch and compile. Functions whose result's length or dtype depends on the
values (``polyroots``, ``polytrim``, and the dropping of trailing zeros in arithmetic)
need concrete values for that part; see :mod:`xnp.polynomial.polyutils`.
"""

from __future__ import annotations

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial._basis import Basis

__all__ = [
    "polyzero", "polyone", "polyx", "polydomain", "polyline", "polyadd", "polysub",
    "polymulx", "polymul", "polydiv", "polypow", "polyval", "polyvalfromroots", "polyder",
    "polyint", "polyfromroots", "polyvander", "polyfit", "polytrim", "polyroots",
    "Polynomial", "polyval2d", "polyval3d", "polygrid2d", "polygrid3d", "polyvander2d",
    "polyvander3d", "polycompanion"]

_B = Basis("poly", "polynomial", "power", lambda k: (1, 0, 0), maxpower=None)

polytrim = pu.trimcoef
polydomain = xnp.asarray([-1.0, 1.0])
polyzero = xnp.asarray([0])
polyone = xnp.asarray([1])
polyx = xnp.asarray([0, 1])

polyline = _B.export("line")
polyadd = _B.export("add")
polysub = _B.export("sub")
polymulx = _B.export("mulx")
polymul = _B.export("mul")
polydiv = _B.export("div")
polypow = _B.export("pow")
polyval = _B.export("val")
polyder = _B.export("der")
polyint = _B.export("int")
polyfromroots = _B.export("fromroots")
polyvander = _B.export("vander")
polyfit = _B.export("fit")
polyroots = _B.export("roots")
polycompanion = _B.export("companion")
polyval2d = _B.export("val2d")
polyval3d = _B.export("val3d")
polygrid2d = _B.export("grid2d")
polygrid3d = _B.export("grid3d")
polyvander2d = _B.export("vander2d")
polyvander3d = _B.export("vander3d")


def polyvalfromroots(x, r, tensor: bool = True) -> ndarray:
    """Evaluate the polynomial with roots ``r`` at ``x``: ``prod(x - r)``.

    Parameters
    ----------
    x : array_like or scalar
        Points; lists and tuples become arrays.
    r : array_like
        Roots along the first axis; further axes hold several polynomials.
    tensor : bool, optional
        With an array ``x``, evaluate every polynomial at every point (shape
        ``r.shape[1:] + x.shape``); otherwise ``x`` broadcasts against ``r[k]``, and
        must have fewer dimensions than ``r``.

    Returns
    -------
    ndarray or scalar
        The values, as :func:`numpy.polynomial.polynomial.polyvalfromroots`.
        Differentiable in ``x`` and ``r``.
    """
    r = pu._float_coef(r)
    if isinstance(x, (tuple, list)):
        x = xnp.asarray(x)
    if isinstance(x, ndarray):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return xnp.prod(x - r, axis=0)


class Polynomial(ABCPolyBase):
    """A power series, as :class:`numpy.polynomial.Polynomial`.

    Parameters
    ----------
    coef : array_like
        Coefficients, lowest degree first.
    domain, window : (2,) array_like, optional
        Default ``[-1., 1.]`` both: ``p(x)`` evaluates the series at
        ``off + scl * x``, the linear map from domain to window.
    symbol : str, optional
        Name of the variable when printing.

    Notes
    -----
    See :class:`xnp.polynomial._base.ABCPolyBase` for the methods and the differences
    from NumPy (coefficients are xnp arrays; evaluation and arithmetic trace and
    differentiate; series objects are pytrees).
    """

    _basis = _B
    domain = xnp.asarray([-1.0, 1.0])
    window = xnp.asarray([-1.0, 1.0])
    basis_name = None

    @classmethod
    def _str_term_unicode(cls, i: str, arg: str) -> str:
        return f"·{arg}" if i == "1" else f"·{arg}{i.translate(cls._superscripts)}"

    @staticmethod
    def _str_term_ascii(i: str, arg: str) -> str:
        return f" {arg}" if i == "1" else f" {arg}**{i}"

    @staticmethod
    def _repr_latex_term(i: int, arg: str, needs_parens: bool) -> str:
        if needs_parens:
            arg = rf"\left({arg}\right)"
        return "1" if i == 0 else arg if i == 1 else f"{arg}^{{{i}}}"
