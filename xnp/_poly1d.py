"""NumPy's legacy polynomial class ``poly1d`` and ``polydiv``.

A :class:`poly1d` holds its coefficients (highest power first) as an xnp array, so
evaluating it, and its arithmetic, derivatives and integrals, are xnp computations that
trace and differentiate. Dropping leading zero coefficients (at construction, and in
``polydiv``'s remainder) depends on the values: it is done whenever the coefficients are
concrete (eagerly and under ``grad``); traced coefficients (``jit``/``vmap``) are kept as
given by ``poly1d`` and refused by ``polydiv``.
"""

from __future__ import annotations

import operator
import re
from typing import Any

import numpy as np

import xnp
from transforms.core import ConcretizationTypeError, concrete_or_error
from xnp._array import ndarray

__all__ = ["poly1d", "polydiv"]


def _concrete(a) -> np.ndarray | None:
    """The NumPy value of the xnp array ``a``, or None when it is traced."""
    try:
        return np.asarray(concrete_or_error(a))
    except ConcretizationTypeError:
        return None


def _strip_leading_zeros(c: ndarray) -> ndarray:
    """``c`` without its leading zeros (``[0]`` when nothing is left); traced ``c`` is
    returned unchanged."""
    values = _concrete(c)
    if values is None:
        return c
    nonzero = np.flatnonzero(values)
    if nonzero.size == 0:
        return xnp.zeros(1, c.dtype)
    return c[int(nonzero[0]):] if nonzero[0] else c


class poly1d:
    """A one-dimensional polynomial, as :class:`numpy.poly1d`.

    ``poly1d(c)`` makes the polynomial with coefficients ``c`` (highest power first);
    ``poly1d(r, r=True)`` the monic polynomial with roots ``r``; ``poly1d(p)`` for a
    poly1d shares its coefficients. ``variable`` names the unknown in ``str(p)``.

    Attributes ``coeffs`` (also ``c``, ``coef``, ``coefficients``), ``order`` (``o``),
    ``roots`` (``r``) and ``variable``; ``p(x)`` evaluates (a poly1d argument composes),
    ``+ - * / **`` combine polynomials and scalars (``/`` by a polynomial gives
    ``(quotient, remainder)``), ``p[k]`` is the coefficient of ``x**k``, and ``deriv`` /
    ``integ`` differentiate and integrate. ``repr`` and ``str`` print as NumPy's.

    Differences from NumPy: coefficients are xnp arrays. Leading zeros are stripped only
    when the coefficients are concrete: under ``jit``/``vmap`` ``poly1d(c)`` keeps traced
    coefficients as given (evaluation is unaffected; ``order`` then counts the leading
    zeros), and ``roots``, ``str``, ``repr`` and ``polydiv`` need concrete values. The
    module functions (``xnp.polyadd``, ``xnp.polyder``, ...) return a poly1d when given
    one, as NumPy's do.
    ``p[k] = v`` writes into the coefficient array (shared with ``poly1d(p)`` copies, as
    in NumPy); when leading zeros were stripped it does not reach the array ``p`` was made
    from (xnp does not track writes through views).
    """

    __module__ = "xnp"     # prints as <class 'xnp.poly1d'>, as NumPy's 'numpy.poly1d'

    __hash__ = None     # type: ignore[assignment]  (mutable, as NumPy's)

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = xnp.poly(c_or_r)
        c = xnp.atleast_1d(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        if c.shape[0] == 0:
            c = xnp.zeros(1, c.dtype)
        self._coeffs = _strip_leading_zeros(c)
        self._variable = "x" if variable is None else variable

    # --- attributes -------------------------------------------------------------------------
    @property
    def coeffs(self) -> ndarray:
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self) -> str:
        """The name of the unknown, used by ``str``."""
        return self._variable

    @property
    def order(self) -> int:
        """The degree (the number of coefficients less one)."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self) -> ndarray:
        """The roots, as :func:`xnp.roots` (concrete coefficients only)."""
        return xnp.roots(self._coeffs)

    r = roots

    # --- conversions and printing -----------------------------------------------------------
    def __array__(self, t=None, copy=None):
        values = np.asarray(concrete_or_error(self._coeffs, "poly1d.__array__"))
        if t is not None:
            values = values.astype(t, copy=False)
        return np.array(values, copy=True) if copy else values

    def __repr__(self) -> str:
        values = _concrete(self._coeffs)
        if values is None:
            return f"poly1d({self._coeffs!r})"
        return f"poly1d({repr(values)[6:-1]})"

    def __str__(self) -> str:
        values = np.asarray(concrete_or_error(self._coeffs, "str(poly1d)"))
        return _format_poly(values, self._variable)

    def __len__(self) -> int:
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    # --- evaluation -------------------------------------------------------------------------
    def __call__(self, val):
        if isinstance(val, poly1d):     # composition, by Horner's rule on polynomials
            # NumPy starts from 0 * val + c[0]: the constant c[0] in the common dtype.
            out = poly1d(self._coeffs[:1] + xnp.zeros(1, val._coeffs.dtype))
            for c in self._coeffs[1:]:
                out = out * val + c
            return out
        return xnp.polyval(self._coeffs, val)

    # --- arithmetic -------------------------------------------------------------------------
    def __neg__(self) -> poly1d:
        return poly1d(-self._coeffs)

    def __pos__(self) -> poly1d:
        return self

    def __mul__(self, other) -> poly1d:
        if np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(xnp.convolve(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other) -> poly1d:
        if np.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(xnp.convolve(poly1d(other)._coeffs, self._coeffs))

    def __add__(self, other) -> poly1d:
        return poly1d(xnp.polyadd(self._coeffs, poly1d(other)._coeffs))

    def __radd__(self, other) -> poly1d:
        return poly1d(xnp.polyadd(poly1d(other)._coeffs, self._coeffs))

    def __sub__(self, other) -> poly1d:
        return poly1d(xnp.polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other) -> poly1d:
        return poly1d(xnp.polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val) -> poly1d:
        if not np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        out = xnp.asarray([1])
        for _ in range(int(val)):
            out = xnp.convolve(self._coeffs, out)
        return poly1d(out)

    def __truediv__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if np.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return xnp.all(self._coeffs == other._coeffs)     # np.True_ eagerly, as NumPy's

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        same = self.__eq__(other)
        return xnp.logical_not(same) if isinstance(same, ndarray) else not same

    # --- coefficients by power ----------------------------------------------------------------
    def __getitem__(self, val):
        val = operator.index(val)
        if val < 0 or val > self.order:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        key = operator.index(key)
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            pad = xnp.zeros(key - self.order, self._coeffs.dtype)
            self._coeffs = xnp.concatenate([pad, self._coeffs])
        self._coeffs[self.order - key] = val

    # --- calculus ---------------------------------------------------------------------------
    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative, with integration constants ``k``, as
        :meth:`numpy.poly1d.integ` (see :func:`xnp.polyint`)."""
        return poly1d(xnp.polyint(self._coeffs, m=m, k=k))

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative, as :meth:`numpy.poly1d.deriv`."""
        return poly1d(xnp.polyder(self._coeffs, m=m))


# --- printing ---------------------------------------------------------------------------------
def _num(q) -> str:
    s = "%.4g" % q
    return s[:-5] if s.endswith(".0000") else s


def _coef_text(c) -> str:
    if np.iscomplexobj(c) and c.imag != 0:
        if c.real == 0:
            return f"{_num(c.imag)}j"
        return f"({_num(c.real)} + {_num(c.imag)}j)"
    return _num(np.real(c))


def _format_poly(values: np.ndarray, var: str) -> str:
    """NumPy's two-line rendering: terms on the second line, powers raised above them."""
    nz = np.flatnonzero(values != 0)
    kept = values[nz[0]:] if nz.size else values[:0]
    top = len(kept) - 1
    text = "0"
    for k, c in enumerate(kept):
        coef, power = _coef_text(c), top - k
        if coef == "0":
            term = "0" if power == 0 and k == 0 else ""
        elif power == 0:
            term = coef
        elif power == 1:
            term = f"{coef} {var}"
        else:
            term = f"{coef} {var}**{power}"
        if k == 0:
            text = term
        elif term:
            text += f" - {term[1:]}" if term[0] == "-" else f" + {term}"
    return _raise_powers(text)


