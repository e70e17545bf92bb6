"""``custom_vmap``: functions whose batching under ``vmap`` is given by the user (JAX's
``jax.custom_batching``).

A call binds a custom call of kind ``"vmap"`` (see ``custom_derivatives.bind_custom``)
whose handling by every trace is here, registered in ``custom_derivatives.KINDS``:

* eagerly, under ``jit`` (a ``custom_vmap_call`` equation that keeps the rule, so that
  ``vmap`` of the jitted function still applies it) and under ``jvp`` outside any vmap,
  the function itself runs;
* a batch trace calls ``rule(axis_size, in_batched, *args)`` with the batched arguments'
  batch dimension first; the rule returns ``(out, out_batched)``. With no argument
  batched, the call goes one level down unchanged (so an enclosing vmap applies the
  rule). The rule's own code is then batched by enclosing vmaps like any code: it runs
  once per vmap level only where it calls the function again (``sequential_vmap``).
* a JVP trace makes another ``"vmap"`` call on (primals, tangents): its function is the
  JVP of the function, its rule the JVP of the rule. As in JAX, when a primal and its
  tangent are both batched the rule sees them batched; inputs batched in only one of
  the two are mapped by an ordinary vmap around the rule's JVP, which then sees them
  unbatched. Unlike JAX, when both kinds occur in one call the singly batched inputs are
  broadcast so that the rule sees every batched input batched (JAX combines the two
  batches into an outer product there).
* reverse mode (``grad``, ``vjp``, ``linearize``) raises ValueError, as in JAX: wrap the
  function in ``custom_vjp`` (outside ``custom_vmap``) to differentiate it that way.

Values the function closes over must not be batched by the vmap whose rule runs (the
rule sees only the arguments): that raises ValueError, where JAX fails an assertion.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from transforms import core
from transforms.ad import JVPTracer, Zero, instantiate, is_differentiable, jvp_flat
from transforms.batching import BatchTrace, BatchTracer
from transforms.core import get_aval
from transforms.custom_derivatives import (
    KINDS,
    _CustomBase,
    bind_custom,
    custom_call_primitive,
)
from transforms.tree import tree_flatten, tree_map, tree_unflatten

__all__ = ["custom_vmap", "sequential_vmap", "custom_vmap_call_p"]


class custom_vmap(_CustomBase):
    """Give a function its own batching rule, used when it is vmapped.

    Parameters
    ----------
    fun : callable
        The function; it runs as itself when not vmapped (eagerly, under ``jit``,
        differentiated in forward mode).

    Notes
    -----
    ``f.def_vmap(rule)`` sets ``rule(axis_size, in_batched, *args) -> (out,
    out_batched)``: ``in_batched`` is a list with, per argument, a pytree of bools
    telling which leaves are batched (those have their batch dimension, of size
    ``axis_size``, first); ``out_batched`` is a pytree of bools of the structure of
    ``out`` (or one bool for all of it) telling which output leaves carry the batch
    dimension first. Reverse-mode differentiation raises ValueError, as in JAX.
    """

    def __init__(self, fun: Callable):
        super().__init__(fun)
        self.vmap_rule = None

    def def_vmap(self, vmap_rule: Callable) -> Callable:
        """Set the batching rule; returns it (so that this can be used as a decorator).

        Parameters
        ----------
        vmap_rule : callable
            ``vmap_rule(axis_size, in_batched, *args) -> (out, out_batched)``.
        """
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args, **kwargs):
        name = getattr(self, "__name__", "custom_vmap")
        if kwargs:
            args = self._resolve(name, args, kwargs)
        if self.vmap_rule is None:
            raise AttributeError(f"No batching rule defined for custom_vmap function "
                                 f"{name} using def_vmap.")
        if core.is_eager():
            return self.fun(*args)
        _, flat, tree = self._split(args)
        out_tree: list = []
        call = self._flat_call({}, tree, out_tree)
        rule = functools.partial(_user_rule, self.vmap_rule, tree, out_tree)
        outs = bind_custom("vmap", flat, {"call": call, "rule": rule})
        return tree_unflatten(out_tree[-1], [core.wrap(o) for o in outs])

    def _resolve(self, name, args, kwargs):
        try:
            if self._signature is None:
                raise TypeError("its signature cannot be inspected")
            bound = self._signature.bind(*args, **kwargs)
            bound.apply_defaults()
            if bound.kwargs:
                raise TypeError("keyword-only arguments have no position: "
                                + ", ".join(bound.kwargs))
        except TypeError as e:
            raise TypeError(f"custom_vmap function {name}: its arguments could not be "
                            f"passed by position:\n{e}") from e
        return bound.args


def _user_rule(vmap_rule, tree, out_tree: list, axis_size, flags, vals):
    """The user's rule on flat values: (flat outputs, flat batched flags)."""
    name = getattr(vmap_rule, "__name__", "vmap_rule")
    args = tree_unflatten(tree, [core.wrap(v) for v in vals])
    in_batched = list(tree_unflatten(tree, [bool(f) for f in flags]))
    res = vmap_rule(axis_size, in_batched, *args)
    if not (isinstance(res, (tuple, list)) and len(res) == 2):
        raise TypeError(f"custom_vmap rule {name} must return a pair (out, out_batched)")
    out, out_batched = res
    leaves, t_out = tree_flatten(out)
    if isinstance(out_batched, bool):
        flags_out = [out_batched] * len(leaves)
    else:
        flags_out, t_flags = tree_flatten(out_batched)
        if t_flags != t_out:
            raise ValueError(f"custom_vmap rule {name}: the structure of its output "
                             f"{t_out} and of its out_batched {t_flags} do not match")
    if out_tree and out_tree[0] != t_out:
        raise ValueError(f"custom_vmap rule {name}: its output structure {t_out} is not "
                         f"that of the function's output, {out_tree[0]}")
    out_tree.append(t_out)
    return [core.unwrap(x) for x in leaves], [bool(f) for f in flags_out]


