"""``cond_p``: run one of several jaxprs (branches), chosen by an integer index.

Operands are ``(index, *ops)``; the parameter ``branches`` holds one :class:`ClosedJaxpr`
per branch, each taking ``ops`` and returning values of the same types; ``funs`` holds
the Python functions they were traced from (or None), re-traced by the JVP and batching
rules so that custom derivative rules inside a branch are kept. An index outside
``[0, len(branches))`` is clamped, as StableHLO's ``case`` does.

Rules: JVP (the JVP of every branch), linearize/partial evaluation (known and staged
branches; all branches produce the residuals of all, zeros in the slots of the others),
transposition (the transposed branches), batching (batched branches, or, for a batched
index, every branch followed by a select; eagerly, each branch on its own members only,
also under nested vmaps: :mod:`transforms.batch_levels`), lowering (``stablehlo.case``).
"""

from __future__ import annotations

import numpy as np

from transforms import core
from transforms import jaxpr_transforms as jt
from transforms.ad import UndefinedPrimal, Zero, instantiate, tangent_aval, zeros_like_aval
from transforms.core import Primitive, Tracer
from transforms.jaxpr import (
    JaxprEqn,
    StagingTrace,
    StagingTracer,
    Var,
    eval_jaxpr,
    trace_to_jaxpr,
)
from transforms.lowering import lower_jaxpr

__all__ = ["cond_p"]

cond_p = Primitive("cond", multiple_results=True)
cond_p.collective = True     # the batching rule needs the vmap axis (size and name)


def _index_of(index, n: int) -> int:
    return min(max(int(index), 0), n - 1)


def _cond_impl(index, *ops, branches, funs=None):
    return eval_jaxpr(branches[_index_of(index, len(branches))], *ops)


def _cond_abstract_eval(index, *avals, branches, funs=None):
    return [a.update(weak_type=False) for a in branches[0].out_avals]


def _no_funs(branches) -> tuple:
    return (None,) * len(branches)


def _cond_jvp(primals, tangents, *, branches, funs=None):
    index, ops = primals[0], primals[1:]
    nonzeros = tuple(type(t) is not Zero for t in tangents[1:])
    funs = funs or _no_funs(branches)
    jvps = [jt.jvp_jaxpr(b, nonzeros, f) for b, f in zip(branches, funs)]
    out_has_tangent = jvps[0][1]
    outs = cond_p.bind(index, *ops, *[t for t in tangents[1:] if type(t) is not Zero],
                       branches=tuple(j for j, _ in jvps), funs=_no_funs(branches))
    n = len(branches[0].out_avals)
    given = iter(outs[n:])
    tangents_out = [next(given) if d else Zero(tangent_aval(a))
                    for d, a in zip(out_has_tangent, branches[0].out_avals)]
    return outs[:n], tangents_out


def _cond_transpose(cts, index, *args, branches, funs=None):
    linear = tuple(type(a) is UndefinedPrimal for a in args)
    transposed = tuple(jt.transpose_jaxpr(b, linear) for b in branches)
    residuals = [a for a in args if type(a) is not UndefinedPrimal]
    cts = [instantiate(c) for c in cts]
    cts_in = iter(cond_p.bind(index, *residuals, *cts, branches=transposed,
                              funs=_no_funs(branches)))
    return [None] + [next(cts_in) if lin else None for lin in linear]


# ---------------------------------------------------------------------------------------
# Batching


