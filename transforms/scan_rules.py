"""``scan_p``: a loop over the leading axis of arrays, with a carried state.

Operands are ``(*consts, *init, *xs)``; the parameter ``jaxpr`` maps
``(*consts, *carry, *x)`` to ``(*carry, *y)``, where ``x`` is one slice of ``xs`` along
axis 0; the results are the final carry and the ``y`` stacked along a new axis 0.
``length`` is the number of iterations, ``reverse`` runs them from the last slice to the
first, ``num_consts``/``num_carry`` split the operands, ``funs`` holds the Python function
the body was traced from (or None), re-traced by the JVP and batching rules to keep the
custom derivative rules inside it.

Rules: JVP (carry and slices grow by their tangents), partial evaluation (a known scan run
now, whose per-iteration residuals become extra stacked outputs, and a staged scan; the
residuals that are loop constants are passed once, not stacked), transposition (a scan
in the opposite direction that accumulates the constants' cotangents in its carry),
batching (carried values batched where they must be, to a fixed point; eagerly, a body
holding control flow runs step by step under vmap, so that a cond inside it runs each
member through its own branch only), lowering (``stablehlo.while`` with dynamic slices
and updates).
"""

from __future__ import annotations

import numpy as np

from transforms import core
from transforms import jaxpr_transforms as jt
from transforms.ad import (
    UndefinedPrimal,
    Zero,
    add_tangents,
    instantiate,
    is_differentiable,
    tangent_aval,
    zeros_like_aval,
)
from transforms.core import Primitive, get_aval
from transforms.jaxpr import (
    ClosedJaxpr,
    Jaxpr,
    JaxprEqn,
    StagingTrace,
    StagingTracer,
    Var,
    eval_jaxpr,
    trace_to_jaxpr,
)
from transforms.lowering import i64_array, lower_jaxpr

__all__ = ["scan_p"]

scan_p = Primitive("scan", multiple_results=True)
scan_p.collective = True     # the batching rule needs the vmap axis (size and name)


def _split(seq, num_consts, num_carry):
    seq = list(seq)
    return seq[:num_consts], seq[num_consts:num_consts + num_carry], \
        seq[num_consts + num_carry:]


def _params(jaxpr, length, reverse, num_consts, num_carry, funs=None):
    return dict(jaxpr=jaxpr, length=length, reverse=reverse, num_consts=num_consts,
                num_carry=num_carry, funs=funs)


def _scan_impl(*ops, jaxpr, length, reverse, num_consts, num_carry, funs=None):
    consts, carry, xs = _split(ops, num_consts, num_carry)
    xs = [np.asarray(x) for x in xs]
    ys = []
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        out = eval_jaxpr(jaxpr, *consts, *carry, *[x[i] for x in xs])
        carry, y = out[:num_carry], out[num_carry:]
        ys.append(y)
    if reverse:
        ys.reverse()
    y_avals = jaxpr.out_avals[num_carry:]
    stacked = [np.stack([np.asarray(y[k], a.dtype) for y in ys]) if ys else
               np.zeros((0, *a.shape), a.dtype) for k, a in enumerate(y_avals)]
    return list(carry) + stacked


def _scan_abstract_eval(*avals, jaxpr, length, reverse, num_consts, num_carry, funs=None):
    outs = [a.update(weak_type=False) for a in jaxpr.out_avals]
    return outs[:num_carry] + [a.update(shape=(length, *a.shape)) for a in outs[num_carry:]]


# ---------------------------------------------------------------------------------------
# JVP


