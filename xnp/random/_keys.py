"""Explicit PRNG keys, JAX style: ``key``/``PRNGKey``, ``split``, ``fold_in``, ``bits``.

A key is a raw ``uint32`` array of shape ``(2,)`` (the 64-bit Threefry-2x32 key), as
JAX's legacy ``jax.random.PRNGKey`` returns; ``split`` returns arrays of keys of shape
``(..., 2)``. Typed key arrays (JAX's ``key<fry>`` dtype) are not provided: ``key(seed)``
returns the same raw form as ``PRNGKey(seed)``, and ``key_data``/``wrap_key_data`` are
identities (with checks). Only the Threefry-2x32 implementation exists.

Keys are derived as JAX does with its default ``jax_threefry_partitionable=True``
configuration, so that the same seed gives JAX's numbers (with ``jax_enable_x64``):

* ``PRNGKey(seed)``: the seed as a 64-bit integer, high word first;
* ``split(key, shape)``: the hash of the counters ``(hi, lo)`` of ``0, 1, ...`` (the
  row-major index over ``shape`` as a 64-bit integer), the two output words being a key;
* ``fold_in(key, d)``: the hash of the counter ``(0, d)``;
* random bits of ``shape``: the two hash words of each counter, XOR-ed for 32 bits (and
  truncated for 8 and 16), or concatenated (high word first) for 64 bits.

Every function is built from xnp functions and ``xnp.lax`` primitives (the hash itself is
one primitive, see :mod:`xnp.random._threefry`), so it works under ``jit``, ``vmap``,
``grad`` and control flow. A function takes one key; batch over keys with ``vmap``.
Shapes may be given as a tuple or (unlike JAX) a single int.

The end of the module holds the raw samplers (raw values in and out) that
:mod:`xnp.random._distributions` builds its public functions from: uniform floats from
mantissa bits, JAX's modulo-reduction ``randint``, the sort-based shuffle, and the
normal and Gumbel transforms.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Sequence

import numpy as np

import xnp
from transforms.core import Tracer, get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._util import raw, wrap
from xnp.random._threefry import threefry2x32_p

_U32 = np.dtype(np.uint32)
_SQRT2 = math.sqrt(2.0)
_UINT = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: _U32, 64: np.dtype(np.uint64)}


# --- recognising and checking keys ------------------------------------------------------------
def is_key_like(x: Any) -> bool:
    """Whether ``x`` looks like a raw key or key array: an xnp or NumPy array (or tracer)
    of dtype uint32 whose last dimension is 2. Used to dispatch names shared with
    NumPy's legacy API (``normal``, ``uniform``, ...)."""
    if type(x) is ndarray:
        x = x._value
    if not isinstance(x, (np.ndarray, Tracer)):
        return False
    a = get_aval(x)
    return a.dtype == _U32 and len(a.shape) >= 1 and a.shape[-1] == 2


def _describe(v) -> str:
    try:
        a = get_aval(v)
        return f"shape {tuple(a.shape)} and dtype {a.dtype.name}"
    except Exception:
        return f"type {type(v).__name__}"


def check_key(name: str, key: Any, allow_batched: bool = False):
    """The raw value of ``key`` after checking it is a uint32 key of shape ``(2,)`` (or
    ``(..., 2)`` with ``allow_batched``); errors name the function ``name``."""
    try:
        v = raw(key)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name}: expected a PRNG key (a uint32 array of shape (2,)), got "
                        f"{type(key).__name__}") from e
    if isinstance(v, (bool, int, float, complex)) or not is_key_like(v):
        raise TypeError(f"{name}: expected a PRNG key (a uint32 array of shape (2,), from "
                        f"xnp.random.key or PRNGKey), got an array of {_describe(v)}")
    shape = get_aval(v).shape
    if not allow_batched and len(shape) != 1:
        raise ValueError(f"{name} accepts a single key, but was given a key array of shape "
                         f"{tuple(shape)} != (2,). Use xnp.vmap for batching.")
    return v


def _words(k):
    """The two uint32 words of one key value."""
    return (lax.squeeze_p.bind(lax.slice_p.bind(k, start_indices=(i,), limit_indices=(i + 1,),
                                                 strides=None), dimensions=(0,))
            for i in (0, 1))


