"""Bitwise and integer primitives: logical operations (on booleans too), shifts,
population count and gcd, with NumPy ufunc semantics (broadcasting, NEP 50)."""

from __future__ import annotations

import numpy as np

from transforms.core import get_aval
from xnp.lax._base import loop_dtypes, ufunc_primitive

not_p = ufunc_primitive("not", np.invert)             # logical on bool, bitwise on ints
and_p = ufunc_primitive("and", np.bitwise_and)        # logical on bool
or_p = ufunc_primitive("or", np.bitwise_or)
xor_p = ufunc_primitive("xor", np.bitwise_xor)
shift_left_p = ufunc_primitive("shift_left", np.left_shift)
population_count_p = ufunc_primitive("population_count", np.bitwise_count)
gcd_p = ufunc_primitive("gcd", np.gcd)


def _as_signedness(x, kind: str):
    x = np.asarray(x)
    if x.dtype.kind == kind or x.dtype.kind not in "iu":
        return x
    return x.view(np.dtype(f"{kind}{x.dtype.itemsize}"))


def _shift_right_impl(kind):
    def impl(x, y):
        dt = loop_dtypes(np.right_shift, get_aval(x), get_aval(y))[-1]
        x = _as_signedness(np.asarray(x, dt), kind)
        y = np.asarray(y).astype(x.dtype)
        nbits = x.dtype.itemsize * 8
        # Shifts past the width are defined as in XLA: all sign bits, or zero.
        big = y >= nbits if kind == "u" else (y >= nbits) | (y < 0)
        out = np.right_shift(x, np.where(big, nbits - 1, y))
        if kind == "u":
            out = np.where(big, 0, out).astype(x.dtype)
        return np.asarray(out).view(dt) if out.dtype != dt else out
    return impl


shift_right_arithmetic_p = ufunc_primitive("shift_right_arithmetic", np.right_shift,
                                           impl=_shift_right_impl("i"))
shift_right_logical_p = ufunc_primitive("shift_right_logical", np.right_shift,
                                        impl=_shift_right_impl("u"))

__all__ = [name for name in dir() if name.endswith("_p")]


# --- batching: every primitive here broadcasts like a NumPy ufunc ------------------------------
from xnp.lax._batch_util import batch_elementwise  # noqa: E402

for _p in [v for v in dict(globals()).values() if isinstance(v, type(and_p))]:
    batch_elementwise(_p)


# --- lowering to StableHLO ----------------------------------------------------------------------
from xnp.lax._lower_util import any_true, bitcast, lower_ufunc, op  # noqa: E402


def _full(ctx, like, value):
    return ctx.full(like.shape, value, like.dtype)


def _population_count(ctx, x):
    # NumPy counts the bits of |x| (|MIN| wraps to MIN, whose one bit is counted).
    return ctx.unary("popcnt", ctx.unary("abs", x) if x.dtype.kind == "i" else x)


def _shift_right_lower(kind, name):
    """XLA's shift on ``kind`` (i: arithmetic, u: logical) integers of the operands' width;
    shift amounts past the width, or negative, act as in the eager implementation."""
    def fn(ctx, x, y):
        t = np.dtype(f"{kind}{x.dtype.itemsize}")
        return bitcast(ctx, ctx.binary(name, bitcast(ctx, x, t), bitcast(ctx, y, t)), x.dtype)
    return fn


def _gcd(ctx, x, y):
    """NumPy's gcd: Euclid's algorithm on the unsigned |x| and |y| (so gcd(MIN, 0) is MIN),
    run on whole arrays until every remainder is zero."""
    dt, u = x.dtype, np.dtype(f"u{x.dtype.itemsize}")
    a, b = (bitcast(ctx, ctx.unary("abs", v) if dt.kind == "i" else v, u) for v in (x, y))
    types = [(x.shape, u)] * 2

    def cond(a, b):
        return any_true(ctx, ctx.compare(a, _full(ctx, a, 0), "NE"))

    def body(a, b):
        live = ctx.compare(a, _full(ctx, a, 0), "NE")
        r = ctx.binary("remainder", b, ctx.select(live, a, _full(ctx, a, 1)))
        return ctx.select(live, r, a), ctx.select(live, a, b)
    _, g = ctx.op("stablehlo.while", [a, b], types,
                  regions=[ctx.region(types, cond), ctx.region(types, body)])
    return bitcast(ctx, g, dt)


for _prim, _fn in [
        (not_p, op("not")), (and_p, op("and")), (or_p, op("or")), (xor_p, op("xor")),
        (shift_left_p, op("shift_left")),
        (shift_right_arithmetic_p, _shift_right_lower("i", "shift_right_arithmetic")),
        (shift_right_logical_p, _shift_right_lower("u", "shift_right_logical")),
        (population_count_p, _population_count), (gcd_p, _gcd)]:
    lower_ufunc(_prim, _fn)
del _prim, _fn
