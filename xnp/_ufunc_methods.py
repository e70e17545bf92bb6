"""``reduce``, ``accumulate`` and ``reduceat`` for every binary ufunc, built from the ufunc's
own calls on slices, so they differentiate, batch and compile like the ufunc itself.

The ufuncs with a reduction primitive (add -> sum, maximum -> max, ...) use it (see
``xnp._ufuncs``); this module covers the rest. A reorderable ufunc (NumPy's term: the
result does not depend on the order of the operands, e.g. ``bitwise_or``, ``logical_xor``,
``hypot``) reduces pairwise in log2(n) steps and accumulates with a doubling scan;
the others (``subtract``, ``divide``, ``power``, ...) fold from the left in NumPy's order.
A long ``subtract``/``divide`` fold becomes ``x0 - sum(rest)`` / ``x0 / prod(rest)``, which
agrees with NumPy's sequential loop to rounding.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import re
import warnings

import numpy as np

from transforms.core import Tracer
from xnp._util import raw

REORDERABLE = frozenset({
    "add", "multiply", "maximum", "minimum", "fmax", "fmin", "hypot", "logaddexp",
    "logaddexp2", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "gcd"})      # NumPy does not count lcm
_ROUNDED = frozenset({"hypot", "logaddexp2"})  # regrouping changes float roundings
_FOLD_LIMIT = 32       # longer subtract/divide folds use the sum/product form
_ALGEBRAIC = {"subtract": ("add", "subtract"), "divide": ("multiply", "divide")}


_IN_UFUNC = re.compile(r"encountered in \w+")


@contextlib.contextmanager
def _fp_errors_in(method: str):
    """Floating-point errors raised or warned inside a reduction carry the method's name,
    as NumPy's do ("divide by zero encountered in reduce"), whichever ufunc calls the
    reduction is built from."""
    def renamed(msg):
        return _IN_UFUNC.sub(f"encountered in {method}", msg)
    with warnings.catch_warnings(record=True) as caught:
        try:
            yield
        except (FloatingPointError, RuntimeWarning) as e:   # errstate 'raise' / -W error
            if len(e.args) == 1 and isinstance(e.args[0], str) and \
                    _IN_UFUNC.search(e.args[0]):
                raise type(e)(renamed(e.args[0])) from None
            raise
    for w in caught:
        if issubclass(w.category, RuntimeWarning) and _IN_UFUNC.search(str(w.message)):
            warnings.warn(renamed(str(w.message)), w.category, stacklevel=5)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _named_fp_errors(method: str):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with _fp_errors_in(method):
                return fn(*args, **kwargs)
        return wrapper
    return deco


def _xnp():
    import xnp
    return xnp


def _check_binary(uf, method: str) -> None:
    if uf.nin != 2:
        raise ValueError(f"{method} only supported for binary functions")
    if uf.nout != 1:
        raise ValueError(f"{method} only supported for functions returning a single value")


def _loop_dtype(uf, dt: np.dtype) -> np.dtype:
    """The dtype the reduction computes in: NumPy's loop for (dt, dt), whose output must
    be its input (logical ufuncs compute in bool)."""
    loop = uf._np.resolve_dtypes((dt, dt, None))
    if loop[2] == loop[0]:
        return loop[0]
    if uf.__name__.startswith("logical_"):
        return np.dtype(bool)
    raise TypeError(f"No loop matching the specified signature and casting was found for "
                    f"ufunc {uf.__name__}")


def _prepare(uf, method, array, dtype):
    _check_binary(uf, method)
    xnp = _xnp()
    a = xnp.asarray(array)
    if dtype is not None:
        a = a.astype(dtype)
    if uf.__name__ == "subtract" and a.dtype == np.bool_:   # NumPy's resolver refuses it
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use "
                        "the bitwise_xor, the `^` operator, or the logical_xor function "
                        "instead.")
    return a.astype(_loop_dtype(uf, a.dtype), copy=False)


def _pairwise(uf, x):
    """``x[0] op x[1] op ...`` along axis 0 (length >= 1), in log2(n) steps."""
    xnp = _xnp()
    while x.shape[0] > 1:
        n, h = x.shape[0], x.shape[0] // 2
        y = uf(x[:h], x[h:2 * h])
        x = y if n % 2 == 0 else xnp.concatenate([y, x[2 * h:]])
    return x[0]


def _fold(uf, x):
    """NumPy's left fold ``((x0 op x1) op x2) ...`` along axis 0 (length >= 1)."""
    n = x.shape[0]
    if uf.__name__ in _ALGEBRAIC and n > _FOLD_LIMIT:
        combine, finish = _ALGEBRAIC[uf.__name__]
        return _ufunc(finish)(x[0], _pairwise(_ufunc(combine), x[1:]))
    r = x[0]
    for i in range(1, n):
        r = uf(r, x[i])
    return r


