"""Shape manipulation: reshaping, axes, broadcasting, flips, rolls, tiling and repeating.

Joining and splitting (concatenate, stack, split, block, insert, delete, ...) live in
``xnp._joining`` and padding in ``xnp._padding``; both are re-exported from here. Every
function translates NumPy's arguments to the explicit shapes of the structural primitives
(reshape, transpose, broadcast_in_dim, rev, slice, concatenate, gather).
"""

from __future__ import annotations

import math
import operator

import numpy as np

from transforms.core import Tracer, concrete_or_error
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._layout import keep_order_axes, order_letter, resolve_order
from xnp._shapes import (
    atleast_v,
    check_nonnegative,
    concat_v,
    flatten_v,
    reshape_v,
    shape_arg,
    shape_v,
    slice_axis_v,
    take_v,
    transpose_v,
    value,
)
from xnp._util import (
    axis_of_0d_as_1d,
    broadcast_to_v,
    cast_v,
    dtype_of,
    normalize_axis,
    normalize_axis_tuple,
    numpy_shape_text,
    raw,
)
from xnp._views import eager_reshape, eager_T, reshape_view, transpose_view
from xnp._writeable import read_only

__all__ = [
    "reshape", "ravel", "transpose", "permute_dims", "matrix_transpose", "moveaxis",
    "rollaxis", "swapaxes", "squeeze", "expand_dims", "broadcast_to", "broadcast_arrays",
    "broadcast_shapes", "flip", "fliplr", "flipud", "roll", "rot90", "tile", "repeat",
    "atleast_1d", "atleast_2d", "atleast_3d", "resize",
]


def _order(order, allowed=("C", "F", "A", "K"), what="order", v=None) -> str:
    """'C' or 'F': the index order ``order`` means for value ``v`` ('A' and 'K' read a
    Fortran-ordered array in Fortran order, as NumPy)."""
    order = order_letter(order, "C")
    if order not in allowed:
        raise ValueError(f"order {order!r} is not permitted for {what}")
    return resolve_order(v, order) if order in ("A", "K") and v is not None else \
        "F" if order == "F" else "C"


# --- shapes and axes --------------------------------------------------------------------------
def _infer_shape(size: int, shape: tuple) -> tuple:
    unknown = [i for i, d in enumerate(shape) if d < 0]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    known = 1
    for d in shape:
        known *= d if d >= 0 else 1
    if unknown:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape "
                             f"{_shape_str(shape)}")
        shape = tuple(size // known if d < 0 else d for d in shape)
    elif known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape "
                         f"{_shape_str(shape)}")
    return shape


def _shape_str(shape) -> str:
    """The shape as NumPy's reshape error prints it (leading -1s left out, later ones
    as 'newaxis')."""
    lead = 0
    while lead < len(shape) and shape[lead] < 0:
        lead += 1
    return numpy_shape_text(shape, ["newaxis" if d < 0 else str(d) for d in shape[lead:]])


def reshape(a, /, shape=None, order: str = "C", *, copy: bool | None = None) -> ndarray:
    """Give a new shape to an array without changing its data, as :func:`numpy.reshape`.

    One dimension may be -1 (inferred). ``order='F'`` reads and writes in Fortran order,
    'A' does for a Fortran-ordered array. ``copy=False`` raises NumPy's ValueError where
    the strided data would need a copy.
    """
    if shape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    v = value(a)
    if type(v) is np.ndarray and order == "C" and copy is None and type(shape) is tuple \
            and all(type(d) is int for d in shape):
        # the common eager call: NumPy's reshape is reshape_p's implementation
        if type(a) is ndarray and v.flags.c_contiguous:
            out = eager_reshape(a, v, shape)
            if out is not None:
                return out
        else:
            try:
                r = v.reshape(shape)
            except ValueError:
                r = None                # the general path raises NumPy's error
            if r is not None and r.shape != v.shape:
                return reshape_view(wrap(r), a)
    shape = shape_arg(shape, "reshape")
    size = math.prod(shape_v(v))
    order = _order(order, ("C", "F", "A"), "reshaping", v)
    shape = _infer_shape(size, shape)
    if copy is False:
        from xnp._layout import numpy_value, reshape_needs_copy
        probe, target = v, shape
        if order == "F":    # Fortran order: the C-order reshape of the reversed axes
            a = numpy_value(v)
            probe, target = (v if a is None else a.T), shape[::-1]
        if reshape_needs_copy(probe, target):
            raise ValueError("Unable to avoid creating a copy while reshaping.")
    out = wrap(reshape_v(v, shape, order))
    if copy:
        return out.copy()
    return reshape_view(out, a, order)