def _canonical_shape(shape, name: str) -> tuple:
    if isinstance(shape, (int, np.integer)) or (hasattr(shape, "__index__")
                                                and not isinstance(shape, Sequence)):
        return (operator.index(shape),)
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError as e:
        raise TypeError(f"{name}: shape must be a tuple of nonnegative integers, got "
                        f"{shape!r}") from e
    if any(d < 0 for d in out):
        raise ValueError(f"{name}: shape must be a tuple of nonnegative integers, got "
                         f"{shape!r}")
    return out


# --- the counters and the hash ----------------------------------------------------------------
def _iota_2x32(shape: tuple):
    """The row-major index over ``shape`` as (high word, low word) uint32 values; the
    high word is a scalar zero (sizes of 2**32 and more are not supported)."""
    n = math.prod(shape)
    if n > 2 ** 32:
        raise NotImplementedError(
            f"xnp.random: drawing {n} values (shape {tuple(shape)}) is not supported; the "
            "counters are 32-bit, so draw at most 2**32 values per call (split the key "
            "and draw in parts)")
    if not shape:
        return np.uint32(0), np.uint32(0)
    lo = lax.iota_p.bind(dtype=_U32, shape=(n,), dimension=0)
    if len(shape) > 1:
        lo = lax.reshape_p.bind(lo, new_sizes=shape)
    return np.uint32(0), lo


def _hash_counters(k, shape: tuple):
    k0, k1 = _words(k)
    hi, lo = _iota_2x32(shape)
    y0, y1 = threefry2x32_p.bind(k0, k1, hi, lo)
    if get_aval(y0).shape != shape:      # shape (): broadcast_to_v is a no-op otherwise
        from xnp._util import broadcast_to_v
        y0, y1 = broadcast_to_v(y0, shape), broadcast_to_v(y1, shape)
    return y0, y1


def random_bits_v(k, bit_width: int, shape: tuple):
    """Raw random bits of ``shape`` (uint8/16/32/64 for ``bit_width``) from a checked raw
    key value, as JAX's ``_random_bits`` under the partitionable configuration."""
    if bit_width not in _UINT:
        raise TypeError(f"random bits: requires 8-, 16-, 32- or 64-bit field width, got "
                        f"{bit_width}")
    y0, y1 = _hash_counters(k, shape)
    if bit_width == 64:
        u64 = _UINT[64]
        hi = lax.convert_element_type_p.bind(y0, new_dtype=u64, weak_type=False)
        lo = lax.convert_element_type_p.bind(y1, new_dtype=u64, weak_type=False)
        return lax.or_p.bind(lax.shift_left_p.bind(hi, np.uint64(32)), lo)
    bits = lax.xor_p.bind(y0, y1)
    if bit_width < 32:
        bits = lax.convert_element_type_p.bind(bits, new_dtype=_UINT[bit_width],
                                               weak_type=False)
    return bits


def split_v(k, shape: tuple):
    """Raw ``split`` of a checked raw key value into keys of shape ``(*shape, 2)``."""
    y0, y1 = _hash_counters(k, shape)
    nd = len(shape)
    y0, y1 = (lax.expand_dims_p.bind(y, dimensions=(nd,)) for y in (y0, y1))
    return lax.concatenate_p.bind(y0, y1, dimension=nd)


