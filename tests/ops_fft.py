"""Registry entries for xnp.fft: every transform on real and complex inputs of 1-3 axes,
with cropping and zero-padding lengths, the three norms, and the helpers."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

_REAL = [np.float64, np.float32, np.int64]
_ANY = _REAL + [np.complex128, np.complex64]
_NORMS = st.sampled_from([None, "backward", "ortho", "forward"])


def _array(dtypes, min_dims=1):
    return st.sampled_from(dtypes).flatmap(lambda d: S.arrays(
        d, S.shapes(min_dims, 3, min_side=1, max_side=5), finite=True, min_value=-4,
        max_value=4))


@st.composite
def _one_axis(draw, dtypes, halved=False):
    a = draw(_array(dtypes))
    axis = draw(st.integers(-a.ndim, a.ndim - 1))
    kw = {"axis": axis, "norm": draw(_NORMS)}
    if draw(st.booleans()):
        kw["n"] = draw(st.integers(1, 7))
    elif halved and a.shape[axis] < 2:
        kw["n"] = 2
    return Sample((a,), kw)


@st.composite
def _many_axes(draw, dtypes, halved=False):
    a = draw(_array(dtypes))
    axes = draw(st.lists(st.integers(0, a.ndim - 1), min_size=1, max_size=a.ndim,
                         unique=True))
    kw = {"axes": axes, "norm": draw(_NORMS)}
    if draw(st.booleans()):
        kw["s"] = [draw(st.integers(1, 6)) for _ in axes]
    elif halved and a.shape[axes[-1]] < 2:
        kw["s"] = [a.shape[ax] for ax in axes[:-1]] + [2]
    return Sample((a,), kw)


def _two_axes(dtypes, halved=False):
    return _array(dtypes, min_dims=2).map(lambda a: Sample(
        (a,), {"s": None if not halved or a.shape[-1] > 1 else (a.shape[-2], 2)}))


_E = Sample
ENTRIES = [
    OpInfo("fft.fft", _one_axis(_ANY), rtol=1e-5, atol=1e-5),
    OpInfo("fft.ifft", _one_axis(_ANY), rtol=1e-5, atol=1e-5),
    OpInfo("fft.rfft", _one_axis(_REAL), rtol=1e-5, atol=1e-5),
    OpInfo("fft.irfft", _one_axis(_ANY, halved=True), rtol=1e-5, atol=1e-5),
    OpInfo("fft.hfft", _one_axis(_ANY, halved=True), rtol=1e-5, atol=1e-5),
    OpInfo("fft.ihfft", _one_axis(_REAL), rtol=1e-5, atol=1e-5),
    OpInfo("fft.fftn", _many_axes(_ANY), rtol=1e-5, atol=1e-5),
    OpInfo("fft.ifftn", _many_axes(_ANY), rtol=1e-5, atol=1e-5),
    OpInfo("fft.rfftn", _many_axes(_REAL), rtol=1e-5, atol=1e-5),
    OpInfo("fft.irfftn", _many_axes(_ANY, halved=True), rtol=1e-5, atol=1e-5),
    OpInfo("fft.fft2", _two_axes(_ANY), rtol=1e-5, atol=1e-5),
    OpInfo("fft.ifft2", _two_axes(_ANY), rtol=1e-5, atol=1e-5),
    OpInfo("fft.rfft2", _two_axes(_REAL), rtol=1e-5, atol=1e-5),
    OpInfo("fft.irfft2", _two_axes(_ANY, halved=True), rtol=1e-5, atol=1e-5),
    OpInfo("fft.fftshift", _array(_ANY).map(lambda a: Sample((a,)))),
    OpInfo("fft.ifftshift", _array(_ANY).map(lambda a: Sample((a,), {"axes": 0}))),
    OpInfo("fft.fftfreq", st.tuples(st.integers(1, 9), st.sampled_from([1.0, 0.1, 2]))
           .map(lambda t: Sample(t)), differentiable=False),
    OpInfo("fft.rfftfreq", st.tuples(st.integers(1, 9), st.sampled_from([1.0, 0.5]))
           .map(lambda t: Sample(t)), differentiable=False),
    OpInfo("fft.fft", id="fft.fft-errors", errors=[
        _E((np.ones(3),), {"n": 0}), _E((np.ones(3),), {"norm": "sideways"}),
        _E((np.ones(3),), {"axis": 2})]),
    OpInfo("fft.fftn", id="fft.fftn-errors", errors=[
        _E((np.ones((2, 2)),), {"s": [2], "axes": [0, 1]})]),
]
