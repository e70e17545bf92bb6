"""Lowering helpers for complex numbers with NumPy's results where XLA's differ: division
and powers (NumPy's own algorithms), the modulus of infinities, and the signs of zeros on
branch cuts (from the symmetries of the functions)."""

from __future__ import annotations

import numpy as np

from transforms.lowering import LoweringContext, Value
from xnp.lax._lower_util import make_complex, parts, real_dtype, signbit


def _full(ctx, like, value):
    return ctx.full(like.shape, value, like.dtype)


def _mul(ctx, ar, ai, br, bi):
    """(a * b) from parts, as NumPy's cmul."""
    sub, add, mul = (lambda p, q, n=n: ctx.binary(n, p, q)
                     for n in ("subtract", "add", "multiply"))
    return sub(mul(ar, br), mul(ai, bi)), add(mul(ar, bi), mul(ai, br))


def is_inf(ctx: LoweringContext, x: Value) -> Value:
    return ctx.compare(ctx.unary("abs", x), _full(ctx, x, np.inf), "EQ")


def modulus(ctx: LoweringContext, z: Value) -> Value:
    """|z| (a hypot), infinite when either part is, even if the other is NaN."""
    re, im = parts(ctx, z)
    r = ctx.op("stablehlo.abs", [z], (z.shape, re.dtype))
    return ctx.select(ctx.binary("or", is_inf(ctx, re), is_inf(ctx, im)),
                      _full(ctx, r, np.inf), r)


def divide(ctx: LoweringContext, a: Value, b: Value) -> Value:
    """NumPy's complex division: Smith's algorithm, dividing by the larger part of ``b``;
    a zero divisor gives the parts of ``a`` divided by +0.0."""
    (ar, ai), (br, bi) = parts(ctx, a), parts(ctx, b)
    div, add, sub, mul = (lambda p, q, n=n: ctx.binary(n, p, q)
                          for n in ("divide", "add", "subtract", "multiply"))
    abr, abi = ctx.unary("abs", br), ctx.unary("abs", bi)
    one = _full(ctx, br, 1)
    rat = div(bi, br)                               # |br| >= |bi|
    scl = div(one, add(br, mul(bi, rat)))
    re1, im1 = mul(add(ar, mul(ai, rat)), scl), mul(sub(ai, mul(ar, rat)), scl)
    zero = ctx.compare(abr, _full(ctx, abr, 0), "EQ")   # then bi is 0 too
    re1, im1 = ctx.select(zero, div(ar, abr), re1), ctx.select(zero, div(ai, abr), im1)
    rat = div(br, bi)                               # |bi| > |br|, or a NaN
    scl = div(one, add(bi, mul(br, rat)))
    re2, im2 = mul(add(mul(ar, rat), ai), scl), mul(sub(mul(ai, rat), ar), scl)
    first = ctx.compare(abr, abi, "GE")
    return make_complex(ctx, ctx.select(first, re1, re2), ctx.select(first, im1, im2))


def power(ctx: LoweringContext, a: Value, b: Value) -> Value:
    """NumPy's complex power: 1 for a zero exponent; 0 for a zero base and an exponent with
    a positive real part (NaN for other exponents); repeated multiplication for an integer exponent
    below 100 in magnitude; otherwise exp(b log a), as C's cpow."""
    (ar, ai), (br, bi) = parts(ctx, a), parts(ctx, b)
    zero, one, nan = (_full(ctx, br, v) for v in (0, 1, np.nan))

    def eq(p, q, d="EQ"):
        return ctx.compare(p, q, d)
    and_ = lambda p, q: ctx.binary("and", p, q)  # noqa: E731
    # The general case as C's cpow: exp(b log a).
    out_r, out_i = parts(ctx, exp(ctx, ctx.binary("multiply", b, ctx.unary("log", a))))
    # Integer exponents with |n| < 100, bit by bit from 1 + 0j (n = 1, 2, 3 unrolled),
    # then the reciprocal for a negative n.
    n = ctx.convert(ctx.unary("round_nearest_even", br), np.int32)
    small = and_(and_(eq(bi, zero), eq(ctx.convert(n, br.dtype), br)),
                 eq(ctx.unary("abs", br), _full(ctx, br, 100), "LT"))
    n = ctx.select(small, n, ctx.full(n.shape, 0, np.int32))
    acc, p, n_abs = (one, zero), (ar, ai), ctx.unary("abs", n)
    for k in range(7):
        bit = eq(ctx.binary("and", n_abs, ctx.full(n.shape, 1 << k, np.int32)),
                 ctx.full(n.shape, 0, np.int32), "NE")
        prod = _mul(ctx, *acc, *p)
        acc = tuple(ctx.select(bit, x, y) for x, y in zip(prod, acc))
        p = _mul(ctx, *p, *p)
    sq = _mul(ctx, ar, ai, ar, ai)
    cube = _mul(ctx, ar, ai, *sq)
    for k, val in ((1, (ar, ai)), (2, sq), (3, cube)):
        hit = eq(n, ctx.full(n.shape, k, np.int32))
        acc = tuple(ctx.select(hit, x, y) for x, y in zip(val, acc))
    fast = make_complex(ctx, *acc)
    fast = ctx.select(eq(br, zero, "LT"), divide(ctx, _full(ctx, fast, 1), fast), fast)
    fast_r, fast_i = parts(ctx, fast)
    out_r, out_i = ctx.select(small, fast_r, out_r), ctx.select(small, fast_i, out_i)
    # Zero base, zero exponent.
    zero_a = and_(eq(ar, zero), eq(ai, zero))
    to_zero = eq(br, zero, "GT")
    out_r = ctx.select(zero_a, ctx.select(to_zero, zero, nan), out_r)
    out_i = ctx.select(zero_a, ctx.select(to_zero, zero, nan), out_i)
    zero_b = and_(eq(br, zero), eq(bi, zero))
    return make_complex(ctx, ctx.select(zero_b, one, out_r), ctx.select(zero_b, zero, out_i))


