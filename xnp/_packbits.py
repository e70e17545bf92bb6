"""packbits and unpackbits: bits packed into uint8 along an axis and back, from
primitives (shifts, masks and a weighted sum), with NumPy's bit orders, padding and
``count``."""

from __future__ import annotations

import operator

import numpy as np

import xnp
from xnp._array import ndarray
from xnp._util import normalize_axis

__all__ = ["packbits", "unpackbits"]


def _bit_weights(bitorder, name: str) -> np.ndarray:
    """The shift of each of a byte's 8 bits, in ``bitorder``. As NumPy: a non-string is
    a TypeError; ``unpackbits`` reads only the first letter ('b' or 'l')."""
    if not isinstance(bitorder, str):
        raise TypeError(f"{name}() argument 'bitorder' must be str, not "
                        f"{type(bitorder).__name__}")
    if name == "unpackbits":
        if bitorder[:1] not in ("b", "l"):
            raise ValueError("'order' must begin with 'l' or 'b'")
        big = bitorder[0] == "b"
    else:
        if bitorder not in ("big", "little"):
            raise ValueError("'order' must be either 'little' or 'big'")
        big = bitorder == "big"
    shifts = np.arange(8, dtype=np.uint8)
    return shifts[::-1] if big else shifts


def _along_last(a: ndarray, axis):
    if axis is None:
        return xnp.ravel(a), None
    axis = normalize_axis(axis, a.ndim)
    return xnp.moveaxis(a, axis, -1), axis


def packbits(a, axis: int | None = None, bitorder: str = "big") -> ndarray:
    """Pack the truth of ``a``'s elements into the bits of uint8 values along ``axis``
    (the flattened array by default), as :func:`numpy.packbits`; the last byte is padded
    with zero bits."""
    a = xnp.asarray(a)
    axis = None if axis is None else operator.index(axis)
    shifts = _bit_weights(bitorder, "packbits")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    if a.ndim == 0:             # NumPy treats a 0-d input as 1-d
        a = xnp.reshape(a, (1,))
    x, axis = _along_last(a != 0, axis)
    n = x.shape[-1]
    pad = -n % 8
    x = xnp.pad(x.astype(np.uint8), [(0, 0)] * (x.ndim - 1) + [(0, pad)])
    x = xnp.reshape(x, x.shape[:-1] + ((n + pad) // 8, 8))
    packed = xnp.sum(xnp.left_shift(x, shifts), axis=-1, dtype=np.uint8)
    return packed if axis is None else xnp.moveaxis(packed, -1, axis)


def unpackbits(a, axis: int | None = None, count: int | None = None,
               bitorder: str = "big") -> ndarray:
    """The bits of uint8 ``a`` along ``axis`` (the flattened array by default) as 0/1
    uint8 values, as :func:`numpy.unpackbits`; ``count`` keeps that many bits (negative:
    drops that many from the end; more than there are: pads with zeros)."""
    a = xnp.asarray(a)
    axis = None if axis is None else operator.index(axis)
    shifts = _bit_weights(bitorder, "unpackbits")
    if a.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if a.ndim == 0:             # NumPy treats a 0-d input as 1-d
        a = xnp.reshape(a, (1,))
    x, axis = _along_last(a, axis)
    count = None if count is None else operator.index(count)
    bits = xnp.bitwise_and(xnp.right_shift(x[..., None], shifts), np.uint8(1))
    bits = xnp.reshape(bits, x.shape[:-1] + (x.shape[-1] * 8,))
    if count is not None:
        total = bits.shape[-1]
        if count < 0 and -count > total:
            raise ValueError("-count larger than number of elements")
        keep = count if count >= 0 else total + count
        if keep <= total:
            bits = bits[..., :keep]
        else:
            bits = xnp.pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, keep - total)])
    return bits if axis is None else xnp.moveaxis(bits, -1, axis)
