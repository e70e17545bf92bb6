"""Eager control flow under nested ``vmap``: seeing through the enclosing batch levels.

A batching rule sees the values of the trace below it. Under ``vmap(vmap(f))`` the inner
rule's values are tracers of the outer vmap, so a predicate that both levels batch is
not concrete there, although the array behind it is. To run a branch (or a loop body)
only on the members that need it, the rule merges the batch dimensions of every
enclosing vmap level it must see through into one leading dimension (outermost level
slowest), works on that merged batch in the trace below those levels, and splits the
results back into tracers of the levels (:class:`MergedLevels`).

A value is *concrete through the levels* when, peeling one :class:`BatchTracer` per
enclosing :class:`BatchTrace`, one reaches a NumPy value, or a JVP tracer whose primal
is one (eager ``jvp``/``grad``). Staged values (``jit``, ``make_jaxpr``) never are, so
compiled code keeps its select-based form.
"""

from __future__ import annotations

import numpy as np

from transforms import core
from transforms.ad import JVPTracer
from transforms.batching import BatchTrace, BatchTracer
from transforms.core import Tracer, get_aval
from transforms.eager_grad import RevTracer

__all__ = ["concrete_levels", "concrete_value", "peeled_value", "MergedLevels"]


def concrete_levels(values, context) -> list | None:
    """The enclosing batch traces (``context``, the trace the values belong to, and the
    batch traces below it, innermost first) that must be merged for every one of
    ``values`` to be concrete, or None when one of them is not concrete that way."""
    depth = 0
    for x in values:
        v, cur, k = core.unwrap(x), context, 0
        while isinstance(v, Tracer):
            if type(v) is BatchTracer:
                while cur is not v._trace and type(cur) is BatchTrace:
                    cur, k = cur.parent, k + 1
                if cur is not v._trace:
                    return None
                v, cur, k = v.val, cur.parent, k + 1
            elif type(v) is JVPTracer:
                v = v.primal
            elif type(v) is RevTracer:
                v = v.value
            else:
                return None
        depth = max(depth, k)
    levels, cur = [], context
    for _ in range(depth):
        levels.append(cur)
        cur = cur.parent
    return levels


def concrete_value(x):
    """The NumPy value of ``x``, a value that is concrete in the current trace."""
    x = core.unwrap(x)
    return x.to_concrete() if isinstance(x, Tracer) else x


def holds_control_flow(closed) -> bool:
    """Whether a jaxpr holds a cond or a while loop (also inside a nested jaxpr): run as
    a batched jaxpr, it would run every branch, or the body, on every member."""
    from transforms.jaxpr import ClosedJaxpr
    for e in closed.jaxpr.eqns:
        if e.prim.name in ("cond", "while"):
            return True
        if any(isinstance(j, ClosedJaxpr) and holds_control_flow(j)
               for v in e.params.values() for j in (v if isinstance(v, tuple) else (v,))):
            return True
    return False


def _reshape(v, shape):
    from xnp.lax import reshape_p
    return reshape_p.bind(v, new_sizes=tuple(shape))


class MergedLevels:
    """The batch of ``axis`` (a :class:`BatchTrace`) merged with those of ``levels`` (the
    batch traces below it, innermost first, as :func:`concrete_levels` gives them).

    ``merge`` is called in ``axis``'s parent trace; the merged values belong to
    ``bottom``, the trace below the levels, where the caller computes with them (inside
    ``core.set_current_trace(merged.bottom)``); ``split`` turns a result batched along
    its leading (merged) dimension back into one batched along 0 by ``axis``.
    """

    def __init__(self, axis: BatchTrace, levels: list):
        self.axis, self.levels = axis, levels
        self.sizes = [t.axis_size for t in reversed(levels)] + [axis.axis_size]
        self.size = int(np.prod(self.sizes))
        self.bottom = levels[-1].parent if levels else axis.parent

    def _batched_below(self, x) -> bool:
        return type(x) is BatchTracer and any(x._trace is t for t in self.levels)

    def merge(self, x, bdim):
        """``(value, 0)`` with the merged batch leading, or ``(x, None)`` for a value that
        no level batches (then it already belongs to ``bottom``)."""
        from xnp.lax._batch_util import bdim_to_front
        x = core.unwrap(x)
        if bdim is None and not self._batched_below(x):
            return x, None
        x = bdim_to_front(x, bdim, self.axis.axis_size)
        for t in self.levels:
            v, b = (x.val, x.bdim) if type(x) is BatchTracer and x._trace is t else (x, None)
            with core.set_current_trace(t.parent):
                v = bdim_to_front(v, b, t.axis_size)
                shape = get_aval(v).shape
                x = _reshape(v, (shape[0] * shape[1],) + shape[2:])
        return x, 0

    def split(self, v, bdim):
        """A result of the merged computation (batched along ``bdim``, 0 or None) as a
        value of ``axis``'s parent trace, batched along 0 (or None) by ``axis``."""
        if bdim is None or not self.levels:
            return v, bdim
        with core.set_current_trace(self.bottom):
            v = _reshape(v, tuple(self.sizes) + get_aval(v).shape[1:])
        for t in reversed(self.levels):
            v = BatchTracer(t, v, 0)
        return v, 0


def peeled_value(x):
    """The NumPy array behind ``x``, a value concrete through its batch levels (see
    :func:`concrete_levels`), with every level's batch dimension where it lies."""
    v = core.unwrap(x)
    while isinstance(v, Tracer):
        v = v.val if type(v) is BatchTracer else v.primal
    return v


def run_batched(closed, fun, args, dims, size: int, axis_name=None) -> list:
    """``closed`` run now on ``args`` batched along ``dims`` (None: unbatched) with batch
    size ``size``; every output batched along 0. Unlike evaluating a batched jaxpr,
    control flow inside runs eagerly too, each member only where it must (a nested cond
    or while_loop). ``fun``, the Python function ``closed`` was traced from, runs instead
    where a transformation below sees the values (it keeps custom derivative rules)."""
    from transforms.jaxpr import eval_jaxpr
    from xnp.lax._batch_util import bdim_to_front
    use_fun = fun is not None and any(isinstance(a, Tracer) for a in args)
    trace = BatchTrace(size, axis_name)
    with core.new_trace(trace):
        ins = [a if d is None else BatchTracer(trace, a, d) for a, d in zip(args, dims)]
        outs = fun(*map(core.wrap, ins)) if use_fun else eval_jaxpr(closed, *ins)
        outs = [trace.lift(core.unwrap(o)) for o in outs]
    return [bdim_to_front(v, d, size) for v, d in outs]
