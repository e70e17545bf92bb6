"""``custom_jvp`` and ``custom_vjp``: functions whose derivative rule is given by the user.

A call hands its flat arguments to the current trace's ``process_custom``. The eval trace
just runs the function (so Python control flow inside works); the JVP trace runs the rule;
the batch trace batches function and rule alike; a staging trace records one
``custom_jvp_call``/``custom_vjp_call`` equation that keeps the rules, so that jaxprs
transformed later (the bodies of jit, cond and scan) still apply them. The rule therefore
applies whichever transformations sit above or below the differentiation.

For ``custom_vjp`` the JVP trace runs ``fwd`` on the primals and emits one equation of
:data:`custom_lin_p`, linear in the input tangents, whose transpose calls ``bwd``. Reverse
mode (linearize + transpose) thus reaches ``bwd``; forward mode raises a clear error.
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable, Sequence

import numpy as np

from transforms import ad, core
from transforms.ad import Zero
from transforms.core import Primitive, get_aval
from transforms.tree import tree_flatten, tree_map, tree_unflatten

__all__ = ["custom_jvp", "custom_vjp", "custom_lin_p"]


def bind_custom(kind: str, args: Sequence, params: dict):
    trace = core.current_trace()
    if trace is core._EVAL_TRACE:
        return params["call"](*args)
    if hasattr(trace, "process_custom"):
        return trace.process_custom(kind, args, params)
    return params["call"](*args)     # traces without a rule see the plain function


def _shape_of(x):
    return get_aval(core.unwrap(x)).shape


class _CustomBase:
    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = (),
                 nondiff_argnames: Sequence[str] = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        try:
            self._signature = inspect.signature(fun)
        except (TypeError, ValueError):
            self._signature = None
        nums = set(nondiff_argnums)
        if isinstance(nondiff_argnames, str):
            nondiff_argnames = (nondiff_argnames,)
        if nondiff_argnames:
            # names count by their position (calls bind keywords to positions first)
            params = ([] if self._signature is None else
                      [p.name for p in self._signature.parameters.values()
                       if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
            for name in nondiff_argnames:
                if name not in params:
                    raise ValueError(f"nondiff_argnames: {name!r} is not a positional "
                                     f"parameter of {getattr(fun, '__name__', fun)}")
                nums.add(params.index(name))
        self.nondiff_argnums = tuple(sorted(nums))

    def _positional(self, args, kwargs):
        if not kwargs:
            return args
        if self._signature is None:
            raise TypeError(f"{self.__name__}: keyword arguments need an inspectable "
                            "signature")
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.args

    def _split(self, args):
        """(static nondiff args by position, flat differentiable leaves, their tree)."""
        static = {i: args[i] for i in self.nondiff_argnums}
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        leaves, tree = tree_flatten(dyn)
        return static, [core.unwrap(x) for x in leaves], tree

    def _flat_call(self, static, tree, out_tree: list):
        """The function on flat values; records its output structure in ``out_tree``."""
        def call(*flat_args):
            dyn = tree_unflatten(tree, [core.wrap(a) for a in flat_args])
            out = self.fun(*self._merge(static, dyn))
            leaves, t = tree_flatten(out)
            out_tree.append(t)
            return [core.unwrap(x) for x in leaves]
        call.__name__ = call.__qualname__ = getattr(self, "__name__", "custom")
        return call

    def _merge(self, static, dyn):
        it = iter(dyn)
        n = len(static) + len(dyn)
        return [static[i] if i in static else next(it) for i in range(n)]


class custom_jvp(_CustomBase):
    """Decorate a function to give it a custom JVP rule.

    ``f.defjvp(rule)`` with ``rule(primals, tangents) -> (primal_out, tangent_out)``
    (nondiff arguments come first: ``rule(*nondiff, primals, tangents)``), or
    ``f.defjvps(*per_argument_rules)`` with ``rule_i(g_i, ans, *args)``.
    """

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = (),
                 nondiff_argnames: Sequence[str] = ()):
        super().__init__(fun, nondiff_argnums, nondiff_argnames)
        self.jvp = None

    def defjvp(self, jvp: Callable) -> Callable:
        self.jvp = jvp
        return jvp

    def defjvps(self, *rules: Callable | None) -> None:
        def jvp(primals, tangents):
            ans = self.fun(*primals)
            total = None
            for rule, t in zip(rules, tangents):
                if rule is None:
                    continue
                term = rule(t, ans, *primals)
                total = term if total is None else tree_map(lambda a, b: a + b, total, term)
            if total is None:
                total = tree_map(lambda a: a * 0, ans)
            return ans, total
        self.jvp = jvp

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {self.__name__} "
                                 "using defjvp.")
        if core.is_eager():                  # nothing to differentiate: the plain function
            return self.fun(*args, **kwargs)
        args = self._positional(args, kwargs)
        static, flat, tree = self._split(args)
        out_tree: list = []

        call = self._flat_call(static, tree, out_tree)

        def rule(primals, tangents):
            dyn_p = tree_unflatten(tree, [core.wrap(p) for p in primals])
            dyn_t = tree_unflatten(tree, [core.wrap(t) for t in tangents])
            nondiff = [static[i] for i in sorted(static)]
            out, tan = self.jvp(*nondiff, tuple(dyn_p), tuple(dyn_t))
            o_leaves, t1 = tree_flatten(out)
            t_leaves, t2 = tree_flatten(tan)
            if t1 != t2:
                raise TypeError(f"custom_jvp rule of {self.__name__} returned primal and "
                                f"tangent outputs of different structure: {t1} and {t2}")
            for o, t in zip(o_leaves, t_leaves):
                if t is not None and _shape_of(o) != _shape_of(t):
                    raise TypeError(f"custom_jvp rule of {self.__name__} must produce primal "
                                    "and tangent outputs of equal shapes, but got a primal "
                                    f"of shape {_shape_of(o)} and a tangent of shape "
                                    f"{_shape_of(t)}")
            out_tree.append(t1)
            return [core.unwrap(x) for x in o_leaves], [core.unwrap(x) for x in t_leaves]

        outs = bind_custom("jvp", flat, {"call": call, "rule": rule})
        return tree_unflatten(out_tree[-1], [core.wrap(o) for o in outs])


class custom_vjp(_CustomBase):
    """Decorate a function to give it a custom VJP: ``f.defvjp(fwd, bwd)`` with
    ``fwd(*args) -> (out, residuals)`` and ``bwd(*nondiff, residuals, g) -> tuple`` of
    one cotangent per differentiable argument (residuals may be any pytree)."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = (),
                 nondiff_argnames: Sequence[str] = ()):
        super().__init__(fun, nondiff_argnums, nondiff_argnames)
        self.fwd = self.bwd = None

    def defvjp(self, fwd: Callable, bwd: Callable, optimize_remat: bool = False) -> None:
        """Set the rules (``optimize_remat``, a JAX memory optimisation, is accepted and
        has no effect)."""
        del optimize_remat
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args, **kwargs):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {self.__name__} "
                                 "using defvjp.")
        if core.is_eager():                  # nothing to differentiate: the plain function
            return self.fun(*args, **kwargs)
        args = self._positional(args, kwargs)
        static, flat, tree = self._split(args)
        out_tree: list = []
        nondiff = [static[i] for i in sorted(static)]

        call = self._flat_call(static, tree, out_tree)

        def fwd(*flat_args):
            dyn = tree_unflatten(tree, [core.wrap(a) for a in flat_args])
            res = self.fwd(*self._merge(static, dyn))
            if not (isinstance(res, tuple) and len(res) == 2):
                raise TypeError(f"custom_vjp fwd of {self.__name__} must return a pair "
                                "(output, residuals)")
            leaves, t = tree_flatten(res[0])
            out_tree.append(t)
            return [core.unwrap(x) for x in leaves], res[1]

        def bwd(residuals, cts_out):
            cts = tree_unflatten(out_tree[-1], [core.wrap(c) for c in cts_out])
            cts_in = self.bwd(*nondiff, residuals, cts)
            if isinstance(cts_in, list):
                cts_in = tuple(cts_in)
            if not isinstance(cts_in, tuple):
                raise TypeError(f"custom_vjp bwd of {self.__name__} must return a tuple "
                                f"with one cotangent per argument, got "
                                f"{type(cts_in).__name__}")
            return _cotangent_leaves(self.__name__, tree, cts_in)

        outs = bind_custom("vjp", flat, {"call": call, "fwd": fwd, "bwd": bwd})
        return tree_unflatten(out_tree[-1], [core.wrap(o) for o in outs])


