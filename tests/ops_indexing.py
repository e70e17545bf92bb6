"""Registry entries for the indexing functions of xnp/_indexing_funcs.py.

Index arguments are drawn mostly in range and sometimes just out of it, so that NumPy's
IndexError/ValueError paths are compared too. Functions that modify an argument in place
(put, put_along_axis, place, fill_diagonal) are tested through wrappers that return the
modified array (the NumPy reference works on a copy). Value-dependent output shapes
(nonzero, compress, ...) are tested with and without ``size=``.
"""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

import xnp

_ANY = st.sampled_from(S.ALL)
_MODES = st.sampled_from(["raise", "wrap", "clip"])


def _idx_values(n: int, spill: int = 1):
    """Indices for an axis of length n: mostly valid (negative too), sometimes not."""
    lo, hi = -n - spill, n - 1 + spill
    return st.integers(lo, hi) if n + spill else st.just(0)


def _index_array(n, shape=None, spill=1):
    shape = S.shapes(max_dims=2, max_side=3) if shape is None else st.just(shape)
    return shape.flatmap(lambda s: S.arrays(np.int64, s, min_value=-n - spill,
                                            max_value=max(n - 1 + spill, 0)))


# --- take / take_along_axis / put ---------------------------------------------------------
@st.composite
def _take(draw):
    a = draw(S.arrays(_ANY))
    axis = draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1))) if a.ndim else None
    n = a.size if axis is None else a.shape[axis]
    mode = draw(_MODES)
    spill = 1 if mode == "raise" else 5
    idx = draw(st.one_of(_index_array(n, spill=spill), _idx_values(n, spill)))
    if mode != "raise" and n == 0:
        idx = np.zeros(0, np.int64)
    return Sample((a, idx), {"axis": axis, "mode": mode})


@st.composite
def _along_axis(draw, with_values=False):
    a = draw(S.arrays(_ANY, S.shapes(min_dims=1)))
    axis = draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)))
    if axis is None:
        shape = (draw(st.integers(0, 4)),)
        n = a.size
    else:
        ax = axis % a.ndim
        shape = tuple(draw(st.integers(0, 4)) if d == ax else
                      draw(st.sampled_from([s, 1])) for d, s in enumerate(a.shape))
        n = a.shape[ax]
    idx = draw(_index_array(n, shape, spill=0 if n else 1)) if n or not \
        int(np.prod(shape)) else np.zeros(shape, np.int64)
    if not with_values:
        return Sample((a, idx), {"axis": axis})
    values = draw(st.one_of(S.arrays(a.dtype, idx.shape), st.integers(0, 5).map(
        lambda v: np.asarray(v).astype(a.dtype))))
    return Sample((a, idx, values, axis))


def _in_place(name):
    def op(a, *args, **kwargs):
        getattr(xnp, name)(a, *args, **kwargs)
        return a

    def ref(a, *args, **kwargs):
        a = a.copy()
        getattr(np, name)(a, *args, **kwargs)
        return a
    return op, ref


@st.composite
def _put(draw):
    a = draw(S.arrays(_ANY, S.shapes(min_dims=1)))
    mode = draw(_MODES)
    idx = draw(_index_array(a.size, spill=1 if mode == "raise" else 4))
    v = draw(st.one_of(S.arrays(a.dtype, S.shapes(max_dims=2, max_side=3)),
                       st.integers(0, 1).map(lambda i: np.asarray(i).astype(a.dtype))))
    return Sample((a, idx, v), {"mode": mode})


# --- choose / compress / select / piecewise -----------------------------------------------
@st.composite
def _choose(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=4, max_dims=2, max_side=3))
    k = draw(st.integers(1, 3))
    mode = draw(_MODES)
    hi = k - 1 if mode == "raise" and draw(st.integers(0, 5)) else k + 2
    lo = 0 if mode == "raise" and hi == k - 1 else -3
    a = draw(S.arrays(np.int64, shapes.input_shapes[0], min_value=lo, max_value=hi))
    dtypes = st.sampled_from(S.INTS + S.FLOATS + S.BOOL)
    choices = [draw(S.arrays(dtypes, s)) for s in shapes.input_shapes[1:1 + k]]
    return Sample((a, choices), {"mode": mode})


