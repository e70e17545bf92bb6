"""The Threefry-2x32 block cipher (20 rounds), the hash behind xnp's functional PRNG.

Threefry-2x32 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2,
3", SC 2011) maps a 64-bit key ``(k0, k1)`` and a 64-bit counter ``(x0, x1)``, each given
as two uint32 words, to two uint32 words. Counter-based generation hashes a range of
counters under one key.

The hash is one primitive, :data:`threefry2x32_p`, a
:class:`transforms.core.CompositePrimitive`: eagerly it runs a NumPy routine (in-place
uint32 arithmetic over cache-sized chunks), while every transformation (jit, vmap, grad,
control flow) sees its expansion into ``xnp.lax`` primitives (adds, shifts, ors and xors
on uint32). The two agree bit for bit.
"""

from __future__ import annotations

import numpy as np

from transforms.core import CompositePrimitive, get_aval
from xnp import lax
from xnp._util import raw
from xnp._util import wrap as _wrap

_U32 = np.dtype(np.uint32)
# Rotation distances of the two alternating groups of four rounds (Threefry-2x32).
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
# The key-schedule parity constant of Threefish/Threefry (32-bit variant).
_PARITY = 0x1BD11BDA
# Eager evaluation works on chunks this long, so that its temporaries stay in cache.
_CHUNK = 1 << 14


def _schedule(k0, k1):
    """The three key words and the five (word 0, word 1) injections after each group."""
    ks = (k0, k1, k0 ^ k1 ^ np.uint32(_PARITY))
    return ks, [(ks[(i + 1) % 3], ks[(i + 2) % 3], np.uint32(i + 1)) for i in range(5)]


# --- eager NumPy implementation ------------------------------------------------------------
def _hash_block(ks, injections, x0, x1, tmp):
    """Hash the counter words ``x0``, ``x1`` (fresh uint32 arrays) in place."""
    x0 += ks[0]
    x1 += ks[1]
    for group, (a, b, c) in enumerate(injections):
        for r in _ROTATIONS[group % 2]:
            np.add(x0, x1, out=x0)
            np.left_shift(x1, np.uint32(r), out=tmp)
            np.right_shift(x1, np.uint32(32 - r), out=x1)
            np.bitwise_or(x1, tmp, out=x1)
            np.bitwise_xor(x1, x0, out=x1)
        x0 += a
        x1 += b
        x1 += c


def _threefry_numpy(k0, k1, x0, x1):
    k0, k1, x0, x1 = (np.asarray(v) for v in (k0, k1, x0, x1))
    shape = np.broadcast_shapes(k0.shape, k1.shape, x0.shape, x1.shape)
    if k0.ndim or k1.ndim:                      # a batch of keys (vmap with NumPy values)
        k0, k1 = (np.broadcast_to(k, shape).ravel() for k in (k0, k1))
    else:
        k0, k1 = k0.astype(_U32)[()], k1.astype(_U32)[()]
    y0 = np.array(np.broadcast_to(x0, shape), dtype=_U32).ravel()
    y1 = np.array(np.broadcast_to(x1, shape), dtype=_U32).ravel()
    n = y0.size
    with np.errstate(over="ignore"):
        if np.ndim(k0):
            ks, inj = _schedule(k0.astype(_U32), k1.astype(_U32))
            _hash_block(ks, inj, y0, y1, np.empty_like(y0))
        else:
            ks, inj = _schedule(k0, k1)
            tmp = np.empty(min(n, _CHUNK), _U32)
            for start in range(0, n, _CHUNK):
                stop = min(start + _CHUNK, n)
                _hash_block(ks, inj, y0[start:stop], y1[start:stop], tmp[:stop - start])
    return [y0.reshape(shape), y1.reshape(shape)]


# --- the same hash from xnp.lax primitives (what transformations see) ----------------------
def _rotate_left(v, r: int):
    return lax.or_p.bind(lax.shift_left_p.bind(v, np.uint32(r)),
                         lax.shift_right_logical_p.bind(v, np.uint32(32 - r)))


def _threefry_composite(k0, k1, x0, x1):
    add, xor = lax.add_p.bind, lax.xor_p.bind
    ks, injections = (k0, k1, xor(xor(k0, k1), np.uint32(_PARITY))), []
    for i in range(5):
        injections.append((ks[(i + 1) % 3], ks[(i + 2) % 3], np.uint32(i + 1)))
    x0, x1 = add(x0, ks[0]), add(x1, ks[1])
    for group, (a, b, c) in enumerate(injections):
        for r in _ROTATIONS[group % 2]:
            x0 = add(x0, x1)
            x1 = xor(_rotate_left(x1, r), x0)
        x0 = add(x0, a)
        x1 = add(add(x1, b), c)
    shape = np.broadcast_shapes(*(get_aval(v).shape for v in (k0, k1, x0, x1)))
    return [_broadcast(x0, shape), _broadcast(x1, shape)]


def _broadcast(v, shape):
    from xnp._util import broadcast_to_v
    return broadcast_to_v(v, shape)


threefry2x32_p = CompositePrimitive("threefry2x32", impl=_threefry_numpy,
                                    expand=_threefry_composite, multiple_results=True)


def threefry2x32(k0, k1, x0, x1) -> tuple:
    """Threefry-2x32 (20 rounds) of the counters ``(x0, x1)`` under the key ``(k0, k1)``.

    Parameters
    ----------
    k0, k1 : array_like of uint32
        The two key words (usually scalars; arrays broadcast with the counters).
    x0, x1 : array_like of uint32
        The two counter words, broadcast together.

    Returns
    -------
    (y0, y1) : tuple of xnp.ndarray
        The two uint32 output words, of the broadcast shape.

    Notes
    -----
    This is the primitive that JAX's ``threefry2x32_p`` binds (JAX's ``threefry_2x32``
    instead takes a flat count array and splits it in halves; use this function with
    ``x0``/``x1`` to get the same words). Inputs must already be uint32: unlike JAX no
    other dtype is accepted, and a TypeError names the offending dtypes.
    """
    values = [raw(v) for v in (k0, k1, x0, x1)]
    dtypes = [get_aval(v).dtype for v in values]
    if any(dt != _U32 for dt in dtypes):
        raise TypeError(f"threefry2x32 requires uint32 arguments, got "
                        f"{[dt.name for dt in dtypes]}")
    y0, y1 = threefry2x32_p.bind(*values)
    return _wrap(y0), _wrap(y1)
