"""One implementation of the series functions for every polynomial family.

:class:`Basis` extends :class:`~xnp.polynomial._recurrence.Recurrence` (a family's
three-term recurrence ``P[k+1] = (alpha[k] x + beta[k]) P[k] - gamma[k] P[k-1]`` and
the static matrices derived from it) with the functions on coefficient arrays:

- evaluation is Clenshaw's recurrence (Horner's rule for power series), Vandermonde
  matrices the recurrence itself;
- multiplication by ``x``, derivatives, integrals and conversions to and from power
  series are products with exact static matrices;
- products contract with the tensor ``M[i, k, j]`` (coefficient ``k`` of
  ``P[i] * P[j]``); long division, powers and products of linear factors
  (``fromroots``) are built on products.

Only xnp functions touch the coefficients and points, so everything traces,
differentiates, batches and compiles. The methods' docstrings are templates: ``export``
fills in the family's names for the module-level functions (``chebval`` ...).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

import xnp
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu
from xnp.polynomial._recurrence import _F0, Recurrence, _num


def _linear(x, a: Fraction, b: Fraction):
    """``a * x + b``, skipping multiplications by one and additions of zero."""
    t = x if a == 1 else x * _num(a)
    return t if b == 0 else t + _num(b)


class Basis(Recurrence):
    """A polynomial family's series functions (see :class:`Recurrence` for the
    parameters)."""

    # --- the series functions (exported with templated docstrings) ----------------------
    def line(self, off, scl) -> ndarray:
        """{Kind} series whose graph is a straight line, as
        :func:`numpy.polynomial.{module}.{prefix}line`.

        Parameters
        ----------
        off, scl : scalars
            The line is ``off + scl * x``.

        Returns
        -------
        ndarray
            Its coefficients in the {kind} basis (one coefficient when ``scl`` is
            concretely zero).
        """
        if pu._is_zero(scl):
            return xnp.asarray([off])
        x0, x1 = self._xcol(0).get(0, _F0), self._xcol(0)[1]
        first = off if x0 == 0 else off + scl * _num(x0)
        return xnp.asarray([first, scl if x1 == 1 else scl * _num(x1)])

    def add(self, c1, c2) -> ndarray:
        """Add one {kind} series to another, as
        :func:`numpy.polynomial.{module}.{prefix}add`.

        Parameters
        ----------
        c1, c2 : array_like
            1-d coefficients, lowest degree first.

        Returns
        -------
        ndarray
            Coefficients of the sum, trailing zeros removed (only when the values are
            concrete: under ``jit``/``vmap`` the longer length is kept).
        """
        return pu._add(c1, c2)

    def sub(self, c1, c2) -> ndarray:
        """Subtract one {kind} series from another, as
        :func:`numpy.polynomial.{module}.{prefix}sub`.

        Parameters
        ----------
        c1, c2 : array_like
            1-d coefficients, lowest degree first.

        Returns
        -------
        ndarray
            Coefficients of ``c1 - c2``, trailing zeros removed when concrete.
        """
        return pu._sub(c1, c2)

    def mulx(self, c) -> ndarray:
        """Multiply a {kind} series by ``x``, as
        :func:`numpy.polynomial.{module}.{prefix}mulx`.

        Parameters
        ----------
        c : array_like
            1-d coefficients, lowest degree first.

        Returns
        -------
        ndarray
            Coefficients of the product, one longer (``[0]`` stays ``[0]`` when
            concrete).
        """
        [c] = pu.as_series([c])
        n = c.shape[0]
        if n == 1 and pu._is_zero(c[0]):
            return c
        if self.power:
            return xnp.concatenate([c[:1] * 0, c])
        return xnp.matmul(self._const("x", n + 1, n, c.dtype), c)

    def mul(self, c1, c2) -> ndarray:
        """Multiply one {kind} series by another, as
        :func:`numpy.polynomial.{module}.{prefix}mul`.

        Parameters
        ----------
        c1, c2 : array_like
            1-d coefficients, lowest degree first.

        Returns
        -------
        ndarray
            Coefficients of the product, trailing zeros removed when concrete. Other
            than the power basis, this is one contraction with a static tensor
            (NumPy runs a recurrence), so results agree to rounding.
        """
        c1, c2 = pu.as_series([c1, c2])
        out = self._product(c1, c2)
        if self.prefix not in ("poly", "cheb") and min(c1.shape[0], c2.shape[0]) == 1:
            # NumPy's recurrence adds a double-precision zero series when one factor is a
            # constant, so single-precision input comes back in double precision
            out = out.astype(np.result_type(out.dtype, np.float64))
        return pu.trimseq(out)

    def _product(self, c1: ndarray, c2: ndarray) -> ndarray:
        if self.power:
            return xnp.convolve(c1, c2)
        n1, n2 = c1.shape[0], c2.shape[0]
        m = self._products(n1, n2).transpose(0, 2, 1).reshape(n1 * n2, n1 + n2 - 1)
        # the products c1[i] * c2[j] first: each meets a (rounded) tensor entry once
        return xnp.matmul(xnp.outer(c1, c2).reshape(-1), xnp.asarray(m, dtype=c1.dtype))

    def _times_basis(self, i: int, c: ndarray) -> ndarray:
        n = c.shape[0]
        if self.power:
            return xnp.concatenate([xnp.zeros(i, c.dtype), c])
        m = self._products(i + 1, n)[i, :i + n]
        return xnp.matmul(xnp.asarray(m, dtype=c.dtype), c)

    def div(self, c1, c2) -> tuple[ndarray, ndarray]:
        """Divide one {kind} series by another, as
        :func:`numpy.polynomial.{module}.{prefix}div`.

        Parameters
        ----------
        c1, c2 : array_like
            1-d coefficients, lowest degree first.

        Returns
        -------
        quo, rem : ndarray
            Quotient and remainder (the remainder's trailing zeros removed when
            concrete).

        Raises
        ------
        ZeroDivisionError
            If ``c2`` is concretely zero (traced zeros give infinities instead).
        """
        return pu._div(self._times_basis, c1, c2)

    def pow(self, c, pow: int, maxpower: int | None = None) -> ndarray:
        """Raise a {kind} series to a power, as
        :func:`numpy.polynomial.{module}.{prefix}pow`.

        Parameters
        ----------
        c : array_like
            1-d coefficients, lowest degree first.
        pow : int
            A non-negative integer power.
        maxpower : int or None, optional
            Largest power allowed (the family's default: {maxpower}).

        Returns
        -------
        ndarray
            Coefficients of ``c ** pow``.
        """
        # NumPy trims the intermediate products except for power and Chebyshev series
        mul = self._product if self.prefix in ("poly", "cheb") else self.mul
        return pu._pow(mul, c, pow, maxpower)

    def val(self, x, c, tensor: bool = True) -> Any:
        """Evaluate a {kind} series at ``x``, as
        :func:`numpy.polynomial.{module}.{prefix}val`.

        Parameters
        ----------
        x : array_like or scalar
            Points; lists and tuples become arrays. A series object also works
            (composition, used by ``convert``).
        c : array_like
            Coefficients along the first axis, lowest degree first; further axes hold
            several series.
        tensor : bool, optional
            With an array ``x``, evaluate every series at every point (the result's
            shape is ``c.shape[1:] + x.shape``); otherwise broadcast ``c[k]`` with
            ``x``.

        Returns
        -------
        ndarray or scalar
            The values, by Clenshaw's recurrence (Horner's rule for power series).
            Differentiable in ``x`` and ``c``.
        """
        c = pu._float_coef(c)
        if isinstance(x, (tuple, list, np.ndarray)):
            x = xnp.asarray(x)
        if isinstance(x, ndarray) and tensor:
            c = c.reshape(c.shape + (1,) * x.ndim)
        return self._clenshaw(x, c)

    def _clenshaw(self, x, c):
        n = c.shape[0]
        b1, b2 = c[n - 1] + x * 0, None
        lines: dict = {}
        for k in range(n - 2, -1, -1):
            a, b, _ = self.rec(k)
            if (a, b) not in lines:
                lines[a, b] = _linear(x, a, b)
            t = b1 * lines[a, b] + c[k]
            g = self.rec(k + 1)[2]
            if b2 is not None and g:
                t = t - (b2 if g == 1 else b2 * _num(g))
            b1, b2 = t, b1
        return b1

    def vander(self, x, deg: int) -> ndarray:
        """Pseudo-Vandermonde matrix of the {kind} basis, as
        :func:`numpy.polynomial.{module}.{prefix}vander`.

        Parameters
        ----------
        x : array_like
            Points; integers become float64.
        deg : int
            Degree of the matrix (non-negative).

        Returns
        -------
        ndarray
            Shape ``x.shape + (deg + 1,)``; entry ``[..., k]`` is the basis polynomial
            of degree ``k`` at ``x``. Differentiable in ``x``.
        """
        ideg = pu._as_int(deg, "deg")
        if ideg < 0:
            raise ValueError("deg must be non-negative")
        x = xnp.atleast_1d(xnp.asarray(x)) + 0.0
        v = [x * 0 + 1]
        for k in range(ideg):
            a, b, g = self.rec(k)
            t = _linear(x, a, b) if k == 0 else v[k] * _linear(x, a, b)
            if k and g:
                t = t - (v[k - 1] if g == 1 else v[k - 1] * _num(g))
            v.append(t)
        return xnp.stack(v, axis=-1)

    def der(self, c, m: int = 1, scl=1, axis: int = 0) -> ndarray:
        """Differentiate a {kind} series, as
        :func:`numpy.polynomial.{module}.{prefix}der`.

        Parameters
        ----------
        c : array_like
            Coefficients along ``axis``, lowest degree first.
        m : int, optional
            Number of derivatives (non-negative).
        scl : scalar, optional
            Each differentiation also multiplies by ``scl`` (a change of variable).
        axis : int, optional
            Axis of the coefficients.

        Returns
        -------
        ndarray
            Coefficients of the derivative (``c[:1] * 0`` when ``m`` exceeds the
            degree). Differentiable in ``c`` and ``scl``. NumPy's ``hermeder`` leaves
            the coefficient axis first in that last case; here it stays at ``axis``.
        """
        c = pu._float_coef(c)
        cnt = pu._as_int(m, "the order of derivation")
        iaxis = pu._as_int(axis, "the axis")
        if cnt < 0:
            raise ValueError("The order of derivation must be non-negative")
        iaxis = pu._normalize_axis(iaxis, c.ndim)
        if cnt == 0:
            return c
        dtype = c.dtype
        c = xnp.moveaxis(c, iaxis, 0)
        n = c.shape[0]
        if cnt >= n:
            c = c[:1] * 0
        else:
            for _ in range(cnt):
                c = (c * scl).astype(dtype)
                c = xnp.tensordot(self._const("der", n - 1, n, dtype), c, axes=1)
                n -= 1
        return xnp.moveaxis(c, 0, iaxis)

    def int(self, c, m: int = 1, k=(), lbnd=0, scl=1, axis: int = 0) -> ndarray:
        """Integrate a {kind} series, as
        :func:`numpy.polynomial.{module}.{prefix}int`.

        Parameters
        ----------
        c : array_like
            Coefficients along ``axis``, lowest degree first.
        m : int, optional
            Number of integrations (non-negative).
        k : scalar or sequence, optional
            Integration constants: after the ``i``-th integration the value at
            ``lbnd`` is ``k[i]`` (missing constants are zero).
        lbnd : scalar, optional
            Lower bound of the integrals.
        scl : scalar, optional
            Each integration also multiplies by ``scl``.
        axis : int, optional
            Axis of the coefficients.

        Returns
        -------
        ndarray
            Coefficients of the integral, ``m`` longer along ``axis`` (integrating a
            concretely zero constant keeps one coefficient, as NumPy; traced zeros
            get the general length). Differentiable in ``c``, ``k``, ``lbnd``,
            ``scl``.
        """
        c = pu._float_coef(c)
        k = list(k) if np.iterable(k) else [k]
        cnt = pu._as_int(m, "the order of integration")
        iaxis = pu._as_int(axis, "the axis")
        if cnt < 0:
            raise ValueError("The order of integration must be non-negative")
        if len(k) > cnt:
            raise ValueError("Too many integration constants")
        if np.ndim(lbnd) != 0:
            raise ValueError("lbnd must be a scalar.")
        if np.ndim(scl) != 0:
            raise ValueError("scl must be a scalar.")
        iaxis = pu._normalize_axis(iaxis, c.ndim)
        if cnt == 0:
            return c
        if c.shape[iaxis] == 0:     # NumPy's recurrence reads the first coefficient
            raise IndexError("index 0 is out of bounds: no coefficients to integrate")
        dtype = c.dtype
        c = xnp.moveaxis(c, iaxis, 0)
        for const in k + [0] * (cnt - len(k)):
            n = c.shape[0]
            c = (c * scl).astype(dtype)
            if n == 1 and pu._is_zero(c[0]):
                c = c.at[0].add(const)
                continue
            c = xnp.tensordot(self._const("int", n + 1, n, dtype), c, axes=1)
            c = c.at[0].add(const - self.val(lbnd, c))
        return xnp.moveaxis(c, 0, iaxis)

    def fromroots(self, roots) -> ndarray:
        """{Kind} series with the given roots, as
        :func:`numpy.polynomial.{module}.{prefix}fromroots`.

        Parameters
        ----------
        roots : array_like
            1-d sequence of roots.

        Returns
        -------
        ndarray
            Coefficients of ``(x - r[0]) * (x - r[1]) * ...`` in the {kind} basis
            (``[1.]`` for no roots). The roots are sorted first, as in NumPy.
            Differentiable in the roots.
        """
        return pu._fromroots(self.line, self.mul, roots)

    def fit(self, x, y, deg, rcond=None, full: bool = False, w=None) -> Any:
        """Least-squares fit of a {kind} series to data, as
        :func:`numpy.polynomial.{module}.{prefix}fit`.

        Parameters
        ----------
        x : array_like, shape (M,)
            Sample points.
        y : array_like, shape (M,) or (M, K)
            Sample values (several data sets as columns).
        deg : int or 1-d sequence of int
            Degree of the fit, or the degrees of the terms to include.
        rcond : float, optional
            Cut-off ratio for small singular values (default ``len(x) * eps``).
        full : bool, optional
            Also return ``[residuals, rank, singular_values, rcond]``.
        w : array_like, shape (M,), optional
            Weights applied to the unsquared residuals.

        Returns
        -------
        coef : ndarray
            Shape ``(deg + 1,)`` or ``(deg + 1, K)``.
        [residuals, rank, singular_values, rcond] : list
            Only with ``full=True``.

        Notes
        -----
        Eagerly this solves with LAPACK's ``gelsd`` (NumPy's route, same results);
        under ``grad``, ``jit`` and ``vmap`` through the pseudo-inverse, so it
        differentiates and compiles. ``full=True`` and the RankWarning need the rank,
        hence concrete values (``full=True`` raises under ``jit``/``vmap``).
        """
        return pu._fit(self.vander, x, y, deg, rcond, full, w)

    def to_poly(self, c) -> ndarray:
        """Convert {kind} coefficients to power-series coefficients, as
        :func:`numpy.polynomial.{module}.{prefix}2poly`.

        Parameters
        ----------
        c : array_like
            1-d coefficients in the {kind} basis, lowest degree first.

        Returns
        -------
        ndarray
            The same polynomial's power-series coefficients (one product with an
            exact conversion matrix). Differentiable in ``c``.
        """
        [c] = pu.as_series([c])
        n = c.shape[0]
        return xnp.matmul(self._const("b2p", n, n, c.dtype), c)

    def from_poly(self, pol) -> ndarray:
        """Convert power-series coefficients to {kind} coefficients, as
        :func:`numpy.polynomial.{module}.poly2{prefix}`.

        Parameters
        ----------
        pol : array_like
            1-d power-series coefficients, lowest degree first.

        Returns
        -------
        ndarray
            The {kind} coefficients (at least float64, as NumPy). Differentiable.
        """
        [pol] = pu.as_series([pol])
        n = pol.shape[0]
        dtype = np.result_type(pol.dtype, np.float64)
        return xnp.matmul(self._const("p2b", n, n, dtype), pol.astype(dtype))

    def trim(self, c, tol: float = 0) -> ndarray:
        """Remove small trailing coefficients, as
        :func:`numpy.polynomial.{module}.{prefix}trim`.

        Parameters
        ----------
        c : array_like
            1-d coefficients.
        tol : float, optional
            Trailing coefficients of magnitude at most ``tol`` are removed.

        Returns
        -------
        ndarray
            The trimmed coefficients (``[0]`` if none remain). The length depends on
            the values: ConcretizationTypeError under ``jit``/``vmap``.
        """
        return pu.trimcoef(c, tol)

    def val2d(self, x, y, c) -> ndarray:
        """Evaluate a 2-d {kind} series at the points ``(x, y)``, as
        :func:`numpy.polynomial.{module}.{prefix}val2d`.

        Parameters
        ----------
        x, y : array_like
            Points of the same shape.
        c : array_like
            Coefficients; ``c[i, j]`` multiplies ``P[i](x) * P[j](y)``.

        Returns
        -------
        ndarray
            Values of shape ``c.shape[2:] + x.shape``.
        """
        return pu._valnd(self.val, c, x, y)

    def val3d(self, x, y, z, c) -> ndarray:
        """Evaluate a 3-d {kind} series at the points ``(x, y, z)``, as
        :func:`numpy.polynomial.{module}.{prefix}val3d`.

        Parameters
        ----------
        x, y, z : array_like
            Points of the same shape.
        c : array_like
            Coefficients; ``c[i, j, k]`` multiplies ``P[i](x) P[j](y) P[k](z)``.

        Returns
        -------
        ndarray
            Values of shape ``c.shape[3:] + x.shape``.
        """
        return pu._valnd(self.val, c, x, y, z)

    def grid2d(self, x, y, c) -> ndarray:
        """Evaluate a 2-d {kind} series on the Cartesian product of ``x`` and ``y``, as
        :func:`numpy.polynomial.{module}.{prefix}grid2d`.

        Parameters
        ----------
        x, y : array_like
            The two sets of points.
        c : array_like
            Coefficients; ``c[i, j]`` multiplies ``P[i](a) * P[j](b)``.

        Returns
        -------
        ndarray
            Values of shape ``c.shape[2:] + x.shape + y.shape``.
        """
        return pu._gridnd(self.val, c, x, y)

    def grid3d(self, x, y, z, c) -> ndarray:
        """Evaluate a 3-d {kind} series on the Cartesian product of ``x``, ``y`` and
        ``z``, as :func:`numpy.polynomial.{module}.{prefix}grid3d`.

        Parameters
        ----------
        x, y, z : array_like
            The three sets of points.
        c : array_like
            Coefficients; ``c[i, j, k]`` multiplies ``P[i](a) P[j](b) P[k](c)``.

        Returns
        -------
        ndarray
            Values of shape ``c.shape[3:] + x.shape + y.shape + z.shape``.
        """
        return pu._gridnd(self.val, c, x, y, z)

    def vander2d(self, x, y, deg) -> ndarray:
        """Pseudo-Vandermonde matrix of 2-d {kind} series, as
        :func:`numpy.polynomial.{module}.{prefix}vander2d`.

        Parameters
        ----------
        x, y : array_like
            Points of the same shape.
        deg : sequence of two ints
            Maximum degrees in ``x`` and ``y``.

        Returns
        -------
        ndarray
            Shape ``x.shape + ((deg[0] + 1) * (deg[1] + 1),)``; column
            ``(deg[1] + 1) * i + j`` is ``P[i](x) * P[j](y)``.
        """
        return pu._vander_nd_flat((self.vander, self.vander), (x, y), deg)

    def vander3d(self, x, y, z, deg) -> ndarray:
        """Pseudo-Vandermonde matrix of 3-d {kind} series, as
        :func:`numpy.polynomial.{module}.{prefix}vander3d`.

        Parameters
        ----------
        x, y, z : array_like
            Points of the same shape.
        deg : sequence of three ints
            Maximum degrees in ``x``, ``y`` and ``z``.

        Returns
        -------
        ndarray
            Shape ``x.shape + (prod(deg + 1),)``, the products of the basis
            polynomials in C order of their degrees.
        """
        return pu._vander_nd_flat((self.vander,) * 3, (x, y, z), deg)
