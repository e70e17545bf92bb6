"""Registry entries for the primitives themselves (``xnp.lax.<name>``), each against an
independent NumPy formulation (or scipy.special for the special functions)."""

from __future__ import annotations

import numpy as np
import scipy.special as sp
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

from xnp.lax import GatherDimensionNumbers, ScatterDimensionNumbers


def _one(dtypes, **kw):
    return S.arrays(st.sampled_from(dtypes), **kw).map(lambda a: Sample((a,)))


def _two(dtypes, **kw):
    return S.broadcastable_arrays(dtypes, 2, **kw).map(lambda xy: Sample(xy))


def _lax(name, samples, ref, **kw):
    return OpInfo(f"lax.{name}", samples, ref=ref, **kw)


def _same_dtype_pair(dtypes, **kw):
    return st.sampled_from(dtypes).flatmap(
        lambda d: S.broadcastable_arrays([d], 2, **kw)).map(lambda xy: Sample(xy))


def _float_ref(fn):
    """Reference for a float-valued special function: compute in float64, return in the
    dtype NumPy's float ufuncs give."""
    def ref(x):
        dt = np.sin.resolve_dtypes((x.dtype, None))[1]
        return np.asarray(fn(x.astype(np.float64)), dtype=dt)
    return ref


_UNARY_UFUNC = {
    "neg": np.negative, "sign": np.sign, "floor": np.floor, "ceil": np.ceil,
    "round": np.rint, "trunc": np.trunc, "abs": np.absolute, "exp": np.exp,
    "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2, "log10": np.log10,
    "log1p": np.log1p, "sqrt": np.sqrt, "cbrt": np.cbrt, "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh,
    "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh, "acosh": np.arccosh,
    "atanh": np.arctanh, "is_finite": np.isfinite, "is_nan": np.isnan,
    "signbit": np.signbit, "not_": np.invert, "conj": np.conjugate,
    "population_count": np.bitwise_count,
}
_BINARY_UFUNC = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "floor_divide": np.floor_divide, "rem": np.fmod, "pow": np.power, "max": np.maximum,
    "min": np.minimum, "atan2": np.arctan2, "nextafter": np.nextafter,
    "and_": np.bitwise_and, "or_": np.bitwise_or, "xor": np.bitwise_xor,
    "shift_left": np.left_shift, "gcd": np.gcd, "eq": np.equal, "ne": np.not_equal,
    "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
}
_FLOATY = S.FLOATS + S.INTS + S.BOOL

ENTRIES = [_lax(n, _one(S.ALL), f) for n, f in _UNARY_UFUNC.items()]
ENTRIES += [_lax(n, _two(S.ALL, max_value=30, min_value=-30), f)
            for n, f in _BINARY_UFUNC.items()]
ENTRIES += [
    _lax("rsqrt", _one(S.FLOATS), lambda x: 1 / np.sqrt(x), rtol=1e-15),
    _lax("logistic", _one(S.FLOATS), _float_ref(sp.expit), rtol=1e-15),
    _lax("erf", _one(_FLOATY), _float_ref(sp.erf), rtol=1e-13),
    _lax("erfc", _one(_FLOATY), _float_ref(sp.erfc), rtol=1e-12),
    _lax("erf_inv", _one(S.FLOATS, min_value=-1, max_value=1), _float_ref(sp.erfinv),
         rtol=1e-13, atol=1e-300),
    # scipy's gammaln overflows to inf at subnormal x, where xnp stays finite and right.
    _lax("lgamma", _one(S.FLOATS, min_value=-50, max_value=1e5).filter(
        lambda s: not (np.abs(s.args[0]) < 1e-300).any()), _float_ref(sp.gammaln),
         rtol=1e-12, atol=1e-14),
    _lax("digamma", _one(S.FLOATS, min_value=-50, max_value=1e5), _float_ref(sp.psi),
         rtol=1e-12, atol=1e-13),
    _lax("real", _one(S.NUMERIC), np.real),
    _lax("imag", _one(S.COMPLEX), np.imag),
    _lax("complex", _two([np.dtype(np.float32), np.dtype(np.float64)]),
         lambda x, y: x + 1j * y.astype(np.result_type(x, y)) if False else _complex(x, y)),
    _lax("shift_right_arithmetic", _same_dtype_pair(S.INTEGER, min_value=0, max_value=70),
         lambda x, y: _shift(x, y, "i"), differentiable=False),
    _lax("shift_right_logical", _same_dtype_pair(S.INTEGER, min_value=0, max_value=70),
         lambda x, y: _shift(x, y, "u"), differentiable=False),
]


