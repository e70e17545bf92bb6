"""The composite ufuncs: NumPy ufuncs without a primitive of their own, written as
functions on raw values (a few primitives composed). Each first casts its inputs to the
dtypes of the loop NumPy itself would choose (:func:`in_loop`), so result dtypes and
TypeErrors are NumPy's; an object operand raises :class:`ObjectLoop`, answered with NumPy's
object loop by the ufunc's callers."""

from __future__ import annotations

import numpy as np

from transforms.core import CompositePrimitive
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._object_loops import OBJECT, ObjectLoop, nonzero_or_object_loop
from xnp._util import cast_v, dtype_of, raw
from xnp.lax._base import loop_dtypes


def _in_loop(np_ufunc, *values):
    """Cast values to the input dtypes of NumPy's loop for ``np_ufunc``."""
    from transforms.core import get_aval
    if len(values) == 1 and type(values[0]) is int and 2**63 <= values[0] < 2**64:
        values = (np.uint64(values[0]),)    # a lone Python int past int64: NumPy's uint64
    dts = loop_dtypes(np_ufunc, *(get_aval(v) for v in values))
    if dts[-1] is OBJECT:       # NumPy's object loop computes it (see object_aware)
        raise ObjectLoop(np_ufunc, values)
    for v, dt in zip(values, dts):
        if type(v) is int and dt.kind in "iu" and not np.iinfo(dt).min <= v <= np.iinfo(dt).max:
            raise OverflowError(f"Python integer {v} out of bounds for {dt.name}")
    return [cast_v(v, dt) for v, dt in zip(values, dts)]


# --- composite ufuncs on raw values ---------------------------------------------------------


def _select(c, x, y):
    return lax.select_n_p.bind(c, y, x)


def _positive(x):
    (x,) = _in_loop(np.positive, x)
    return x


def _copysign(x, y):
    x, y = _in_loop(np.copysign, x, y)
    ax = lax.abs_p.bind(x)
    return _select(lax.signbit_p.bind(y), lax.neg_p.bind(ax), ax)


def _sign_zero_like(x, y):
    """copysign(x, y) for an x that is zero or already has y's sign, with slope +1 in x
    (-abs(-x) rather than -abs(x): abs has slope +1 at 0), so that fixing the sign of a
    zero leaves the derivative of the value it fixes unchanged."""
    neg_side = lax.neg_p.bind(lax.abs_p.bind(lax.neg_p.bind(x)))
    return _select(lax.signbit_p.bind(y), neg_side, lax.abs_p.bind(x))


def _remainder(x, y):
    x, y = _in_loop(np.remainder, x, y)
    r = lax.rem_p.bind(x, y)
    if dtype_of(r).kind == "b":
        return r
    wrong_sign = lax.and_p.bind(lax.ne_p.bind(r, 0),
                                lax.ne_p.bind(lax.lt_p.bind(r, 0), lax.lt_p.bind(y, 0)))
    r = _select(wrong_sign, lax.add_p.bind(r, y), r)
    if dtype_of(r).kind == "f":   # a zero remainder takes the sign of the divisor
        r = _select(lax.eq_p.bind(r, 0), _sign_zero_like(r, y), r)
    return r


def _power(x, y):
    # x ** 2 with a Python int exponent on inexact x: integer_pow has the cheaper
    # derivative (no log x term) and is what NumPy computes for it anyway.
    if type(y) is int and dtype_of(x).kind in "fc":
        return lax.integer_pow_p.bind(x, y=y)
    if dtype_of(x).kind in "biu" and (isinstance(y, (int, np.integer)) or type(y) is np.ndarray
                                      and y.dtype.kind in "biu"):
        xl, yl = _in_loop(np.power, x, y)     # (NumPy's OverflowError for uint8 ** -1)
        if dtype_of(xl).kind in "iu" and np.any(np.asarray(y) < 0):
            raise ValueError("Integers to negative integer powers are not allowed.")
    if (isinstance(y, (float, np.floating)) or type(y) is np.ndarray and y.ndim == 0) and \
            y == 0.5 and dtype_of(x).kind == "f":
        # NumPy's float32/float64 loops take a scalar exponent 0.5 as sqrt: (-0.0) ** 0.5
        # is -0.0 and (-inf) ** 0.5 NaN there, where pow gives 0.0 and inf.
        xl, _ = _in_loop(np.power, x, y)
        if dtype_of(xl) in (np.float32, np.float64):
            return lax.sqrt_p.bind(xl)
    return lax.pow_p.bind(x, y)


