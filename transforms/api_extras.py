"""Smaller transformations of JAX's API: ``eval_shape``, ``linear_transpose`` and
``checkpoint`` (``remat``), with ``ShapeDtypeStruct``.

Each is built on the machinery of the others: ``eval_shape`` stages a jaxpr (as
``make_jaxpr``) and reads its output types, ``linear_transpose`` stages one and runs
``ad.backward_pass`` on it (as ``vjp`` runs it on a linearized jaxpr).
"""

from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

from transforms import ad, core
from transforms.core import get_aval
from transforms.jaxpr import Literal, stage_pytree
from transforms.tree import tree_flatten, tree_unflatten

__all__ = ["ShapeDtypeStruct", "eval_shape", "linear_transpose", "checkpoint", "remat"]


class ShapeDtypeStruct:
    """The type of an array without its values: ``shape``, ``dtype`` and ``weak_type``.

    Parameters
    ----------
    shape : tuple of ints
    dtype : dtype-like
    weak_type : bool, optional
        Whether the type is weak (the type of a Python scalar). Default False.
    """

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type: bool = False):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))

    def __eq__(self, other):
        return (isinstance(other, ShapeDtypeStruct) and self.shape == other.shape and
                self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"


def eval_shape(fun: Callable, *args, **kwargs):
    """The output types of ``fun(*args, **kwargs)``, found without computing it.

    Parameters
    ----------
    fun : callable
        Takes and returns pytrees of arrays.
    *args, **kwargs
        Pytrees whose leaves are arrays, Python scalars, :class:`ShapeDtypeStruct`
        objects or any objects with ``shape`` and ``dtype`` attributes.

    Returns
    -------
    pytree of ShapeDtypeStruct
        The structure of ``fun``'s output, one ``ShapeDtypeStruct`` per leaf.

    Notes
    -----
    ``fun`` is staged into a jaxpr on abstract inputs (as by ``make_jaxpr``): no array
    work on the inputs is done, and only the types of the outputs are read.
    """
    closed, out_tree, _, _ = stage_pytree(fun, args, kwargs)
    outs = [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type)
            for a in _out_avals(closed.jaxpr)]
    return tree_unflatten(out_tree, outs)


def _out_avals(jaxpr):
    return [v.aval for v in jaxpr.outvars]


# Primitives that are linear in each operand separately: two linear operands make the
# function quadratic.
_BILINEAR = {"mul", "dot_general", "conv_general_dilated", "complex"}
# Primitives that add their operands: a linear and a non-zero constant operand make the
# function affine.
_ADDITIVE = {"add", "sub", "add_any"}


def _check_linear(jaxpr, consts):
    """Raise a TypeError for equations that make a staged function non-linear in its
    inputs: a product of two linear values, a linear divisor, or a non-zero constant
    added to a linear value (when the constant's value is known)."""
    linear = set(jaxpr.invars)
    known = {v: c for v, c in zip(jaxpr.constvars, consts)}
    for eqn in jaxpr.eqns:
        lin = [not isinstance(v, Literal) and v in linear for v in eqn.invars]
        if not any(lin):
            continue
        name = eqn.prim.name
        bad = None
        if name in _BILINEAR and sum(lin) > 1:
            bad = f"'{name}' multiplies two values that depend on the inputs"
        elif name == "div" and lin[1]:
            bad = "a value that depends on the inputs is a divisor"
        elif name in _ADDITIVE and not all(lin):
            for v, is_lin in zip(eqn.invars, lin):
                if is_lin:
                    continue
                val = v.val if isinstance(v, Literal) else known.get(v)
                if val is not None and not isinstance(val, core.Tracer) and \
                        np.any(np.asarray(val) != 0):
                    bad = f"'{name}' adds a non-zero constant (the function is affine)"
        elif eqn.prim.transpose is None:
            bad = f"'{name}' is not a linear primitive"
        if bad:
            raise TypeError(f"linear_transpose: the function is not linear in its inputs: "
                            f"{bad}")
        linear.update(eqn.outvars)


