"""Transformations of whole jaxprs: JVP, batching, partial evaluation and transposition.

Higher-order primitives (``jit`` and the control-flow primitives) carry jaxprs as
parameters; their rules transform those jaxprs with the functions here and bind the
primitive again on the result. Each function is cached on the identity of its input
jaxpr (which it keeps alive), so that a jitted function differentiated in a loop is traced
and compiled once, not on every call.
"""

from __future__ import annotations

import functools

from transforms import core
from transforms.ad import (
    Zero,
    backward_pass,
    instantiate,
    is_differentiable,
    jvp_flat,
    tangent_aval,
)
from transforms.core import ShapedArray
from transforms.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr, trace_to_jaxpr

__all__ = ["jvp_jaxpr", "batch_jaxpr", "transpose_jaxpr", "partial_eval_jaxpr",
           "closure_convert", "calls_custom_rules", "batched_outputs", "batched_carry",
           "reorder_jaxpr"]


def _cached_on_jaxpr(fn):
    """Memoise ``fn(closed, *hashable)`` on the jaxpr's identity (kept alive)."""
    cache: dict = {}

    @functools.wraps(fn)
    def wrapper(closed, *args):
        key = (id(closed), *args)
        hit = cache.get(key)
        if hit is None or hit[0] is not closed:
            if len(cache) > 512:
                cache.clear()
            hit = cache[key] = (closed, fn(closed, *args))
        return hit[1]
    return wrapper