def ravel(a, order: str = "C") -> ndarray:
    """The flattened array, as :func:`numpy.ravel`: in Fortran order for ``order='F'``,
    and for 'A' and 'K' when ``a`` is Fortran-ordered; 'K' reads other strided layouts
    of a concrete array in the order of their strides, as NumPy (traced arrays are read
    in C order)."""
    v = value(a)
    if order_letter(order, "C") == "K":
        perm = keep_order_axes(v)
        if perm is not None:    # a copy (NumPy's is a view when the layout allows)
            return wrap(reshape_v(transpose_v(v, perm), (math.prod(shape_v(v)),)))
    order = _order(order, v=v)
    out = wrap(reshape_v(v, (math.prod(shape_v(v)),), order))
    if type(v) is np.ndarray and not (v.flags.f_contiguous if order == "F" else
                                      v.flags.c_contiguous):
        return out          # NumPy's ravel copies what is not contiguous (``a[:, 1]``)
    return reshape_view(out, a, order)


def transpose(a, axes=None) -> ndarray:
    """Permute the axes (reverse them by default), as :func:`numpy.transpose`."""
    if axes is None and type(a) is ndarray:
        out = eager_T(a)
        if out is not None:
            return out
    v = value(a)
    nd = len(shape_v(v))
    if axes is not None:
        axes = tuple(axes) if not isinstance(axes, int) else (axes,)
        if len(axes) != nd:
            raise ValueError("axes don't match array")
        axes = tuple(normalize_axis(ax, nd) for ax in axes)
        if len(set(axes)) != nd:
            raise ValueError("repeated axis in transpose")
    perm = tuple(range(nd))[::-1] if axes is None else axes
    return transpose_view(wrap(transpose_v(v, axes)), a, perm)


def permute_dims(a, /, axes=None) -> ndarray:
    """Array API name of :func:`transpose`."""
    return transpose(a, axes)


def matrix_transpose(x, /) -> ndarray:
    """Swap the last two axes (of a stack of matrices)."""
    v = value(x)
    nd = len(shape_v(v))
    if nd < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {nd}")
    perm = (*range(nd - 2), nd - 1, nd - 2)
    return transpose_view(wrap(transpose_v(v, perm)), x, perm)


