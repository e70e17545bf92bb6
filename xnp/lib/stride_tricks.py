"""numpy.lib.stride_tricks for xnp: windows and broadcasting as array values.

xnp arrays have no strides, so ``sliding_window_view`` returns a new array holding every
window (NumPy returns a read-only view of the input); values, shapes and dtypes agree.
``as_strided`` (raw memory arithmetic) has no xnp equivalent.
"""

from __future__ import annotations

import operator
from typing import Sequence

import xnp
from xnp._array import ndarray
from xnp._manipulation import broadcast_arrays, broadcast_shapes, broadcast_to  # noqa: F401
from xnp._util import normalize_axis

__all__ = ["sliding_window_view", "broadcast_to", "broadcast_arrays", "broadcast_shapes"]


def sliding_window_view(x, window_shape: int | Sequence[int], axis=None, *,
                        subok: bool = False, writeable: bool = False) -> ndarray:
    """Every window of ``window_shape`` over ``axis`` (all axes by default), as
    :func:`numpy.lib.stride_tricks.sliding_window_view`: the windowed axes shrink to
    ``n - w + 1`` and the window dimensions are appended, in ``window_shape``'s order.

    Differences from NumPy: the result is a new array (xnp has no views), so
    ``writeable`` has no effect beyond NumPy's argument check.
    """
    x = xnp.asarray(x)
    window = (tuple(operator.index(w) for w in window_shape)
              if isinstance(window_shape, (tuple, list)) else (operator.index(window_shape),))
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window) != x.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(window)} window_shape elements "
                             f"and `x.ndim` is {x.ndim}.")
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if len(window) != len(axes):
            raise ValueError(f"Must provide matching length window_shape and axis; got "
                             f"{len(window)} window_shape elements and {len(axes)} axes "
                             "elements.")
        axes = tuple(normalize_axis(a, x.ndim) for a in axes)
    sizes = list(x.shape)
    for ax, w in zip(axes, window):
        if sizes[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        sizes[ax] -= w - 1
    out = x
    for ax, w in zip(axes, window):
        # Along ``ax`` (currently of length starts + w - 1): gather a (starts, w) grid of
        # positions; the window dimension lands right after ``ax``, then moves to the end.
        starts = out.shape[ax] - w + 1
        idx = xnp.arange(starts)[:, None] + xnp.arange(w)[None, :]
        out = xnp.take(out, idx, axis=ax)
        out = xnp.moveaxis(out, ax + 1, -1)
    return out
