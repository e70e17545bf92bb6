"""The static side of a polynomial family: its three-term recurrence and what follows.

:class:`Recurrence` holds the recurrence ``P[k+1](x) = (alpha[k] x + beta[k]) P[k](x) -
gamma[k] P[k-1](x)``, ``P[0] = 1`` (exact rationals), and derives from it, once per size
and exactly (``fractions.Fraction``), the matrices of multiplication by ``x``,
differentiation, integration and the conversions to and from the power basis; in float64
the product tensor and the (symmetrized) companion matrices. These depend on sizes only.
It also holds the functions built on eigenvalues (``companion``, ``roots``, ``gauss``)
and ``export``, which makes the module-level functions (``chebval`` ...) from the
methods of :class:`xnp.polynomial._basis.Basis`, with the docstrings filled in.
"""

from __future__ import annotations

import functools
import inspect
import math
from fractions import Fraction
from typing import Any, Callable

import numpy as np

import xnp
from transforms.core import concrete_or_error
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu

_F0, _F1 = Fraction(0), Fraction(1)


def _num(f: Fraction):
    """A Fraction as a Python int when integral, else a float."""
    return int(f) if f.denominator == 1 else float(f)


class Recurrence:
    """A polynomial family's recurrence, static matrices and eigenvalue functions.

    Parameters
    ----------
    prefix, module, kind : str
        Function prefix (``"cheb"``), module name (``"chebyshev"``) and class name.
    recurrence : callable
        ``recurrence(k) -> (alpha, beta, gamma)``, rational numbers.
    maxpower : int or None
        Default ``maxpower`` of the ``pow`` function.
    mu0 : float or None
        Integral of the weight function (the sum of Gauss weights).
    symmetric : bool
        Whether the weight is even (Gauss nodes and weights are symmetrized).
    """

    def __init__(self, prefix: str, module: str, kind: str, recurrence: Callable, *,
                 maxpower: int | None = 16, mu0: float | None = None,
                 symmetric: bool = True):
        self.prefix, self.module, self.kind = prefix, module, kind
        self.power = prefix == "poly"
        self.maxpower, self.mu0, self.symmetric = maxpower, mu0, symmetric
        self._recurrence = recurrence
        self._rec: list[tuple] = []
        self._cols: dict[str, Any] = {"b2p": [], "p2b": [], "der": [], "int": []}
        self._floats: dict[tuple, np.ndarray] = {}

    # --- exact static data --------------------------------------------------------------
    def rec(self, k: int) -> tuple:
        while len(self._rec) <= k:
            self._rec.append(tuple(map(Fraction, self._recurrence(len(self._rec)))))
        return self._rec[k]

    def _xcol(self, k: int) -> dict:
        """Coefficients of ``x * P[k]``: {index: Fraction}."""
        a, b, g = self.rec(k)
        col = {k + 1: 1 / a}
        if b:
            col[k] = -b / a
        if k and g:
            col[k - 1] = g / a
        return col

    def _mulx_exact(self, v: list) -> list:
        out = [_F0] * (len(v) + 1)
        for k, vk in enumerate(v):
            if vk:
                for i, f in self._xcol(k).items():
                    out[i] += f * vk
        return out

    def _columns(self, name: str, n: int) -> list:
        cols = self._cols[name]
        while len(cols) < n:
            k = len(cols)
            cols.append(getattr(self, "_next_" + name)(k, cols))
        return cols[:n]

    def _next_b2p(self, k: int, cols: list) -> list:      # power coefficients of P[k]
        if k == 0:
            return [_F1]
        a, b, g = self.rec(k - 1)
        prev = cols[k - 1] + [_F0]
        out = [_F0] + [a * v for v in cols[k - 1]]
        out = [o + b * p for o, p in zip(out, prev)]
        if k > 1 and g:
            out = [o - g * p for o, p in zip(out, cols[k - 2] + [_F0, _F0])]
        return out

    def _next_p2b(self, k: int, cols: list) -> list:      # expansion of x**k
        return [_F1] if k == 0 else self._mulx_exact(cols[k - 1])

    def _next_der(self, k: int, cols: list) -> list:      # expansion of P[k]'
        if k == 0:
            return []
        a, b, g = self.rec(k - 1)
        prev = cols[k - 1]
        out = [a * v for v in self._mulx_exact(prev)] if prev else [_F0] * k
        out += [_F0] * (k - len(out))
        out[k - 1] += a
        for i, v in enumerate(prev):
            out[i] += b * v
        if k > 1 and g:
            for i, v in enumerate(cols[k - 2]):
                out[i] -= g * v
        return out

    def _next_int(self, k: int, cols: list) -> list:      # an antiderivative of P[k]
        der = self._columns("der", k + 2)                 # solve sum_j y[j] P[j]' = P[k]
        y = [_F0] * (k + 2)
        target = [_F0] * (k + 1)
        target[k] = _F1
        for j in range(k + 1, 0, -1):
            y[j] = target[j - 1] / der[j][j - 1]
            for i, v in enumerate(der[j]):
                target[i] -= y[j] * v
        return y

    def _matrix(self, name: str, rows: int, cols: int) -> np.ndarray:
        key = (name, rows, cols)
        m = self._floats.get(key)
        if m is None:
            m = np.zeros((rows, cols))
            if name == "x":
                for k in range(cols):
                    for i, f in self._xcol(k).items():
                        if i < rows:
                            m[i, k] = float(f)
            else:
                for k, col in enumerate(self._columns(name, cols)):
                    m[:len(col), k] = [float(f) for f in col[:rows]]
            m.flags.writeable = False
            self._floats[key] = m
        return m

    def _const(self, name: str, rows: int, cols: int, dtype) -> ndarray:
        return xnp.asarray(self._matrix(name, rows, cols), dtype=dtype)

    def _product_column(self, i: int, j: int) -> list:
        """Exact coefficients of ``P[i] * P[j]`` (by the recurrence in ``i``)."""
        i, j = min(i, j), max(i, j)
        cache = self._cols.setdefault("prod", {})
        if (i, j) not in cache:
            if i == 0:
                cache[0, j] = [_F0] * j + [_F1]
            else:
                a, b, g = self.rec(i - 1)
                prev = self._product_column(i - 1, j)
                col = [a * v for v in self._mulx_exact(prev)]
                for k, v in enumerate(prev):
                    col[k] += b * v
                if i > 1 and g:
                    for k, v in enumerate(self._product_column(i - 2, j)):
                        col[k] -= g * v
                cache[i, j] = col
        return cache[i, j]

    def _products(self, n1: int, n2: int) -> np.ndarray:
        """``M[i, k, j]``: coefficient ``k`` of ``P[i] * P[j]``, correctly rounded."""
        key = ("prod", n1, n2)
        if key not in self._floats:
            m = np.zeros((n1, n1 + n2 - 1, n2))
            for i in range(n1):
                for j in range(n2):
                    col = self._product_column(i, j)
                    m[i, :len(col), j] = [float(f) for f in col]
            m.flags.writeable = False
            self._floats[key] = m
        return self._floats[key]

    def _sym_offdiag(self, k: int) -> float:
        """Entry (k, k+1) of the symmetrized multiplication-by-x matrix."""
        low, up = self._xcol(k)[k + 1], self._xcol(k + 1).get(k, _F0)
        return math.copysign(math.sqrt(low * up), low) if up else float(low)

    def _companion_static(self, n: int) -> tuple:
        key = ("companion", n)
        if key not in self._floats:
            mat = np.zeros((n, n))
            for k in range(n):
                mat[k, k] = float(self._xcol(k).get(k, _F0))
                if k + 1 < n:
                    mat[k + 1, k] = mat[k, k + 1] = self._sym_offdiag(k)
            if self.power:
                mat = self._matrix("x", n, n)[:n].copy()
            ratios = [math.sqrt(self._xcol(k)[k + 1] / self._xcol(k + 1)[k])
                      if not self.power else 1.0 for k in range(n - 1)]
            scale = np.ones(n)                      # s[k] / s[n-1], s[k+1] / s[k] = ratio
            for k in range(n - 2, -1, -1):
                scale[k] = scale[k + 1] * ratios[k]
            self._floats[key] = (mat, scale, float(self._xcol(n - 1)[n]))
        return self._floats[key]

    def companion(self, c) -> ndarray:
        """Companion matrix of a {kind} series, as
        :func:`numpy.polynomial.{module}.{prefix}companion`.

        Parameters
        ----------
        c : array_like
            1-d coefficients, degree at least one.

        Returns
        -------
        ndarray
            Its eigenvalues are the roots; for the orthogonal families it is scaled
            to be symmetric when ``c`` is a basis polynomial, as NumPy's.
        """
        [c] = pu.as_series([c])
        n = c.shape[0] - 1
        if n < 1:
            raise ValueError("Series must have maximum degree of at least 1.")
        if n == 1:
            return xnp.asarray([[self._root_of_line(c)]])
        mat, scale, lead = self._companion_static(n)
        ratio = c[:-1] / c[-1]
        if not self.power:
            ratio = ratio * xnp.asarray(scale) * lead
        mat = xnp.asarray(mat, dtype=c.dtype)
        return mat.at[:, -1].set((mat[:, -1] - ratio).astype(c.dtype))

    def _root_of_line(self, c):
        x0, x1 = self._xcol(0).get(0, _F0), self._xcol(0)[1]
        r = -(c[0] / c[1])
        r = r if x1 == 1 else r * _num(x1)
        return r if x0 == 0 else r + _num(x0)

    def roots(self, c) -> ndarray:
        """Roots of a {kind} series, as :func:`numpy.polynomial.{module}.{prefix}roots`.

        Parameters
        ----------
        c : array_like
            1-d coefficients, lowest degree first.

        Returns
        -------
        ndarray
            The sorted roots: real when every eigenvalue of the companion matrix is
            exactly real, complex otherwise, as NumPy.

        Notes
        -----
        The result's length and dtype depend on the values, so this works eagerly
        and under ``grad`` but raises ConcretizationTypeError under ``jit``/``vmap``.
        """
        [c] = pu.as_series([c])
        concrete_or_error(c, f"{self.prefix}roots (the number and dtype of the roots)")
        if c.shape[0] < 2:
            return xnp.zeros(0, c.dtype)
        if c.shape[0] == 2:
            return xnp.stack([self._root_of_line(c)])
        m = self.companion(c)
        r = xnp.linalg.eigvals(m if self.power else m[::-1, ::-1])
        if c.dtype.kind != "c" and not np.imag(concrete_or_error(r)).any():
            r = r.real
        return xnp.sort(r)

    def gauss(self, deg: int) -> tuple[ndarray, ndarray]:
        """Gauss quadrature nodes and weights of the {kind} weight function, as
        :func:`numpy.polynomial.{module}.{prefix}gauss`.

        Parameters
        ----------
        deg : int
            Number of nodes (positive).

        Returns
        -------
        x, w : ndarray
            Nodes (eigenvalues of the symmetric Jacobi matrix, refined by one Newton
            step) and weights (from the Christoffel-Darboux formula), exact for
            polynomials of degree ``2 * deg - 1`` times the weight function.
        """
        n = pu._as_int(deg, "deg")
        if n <= 0:
            raise ValueError("deg must be a positive integer")
        mat = self._companion_static(n)[0]
        x = xnp.linalg.eigvalsh(xnp.asarray(mat))
        x = x - xnp.divide(*self._orthonormal(x, n)[1:])
        prev, _, dp = self._orthonormal(x, n)
        fm = prev / xnp.max(xnp.abs(prev))
        df = dp / xnp.max(xnp.abs(dp))
        w = 1 / (fm * df)
        if self.symmetric:
            w = (w + w[::-1]) / 2
            x = (x - x[::-1]) / 2
        return x, w * (self.mu0 / w.sum())

    def _orthonormal(self, x, n: int) -> tuple:
        """Values of the orthonormal polynomials of degrees n-1 and n (up to a common
        factor), and the derivative of the latter, at ``x``."""
        p_prev, p, dp_prev, dp = 0 * x, 1 + 0 * x, 0 * x, 0 * x
        for k in range(n):
            d = float(self._xcol(k).get(k, _F0))
            o_prev = self._sym_offdiag(k - 1) if k else 0.0
            o = self._sym_offdiag(k)
            p_next = ((x - d) * p - o_prev * p_prev) / o
            dp_next = ((x - d) * dp + p - o_prev * dp_prev) / o
            p_prev, p, dp_prev, dp = p, p_next, dp, dp_next
        return p_prev, p, dp

    # --- export -------------------------------------------------------------------------
    def export(self, what: str, name: str | None = None) -> Callable:
        """The module-level function for method ``what`` (``chebval`` for ``val``), with
        the method's signature and its docstring template filled in."""
        method = getattr(self, what)
        sig, doc = _template(getattr(type(self), what))
        if what == "pow":
            params = list(sig.parameters.values())
            params[-1] = params[-1].replace(default=self.maxpower)
            sig = sig.replace(parameters=params)
            maxpower = self.maxpower

            def fn(c, pow, maxpower=maxpower):
                return method(c, pow, maxpower)
        else:
            def fn(*args, **kwargs):
                return method(*args, **kwargs)
        fn.__name__ = fn.__qualname__ = name or self.prefix + what
        fn.__module__ = f"xnp.polynomial.{self.module}"
        fn.__signature__ = sig
        for key, value in (("{Kind}", self.kind[:1].upper() + self.kind[1:]),
                           ("{kind}", self.kind),
                           ("{module}", self.module), ("{prefix}", self.prefix),
                           ("{maxpower}", str(self.maxpower))):
            doc = doc.replace(key, value)
        fn.__doc__ = doc
        return fn


@functools.lru_cache(maxsize=None)
def _template(method: Callable) -> tuple:
    """A method's signature without ``self`` and its cleaned docstring template."""
    sig = inspect.signature(method)
    return sig.replace(parameters=list(sig.parameters.values())[1:]), \
        inspect.cleandoc(method.__doc__)