def _cotangent_leaves(name, tree, cts) -> list:
    """``bwd``'s cotangents, one per flat input (``tree``: the inputs' structure); as in
    JAX, a ``None`` stands for zero cotangents of a whole argument or subtree."""
    proxy = tree_unflatten(tree, list(range(tree.num_leaves)))
    is_none = lambda x: x is None  # noqa: E731
    ct_leaves, ct_tree = tree_flatten(cts, is_leaf=is_none)
    try:
        subtrees = ct_tree.flatten_up_to(proxy)
    except ValueError:
        subtrees = None
    if subtrees is None or any(c is not None and type(sub) is not int
                               for c, sub in zip(ct_leaves, subtrees)):
        raise TypeError(f"custom_vjp bwd of {name} returned cotangents of structure "
                        f"{ct_tree}, which does not match the differentiable inputs' "
                        f"structure {tree}")
    out: list = [None] * tree.num_leaves
    for c, sub in zip(ct_leaves, subtrees):
        if c is not None:
            out[sub] = core.unwrap(c)
    return out


# --- the JVP trace's handling of both kinds ------------------------------------------------


def jvp_of_custom(trace, kind, args, params):
    primals, tangents = zip(*(trace.lift(x) for x in args)) if args else ((), ())
    state = core._state
    state.trace = trace.parent
    try:
        if all(type(t) is Zero for t in tangents):
            return bind_custom(kind, primals, params)
        if kind == "jvp":
            ts = [ad.instantiate(t) for t in tangents]
            outs, touts = params["rule"](list(primals), ts)
            touts = [core.unwrap(t) for t in touts]
        else:
            outs, residuals = params["fwd"](*primals)
            ts = [ad.instantiate(t) for t in tangents]
            out_avals = [ad.tangent_aval(get_aval(o)) for o in outs]
            arrays, static = _split_residuals(residuals)
            touts = custom_lin_p.bind(*ts, *arrays, bwd=params["bwd"], static=static,
                                      n_tangents=len(ts), out_avals=tuple(out_avals))
    finally:
        state.trace = trace
    return [ad.JVPTracer(trace, core.unwrap(o), t) for o, t in zip(outs, touts)]


