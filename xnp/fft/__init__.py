"""xnp.fft: numpy.fft's discrete Fourier transforms, on the one primitive ``fft_p``.

Each function moves the transformed axes last, crops or zero-pads them to the requested
lengths, binds ``fft_p`` (XLA's FFT: it differentiates, batches and compiles) and scales
for ``norm`` ("backward", "ortho" or "forward"). Dtypes follow NumPy 2: float32 and
complex64 transform in single precision, other inputs in double.
"""

from __future__ import annotations

import math
import operator
import warnings

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


def _complex_dtype(dtype):
    """The dtype NumPy 2 transforms ``dtype`` in: single precision for float16, float32
    and complex64 (``result_type(dtype, 1j)``), double otherwise."""
    return np.dtype(np.complex64 if dtype.type in (np.float16, np.float32, np.complex64)
                    else np.complex128)


def _complex_input(a):
    a = xnp.asarray(a)
    return a.astype(_complex_dtype(a.dtype))


def _real_input(a):
    a = xnp.asarray(a)
    if a.dtype.kind == "c":
        raise TypeError(f"x must be a real sequence, got {a.dtype}")
    return a.astype(_complex_dtype(a.dtype).type(0).real.dtype)


def _cook_nd_args(a, s, axes, invreal=False):
    """NumPy's defaults for ``s`` and ``axes`` of the n-dimensional transforms: ``s``
    defaults to the input's lengths (``2 * (m - 1)`` on the last axis of an inverse real
    transform), ``axes`` to the last ``len(s)`` axes; ``-1`` in ``s`` means the input's
    length, ``None`` the 1-D transform's default (deprecated in NumPy 2)."""
    shapeless = s is None
    if axes is not None:
        axes = [operator.index(ax) for ax in axes]
    if s is None:
        s = list(a.shape) if axes is None else [a.shape[ax] for ax in axes]
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in "
                          "NumPy 2.0).", DeprecationWarning, stacklevel=3)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if any(n is None for n in s):
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in "
                      "NumPy 2.0.", DeprecationWarning, stacklevel=3)
    s = [a.shape[ax] if n is not None and n == -1 else n for n, ax in zip(s, axes)]
    return s, axes


def _resolve(a, s, axes, invreal=False):
    """Axes in range and lengths checked, ``None`` lengths replaced by the 1-D default."""
    nd = a.ndim
    out_axes, out_s = [], []
    # checked last axis first, the order NumPy transforms (and so validates) them in
    for i, (ax, n) in reversed(list(enumerate(zip(axes, s)))):
        if not -nd <= ax < nd:
            raise AxisError(ax, nd)
        ax %= nd
        if n is None:
            n = 2 * (a.shape[ax] - 1) if invreal and i == len(axes) - 1 else a.shape[ax]
        n = operator.index(n)
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
        out_axes.insert(0, ax)
        out_s.insert(0, n)
    return tuple(out_axes), tuple(out_s)


def _fit_axis(a, axis, n):
    """Crop or zero-pad ``a`` along ``axis`` to length ``n``."""
    have = a.shape[axis]
    if have > n:
        return a[(slice(None),) * axis + (slice(0, n),)]
    if have < n:
        pad = [(0, 0)] * a.ndim
        pad[axis] = (0, n - have)
        return xnp.pad(a, pad)
    return a


def _factor(norm, forward, n, dtype):
    """NumPy's scale factor for one axis of ``n`` points, computed in ``dtype`` (NumPy
    swaps the norm for the inverse transforms), relative to fft_p's own scaling (1/n for
    the inverse transforms)."""
    norm = norm if forward else _swap(norm)
    if norm == "backward":
        f = 1.0
    elif not forward and norm == "forward" and dtype != np.float16:
        return 1.0              # exactly fft_p's 1/n (NumPy's float16 1/n is rounded)
    elif norm == "ortho":
        f = float(np.reciprocal(np.sqrt(n, dtype=dtype)))
    else:
        f = float(np.reciprocal(n, dtype=dtype))
    return f if forward else f * n


def _transform(a, axes, in_lengths, fft_lengths, fft_type, norm, forward, first=0,
               first_dtype=None):
    """Move ``axes`` last, fit them to ``in_lengths``, bind fft_p, scale, move back.

    NumPy computes each axis's scale factor in the real dtype of the array that axis's
    1-D transform receives: ``first_dtype`` for ``axes[first]`` (the axis it transforms
    first, whose input may still be float16), the working precision for the others."""
    k = len(axes)
    for ax, n in zip(axes, in_lengths):
        a = _fit_axis(a, ax, n)
    last = tuple(range(a.ndim - k, a.ndim))
    moved = xnp.moveaxis(a, axes, last)
    out = wrap(lax.fft_p.bind(raw(moved), fft_type=fft_type, fft_lengths=fft_lengths))
    real = out.real.dtype
    scale = math.prod(_factor(norm, forward, n, first_dtype if i == first % k and
                              first_dtype is not None else real)
                      for i, n in enumerate(fft_lengths))
    if scale != 1.0:
        out = out * np.asarray(scale, dtype=real)
    return xnp.moveaxis(out, last, axes)


