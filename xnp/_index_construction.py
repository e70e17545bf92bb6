"""NumPy's index construction: ix_, unravel_index, ravel_multi_index, the diagonal and
triangle index functions, and fill_diagonal (which rebinds the xnp array it is given and
returns None, as NumPy's modifies its argument in place)."""

from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from transforms.core import Tracer
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._index_update import assigned_value, update_value
from xnp._indexing_funcs import (
    _checked_nonneg,
    _cycled,
    _dims,
    _handle,
    _in_range,
    _iota,
    _nonzero_v,
    _prod,
    _ravel,
    _strides,
)
from xnp._util import broadcast_to_v, cast_v, dtype_of, raw, shape_of
from xnp._views import fresh, store_through
from xnp._writeable import check_writeable

__all__ = [
    "ix_", "unravel_index", "ravel_multi_index", "diag_indices", "diag_indices_from",
    "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from",
    "fill_diagonal",
]

_I64 = np.dtype(np.int64)


def ix_(*args) -> tuple:
    """Open-mesh index arrays: the i-th of k arrays has shape (1,..., n_i, ..., 1)."""
    k = len(args)
    out = []
    for i, arg in enumerate(args):
        v = raw(arg)
        if not isinstance(arg, (ndarray, np.ndarray)) and _prod(shape_of(v)) == 0:
            v = cast_v(v, _I64)
        if len(shape_of(v)) != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if dtype_of(v).kind == "b":
            (v,) = _nonzero_v(v, None, None, "xnp.ix_ with a boolean array")
        n = shape_of(v)[0]
        out.append(wrap(lax.reshape_p.bind(v, new_sizes=(1,) * i + (n,) + (1,) * (k - i - 1))))
    return tuple(out)


def unravel_index(indices, shape, order: str = "C") -> tuple:
    """Coordinates in an array of ``shape`` of the flat ``indices``; concrete indices out
    of range raise ValueError, traced ones are clamped."""
    dims = _dims(shape)
    idx = raw(indices)
    if dtype_of(idx).kind not in "iu":
        if isinstance(indices, (list, tuple)) and _prod(shape_of(idx)) == 0:
            raise TypeError("indices must be integral: the provided empty sequence was "
                            "inferred as float. Wrap it with 'np.array(indices, "
                            "dtype=np.intp)'")
        raise TypeError("only int indices permitted")
    if math.prod(dims) > np.iinfo(np.intp).max:
        raise ValueError("dimensions are too large; arrays and shapes with a total size "
                         "greater than 'intp' are not supported.")
    total = _prod(dims)
    strides = _strides(dims, order)
    if isinstance(idx, Tracer):
        if not dims and shape_of(idx):
            raise ValueError("multiple indices are not supported for 0d arrays")
        idx = _in_range(idx, total, "clip", "unravel_index")
    else:
        a = np.asarray(idx)
        bad = (a < 0) | (a >= total)
        if bad.any():
            raise ValueError(f"index {a[bad].flat[0]} is out of bounds for array with "
                             f"size {total}")
        if not dims and shape_of(idx):      # checked after the bounds, as NumPy
            raise ValueError("multiple indices are not supported for 0d arrays")
        idx = cast_v(idx, _I64)
    out = []
    for n, s in zip(dims, strides):
        c = lax.floor_divide_p.bind(idx, np.int64(max(s, 1)))
        out.append(wrap(lax.rem_p.bind(c, np.int64(max(n, 1)))))
    return tuple(out)