# --- public API ---------------------------------------------------------------------------------
def PRNGKey(seed: Any) -> ndarray:
    """A PRNG key from an integer seed: a uint32 array of shape ``(2,)``.

    Parameters
    ----------
    seed : int or integer scalar array
        Read as a 64-bit integer (Python ints must lie in ``[-2**63, 2**63)``); the key is
        its high and low 32-bit words. Narrower integer arrays contribute a zero high word
        and their value modulo ``2**32``, as in JAX. May be traced.

    Returns
    -------
    xnp.ndarray
        The key, dtype uint32, shape ``(2,)``.

    Notes
    -----
    Matches ``jax.random.PRNGKey`` (64-bit mode) bit for bit. Unlike JAX, the result is
    always a raw uint32 array (there is no ``impl`` argument: Threefry-2x32 only).
    Unlike NumPy's ``seed``, no state is touched.
    """
    if isinstance(seed, bool):
        raise TypeError(f"PRNGKey: the seed must be an integer, got {seed!r}")
    if isinstance(seed, int):
        s = seed
        if not -2 ** 63 <= s < 2 ** 63:
            raise OverflowError(f"PRNGKey: Python int seed {s} does not fit in int64")
        s %= 2 ** 64
        return wrap(np.array([s >> 32, s & 0xFFFFFFFF], dtype=_U32))
    v = raw(seed)
    a = get_aval(v)
    if a.shape:
        raise TypeError(f"PRNGKey accepts a scalar seed, but was given an array of shape "
                        f"{tuple(a.shape)} != (). Use xnp.vmap for batching")
    if a.dtype.kind not in "iu":
        raise TypeError(f"PRNGKey: the seed must be an integer, got dtype {a.dtype.name}")
    hi = lax.shift_right_logical_p.bind(v, a.dtype.type(32))
    words = [lax.convert_element_type_p.bind(w, new_dtype=_U32, weak_type=False)
             for w in (hi, v)]
    return wrap(lax.concatenate_p.bind(
        *[lax.expand_dims_p.bind(w, dimensions=(0,)) for w in words], dimension=0))


def key(seed: Any) -> ndarray:
    """A PRNG key from an integer seed; the same as :func:`PRNGKey`.

    Notes
    -----
    Unlike ``jax.random.key``, which returns a typed scalar key (dtype ``key<fry>``), this
    returns the raw uint32 array of shape ``(2,)`` that ``PRNGKey`` returns: xnp has no
    typed key arrays. The key's data equals ``jax.random.key_data(jax.random.key(seed))``.
    """
    return PRNGKey(seed)


def split(key: Any, num: int | Sequence[int] = 2) -> ndarray:
    """Split a key into ``num`` new, independent keys.

    Parameters
    ----------
    key : uint32 array of shape (2,)
        The key to split (not consumed: it may be reused, but should not be, as a key).
    num : int or tuple of ints, optional
        The number of keys, or the shape of the array of keys. Default 2.

    Returns
    -------
    xnp.ndarray
        Keys of shape ``(num, 2)`` (or ``(*num, 2)``), dtype uint32.

    Notes
    -----
    Matches ``jax.random.split`` with ``jax_threefry_partitionable=True`` (JAX's default)
    bit for bit. A key array (shape ``(n, 2)``) raises ValueError, as in JAX: use vmap.
    """
    k = check_key("split", key)
    shape = _canonical_shape(num, "split")
    return wrap(split_v(k, shape))


def fold_in(key: Any, data: Any) -> ndarray:
    """A new key from ``key`` and a 32-bit integer ``data``.

    Parameters
    ----------
    key : uint32 array of shape (2,)
    data : int or integer scalar array
        Python ints must lie in ``[0, 2**32)``; integer arrays are taken modulo ``2**32``.
        May be traced (e.g. a loop index).

    Returns
    -------
    xnp.ndarray
        The new key, uint32 of shape ``(2,)``: the hash of the counter ``(0, data)``.

    Notes
    -----
    Matches ``jax.random.fold_in`` bit for bit. ``fold_in(key, i)`` equals
    ``split(key, n)[i]`` for ``i < n`` (in JAX too, under the partitionable config).
    """
    k = check_key("fold_in", key)
    if isinstance(data, int) and not isinstance(data, bool):
        if not 0 <= data < 2 ** 32:
            raise OverflowError(f"fold_in: Python integer {data} out of bounds for uint32")
        d = np.uint32(data)
    else:
        d = raw(data)
        a = get_aval(d)
        if a.shape:
            raise TypeError(f"fold_in accepts a scalar, but was given an array of shape "
                            f"{tuple(a.shape)} != (). Use xnp.vmap for batching.")
        d = lax.convert_element_type_p.bind(d, new_dtype=_U32, weak_type=False)
    k0, k1 = _words(k)
    y0, y1 = threefry2x32_p.bind(k0, k1, np.uint32(0), d)
    return wrap(lax.concatenate_p.bind(lax.expand_dims_p.bind(y0, dimensions=(0,)),
                                       lax.expand_dims_p.bind(y1, dimensions=(0,)),
                                       dimension=0))


