"""jit: trace once per input signature, compile with XLA, run the executable.

``jit(f)(*args)`` flattens the arguments, looks their signature (pytree structure,
shapes, dtypes, weak types, static arguments) up in a cache, tracing ``f`` to a jaxpr on a
miss, and then either runs the compiled executable directly (no transformation active) or
binds the higher-order primitive ``jit_p``, whose rules let grad, vmap and an enclosing
jit see through the call:

* JVP: the JVP of the inner function, called through ``jit_p`` again (the parameter
  ``fun``, the traced Python function, is re-traced under the transformation when
  present, so that custom_jvp/custom_vjp rules inside it are honoured; jaxprs derived by
  transformations have no ``fun`` and are interpreted instead);
* linearize: partial evaluation splits that JVP into a known part, run now, and a staged
  linear part recorded on the tape;
* transpose: the transposed linear jaxpr, called through ``jit_p``;
* batching: the batched jaxpr; lowering: the inner jaxpr, inlined.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from transforms import core, runtime
from transforms import jaxpr_transforms as jt
from transforms import tree as _tree
from transforms.ad import UndefinedPrimal, Zero, instantiate, tangent_aval
from transforms.core import Primitive, Tracer, get_aval
from transforms.jaxpr import ClosedJaxpr, JaxprEqn, StagingTrace, StagingTracer, Var, trace_to_jaxpr
from transforms.jit_args import _infer_static, _normalize_argnums
from transforms.jit_disable import (
    _config,
    _disabled,
    _install_direct_call,
    _n_disabled,
    disable_jit,
)
from transforms.jit_dispatch import (
    _BUFFER_TYPE,
    _dispatchable,
    _native,
    _register_dispatch_nodes,
    _Result,
    _sync_dispatch_registry,
    _synced,
)
from transforms.lowering import lower_jaxpr, lower_module
from transforms.tree import tree_flatten, tree_unflatten

__all__ = ["jit", "jit_p", "disable_jit", "Lowered", "Compiled"]

# ---------------------------------------------------------------------------------------
# The primitive

jit_p = Primitive("jit", multiple_results=True)
jit_p.collective = True          # its batching rule needs the vmap axis (size and name)

_executables: dict = {}


def _executable(closed: ClosedJaxpr, name: str):
    """The compiled executable of ``closed`` and the constant arrays it takes last."""
    hit = _executables.get(id(closed))
    if hit is None or hit[0] is not closed:
        text, const_args = lower_module(closed, name, runtime.TRANSPORT_DTYPES)
        exe = runtime.compile_mlir(text, [(a.shape, a.dtype) for a in closed.out_avals])
        if len(_executables) > 1024:
            _executables.clear()
        hit = _executables[id(closed)] = (closed, exe, const_args)
    return hit[1], hit[2]


def _as_input(x, aval):
    """A value ready for XLA: arrays and device buffers pass as they are, scalars get
    their dtype."""
    if type(x) is np.ndarray and x.dtype == aval.dtype or runtime.is_device_buffer(x):
        return _carried(x)
    return np.asarray(x, dtype=aval.dtype)


def _carried(x):
    """``x`` as the executable takes it: a float0 array (no data) as false bools."""
    return np.zeros(x.shape, np.bool_) if type(x) is np.ndarray and \
        x.dtype == core.float0 else x


def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str, fun=None):
    exe, const_args = _executable(jaxpr, name)
    ins = [_as_input(x, a) for x, a in zip(args, jaxpr.in_avals)]
    return exe(*ins, *const_args)


def _jit_abstract_eval(*avals, jaxpr: ClosedJaxpr, name: str, fun=None):
    return [a.update(weak_type=False) for a in jaxpr.out_avals]


def _jit_lower(ctx, *args, jaxpr: ClosedJaxpr, name: str, fun=None):
    return lower_jaxpr(ctx, jaxpr.jaxpr, jaxpr.consts, args)


def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str, fun=None):
    nonzeros = tuple(type(t) is not Zero for t in tangents)
    jvp_closed, out_has_tangent = jt.jvp_jaxpr(jaxpr, nonzeros, fun)
    outs = jit_p.bind(*primals, *[t for t in tangents if type(t) is not Zero],
                      jaxpr=jvp_closed, name=f"jvp_{name}")
    n = len(jaxpr.out_avals)
    given = iter(outs[n:])
    tangents_out = [next(given) if d else Zero(tangent_aval(a))
                    for d, a in zip(out_has_tangent, jaxpr.out_avals)]
    return outs[:n], tangents_out


def _jit_transpose(cts, *args, jaxpr: ClosedJaxpr, name: str, fun=None):
    linear = tuple(type(a) is UndefinedPrimal for a in args)
    transposed = jt.transpose_jaxpr(jaxpr, linear)
    residuals = [a for a in args if type(a) is not UndefinedPrimal]
    cts = [instantiate(c) for c in cts]
    cts_in = iter(jit_p.bind(*residuals, *cts, jaxpr=transposed, name=f"transpose_{name}"))
    return [next(cts_in) if lin else None for lin in linear]


def _jit_batch(vals, dims, *, jaxpr: ClosedJaxpr, name: str, _axis, fun=None):
    if all(d is None for d in dims) and not _uses_collectives(jaxpr):
        return jit_p.bind(*vals, jaxpr=jaxpr, name=name, fun=fun), \
            [None] * len(jaxpr.out_avals)
    batched = jt.batch_jaxpr(jaxpr, tuple(dims), _axis.axis_size, _axis.axis_name, fun)
    outs = jit_p.bind(*vals, jaxpr=batched, name=f"vmap_{name}")
    return outs, [0] * len(outs)


def _uses_collectives(closed: ClosedJaxpr) -> bool:
    return any(getattr(e.prim, "collective", False) for e in closed.eqns)


def _jit_partial_eval(tape: StagingTrace, args, params):
    """On a linearize tape: run the known part now, record the unknown part."""
    jaxpr, name = params["jaxpr"], params["name"]
    unknowns = tuple(type(x) is StagingTracer and x._trace is tape for x in args)
    known, staged, out_unknowns, _ = jt.partial_eval_jaxpr(jaxpr, unknowns)
    with core.set_current_trace(tape.parent):
        known_outs = jit_p.bind(*[x for x, u in zip(args, unknowns) if not u],
                                jaxpr=known, name=name)
    n_known = len(out_unknowns) - sum(out_unknowns)
    residuals = known_outs[n_known:]
    staged_outs = StagingTrace.process_primitive(
        tape, jit_p, (*residuals, *[x for x, u in zip(args, unknowns) if u]),
        dict(jaxpr=staged, name=f"linear_{name}"))
    known_it, staged_it = iter(known_outs[:n_known]), iter(staged_outs)
    return [next(staged_it) if u else next(known_it) for u in out_unknowns]


def _jit_partial_eval_eqn(eqn: JaxprEqn, unknowns: tuple):
    """Split one jit equation with mixed known/unknown inputs (nested jit)."""
    jaxpr, name = eqn.params["jaxpr"], eqn.params["name"]
    known, staged, out_unknowns, n_res = jt.partial_eval_jaxpr(jaxpr, unknowns)
    residuals = [Var(a) for a in known.out_avals[len(known.out_avals) - n_res:]]
    known_outvars = [v for v, u in zip(eqn.outvars, out_unknowns) if not u] + residuals
    known_eqn = JaxprEqn(jit_p, [v for v, u in zip(eqn.invars, unknowns) if not u],
                         known_outvars, dict(jaxpr=known, name=name))
    staged_eqn = JaxprEqn(jit_p, residuals + [v for v, u in zip(eqn.invars, unknowns) if u],
                          [v for v, u in zip(eqn.outvars, out_unknowns) if u],
                          dict(jaxpr=staged, name=f"linear_{name}"))
    return known_eqn, staged_eqn, out_unknowns


jit_p.impl = _jit_impl
jit_p.abstract_eval = _jit_abstract_eval
jit_p.lower = _jit_lower
jit_p.jvp = _jit_jvp
jit_p.transpose = _jit_transpose
jit_p.batch = _jit_batch
jit_p.partial_eval = _jit_partial_eval
jit_p.partial_eval_eqn = _jit_partial_eval_eqn

# ---------------------------------------------------------------------------------------
# The user-facing wrapper


def _leaf_signature(v) -> tuple:
    t = type(v)
    if t is np.ndarray:
        return (v.shape, v.dtype, False)
    if runtime.is_device_buffer(v):
        return (v.aval.shape, v.aval.dtype, False)
    return get_aval(v)._key()


class _Entry:
    """What one input signature of a jitted function traced to."""

    __slots__ = ("closed", "out_tree", "name", "consts", "in_avals", "single_output",
                 "fun", "_exe", "_const_args", "_fastpath", "_run_consts")

    def __init__(self, closed, out_tree, name, consts, fun):
        self.closed, self.out_tree, self.name, self.consts = closed, out_tree, name, consts
        # the constants as the executable takes them (float0 ones carried as bool)
        self._run_consts = [_carried(c) for c in consts]
        self.fun = fun
        self.in_avals = closed.in_avals[len(consts):]
        self.single_output = out_tree.num_leaves == 1 and out_tree == _LEAF
        self._exe = None
        self._fastpath = _UNSET

    def fastpath(self):
        """The C++ dispatch's data for running this entry without Python, or None when it
        cannot: constants the lowering appends as trailing arguments, bfloat16 inputs or
        results (carried bitcast), an output structure the C++ registry cannot build, or
        constants that are not concrete arrays."""
        fp = self._fastpath
        if fp is _UNSET:
            fp = self._fastpath = self._make_fastpath()
        return fp

    def _make_fastpath(self):
        exe = self._exe
        if exe is None or self._const_args or exe._needs_view:
            return None
        if any(a.dtype in runtime.TRANSPORT_DTYPES for a in self.in_avals):
            return None
        if not all(type(c) is np.ndarray or runtime.is_device_buffer(c)
                   for c in self._run_consts):
            return None
        n_out = self.out_tree.num_leaves
        treedef = runtime.output_treedef(
            tree_unflatten(self.out_tree, [_Result(i) for i in range(n_out)]))
        if treedef is None:
            return None
        return runtime.fastpath_data(exe, self._run_consts, len(self.in_avals), treedef)

    def run(self, vals, prepared: bool = False):
        """Run the executable on concrete values (``prepared``: NumPy arrays of the right
        dtypes or device buffers already); results are xnp arrays."""
        if self._exe is None:
            self._exe, self._const_args = _executable(self.closed, self.name)
        if not prepared:
            vals = map(_as_input, vals, self.in_avals)
        exe = self._exe
        bufs = exe.execute([*self._run_consts, *vals, *self._const_args]
                           if self.consts or self._const_args else vals)
        values = exe.results(bufs)
        if self.single_output:
            return _handle_from_buffer(values[0], bufs[0], exe.true_dtype_results[0])
        outs = [_handle_from_buffer(v, b, r)
                for v, b, r in zip(values, bufs, exe.true_dtype_results)]
        return tree_unflatten(self.out_tree, outs)


_LEAF = tree_flatten(0)[1]
_UNSET = object()


class Jitted:
    """A function compiled with XLA on first call for each input signature."""

    _inline = False      # jit(inline=True): under a transformation, trace ``fun`` inline

    def __init__(self, fun: Callable, static_argnums, static_argnames, donate_argnums):
        functools.update_wrapper(self, fun)
        if "__name__" not in self.__dict__:     # functools.partial, callable objects
            self.__name__ = getattr(getattr(fun, "func", fun), "__name__",
                                    type(fun).__name__)
        self.fun = fun
        self.static_argnums = _normalize_argnums(fun, static_argnums, "static_argnums")
        names = ((static_argnames,) if isinstance(static_argnames, str)
                 else () if static_argnames is None else tuple(static_argnames))
        # As in JAX, a static parameter is static whether passed by position or by name.
        self.static_argnums, self.static_argnames, self._static_pos_names = _infer_static(
            fun, self.static_argnums, names)
        self.donate_argnums = _normalize_argnums(fun, donate_argnums, "donate_argnums")
        self._cache: dict = {}
        self._fast_cache: dict = {}     # positional arrays only: signature -> entry
        self._plain = not self.static_argnums and not self.static_argnames
        self.trace_count = 0     # how many times ``fun`` was traced (for tests and users)
        # The C++ dispatcher (positional arguments, no transformation active): created on
        # the first eager call; False where it is not used (static_argnames, which come
        # as keywords).
        self._cpp = None if not names else False
        self._not_dispatchable: set = set()
        self._failed = False     # the last cache miss raised (see cache_miss)

    # --- signature and tracing --------------------------------------------------------
    def _split(self, args, kwargs):
        static = self.static_argnums
        if static:
            # A static argument left out of the call takes its default (as in JAX); the
            # signature check of ``fun`` itself reports one that has none.
            dyn_args = tuple(a for i, a in enumerate(args) if i not in static)
            static_vals = tuple(args[i] for i in static if i < len(args))
        else:
            dyn_args, static_vals = args, ()
        if self.static_argnames and kwargs:
            static_kw = tuple(sorted((k, v) for k, v in kwargs.items()
                                     if k in self.static_argnames))
            kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
            static_vals += static_kw
        for v in static_vals:
            try:
                hash(v)
            except TypeError:
                raise ValueError(
                    f"jit({self.__name__}): a static argument must be hashable, got a "
                    f"value of type {type(v).__name__}. Pass arrays as ordinary (traced) "
                    "arguments, or convert lists to tuples.") from None
        return dyn_args, kwargs, static_vals

    def _lookup(self, args, kwargs):
        dyn_args, dyn_kwargs, static_vals = self._split(args, kwargs)
        flat, in_tree = tree_flatten((dyn_args, dyn_kwargs))
        vals = [core.unwrap(x) for x in flat]
        key = (in_tree, tuple(map(_leaf_signature, vals)), static_vals)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._trace(args, kwargs, in_tree, vals)
            if not any(isinstance(c, Tracer) for c in entry.consts):
                self._cache[key] = entry
        return entry, vals

    def _trace(self, args, kwargs, in_tree, vals) -> _Entry:
        self.trace_count += 1
        static, names = self.static_argnums, self.static_argnames
        out_tree_box = []

        def flat_fun(*handles):
            dyn, kw = tree_unflatten(in_tree, handles)
            it = iter(dyn)
            full = [a if i in static else next(it) for i, a in enumerate(args)]
            kw = dict(kw, **{k: v for k, v in kwargs.items() if k in names})
            out_flat, out_tree = tree_flatten(self.fun(*full, **kw))
            out_tree_box.append(out_tree)
            return out_flat

        avals = [_input_aval(v) for v in vals]
        closed = trace_to_jaxpr(flat_fun, avals)
        consts = closed.consts
        n = len(consts)
        # Re-tracing ``flat_fun`` under a transformation keeps the custom derivative rules
        # it calls (only then is it given: see jt.calls_custom_rules); it closes over the
        # same constants (taken as the leading arguments here), which is only sound when
        # none of them is a tracer of an enclosing transformation.
        fun = None if any(isinstance(c, Tracer) for c in consts) or \
            not jt.calls_custom_rules(closed) else (lambda *a: flat_fun(*a[n:]))
        return _Entry(jt.closure_convert(closed), out_tree_box[0], self.__name__, consts,
                      fun)

    # --- calling ----------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        # The Python entry. Once a plain function has its C++ dispatcher, calls go to the
        # dispatcher directly instead (see _install_direct_call), except inside disable_jit.
        if kwargs or _n_active[0] or _n_disabled[0] or not self._cpp:
            return self._call(args, kwargs)
        try:
            return self._cpp(*args)  # static arguments: C++ keys them by hash and equality
        except ValueError as e:
            if "Non-hashable static" in str(e):
                return self._call(args, kwargs)     # raises xnp's error, with the fix
            raise

    def _call(self, args, kwargs):
        """The Python path: every case (static arguments, pytrees, keywords, tracers)."""
        if self._plain and not kwargs and not _n_active[0]:
            fast = _fast_signature(args)
            if fast is not None:
                entry = self._fast_cache.get(fast[0])
                if entry is not None and not _disabled():
                    return entry.run(fast[1], prepared=True)
        if _disabled() or self._inline and not core.is_eager():
            return self.fun(*args, **kwargs)       # inline=True: traced into the caller
        entry, vals = self._lookup(args, kwargs)
        if core.is_eager() and not any(isinstance(v, Tracer) for v in vals):
            if self._cpp is None:
                self._make_dispatcher()
            if self._plain and not kwargs:
                fast = _fast_signature(args)
                if fast is not None and _native(fast[0]):
                    self._fast_cache[fast[0]] = entry
            return entry.run(vals)
        outs = jit_p.bind(*entry.consts, *vals, jaxpr=entry.closed, name=entry.name,
                          fun=entry.fun)
        return tree_unflatten(entry.out_tree, [core.wrap(o) for o in outs])

    def _make_dispatcher(self):
        """The C++ dispatcher of this function (see runtime's "C++ dispatch")."""
        if not _handle_types:
            self._cpp = False        # no array class registered: results stay NumPy
            return
        _register_dispatch_nodes()

        def cache_miss(*args, **kwargs):
            # A new C++ signature, or one without fastpath data: run the Python path and
            # tell the C++ cache how to run this signature by itself, when it can.
            if self._failed:
                # A miss that raised left its signature pinned to this path in the C++
                # cache: start the cache afresh (the Python caches refill it quickly).
                self._failed = False
                self._cpp._clear_cache()
            try:
                if kwargs:
                    return self._call(args, kwargs), None, False
                if _config.disabled or _n_active[0]:
                    return self._call(args, {}), None, True
                if _synced[0] != len(_tree._registry):
                    _sync_dispatch_registry()
                fast = _fast_signature(args) if self._plain else None
                entry = self._fast_cache.get(fast[0]) if fast is not None else None
                if entry is not None:            # arrays whose signature was seen before
                    result = entry.run(fast[1], prepared=True)
                else:
                    entry, vals = self._lookup(args, {})
                    if not core.is_eager() or any(isinstance(v, Tracer) for v in vals):
                        return self._call(args, {}), None, True
                    if fast is not None and _native(fast[0]):
                        self._fast_cache[fast[0]] = entry
                    result = entry.run(vals)
                # Signatures of arrays found not dispatchable are remembered (with the
                # kinds of the values and the x64 state) so that the calls the C++ side
                # sends here every time skip the check.
                memo = None if fast is None else (
                    fast[0], tuple(type(v) is np.ndarray for v in fast[1]),
                    runtime.dispatch_x64())
                if memo is not None and memo in self._not_dispatchable:
                    return result, None, False
                static = self.static_argnums
                dyn = args if not static else tuple(
                    a for i, a in enumerate(args) if i not in static)
                fastpath = entry.fastpath() if _dispatchable(dyn, entry) else None
                if fastpath is None and memo is not None:
                    self._not_dispatchable.add(memo)
                return result, fastpath, False
            except BaseException:
                self._failed = True
                raise

        def fun(*args, **kwargs):            # runs instead when jax's disable_jit is on
            return self._call(args, kwargs)

        self._cpp = runtime.make_dispatcher(self.__name__, fun, cache_miss,
                                            self.static_argnums)
        _BUFFER_TYPE[0] = runtime.backend().array_type
        if self._plain:
            _install_direct_call(self)

    def lower(self, *args, **kwargs) -> Lowered:
        """Trace and lower for these arguments, without compiling."""
        entry, _ = self._lookup(args, kwargs)
        return Lowered(entry)

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self):
        return f"<jitted function {self.__name__}>"