def _cond_batch(vals, dims, *, branches, funs=None, _axis):
    size, name = _axis.axis_size, _axis.axis_name
    funs = funs or _no_funs(branches)
    index, ops, op_dims = vals[0], vals[1:], tuple(dims[1:])
    in_batched = [d is not None for d in op_dims]
    if dims[0] is None:
        out_batched = tuple(any(flags) for flags in zip(
            *[jt.batched_outputs(b, in_batched) for b in branches]))
        batched = tuple(jt.batch_jaxpr(b, op_dims, size, name, f, out_batched)
                        for b, f in zip(branches, funs))
        outs = cond_p.bind(index, *ops, branches=batched, funs=_no_funs(branches))
        return outs, [0 if b else None for b in out_batched]
    parts = _concrete_partition(vals[0], dims[0], len(branches), ops, branches)
    if parts is not None:
        return _cond_batch_partitioned(parts, ops, op_dims, branches, funs, size, name)
    nested = _cond_batch_nested(index, dims[0], ops, op_dims, branches, funs, _axis)
    if nested is not None:
        return nested
    # A batched index: every branch runs on the whole batch, then each member's result
    # is selected (the branches have no side effects, so running them all is sound).
    # As in JAX, branch i sees its operands through a stop_gradient for the members
    # that do not take it, so that its derivative (an inf at a point the member never
    # evaluates, say) cannot reach them as a NaN.
    from xnp.lax import broadcast_in_dim_p, eq_p, select_n_p, stop_gradient_p
    from xnp.lax._batch_util import bdim_to_front, moveaxis_v
    n_out = len(branches[0].out_avals)
    index = moveaxis_v(index, dims[0], 0)
    ops0 = [bdim_to_front(x, d, size) for x, d in zip(ops, op_dims)]
    results = []
    for i, (b, f) in enumerate(zip(branches, funs)):
        taken = eq_p.bind(index, np.asarray(i, core.get_aval(index).dtype))
        ops_i = [select_n_p.bind(
            broadcast_in_dim_p.bind(taken, shape=core.get_aval(x).shape,
                                    broadcast_dimensions=(0,)),
            stop_gradient_p.bind(x), x) for x in ops0]
        results.append(eval_jaxpr(jt.batch_jaxpr(b, (0,) * len(ops0), size, name, f,
                                                 (True,) * n_out), *ops_i))
    outs, out_dims = [], []
    for k, cases in enumerate(zip(*results)):
        p = _forwarded_operand(branches, k)
        if p is not None and op_dims[p] is None:   # every branch returns this unbatched
            outs.append(ops[p])                      # operand: it stays unbatched (JAX)
            out_dims.append(None)
            continue
        shape = core.get_aval(cases[0]).shape
        which = broadcast_in_dim_p.bind(index, shape=shape, broadcast_dimensions=(0,))
        outs.append(select_n_p.bind(which, *cases))
        out_dims.append(0)
    return outs, out_dims


def _concrete_partition(index, dim, n: int, ops, branches):
    """For a concrete batched index (eager vmap): the members taking each branch, as
    (branch, member positions) pairs; None where the select form is needed (a traced
    index, an empty batch, collectives over the axis in a branch, float0 operands)."""
    value = core.unwrap(index)
    if isinstance(value, Tracer):
        value = value.to_concrete()
    if value is None or any(jt._creates_batch(e) for b in branches for e in b.jaxpr.eqns):
        return None
    value = np.moveaxis(np.asarray(value), dim, 0)
    if value.ndim != 1 or not value.size or any(
            core.get_aval(x).dtype == core.float0 for x in ops):
        return None
    taken = np.clip(value.astype(np.int64), 0, n - 1)
    return [(i, np.flatnonzero(taken == i)) for i in np.unique(taken)]


def _rows(x, rows: np.ndarray):
    """The members ``rows`` (positions along the leading batch dimension) of ``x``."""
    from xnp.lax import GatherDimensionNumbers, gather_p
    shape = core.get_aval(x).shape
    dn = GatherDimensionNumbers(offset_dims=tuple(range(1, len(shape))),
                                collapsed_slice_dims=(0,), start_index_map=(0,))
    return gather_p.bind(x, rows.reshape(-1, 1), dimension_numbers=dn,
                         slice_sizes=(1, *shape[1:]), mode="clip")