@st.composite
def _compress(draw, sized=False):
    a = draw(S.arrays(_ANY))
    axis = draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1))) if a.ndim else None
    n = a.size if axis is None else a.shape[axis]
    m = draw(st.integers(0, n + 1))
    cond = draw(S.arrays(st.sampled_from([np.dtype(bool), np.dtype(np.int8)]), (m,)))
    if m > n:
        cond[n:] = draw(st.booleans())
    kwargs = {"axis": axis}
    if sized:
        kwargs.update(size=draw(st.integers(0, n + 1)), fill_value=draw(st.integers(-2, 2)))
        cond = cond[:n]
    return Sample((cond, a), kwargs)


def _compress_sized(cond, a, axis=None, size=None, fill_value=None):
    idx = np.flatnonzero(cond)
    picked = np.compress(cond, a, axis=axis)
    ax = 0 if axis is None else axis % max(np.ndim(a), 1)
    pad = size - len(idx)
    if pad <= 0:
        return np.take(picked, np.arange(size), axis=ax)
    widths = [(0, 0)] * picked.ndim
    widths[ax] = (0, pad)
    return np.pad(picked, widths, constant_values=np.asarray(fill_value).astype(a.dtype))


@st.composite
def _select(draw):
    k = draw(st.integers(1, 3))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2 * k, max_dims=2,
                                                      max_side=3))
    conds = [draw(S.arrays(bool, s)) for s in shapes.input_shapes[:k]]
    dtypes = st.sampled_from(S.INTS + S.FLOATS + S.BOOL + S.COMPLEX)
    choices = [draw(S.arrays(dtypes, s)) for s in shapes.input_shapes[k:]]
    default = draw(st.one_of(st.just(0), S.python_scalars(("int", "float"))))
    return Sample((conds, choices), {"default": default})


def _neg(v):
    return -v


def _twice_plus_one(v):
    return v * 2 + 1


@st.composite
def _piecewise(draw):
    x = draw(S.arrays(st.sampled_from(S.INTS + S.FLOATS), S.shapes(max_side=3),
                      min_value=-50, max_value=50))
    k = draw(st.integers(1, 3))
    conds = [draw(S.arrays(bool, x.shape)) for _ in range(k)]
    funcs = [draw(st.sampled_from([_neg, _twice_plus_one, 7, 1.5]))
             for _ in range(k + draw(st.integers(0, 1)))]
    return Sample((x, conds, funcs))


# --- diagonal / trace ---------------------------------------------------------------------
@st.composite
def _diagonal(draw, with_dtype=False):
    a = draw(S.arrays(_ANY, S.shapes(min_dims=2)))
    nd = a.ndim
    axis1 = draw(st.integers(-nd, nd - 1))
    axis2 = draw(st.integers(-nd, nd - 1).filter(lambda b: b % nd != axis1 % nd))
    kwargs = {"offset": draw(st.integers(-4, 4)), "axis1": axis1, "axis2": axis2}
    if with_dtype:
        kwargs["dtype"] = draw(st.sampled_from([None, np.int64, np.float64, np.float32]))
        if a.dtype.kind == "c" and kwargs["dtype"] not in (None,):
            kwargs["dtype"] = None
    return Sample((a,), kwargs)


# --- nonzero and friends ------------------------------------------------------------------
def _nonzero_arrays(min_dims=1):
    return S.arrays(_ANY, S.shapes(min_dims=min_dims), min_value=-1, max_value=1)


@st.composite
def _sized(draw, min_dims=1):
    a = draw(_nonzero_arrays(min_dims))
    return Sample((a,), {"size": draw(st.integers(0, a.size + 1)),
                         "fill_value": draw(st.integers(-2, 2))})


def _pad_rows(rows: np.ndarray, size: int, fill) -> np.ndarray:
    """The first ``size`` rows of ``rows`` (shape (count, ...)), padded with ``fill``."""
    out = np.full((size,) + rows.shape[1:], np.asarray(fill).astype(rows.dtype))
    k = min(size, len(rows))
    out[:k] = rows[:k]
    return out


