"""The series classes' shared machinery, as NumPy's ``ABCPolyBase``.

:class:`ABCPolyBase` holds coefficients (an xnp array), a domain and a window, and gives
every family class (``Polynomial``, ``Chebyshev``, ...) NumPy's methods and operators by
calling the family's :class:`~xnp.polynomial._basis.Basis` algorithms. Subclasses set
``_basis``, ``domain``, ``window`` and ``basis_name``.

Series objects are pytrees (children: coefficients, domain, window), so they can be
passed to and returned from ``jit``, ``vmap`` and ``grad``'d functions, and evaluating
``P(x)`` differentiates in both the points and the coefficients.

Differences from NumPy: coefficients are xnp arrays (no object arrays); ``/`` also
accepts 0-d arrays (traced scalars); comparisons of domains and windows in arithmetic
are skipped when they are traced; printing and ``==`` need concrete values.
"""

from __future__ import annotations

import numbers
import os
from typing import Any, Callable

import numpy as np

import xnp
from transforms.core import (
    ConcretizationTypeError,
    TracerArrayConversionError,
    concrete_or_error,
)
from transforms.tree import register_pytree_node
from xnp._array import ndarray
from xnp.polynomial import polyutils as pu

__all__ = ["ABCPolyBase"]

_TRACE_ERRORS = (ConcretizationTypeError, TracerArrayConversionError)


def _same(a, b) -> bool:
    """Whether two arrays are equal; traced arrays are assumed equal."""
    if a is b:
        return True
    va, vb = pu._concrete(a), pu._concrete(b)
    if va is None or vb is None:
        return True
    return va.shape == vb.shape and bool(np.all(va == vb))


def _scalar(x):
    """A concrete NumPy scalar for printing."""
    return np.asarray(pu._concrete(x))[()]


def _array_text(a) -> str:
    v = pu._concrete(a)
    return repr(v)[6:-1] if v is not None else str(a)


