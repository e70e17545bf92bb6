"""jit against eager evaluation for every registry entry: each function, traced to a jaxpr,
lowered to StableHLO and compiled by XLA, gives the eager result (exactly for integer and
boolean results, within a few ulps for floating point)."""

from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st
from opinfo import assert_same_result, call_ref, call_xnp
from registry import REGISTRY
from test_registry import _fill, _leaves, _split_arrays

import xnp
from transforms import ConcretizationTypeError, TracerArrayConversionError

# Each example compiles an XLA program (tens of milliseconds): the CI profile draws a few
# per entry and does not shrink failures; HYPOTHESIS_PROFILE=explore draws as many as the
# profile says, and shrinks.
_CI = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci"
_SETTINGS = settings(max_examples=3, phases=(Phase.explicit, Phase.reuse, Phase.generate)) \
    if _CI else (lambda f: f)


def _tiny(dtype) -> float:
    """The smallest normal number of a float (or complex) dtype."""
    return float((ml_dtypes.finfo if dtype.name == "bfloat16" else np.finfo)(dtype).tiny)


def _has_subnormals(arrays) -> bool:
    """XLA on the CPU flushes subnormal floats to zero, as jax.jit does (a documented
    difference from eager NumPy); such inputs are not compared."""
    for a in arrays:
        if a.dtype.kind in "fc" or a.dtype.name == "bfloat16":
            parts = [a.real, a.imag] if a.dtype.kind == "c" else [a]
            tiny = _tiny(parts[0].dtype)
            for p in parts:
                p = np.abs(p.astype(np.float64))
                if ((p > 0) & (p < tiny)).any():
                    return True
    return False

ENTRIES = pytest.mark.parametrize(
    "info", [i for i in REGISTRY if i.samples is not None], ids=lambda i: i.id)


@ENTRIES
@_SETTINGS
@given(data=st.data())
def test_jit_matches_eager(info, data):
    sample = data.draw(info.samples, label="sample")
    try:
        call_ref(info, sample)
    except Exception:
        return          # error inputs are covered by test_registry
    template, arrays = _split_arrays((sample.args, sample.kwargs))
    assume(not _has_subnormals(arrays))

    def traced(*xs):
        args, kwargs = _fill(template, list(xs))
        return info.op(*args, **kwargs)

    xs = [xnp.asarray(a) for a in arrays]
    eager = _leaves(call_xnp(info, sample))
    try:
        compiled = _leaves(xnp.jit(traced)(*xs))
    except (ConcretizationTypeError, TracerArrayConversionError):
        # value-dependent shapes compile only where they depend on constants alone
        # (known while staging); then the result is compared below
        if info.traceable:
            raise
        return
    except NotImplementedError as e:
        # Linear-algebra primitives have no lowering yet: jit says so, naming the primitive.
        if info.jittable or "cannot be compiled yet" not in str(e):
            raise
        return
    assert len(compiled) == len(eager), f"{info.id}: jit gave {len(compiled)} outputs"
    for got, want in zip(compiled, eager):
        got, want = np.asarray(got), np.asarray(want)
        if want.dtype != got.dtype and want.dtype.kind in "fc" and np.isnan(want).all():
            # NumPy's nan-functions give all-NaN slices the input dtype, a value-dependent
            # dtype that eager xnp copies and compiled code cannot
            want = want.astype(got.dtype)
        if want.dtype.kind in "fc":     # results in the subnormal range are flushed too
            tiny = _tiny(want.dtype)
            got = np.where(np.abs(want) < tiny, 0, got)
            want = np.where(np.abs(want) < tiny, 0, want).astype(want.dtype)
        assert_same_result(got, want, info, " (jit vs eager)")
