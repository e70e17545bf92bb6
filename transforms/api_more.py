"""More of JAX's transformation API: ``custom_gradient``, ``closure_convert``,
``jacobian``, ``block_until_ready``, ``device_put``/``device_get``, ``named_call``/
``named_scope`` and ``ensure_compile_time_eval``.

``custom_gradient`` is built on :class:`~transforms.custom_derivatives.custom_vjp`: its
forward rule stages the user's gradient function into a jaxpr (closed-over values become
the jaxpr's constants, carried as residuals), and its backward rule evaluates that jaxpr
on the cotangents. ``closure_convert`` stages a function the same way and hands back the
constants that may carry derivatives as explicit arguments.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Callable

import numpy as np

from transforms import ad, core
from transforms import jaxpr as _jaxpr
from transforms.autodiff import jacrev
from transforms.batching import BatchTracer
from transforms.core import Tracer, get_aval
from transforms.custom_derivatives import custom_vjp
from transforms.jaxpr import eval_jaxpr, stage_pytree, trace_to_jaxpr
from transforms.tree import register_pytree_node, tree_flatten, tree_map, tree_unflatten

__all__ = ["custom_gradient", "closure_convert", "jacobian", "block_until_ready",
           "device_put", "device_get", "named_call", "named_scope",
           "ensure_compile_time_eval"]

jacobian = jacrev
"""``jacobian`` is :func:`~transforms.autodiff.jacrev`, as ``jax.jacobian`` is."""


# --- custom_gradient ----------------------------------------------------------------------


class _GradientRule:
    """The residuals of a :func:`custom_gradient` call: the staged gradient function
    (auxiliary data) and the values it closes over (the pytree's children, so that
    transformations of the custom_vjp see them as arrays)."""

    __slots__ = ("jaxpr", "ct_tree", "out_tree", "consts")

    def __init__(self, jaxpr, ct_tree, out_tree, consts):
        self.jaxpr, self.ct_tree, self.out_tree = jaxpr, ct_tree, out_tree
        self.consts = list(consts)


register_pytree_node(
    _GradientRule,
    lambda r: (r.consts, (r.jaxpr, r.ct_tree, r.out_tree)),
    lambda aux, consts: _GradientRule(*aux, consts),
)


def custom_gradient(fun: Callable | None = None, *, with_logs: bool = False):
    """Give ``fun`` a reverse-mode rule written next to its value (TensorFlow's style).

    Parameters
    ----------
    fun : callable
        ``fun(*args) -> (value, vjp_fn)``: ``value`` a pytree of arrays, ``vjp_fn(g)``
        (``g`` a cotangent shaped like ``value``) returning one cotangent per positional
        argument of ``fun`` as a tuple (a single argument's may be returned bare; ``None``
        stands for a zero cotangent). ``vjp_fn`` may close over values computed by ``fun``.
        Without ``fun``, a decorator is returned.
    with_logs : bool, optional
        JAX's backward-pass logging; only ``False`` (the default) is supported.

    Returns
    -------
    callable
        A :class:`custom_vjp` function returning ``value``; ``grad``/``vjp`` apply
        ``vjp_fn``, under ``jit`` and ``vmap`` too, and higher derivatives differentiate
        ``vjp_fn`` with respect to the values it closes over.

    Notes
    -----
    As in JAX, ``vjp_fn`` is staged into a jaxpr on abstract cotangents, so it may not use
    Python control flow on the cotangent or on traced values it closes over. Differences
    from JAX: ``with_logs=True`` raises NotImplementedError; forward mode (``jvp``,
    ``jacfwd``) raises TypeError, as for every xnp ``custom_vjp``.
    """
    if with_logs:
        raise NotImplementedError("custom_gradient(with_logs=True) is not supported by xnp")
    if fun is None:
        return custom_gradient
    if not callable(fun):
        raise TypeError(f"custom_gradient: expected a callable, got {fun!r}")

    @functools.wraps(fun)
    def value_only(*args, **kwargs):
        return fun(*args, **kwargs)[0]

    wrapped = custom_vjp(value_only)

    def fwd(*args):
        out = fun(*args)
        if not (isinstance(out, tuple) and len(out) == 2 and callable(out[1])):
            raise TypeError("custom_gradient: the function must return a pair (value, "
                            f"vjp_fn), got {type(out).__name__}")
        value, rule = out
        leaves, out_tree = tree_flatten(value)
        ct_avals = [ad.tangent_aval(get_aval(core.unwrap(x))) for x in leaves]
        trees: list = []

        def flat_rule(*cts):
            res = rule(tree_unflatten(out_tree, list(cts)))
            res_leaves, res_tree = tree_flatten(res)
            trees.append(res_tree)
            return [core.unwrap(x) for x in res_leaves]

        closed = trace_to_jaxpr(flat_rule, ct_avals)
        return value, _GradientRule(closed.jaxpr, trees[0], out_tree, closed.consts)

    def bwd(res: _GradientRule, g):
        g_leaves, g_tree = tree_flatten(g)
        if g_tree != res.out_tree:
            raise TypeError(f"custom_gradient: cotangent of structure {g_tree} for an "
                            f"output of structure {res.out_tree}")
        outs = eval_jaxpr(res.jaxpr, res.consts, *[core.unwrap(x) for x in g_leaves])
        cts = tree_unflatten(res.ct_tree, [core.wrap(o) for o in outs])
        return tuple(cts) if isinstance(cts, (tuple, list)) else (cts,)

    wrapped.defvjp(fwd, bwd)
    return wrapped


# --- closure_convert ----------------------------------------------------------------------


def _maybe_perturbed(x) -> bool:
    """Whether ``x`` may carry a derivative of some enclosing transformation (a heuristic,
    as JAX's): concrete values never do; a JVP tracer with a zero tangent does if its
    primal may; a staged value does unless its type has no tangent (integers, bools)."""
    if not isinstance(x, Tracer):
        return False
    if isinstance(x, ad.JVPTracer):
        return type(x.tangent) is not ad.Zero or _maybe_perturbed(x.primal)
    if isinstance(x, _jaxpr.StagingTracer):
        return ad.is_differentiable(x.aval)
    if isinstance(x, BatchTracer):          # a batched value: look at what it batches
        return _maybe_perturbed(x.val)
    return True


def closure_convert(fun: Callable, *example_args):
    """Make the traced values ``fun`` closes over explicit arguments.

    Parameters
    ----------
    fun : callable
        A pure function of pytrees of arrays.
    *example_args
        Arguments like those ``fun`` will get (only their structure, shapes and dtypes
        are used).

    Returns
    -------
    converted : callable
        ``converted(*args, *hoisted)`` computes ``fun(*args)``, for ``args`` of the
        structure and types of ``example_args``.
    hoisted : list
        The values met while running ``fun`` that may carry a derivative of an enclosing
        transformation (tracers of ``grad``, ``jvp``, ``jit``, ...). Passing them to a
        ``custom_vjp`` function alongside ``converted`` (as a nondiff argument) lets its
        rules return cotangents for them.

    Raises
    ------
    TypeError
        If ``converted`` gets arguments of another pytree structure.

    Notes
    -----
    As in JAX, ``fun`` is staged into a jaxpr on ``example_args``' types; its constants
    that cannot carry a derivative (concrete arrays, integer values) stay inside
    ``converted``. Unlike JAX, the conversion is not cached: each call stages ``fun``.
    """
    closed, out_tree, _, in_tree = stage_pytree(fun, example_args, {})
    jaxpr, consts = closed.jaxpr, closed.consts
    hoist = [_maybe_perturbed(c) for c in consts]
    kept = [c for c, h in zip(consts, hoist) if not h]
    hoisted = [core.wrap(c) for c, h in zip(consts, hoist) if h]
    n_hoisted = len(hoisted)

    def converted(*args_and_consts):
        n = len(args_and_consts) - n_hoisted
        if n < 0:
            raise TypeError(f"closure_convert: the converted function takes its arguments "
                            f"followed by {n_hoisted} hoisted values, got "
                            f"{len(args_and_consts)} arguments")
        args, extra = args_and_consts[:n], iter(args_and_consts[n:])
        flat, tree = tree_flatten((list(args), {}))
        if tree != in_tree:
            raise TypeError("The inputs to the closure produced by closure_convert must "
                            "have the same pytree structure as the example arguments "
                            f"passed when closure_convert was called. Expected {in_tree}, "
                            f"but got {tree}")
        it_kept = iter(kept)
        all_consts = [core.unwrap(next(extra)) if h else next(it_kept) for h in hoist]
        outs = eval_jaxpr(jaxpr, all_consts, *[core.unwrap(x) for x in flat])
        return tree_unflatten(out_tree, [core.wrap(o) for o in outs])

    converted.__name__ = converted.__qualname__ = (
        f"closure_converted_{getattr(fun, '__name__', 'fun')}")
    return converted, hoisted


# --- runtime helpers ----------------------------------------------------------------------


def block_until_ready(x):
    """Wait until the arrays of pytree ``x`` are computed; return ``x``.

    Parameters
    ----------
    x : pytree
        Leaves with a ``block_until_ready`` method are waited on; others are skipped.

    Returns
    -------
    pytree
        ``x`` itself.

    Notes
    -----
    xnp computes eagerly on the CPU (and ``jit`` returns when its results are ready), so
    for xnp arrays this returns at once; it also waits on JAX arrays or other objects
    with the method.
    """
    for leaf in tree_flatten(x)[0]:
        wait = getattr(leaf, "block_until_ready", None)
        if callable(wait):
            wait()
    return x


_PUT_TYPES = (np.ndarray, np.generic, bool, int, float, complex)


def device_put(x, device=None, *, src=None, donate=False, may_alias=None):
    """Place the arrays of pytree ``x`` "on the device": make them xnp arrays.

    Parameters
    ----------
    x : pytree
        Leaves are xnp or NumPy arrays, NumPy scalars or Python numbers.
    device, src, donate, may_alias
        Accepted for JAX compatibility; xnp has one device (the CPU) and ignores them.

    Returns
    -------
    pytree
        ``x`` with every leaf an xnp array: NumPy arrays are copied, scalars become 0-d
        arrays, xnp arrays are returned as they are. Traced values (inside ``jit``,
        ``grad``, ...) are returned unchanged, so there it is the identity.

    Raises
    ------
    TypeError
        For a leaf that is not an array or number.

    Notes
    -----
    Differences from JAX: a Python scalar gives a 0-d array of NumPy's default dtype
    (``float64``, ``int64``), not a weakly typed 32-bit one.
    """
    del device, src, donate, may_alias

    def put(leaf):
        v = core.unwrap(leaf)
        if v is not leaf or isinstance(v, Tracer):
            return leaf if v is not leaf else core.wrap(v)
        if not isinstance(v, _PUT_TYPES) and hasattr(v, "__array__"):
            v = np.asarray(v)               # e.g. a JAX array
        if not isinstance(v, _PUT_TYPES):
            raise TypeError(f"device_put: argument {leaf!r} of type {type(leaf).__name__} "
                            "is not a valid array type")
        return core.wrap(np.array(v))
    return tree_map(put, x)


def device_get(x):
    """The values of the arrays of pytree ``x`` as NumPy arrays ("on the host").

    Parameters
    ----------
    x : pytree
        Leaves may be xnp arrays, NumPy arrays or scalars, or other objects.

    Returns
    -------
    pytree
        ``x`` with xnp arrays (and other objects with ``__array__``) replaced by NumPy
        arrays (copies); Python scalars, NumPy arrays, objects without ``__array__`` and
        traced values are returned unchanged.
    """
    def get(leaf):
        v = core.unwrap(leaf)
        if isinstance(v, Tracer):
            return leaf
        if v is not leaf:
            return np.array(v)
        if isinstance(v, np.ndarray) or not hasattr(v, "__array__"):
            return leaf
        return np.asarray(v)
    return tree_map(get, x)


# --- names --------------------------------------------------------------------------------


def named_call(fun: Callable, *, name: str | None = None) -> Callable:
    """``fun`` under a name for staged programs; in xnp, ``fun`` itself (wrapped).

    Parameters
    ----------
    fun : callable
        The function.
    name : str, optional
        The name (default ``fun.__name__``). JAX adds it to the names of the operations
        of compiled programs; xnp's jaxprs and compiled code do not record names.

    Returns
    -------
    callable
        A function computing ``fun``; it composes with every transformation as ``fun``.
    """
    if not callable(fun):
        raise TypeError(f"named_call: expected a callable, got {fun!r}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"named_call: name must be a string, got {name!r}")

    @functools.wraps(fun)
    def named(*args, **kwargs):
        return fun(*args, **kwargs)
    return named


class _NamedScope(contextlib.ContextDecorator):
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def named_scope(name: str):
    """A context manager (or decorator) naming the operations inside it; a no-op in xnp.

    Parameters
    ----------
    name : str
        The scope's name. JAX adds it to the name stack of staged operations; xnp's
        jaxprs and compiled code do not record names.

    Returns
    -------
    context manager
        Usable as ``with named_scope("layer"):`` or as the decorator
        ``@named_scope("layer")``; it changes nothing that is computed.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    """
    if not isinstance(name, str):
        raise TypeError("named_scope name argument must be a string.")
    return _NamedScope(name)


# --- ensure_compile_time_eval -------------------------------------------------------------


@contextlib.contextmanager
def ensure_compile_time_eval():
    """Evaluate operations on concrete values at once, also while staging (``jit``).

    Inside the context, a primitive (or custom-derivative function) applied while a
    staging transformation (``jit``, ``make_jaxpr``, the bodies of ``cond``/``scan``/
    ``while_loop``) is current runs eagerly when none of its inputs is a traced value:
    its result is a concrete xnp array, usable in Python control flow and with NumPy,
    and no equation is staged for it (a value used later with traced ones enters the
    jaxpr as a constant, computed once at trace time). Operations on traced values are
    staged as usual. Outside staging it changes nothing.

    Notes
    -----
    xnp already gives values on demand for expressions of constants staged under
    ``jit`` (``int()``, ``bool()``, ``if`` and shape arguments work on them, see
    transforms/known_values.py), but their results stay tracers and their equations stay
    in the jaxpr. This context makes them concrete arrays, as JAX's does. As in current
    JAX, an operation on a traced value inside the context is staged rather than
    raising a ConcretizationTypeError.
    """
    state = _jaxpr.compile_time_eval
    state.depth += 1
    try:
        yield
    finally:
        state.depth -= 1