def moveaxis(a, source, destination) -> ndarray:
    """Move axes to new positions, the others keeping their order."""
    v = value(a)
    nd = len(shape_v(v))
    source = normalize_axis_tuple(_axes(source), nd, "source")
    destination = normalize_axis_tuple(_axes(destination), nd, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    order = [n for n in range(nd) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return transpose_view(wrap(transpose_v(v, order)), a, tuple(order))


def _axes(axes):
    """An integer, or any sequence of them (a range, an array), as NumPy accepts."""
    if isinstance(axes, (tuple, list)):
        return axes
    try:
        return operator.index(axes)
    except TypeError:
        return list(axes)


def rollaxis(a, axis: int, start: int = 0) -> ndarray:
    """Roll ``axis`` backwards until it lies before ``start`` (prefer :func:`moveaxis`)."""
    v = value(a)
    nd = len(shape_v(v))
    axis = normalize_axis(axis, nd)
    if not -nd <= start <= nd:
        from numpy.exceptions import AxisError
        raise AxisError(f"'start' arg requires {-nd} <= start < {nd + 1}, but {start} was "
                        "passed in")
    start = start + nd if start < 0 else start
    if axis < start:
        start -= 1
    order = [n for n in range(nd) if n != axis]
    order.insert(start, axis)
    return transpose_view(wrap(transpose_v(v, order)), a, tuple(order))


def swapaxes(a, axis1: int, axis2: int) -> ndarray:
    """Interchange two axes."""
    v = value(a)
    nd = len(shape_v(v))
    i, j = normalize_axis(axis1, nd, "axis1"), normalize_axis(axis2, nd, "axis2")
    perm = list(range(nd))
    perm[i], perm[j] = j, i
    return transpose_view(wrap(transpose_v(v, perm)), a, tuple(perm))


def squeeze(a, axis=None) -> ndarray:
    """Remove axes of length one (all of them, or those in ``axis``)."""
    v = value(a)
    shape = shape_v(v)
    if axis is None:
        dims = tuple(i for i, d in enumerate(shape) if d == 1)
    elif not shape and not isinstance(axis, (tuple, list)) and \
            normalize_axis(axis, 1) == 0:
        dims = ()                       # NumPy: a 0-d array takes axis 0 or -1
    else:
        dims = normalize_axis_tuple(axis, len(shape))
        if any(shape[d] != 1 for d in dims):
            raise ValueError("cannot select an axis to squeeze out which has size not "
                             "equal to one")
    if not dims:            # nothing to remove: ``a`` itself, as NumPy's
        return a if type(a) is ndarray else wrap(v)
    return reshape_view(wrap(lax.squeeze_p.bind(v, dimensions=dims)), a)


def expand_dims(a, axis) -> ndarray:
    """Insert axes of length one at the positions ``axis`` (an int or a tuple) of the
    result."""
    v = value(a)
    n = 1 if not isinstance(axis, (tuple, list)) else len(axis)
    dims = normalize_axis_tuple(axis, len(shape_v(v)) + n, repeated="repeated axis")
    return reshape_view(wrap(lax.expand_dims_p.bind(v, dimensions=tuple(sorted(dims)))), a)


# --- broadcasting -----------------------------------------------------------------------------
def broadcast_shapes(*args) -> tuple:
    """The shape the given shapes (ints or tuples) broadcast to, as a tuple of ints."""
    shapes = [shape_arg(s, "broadcast_shapes") for s in args]
    for s in shapes:
        check_nonnegative(s)
    return tuple(int(d) for d in np.broadcast_shapes(*shapes))


def broadcast_to(array, shape, subok: bool = False) -> ndarray:
    """Broadcast an array to ``shape``. The result is a new read-only array (as NumPy's
    read-only view)."""
    shape = shape_arg(shape, "broadcast_to")
    check_nonnegative(shape, "all elements of broadcast shape must be non-negative")
    out = wrap(broadcast_to_v(value(array), shape))
    return read_only(out) if isinstance(out, ndarray) else out


def broadcast_arrays(*args, subok: bool = False) -> tuple:
    """Broadcast arrays against each other; returns a tuple, as NumPy 2."""
    values = [value(a) for a in args]
    shape = broadcast_shapes(*(shape_v(v) for v in values))
    return tuple(wrap(broadcast_to_v(v, shape)) for v in values)


# --- flips, rolls, rotations --------------------------------------------------------------------
def flip(m, axis=None) -> ndarray:
    """Reverse the order of elements along ``axis`` (all axes by default): a view of
    ``m`` (``m[:, ::-1]``), so writes into it reach ``m``, as in NumPy."""
    v = value(m)
    dims = normalize_axis_tuple(axis, len(shape_v(v)), repeated="repeated axis")
    if not dims and not len(shape_v(v)):
        return wrap_scalar_result(v)    # NumPy indexes m[()]: a 0-d array gives its scalar
    return _reversed_view(m, v, dims)   # (no axes: a view of all of m, as NumPy's m[()])


def _reversed_view(m, v, dims) -> ndarray:
    """``m`` indexed with ``::-1`` along ``dims``: a write-through view (one ``rev``)."""
    base = m if isinstance(m, ndarray) else wrap(v)
    return base[tuple(slice(None, None, -1) if d in dims else slice(None)
                      for d in range(len(shape_v(v))))]


def fliplr(m) -> ndarray:
    """Reverse the columns (axis 1); the input must be at least 2-d. A view of ``m``,
    as :func:`flip`."""
    v = value(m)
    if len(shape_v(v)) < 2:
        raise ValueError("Input must be >= 2-d.")
    return _reversed_view(m, v, (1,))


def flipud(m) -> ndarray:
    """Reverse the rows (axis 0); the input must be at least 1-d. A view of ``m``, as
    :func:`flip`."""
    v = value(m)
    if len(shape_v(v)) < 1:
        raise ValueError("Input must be >= 1-d.")
    return _reversed_view(m, v, (0,))


def roll(a, shift, axis=None) -> ndarray:
    """Roll elements along axes; elements leaving one end come back at the other.

    A traced ``shift`` is supported (for each axis, a dynamic slice of the doubled array).
    """
    v = value(a)
    shape = shape_v(v)
    if axis is None:
        return wrap(reshape_v(raw(roll(wrap(flatten_v(v)), shift, 0)), shape))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [normalize_axis(ax, len(shape)) for ax in axes]
    s = raw(shift)
    if isinstance(s, Tracer):
        if s.aval.ndim > 1 or np.ndim(axis) > 1:
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        m = s.aval.shape[0] if s.aval.ndim else 1
        if m != len(axes) and 1 not in (m, len(axes)):
            raise ValueError("shape mismatch: objects cannot be broadcast to a single shape."
                             f"  Mismatch is between arg 0 with shape ({m},) and arg 1 with "
                             f"shape ({len(axes)},).")
        for i in range(max(m, len(axes))):     # successive rolls sum per axis, as NumPy's
            si = s if not s.aval.ndim else \
                reshape_v(slice_axis_v(s, 0, i % m, i % m + 1), ())
            v = _roll_dynamic(v, si, axes[i % len(axes)])
        return wrap(v)
    if type(s) is int and len(axes) == 1:
        total = {axes[0]: s}
    else:
        total = _roll_shifts(s, axes, axis, len(shape))
    for ax, sh in total.items():
        n = shape[ax]
        if n and sh % n:
            k = sh % n
            v = concat_v([slice_axis_v(v, ax, n - k, n), slice_axis_v(v, ax, 0, n - k)], ax)
    return wrap(v)


def _roll_shifts(shift, axes, axis, ndim) -> dict:
    """The total shift per axis: ``shift`` and ``axis`` broadcast together and summed."""
    shifts = np.asarray(shift)
    if shifts.ndim > 1 or np.ndim(axis) > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = dict.fromkeys(range(ndim), 0)
    for sh, ax in np.broadcast(shifts, np.asarray(axes)):
        total[int(ax)] += int(sh)
    return total


def _roll_dynamic(v, s, axis):
    n = shape_v(v)[axis]
    if n == 0:
        return v
    s = cast_v(s, np.int64)
    k = lax.rem_p.bind(lax.add_p.bind(lax.rem_p.bind(s, n), n), n)
    doubled = concat_v([v, v], axis)
    zero = np.int64(0)
    starts = [zero] * len(shape_v(v))
    starts[axis] = lax.sub_p.bind(np.int64(n), k)
    return lax.dynamic_slice_p.bind(doubled, *starts, slice_sizes=shape_v(v))


def rot90(m, k: int = 1, axes=(0, 1)) -> ndarray:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes`` (from the first axis
    towards the second); a view of ``m``, as in NumPy."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    v = value(m)
    nd = len(shape_v(v))
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == nd:
        raise ValueError("Axes must be different.")
    if not (-nd <= axes[0] < nd and -nd <= axes[1] < nd):
        raise ValueError(f"Axes={axes} out of range for array of ndim={nd}.")
    a0, a1 = axes[0] % nd, axes[1] % nd
    k = operator.index(k) % 4
    m = m if isinstance(m, ndarray) else wrap(v)
    # Views of m, as NumPy's (flips and a transpose): writes into them reach m.
    if k == 0:
        return m[:]
    if k == 2:
        return _reversed_view(m, v, (a0, a1))
    perm = list(range(nd))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return transpose(_reversed_view(m, v, (a1,)), perm)
    t = transpose(m, perm)
    return _reversed_view(t, value(t), (a1,))


# --- tiling and repeating -----------------------------------------------------------------------
def tile(A, reps) -> ndarray:
    """Repeat the whole array ``reps`` times along each axis, as :func:`numpy.tile`."""
    reps = shape_arg(reps, "tile")
    check_nonnegative(reps)
    v = atleast_v(value(A), len(reps))
    shape = shape_v(v)
    reps = (1,) * (len(shape) - len(reps)) + reps
    out_shape = tuple(s * r for s, r in zip(shape, reps))
    if all(r == 1 for r in reps):
        return wrap(lax.copy_p.bind(v))
    inter = tuple(x for pair in zip(reps, shape) for x in pair)
    dims = tuple(range(1, 2 * len(shape), 2))
    v = lax.broadcast_in_dim_p.bind(v, shape=inter, broadcast_dimensions=dims)
    return wrap(lax.reshape_p.bind(v, new_sizes=out_shape))


def repeat(a, repeats, axis=None, *, total_repeat_length: int | None = None) -> ndarray:
    """Repeat each element ``repeats`` times (a scalar, or one count per element).

    Counts in an array need concrete values (the output length depends on them), unless
    ``total_repeat_length`` (JAX's argument) fixes the output length: then the counts may
    be traced, extra positions are dropped and missing ones repeat the last element.
    """
    v, axis = axis_of_0d_as_1d(value(a), axis)
    if axis is None:
        v = flatten_v(v)
        axis = 0
    shape = shape_v(v)
    axis = normalize_axis(axis, len(shape))
    n = shape[axis]
    r = raw(repeats)
    if type(r) is int and r >= 0 and total_repeat_length in (None, n * r):
        return wrap(_repeat_scalar(v, axis, r))
    rshape = shape_v(r)
    if isinstance(r, (np.ndarray, Tracer)) and isinstance(repeats, (ndarray, np.ndarray,
                                                                    Tracer)):
        if not np.can_cast(dtype_of(r), np.int64, "safe"):
            raise TypeError(f"Cannot cast array data from {dtype_of(r)!r} to "
                            "dtype('int64') according to the rule 'safe'")
    if rshape in ((), (1,)) and not isinstance(r, Tracer):
        count = int(np.asarray(r).reshape(()).astype(np.int64))
        if count < 0:
            raise ValueError("negative dimensions are not allowed")
        if total_repeat_length is None or total_repeat_length == n * count:
            return wrap(_repeat_scalar(v, axis, count))
        r = np.full(n, count, np.int64)
    elif rshape in ((), (1,)):
        r = broadcast_to_v(lax.reshape_p.bind(r, new_sizes=()), (n,))
    if shape_v(r) != (n,):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"{shape_v(r)}")
    if total_repeat_length is None:
        counts = np.asarray(concrete_or_error(r, "xnp.repeat (array repeats without "
                                                 "total_repeat_length)")).astype(np.int64)
        if (counts < 0).any():
            raise ValueError("repeats may not contain negative values.")
        total_repeat_length = int(counts.sum())
    return wrap(_repeat_counts(v, axis, cast_v(r, np.int64), total_repeat_length))


def _repeat_scalar(v, axis, count):
    shape = shape_v(v)
    inter = (*shape[:axis + 1], count, *shape[axis + 1:])
    dims = tuple(d if d <= axis else d + 1 for d in range(len(shape)))
    v = lax.broadcast_in_dim_p.bind(v, shape=inter, broadcast_dimensions=dims)
    out = (*shape[:axis], shape[axis] * count, *shape[axis + 1:])
    return lax.reshape_p.bind(v, new_sizes=out)


def _repeat_counts(v, axis, counts, total: int):
    """Gather along ``axis`` with source index ``i`` for the output positions between
    ``cumsum(counts)[i-1]`` and ``cumsum(counts)[i]``: ones scattered at the boundaries,
    summed cumulatively."""
    n = shape_v(v)[axis]
    if total == 0 or n == 0:
        shape = list(shape_v(v))
        shape[axis] = total
        return lax.broadcast_in_dim_p.bind(cast_v(0, dtype_of(v)), shape=tuple(shape),
                                           broadcast_dimensions=())
    ends = lax.cumsum_p.bind(counts, axis=0)
    bounds = lax.reshape_p.bind(slice_axis_v(ends, 0, 0, n - 1), new_sizes=(n - 1, 1))
    marks = lax.broadcast_in_dim_p.bind(np.int64(0), shape=(total,), broadcast_dimensions=())
    ones = lax.broadcast_in_dim_p.bind(np.int64(1), shape=(n - 1,), broadcast_dimensions=())
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    marks = lax.scatter_add_p.bind(marks, bounds, ones, dimension_numbers=dn, mode="fill")
    index = lax.min_p.bind(lax.cumsum_p.bind(marks, axis=0), np.int64(n - 1))
    return take_v(v, index, axis)


# --- dimensions and resizing ----------------------------------------------------------------------
def _atleast(arys, ndim, place):
    out = []
    for a in arys:
        v = value(a)
        shape = shape_v(v)
        if len(shape) >= ndim:      # NumPy returns an array argument itself
            out.append(a if type(a) is ndarray else wrap(v))
            continue
        out.append(reshape_view(wrap(lax.reshape_p.bind(v, new_sizes=place(shape))), a))
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Arrays with at least one dimension (a tuple for several inputs)."""
    return _atleast(arys, 1, lambda s: (1,))


def atleast_2d(*arys):
    """Arrays with at least two dimensions: 1-d ``(n,)`` becomes ``(1, n)``."""
    return _atleast(arys, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    """Arrays with at least three dimensions: ``(n,)`` becomes ``(1, n, 1)`` and
    ``(m, n)`` becomes ``(m, n, 1)``."""
    return _atleast(arys, 3, lambda s: (1, 1, 1) if not s else
                    (1, s[0], 1) if len(s) == 1 else (*s, 1))


def resize(a, new_shape) -> ndarray:
    """A new array of ``new_shape`` filled with the elements of ``a`` repeated cyclically
    (zeros if ``a`` is empty), as :func:`numpy.resize`."""
    shape = shape_arg(new_shape, "resize")
    check_nonnegative(shape, "all elements of `new_shape` must be non-negative")
    v = value(a)
    size = math.prod(shape_v(v))
    new_size = math.prod(shape)
    if size == 0 or new_size == 0:
        return wrap(lax.broadcast_in_dim_p.bind(cast_v(0, dtype_of(v)), shape=shape,
                                                broadcast_dimensions=()))
    flat = reshape_v(v, (size,))
    copies = -(-new_size // size)
    if copies > 1:
        flat = lax.broadcast_in_dim_p.bind(flat, shape=(copies, size),
                                           broadcast_dimensions=(1,))
        flat = lax.reshape_p.bind(flat, new_sizes=(copies * size,))
    return wrap(reshape_v(slice_axis_v(flat, 0, 0, new_size), shape))


from xnp import _joining, _padding  # noqa: E402  (re-exported; they import nothing from here)
from xnp._joining import *  # noqa: E402, F403
from xnp._padding import *  # noqa: E402, F403

__all__ += _joining.__all__ + _padding.__all__
