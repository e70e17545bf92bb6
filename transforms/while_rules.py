"""``while_p``: ``while cond(carry): carry = body(carry)`` over jaxprs.

Operands are ``(*cond_consts, *body_consts, *carry)``; the parameters ``cond_jaxpr`` and
``body_jaxpr`` take ``(*cond_consts, *carry)`` and ``(*body_consts, *carry)``;
``cond_nconsts`` and ``body_nconsts`` say how many operands are constants of each.

Rules: JVP (the carry grows by its tangents), batching (a batched predicate runs the loop
while any member's predicate holds and keeps the finished members' carries with a
select; eagerly, where the predicate is concrete, the body runs only on the members
still looping instead: :mod:`transforms.while_eager`), lowering (``stablehlo.while``).
Reverse mode needs the trip count: eagerly it is known, and linearize unrolls the loop on
its tape (one cond per step where ``vmap`` batches the predicate below the tape); under
``jit`` it is not, and transposition raises the error JAX raises (use ``scan`` or
``fori_loop`` with static bounds).
"""

from __future__ import annotations

import numpy as np

from transforms import core
from transforms import jaxpr_transforms as jt
from transforms.ad import Zero, instantiate, is_differentiable, tangent_aval
from transforms.cond_rules import cond_p
from transforms.core import Primitive, Tracer, get_aval
from transforms.jaxpr import (
    ClosedJaxpr,
    Jaxpr,
    JaxprEqn,
    StagingTrace,
    Var,
    eval_jaxpr,
    trace_to_jaxpr,
)
from transforms.lowering import lower_jaxpr

__all__ = ["while_p"]

while_p = Primitive("while", multiple_results=True)
while_p.collective = True    # the batching rule needs the vmap axis (size and name)


def _split(ops, cond_nconsts, body_nconsts):
    return (list(ops[:cond_nconsts]), list(ops[cond_nconsts:cond_nconsts + body_nconsts]),
            list(ops[cond_nconsts + body_nconsts:]))