def _scan_jvp(primals, tangents, *, jaxpr, length, reverse, num_consts, num_carry,
              funs=None):
    nc = num_carry
    if all(type(t) is Zero for t in tangents):
        outs = scan_p.bind(*primals, **_params(jaxpr, length, reverse, num_consts, nc,
                                                funs))
        return outs, [Zero(tangent_aval(get_aval(o))) for o in outs]
    consts, carry, xs = _split(primals, num_consts, nc)
    const_t, carry_t, xs_t = _split(tangents, num_consts, nc)
    const_nz = [type(t) is not Zero for t in const_t]
    carry_nz = [is_differentiable(get_aval(c)) for c in carry]   # a fixed point
    xs_nz = [type(t) is not Zero for t in xs_t]
    jvp, out_has_tangent = jt.jvp_jaxpr(jaxpr, tuple(const_nz + carry_nz + xs_nz),
                                        funs[0] if funs else None)
    n_in, n_out = len(jaxpr.in_avals), len(jaxpr.out_avals)
    k, c = len(consts), len(carry)
    kt, ct = sum(const_nz), sum(carry_nz)
    # jvp takes (consts, carry, xs, their nonzero tangents) and returns (carry, ys, their
    # tangents); the loop wants (consts, const tangents, carry, carry tangents, xs, xs
    # tangents) and returns (carry, carry tangents, ys, ys tangents).
    in_order = [*range(k), *range(n_in, n_in + kt), *range(k, k + c),
                *range(n_in + kt, n_in + kt + ct), *range(k + c, n_in),
                *range(n_in + kt + ct, n_in + kt + ct + sum(xs_nz))]
    yt = sum(out_has_tangent[nc:])
    out_order = [*range(nc), *range(n_out, n_out + ct), *range(nc, n_out),
                 *range(n_out + ct, n_out + ct + yt)]
    body = jt.reorder_jaxpr(jvp, in_order, out_order)
    ops = [*consts, *[t for t in const_t if type(t) is not Zero], *carry,
           *[instantiate(t) for t, nz in zip(carry_t, carry_nz) if nz], *xs,
           *[t for t in xs_t if type(t) is not Zero]]
    outs = scan_p.bind(*ops, **_params(body, length, reverse, k + kt, c + ct))
    carry_out, carry_t_out = outs[:c], iter(outs[c:c + ct])
    ys, ys_t = outs[c + ct:c + ct + n_out - nc], iter(outs[c + ct + n_out - nc:])
    tangents_out = [next(carry_t_out) if nz else Zero(tangent_aval(get_aval(o)))
                    for o, nz in zip(carry_out, carry_nz)]
    tangents_out += [next(ys_t) if d else Zero(tangent_aval(get_aval(o)))
                     for o, d in zip(ys, out_has_tangent[nc:])]
    return carry_out + ys, tangents_out


# ---------------------------------------------------------------------------------------
# Partial evaluation (linearize)