def _top_k_ref(x, k):
    """Descending, ties in index order: a stable ascending sort of the reversed array,
    read backwards (no negation, which overflows at the integer minimum)."""
    n = x.shape[-1]
    order = (n - 1 - np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1])[..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


def _complex(x, y):
    dt = np.result_type(x, y)
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), np.complex64 if dt == np.float32
                   else np.complex128)
    out.real, out.imag = x, y
    return out


def _shift(x, y, kind):
    """Python's integers give an independent answer for shifts of any width."""
    dt = np.result_type(x, y)
    bits = dt.itemsize * 8
    xs, ys = np.broadcast_arrays(x.astype(dt), y.astype(dt))
    out = np.empty(xs.shape, dt)
    for idx in np.ndindex(xs.shape):
        v, s = int(xs[idx]), int(ys[idx])
        if kind == "u":
            v &= (1 << bits) - 1
        elif v >= 1 << (bits - 1):
            v -= 1 << bits
        r = v >> min(s, bits) if s >= 0 else (0 if kind == "u" else v >> bits)
        out[idx] = np.array(r & ((1 << bits) - 1), np.uint64).astype(dt)
    return out


# --- structural ---------------------------------------------------------------------------
def _shape_op(build):
    return S.arrays(st.sampled_from(S.ALL), S.shapes(min_dims=1)).flatmap(build)


def _reshape(a):
    return st.just(Sample((a,), {"new_sizes": (a.size,)}))


def _transpose(a):
    return st.permutations(range(a.ndim)).map(
        lambda p: Sample((a,), {"permutation": tuple(p)}))


def _rev(a):
    return st.lists(st.integers(0, a.ndim - 1), unique=True).map(
        lambda d: Sample((a,), {"dimensions": tuple(d)}))


def _bid(a):
    return st.integers(1, 3).map(lambda n: Sample((a,), {
        "shape": (n, *a.shape), "broadcast_dimensions": tuple(range(1, a.ndim + 1))}))


def _slice(a):
    def build(parts):
        starts = tuple(p[0] for p in parts)
        limits = tuple(p[1] for p in parts)
        strides = tuple(p[2] for p in parts)
        return Sample((a,), {"start_indices": starts, "limit_indices": limits,
                             "strides": strides})
    per_dim = [st.tuples(st.integers(0, n), st.integers(0, n), st.integers(1, 3)).map(
        lambda t: (min(t[0], t[1]), max(t[0], t[1]), t[2])) for n in a.shape]
    return st.tuples(*per_dim).map(build)


def _pad(a):
    cfg = st.tuples(*[st.tuples(st.integers(-1, 2), st.integers(-1, 2), st.integers(0, 2))
                      for _ in a.shape]).filter(lambda c: all(
                          lo + hi + n + max(n - 1, 0) * i >= 0
                          for (lo, hi, i), n in zip(c, a.shape)))
    return cfg.map(lambda c: Sample((a, np.zeros((), a.dtype)), {"padding_config": c}))


def _pad_ref(x, value, padding_config):
    """Interior padding by index arithmetic, negative edges by cropping."""
    out = x
    for axis, (lo, hi, interior) in enumerate(padding_config):
        n = out.shape[axis]
        size = max(n + max(n - 1, 0) * interior, 0)
        grown = np.full(out.shape[:axis] + (size,) + out.shape[axis + 1:], value, x.dtype)
        idx = [slice(None)] * out.ndim
        idx[axis] = slice(0, size, interior + 1)
        grown[tuple(idx)] = out
        before = np.full(out.shape[:axis] + (max(lo, 0),) + out.shape[axis + 1:], value,
                         x.dtype)
        after = np.full(out.shape[:axis] + (max(hi, 0),) + out.shape[axis + 1:], value,
                        x.dtype)
        out = np.concatenate([before, grown, after], axis=axis)
        idx[axis] = slice(-lo if lo < 0 else 0, out.shape[axis] + hi if hi < 0 else None)
        out = out[tuple(idx)]
    return out


def _dynamic_slice(a):
    return st.tuples(*[st.tuples(st.integers(-2, n + 2), st.integers(0, n))
                       for n in a.shape]).map(lambda p: Sample(
                           (a, *[np.int32(s) for s, _ in p]),
                           {"slice_sizes": tuple(k for _, k in p)}))


def _ds_ref(x, *starts, slice_sizes):
    starts = [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, x.shape, slice_sizes)]
    return x[tuple(slice(s, s + k) for s, k in zip(starts, slice_sizes))]