class ABCPolyBase:
    """Base class of the series classes (``Polynomial``, ``Chebyshev``, ...).

    Parameters
    ----------
    coef : array_like
        Coefficients in order of increasing degree: ``(1, 2, 3)`` is
        ``1*P_0(x) + 2*P_1(x) + 3*P_2(x)``.
    domain : (2,) array_like, optional
        The interval mapped linearly onto ``window`` before evaluation (default: the
        class domain).
    window : (2,) array_like, optional
        Default: the class window.
    symbol : str, optional
        Name of the variable when printing (a Python identifier; default ``'x'``).

    Attributes
    ----------
    coef, domain, window : ndarray
    symbol : str

    Notes
    -----
    Operators ``+ - * // % divmod ** ()`` combine series of the same class, domain,
    window and symbol, and numbers; ``/`` divides by a number. ``str`` and ``repr``
    print as NumPy's. Arithmetic drops trailing zero coefficients only when they are
    concrete (see :mod:`xnp.polynomial.polyutils`).
    """

    __hash__ = None  # type: ignore[assignment]
    __array_ufunc__ = None
    maxpower = 100
    _use_unicode = os.name != "nt"
    _basis: Any = None
    domain: Any = None
    window: Any = None
    basis_name: str | None = None
    _superscripts = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    _subscripts = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, lambda p: ((p.coef, p.domain, p.window), p.symbol),
                             lambda symbol, ch: cls._from_parts(*ch, symbol))

    @classmethod
    def _from_parts(cls, coef, domain, window, symbol):
        self = object.__new__(cls)
        self.coef, self.domain, self.window, self._symbol = coef, domain, window, symbol
        return self

    def __init__(self, coef, domain=None, window=None, symbol: str = "x") -> None:
        [self.coef] = pu.as_series([coef], trim=False)
        for name, value in (("Domain", domain), ("Window", window)):
            if value is not None:
                [value] = pu.as_series([value], trim=False)
                if value.shape[0] != 2:
                    raise ValueError(f"{name} has wrong number of elements.")
                setattr(self, name.lower(), value)
        if not isinstance(symbol, str):
            raise TypeError("Symbol must be a non-empty string")
        if not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        """The printed name of the variable."""
        return self._symbol

    # --- comparisons ----------------------------------------------------------------------
    def has_samecoef(self, other) -> bool:
        """Whether ``other`` has the same coefficients (concrete values needed)."""
        return len(self.coef) == len(other.coef) and np.bool_(
            bool(xnp.all(self.coef == other.coef)))

    def has_samedomain(self, other) -> bool:
        """Whether ``other`` has the same domain (concrete values needed)."""
        return np.bool_(bool(xnp.all(self.domain == other.domain)))

    def has_samewindow(self, other) -> bool:
        """Whether ``other`` has the same window (concrete values needed)."""
        return np.bool_(bool(xnp.all(self.window == other.window)))

    def has_sametype(self, other) -> bool:
        """Whether ``other`` is an instance of this series' class."""
        return isinstance(other, self.__class__)

    def __eq__(self, other) -> bool:
        return (isinstance(other, self.__class__) and self.has_samedomain(other)
                and self.has_samewindow(other) and self.coef.shape == other.coef.shape
                and self.has_samecoef(other) and self.symbol == other.symbol)

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    # --- arithmetic -------------------------------------------------------------------------
    def _get_coefficients(self, other):
        if isinstance(other, ABCPolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not _same(self.domain, other.domain):
                raise TypeError("Domains differ")
            if not _same(self.window, other.window):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    def _apply(self, fn: Callable, *args):
        try:
            return fn(*args)
        except (ZeroDivisionError, *_TRACE_ERRORS):
            raise
        except Exception:
            return NotImplemented

    def _binary(self, fn: Callable, other, reflected: bool = False):
        other = other if reflected else self._get_coefficients(other)
        args = (other, self.coef) if reflected else (self.coef, other)
        coef = self._apply(fn, *args)
        return coef if coef is NotImplemented else self._new(coef)

    def _divmod(self, other, reflected: bool = False):
        other = other if reflected else self._get_coefficients(other)
        args = (other, self.coef) if reflected else (self.coef, other)
        res = self._apply(self._basis.div, *args)
        return res if res is NotImplemented else (self._new(res[0]), self._new(res[1]))

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __add__(self, other):
        return self._binary(self._basis.add, other)

    def __sub__(self, other):
        return self._binary(self._basis.sub, other)

    def __mul__(self, other):
        return self._binary(self._basis.mul, other)

    def __radd__(self, other):
        return self._binary(self._basis.add, other, True)

    def __rsub__(self, other):
        return self._binary(self._basis.sub, other, True)

    def __rmul__(self, other):
        return self._binary(self._basis.mul, other, True)

    def __truediv__(self, other):
        scalar = isinstance(other, numbers.Number) and not isinstance(other, bool)
        if not (scalar or isinstance(other, ndarray) and other.ndim == 0):
            raise TypeError(f"unsupported types for true division: '{type(self)}', "
                            f"'{type(other)}'")
        return self.__floordiv__(other)

    def __rtruediv__(self, other):
        return NotImplemented

    def __divmod__(self, other):
        return self._divmod(other)

    def __rdivmod__(self, other):
        return self._divmod(other, True)

    def __floordiv__(self, other):
        res = self._divmod(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other):
        res = self._divmod(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other):
        res = self._divmod(other, True)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other):
        res = self._divmod(other, True)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other):
        return self._new(self._basis.pow(self.coef, other, maxpower=self.maxpower))

    # --- evaluation -------------------------------------------------------------------------
    def __call__(self, arg):
        if isinstance(arg, ABCPolyBase):          # composition (used by convert)
            off, scl = self.mapparms()
            return self._basis.val(arg * scl + off, self.coef)
        return self._basis.val(pu.mapdomain(arg, self.domain, self.window), self.coef)

    def __iter__(self):
        return iter(self.coef)

    def __len__(self) -> int:
        return len(self.coef)

    def mapparms(self) -> tuple:
        """The linear map from the domain to the window.

        Returns
        -------
        off, scl : scalars
            ``off + scl * x`` maps ``domain`` onto ``window``; the series is evaluated
            at the mapped points.
        """
        return pu.mapparms(self.domain, self.window)

    def linspace(self, n: int = 100, domain=None) -> tuple[ndarray, ndarray]:
        """Evenly spaced points and the series' values there (a plotting aid).

        Parameters
        ----------
        n : int, optional
            Number of points (default 100).
        domain : (2,) array_like, optional
            Interval of the points (default: the series' domain).

        Returns
        -------
        x, y : ndarray
            ``x = linspace(domain[0], domain[1], n)`` and ``y = self(x)``.
        """
        if domain is None:
            domain = self.domain
        x = xnp.linspace(domain[0], domain[1], n)
        return x, self(x)

    # --- other series -----------------------------------------------------------------------
    def copy(self) -> ABCPolyBase:
        """A copy of the series."""
        return self._new(self.coef)

    def degree(self) -> int:
        """The degree: the number of coefficients less one (trailing zeros count)."""
        return len(self) - 1

    def cutdeg(self, deg: int) -> ABCPolyBase:
        """The series truncated to degree ``deg`` (non-negative; a copy when the degree
        is already lower): ``self.truncate(deg + 1)``."""
        return self.truncate(deg + 1)

    def trim(self, tol: float = 0) -> ABCPolyBase:
        """The series without its small trailing coefficients.

        Parameters
        ----------
        tol : float, optional
            Trailing coefficients of magnitude at most ``tol`` are removed (``[0]``
            remains when all are).

        Returns
        -------
        series
            Needs concrete coefficients (ConcretizationTypeError under ``jit``/``vmap``).
        """
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size: int) -> ABCPolyBase:
        """The series reduced to its first ``size`` coefficients.

        Parameters
        ----------
        size : int
            A positive integer; a copy is returned when it exceeds the length.

        Returns
        -------
        series
        """
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef[:isize])

    def convert(self, domain=None, kind: type | None = None, window=None) -> ABCPolyBase:
        """This series expressed in another family and/or domain and window.

        Parameters
        ----------
        domain, window : (2,) array_like, optional
            Default: ``kind``'s.
        kind : class, optional
            The series class of the result (default: this class).

        Returns
        -------
        series
            Equal to this one as a function, computed by composing this series with
            ``kind``'s identity (so it traces and differentiates).
        """
        kind = self.__class__ if kind is None else kind
        domain = kind.domain if domain is None else domain
        window = kind.window if window is None else window
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    def integ(self, m: int = 1, k=(), lbnd=None) -> ABCPolyBase:
        """The ``m``-th integral.

        Parameters
        ----------
        m : int, optional
            Number of integrations (non-negative).
        k : scalar or sequence, optional
            Integration constants: the values of the successive integrals at ``lbnd``
            (missing ones are zero).
        lbnd : scalar, optional
            Lower bound, in the domain's variable (default 0).

        Returns
        -------
        series
            With the same domain and window.
        """
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._basis.int(self.coef, m, k, lbnd, 1.0 / scl))

    def deriv(self, m: int = 1) -> ABCPolyBase:
        """The ``m``-th derivative (``m`` non-negative), with the same domain and
        window."""
        off, scl = self.mapparms()
        return self._new(self._basis.der(self.coef, m, scl))

    def roots(self) -> ndarray:
        """The roots, mapped back to the domain.

        Returns
        -------
        ndarray
            Sorted; real when all are (exactly) real. Their number and dtype depend on
            the values: works eagerly and under ``grad``, raises under ``jit``/``vmap``.
        """
        return pu.mapdomain(self._basis.roots(self.coef), self.window, self.domain)

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full: bool = False, w=None,
            window=None, symbol: str = "x") -> Any:
        """Least-squares fit to the data ``(x, y)``, as NumPy's ``fit``.

        Parameters
        ----------
        x, y : array_like
            Sample points and values (``y`` may hold several data sets as columns).
        deg : int or 1-d sequence of int
            Degree, or the degrees of the terms to include.
        domain : None, [] or (2,) array_like, optional
            ``None`` (default): the smallest interval containing ``x`` (widened by one
            on each side when it is a point); ``[]``: the class domain.
        rcond, full, w
            As the family's ``fit`` function.
        window : (2,) array_like, optional
            Default: the class window.
        symbol : str, optional

        Returns
        -------
        series, or (series, [residuals, rank, singular_values, rcond]) with ``full``
        """
        if domain is None:
            domain = pu.getdomain(x)
            pad = xnp.asarray([-1, 1], domain.dtype)
            domain = xnp.where(domain[0] == domain[1], domain + pad, domain)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else window
        xnew = pu.mapdomain(x, domain, window)
        res = cls._basis.fit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            return cls(res[0], domain=domain, window=window, symbol=symbol), res[1]
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None,  # noqa: B006
                  symbol: str = "x") -> ABCPolyBase:
        """The series with the given roots: ``(x - r[0]) * (x - r[1]) * ...``.

        Parameters
        ----------
        roots : array_like
            1-d roots.
        domain : None, [] or (2,) array_like, optional
            ``[]`` (default): the class domain; ``None``: the smallest interval
            containing the roots.
        window : (2,) array_like, optional
            Default: the class window.
        symbol : str, optional

        Returns
        -------
        series
            Differentiable in the roots.
        """
        [roots] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(roots)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else window
        off, scl = pu.mapparms(domain, window)
        coef = cls._basis.fromroots(off + scl * roots) / scl ** roots.shape[0]
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol: str = "x") -> ABCPolyBase:
        """The series ``p`` with ``p(x) == x`` for the given domain and window (default:
        the class's)."""
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        off, scl = pu.mapparms(window, domain)
        return cls(cls._basis.line(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg: int, domain=None, window=None, symbol: str = "x") -> ABCPolyBase:
        """The basis polynomial of degree ``deg`` (a non-negative integer): coefficients
        ``[0, ..., 0, 1]``, with the given domain and window (default: the class's)."""
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series: ABCPolyBase, domain=None, window=None) -> ABCPolyBase:
        """``series`` (of any family) converted to this class, with the given domain and
        window (default: the class's): ``series.convert(domain, cls, window)``."""
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        return series.convert(domain, cls, window)

    # --- printing ---------------------------------------------------------------------------
    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}({_array_text(self.coef)}, "
                f"domain={_array_text(self.domain)}, window={_array_text(self.window)}, "
                f"symbol='{self.symbol}')")

    def __format__(self, fmt_str: str) -> str:
        if fmt_str == "":
            return self.__str__()
        if fmt_str not in ("ascii", "unicode"):
            raise ValueError(f"Unsupported format string '{fmt_str}' passed to "
                             f"{self.__class__}.__format__. Valid options are 'ascii' "
                             "and 'unicode'")
        return self._generate_string(self._str_term_ascii if fmt_str == "ascii"
                                     else self._str_term_unicode)

    def __str__(self) -> str:
        return self._generate_string(self._str_term_unicode if self._use_unicode
                                     else self._str_term_ascii)

    def _generate_string(self, term: Callable) -> str:
        width = max(np.get_printoptions().get("linewidth", 75), 1)
        coef = np.asarray(concrete_or_error(self.coef, "printing a series"))
        off, scl = (_scalar(v) for v in self.mapparms())
        arg, parens = self._format_term(pu.format_float, off, scl)
        arg = f"({arg})" if parens else arg
        text = pu.format_float(coef[0])
        last = len(coef) - 1
        for power, c in enumerate(coef[1:], start=1):
            try:
                piece = ("+ " + pu.format_float(c, parens=True) if c >= 0
                         else "- " + pu.format_float(-c, parens=True))
            except TypeError:
                piece = f"+ {c}"
            piece += term(str(power), arg)
            text += " "
            length = len(text.split("\n")[-1]) + len(piece) + (2 if power < last else 0)
            text += piece.replace(" ", "\n", 1) if length >= width else piece
        return text

    @classmethod
    def _str_term_unicode(cls, i: str, arg: str) -> str:
        if cls.basis_name is None:
            raise NotImplementedError("Subclasses must define either a basis_name, or "
                                      "override _str_term_unicode(cls, i, arg_str)")
        return f"·{cls.basis_name}{i.translate(cls._subscripts)}({arg})"

    @classmethod
    def _str_term_ascii(cls, i: str, arg: str) -> str:
        if cls.basis_name is None:
            raise NotImplementedError("Subclasses must define either a basis_name, or "
                                      "override _str_term_ascii(cls, i, arg_str)")
        return f" {cls.basis_name}_{i}({arg})"

    def _format_term(self, fmt: Callable, off, scale) -> tuple[str, bool]:
        if off == 0 and scale == 1:
            return self.symbol, False
        if scale == 1:
            return f"{fmt(off)} + {self.symbol}", True
        if off == 0:
            return f"{fmt(scale)}{self.symbol}", True
        return f"{fmt(off)} + {fmt(scale)}{self.symbol}", True

    @classmethod
    def _repr_latex_term(cls, i: int, arg: str, needs_parens: bool) -> str:
        if cls.basis_name is None:
            raise NotImplementedError("Subclasses must define either a basis name, or "
                                      "override _repr_latex_term(i, arg_str, needs_parens)")
        return f"{{{cls.basis_name}}}_{{{i}}}({arg})"

    @staticmethod
    def _repr_latex_scalar(x, parens: bool = False) -> str:
        return rf"\text{{{pu.format_float(x, parens=parens)}}}"

    def _repr_latex_(self) -> str:
        off, scl = (_scalar(v) for v in self.mapparms())
        arg, parens = self._format_term(self._repr_latex_scalar, off, scl)
        coef = np.asarray(concrete_or_error(self.coef, "printing a series"))
        parts = []
        for i, c in enumerate(coef):
            if i == 0:
                text = self._repr_latex_scalar(c)
            elif not isinstance(c, numbers.Real):
                text = f" + ({self._repr_latex_scalar(c)})"
            elif c >= 0:
                text = f" + {self._repr_latex_scalar(c, parens=True)}"
            else:
                text = f" - {self._repr_latex_scalar(-c, parens=True)}"
            term = self._repr_latex_term(i, arg, parens)
            part = text if term == "1" else rf"{text}\,{term}"
            parts.append(rf"\color{{LightGray}}{{{part}}}" if c == 0 else part)
        return rf"${self.symbol} \mapsto {''.join(parts) or '0'}$"