def _divmod(x, y):
    x, y = _in_loop(np.divmod, x, y)
    return lax.floor_divide_p.bind(x, y), _remainder(x, y)


def _float_power(x, y):
    x, y = _in_loop(np.float_power, x, y)
    return lax.float_power_p.bind(x, y)


def _fmax_fmin(prim):
    def fn(x, y):
        r = prim.bind(x, y)
        if dtype_of(r).kind not in "fc" and dtype_of(r).name != "bfloat16":
            return r
        x, y = cast_v(x, dtype_of(r)), cast_v(y, dtype_of(r))
        # Both NaN: NumPy's complex loop gives x, its float loops y.
        first, second = (x, y) if dtype_of(r).kind == "c" else (y, x)
        r = _select(lax.is_nan_p.bind(first), second, r)
        return _select(lax.is_nan_p.bind(second), first, r)
    return fn


def _hypot(x, y):
    x, y = _in_loop(np.hypot, x, y)
    dt = dtype_of(x)
    if dt == np.float64:
        return _hypot64(x, y)
    if dt in (np.float16, np.float32):
        # C's hypotf, which NumPy calls (for float16 too, then rounding to float16), is
        # the float64 sqrt(x*x + y*y) rounded: exact squares, no overflow in float64
        x64, y64 = cast_v(x, np.float64), cast_v(y, np.float64)
        r = lax.sqrt_p.bind(lax.add_p.bind(lax.mul_p.bind(x64, x64), lax.mul_p.bind(y64, y64)))
        inf = lax.or_p.bind(lax.eq_p.bind(lax.abs_p.bind(x64), np.inf),
                            lax.eq_p.bind(lax.abs_p.bind(y64), np.inf))
        return cast_v(cast_v(_select(inf, np.float64(np.inf), r), np.float32), dt)
    ax, ay = lax.abs_p.bind(x), lax.abs_p.bind(y)
    big, small = lax.max_p.bind(ax, ay), lax.min_p.bind(ax, ay)
    safe = _select(lax.eq_p.bind(big, 0), lax.add_p.bind(big, 1), big)
    ratio = lax.div_p.bind(small, safe)
    r = lax.mul_p.bind(big, lax.sqrt_p.bind(lax.add_p.bind(1, lax.mul_p.bind(ratio, ratio))))
    inf = lax.or_p.bind(lax.eq_p.bind(ax, np.inf), lax.eq_p.bind(ay, np.inf))
    return _select(inf, cast_v(np.inf, dtype_of(r)), r)


