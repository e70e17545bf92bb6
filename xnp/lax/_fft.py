"""``fft``: XLA's FFT operation as one primitive, with all its rules.

``fft_p.bind(x, fft_type=..., fft_lengths=...)`` transforms the trailing
``len(fft_lengths)`` axes of ``x``, as XLA's FFT: "FFT" (complex to complex, forward,
unscaled), "IFFT" (complex to complex, inverse, scaled by 1/N), "RFFT" (real to complex,
the last axis keeping n // 2 + 1 frequencies) and "IRFFT" (its inverse, complex to real
with last axis fft_lengths[-1], scaled by 1/N). Operands are of the right type already
(the xnp.fft functions convert); the transform runs in the operand's precision, as
NumPy 2's pocketfft does (complex64 in, complex64 out).
"""

from __future__ import annotations

import math

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import primitive

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}
_REAL_OF = {c: r for r, c in _COMPLEX_OF.items()}
_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")


def _fft_eval(x, *, fft_type, fft_lengths):
    k = len(fft_lengths)
    if fft_type not in _TYPES:
        raise ValueError(f"fft: unknown fft_type {fft_type!r}")
    if x.ndim < k:
        raise ValueError(f"fft: operand of rank {x.ndim} has fewer than {k} axes")
    lead, tail = x.shape[:-k] if k else x.shape, x.shape[x.ndim - k:]
    if fft_type == "RFFT":
        if x.dtype not in _COMPLEX_OF or tuple(tail) != tuple(fft_lengths):
            raise TypeError(f"fft: RFFT takes a real operand of trailing shape "
                            f"{fft_lengths}, got {x.str_short()}")
        return ShapedArray((*lead, *fft_lengths[:-1], fft_lengths[-1] // 2 + 1),
                           _COMPLEX_OF[x.dtype])
    if x.dtype not in _REAL_OF:
        raise TypeError(f"fft: {fft_type} takes a complex operand, got {x.str_short()}")
    if fft_type == "IRFFT":
        expect = (*fft_lengths[:-1], fft_lengths[-1] // 2 + 1)
        if tuple(tail) != expect:
            raise TypeError(f"fft: IRFFT of lengths {fft_lengths} takes trailing shape "
                            f"{expect}, got {x.str_short()}")
        return ShapedArray((*lead, *fft_lengths), _REAL_OF[x.dtype])
    if tuple(tail) != tuple(fft_lengths):
        raise TypeError(f"fft: {fft_type} of lengths {fft_lengths} takes trailing shape "
                        f"{fft_lengths}, got {x.str_short()}")
    return ShapedArray(x.shape, x.dtype)


def _fft_impl(x, *, fft_type, fft_lengths):
    x = np.asarray(x)
    k = len(fft_lengths)
    axes = tuple(range(x.ndim - k, x.ndim))
    out_dtype = _fft_eval(ShapedArray(x.shape, x.dtype), fft_type=fft_type,
                          fft_lengths=fft_lengths).dtype
    if k == 0 or 0 in x.shape:
        shape = _fft_eval(ShapedArray(x.shape, x.dtype), fft_type=fft_type,
                          fft_lengths=fft_lengths).shape
        return np.zeros(shape, out_dtype)
    fn = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn,
          "IRFFT": np.fft.irfftn}[fft_type]
    return np.asarray(fn(x, s=fft_lengths, axes=axes), dtype=out_dtype)


fft_p = primitive("fft", impl=_fft_impl, abstract_eval=_fft_eval)

__all__ = ["fft_p"]


# --- derivatives: linear; transposes under the bilinear pairing Re(sum(u * v)) ---------------
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import deflinear  # noqa: E402
from xnp.lax._elementwise import conj_p, mul_p, real_p  # noqa: E402
from xnp.lax._structural import pad_p  # noqa: E402


def _fft_transpose(ct, x, *, fft_type, fft_lengths):
    if fft_type in ("FFT", "IFFT"):       # the DFT matrix is symmetric
        return [fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths)]
    nd = get_aval(ct).ndim
    if fft_type == "RFFT":
        # <ct, P F x> = <Re(F P^T ct), x> for real x: zero-pad ct to the full length.
        missing = fft_lengths[-1] - get_aval(ct).shape[-1]
        zero = np.zeros((), get_aval(ct).dtype)
        padded = pad_p.bind(ct, zero, padding_config=((0, 0, 0),) * (nd - 1)
                            + ((0, missing, 0),))
        return [real_p.bind(fft_p.bind(padded, fft_type="FFT", fft_lengths=fft_lengths))]
    # IRFFT: the rfft of ct, doubled where a frequency stands for itself and its mirror
    # image, scaled by 1/N; conjugated, as the pairing requires (JAX's convention).
    x = fft_p.bind(ct, fft_type="RFFT", fft_lengths=fft_lengths)
    m = get_aval(x).shape[-1]
    weights = np.full(m, 2.0)
    weights[0] = 1.0
    if fft_lengths[-1] % 2 == 0:
        weights[-1] = 1.0
    weights = (weights / math.prod(fft_lengths)).astype(_REAL_OF[get_aval(x).dtype])
    return [conj_p.bind(mul_p.bind(x, weights))]


