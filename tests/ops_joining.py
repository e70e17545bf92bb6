"""Registry entries for joining and splitting arrays (xnp/_joining.py)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

DTYPES = st.sampled_from(S.ALL)


def _array(min_dims=0, max_dims=3, **kw):
    return S.arrays(DTYPES, S.shapes(min_dims, max_dims), **kw)


@st.composite
def _joinable(draw, min_dims=1, new_axis=False):
    """Arrays sharing a shape except along ``axis`` (or exactly, for a new axis)."""
    shape = list(draw(S.shapes(min_dims, 3)))
    nd = len(shape)
    axis = draw(st.integers(-nd - new_axis, nd - 1 + new_axis)) if nd + new_axis else 0
    same_dtype = draw(st.booleans())
    dtype = draw(DTYPES)
    arrays = []
    for _ in range(draw(st.integers(1, 3))):
        if not new_axis and nd:
            shape[axis] = draw(st.integers(0, 3))
        arrays.append(draw(S.arrays(dtype if same_dtype else DTYPES, tuple(shape))))
    return arrays, axis


def _tame(arrays):
    """Values every unsafe cast maps the same way (finite, small): casting inf, NaN or
    out-of-range floats to integers is undefined behaviour in C, and NumPy's loops differ."""
    out = []
    for a in arrays:
        if a.dtype.kind in "fc":
            a = np.where(np.isfinite(a) & (abs(a) < 100), a, 0).astype(a.dtype)
        out.append(a)
    return out


@st.composite
def _concatenate(draw):
    if draw(st.integers(0, 3)) == 0:
        items = draw(st.lists(st.one_of(_array(), S.python_scalars()), min_size=1,
                              max_size=3))
        return Sample((items,), {"axis": None})
    arrays, axis = draw(_joinable())
    kw = {"axis": axis}
    if draw(st.integers(0, 3)) == 0:
        kw["dtype"] = draw(DTYPES)
        kw["casting"] = draw(st.sampled_from(["same_kind", "unsafe", "safe"]))
        arrays = _tame(arrays)
    return Sample((arrays,), kw)


@st.composite
def _stack(draw):
    arrays, axis = draw(_joinable(min_dims=0, new_axis=True))
    kw = {"axis": axis}
    if draw(st.integers(0, 3)) == 0:
        kw["dtype"] = draw(DTYPES)
        kw["casting"] = "unsafe"
        arrays = _tame(arrays)
    return Sample((arrays,), kw)


@st.composite
def _unstack(draw):
    a = draw(_array(1))
    return Sample((a,), {"axis": draw(st.integers(-a.ndim, a.ndim - 1))})


@st.composite
def _hvd_stack(draw, axis):
    """Inputs for h/v/d/column_stack: arrays that join along ``axis`` after promotion
    to at least 1, 2 or 3 dimensions (1-d inputs of one length, or n-d with free sizes
    along the joining axis)."""
    dtype = draw(DTYPES)
    k = draw(st.integers(1, 3))
    if draw(st.booleans()):
        n = draw(st.integers(0, 3))
        items = [draw(st.one_of(S.arrays(dtype, (n,)), S.arrays(dtype, ())))
                 if n == 1 else draw(S.arrays(dtype, (n,))) for _ in range(k)]
        return Sample((items,))
    shape = list(draw(S.shapes(3, 3)))
    items = []
    for _ in range(k):
        shape[axis] = draw(st.integers(0, 3))
        items.append(draw(S.arrays(DTYPES, tuple(shape))))
    return Sample((items,))


@st.composite
def _split(draw, axis_fixed=None, min_dims=1, sections_only=False, equal=True):
    a = draw(_array(min_dims))
    axis = axis_fixed if axis_fixed is not None else draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis if axis_fixed is None or a.ndim > 1 else 0]
    if sections_only or draw(st.booleans()):
        if equal:
            divisors = [d for d in range(1, 5) if n % d == 0]
            spec = draw(st.sampled_from(divisors))
        else:
            spec = draw(st.integers(1, 5))
    else:
        spec = draw(st.lists(st.integers(-5, 6), max_size=3))
    kw = {} if axis_fixed is not None else {"axis": axis}
    return Sample((a, spec), kw)