class _Split:
    """How a scan splits into a known scan and a staged one (see the module docstring)."""

    def __init__(self, params, unknowns):
        jaxpr, nk, nc = params["jaxpr"], params["num_consts"], params["num_carry"]
        const_uk, carry_uk, xs_uk = _split(unknowns, nk, nc)
        while True:
            out_uk = jt.partial_eval_jaxpr(jaxpr, tuple(const_uk + carry_uk + xs_uk))[2]
            grown = [a or b for a, b in zip(carry_uk, out_uk[:nc])]
            if grown == carry_uk:
                break
            carry_uk = grown
        self.unknowns = const_uk + carry_uk + xs_uk
        n_y = len(jaxpr.out_avals) - nc
        known, staged, self.out_uk, n_res = jt.partial_eval_jaxpr(
            jaxpr, tuple(self.unknowns), tuple(carry_uk) + (False,) * n_y)
        kj = known.jaxpr
        n_known_out = len(kj.outvars) - n_res
        residuals = kj.outvars[n_known_out:]
        n_kconsts = nk - sum(const_uk)
        known_consts = kj.invars[:n_kconsts]
        # A residual that is a loop constant is passed to the staged scan once.
        self.const_res = [known_consts.index(r) if r in known_consts else None
                          for r in residuals]
        iter_res = [r for r, i in zip(residuals, self.const_res) if i is None]
        self.known = ClosedJaxpr(Jaxpr(kj.constvars, kj.invars,
                                       kj.outvars[:n_known_out] + iter_res, kj.eqns),
                                 known.consts)
        self.n_kconsts, self.n_kcarry = n_kconsts, nc - sum(carry_uk)
        self.n_known_out, self.iter_res_avals = n_known_out, [r.aval for r in iter_res]
        # The staged scan takes (constant residuals, unknown consts, unknown carry,
        # stacked residuals, unknown xs).
        n_res_c = sum(i is not None for i in self.const_res)
        res_pos = list(range(n_res))
        cres = [p for p, i in zip(res_pos, self.const_res) if i is not None]
        ires = [p for p, i in zip(res_pos, self.const_res) if i is None]
        n_ukc, n_ukcarry = sum(const_uk), sum(carry_uk)
        base = n_res
        order = [*cres, *range(base, base + n_ukc + n_ukcarry), *ires,
                 *range(base + n_ukc + n_ukcarry, len(staged.in_avals))]
        self.staged = jt.reorder_jaxpr(staged, order)
        self.staged_nconsts, self.staged_ncarry = n_res_c + n_ukc, n_ukcarry

    def known_params(self, params):
        return _params(self.known, params["length"], params["reverse"], self.n_kconsts,
                       self.n_kcarry)

    def staged_params(self, params):
        return _params(self.staged, params["length"], params["reverse"],
                       self.staged_nconsts, self.staged_ncarry)

    def staged_operands(self, ops, params, stacked_res):
        """(constant residuals, unknown consts, unknown carry, stacked residuals, xs)."""
        consts = [o for o, u in zip(ops[:params["num_consts"]], self.unknowns) if not u]
        cres = [consts[i] for i in self.const_res if i is not None]
        nk, nc = params["num_consts"], params["num_carry"]
        uk = [o for o, u in zip(ops, self.unknowns) if u]
        n_front = sum(self.unknowns[:nk + nc])
        return [*cres, *uk[:n_front], *stacked_res, *uk[n_front:]]

    def merge(self, known_outs, staged_outs):
        known_it, staged_it = iter(known_outs), iter(staged_outs)
        return [next(staged_it) if u else next(known_it) for u in self.out_uk]


def _scan_partial_eval(tape: StagingTrace, args, params):
    unknowns = [type(x) is StagingTracer and x._trace is tape for x in args]
    split = _Split(params, unknowns)
    with core.set_current_trace(tape.parent):
        outs = scan_p.bind(*[x for x, u in zip(args, split.unknowns) if not u],
                           **split.known_params(params))
    n = split.n_known_out
    staged_outs = StagingTrace.process_primitive(
        tape, scan_p, tuple(split.staged_operands(args, params, outs[n:])),
        split.staged_params(params))
    return split.merge(outs[:n], staged_outs)


def _scan_partial_eval_eqn(eqn: JaxprEqn, unknowns: tuple):
    split = _Split(eqn.params, list(unknowns))
    length = eqn.params["length"]
    stacked = [Var(a.update(shape=(length, *a.shape))) for a in split.iter_res_avals]
    known_out = [v for v, u in zip(eqn.outvars, split.out_uk) if not u]
    known_eqn = JaxprEqn(scan_p, [v for v, u in zip(eqn.invars, split.unknowns) if not u],
                         known_out + stacked, split.known_params(eqn.params))
    staged_eqn = JaxprEqn(scan_p, split.staged_operands(eqn.invars, eqn.params, stacked),
                          [v for v, u in zip(eqn.outvars, split.out_uk) if u],
                          split.staged_params(eqn.params))
    return known_eqn, staged_eqn, list(split.out_uk)


# ---------------------------------------------------------------------------------------
# Transposition


