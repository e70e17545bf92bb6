"""The jaxpr IR, the staging trace that builds it, ``make_jaxpr`` and ``eval_jaxpr``.

A jaxpr is a typed, first-order program: input variables, a list of equations (one
primitive application each) and output atoms. Constants that a traced function closes over
are lifted into ``constvars``; a :class:`ClosedJaxpr` carries their values.
"""

from __future__ import annotations

import functools
import itertools
import threading
from typing import Any, Callable, Sequence

import numpy as np

from transforms import core
from transforms.core import ShapedArray, Trace, Tracer, get_aval
from transforms.known_values import KnownEquation
from transforms.tree import tree_flatten, tree_unflatten

__all__ = ["Var", "Literal", "JaxprEqn", "Jaxpr", "ClosedJaxpr", "make_jaxpr",
           "eval_jaxpr", "trace_to_jaxpr"]


class Var:
    """A jaxpr variable: an abstract value with an identity."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval


class Literal:
    """A scalar constant written inline in a jaxpr."""

    __slots__ = ("val", "aval")

    def __init__(self, val, aval: ShapedArray):
        self.val = val
        self.aval = aval

    def __repr__(self):
        return _literal_str(self.val)


def _literal_str(val) -> str:
    v = val.item() if isinstance(val, (np.ndarray, np.generic)) else val
    return repr(v)


class JaxprEqn:
    __slots__ = ("prim", "invars", "outvars", "params")

    def __init__(self, prim, invars, outvars, params):
        self.prim, self.invars, self.outvars, self.params = prim, invars, outvars, params


class Jaxpr:
    """``{ lambda constvars ; invars . let eqns in outvars }``."""

    __slots__ = ("constvars", "invars", "outvars", "eqns")

    def __init__(self, constvars, invars, outvars, eqns):
        self.constvars, self.invars = list(constvars), list(invars)
        self.outvars, self.eqns = list(outvars), list(eqns)

    @property
    def in_avals(self):
        return [v.aval for v in self.invars]

    @property
    def out_avals(self):
        return [v.aval for v in self.outvars]

    def __str__(self):
        return _pp_jaxpr(self, _Namer(), 0)

    __repr__ = __str__


class ClosedJaxpr:
    """A jaxpr together with the values of its constvars."""

    __slots__ = ("jaxpr", "consts")

    def __init__(self, jaxpr: Jaxpr, consts: Sequence):
        self.jaxpr, self.consts = jaxpr, list(consts)

    in_avals = property(lambda self: self.jaxpr.in_avals)
    out_avals = property(lambda self: self.jaxpr.out_avals)
    eqns = property(lambda self: self.jaxpr.eqns)

    def __str__(self):
        return str(self.jaxpr)

    __repr__ = __str__


# ---------------------------------------------------------------------------------------
# Pretty printing


class _Namer:
    def __init__(self):
        self.names: dict = {}
        self.counter = itertools.count()

    def __call__(self, v) -> str:
        if isinstance(v, Literal):
            return _literal_str(v.val)
        name = self.names.get(id(v))
        if name is None:
            name = self.names[id(v)] = _letters(next(self.counter))
        return name


def _letters(n: int) -> str:
    s = ""
    while True:
        s = chr(ord("a") + n % 26) + s
        n = n // 26 - 1
        if n < 0:
            return s


def _pp_param(value, namer, indent) -> str:
    if isinstance(value, (Jaxpr, ClosedJaxpr)):
        inner = value.jaxpr if isinstance(value, ClosedJaxpr) else value
        return _pp_jaxpr(inner, namer, indent + 4)
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, tuple) and value and isinstance(value[0], (Jaxpr, ClosedJaxpr)):
        return "(" + ", ".join(_pp_param(v, namer, indent) for v in value) + ")"
    return repr(value)


def _pp_jaxpr(jaxpr: Jaxpr, namer: _Namer, indent: int) -> str:
    def binders(vs):
        return " ".join(f"{namer(v)}:{v.aval.str_short()}" for v in vs)

    pad = " " * indent
    head = f"{{ lambda {binders(jaxpr.constvars)}; {binders(jaxpr.invars)}. let"
    lines = [head]
    for eqn in jaxpr.eqns:
        outs = binders(eqn.outvars)
        params = " ".join(f"{k}={_pp_param(v, namer, indent)}"
                          for k, v in sorted(eqn.params.items())
                          if v is not None and not callable(v) and k != "funs")
        params = f"[{params}]" if params else ""
        args = " ".join(namer(v) for v in eqn.invars)
        lines.append(f"{pad}    {outs} = {eqn.prim.name}{params} {args}")
    outs = ", ".join(namer(v) for v in jaxpr.outvars)
    lines.append(f"{pad}  in ({outs}{',' if len(jaxpr.outvars) == 1 else ''}) }}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# Staging: a trace whose tracers stand for jaxpr variables


class StagingTracer(Tracer):
    """A jaxpr variable; ``known`` is ``(KnownEquation, output index)`` where its value
    follows from constants alone (see transforms/known_values.py), else None."""

    __slots__ = ("_aval", "var", "known")

    def __init__(self, trace, aval, var, known=None):
        self._trace, self._aval, self.var, self.known = trace, aval, var, known

    @property
    def aval(self):
        return self._aval

    def to_concrete(self):
        known = self.known
        if known is None:
            return None
        outs = known[0].outputs()
        return None if outs is None else outs[known[1]]


# Output avals by (primitive, input avals, params): traces stage the same few signatures
# again and again (every eager grad records its tangent equations). Avals are immutable.
_OUT_AVALS: dict = {}


def abstract_eval_cached(prim, avals: list, params: dict) -> list:
    """The output avals of ``prim`` as staged: a list, never weakly typed (primitive
    results are NumPy arrays or scalars, which NumPy promotes as strongly typed; only
    Python scalar inputs are weak)."""
    key = [prim]
    for a in avals:
        key += (a.shape, a.dtype, a.weak_type)
    for k, v in params.items():
        key += (k, type(v), v)
    key = tuple(key)
    try:
        out = _OUT_AVALS.get(key)
    except TypeError:                       # an unhashable parameter
        key, out = None, None
    if out is None:
        out = prim.abstract_eval(*avals, **params)
        if not prim.multiple_results:
            out = [out]
        out = tuple(a.update(weak_type=False) if a.weak_type else a for a in out)
        if key is not None:
            if len(_OUT_AVALS) > 8192:
                _OUT_AVALS.clear()
            _OUT_AVALS[key] = out
    return out


class _CompileTimeEval(threading.local):
    """``depth``: how many ``ensure_compile_time_eval`` contexts this thread is in; in
    one, staging traces evaluate primitives whose inputs are all concrete."""

    depth = 0


compile_time_eval = _CompileTimeEval()


class StagingTrace(Trace):
    """Records every primitive bound while it is current as an equation of a jaxpr."""

    __slots__ = ("eqns", "consts", "const_vars")

    def __init__(self):
        super().__init__()
        self.eqns: list = []
        self.consts: dict = {}       # id(value) -> (value, Var)

    def new_arg(self, aval: ShapedArray) -> StagingTracer:
        return StagingTracer(self, aval, Var(aval))

    def to_atom(self, x):
        if isinstance(x, StagingTracer) and x._trace is self:
            return x.var
        if isinstance(x, Tracer):
            core.check_alive(x)
        aval = get_aval(x)
        if not aval.dtype.isnative and not isinstance(x, Tracer):
            # byte-swapped data enters compiled code in native order (a copy per use)
            x = np.asarray(x, aval.dtype.newbyteorder("="))
            aval = get_aval(x)
        if aval.shape == () and not isinstance(x, Tracer):
            return Literal(x, aval)
        entry = self.consts.get(id(x))
        if entry is None:
            entry = self.consts[id(x)] = (x, Var(aval))
        return entry[1]

    def process_primitive(self, prim, args, params):
        if compile_time_eval.depth and not any(isinstance(x, Tracer) for x in args):
            with core.set_current_trace(core._EVAL_TRACE):   # ensure_compile_time_eval
                return prim.bind(*args, **params)
        invars, avals = [], []
        known = prim.impl is not None       # every input known: see known_values.py
        for x in args:
            if type(x) is StagingTracer and x._trace is self:
                v = x.var
                if x.known is None:
                    known = False
            else:
                if type(x) is int and prim.check_literal is not None:
                    prim.check_literal(x, args)
                v = self.to_atom(x)
                if isinstance(x, Tracer):
                    known = False
            invars.append(v)
            avals.append(v.aval)
        out_avals = abstract_eval_cached(prim, avals, params)
        known = KnownEquation(prim, args, params) if known else None
        if not prim.multiple_results:
            aval = out_avals[0]
            var = Var(aval)
            self.eqns.append(JaxprEqn(prim, invars, [var], params))
            return StagingTracer(self, aval, var, known and (known, 0))
        outs = [StagingTracer(self, a, Var(a), known and (known, i))
                for i, a in enumerate(out_avals)]
        self.eqns.append(JaxprEqn(prim, invars, [t.var for t in outs], params))
        return outs

    def process_custom(self, kind, args, params):
        if compile_time_eval.depth and not any(isinstance(x, Tracer) for x in args):
            return params["call"](*args)     # its primitives run eagerly (see above)
        from transforms.custom_derivatives import stage_custom
        return stage_custom(self, kind, args, params)

    def build(self, in_tracers, out_values) -> ClosedJaxpr:
        outvars = [self.to_atom(core.unwrap(x)) for x in out_values]
        consts = [value for value, _ in self.consts.values()]
        constvars = [var for _, var in self.consts.values()]
        jaxpr = Jaxpr(constvars, [t.var for t in in_tracers], outvars, self.eqns)
        return ClosedJaxpr(jaxpr, consts)


def trace_to_jaxpr(fun_flat: Callable, in_avals: Sequence[ShapedArray]) -> ClosedJaxpr:
    """Stage ``fun_flat`` (flat list of handles -> flat list of values) into a jaxpr."""
    with core.new_trace(StagingTrace()) as trace:
        in_tracers = [trace.new_arg(a) for a in in_avals]
        outs = fun_flat(*[core.wrap(t) for t in in_tracers])
        return trace.build(in_tracers, outs)


def abstract_arg(x) -> ShapedArray:
    """The aval of an argument leaf of a staged function: an array's or Python scalar's
    own; any other object with ``shape`` and ``dtype`` (a ShapeDtypeStruct, a jax
    ShapeDtypeStruct) stands for an array of that type."""
    v = core.unwrap(x)
    if not isinstance(v, (np.ndarray, np.generic, Tracer)) and hasattr(v, "shape") \
            and hasattr(v, "dtype"):
        return ShapedArray(tuple(v.shape), np.dtype(v.dtype),
                           bool(getattr(v, "weak_type", False)))
    try:
        return get_aval(v)
    except TypeError:
        raise TypeError(f"argument {x!r} of type {type(x).__name__} is not an array, a "
                        "Python number or a ShapeDtypeStruct") from None


def stage_pytree(fun: Callable, args: Sequence, kwargs: dict, static: Sequence[int] = ()):
    """Stage ``fun(*args, **kwargs)`` into a jaxpr on the types of the arguments' leaves
    (positional arguments at ``static`` are passed as they are). Returns (closed jaxpr,
    output tree, input avals, input tree)."""
    dynamic = [a for i, a in enumerate(args) if i not in static]
    flat, in_tree = tree_flatten((dynamic, dict(kwargs)))
    avals = [abstract_arg(x) for x in flat]
    store: list = []

    def flat_fun(*handles):
        dyn, kw = tree_unflatten(in_tree, handles)
        it = iter(dyn)
        full = [a if i in static else next(it) for i, a in enumerate(args)]
        out_flat, out_tree = tree_flatten(fun(*full, **kw))
        store.append(out_tree)
        return out_flat

    closed = trace_to_jaxpr(flat_fun, avals)
    return closed, store[0], avals, in_tree


def make_jaxpr(fun: Callable, static_argnums: int | Sequence[int] = ()) -> Callable:
    """Return a function that traces ``fun`` on example arguments and returns its jaxpr.

    Arguments may be pytrees of arrays, Python scalars (which are weakly typed) or
    ShapeDtypeStruct objects (types without values). The returned :class:`ClosedJaxpr`
    prints in JAX's readable format.
    """
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def jaxpr_maker(*args, **kwargs):
        closed, jaxpr_maker.out_tree, _, _ = stage_pytree(fun, args, kwargs, static)
        return closed

    return jaxpr_maker


def eval_jaxpr(jaxpr: Jaxpr | ClosedJaxpr, *args: Any) -> list:
    """Evaluate a jaxpr by binding its primitives with the current trace.

    Call as ``eval_jaxpr(closed_jaxpr, *args)`` or ``eval_jaxpr(jaxpr, consts, *args)``.
    """
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr, consts = jaxpr.jaxpr, jaxpr.consts
    else:
        consts, *args = args
    env: dict = {}

    def read(v):
        return v.val if isinstance(v, Literal) else env[v]

    for var, val in zip(jaxpr.constvars, consts):
        env[var] = core.unwrap(val)
    if len(args) != len(jaxpr.invars):
        raise TypeError(f"eval_jaxpr: expected {len(jaxpr.invars)} arguments, "
                        f"got {len(args)}")
    for var, val in zip(jaxpr.invars, args):
        env[var] = core.unwrap(val)
    for eqn in jaxpr.eqns:
        outs = eqn.prim.bind(*[read(v) for v in eqn.invars], **eqn.params)
        if not eqn.prim.multiple_results:
            outs = (outs,)
        for var, val in zip(eqn.outvars, outs):
            env[var] = val
    return [read(v) for v in jaxpr.outvars]
