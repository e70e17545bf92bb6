"""Products of arrays: matmul, dot, vdot, inner, outer, tensordot, kron and NumPy 2's
gufuncs vecdot, matvec and vecmat. Every contraction is one ``dot_general``; the gufuncs
broadcast their batch dimensions by folding a dimension present on one side only into
that side's free dimensions, so nothing is materialised by broadcasting. ``einsum`` and
``einsum_path`` live in :mod:`xnp._einsum` and are re-exported here."""

from __future__ import annotations

import functools
import math
import operator
from typing import NamedTuple

import numpy as np

from transforms.core import CompositePrimitive, Tracer
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import result_type
from xnp._einsum import cast, einsum, einsum_path, reshape_v, strong, transpose_v
from xnp._util import broadcast_to_v, cast_v, dtype_of, normalize_axis, raw, shape_of
from xnp._views import store_through, write_numpy_out
from xnp._writeable import check_writeable

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "vecdot",
           "matvec", "vecmat", "einsum", "einsum_path"]

_DG = lax.dot_general_p
_ARRAYS = (np.ndarray, Tracer)
_MATMUL_DIMS = {1: (((0,), (0,)), ((), ())), 2: (((1,), (0,)), ((), ()))}


# --- shared helpers on values --------------------------------------------------------------
def promote(x, y) -> tuple:
    """Both values strong and cast to their common NumPy dtype."""
    x, y = strong(x), strong(y)
    if x.dtype == y.dtype:
        return x, y
    dtype = result_type(x.dtype, y.dtype)
    return cast(x, dtype), cast(y, dtype)


def fmt_shape(shape) -> str:
    """A shape as NumPy prints it in error messages: ``(2,3)``, ``(3,)``."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _out_handle(name: str, out) -> ndarray:
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{name}: out must be a tuple of length 1, got {len(out)}")
        out = out[0]
    if type(out) is not ndarray:
        raise TypeError(f"{name}: out must be an xnp array, got {type(out).__name__}")
    return out


def _check_out_cast(name: str, dtype, out: ndarray, casting: str) -> None:
    if not np.can_cast(dtype, out.dtype, casting=casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {dtype!r} to {out.dtype!r} "
                        f"with casting rule '{casting}'")


def _ufunc_out(name: str, r, out: ndarray, casting: str, core: int = 0) -> ndarray:
    """Store ``r`` into ``out`` as a ufunc does: cast under ``casting``, broadcast the loop
    dimensions (the last ``core`` dimensions must match exactly); return ``out``."""
    _check_out_cast(name, dtype_of(r), out, casting)
    rs, os = shape_of(r), out.shape
    ok = len(rs) <= len(os) and (core == 0 or rs[len(rs) - core:] == os[len(os) - core:])
    try:
        ok = ok and np.broadcast_shapes(rs, os) == os
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{name}: output operand of shape {fmt_shape(os)} does not match "
                         f"the result shape {fmt_shape(rs)}")
    check_writeable(out, "output array")
    store_through(out, broadcast_to_v(cast_v(r, out.dtype), os))
    return out


def _exact_out(name: str, r, out) -> ndarray:
    """``out=`` as numpy.dot takes it: exactly the result's dtype and shape."""
    if out is None:
        return wrap_scalar_result(r)
    if type(out) is not ndarray and type(out) is not np.ndarray:
        raise TypeError(f"{name}: out must be an array, got {type(out).__name__}")
    if out.dtype != dtype_of(r) or out.shape != shape_of(r):
        raise ValueError(f"{name}: output array is not acceptable (must have the right "
                         f"datatype {dtype_of(r)} and shape {fmt_shape(shape_of(r))}, got "
                         f"{out.dtype} and {fmt_shape(out.shape)})")
    if not out.flags.c_contiguous:
        raise ValueError(f"{name}: output array is not acceptable (must be a C-contiguous "
                         "array, as NumPy's; this one is a strided view)")
    if type(out) is np.ndarray:
        return write_numpy_out(out, r, name)
    check_writeable(out, "output array")
    store_through(out, r)       # in place, so that views of out see the result
    return out


