"""Complex elementwise functions lowered from their real and imaginary parts, with the
special values of C99 Annex G as NumPy (glibc, npymath) gives them: signed zeros, and
where a NaN or an infinite part gives a NaN, an infinity or a finite value.

Each ``c*`` function takes the parts ``x``, ``y`` (float64 here: complex64 operands are
widened by the caller) and returns the parts of the result; :func:`complex_fn` makes a
lowering rule of one."""

from __future__ import annotations

import numpy as np

from transforms.lowering import LoweringContext, Value
from xnp.lax._lower_util import make_complex, parts, signbit


class _R:
    """Shorthands for elementwise real operations of one shape and dtype."""

    def __init__(self, ctx: LoweringContext, like: Value):
        self.ctx, self.like = ctx, like

    def c(self, v):
        return self.ctx.full(self.like.shape, v, self.like.dtype)

    def u(self, name, a):
        full = name if "." in name else f"stablehlo.{name}"
        return self.ctx.op(full, [a], (a.shape, a.dtype))

    def add(self, a, b):
        return self.ctx.binary("add", a, b)

    def sub(self, a, b):
        return self.ctx.binary("subtract", a, b)

    def mul(self, a, *bs):
        for b in bs:
            a = self.ctx.binary("multiply", a, b)
        return a

    def div(self, a, b):
        return self.ctx.binary("divide", a, b)

    def neg(self, a):
        return self.ctx.unary("negate", a)

    def abs(self, a):
        return self.ctx.unary("abs", a)

    def sel(self, m, a, b):
        return self.ctx.select(m, a, b)

    def cmp(self, a, b, d):
        return self.ctx.compare(a, b if isinstance(b, Value) else self.c(b), d)

    def and_(self, *ms):
        out = ms[0]
        for m in ms[1:]:
            out = self.ctx.binary("and", out, m)
        return out

    def or_(self, *ms):
        out = ms[0]
        for m in ms[1:]:
            out = self.ctx.binary("or", out, m)
        return out

    def not_(self, m):
        return self.ctx.unary("not", m)

    def nan(self, a):
        return self.ctx.compare(a, a, "NE")

    def inf(self, a):
        return self.cmp(self.abs(a), np.inf, "EQ")

    def fin(self, a):
        return self.ctx.op("stablehlo.is_finite", [a], (a.shape, np.bool_))

    def zero(self, a):
        return self.cmp(a, 0, "EQ")

    def sbit(self, a):
        return signbit(self.ctx, a)

    def copysign(self, a, b):
        """|a| with the sign bit of b."""
        m = self.abs(a)
        return self.sel(self.sbit(b), self.neg(m), m)

    def first(self, default_re, default_im, *cases):
        """Parts chosen by the first true mask of ``(mask, re, im)`` cases (later cases
        are overridden by earlier ones), else the defaults."""
        re, im = default_re, default_im
        for m, r, i in reversed(cases):
            re, im = self.sel(m, r, re), self.sel(m, i, im)
        return re, im


def _exp_parts(r: _R, x, cy, sy):
    """(e**x cos y, e**x sin y), scaled so that a large x with a small cosine or sine
    stays finite as in C (e**x overflows from x = 709.8)."""
    big = r.cmp(x, 700, "GT")
    h = r.u("exponential", r.mul(x, r.c(0.5)))
    e = r.u("exponential", x)
    return tuple(r.sel(big, r.mul(h, t, h), r.mul(e, t)) for t in (cy, sy))


def cexp(r: _R, x, y):
    cy, sy = r.u("cosine", y), r.u("sine", y)
    re, im = _exp_parts(r, x, cy, sy)
    nan, zero = r.c(np.nan), r.c(0.0)
    y_bad = r.not_(r.fin(y))
    pinf, minf = r.cmp(x, np.inf, "EQ"), r.cmp(x, -np.inf, "EQ")
    return r.first(
        re, im,
        (r.zero(y), r.u("exponential", x), y),
        (r.and_(minf, y_bad), zero, r.copysign(zero, y)),
        (r.and_(pinf, y_bad), x, nan),
        (minf, r.copysign(zero, cy), r.copysign(zero, sy)))