def _nonzero_sized(a, size, fill_value):
    return tuple(_pad_rows(i, size, fill_value) for i in np.nonzero(a))


def _argwhere_sized(a, size, fill_value):
    return _pad_rows(np.argwhere(a), size, fill_value)


def _flatnonzero_sized(a, size, fill_value):
    return _pad_rows(np.flatnonzero(a), size, fill_value)


@st.composite
def _extract(draw, sized=False):
    arr = draw(S.arrays(_ANY))
    m = draw(st.integers(0, arr.size + 1)) if not sized else arr.size
    cond = draw(S.arrays(st.sampled_from([np.dtype(bool), np.dtype(np.int16)]), (m,),
                         min_value=-1, max_value=1))
    if not sized:
        return Sample((cond, arr))
    return Sample((cond, arr), {"size": draw(st.integers(0, arr.size + 1)),
                                "fill_value": draw(st.integers(-2, 2))})


def _extract_sized(cond, arr, size, fill_value):
    return _pad_rows(np.extract(cond, arr).astype(arr.dtype), size, fill_value)


@st.composite
def _place(draw):
    arr = draw(S.arrays(_ANY, S.shapes(min_dims=1)))
    mask = draw(S.arrays(st.sampled_from([np.dtype(bool), np.dtype(np.int8)]), arr.shape,
                         min_value=-1, max_value=1))
    vals = draw(S.arrays(arr.dtype, (draw(st.integers(1, 4)),)))
    return Sample((arr, mask, vals))


# --- index construction -------------------------------------------------------------------
@st.composite
def _ix(draw, boolean=False):
    k = draw(st.integers(0, 3))
    dtypes = st.sampled_from([np.dtype(bool)] if boolean else S.INTEGER)
    return Sample(tuple(draw(S.arrays(dtypes, (draw(st.integers(0, 3)),), min_value=0,
                                      max_value=5)) for _ in range(k)))


@st.composite
def _unravel(draw):
    shape = draw(S.shapes(max_dims=3))
    total = int(np.prod(shape))
    idx = draw(st.one_of(S.arrays(st.sampled_from(S.INTS), S.shapes(max_dims=2),
                                  min_value=0, max_value=max(total - 1, 0)),
                         st.integers(0, max(total - 1, 0))))
    if total == 0 and np.size(idx):
        idx = np.zeros(0, np.int64)
    return Sample((idx, shape), {"order": draw(st.sampled_from(["C", "F"]))})


@st.composite
def _ravel_multi(draw):
    dims = draw(S.shapes(min_dims=1, max_dims=3, min_side=1))
    ishape = draw(S.shapes(max_dims=2, max_side=3))
    mode = draw(st.one_of(_MODES, st.lists(_MODES, min_size=len(dims), max_size=len(dims))
                          .map(tuple)))
    spill = 0 if mode == "raise" or "raise" in mode else 4
    coords = tuple(draw(S.arrays(np.int64, ishape, min_value=-spill, max_value=n - 1 + spill))
                   for n in dims)
    return Sample((coords, dims), {"mode": mode, "order": draw(st.sampled_from(["C", "F"]))})


_tri_args = st.tuples(st.integers(0, 5), st.integers(-3, 3), st.one_of(
    st.none(), st.integers(0, 5))).map(lambda t: Sample(t))
_square = st.tuples(st.integers(2, 4), st.integers(0, 3)).flatmap(
    lambda t: S.arrays(_ANY, (t[1],) * t[0])).map(lambda a: Sample((a,)))
_matrix = st.tuples(S.arrays(_ANY, S.shapes(min_dims=2, max_dims=2)),
                    st.integers(-3, 3)).map(lambda t: Sample((t[0],), {"k": t[1]}))


@st.composite
def _fill_diagonal(draw):
    if draw(st.booleans()):
        a = draw(S.arrays(_ANY, S.shapes(min_dims=2, max_dims=2, max_side=5)))
    else:
        a = draw(S.arrays(_ANY, (draw(st.integers(0, 3)),) * draw(st.integers(3, 4))))
    val = draw(st.one_of(S.arrays(a.dtype, (draw(st.integers(1, 4)),)),
                         st.integers(0, 1).map(lambda i: np.asarray(i).astype(a.dtype))))
    return Sample((a, val), {"wrap": draw(st.booleans())})