def _repeated(axes):
    return len(set(axes)) != len(axes)


def _real_dtype(dtype):
    """``result_type(dtype.real, 1.0)``: the precision NumPy scales an input in."""
    return np.dtype(dtype.type(0).real.dtype if dtype.kind in "fc" else np.float64)


def fftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The n-dimensional discrete Fourier transform, as :func:`numpy.fft.fftn`."""
    a = xnp.asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    if not axes:
        return a               # NumPy transforms nothing and leaves out alone
    rd, norm = _real_dtype(a.dtype), _check_norm(norm)
    axes, s = _resolve(a, s, axes)
    _check_out_steps(a.shape, axes, s, out, dtype=_complex_dtype(a.dtype))
    a = _complex_input(a)
    if _repeated(axes):        # NumPy transforms axis by axis, the last first
        for ax, n in reversed(list(zip(axes, s))):
            a = _transform(a, (ax,), (n,), (n,), "FFT", norm, True, 0, rd)
            rd = None
        return _store(a, out, "fft")
    return _store(_transform(a, axes, s, s, "FFT", norm, True, -1, rd), out, "fft")


def ifftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The n-dimensional inverse discrete Fourier transform, as :func:`numpy.fft.ifftn`."""
    a = xnp.asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    if not axes:
        return a               # NumPy transforms nothing and leaves out alone
    rd, norm = _real_dtype(a.dtype), _check_norm(norm)
    axes, s = _resolve(a, s, axes)
    _check_out_steps(a.shape, axes, s, out, dtype=_complex_dtype(a.dtype), name="ifft")
    a = _complex_input(a)
    if _repeated(axes):
        for ax, n in reversed(list(zip(axes, s))):
            a = _transform(a, (ax,), (n,), (n,), "IFFT", norm, False, 0, rd)
            rd = None
        return _store(a, out, "ifft")
    return _store(_transform(a, axes, s, s, "IFFT", norm, False, -1, rd), out, "ifft")


def rfftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The n-dimensional FFT of real input (last axis halved), as
    :func:`numpy.fft.rfftn`."""
    a = xnp.asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    if not axes:
        raise IndexError("rfftn needs at least one axis")
    rd, norm = _real_dtype(a.dtype), _check_norm(norm)
    _resolve(a, s[-1:], axes[-1:])     # NumPy rejects complex input after the last axis's checks
    a = _real_input(a)
    axes, s = _resolve(a, s, axes)
    _check_out_steps(a.shape, axes, s, out, half_last=True, dtype=_complex_dtype(a.dtype),
                     name="rfft")
    if _repeated(axes):        # rfft on the last axis, then fft on the others
        a = _transform(a, axes[-1:], s[-1:], s[-1:], "RFFT", norm, True, 0, rd)
        for ax, n in reversed(list(zip(axes[:-1], s[:-1]))):
            a = _transform(a, (ax,), (n,), (n,), "FFT", norm, True)
        return _store(a, out, "rfft")
    return _store(_transform(a, axes, s, s, "RFFT", norm, True, -1, rd), out, "rfft")


def irfftn(a, s=None, axes=None, norm=None, out=None) -> ndarray:
    """The inverse of :func:`rfftn`, as :func:`numpy.fft.irfftn` (the last axis has
    ``s[-1]`` points, by default ``2 * (m - 1)``)."""
    a = xnp.asarray(a)
    s, axes = _cook_nd_args(a, s, axes, invreal=True)
    if not axes:
        raise IndexError("irfftn needs at least one axis")
    rd, norm = _real_dtype(a.dtype), _check_norm(norm)
    # float16 input gives float16 output only where irfft receives it directly
    half = rd == np.float16 and len(axes) == 1
    a = _complex_input(a)
    axes, s = _resolve(a, s, axes, invreal=True)
    if _repeated(axes):        # ifft on all but the last axis, then irfft on it
        for ax, n in zip(axes[:-1], s[:-1]):
            a = _transform(a, (ax,), (n,), (n,), "IFFT", norm, False, 0, rd)
            rd = None
        axes, s = axes[-1:], s[-1:]
    in_lengths = (*s[:-1], s[-1] // 2 + 1)
    r = _transform(a, axes, in_lengths, s, "IRFFT", norm, False, 0, rd)
    return _store(r.astype(np.float16) if half else r, out, "irfft", axes[-1])


def _one_axis(fn, a, n, axis, norm, out):
    axis = operator.index(axis)
    a = xnp.asarray(a)
    if not -a.ndim <= axis < a.ndim:
        raise AxisError(axis, a.ndim)
    if n is None:              # the n-dimensional default for this axis
        return fn(a, None, [axis], norm, out)
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return fn(a, [n], [axis], norm, out)


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
    a = xnp.asarray(a)
    _default_length_axis(a, n, axis)
    return irfft(xnp.conj(a), n, axis, _swap(_check_norm(norm)), out)


def _default_length_axis(a, n, axis):
    """NumPy's hfft and ihfft read ``a.shape[axis]`` for a default ``n`` before checking
    ``norm``: an out-of-range axis is an IndexError first."""
    if n is None and not -a.ndim <= operator.index(axis) < a.ndim:
        raise AxisError(axis, a.ndim)


def ihfft(a, n=None, axis=-1, norm=None, out=None) -> ndarray:
    """The inverse of :func:`hfft`, as :func:`numpy.fft.ihfft`."""
    a = xnp.asarray(a)
    _default_length_axis(a, n, axis)
    r = rfft(a, n, axis, _swap(_check_norm(norm)))
    if out is not None:
        _check_out(out)
    return _store(xnp.conj(r), out, "rfft", operator.index(axis))


def _check_n(n, negative_ok=False):
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")
    if n < 0 and not negative_ok:
        raise ValueError("negative dimensions are not allowed")
    return int(n)


def fftfreq(n, d=1.0, device=None, *, dtype=None) -> ndarray:
    """The sample frequencies of an ``n``-point FFT, as :func:`numpy.fft.fftfreq`
    (``dtype`` as in the array API)."""
    n = _check_n(n)
    val = 1.0 / (n * d)
    k = xnp.concatenate([xnp.arange(0, (n - 1) // 2 + 1), xnp.arange(-(n // 2), 0)])
    r = k * val
    return r if dtype is None else r.astype(dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None) -> ndarray:
    """The sample frequencies of an ``n``-point :func:`rfft`, as
    :func:`numpy.fft.rfftfreq`."""
    n = _check_n(n, negative_ok=True)      # NumPy: no frequencies for n < 0
    val = 1.0 / (n * d)
    r = xnp.arange(0, max(n // 2 + 1, 0)) * val
    return r if dtype is None else r.astype(dtype)


def _shifts(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        return sign * (x.shape[axes] // 2), int(axes)
    else:
        axes = tuple(operator.index(ax) for ax in axes)
    return [sign * (x.shape[ax] // 2) for ax in axes], axes


def fftshift(x, axes=None) -> ndarray:
    """Shift the zero frequency to the centre, as :func:`numpy.fft.fftshift`."""
    x = xnp.asarray(x)
    return xnp.roll(x, *_shifts(x, axes, 1))


def ifftshift(x, axes=None) -> ndarray:
    """The inverse of :func:`fftshift`, as :func:`numpy.fft.ifftshift`."""
    x = xnp.asarray(x)
    return xnp.roll(x, *_shifts(x, axes, -1))


def _check_out(out):
    if not isinstance(out, (ndarray, np.ndarray)):
        raise TypeError("return arrays must be of ArrayType")


def _check_out_steps(shape, axes, s, out, half_last=False, dtype=None, name="fft"):
    """NumPy writes every 1-D step of an n-dimensional transform into ``out``: each
    step's shape (the last axis first) must be ``out``'s. As in NumPy's gufunc, a wrong
    length of the first step's transformed axis comes first, then a result ``dtype``
    that ``out`` cannot take (TypeError), then any other shape mismatch."""
    if out is None:
        return
    _check_out(out)
    n_last = s[-1] // 2 + 1 if half_last else s[-1]
    if out.ndim != len(shape) or out.shape[axes[-1]] != n_last:
        raise ValueError("output array has wrong shape.")
    if dtype is not None and not np.can_cast(dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {np.dtype(dtype)!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    shape = list(shape)
    for i in reversed(range(len(axes))):
        shape[axes[i]] = s[i] // 2 + 1 if half_last and i == len(axes) - 1 else s[i]
        if tuple(shape) != tuple(out.shape):
            raise ValueError("output array has wrong shape.")


def _store(result, out, name="fft", axis=None):
    """``result`` written into ``out`` (same shape; same-kind casting), as NumPy's
    ``out=``; ``result`` itself without ``out``. With the last transformed ``axis``
    given, checks in NumPy's gufunc order: ``out``'s dimensions and that axis's length,
    then the casting, then the other lengths."""
    if out is None:
        return result
    _check_out(out)
    if axis is not None and (out.ndim != result.ndim or out.shape[axis] != result.shape[axis]):
        raise ValueError("output array has wrong shape.")
    if axis is not None and not np.can_cast(result.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError("output array has wrong shape.")
    if not np.can_cast(result.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    out[...] = result
    return out