def _ufunc(name):
    from xnp._ufuncs import UFUNCS
    return UFUNCS[name]


def _store(v, out, name):
    from xnp._reductions import store
    return store(raw(v), out, name)


def _object_method(uf, method, args, out, name, **options):
    """NumPy's own ``uf.method`` on an object array: its object loop applies Python's
    operators (``and``/``or`` keep the operands), in NumPy's order."""
    from xnp import lax
    options = {k: v for k, v in options.items() if v is not None}
    if options.get("where") is True:
        del options["where"]
    r = lax.object_ufunc_p.bind(*args, ufunc=uf._np, method=method,
                                options=tuple(options.items()))
    return _store(r, out, name)


@_named_fp_errors("reduce")
def reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
           where=True):
    """NumPy's ``ufunc.reduce`` for a binary ufunc without a reduction primitive."""
    xnp = _xnp()
    name = uf.__name__
    a = _prepare(uf, f"{name}.reduce", array, dtype)
    if a.dtype.kind == "O":
        return _object_method(uf, "reduce", (raw(a),), out, f"{name}.reduce", axis=axis,
                              keepdims=keepdims, initial=initial, where=raw(where))
    if initial is not None:     # converted as NumPy converts it (complex into int raises)
        from xnp._reductions import scalar_in
        initial = scalar_in(initial, a.dtype, f"{name}.reduce")
    ndim = a.ndim
    if axis is None or ndim == 0 and type(axis) is int and axis in (0, -1):
        axes = tuple(range(ndim))       # as NumPy, a 0-d array reduces over axis 0 too
    else:
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        from xnp._util import normalize_axis
        axes = tuple(normalize_axis(ax, ndim) for ax in axes)
    if len(axes) > 1 and name not in REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                         "axis may be specified")
    mask = None
    if where is not True:
        if initial is None and uf.identity is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so "
                             "to use a where mask one has to specify 'initial'")
        mask = xnp.broadcast_to(xnp.asarray(where, dtype=bool), a.shape)  # NumPy's check
        if name in REORDERABLE and uf.identity is not None:
            # the identity leaves the result as it is; NumPy casts it unsafely
            ident = np.asarray(uf.identity).astype(a.dtype)
            a, mask = xnp.where(mask, a, xnp.asarray(ident, dtype=a.dtype)), None
    rest = [d for i, d in enumerate(a.shape) if i not in axes]
    n = 1
    for i in axes:
        n *= a.shape[i]                 # not -1: that is ambiguous when rest has a 0
    x = xnp.moveaxis(a, axes, tuple(range(len(axes)))).reshape((n, *rest))
    if mask is not None:
        # the others skip the masked elements: a left fold from initial (or the identity)
        m = xnp.moveaxis(mask, axes, tuple(range(len(axes)))).reshape((n, *rest))
        start = initial if initial is not None else np.asarray(uf.identity).astype(a.dtype)
        r = xnp.full(tuple(rest), start, dtype=a.dtype)
        one = xnp.asarray(1, dtype=a.dtype)     # computed on in place of masked elements
        for i in range(n):
            r = xnp.where(m[i], uf(r, xnp.where(m[i], x[i], one)), r)
        if keepdims:
            r = xnp.expand_dims(r, axes)
        return _store(r, out, f"{name}.reduce")
    if initial is not None:
        x = xnp.concatenate([xnp.full((1, *rest), initial, dtype=a.dtype), x])
    elif name in ("gcd", "hypot") and x.shape[0]:
        # NumPy starts from the identity 0, and gcd(0, x) = hypot(0, x) = |x|:
        # gcd.reduce([-10]) is 10 (the other identities leave x as it is)
        x = xnp.concatenate([xnp.abs(x[:1]), x[1:]])
    if x.shape[0] == 0:
        if uf.identity is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no "
                             "identity")
        # NumPy casts the identity unsafely: bitwise_and's -1 is 255 for uint8
        r = xnp.full(tuple(rest), np.asarray(uf.identity).astype(a.dtype), dtype=a.dtype)
    else:
        r = _pairwise(uf, x) if name in REORDERABLE else _fold(uf, x)
    if keepdims:
        r = xnp.expand_dims(r, axes)
    return _store(r, out, f"{name}.reduce")


