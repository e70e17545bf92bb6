"""vmap of every traceable registry entry equals the Python loop over the batch.

For each sample, every array argument is either mapped (along a drawn axis, with batch
members made by shuffling the sample's values, which keeps index arguments in range) or
left unmapped; the result of ``vmap(f, in_axes)`` must equal ``stack([f(...) for each
member])``, including dtypes.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opinfo import Sample, assert_same_result, call_ref
from registry import REGISTRY

import xnp

BATCHABLE = [i for i in REGISTRY if i.samples is not None and i.traceable]
B = 3


_ALL_NAN_DTYPE = {"nanquantile", "nanpercentile", "nanmedian"}


def _all_nan_or_empty(x) -> bool:
    x = np.asarray(x)
    return x.size == 0 or (x.dtype.kind in "fc" and bool(np.all(np.isnan(x))))


def _members(a: np.ndarray, rng) -> list:
    """``a`` and permutations of its elements; a sorted ``a`` (the ``xp`` of interp, the
    bins of digitize) gets sorted members, as such arguments must stay sorted."""
    flat = a.reshape(-1)
    keep_sorted = a.ndim == 1 and a.dtype.kind in "biufc" and \
        np.array_equal(np.sort(flat), flat, equal_nan=a.dtype.kind in "fc")
    members = [rng.permutation(flat) for _ in range(B - 1)]
    return [a] + [np.sort(m).reshape(a.shape) if keep_sorted else m.reshape(a.shape)
                  for m in members]


def _array_slots(args):
    return [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]


def _loop_result(info, args_per_member, kwargs):
    outs = [info.op(*[xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args],
                    **kwargs) for args in args_per_member]
    return _stack_tree(outs)


def _stack_tree(outs):
    first = outs[0]
    if isinstance(first, (tuple, list)):
        return type(first)(_stack_tree([o[i] for o in outs]) for i in range(len(first)))
    return np.stack([np.asarray(o) for o in outs])


@pytest.mark.parametrize("info", BATCHABLE, ids=lambda i: i.id)
@settings(max_examples=5, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_vmap_matches_loop(info, data):
    sample: Sample = data.draw(info.samples, label="sample")
    try:
        call_ref(info, sample)
    except Exception:
        return
    slots = _array_slots(sample.args)
    if sample.kwargs.get("sorter") is not None:
        slots = slots[1:]   # the array a sorter orders: permuted members would be unsorted
    if not slots:
        return
    rng = np.random.default_rng(data.draw(st.integers(0, 1000), label="seed"))
    mapped = data.draw(st.lists(st.booleans(), min_size=len(slots), max_size=len(slots))
                       .filter(any), label="mapped")
    members = {i: _members(sample.args[i], rng) for i, m in zip(slots, mapped) if m}
    axes = {i: data.draw(st.integers(-sample.args[i].ndim - 1, sample.args[i].ndim),
                         label=f"axis{i}") for i in members}
    per_member = [[members[i][k] if i in members else a for i, a in enumerate(sample.args)]
                  for k in range(B)]
    try:
        expected = _loop_result(info, per_member, sample.kwargs)
    except Exception:
        return          # some member is an error input for this function
    batched_args = []
    in_axes = []
    for i, a in enumerate(sample.args):
        if i in members:
            stacked = np.stack(members[i], axis=axes[i])
            batched_args.append(xnp.asarray(stacked))
            in_axes.append(axes[i])
        else:
            batched_args.append(xnp.asarray(a) if isinstance(a, np.ndarray) else a)
            in_axes.append(None)
    run = xnp.vmap(lambda *a: info.op(*a, **sample.kwargs), in_axes=tuple(in_axes))
    if isinstance(sample.kwargs.get("out"), np.ndarray):
        # A NumPy out= array is written eagerly; a batched (traced) result cannot be.
        try:
            result = run(*batched_args)
        except TypeError as e:
            assert "cannot hold a traced value" in str(e) or "out must be" in str(e)
            return
    else:
        result = run(*batched_args)
    if info.name in _ALL_NAN_DTYPE and _all_nan_or_empty(expected):
        # NumPy's nan-quantiles take an all-NaN (or empty) result's dtype from the input,
        # a value-dependent dtype that eager xnp follows and traced code cannot.
        info = dataclasses.replace(info, check_dtype=False)
    assert_same_result(result, expected, info, " (vmap vs loop)")