def _scan_transpose(cts, *args, jaxpr, length, reverse, num_consts, num_carry, funs=None):
    consts, _, xs = _split(args, num_consts, num_carry)
    const_lin = [type(c) is UndefinedPrimal for c in consts]
    xs_lin = [type(x) is UndefinedPrimal for x in xs]
    # Every carry is treated as linear: a known carry operand of a linear scan is an
    # instantiated zero tangent.
    linear = tuple(const_lin + [True] * num_carry + xs_lin)
    transposed = jt.transpose_jaxpr(jaxpr, linear)
    res_consts = [c for c, lin in zip(consts, const_lin) if not lin]
    res_xs = [x for x, lin in zip(xs, xs_lin) if not lin]
    in_avals = jaxpr.in_avals
    lin_const_avals = [a for a, lin in zip(in_avals[:num_consts], const_lin) if lin]
    res_x_avals = [a for a, lin in zip(in_avals[num_consts + num_carry:], xs_lin) if not lin]
    n_rc, n_lc, nc, n_rx = len(res_consts), len(lin_const_avals), num_carry, len(res_xs)

    def body(*a):
        a = [core.unwrap(x) for x in a]
        rc, acc, ct_c = a[:n_rc], a[n_rc:n_rc + n_lc], a[n_rc + n_lc:n_rc + n_lc + nc]
        rx, ct_y = a[n_rc + n_lc + nc:n_rc + n_lc + nc + n_rx], a[n_rc + n_lc + nc + n_rx:]
        outs = eval_jaxpr(transposed, *rc, *rx, *ct_c, *ct_y)
        ct_lc, rest = outs[:n_lc], outs[n_lc:]
        return [add_tangents(x, y) for x, y in zip(acc, ct_lc)] + list(rest)

    t_avals = ([a for a, lin in zip(in_avals[:num_consts], const_lin) if not lin] +
               lin_const_avals + list(jaxpr.out_avals[:nc]) + res_x_avals +
               list(jaxpr.out_avals[nc:]))
    t_jaxpr = trace_to_jaxpr(body, [core.ShapedArray(a.shape, a.dtype) for a in t_avals])
    ct_carry = [instantiate(c) for c in cts[:nc]]
    ct_ys = [instantiate(c) for c in cts[nc:]]
    outs = scan_p.bind(*res_consts, *[zeros_like_aval(a) for a in lin_const_avals],
                       *ct_carry, *res_xs, *ct_ys,
                       **_params(t_jaxpr, length, not reverse, n_rc, n_lc + nc))
    ct_consts, ct_init, ct_xs = iter(outs[:n_lc]), outs[n_lc:n_lc + nc], iter(outs[n_lc + nc:])
    return ([next(ct_consts) if lin else None for lin in const_lin] + list(ct_init) +
            [next(ct_xs) if lin else None for lin in xs_lin])


# ---------------------------------------------------------------------------------------
# Batching


def _scan_batch(vals, dims, *, jaxpr, length, reverse, num_consts, num_carry, funs=None,
                _axis):
    from xnp.lax._batch_util import bdim_to_front, moveaxis_v
    size, name = _axis.axis_size, _axis.axis_name
    consts, carry, xs = _split(vals, num_consts, num_carry)
    cdims, carry_dims, xdims = _split(dims, num_consts, num_carry)
    const_b = [d is not None for d in cdims]
    xs_b = [d is not None for d in xdims]
    carry_b, out_b = jt.batched_carry(jaxpr, const_b, [d is not None for d in carry_dims],
                                      xs_b)
    ys_b = list(out_b[num_carry:])
    carry = [bdim_to_front(c, d, size) if b else c
             for c, d, b in zip(carry, carry_dims, carry_b)]
    xs = [moveaxis_v(x, d, 1) if d is not None else x for x, d in zip(xs, xdims)]
    body_dims = (tuple(cdims) + tuple(0 if b else None for b in carry_b) +
                 tuple(0 if b else None for b in xs_b))
    eager = _scan_batch_eager(jaxpr, funs[0] if funs else None, consts, carry, xs,
                              body_dims, length, reverse, num_carry, _axis)
    if eager is not None:
        return eager
    body = jt.batch_jaxpr(jaxpr, body_dims, size, name, funs[0] if funs else None,
                          tuple(carry_b + ys_b))
    outs = scan_p.bind(*consts, *carry, *xs,
                       **_params(body, length, reverse, num_consts, num_carry))
    return outs, [0 if b else None for b in carry_b] + [1 if b else None for b in ys_b]