def _no_reverse_mode(*_, **__):
    raise ValueError("custom_vmap functions do not support reverse-mode differentiation "
                     "(grad, vjp, linearize), as in JAX; give the function a custom_vjp "
                     "(applied outside custom_vmap) to differentiate it in reverse mode")


# --- the batch trace: the rule ------------------------------------------------------------


def _batch(trace, args, params):
    from xnp.lax._batch_util import moveaxis_v
    vals, dims = zip(*(trace.lift(x) for x in args)) if args else ((), ())
    size = trace.axis_size
    with core.set_current_trace(trace.parent):
        _check_closure(trace, args, params)
        if all(d is None for d in dims):          # nothing to batch: one level down
            return bind_custom("vmap", list(vals), params)
        vals = [v if d is None else moveaxis_v(v, d, 0) for v, d in zip(vals, dims)]
        outs, flags = params["rule"](size, [d is not None for d in dims], vals)
    for o, f in zip(outs, flags):
        shape = get_aval(o).shape
        if f and shape[:1] != (size,):
            raise ValueError(f"custom_vmap rule: an output marked batched has shape "
                             f"{shape}, not a leading dimension of the axis size {size}")
    return [BatchTracer(trace, core.unwrap(o), 0) if f else core.unwrap(o)
            for o, f in zip(outs, flags)]


def _check_closure(trace, args, params):
    """Trace the function on one member's avals (recording its output structure) and
    refuse one that closes over a value ``trace`` batches: the rule could not see it."""
    from transforms.jaxpr import trace_to_jaxpr
    closed = trace_to_jaxpr(lambda *xs: params["call"](*[core.unwrap(x) for x in xs]),
                            [get_aval(core.unwrap(x)) for x in args])
    if any(type(c) is BatchTracer and c._trace is trace for c in closed.consts):
        raise ValueError("a custom_vmap function closes over a value batched by the vmap "
                         "that applies its rule; pass the value as an argument instead")


# --- the JVP trace: JVP of the function, JVP of the rule -----------------------------------


def _jvp(trace, args, params):
    primals, tangents = zip(*(trace.lift(x) for x in args)) if args else ((), ())
    with core.set_current_trace(trace.parent):
        if all(type(t) is Zero for t in tangents):
            return bind_custom("vmap", list(primals), params)
        diff = tuple(is_differentiable(get_aval(p)) for p in primals)
        ts = [instantiate(t) for t, d in zip(tangents, diff) if d]
        info: list = []                       # (number of outputs, which have tangents)
        new = {"call": functools.partial(_jvp_call, params["call"], diff, info),
               "rule": functools.partial(_jvp_rule, params["rule"], diff, info)}
        outs = bind_custom("vmap", [*primals, *ts], new)
    n_out, has_t = info[-1]
    touts = iter(outs[n_out:])
    return [JVPTracer(trace, o, next(touts)) if h else o
            for o, h in zip(outs[:n_out], has_t)]


