"""Registry entries for phase unwrapping and bit packing."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample


def _phases():
    """Phases (floats or ints) that jump by more than half a period now and then."""
    def build(a):
        return st.tuples(st.sampled_from([None, 1.0, 4.0]),
                         st.sampled_from([2 * np.pi, 4, 6.5]),
                         st.integers(-a.ndim, a.ndim - 1)).map(
            lambda t: Sample((a,), {"discont": t[0], "period": t[1], "axis": t[2]}))
    return S.arrays(st.sampled_from([np.dtype(np.float64), np.dtype(np.float32),
                                     np.dtype(np.int64)]),
                    S.shapes(1, 2, min_side=1, max_side=6), min_value=-10,
                    max_value=10).flatmap(build)


ENTRIES = [OpInfo("unwrap", _phases(), rtol=1e-6, atol=1e-6)]


def _bit_samples(packed: bool):
    def build(a):
        axes = st.sampled_from([None, *range(-a.ndim, a.ndim)])
        kw = {"axis": axes, "bitorder": st.sampled_from(["big", "little"])}
        if packed:
            kw["count"] = st.sampled_from([None, 0, 3, 20])
        return st.fixed_dictionaries(kw).map(lambda k: Sample((a,), k))
    dtypes = [np.dtype(np.uint8)] if packed else [np.dtype(np.bool_), np.dtype(np.int64),
                                                    np.dtype(np.uint8)]
    return S.arrays(st.sampled_from(dtypes), S.shapes(1, 3, min_side=1, max_side=9),
                    min_value=0, max_value=3).flatmap(build)


ENTRIES += [
    OpInfo("packbits", _bit_samples(False), differentiable=False,
           errors=[Sample((np.ones(3),)), Sample((np.ones(3, int),), {"bitorder": "mid"})]),
    OpInfo("unpackbits", _bit_samples(True), differentiable=False,
           errors=[Sample((np.ones(3, int),)),
                   Sample((np.ones(2, np.uint8),), {"count": -17})]),
]