# --- gufuncs: matmul, vecdot, matvec, vecmat ------------------------------------------------
class _Signature(NamedTuple):
    name: str
    text: str
    x_core: int      # core dimensions of operand 0 (0: one or two, as matmul's (n?,k))
    y_core: int      # core dimensions of operand 1 (0: one or two, as matmul's (k,m?))
    conj: bool       # conjugate operand 0


_MATMUL = _Signature("matmul", "(n?,k),(k,m?)->(n?,m?)", 0, 0, False)
_VECDOT = _Signature("vecdot", "(n),(n)->()", 1, 1, True)
_MATVEC = _Signature("matvec", "(m,n),(n)->(m)", 2, 1, False)
_VECMAT = _Signature("vecmat", "(n),(n,m)->(m)", 1, 2, True)


def _core_ndim(sig: _Signature, i: int, v) -> int:
    fixed = sig.x_core if i == 0 else sig.y_core
    need, nd = fixed or 1, len(v.shape)
    if nd < need:
        raise ValueError(f"{sig.name}: Input operand {i} does not have enough dimensions "
                         f"(has {nd}, gufunc core with signature {sig.text} requires {need})")
    return fixed or min(nd, 2)


@functools.lru_cache(maxsize=2048)
def _batch_plan(name: str, xs: tuple, ys: tuple, xc: int, yc: int):
    """How to contract ``x`` (batch + core xc) with ``y`` (batch + core yc) in one
    dot_general: (new x shape, new y shape, dimension numbers, output permutation).

    A batch position where both sizes agree is a dot_general batch dimension; one where
    a side is missing or has size 1 becomes a free dimension of the other side (the
    size-1 dimension is reshaped away), so broadcasting never copies data.
    """
    xb, yb = xs[:len(xs) - xc], ys[:len(ys) - yc]
    nb = max(len(xb), len(yb))
    kinds, x_keep, y_keep = [], [], []
    for i in range(nb):
        sx = xb[i - nb + len(xb)] if i >= nb - len(xb) else None
        sy = yb[i - nb + len(yb)] if i >= nb - len(yb) else None
        if sx is not None and sx == sy:
            kind = "b"
        elif sx is not None and sy in (None, 1):
            kind = "x"
        elif sy is not None and sx in (None, 1):
            kind = "y"
        else:
            raise ValueError(
                f"{name}: operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: {fmt_shape(xs)}->{fmt_shape(xb)} "
                f"{fmt_shape(ys)}->{fmt_shape(yb)} (core dimensions removed)")
        kinds.append(kind)
        if sx is not None and kind != "y":
            x_keep.append(i)
        if sy is not None and kind != "x":
            y_keep.append(i)
    new_xs = tuple(xb[i - nb + len(xb)] for i in x_keep) + xs[len(xs) - xc:]
    new_ys = tuple(yb[i - nb + len(yb)] for i in y_keep) + ys[len(ys) - yc:]
    batch = [i for i in range(nb) if kinds[i] == "b"]
    lb = tuple(x_keep.index(i) for i in batch)
    rb = tuple(y_keep.index(i) for i in batch)
    dims = (((len(new_xs) - 1,), (len(new_ys) - yc,)), (lb, rb))
    # dot_general gives (batch, x free, y free); NumPy wants (broadcast batch, n, m).
    produced = batch + [i for i in range(nb) if kinds[i] == "x"] + \
        (["n"] if xc == 2 else []) + [i for i in range(nb) if kinds[i] == "y"] + \
        (["m"] if yc == 2 else [])
    wanted = list(range(nb)) + (["n"] if xc == 2 else []) + (["m"] if yc == 2 else [])
    perm = tuple(produced.index(w) for w in wanted)
    return (new_xs if new_xs != xs else None, new_ys if new_ys != ys else None, dims,
            perm if perm != tuple(range(len(perm))) else None)


