"""Forward and reverse mode: jvp, linearize, vjp and the transposition of linear jaxprs.

* ``jvp`` runs a function on :class:`JVPTracer` values (primal, tangent); each primitive's
  ``jvp`` rule computes both. A tangent may be a symbolic :class:`Zero`.
* ``linearize`` runs the JVP with tangents that are tracers of a :class:`LinearTape`: a
  staging trace that records only equations touching its own tracers and forwards
  everything else (all primal work) to the trace below. The recorded jaxpr is the linear
  map from input to output tangents; its constants are the residuals. Eagerly this costs
  about what a tape costs, yet the result is an ordinary jaxpr that later transformations
  (jit, control flow) can process like any other.
* ``vjp`` = linearize + :func:`backward_pass`, which runs each linear primitive's
  ``transpose`` rule from the outputs back to the inputs.

Rules live with their primitives (xnp/lax); helpers to write them are in ``ad_rules``.
"""

from __future__ import annotations

from typing import Callable, Sequence

from transforms import core
from transforms.core import ShapedArray, Trace, Tracer, get_aval
from transforms.jaxpr import Literal, StagingTrace, StagingTracer

__all__ = ["Zero", "JVPTrace", "JVPTracer", "jvp_flat", "linearize_flat",
           "backward_pass", "UndefinedPrimal", "instantiate", "zeros_like_aval",
           "add_tangents", "tangent_aval", "bind_primal"]


class Zero:
    """A symbolic zero tangent or cotangent of the given abstract value."""

    __slots__ = ("_aval", "_of")

    def __init__(self, aval: ShapedArray):
        self._aval = aval

    @classmethod
    def of_value(cls, x) -> Zero:
        """The zero tangent of the value ``x``; its aval is only computed when read
        (most zero tangents are merely recognised as zero and skipped)."""
        z = _new_zero(cls)
        z._aval, z._of = None, x
        return z

    @property
    def aval(self) -> ShapedArray:
        if self._aval is None:
            self._aval = tangent_aval(get_aval(self._of))
            self._of = None
        return self._aval

    def __repr__(self):
        return f"Zero({self.aval.str_short()})"


_new_zero = object.__new__


float0 = core.float0


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """Tangents of inexact values share their type; integers and bools have none."""
    if aval.dtype.kind in "fc" or aval.dtype.name == "bfloat16":
        return aval if not aval.weak_type else ShapedArray(aval.shape, aval.dtype)
    return ShapedArray(aval.shape, float0)


def is_differentiable(aval: ShapedArray) -> bool:
    return aval.dtype.kind in "fc" or aval.dtype.name == "bfloat16"


# Filled by xnp.lax: how to make concrete zeros and add two tangents with primitives.
_ops: dict[str, Callable] = {}


def register_tangent_ops(*, zeros: Callable, add: Callable) -> None:
    _ops["zeros"], _ops["add"] = zeros, add


def zeros_like_aval(aval: ShapedArray):
    return _ops["zeros"](aval)


def instantiate(t):
    return zeros_like_aval(t.aval) if type(t) is Zero else t


def add_tangents(a, b):
    if type(a) is Zero:
        return b
    if type(b) is Zero:
        return a
    return _ops["add"](a, b)


# ---------------------------------------------------------------------------------------
# JVP


class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent", "_aval")

    def __init__(self, trace, primal, tangent):
        self._trace, self.primal, self.tangent = trace, primal, tangent
        self._aval = None

    @property
    def aval(self):
        aval = self._aval
        if aval is None:
            aval = self._aval = get_aval(self.primal)
        return aval

    def to_concrete(self):
        p = self.primal
        if isinstance(p, Tracer):
            return p.to_concrete()
        return p

    def carries_derivative(self) -> bool:
        p = self.primal
        return type(self.tangent) is not Zero or (isinstance(p, Tracer) and
                                                  p.carries_derivative())