def linear_transpose(fun: Callable, *primals):
    """The transpose of the linear function ``fun``.

    Parameters
    ----------
    fun : callable
        A function of pytrees of float or complex arrays, linear in all of them.
    *primals
        Example arguments (arrays or :class:`ShapeDtypeStruct`); only their structure,
        shapes and dtypes are used.

    Returns
    -------
    callable
        ``transposed(out_cotangent)``, taking a pytree like ``fun``'s output and
        returning a tuple like ``primals``: the adjoint map, under the bilinear pairing
        ``sum(u * v)`` (no conjugation, as JAX).

    Raises
    ------
    TypeError
        If an input is not of a float or complex dtype, or ``fun`` is seen not to be
        linear (a product or quotient of values depending on the inputs, a non-zero
        constant added, or a primitive with no transpose rule).
    """
    closed, out_tree, in_avals, in_tree = stage_pytree(fun, primals, {})
    for a in in_avals:
        if not ad.is_differentiable(a):
            raise TypeError("linear_transpose only supports float and complex inputs, "
                            f"got {a.dtype.name}")
    jaxpr, consts = closed.jaxpr, closed.consts
    _check_linear(jaxpr, consts)
    out_avals = _out_avals(jaxpr)

    def transposed(out_cotangent):
        ct_leaves, ct_tree = tree_flatten(out_cotangent)
        if ct_tree != out_tree:
            raise TypeError(f"linear_transpose: cotangent structure {ct_tree} differs from "
                            f"the output structure {out_tree}")
        cts = []
        for ct, aval in zip(ct_leaves, out_avals):
            v = core.unwrap(ct)
            got = get_aval(v)
            if got.shape != aval.shape or (got.dtype != aval.dtype and not got.weak_type):
                raise TypeError(f"linear_transpose: cotangent of type {got.str_short()} for "
                                f"an output of type {aval.str_short()}")
            cts.append(v)
        in_cts = ad.backward_pass(jaxpr, consts, cts)
        result = [core.wrap(ad.instantiate(c)) for c in in_cts]
        args, _ = tree_unflatten(in_tree, result)
        return tuple(args)

    return transposed


def checkpoint(fun: Callable | None = None, *, prevent_cse: bool = True, policy=None,
               static_argnums: int | tuple = ()):
    """JAX's ``checkpoint`` (``remat``): ``fun`` with the same values and derivatives.

    Parameters
    ----------
    fun : callable
        The function to rematerialize. Without it, a decorator is returned.
    prevent_cse : bool, optional
        Accepted for JAX compatibility; no effect.
    policy : callable, optional
        Accepted for JAX compatibility (a callable or None); no effect.
    static_argnums : int or tuple of ints, optional
        Accepted for JAX compatibility; arguments are passed through unchanged.

    Returns
    -------
    callable
        A function computing the same as ``fun``; it composes with ``grad``, ``vmap``
        and ``jit`` as ``fun`` does.

    Notes
    -----
    In xnp this saves no memory: reverse mode keeps the residuals of ``fun`` as it
    would without ``checkpoint`` (nothing is recomputed in the backward pass). It
    exists so that programs written for JAX run unchanged.
    """
    if policy is not None and not callable(policy):
        raise TypeError(f"checkpoint: policy must be callable or None, got {policy!r}")
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    if not all(isinstance(n, int) for n in nums):
        raise TypeError(f"checkpoint: static_argnums must be ints, got {static_argnums!r}")
    if fun is None:
        return functools.partial(checkpoint, prevent_cse=prevent_cse, policy=policy,
                                 static_argnums=static_argnums)
    if not callable(fun):
        raise TypeError(f"checkpoint: expected a callable, got {fun!r}")

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        return fun(*args, **kwargs)
    return checkpointed


remat = checkpoint