def bits(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> ndarray:
    """Uniformly random unsigned integers (random bits).

    Parameters
    ----------
    key : uint32 array of shape (2,)
    shape : tuple of ints, optional
        The result shape. Default ``()``.
    dtype : unsigned integer dtype, optional
        uint8, uint16, uint32 or uint64 (the default, as JAX's in 64-bit mode).

    Returns
    -------
    xnp.ndarray

    Notes
    -----
    Matches ``jax.random.bits`` (64-bit mode, partitionable Threefry) bit for bit: uint64
    values join the two hash words (first word high), narrower ones are the XOR of the
    two words, truncated. A non-unsigned dtype raises ValueError, as in JAX.
    """
    k = check_key("bits", key)
    dt = np.dtype("uint64" if dtype is None else dtype)
    if dt.kind != "u":
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got "
                         f"{dt.name}")
    return wrap(random_bits_v(k, dt.itemsize * 8, _canonical_shape(shape, "bits")))


def key_data(keys: Any) -> ndarray:
    """The uint32 data of a key or key array: ``keys`` itself (checked).

    Notes
    -----
    xnp keys are already raw uint32 arrays of shape ``(..., 2)``, so this is an identity,
    kept so that code written for JAX's typed keys runs. Raises TypeError for a non-key.
    """
    return wrap(check_key("key_data", keys, allow_batched=True))


def wrap_key_data(key_bits_array: Any, *, impl: str | None = None) -> ndarray:
    """Keys from their uint32 data (shape ``(..., 2)``): the array itself (checked).

    Notes
    -----
    JAX returns a typed key array; xnp has none, so this returns the raw uint32 array.
    ``impl`` may only be ``None`` or ``"threefry2x32"``.
    """
    if impl not in (None, "threefry2x32"):
        raise ValueError(f"wrap_key_data: only the 'threefry2x32' implementation exists, got "
                         f"{impl!r}")
    return wrap(check_key("wrap_key_data", key_bits_array, allow_batched=True))


def key_impl(keys: Any) -> str:
    """The name of the PRNG implementation behind a key or key array: always
    ``"threefry2x32"`` (checked to be a key; TypeError otherwise).

    Notes
    -----
    As ``jax.random.key_impl`` for raw uint32 keys under JAX's default configuration.
    JAX's ``key_dtype`` (the typed ``key<fry>`` dtype) has no xnp counterpart.
    """
    check_key("key_impl", keys, allow_batched=True)
    return "threefry2x32"


def clone(key: Any) -> ndarray:
    """The key itself (JAX's ``clone`` exists for its key-reuse checker; xnp has none)."""
    return wrap(check_key("clone", key, allow_batched=True))


# --- raw samplers shared by the distributions (raw values in and out) ---------------------
def _convert(v, dtype):
    return lax.convert_element_type_p.bind(v, new_dtype=np.dtype(dtype), weak_type=False)


def _check_shape(name: str, shape: tuple, *param_shapes) -> None:
    if param_shapes:
        try:
            got = np.broadcast_shapes(shape, *param_shapes)
        except ValueError:
            got = "no shape (they do not broadcast)"
        if got != shape:
            raise ValueError(f"{name} parameter shapes must be broadcast-compatible with "
                             f"shape argument, and the result of broadcasting the shapes "
                             f"must equal the shape argument, but got result {got} for "
                             f"shape argument {shape}.")


def _shape_of(v) -> tuple:
    return tuple(get_aval(raw(v)).shape) if not isinstance(v, (int, float)) else ()