def _scan_batch_eager(jaxpr, fun, consts, carry, xs, body_dims, length, reverse,
                      num_carry, axis):
    """Eagerly, a body holding control flow runs step by step under vmap (as a Python
    loop over the slices would), so that a cond or while_loop inside runs each member
    only where it must; a batched jaxpr would run every branch on every member. None
    where the batched scan is used instead (no such body, staged values, no step)."""
    from transforms.batch_levels import concrete_levels, holds_control_flow, run_batched
    from xnp.lax import concatenate_p, reshape_p, slice_p
    if not length or not holds_control_flow(jaxpr) or \
            concrete_levels([*consts, *carry, *xs], axis.parent) is None:
        return None
    n_c = len(consts)
    xdims = body_dims[n_c + num_carry:]
    dims = body_dims[:n_c + num_carry]
    ys = []
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        x_i = []
        for x in xs:
            shape = get_aval(x).shape
            one = slice_p.bind(x, start_indices=(i,) + (0,) * (len(shape) - 1),
                               limit_indices=(i + 1,) + shape[1:], strides=None)
            x_i.append(reshape_p.bind(one, new_sizes=shape[1:]))
        outs = run_batched(jaxpr, fun, [*consts, *carry, *x_i], dims + xdims, axis.axis_size,
                           axis.axis_name)
        carry, dims = outs[:num_carry], body_dims[:n_c] + (0,) * num_carry
        ys.append([reshape_p.bind(y, new_sizes=(1, *get_aval(y).shape)) for y in
                   outs[num_carry:]])
    if reverse:
        ys.reverse()
    ys = [concatenate_p.bind(*steps, dimension=0) for steps in zip(*ys)]
    return carry + ys, [0] * num_carry + [1] * len(ys)


# ---------------------------------------------------------------------------------------
# Lowering


def _scan_lower(ctx, *ops, jaxpr, length, reverse, num_consts, num_carry, funs=None):
    consts, carry, xs = _split(ops, num_consts, num_carry)
    y_avals = jaxpr.out_avals[num_carry:]
    ys = [ctx.full((length, *a.shape), 0, a.dtype) for a in y_avals]
    if length == 0:                     # no iteration (and no slice of the empty xs)
        return [*carry, *ys]
    state = [ctx.constant(np.int64(0)), *carry, *ys]
    types = [(v.shape, v.dtype) for v in state]

    def cond(i, *_):
        return ctx.compare(i, ctx.constant(np.int64(length)), "LT")

    def body(i, *rest):
        c, acc = rest[:num_carry], rest[num_carry:]
        idx = ctx.binary("subtract", ctx.constant(np.int64(length - 1)), i) if reverse \
            else i
        zero = ctx.constant(np.int64(0))
        slices = []
        for x in xs:
            one = ctx.op("stablehlo.dynamic_slice", [x, idx] + [zero] * (x.ndim - 1),
                         ((1, *x.shape[1:]), x.dtype),
                         {"slice_sizes": i64_array((1, *x.shape[1:]))})
            slices.append(ctx.reshape(one, x.shape[1:]))
        outs = lower_jaxpr(ctx, jaxpr.jaxpr, jaxpr.consts, [*consts, *c, *slices])
        new_acc = [ctx.op("stablehlo.dynamic_update_slice",
                          [a, ctx.reshape(y, (1, *y.shape)), idx] + [zero] * y.ndim,
                          (a.shape, a.dtype))
                   for a, y in zip(acc, outs[num_carry:])]
        return [ctx.binary("add", i, ctx.constant(np.int64(1))), *outs[:num_carry],
                *new_acc]

    outs = ctx.op("stablehlo.while", state, list(types),
                  regions=[ctx.region(types, cond), ctx.region(types, body)])
    return outs[1:]


scan_p.impl = _scan_impl
scan_p.abstract_eval = _scan_abstract_eval
scan_p.jvp = _scan_jvp
scan_p.transpose = _scan_transpose
scan_p.batch = _scan_batch
scan_p.partial_eval = _scan_partial_eval
scan_p.partial_eval_eqn = _scan_partial_eval_eqn
scan_p.lower = _scan_lower