def _sinh_cosh_parts(r: _R, x, cy, sy, cosh: bool):
    """sinh(x) cos y, cosh(x) sin y (or cosh(x) cos y, sinh(x) sin y), scaled for a
    large |x|."""
    sh, ch = r.u("chlo.sinh", x), r.u("chlo.cosh", x)
    ax = r.abs(x)
    big = r.cmp(ax, 700, "GT")
    h = r.u("exponential", r.mul(ax, r.c(0.5)))
    hh = r.mul(h, r.c(0.5))
    sh_big = r.copysign(hh, x)
    a, b = (ch, sh) if cosh else (sh, ch)
    a_big, b_big = (hh, sh_big) if cosh else (sh_big, hh)
    return (r.sel(big, r.mul(a_big, cy, h), r.mul(a, cy)),
            r.sel(big, r.mul(b_big, sy, h), r.mul(b, sy)))


def csinh(r: _R, x, y):
    cy, sy = r.u("cosine", y), r.u("sine", y)
    re, im = _sinh_cosh_parts(r, x, cy, sy, cosh=False)
    nan = r.c(np.nan)
    y_bad = r.not_(r.fin(y))
    return r.first(
        re, im,
        (r.zero(y), r.u("chlo.sinh", x), y),
        (r.and_(r.zero(x), y_bad), x, nan),
        (r.and_(r.inf(x), y_bad), r.c(np.inf), nan),
        (r.inf(x), r.mul(x, cy), r.mul(r.c(np.inf), sy)))


def ccosh(r: _R, x, y):
    cy, sy = r.u("cosine", y), r.u("sine", y)
    re, im = _sinh_cosh_parts(r, x, cy, sy, cosh=True)
    nan, zero, inf = r.c(np.nan), r.c(0.0), r.c(np.inf)
    y_bad = r.not_(r.fin(y))
    signed = r.sel(r.cmp(r.sbit(x), r.sbit(y), "NE"), r.c(-0.0), zero)   # sign x * sign y
    return r.first(
        re, im,
        (r.and_(r.zero(y), r.nan(x)), nan, r.copysign(zero, y)),
        (r.zero(y), r.u("chlo.cosh", x), signed),
        (r.and_(r.zero(x), y_bad), nan, zero),
        (r.and_(r.inf(x), y_bad), inf, nan),
        (r.inf(x), r.mul(inf, cy), r.mul(x, sy)))


def ctanh(r: _R, x, y):
    """As glibc: sinh(x) cosh(x) / d + i sin(y) cos(y) / d, d = sinh(x)**2 + cos(y)**2;
    +-1 + i 4 sin(y) cos(y) e**(-2|x|) for a large |x|."""
    cy, sy = r.u("cosine", y), r.u("sine", y)
    sh, ch = r.u("chlo.sinh", x), r.u("chlo.cosh", x)
    eps = float(np.finfo(np.float64).eps)
    d = r.mul(cy, cy)
    d = r.sel(r.cmp(r.abs(sh), r.mul(r.abs(cy), r.c(eps)), "GT"), r.add(r.mul(sh, sh), d), d)
    re, im = r.div(r.mul(sh, ch), d), r.div(r.mul(sy, cy), d)
    e = r.u("exponential", r.neg(r.abs(x)))
    one_x = r.copysign(r.c(1.0), x)
    big = r.cmp(r.abs(x), 20, "GT")
    re = r.sel(big, one_x, re)
    im = r.sel(big, r.mul(r.c(4.0), sy, cy, e, e), im)
    nan, zero = r.c(np.nan), r.c(0.0)
    y_bad = r.not_(r.fin(y))
    return r.first(
        re, im,
        (r.and_(r.nan(x), r.zero(y)), nan, y),
        (r.nan(x), nan, nan),
        (r.and_(r.inf(x), y_bad), one_x, r.copysign(zero, y)),
        (r.inf(x), one_x, r.copysign(zero, r.mul(sy, cy))),
        (r.and_(r.zero(x), y_bad), x, nan),
        (y_bad, nan, nan),
        (r.zero(y), r.u("tanh", x), y))


