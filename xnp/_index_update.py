"""NumPy assignment into xnp arrays: ``x[key] = value`` and ``x.at[key]``.

Assignment is functional: it returns the new value and ``ndarray.__setitem__`` rebinds the
handle. Basic keys with unit steps use ``dynamic_update_slice``; every other key scatters
into the flattened array at the flat positions that the same key selects from an ``iota``,
so all key forms share the getitem code of :mod:`xnp._indexing`. A single boolean mask
with a scalar-like value becomes a ``select`` (so it also works under tracing).

Differences from NumPy: out-of-bounds *traced* indices cannot raise; they are clamped
(``mode="clip"``) unless ``x.at[...]`` is given ``mode="fill"``/``"drop"``. Duplicate
indices in ``x.at[...].apply`` apply the function once.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from transforms.core import Tracer, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._indexing import (
    _FLAT_SCATTER,
    _I64,
    _MODES,
    _Basic,
    _parse,
    index_value,
)
from xnp._object_loops import object_scalar
from xnp._util import (
    broadcast_to_v,
    cast_v,
    numpy_shape_text,
    numpy_values,
    raw,
    shape_of,
    user_cast_v,
)
from xnp.lax._base import loop_dtypes

__all__: list = []

# --- assignment ---------------------------------------------------------------------------
def _plain_sequence(x) -> bool:
    if isinstance(x, (list, tuple)):
        return all(_plain_sequence(i) for i in x)
    return type(x) in (bool, int, float, complex)


def assigned_value(value, dtype: np.dtype):
    """``value`` converted for assignment into an array of ``dtype`` as NumPy does:
    unsafe casting of arrays; Python scalars and lists convert with NumPy's checks
    (OverflowError for out-of-range ints, ValueError for NaN into ints, TypeError for
    complex into real)."""
    if _plain_sequence(value):
        return np.asarray(value, dtype=dtype)
    if isinstance(value, np.generic) and dtype.kind in "iu":
        # NumPy stores its scalars into signed integers through int() (ValueError for NaN,
        # OverflowError out of range): its own item assignment decides.
        slot = np.zeros((), dtype)
        slot[()] = value
        return slot
    if dtype.kind == "O" and isinstance(value, (list, tuple)):
        return np.asarray(numpy_values(value), dtype=dtype)   # the objects themselves
    return user_cast_v(raw(value), dtype)     # NumPy's cast warnings for concrete values


def masked_put_value(value, dtype: np.dtype):
    """The values of ``putmask``/``place``: NumPy 2 casts arrays among them only 'safe'ly
    (TypeError otherwise), and scalars and lists as an assignment does."""
    if isinstance(value, (ndarray, np.ndarray)) and dtype.kind != "O":
        src = np.dtype(value.dtype)
        if src.kind != "O" and not np.can_cast(src, dtype, casting="safe"):
            raise TypeError(f"Cannot cast array data from {src!r} to {dtype!r} according "
                            "to the rule 'safe'")
    return assigned_value(value, dtype)


def _lead_ones_dropped(shape: tuple, ndim: int) -> tuple:
    while len(shape) > ndim and shape[0] == 1:
        shape = shape[1:]
    return shape


def _fit(u, target: tuple, strip: bool = True, key=None):
    """Broadcast an update to the indexed shape; assignment (``strip``) may also drop
    leading length-1 axes, as NumPy's ``x[key] = u`` (``ufunc.at`` may not). ``key``,
    given for advanced indexes, selects NumPy's wording of the error."""
    ushape = shape_of(u)
    if ushape == target:
        return u
    trimmed = _lead_ones_dropped(ushape, len(target)) if strip else ushape
    if trimmed != ushape:
        u = lax.reshape_p.bind(u, new_sizes=trimmed)
    try:
        return broadcast_to_v(u, target)
    except ValueError:
        raise ValueError(_mismatch_message(ushape, target, key)) from None


