"""Registry entries for array creation (xnp/_creation.py)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

DTYPES = st.sampled_from(S.ALL)
OPT_DTYPE = st.one_of(st.none(), DTYPES)
SHAPE = st.one_of(st.integers(0, 4), S.shapes(0, 3).map(tuple))


def _kw(**strategies):
    return st.fixed_dictionaries({}, optional=strategies)


def _array(min_dims=0, max_dims=3, dtypes=DTYPES, **kw):
    return S.arrays(dtypes, S.shapes(min_dims, max_dims), **kw)


def _nested_list():
    leaf = st.one_of(st.integers(-5, 5), st.floats(-5, 5), st.booleans())
    return st.one_of(leaf, st.lists(leaf, max_size=3),
                     st.integers(0, 3).flatmap(lambda n: st.lists(
                         st.lists(leaf, min_size=n, max_size=n), max_size=3)))


# --- conversion -------------------------------------------------------------------------------
def _convert(**extra):
    data = st.one_of(_array(), _nested_list())
    return st.tuples(data, _kw(dtype=DTYPES, **extra)).map(lambda t: Sample((t[0],), t[1]))


def _astype():
    return st.tuples(_array(), DTYPES, st.booleans()).map(
        lambda t: Sample((t[0], t[1]), {"copy": t[2]}))


# --- filled arrays ------------------------------------------------------------------------------
def _filled():
    return st.tuples(SHAPE, _kw(dtype=DTYPES)).map(lambda t: Sample((t[0],), t[1]))


@st.composite
def _full(draw):
    shape = draw(S.shapes(0, 3))
    if draw(st.booleans()):
        fill = draw(S.python_scalars())
    else:
        fill = draw(S.arrays(DTYPES, shape[len(shape) - draw(st.integers(0, len(shape))):]))
    dtype = draw(OPT_DTYPE)
    if dtype is not None and dtype.kind in "iu" and isinstance(fill, int):
        fill = min(max(fill, int(np.iinfo(dtype).min)), int(np.iinfo(dtype).max))
    return Sample((shape, fill), {"dtype": dtype})


@st.composite
def _like(draw, with_fill=False):
    a = draw(st.one_of(_array(), S.python_scalars()))
    kw = draw(_kw(dtype=DTYPES, shape=S.shapes(0, 2).map(tuple)))
    if not with_fill:
        return Sample((a,), kw)
    return Sample((a, draw(S.python_scalars(("bool", "int")).map(lambda x: x % 2))), kw)


# --- ranges -------------------------------------------------------------------------------------
_NUMBER = st.one_of(st.integers(-8, 8), st.floats(-8, 8, width=32),
                    st.builds(np.float32, st.floats(-8, 8, width=32)),
                    st.builds(np.int16, st.integers(-8, 8)))
_STEP = st.one_of(st.integers(-3, 3).filter(bool),
                  st.floats(0.125, 3, width=32), st.floats(-3, -0.125, width=32))


@st.composite
def _arange(draw):
    dtype = draw(st.one_of(st.none(), st.sampled_from(
        [np.dtype(t) for t in (np.int8, np.int32, np.int64, np.float16, np.float32,
                               np.float64, np.complex128, ml_dtypes.bfloat16)])))
    kw = {} if dtype is None else {"dtype": dtype}
    n = draw(st.integers(1, 3))
    args = [draw(_NUMBER) for _ in range(min(n, 2))]
    if n == 3:
        args.append(draw(_STEP))
    return Sample(tuple(args), kw)


@st.composite
def _endpoint(draw, nonzero=False):
    if draw(st.booleans()):
        x = draw(st.one_of(st.integers(-9, 9), st.floats(-9, 9)))
    else:
        x = draw(S.arrays(st.sampled_from(S.INTS + S.FLOATS), S.shapes(0, 2, max_side=2),
                          min_value=-9, max_value=9))
    if nonzero:
        x = np.where(x == 0, 1, x) if isinstance(x, np.ndarray) else (x or 1)
    return x


@st.composite
def _linspace(draw):
    start, stop = draw(_endpoint()), draw(_endpoint())
    nd = 1 + max(np.ndim(start), np.ndim(stop))
    kw = draw(_kw(endpoint=st.booleans(), retstep=st.booleans(),
                  dtype=st.sampled_from(S.INTS + S.FLOATS[2:] + [np.dtype(bool)]),
                  axis=st.integers(-nd, nd - 1)))
    return Sample((start, stop, draw(st.integers(0, 6))), kw)


@st.composite
def _logspace(draw):
    start, stop = draw(_endpoint()), draw(_endpoint())
    nd = 1 + max(np.ndim(start), np.ndim(stop))
    kw = draw(_kw(endpoint=st.booleans(), dtype=st.sampled_from(S.FLOATS[2:]),
                  base=st.one_of(st.floats(0.5, 4), st.just(np.array([2.0, 3.0]))),
                  axis=st.integers(-nd, nd - 1)))
    if isinstance(kw.get("base"), np.ndarray):
        kw["axis"] = 0
        start, stop = np.asarray(start, float).reshape(-1)[:1], stop
        if np.ndim(stop) > 1 or np.size(stop) not in (1, 2):
            stop = 2.0
    return Sample((start, stop, draw(st.integers(0, 6))), kw)


@st.composite
def _geomspace(draw):
    start, stop = draw(_endpoint(nonzero=True)), draw(_endpoint(nonzero=True))
    nd = 1 + max(np.ndim(start), np.ndim(stop))
    if draw(st.integers(0, 4)) == 0:
        start, stop = complex(start if np.ndim(start) == 0 else 1, 1), -2.0
        nd = 1
    kw = draw(_kw(endpoint=st.booleans(), dtype=st.sampled_from(S.FLOATS[2:] + S.COMPLEX[1:]),
                  axis=st.integers(-nd, nd - 1)))
    return Sample((start, stop, draw(st.integers(0, 6))), kw)


def _lowp(lo, hi):
    return st.builds(lambda a, n, dt: Sample((a, hi / 2, n), {"dtype": dt}),
                     hnp.arrays(np.float64, (2,), elements=st.floats(lo, hi)),
                     st.integers(0, 6), st.sampled_from(S.FLOATS[:2] + S.COMPLEX[:1]))


# --- matrices and grids ---------------------------------------------------------------------------
def _eye():
    return st.tuples(st.integers(0, 4), st.one_of(st.none(), st.integers(0, 4)),
                     st.integers(-5, 5), OPT_DTYPE).map(
        lambda t: Sample((t[0], t[1], t[2]), {"dtype": t[3] or float}))


def _triangle():
    return st.tuples(_array(1), st.integers(-4, 4)).map(
        lambda t: Sample((t[0],), {"k": t[1]}))


def _diag(max_dims=2):
    return st.tuples(_array(1, max_dims), st.integers(-4, 4)).map(
        lambda t: Sample((t[0],), {"k": t[1]}))


@st.composite
def _meshgrid(draw):
    xs = draw(st.lists(S.arrays(DTYPES, S.shapes(0, 2, max_side=3)), max_size=3))
    kw = draw(_kw(indexing=st.sampled_from(["xy", "ij"]), sparse=st.booleans(),
                  copy=st.booleans()))
    return Sample(tuple(xs), kw)


def _indices():
    return st.tuples(S.shapes(0, 3).map(tuple), st.sampled_from(
        [np.dtype(t) for t in (np.int64, np.int32, np.float64, np.float32)]),
        st.booleans()).map(lambda t: Sample((t[0],), {"dtype": t[1], "sparse": t[2]}))


def _plane(i, j):
    return i * 2 + j


def _fromfunction():
    return st.tuples(st.tuples(st.integers(0, 4), st.integers(0, 4)), st.sampled_from(
        [float, int, np.float32])).map(lambda t: Sample((_plane, t[0]), {"dtype": t[1]}))


# Entries building arrays from sizes, shapes and Python numbers only: no array argument to
# differentiate (test_registry_grads and test_registry_compositions leave them out).
_FROM_SIZES = {"differentiable": False}

ENTRIES = [
    OpInfo("array", _convert(ndmin=st.integers(0, 3))),
    OpInfo("asarray", _convert()),
    OpInfo("asanyarray", _convert()),
    OpInfo("ascontiguousarray", _convert()),
    OpInfo("astype", _astype()),
    OpInfo("copy", _array().map(lambda a: Sample((a,)))),
    # arrays made from sizes and shapes (here and below: eye, tri, indices, arange...):
    # no array argument to differentiate
    OpInfo("zeros", _filled(), **_FROM_SIZES),
    OpInfo("ones", _filled(), **_FROM_SIZES),
    OpInfo("empty", _filled(), ref=np.zeros, **_FROM_SIZES),
    OpInfo("full", _full()),
    OpInfo("zeros_like", _like()),
    OpInfo("ones_like", _like()),
    OpInfo("empty_like", _like(), ref=np.zeros_like),
    OpInfo("full_like", _like(with_fill=True)),
    OpInfo("arange", _arange(), **_FROM_SIZES),
    OpInfo("linspace", _linspace()),
    OpInfo("logspace", _logspace(), rtol=1e-14),
    OpInfo("geomspace", _geomspace(), rtol=1e-14),
    # float16/float32 results: exact values, too coarse for finite-difference derivatives
    OpInfo("linspace", _lowp(-9, 9), id="linspace-lowp", differentiable=False),
    OpInfo("logspace", _lowp(-3, 3), id="logspace-lowp", differentiable=False),
    OpInfo("geomspace", _lowp(0.5, 9), id="geomspace-lowp", differentiable=False),
    OpInfo("eye", _eye(), **_FROM_SIZES),
    OpInfo("identity", st.tuples(st.integers(0, 4), OPT_DTYPE).map(
        lambda t: Sample((t[0],), {"dtype": t[1]})), **_FROM_SIZES),
    OpInfo("tri", _eye(), **_FROM_SIZES),
    OpInfo("tri", st.tuples(st.one_of(st.integers(-3, 4), st.floats(-3, 4)),
                            st.floats(-3, 3)).map(lambda t: Sample((t[0], None, t[1]))),
           id="tri-lenient", **_FROM_SIZES),
    OpInfo("tril", _triangle()),
    OpInfo("triu", _triangle()),
    OpInfo("meshgrid", _meshgrid()),
    OpInfo("diag", _diag()),
    OpInfo("diagflat", _diag(3)),
    OpInfo("indices", _indices(), **_FROM_SIZES),
    OpInfo("fromfunction", _fromfunction(), **_FROM_SIZES),
]

ENTRIES += [
    OpInfo("zeros", id="zeros-errors", errors=[
        Sample((-1,)), Sample(((2, -1),)), Sample((2.0,)), Sample(((2,),), {"dtype": "xx"})]),
    OpInfo("ones", id="ones-errors", errors=[Sample((-1,)), Sample(((2, 1.5),))]),
    OpInfo("empty", id="empty-errors", errors=[Sample((-1,))]),
    OpInfo("zeros_like", id="zeros_like-errors", errors=[
        Sample((np.ones(2),), {"shape": (-1,)})]),
    OpInfo("asarray", id="asarray-errors", errors=[
        Sample((np.ones(2),), {"dtype": np.int64, "copy": False})]),
    OpInfo("astype", id="astype-errors", errors=[Sample((np.ones(2), "bogus"))]),
    OpInfo("logspace", id="logspace-errors", errors=[Sample((0, 1, -2))]),
    OpInfo("identity", id="identity-errors", errors=[Sample((-1,)), Sample((2.5,))]),
    OpInfo("tri", id="tri-errors", errors=[Sample(("a",)), Sample((2, 2, "b"))]),
    OpInfo("triu", id="triu-errors", errors=[Sample((np.array(1.0),))]),
    OpInfo("diagflat", id="diagflat-errors", errors=[Sample((np.ones(2), 1.5))]),
    OpInfo("indices", id="indices-errors", errors=[Sample(((2, -1),)), Sample(((2.5,),))]),
    OpInfo("full", id="full-errors", errors=[
        Sample(((2, 2), [1, 2, 3])), Sample((2, 300), {"dtype": np.int8}), Sample((-1, 2))]),
    OpInfo("full_like", id="full_like-errors", errors=[Sample((np.ones(2, np.int8), 300))]),
    OpInfo("array", id="array-errors", errors=[
        Sample(([[1, 2], [3]],)), Sample((300,), {"dtype": np.int8}),
        Sample(([128.0],), {"dtype": np.int8}), Sample(([[1, 2]],), {"ndmax": 1}),
        Sample(([1],), {"ndmin": 2, "ndmax": 1})]),
    OpInfo("arange", id="arange-errors", errors=[
        Sample((0, 5, 0)), Sample((0.0, np.nan)), Sample((np.inf,)), Sample(("a",)),
        Sample((3,), {"dtype": bool}), Sample((np.float64(0), 5, 0))]),
    OpInfo("linspace", id="linspace-errors", errors=[
        Sample((0, 1, -1)), Sample((0, 1, 2.5)), Sample((0, [1, 2], 3), {"axis": 2})]),
    OpInfo("geomspace", id="geomspace-errors", errors=[Sample((0, 1)), Sample((1, [2, 0]))]),
    OpInfo("eye", id="eye-errors", errors=[Sample((-1,)), Sample((2, -3))]),
    OpInfo("tril", id="tril-errors", errors=[Sample((np.array(1.0),))]),
    OpInfo("diag", id="diag-errors", errors=[Sample((np.ones((2, 2, 2)),))]),
    OpInfo("meshgrid", id="meshgrid-errors", errors=[
        Sample((np.ones(2),), {"indexing": "xx"})]),
]
