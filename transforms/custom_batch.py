"""How ``vmap`` batches ``custom_jvp`` and ``custom_vjp`` calls: the function and its
rules are batched alike (each run with the batch trace re-entered, so they may close
over values it batches), so that the rules survive vmap; and the batching rule of
:data:`~transforms.custom_derivatives.custom_lin_p`, which vmaps ``bwd``.
"""

from __future__ import annotations

import functools

from transforms import core
from transforms.ad import Zero
from transforms.core import get_aval
from transforms.custom_derivatives import (
    _ARRAY_TYPES,
    KINDS,
    _join_residuals,
    _split_residuals,
    bind_custom,
    custom_lin_p,
)
from transforms.tree import tree_map

__all__ = ["batch_custom"]


def _reenter(trace, f, args, dims):
    """Run ``f`` on ``args`` batched along ``dims`` by ``trace`` itself, re-entered above
    the current trace (as JAX's batching subtraces share their axis' tag): values that
    ``f`` closes over and ``trace`` batches stay batched. Returns ``f``'s output and a
    function giving an output leaf's (value, batch dimension) at the current level."""
    from transforms.batching import BatchTracer
    state = core._state
    below, parent = state.trace, trace.parent
    trace.parent, state.trace = below, trace
    try:
        ins = [v if d is None else BatchTracer(trace, v, d) for v, d in zip(args, dims)]
        return f(*ins)
    finally:
        trace.parent, state.trace = parent, below


def batch_custom(trace, kind, args, params):
    """Batch the function and its rule alike, so the rule survives vmap. They run with
    ``trace`` re-entered (:func:`_reenter`), so they may close over values it batches."""
    from xnp.lax._batch_util import broadcast_batch_v, moveaxis_v
    if kind in KINDS:
        return KINDS[kind][2](trace, args, params)
    vals, dims = zip(*(trace.lift(x) for x in args)) if args else ((), ())
    size = trace.axis_size
    any_batched = any(d is not None for d in dims)
    state = core._state
    state.trace = trace.parent
    # Batched inputs get their batch dimension first. Unbatched ones stay unbatched (so
    # Python scalars keep their weak type) for custom_jvp, and for custom_vjp where they
    # are constants (not tracers); an unbatched tracer input of a custom_vjp is batched
    # too, so that bwd's batched cotangent for it has the shape of its (batched) primal.
    keep = [d is None and (kind == "jvp" or not any_batched or not isinstance(v, core.Tracer))
            for v, d in zip(vals, dims)]
    try:
        vals = [v if k else moveaxis_v(v, d, 0) if d is not None
                else broadcast_batch_v(v, size, 0) for v, d, k in zip(vals, dims, keep)]
    finally:
        state.trace = trace
    in_axes = tuple(None if k else 0 for k in keep)
    # Whether the outputs are batched (then all along 0): decided by the first of the
    # function and its rules to run, the others conform. With no batched input they stay
    # unbatched unless a closed-over value makes them batched.
    batched_out: list = [] if not any_batched else [True]

    def leaf_out(x):
        if type(x) is Zero:                 # a symbolic zero tangent stays symbolic
            if batched_out and batched_out[0]:
                return Zero(x.aval.update(shape=(size, *x.aval.shape))), 0
            return x, None
        v, d = trace.lift(core.unwrap(x))
        if not batched_out:
            return v, d
        if batched_out[0]:
            return (moveaxis_v(v, d, 0) if d is not None else broadcast_batch_v(v, size, 0)), 0
        if d is not None:
            raise TypeError("custom derivative rule under vmap: its output is batched "
                            "where the function's is not")
        return v, None

    def conform(groups):
        pairs = [[leaf_out(x) for x in g] for g in groups]
        if not batched_out:
            batched_out.append(any(d is not None for g in pairs for _, d in g))
            pairs = [[leaf_out(x) for x in g] for g in groups]
        return [[v for v, _ in g] for g in pairs]

    def run(f, *xs):
        return _reenter(trace, f, xs, in_axes)

    new = {"call": lambda *xs: conform([run(params["call"], *xs)])[0]}
    if kind == "jvp":
        rule = params["rule"]

        def new_rule(primals, tangents):
            # Zero tangents bypass the re-entered trace, as zeros of one member
            zero = [type(t) is Zero for t in tangents]
            member = [_member_zero(t, ax) if z else None
                      for t, z, ax in zip(tangents, zero, in_axes)]
            n = len(primals)

            def both(*pt):
                given = iter(pt[n:])
                return rule(list(pt[:n]), [m if z else next(given)
                                           for m, z in zip(member, zero)])
            outs, touts = _reenter(trace, both,
                                   (*primals, *[t for t, z in zip(tangents, zero) if not z]),
                                   in_axes + tuple(ax for ax, z in zip(in_axes, zero) if not z))
            return conform([outs, touts])
        new["rule"] = new_rule
    else:
        fwd, bwd = params["fwd"], params["bwd"]

        def new_fwd(*xs, perturbed=None):
            outs, res = run(functools.partial(fwd, perturbed=perturbed), *xs)
            outs, = conform([outs])
            if batched_out[0]:
                res = tree_map(lambda r: leaf_out(r)[0]
                               if isinstance(core.unwrap(r), _ARRAY_TYPES) else r, res)
            return outs, res

        def new_bwd(res, cts):
            if not batched_out[0]:
                return bwd(res, cts)
            return _vmapped_bwd(bwd, res, 0, cts, size)
        new["fwd"], new["bwd"] = new_fwd, new_bwd
    state.trace = trace.parent
    try:
        outs = bind_custom(kind, [core.unwrap(v) for v in vals], new)
    finally:
        state.trace = trace
    from transforms.batching import BatchTracer
    if not batched_out[0]:
        return [core.unwrap(o) for o in outs]
    return [BatchTracer(trace, core.unwrap(o), 0) for o in outs]


