"""vmap of every traceable registry entry equals the Python loop over the batch.

For each sample, every array argument is either mapped (along a drawn axis, with batch
members made by shuffling the sample's values, which keeps index arguments in range) or
left unmapped; the result of ``vmap(f, in_axes)`` must equal ``stack([f(...) for each
member])``, including dtypes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opinfo import Sample, assert_same_result, call_ref
from registry import REGISTRY

import xnp

BATCHABLE = [i for i in REGISTRY if i.samples is not None and i.traceable]
B = 3


def _members(a: np.ndarray, rng) -> list:
    flat = a.reshape(-1)
    return [a] + [rng.permutation(flat).reshape(a.shape) for _ in range(B - 1)]


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
    out = xnp.vmap(lambda *a: info.op(*a, **sample.kwargs), in_axes=tuple(in_axes))(
        *batched_args)
    assert_same_result(out, expected, info, " (vmap vs loop)")
