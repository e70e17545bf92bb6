"""numpy.lib.stride_tricks for xnp: windows and broadcasting as array values.

``sliding_window_view`` returns a new array holding every window (NumPy returns a
read-only view of the input); values, shapes and dtypes agree. ``as_strided`` reads its
input in the layout ``x.strides`` reports and gathers the addressed elements into a new
array.
"""

from __future__ import annotations

import operator
from typing import Sequence

import numpy as np

import xnp
from xnp._array import ndarray
from xnp._manipulation import broadcast_arrays, broadcast_shapes, broadcast_to  # noqa: F401
from xnp._util import normalize_axis
from xnp._writeable import read_only

__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays",
           "broadcast_shapes"]


def sliding_window_view(x, window_shape: int | Sequence[int], axis=None, *,
                        subok: bool = False, writeable: bool = False) -> ndarray:
    """Every window of ``window_shape`` over ``axis`` (all axes by default), as
    :func:`numpy.lib.stride_tricks.sliding_window_view`: the windowed axes shrink to
    ``n - w + 1`` and the window dimensions are appended, in ``window_shape``'s order.

    Differences from NumPy: the result is a new array (xnp has no views), so
    The result is read-only unless ``writeable=True`` (then it is a writeable copy).
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
    return out if writeable or not isinstance(out, ndarray) else read_only(out)


def as_strided(x, shape=None, strides=None, subok: bool = False,
               writeable: bool = True, *, offset: int = 0) -> ndarray:
    """An array of ``shape`` whose elements are read from ``x`` at byte ``strides``, as
    :func:`numpy.lib.stride_tricks.as_strided`, with ``x`` laid out as ``x.strides``
    reports (C order, or NumPy's layout of a transpose or strided slice).

    Element ``(i_0, ..., i_k)`` of the result is the element of ``x`` at byte ``offset +
    sum(i_j * strides[j])`` from its first one (for a C-ordered ``x``, ``x.ravel()[that
    // x.itemsize]``). ``shape`` defaults to ``x.shape``; ``strides`` defaults to
    ``x.strides`` (to the C-contiguous strides of the result's shape for another
    ``shape``). Zero strides repeat elements (broadcasting) and negative strides walk
    backwards.

    Differences from NumPy:

    * The result is a new array, not a view: writing to it does not change ``x`` (and
      writing to ``x`` does not change it). ``writeable`` is accepted for compatibility,
      but the result is always an ordinary writeable copy; ``subok`` has no effect (xnp
      has no array subclasses).
    * Offsets are checked: every element addressed must be an element of ``x``,
      otherwise ``ValueError`` is raised; NumPy reads whatever memory is there.
      Strides must be whole multiples of ``x.itemsize``, and ``shape`` and
      ``strides`` must have the same length.
    * NumPy starts at ``x``'s data pointer, which for a view such as ``a[k:]`` lies inside
      ``a``'s memory, so strides can reach elements of ``a`` outside ``x``. xnp does the
      same when ``x`` is an xnp view (basic indexing, ``.T``, ``reshape``) of a C-ordered
      array and the strides leave ``x``'s own elements; otherwise it reads only ``x``'s
      elements, starting at its first. The keyword-only ``offset`` (an xnp extension,
      in bytes like ``numpy.ndarray``'s ``offset``) moves the start: NumPy's
      ``as_strided(a[k:], shape, strides)`` is also xnp's ``as_strided(a, shape,
      strides, offset=k * a.itemsize)`` for a 1-d ``a``.

    It is a gather with constant indices, so it works under ``grad``, ``vmap`` and
    ``jit`` (``shape`` and ``strides`` must be plain integers).
    """
    x = xnp.asarray(x)
    itemsize = x.itemsize
    shape = tuple(x.shape) if shape is None else tuple(operator.index(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"as_strided: negative dimensions are not allowed in shape {shape}")
    if strides is None:
        strides = x.strides if shape == x.shape else _c_strides(shape, itemsize)
    strides = tuple(operator.index(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError(f"as_strided: shape {shape} and strides {strides} must have the "
                         f"same length (got {len(shape)} and {len(strides)})")
    bad = [s for s in strides if s % itemsize]
    if bad:
        raise ValueError(f"as_strided: strides {strides} must be multiples of the itemsize "
                         f"{itemsize} of dtype {x.dtype}; {bad[0]} is not")
    offset = operator.index(offset)
    if offset % itemsize:
        raise ValueError(f"as_strided: offset {offset} must be a multiple of the itemsize "
                         f"{itemsize} of dtype {x.dtype}")
    steps = [s // itemsize for s in strides]
    # The flat offsets are a constant: they depend only on the static shape, strides and
    # offset, never on x's values, so NumPy computes them.
    offsets = np.full(shape, offset // itemsize, dtype=np.intp)
    for axis, (n, step) in enumerate(zip(shape, steps)):
        pos = np.arange(n, dtype=np.intp) * step
        offsets = offsets + pos.reshape((n,) + (1,) * (len(shape) - axis - 1))
    root, memory = _root_memory(x)
    if root is not None and offsets.size and not _inside(offsets, x):
        # Beyond x's own elements but x is a view: read its base's memory around it, as
        # NumPy does (``as_strided(a[0, 1:], (2,), (4 * a.itemsize,))`` of a 3x3 ``a``).
        in_root = offsets + int(memory.flat[0])
        if int(in_root.min()) >= 0 and int(in_root.max()) < root.size:
            offsets, x = in_root, root
    if x.strides != _c_strides(x.shape, itemsize) and x.size > 1:
        offsets = _element_positions(offsets, x, strides, offset)
    elif offsets.size:
        lo, hi = int(offsets.min()), int(offsets.max())
        if lo < 0 or hi >= x.size:
            raise ValueError(f"as_strided: shape {shape} with strides {strides} (offset "
                             f"{offset}) addresses elements {lo} to {hi} of x, outside the "
                             f"{x.size} elements of x (offsets must lie in [0, {x.size}))")
    # Gather flat and reshape: a 0-d index would make take return a scalar, and NumPy's
    # as_strided gives a 0-d array.
    return xnp.reshape(xnp.take(xnp.ravel(x), offsets.ravel()), shape)


def _root_memory(x):
    """``(root, positions)`` for an ``x`` that is a view (basic indexing, ``.T``,
    ``reshape``) of a C-ordered array ``root`` of its dtype: ``positions`` holds the item
    offset in ``root``'s memory of each element of ``x``. ``(None, None)`` otherwise.
    Static work on shapes, never on values."""
    from xnp._views import ViewTransform, view_info
    keys, h = [], x
    while isinstance(h, ndarray) and view_info(h) is not None:
        h, key = view_info(h)
        keys.append(key)
    if not keys or h.dtype != x.dtype or \
            (h.strides != _c_strides(h.shape, h.itemsize) and h.size > 1):
        return None, None
    memory = np.arange(h.size, dtype=np.intp).reshape(h.shape)
    for key in reversed(keys):
        memory = key.numpy_view(memory) if isinstance(key, ViewTransform) else memory[key]
        if memory is None:
            return None, None
    return h, memory


def _inside(offsets, x) -> bool:
    """Whether every memory offset (in items, from x's first element) is one of x's."""
    if x.strides == _c_strides(x.shape, x.itemsize) or x.size <= 1:
        return int(offsets.min()) >= 0 and int(offsets.max()) < x.size
    try:
        _element_positions(offsets, x, (), 0)
    except ValueError:
        return False
    return True


def _element_positions(offsets, x, strides, offset):
    """Positions in ``x.ravel()`` of the elements at memory ``offsets`` (in items, from
    x's first element) of an ``x`` that is not C-contiguous (a transpose, a strided
    slice): x's own strides say where each of its elements lies. Static work on shapes
    and strides, never on values."""
    steps = [s // x.itemsize for s in x.strides]
    memory = np.zeros(x.shape, dtype=np.intp)
    for axis, (n, step) in enumerate(zip(x.shape, steps)):
        memory = memory + (np.arange(n, dtype=np.intp) * step).reshape(
            (n,) + (1,) * (x.ndim - axis - 1))
    memory = memory.ravel()
    order = np.argsort(memory, kind="stable")
    found = np.searchsorted(memory[order], offsets)
    hit = (found < memory.size) & (memory[order][np.minimum(found, memory.size - 1)]
                                    == offsets)
    if not hit.all():
        raise ValueError(f"as_strided: strides {strides} (offset {offset}) address memory "
                         f"outside the elements of x (shape {x.shape}, strides "
                         f"{x.strides}); xnp reads only x's own elements")
    return order[found]


def _c_strides(shape: tuple, itemsize: int) -> tuple:
    """The strides ``numpy.empty(shape)`` reports (all zero for an empty shape)."""
    if not all(shape):
        return (0,) * len(shape)
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))