def _cond_batch_partitioned(parts, ops, op_dims, branches, funs, size, name):
    """A batched cond with a concrete index, as an eager loop would run it: each branch
    runs on the members that take it, and only on those (a branch never sees a member it
    is not taken for, whose values may be outside its domain: a singular matrix, an
    out-of-bounds index, the zero residuals of another branch's linearization)."""
    from transforms.batch_levels import run_batched
    from xnp.lax import concatenate_p
    from xnp.lax._batch_util import bdim_to_front
    n_out = len(branches[0].out_avals)
    ops0 = [x if d is None else bdim_to_front(x, d, size) for x, d in zip(ops, op_dims)]
    dims0 = tuple(None if d is None else 0 for d in op_dims)
    results = []
    for i, rows in parts:
        whole = len(rows) == size
        ops_i = [x if d is None or whole else _rows(x, rows) for x, d in zip(ops0, dims0)]
        results.append(run_batched(branches[i], funs[i], ops_i, dims0, len(rows)))
    if len(parts) == 1:
        return results[0], [0] * n_out
    inverse = np.argsort(np.concatenate([rows for _, rows in parts]))
    outs = [_rows(concatenate_p.bind(*cases, dimension=0), inverse)
            for cases in zip(*results)]
    return outs, [0] * n_out


def _cond_batch_nested(index, dim, ops, op_dims, branches, funs, axis):
    """Under nested vmaps, an index concrete only through the enclosing vmap levels: the
    partitioned cond over the merged batch of all of them (None where that does not
    apply)."""
    from transforms.batch_levels import MergedLevels, concrete_levels
    levels = concrete_levels([index], axis.parent)
    if not levels:
        return None
    merged = MergedLevels(axis, levels)
    index, _ = merged.merge(index, dim)
    ops, op_dims = zip(*[merged.merge(x, d) for x, d in zip(ops, op_dims)]) if ops \
        else ((), ())
    with core.set_current_trace(merged.bottom):
        parts = _concrete_partition(index, 0, len(branches), ops, branches)
        if parts is None:
            return None
        outs, out_dims = _cond_batch_partitioned(parts, ops, op_dims, branches, funs,
                                                 merged.size, None)
    return [merged.split(o, d)[0] for o, d in zip(outs, out_dims)], out_dims


def _forwarded_operand(branches, k):
    """The operand position every branch returns unchanged as output ``k``, or None."""
    found = set()
    for b in branches:
        v = b.jaxpr.outvars[k]
        p = next((i for i, w in enumerate(b.jaxpr.invars) if w is v), None)
        if p is None:
            return None
        found.add(p)
    return found.pop() if len(found) == 1 else None


# ---------------------------------------------------------------------------------------
# Partial evaluation (linearize)


def _split_branches(branches, unknowns: tuple):
    """Known and staged branches for operands marked ``unknowns``: known branch i maps
    the known operands to (known outputs, residuals of every branch); staged branch i
    maps (residuals of every branch, unknown operands) to the unknown outputs."""
    out_uk = tuple(any(flags) for flags in zip(
        *[jt.partial_eval_jaxpr(b, unknowns)[2] for b in branches]))
    parts = [jt.partial_eval_jaxpr(b, unknowns, out_uk) for b in branches]
    res_avals = [list(known.out_avals[len(known.out_avals) - n_res:])
                 for known, _, _, n_res in parts]
    offsets = [sum(map(len, res_avals[:i])) for i in range(len(parts))]
    all_res = [a for avals in res_avals for a in avals]
    known_in = [a for a, u in zip(branches[0].in_avals, unknowns) if not u]
    unknown_in = [a for a, u in zip(branches[0].in_avals, unknowns) if u]
    n_known_out = len(out_uk) - sum(out_uk)

    def known_branch(i):
        def fun(*ops):
            outs = eval_jaxpr(parts[i][0], *map(core.unwrap, ops))
            res = list(outs[n_known_out:])
            filled = [zeros_like_aval(a) for a in all_res]
            filled[offsets[i]:offsets[i] + len(res)] = res
            return list(outs[:n_known_out]) + filled
        return trace_to_jaxpr(fun, known_in)

    def staged_branch(i):
        def fun(*args):
            args = [core.unwrap(x) for x in args]
            res = args[offsets[i]:offsets[i] + len(res_avals[i])]
            return eval_jaxpr(parts[i][1], *res, *args[len(all_res):])
        return trace_to_jaxpr(fun, all_res + unknown_in)

    known = tuple(known_branch(i) for i in range(len(parts)))
    staged = tuple(staged_branch(i) for i in range(len(parts)))
    return known, staged, out_uk, all_res


