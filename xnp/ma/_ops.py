"""Elementwise operations on masked arrays: operators, ``ma.sqrt``/``ma.log``/... and
``__array_ufunc__``, with NumPy's mask rules.

The result is masked where an input is masked; the domained operations (division,
logarithms, square roots, ...) also mask the results outside their domain and, as
``numpy.ma``'s own functions and operators do, results that are not finite. Masked results
keep the first operand's data.
"""

from __future__ import annotations

import contextlib

import numpy as np

import xnp
from xnp.ma._core import (
    MaskedArray,
    _arr,
    _check_fill,
    _full_mask,
    _is_traced,
    _scalar,
    getmask,
    getmaskarray,
    masked,
    nomask,
    union_of_masks,
)

_TINY = np.finfo(np.float64).tiny          # a float64 scalar: the test runs in float64
_PY = (bool, int, float, complex)


def _val(x, weak=False):
    """The data of an operand. numpy.ma converts Python scalars to (strong) arrays; its
    ``__array_ufunc__`` path keeps them weak."""
    if isinstance(x, MaskedArray):
        return x._data
    if isinstance(x, (np.generic, xnp.ndarray)) or weak and isinstance(x, _PY):
        return x
    return _arr(x)


def _cast(x, dtype):
    if isinstance(x, (xnp.ndarray,)):
        if x.dtype == dtype:
            return x
        if x.dtype.kind == "c" and dtype.kind != "c":
            x = xnp.real(x)
        return x.astype(dtype)
    with np.errstate(all="ignore"):
        v = np.asarray(x)
        if v.dtype.kind == "c" and dtype.kind != "c":
            v = v.real
        return v.astype(dtype)


# --- domains ------------------------------------------------------------------------------
def safe_divide_domain(a, b):
    return xnp.greater_equal(xnp.multiply(xnp.absolute(a), _TINY), xnp.absolute(b))


def _greater(c):
    return lambda x: xnp.less_equal(x, c)


def _greater_equal(c):
    return lambda x: xnp.less(x, c)


def _interval(lo, hi):
    return lambda x: xnp.logical_or(xnp.less(x, lo), xnp.greater(x, hi))


def _tan_domain(x):
    return xnp.less(xnp.absolute(xnp.cos(x)), 1e-35)


UNARY_DOMAINS = {
    "sqrt": _greater_equal(0.0), "log": _greater(0.0), "log2": _greater(0.0),
    "log10": _greater(0.0), "log1p": _greater(-1.0), "arcsin": _interval(-1.0, 1.0),
    "arccos": _interval(-1.0, 1.0), "arccosh": _greater_equal(1.0),
    "arctanh": _interval(-1.0 + 1e-15, 1.0 - 1e-15), "tan": _tan_domain,
}
BINARY_DOMAINS = {name: safe_divide_domain for name in (
    "divide", "true_divide", "floor_divide", "remainder", "mod", "fmod")}
COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


# --- the two kinds of operation -----------------------------------------------------------
def _keep_first(r, m, d):
    """Masked results take the first operand's data."""
    if m is nomask:
        return r, m
    m = _full_mask(m, r.shape)
    return xnp.where(m, _cast(d, r.dtype), r), m


def finish(r, m, fill, scalar=True):
    """Wrap an elementwise result; a 0-d one is a NumPy scalar or ``masked``."""
    r = _arr(r)
    if scalar and r.ndim == 0:
        if m is nomask:
            return _scalar(r)
        if not _is_traced(m):
            return masked if bool(m) else _scalar(r)
    return MaskedArray._new(r, m, fill)


def _domain_fill(r, bad, fill):
    """The ufunc path (NumPy's ``__array_wrap__``): results outside the domain take the
    operation's fill value; masked inputs keep the raw result."""
    if bad is nomask:
        return r
    with np.errstate(all="ignore"):
        return xnp.where(bad, _cast(fill, r.dtype), r)


def _errors_for(ufunc_fill):
    """The error state the operation runs in: NumPy's ufuncs called on a masked array
    compute on its data under the caller's state (``np.log(x)`` warns where ``x <= 0``);
    ``numpy.ma``'s functions and operators (``ufunc_fill`` None) do not warn."""
    return np.errstate(all="ignore") if ufunc_fill is None else contextlib.nullcontext()


def unary_parts(fn, a, domain=None, finite=None, weak=False, ufunc_fill=None):
    finite = domain is not None if finite is None else finite
    d, m = _val(a, weak), getmask(a)
    with _errors_for(ufunc_fill):
        r = _arr(fn(d))
    with np.errstate(all="ignore"):
        bad = nomask
        if domain is not None:
            bad = domain(d)
        if finite and r.dtype.kind in "fc":
            bad = union_of_masks(bad, xnp.logical_not(xnp.isfinite(r)))
    if ufunc_fill is not None:
        # NumPy fills the domain mask with True at masked inputs: they take the fill too.
        m = union_of_masks(m, bad)
        r = _domain_fill(r, m if domain is not None else nomask, ufunc_fill)
    else:
        r, m = _keep_first(r, union_of_masks(m, bad), d)
    return r, m, a._fill_value if isinstance(a, MaskedArray) else None