@st.composite
def _block(draw):
    """A 2-level block of arrays with consistent row heights and column widths."""
    nrows, ncols = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    heights = draw(st.lists(st.integers(0, 2), min_size=nrows, max_size=nrows))
    widths = draw(st.lists(st.integers(0, 2), min_size=ncols, max_size=ncols))
    lead = tuple(draw(st.lists(st.integers(1, 2), max_size=1)))
    rows = [[draw(S.arrays(DTYPES, lead + (h, w))) for w in widths] for h in heights]
    if draw(st.booleans()):
        return Sample((rows[0][0],))
    if draw(st.booleans()):
        return Sample(([draw(st.one_of(S.arrays(DTYPES, (2,)), S.python_scalars()))
                        for _ in range(ncols)],))
    return Sample((rows,))


@st.composite
def _append(draw):
    if draw(st.booleans()):
        return Sample((draw(_array()), draw(st.one_of(_array(), S.python_scalars()))))
    arrays, axis = draw(_joinable())
    if len(arrays) < 2:
        arrays = arrays * 2
    return Sample((arrays[0], arrays[1]), {"axis": axis})


@st.composite
def _insert(draw):
    a = draw(_array())
    axis = draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1))) if a.ndim else None
    n = a.size if axis is None else a.shape[axis]
    kind = draw(st.integers(0, 3))
    if kind == 0:
        obj = draw(st.integers(-n, n))
    elif kind == 1:
        obj = draw(st.lists(st.integers(-n, n), max_size=3))
    elif kind == 2:
        obj = slice(*draw(st.tuples(st.integers(-n, n), st.integers(-n, n),
                                    st.sampled_from([1, 2, -1]))))
    else:
        obj = [draw(st.integers(-n, n))]
    values = draw(st.one_of(S.python_scalars(("int", "float")),
                            S.arrays(DTYPES, S.shapes(0, 2, max_side=3))))
    return Sample((a, obj, values), {"axis": axis})


@st.composite
def _delete(draw):
    a = draw(_array())
    axis = draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1))) if a.ndim else None
    n = a.size if axis is None else a.shape[axis]
    kind = draw(st.integers(0, 3))
    if kind == 0 and n:
        obj = draw(st.integers(-n, n - 1))
    elif kind == 1 and n:
        obj = draw(st.lists(st.integers(-n, n - 1), max_size=4))
    elif kind == 2:
        obj = slice(*draw(st.tuples(st.one_of(st.none(), st.integers(-5, 5)),
                                    st.one_of(st.none(), st.integers(-5, 5)),
                                    st.sampled_from([None, 1, 2, -1, -2]))))
    else:
        obj = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return Sample((a, obj), {"axis": axis})


@st.composite
def _trim_zeros(draw):
    dtypes = DTYPES if draw(st.booleans()) else st.sampled_from(S.INTS)
    a = draw(S.arrays(dtypes, S.shapes(1, 3, min_side=1), min_value=0, max_value=1))
    kw = {"trim": draw(st.sampled_from(["fb", "f", "b", "BF"]))}
    if draw(st.booleans()):
        kw["axis"] = draw(S.axes(a.ndim, allow_none=False).filter(lambda x: x != ()))
    return Sample((a,), kw)


