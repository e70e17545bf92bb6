"""Eager reverse mode: ``grad`` of a function called outside every transformation.

The general reverse mode (``ad.linearize_flat`` + ``ad.backward_pass``) stages each
primitive's tangent equations while the JVP rule runs, then transposes them. Eagerly, the
same primitive is usually differentiated at the same types again and again (every step of
a training loop), so this module does that work once per signature instead:

* the forward pass runs each primitive's NumPy implementation, looks up the VJP program
  of its signature (primitive, params, input types, which inputs are differentiated) and
  records ``(program, the input values it reads, input nodes, output node(s), output
  values it reads)`` on a tape. A :class:`RevTracer` holds a concrete value and its node,
  the index of its cotangent; records hold nodes, not tracers, so that values no program
  reads are freed as the function drops them;
* a VJP program is a small program from (inputs, outputs, output cotangents) to input
  cotangents, derived once per signature by staging ``linearize`` and ``backward_pass``
  of that single primitive, that is, from the primitive's own JVP and transpose rules
  (its own application replaced by the recorded output, dead code removed, constant work
  folded). Running it calls the NumPy implementations directly;
* the backward pass pops the records in reverse and runs their programs.

Primitives whose derivative cannot be derived per signature this way (higher-order ones
such as jit, cond and scan, custom_jvp/custom_vjp functions, rules that need concrete
values, programs holding over ``_MAX_CACHED_BYTES`` of constants) are linearized as
they run, with the general machinery, and their linear jaxpr transposed in the backward
pass: the results are those of the general path.

Only ``grad``/``value_and_grad`` use this, and only where the current trace is the eval
trace; everything else (and everything under another transformation) takes the general
path, so that composition is unchanged.
"""

from __future__ import annotations

import functools
import operator
from typing import Callable, Sequence

import numpy as np

from transforms import ad, core
from transforms.core import Trace, Tracer, get_aval
from transforms.jaxpr import Literal, Var, trace_to_jaxpr

__all__ = ["RevTrace", "RevTracer", "grad_flat"]


class RevTracer(Tracer):
    """A differentiated value of the eager reverse-mode tape: its concrete value and its
    node, the index of its cotangent in the backward pass. Records refer to nodes, not
    tracers, so that a value no derivative rule reads is freed when the function drops
    it, as NumPy frees its temporaries."""

    __slots__ = ("value", "_aval", "node")

    def __init__(self, trace, value, node: int):
        self._trace, self.value, self._aval, self.node = trace, value, None, node

    @property
    def aval(self):
        aval = self._aval
        if aval is None:
            aval = self._aval = get_aval(self.value)
        return aval

    # shape, dtype and ndim straight from a NumPy value (xnp's functions read them often)
    @property
    def shape(self):
        v = self.value
        return v.shape if type(v) is np.ndarray else self.aval.shape

    @property
    def dtype(self):
        v = self.value
        return v.dtype if type(v) is np.ndarray else self.aval.dtype

    @property
    def ndim(self):
        v = self.value
        return v.ndim if type(v) is np.ndarray else self.aval.ndim

    def to_concrete(self):
        return self.value

    def carries_derivative(self) -> bool:
        return True


def _differentiable_value(v) -> bool:
    # (a NumPy value has the dtype ad.is_differentiable reads; others go through an aval)
    return ad.is_differentiable(v if type(v) is np.ndarray or isinstance(v, np.generic)
                                else get_aval(v))