deflinear(fft_p, _fft_transpose)


# --- batching and lowering ------------------------------------------------------------------
from xnp.lax._batch_util import moveaxis_v  # noqa: E402


def _fft_batch(vals, dims, *, fft_type, fft_lengths):
    (x,), (d,) = vals, dims
    return fft_p.bind(moveaxis_v(x, d, 0), fft_type=fft_type, fft_lengths=fft_lengths), 0


_XLA_MAX_FFT_RANK = 3       # stablehlo.fft transforms at most three trailing axes


def _fft_op(ctx, x, fft_type, lengths):
    """One stablehlo.fft on the trailing ``len(lengths)`` (at most three) axes of ``x``."""
    out = _fft_eval(ShapedArray(x.shape, x.dtype), fft_type=fft_type, fft_lengths=lengths)
    text = ", ".join(str(int(n)) for n in lengths)
    return ctx.op("stablehlo.fft", [x], (out.shape, out.dtype),
                  {"fft_type": f"#stablehlo<fft_type {fft_type}>",
                   "fft_length": f"array<i64: {text}>"})


def _complex_fft_on_axes(ctx, x, axes, fft_type):
    """FFT or IFFT of complex ``x`` along ``axes`` (at most three): moved last and back."""
    rest = [d for d in range(len(x.shape)) if d not in axes]
    perm = rest + list(axes)
    inv = [perm.index(d) for d in range(len(perm))]

    def transpose(v, p):
        if p == sorted(p):
            return v
        shape = tuple(v.shape[d] for d in p)
        return ctx.op("stablehlo.transpose", [v], (shape, v.dtype),
                      {"permutation": f"array<i64: {', '.join(map(str, p))}>"})
    moved = transpose(x, perm)
    return transpose(_fft_op(ctx, moved, fft_type, tuple(moved.shape[-len(axes):])), inv)


def _fft_lower(ctx, x, *, fft_type, fft_lengths):
    out = ctx.avals_out[0]
    if not fft_lengths or 0 in x.shape:
        return ctx.full(out.shape, 0, out.dtype)
    k, r = len(fft_lengths), _XLA_MAX_FFT_RANK
    if k <= r:
        return _fft_op(ctx, x, fft_type, tuple(fft_lengths))
    # More axes than XLA takes at once: the transform is separable, so the trailing three
    # axes go in one operation (the real-valued step for RFFT/IRFFT) and the leading ones
    # in complex FFT/IFFT steps of up to three axes each (before IRFFT, after RFFT).
    nd = len(x.shape)
    lead = list(range(nd - k, nd - r))
    groups = [tuple(lead[i:i + r]) for i in range(0, len(lead), r)]
    if fft_type == "IRFFT":
        for axes in groups:
            x = _complex_fft_on_axes(ctx, x, axes, "IFFT")
        return _fft_op(ctx, x, "IRFFT", tuple(fft_lengths[-r:]))
    step = "FFT" if fft_type == "RFFT" else fft_type
    x = _fft_op(ctx, x, fft_type, tuple(fft_lengths[-r:]))
    for axes in groups:
        x = _complex_fft_on_axes(ctx, x, axes, step)
    return x


fft_p.batch = _fft_batch
fft_p.lower = _fft_lower