def _input_aval(v):
    if runtime.is_device_buffer(v):
        return core.ShapedArray(v.aval.shape, v.aval.dtype)
    a = get_aval(v)     # byte-swapped data enters in native order (_as_input converts it)
    return a if a.dtype.isnative else core.ShapedArray(a.shape, a.dtype.newbyteorder("="),
                                                        a.weak_type)


def _handle_from_buffer(value, buf, reusable: bool):
    """An xnp array of a result; ``reusable``: ``buf`` holds it in its own dtype, so it can
    be passed back to a jitted function without a transfer."""
    handle = _wrap_value(value)
    if reusable:
        handle._buffer = (value, buf)
    return handle


_wrap_value = core.wrap


_handle_types = core._handle_types
_n_active = core._n_active


def _fast_signature(args):
    """(signature, values) when every argument is an array (NumPy, a device buffer, or xnp
    with a concrete value); None otherwise. Values that are views of XLA results become
    their buffers."""
    sig, vals = [], []
    for a in args:
        t = type(a)
        if t in _handle_types:
            v = a._value
            buf = getattr(a, "_buffer", None)
            if buf is not None and buf[0] is v:
                sig.append((v.shape, v.dtype))
                vals.append(buf[1])
                continue
            a, t = v, type(v)
        if t is not np.ndarray:
            if runtime.is_device_buffer(a):
                sig.append((a.aval.shape, a.aval.dtype))
                vals.append(a)
                continue
            return None
        sig.append((a.shape, a.dtype))
        vals.append(a)
    return tuple(sig), vals


