"""Helpers for writing JVP and transpose rules next to each primitive's declaration.

Rules take and return raw values (NumPy arrays, scalars or tracers). Elementwise
primitives broadcast implicitly, so a tangent contribution is fitted to the output's
shape and dtype (:func:`fit`) and a cotangent is summed back to an input's shape and
dtype (:func:`unbroadcast`).
"""

from __future__ import annotations

import numpy as np

from transforms import ad
from transforms.ad import (
    UndefinedPrimal,
    Zero,
    add_tangents,
    bind_primal,
    instantiate,
    is_undefined,
)
from transforms.core import Tracer, get_aval

__all__ = ["defjvp", "defjvp_ans", "defjvp_zero", "deflinear", "deftranspose", "fit",
           "unbroadcast", "zeros_value",
           "Zero", "UndefinedPrimal", "is_undefined", "instantiate", "add_tangents",
           "aval_of"]


def aval_of(x):
    return x.aval if type(x) in (Zero, UndefinedPrimal) else get_aval(x)


_lax_module = None


def _lax():
    global _lax_module
    if _lax_module is None:     # imported late: xnp.lax imports this module
        from xnp import lax
        _lax_module = lax
    return _lax_module


def fit(t, aval):
    """Broadcast ``t`` to ``aval.shape`` and convert it to ``aval``'s dtype."""
    ta = get_aval(t)
    if ta.dtype is aval.dtype and ta.shape == aval.shape:
        return t
    lax = _lax()
    if ta.dtype != aval.dtype:
        if ta.dtype.kind == "c" and aval.dtype.kind != "c":
            t = lax.real_p.bind(t)
        t = lax.convert_element_type_p.bind(t, new_dtype=aval.dtype, weak_type=False)
    if ta.shape != aval.shape:
        nd = len(aval.shape)
        t = lax.broadcast_in_dim_p.bind(t, shape=aval.shape,
                                        broadcast_dimensions=tuple(range(nd - ta.ndim, nd)))
    return t


def unbroadcast(ct, aval):
    """Sum ``ct`` over the dimensions along which ``aval`` was broadcast, then convert
    it to ``aval``'s dtype (the real part for a real input)."""
    if type(ct) is Zero:
        return Zero(ad.tangent_aval(aval))
    ca = get_aval(ct)
    if ca.dtype is aval.dtype and ca.shape == aval.shape:
        return ct
    lax = _lax()
    if ca.shape != aval.shape:
        lead = ca.ndim - aval.ndim
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(aval.shape) if n == 1 and ca.shape[lead + i] != 1)
        if axes:
            ct = lax.reduce_sum_p.bind(ct, axes=axes)
        if len(axes) != lead:       # kept size-1 dimensions come back by a reshape
            ct = lax.reshape_p.bind(ct, new_sizes=aval.shape)
    if get_aval(ct).dtype != aval.dtype:
        if get_aval(ct).dtype.kind == "c" and aval.dtype.kind != "c":
            ct = lax.real_p.bind(ct)
        ct = lax.convert_element_type_p.bind(ct, new_dtype=aval.dtype, weak_type=False)
    return ct


def defjvp(prim, *rules, use_ans: bool = False):
    """Set ``prim.jvp`` from one rule per argument, ``rule(g, *primals, **params)``
    (``rule(g, ans, *primals)`` with ``use_ans``), giving that argument's contribution;
    ``None`` marks an argument with no derivative. Contributions are summed."""
    def jvp(primals, tangents, **params):
        out = bind_primal(prim, primals, params)
        dtype = out.dtype if type(out) is np.ndarray else get_aval(out).dtype
        if not (dtype.kind in "fc" or dtype.name == "bfloat16"):
            return out, Zero.of_value(out)
        # Rules compute in the output's dtype: an int8 operand of a float result must
        # not overflow inside a rule (x * x), nor a float16 one lose precision.
        primals = [p if type(p) is np.ndarray and p.dtype is dtype
                   else _promote_primal(p, dtype) for p in primals]
        total = None
        for rule, t in zip(rules, tangents):
            if rule is None or type(t) is Zero:
                continue
            contrib = rule(t, out, *primals, **params) if use_ans else \
                rule(t, *primals, **params)
            ca = contrib.aval if isinstance(contrib, Tracer) else get_aval(contrib)
            if ca.dtype is not dtype:
                contrib = fit(contrib, ca.update(dtype=dtype))
            # Contributions of broadcast operands are summed as they are (the sum
            # broadcasts); only the total is broadcast to the output's shape, if need be.
            if total is None:
                total, shape = contrib, ca.shape
            else:
                total = add_tangents(total, contrib)
                shape = None
        if total is None:
            return out, Zero.of_value(out)
        oshape = out.shape if type(out) is np.ndarray else get_aval(out).shape
        if shape is None:
            shape = (total.aval if isinstance(total, Tracer) else get_aval(total)).shape
        return out, (total if shape == oshape else fit(total, get_aval(out)))
    prim.jvp = jvp
    return jvp


def _promote_primal(p, dtype):
    dt = get_aval(p).dtype
    if dt == dtype or not (dt.kind in "biu" or (dt.kind == "f" and dtype.kind in "fc")):
        return p
    convert = _lax().convert_element_type_p
    if not isinstance(p, Tracer):       # a constant: converted here, not bound
        return convert.impl(p, new_dtype=dtype)
    return convert.bind(p, new_dtype=dtype, weak_type=False)


def defjvp_ans(prim, *rules):
    """:func:`defjvp` whose rules also receive the primal output: ``rule(g, ans, *xs)``."""
    return defjvp(prim, *rules, use_ans=True)


def defjvp_zero(prim):
    """A piecewise-constant primitive: its tangent is zero."""
    def jvp(primals, tangents, **params):
        out = bind_primal(prim, primals, params)
        if prim.multiple_results:
            return out, [Zero(ad.tangent_aval(get_aval(o))) for o in out]
        return out, Zero(ad.tangent_aval(get_aval(out)))
    prim.jvp = jvp
    return jvp


def deftranspose(prim, transpose):
    """Set ``prim.transpose`` to ``transpose(ct, *args, **params)``, which then never sees
    a symbolic :class:`Zero` cotangent: a zero cotangent contributes nothing to any input."""
    def rule(ct, *args, **params):
        cts = ct if prim.multiple_results else [ct]
        if all(type(c) is Zero for c in cts):
            return [None] * len(args)
        return transpose(ct, *args, **params)
    prim.transpose = rule
    return rule


def deflinear(prim, transpose):
    """A primitive linear in all its array arguments: its JVP is itself applied to the
    tangents (zeros instantiated), and ``transpose(ct, *args, **params)`` its transpose
    (never called with a symbolic zero cotangent, see :func:`deftranspose`)."""
    def jvp(primals, tangents, **params):
        out = bind_primal(prim, primals, params)
        ts = [instantiate(t) for t in tangents]
        return out, prim.bind(*ts, **params)
    prim.jvp = jvp
    deftranspose(prim, transpose)
    return jvp


def zeros_value(aval):
    """Concrete-or-staged zeros of ``aval`` built with primitives."""
    lax = _lax()
    if aval.dtype == ad.float0:
        return np.zeros(aval.shape, ad.float0)
    zero = lax.convert_element_type_p.bind(0, new_dtype=aval.dtype, weak_type=False)
    return lax.broadcast_in_dim_p.bind(zero, shape=aval.shape, broadcast_dimensions=())


def _add_any(a, b):
    return _lax().add_p.bind(a, b)


ad.register_tangent_ops(zeros=zeros_value, add=_add_any)