def _core_contract(sig: _Signature, x, y, xc: int, yc: int):
    xs, ys = x.shape, y.shape
    kx, ky = xs[-1], ys[len(ys) - yc]
    if kx != ky:
        raise ValueError(f"{sig.name}: Input operand 1 has a mismatch in its core dimension "
                         f"0, with gufunc signature {sig.text} (size {ky} is different "
                         f"from {kx})")
    if len(xs) == xc and len(ys) == yc:     # no batch dimensions: the common case
        return _DG.bind(x, y, dimension_numbers=(((xc - 1,), (0,)), ((), ())))
    new_xs, new_ys, dims, perm = _batch_plan(sig.name, xs, ys, xc, yc)
    if new_xs is not None:
        x = reshape_v(x, new_xs)
    if new_ys is not None:
        y = reshape_v(y, new_ys)
    r = _DG.bind(x, y, dimension_numbers=dims)
    return r if perm is None else transpose_v(r, perm)


def _axes_entry(name: str, entry, ncore: int, i: int) -> tuple:
    if not isinstance(entry, (tuple, list)):
        if ncore == 0 and isinstance(entry, int):   # NumPy: no axis of a 0-d core
            raise np.exceptions.AxisError(entry, 0, f"{name}: axes item {i}")
        entry = (entry,)
    if len(entry) != ncore:             # NumPy's AxisError (a ValueError)
        raise np.exceptions.AxisError(f"{name}: axes item {i} should be a tuple with "
                                      f"{ncore} elements, got {tuple(entry)}")
    return tuple(entry)


def _move_core_axes(sig: _Signature, values, cores, axes, axis, keepdims=False):
    """Apply the gufunc ``axes=``/``axis=`` arguments: move each operand's core axes to the
    end; return the moved values and the output's core axes (None: at the end). With
    ``keepdims`` vecdot's output has its summed axis as a core axis (of size 1)."""
    out_core = (cores[0] == 2) + (cores[1] == 2) if sig is _MATMUL else \
        (0 if sig is _VECDOT and not keepdims else 1)
    if axis is not None:
        if axes is not None:
            raise TypeError(f"{sig.name}: cannot specify both 'axis' and 'axes'")
        if sig is not _VECDOT:
            raise TypeError(f"{sig.name}: axis can only be used with a single shared core "
                            f"dimension, not with the distinct ones implied by signature "
                            f"{sig.text}.")
        axes = [(axis,), (axis,), (axis,) if keepdims else ()]
    axes = list(axes)
    if len(axes) == 2 and sig is _VECDOT:     # matmul's output entry may not be left out
        axes.append((-1,) if keepdims else ())
    if len(axes) != 3:
        raise ValueError(f"{sig.name}: axes should be a list with an entry for all 3 inputs "
                         "and outputs; entries for outputs can only be omitted if none of "
                         "them has core axes.")
    moved = []
    for i, (v, c) in enumerate(zip(values, cores)):
        nd = len(shape_of(v))
        core = tuple(normalize_axis(a, nd, "axes") for a in _axes_entry(sig.name, axes[i],
                                                                         c, i))
        if len(set(core)) != len(core):
            raise ValueError(f"{sig.name}: axes item {i} has repeated axes {core}")
        moved.append(transpose_v(v, [d for d in range(nd) if d not in core] + list(core)))
    return moved, _axes_entry(sig.name, axes[2], out_core, 2)


def _place_core_axes(name: str, r, out_axes: tuple):
    nd, nc = len(shape_of(r)), len(out_axes)
    targets = [normalize_axis(a, nd, "axes") for a in out_axes]
    if len(set(targets)) != nc:
        raise ValueError(f"{name}: the output axes {out_axes} are repeated")
    batch = iter(range(nd - nc))
    perm = [nd - nc + targets.index(d) if d in targets else next(batch) for d in range(nd)]
    return transpose_v(r, perm)


_SIGNATURES = {sig.name: sig for sig in (_MATMUL, _VECDOT, _MATVEC, _VECMAT)}


def _gufunc_loop_expand(x, y, *, name):
    sig = _SIGNATURES[name]
    if sig.conj and dtype_of(x).kind in "cO":   # (objects: their .conjugate(), as NumPy)
        x = lax.conj_p.bind(x)
    return _core_contract(sig, x, y, _core_ndim(sig, 0, x), _core_ndim(sig, 1, y))