def _hypot64(x, y):
    """float64 hypot rounded as C's: sqrt(a*a + b*b) for a >= b (scaled by a power of two
    out of overflow and underflow), then Borges' correction (2019) of its rounding error."""
    a0, b0 = lax.abs_p.bind(x), lax.abs_p.bind(y)
    a, b = lax.max_p.bind(a0, b0), lax.min_p.bind(a0, b0)
    scale = _select(lax.gt_p.bind(a, 2.0 ** 500), np.float64(2.0 ** -600),
                    _select(lax.lt_p.bind(a, 2.0 ** -500), np.float64(2.0 ** 600),
                            np.float64(1.0)))
    a, b = lax.mul_p.bind(a, scale), lax.mul_p.bind(b, scale)
    add, sub, mul = lax.add_p.bind, lax.sub_p.bind, lax.mul_p.bind
    h = lax.sqrt_p.bind(add(mul(a, a), mul(b, b)))
    # h <= 2b: correct through d = h - b; otherwise through d = h - a
    d1 = sub(h, b)
    e1 = add(mul(a, sub(mul(2.0, d1), a)), mul(sub(d1, mul(2.0, sub(a, b))), d1))
    d2 = sub(h, a)
    e2 = add(mul(mul(2.0, d2), sub(a, mul(2.0, b))), add(mul(sub(mul(4.0, d2), b), b),
                                                          mul(d2, d2)))
    err = _select(lax.le_p.bind(h, mul(2.0, b)), e1, e2)
    safe = _select(lax.eq_p.bind(h, 0.0), np.float64(1.0), h)
    fixed = sub(h, lax.div_p.bind(err, mul(2.0, safe)))
    r = lax.div_p.bind(_select(lax.eq_p.bind(h, 0.0), h, fixed), scale)
    inf = lax.or_p.bind(lax.eq_p.bind(a0, np.inf), lax.eq_p.bind(b0, np.inf))
    big = lax.eq_p.bind(h, np.inf)      # a finite pair beyond the scaled range: no overflow
    return _select(lax.or_p.bind(inf, big), np.float64(np.inf), r)


def _with_custom_jvp(raw_fn, tangent_rule, np_ufunc):
    """``raw_fn`` (on values) with a custom JVP: ``tangent_rule(ans, tangents, *values)``.
    Used where the composed derivative is wrong at kinks of its parts (max/abs ties)."""
    from transforms.custom_derivatives import custom_jvp

    fn = custom_jvp(lambda *xs: wrap(raw_fn(*[raw(x) for x in xs])))

    @fn.defjvp
    def _jvp(primals, tangents):
        xs = [raw(p) for p in primals]
        ans = raw(fn(*primals))     # through fn, so higher derivatives use this rule too
        return wrap(ans), wrap(tangent_rule(ans, [raw(t) for t in tangents], *xs))

    def call(*values):
        # Cast to NumPy's loop dtypes first, so the rule sees only inexact inputs.
        return raw(fn(*_in_loop(np_ufunc, *values)))
    call.__name__ = raw_fn.__name__
    return call


def _sqrt_tangent_zero_at_zero(ans, tangents, x):
    (t,) = tangents
    at_zero = lax.eq_p.bind(ans, 0)
    safe = _select(at_zero, lax.add_p.bind(ans, 1), ans)
    d = lax.div_p.bind(t, lax.mul_p.bind(safe, 2))
    return _select(at_zero, lax.mul_p.bind(d, 0), d)


def sqrt_of_spread_v(v):
    """``sqrt(v)`` for a variance-like ``v >= 0``, whose derivative is taken as 0 where
    ``v == 0`` (the spread of a single value, or of equal values, is flat or a kink
    there: 0 instead of sqrt's 0/0 = NaN, as for norms at 0). Used by std and nanstd."""
    return _sqrt_zero_safe(v)


_sqrt_zero_safe = _with_custom_jvp(lambda x: lax.sqrt_p.bind(x), _sqrt_tangent_zero_at_zero,
                                   np.sqrt)


def _hypot_tangent(ans, tangents, x, y):
    tx, ty = tangents
    safe = _select(lax.eq_p.bind(ans, 0), lax.add_p.bind(ans, 1), ans)
    t = lax.div_p.bind(lax.add_p.bind(lax.mul_p.bind(x, tx), lax.mul_p.bind(y, ty)), safe)
    return _select(lax.eq_p.bind(ans, 0), lax.mul_p.bind(t, 0), t)


def _logaddexp_tangent(exp_prim):
    def rule(ans, tangents, x, y):
        def weight(v):
            w = exp_prim.bind(lax.sub_p.bind(v, ans))
            return _select(lax.eq_p.bind(v, -np.inf), lax.mul_p.bind(w, 0), w)
        tx, ty = tangents
        return lax.add_p.bind(lax.mul_p.bind(tx, weight(x)), lax.mul_p.bind(ty, weight(y)))
    return rule


