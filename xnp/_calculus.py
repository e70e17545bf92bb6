"""Differences, integration and products of sequences: diff, ediff1d, gradient,
trapezoid, cross, convolve and correlate, with NumPy's formulas (so results agree to the
rounding) and dtypes.

Slices along an axis are static ``slice`` primitives; convolution lays out the sliding
windows of the zero-padded longer input as a Toeplitz matrix (by reshaping a tiled copy)
and contracts them with the shorter input in a single ``dot_general``.
"""

from __future__ import annotations

import builtins
import warnings

import numpy as np
from numpy.exceptions import AxisError

from transforms.core import CompositePrimitive, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._dtypes import is_inexact, promote_types, result_type
from xnp._reductions import concrete_any, strong_v
from xnp._util import broadcast_to_v, cast_v, normalize_axis, normalize_axis_tuple, raw

__all__ = ["diff", "ediff1d", "gradient", "trapezoid", "cross", "convolve", "correlate",
           "unwrap"]

B = lax


def slice_axis(v, axis: int, start: int | None, stop: int | None):
    """``v[..., start:stop, ...]`` along ``axis`` (Python slice semantics)."""
    shape = get_aval(v).shape
    lo, hi, _ = slice(start, stop).indices(shape[axis])
    hi = builtins.max(hi, lo)
    starts = tuple(lo if d == axis else 0 for d in range(len(shape)))
    limits = tuple(hi if d == axis else s for d, s in enumerate(shape))
    return B.slice_p.bind(v, start_indices=starts, limit_indices=limits)


def _concat(values, axis):
    dt = result_type(*values)
    return B.concatenate_p.bind(*[cast_v(v, dt) for v in values], dimension=axis)


# --- differences ---------------------------------------------------------------------------------
def _edge_block(value, shape, axis):
    v = strong_v(value)
    if get_aval(v).ndim == 0:
        block = list(shape)
        block[axis] = 1
        v = broadcast_to_v(v, tuple(block))
    return v


def diff(a, n: int = 1, axis: int = -1, prepend=None, append=None) -> ndarray:
    """``n``-th discrete difference along ``axis`` (``!=`` for booleans, as NumPy).

    ``prepend``/``append`` (scalars broadcast to one slice) are joined first. Differs from
    NumPy in that ``None`` means "not given" for them. ``n=0`` returns ``a`` itself, as
    NumPy does.
    """
    if n == 0:
        return a if isinstance(a, (ndarray, list, tuple, np.ndarray)) else wrap(raw(a))
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    v = strong_v(a)
    shape = get_aval(v).shape
    if not shape:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, len(shape))
    parts = [_edge_block(prepend, shape, axis)] if prepend is not None else []
    parts.append(v)
    if append is not None:
        parts.append(_edge_block(append, shape, axis))
    if len(parts) > 1:
        v = _concat(parts, axis)
    op = B.ne_p if get_aval(v).dtype.kind == "b" else B.sub_p
    for _ in range(n):
        v = op.bind(slice_axis(v, axis, 1, None), slice_axis(v, axis, None, -1))
    return wrap(v)


def ediff1d(ary, to_end=None, to_begin=None) -> ndarray:
    """Differences of the flattened array, with ``to_begin``/``to_end`` joined around them
    (cast to the input dtype, which they must reach under 'same_kind' casting)."""
    v = strong_v(ary)
    dt = get_aval(v).dtype
    v = B.reshape_p.bind(v, new_sizes=(get_aval(v).size,))
    d = B.sub_p.bind(slice_axis(v, 0, 1, None), slice_axis(v, 0, None, -1))
    if to_begin is None and to_end is None:
        return wrap(d)
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        e = strong_v(extra)
        if not np.can_cast(get_aval(e).dtype, dt, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under "
                            "the `same_kind` rule.")
        parts.append(cast_v(B.reshape_p.bind(e, new_sizes=(get_aval(e).size,)), dt))
    d = cast_v(d, dt)
    pieces = [p for p in (parts[0], d, parts[1]) if p is not None]
    return wrap(B.concatenate_p.bind(*pieces, dimension=0))