class JVPTrace(Trace):
    __slots__ = ()

    def lift(self, x):
        if type(x) is JVPTracer and x._trace is self:
            return x.primal, x.tangent
        if isinstance(x, Tracer):
            core.check_alive(x)
        return x, Zero.of_value(x)

    def process_primitive(self, prim, args, params):
        primals, tangents = [], []
        all_zero = True
        for x in args:
            if type(x) is JVPTracer and x._trace is self:
                primals.append(x.primal)
                tangents.append(x.tangent)
                if all_zero and type(x.tangent) is not Zero:
                    all_zero = False
            else:
                if isinstance(x, Tracer):
                    core.check_alive(x)
                primals.append(x)
                tangents.append(Zero.of_value(x))
        state = core._state
        state.trace = self.parent          # rules bind one level down
        try:
            if all_zero:
                return core.bind_in(self.parent, prim, primals, params)
            if prim.jvp is None:
                return _no_rule(prim, primals, params)
            out, tangent_out = prim.jvp(primals, tangents, **params)
        finally:
            state.trace = self
        if prim.multiple_results:
            return [self._pack(o, t) for o, t in zip(out, tangent_out)]
        return self._pack(out, tangent_out)

    def _pack(self, primal, tangent):
        if type(tangent) is Zero and not is_differentiable(get_aval(primal)):
            return primal      # no derivative can flow through integer results
        return JVPTracer(self, primal, tangent)

    def process_custom(self, kind, args, params):
        from transforms import custom_derivatives
        return custom_derivatives.jvp_of_custom(self, kind, args, params)


def _no_rule(prim, primals, params):
    """Primitives with integer or boolean results (comparisons, argmax, ...) need no rule:
    nothing can flow through them. Others without a rule are an error."""
    out = prim.bind(*primals, **params)
    outs = out if prim.multiple_results else [out]
    if any(is_differentiable(get_aval(o)) for o in outs):
        raise TypeError(f"Differentiation rule for '{prim.name}' not implemented")
    return out