# The residuals of a custom_vjp are operands of custom_lin_p (after the tangents), so that
# transformations see them as values (a jaxpr holding the equation refers to them as
# variables); leaves that are not arrays (None, strings, ...) travel in ``static``.
_ARRAY_TYPES = (np.ndarray, np.generic, core.Tracer, bool, int, float, complex)


def _split_residuals(residuals):
    leaves, tree = tree_flatten(residuals)
    leaves = [core.unwrap(x) for x in leaves]
    is_array = tuple(isinstance(x, _ARRAY_TYPES) for x in leaves)
    arrays = [x for x, a in zip(leaves, is_array) if a]
    others = tuple(x for x, a in zip(leaves, is_array) if not a)
    return arrays, (tree, is_array, others)


def _join_residuals(arrays, static):
    tree, is_array, others = static
    arrays, others = iter(arrays), iter(others)
    return tree_unflatten(tree, [core.wrap(next(arrays)) if a else next(others)
                                 for a in is_array])


def _custom_lin_impl(*args, bwd, static, n_tangents, out_avals):
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function; "
                    "use grad/vjp, or define the function with custom_jvp instead")


def _custom_lin_transpose(cts, *args, bwd, static, n_tangents, out_avals):
    tangents, res = args[:n_tangents], args[n_tangents:]
    cts = [ad.instantiate(c) for c in cts]
    cts_in = [None if c is None else core.unwrap(c)
              for c in bwd(_join_residuals(res, static), cts)]
    if len(cts_in) != len(tangents):
        raise TypeError(f"custom_vjp bwd returned {len(cts_in)} cotangents for "
                        f"{len(tangents)} differentiable inputs")
    return [None if not ad.is_undefined(a) else Zero(a.aval) if c is None else c
            for a, c in zip(tangents, cts_in)] + [None] * len(res)


custom_lin_p = Primitive("custom_lin", multiple_results=True)
custom_lin_p.impl = _custom_lin_impl
custom_lin_p.abstract_eval = lambda *avals, out_avals, **params: list(out_avals)
custom_lin_p.transpose = _custom_lin_transpose


