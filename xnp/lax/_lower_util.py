"""Helpers for lowering rules: NumPy ufunc semantics on top of StableHLO operations.

StableHLO operations want operands of one dtype and one shape; xnp's elementwise
primitives follow NumPy ufuncs (mixed dtypes resolved by NEP 50, implicit broadcasting).
:func:`ufunc_operands` converts and broadcasts operands as NumPy's ufunc loop would, so a
rule only states the operation itself.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from transforms import runtime
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


def real_dtype(dtype) -> np.dtype:
    """The dtype of the real part: float32 for complex64, ``dtype`` itself if real."""
    return np.empty(0, dtype).real.dtype


def parts(ctx: LoweringContext, z: Value) -> tuple[Value, Value]:
    """The real and imaginary parts of a complex ``z``."""
    rd = real_dtype(z.dtype)
    return (ctx.op("stablehlo.real", [z], (z.shape, rd)),
            ctx.op("stablehlo.imag", [z], (z.shape, rd)))


def make_complex(ctx: LoweringContext, re: Value, im: Value) -> Value:
    dt = np.result_type(re.dtype, np.complex64)
    return ctx.op("stablehlo.complex", [re, im], (re.shape, dt))


def bitcast(ctx: LoweringContext, x: Value, dtype) -> Value:
    dtype = np.dtype(dtype)
    return x if x.dtype == dtype else \
        ctx.op("stablehlo.bitcast_convert", [x], (x.shape, dtype))


def signbit(ctx: LoweringContext, x: Value) -> Value:
    """The sign bit of a float (true for -0.0 and negative NaNs), as ``np.signbit``."""
    bits = bitcast(ctx, x, np.dtype(f"i{x.dtype.itemsize}"))
    return ctx.compare(bits, ctx.full(x.shape, 0, bits.dtype), "LT")


def is_nan(ctx: LoweringContext, x: Value) -> Value:
    if x.dtype.kind == "c":
        re, im = parts(ctx, x)
        return ctx.binary("or", is_nan(ctx, re), is_nan(ctx, im))
    if not is_float(x.dtype):
        return ctx.full(x.shape, False, np.bool_)
    return ctx.compare(x, x, "NE")


_FLIP = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "EQ": "EQ", "NE": "NE"}


def np_compare(ctx: LoweringContext, a: Value, b: Value, direction: str) -> Value:
    """NumPy's comparison ``direction`` (EQ, NE, LT, LE, GT, GE) of same-shape operands:
    also exact between a signed and an unsigned integer (NumPy's int64/uint64 loops), and
    lexicographic for complex numbers (a NaN part makes the order false)."""
    if a.dtype != b.dtype and a.dtype.kind in "iu" and b.dtype.kind in "iu":
        if a.dtype.kind == "u":         # make ``a`` the signed operand
            return np_compare(ctx, b, a, _FLIP[direction])
        neg = ctx.compare(a, ctx.full(a.shape, 0, a.dtype), "LT")
        same = ctx.compare(ctx.convert(a, b.dtype), b, direction)
        if direction in ("LT", "LE", "NE"):           # a negative a is below any unsigned
            return ctx.binary("or", neg, same)
        return ctx.binary("and", ctx.unary("not", neg), same)
    if a.dtype.kind == "c" and direction not in ("EQ", "NE"):
        (ar, ai), (br, bi) = parts(ctx, a), parts(ctx, b)
        strict = ctx.compare(ar, br, direction[0] + "T")
        ordered = ctx.unary("not", ctx.binary("or", is_nan(ctx, ai), is_nan(ctx, bi)))
        tie = ctx.binary("and", ctx.compare(ar, br, "EQ"), ctx.compare(ai, bi, direction))
        return ctx.binary("or", ctx.binary("and", strict, ordered), tie)
    return ctx.compare(a, b, direction)


def lower_comparison(prim, direction: str) -> None:
    """Set ``prim.lower`` to NumPy's comparison ``direction`` as a ufunc. An integer array
    against a weakly typed integer (a Python int) is compared exactly, in 64 bits, as
    NumPy compares a Python int outside the array's range (``uint8_array < 256`` is all
    true), where converting the int to the loop's dtype would wrap it."""
    def rule(ctx, x, y):
        ax, ay = ctx.avals_in
        # (the values' dtypes too: a Python int beyond int64 is a uint64 constant)
        if (ax.dtype != ay.dtype or x.dtype != y.dtype) and \
                (ax.weak_type or ay.weak_type) and \
                ax.dtype.kind in "iu" and ay.dtype.kind in "iu":
            shape = ctx.avals_out[0].shape
            x, y = (ctx.broadcast(ctx.convert(v, np.dtype(v.dtype.kind + "8")), shape)
                    for v in (x, y))
            return np_compare(ctx, x, y, direction)
        return np_compare(ctx, *ufunc_operands(ctx, prim, (x, y)), direction)
    rule.__name__ = f"_{prim.name}_lower"
    prim.lower = rule