_put_op, _put_ref = _in_place("put")
_pal_op, _pal_ref = _in_place("put_along_axis")
_place_op, _place_ref = _in_place("place")
_fill_op, _fill_ref = _in_place("fill_diagonal")
_INDEX_RESULTS = {"differentiable": False}

ENTRIES = [
    OpInfo("take", _take()),
    OpInfo("take_along_axis", _along_axis()),
    OpInfo("put_along_axis", _along_axis(with_values=True), op=_pal_op, ref=_pal_ref),
    OpInfo("put", _put(), op=_put_op, ref=_put_ref),
    OpInfo("choose", _choose()),
    OpInfo("compress", _compress(), traceable=False),
    OpInfo("compress", _compress(sized=True), ref=_compress_sized, id="compress-size"),
    OpInfo("select", _select()),
    OpInfo("piecewise", _piecewise()),
    OpInfo("diagonal", _diagonal()),
    OpInfo("trace", _diagonal(with_dtype=True), rtol=1e-6),
    OpInfo("nonzero", _nonzero_arrays().map(lambda a: Sample((a,))), traceable=False,
           **_INDEX_RESULTS),
    OpInfo("nonzero", _sized(), ref=_nonzero_sized, id="nonzero-size", **_INDEX_RESULTS),
    OpInfo("argwhere", _nonzero_arrays(0).map(lambda a: Sample((a,))), traceable=False,
           **_INDEX_RESULTS),
    OpInfo("argwhere", _sized(), ref=_argwhere_sized, id="argwhere-size",
           **_INDEX_RESULTS),
    OpInfo("flatnonzero", _nonzero_arrays(0).map(lambda a: Sample((a,))), traceable=False,
           **_INDEX_RESULTS),
    OpInfo("flatnonzero", _sized(0), ref=_flatnonzero_sized, id="flatnonzero-size",
           **_INDEX_RESULTS),
    OpInfo("extract", _extract(), traceable=False),
    OpInfo("extract", _extract(sized=True), ref=_extract_sized, id="extract-size"),
    OpInfo("place", _place(), op=_place_op, ref=_place_ref),
    OpInfo("ix_", _ix(), **_INDEX_RESULTS),
    OpInfo("ix_", _ix(boolean=True).filter(lambda s: len(s.args) > 0), id="ix_-bool",
           traceable=False, **_INDEX_RESULTS),
    OpInfo("unravel_index", _unravel(), **_INDEX_RESULTS),
    OpInfo("ravel_multi_index", _ravel_multi(), **_INDEX_RESULTS),
    OpInfo("diag_indices", st.tuples(st.integers(0, 4), st.integers(1, 3)).map(
        lambda t: Sample(t)), **_INDEX_RESULTS),
    OpInfo("diag_indices_from", _square, **_INDEX_RESULTS),
    OpInfo("tril_indices", _tri_args, **_INDEX_RESULTS),
    OpInfo("triu_indices", _tri_args, **_INDEX_RESULTS),
    OpInfo("tril_indices_from", _matrix, **_INDEX_RESULTS),
    OpInfo("triu_indices_from", _matrix, **_INDEX_RESULTS),
    OpInfo("fill_diagonal", _fill_diagonal(), op=_fill_op, ref=_fill_ref),
]