class RevTrace(Trace):
    """Runs primitives eagerly and records those applied to its tracers on ``tape``:
    ``(program, input values, input nodes, output node(s), output value(s))``, values
    kept only where the program reads them. ``n_nodes`` counts the tracers made."""

    __slots__ = ("tape", "n_nodes")

    def __init__(self):
        super().__init__()
        self.tape: list = []
        self.n_nodes = 0

    def new_tracer(self, value) -> RevTracer:
        node = self.n_nodes
        self.n_nodes = node + 1
        return RevTracer(self, value, node)

    def process_primitive(self, prim, args, params):
        vals = None
        for i, x in enumerate(args):
            if type(x) is RevTracer and x._trace is self:
                if vals is None:
                    vals, nodes = list(args), [None] * len(args)
                vals[i] = x.value
                nodes[i] = x.node
            elif isinstance(x, Tracer):     # a leaked one raises, as on the general path
                core.check_alive(x)
        if vals is None:
            return core.bind_in(self.parent, prim, args, params)
        multiple = prim.multiple_results
        if prim.partial_eval is not None:          # jit, cond, scan, while: see below
            return _linearize_record(self, lambda *a: prim.bind(*a, **params), vals,
                                     nodes, multiple)
        out = prim.impl(*vals, **params)
        if multiple:
            if not any(_differentiable_value(o) for o in out):
                return out
        elif not _differentiable_value(out):
            return out      # nothing flows through integer and boolean results
        program = _program_for(prim, params, vals, nodes)
        if program is _UNDERIVABLE:
            return _linearize_record(self, lambda *a: prim.bind(*a, **params), vals,
                                     nodes, multiple)
        if program is _NO_DERIVATIVE:
            return out
        if not program.keeps_all_inputs:
            vals = [v if keep else None for v, keep in zip(vals, program.keep_in)]
        if not multiple:
            node = self.n_nodes
            self.n_nodes = node + 1
            self.tape.append((program, vals, nodes, node,
                              out if program.keep_out[0] else None))
            return RevTracer(self, out, node)
        tracers = [self.new_tracer(o) if c else None for o, c in zip(out, program.carries)]
        self.tape.append((program, vals, nodes, [t and t.node for t in tracers],
                          [o if keep else None for o, keep in zip(out, program.keep_out)]))
        return [o if t is None else t for o, t in zip(out, tracers)]

    def process_custom(self, kind, args, params):
        from transforms import custom_derivatives
        nodes = [x.node if type(x) is RevTracer and x._trace is self else None
                 for x in args]
        for x in args:
            if isinstance(x, Tracer):
                core.check_alive(x)
        if all(n is None for n in nodes):
            with core.set_current_trace(self.parent):
                return custom_derivatives.bind_custom(kind, args, params)
        vals = [x if n is None else x.value for x, n in zip(args, nodes)]
        return _linearize_record(
            self, lambda *a: custom_derivatives.bind_custom(kind, a, params), vals, nodes,
            True)


def _linearize_record(trace, bind: Callable, vals, nodes, multiple: bool):
    """Linearize ``bind(*vals)`` now with the general machinery (a primitive with its own
    partial evaluation, a custom rule) and record its linear jaxpr for the backward pass."""
    lin_idx = [i for i, n in enumerate(nodes) if n is not None]
    carries: list = []
    flat = _in_linear_inputs(bind, vals, lin_idx, multiple, carries)
    with core.set_current_trace(trace.parent):
        outs, linear, _ = ad.linearize_flat(flat, [vals[i] for i in lin_idx])
    tracers = [trace.new_tracer(o) if c and _differentiable_value(o) else None
               for o, c in zip(outs, carries)]
    if any(t is not None for t in tracers):
        trace.tape.append((linear, None, [nodes[i] for i in lin_idx],
                           [t and t.node for t in tracers], None))
    result = [o if t is None else t for o, t in zip(outs, tracers)]
    return result if multiple else result[0]


def _in_linear_inputs(bind: Callable, vals, lin_idx, multiple: bool, carries: list):
    """``bind`` as a flat function of the values at ``lin_idx`` (the others fixed at
    ``vals``) returning a list, for ``ad.linearize_flat``; each call leaves in
    ``carries`` which outputs have a tangent that is not a symbolic zero."""
    def flat(*lin):
        full = list(vals)
        for i, v in zip(lin_idx, lin):
            full[i] = core.unwrap(v)
        out = bind(*full)
        out = list(out) if multiple else [out]
        carries[:] = [_carries(o) for o in out]
        return out
    return flat