ENTRIES = [
    OpInfo("concatenate", _concatenate()),
    OpInfo("concat", _concatenate()),
    OpInfo("stack", _stack()),
    OpInfo("unstack", _unstack()),
    OpInfo("hstack", _hvd_stack(1)),
    OpInfo("vstack", _hvd_stack(0)),
    OpInfo("dstack", _hvd_stack(2)),
    OpInfo("column_stack", _hvd_stack(1)),
    OpInfo("split", _split()),
    OpInfo("array_split", _split(equal=False)),
    OpInfo("hsplit", _split(axis_fixed=1)),
    OpInfo("vsplit", _split(axis_fixed=0, min_dims=2)),
    OpInfo("dsplit", _split(axis_fixed=2, min_dims=3)),
    OpInfo("block", _block()),
    OpInfo("append", _append()),
    OpInfo("insert", _insert()),
    OpInfo("delete", _delete()),
    OpInfo("trim_zeros", _trim_zeros(), traceable=False),
]

_M = np.ones((2, 3))
ENTRIES += [
    OpInfo("concatenate", id="concatenate-errors", errors=[
        Sample(([],)), Sample(([1, 2],)), Sample(([_M, np.ones(2)],)),
        Sample(([_M, np.ones((3, 3))],), {"axis": 1}), Sample(([_M],), {"axis": 2}),
        Sample(([_M, _M],), {"dtype": np.int8}),
        Sample(([_M, _M],), {"out": np.zeros((4, 3)), "dtype": float})]),
    OpInfo("concat", id="concat-errors", errors=[
        Sample(([],)), Sample(([_M, np.ones((3, 3))],), {"axis": 1})]),
    OpInfo("dstack", id="dstack-errors", errors=[Sample(([],)),
                                                 Sample(([np.ones(2), np.ones(3)],))]),
    OpInfo("column_stack", id="column_stack-errors", errors=[
        Sample(([np.ones(2), np.ones(3)],))]),
    OpInfo("stack", id="stack-errors", errors=[
        Sample(([],)), Sample(([np.ones(2), np.ones(3)],)), Sample(([_M],), {"axis": 3}),
        Sample(((x for x in [_M]),))]),
    OpInfo("unstack", id="unstack-errors", errors=[Sample((np.array(1.0),))]),
    OpInfo("hstack", id="hstack-errors", errors=[Sample(([],))]),
    OpInfo("vstack", id="vstack-errors", errors=[Sample(([np.ones(2), np.ones(3)],))]),
    OpInfo("split", id="split-errors", errors=[
        Sample((np.ones(6), 4)), Sample((np.ones(6), 0)), Sample((np.ones(6), 2),
                                                                 {"axis": 1})]),
    OpInfo("array_split", id="array_split-errors", errors=[
        Sample((np.ones(6), 0)), Sample((np.ones(6), [1.5]))]),
    OpInfo("hsplit", id="hsplit-errors", errors=[Sample((np.array(1.0), 1))]),
    OpInfo("vsplit", id="vsplit-errors", errors=[Sample((np.ones(4), 2))]),
    OpInfo("dsplit", id="dsplit-errors", errors=[Sample((_M, 2))]),
    OpInfo("block", id="block-errors", errors=[
        Sample(([[1, 2], 3],)), Sample(([],)), Sample(([[], [1]],)),
        Sample((([1], [2]),)), Sample(([np.ones((2, 2)), np.ones((3, 1))],))]),
    OpInfo("append", id="append-errors", errors=[Sample((_M, [1, 2, 3]), {"axis": 0})]),
    OpInfo("insert", id="insert-errors", errors=[
        Sample((np.arange(6), 10, 1)), Sample((np.arange(6), [10], 1)),
        Sample((np.arange(6), [1, 10], 1)), Sample((np.arange(6), [1, 2], [7, 8, 9])),
        Sample((np.arange(6), [[1]], 1)), Sample((_M, 1, 1), {"axis": 2})]),
    OpInfo("delete", id="delete-errors", errors=[
        Sample((np.arange(6), 10)), Sample((np.arange(6), [10])),
        Sample((np.arange(6), [True] * 5)), Sample((np.arange(6), 1.0)),
        Sample((_M, 1), {"axis": 2})]),
    OpInfo("trim_zeros", id="trim_zeros-errors", errors=[
        Sample((np.array([0, 1, 0]), "x"))]),
]