_ERRORS = [
    OpInfo("take", id="take-errors", errors=[
        Sample((np.ones(3), np.array([3]))),                     # out of bounds
        Sample((np.ones((2, 3)), np.array([0])), {"axis": 2}),   # bad axis
        Sample((np.ones(3), np.array([0.5]))),                   # float indices
        Sample((np.ones(0), np.array([0])), {"mode": "clip"}),   # empty axis
    ]),
    OpInfo("take_along_axis", id="take_along_axis-errors", errors=[
        Sample((np.ones((2, 3)), np.zeros(2, np.int64)), {"axis": 1}),
        Sample((np.ones((2, 3)), np.zeros((2, 1))), {"axis": 1}),
        Sample((np.ones((2, 3)), np.zeros((3, 1), np.int64)), {"axis": 1}),
        Sample((np.ones((2, 3)), np.zeros((2, 2), np.int64)), {"axis": None}),
    ]),
    OpInfo("choose", id="choose-errors", errors=[
        Sample((np.array([0, 2]), [np.ones(2), np.zeros(2)])),
        Sample((np.array([0, -1]), [np.ones(2), np.zeros(2)])),
        Sample((np.array([0.0, 1.0]), [np.ones(2), np.zeros(2)])),
        Sample((np.array([0, 0]), [])),
        Sample((np.array([0, 1]), [np.ones(3), np.zeros(3)])),
    ]),
    OpInfo("compress", id="compress-errors", errors=[
        Sample((np.array([[True]]), np.ones(3))),
        Sample((np.array([False, True, False, True]), np.ones(3))),
    ]),
    OpInfo("select", id="select-errors", errors=[
        Sample(([], [])),
        Sample(([np.array([True])], [])),
        Sample(([np.array([1, 0])], [np.ones(2)])),
    ]),
    OpInfo("piecewise", id="piecewise-errors", errors=[
        Sample((np.ones(3), [np.ones(3, bool)], [1, 2, 3]))]),
    OpInfo("diagonal", id="diagonal-errors", errors=[
        Sample((np.ones(3),)),
        Sample((np.ones((2, 2)), 0, 1, 1)),
        Sample((np.ones((2, 2)), 0, 0, -2)),
        Sample((np.ones((2, 2)), 0, 0, 2)),
    ]),
    OpInfo("trace", id="trace-errors", errors=[Sample((np.ones(3),))]),
    OpInfo("nonzero", id="nonzero-errors", errors=[Sample((np.array(1.0),))]),
    OpInfo("extract", id="extract-errors", errors=[
        Sample((np.array([0, 0, 0, 1]), np.ones(3)))]),
    OpInfo("place", id="place-errors", op=_place_op, ref=_place_ref, errors=[
        Sample((np.ones(3), np.array([True, False]), np.ones(1))),
        Sample((np.ones(3), np.array([True, False, True]), np.ones(0))),
    ]),
    OpInfo("put", id="put-errors", op=_put_op, ref=_put_ref, errors=[
        Sample((np.ones(3), np.array([3]), np.ones(1))),
        Sample((np.ones(3), np.array([-4]), np.ones(1))),
        Sample((np.ones(0), np.array([0]), np.ones(1)), {"mode": "clip"}),
    ]),
    OpInfo("ix_", id="ix_-errors", errors=[Sample((np.zeros((2, 2), np.int64),))]),
    OpInfo("unravel_index", id="unravel_index-errors", errors=[
        Sample((np.array([6]), (2, 3))),
        Sample((np.array([-1]), (2, 3))),
        Sample((np.array([1.0]), (2, 3))),
        Sample((np.array([1]), (2, 3)), {"order": "K"}),
    ]),
    OpInfo("ravel_multi_index", id="ravel_multi_index-errors", errors=[
        Sample(((np.array([2]), np.array([0])), (2, 3))),
        Sample(((np.array([-1]), np.array([0])), (2, 3))),
        Sample(((np.array([1]),), (2, 3))),
        Sample(((np.array([1.0]), np.array([0])), (2, 3))),
    ]),
    OpInfo("diag_indices_from", id="diag_indices_from-errors", errors=[
        Sample((np.ones(3),)), Sample((np.ones((2, 3)),))]),
    OpInfo("tril_indices_from", id="tril_indices_from-errors", errors=[
        Sample((np.ones(3),)), Sample((np.ones((2, 2, 2)),))]),
    OpInfo("triu_indices_from", id="triu_indices_from-errors", errors=[
        Sample((np.ones(3),))]),
    OpInfo("fill_diagonal", id="fill_diagonal-errors", op=_fill_op, ref=_fill_ref, errors=[
        Sample((np.ones(3), 1.0)), Sample((np.ones((2, 2, 3)), 1.0))]),
]
ENTRIES += _ERRORS