def jvp_flat(fun: Callable, primals: Sequence, tangents: Sequence):
    """Run ``fun`` (flat values in, flat values out) forward with tangents."""
    with core.new_trace(JVPTrace()) as trace:
        ins = [JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
        outs = fun(*[core.wrap(x) for x in ins])
        pairs = [trace.lift(core.unwrap(o)) for o in outs]
    return [p for p, _ in pairs], [t for _, t in pairs]


# ---------------------------------------------------------------------------------------
# Linearize: JVP whose tangent work is recorded on a tape


class LinearTape(StagingTrace):
    """Stages equations that involve its own tracers; forwards all others to the parent."""

    __slots__ = ()

    def process_primitive(self, prim, args, params):
        for x in args:
            if type(x) is StagingTracer and x._trace is self:
                split = prim.partial_eval       # higher-order primitives split themselves
                if split is not None:
                    return split(self, args, params)
                return super().process_primitive(prim, args, params)
        return self.forward(prim, args, params)

    def forward(self, prim, args, params):
        """Bind ``prim`` on values that are not the tape's in the trace below it."""
        parent = self.parent
        if parent is core._EVAL_TRACE:       # eager linearize: primal work runs at once
            return prim.impl(*args, **params)
        state = core._state
        state.trace = parent
        try:
            return core.bind_in(parent, prim, args, params)
        finally:
            state.trace = self

    def process_custom(self, kind, args, params):
        from transforms import custom_derivatives
        for x in args:
            if type(x) is StagingTracer and x._trace is self:
                if kind in custom_derivatives.KINDS:     # e.g. custom_vmap: its own way
                    return custom_derivatives.KINDS[kind][3](self, args, params)
                # a custom function applied to tangents (inside a rule, which must use
                # them linearly, as JAX's do): its plain function goes on the tape
                return params["call"](*args)
        with core.set_current_trace(self.parent):
            return custom_derivatives.bind_custom(kind, args, params)


def bind_primal(prim, primals, params):
    """``prim.bind(*primals, **params)`` for a JVP rule's primal work.

    Under linearize the current trace is the tape, which only forwards such calls: no
    primal is ever one of its tracers (primals come from the inputs and from primal
    work, and the tape only records equations on tangents). The call goes straight to
    the trace below the tape instead, saving a level of dispatch per primitive.
    """
    trace = core._state.trace
    if type(trace) is not LinearTape:
        return prim.bind(*primals, **params)
    return trace.forward(prim, primals, params)


def linearize_flat(fun: Callable, primals: Sequence):
    """Returns (primal outputs, linear ClosedJaxpr from input to output tangents,
    output tangent avals) for ``fun`` on flat values."""
    with core.new_trace(LinearTape()) as tape:
        tangents_in = []
        for p in primals:
            aval = get_aval(p)
            tangents_in.append(tape.new_arg(tangent_aval(aval)) if is_differentiable(aval)
                               else Zero(tangent_aval(aval)))
        primals_out, tangents_out = jvp_flat(fun, primals, tangents_in)
        in_tracers = [t for t in tangents_in if type(t) is not Zero]
        outs = [t if type(t) is not Zero else _zero_out(tape, t) for t in tangents_out]
        linear = tape.build(in_tracers, outs)
    return primals_out, linear, [get_aval(p) for p in primals]


def _zero_out(tape, zero):
    """A Zero output tangent is recorded as a literal-free zeros equation on the tape."""
    with core.set_current_trace(tape.parent):
        return zeros_like_aval(zero.aval)


# ---------------------------------------------------------------------------------------
# Transposition


class UndefinedPrimal:
    """Stands for a linear input of a transpose rule (only its aval is known)."""

    __slots__ = ("aval",)

    def __init__(self, aval):
        self.aval = aval

    def __repr__(self):
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined(x) -> bool:
    return type(x) is UndefinedPrimal


def backward_pass(jaxpr, consts: Sequence, cts_out: Sequence) -> list:
    """Cotangents of the inputs of a linear jaxpr given those of its outputs.

    Equations that do not depend on the linear inputs (residual computations) are
    evaluated forward first; the rest are transposed in reverse order.
    """
    env: dict = dict(zip(jaxpr.constvars, consts))
    linear = set(jaxpr.invars)          # Literals are never members: they hash by identity
    linear_eqns = []
    for eqn in jaxpr.eqns:
        for v in eqn.invars:
            if v in linear:
                linear.update(eqn.outvars)
                linear_eqns.append(eqn)
                break
        else:
            outs = eqn.prim.bind(*[_read(env, v) for v in eqn.invars], **eqn.params)
            for v, o in zip(eqn.outvars, outs if eqn.prim.multiple_results else [outs]):
                env[v] = o
    ct_env: dict = {}
    for v, ct in zip(jaxpr.outvars, cts_out):
        _accumulate(ct_env, v, ct)
    for eqn in reversed(linear_eqns):
        prim = eqn.prim
        if prim.multiple_results:
            cts = [ct_env.pop(v, None) for v in eqn.outvars]
            if all(ct is None or type(ct) is Zero for ct in cts):
                continue
            cts = [Zero(v.aval) if c is None else c for v, c in zip(eqn.outvars, cts)]
        else:
            cts = ct_env.pop(eqn.outvars[0], None)
            if cts is None or type(cts) is Zero:
                continue
        args = [UndefinedPrimal(v.aval) if v in linear else
                v.val if type(v) is Literal else env[v] for v in eqn.invars]
        if prim.transpose is None:
            raise TypeError(f"Transpose rule (for reverse-mode differentiation) for "
                            f"'{prim.name}' not implemented")
        cts_in = prim.transpose(cts, *args, **eqn.params)
        for v, a, ct in zip(eqn.invars, args, cts_in):
            if ct is not None and type(a) is UndefinedPrimal and type(ct) is not Zero:
                ct_env[v] = add_tangents(ct_env[v], ct) if v in ct_env else ct
    return [ct_env[v] if v in ct_env else Zero(v.aval) for v in jaxpr.invars]


def _read(env, v):
    return v.val if isinstance(v, Literal) else env[v]


def _accumulate(ct_env, var, ct):
    if isinstance(var, Literal) or type(ct) is Zero:
        return
    ct_env[var] = add_tangents(ct_env[var], ct) if var in ct_env else ct