def _while_impl(*ops, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cconsts, bconsts, carry = _split(ops, cond_nconsts, body_nconsts)
    while eval_jaxpr(cond_jaxpr, *cconsts, *carry)[0]:
        carry = eval_jaxpr(body_jaxpr, *bconsts, *carry)
    return carry


def _while_abstract_eval(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    return [a.update(weak_type=False) for a in body_jaxpr.out_avals]


def _with_ignored_inputs(closed: ClosedJaxpr, avals) -> ClosedJaxpr:
    """``closed`` taking extra trailing inputs of ``avals`` that it ignores."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars + [Var(a) for a in avals], j.outvars,
                             j.eqns), closed.consts)


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    _, bconsts, carry = _split(primals, cond_nconsts, body_nconsts)
    _, bconst_t, carry_t = _split(tangents, cond_nconsts, body_nconsts)
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts,
                  body_nconsts=body_nconsts)
    if all(type(t) is Zero for t in bconst_t + carry_t):
        outs = while_p.bind(*primals, **params)
        return outs, [Zero(tangent_aval(get_aval(o))) for o in outs]
    # Every differentiable carry gets a tangent: it is a fixed point of the body's JVP.
    carry_nz = [is_differentiable(get_aval(c)) for c in carry]
    const_nz = [type(t) is not Zero for t in bconst_t]
    body_jvp, _ = jt.jvp_jaxpr(body_jaxpr, tuple(const_nz + carry_nz))
    nb, nc = len(bconsts), len(carry)
    nbt = sum(const_nz)
    # body_jvp takes (consts, carry, const tangents, carry tangents): put the const
    # tangents among the consts, as the loop wants its carry last.
    order = [*range(nb), *range(nb + nc, nb + nc + nbt), *range(nb, nb + nc),
             *range(nb + nc + nbt, nb + nc + nbt + sum(carry_nz))]
    body = jt.reorder_jaxpr(body_jvp, order)
    t_avals = [tangent_aval(get_aval(c)) for c, nz in zip(carry, carry_nz) if nz]
    cond = _with_ignored_inputs(cond_jaxpr, t_avals)
    carry_tangents = [instantiate(t) if type(t) is Zero else t
                      for t, nz in zip(carry_t, carry_nz) if nz]
    outs = while_p.bind(*primals[:cond_nconsts], *bconsts,
                        *[t for t in bconst_t if type(t) is not Zero], *carry,
                        *carry_tangents, cond_jaxpr=cond, body_jaxpr=body,
                        cond_nconsts=cond_nconsts, body_nconsts=nb + nbt)
    it = iter(outs[nc:])
    return outs[:nc], [next(it) if nz else Zero(tangent_aval(get_aval(c)))
                       for c, nz in zip(outs[:nc], carry_nz)]


def _while_partial_eval(tape: StagingTrace, args, params):
    """Eagerly the predicate is concrete: the loop is unrolled on the linearize tape, one
    body at a time. Otherwise the whole loop is staged (and cannot be transposed)."""
    cconsts, bconsts, carry = _split(args, params["cond_nconsts"], params["body_nconsts"])
    cond, body = params["cond_jaxpr"], params["body_jaxpr"]
    step = None
    while True:
        pred = eval_jaxpr(cond, *cconsts, *carry)[0]
        if isinstance(pred, Tracer):
            value = pred.to_concrete()
            if value is None:
                value = _batched_pred(pred, tape.parent)
                if value is None:
                    return StagingTrace.process_primitive(tape, while_p, args, params)
                if not value.any():
                    return carry
                # Under vmap (a predicate batched below the tape): one step is a cond,
                # which runs the body only on the members still looping.
                step = step or _step_as_cond(body, len(bconsts))
                from xnp.lax import convert_element_type_p
                index = convert_element_type_p.bind(pred, new_dtype=np.dtype(np.int32))
                carry = cond_p.bind(index, *bconsts, *carry, branches=step,
                                    funs=(None, None))
                continue
            pred = value
        if not pred:
            return carry
        carry = eval_jaxpr(body, *bconsts, *carry)


def _batched_pred(pred, context):
    """The members' predicates behind ``pred``, a tracer of the vmap below the tape
    whose value is concrete through the enclosing vmap levels; None otherwise."""
    from transforms.batch_levels import concrete_levels, peeled_value
    if not concrete_levels([pred], context):
        return None
    return np.asarray(peeled_value(pred), dtype=bool)


def _step_as_cond(body: ClosedJaxpr, nb: int) -> tuple:
    """The branches (keep the carry, run the body) of one loop step as a cond."""
    def keep(*args):
        return list(args[nb:])
    return (trace_to_jaxpr(keep, list(body.in_avals)), body)


def _first_outputs(closed: ClosedJaxpr, n: int) -> ClosedJaxpr:
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, j.outvars[:n], j.eqns), closed.consts)


def _while_partial_eval_eqn(eqn, unknowns: tuple):
    """Split a while equation inside a jaxpr being partially evaluated (as JAX does): a
    loop over the known carries computes the known outputs; the staged equation runs
    the whole loop again for the unknown ones (it cannot be transposed, but linearize
    and the primal outputs of a JVP under jit work)."""
    p = eqn.params
    nc, nb = p["cond_nconsts"], p["body_nconsts"]
    c_uk, b_uk, carry_uk = list(unknowns[:nc]), list(unknowns[nc:nc + nb]), \
        list(unknowns[nc + nb:])
    while True:                         # the unknown carries: a fixed point of the body
        out_uk = jt.partial_eval_jaxpr(p["body_jaxpr"], tuple(b_uk + carry_uk))[2]
        new = [a or b for a, b in zip(carry_uk, out_uk)]
        if new == carry_uk:
            break
        carry_uk = new
    if any(c_uk) or jt.partial_eval_jaxpr(p["cond_jaxpr"], tuple(c_uk + carry_uk))[2][0]:
        return None, eqn, [True] * len(eqn.outvars)
    n_known = carry_uk.count(False)
    cond = _first_outputs(jt.partial_eval_jaxpr(p["cond_jaxpr"], tuple(c_uk + carry_uk))[0], 1)
    body = _first_outputs(jt.partial_eval_jaxpr(p["body_jaxpr"], tuple(b_uk + carry_uk))[0],
                          n_known)
    cconsts, bconsts = eqn.invars[:nc], eqn.invars[nc:nc + nb]
    carry = eqn.invars[nc + nb:]
    known_eqn = JaxprEqn(while_p, [*cconsts, *[v for v, u in zip(bconsts, b_uk) if not u],
                                   *[v for v, u in zip(carry, carry_uk) if not u]],
                         [v for v, u in zip(eqn.outvars, carry_uk) if not u],
                         dict(p, cond_jaxpr=cond, body_jaxpr=body,
                              body_nconsts=b_uk.count(False)))
    staged_eqn = JaxprEqn(while_p, eqn.invars, [v if u else Var(v.aval) for v, u in
                                                zip(eqn.outvars, carry_uk)], p)
    return known_eqn, staged_eqn, carry_uk


def _while_transpose(cts, *args, **params):
    raise TypeError(
        "Reverse-mode differentiation does not work for while_loop (or fori_loop with "
        "traced bounds) under jit: the number of iterations is not known when the "
        "function is compiled. Use transforms.scan, or fori_loop with concrete Python "
        "bounds (which becomes a scan); eagerly, grad of a while_loop works.")


# ---------------------------------------------------------------------------------------
# Batching


def _while_batch(vals, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts, _axis):
    from transforms.while_eager import eager_batched_while
    from xnp.lax._batch_util import bdim_to_front
    size, name = _axis.axis_size, _axis.axis_name
    cconsts, bconsts, carry = _split(vals, cond_nconsts, body_nconsts)
    cdims, bdims, carry_dims = _split(dims, cond_nconsts, body_nconsts)
    cb = [d is not None for d in cdims]
    bb = [d is not None for d in bdims]
    carry_b, _ = jt.batched_carry(body_jaxpr, bb, [d is not None for d in carry_dims])
    pred_batched = jt.batched_outputs(cond_jaxpr, cb + carry_b)[0]
    if pred_batched:
        carry_b = [True] * len(carry)
    carry = [bdim_to_front(c, d, size) if b else c
             for c, d, b in zip(carry, carry_dims, carry_b)]
    carry_dims = tuple(0 if b else None for b in carry_b)
    if pred_batched:       # eagerly, the body runs on the members still looping only
        outs = eager_batched_while(cond_jaxpr, body_jaxpr, cconsts, cdims, bconsts, bdims,
                                   carry, _axis)
        if outs is not None:
            return outs, [0] * len(outs)
    body = jt.batch_jaxpr(body_jaxpr, tuple(bdims) + carry_dims, size, name, None,
                          tuple(carry_b))
    cond = jt.batch_jaxpr(cond_jaxpr, tuple(cdims) + carry_dims, size, name, None,
                          (pred_batched,))
    if not pred_batched:
        outs = while_p.bind(*cconsts, *bconsts, *carry, cond_jaxpr=cond, body_jaxpr=body,
                            cond_nconsts=cond_nconsts, body_nconsts=body_nconsts)
        return outs, list(carry_dims)
    cond_any, body_masked = _masked_loop(cond, body, cond_nconsts, body_nconsts,
                                         [get_aval(c) for c in carry])
    outs = while_p.bind(*cconsts, *cconsts, *bconsts, *carry, cond_jaxpr=cond_any,
                        body_jaxpr=body_masked, cond_nconsts=cond_nconsts,
                        body_nconsts=cond_nconsts + body_nconsts)
    return outs, [0] * len(outs)


def _masked_loop(cond, body, nc, nb, carry_avals):
    """For a batched predicate: loop while any member's predicate holds; members whose
    predicate is false keep their carry."""
    from xnp.lax import broadcast_in_dim_p, reduce_or_p, select_n_p
    const_avals = cond.in_avals[:nc]

    def cond_any(*args):
        pred = eval_jaxpr(cond, *args)[0]
        return [reduce_or_p.bind(pred, axes=(0,))]

    def body_masked(*args):
        args = [core.unwrap(x) for x in args]
        cconsts, bconsts, carry = args[:nc], args[nc:nc + nb], args[nc + nb:]
        pred = eval_jaxpr(cond, *cconsts, *carry)[0]
        new = eval_jaxpr(body, *bconsts, *carry)
        outs = []
        for old, value in zip(carry, new):
            shape = get_aval(value).shape
            which = broadcast_in_dim_p.bind(pred, shape=shape, broadcast_dimensions=(0,))
            outs.append(select_n_p.bind(which, old, value))
        return outs

    return (trace_to_jaxpr(cond_any, const_avals + carry_avals),
            trace_to_jaxpr(body_masked, const_avals + body.in_avals[:nb] + carry_avals))


# ---------------------------------------------------------------------------------------
# Lowering


def _while_lower(ctx, *ops, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cconsts, bconsts, carry = _split(ops, cond_nconsts, body_nconsts)
    types = [(v.shape, v.dtype) for v in carry]

    def cond(*c):
        return lower_jaxpr(ctx, cond_jaxpr.jaxpr, cond_jaxpr.consts, [*cconsts, *c])

    def body(*c):
        return lower_jaxpr(ctx, body_jaxpr.jaxpr, body_jaxpr.consts, [*bconsts, *c])

    if not carry:
        return []
    regions = [ctx.region(types, cond), ctx.region(types, body)]
    outs = ctx.op("stablehlo.while", carry, list(types), regions=regions)
    return outs


while_p.impl = _while_impl
while_p.abstract_eval = _while_abstract_eval
while_p.jvp = _while_jvp
while_p.transpose = _while_transpose
while_p.batch = _while_batch
while_p.partial_eval = _while_partial_eval
while_p.partial_eval_eqn = _while_partial_eval_eqn
while_p.lower = _while_lower