def unary(fn, a, domain=None, finite=None, scalar=True, weak=False, ufunc_fill=None):
    return finish(*unary_parts(fn, a, domain, finite, weak, ufunc_fill), scalar=scalar)


def binary_parts(fn, a, b, domain=None, finite=None, compare=False, weak=False,
                 ufunc_fill=None):
    finite = domain is not None if finite is None else finite
    da, db = _val(a, weak), _val(b, weak)
    with _errors_for(ufunc_fill):
        r = _arr(fn(da, db))
    with np.errstate(all="ignore"):
        bad = nomask
        if domain is not None:
            bad = domain(da, db)
        if finite and r.dtype.kind in "fc":
            bad = union_of_masks(bad, xnp.logical_not(xnp.isfinite(r)))
    m = union_of_masks(getmask(a), getmask(b))
    if ufunc_fill is not None:
        m = union_of_masks(m, bad)
        r = _domain_fill(r, m if domain is not None else nomask, ufunc_fill)
    else:
        r, m = _keep_first(r, union_of_masks(m, bad), da)
    fill = None
    if not compare:
        first = a if isinstance(a, MaskedArray) and a is not masked else b
        fill = first._fill_value if isinstance(first, MaskedArray) else None
    return r, m, fill


def binary(fn, a, b, domain=None, finite=None, compare=False, scalar=True, weak=False,
           ufunc_fill=None):
    return finish(*binary_parts(fn, a, b, domain, finite, compare, weak, ufunc_fill),
                  scalar=scalar)


# --- operators ----------------------------------------------------------------------------
def _compare_op(fn, equality: bool):
    """A comparison operator as NumPy's ``MaskedArray.__eq__`` etc.: the data is compared
    as is; for ``==`` and ``!=`` masked places hold the comparison of the masks (equal
    where both are masked); the fill value is the first operand's, cast to bool."""
    def op(self, other):
        if not _operand_ok(other):
            return NotImplemented
        da, db = _val(self), _val(other)
        with np.errstate(all="ignore"):
            r = _arr(fn(da, db))
        m = union_of_masks(getmask(self), getmask(other))
        if m is not nomask:
            m = _full_mask(m, r.shape)
            if equality:
                r = xnp.where(m, fn(getmaskarray(self), getmaskarray(other)), r)
        fill = None
        if self._fill_value is not None:
            try:
                fill = _check_fill(self._fill_value, np.bool_)
            except (TypeError, ValueError):
                fill = None
        return finish(r, m, fill)
    return op


def _op(fn, domain=None, finite=None, compare=False):
    def op(self, other):
        if not _operand_ok(other):
            return NotImplemented
        return binary(fn, self, other, domain, finite, compare)

    def rop(self, other):
        if not _operand_ok(other):
            return NotImplemented
        return binary(fn, other, self, domain, finite, compare)

    def iop(self, other):
        if not _operand_ok(other):
            return NotImplemented
        r, m, _ = binary_parts(fn, self, other, domain, finite)
        if not np.can_cast(r.dtype, self.dtype, casting="same_kind"):
            raise TypeError(f"Cannot cast ufunc '{fn.__name__}' output from {r.dtype!r} "
                            f"to {self.dtype!r} with casting rule 'same_kind'")
        self._data[...] = r
        if m is not nomask:
            if self._mask is nomask:
                self._mask = _full_mask(m, self.shape)
            else:
                self._mask[...] = m
        return self
    return op, rop, iop


def _operand_ok(x) -> bool:
    return isinstance(x, (MaskedArray, xnp.ndarray, np.ndarray, np.generic, list, tuple)
                      + _PY)