def _uniform_v(k, shape: tuple, dtype: np.dtype, minval, maxval):
    """Raw uniform values in [minval, maxval): JAX's mantissa-filling construction."""
    fi = xnp.finfo(dtype)
    nbits, nmant = fi.bits, fi.nmant
    rng_bits = 8 if nmant < 8 else nbits
    udt = _UINT[nbits]
    b = random_bits_v(k, rng_bits, shape)
    if rng_bits != nbits:
        b = _convert(b, udt)
    one_bits = np.array(1.0, dtype).view(udt)
    fb = lax.or_p.bind(lax.shift_right_logical_p.bind(b, udt.type(rng_bits - nmant)),
                       one_bits)
    floats = lax.sub_p.bind(lax.bitcast_convert_type_p.bind(fb, new_dtype=dtype),
                            np.array(1.0, dtype))
    lo, hi = _convert(raw(minval), dtype), _convert(raw(maxval), dtype)
    out = lax.max_p.bind(lo, lax.add_p.bind(lax.mul_p.bind(floats, lax.sub_p.bind(hi, lo)),
                                            lo))
    if tuple(get_aval(out).shape) != shape:
        raise ValueError(f"uniform: minval and maxval (shapes {_shape_of(minval)}, "
                         f"{_shape_of(maxval)}) must broadcast to the shape argument "
                         f"{shape}")
    return out


def _clip_convert(v, dtype: np.dtype):
    """An integer value converted to ``dtype``, clipped to its range (not wrapped)."""
    src = np.dtype(get_aval(v).dtype)
    lo = max(int(np.iinfo(dtype).min), int(np.iinfo(src).min))
    hi = min(int(np.iinfo(dtype).max), int(np.iinfo(src).max))
    v = lax.min_p.bind(lax.max_p.bind(v, src.type(lo)), src.type(hi))
    return _convert(v, dtype)


def _as_int(v):
    v = raw(xnp.asarray(v))
    return v if get_aval(v).dtype.kind in "iu" else _convert(v, np.dtype(int))