def np_maximum(ctx: LoweringContext, a: Value, b: Value, *, _which: str = "max") -> Value:
    """``np.maximum`` of same-shape, same-dtype operands: NaN-propagating (the first NaN
    operand wins), and for ties of signed zeros the operand NumPy returns."""
    if a.dtype == np.bool_:
        return ctx.binary("or" if _which == "max" else "and", a, b)
    if a.dtype.kind in "iu":
        return ctx.binary("maximum" if _which == "max" else "minimum", a, b)
    # NumPy keeps ``a`` where a > b (float16: a >= b) or a is NaN, otherwise ``b``.
    direction = "G" if _which == "max" else "L"
    direction += "E" if a.dtype == np.float16 or a.dtype.kind == "c" else "T"
    return ctx.select(ctx.binary("or", np_compare(ctx, a, b, direction), is_nan(ctx, a)),
                      a, b)


def np_minimum(ctx: LoweringContext, a: Value, b: Value) -> Value:
    """``np.minimum``, as :func:`np_maximum`."""
    return np_maximum(ctx, a, b, _which="min")


def any_true(ctx: LoweringContext, pred: Value) -> Value:
    """A scalar bool: whether any element of the bool array ``pred`` is true."""
    flat = ctx.reshape(pred, (int(np.prod(pred.shape, dtype=np.int64)),))
    scalar = ((), np.bool_)
    body = ctx.region([scalar, scalar], lambda p, q: ctx.binary("or", p, q))
    return ctx.op("stablehlo.reduce", [flat, ctx.constant(np.bool_(False))], scalar,
                  {"dimensions": "array<i64: 0>"}, regions=[body])


