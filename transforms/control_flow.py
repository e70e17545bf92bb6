"""Structured control flow as primitives: ``cond``, ``switch``, ``while_loop``,
``fori_loop``, ``scan`` and ``map``, with JAX's signatures and semantics.

Each function traces the Python functions it is given to jaxprs on the abstract values
of the operands and binds one primitive (:mod:`transforms.cond_rules`,
:mod:`transforms.while_rules`, :mod:`transforms.scan_rules`), so that a branch or a loop body
with traced values works under grad, vmap and jit. Values the functions close over
become explicit operands, so derivatives flow into them too. Python control flow on
concrete values keeps working inside the functions; on traced values it raises the usual
error.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Sequence

import numpy as np

from transforms import core
from transforms import jaxpr_transforms as jt
from transforms.cond_rules import cond_p
from transforms.core import ShapedArray, Tracer, get_aval
from transforms.jaxpr import ClosedJaxpr, Jaxpr, Var, trace_to_jaxpr
from transforms.scan_rules import scan_p
from transforms.tree import tree_flatten, tree_unflatten
from transforms.while_rules import while_p

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map"]


def _lax():
    from xnp import lax  # imported late: xnp imports transforms
    return lax


# ---------------------------------------------------------------------------------------
# Tracing helpers


class _Traced:
    """A Python function traced to a jaxpr on flat values; ``out_trees`` records the
    output structure(s) it returned."""

    def __init__(self, fun: Callable, unflatten_args: Callable, avals, split_out=None):
        self.out_trees: list = []

        def flat(*handles):
            out = fun(*unflatten_args(list(handles)))
            parts = split_out(out) if split_out else (out,)
            leaves = []
            trees = []
            for part in parts:
                part_leaves, tree = tree_flatten(part)
                leaves += part_leaves
                trees.append(tree)
            self.out_trees = trees
            return leaves

        self.flat = flat
        self.closed = trace_to_jaxpr(flat, list(avals))


def _hoist_consts(closed_list: Sequence[ClosedJaxpr]):
    """Turn the constants of the jaxprs into leading inputs shared by all of them
    (each takes every jaxpr's constants and uses its own). Returns (jaxprs, consts)."""
    consts = [c for cl in closed_list for c in cl.consts]
    const_vars = [v for cl in closed_list for v in cl.jaxpr.constvars]
    out, offset = [], 0
    for cl in closed_list:
        j, n = cl.jaxpr, len(cl.consts)
        lead = ([Var(v.aval) for v in const_vars[:offset]] + j.constvars +
                [Var(v.aval) for v in const_vars[offset + n:]])
        out.append(ClosedJaxpr(Jaxpr([], lead + j.invars, j.outvars, j.eqns), []))
        offset += n
    return out, consts


def _retrace_fun(flat: Callable, n_consts: int, consts, jaxpr) -> Callable | None:
    """The flat function taking the hoisted constants first, for rules that re-trace it
    to keep the custom rules ``jaxpr`` calls; None when it calls none (the rules then
    transform ``jaxpr`` itself) or when a constant is a tracer of an enclosing
    transformation (re-tracing would capture that tracer)."""
    if any(isinstance(c, Tracer) for c in consts) or not jt.calls_custom_rules(jaxpr):
        return None
    return lambda *args: flat(*args[n_consts:])


def _operands(tree_value) -> tuple[list, Any, list]:
    leaves, tree = tree_flatten(tree_value)
    vals = [core.unwrap(x) for x in leaves]
    return vals, tree, [get_aval(v) for v in vals]


def _wrap_all(values) -> list:
    return [core.wrap(v) for v in values]


# ---------------------------------------------------------------------------------------
# cond and switch


def switch(index, branches: Sequence[Callable], *operands):
    """Apply ``branches[index]`` to ``operands``, as ``jax.lax.switch``.

    ``index`` is an integer scalar, clamped to ``[0, len(branches) - 1]``. Every branch
    must return the same pytree structure with the same shapes and dtypes. All branches
    are traced; under ``vmap`` with a batched index, all of them run and each batch
    member's result is selected.
    """
    branches = list(branches)
    if not branches:
        raise ValueError("switch: branches must be a non-empty sequence of functions")
    for i, b in enumerate(branches):
        if not callable(b):
            raise TypeError(f"switch: branches[{i}] is not callable: {b!r}")
    index = core.unwrap(index)
    aval = get_aval(index)
    if aval.shape != ():
        raise TypeError(f"switch: index must be a scalar, got an array of shape "
                        f"{aval.shape}")
    if aval.dtype.kind not in "iub":
        raise TypeError(f"switch: index must be an integer, got {aval.dtype.name}")
    return _bind_cond(_clamped_index(index, len(branches)), branches, operands, "switch",
                      [f"branches[{i}]" for i in range(len(branches))])


def cond(pred, true_fun: Callable, false_fun: Callable, *operands):
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, as
    ``jax.lax.cond``.

    ``pred`` is a scalar (bool or number; nonzero is true). Both functions must return the
    same pytree structure with the same shapes and dtypes. Unlike a Python ``if``, this
    works when ``pred`` is traced (under jit, vmap, grad); under ``vmap`` with a batched
    ``pred`` both functions run and the results are selected per batch member.
    """
    if not callable(true_fun) or not callable(false_fun):
        raise TypeError("cond: true_fun and false_fun must be callable, got "
                        f"{type(true_fun).__name__} and {type(false_fun).__name__}")
    pred = core.unwrap(pred)
    aval = get_aval(pred)
    if aval.shape != ():
        raise TypeError(f"cond: pred must be a scalar, got an array of shape {aval.shape}"
                        " (use xnp.where for elementwise selection)")
    if aval.dtype.kind not in "biufc":
        raise TypeError(f"cond: pred must be a boolean or number, got {aval.dtype.name}")
    if isinstance(pred, Tracer):
        lax = _lax()
        if aval.dtype != np.bool_:
            pred = lax.ne_p.bind(pred, np.zeros((), aval.dtype))
        index = lax.convert_element_type_p.bind(pred, new_dtype=np.dtype(np.int32))
    else:
        index = np.int32(bool(pred))
    return _bind_cond(index, [false_fun, true_fun], operands, "cond",
                      ["false_fun", "true_fun"])


def _clamped_index(index, n: int):
    if not isinstance(index, Tracer):
        return np.int32(min(max(int(index), 0), n - 1))
    lax = _lax()
    dt = get_aval(index).dtype
    if dt == np.bool_:
        index = lax.convert_element_type_p.bind(index, new_dtype=np.dtype(np.int32))
        dt = np.dtype(np.int32)
    index = lax.clamp_p.bind(np.zeros((), dt), index, np.asarray(n - 1, dt))
    return lax.convert_element_type_p.bind(index, new_dtype=np.dtype(np.int32))


def _check_branch_types(what: str, closed: list[ClosedJaxpr], names: list[str]) -> None:
    """Raise TypeError unless every jaxpr returns the same shapes and dtypes."""
    first = [(a.shape, a.dtype) for a in closed[0].out_avals]
    for c, name in zip(closed[1:], names[1:]):
        other = [(a.shape, a.dtype) for a in c.out_avals]
        if other != first:
            show = lambda avals: "(" + ", ".join(a.str_short() for a in avals) + ")"  # noqa: E731
            raise TypeError(f"{what}: {names[0]} and {name} must return values of "
                            f"identical types, got {show(closed[0].out_avals)} and "
                            f"{show(c.out_avals)}")


def _bind_cond(index, branches, operands, what, names):
    vals, tree, avals = _operands(operands)
    traced = [_Traced(b, lambda leaves: tree_unflatten(tree, leaves), avals)
              for b in branches]
    trees = [t.out_trees[0] for t in traced]
    for t, name in zip(trees[1:], names[1:]):
        if t != trees[0]:
            raise TypeError(f"{what}: {names[0]} and {name} must return the same pytree "
                            f"structure, got {trees[0]} and {t}")
    closed = [t.closed for t in traced]
    _check_branch_types(what, closed, names)
    # An output every branch returns as the same operand, unchanged, is that operand
    # (as in JAX): it stays out of the cond, so that it is not batched by a batched
    # predicate and costs no select.
    forwarded = _forwarded_outputs(closed)
    keep = [i for i in range(len(closed[0].jaxpr.outvars)) if i not in forwarded]
    flats = [t.flat for t in traced]
    if forwarded:
        closed = [_keep_outputs(c, keep) for c in closed]
        flats = [_select_outputs(f, keep) for f in flats]
    outs: list = []
    if keep:
        jaxprs, consts = _hoist_consts(closed)
        funs = tuple(_retrace_fun(f, len(consts), consts, j) for f, j in zip(flats, jaxprs))
        outs = cond_p.bind(index, *consts, *vals, branches=tuple(jaxprs), funs=funs)
    outs = iter(outs)
    full = [vals[forwarded[i]] if i in forwarded else next(outs)
            for i in range(len(keep) + len(forwarded))]
    return tree_unflatten(trees[0], _wrap_all(full))


def _forwarded_outputs(closed_list: Sequence[ClosedJaxpr]) -> dict:
    """{output index: input index} of the outputs that every jaxpr returns as one same
    input, unchanged."""
    first = closed_list[0].jaxpr
    position = {id(v): j for j, v in enumerate(first.invars)}
    forwarded = {}
    for i, v in enumerate(first.outvars):
        j = position.get(id(v))
        if j is not None and all(c.jaxpr.outvars[i] is c.jaxpr.invars[j]
                                 for c in closed_list[1:]):
            forwarded[i] = j
    return forwarded


def _keep_outputs(closed: ClosedJaxpr, keep: Sequence[int]) -> ClosedJaxpr:
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, [j.outvars[i] for i in keep], j.eqns),
                       closed.consts)


def _select_outputs(flat: Callable, keep: Sequence[int]) -> Callable:
    def selected(*args):
        outs = flat(*args)
        return [outs[i] for i in keep]
    return selected


# ---------------------------------------------------------------------------------------
# Loops


def _fixed_carry(trace: Callable, vals: list, avals: list, what: str):
    """Trace the loop body (``trace(avals)`` returns a :class:`_Traced` whose first
    output tree is the carry) until the carry's types are a fixed point: a weakly typed
    input carry (a Python scalar) takes the dtype the body gives it, as in JAX; any
    other mismatch is an error. Returns the traced body and the converted carry."""
    traced = trace(avals)
    out_avals = traced.closed.out_avals[:len(avals)]
    if any(a.shape != o.shape or a.dtype != o.dtype for a, o in zip(avals, out_avals)):
        promoted = [ShapedArray(a.shape, o.dtype) if a.weak_type and a.shape == o.shape
                    else a for a, o in zip(avals, out_avals)]
        if promoted != avals:
            vals = [_convert(v, p.dtype) if p.dtype != a.dtype else v
                    for v, a, p in zip(vals, avals, promoted)]
            avals = promoted
            traced = trace(avals)
            out_avals = traced.closed.out_avals[:len(avals)]
    for i, (a, o) in enumerate(zip(avals, out_avals)):
        if a.shape != o.shape or a.dtype != o.dtype:
            raise TypeError(f"{what}: the body function must return a carry of the same "
                            f"types as its input carry, but input carry leaf {i} has type "
                            f"{a.str_short()} and the output has type {o.str_short()}")
    return traced, vals


def _convert(v, dtype):
    if isinstance(v, Tracer):
        return _lax().convert_element_type_p.bind(v, new_dtype=np.dtype(dtype))
    return np.asarray(v, dtype)


def while_loop(cond_fun: Callable, body_fun: Callable, init_val):
    """``val = init_val; while cond_fun(val): val = body_fun(val)``, as
    ``jax.lax.while_loop``.

    ``body_fun`` must return the same pytree structure, shapes and dtypes as it receives
    (a Python-scalar leaf of ``init_val`` takes the dtype the body gives it).
    ``cond_fun`` must return a boolean scalar. Forward-mode differentiation works
    everywhere; reverse mode works eagerly (the loop is unrolled on the tape) but not
    under ``jit``, as in JAX: use :func:`scan` or :func:`fori_loop` with concrete bounds.
    """
    vals, tree, avals = _operands(init_val)

    def trace_body(in_avals):
        traced = _Traced(body_fun, lambda leaves: (tree_unflatten(tree, leaves),), in_avals)
        if traced.out_trees[0] != tree:
            raise TypeError(f"while_loop: body_fun must return the structure of its input "
                            f"{tree}, got {traced.out_trees[0]}")
        return traced

    body, vals = _fixed_carry(trace_body, vals, avals, "while_loop")
    avals = [get_aval(v) for v in vals]
    cond = _Traced(cond_fun, lambda leaves: (tree_unflatten(tree, leaves),), avals)
    out = cond.closed.out_avals
    if len(out) != 1 or out[0].shape != () or out[0].dtype != np.bool_:
        got = ", ".join(a.str_short() for a in out)
        raise TypeError(f"while_loop: cond_fun must return a boolean scalar, but got "
                        f"output type(s) [{got}]")
    (cond_j,), cconsts = _hoist_consts([cond.closed])
    (body_j,), bconsts = _hoist_consts([body.closed])
    cond_j, body_j, cconsts, bconsts, loop_vals, fixed = _while_fixed_to_consts(
        cond_j, body_j, cconsts, bconsts, vals)
    outs = iter(while_p.bind(*cconsts, *bconsts, *loop_vals, cond_jaxpr=cond_j,
                             body_jaxpr=body_j, cond_nconsts=len(cconsts),
                             body_nconsts=len(bconsts)))
    outs = [vals[k] if k in fixed else next(outs) for k in range(len(vals))]
    return tree_unflatten(tree, _wrap_all(outs))


def _while_fixed_to_consts(cond_j, body_j, cconsts, bconsts, vals):
    """A carry the body returns unchanged becomes a constant of both the predicate and
    the body (as :func:`_carry_to_consts` for ``scan``): the final value is the initial
    one, unbatched where it was under ``vmap`` even when the predicate is batched.
    Returns (cond jaxpr, body jaxpr, cond consts, body consts, loop carry, fixed set)."""
    bj, nb, n = body_j.jaxpr, len(bconsts), len(vals)
    fixed = {k for k in range(n) if bj.outvars[k] is bj.invars[nb + k]}
    if not fixed or len(fixed) == n:
        return cond_j, body_j, cconsts, bconsts, vals, set()
    order = sorted(fixed) + [k for k in range(n) if k not in fixed]

    def moved(closed, nk, outvars):
        j = closed.jaxpr
        carry = j.invars[nk:]
        invars = j.invars[:nk] + [carry[k] for k in order]
        return ClosedJaxpr(Jaxpr(j.constvars, invars, outvars, j.eqns), closed.consts)

    fixed_vals = [vals[k] for k in sorted(fixed)]
    new_body = moved(body_j, nb, [bj.outvars[k] for k in range(n) if k not in fixed])
    new_cond = moved(cond_j, len(cconsts), cond_j.jaxpr.outvars)
    return (new_cond, new_body, list(cconsts) + fixed_vals, list(bconsts) + fixed_vals,
            [vals[k] for k in range(n) if k not in fixed], fixed)


def scan(f: Callable, init, xs=None, length: int | None = None, reverse: bool = False,
         unroll: int | bool = 1):
    """Loop ``f(carry, x) -> (carry, y)`` over the leading axis of ``xs``, as
    ``jax.lax.scan``; returns ``(final carry, stacked ys)``.

    ``xs`` is a pytree of arrays with equal leading sizes (or None, with ``length``).
    ``reverse=True`` runs from the last slice to the first (``ys`` keep their order).
    Differences from JAX: ``unroll`` is checked (a concrete int >= 0 or a bool) and
    otherwise ignored (XLA decides).
    """
    _check_unroll(unroll)
    carry_vals, carry_tree, carry_avals = _operands(init)
    xs_vals, xs_tree, xs_avals = _operands(xs)
    for a in xs_avals:
        if a.ndim == 0:
            raise ValueError(f"scan got value with no leading axis to scan over: "
                             f"{a.str_short()}")
    sizes = sorted({a.shape[0] for a in xs_avals})
    if length is not None:
        length = int(core.concrete_or_error(length, "scan's length"))
        if sizes and sizes != [length]:
            raise ValueError(f"scan got `length` argument of {length} which disagrees "
                             f"with leading axis sizes {sizes}")
    elif not sizes:
        raise ValueError("scan got no values to scan over and `length` not provided")
    elif len(sizes) > 1:
        raise ValueError(f"scan got values with different leading axis sizes: "
                         f"{', '.join(str(s) for s in sizes)}")
    else:
        length = sizes[0]
    x_avals = [a.update(shape=a.shape[1:]) for a in xs_avals]
    nc = len(carry_vals)

    def split_out(out):
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"scan: the body function must return a pair (carry, y), got "
                            f"{type(out).__name__}")
        return out

    def trace_body(in_avals):
        traced = _Traced(f, lambda leaves: (tree_unflatten(carry_tree, leaves[:nc]),
                                            tree_unflatten(xs_tree, leaves[nc:])),
                         list(in_avals) + x_avals, split_out)
        if traced.out_trees[0] != carry_tree:
            raise TypeError(f"scan: the body function must return a carry of the "
                            f"structure of its input {carry_tree}, got "
                            f"{traced.out_trees[0]}")
        return traced

    body, carry_vals = _fixed_carry(trace_body, carry_vals, carry_avals, "scan")
    (jaxpr,), consts = _hoist_consts([body.closed])
    fun = _retrace_fun(body.flat, len(consts), consts, jaxpr)
    jaxpr, fun, consts, loop_carry, fixed = _carry_to_consts(jaxpr, fun, consts,
                                                            carry_vals)
    outs = scan_p.bind(*consts, *loop_carry, *xs_vals, jaxpr=jaxpr, length=length,
                       reverse=bool(reverse), num_consts=len(consts),
                       num_carry=len(loop_carry), funs=None if fun is None else (fun,))
    outs = iter(outs)
    carry_out = [carry_vals[k] if k in fixed else next(outs) for k in range(nc)]
    return (tree_unflatten(carry_tree, _wrap_all(carry_out)),
            tree_unflatten(body.out_trees[1], _wrap_all(outs)))


def _check_unroll(unroll):
    """JAX's rule for scan's ``unroll``: a concrete bool or non-negative int."""
    u = core.concrete_or_error(unroll, "The `unroll` argument to `scan` (a concrete `int` "
                               "or `bool` value)")
    if isinstance(u, (bool, np.bool_)) or getattr(u, "dtype", None) == np.bool_:
        return
    try:
        ok = operator.index(u) >= 0
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"scan: `unroll` must be a `bool` or a non-negative `int`, got "
                         f"{u!r}")


def _carry_to_consts(jaxpr: ClosedJaxpr, fun, consts: list, carry_vals: list):
    """A carry the body returns unchanged never changes: it becomes a constant of the
    loop (as in JAX), so that the final carry is the initial value itself (unbatched
    where it was, with no loop-carried derivative). The body's inputs are (constants,
    carry, xs) and its outputs (carry, ys). Returns the new (jaxpr, retrace function,
    constants, loop carry, set of fixed carry positions)."""
    j, nk, nc = jaxpr.jaxpr, len(consts), len(carry_vals)
    fixed = {k for k in range(nc) if j.outvars[k] is j.invars[nk + k]}
    if not fixed:
        return jaxpr, fun, consts, carry_vals, fixed
    moving = [k for k in range(nc) if k not in fixed]
    carry_in = j.invars[nk:nk + nc]
    invars = (j.invars[:nk] + [carry_in[k] for k in sorted(fixed)] +
              [carry_in[k] for k in moving] + j.invars[nk + nc:])
    outvars = [j.outvars[k] for k in moving] + j.outvars[nc:]
    new = ClosedJaxpr(Jaxpr(j.constvars, invars, outvars, j.eqns), jaxpr.consts)
    nf = len(fixed)

    def reordered(*args):
        fixed_in = dict(zip(sorted(fixed), args[nk:nk + nf]))
        moving_in = iter(args[nk + nf:nk + nf + len(moving)])
        carry = [fixed_in[k] if k in fixed else next(moving_in) for k in range(nc)]
        outs = fun(*args[:nk], *carry, *args[nk + nf + len(moving):])
        return [outs[k] for k in moving] + list(outs[nc:])

    return (new, None if fun is None else reordered,
            list(consts) + [carry_vals[k] for k in sorted(fixed)],
            [carry_vals[k] for k in moving], fixed)


def _concrete_int(x):
    v = core.unwrap(x)
    if isinstance(v, Tracer):
        v = v.to_concrete()
        if v is None:
            return None
    return v


def fori_loop(lower, upper, body_fun: Callable, init_val, *, unroll=None):
    """``val = init_val; for i in range(lower, upper): val = body_fun(i, val)``, as
    ``jax.lax.fori_loop``.

    With concrete bounds this is a :func:`scan` (so reverse-mode differentiation works
    under jit too); with traced bounds a :func:`while_loop`. ``i`` has the dtype of the
    bounds (int64 for Python ints), which must be equal unless one is a Python int.
    Float bounds work as in JAX: ``i`` starts at ``lower`` and steps by 1, for
    ``int(upper) - int(lower)`` steps when the bounds are concrete, while ``i < upper``
    when they are traced. ``unroll`` needs concrete bounds (as in JAX) and is otherwise
    ignored.
    """
    lo, hi = _concrete_int(lower), _concrete_int(upper)
    a_lo, a_hi = (get_aval(core.unwrap(b)) for b in (lower, upper))
    if a_lo.weak_type != a_hi.weak_type:        # a Python int adopts the other's dtype
        dtype = a_hi.dtype if a_lo.weak_type else a_lo.dtype
    elif a_lo.dtype != a_hi.dtype and (not a_lo.weak_type or
                                       a_lo.dtype.kind != a_hi.dtype.kind):
        raise TypeError(f"fori_loop: lower and upper arguments to fori_loop must have "
                        f"equal types, got {a_lo.str_short()} and {a_hi.str_short()}")
    else:
        dtype = np.result_type(a_lo.dtype, a_hi.dtype)
    if unroll is not None and unroll is not False and (lo is None or hi is None):
        raise ValueError("fori_loop: can only use `unroll` if the loop bounds are "
                         "statically known (concrete)")
    if dtype.kind not in "iuf" or a_lo.shape or a_hi.shape:
        raise TypeError(f"fori_loop: lower and upper must be integer or float scalars, "
                        f"got {a_lo.str_short()} and {a_hi.str_short()}")
    if lo is not None and hi is not None:
        def step(carry, _):
            i, val = carry
            return (i + 1, body_fun(i, val)), None
        start = np.asarray(lo, dtype)
        (_, out), _ = scan(step, (start, init_val), None, length=max(int(hi) - int(lo), 0))
        return out

    def body(carry):
        i, stop, val = carry
        return i + 1, stop, body_fun(i, val)

    lower, upper = (_convert(core.unwrap(b), dtype) for b in (lower, upper))
    return while_loop(lambda c: c[0] < c[1], body, (lower, upper, init_val))[2]


def map(f: Callable, xs, *, batch_size: int | None = None):  # noqa: A001  (jax.lax.map)
    """``stack([f(x) for x in xs])`` over the leading axis of the pytree ``xs``, as
    ``jax.lax.map`` (a :func:`scan` without a carry).

    With ``batch_size``, ``f`` is :func:`~transforms.vmap`-ed over chunks of that many
    items, scanned over the chunks, and the items left over are one more ``vmap``-ed call.
    """
    if batch_size is None:
        return scan(lambda _, x: ((), f(x)), (), xs)[1]
    if isinstance(batch_size, bool) or operator.index(batch_size) < 1:
        raise ValueError(f"map: batch_size must be a positive integer, got {batch_size}")
    from transforms.batching import vmap
    lax = _lax()
    leaves, tree = tree_flatten(xs)
    leaves = [core.unwrap(x) for x in leaves]
    n = get_aval(leaves[0]).shape[0] if leaves else 0
    n_full = n - n % batch_size
    parts = []

    def piece(x, lo, hi, shape):
        s = get_aval(x).shape
        x = lax.slice_p.bind(x, start_indices=(lo,) + (0,) * (len(s) - 1),
                             limit_indices=(hi,) + s[1:], strides=None)
        return lax.reshape_p.bind(x, new_sizes=shape + s[1:])

    if n_full:
        chunks = [piece(x, 0, n_full, (n_full // batch_size, batch_size)) for x in leaves]
        ys = scan(lambda _, x: ((), vmap(f)(x)), (), tree_unflatten(tree, chunks))[1]
        y_leaves, out_tree = tree_flatten(ys)
        parts.append([lax.reshape_p.bind(y, new_sizes=(n_full,) + get_aval(y).shape[2:])
                      for y in [core.unwrap(v) for v in y_leaves]])
    if n > n_full:
        rest = [piece(x, n_full, n, (n - n_full,)) for x in leaves]
        y_leaves, out_tree = tree_flatten(vmap(f)(tree_unflatten(tree, rest)))
        parts.append([core.unwrap(y) for y in y_leaves])
    if not parts:
        return scan(lambda _, x: ((), f(x)), (), xs)[1]
    outs = parts[0] if len(parts) == 1 else [
        lax.concatenate_p.bind(a, b, dimension=0) for a, b in zip(*parts)]
    return tree_unflatten(out_tree, [core.wrap(o) for o in outs])
