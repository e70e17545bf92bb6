"""The core of every transformation: abstract values, primitives, traces and tracers.

The design is "stackless": a thread-local *current trace* receives every primitive that is
bound. With no transformation active that trace is the eval trace, and :meth:`Primitive.bind`
takes a short fast path straight to the primitive's NumPy implementation. A transformation
(jvp, vmap, staging into a jaxpr, ...) installs its own trace, whose ``process_primitive``
applies the primitive's rule and binds primitives again with the *parent* trace installed.
A value that is not one of the current trace's own tracers is a constant to that trace.

A primitive is one :class:`Primitive` object holding every rule for it (implementation,
abstract evaluation, and the JVP, transpose, batching and lowering rules that the
transformations read), so adding a primitive touches one place.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Callable

import numpy as np

__all__ = [
    "ShapedArray", "Primitive", "Trace", "Tracer", "EvalTrace", "get_aval",
    "current_trace", "set_current_trace", "new_trace", "ConcretizationTypeError",
    "TracerArrayConversionError", "UnexpectedTracerError", "register_array_type",
    "unwrap", "wrap", "concrete_or_error",
]

# ---------------------------------------------------------------------------------------
# Abstract values

_PY_SCALAR_DTYPES = {
    bool: np.dtype(bool), int: np.dtype(np.int64),
    float: np.dtype(np.float64), complex: np.dtype(np.complex128),
}


class ShapedArray:
    """The abstract value of an array: its shape, dtype and whether its type is *weak*.

    A weak type marks a value that came from a Python scalar; under NEP 50 it adopts the
    dtype of the array it is combined with instead of promoting it.
    """

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape: tuple, dtype, weak_type: bool = False):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def update(self, shape=None, dtype=None, weak_type=None) -> ShapedArray:
        a = _new_object(ShapedArray)
        a.shape = self.shape if shape is None else tuple(shape)
        a.dtype = self.dtype if dtype is None else np.dtype(dtype)
        a.weak_type = self.weak_type if weak_type is None else bool(weak_type)
        return a

    def _key(self):
        return (self.shape, self.dtype, self.weak_type)

    def __eq__(self, other):
        return isinstance(other, ShapedArray) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def str_short(self) -> str:
        return f"{dtype_short_name(self.dtype)}[{','.join(map(str, self.shape))}]"

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.shape}, {self.dtype.name}{weak})"


_SHORT_KIND = {"f": "f", "i": "i", "u": "u", "c": "c", "b": "bool"}


def dtype_short_name(dtype: np.dtype) -> str:
    """``f64``, ``i32``, ``bool``, ``bf16`` ...: the names jaxprs print."""
    if dtype == np.dtype(bool):
        return "bool"
    if dtype.name == "bfloat16":
        return "bf16"
    kind = _SHORT_KIND.get(dtype.kind)
    if kind is None:
        return dtype.name
    return f"{kind}{dtype.itemsize * 8}"


_new_object = object.__new__

# The dtype of the tangents of integer and boolean values (JAX's float0): it holds no data.
float0 = np.dtype([("float0", np.void, 0)])


def _strong_aval(shape: tuple, dtype: np.dtype) -> ShapedArray:
    """A ShapedArray from an already-normalised shape and dtype (the hot path)."""
    a = _new_object(ShapedArray)
    a.shape, a.dtype, a.weak_type = shape, dtype, False
    return a


def get_aval(x) -> ShapedArray:
    """The abstract value of a tracer, a NumPy array or scalar, or a Python scalar."""
    t = type(x)
    if t is np.ndarray:
        return _strong_aval(x.shape, x.dtype)
    if isinstance(x, Tracer):
        return x.aval
    if t in _PY_SCALAR_DTYPES:
        return ShapedArray((), _PY_SCALAR_DTYPES[t], weak_type=True)
    if t in _handle_types:
        return get_aval(x._value)
    if t is np.ndarray or isinstance(x, np.generic):
        return _strong_aval(x.shape, x.dtype)
    if isinstance(x, np.ndarray):
        return ShapedArray(x.shape, x.dtype, False)
    if hasattr(x, "__array__") and hasattr(x, "dtype") and hasattr(x, "shape"):
        return ShapedArray(x.shape, x.dtype, False)
    if x is not None and t not in _NOT_OBJECT_SCALARS and np.asarray(x).dtype == _OBJECT:
        # An element of an object array (Fraction, Decimal, a huge int, ...): NumPy's
        # object loops return these bare for 0-d results.
        return ShapedArray((), _OBJECT, False)
    raise TypeError(f"Value {x!r} of type {t.__name__} is not a valid array value")


_OBJECT = np.dtype(object)
_NOT_OBJECT_SCALARS = (str, bytes, list, tuple, dict, set, type)


# ---------------------------------------------------------------------------------------
# The array handle seen by users (xnp.ndarray) is registered here, so that transformations
# can hand tracers to user code wrapped in handles without knowing the xnp package.

_handle_types: set = set()
_wrap_fn: Callable[[Any], Any] = lambda v: v


def register_array_type(cls: type, wrap_fn: Callable[[Any], Any]) -> None:
    """Declare ``cls`` as the user-facing array handle; ``wrap_fn(value)`` makes one."""
    global _wrap_fn
    _handle_types.add(cls)
    _wrap_fn = wrap_fn


def unwrap(x):
    """The value (NumPy array or tracer) behind an array handle; other objects unchanged."""
    return x._value if type(x) in _handle_types else x


def wrap(v):
    """Wrap a value in the registered array handle (a handle is returned as it is)."""
    return v if type(v) in _handle_types else _wrap_fn(v)


def fresh_handle(x):
    """A new handle on the value of the handle ``x`` (other objects unchanged): what a
    transformation passes for an argument it neither maps nor differentiates, so that an
    in-place write inside the function rebinds that handle, not the caller's array (a
    traced value would otherwise leak into it), as for every argument of ``jit``."""
    return _wrap_fn(x._value) if type(x) in _handle_types else x


# ---------------------------------------------------------------------------------------
# Primitives


class Primitive:
    """One operation of the vocabulary every xnp function is built from.

    All rules for the primitive are attributes of this one object:

    * ``impl(*arrays, **params)``: evaluation on NumPy values;
    * ``abstract_eval(*avals, **params)``: result :class:`ShapedArray` (or a list of them
      when ``multiple_results``);
    * ``jvp``, ``transpose``, ``batch``, ``lower``: filled by the transformations' rules.
    """

    __slots__ = ("name", "multiple_results", "impl", "abstract_eval", "jvp",
                 "transpose", "batch", "lower", "__dict__")
    collective = False      # True for primitives whose batching rule needs the vmap axis
    # Higher-order primitives (jit, control flow) split themselves under linearize and
    # partial evaluation; class-level defaults keep the look-up cheap for all others.
    partial_eval = None
    partial_eval_eqn = None
    # ``check_literal(value, args)``: called when a Python int among ``args`` is staged as
    # a literal (its value is then known only to the jaxpr), to raise the error eager
    # evaluation raises for it; None for most primitives.
    check_literal = None

    def __init__(self, name: str, *, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results
        self.impl = None
        self.abstract_eval = None
        self.jvp = None
        self.transpose = None
        self.batch = None
        self.lower = None

    def __repr__(self):
        return self.name

    def bind(self, *args, **params):
        if not _n_active[0]:
            return self.impl(*args, **params)
        trace = _state.trace
        if trace is _EVAL_TRACE:
            return self.impl(*args, **params)
        return trace.process_primitive(self, args, params)


def bind_in(trace, prim: Primitive, args, params: dict):
    """``prim.bind(*args, **params)`` with ``trace`` current (the caller has made it so),
    without looking the trace up again: the hand-over from one trace to its parent."""
    if trace is _EVAL_TRACE:
        return prim.impl(*args, **params)
    if type(prim) is Primitive:
        return trace.process_primitive(prim, args, params)
    return prim.bind(*args, **params)


class CompositePrimitive(Primitive):
    """A primitive with a fast eager implementation that every transformation sees as the
    composition ``expand(*args, **params)`` of other primitives (so it needs no rules of
    its own and never appears in a jaxpr).

    Eagerly, or when no argument is traced, ``impl`` runs: one NumPy routine (such as
    numpy.linalg.det) instead of many small primitives. Both must agree.
    """

    __slots__ = ("expand",)

    def __init__(self, name: str, *, impl, expand, multiple_results: bool = False):
        super().__init__(name, multiple_results=multiple_results)
        self.impl, self.expand = impl, expand

    def bind(self, *args, **params):
        if _n_active[0] and _state.trace is not _EVAL_TRACE and any(
                isinstance(a, Tracer) for a in args):
            return self.expand(*args, **params)
        return self.impl(*args, **params)


# ---------------------------------------------------------------------------------------
# Traces and tracers


class Trace:
    """An interpreter for primitives. Subclasses implement :meth:`process_primitive`."""

    __slots__ = ("parent", "alive", "__weakref__")

    def __init__(self):
        self.parent = _state.trace
        self.alive = True

    def process_primitive(self, prim: Primitive, args: tuple, params: dict):
        raise TypeError(f"{type(self).__name__} cannot process primitive {prim.name}")

    def __repr__(self):
        return f"{type(self).__name__}"


class EvalTrace(Trace):
    """The bottom of every stack: runs a primitive's NumPy implementation."""

    __slots__ = ()

    def __init__(self):
        self.parent = None
        self.alive = True

    def process_primitive(self, prim, args, params):
        return prim.impl(*args, **params)