def _numpy_product(numpy_fn, expand):
    """A product whose eager implementation is NumPy's own loop (one BLAS call per matrix
    of a stack, which rounds as NumPy does: one dot_general over the whole stack sums in
    another order) and which every transformation sees as ``expand`` (dot_general).
    Where NumPy has no loop for the dtype, or its loop returns another dtype (ml_dtypes'
    bfloat16 products give float32), the expansion runs eagerly too."""
    def impl(x, y, **params):
        try:
            out = numpy_fn(x, y, **params)
        except TypeError:
            out = None
        if out is None or out.dtype != np.result_type(x, y):
            return expand(x, y, **params)
        return out
    return impl


# matmul of stacks (an operand of more than 2 dimensions), matvec and vecmat: eagerly
# NumPy's gufunc, under transformations one dot_general.
_gufunc_loop_p = CompositePrimitive(
    "gufunc_loop", impl=_numpy_product(lambda x, y, *, name: getattr(np, name)(x, y),
                                       _gufunc_loop_expand),
    expand=_gufunc_loop_expand)


def _loop_dtype(sig: _Signature, x, y, dtype, casting):
    """The dtype the product is computed in; bad casts raise first, as in NumPy."""
    if dtype is None:
        dx, dy = x.dtype, y.dtype
        return dx if dx == dy else result_type(dx, dy)
    dtype = np.dtype(dtype)
    for i, v in enumerate((x, y)):
        if not np.can_cast(v.dtype, dtype, casting=casting):
            raise TypeError(f"Cannot cast ufunc '{sig.name}' input {i} from {v.dtype!r} "
                            f"to {dtype!r} with casting rule '{casting}'")
    return dtype


def _override(sig: _Signature, x1, x2, out, casting, dtype, signature, axes, axis,
              keepdims):
    """``(True, result)`` where an operand or output overrides ufuncs
    (``__array_ufunc__``): its ``__array_ufunc__`` for this gufunc, as NumPy dispatches
    (xnp's masked arrays keep xnp's paths); else ``(False, None)``."""
    from xnp._ma_dispatch import _is_masked
    from xnp._ufuncs import _override as overriding
    outs = out if isinstance(out, tuple) else (out,)
    other = overriding((x1, x2) + outs)
    if other is None or _is_masked(other):
        return False, None
    import xnp
    kwargs = {"out": outs} if any(o is not None for o in outs) else {}
    given = (("casting", casting, casting != "same_kind"), ("dtype", dtype, dtype is not None),
             ("signature", signature, signature is not None),
             ("axes", axes, axes is not None), ("axis", axis, axis is not None),
             ("keepdims", keepdims, keepdims is not False))
    kwargs.update((key, value) for key, value, use in given if use)
    return True, type(other).__array_ufunc__(other, getattr(xnp, sig.name), "__call__",
                                             x1, x2, **kwargs)


