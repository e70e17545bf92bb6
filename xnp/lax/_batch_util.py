"""Helpers for writing batching rules next to each primitive's declaration.

A rule receives values and their batch dimensions (an int, or None when unbatched) and
returns the batched result and its batch dimension, binding only primitives.
"""

from __future__ import annotations

import numpy as np

from transforms.core import get_aval

__all__ = ["moveaxis_v", "broadcast_batch_v", "bdim_to_front", "batch_elementwise",
           "batch_unary_axes", "shift_axes"]


_lax_module = None
_ndarray = np.ndarray


def _lax():
    global _lax_module
    if _lax_module is None:     # imported late: xnp.lax imports this module
        from xnp import lax
        _lax_module = lax
    return _lax_module


def moveaxis_v(v, src: int, dst: int):
    """Move dimension ``src`` of ``v`` to position ``dst`` (a transpose, or nothing)."""
    if src == dst:
        return v
    nd = get_aval(v).ndim
    perm = [d for d in range(nd) if d != src]
    perm.insert(dst, src)
    return _lax().transpose_p.bind(v, permutation=tuple(perm))


def broadcast_batch_v(v, size: int, axis: int):
    """Insert a new dimension of ``size`` at ``axis`` (an unbatched value made batched)."""
    a = get_aval(v)
    shape = a.shape[:axis] + (size,) + a.shape[axis:]
    dims = tuple(d if d < axis else d + 1 for d in range(a.ndim))
    return _lax().broadcast_in_dim_p.bind(v, shape=shape, broadcast_dimensions=dims)


def bdim_to_front(v, bdim, size: int):
    """``v`` with its batch dimension first (materialised by broadcasting if None)."""
    if bdim is None:
        return broadcast_batch_v(v, size, 0)
    return moveaxis_v(v, bdim, 0)


def shift_axes(axes, bdim: int) -> tuple:
    """Axes of the unbatched operand, renumbered for an operand batched at ``bdim``."""
    return tuple(a + (a >= bdim) for a in axes)


def batch_elementwise(prim):
    """Batching for NumPy-style broadcasting primitives: batched operands get their batch
    dimension in front, padded with size-1 dimensions to the common rank; unbatched ones
    broadcast from the right as they would have anyway."""
    def rule(vals, dims, **params):
        if len(vals) == 1:
            return prim.bind(*vals, **params), dims[0]
        if len(vals) == 2:      # the common cases first: nothing needs to move
            (x, y), (dx, dy) = vals, dims
            nx = x.ndim if type(x) is _ndarray else _ndim(x)    # inlined: the hot path
            ny = y.ndim if type(y) is _ndarray else _ndim(y)
            if dx is not None and (dy == dx and nx == ny or dy is None and ny == 0):
                return prim.bind(x, y, **params), dx
            if dx is None and dy is not None and nx == 0:
                return prim.bind(x, y, **params), dy
        ranks, rank, first, uniform = [], 0, None, True
        for v, d in zip(vals, dims):
            r = v.ndim if type(v) is _ndarray else get_aval(v).ndim
            if d is not None:
                r -= 1
                if first is None:
                    first = d
                elif d != first:
                    uniform = False
            ranks.append(r)
            if r > rank:
                rank = r
        if uniform and _aligned(ranks, dims, rank, first):
            return prim.bind(*vals, **params), first
        lax = _lax()
        out = []
        for v, d, r in zip(vals, dims, ranks):
            if d is None:
                out.append(v)
                continue
            v = moveaxis_v(v, d, 0)
            if r < rank:
                shape = get_aval(v).shape
                v = lax.reshape_p.bind(v, new_sizes=(shape[0],) + (1,) * (rank - r)
                                       + shape[1:])
            out.append(v)
        return prim.bind(*out, **params), 0
    prim.batch = rule
    return rule


def _ndim(v) -> int:
    return v.ndim if type(v) is _ndarray else get_aval(v).ndim


def _aligned(ranks, dims, rank, bdim) -> bool:
    """Whether operands batched at ``bdim`` (all of full rank) and unbatched ones (short
    enough to broadcast from the right past ``bdim``) already line up."""
    for r, d in zip(ranks, dims):
        if (r != rank) if d is not None else (r > rank - bdim):
            return False
    return True


def batch_unary_axes(prim, *names: str):
    """Batching for one-operand primitives whose parameters ``names`` are axis tuples
    (or a single axis): the batch dimension stays where it is, the axes shift."""
    def rule(vals, dims, **params):
        (v,), (d,) = vals, dims
        new = dict(params)
        for n in names:
            p = params[n]
            new[n] = shift_axes(p, d) if isinstance(p, tuple) else p + (p >= d)
        return prim.bind(v, **new), d
    prim.batch = rule
    return rule