# --- gradient ------------------------------------------------------------------------------------
def _spacings(varargs, shape, axes):
    """NumPy's spacing per axis: a scalar value, or the 1-d differences of coordinates."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and np.ndim(raw(varargs[0])) == 0:
        return [raw(varargs[0])] * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for i, spacing in enumerate(varargs):
        d = raw(spacing)
        if np.ndim(d) == 0:
            out.append(d)
            continue
        d = strong_v(d)
        if get_aval(d).ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if get_aval(d).shape[0] != shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the "
                             "corresponding dimension")
        if get_aval(d).dtype.kind in "iu":
            d = cast_v(d, np.float64)
        dx = raw(diff(d))
        if get_aval(dx).shape[0] == 0:
            raise IndexError("index 0 is out of bounds for axis 0 with size 0")
        first = slice_axis(dx, 0, 0, 1)
        if concrete_any(B.ne_p.bind(dx, first)) is False:
            dx = B.reshape_p.bind(first, new_sizes=())    # uniform: NumPy's scalar path
        out.append(dx)
    return out


def _mul(x, y):
    """x * y; plain Python arithmetic when both are Python scalars (keeps them weak)."""
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return x * y
    return B.mul_p.bind(x, y)


def _div(x, y):
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return x / y
    return B.div_p.bind(x, y)


def _combine(terms):
    """a*f1 + b*f2 + c*f3 for (coefficient, values) pairs."""
    total = None
    for coef, f in terms:
        t = B.mul_p.bind(coef, f)
        total = t if total is None else B.add_p.bind(total, t)
    return total


def _coef_shape(c, ndim, axis):
    shape = [1] * ndim
    shape[axis] = get_aval(c).shape[0]
    return B.reshape_p.bind(c, new_sizes=tuple(shape))


def _gradient_axis(f, axis, dx, edge_order):
    """Second-order central differences inside, one-sided ones at both ends."""
    nd = get_aval(f).ndim
    uniform = np.ndim(dx) == 0

    def at(start, stop):
        return slice_axis(f, axis, start, stop)

    def pick(i):
        return slice_axis(dx, 0, i, i + 1 if i != -1 else None)

    if uniform:
        inner = B.div_p.bind(B.sub_p.bind(at(2, None), at(None, -2)), _mul(2.0, dx))
    else:
        dx1, dx2 = slice_axis(dx, 0, 0, -1), slice_axis(dx, 0, 1, None)
        s12 = B.add_p.bind(dx1, dx2)
        a = B.div_p.bind(B.neg_p.bind(dx2), B.mul_p.bind(dx1, s12))
        b = B.div_p.bind(B.sub_p.bind(dx2, dx1), B.mul_p.bind(dx1, dx2))
        c = B.div_p.bind(dx1, B.mul_p.bind(dx2, s12))
        inner = _combine([(_coef_shape(a, nd, axis), at(None, -2)),
                          (_coef_shape(b, nd, axis), at(1, -1)),
                          (_coef_shape(c, nd, axis), at(2, None))])
    if edge_order == 1:
        d0 = dx if uniform else pick(0)
        dn = dx if uniform else pick(-1)
        first = B.div_p.bind(B.sub_p.bind(at(1, 2), at(0, 1)), d0)
        last = B.div_p.bind(B.sub_p.bind(at(-1, None), at(-2, -1)), dn)
    else:
        first = _combine(zip(_second_order_coefs(dx, uniform, True),
                             (at(0, 1), at(1, 2), at(2, 3))))
        last = _combine(zip(_second_order_coefs(dx, uniform, False),
                            (at(-3, -2), at(-2, -1), at(-1, None))))
    return first, inner, last


def _second_order_coefs(dx, uniform, left):
    """The one-sided second-order coefficients at the left or right end."""
    if uniform:
        scales = (-1.5, 2.0, -0.5) if left else (0.5, -2.0, 1.5)
        return [_div(s, dx) for s in scales]
    d1 = slice_axis(dx, 0, 0, 1) if left else slice_axis(dx, 0, -2, -1)
    d2 = slice_axis(dx, 0, 1, 2) if left else slice_axis(dx, 0, -1, None)
    d1, d2 = (B.reshape_p.bind(d, new_sizes=()) for d in (d1, d2))
    s12 = B.add_p.bind(d1, d2)
    if left:
        a = B.div_p.bind(B.neg_p.bind(B.add_p.bind(B.mul_p.bind(2.0, d1), d2)),
                         B.mul_p.bind(d1, s12))
        b = B.div_p.bind(s12, B.mul_p.bind(d1, d2))
        c = B.div_p.bind(B.neg_p.bind(d1), B.mul_p.bind(d2, s12))
    else:
        a = B.div_p.bind(d2, B.mul_p.bind(d1, s12))
        b = B.div_p.bind(B.neg_p.bind(s12), B.mul_p.bind(d1, d2))
        c = B.div_p.bind(B.add_p.bind(B.mul_p.bind(2.0, d2), d1), B.mul_p.bind(d2, s12))
    return [a, b, c]


def gradient(f, *varargs, axis=None, edge_order: int = 1):
    """Gradient by second-order central differences, one-sided (``edge_order`` 1 or 2)
    at the boundaries; ``varargs`` give scalar spacings or coordinate arrays per axis.

    Returns one array for one axis, else a tuple. Coordinates with uniform spacing take
    NumPy's scalar-spacing formulas when they are concrete; traced ones always take the
    general (non-uniform) formulas, equal up to rounding.
    """
    v = strong_v(f)
    shape = get_aval(v).shape
    axes = normalize_axis_tuple(axis, len(shape))
    dxs = _spacings(varargs, shape, axes)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = get_aval(v).dtype
    if not is_inexact(otype):
        if otype.kind in "iu":
            v = cast_v(v, np.float64)
        otype = np.dtype(np.float64)
    outs = []
    for ax, dx in zip(axes, dxs):
        if shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        pieces = [cast_v(p, otype) for p in _gradient_axis(v, ax, dx, edge_order)]
        first, inner, last = pieces
        outs.append(wrap(B.concatenate_p.bind(first, inner, last, dimension=ax)))
    return outs[0] if len(outs) == 1 else tuple(outs)


def trapezoid(y, x=None, dx=1.0, axis: int = -1) -> ndarray:
    """Integral along ``axis`` by the trapezoidal rule, over sample points ``x`` (1-d, or
    the shape of ``y``) or with uniform spacing ``dx``."""
    yv = strong_v(y)
    nd = get_aval(yv).ndim
    given, axis = axis, normalize_axis(axis, nd)   # NumPy: diff(x) and the sum take it as given
    if x is None:
        d = raw(dx)
    else:
        xv = strong_v(x)
        if get_aval(xv).ndim == 1:
            d = raw(diff(xv))
            shape = [1] * nd
            shape[axis] = get_aval(d).shape[0]
            d = B.reshape_p.bind(d, new_sizes=tuple(shape))
        else:
            d = raw(diff(xv, axis=given))
    pair = B.add_p.bind(slice_axis(yv, axis, 1, None), slice_axis(yv, axis, None, -1))
    terms = B.div_p.bind(B.mul_p.bind(d, pair), 2.0)
    from xnp._reductions import sum as sum_
    return sum_(terms, given)


# --- cross products ---------------------------------------------------------------------------
def _component(v, i, keep: bool = False):
    r = slice_axis(v, get_aval(v).ndim - 1, i, i + 1)
    return r if keep else B.reshape_p.bind(r, new_sizes=get_aval(r).shape[:-1])


def _move_last(v, axis):
    nd = get_aval(v).ndim
    if axis == nd - 1:
        return v
    perm = tuple(d for d in range(nd) if d != axis) + (axis,)
    return B.transpose_p.bind(v, permutation=perm)


def _norm_axis(axis, ndim, prefix):
    try:
        return normalize_axis(axis, ndim)
    except AxisError:
        raise AxisError(axis, ndim, msg_prefix=prefix) from None


def cross(a, b, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis=None) -> ndarray:
    """Cross product of 3-vectors (or 2-vectors, deprecated in NumPy 2) along the given
    axes; ``axis`` sets all three."""
    if axis is not None:
        axisa = axisb = axisc = axis
    av, bv = strong_v(a), strong_v(b)
    if get_aval(av).ndim < 1 or get_aval(bv).ndim < 1:
        raise ValueError("At least one array has zero dimension")
    av = _move_last(av, _norm_axis(axisa, get_aval(av).ndim, "axisa"))
    bv = _move_last(bv, _norm_axis(axisb, get_aval(bv).ndim, "axisb"))
    na, nb = get_aval(av).shape[-1], get_aval(bv).shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    shape = tuple(np.broadcast_shapes(get_aval(av).shape[:-1], get_aval(bv).shape[:-1]))
    if na == 3 or nb == 3:
        axisc = _norm_axis(axisc, len(shape) + 1, "axisc")
    dt = promote_types(get_aval(av).dtype, get_aval(bv).dtype)
    av, bv = cast_v(av, dt), cast_v(bv, dt)
    keep = dt.kind == "O"   # components keep their axis: 0-d objects come back bare
    ac = [_component(av, i, keep) for i in range(na)]
    bc = [_component(bv, i, keep) for i in range(nb)]
    tail = (1,) if keep else ()

    def mul(x, y):
        return B.mul_p.bind(x, y)

    z = B.sub_p.bind(mul(ac[0], bc[1]), mul(ac[1], bc[0]))
    if na == 2 and nb == 2:
        z = broadcast_to_v(z, shape + tail)
        z = B.reshape_p.bind(z, new_sizes=shape) if keep else z
        return wrap(np.asarray(z) if isinstance(z, np.generic) else z)  # 0-d: an array
    if na == 3 and nb == 3:
        x = B.sub_p.bind(mul(ac[1], bc[2]), mul(ac[2], bc[1]))
        y = B.sub_p.bind(mul(ac[2], bc[0]), mul(ac[0], bc[2]))
    elif na == 2:
        x, y = mul(ac[1], bc[2]), B.neg_p.bind(mul(ac[0], bc[2]))
    else:
        x, y = B.neg_p.bind(mul(ac[2], bc[1])), mul(ac[2], bc[0])
    if keep:
        comps = [broadcast_to_v(c, shape + tail) for c in (x, y, z)]
    else:
        comps = [B.expand_dims_p.bind(broadcast_to_v(c, shape), dimensions=(len(shape),))
                 for c in (x, y, z)]
    cp = B.concatenate_p.bind(*comps, dimension=len(shape))
    if axisc != len(shape):
        perm = list(range(len(shape)))
        perm.insert(axisc, len(shape))
        cp = B.transpose_p.bind(cp, permutation=tuple(perm))
    return wrap(cp)


# --- convolution and correlation --------------------------------------------------------------
_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode(mode):
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
        return _MODES[mode]
    if isinstance(mode, bool) or not isinstance(mode, (int, np.integer)):
        raise TypeError("convolve/correlate mode not understood")
    if mode not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return int(mode)


def _as_1d(x, what):
    v = strong_v(x)
    nd = get_aval(v).ndim
    if nd == 0:
        if what == "correlate":
            raise ValueError("correlate: object of too small depth for desired array")
        return B.reshape_p.bind(v, new_sizes=(1,))
    if nd > 1:
        raise ValueError(f"{what}: object too deep for desired array")
    return v


def _correlate_v(a, v, mode):
    """sum_m a[m + k - (M-1)] * v[m] over the output positions of ``mode`` (a, v 1-d)."""
    n, m = get_aval(a).shape[0], get_aval(v).shape[0]
    short = builtins.min(n, m)
    start = {0: short - 1, 1: (short - 1) - short // 2 if n >= m else short // 2,
             2: 0}[mode]
    length = {0: builtins.max(n, m) - short + 1, 1: builtins.max(n, m), 2: n + m - 1}[mode]
    zero = cast_v(0, get_aval(a).dtype)
    # The part of the zero-padded ``a`` that the output windows cover.
    span = length + m - 1
    q = B.pad_p.bind(a, zero, padding_config=((m - 1 - start, span - n - (m - 1 - start),
                                               0),))
    if m <= _FEW_TAPS:          # a sum of shifted copies: m multiply-adds of the output's size
        out = None
        for k in range(m):
            term = B.mul_p.bind(B.slice_p.bind(q, start_indices=(k,),
                                               limit_indices=(k + length,)),
                                B.reshape_p.bind(B.slice_p.bind(v, start_indices=(k,),
                                                                limit_indices=(k + 1,)),
                                                 new_sizes=()))
            out = term if out is None else B.add_p.bind(out, term)
        return out
    out = None                  # blocks of taps, each one matrix-vector product
    for k0 in range(0, m, _TAP_BLOCK):
        k1 = builtins.min(k0 + _TAP_BLOCK, m)
        part = B.slice_p.bind(q, start_indices=(k0,), limit_indices=(k1 - 1 + length,))
        taps = B.slice_p.bind(v, start_indices=(k0,), limit_indices=(k1,))
        term = B.dot_general_p.bind(_toeplitz_rows(part, k1 - k0, length, zero), taps,
                                    dimension_numbers=(((0,), (0,)), ((), ())))
        out = term if out is None else B.add_p.bind(out, term)
    return out


_FEW_TAPS = 8
_TAP_BLOCK = 128


def _toeplitz_rows(q, m, length, zero):
    """T[j, k] = q[j + k] for j < m, k < length (q has m - 1 + length elements): m copies
    of q laid out flat and re-cut into rows one element longer, so that row j starts j
    elements further on."""
    span = length + m - 1
    tiled = B.reshape_p.bind(B.broadcast_in_dim_p.bind(q, shape=(m, span),
                                                       broadcast_dimensions=(1,)),
                             new_sizes=(m * span,))
    tiled = B.pad_p.bind(tiled, zero, padding_config=((0, m, 0),))
    rows = B.reshape_p.bind(tiled, new_sizes=(m, span + 1))
    return B.slice_p.bind(rows, start_indices=(0, 0), limit_indices=(m, length))


def _prepare(a, v, name):
    av, vv = _as_1d(a, name), _as_1d(v, name)
    dt = result_type(av, vv)
    return cast_v(av, dt), cast_v(vv, dt)


def correlate(a, v, mode: str = "valid") -> ndarray:
    """Cross-correlation ``c[k] = sum_n a[n+k] * conj(v[n])`` of two 1-d sequences."""
    mode = _mode(mode)
    av, vv = _prepare(a, v, "correlate")
    if get_aval(av).shape[0] == 0 or get_aval(vv).shape[0] == 0:
        raise ValueError("correlate: inputs cannot be empty")
    return wrap(correlate_p.bind(av, vv, mode=mode, convolve=False))


def convolve(a, v, mode: str = "full") -> ndarray:
    """Discrete linear convolution of two 1-d sequences."""
    mode = _mode(mode)
    av, vv = _prepare(a, v, "convolve")
    if get_aval(av).shape[0] == 0:
        raise ValueError("a cannot be empty")
    if get_aval(vv).shape[0] == 0:
        raise ValueError("v cannot be empty")
    if get_aval(vv).shape[0] > get_aval(av).shape[0]:
        av, vv = vv, av
    return wrap(correlate_p.bind(av, vv, mode=mode, convolve=True))


def _correlate_numpy(a, v, *, mode, convolve):
    name = ("valid", "same", "full")[mode]
    return (np.convolve if convolve else np.correlate)(a, v, name)


def _correlate_composite(a, v, *, mode, convolve):
    if convolve:
        return _correlate_v(a, B.rev_p.bind(v, dimensions=(0,)), mode)
    return _correlate_v(a, B.conj_p.bind(v) if get_aval(v).dtype.kind == "c" else v, mode)


# Eagerly numpy.convolve / numpy.correlate; under transformations shifted copies or
# Toeplitz blocks (see _correlate_v).
correlate_p = CompositePrimitive("correlate", impl=_correlate_numpy,
                                 expand=_correlate_composite)



def unwrap(p, discont=None, axis: int = -1, *, period=2 * np.pi) -> ndarray:
    """Unwrap a phase signal: jumps between neighbours larger than ``discont`` (default
    ``period / 2``) along ``axis`` are replaced by their complement modulo ``period``, as
    :func:`numpy.unwrap` (the same steps, so the same values and dtype)."""
    import xnp
    p = xnp.asarray(p)
    axis = normalize_axis(axis, p.ndim)
    dd = xnp.diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = result_type(dd, period)
    if np.issubdtype(dtype, np.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = xnp.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = xnp.where((ddmod == interval_low) & (dd > 0),
                          xnp.asarray(interval_high).astype(ddmod.dtype), ddmod)
    ph_correct = ddmod - dd
    ph_correct = xnp.where(xnp.abs(dd) < discont, xnp.zeros((), ph_correct.dtype),
                           ph_correct)
    up = xnp.array(p, copy=True, dtype=dtype)
    later = (slice(None),) * axis + (slice(1, None),)
    up[later] = p[later] + xnp.cumsum(ph_correct, axis=axis)
    return up