def _mismatch_message(ushape, target, key) -> str:
    text = numpy_shape_text
    if key is None:
        return f"could not broadcast input array from shape {ushape} into shape {target}"
    items = key if isinstance(key, tuple) else (key,)
    masks = [raw(k) for k in items if isinstance(k, (list, np.ndarray, ndarray))]
    if len(ushape) == 1 and len(target) == 1 and any(
            m.dtype == bool and shape_of(m) for m in masks):
        return (f"NumPy boolean array indexing assignment cannot assign {ushape[0]} input "
                f"values to the {target[0]} output values where the mask is true")
    return (f"shape mismatch: value array of shape {text(ushape)} could not be broadcast "
            f"to indexing result of shape {text(target)}")


def _single_mask(key, shape, u, strip: bool):
    """The concrete or traced mask of ``x[mask] op= u`` when it can be a select: one
    boolean array over leading axes, and an update that broadcasts to the unmasked axes."""
    if isinstance(key, tuple):
        if len(key) != 1:
            return None
        key = key[0]
    if not (type(key) in (ndarray, np.ndarray) or isinstance(key, Tracer)):
        return None
    m = raw(key)
    aval = get_aval(m)
    k = aval.ndim
    if aval.dtype.kind != "b" or k == 0 or aval.shape != shape[:k]:
        return None
    rest = shape[k:]
    ushape = shape_of(u)
    if len(ushape) == len(rest) + 1 and ushape[0] == 1:
        ushape = ushape[1:]
    elif strip:
        ushape = _lead_ones_dropped(ushape, len(rest))
    if len(ushape) > len(rest) or any(a not in (1, b) for a, b in
                                      zip(ushape[::-1], rest[::-1])):
        return None
    if k == len(shape):
        return m
    return lax.broadcast_in_dim_p.bind(m, shape=shape, broadcast_dimensions=tuple(range(k)))


_COMBINE = {
    "set": lambda x, u: u, "add": lax.add_p.bind, "mul": lax.mul_p.bind,
    "min": lax.min_p.bind, "max": lax.max_p.bind,
}
_SCATTER = {"set": lax.scatter_p, "add": lax.scatter_add_p, "mul": lax.scatter_mul_p,
            "min": lax.scatter_min_p, "max": lax.scatter_max_p}


def update_value(v, key, u, op: str = "set", mode: str | None = None):
    """The value of ``v`` with ``v[key]`` combined with ``u`` (already of v's dtype) by
    ``op`` (set, add, mul, min, max), as one functional update. ``set`` broadcasts ``u``
    as assignment does, the others as ``ufunc.at``."""
    if mode not in _MODES:
        raise ValueError(f"invalid indexing mode {mode!r}; expected one of {_MODES}")
    shape = shape_of(v)
    strip = op == "set"
    mask = _single_mask(key, shape, u, strip) if mode is None else None
    if mask is not None:
        return lax.select_n_p.bind(mask, v, _COMBINE[op](v, _fit(u, shape, key=key)))
    entries, advanced = _parse(key, shape)
    if strip and shape_of(u) and _selects_one_element(key, entries):
        raise ValueError("setting an array element with a sequence.")
    if strip and not advanced and mode is None:
        plan = _Basic(shape, entries)
        if all(st == 1 for st in plan.strides):
            return _update_slice(v, plan, u)
    return _scatter_flat(v, shape, key, u, op, mode, strip)


def _selects_one_element(key, entries) -> bool:
    """Whether ``x[key]`` is one element (integers for every axis, no Ellipsis), where
    NumPy assigns a scalar and rejects arrays, even of size 1."""
    items = key if isinstance(key, tuple) else (key,)
    # ``x[()]`` indexes no axis: the whole array, where size-1 values broadcast.
    return bool(entries) and all(kind == "int" for kind, _, _ in entries) and \
        not any(i is Ellipsis for i in items)


