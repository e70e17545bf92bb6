"""Registry entries for ``pad``, one per mode (xnp/_padding.py)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

DTYPES = st.sampled_from(S.ALL)
REAL = st.sampled_from(S.REAL)


def _widths(nd, max_width=3):
    """A pad_width argument in one of NumPy's forms: int, pair, per-axis pairs, dict."""
    w = st.integers(0, max_width)
    per_axis = st.lists(st.tuples(w, w), min_size=nd, max_size=nd)
    options = [w, st.tuples(w, w), st.tuples(w), per_axis]
    if nd:   # keys naming distinct axes (aliases like 0 and -nd would depend on order)
        keys = st.lists(st.integers(0, nd - 1), unique=True, max_size=2)
        options.append(st.tuples(keys, st.lists(st.booleans(), min_size=2, max_size=2),
                                 st.lists(w, min_size=2, max_size=2)).map(
            lambda t: {k - nd if neg else k: v for k, neg, v in zip(*t)}))
    return st.one_of(*options)


@st.composite
def _pad(draw, mode, dtypes=DTYPES, min_side=0, max_width=3, **kw_strategies):
    a = draw(S.arrays(dtypes, S.shapes(0, 3, min_side=min_side, max_side=3)))
    widths = draw(_widths(a.ndim, max_width))
    kwargs = {name: draw(s) for name, s in kw_strategies.items()}
    return Sample((a, widths), {"mode": mode, **kwargs} if mode != "constant" else kwargs)


def _fill_values():
    v = st.integers(-3, 3)
    return st.one_of(v, st.tuples(v, v), st.lists(st.tuples(v, v), min_size=3, max_size=3))


def _stat_length():
    n = st.integers(1, 4)
    return st.one_of(st.none(), n, st.tuples(n, n))


def _pad_fn(vector, pad_width, iaxis, kwargs):
    vector[:pad_width[0]] = kwargs.get("padder", 10)
    if pad_width[1]:
        vector[-pad_width[1]:] = iaxis


ENTRIES = [
    OpInfo("pad", _pad("constant", constant_values=_fill_values()), id="pad-constant"),
    OpInfo("pad", _pad("empty"), id="pad-empty",
           ref=lambda a, w, mode: np.pad(a, w, mode="constant")),
    OpInfo("pad", _pad("edge"), id="pad-edge"),
    OpInfo("pad", _pad("wrap", max_width=8), id="pad-wrap"),
    OpInfo("pad", _pad("reflect", max_width=8,
                       reflect_type=st.sampled_from(["even", "odd"])), id="pad-reflect",
           rtol=1e-6),
    OpInfo("pad", _pad("symmetric", max_width=8,
                       reflect_type=st.sampled_from(["even", "odd"])), id="pad-symmetric",
           rtol=1e-6),
    OpInfo("pad", _pad("linear_ramp", REAL, end_values=_fill_values()), id="pad-linear_ramp"),
    OpInfo("pad", _pad("maximum", REAL, min_side=1, stat_length=_stat_length()),
           id="pad-maximum"),
    OpInfo("pad", _pad("minimum", REAL, min_side=1, stat_length=_stat_length()),
           id="pad-minimum"),
    OpInfo("pad", _pad("mean", st.sampled_from(S.INTS + S.FLOATS), min_side=1,
                       stat_length=_stat_length()), id="pad-mean", rtol=1e-6),
    OpInfo("pad", _pad("median", st.sampled_from(S.INTS + S.FLOATS), min_side=1,
                       stat_length=_stat_length()), id="pad-median", rtol=1e-6),
    OpInfo("pad", st.builds(lambda a, w: Sample((a, w, _pad_fn), {"padder": 7}),
                            S.arrays(st.sampled_from(S.INTS + S.FLOATS), S.shapes(1, 2, 1, 3)),
                            st.integers(0, 2)), id="pad-function"),
    OpInfo("pad", id="pad-errors", errors=[
        Sample((np.ones(3), 1.5)), Sample((np.ones(3), -1)), Sample((np.ones(3), [1, 2, 3])),
        Sample((np.ones(3), 1), {"mode": "bogus"}),
        Sample((np.ones(3), 1), {"mode": "edge", "constant_values": 1}),
        Sample((np.ones((0, 2)), 1), {"mode": "edge"}),
        Sample((np.ones(3), 1), {"mode": "maximum", "stat_length": 0})]),
]