def _custom_lin_batch(vals, dims, *, bwd, static, n_tangents, out_avals):
    """Batch the linear custom_vjp application: every tangent gets its batch dimension
    first, and ``bwd`` is vmapped over the cotangents and the batched residuals."""
    from xnp.lax._batch_util import bdim_to_front, moveaxis_v
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    ts = [bdim_to_front(v, d, size) for v, d in zip(vals[:n_tangents], dims[:n_tangents])]
    res = [v if d is None else moveaxis_v(v, d, 0)
           for v, d in zip(vals[n_tangents:], dims[n_tangents:])]
    res_axes = [None if d is None else 0 for d in dims[n_tangents:]]

    def batched_bwd(residuals, cts):       # residuals: the batched pytree
        arrays, _ = _split_residuals(residuals)
        return list(_vmapped_bwd(lambda r, c: bwd(_join_residuals(r, static), c),
                                 arrays, res_axes, cts, size))

    new_avals = tuple(a.update(shape=(size, *a.shape)) for a in out_avals)
    outs = custom_lin_p.bind(*ts, *res, bwd=batched_bwd, static=static,
                             n_tangents=n_tangents, out_avals=new_avals)
    return outs, [0] * len(outs)


def _member_zero(t, axis):
    """The Zero ``t`` (batched along ``axis``, 0 or None) for one batch member."""
    return t if axis is None else Zero(t.aval.update(shape=t.aval.shape[1:]))


def _vmapped_bwd(bwd, res, res_axes, cts, size):
    """``bwd(res, cts)`` vmapped over the residuals (along ``res_axes``) and the output
    cotangents (along 0); Zero cotangents reach ``bwd`` as Zero of one member."""
    from transforms.batching import vmap
    zero = [type(c) is Zero for c in cts]
    member = [_member_zero(c, 0) if z else None for c, z in zip(cts, zero)]

    def one(r, given):
        given = iter(given)
        return bwd(r, [m if z else next(given) for m, z in zip(member, zero)])
    return vmap(one, in_axes=(res_axes, 0), axis_size=size)(
        res, tuple(c for c, z in zip(cts, zero) if not z))


custom_lin_p.batch = _custom_lin_batch