def _gufunc(sig: _Signature, x1, x2, out, casting, dtype, signature, axes, axis,
            keepdims=False):
    found, r = _override(sig, x1, x2, out, casting, dtype, signature, axes, axis, keepdims)
    if found:
        return r
    if signature is not None:
        raise TypeError(f"{sig.name}: the signature argument is not supported; use dtype=")
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"{sig.name}: keepdims must be a bool, got {keepdims!r}")
    if keepdims and sig is not _VECDOT:
        raise TypeError(f"{sig.name} does not support keepdims: its signature {sig.text} "
                        "gives its output core dimensions")
    x, y = strong(raw(x1)), strong(raw(x2))
    dtype = _loop_dtype(sig, x, y, dtype, casting)
    if out is not None:
        out = _out_handle(sig.name, out)
        _check_out_cast(sig.name, dtype, out, casting)
    cores = (_core_ndim(sig, 0, x), _core_ndim(sig, 1, y))
    out_axes = None
    if axes is not None or axis is not None:
        (x, y), out_axes = _move_core_axes(sig, (x, y), cores, axes, axis, keepdims)
    x, y = cast(x, dtype), cast(y, dtype)
    if sig is _MATVEC or sig is _VECMAT or sig is _MATMUL and (
            len(shape_of(x)) > 2 or len(shape_of(y)) > 2):
        r = _gufunc_loop_p.bind(x, y, name=sig.name)   # NumPy's per-matrix BLAS calls
    else:
        r = _gufunc_loop_expand(x, y, name=sig.name)
    if keepdims and out_axes:           # the kept summed axis, placed by out_axes
        r = reshape_v(r, r.shape + (1,))
    if out_axes:
        r = _place_core_axes(sig.name, r, out_axes)
    if keepdims and not out_axes:       # the summed axis stays with size 1, last
        r = reshape_v(r, r.shape + (1,))
    if out is None:
        return wrap_scalar_result(r)
    out_core = 0 if out_axes is not None else len(r.shape) - max(
        len(x.shape) - cores[0], len(y.shape) - cores[1])
    return _ufunc_out(sig.name, r, out, casting, out_core)


def matmul(x1, x2, /, out=None, *, casting: str = "same_kind", order: str = "K",
           dtype=None, subok: bool = True, signature=None, axes=None, axis=None,
           keepdims: bool = False) -> ndarray:
    """Matrix product of two arrays, as :func:`numpy.matmul` (the ``@`` operator).

    1-d operands are promoted to a row (first) or column (second) vector and the added
    dimension removed from the result; batch dimensions broadcast; 0-d operands raise
    ValueError. ``out=``, ``dtype=``, ``casting=`` and ``axes=`` as for NumPy's gufunc;
    ``order`` and ``subok`` are accepted and ignored.
    """
    x, y = raw(x1), raw(x2)
    if out is None and dtype is None and axes is None and axis is None and \
            signature is None and not keepdims and isinstance(x, _ARRAYS) and \
            isinstance(y, _ARRAYS) and 0 < x.ndim <= 2 and 0 < y.ndim <= 2 and \
            x.dtype == y.dtype and x.shape[-1] == y.shape[0]:
        # The common case (vectors and matrices of one dtype): one primitive, no planning.
        return wrap_scalar_result(_DG.bind(x, y, dimension_numbers=_MATMUL_DIMS[x.ndim]))
    return _gufunc(_MATMUL, x1, x2, out, casting, dtype, signature, axes, axis, keepdims)


def vecdot(x1, x2, /, out=None, *, casting: str = "same_kind", order: str = "K",
           dtype=None, subok: bool = True, signature=None, axes=None, axis=None,
           keepdims: bool = False) -> ndarray:
    """Vector dot product over the last axis (or ``axis``), as :func:`numpy.vecdot`:
    ``sum(conj(x1) * x2, axis)`` with broadcasting of the other dimensions;
    ``keepdims=True`` keeps the summed axis with size 1."""
    return _gufunc(_VECDOT, x1, x2, out, casting, dtype, signature, axes, axis,
                   keepdims)


def matvec(x1, x2, /, out=None, *, casting: str = "same_kind", order: str = "K",
           dtype=None, subok: bool = True, signature=None, axes=None, axis=None,
           keepdims: bool = False) -> ndarray:
    """Matrix-vector product ``(..., m, n), (..., n) -> (..., m)``, as
    :func:`numpy.matvec`, with broadcasting of the batch dimensions."""
    return _gufunc(_MATVEC, x1, x2, out, casting, dtype, signature, axes, axis,
                   keepdims)


def vecmat(x1, x2, /, out=None, *, casting: str = "same_kind", order: str = "K",
           dtype=None, subok: bool = True, signature=None, axes=None, axis=None,
           keepdims: bool = False) -> ndarray:
    """Vector-matrix product ``(..., n), (..., n, m) -> (..., m)`` with the vector
    conjugated, as :func:`numpy.vecmat`, with broadcasting of the batch dimensions."""
    return _gufunc(_VECMAT, x1, x2, out, casting, dtype, signature, axes, axis,
                   keepdims)