def _dus(a):
    def build(p):
        upd = np.ones(tuple(k for _, k in p), a.dtype)
        return Sample((a, upd, *[np.int64(s) for s, _ in p]))
    return st.tuples(*[st.tuples(st.integers(-2, n + 2), st.integers(0, n))
                       for n in a.shape]).map(build)


def _dus_ref(x, upd, *starts):
    out = x.copy()
    starts = [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, x.shape, upd.shape)]
    out[tuple(slice(s, s + k) for s, k in zip(starts, upd.shape))] = upd
    return out


def _take_rows(a):
    """gather of whole rows: operand[indices] along axis 0 (NumPy's take, mode clip)."""
    n = a.shape[0]
    return hnp_ints(n).map(lambda idx: Sample((a, idx[..., None]), {
        "dimension_numbers": GatherDimensionNumbers(
            offset_dims=tuple(range(idx.ndim, idx.ndim + a.ndim - 1)),
            collapsed_slice_dims=(0,), start_index_map=(0,)),
        "slice_sizes": (1, *a.shape[1:]), "mode": "clip"}))


def hnp_ints(n):
    return S.arrays(np.dtype(np.int32), S.shapes(max_dims=2), min_value=-3,
                    max_value=n + 3)


def _gather_ref(x, idx, dimension_numbers, slice_sizes, mode):
    return np.take(x, idx[..., 0], axis=0, mode="clip")


def _scatter_add(a):
    n = a.shape[0]
    return hnp_ints(n).map(lambda idx: Sample(
        (a, idx[..., None], np.ones(idx.shape + a.shape[1:], a.dtype)),
        {"dimension_numbers": ScatterDimensionNumbers(
            update_window_dims=tuple(range(idx.ndim, idx.ndim + a.ndim - 1)),
            inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)),
         "mode": "fill"}))


def _scatter_add_ref(x, idx, upd, dimension_numbers, mode):
    out = x.copy()
    i = idx[..., 0]
    keep = (i >= 0) & (i < x.shape[0])
    np.add.at(out, i[keep], upd[keep])
    return out


def _reduce(a):
    return st.lists(st.integers(0, a.ndim - 1), unique=True).map(
        lambda ax: Sample((a,), {"axes": tuple(ax)}))


