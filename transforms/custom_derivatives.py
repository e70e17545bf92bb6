"""``custom_jvp`` and ``custom_vjp``: functions whose derivative rule is given by the user.

A call hands its flat arguments to the current trace's ``process_custom``. The eval trace
just runs the function (so Python control flow inside works); the JVP trace runs the rule;
the batch trace batches function and rule alike (``custom_batch``); a staging trace records one
``custom_jvp_call``/``custom_vjp_call`` equation that keeps the rules, so that jaxprs
transformed later (the bodies of jit, cond and scan) still apply them. The rule therefore
applies whichever transformations sit above or below the differentiation.

For ``custom_vjp`` the JVP trace runs ``fwd`` on the primals and emits one equation of
:data:`custom_lin_p`, linear in the input tangents, whose transpose calls ``bwd``. Reverse
mode (linearize + transpose) thus reaches ``bwd``; forward mode raises a clear error.

``symbolic_zeros=True`` (``defjvp``/``defvjp``) shows the rules which tangents and
cotangents are known zeros (``symbolic_zeros``); internally those are ``ad.Zero``,
which the rules' flat wrappers here convert.
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable, Sequence

import numpy as np

from transforms import ad, core
from transforms.ad import Zero
from transforms.core import Primitive, get_aval
from transforms.symbolic_zeros import (  # noqa: F401  (JAX's custom_derivatives names)
    CustomVJPPrimal,
    SymbolicZero,
    custom_vjp_primal_tree_values,
    from_rule,
    to_rule,
    zero_from_primal,
)
from transforms.tree import tree_flatten, tree_map, tree_unflatten

__all__ = ["custom_jvp", "custom_vjp", "custom_lin_p", "SymbolicZero", "CustomVJPPrimal",
           "zero_from_primal", "custom_vjp_primal_tree_values"]

# Other kinds of custom call register their handling here, kind -> (staged primitive,
# JVP rule, batching rule, linearize rule), each rule called as ``rule(trace, args,
# params)``; the linearize rule gets calls with tangents of a ``LinearTape`` among their
# arguments (``custom_batching`` registers "vmap").
KINDS: dict = {}


def bind_custom(kind: str, args: Sequence, params: dict):
    trace = core.current_trace()
    if trace is core._EVAL_TRACE:
        try:
            return params["call"](*args)
        except core.TracerArrayConversionError as e:
            # Evaluated for its value (by a rule), the function met a live tracer it
            # closes over: a value being differentiated that is not an argument.
            name = f"custom_{kind}"
            raise core.TracerArrayConversionError(
                f"Detected differentiation of a {name} function with respect to a value "
                "it closes over. That is not supported: its rule only says how to "
                "differentiate with respect to its explicit arguments. Pass the "
                "closed-over value into the function as an argument and extend the rule "
                "(or use transforms.closure_convert).") from e
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

    def __getattr__(self, name):
        # attributes of the decorated function show through (a custom_vjp wrapping a
        # custom_vmap offers its def_vmap)
        fun = self.__dict__.get("fun")
        if fun is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(fun, name)

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
        self.symbolic_zeros = False

    def defjvp(self, jvp: Callable, symbolic_zeros: bool = False) -> Callable:
        """Set the JVP rule; returns it (so that this can be used as a decorator).

        Parameters
        ----------
        jvp : callable
            ``jvp(primals, tangents) -> (primal_out, tangent_out)``.
        symbolic_zeros : bool, optional
            Pass a :class:`SymbolicZero` for each tangent known to be zero (an input
            not being differentiated) instead of an array of zeros. Whatever this
            option, the rule may return a :class:`SymbolicZero` as a tangent output.
        """
        self.jvp = jvp
        self.symbolic_zeros = bool(symbolic_zeros)
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
        self.symbolic_zeros = False

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
            dyn_t = tree_unflatten(tree, [to_rule(t, self.symbolic_zeros) for t in tangents])
            nondiff = [static[i] for i in sorted(static)]
            out, tan = self.jvp(*nondiff, tuple(dyn_p), tuple(dyn_t))
            o_leaves, t1 = tree_flatten(out)
            t_leaves, t2 = tree_flatten(tan)
            if t1 != t2:
                raise TypeError(f"custom_jvp rule of {self.__name__} returned primal and "
                                f"tangent outputs of different structure: {t1} and {t2}")
            for o, t in zip(o_leaves, t_leaves):
                if t is not None and type(t) is not SymbolicZero and \
                        _shape_of(o) != _shape_of(t):
                    raise TypeError(f"custom_jvp rule of {self.__name__} must produce primal "
                                    "and tangent outputs of equal shapes, but got a primal "
                                    f"of shape {_shape_of(o)} and a tangent of shape "
                                    f"{_shape_of(t)}")
            out_tree.append(t1)
            return [core.unwrap(x) for x in o_leaves], [from_rule(x) for x in t_leaves]

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
        self.symbolic_zeros = False

    def defvjp(self, fwd: Callable, bwd: Callable, symbolic_zeros: bool = False,
               optimize_remat: bool = False) -> None:
        """Set the rules.

        Parameters
        ----------
        fwd, bwd : callable
            ``fwd(*args) -> (out, residuals)``; ``bwd(*nondiff, residuals, g)`` returns
            one cotangent per differentiable argument (``None`` or a
            :class:`SymbolicZero` for a zero one).
        symbolic_zeros : bool, optional
            ``fwd`` receives each differentiable argument leaf as a
            :class:`CustomVJPPrimal` (``value``, ``perturbed``: whether it is being
            differentiated) and ``bwd`` a :class:`SymbolicZero` for each output
            cotangent known to be zero.
        optimize_remat : bool, optional
            A JAX memory optimisation: accepted and has no effect (as in JAX, not
            together with ``symbolic_zeros``).
        """
        if symbolic_zeros and optimize_remat:
            raise NotImplementedError("custom_vjp: optimize_remat does not support "
                                      "symbolic_zeros")
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros = bool(symbolic_zeros)

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

        def fwd(*flat_args, perturbed=None):
            # perturbed: which inputs are being differentiated (their tangent nonzero)
            wrapped = [core.wrap(a) for a in flat_args]
            if self.symbolic_zeros:
                flags = [True] * len(wrapped) if perturbed is None else perturbed
                wrapped = [CustomVJPPrimal(a, bool(p)) for a, p in zip(wrapped, flags)]
            dyn = tree_unflatten(tree, wrapped)
            res = self.fwd(*self._merge(static, dyn))
            if not (isinstance(res, tuple) and len(res) == 2):
                raise TypeError(f"custom_vjp fwd of {self.__name__} must return a pair "
                                "(output, residuals)")
            leaves, t = tree_flatten(res[0])
            out_tree.append(t)
            return [core.unwrap(x) for x in leaves], res[1]

        def bwd(residuals, cts_out):    # cts_out: arrays, or Zero for a known zero
            cts = tree_unflatten(out_tree[-1], [to_rule(c, self.symbolic_zeros)
                                                for c in cts_out])
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
    cts = tree_map(lambda c: None if type(c) is SymbolicZero else c, cts)
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
    if kind in KINDS:
        return KINDS[kind][1](trace, args, params)
    primals, tangents = zip(*(trace.lift(x) for x in args)) if args else ((), ())
    state = core._state
    state.trace = trace.parent
    try:
        if all(type(t) is Zero for t in tangents):
            return bind_custom(kind, primals, params)
        if kind == "jvp":                     # the rule gets and may return Zero tangents
            outs, touts = params["rule"](list(primals), list(tangents))
            touts = [core.unwrap(t) for t in touts]
        else:
            perturbed = tuple(type(t) is not Zero for t in tangents)
            outs, residuals = params["fwd"](*primals, perturbed=perturbed)
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
    tangents, res = args[:n_tangents], args[n_tangents:]     # bwd gets Zero cotangents
    cts_in = [None if c is None else core.unwrap(c)
              for c in bwd(_join_residuals(res, static), cts)]
    if len(cts_in) != len(tangents):
        raise TypeError(f"custom_vjp bwd returned {len(cts_in)} cotangents for "
                        f"{len(tangents)} differentiable inputs")
    for i, (a, c) in enumerate(zip(tangents, cts_in)):
        if c is not None and ad.is_undefined(a) and get_aval(c).shape != a.aval.shape:
            raise ValueError(f"custom_vjp bwd returned a cotangent of shape "
                             f"{get_aval(c).shape} for the input {i} of shape "
                             f"{a.aval.shape}; each cotangent must have its input's shape")
    return [None if not ad.is_undefined(a) else Zero(a.aval) if c is None else c
            for a, c in zip(tangents, cts_in)] + [None] * len(res)


custom_lin_p = Primitive("custom_lin", multiple_results=True)
custom_lin_p.impl = _custom_lin_impl
custom_lin_p.abstract_eval = lambda *avals, out_avals, **params: list(out_avals)
custom_lin_p.transpose = _custom_lin_transpose


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
    prim = (KINDS[kind][0] if kind in KINDS else
            custom_jvp_call_p if kind == "jvp" else custom_vjp_call_p)
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


def custom_call_primitive(name: str, transpose=None) -> Primitive:
    """The primitive a staging trace records for a custom function's call (its function
    and rules in the ``custom`` parameter), with the rules shared by every kind."""
    p = Primitive(name, multiple_results=True)
    p.impl = _call_impl
    p.abstract_eval = lambda *avals, custom: list(custom.jaxpr.out_avals)
    p.jvp = _call_jvp
    p.batch = _call_batch
    p.transpose = _call_transpose if transpose is None else transpose
    p.lower = _call_lower
    return p


custom_jvp_call_p = custom_call_primitive("custom_jvp_call")
custom_vjp_call_p = custom_call_primitive("custom_vjp_call")


# custom_lin_p's batching rule and the batch trace's handling of custom calls
from transforms import custom_batch  # noqa: E402, F401