def _update_slice(v, plan: _Basic, u):
    target = tuple(plan.out_shape)
    window = plan.window()
    if shape_of(u) == ():
        u = lax.broadcast_in_dim_p.bind(u, shape=window, broadcast_dimensions=())
    else:
        u = _fit(u, target)
        if window != target:
            u = lax.reshape_p.bind(u, new_sizes=window)
    if 0 in window:
        return v
    if plan.rev:
        u = lax.rev_p.bind(u, dimensions=tuple(plan.rev))
    starts = [plan.dyn.get(d, s) for d, s in enumerate(plan.starts)]
    return lax.dynamic_update_slice_p.bind(v, u, *starts)


def _flat_positions(shape, key, mode):
    size = int(np.prod(shape, dtype=np.int64))
    ids = lax.iota_p.bind(dtype=_I64, shape=(size,), dimension=0)
    if len(shape) != 1:
        ids = lax.reshape_p.bind(ids, new_sizes=shape)
    return index_value(ids, key, mode=mode, fill_value=size)


def _scatter_flat(v, shape, key, u, op, mode, strip):
    pos = _flat_positions(shape, key, mode)
    target = shape_of(pos)
    u = _fit(u, target, strip, key=key)
    size = int(np.prod(shape, dtype=np.int64))
    flat = lax.reshape_p.bind(v, new_sizes=(size,))
    pos = lax.reshape_p.bind(pos, new_sizes=target + (1,))
    smode = "fill" if mode in ("fill", "drop") else "clip"
    out = _SCATTER[op].bind(flat, pos, u, dimension_numbers=_FLAT_SCATTER, mode=smode)
    return lax.reshape_p.bind(out, new_sizes=shape)


def setitem_value(x, key, value):
    """The new value of ``x`` after ``x[key] = value`` (NumPy's casting and broadcasting;
    with repeated indices the last write wins)."""
    v = raw(x)
    dtype = get_aval(v).dtype
    if dtype.kind == "O":
        ndim = _selected_ndim(shape_of(v), key)
        if ndim == 0:           # one element holds the value itself (a list too)
            value = object_scalar(value)
        elif ndim is not None and isinstance(value, (list, tuple)):
            # lists nested deeper than the selection are elements, as NumPy's
            value = np.array(numpy_values(value), dtype=dtype, ndmax=ndim)
    u = assigned_value(value, dtype)
    _check_full_mask_value(key, shape_of(v), shape_of(u))
    return update_value(v, key, u)


def _check_full_mask_value(key, shape: tuple, ushape: tuple) -> None:
    """NumPy's ``x[mask] = u`` with one boolean mask of x's dimensions takes a 0-d or 1-d
    ``u`` only (TypeError otherwise, even for a shape that would broadcast)."""
    if isinstance(key, tuple) and len(key) == 1:
        key = key[0]
    if len(ushape) > 1 and shape and (type(key) in (ndarray, np.ndarray, list) or
                                      isinstance(key, Tracer)):
        aval = get_aval(np.asarray(numpy_values(key)) if type(key) is list else raw(key))
        if aval.dtype.kind == "b" and aval.ndim == len(shape):
            raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {len(ushape)} dimensions")


def _selected_ndim(shape: tuple, key) -> int | None:
    """The number of dimensions ``x[key]`` has (None for a traced or invalid key)."""
    try:
        return np.ndim(np.broadcast_to(np.int8(0), shape)[numpy_values(key)])
    except Exception:       # the general path decides (or raises NumPy's error)
        return None


# --- x.at[key] ----------------------------------------------------------------------------
class IndexUpdateHelper:
    """``x.at[key]``: functional updates returning new arrays, as in JAX.

    ``x.at[i].set(v)`` is ``x[i] = v`` without modifying ``x``; ``add``, ``multiply``
    (``mul``), ``divide``, ``power``, ``min`` and ``max`` accumulate over repeated indices
    (as ``numpy.add.at`` and friends), ``apply(ufunc)`` applies a unary function at the
    indices and ``get(mode=, fill_value=)`` reads. ``mode``: None (NumPy's checks),
    "clip", or "fill"/"drop" (out-of-bounds reads give ``fill_value``, writes are dropped).
    """

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, key) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, key)

    def __repr__(self):
        return f"_IndexUpdateHelper({self.array!r})"