def _gufunc_attributes():
    """NumPy's ufunc attributes of its four gufuncs (``np.matmul.signature``, ...): their
    arity, core signature and loops."""
    for fn in (matmul, vecdot, matvec, vecmat):
        g = getattr(np, fn.__name__)
        fn.nin, fn.nout, fn.nargs, fn.identity = g.nin, g.nout, g.nargs, g.identity
        fn.signature = g.signature
        fn.types = list(g.types)
        fn.ntypes = len(fn.types)


_gufunc_attributes()


# --- dot, vdot, inner, outer, tensordot, kron -------------------------------------------------
def dot(a, b, out=None) -> ndarray:
    """Dot product of two arrays, as :func:`numpy.dot`.

    A 0-d operand multiplies; otherwise the last axis of ``a`` is summed against the only
    axis of a 1-d ``b`` or the second-to-last axis of ``b``, and the result has shape
    ``a.shape[:-1] + b.shape[:-2] + b.shape[-1:]``. ``out`` must have exactly the
    result's dtype and shape (ValueError otherwise, as in NumPy).
    """
    x, y = promote(raw(a), raw(b))
    xs, ys = x.shape, y.shape
    if not xs or not ys:
        return _exact_out("dot", lax.mul_p.bind(x, y), out)
    k = len(ys) - 2 if len(ys) >= 2 else 0
    if xs[-1] != ys[k]:
        raise ValueError(f"shapes {fmt_shape(xs)} and {fmt_shape(ys)} not aligned: "
                         f"{xs[-1]} (dim {len(xs) - 1}) != {ys[k]} (dim {k})")
    if len(ys) > 2:     # a stack: NumPy's own loop (its dot products round otherwise)
        return _exact_out("dot", _dot_stack_p.bind(x, y), out)
    r = _DG.bind(x, y, dimension_numbers=(((len(xs) - 1,), (k,)), ((), ())))
    return _exact_out("dot", r, out)


def _dot_stack_expand(x, y):
    xs, ys = shape_of(x), shape_of(y)
    return _DG.bind(x, y, dimension_numbers=(((len(xs) - 1,), (len(ys) - 2,)), ((), ())))


# dot with a stacked second operand: eagerly numpy.dot, under transformations dot_general.
_dot_stack_p = CompositePrimitive("dot_stack", impl=_numpy_product(np.dot, _dot_stack_expand),
                                  expand=_dot_stack_expand)


def vdot(a, b, /) -> ndarray:
    """Dot product of the flattened arrays, conjugating ``a``, as :func:`numpy.vdot`."""
    x, y = promote(raw(a), raw(b))
    n, m = math.prod(x.shape), math.prod(y.shape)
    if n != m:
        raise ValueError(f"vdot: vectors have different lengths: {n} and {m} elements "
                         f"(shapes {fmt_shape(x.shape)} and {fmt_shape(y.shape)})")
    x, y = reshape_v(x, (n,)), reshape_v(y, (m,))
    if x.dtype.kind == "c":
        x = lax.conj_p.bind(x)
    return wrap_scalar_result(_DG.bind(x, y, dimension_numbers=(((0,), (0,)), ((), ()))))


def inner(a, b, /) -> ndarray:
    """Inner product over the last axes, as :func:`numpy.inner`; 0-d operands multiply.
    The result has shape ``a.shape[:-1] + b.shape[:-1]``."""
    x, y = promote(raw(a), raw(b))
    xs, ys = x.shape, y.shape
    if not xs or not ys:
        return wrap(lax.mul_p.bind(x, y))
    if xs[-1] != ys[-1]:
        raise ValueError(f"shapes {fmt_shape(xs)} and {fmt_shape(ys)} not aligned: "
                         f"{xs[-1]} (dim {len(xs) - 1}) != {ys[-1]} (dim {len(ys) - 1})")
    return wrap_scalar_result(_DG.bind(x, y, dimension_numbers=(((len(xs) - 1,), (len(ys) - 1,)),
                                                  ((), ()))))