def _randint_v(k, shape: tuple, minval, maxval, dtype: np.dtype):
    minval, maxval = _as_int(minval), _as_int(maxval)
    _check_shape("randint", shape, _shape_of(minval), _shape_of(maxval))
    max_dt = np.dtype(get_aval(maxval).dtype)
    top = max_dt.type(min(int(np.iinfo(dtype).max), int(np.iinfo(max_dt).max)))
    out_of_range = lax.gt_p.bind(maxval, top)
    minval, maxval = _clip_convert(minval, dtype), _clip_convert(maxval, dtype)
    nbits = dtype.itemsize * 8
    udt = _UINT[nbits]
    keys = wrap(split_v(k, (2,)))
    higher = random_bits_v(keys[0]._value, nbits, shape)
    lower = random_bits_v(keys[1]._value, nbits, shape)
    one = udt.type(1)
    span = _convert(lax.sub_p.bind(maxval, minval), udt)
    span = lax.select_n_p.bind(lax.le_p.bind(maxval, minval), span, one)
    bump = lax.and_p.bind(out_of_range, lax.gt_p.bind(maxval, minval))
    span = lax.select_n_p.bind(bump, span, lax.add_p.bind(span, one))
    mult = lax.rem_p.bind(udt.type(2 ** (nbits // 2)), span)
    mult = lax.rem_p.bind(lax.mul_p.bind(mult, mult), span)
    offset = lax.add_p.bind(lax.mul_p.bind(lax.rem_p.bind(higher, span), mult),
                            lax.rem_p.bind(lower, span))
    offset = lax.rem_p.bind(offset, span)
    return lax.add_p.bind(minval, _convert(offset, dtype))


def _shuffle_v(k, x, axis: int):
    """Sort ``x`` along ``axis`` by random 32-bit keys, ``ceil(3 ln n / ln(2**32 - 1))``
    times (enough rounds that ties are unlikely), as JAX's ``_shuffle``."""
    size = math.prod(get_aval(x).shape)
    rounds = int(np.ceil(3 * np.log(max(1, size)) / np.log(np.iinfo(np.uint32).max)))
    for _ in range(rounds):
        keys = wrap(split_v(k, (2,)))
        k, sub = keys[0]._value, keys[1]._value
        sort_keys = random_bits_v(sub, 32, tuple(get_aval(x).shape))
        _, x = lax.sort_p.bind(sort_keys, x, dimension=axis, is_stable=True, num_keys=1)
    return x


def _float_dtype(dtype, name: str) -> np.dtype:
    dt = np.dtype(float if dtype is None else dtype)
    if not xnp.issubdtype(dt, xnp.floating):
        raise ValueError(f"dtype argument to `{name}` must be a float dtype, got {dt.name}")
    return dt


def _int_dtype(dtype, name: str) -> np.dtype:
    dt = np.dtype(int if dtype is None else dtype)
    if dt.kind not in "iu":
        raise TypeError(f"{name} only accepts integer dtypes, got {dt.name}")
    return dt


def _normal_real_v(k, shape: tuple, dtype: np.dtype):
    lo = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype))
    u = _uniform_v(k, shape, dtype, lo, np.array(1.0, dtype))
    return lax.mul_p.bind(np.array(_SQRT2, dtype), lax.erf_inv_p.bind(u))


def _fixed64_to_float32(c):
    """uint64 values ``c`` read as the fraction ``c / 2**64``, as float32 truncated toward
    zero (all 24 significant bits from the highest set bit on, as JAX's conversion)."""
    hi = (c >> np.uint64(32)).astype(np.uint32)
    lo = c.astype(np.uint32)
    top = xnp.where(hi != 0, hi, lo).astype(np.float64)      # exact: 32 bits
    log2 = ((top.view(np.uint64) >> np.uint64(52)).astype(np.int64) - 1023)
    lz = xnp.where(hi != 0, 31 - log2, 63 - log2)           # leading zeros of c (< 64)
    lz = xnp.where(c == 0, 64, lz)
    norm = xnp.where(lz < 64, c << xnp.minimum(lz, 63).astype(np.uint64), np.uint64(0))
    mant = (norm >> np.uint64(40)).astype(np.uint32) & np.uint32((1 << 23) - 1)
    expo = ((126 - lz).astype(np.uint32) << np.uint32(23)) & np.uint32((1 << 30) - (1 << 22))
    return (expo | mant).view(np.float32)


def _gumbel_highest_f32(k, shape: tuple):
    """JAX's float32 ``"highest"`` Gumbel: ``-log(-log(1 - u))`` for a 64-bit fixed-point
    ``u``, with the smaller of ``u`` and ``1 - u`` converted to float32 (bit for bit)."""
    b = wrap(random_bits_v(k, 32, (2, *shape)))
    c = (b[0].astype(np.uint64) << np.uint64(32)) | b[1].astype(np.uint64)
    low_half = b[0] < np.uint32(1 << 31)
    x = _fixed64_to_float32(xnp.where(low_half, c, np.uint64(0) - c))
    return raw(xnp.where(low_half, -xnp.log(-xnp.log1p(-x)), -xnp.log(-xnp.log(x))))


def _gumbel_v(k, shape: tuple, dtype: np.dtype, mode: str):
    fi = xnp.finfo(dtype)
    if mode == "low":
        u = _uniform_v(k, shape, dtype, np.array(fi.tiny, dtype), np.array(1.0, dtype))
        return lax.neg_p.bind(lax.log_p.bind(lax.neg_p.bind(lax.log_p.bind(u))))
    if mode not in ("high", "highest"):
        raise ValueError(f"gumbel: mode must be 'low', 'high' or 'highest', got {mode!r}")
    if mode == "highest" and dtype == np.float32:
        return _gumbel_highest_f32(k, shape)
    both = _uniform_v(k, (2, *shape), dtype, np.array(0.0, dtype), np.array(1.0, dtype))
    high, low = (wrap(both)[i]._value for i in (0, 1))
    x = lax.select_n_p.bind(
        lax.ge_p.bind(high, np.array(0.5, dtype)),
        lax.add_p.bind(lax.add_p.bind(high, lax.mul_p.bind(np.array(2.0 ** -fi.nmant, dtype),
                                                           low)), np.array(fi.tiny, dtype)),
        high)
    return lax.neg_p.bind(lax.log_p.bind(lax.neg_p.bind(lax.log1p_p.bind(lax.neg_p.bind(x)))))


def _normalize_axis(axis: int, ndim: int) -> int:
    from xnp._util import normalize_axis
    return normalize_axis(axis, ndim)