class _TraceState(threading.local):
    def __init__(self):
        self.trace = _EVAL_TRACE


_EVAL_TRACE = EvalTrace()
_state = _TraceState()
# How many non-eval traces are current in any thread. While it is zero, every thread is
# eager and hot paths may skip the thread-local look-up: ``if not _n_active[0]``.
_n_active = [0]


def current_trace() -> Trace:
    return _state.trace


def is_eager() -> bool:
    """Whether primitives bound now run their implementations directly."""
    return not _n_active[0] or _state.trace is _EVAL_TRACE


class set_current_trace:
    """Temporarily make ``trace`` current (used by rules to bind one level down)."""

    __slots__ = ("trace", "prev")

    def __init__(self, trace: Trace):
        self.trace = trace

    def __enter__(self) -> Trace:
        self.prev = _state.trace
        _state.trace = self.trace
        _n_active[0] += 1
        return self.trace

    def __exit__(self, *exc):
        _state.trace = self.prev
        _n_active[0] -= 1


class new_trace(set_current_trace):
    """Install a freshly built trace for the duration of a transformation.

    On exit the trace is marked dead, so that a tracer escaping the transformation is
    recognised as leaked when it is used later.
    """

    __slots__ = ()

    def __exit__(self, *exc):
        _state.trace = self.prev
        _n_active[0] -= 1
        self.trace.alive = False