def _carries(out) -> bool:
    """Whether ``out``, an output of a primitive applied under ``linearize``, has a
    tangent that is not a symbolic zero: only such outputs become tracers, so that
    ``float()`` and NumPy accept the others as on the general path (where they are JVP
    tracers with zero tangents)."""
    out = core.unwrap(out)
    return type(out) is ad.JVPTracer and type(out.tangent) is not ad.Zero


# ---------------------------------------------------------------------------------------
# VJP programs, one per primitive signature


class _Program:
    """A VJP program as a flat list of steps over numbered slots: slots 0..n-1 hold the
    inputs, then the outputs, then the output cotangents; ``outs`` lists, per input, the
    slot of its cotangent or None where it is zero. ``keep_in``/``keep_out``: which
    inputs and outputs it reads (a record keeps only those); ``ct_avals``: the types of
    the cotangents it takes, those of the outputs ``ct_outs``; ``carries``: which outputs
    have a tangent (become tracers)."""

    __slots__ = ("steps", "tail", "outs", "keep_in", "keep_out", "keeps_all_inputs",
                 "ct_avals", "ct_outs", "carries")

    def __init__(self, steps, reads, n_slots, consts, outs, n_in, n_out, ct_avals):
        self.steps, self.outs, self.ct_avals = steps, outs, ct_avals
        n_args = n_in + n_out + len(ct_avals)
        self.tail = [None] * (n_slots - n_args)     # the slots after the arguments
        for slot, value in consts:
            self.tail[slot - n_args] = value
        read = reads | {i for i in outs if i is not None}
        self.keep_in = tuple(i in read for i in range(n_in))
        self.keep_out = tuple(i in read for i in range(n_in, n_in + n_out))
        self.keeps_all_inputs = all(self.keep_in)

    def run(self, values: list) -> list:
        env = values + self.tail
        for impl, ins, outs, multiple in self.steps:
            # ``ins``: the slot of a single input, or an itemgetter of several
            res = impl(env[ins]) if type(ins) is int else impl(*ins(env))
            if multiple:
                for i, r in zip(outs, res):
                    env[i] = r
            else:
                env[outs] = res
        return [None if i is None else env[i] for i in self.outs]


_PROGRAMS: dict = {}
_MAX_CACHED_BYTES = 1 << 22     # the constants one cached program may hold
_PY_SCALARS = (bool, int, float, complex)     # their type is their (weak) abstract value
_UNDERIVABLE = object()      # derive per call with the general machinery
_NO_DERIVATIVE = object()    # no cotangent reaches any input (stop_gradient, floor, ...)


def _program_for(prim, params, vals, nodes):
    """The cached VJP program of ``prim`` at this signature, or one of the markers."""
    key = [prim]
    for v, t in zip(vals, nodes):
        tv = type(v)
        if tv is np.ndarray:
            key += (v.shape, v.dtype, t is None)
        else:
            key += (tv if tv in _PY_SCALARS else get_aval(v), None, t is None)
    for k, v in params.items():
        key += (k, type(v), v)      # as abstract_eval_cached: 1 and True differ
    key = tuple(key)
    try:
        program = _PROGRAMS.get(key)
    except TypeError:                  # an unhashable parameter
        return _UNDERIVABLE
    if program is None:
        try:
            program = _derive(prim, params, [get_aval(v) for v in vals],
                              [t is not None for t in nodes])
        except Exception:    # e.g. a rule that needs concrete values
            program = _UNDERIVABLE
        if len(_PROGRAMS) > 4096:
            _PROGRAMS.clear()
        _PROGRAMS[key] = program
    return program


