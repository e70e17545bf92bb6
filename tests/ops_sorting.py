"""Registry entries for sorting and searching: sort, argsort, sort_complex, partition,
argpartition, lexsort, searchsorted.

Values are drawn from a few small ones (so ties are common) mixed with the edge cases
(NaN, inf, -0.0 next to 0.0, extreme integers). xnp sorts stably, so argsort-like
references use NumPy's ``kind='stable'``, and partitions are compared with NumPy's full
sort (after NumPy's own call has validated the arguments)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

_SMALL_FLOATS = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, np.nan, np.inf, -np.inf]


def small_elements(dtype):
    """A few values of ``dtype``, so that equal values are frequent."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        return st.integers(0 if dtype.kind == "u" else -3, 3)
    if dtype.kind == "c":
        part = st.sampled_from([0.0, 1.0, -1.0, np.nan, np.inf])
        return st.builds(complex, part, part)
    return st.sampled_from(_SMALL_FLOATS)


def dup_arrays(dtypes=S.ALL, shape=None, edges=True):
    """Arrays with many duplicates (and, with ``edges``, the dtype's edge values)."""
    dtype_st = st.sampled_from(dtypes)
    shape_st = shape if shape is not None else S.shapes()
    if not isinstance(shape_st, st.SearchStrategy):
        shape_st = st.just(shape_st)

    def build(ds):
        elems = small_elements(ds[0])
        if edges:
            elems = st.one_of(elems, S.elements(ds[0]))
        return hnp.arrays(ds[0], ds[1], elements=elems)
    return st.tuples(dtype_st, shape_st).flatmap(build)


def _with_axis(arrays, allow_none=True):
    """(array, axis) with a valid axis (or None), and sometimes an invalid one."""
    def pick(a):
        valid = S.axes(a.ndim, allow_none=allow_none, allow_tuple=False)
        return st.tuples(st.just(a), st.one_of(valid, st.just(a.ndim)))
    return arrays.flatmap(pick)


_KINDS = st.sampled_from([None, "quicksort", "mergesort", "heapsort", "stable"])


def _sort_kwargs(axis, kind, stable):
    kwargs = {"axis": axis, "kind": kind}
    if kind is None and stable is not None:
        kwargs["stable"] = stable
    return kwargs


def _sort_samples():
    return st.tuples(_with_axis(dup_arrays()), _KINDS, st.sampled_from([None, True, False])
                     ).map(lambda t: Sample((t[0][0],), _sort_kwargs(t[0][1], t[1], t[2])))


def _argsort_ref(a, axis=-1, kind=None, order=None, *, stable=None):
    np.argsort(a, axis=axis, kind=kind, order=order, stable=stable)   # NumPy's errors
    return np.argsort(a, axis=axis, kind="stable")


def _partition_samples():
    def build(a_axis):
        a, axis = a_axis
        n = a.size if axis is None else (a.shape[axis] if axis < a.ndim else 0)
        kth = st.integers(-max(n, 1), max(n - 1, 0))
        return st.tuples(st.just(a), st.one_of(kth, st.lists(kth, min_size=1, max_size=3)),
                         st.just(axis))
    return _with_axis(dup_arrays()).flatmap(build).map(
        lambda t: Sample((t[0], t[1]), {"axis": t[2]}))


def _partition_ref(a, kth, axis=-1, kind="introselect", order=None):
    np.partition(a, kth, axis=axis, kind=kind, order=order)         # NumPy's errors
    return np.sort(a, axis=axis)


def _argpartition_ref(a, kth, axis=-1, kind="introselect", order=None):
    np.argpartition(a, kth, axis=axis, kind=kind, order=order)
    return np.argsort(a, axis=axis, kind="stable")


def _lexsort_samples():
    def build(shape):
        keys = st.lists(dup_arrays(shape=shape, edges=False), min_size=1, max_size=3)
        axis = st.integers(-len(shape), len(shape) - 1) if shape else st.sampled_from([0, -1])
        return st.tuples(keys, axis, st.booleans())
    return S.shapes(max_dims=2).flatmap(build).map(
        lambda t: Sample((t[0] if t[2] else np.stack(t[0]),), {"axis": t[1]}))