def catanh(r: _R, x, y):
    """FreeBSD's catanh (Bruce Evans), as NumPy's C library gives it."""
    ax, ay = r.abs(x), r.abs(y)
    pio2 = r.c(np.pi / 2)
    eps = float(np.finfo(np.float64).eps)
    nan, zero, one = r.c(np.nan), r.c(0.0), r.c(1.0)
    # Far from the origin: the real part is x / (x**2 + y**2), scaled.
    m = r.sel(r.cmp(ax, ay, "GE"), ax, ay)
    m = r.sel(r.zero(m), one, m)
    inv = r.div(one, m)         # (XLA rewrites (a / m) / b / m as a / (m * b * m))
    xs, ys = r.mul(x, inv), r.mul(y, inv)
    far_re = r.mul(r.div(xs, r.add(r.mul(xs, xs), r.mul(ys, ys))), inv)
    far_re = r.sel(r.or_(r.inf(x), r.inf(y)), r.copysign(zero, x), far_re)
    # The general case.
    am1 = r.sub(ax, one)
    ss = r.add(r.mul(am1, am1), r.mul(ay, ay))
    at_one = r.cmp(ax, 1, "EQ")
    rx = r.div(r.u("log_plus_one", r.div(r.mul(r.c(4.0), ax), ss)), r.c(4.0))
    rx_one = r.div(r.sub(r.c(np.log(2)), r.u("log", ay)), r.c(2.0))
    rx = r.sel(r.and_(at_one, r.cmp(ay, eps, "LT")), rx_one, rx)
    p = r.mul(r.sub(one, ax), r.add(one, ax))
    two_ay = r.mul(r.c(2.0), ay)
    ry = r.sel(r.cmp(ay, eps, "LT"), r.ctx.binary("atan2", two_ay, p),
               r.ctx.binary("atan2", two_ay, r.sub(p, r.mul(ay, ay))))
    ry = r.sel(at_one, r.ctx.binary("atan2", r.c(2.0), r.neg(ay)), ry)
    ry = r.div(ry, r.c(2.0))
    re, im = r.copysign(rx, x), r.copysign(ry, y)
    tiny = r.c(float(np.sqrt(3 * eps) / 2))
    huge = r.c(1 / eps)
    any_nan = r.or_(r.nan(x), r.nan(y))
    return r.first(
        re, im,
        (r.and_(r.zero(y), r.cmp(ax, 1, "LE")), r.u("chlo.atanh", x), y),
        (r.zero(x), x, r.u("chlo.atan", y)),
        (r.and_(any_nan, r.inf(x)), r.copysign(zero, x), nan),
        (r.and_(any_nan, r.inf(y)), r.copysign(zero, x), r.copysign(pio2, y)),
        (any_nan, nan, nan),
        (r.or_(r.cmp(ax, huge, "GT"), r.cmp(ay, huge, "GT")), far_re, r.copysign(pio2, y)),
        (r.and_(r.cmp(ax, tiny, "LT"), r.cmp(ay, tiny, "LT")), x, y))


def clog1p(r: _R, x, y):
    """NumPy's own complex log1p: log(hypot(x + 1, y)) + i atan2(y, x + 1), x + 1
    rounded in the operand's precision, the rest in float64 (about correctly rounded)."""
    dt = x.dtype
    x1 = r.add(x, r.c(1.0))
    if dt != np.float64:
        x1, y = (r.ctx.convert(v, np.float64) for v in (x1, y))
        r = _R(r.ctx, x1)
    ax, ay = r.abs(x1), r.abs(y)
    big, small = r.sel(r.cmp(ax, ay, "GE"), ax, ay), r.sel(r.cmp(ax, ay, "GE"), ay, ax)
    q = r.div(small, big)
    scaled = r.mul(big, r.u("sqrt", r.add(r.c(1.0), r.mul(q, q))))
    direct = r.u("sqrt", r.add(r.mul(x1, x1), r.mul(y, y)))
    safe = r.and_(r.cmp(big, 1e-150, "GT"), r.cmp(big, 1e150, "LT"))
    h = r.sel(safe, direct, r.sel(r.zero(big), big, scaled))
    h = r.sel(r.or_(r.nan(x1), r.nan(y)), r.c(np.nan), h)
    h = r.sel(r.or_(r.inf(x1), r.inf(y)), r.c(np.inf), h)
    if dt != np.float64:        # NumPy rounds the modulus before its log
        h = r.ctx.convert(r.ctx.convert(h, dt), np.float64)
    out = r.u("log", h), r.ctx.binary("atan2", y, x1)
    return tuple(r.ctx.convert(v, dt) for v in out)