def outer(a, b, out=None) -> ndarray:
    """Outer product of the flattened arrays, as :func:`numpy.outer`:
    ``result[i, j] = a.ravel()[i] * b.ravel()[j]``. ``out=`` as for ``multiply``."""
    x, y = strong(raw(a)), strong(raw(b))
    x = reshape_v(x, (math.prod(x.shape), 1))
    y = reshape_v(y, (1, math.prod(y.shape)))
    r = lax.mul_p.bind(x, y)
    if out is None:
        return wrap(r)
    return _ufunc_out("multiply", r, _out_handle("multiply", out), "same_kind")


def _tensordot_axes(axes, xnd: int, ynd: int) -> tuple:
    try:
        xa, ya = axes
    except TypeError:
        n = operator.index(axes)
        xa, ya = list(range(-n, 0)), list(range(0, n))
    xa = list(xa) if isinstance(xa, (tuple, list)) else [xa]
    ya = list(ya) if isinstance(ya, (tuple, list)) else [ya]
    if len(xa) != len(ya):
        raise ValueError(f"tensordot: shape-mismatch for sum ({len(xa)} axes of a, "
                         f"{len(ya)} axes of b)")
    xa = tuple(normalize_axis(d, xnd, "axes") for d in xa)
    ya = tuple(normalize_axis(d, ynd, "axes") for d in ya)
    if len(set(xa)) != len(xa) or len(set(ya)) != len(ya):
        raise ValueError("duplicate axes are not allowed in tensordot")
    return xa, ya


def tensordot(a, b, axes=2) -> ndarray:
    """Sum products over the given axes, as :func:`numpy.tensordot`.

    ``axes=N`` sums the last N axes of ``a`` against the first N of ``b``; a pair of
    sequences (or ints) names the axes explicitly. The result has the remaining axes of
    ``a`` followed by those of ``b``. Out-of-range axes raise AxisError (an IndexError,
    as NumPy's IndexError).
    """
    x, y = promote(raw(a), raw(b))
    xs, ys = x.shape, y.shape
    xa, ya = _tensordot_axes(axes, len(xs), len(ys))
    if any(xs[i] != ys[j] for i, j in zip(xa, ya)):
        raise ValueError(f"tensordot: shape-mismatch for sum: {fmt_shape(xs)} axes {xa} "
                         f"and {fmt_shape(ys)} axes {ya}")
    # As NumPy: both operands transposed and reshaped to matrices, one matrix product
    # (BLAS then sums as NumPy's does; a product of the N-d operands rounds otherwise).
    xf = [d for d in range(len(xs)) if d not in xa]
    yf = [d for d in range(len(ys)) if d not in ya]
    k = math.prod(xs[d] for d in xa)
    x2 = reshape_v(transpose_v(x, xf + list(xa)), (math.prod(xs[d] for d in xf), k))
    y2 = reshape_v(transpose_v(y, list(ya) + yf), (k, math.prod(ys[d] for d in yf)))
    r = _DG.bind(x2, y2, dimension_numbers=(((1,), (0,)), ((), ())))
    return wrap(reshape_v(r, [xs[d] for d in xf] + [ys[d] for d in yf]))


def kron(a, b, /) -> ndarray:
    """Kronecker product, as :func:`numpy.kron`: blocks of ``b`` scaled by the elements
    of ``a``; the operand with fewer dimensions gets leading 1s."""
    x, y = strong(raw(a)), strong(raw(b))
    xs, ys = x.shape, y.shape
    if not xs or not ys:
        return wrap(lax.mul_p.bind(x, y))
    nd = max(len(xs), len(ys))
    xs, ys = (1,) * (nd - len(xs)) + xs, (1,) * (nd - len(ys)) + ys
    # (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...) broadcasts to (a0, b0, a1, b1, ...).
    x = reshape_v(x, [s for d in xs for s in (d, 1)])
    y = reshape_v(y, [s for d in ys for s in (1, d)])
    r = lax.mul_p.bind(x, y)
    return wrap(reshape_v(r, [p * q for p, q in zip(xs, ys)]))