def symmetric(fn, odd: bool = False):
    """``fn`` on complex operands through f(conj z) = conj f(z) (and, if ``odd``,
    f(-z) = -f(z)): evaluated where the parts are non-negative, then the signs put back,
    so that a signed zero picks the side of a branch cut as in C99 (and NumPy)."""
    def wrapped(ctx, z):
        if z.dtype.kind != "c":
            return fn(ctx, z)
        re, im = parts(ctx, z)
        flips = [(1, signbit(ctx, im))] + ([(0, signbit(ctx, re))] if odd else [])
        w = fn(ctx, make_complex(ctx, ctx.unary("abs", re) if odd else re,
                                 ctx.unary("abs", im)))
        out = list(parts(ctx, w))
        for i, neg in flips:
            out[i] = ctx.select(neg, ctx.unary("negate", out[i]), out[i])
        return make_complex(ctx, *out)
    return wrapped


def scale(ctx: LoweringContext, z: Value, factor: float) -> Value:
    """z times a real factor, part by part (no NaN from inf * 0 as a complex product)."""
    re, im = parts(ctx, z)
    f = ctx.full(z.shape, factor, real_dtype(z.dtype))
    return make_complex(ctx, ctx.binary("multiply", re, f), ctx.binary("multiply", im, f))


def sign(ctx: LoweringContext, z: Value) -> Value:
    """NumPy's z / |z|: 0 at 0, a unit along an infinite part, NaN if both are infinite."""
    (re, im), r = parts(ctx, z), modulus(ctx, z)
    zero, one, nan = (_full(ctx, re, v) for v in (0, 1, np.nan))
    inf_re, inf_im = is_inf(ctx, re), is_inf(ctx, im)

    def unit(v):
        return ctx.select(ctx.compare(v, zero, "GT"), one, ctx.unary("negate", one))
    at_zero = ctx.compare(r, zero, "EQ")
    at_inf = ctx.compare(r, _full(ctx, r, np.inf), "EQ")
    out = []
    for v, inf_v, inf_other in ((re, inf_re, inf_im), (im, inf_im, inf_re)):
        finite = ctx.select(at_zero, zero, ctx.binary("divide", v, r))
        infinite = ctx.select(inf_other, ctx.select(inf_v, nan, zero),
                              ctx.select(inf_v, unit(v), zero))
        out.append(ctx.select(at_inf, infinite, finite))
    return make_complex(ctx, *out)


def exp(ctx: LoweringContext, z: Value) -> Value:
    """e**z, and 0 where the real part is -inf (whatever the imaginary part), as C99."""
    w = ctx.unary("exponential", z)
    re = parts(ctx, z)[0]
    return ctx.select(ctx.compare(re, _full(ctx, re, -np.inf), "EQ"), _full(ctx, w, 0), w)


def expm1(ctx: LoweringContext, z: Value) -> Value:
    """e**z - 1 from the parts, as NumPy: expm1(x) cos(y) - 2 sin(y/2)**2 + i e**x sin(y)."""
    x, y = parts(ctx, z)
    un, bin_ = ctx.unary, ctx.binary
    a = un("sine", bin_("multiply", y, _full(ctx, y, 0.5)))
    re = bin_("subtract", bin_("multiply", un("exponential_minus_one", x), un("cosine", y)),
              bin_("multiply", _full(ctx, a, 2), bin_("multiply", a, a)))
    im = bin_("multiply", un("exponential", x), un("sine", y))
    return make_complex(ctx, re, im)


def sqrt(ctx: LoweringContext, z: Value) -> Value:
    """The principal square root (the side of the cut from the sign of a zero imaginary
    part), and inf + i y for an infinite y even when the real part is NaN, as C99."""
    w = symmetric(lambda ctx, v: ctx.unary("sqrt", v))(ctx, z)
    im = parts(ctx, z)[1]
    inf = make_complex(ctx, ctx.full(im.shape, np.inf, im.dtype), im)
    return ctx.select(is_inf(ctx, im), inf, w)

