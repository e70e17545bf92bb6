"""xnp.fft: numpy.fft's discrete Fourier transforms, on the one primitive ``fft_p``.

Each function moves the transformed axes last, crops or zero-pads them to the requested
lengths, binds ``fft_p`` (XLA's FFT: it differentiates, batches and compiles) and scales
for ``norm`` ("backward", "ortho" or "forward"). Dtypes follow NumPy 2: float32 and
complex64 transform in single precision, other inputs in double.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from numpy.exceptions import AxisError

import xnp
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]

_NORMS = ("backward", "ortho", "forward")


def _check_norm(norm):
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or '
                         '"forward".')
    return norm


def _swap(norm):
    return {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]


def _complex_input(a):
    a = xnp.asarray(a)
    return a.astype(np.complex64 if a.dtype in (np.float32, np.complex64)
                    else np.complex128)


def _real_input(a):
    a = xnp.asarray(a)
    if a.dtype.kind == "c":
        raise TypeError(f"x must be a real sequence, got {a.dtype}")
    return a.astype(np.float32 if a.dtype == np.float32 else np.float64)


def _axes_and_lengths(a, s, axes, name, real_last=False):
    """Normalised axes and transform lengths (NumPy's rules for s and axes)."""
    nd = a.ndim
    if axes is None:
        axes = tuple(range(nd - len(s), nd)) if s is not None else tuple(range(nd))
    axes = tuple(operator.index(ax) for ax in axes)
    for ax in axes:
        if not -nd <= ax < nd:
            raise AxisError(ax, nd)
    axes = tuple(ax % nd for ax in axes)
    if s is None:
        s = [a.shape[ax] for ax in axes]
        if real_last and axes:
            s[-1] = 2 * (a.shape[axes[-1]] - 1)
    else:
        if len(s) != len(axes):
            raise ValueError("When given, axes and shape arguments have to be of the "
                             "same length")
        s = [operator.index(n) for n in s]
    for n in s:
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return axes, tuple(s)


def _fit_axis(a, axis, n):
    """Crop or zero-pad ``a`` along ``axis`` to length ``n``."""
    have = a.shape[axis]
    if have > n:
        return xnp.take(a, xnp.arange(n), axis=axis)
    if have < n:
        pad = [(0, 0)] * a.ndim
        pad[axis] = (0, n - have)
        return xnp.pad(a, pad)
    return a


def _transform(a, axes, in_lengths, fft_lengths, fft_type, norm, forward):
    """Move ``axes`` last, fit them to ``in_lengths``, bind fft_p, scale, move back."""
    k = len(axes)
    if k == 0:
        return a
    for ax, n in zip(axes, in_lengths):
        a = _fit_axis(a, ax, n)
    last = tuple(range(a.ndim - k, a.ndim))
    moved = xnp.moveaxis(a, axes, last)
    out = wrap(lax.fft_p.bind(raw(moved), fft_type=fft_type, fft_lengths=fft_lengths))
    n_total = math.prod(fft_lengths)
    scale = {"backward": 1.0 if forward else None, "forward": 1.0 / n_total if forward
             else n_total, "ortho": (1.0 / math.sqrt(n_total)) if forward
             else math.sqrt(n_total)}[norm]
    if scale is not None and scale != 1.0:
        out = out * np.asarray(scale, dtype=out.real.dtype)
    return xnp.moveaxis(out, last, axes)


def fftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The n-dimensional discrete Fourier transform, as :func:`numpy.fft.fftn`."""
    a = _complex_input(a)
    axes, s = _axes_and_lengths(a, s, axes, "fftn")
    return _store(_transform(a, axes, s, s, "FFT", _check_norm(norm), True), out)


def ifftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The n-dimensional inverse discrete Fourier transform, as :func:`numpy.fft.ifftn`."""
    a = _complex_input(a)
    axes, s = _axes_and_lengths(a, s, axes, "ifftn")
    return _store(_transform(a, axes, s, s, "IFFT", _check_norm(norm), False), out)


def rfftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The n-dimensional FFT of real input (last axis halved), as
    :func:`numpy.fft.rfftn`."""
    a = _real_input(a)
    axes, s = _axes_and_lengths(a, s, axes, "rfftn")
    return _store(_transform(a, axes, s, s, "RFFT", _check_norm(norm), True), out)


def irfftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The inverse of :func:`rfftn`, as :func:`numpy.fft.irfftn` (the last axis has
    ``s[-1]`` points, by default ``2 * (m - 1)``)."""
    a = _complex_input(a)
    axes, s = _axes_and_lengths(a, s, axes, "irfftn", real_last=True)
    in_lengths = (*s[:-1], s[-1] // 2 + 1) if axes else s
    return _store(_transform(a, axes, in_lengths, s, "IRFFT", _check_norm(norm), False),
                  out)


def _one_axis(fn, a, n, axis, norm, out):
    return fn(a, None if n is None else [n], [axis], norm, out)


def fft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The one-dimensional discrete Fourier transform, as :func:`numpy.fft.fft`."""
    return _one_axis(fftn, a, n, axis, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The one-dimensional inverse transform, as :func:`numpy.fft.ifft`."""
    return _one_axis(ifftn, a, n, axis, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The one-dimensional FFT of real input, as :func:`numpy.fft.rfft`."""
    return _one_axis(rfftn, a, n, axis, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The inverse of :func:`rfft`, as :func:`numpy.fft.irfft`."""
    return _one_axis(irfftn, a, n, axis, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None) -> ndarray:
    """The two-dimensional FFT, as :func:`numpy.fft.fft2`."""
    return fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None) -> ndarray:
    """The two-dimensional inverse FFT, as :func:`numpy.fft.ifft2`."""
    return ifftn(a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None) -> ndarray:
    """The two-dimensional FFT of real input, as :func:`numpy.fft.rfft2`."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None) -> ndarray:
    """The inverse of :func:`rfft2`, as :func:`numpy.fft.irfft2`."""
    return irfftn(a, s, axes, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The FFT of a Hermitian-symmetric signal given by its first half (real output),
    as :func:`numpy.fft.hfft`."""
    a = _complex_input(a)
    return irfft(xnp.conj(a), n, axis, _swap(_check_norm(norm)), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The inverse of :func:`hfft`, as :func:`numpy.fft.ihfft`."""
    return xnp.conj(rfft(a, n, axis, _swap(_check_norm(norm)), out))


def fftfreq(n, d=1.0, *, device=None, dtype=None) -> ndarray:
    """The sample frequencies of an ``n``-point FFT, as :func:`numpy.fft.fftfreq`."""
    n = operator.index(n)
    k = xnp.concatenate([xnp.arange(0, (n - 1) // 2 + 1), xnp.arange(-(n // 2), 0)])
    r = k / (xnp.asarray(d) * n)
    return r if dtype is None else r.astype(dtype)


def rfftfreq(n, d=1.0, *, device=None, dtype=None) -> ndarray:
    """The sample frequencies of an ``n``-point :func:`rfft`, as
    :func:`numpy.fft.rfftfreq`."""
    n = operator.index(n)
    r = xnp.arange(0, n // 2 + 1) / (xnp.asarray(d) * n)
    return r if dtype is None else r.astype(dtype)


def fftshift(x, axes=None) -> ndarray:
    """Shift the zero frequency to the centre, as :func:`numpy.fft.fftshift`."""
    x = xnp.asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else \
        (axes,) if isinstance(axes, int) else tuple(axes)
    return xnp.roll(x, [x.shape[ax] // 2 for ax in axes], axes)


def ifftshift(x, axes=None) -> ndarray:
    """The inverse of :func:`fftshift`, as :func:`numpy.fft.ifftshift`."""
    x = xnp.asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else \
        (axes,) if isinstance(axes, int) else tuple(axes)
    return xnp.roll(x, [-(x.shape[ax] // 2) for ax in axes], axes)


def _store(result, out):
    if out is None:
        return result
    out[...] = result
    return out