def _merge(out_uk, known_outs, staged_outs) -> list:
    known_it, staged_it = iter(known_outs), iter(staged_outs)
    return [next(staged_it) if u else next(known_it) for u in out_uk]


def _cond_partial_eval(tape: StagingTrace, args, params):
    """On a linearize tape: with a concrete index, the chosen branch is linearized inline;
    otherwise the cond is split into a known cond, run now, and a staged one."""
    branches = params["branches"]
    index, ops = args[0], args[1:]
    concrete = index if not isinstance(index, Tracer) else index.to_concrete()
    if concrete is not None:
        return eval_jaxpr(branches[_index_of(concrete, len(branches))], *ops)
    unknowns = tuple(type(x) is StagingTracer and x._trace is tape for x in ops)
    known, staged, out_uk, all_res = _split_branches(branches, unknowns)
    with core.set_current_trace(tape.parent):
        known_outs = cond_p.bind(index, *[x for x, u in zip(ops, unknowns) if not u],
                                 branches=known, funs=_no_funs(branches))
    n_known = len(out_uk) - sum(out_uk)
    staged_outs = StagingTrace.process_primitive(
        tape, cond_p, (index, *known_outs[n_known:], *[x for x, u in zip(ops, unknowns) if u]),
        dict(branches=staged, funs=_no_funs(branches)))
    return _merge(out_uk, known_outs[:n_known], staged_outs)


def _cond_partial_eval_eqn(eqn: JaxprEqn, unknowns: tuple):
    """Split one cond equation inside a jaxpr being partially evaluated."""
    branches = eqn.params["branches"]
    if unknowns[0]:                          # an unknown index: everything is staged
        return None, eqn, [True] * len(eqn.outvars)
    index, ops, op_uk = eqn.invars[0], eqn.invars[1:], unknowns[1:]
    known, staged, out_uk, all_res = _split_branches(branches, op_uk)
    residuals = [Var(a) for a in all_res]
    known_eqn = JaxprEqn(cond_p, [index] + [v for v, u in zip(ops, op_uk) if not u],
                         [v for v, u in zip(eqn.outvars, out_uk) if not u] + residuals,
                         dict(branches=known, funs=_no_funs(branches)))
    staged_eqn = JaxprEqn(cond_p, [index] + residuals + [v for v, u in zip(ops, op_uk) if u],
                          [v for v, u in zip(eqn.outvars, out_uk) if u],
                          dict(branches=staged, funs=_no_funs(branches)))
    return known_eqn, staged_eqn, list(out_uk)


# ---------------------------------------------------------------------------------------
# Lowering


def _cond_lower(ctx, index, *ops, branches, funs=None):
    out_avals = list(ctx.avals_out)
    index = ctx.convert(index, np.int32)
    regions = [ctx.region([], lambda b=b: lower_jaxpr(ctx, b.jaxpr, b.consts, ops))
               for b in branches]
    outs = ctx.op("stablehlo.case", [index], out_avals, regions=regions)
    return outs


cond_p.impl = _cond_impl
cond_p.abstract_eval = _cond_abstract_eval
cond_p.jvp = _cond_jvp
cond_p.transpose = _cond_transpose
cond_p.batch = _cond_batch
cond_p.partial_eval = _cond_partial_eval
cond_p.partial_eval_eqn = _cond_partial_eval_eqn
cond_p.lower = _cond_lower

