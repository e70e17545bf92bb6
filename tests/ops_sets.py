"""Registry entries for the set routines: unique (NumPy's and the array API's), isin,
intersect1d, union1d, setdiff1d, setxor1d.

Inputs have many duplicates, NaN, -0.0 next to 0.0 and empty arrays. Without ``size`` the
output shape depends on the values, so those entries are not traceable; the ``-size``
entries pass ``size=`` and must trace, their references padding NumPy's result as xnp
documents (``fill_value``, by default the first value; indices and counts with 0)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample
from ops_sorting import dup_arrays

_FLAGS = ("return_index", "return_inverse", "return_counts")


def _unique_samples(with_size=False):
    def build(a):
        # NumPy orders float16 NaN first when comparing rows (axis=...): not followed.
        rows_ok = a.ndim and a.dtype != np.float16
        axis = st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)) if rows_ok else st.none()
        size = st.integers(0, a.size + 2) if with_size else st.none()
        return st.tuples(st.just(a), st.lists(st.booleans(), min_size=3, max_size=3), axis,
                         st.booleans(), size, st.sampled_from([None, 7]))
    arrays = dup_arrays(shape=S.shapes(max_dims=3 if not with_size else 2))

    def sample(t):
        a, flags, axis, equal_nan, size, fill = t
        kwargs = dict(zip(_FLAGS, flags), axis=axis, equal_nan=equal_nan)
        if with_size:
            kwargs.update(size=size, fill_value=fill)
        return Sample((a,), kwargs)
    return arrays.flatmap(build).map(sample)


def _np_unique(ar, return_index=False, return_inverse=False, return_counts=False,
               axis=None, *, equal_nan=True):
    """NumPy's unique with the inverse taken from its stable sort: without return_index
    NumPy sorts unstably, so distinct NaNs (equal_nan=False) get arbitrary ids."""
    res = np.unique(ar, True, return_inverse, return_counts, axis=axis, equal_nan=equal_nan)
    res = [res[0], *res[2:]] if not return_index else list(res)
    return tuple(res) if len(res) > 1 else res[0]


def _pad(result, size, fill_value, kinds):
    """Pad (or cut) NumPy's results to ``size`` entries as xnp's size= does: kind 'v'
    (values, along axis 0 after moving ``axis``), 'i' (indices/counts, 0), '-' (as is)."""
    out = []
    for r, kind in zip(result, kinds):
        if kind == "-":
            out.append(r)
            continue
        k = r.shape[0]
        r = r[:size]
        if size > k:
            if kind == "i":
                fill = 0
            elif fill_value is not None:
                fill = fill_value
            else:
                fill = r[:1] if k else 0
            pad = np.broadcast_to(np.asarray(fill, r.dtype), (size - k, *r.shape[1:]))
            r = np.concatenate([r, pad])
        out.append(r)
    return out


def _unique_size_ref(ar, return_index=False, return_inverse=False, return_counts=False,
                     axis=None, *, equal_nan=True, size, fill_value=None):
    flags = (return_index, return_inverse, return_counts)
    res = _np_unique(ar, *flags, axis=axis, equal_nan=equal_nan)
    res = list(res) if any(flags) else [res]
    kinds = "v" + "".join(k for k, f in zip("i-i", flags) if f)
    if axis is not None:
        res[0] = np.moveaxis(res[0], axis, 0)
    res = _pad(res, size, fill_value, kinds)
    if axis is not None:
        res[0] = np.moveaxis(res[0], 0, axis)
    return tuple(res) if len(res) > 1 else res[0]


def _array_api_ref(flags):
    def ref(x, /, *, size=None, fill_value=None):
        res = _np_unique(x, *flags, equal_nan=False)
        res = list(res) if any(flags) else [res]
        if size is not None:
            kinds = "v" + "".join(k for k, f in zip("i-i", flags) if f)
            res = _pad(res, size, fill_value, kinds)
        return tuple(res) if len(res) > 1 else res[0]
    return ref


def _array_api_samples(with_size=False):
    def build(a):
        kwargs = st.fixed_dictionaries({"size": st.integers(0, a.size + 2)}) if with_size \
            else st.just({})
        return kwargs.map(lambda kw: Sample((a,), kw))
    return dup_arrays().flatmap(build)


def _two_arrays(unique=False, max_dims=2):
    """Two arrays of (independently drawn) dtypes and shapes; ``unique`` makes each one's
    values distinct (for assume_unique=True, where NumPy leaves duplicates undefined)."""
    arr = dup_arrays(shape=S.shapes(max_dims=max_dims))
    if unique:
        arr = arr.map(lambda a: np.unique(a)[::-1].copy())
    return st.tuples(arr, arr)


def _set_samples(assume_unique_ok=True, indices=False, with_size=False):
    def build(ab):
        a, b = ab
        kw = {}
        if assume_unique_ok:
            kw["assume_unique"] = st.booleans()
        if indices:
            kw["return_indices"] = st.booleans()
        if with_size:
            kw["size"] = st.integers(0, a.size + b.size + 1)
            kw["fill_value"] = st.sampled_from([None, 7])
        return st.fixed_dictionaries(kw).map(lambda k: Sample((a, b), k))
    pairs = _two_arrays() if assume_unique_ok != "unique" else _two_arrays(unique=True)
    return pairs.flatmap(build)


def _set_size_ref(np_fn, kinds_of):
    def ref(*args, size, fill_value=None, **kwargs):
        res = np_fn(*args, **kwargs)
        res = list(res) if isinstance(res, tuple) else [res]
        res = _pad(res, size, fill_value, kinds_of(kwargs))
        return tuple(res) if len(res) > 1 else res[0]
    return ref


def _isin_samples():
    def build(ab):
        a, b = ab
        return st.fixed_dictionaries({
            "invert": st.booleans(),
            "kind": st.sampled_from([None, "sort", "table"])}).map(
            lambda k: Sample((a, b), k))
    unique_pairs = _two_arrays(unique=True, max_dims=3).map(
        lambda ab: Sample(ab, {"assume_unique": True}))
    small = dup_arrays(shape=S.shapes(max_dims=3), edges=False)
    return st.one_of(st.tuples(small, small).flatmap(build), unique_pairs,
                     st.tuples(dup_arrays(), S.python_scalars()).map(Sample))


def _values_kinds(kwargs):
    return "vii" if kwargs.get("return_indices") else "v"


_A = np.array([1.0, 2.0, 2.0])

ENTRIES = [
    OpInfo("unique", _unique_samples(), ref=_np_unique, traceable=False, errors=[
        Sample((_A,), {"axis": 1}), Sample((np.array(1.0),), {"axis": 0}),
        Sample((np.ones((2, 2)),), {"axis": (0, 1)}), Sample((_A,), {"axis": 1.5}),
    ]),
    OpInfo("unique", _unique_samples(with_size=True), ref=_unique_size_ref,
           id="unique-size"),
    OpInfo("unique_all", _array_api_samples(), ref=_array_api_ref((True, True, True)),
           traceable=False),
    OpInfo("unique_counts", _array_api_samples(), ref=_array_api_ref((False, False, True)),
           traceable=False),
    OpInfo("unique_inverse", _array_api_samples(), ref=_array_api_ref((False, True, False)),
           traceable=False),
    OpInfo("unique_values", _array_api_samples(), ref=_array_api_ref((False, False, False)),
           traceable=False),
    OpInfo("unique_all", _array_api_samples(with_size=True), id="unique_all-size",
           ref=_array_api_ref((True, True, True))),
    OpInfo("unique_values", _array_api_samples(with_size=True), id="unique_values-size",
           ref=_array_api_ref((False, False, False))),
    OpInfo("isin", _isin_samples(), differentiable=False, errors=[
        Sample((_A, _A), {"kind": "x"}), Sample((_A, _A), {"kind": "table"}),
        Sample((np.array([1, 2]), []), {"kind": "table"}),
    ]),
    OpInfo("isin", st.tuples(dup_arrays(shape=(8, 8)), dup_arrays(shape=(70,)),
                             st.booleans()).map(lambda t: Sample(t[:2], {"invert": t[2]})),
           id="isin-large", differentiable=False),
    OpInfo("intersect1d", _set_samples(indices=True), traceable=False),
    OpInfo("intersect1d", st.tuples(dup_arrays(shape=(70,)), dup_arrays(shape=(64,)),
                                    st.booleans()).map(
        lambda t: Sample(t[:2], {"return_indices": t[2]})), id="intersect1d-large",
        traceable=False),
    OpInfo("intersect1d", _set_samples(indices=True, with_size=True), id="intersect1d-size",
           ref=_set_size_ref(np.intersect1d, _values_kinds)),
    OpInfo("union1d", _set_samples(assume_unique_ok=False), traceable=False),
    OpInfo("union1d", st.tuples(dup_arrays(), S.python_scalars()).map(Sample),
           id="union1d-scalar", traceable=False),
    OpInfo("union1d", _set_samples(assume_unique_ok=False, with_size=True),
           id="union1d-size", ref=_set_size_ref(np.union1d, _values_kinds)),
    OpInfo("setdiff1d", _set_samples(assume_unique_ok=False), traceable=False),
    OpInfo("setdiff1d", _set_samples(assume_unique_ok="unique"), id="setdiff1d-unique",
           traceable=False),
    OpInfo("setdiff1d", _set_samples(with_size=True, assume_unique_ok="unique"),
           id="setdiff1d-size", ref=_set_size_ref(np.setdiff1d, _values_kinds)),
    OpInfo("setxor1d", _set_samples(), traceable=False),
    OpInfo("setxor1d", st.tuples(dup_arrays(), S.python_scalars(), st.booleans()).map(
        lambda t: Sample(t[:2], {"assume_unique": t[2]})), id="setxor1d-scalar",
        traceable=False),
    OpInfo("setxor1d", _set_samples(with_size=True), id="setxor1d-size",
           ref=_set_size_ref(np.setxor1d, _values_kinds)),
]