def closure_convert(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The same program with its constants turned into leading arguments."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns), [])


def calls_custom_rules(closed: ClosedJaxpr | Jaxpr) -> bool:
    """Whether the jaxpr, or one nested in its equations, calls a function with custom
    rules (custom_jvp, custom_vjp, custom_vmap). Only then do the rules of higher-order
    primitives re-trace the Python function the jaxpr came from (see :func:`jvp_jaxpr`);
    otherwise they transform the jaxpr itself, as JAX does, so that the function's Python
    side effects (a print, a counter) happen once, at its trace."""
    from transforms.custom_derivatives import CustomCall
    jaxpr = closed.jaxpr if isinstance(closed, ClosedJaxpr) else closed
    for eqn in jaxpr.eqns:
        for value in eqn.params.values():
            for v in value if isinstance(value, (tuple, list)) else (value,):
                if isinstance(v, CustomCall) or (
                        isinstance(v, (ClosedJaxpr, Jaxpr)) and calls_custom_rules(v)):
                    return True
    return False


def _as_function(closed: ClosedJaxpr, fun):
    """``fun`` (the Python function ``closed`` was traced from), or the jaxpr itself."""
    return fun if fun is not None else (lambda *xs: eval_jaxpr(closed, *xs))


@_cached_on_jaxpr
def jvp_jaxpr(closed: ClosedJaxpr, nonzeros: tuple, fun=None) -> tuple[ClosedJaxpr, list]:
    """A jaxpr from (primals, tangents of the ``nonzeros`` inputs) to (primal outputs,
    tangents of the differentiable outputs); also returns which outputs have tangents.
    ``fun``, when given, is the Python function ``closed`` was traced from: tracing it
    again keeps the custom derivative rules it calls."""
    body = _as_function(closed, fun)
    in_avals = closed.in_avals
    tangent_avals = [tangent_aval(a) for a, nz in zip(in_avals, nonzeros) if nz]
    out_has_tangent = [is_differentiable(a) for a in closed.out_avals]
    n = len(in_avals)

    def fun(*args):
        primals = [core.unwrap(a) for a in args[:n]]
        given = iter(core.unwrap(a) for a in args[n:])
        tangents = [next(given) if nz else Zero(tangent_aval(a))
                    for a, nz in zip(in_avals, nonzeros)]
        outs, tangents_out = jvp_flat(body, primals, tangents)
        return list(outs) + [instantiate(t) for t, d in zip(tangents_out, out_has_tangent)
                             if d]

    return trace_to_jaxpr(fun, list(in_avals) + tangent_avals), out_has_tangent


@_cached_on_jaxpr
def batch_jaxpr(closed: ClosedJaxpr, dims: tuple, axis_size: int, axis_name, fun=None,
                out_batched: tuple | None = None) -> ClosedJaxpr:
    """A jaxpr taking inputs batched along ``dims`` (None: unbatched), every output
    batched along axis 0, or only those marked in ``out_batched`` (the others must not
    depend on a batched input: see :func:`batched_outputs`). ``fun``: as for
    :func:`jvp_jaxpr`."""
    from transforms.batching import vmap
    body = _as_function(closed, fun)
    in_avals = []
    for a, d in zip(closed.in_avals, dims):
        if d is not None:
            a = ShapedArray(a.shape[:d] + (axis_size,) + a.shape[d:], a.dtype, a.weak_type)
        in_avals.append(a)

    out_axes = 0 if out_batched is None else [0 if b else None for b in out_batched]

    def fun(*args):
        f = vmap(lambda *xs: list(body(*xs)), in_axes=tuple(dims), out_axes=out_axes,
                 axis_size=axis_size, axis_name=axis_name)
        return f(*args)

    return trace_to_jaxpr(fun, in_avals)


def batched_outputs(closed: ClosedJaxpr, in_batched) -> tuple:
    """Which outputs of ``closed`` depend on an input marked batched. Conservative: an
    equation with a batched input has all outputs batched, and so does a collective
    (``axis_index``, ``psum``, ...), also one inside a nested jaxpr."""
    j = closed.jaxpr
    batched = {v for v, b in zip(j.invars, in_batched) if b}
    for eqn in j.eqns:
        if _creates_batch(eqn) or any(isinstance(v, Var) and v in batched
                                      for v in eqn.invars):
            batched.update(eqn.outvars)
    return tuple(isinstance(v, Var) and v in batched for v in j.outvars)


def batched_carry(closed: ClosedJaxpr, consts_b: list, carry_b: list, rest_b: list = ()):
    """For a loop body ``(consts, carry, rest) -> (carry, other outputs)``: which carried
    values must be batched (those batched on entry, grown to a fixed point by what the
    body makes batched), and which outputs then are. Returns (carry flags, output flags).
    """
    carry_b = list(carry_b)
    while True:
        out_b = batched_outputs(closed, list(consts_b) + carry_b + list(rest_b))
        grown = [a or b for a, b in zip(carry_b, out_b)]
        if grown == carry_b:
            return carry_b, out_b
        carry_b = grown


def _creates_batch(eqn) -> bool:
    """A collective, or a higher-order equation (its parameters hold jaxprs) with a
    collective inside."""
    if not eqn.prim.collective:
        return False
    inner = [j for value in eqn.params.values()
             for j in (value if isinstance(value, tuple) else (value,))
             if isinstance(j, ClosedJaxpr)]
    return not inner or any(_creates_batch(e) for j in inner for e in j.eqns)


def reorder_jaxpr(closed: ClosedJaxpr, in_order, out_order=None) -> ClosedJaxpr:
    """The same program with inputs (and outputs) taken in the given index orders."""
    j = closed.jaxpr
    outvars = j.outvars if out_order is None else [j.outvars[i] for i in out_order]
    return ClosedJaxpr(Jaxpr(j.constvars, [j.invars[i] for i in in_order], outvars,
                             j.eqns), closed.consts)


@_cached_on_jaxpr
def transpose_jaxpr(closed: ClosedJaxpr, linear: tuple) -> ClosedJaxpr:
    """For a jaxpr linear in the inputs marked ``linear``: a jaxpr from (the other
    inputs, output cotangents) to the cotangents of the linear inputs."""
    j = closed.jaxpr
    residual_vars = [v for v, lin in zip(j.invars, linear) if not lin]
    linear_vars = [v for v, lin in zip(j.invars, linear) if lin]
    as_linear = Jaxpr(j.constvars + residual_vars, linear_vars, j.outvars, j.eqns)
    n_res = len(residual_vars)

    def fun(*args):
        args = [core.unwrap(a) for a in args]
        cts = backward_pass(as_linear, list(closed.consts) + args[:n_res], args[n_res:])
        return [instantiate(ct) for ct in cts]

    in_avals = [v.aval for v in residual_vars] + list(closed.out_avals)
    return trace_to_jaxpr(fun, in_avals)


@_cached_on_jaxpr
def partial_eval_jaxpr(closed: ClosedJaxpr, unknowns: tuple, instantiate: tuple = ()):
    """Split a jaxpr whose inputs marked in ``unknowns`` are not yet known.

    Returns ``(known, staged, out_unknowns, n_residuals)``: ``known`` maps the known
    inputs to the known outputs followed by residuals; ``staged`` maps (residuals, unknown
    inputs) to the unknown outputs. An equation runs in the known part when all its inputs
    are known; a higher-order equation with mixed inputs is split by its primitive's
    ``partial_eval_eqn`` rule (which may return ``None`` as its known equation). Outputs
    marked in ``instantiate`` are made unknown even when they are known (their known
    values become residuals).
    """
    j = closed.jaxpr
    unknown: set = {v for v, u in zip(j.invars, unknowns) if u}
    known_eqns: list = []
    staged_eqns: list = []
    for eqn in j.eqns:
        flags = [not isinstance(v, Literal) and v in unknown for v in eqn.invars]
        if not any(flags):
            known_eqns.append(eqn)
            continue
        split = eqn.prim.partial_eval_eqn
        if split is not None and not all(flags):
            known_eqn, staged_eqn, out_unknown = split(eqn, tuple(flags))
            if known_eqn is not None:
                known_eqns.append(known_eqn)
            staged_eqns.append(staged_eqn)
            unknown.update(v for v, u in zip(eqn.outvars, out_unknown) if u)
        else:
            staged_eqns.append(eqn)
            unknown.update(eqn.outvars)

    def is_unknown(v):
        return not isinstance(v, Literal) and v in unknown

    defined_in_staged = {v for e in staged_eqns for v in e.outvars} | unknown
    out_unknowns = [is_unknown(v) or bool(instantiate and instantiate[i])
                    for i, v in enumerate(j.outvars)]
    forced = [v for v, u in zip(j.outvars, out_unknowns) if u and not is_unknown(v)]
    residuals: list = []
    seen: set = set()
    for v in [v for e in staged_eqns for v in e.invars] + forced:
        if isinstance(v, Var) and v not in defined_in_staged and v not in seen:
            seen.add(v)
            residuals.append(v)
    known_invars = [v for v, u in zip(j.invars, unknowns) if not u]
    known = Jaxpr(j.constvars, known_invars,
                  [v for v, u in zip(j.outvars, out_unknowns) if not u] + residuals,
                  known_eqns)
    res_copies = [Var(v.aval) for v in residuals]
    rename = dict(zip(residuals, res_copies))
    staged = Jaxpr([], res_copies + [v for v, u in zip(j.invars, unknowns) if u],
                   [v for v, u in zip(j.outvars, out_unknowns) if u],
                   [JaxprEqn(e.prim, [rename.get(v, v) if isinstance(v, Var) else v
                                      for v in e.invars], e.outvars, e.params)
                    for e in staged_eqns])
    if any(rename.get(v) is not None for v in staged.outvars):
        staged.outvars = [rename.get(v, v) for v in staged.outvars]
    return (ClosedJaxpr(known, closed.consts), ClosedJaxpr(staged, []), out_unknowns,
            len(residuals))

