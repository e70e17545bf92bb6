"""Registry entries for xnp.lib (numpy.lib's stride tricks)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample


def _windows():
    """An array and a window over one axis, two axes (possibly repeated), or all axes."""
    def build(a):
        axes = st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=1, max_size=2)

        def windows(axs):
            return st.tuples(*[st.integers(0, a.shape[ax]) for ax in axs]).map(
                lambda w: Sample((a, w), {"axis": tuple(axs)}))
        everything = st.tuples(*[st.integers(0, n) for n in a.shape]).map(
            lambda w: Sample((a, w)))
        return st.one_of(axes.filter(lambda axs: len({x % a.ndim for x in axs}) == len(axs))
                         .flatmap(windows), everything)
    return S.arrays(st.sampled_from(S.FLOATS + S.INTS[:2]),
                    S.shapes(1, 3, min_side=1, max_side=4)).flatmap(build)


ENTRIES = [
    OpInfo("lib.stride_tricks.sliding_window_view", _windows(), errors=[
        Sample((np.arange(3.0), 4)),
        Sample((np.arange(3.0), -1)),
        Sample((np.ones((2, 2)), (1,))),
        Sample((np.ones((2, 2)), (1, 1)), {"axis": (0,)}),
        Sample((np.ones((2, 2)), (1,)), {"axis": 2}),
    ]),
]