def _tangents(primals, given, diff):
    given = iter(given)
    return [next(given) if d else Zero.of_value(p) for p, d in zip(primals, diff)]


def _with_tangents(outs, touts, info):
    """Primal outputs followed by the (materialised) tangents of the inexact ones."""
    has_t = [is_differentiable(get_aval(core.unwrap(o))) for o in outs]
    info.append((len(outs), has_t))
    return [core.unwrap(o) for o in outs] + [core.unwrap(instantiate(t))
                                             for t, h in zip(touts, has_t) if h]


def _jvp_call(call, diff, info, *xs):
    n = len(diff)
    primals = list(xs[:n])
    outs, touts = jvp_flat(lambda *a: call(*[core.unwrap(x) for x in a]), primals,
                           _tangents(primals, xs[n:], diff))
    return _with_tangents(outs, touts, info)


def _jvp_rule(rule, diff, info, axis_size, flags, xs):
    from xnp.lax._batch_util import broadcast_batch_v, moveaxis_v
    n = len(diff)
    primals, pb = list(xs[:n]), list(flags[:n])
    tflags = iter(flags[n:])
    tb = [next(tflags) if d else False for d in diff]
    ts = list(xs[n:])
    store: list = []

    def rule_of(in_flags):
        def f(*ps):
            outs, out_flags = rule(axis_size, in_flags, [core.unwrap(p) for p in ps])
            store.append(out_flags)
            return outs
        return f

    if any(p and t for p, t in zip(pb, tb)):
        # the rule sees every batched input batched: singly batched pairs are broadcast
        given = iter(range(len(ts)))
        for i, d in enumerate(diff):
            if not d:
                continue
            j = next(given)
            if pb[i] and not tb[i]:
                ts[j] = broadcast_batch_v(ts[j], axis_size, 0)
            elif tb[i] and not pb[i]:
                primals[i] = broadcast_batch_v(primals[i], axis_size, 0)
        in_flags = [p or t for p, t in zip(pb, tb)]
        outs, touts = jvp_flat(rule_of(in_flags), primals, _tangents(primals, ts, diff))
        res = _with_tangents(outs, touts, info)
        out_flags = list(store[-1])
        return res, out_flags + [f for f, h in zip(out_flags, info[-1][1]) if h]
    # no pair batched in both: an ordinary vmap maps the rule's JVP over those inputs
    extra = BatchTrace(axis_size)
    with core.new_trace(extra):
        ps = [BatchTracer(extra, p, 0) if b else p for p, b in zip(primals, pb)]
        tb_given = [b for b, d in zip(tb, diff) if d]
        tin = [BatchTracer(extra, t, 0) if b else t for t, b in zip(ts, tb_given)]
        outs, touts = jvp_flat(rule_of([False] * n), ps, _tangents(ps, tin, diff))
        res = [extra.lift(v) for v in _with_tangents(outs, touts, info)]
    out_flags = list(store[-1])
    rule_flags = out_flags + [f for f, h in zip(out_flags, info[-1][1]) if h]
    return ([v if d is None else moveaxis_v(v, d, 0) for v, d in res],
            [f or d is not None for f, (_, d) in zip(rule_flags, res)])


# --- the primitive a staging trace records, and the registration ---------------------------


custom_vmap_call_p = custom_call_primitive("custom_vmap_call", transpose=_no_reverse_mode)

KINDS["vmap"] = (custom_vmap_call_p, _jvp, _batch, _no_reverse_mode)


# --- sequential_vmap ----------------------------------------------------------------------


def sequential_vmap(f: Callable) -> custom_vmap:
    """A :class:`custom_vmap` function whose batching rule maps ``f`` over the batch one
    member at a time (with ``lax.map``, a scan), for functions that cannot be batched.

    Parameters
    ----------
    f : callable
        The function.

    Returns
    -------
    custom_vmap
        ``f`` with that rule; every output of the rule is batched.
    """
    from transforms.control_flow import map as lax_map

    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size: int, in_batched: list, *args: Any):
        leaves, tree = tree_flatten(list(args))
        flags, _ = tree_flatten(list(in_batched))

        def one(mapped):
            mapped = iter(mapped)
            full = [next(mapped) if b else x for x, b in zip(leaves, flags)]
            return f(*tree_unflatten(tree, full))

        out = lax_map(one, [x for x, b in zip(leaves, flags) if b])
        return out, tree_map(lambda _: True, out)

    return f
