"""Eager ``vmap`` of a ``while_loop`` whose predicate is batched: the body runs only on
the members whose loop is still running, as a Python loop over the batch would.

Each step evaluates the predicate on the running members, moves those that stopped out
of the loop (a gather), and runs the body, batched, on the others; at the end the
finished carries are put back in batch order. Under nested ``vmap`` the batch of every
enclosing level the predicate needs is merged into one (:mod:`transforms.batch_levels`).
The select-based loop of :mod:`transforms.while_rules` remains for staged code (``jit``),
for collectives in the loop, and wherever the predicate is not concrete.
"""

from __future__ import annotations

import numpy as np

from transforms import core
from transforms import jaxpr_transforms as jt
from transforms.batch_levels import (
    MergedLevels,
    concrete_levels,
    concrete_value,
    holds_control_flow,
    run_batched,
)
from transforms.jaxpr import eval_jaxpr

__all__ = ["eager_batched_while"]


def eager_batched_while(cond_jaxpr, body_jaxpr, cconsts, cdims, bconsts, bdims, carry,
                        axis):
    """The final carry (batched along 0) of the loop ``cond_jaxpr``/``body_jaxpr`` (the
    unbatched jaxprs) from ``carry`` (every value batched along 0 by ``axis``), with
    constants batched along ``cdims``/``bdims``; None where the loop must be staged."""
    if any(jt._creates_batch(e) for j in (cond_jaxpr, body_jaxpr) for e in j.jaxpr.eqns):
        return None
    levels = concrete_levels([*cconsts, *bconsts, *carry], axis.parent)
    if levels is None:
        return None
    merged = MergedLevels(axis, levels)
    cconsts, cdims = _merge_all(merged, cconsts, cdims)
    bconsts, bdims = _merge_all(merged, bconsts, bdims)
    carry = [merged.merge(c, 0)[0] for c in carry]
    with core.set_current_trace(merged.bottom):
        outs = _loop(cond_jaxpr, body_jaxpr, cconsts, cdims, bconsts, bdims, carry,
                     merged.size)
    return [merged.split(o, 0)[0] for o in outs]


def _merge_all(merged, values, dims):
    pairs = [merged.merge(v, d) for v, d in zip(values, dims)]
    return [v for v, _ in pairs], tuple(d for _, d in pairs)


class _Batched:
    """``closed`` run on arguments batched along ``dims`` (None: unbatched), every output
    batched along 0, for a batch size that shrinks as members finish. Each call is
    interpreted under a batch trace, with no jaxpr traced for each size, until the size
    has stayed the same for a few steps; then the batched jaxpr for that size is traced
    (and cached) and evaluated, which costs less per step."""

    STABLE = 4

    def __init__(self, closed, dims):
        self.closed, self.dims = closed, dims
        self.size, self.steps, self.jaxpr = -1, 0, None
        # Control flow inside must stay eager (a staged batched cond runs every branch).
        self.stageable = not holds_control_flow(closed)

    def __call__(self, args, size: int) -> list:
        if size != self.size:
            self.size, self.steps, self.jaxpr = size, 0, None
        self.steps += 1
        if self.jaxpr is None and self.steps > self.STABLE and self.stageable:
            self.jaxpr = jt.batch_jaxpr(self.closed, self.dims, size, None, None,
                                        (True,) * len(self.closed.out_avals))
        if self.jaxpr is not None:
            return eval_jaxpr(self.jaxpr, *args)
        return run_batched(self.closed, None, args, self.dims, size)


_ROW_DNS: dict = {}
_LAX: dict = {}          # xnp.lax names, imported on first use (xnp imports transforms)


def _rows(x, rows):
    """The members ``rows`` (an int64 column, positions along the leading dimension) of
    ``x``: a gather of whole rows."""
    shape = core.get_aval(x).shape
    dn = _ROW_DNS.get(len(shape))
    if dn is None:
        from xnp.lax import GatherDimensionNumbers
        dn = _ROW_DNS[len(shape)] = GatherDimensionNumbers(
            offset_dims=tuple(range(1, len(shape))), collapsed_slice_dims=(0,),
            start_index_map=(0,))
    return _LAX["gather_p"].bind(x, rows, dimension_numbers=dn,
                                 slice_sizes=(1, *shape[1:]), mode="clip")


def _loop(cond, body, cconsts, cdims, bconsts, bdims, carry, size: int) -> list:
    if not size:
        return carry
    if not _LAX:
        from xnp.lax import gather_p
        _LAX.update(gather_p=gather_p)
    running = np.arange(size)                # batch positions of the running members
    finished: list = []                      # (positions, carries) of those that stopped
    carry_dims = (0,) * len(carry)
    cond, body = _Batched(cond, cdims + carry_dims), _Batched(body, bdims + carry_dims)
    while True:
        pred = cond([*cconsts, *carry], running.size)[0]
        pred = np.asarray(concrete_value(pred), dtype=bool)
        if not pred.all():
            if not pred.any():
                finished.append((running, carry))
                break
            keep, stop = np.flatnonzero(pred), np.flatnonzero(~pred)
            finished.append((running[stop], [_rows(c, stop[:, None]) for c in carry]))
            running = running[keep]
            keep = keep[:, None]
            carry = [_rows(c, keep) for c in carry]
            cconsts = [c if d is None else _rows(c, keep) for c, d in zip(cconsts, cdims)]
            bconsts = [c if d is None else _rows(c, keep) for c, d in zip(bconsts, bdims)]
        carry = body([*bconsts, *carry], running.size)
    if len(finished) == 1:                   # every member stopped at the same step
        return finished[0][1]
    from xnp.lax import concatenate_p
    inverse = np.argsort(np.concatenate([rows for rows, _ in finished]))[:, None]
    return [_rows(concatenate_p.bind(*pieces, dimension=0), inverse)
            for pieces in zip(*[values for _, values in finished])]