class Lowered:
    """A jitted function lowered for one signature: its StableHLO text and jaxpr."""

    def __init__(self, entry: _Entry):
        self._entry = entry
        self.jaxpr = entry.closed

    def as_text(self) -> str:
        """The StableHLO module, as MLIR text."""
        return lower_module(self._entry.closed, self._entry.name,
                            runtime.TRANSPORT_DTYPES)[0]

    def compile(self) -> Compiled:
        return Compiled(self._entry)


class Compiled:
    """A compiled executable for one signature; call it with arguments of that signature."""

    def __init__(self, entry: _Entry):
        self._entry = entry
        if entry._exe is None:
            entry._exe, entry._const_args = _executable(entry.closed, entry.name)

    def __call__(self, *args, **kwargs):
        flat, _ = tree_flatten((args, kwargs))
        vals = [core.unwrap(x) for x in flat]
        e = self._entry
        if len(vals) != len(e.in_avals):
            raise TypeError(f"compiled {e.name}: expected {len(e.in_avals)} array "
                            f"arguments, got {len(vals)}")
        for v, a in zip(vals, e.in_avals):
            sig = _leaf_signature(v)
            if sig[:2] != (a.shape, a.dtype):
                raise TypeError(f"compiled {e.name}: argument of shape {sig[0]} and dtype "
                                f"{sig[1]} does not match the compiled signature "
                                f"{a.str_short()}")
        return e.run(vals)