def ravel_multi_index(multi_index, dims, mode="raise", order: str = "C") -> ndarray:
    """Flat indices of the coordinate arrays ``multi_index`` in an array of ``dims``;
    ``mode`` ('raise', 'wrap', 'clip', or one per axis) treats out-of-range coordinates."""
    dims = _dims(dims)
    if math.prod(dims) > np.iinfo(np.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the "
                         "maximum possible size.")
    if any(isinstance(c, (list, tuple)) and len(c) == 0 for c in multi_index):
        raise TypeError("indices must be integral: the provided empty sequence was "
                        "inferred as float. Wrap it with 'np.array(indices, "
                        "dtype=np.intp)'")
    coords = [raw(c) for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("clipmode must have one entry per dimension")
    strides = _strides(dims, order)
    # NumPy broadcasts the coordinates before checking them: none is checked when the
    # broadcast result is empty.
    shape = np.broadcast_shapes(*(shape_of(c) for c in coords))
    if 0 in dims and _prod(shape):
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    coords = [broadcast_to_v(c, shape) for c in coords]
    total = None
    for c, n, md, s in zip(coords, dims, modes, strides):
        if dtype_of(c).kind not in "iu":
            raise TypeError("only int indices permitted")
        if md == "raise":
            c = _checked_nonneg(c, n, lambda: ValueError(
                "invalid entry in coordinates array"))
        else:
            c = _in_range(c, n, md, "ravel_multi_index")
        term = lax.mul_p.bind(c, np.int64(s)) if s != 1 else c
        total = term if total is None else lax.add_p.bind(total, term)
    if total is None:
        return wrap(np.int64(0))
    return wrap(cast_v(total, _I64))


def diag_indices(n: int, ndim: int = 2) -> tuple:
    """``ndim`` copies of ``arange(n)``: the indices of the main diagonal."""
    idx = _iota(operator.index(n))
    return tuple(wrap(idx) for _ in range(ndim))


def diag_indices_from(arr) -> tuple:
    """The main diagonal indices of a square (n, n, ..., n) array."""
    shape = shape_of(raw(arr))
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


def _tri_indices(n, k, m, upper: bool) -> tuple:
    # Static: the result depends only on Python ints.
    n, k = operator.index(n), operator.index(k)
    m = n if m is None else operator.index(m)
    rows = np.arange(n)[:, None]
    cols = np.arange(m)[None, :]
    keep = cols - rows >= k if upper else cols - rows <= k
    r, c = np.nonzero(keep)
    return wrap(r.astype(_I64)), wrap(c.astype(_I64))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple:
    """Row and column indices of the lower triangle (diagonal ``k``) of an (n, m) array."""
    return _tri_indices(n, k, m, upper=False)


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple:
    """Row and column indices of the upper triangle (diagonal ``k``) of an (n, m) array."""
    return _tri_indices(n, k, m, upper=True)


def _shape_2d(arr) -> tuple:
    shape = shape_of(raw(arr))
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr, k: int = 0) -> tuple:
    """:func:`tril_indices` for the shape of the 2-d ``arr``."""
    n, m = _shape_2d(arr)
    return tril_indices(n, k, m)


def triu_indices_from(arr, k: int = 0) -> tuple:
    """:func:`triu_indices` for the shape of the 2-d ``arr``."""
    n, m = _shape_2d(arr)
    return triu_indices(n, k, m)


def fill_diagonal(a, val, wrap: builtins.bool = False) -> None:
    """Set the main diagonal of the xnp array ``a`` to ``val`` (repeated as needed), in
    place. For tall 2-d arrays ``wrap=True`` continues the diagonal below, as NumPy."""
    a = _handle(a, "fill_diagonal")
    fresh(a)
    shape = a.shape
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) == 2:
        step = shape[1] + 1
        end = a.size if wrap else min(a.size, shape[1] * shape[1])
    else:
        if len(set(shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.sum(np.cumprod(shape[:-1])))
        end = a.size
    positions = np.arange(0, end, step)
    vals = _ravel(assigned_value(val, a.dtype))
    if not positions.size or not shape_of(vals)[0]:
        return
    new = update_value(_ravel(a._value), (positions,), _cycled(vals, positions.size))
    check_writeable(a)
    store_through(a, lax.reshape_p.bind(new, new_sizes=shape))