class _IndexUpdateRef:
    __slots__ = ("array", "key")

    def __init__(self, array, key):
        self.array, self.key = array, key

    def __repr__(self):
        return f"_IndexUpdateRef({self.array!r}, {self.key!r})"

    def _v(self):
        return raw(self.array)

    def get(self, *, mode: str | None = None, fill_value: Any = None,
            indices_are_sorted: bool = False, unique_indices: bool = False) -> ndarray:
        """``x[key]``, with the out-of-bounds behaviour chosen by ``mode``."""
        return wrap(index_value(self._v(), self.key, mode, fill_value))

    def _update(self, values, op, mode):
        v = self._v()
        dtype = get_aval(v).dtype
        u = assigned_value(values, dtype) if op == "set" else cast_v(raw(values), dtype)
        return wrap(update_value(v, self.key, u, op, mode))

    def set(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
            unique_indices: bool = False) -> ndarray:
        """A copy with ``x[key] = values``."""
        return self._update(values, "set", mode)

    def add(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
            unique_indices: bool = False) -> ndarray:
        """A copy with ``values`` added at ``key`` (repeated indices accumulate)."""
        return self._update(values, "add", mode)

    def subtract(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
                 unique_indices: bool = False) -> ndarray:
        """A copy with ``values`` subtracted at ``key`` (repeated indices accumulate)."""
        v = self._v()
        if get_aval(v).dtype == np.bool_:
            raise TypeError("x.at[...].subtract: numpy boolean subtract, the `-` operator, "
                            "is not supported, use the bitwise_xor, the `^` operator, or "
                            "the logical_xor function instead.")
        u = lax.neg_p.bind(cast_v(raw(values), get_aval(v).dtype))
        return wrap(update_value(v, self.key, u, "add", mode))

    def multiply(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
                 unique_indices: bool = False) -> ndarray:
        """A copy with the elements at ``key`` multiplied by ``values``."""
        return self._update(values, "mul", mode)

    mul = multiply

    def min(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
            unique_indices: bool = False) -> ndarray:
        """A copy with ``minimum(x[key], values)`` at ``key``."""
        return self._update(values, "min", mode)

    def max(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
            unique_indices: bool = False) -> ndarray:
        """A copy with ``maximum(x[key], values)`` at ``key``."""
        return self._update(values, "max", mode)

    def divide(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
               unique_indices: bool = False) -> ndarray:
        """A copy with the elements at ``key`` divided by ``values``."""
        return self._by_product(values, lax.div_p, np.divide, mode)

    def power(self, values, *, mode: str | None = None, indices_are_sorted: bool = False,
              unique_indices: bool = False) -> ndarray:
        """A copy with the elements at ``key`` raised to ``values``."""
        return self._by_product(values, lax.pow_p, np.power, mode)

    def _by_product(self, values, prim, np_ufunc, mode):
        # x / y1 / y2 == x / (y1 * y2): one multiplicative scatter of the divisors (or
        # exponents) into ones, then one elementwise operation over the whole array.
        v = self._v()
        dtype = get_aval(v).dtype
        u = cast_v(raw(values), dtype)
        ones = lax.broadcast_in_dim_p.bind(cast_v(1, dtype), shape=shape_of(v),
                                           broadcast_dimensions=())
        factor = update_value(ones, self.key, u, "mul", mode)
        loop = loop_dtypes(np_ufunc, get_aval(v), get_aval(factor))[0]
        out = prim.bind(cast_v(v, loop), cast_v(factor, loop))
        return wrap(cast_v(out, dtype))

    def apply(self, func: Callable, *, mode: str | None = None,
              indices_are_sorted: bool = False, unique_indices: bool = False) -> ndarray:
        """A copy with ``func`` (a unary function of arrays) applied at ``key``; a
        repeated index is applied once (``numpy.ufunc.at`` applies it repeatedly)."""
        v = self._v()
        dtype = get_aval(v).dtype
        got = wrap(index_value(v, self.key, mode))
        u = cast_v(raw(func(got)), dtype)
        return wrap(update_value(v, self.key, u, "set", mode))
