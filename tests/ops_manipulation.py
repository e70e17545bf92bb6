"""Registry entries for shape manipulation (xnp/_manipulation.py); joining and padding are
in ops_joining.py and ops_padding.py."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

DTYPES = st.sampled_from(S.ALL)


def _array(min_dims=0, max_dims=3, min_side=0, dtypes=DTYPES, **kw):
    return S.arrays(dtypes, S.shapes(min_dims, max_dims, min_side), **kw)


def _one(min_dims=0, **kw):
    return _array(min_dims, **kw).map(lambda a: Sample((a,)))


def _axis(ndim, allow_none=False):
    opts = [st.integers(-ndim, ndim - 1)] if ndim else []
    if allow_none or not ndim:
        opts.append(st.none())
    return st.one_of(*opts)


# --- reshaping and axes ------------------------------------------------------------------------
def _factor(n, draw, parts):
    """``n`` split into ``parts`` factors (any order; zero sizes allowed)."""
    dims = []
    for _ in range(parts - 1):
        if n == 0:
            dims.append(draw(st.integers(0, 3)))
            continue
        divisors = [d for d in range(1, n + 1) if n % d == 0]
        d = draw(st.sampled_from(divisors))
        dims.append(d)
        n //= d
    return [*dims, n]


@st.composite
def _reshape(draw):
    a = draw(_array())
    dims = _factor(a.size, draw, draw(st.integers(1, 4)))
    if draw(st.booleans()) and a.size:
        dims[draw(st.integers(0, len(dims) - 1))] = -1
    kw = draw(st.fixed_dictionaries({}, optional={"order": st.sampled_from("CFA")}))
    shape = dims[0] if len(dims) == 1 and draw(st.booleans()) else tuple(dims)
    return Sample((a, shape), kw)


@st.composite
def _ravel(draw):
    return Sample((draw(_array()),), {"order": draw(st.sampled_from("CFAK"))})


@st.composite
def _transpose(draw):
    a = draw(_array())
    if draw(st.booleans()):
        return Sample((a,))
    perm = draw(st.permutations(range(a.ndim)))
    perm = [p - a.ndim if draw(st.booleans()) else p for p in perm]
    return Sample((a, tuple(perm)))


@st.composite
def _moveaxis(draw):
    a = draw(_array(1))
    k = draw(st.integers(1, a.ndim))
    src = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=k, max_size=k,
                        unique_by=lambda x: x % a.ndim))
    dst = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=k, max_size=k,
                        unique_by=lambda x: x % a.ndim))
    if k == 1 and draw(st.booleans()):
        return Sample((a, src[0], dst[0]))
    return Sample((a, tuple(src), tuple(dst)))


@st.composite
def _rollaxis(draw):
    a = draw(_array(1))
    return Sample((a, draw(_axis(a.ndim)), draw(st.integers(-a.ndim, a.ndim))))


@st.composite
def _swapaxes(draw):
    a = draw(_array(1))
    return Sample((a, draw(_axis(a.ndim)), draw(_axis(a.ndim))))


@st.composite
def _squeeze(draw):
    shape = draw(st.lists(st.sampled_from([1, 1, 2, 0]), max_size=4))
    a = draw(S.arrays(DTYPES, tuple(shape)))
    ones = [i for i, d in enumerate(shape) if d == 1]
    if not ones or draw(st.booleans()):
        return Sample((a,))
    axis = draw(st.lists(st.sampled_from(ones), unique=True, min_size=1))
    return Sample((a,), {"axis": tuple(axis) if len(axis) > 1 else axis[0]})


@st.composite
def _expand_dims(draw):
    a = draw(_array(max_dims=2))
    k = draw(st.integers(1, 2))
    n = a.ndim + k
    axis = draw(st.lists(st.integers(-n, n - 1), min_size=k, max_size=k,
                         unique_by=lambda x: x % n))
    return Sample((a, axis[0] if k == 1 else tuple(axis)))


# --- broadcasting -------------------------------------------------------------------------------
@st.composite
def _broadcast_to(draw):
    a = draw(_array(max_dims=2))
    lead = draw(st.lists(st.integers(0, 3), max_size=2))
    tail = [draw(st.integers(0, 3)) if d == 1 else d for d in a.shape]
    return Sample((a, tuple(lead + tail)))


_broadcast_shapes = hnp.mutually_broadcastable_shapes(num_shapes=3, max_side=4).map(
    lambda r: Sample(tuple(r.input_shapes)))


# --- flips, rolls, rotations ----------------------------------------------------------------------
@st.composite
def _flip(draw):
    a = draw(_array())
    return Sample((a,), {"axis": draw(S.axes(a.ndim))})


@st.composite
def _roll(draw):
    a = draw(_array())
    if a.ndim == 0 or draw(st.booleans()):
        return Sample((a, draw(st.integers(-9, 9))))
    k = draw(st.integers(1, 3))
    axis = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=k, max_size=k))
    shift = draw(st.lists(st.integers(-9, 9), min_size=k, max_size=k))
    if k == 1:
        return Sample((a, shift[0], axis[0]))
    return Sample((a, tuple(shift), tuple(axis)))


@st.composite
def _rot90(draw):
    a = draw(_array(2))
    axes = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=2, max_size=2,
                         unique_by=lambda x: x % a.ndim))
    return Sample((a,), {"k": draw(st.integers(-5, 5)), "axes": tuple(axes)})


# --- tiling, repeating, resizing ------------------------------------------------------------------
@st.composite
def _tile(draw):
    a = draw(_array(max_dims=2))
    reps = draw(st.lists(st.integers(0, 3), max_size=3))
    return Sample((a, reps[0] if len(reps) == 1 and draw(st.booleans()) else tuple(reps)))


@st.composite
def _repeat(draw, as_array=False):
    a = draw(_array())
    axis = draw(_axis(a.ndim, allow_none=True))
    n = a.size if axis is None else a.shape[axis]
    if not as_array and draw(st.booleans()):
        return Sample((a, draw(st.integers(0, 3))), {"axis": axis})
    reps = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return Sample((a, np.array(reps) if as_array else reps), {"axis": axis})


@st.composite
def _resize(draw):
    a = draw(_array())
    shape = draw(st.lists(st.integers(0, 4), max_size=3))
    return Sample((a, shape[0] if len(shape) == 1 else tuple(shape)))


def _atleast():
    item = st.one_of(_array(), S.python_scalars())
    return st.lists(item, min_size=1, max_size=3).map(lambda xs: Sample(tuple(xs)))


def _matrix():
    return _one(min_dims=2)


ENTRIES = [
    OpInfo("reshape", _reshape()),
    OpInfo("ravel", _ravel()),
    OpInfo("transpose", _transpose()),
    OpInfo("permute_dims", _transpose()),
    OpInfo("matrix_transpose", _matrix()),
    OpInfo("moveaxis", _moveaxis()),
    OpInfo("rollaxis", _rollaxis()),
    OpInfo("swapaxes", _swapaxes()),
    OpInfo("squeeze", _squeeze()),
    OpInfo("expand_dims", _expand_dims()),
    OpInfo("broadcast_to", _broadcast_to()),
    OpInfo("broadcast_arrays", S.broadcastable_arrays(S.ALL, 3).map(lambda t: Sample(t))),
    OpInfo("broadcast_shapes", _broadcast_shapes, differentiable=False),
    OpInfo("flip", _flip()),
    OpInfo("fliplr", _one(min_dims=2)),
    OpInfo("flipud", _one(min_dims=1)),
    OpInfo("roll", _roll()),
    OpInfo("rot90", _rot90()),
    OpInfo("tile", _tile()),
    OpInfo("repeat", _repeat()),
    OpInfo("repeat", _repeat(as_array=True), id="repeat-array", traceable=False),
    OpInfo("repeat", st.builds(lambda a, r: Sample((a, r), {"total_repeat_length": 5}),
                               S.arrays(DTYPES, (3,)), S.arrays(np.int64, (3,), min_value=0,
                                                                max_value=3)),
           id="repeat-total", ref=lambda a, r, total_repeat_length: np.resize(
               np.repeat(a, r), total_repeat_length) if r.sum() >= 5 else
           np.concatenate([np.repeat(a, r), np.full(5 - r.sum(), a[-1])])),
    OpInfo("atleast_1d", _atleast()),
    OpInfo("atleast_2d", _atleast()),
    OpInfo("atleast_3d", _atleast()),
    OpInfo("resize", _resize()),
]

_ERRORS = [
    OpInfo("reshape", id="reshape-errors", errors=[
        Sample((np.ones(6), (4, -1))), Sample((np.ones(6), (-1, -1))),
        Sample((np.ones(6), (2.0, 3))), Sample((np.ones(6), (2, 3)), {"order": "K"}),
        Sample((np.ones(6), (2, 3)), {"order": "X"})]),
    OpInfo("ravel", id="ravel-errors", errors=[Sample((np.ones(3),), {"order": "X"})]),
    OpInfo("permute_dims", id="permute_dims-errors", errors=[
        Sample((np.ones((2, 3)), (0,))), Sample((np.ones((2, 3)), (1, 1)))]),
    OpInfo("rollaxis", id="rollaxis-errors", errors=[
        Sample((np.ones((2, 3)), 2)), Sample((np.ones((2, 3)), 0, 3))]),
    OpInfo("transpose", id="transpose-errors", errors=[
        Sample((np.ones((2, 3)), (0,))), Sample((np.ones((2, 3)), (0, 0))),
        Sample((np.ones((2, 3)), (0, 2)))]),
    OpInfo("moveaxis", id="moveaxis-errors", errors=[
        Sample((np.ones((2, 3)), (0, 1), (0,))), Sample((np.ones((2, 3)), 0, 2)),
        Sample((np.ones((2, 3)), (0, 0), (0, 1)))]),
    OpInfo("squeeze", id="squeeze-errors", errors=[
        Sample((np.ones((2, 1)),), {"axis": 0}), Sample((np.ones((2, 1)),), {"axis": 2})]),
    OpInfo("expand_dims", id="expand_dims-errors", errors=[
        Sample((np.ones(2), 2)), Sample((np.ones(2), (0, 0)))]),
    OpInfo("swapaxes", id="swapaxes-errors", errors=[Sample((np.ones(2), 0, 1))]),
    OpInfo("matrix_transpose", id="matrix_transpose-errors", errors=[Sample((np.ones(2),))]),
    OpInfo("broadcast_to", id="broadcast_to-errors", errors=[
        Sample((np.ones(3), (4,))), Sample((np.ones(3), (-1, 3))),
        Sample((np.ones((2, 3)), (3,)))]),
    OpInfo("broadcast_shapes", id="broadcast_shapes-errors", errors=[
        Sample(((2,), (3,))), Sample(((2,), (-1,)))]),
    OpInfo("broadcast_arrays", id="broadcast_arrays-errors", errors=[
        Sample((np.ones(2), np.ones(3)))]),
    OpInfo("fliplr", id="fliplr-errors", errors=[Sample((np.ones(3),))]),
    OpInfo("flipud", id="flipud-errors", errors=[Sample((np.array(1.0),))]),
    OpInfo("flip", id="flip-errors", errors=[Sample((np.ones(3),), {"axis": 1})]),
    OpInfo("roll", id="roll-errors", errors=[
        Sample((np.ones(3), 1, 1)), Sample((np.ones((2, 2)), [[1]], 0)),
        Sample((np.ones((2, 2)), (1, 2, 3), (0, 1)))]),
    OpInfo("rot90", id="rot90-errors", errors=[
        Sample((np.ones((2, 3)),), {"axes": (0,)}), Sample((np.ones((2, 3)),),
                                                          {"axes": (0, 2)}),
        Sample((np.ones(3),)), Sample((np.ones((2, 3)),), {"axes": (1, 1)})]),
    OpInfo("tile", id="tile-errors", errors=[
        Sample((np.ones(3), -1)), Sample((np.ones(3), (2.0,)))]),
    OpInfo("repeat", id="repeat-errors", errors=[
        Sample((np.ones(3), -1)), Sample((np.ones(3), [1, -1, 1])),
        Sample((np.ones(3), [1, 2])), Sample((np.ones(3), 2), {"axis": 1})]),
    OpInfo("resize", id="resize-errors", errors=[Sample((np.ones(3), -1))]),
]
ENTRIES += _ERRORS