def _raise_powers(text: str, width: int = 70) -> str:
    """Move each ``**n`` above the line (``x**2`` -> ``2`` over ``x``), wrapping both
    lines at ``width`` characters."""
    upper, lower, out, pos = "", "", " ", 0
    for match in re.finditer(r"\*\*([0-9]*)", text):
        digits = match.group(1)
        piece = text[pos:match.start()]
        pos = match.end()
        low = piece + " " * (len(digits) - 1)
        high = " " * (len(piece) - 1) + digits
        if len(lower) + len(low) > width or len(upper) + len(high) > width:
            out += f"{upper}\n{lower}\n "
            upper, lower = high, low
        else:
            upper, lower = upper + high, lower + low
    return out + f"{upper}\n{lower}" + text[pos:]


# --- division ---------------------------------------------------------------------------------
def polydiv(u, v) -> tuple[Any, Any]:
    """Quotient and remainder of the polynomial division ``u / v`` (coefficients highest
    power first), as :func:`numpy.polydiv`.

    Long division in the common floating dtype of ``u`` and ``v``; the remainder's leading
    coefficients that are ``allclose`` to zero (``|r| <= 1e-8``) are dropped, as NumPy
    does. Returns ``(q, r)`` arrays, or poly1d's when either input is one.

    Differences from NumPy: the remainder's length depends on its values, so they must be
    concrete (works eagerly and under ``grad``; ConcretizationTypeError under
    ``jit``/``vmap``).
    """
    as_poly = isinstance(u, poly1d) or isinstance(v, poly1d)
    if isinstance(u, poly1d):
        u = u.coeffs
    if isinstance(v, poly1d):
        v = v.coeffs
    u = xnp.atleast_1d(u) + 0.0
    v = xnp.atleast_1d(v) + 0.0
    dtype = (u[0] + v[0]).dtype
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = xnp.zeros((max(m - n + 1, 1),), dtype)
    rem = u.astype(dtype)
    for k in range(m - n + 1):
        d = scale * rem[k]
        q[k] = d
        rem[k:k + n + 1] = rem[k:k + n + 1] - d * v
    while rem.shape[0] > 1 and bool(concrete_or_error(
            xnp.abs(rem[0]) <= 1e-8, "polydiv's remainder (its length)")):
        rem = rem[1:]
    if as_poly:
        return poly1d(q), poly1d(rem)
    return q, rem