# --- the batch trace's handling of both kinds ------------------------------------------------


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
    from transforms.batching import vmap
    from xnp.lax._batch_util import broadcast_batch_v, moveaxis_v
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
            def both(*pt):
                n = len(pt) // 2
                return rule(list(pt[:n]), list(pt[n:]))
            outs, touts = _reenter(trace, both, (*primals, *tangents), in_axes + in_axes)
            return conform([outs, touts])
        new["rule"] = new_rule
    else:
        fwd, bwd = params["fwd"], params["bwd"]

        def new_fwd(*xs):
            outs, res = run(fwd, *xs)
            outs, = conform([outs])
            if batched_out[0]:
                res = tree_map(lambda r: leaf_out(r)[0]
                               if isinstance(core.unwrap(r), _ARRAY_TYPES) else r, res)
            return outs, res

        def new_bwd(res, cts):
            if not batched_out[0]:
                return bwd(res, cts)
            return vmap(lambda r, c: bwd(r, c), in_axes=(0, 0), axis_size=size)(res, cts)
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
    from transforms.batching import vmap
    from xnp.lax._batch_util import bdim_to_front, moveaxis_v
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    ts = [bdim_to_front(v, d, size) for v, d in zip(vals[:n_tangents], dims[:n_tangents])]
    res = [v if d is None else moveaxis_v(v, d, 0)
           for v, d in zip(vals[n_tangents:], dims[n_tangents:])]
    res_axes = [None if d is None else 0 for d in dims[n_tangents:]]

    def batched_bwd(residuals, cts):       # residuals: the batched pytree
        def one(r_arrays, c_):
            return bwd(_join_residuals(r_arrays, static), list(c_))
        arrays, _ = _split_residuals(residuals)
        return list(vmap(one, in_axes=(res_axes, 0), axis_size=size)(arrays, tuple(cts)))

    new_avals = tuple(a.update(shape=(size, *a.shape)) for a in out_avals)
    outs = custom_lin_p.bind(*ts, *res, bwd=batched_bwd, static=static,
                             n_tangents=n_tangents, out_avals=new_avals)
    return outs, [0] * len(outs)


custom_lin_p.batch = _custom_lin_batch


# --- staging: one equation that keeps the rules --------------------------------------------


class CustomCall:
    """The parameter of a staged custom call: its kind, the rules (``params`` of
    :func:`bind_custom`) and the jaxpr of the plain function."""

    __slots__ = ("kind", "params", "jaxpr")

    def __init__(self, kind: str, params: dict, jaxpr):
        self.kind, self.params, self.jaxpr = kind, params, jaxpr

    def __repr__(self):
        return getattr(self.params["call"], "__qualname__", "custom")


def stage_custom(trace, kind, args, params):
    """Record a custom call on a staging trace as one equation (inline, as the plain
    function, when the function closes over a tracer of an enclosing transformation)."""
    from transforms.jaxpr import StagingTrace, trace_to_jaxpr
    closed = trace_to_jaxpr(lambda *xs: params["call"](*[core.unwrap(x) for x in xs]),
                            [get_aval(x) for x in args])
    if any(isinstance(c, core.Tracer) for c in closed.consts):
        return params["call"](*args)
    prim = custom_jvp_call_p if kind == "jvp" else custom_vjp_call_p
    return StagingTrace.process_primitive(trace, prim, tuple(args),
                                          {"custom": CustomCall(kind, params, closed)})


def _call_impl(*args, custom):
    from transforms.jaxpr import eval_jaxpr
    return eval_jaxpr(custom.jaxpr, *args)


def _call_jvp(primals, tangents, *, custom):
    def run(*xs):
        return bind_custom(custom.kind, [core.unwrap(x) for x in xs], custom.params)
    return ad.jvp_flat(run, primals, tangents)


def _call_batch(vals, dims, *, custom):
    from transforms.batching import vmap

    def run(*xs):
        return bind_custom(custom.kind, [core.unwrap(x) for x in xs], custom.params)
    outs = vmap(run, in_axes=tuple(dims))(*vals)
    return [core.unwrap(o) for o in outs], [0] * len(outs)


def _call_transpose(cts, *args, custom):
    """A custom function applied to tangents (a rule calling it on them, staged in a
    jaxpr): its plain function, linear there, is transposed."""
    from transforms.jaxpr import eval_jaxpr
    from transforms.jaxpr_transforms import transpose_jaxpr
    linear = tuple(type(a) is ad.UndefinedPrimal for a in args)
    residuals = [a for a in args if type(a) is not ad.UndefinedPrimal]
    cts_in = iter(eval_jaxpr(transpose_jaxpr(custom.jaxpr, linear), *residuals,
                             *[ad.instantiate(c) for c in cts]))
    return [next(cts_in) if lin else None for lin in linear]


def _call_lower(ctx, *args, custom):
    from transforms.lowering import lower_jaxpr
    return lower_jaxpr(ctx, custom.jaxpr.jaxpr, custom.jaxpr.consts, args)


custom_jvp_call_p = Primitive("custom_jvp_call", multiple_results=True)
custom_vjp_call_p = Primitive("custom_vjp_call", multiple_results=True)
for _p in (custom_jvp_call_p, custom_vjp_call_p):
    _p.impl = _call_impl
    _p.abstract_eval = lambda *avals, custom: list(custom.jaxpr.out_avals)
    _p.jvp = _call_jvp
    _p.batch = _call_batch
    _p.transpose = _call_transpose
    _p.lower = _call_lower
del _p