def astype(ctx: LoweringContext, x: Value, dtype, scalar: bool = False) -> Value:
    """NumPy's ``x.astype(dtype)``, with NumPy's results where XLA's ``convert`` differs:
    float to integer of NaN, infinities and out-of-range values (x86-64: the truncating
    conversion gives INT_MIN, narrow types wrap; see :func:`_float_to_int`), float64 to
    float16, which XLA rounds twice (through float32), and float32 subnormals, which XLA's
    CPU conversions between float32 and float64 flush to zero. ``scalar``: as NumPy
    converts one scalar (``np.full``'s fill value), which differs for uint32."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype or dtype == np.bool_:
        return ctx.convert(x, dtype)
    if x.dtype.kind == "c" and dtype.kind == "c":
        return make_complex(ctx, *(astype(ctx, p, real_dtype(dtype)) for p in parts(ctx, x)))
    if x.dtype.kind == "c":
        return astype(ctx, parts(ctx, x)[0], dtype, scalar)   # NumPy keeps the real part
    if dtype.kind == "c":
        return ctx.convert(astype(ctx, x, real_dtype(dtype), scalar), dtype)
    if is_float(x.dtype) and dtype.kind in "iu":
        return _float_to_int(ctx, x, dtype, scalar)
    if x.dtype == np.float64 and dtype == np.float16:
        return ctx.convert(_to_f32_round_to_odd(ctx, x), dtype)
    if x.dtype == np.float64 and is_float(dtype):
        return ctx.convert(_f64_to_f32(ctx, x), dtype)
    if is_float(x.dtype) and dtype == np.float64:
        return _f32_to_f64(ctx, ctx.convert(x, np.float32))
    return ctx.convert(x, dtype)


def _f32_to_f64(ctx: LoweringContext, x: Value) -> Value:
    """float32 to float64, subnormals included (mantissa times 2**-149)."""
    u32 = np.dtype(np.uint32)
    bits = bitcast(ctx, x, u32)
    mag = ctx.binary("and", bits, ctx.full(x.shape, 0x7FFFFFFF, u32))
    sub = ctx.binary("and", ctx.compare(mag, ctx.full(x.shape, 0, u32), "NE"),
                     ctx.compare(mag, ctx.full(x.shape, 0x00800000, u32), "LT"))
    value = ctx.binary("multiply", ctx.convert(mag, np.float64),
                       ctx.full(x.shape, 2.0 ** -149, np.float64))
    value = ctx.select(signbit(ctx, x), ctx.unary("negate", value), value)
    return ctx.select(sub, value, ctx.convert(x, np.float64))


def _f64_to_f32(ctx: LoweringContext, x: Value) -> Value:
    """float64 to float32 rounded to nearest, float32 subnormal results included."""
    u32 = np.dtype(np.uint32)
    mag = ctx.unary("abs", x)
    sub = ctx.compare(mag, ctx.full(x.shape, 2.0 ** -126, np.float64), "LT")
    steps = ctx.unary("round_nearest_even", ctx.binary(
        "multiply", mag, ctx.full(x.shape, 2.0 ** 149, np.float64)))
    bits = ctx.binary("or", ctx.convert(steps, u32), ctx.select(
        signbit(ctx, x), ctx.full(x.shape, 0x80000000, u32), ctx.full(x.shape, 0, u32)))
    return ctx.select(sub, bitcast(ctx, bits, np.float32), ctx.convert(x, np.float32))


def _truncate_x86(ctx: LoweringContext, x: Value, bits: int) -> Value:
    """x86's truncating conversion of float64 ``x`` to int``bits``: INT_MIN for NaN and
    out-of-range values (XLA's convert saturates instead)."""
    itype = np.dtype(f"int{bits}")
    lo, hi = -2.0 ** (bits - 1) - 1, 2.0 ** (bits - 1)      # exclusive bounds
    ok = ctx.binary("and", ctx.compare(x, ctx.full(x.shape, lo, x.dtype), "GT"),
                    ctx.compare(x, ctx.full(x.shape, hi, x.dtype), "LT"))
    return ctx.select(ok, ctx.convert(x, itype),
                      ctx.full(x.shape, np.iinfo(itype).min, itype))


def _float_to_int(ctx: LoweringContext, x: Value, dtype: np.dtype, scalar: bool) -> Value:
    # NumPy on x86-64 (measured with NumPy 2.4, contiguous arrays): int64/int32 use the
    # truncating conversion of that width; int8/int16/uint8/uint16 the 32-bit one, then
    # wrap; uint64 (and uint32 from float32/float64 arrays) subtract 2**(bits-1) from large
    # values and flip the top bit back; uint32 from float16 or from a scalar wraps the
    # 64-bit conversion. (NumPy's own uint32 results for out-of-range values vary with
    # the array's length and strides: its scalar loop tails wrap the 64-bit conversion.)
    wide = ctx.convert(x, np.float64)
    unsigned_trick = dtype == np.uint64 or (
        dtype == np.uint32 and x.dtype != np.float16 and not scalar)
    if not unsigned_trick:
        bits = 64 if dtype.itemsize == 8 or dtype == np.uint32 else 32
        return ctx.convert(_truncate_x86(ctx, wide, bits), dtype)
    bits = dtype.itemsize * 8
    top = 2.0 ** (bits - 1)
    big = ctx.compare(wide, ctx.full(x.shape, top, np.float64), "GE")
    shifted = ctx.select(big, ctx.binary("subtract", wide, ctx.full(x.shape, top, np.float64)),
                         wide)
    itype = np.dtype(f"int{bits}")
    flip = ctx.select(big, ctx.full(x.shape, np.iinfo(itype).min, itype),
                      ctx.full(x.shape, 0, itype))
    return ctx.convert(ctx.binary("xor", _truncate_x86(ctx, shifted, bits), flip), dtype)


def _to_f32_round_to_odd(ctx: LoweringContext, x: Value) -> Value:
    """float64 to float32 rounding to odd (truncate, then set the last bit if inexact):
    rounding that to a narrower type is then the correct rounding of ``x``."""
    f32, u32 = np.dtype(np.float32), np.dtype(np.uint32)
    near = ctx.convert(x, f32)
    back = ctx.convert(near, np.float64)
    inexact = ctx.binary("and", ctx.compare(back, x, "NE"), ctx.compare(x, x, "EQ"))
    away = ctx.compare(ctx.unary("abs", back), ctx.unary("abs", x), "GT")
    bits = ctx.op("stablehlo.bitcast_convert", [near], (x.shape, u32))
    one = ctx.full(x.shape, 1, u32)
    odd = ctx.binary("or", ctx.select(away, ctx.binary("subtract", bits, one), bits), one)
    return ctx.op("stablehlo.bitcast_convert", [ctx.select(inexact, odd, bits)], (x.shape, f32))


def _full_like(ctx, like, value):
    return ctx.full(like.shape, value, like.dtype)


def int_divmod(ctx: LoweringContext, x: Value, y: Value) -> list[Value]:
    """Truncated quotient and remainder with NumPy's results where XLA's differ or are
    undefined: both 0 for a zero divisor, MIN // -1 == MIN (wrapped) and MIN % -1 == 0."""
    zero, one = _full_like(ctx, x, 0), _full_like(ctx, x, 1)
    by_zero = ctx.compare(y, zero, "EQ")
    bad = by_zero
    if x.dtype.kind == "i":
        lowest = _full_like(ctx, x, np.iinfo(x.dtype).min)
        overflow = ctx.binary("and", ctx.compare(x, lowest, "EQ"),
                              ctx.compare(y, _full_like(ctx, y, -1), "EQ"))
        bad = ctx.binary("or", bad, overflow)
    y = ctx.select(bad, one, y)
    return [ctx.select(by_zero, zero, ctx.binary(name, x, y))
            for name in ("divide", "remainder")]


def floor_divide(ctx: LoweringContext, x: Value, y: Value) -> Value:
    """``np.floor_divide`` of same-shape, same-dtype real operands."""
    if x.dtype.kind in "iu":
        q, r = int_divmod(ctx, x, y)
        if x.dtype.kind == "u":
            return q
        zero = _full_like(ctx, x, 0)
        wrong_side = ctx.binary("xor", ctx.compare(r, zero, "LT"), ctx.compare(y, zero, "LT"))
        adjust = ctx.binary("and", ctx.compare(r, zero, "NE"), wrong_side)
        return ctx.select(adjust, ctx.binary("subtract", q, _full_like(ctx, q, 1)), q)
    dt = x.dtype
    if dt.itemsize < 4:                 # float16 and bfloat16: NumPy works in float32
        x, y = ctx.convert(x, np.float32), ctx.convert(y, np.float32)
    return ctx.convert(_float_floor_divide(ctx, x, y), dt)


def _float_floor_divide(ctx, a, b):
    """NumPy's npy_floor_divide: from fmod, with its signed zeros and rounding fix-up."""
    zero, one = _full_like(ctx, a, 0), _full_like(ctx, a, 1)
    mod = ctx.binary("remainder", a, b)
    div = ctx.binary("divide", ctx.binary("subtract", a, mod), b)
    wrong_side = ctx.binary("xor", ctx.compare(b, zero, "LT"), ctx.compare(mod, zero, "LT"))
    adjust = ctx.binary("and", ctx.compare(mod, zero, "NE"), wrong_side)
    div = ctx.select(adjust, ctx.binary("subtract", div, one), div)
    floor = ctx.unary("floor", div)
    up = ctx.compare(ctx.binary("subtract", div, floor), _full_like(ctx, a, 0.5), "GT")
    floor = ctx.select(up, ctx.binary("add", floor, one), floor)
    quot = ctx.binary("divide", a, b)
    signed_zero = ctx.select(signbit(ctx, quot), _full_like(ctx, a, -0.0), zero)
    floor = ctx.select(ctx.compare(div, zero, "EQ"), signed_zero, floor)
    return ctx.select(ctx.compare(b, zero, "EQ"), quot, floor)


def on_floats(fn):
    """``fn`` on floating operands (complex: on each part); the identity on integers and
    booleans."""
    def rule(ctx, x):
        if x.dtype.kind == "c":
            return make_complex(ctx, *(fn(ctx, p) for p in parts(ctx, x)))
        return fn(ctx, x) if is_float(x.dtype) else x
    return rule


def in_float64(fn):
    """``fn`` evaluated in float64 (complex128) for narrower types, as the eager special
    functions are (and where XLA's float32 formula is off by tens of ulps: sinh, cosh);
    the result is rounded back to the output dtype."""
    def wide(ctx, *xs):
        dt = np.complex128 if xs[0].dtype.kind == "c" else np.float64
        return fn(ctx, *(ctx.convert(x, dt) for x in xs))
    return wide


def in_complex128(fn):
    """``fn`` evaluated in complex128 for complex64 operands: XLA's complex64 formulas
    overflow in intermediate results (sin(89j) is finite) and lose accuracy near
    singularities."""
    def wide(ctx, x):
        return fn(ctx, ctx.convert(x, np.complex128) if x.dtype == np.complex64 else x)
    return wide


def order_key(ctx: LoweringContext, x: Value) -> Value:
    """A signed integer per element of the float ``x``, ordered as NumPy sorts: -0.0 and
    0.0 equal, every NaN equal and above +inf (the integer type's maximum). Computed on
    the bits, so exact for subnormals too, which XLA's CPU float comparisons treat as
    zero."""
    itype = np.dtype(f"i{x.dtype.itemsize}")
    top = np.iinfo(itype).max
    bits = bitcast(ctx, x, itype)

    def const(v):
        return ctx.full(x.shape, v, itype)
    mag = ctx.binary("and", bits, const(top))
    key = ctx.select(ctx.compare(bits, const(0), "LT"), ctx.binary("xor", bits, const(top)),
                     bits)                         # negatives: larger magnitude, lower key
    key = ctx.select(ctx.compare(mag, const(0), "EQ"), const(0), key)
    inf_bits = np.array(np.inf, x.dtype).view(itype)
    return ctx.select(ctx.compare(mag, const(inf_bits), "GT"), const(top), key)


def order_keys(ctx: LoweringContext, x: Value) -> tuple[Value | None, list[Value]]:
    """(NaN flag, or None for integers and booleans; keys): NumPy's order of ``x`` among
    non-NaN values is the lexicographic order of the keys (:func:`order_key` of a float;
    of the real, then the imaginary part of a complex number; integers themselves)."""
    if x.dtype.kind == "c":
        (rn, (kr,)), (im, (ki,)) = (order_keys(ctx, p) for p in parts(ctx, x))
        return ctx.binary("or", rn, im), [kr, ki]
    if not is_float(x.dtype):
        return None, [x]
    key = order_key(ctx, x)
    top = ctx.full(x.shape, np.iinfo(key.dtype).max, key.dtype)
    return ctx.compare(key, top, "EQ"), [key]


def reduction_keys(ctx: LoweringContext, x: Value) -> tuple[Value | None, list[Value]]:
    """:func:`order_keys` for a reduction's body, whose comparisons test the NaN flag
    themselves. Off the CPU the floats are their own keys: XLA:GPU fails to compile the
    bit-level keys in a reduction fused with its consumer ("'stablehlo.and' op operand
    #0 must be ... integer"), and its float comparisons keep subnormals."""
    if runtime.platform() == "cpu" or not is_float(x.dtype):
        return order_keys(ctx, x)
    if x.dtype.kind == "c":
        re, im = parts(ctx, x)
        return ctx.binary("or", ctx.compare(re, re, "NE"), ctx.compare(im, im, "NE")), [re, im]
    return ctx.compare(x, x, "NE"), [x]


def lex_compare(ctx: LoweringContext, xs, ys, direction: str) -> Value:
    """Lexicographic comparison of same-length key lists (LT, LE, GT, GE or EQ)."""
    (x, y), *rest = zip(xs, ys)
    if not rest:
        return ctx.compare(x, y, direction)
    later = lex_compare(ctx, [r[0] for r in rest], [r[1] for r in rest], direction)
    same = ctx.binary("and", ctx.compare(x, y, "EQ"), later)
    return same if direction == "EQ" else \
        ctx.binary("or", ctx.compare(x, y, direction[0] + "T"), same)