def _install_operators():
    table = {
        "add": (xnp.add, None, None), "sub": (xnp.subtract, None, None),
        "mul": (xnp.multiply, None, None),
        "truediv": (xnp.true_divide, safe_divide_domain, True),
        "floordiv": (xnp.floor_divide, safe_divide_domain, True),
        "mod": (xnp.remainder, safe_divide_domain, False),
        "pow": (xnp.power, None, True),
        "and": (xnp.bitwise_and, None, None), "or": (xnp.bitwise_or, None, None),
        "xor": (xnp.bitwise_xor, None, None), "lshift": (xnp.left_shift, None, None),
        "rshift": (xnp.right_shift, None, None),
    }
    for name, (fn, dom, fin) in table.items():
        op, rop, iop = _op(fn, dom, fin)
        setattr(MaskedArray, f"__{name}__", op)
        setattr(MaskedArray, f"__r{name}__", rop)
        setattr(MaskedArray, f"__i{name}__", iop)
    for name, fn in (("eq", xnp.equal), ("ne", xnp.not_equal), ("lt", xnp.less),
                     ("le", xnp.less_equal), ("gt", xnp.greater),
                     ("ge", xnp.greater_equal)):
        setattr(MaskedArray, f"__{name}__", _compare_op(fn, name in ("eq", "ne")))
    MaskedArray.__neg__ = lambda self: unary(xnp.negative, self)
    MaskedArray.__pos__ = lambda self: unary(xnp.positive, self)
    MaskedArray.__abs__ = lambda self: unary(xnp.absolute, self)
    MaskedArray.__invert__ = lambda self: unary(xnp.invert, self)
    MaskedArray.__array_ufunc__ = array_ufunc


# --- __array_ufunc__ ----------------------------------------------------------------------
_REDUCE_METHODS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
                   "logical_and": "all", "logical_or": "any"}
_ACCUMULATE_METHODS = {"add": "cumsum", "multiply": "cumprod"}
# numpy.ma's ``ufunc_fills``: what NumPy's ufuncs put where the argument is outside the
# domain (the second operand's fill for the binary ones).
_UFUNC_FILLS = {"log": 1.0, "log2": 1.0, "log10": 1.0, "arccosh": 1.0, "divide": 1,
                "true_divide": 1, "floor_divide": 1, "remainder": 1, "mod": 1, "fmod": 1}


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's (or xnp's) ufunc applied to masked arrays: a masked array, with the mask
    propagated and results outside the ufunc's domain masked."""
    name = ufunc.__name__
    if kwargs.get("out") is not None:
        return NotImplemented
    kwargs.pop("out", None)
    if method in ("reduce", "accumulate"):
        table = _REDUCE_METHODS if method == "reduce" else _ACCUMULATE_METHODS
        red = table.get(name)
        if red is None:
            return NotImplemented
        a = inputs[0] if isinstance(inputs[0], MaskedArray) else MaskedArray(inputs[0])
        return getattr(a, red)(**kwargs)
    if method != "__call__" or getattr(ufunc, "nout", 1) != 1:
        return NotImplemented
    xfn = getattr(xnp, name, None)
    if xfn is None:
        return NotImplemented
    if (name in ("equal", "not_equal") and not kwargs and len(inputs) == 2
            and isinstance(inputs[0], (np.generic, np.ndarray, xnp.ndarray))
            and isinstance(inputs[1], MaskedArray)):
        # ``scalar == masked`` reaches here (NumPy's scalars call the ufunc); NumPy's
        # masked arrays take the reflected operator, which compares masked places' masks.
        return getattr(inputs[1], f"__{'eq' if name == 'equal' else 'ne'}__")(inputs[0])
    call = (lambda *v: xfn(*v, **kwargs)) if kwargs else xfn
    fill = _UFUNC_FILLS.get(name, 0)
    if len(inputs) == 1:
        r, m, fv = unary_parts(call, inputs[0], UNARY_DOMAINS.get(name), finite=False,
                               weak=True, ufunc_fill=fill)
        if m is nomask:      # NumPy's ufuncs give a full mask for one operand
            m = getmaskarray(inputs[0])
    elif len(inputs) == 2:
        r, m, fv = binary_parts(call, inputs[0], inputs[1], BINARY_DOMAINS.get(name),
                                finite=False, compare=name in COMPARISONS, weak=True,
                                ufunc_fill=fill)
        if m is not nomask and not _is_traced(m) and not bool(xnp.any(m)):
            m = nomask       # and shrink the two operands' masks
    else:
        return NotImplemented
    r = _arr(r)
    if r.ndim == 0 and m is not nomask and not _is_traced(m) and bool(m):
        return masked
    return MaskedArray._new(r, m, fv)


# --- ma's module functions ----------------------------------------------------------------
def make_unary(name, domained=True):
    xfn = getattr(xnp, name)
    domain = UNARY_DOMAINS.get(name) if domained else None

    def f(a, *args, **kwargs):
        return unary(xfn, a, domain)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Masked ``{name}``: NumPy's ``numpy.ma.{name}``."
    return f


def make_binary(name, domained=True, compare=False, finite=None):
    xfn = getattr(xnp, name)
    domain = BINARY_DOMAINS.get(name) if domained else None

    def f(a, b, *args, **kwargs):
        return binary(xfn, a, b, domain, finite, compare)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Masked ``{name}``: NumPy's ``numpy.ma.{name}``."
    return f


_install_operators()