def _derive(prim, params, in_avals, lin_mask):
    """Stage the VJP of one application of ``prim`` (its JVP rule, linearized, then
    transposed) into a program of (inputs, outputs, cotangents of the differentiable
    outputs)."""
    n = len(in_avals)
    out_avals = prim.abstract_eval(*in_avals, **params)
    if not prim.multiple_results:
        out_avals = [out_avals]
    out_avals = [a.update(weak_type=False) for a in out_avals]
    ct_mask = [ad.is_differentiable(a) for a in out_avals]
    ct_avals = [ad.tangent_aval(a) for a, m in zip(out_avals, ct_mask) if m]
    lin_idx = [i for i in range(n) if lin_mask[i]]
    zero_mask: list = []
    carries: list = []       # per output: whether its tangent is not a symbolic zero

    def vjp_of_prim(*handles):
        args = [core.unwrap(h) for h in handles]
        primals, cts = args[:n], iter(args[n:])
        flat = _in_linear_inputs(lambda *a: prim.bind(*a, **params), primals, lin_idx,
                                 prim.multiple_results, carries)
        _, linear, _ = ad.linearize_flat(flat, [primals[i] for i in lin_idx])
        cts_out = [next(cts) if m else ad.Zero(ad.tangent_aval(a))
                   for a, m in zip(out_avals, ct_mask)]
        cts_in = ad.backward_pass(linear.jaxpr, linear.consts, cts_out)
        zero_mask.extend(type(c) is ad.Zero for c in cts_in)
        return [c for c in cts_in if type(c) is not ad.Zero]

    closed = trace_to_jaxpr(vjp_of_prim, [*in_avals, *ct_avals])
    carries = [c and m for c, m in zip(carries, ct_mask)]
    if not any(carries):
        return _NO_DERIVATIVE
    # Outputs with zero tangents stay plain values, as on the general path (float() of
    # them works); one with a tangent is a tracer even if no cotangent reaches an input.
    program = _compile(closed, prim, params, n, out_avals, zero_mask, lin_idx, ct_avals)
    if sum(v.nbytes for v in program.tail if type(v) is np.ndarray) > _MAX_CACHED_BYTES:
        return _UNDERIVABLE     # (cumprod's n x n mask): not kept alive by the cache
    program.carries = tuple(carries)
    program.ct_outs = tuple(i for i, m in enumerate(ct_mask) if m)
    return program


def _compile(closed, prim, params, n, out_avals, zero_mask, lin_idx, ct_avals):
    jaxpr = closed.jaxpr
    slot: dict = {}
    for i, v in enumerate(jaxpr.invars[:n]):
        slot[v] = i
    n_out = len(out_avals)
    out_slots = list(range(n, n + n_out))
    for j, v in enumerate(jaxpr.invars[n:]):
        slot[v] = n + n_out + j
    next_slot = n + n_out + len(jaxpr.invars) - n
    consts = []
    for v, c in zip(jaxpr.constvars, closed.consts):
        slot[v] = next_slot
        consts.append((next_slot, c))
        next_slot += 1
    eqns = list(jaxpr.eqns)
    # The primitive's own application (the JVP rule's primal work) reads the recorded
    # outputs instead of running again.
    prim_invars = jaxpr.invars[:n]
    for k, eqn in enumerate(eqns):
        if eqn.prim is prim and len(eqn.invars) == n and all(
                a is b for a, b in zip(eqn.invars, prim_invars)) and eqn.params == params:
            for v, s in zip(eqn.outvars, out_slots):
                slot[v] = s
            del eqns[k]
            break
    eqns = _live(eqns, jaxpr.outvars)
    known = dict(consts)             # slot -> value, for constants and folded results
    steps, reads = [], set()
    for eqn in eqns:
        ins = []
        for v in eqn.invars:
            if type(v) is Literal:
                known[next_slot] = v.val
                ins.append(next_slot)
                next_slot += 1
            else:
                ins.append(slot[v])
        outs = []
        for v in eqn.outvars:
            slot[v] = next_slot
            outs.append(next_slot)
            next_slot += 1
        multiple = eqn.prim.multiple_results
        if all(i in known for i in ins):     # constant work (a cast of a literal): once
            res = eqn.prim.impl(*[known[i] for i in ins], **eqn.params)
            known.update(zip(outs, res if multiple else [res]))
            continue
        reads.update(ins)
        impl = functools.partial(eqn.prim.impl, **eqn.params) if eqn.params else \
            eqn.prim.impl
        steps.append((impl, ins[0] if len(ins) == 1 else operator.itemgetter(*ins),
                      outs if multiple else outs[0], multiple))
    results = iter(jaxpr.outvars)
    out_slots_by_input = [None] * n
    for i, zero in zip(lin_idx, zero_mask):
        if not zero:
            v = next(results)
            if type(v) is Literal:
                known[next_slot] = v.val
                out_slots_by_input[i] = next_slot
                next_slot += 1
            else:
                out_slots_by_input[i] = slot[v]
    consts = list(known.items())
    return _Program(steps, reads, next_slot, consts, out_slots_by_input, n, len(out_avals),
                    ct_avals)