_NUM = S.INTS + S.FLOATS + S.COMPLEX
ENTRIES += [
    _lax("reshape", _shape_op(_reshape), lambda x, new_sizes: x.reshape(new_sizes)),
    _lax("transpose", _shape_op(_transpose), lambda x, permutation: x.transpose(permutation)),
    _lax("rev", _shape_op(_rev), lambda x, dimensions: np.flip(x, dimensions)),
    _lax("broadcast_in_dim", _shape_op(_bid),
         lambda x, shape, broadcast_dimensions: np.broadcast_to(x, shape)),
    _lax("slice", _shape_op(_slice), lambda x, start_indices, limit_indices, strides:
         x[tuple(map(slice, start_indices, limit_indices, strides))]),
    _lax("pad", _shape_op(_pad), _pad_ref),
    _lax("dynamic_slice", _shape_op(_dynamic_slice), _ds_ref),
    _lax("dynamic_update_slice", _shape_op(_dus), _dus_ref),
    _lax("gather", _shape_op(_take_rows).filter(lambda s: s.args[0].shape[0] > 0),
         _gather_ref),
    _lax("scatter_add", S.arrays(st.sampled_from(S.INTS + S.FLOATS), S.shapes(min_dims=1))
         .flatmap(_scatter_add), _scatter_add_ref),
    _lax("reduce_sum", S.arrays(st.sampled_from(_NUM), S.shapes(min_dims=1),
                                min_value=-9, max_value=9).flatmap(_reduce),
         lambda x, axes: np.sum(x, axis=axes, dtype=x.dtype), rtol=1e-5),
    _lax("reduce_max", S.arrays(st.sampled_from(S.REAL), S.shapes(min_dims=1, min_side=1))
         .flatmap(_reduce), lambda x, axes: np.max(x, axis=axes)),
    _lax("cumsum", S.arrays(st.sampled_from(S.INTS + S.FLOATS), S.shapes(min_dims=1),
                            min_value=-9, max_value=9).map(lambda a: Sample((a,), {
                                "axis": a.ndim - 1})),
         lambda x, axis: np.cumsum(x, axis=axis, dtype=x.dtype), rtol=1e-5),
    _lax("argmax", S.arrays(st.sampled_from(S.REAL), S.shapes(min_dims=1, min_side=1)).map(
        lambda a: Sample((a,), {"axis": 0, "index_dtype": np.dtype(np.int32)})),
        lambda x, axis, index_dtype: np.argmax(x, axis=axis).astype(index_dtype),
        differentiable=False),
    _lax("sort", S.arrays(st.sampled_from(S.REAL), S.shapes(min_dims=1)).map(
        lambda a: Sample((a,), {"dimension": a.ndim - 1})),
        lambda x, dimension: [np.sort(x, axis=dimension, kind="stable")]),
    _lax("top_k", S.arrays(st.sampled_from(S.INTS + S.FLOATS), S.shapes(min_dims=1),
                           edges=False).map(lambda a: Sample((a,), {"k": a.shape[-1]})),
         lambda x, k: _top_k_ref(x, k),
         check_dtype=False, id="lax.top_k"),
    _lax("dot_general", S.arrays(st.sampled_from(_NUM), (2, 3, 4), min_value=-9,
                                 max_value=9).map(lambda a: Sample((a, a), {
                                     "dimension_numbers": (((2,), (2,)), ((0,), (0,)))})),
         lambda x, y, dimension_numbers: np.einsum("bik,bjk->bij", x, y), rtol=1e-5),
    # batched outer products (no contraction; the transpose of a batched matrix-vector
    # product), with the batch dimension of the right operand not in front
    _lax("dot_general", S.arrays(st.sampled_from(_NUM), (2, 3, 4), min_value=-9,
                                 max_value=9).map(lambda a: Sample((a, a.transpose(1, 0, 2)), {
                                     "dimension_numbers": (((), ()), ((0,), (1,)))})),
         lambda x, y, dimension_numbers: np.einsum("bij,kbl->bijkl", x, y), rtol=1e-5,
         id="lax.dot_general_batched_outer"),
    _lax("concatenate", S.arrays(st.sampled_from(S.ALL), S.shapes(min_dims=1)).map(
        lambda a: Sample((a, a), {"dimension": 0})),
        lambda x, y, dimension: np.concatenate([x, y], axis=dimension)),
    _lax("iota", st.tuples(st.sampled_from(S.INTS + S.FLOATS), S.shapes(min_dims=1)).map(
        lambda t: Sample((), {"dtype": t[0], "shape": t[1], "dimension": len(t[1]) - 1})),
        lambda dtype, shape, dimension: np.broadcast_to(
            np.arange(shape[dimension], dtype=dtype), shape), differentiable=False),
    _lax("convert_element_type", st.tuples(S.arrays(st.sampled_from(S.REAL), edges=False,
                                                    min_value=-100, max_value=100),
                                           st.sampled_from(S.REAL)).map(
        lambda t: Sample((t[0],), {"new_dtype": t[1]})),
        lambda x, new_dtype: x.astype(new_dtype)),
    _lax("bitcast_convert_type", _one(S.INTS + S.FLOATS).map(
        lambda s: Sample(s.args, {"new_dtype": np.dtype(f"u{s.args[0].dtype.itemsize}")})),
        lambda x, new_dtype: x.view(new_dtype), differentiable=False),
    _lax("select_n", S.broadcastable_arrays(S.FLOATS, 3).map(
        lambda t: Sample((t[0] > 0, t[1], t[2]))), lambda c, a, b: np.where(c, b, a)),
    # ties (equal values, frequent among small integers) weigh 1/2; NaN loses
    _lax("tie_weight", st.tuples(S.broadcastable_arrays(S.FLOATS + S.INTS[:2], 2,
                                                        min_value=-2, max_value=2),
                                 st.booleans(), st.sampled_from(S.FLOATS)).map(
        lambda t: Sample(t[0], {"less": t[1], "dtype": np.dtype(t[2])})),
        lambda x, y, less, dtype: np.where((x < y) if less else (x > y), 1.0,
                                           np.where(x == y, 0.5, 0.0)).astype(dtype),
        differentiable=False),
    _lax("clamp", S.broadcastable_arrays(S.FLOATS, 3, edges=False).map(
        lambda t: Sample(t)), lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi)),
    _lax("integer_pow", S.arrays(st.sampled_from(S.FLOATS + S.INTS), min_value=-3,
                                 max_value=3).flatmap(lambda a: st.integers(0, 4).map(
                                     lambda y: Sample((a,), {"y": y}))),
         lambda x, y: np.power(x, y)),
    _lax("copy", _one(S.ALL), np.copy),
    _lax("squeeze", _one(S.ALL).map(lambda s: Sample((s.args[0].reshape(1, -1),),
                                                     {"dimensions": (0,)})),
         lambda x, dimensions: np.squeeze(x, dimensions)),
    _lax("expand_dims", _one(S.ALL).map(lambda s: Sample(s.args, {"dimensions": (0, -1)})),
         lambda x, dimensions: np.expand_dims(x, dimensions)),
]
