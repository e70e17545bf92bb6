"""Chebyshev series, as :mod:`numpy.polynomial.chebyshev`.

Series in the Chebyshev polynomials of the first kind ``T_k(cos t) = cos(k t)``.
Coefficients are lowest degree first. The functions come from the shared implementation
in :mod:`xnp.polynomial._basis`, parametrized by the recurrence
``T[k+1] = 2x T[k] - T[k-1]`` (``T[1] = x``): evaluation, fitting, calculus, arithmetic
and the conversions to and from power series are xnp computations that trace,
differentiate, batch and compile. ``chebroots`` and ``chebtrim`` (and the dropping of
trailing zeros in arithmetic) depend on the values and need them concrete; see
:mod:`xnp.polynomial.polyutils`.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial._basis import Basis

__all__ = [
    "chebzero", "chebone", "chebx", "chebdomain", "chebline", "chebadd", "chebsub",
    "chebmulx", "chebmul", "chebdiv", "chebpow", "chebval", "chebder", "chebint",
    "cheb2poly", "poly2cheb", "chebfromroots", "chebvander", "chebfit", "chebtrim",
    "chebroots", "chebpts1", "chebpts2", "Chebyshev", "chebval2d", "chebval3d",
    "chebgrid2d", "chebgrid3d", "chebvander2d", "chebvander3d", "chebcompanion",
    "chebgauss", "chebweight", "chebinterpolate"]

_B = Basis("cheb", "chebyshev", "Chebyshev", lambda k: (2, 0, 1) if k else (1, 0, 0),
           mu0=math.pi)

chebtrim = pu.trimcoef
chebdomain = xnp.asarray([-1.0, 1.0])
chebzero = xnp.asarray([0])
chebone = xnp.asarray([1])
chebx = xnp.asarray([0, 1])

chebline = _B.export("line")
chebadd = _B.export("add")
chebsub = _B.export("sub")
chebmulx = _B.export("mulx")
chebmul = _B.export("mul")
chebdiv = _B.export("div")
chebpow = _B.export("pow")
chebval = _B.export("val")
chebder = _B.export("der")
chebint = _B.export("int")
cheb2poly = _B.export("to_poly", "cheb2poly")
poly2cheb = _B.export("from_poly", "poly2cheb")
chebfromroots = _B.export("fromroots")
chebvander = _B.export("vander")
chebfit = _B.export("fit")
chebroots = _B.export("roots")
chebcompanion = _B.export("companion")
chebval2d = _B.export("val2d")
chebval3d = _B.export("val3d")
chebgrid2d = _B.export("grid2d")
chebgrid3d = _B.export("grid3d")
chebvander2d = _B.export("vander2d")
chebvander3d = _B.export("vander3d")


def chebgauss(deg: int) -> tuple[ndarray, ndarray]:
    """Gauss-Chebyshev quadrature, as :func:`numpy.polynomial.chebyshev.chebgauss`.

    Parameters
    ----------
    deg : int
        Number of nodes (positive).

    Returns
    -------
    x, w : ndarray
        Nodes ``cos(pi (2k - 1) / (2 deg))`` and equal weights ``pi / deg``: exact
        for polynomials of degree ``2 * deg - 1`` times ``1 / sqrt(1 - x**2)``.
    """
    n = pu._as_int(deg, "deg")
    if n <= 0:
        raise ValueError("deg must be a positive integer")
    x = xnp.cos(np.pi * xnp.arange(1, 2 * n, 2) / (2.0 * n))
    return x, xnp.ones(n) * (np.pi / n)


def chebweight(x) -> ndarray:
    """The Chebyshev weight function ``1 / sqrt(1 - x**2)``, as
    :func:`numpy.polynomial.chebyshev.chebweight`.

    Parameters
    ----------
    x : array_like
        Points in (-1, 1).

    Returns
    -------
    ndarray
        The weight at ``x``. Differentiable.
    """
    x = xnp.asarray(x)
    return 1.0 / (xnp.sqrt(1.0 + x) * xnp.sqrt(1.0 - x))


def _npts(npts, least: int) -> int:
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < least:
        raise ValueError(f"npts must be >= {least}")
    return n


def chebpts1(npts: int) -> ndarray:
    """Chebyshev points of the first kind (the zeros of ``T_npts``), ascending, as
    :func:`numpy.polynomial.chebyshev.chebpts1`.

    Parameters
    ----------
    npts : int
        Number of points (at least 1).

    Returns
    -------
    ndarray
        ``sin(pi/2 * (2k - npts + 1) / npts)`` for ``k = 0 .. npts-1``.
    """
    n = _npts(npts, 1)
    return xnp.sin(0.5 * np.pi / n * xnp.arange(-n + 1, n + 1, 2))


def chebpts2(npts: int) -> ndarray:
    """Chebyshev points of the second kind (the extrema of ``T_{npts-1}`` and the
    interval's ends), ascending, as :func:`numpy.polynomial.chebyshev.chebpts2`.

    Parameters
    ----------
    npts : int
        Number of points (at least 2).

    Returns
    -------
    ndarray
        ``cos(linspace(-pi, 0, npts))``.
    """
    n = _npts(npts, 2)
    return xnp.cos(xnp.linspace(-np.pi, 0, n))


def chebinterpolate(func: Callable, deg: int, args: tuple = ()) -> ndarray:
    """Chebyshev coefficients of the interpolant of ``func`` at the Chebyshev points
    of the first kind, as :func:`numpy.polynomial.chebyshev.chebinterpolate`.

    Parameters
    ----------
    func : callable
        ``func(x, *args)`` evaluated at the ``deg + 1`` points (an array).
    deg : int
        Degree of the interpolant (non-negative).
    args : tuple, optional
        Extra arguments to ``func``.

    Returns
    -------
    ndarray
        The coefficients (by the discrete orthogonality of the Chebyshev points).
        Differentiable in whatever ``func`` closes over.
    """
    d = np.asarray(deg)
    if d.ndim > 0 or d.dtype.kind not in "iu" or d.size == 0:
        raise TypeError("deg must be an int")
    if d < 0:
        raise ValueError("expected deg >= 0")
    order = int(d) + 1
    x = chebpts1(order)
    c = xnp.dot(chebvander(x, order - 1).T, func(x, *args))
    scale = xnp.asarray([order] + [0.5 * order] * (order - 1))
    return c / scale.reshape((order,) + (1,) * (c.ndim - 1))


class Chebyshev(ABCPolyBase):
    """A Chebyshev series, as :class:`numpy.polynomial.Chebyshev`.

    Parameters
    ----------
    coef : array_like
        Coefficients, lowest degree first.
    domain, window : (2,) array_like, optional
        Default ``[-1., 1.]`` both.
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
    basis_name = "T"

    @classmethod
    def interpolate(cls, func: Callable, deg: int, domain=None, args: tuple = ()) -> Any:
        """The Chebyshev series interpolating ``func`` at the Chebyshev points of the
        first kind mapped to ``domain`` (default: the class domain), as
        :meth:`numpy.polynomial.Chebyshev.interpolate`."""
        domain = cls.domain if domain is None else domain
        coef = chebinterpolate(
            lambda x: func(pu.mapdomain(x, cls.window, domain), *args), deg)
        return cls(coef, domain=domain)


def _cseries_to_zseries(c) -> ndarray:
    """The symmetric z-series (length ``2 n - 1``) of the Chebyshev series ``c``, as
    NumPy's private ``chebyshev._cseries_to_zseries``: ``T_k = (z**k + z**-k) / 2``.

    Parameters
    ----------
    c : 1-D array_like
        Chebyshev coefficients, lowest degree first.

    Returns
    -------
    ndarray
        The z-series, lowest power first, with the dtype of ``c``.
    """
    c = xnp.asarray(c)
    half = c / 2
    if half.dtype != c.dtype:
        half = half.astype(c.dtype)
    zs = xnp.concatenate([xnp.zeros(c.size - 1, dtype=c.dtype), half])
    return zs + zs[::-1]


def _zseries_to_cseries(zs) -> ndarray:
    """The Chebyshev series of the symmetric z-series ``zs``, as NumPy's private
    ``chebyshev._zseries_to_cseries`` (the inverse of :func:`_cseries_to_zseries`).

    Parameters
    ----------
    zs : 1-D array_like
        Odd-length symmetric z-series, lowest power first.

    Returns
    -------
    ndarray
        Chebyshev coefficients, lowest degree first, with the dtype of ``zs``.
    """
    zs = xnp.asarray(zs)
    n = (zs.size + 1) // 2
    c = zs[n - 1:]
    scale = xnp.concatenate([xnp.ones(1, dtype=c.dtype), xnp.full(n - 1, 2, dtype=c.dtype)])
    return c * scale