def _live(eqns, outvars):
    """``eqns`` without those whose results nothing reads (every primitive is pure)."""
    needed = {id(v) for v in outvars if type(v) is Var}
    kept = []
    for eqn in reversed(eqns):
        if any(id(v) in needed for v in eqn.outvars):
            kept.append(eqn)
            needed.update(id(v) for v in eqn.invars if type(v) is Var)
    kept.reverse()
    return kept


# ---------------------------------------------------------------------------------------
# The backward pass


def _add(a, b):
    return ad.add_tangents(a, b)


def backward(tape: list, n_nodes: int, out_node: int, ct) -> list:
    """The cotangents of all ``n_nodes`` nodes, from ``ct`` at ``out_node`` back."""
    cts = [None] * n_nodes
    cts[out_node] = ct
    while tape:
        # popping frees each record's values once it is done, so that the memory of the
        # forward pass returns to the allocator while the backward pass still allocates
        program, vals, in_nodes, out_nodes, out_vals = tape.pop()
        if type(out_nodes) is int:
            ct = cts[out_nodes]
            if ct is None:
                continue
            cts[out_nodes] = None
            cts_in = program.run([*vals, out_vals, ct])
        else:
            out_cts = [None if n is None else cts[n] for n in out_nodes]
            if all(c is None for c in out_cts):
                continue
            for n in out_nodes:
                if n is not None:
                    cts[n] = None
            if vals is None:                    # a linear jaxpr recorded as it ran
                cts_in = _transpose_linear(program, out_cts)
            else:
                # zeros for the outputs with tangents that got no cotangent; the
                # program never reads those of the others
                diff_cts = [ad.instantiate(ad.Zero(a)) if out_cts[i] is None and
                            out_nodes[i] is not None else out_cts[i]
                            for i, a in zip(program.ct_outs, program.ct_avals)]
                cts_in = program.run([*vals, *out_vals, *diff_cts])
        for n, c in zip(in_nodes, cts_in):
            if n is not None and c is not None:
                prev = cts[n]
                cts[n] = c if prev is None else _add(prev, c)
    return cts


def _transpose_linear(linear, out_cts):
    cts = [ad.Zero(v.aval) if c is None else c for c, v in zip(out_cts, linear.jaxpr.outvars)]
    return [None if type(c) is ad.Zero else c
            for c in ad.backward_pass(linear.jaxpr, linear.consts, cts)]


def grad_flat(fun: Callable, primals: Sequence, ct_of_output: Callable):
    """Run ``fun`` (flat values in, flat values out) on ``primals`` and backpropagate the
    cotangent ``ct_of_output(outputs)`` from its single output. Returns (outputs,
    cotangents of the primals, symbolic Zero where none flowed)."""
    with core.new_trace(RevTrace()) as trace:
        ins = [trace.new_tracer(p) if _differentiable_value(p) else p for p in primals]
        outs = [core.unwrap(o) for o in fun(*[core.wrap(x) for x in ins])]
    values = [o.value if type(o) is RevTracer and o._trace is trace else o for o in outs]
    ct = ct_of_output(values)          # checks the output (raising for a bad one)
    out = outs[0]
    cts = None
    if type(out) is RevTracer and out._trace is trace:
        cts = backward(trace.tape, trace.n_nodes, out.node, ct)
    result = []
    for p, x in zip(primals, ins):
        c = cts[x.node] if cts is not None and type(x) is RevTracer else None
        result.append(ad.Zero(ad.tangent_aval(get_aval(p))) if c is None else c)
    return values, result