def jit(fun: Callable | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (),
        donate_argnums: int | Sequence[int] = (), donate_argnames=(),
        inline: bool = False, keep_unused: bool = False) -> Any:
    """Compile ``fun`` with XLA: traced once per input signature, then run compiled.

    Arguments may be pytrees of arrays and scalars; ``static_argnums``/``static_argnames``
    mark arguments that are Python values (hashable) to specialise on: each new value
    retraces. Inside ``fun`` array values are abstract, so Python control flow on them
    raises a ConcretizationTypeError: use ``xnp.where``, ``cond``, or mark the argument
    static. Usable as a decorator, with or without arguments.

    ``inline=True``: called under a transformation (inside another jit, make_jaxpr, ...)
    ``fun`` is traced into the caller instead of staying one ``jit`` equation.

    Differences from JAX: ``donate_argnums`` is accepted and validated, but buffers are not
    donated (results never alias arguments); ``donate_argnames`` and ``keep_unused`` are
    accepted and have no effect.
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums,
                                 static_argnames=static_argnames,
                                 donate_argnums=donate_argnums,
                                 donate_argnames=donate_argnames, inline=inline,
                                 keep_unused=keep_unused)
    if not callable(fun):
        raise TypeError(f"jit: expected a callable, got {type(fun).__name__}")
    del donate_argnames, keep_unused
    jitted = Jitted(fun, static_argnums, static_argnames, donate_argnums)
    if inline:
        jitted._inline = True
    return jitted