def _logaddexp_base(exp_prim, log1p_scale):
    def fn(x, y):
        x, y = _in_loop(np.logaddexp, x, y)
        m = lax.max_p.bind(x, y)
        # Equal operands have d = 0 (also x == y == +-inf, whose x - y would raise
        # "invalid" under errstate); a NaN operand gives d = NaN, which is the answer.
        same = lax.eq_p.bind(x, y)
        zero = cast_v(0, dtype_of(x))
        d = lax.sub_p.bind(_select(same, zero, x), _select(same, zero, y))
        tail = lax.log1p_p.bind(exp_prim.bind(lax.neg_p.bind(lax.abs_p.bind(d))))
        if log1p_scale != 1:
            tail = lax.mul_p.bind(tail, log1p_scale)
        return _select(lax.is_nan_p.bind(d), d, lax.add_p.bind(m, tail))
    return fn


def _logical(prim, np_ufunc):
    def fn(*xs):
        for x in xs:    # NumPy converts a Python int operand to a C long first
            if len(xs) > 1 and type(x) is int and not -2**63 <= x < 2**63:
                raise OverflowError("Python int too large to convert to C long")
        bools = [nonzero_or_object_loop(x, np_ufunc, xs) if dtype_of(x).kind != "b" else x
                 for x in xs]
        return prim.bind(*bools)
    return fn


def _right_shift(x, y):
    x, y = _in_loop(np.right_shift, x, y)
    prim = lax.shift_right_logical_p if dtype_of(x).kind == "u" else \
        lax.shift_right_arithmetic_p
    return prim.bind(x, y)


def _isinf(x):
    (x,) = _in_loop(np.isinf, x)
    if dtype_of(x).kind == "c":
        return lax.or_p.bind(_isinf(lax.real_p.bind(x)), _isinf(lax.imag_p.bind(x)))
    return lax.eq_p.bind(lax.abs_p.bind(x), np.inf) if dtype_of(x).kind == "f" or \
        dtype_of(x).name == "bfloat16" else lax.ne_p.bind(x, x)


def _heaviside(x, h0):
    x, h0 = _in_loop(np.heaviside, x, h0)
    one, zero = cast_v(1, dtype_of(x)), cast_v(0, dtype_of(x))
    r = _select(lax.lt_p.bind(x, 0), zero, _select(lax.gt_p.bind(x, 0), one, h0))
    return _select(lax.is_nan_p.bind(x), x, r)


def _lcm(x, y):
    x, y = _in_loop(np.lcm, x, y)
    g = lax.gcd_p.bind(x, y)
    safe = _select(lax.eq_p.bind(g, 0), cast_v(1, dtype_of(g)), g)
    # |x| / gcd * |y|, in this order, so that overflow wraps exactly as NumPy's does.
    return lax.mul_p.bind(lax.floor_divide_p.bind(lax.abs_p.bind(x), safe),
                          lax.abs_p.bind(y))


def _ldexp_expand(x, e):
    """``x * 2**e`` as three factors that stay inside the dtype's range (a single
    ``2**e`` overflows to inf, and ``0 * inf`` is NaN), with ``e`` first clamped to where the
    result saturates anyway."""
    from xnp._dtypes import finfo
    dt = dtype_of(x)
    fi = finfo(dt)
    lim = fi.maxexp - fi.minexp + fi.nmant + 2
    e = lax.max_p.bind(lax.min_p.bind(e, cast_v(lim, dtype_of(e))), cast_v(-lim, dtype_of(e)))
    third = lax.floor_divide_p.bind(e, cast_v(3, dtype_of(e)))
    rest = lax.sub_p.bind(e, lax.mul_p.bind(third, cast_v(2, dtype_of(e))))
    f = lax.exp2_p.bind(cast_v(third, dt))
    return lax.mul_p.bind(lax.mul_p.bind(lax.mul_p.bind(x, f), f),
                          lax.exp2_p.bind(cast_v(rest, dt)))


ldexp_p = CompositePrimitive("ldexp", impl=np.ldexp, expand=_ldexp_expand)


