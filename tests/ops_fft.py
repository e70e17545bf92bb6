"""Registry entries for xnp.fft: every transform on real and complex inputs of 1-3 axes,
with cropping and zero-padding lengths, the three norms, and the helpers."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

_REAL = [np.float64, np.float32, np.float16, np.int64, np.bool_]
_ANY = _REAL + [np.complex128, np.complex64]
_NORMS = st.sampled_from([None, "backward", "ortho", "forward"])


def _array(dtypes, min_dims=1):
    """Arrays of 1-3 axes, sides 0-5 (transformed axes of length 0 get an explicit n/s)."""
    return st.sampled_from(dtypes).flatmap(lambda d: S.arrays(
        d, S.shapes(min_dims, 3, min_side=0, max_side=5), finite=True, min_value=-4,
        max_value=4))


def _filled(a, axis):
    """``a`` with axis ``axis`` at least 2 long: NumPy 2.4's irfft reads uninitialised
    memory when it zero-pads an input of length 0 (xnp returns zeros)."""
    if a.shape[axis] > 0:
        return a
    shape = list(a.shape)
    shape[axis] = 2
    return np.full(shape, 1.5, a.dtype)


@st.composite
def _one_axis(draw, dtypes, halved=False):
    a = draw(_array(dtypes))
    axis = draw(st.integers(-a.ndim, a.ndim - 1))
    if halved:
        a = _filled(a, axis)
    kw = {"axis": axis, "norm": draw(_NORMS)}
    if draw(st.booleans()) or a.shape[axis] < (2 if halved else 1):
        kw["n"] = draw(st.integers(1, 7))
    return Sample((a,), kw)


@st.composite
def _many_axes(draw, dtypes, halved=False):
    """Unique or (NumPy transforms them one by one) repeated axes; s cropping, padding
    or -1 (the input's length)."""
    a = draw(_array(dtypes))
    axes = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=1, max_size=a.ndim,
                         unique_by=lambda ax: ax % a.ndim)
                | st.lists(st.integers(0, a.ndim - 1), min_size=2, max_size=3))
    if halved:
        a = _filled(a, axes[-1])
    kw = {"axes": axes, "norm": draw(_NORMS)}
    short = any(a.shape[ax] == 0 for ax in axes) or \
        (halved and a.shape[axes[-1]] < 2)
    if draw(st.booleans()) or short:
        kw["s"] = [draw(st.integers(1, 6)) for _ in axes]
        if not short and draw(st.booleans()):
            kw["s"][0] = -1
    return Sample((a,), kw)


def _two_axes(dtypes, halved=False):
    return _array(dtypes, min_dims=2).map(lambda a: _filled(a, -1) if halved else a).map(
        lambda a: Sample((a,), {} if min(a.shape[-2:]) >= (2 if halved else 1)
                         else {"s": (3, 4)}))


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
        _E((np.ones(3),), {"axis": 2}), _E((np.ones(3),), {"n": 2.5}),
        _E((np.ones((2, 0)),), {})]),
    OpInfo("fft.fftn", id="fft.fftn-errors", errors=[
        _E((np.ones((2, 2)),), {"s": [2], "axes": [0, 1]}),
        _E((np.ones((2, 2)),), {"axes": [0, 2]}),
        _E((np.ones((2, 2)),), {"s": [2, 0], "axes": [0, 1]})]),
    OpInfo("fft.rfft", id="fft.rfft-errors", errors=[
        _E((np.ones(3, complex),), {}), _E((np.ones(3),), {"norm": "ortho ", "n": 2})]),
    OpInfo("fft.irfft", id="fft.irfft-errors", errors=[
        _E((np.ones(1, complex),), {}), _E((np.ones(3),), {"n": -1})]),
    OpInfo("fft.ihfft", id="fft.ihfft-errors", errors=[_E((np.ones(3, complex),), {})]),
    OpInfo("fft.fftfreq", id="fft.fftfreq-errors", errors=[
        _E((4.0,), {}), _E((0,), {})]),
]
