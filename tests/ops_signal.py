"""Registry entries for phase unwrapping."""

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