def _ldexp(x, e):
    x, e = _in_loop(np.ldexp, x, e)
    return ldexp_p.bind(x, e)


def _frexp(x):
    (x,) = _in_loop(np.frexp, x)
    ax = lax.abs_p.bind(x)
    special = lax.or_p.bind(lax.eq_p.bind(ax, 0), lax.not_p.bind(lax.is_finite_p.bind(x)))
    safe = _select(special, cast_v(1, dtype_of(x)), ax)
    e = lax.add_p.bind(lax.floor_p.bind(lax.log2_p.bind(safe)), 1)
    # Divide by 2**e in two halves: 2**1024 alone overflows for the largest doubles.
    half = lax.floor_p.bind(lax.mul_p.bind(e, 0.5))
    m = lax.div_p.bind(lax.div_p.bind(x, lax.exp2_p.bind(half)),
                       lax.exp2_p.bind(lax.sub_p.bind(e, half)))
    # log2 may round across a power of two: fix the mantissa into [0.5, 1).
    too_big = lax.ge_p.bind(lax.abs_p.bind(m), 1)
    m = _select(too_big, lax.mul_p.bind(m, 0.5), m)
    e = _select(too_big, lax.add_p.bind(e, 1), e)
    too_small = lax.lt_p.bind(lax.abs_p.bind(m), 0.5)
    m = _select(too_small, lax.mul_p.bind(m, 2), m)
    e = _select(too_small, lax.sub_p.bind(e, 1), e)
    m = _select(special, x, m)
    e = _select(special, cast_v(0, dtype_of(e)), e)
    return m, cast_v(e, np.int32)


def _modf(x):
    (x,) = _in_loop(np.modf, x)
    whole = lax.trunc_p.bind(x)
    # The fraction carries x's sign also when it is zero (C's modf: modf(-1.0) = -0.0);
    # infinities have fraction +-0 (computed from 0, so that inf - inf never warns).
    finite = _select(_isinf(x), cast_v(0, dtype_of(x)), x)
    frac = _sign_zero_like(lax.sub_p.bind(finite, lax.trunc_p.bind(finite)), x)
    return frac, whole


def _spacing(x):
    (x,) = _in_loop(np.spacing, x)
    return _spacing_p.bind(x)


def _spacing_composite(x):
    dt = dtype_of(x)
    # Piecewise constant in x: its derivative is zero, not that of the subtraction.
    x = lax.stop_gradient_p.bind(x)
    zero = cast_v(0, dt)
    x = _select(lax.eq_p.bind(x, zero), zero, x)        # -0.0 spaces as +0.0, as NumPy
    inf = cast_v(np.inf, dt)
    away = lax.sub_p.bind(lax.nextafter_p.bind(x, _copysign(inf, x)), x)
    if dt != np.float16:
        return away
    # NumPy's half-precision spacing of a finite negative number is the (positive) gap
    # below its magnitude.
    mag = lax.abs_p.bind(x)
    below = lax.sub_p.bind(mag, lax.nextafter_p.bind(mag, zero))
    negative = lax.and_p.bind(lax.lt_p.bind(x, zero), lax.ne_p.bind(x, lax.neg_p.bind(inf)))
    return _select(negative, below, away)


# Eagerly NumPy's own spacing (its values and its floating-point errors: overflow at the
# largest finite value, invalid for half-precision NaN and infinities); traced, the same
# values from nextafter.
_spacing_p = CompositePrimitive("spacing", impl=np.spacing, expand=_spacing_composite)


def _fabs(x):
    (x,) = _in_loop(np.fabs, x)
    return lax.abs_p.bind(x)


def _scaled(np_ufunc, num, den):
    def fn(x):    # float16 and float32 as NumPy: times the factor rounded to float32
        (x,) = _in_loop(np_ufunc, x)
        if dtype_of(x) in (np.float16, np.float32):
            f32 = lax.mul_p.bind(cast_v(x, np.float32), np.float32(num) / np.float32(den))
            return cast_v(f32, dtype_of(x))
        return lax.mul_p.bind(x, num / den)
    return fn