@_named_fp_errors("accumulate")
def accumulate(uf, array, axis=0, dtype=None, out=None):
    """NumPy's ``ufunc.accumulate`` for a binary ufunc without a cumulative primitive."""
    xnp = _xnp()
    name = uf.__name__
    a = _prepare(uf, f"{name}.accumulate", array, dtype)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if a.dtype.kind == "O":
        return _object_method(uf, "accumulate", (raw(a),), out, f"{name}.accumulate",
                              axis=axis)
    if axis is None:
        if a.ndim > 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = 0
    x = xnp.moveaxis(a, axis, 0)
    n = x.shape[0]
    if n == 0:
        r = x
    elif name in REORDERABLE and not (name in _ROUNDED and a.dtype.kind in "fc"):
        step = 1
        while step < n:        # doubling scan: x[i] <- x[i - step] op x[i]
            x = xnp.concatenate([x[:step], uf(x[:n - step], x[step:])])
            step *= 2
        r = x
    elif name in _ALGEBRAIC and n > _FOLD_LIMIT:
        combine, finish = _ALGEBRAIC[name]
        cum = accumulate(_ufunc(combine), x[1:], axis=0)
        r = xnp.concatenate([x[:1], _ufunc(finish)(x[:1], cum)])
    else:
        running = [x[0]]
        for i in range(1, n):
            running.append(uf(running[-1], x[i]))
        r = xnp.stack(running)
    return _store(xnp.moveaxis(r, 0, axis), out, f"{name}.accumulate")


@_named_fp_errors("reduceat")
def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    """NumPy's ``ufunc.reduceat``: reductions over ``array[indices[i]:indices[i+1]]``
    along ``axis`` (``array[indices[i]]`` where the next index is not larger). The
    indices must be concrete; the array may be traced."""
    xnp = _xnp()
    name = f"{uf.__name__}.reduceat"
    _check_binary(uf, "reduceat")
    idx = raw(indices)
    if isinstance(idx, Tracer):
        raise TypeError(f"{name}: the indices must be concrete (they choose the segments); "
                        "a traced index array cannot be used")
    idx = np.asarray(idx)
    if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
        raise TypeError(f"{name}: indices must be a 1-d array of integers, got shape "
                        f"{idx.shape} and dtype {idx.dtype}")
    a = xnp.asarray(array)
    from xnp._util import normalize_axis, normalize_axis_tuple
    if isinstance(axis, tuple):         # NumPy's order: bad axes, a 0-d array, then more
        axis = normalize_axis_tuple(axis, a.ndim)   # than one axis (as for None on n-d)
    if a.ndim == 0:
        raise TypeError("cannot reduceat on a scalar")
    if axis is None or isinstance(axis, tuple):
        if (len(axis) if axis is not None else a.ndim) != 1:
            raise ValueError("reduceat does not allow multiple axes")
        axis = 0 if axis is None else axis[0]
    if dtype is not None:
        a = a.astype(dtype)
    axis = normalize_axis(axis, a.ndim)
    if a.dtype.kind == "O":
        return _object_method(uf, "reduceat", (raw(a), idx), out, name, axis=axis)
    x = xnp.moveaxis(a, axis, 0)
    n = x.shape[0]
    for start in idx.tolist():
        if not 0 <= start < n:
            raise IndexError(f"index {start} out-of-bounds in {name} [0, {n})")
    # the reduction's result dtype (and its TypeError), also for single-element segments
    # and no indices at all: a one-element reduce computes nothing
    rdt = xnp.asarray(uf.reduce(xnp.zeros((1,), a.dtype), axis=0, dtype=dtype)).dtype
    pieces = []
    for i, start in enumerate(idx.tolist()):
        stop = idx[i + 1] if i + 1 < len(idx) else n
        if stop > start:
            piece = uf.reduce(x[start:builtins.min(int(stop), n)], axis=0, dtype=dtype)
        else:
            piece = x[start]
        pieces.append(xnp.asarray(piece).astype(rdt, copy=False))
    r = xnp.stack(pieces) if pieces else xnp.zeros((0, *x.shape[1:]), dtype=rdt)
    return _store(xnp.moveaxis(r, 0, axis), out, name)