def _searchsorted_samples(a_shape=None, v_shape=None):
    """Default shapes are small; large ones (over SMALL_SEARCH comparisons) take the
    binary search instead of comparing all pairs."""
    a_shape = a_shape or S.shapes(min_dims=1, max_dims=1, max_side=6)

    def build(t):
        a, use_sorter = t
        v = dup_arrays(shape=v_shape) if v_shape else st.one_of(dup_arrays(),
                                                                 S.python_scalars())
        rest = (v, st.sampled_from(["left", "right"]))
        if use_sorter:
            sorter = np.argsort(a, kind="stable")
            return st.tuples(st.just(a), *rest, st.just(sorter))
        return st.tuples(st.just(np.sort(a)), *rest, st.none())
    return st.tuples(dup_arrays(shape=a_shape), st.booleans()).flatmap(build).map(
        lambda t: Sample((t[0], t[1]), {"side": t[2], "sorter": t[3]}))


# A Python float is compared as float64 (not weakly, as float16): NumPy gives 2 here.
_F16_SCALAR = Sample((np.array([0.0, 0.1, 0.2], np.float16), 0.1))


_ONE_D = np.array([3.0, 1.0, 2.0])

ENTRIES = [
    OpInfo("sort", _sort_samples(), errors=[
        Sample((_ONE_D,), {"kind": "xyz"}),
        Sample((_ONE_D,), {"kind": 1}),
        Sample((_ONE_D,), {"kind": "stable", "stable": True}),
        Sample((_ONE_D,), {"order": "x"}),
        Sample((_ONE_D,), {"axis": 1}),
        Sample((_ONE_D,), {"axis": 1.0}),
        Sample((np.array(1.0),)),
    ]),
    OpInfo("argsort", _sort_samples(), ref=_argsort_ref, differentiable=False, errors=[
        Sample((_ONE_D,), {"kind": "q", "stable": False}),
        Sample((np.array(1.0),), {"axis": 1}),
        Sample((_ONE_D,), {"order": "x"}),
    ]),
    OpInfo("sort_complex", dup_arrays().map(lambda a: Sample((a,))),
           errors=[Sample((np.array(1.0),))]),
    OpInfo("partition", _partition_samples(), ref=_partition_ref, errors=[
        Sample((_ONE_D, 3)), Sample((_ONE_D, -4)), Sample((_ONE_D, True)),
        Sample((_ONE_D, 1.0)), Sample((_ONE_D, [])), Sample((_ONE_D, [[0, 1]])),
        Sample((_ONE_D, 0), {"kind": "x"}), Sample((_ONE_D, 0), {"kind": 1}),
        Sample((_ONE_D, 0), {"order": "x"}), Sample((np.array(1.0), 0)),
    ]),
    OpInfo("argpartition", _partition_samples(), ref=_argpartition_ref, differentiable=False,
           errors=[
        Sample((_ONE_D, [0, 3])), Sample((np.array(1.0), 1)),
        Sample((np.array(1.0), 0), {"axis": 3}),
    ]),
    OpInfo("lexsort", _lexsort_samples(), differentiable=False, errors=[
        Sample(([],)), Sample((np.array(1.0),)),
        Sample(([_ONE_D, _ONE_D[:2]],)),
        Sample(([_ONE_D, _ONE_D],), {"axis": None}),
        Sample(([_ONE_D],), {"axis": 1}),
        Sample(([np.array(1.0)],), {"axis": -2}),
    ]),
    OpInfo("searchsorted", _searchsorted_samples((70,), (64,)), id="searchsorted-large",
           differentiable=False),
    OpInfo("searchsorted", st.one_of(st.just(_F16_SCALAR), _searchsorted_samples()),
           differentiable=False, errors=[
        Sample((np.ones((2, 2)), 1.0)), Sample((np.array(1.0), 1.0)),
        Sample((_ONE_D, 1.0), {"side": "x"}), Sample((_ONE_D, 1.0), {"side": None}),
        Sample((_ONE_D, 1.0), {"sorter": np.array([0, 1])}),
        Sample((_ONE_D, 1.0), {"sorter": np.array([0.0, 1.0, 2.0])}),
        Sample((_ONE_D, 1.0), {"sorter": np.array([[0, 1, 2]])}),
    ]),
]
