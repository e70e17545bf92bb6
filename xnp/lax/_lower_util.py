"""Helpers for lowering rules: NumPy ufunc semantics on top of StableHLO operations.

StableHLO operations want operands of one dtype and one shape; xnp's elementwise
primitives follow NumPy ufuncs (mixed dtypes resolved by NEP 50, implicit broadcasting).
:func:`ufunc_operands` converts and broadcasts operands as NumPy's ufunc loop would, so a
rule only states the operation itself.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from transforms.lowering import LoweringContext, Value
from xnp.lax._base import loop_dtypes


def ufunc_operands(ctx: LoweringContext, prim, args) -> list[Value]:
    """``args`` converted to the ufunc loop's input dtypes and broadcast to the output."""
    shape = ctx.avals_out[0].shape
    dtypes = loop_dtypes(prim.ufunc, *ctx.avals_in)[:len(args)]
    return [ctx.broadcast(ctx.convert(a, d), shape) for a, d in zip(args, dtypes)]


def lower_ufunc(prim, fn: Callable) -> None:
    """Set ``prim.lower``: operands prepared as by NumPy's ufunc loop, then
    ``fn(ctx, *operands)``; its result is converted to the output dtype if needed."""
    def rule(ctx, *args, **params):
        out = fn(ctx, *ufunc_operands(ctx, prim, args), **params)
        if isinstance(out, list):
            return [ctx.convert(o, a.dtype) for o, a in zip(out, ctx.avals_out)]
        return ctx.convert(out, ctx.avals_out[0].dtype)
    rule.__name__ = f"_{prim.name}_lower"
    prim.lower = rule


def op(name: str) -> Callable:
    """``fn(ctx, *xs)`` emitting the StableHLO (or CHLO) operation ``name`` elementwise,
    with the dtype of the first operand: ``lower_ufunc(sin_p, op("sine"))``."""
    full = name if "." in name else f"stablehlo.{name}"

    def fn(ctx, *xs):
        return ctx.op(full, list(xs), (xs[0].shape, xs[0].dtype))
    return fn


def is_float(dtype) -> bool:
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or dtype.name == "bfloat16"