def _swapped(fn):
    """f(x + i y) = b + i a where g(y + i x) = a + i b, for g = ``fn``: sin from sinh,
    tan from tanh, atan from atanh (-i g(i z) with g odd and g(conj z) = conj g(z))."""
    def swapped(r, x, y):
        a, b = fn(r, y, x)
        return b, a
    return swapped


def _of_i(fn):
    """f(z) = g(i z): cos from cosh."""
    return lambda r, x, y: fn(r, r.neg(y), x)


csin, ctan, catan = _swapped(csinh), _swapped(ctanh), _swapped(catanh)
ccos = _of_i(ccosh)


def complex_fn(fn):
    """A lowering ``rule(ctx, z)`` of the parts function ``fn`` (complex operands only)."""
    def rule(ctx: LoweringContext, z: Value) -> Value:
        x, y = parts(ctx, z)
        return make_complex(ctx, *fn(_R(ctx, x), x, y))
    return rule


def _nan_parts(zero_case):
    """A fix-up of XLA's inverse functions: NaN + i NaN where one part is NaN and the
    other finite, except ``zero_case(r, x, y)``: (mask, re, im) where the other is 0."""
    def fix(r, x, y, re, im):
        nan = r.c(np.nan)
        one_nan = r.or_(r.and_(r.nan(x), r.fin(y)), r.and_(r.fin(x), r.nan(y)))
        return r.first(re, im, zero_case(r, x, y), (one_nan, nan, nan))
    return fix


NAN_CASES = {
    "asinh": _nan_parts(lambda r, x, y: (r.and_(r.nan(x), r.zero(y)), x, y)),
    "asin": _nan_parts(lambda r, x, y: (r.and_(r.zero(x), r.nan(y)), x, y)),
    "acos": _nan_parts(lambda r, x, y: (r.and_(r.zero(x), r.nan(y)), r.c(np.pi / 2), y)),
    "acosh": _nan_parts(lambda r, x, y: (r.and_(r.zero(x), r.nan(y)), y, r.c(np.pi / 2))),
}


def _log_fix(r, x, y, re, im):
    """log of a number with an infinite part is +inf in the real part, NaN or not."""
    return r.sel(r.or_(r.inf(x), r.inf(y)), r.c(np.inf), re), im


def _sqrt_fix(r, x, y, re, im):
    """sqrt(+inf + i NaN) = inf + i NaN; sqrt(-inf + i NaN) = NaN +- i inf."""
    y_nan = r.nan(y)
    return r.first(re, im,
                   (r.and_(r.cmp(x, np.inf, "EQ"), y_nan), x, y),
                   (r.and_(r.cmp(x, -np.inf, "EQ"), y_nan), y, r.copysign(r.c(np.inf), y)))


NAN_CASES.update(log=_log_fix, sqrt=_sqrt_fix)


def fixed(fn, name: str):
    """The lowering rule ``fn(ctx, z)`` for complex ``z``, with the special values of
    ``NAN_CASES[name]`` put right (real operands: ``fn`` itself)."""
    def rule(ctx: LoweringContext, z: Value) -> Value:
        w = fn(ctx, z)
        if z.dtype.kind != "c":
            return w
        x, y = parts(ctx, z)
        r = _R(ctx, x)
        re, im = parts(ctx, w)
        return make_complex(ctx, *NAN_CASES[name](r, x, y, re, im))
    return rule