_FIX_HINT = ("Use xnp.where(cond, x, y) instead of a Python `if` on an array value, "
             "transforms.cond / while_loop for control flow, or, under jit, mark the "
             "argument static with static_argnums.")


class ConcretizationTypeError(TypeError):
    """A traced value was used where a concrete Python value is required."""


class TracerBoolConversionError(ConcretizationTypeError):
    """``bool()`` of a traced value (a Python ``if``/``while`` on an array)."""


class TracerIntegerConversionError(ConcretizationTypeError):
    """``operator.index()`` of a traced value (an array used as a Python index)."""


class TracerArrayConversionError(TypeError):
    """A traced value was converted to a NumPy array."""


class UnexpectedTracerError(Exception):
    """A tracer was used after the transformation that created it had finished."""


class Tracer:
    """A value under a transformation. Subclasses set ``aval`` and ``to_concrete``."""

    __slots__ = ("_trace", "__weakref__")
    __array_priority__ = 1000

    @property
    def aval(self) -> ShapedArray:
        raise AttributeError(f"{type(self).__name__} must define aval")

    def to_concrete(self):
        """The concrete NumPy value behind this tracer, or None if it is abstract."""
        return None

    def carries_derivative(self) -> bool:
        """Whether a derivative flows through this value (a non-zero tangent at some
        level); converting it to a Python float would silently drop that derivative."""
        return False

    @property
    def shape(self):
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def ndim(self):
        return self.aval.ndim

    @property
    def size(self):
        return self.aval.size

    def __array__(self, dtype=None, copy=None):
        check_alive(self)
        if not self.carries_derivative():
            value = self.to_concrete()      # a value known while staging (known_values.py)
            if value is not None:
                return np.asarray(value, dtype=dtype)
        raise TracerArrayConversionError(
            f"A traced array {self.aval.str_short()} was converted to a NumPy array inside "
            f"a transformation ({type(self._trace).__name__}); NumPy cannot see through "
            "tracers and the result would silently lose the transformation. Call the xnp "
            "function (xnp.sin, xnp.sum, ...) instead of NumPy's, use "
            "xnp.lax.stop_gradient(x) where no derivative is wanted, or convert the value "
            "after the transformed function returns.")

    def __repr__(self):
        return f"Traced<{self.aval.str_short()}>with<{type(self._trace).__name__}>"


def check_alive(tracer: Tracer) -> None:
    if not tracer._trace.alive:
        raise UnexpectedTracerError(
            f"Encountered a leaked tracer {tracer.aval.str_short()} from a "
            f"{type(tracer._trace).__name__} that has already finished. A value computed "
            "inside a transformed function (grad, vmap, jit, make_jaxpr, ...) was stored "
            "outside it (a global, a closure, a list) and used afterwards. Return it from "
            "the transformed function instead.")


def concrete_or_error(x, what: str = "The value", error=None):
    """The concrete NumPy value of ``x``; raises ConcretizationTypeError (or its subclass
    ``error``) if it is traced."""
    x = unwrap(x)
    if not isinstance(x, Tracer):
        return x
    check_alive(x)
    value = x.to_concrete()
    if value is None:
        raise (error or ConcretizationTypeError)(
            f"{what} needs a concrete value, but got the traced array "
            f"{x.aval.str_short()} (under {type(x._trace).__name__}). {_FIX_HINT}")
    return value


def concrete_number_or_error(x, what: str):
    """:func:`concrete_or_error` for conversions to a Python float or complex, which
    also refuse a value a derivative flows through: the result would be a constant and
    the gradient silently wrong (an int or bool carries no derivative, so ``int(x)`` and
    ``bool(x)`` stay allowed, as in autograd)."""
    v = unwrap(x)
    if isinstance(v, Tracer) and v.carries_derivative():
        raise ConcretizationTypeError(
            f"{what} of the differentiated value {v.aval.str_short()} would drop its "
            "derivative (the result is a Python constant). Keep computing with the array "
            "itself (xnp functions and operators differentiate), or write "
            "xnp.lax.stop_gradient(x) where no derivative is wanted.")
    return concrete_or_error(v, what)
