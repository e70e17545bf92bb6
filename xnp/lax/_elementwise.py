"""Elementwise primitives: one declaration each, NumPy ufunc semantics.

Every primitive here broadcasts its operands and resolves its dtype exactly as the NumPy
ufunc named in its declaration (NEP 50 for Python scalars), so ``add_p.bind(x, 2.0)`` is
``numpy.add(x, 2.0)`` eagerly and the same abstract value under tracing.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray, get_aval
from xnp._dtypes import result_dtype_of_avals
from xnp.lax._base import broadcast_shapes_cached, primitive, ufunc_primitive


def _float_impl(fn):
    """Run ``fn`` in the float dtype NumPy's float ufuncs (like sin) would use."""
    def impl(x):
        x = np.asarray(x)
        dt = np.sin.resolve_dtypes((x.dtype, None))[1]
        return fn(x.astype(dt, copy=False))
    impl.__name__ = fn.__name__
    return impl


def _logistic(x):
    with np.errstate(over="ignore"):
        return np.where(x >= 0, 1 / (1 + np.exp(-x)), np.exp(x) / (1 + np.exp(x))).astype(
            x.dtype, copy=False)


def _rsqrt(x):
    with np.errstate(divide="ignore"):
        return np.reciprocal(np.sqrt(x))


# --- unary, one line each -----------------------------------------------------------------
neg_p = ufunc_primitive("neg", np.negative)
sign_p = ufunc_primitive("sign", np.sign)
floor_p = ufunc_primitive("floor", np.floor)
ceil_p = ufunc_primitive("ceil", np.ceil)
round_p = ufunc_primitive("round", np.rint)          # half to even, as NumPy
trunc_p = ufunc_primitive("trunc", np.trunc)
abs_p = ufunc_primitive("abs", np.absolute)
exp_p = ufunc_primitive("exp", np.exp)
exp2_p = ufunc_primitive("exp2", np.exp2)
expm1_p = ufunc_primitive("expm1", np.expm1)
log_p = ufunc_primitive("log", np.log)
log2_p = ufunc_primitive("log2", np.log2)
log10_p = ufunc_primitive("log10", np.log10)
log1p_p = ufunc_primitive("log1p", np.log1p)
sqrt_p = ufunc_primitive("sqrt", np.sqrt)
rsqrt_p = ufunc_primitive("rsqrt", np.sqrt, impl=_float_impl(_rsqrt))
cbrt_p = ufunc_primitive("cbrt", np.cbrt)
sin_p = ufunc_primitive("sin", np.sin)
cos_p = ufunc_primitive("cos", np.cos)
tan_p = ufunc_primitive("tan", np.tan)
asin_p = ufunc_primitive("asin", np.arcsin)
acos_p = ufunc_primitive("acos", np.arccos)
atan_p = ufunc_primitive("atan", np.arctan)
sinh_p = ufunc_primitive("sinh", np.sinh)
cosh_p = ufunc_primitive("cosh", np.cosh)
tanh_p = ufunc_primitive("tanh", np.tanh)
asinh_p = ufunc_primitive("asinh", np.arcsinh)
acosh_p = ufunc_primitive("acosh", np.arccosh)
atanh_p = ufunc_primitive("atanh", np.arctanh)
logistic_p = ufunc_primitive("logistic", np.sin, impl=_float_impl(_logistic))
is_finite_p = ufunc_primitive("is_finite", np.isfinite)
is_nan_p = ufunc_primitive("is_nan", np.isnan)
signbit_p = ufunc_primitive("signbit", np.signbit)
conj_p = ufunc_primitive("conj", np.conjugate)


def _real_eval(x):
    dt = np.empty((), x.dtype).real.dtype
    return ShapedArray(x.shape, dt, x.weak_type)


real_p = primitive("real", impl=np.real, abstract_eval=_real_eval)
imag_p = primitive("imag", impl=np.imag, abstract_eval=_real_eval)

# --- binary ---------------------------------------------------------------------------------
add_p = ufunc_primitive("add", np.add)
sub_p = ufunc_primitive("sub", np.subtract)
mul_p = ufunc_primitive("mul", np.multiply)
div_p = ufunc_primitive("div", np.true_divide)
floor_divide_p = ufunc_primitive("floor_divide", np.floor_divide)
rem_p = ufunc_primitive("rem", np.fmod)               # C remainder: sign of the dividend
pow_p = ufunc_primitive("pow", np.power)
max_p = ufunc_primitive("max", np.maximum)            # NaN-propagating, as NumPy/XLA
min_p = ufunc_primitive("min", np.minimum)
atan2_p = ufunc_primitive("atan2", np.arctan2)
nextafter_p = ufunc_primitive("nextafter", np.nextafter)
eq_p = ufunc_primitive("eq", np.equal)
ne_p = ufunc_primitive("ne", np.not_equal)
lt_p = ufunc_primitive("lt", np.less)
le_p = ufunc_primitive("le", np.less_equal)
gt_p = ufunc_primitive("gt", np.greater)
ge_p = ufunc_primitive("ge", np.greater_equal)


def _aval(x):
    return get_aval(x)


def _integer_pow_impl(x, *, y: int):
    return np.power(x, y)


def _integer_pow_eval(x, *, y: int):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


integer_pow_p = primitive("integer_pow", impl=_integer_pow_impl,
                          abstract_eval=_integer_pow_eval)

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128),
               np.dtype(np.longdouble): np.dtype(np.clongdouble)}


def _complex_eval(x, y):
    dt = result_dtype_of_avals([x, y])
    if dt not in _COMPLEX_OF:
        raise TypeError(f"complex: operands must be float32, float64 or longdouble, got "
                        f"{x.dtype.name} and {y.dtype.name}")
    shape = broadcast_shapes_cached((x.shape, y.shape))
    return ShapedArray(shape, _COMPLEX_OF[dt], x.weak_type and y.weak_type)


def _complex_impl(x, y):
    out_aval = _complex_eval(_aval(x), _aval(y))
    out = np.empty(out_aval.shape, out_aval.dtype)
    out.real, out.imag = x, y
    return out


complex_p = primitive("complex", impl=_complex_impl, abstract_eval=_complex_eval)

# NumPy's own loops eagerly (so values, and the names in floating-point warnings, are
# NumPy's: complex 1/0 is nan+nanj there, "overflow encountered in square").
reciprocal_p = ufunc_primitive("reciprocal", np.reciprocal)
square_p = ufunc_primitive("square", np.square)
float_power_p = ufunc_primitive("float_power", np.float_power)


__all__ = [name for name in dir() if name.endswith("_p")]


# --- derivatives: one line per primitive -------------------------------------------------------
from transforms.ad import bind_primal, is_differentiable, tangent_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    Zero,
    add_tangents,
    defjvp,
    defjvp_ans,
    defjvp_zero,
    deflinear,
    fit,
    is_undefined,
    unbroadcast,
)

add, sub, mul, div, neg = add_p.bind, sub_p.bind, mul_p.bind, div_p.bind, neg_p.bind
sqrt, exp, log, sin, cos = sqrt_p.bind, exp_p.bind, log_p.bind, sin_p.bind, cos_p.bind
select = lambda c, x, y: _selection.select_n_p.bind(c, y, x)  # noqa: E731  (x where c)
_LN2, _LN10 = np.log(2.0), np.log(10.0)


for _p in (floor_p, ceil_p, round_p, trunc_p, sign_p, floor_divide_p, nextafter_p):
    defjvp_zero(_p)
defjvp(abs_p, lambda g, x: _abs_jvp(g, x))
defjvp_ans(exp_p, lambda g, ans, x: mul(g, ans))
defjvp_ans(exp2_p, lambda g, ans, x: mul(g, mul(ans, _LN2)))
defjvp_ans(expm1_p, lambda g, ans, x: mul(g, add(ans, 1)))
defjvp(log_p, lambda g, x: div(g, x))
defjvp(log2_p, lambda g, x: div(g, mul(x, _LN2)))
defjvp(log10_p, lambda g, x: div(g, mul(x, _LN10)))
defjvp(log1p_p, lambda g, x: div(g, add(x, 1)))
defjvp_ans(sqrt_p, lambda g, ans, x: div(g, mul(ans, 2)))
defjvp_ans(rsqrt_p, lambda g, ans, x: mul(g, div(mul(ans, -0.5), x)))
defjvp_ans(cbrt_p, lambda g, ans, x: div(g, mul(mul(ans, ans), 3)))
defjvp(sin_p, lambda g, x: mul(g, cos(x)))
defjvp(cos_p, lambda g, x: neg(mul(g, sin(x))))
defjvp_ans(tan_p, lambda g, ans, x: mul(g, add(1, mul(ans, ans))))
defjvp(asin_p, lambda g, x: div(g, sqrt(sub(1, mul(x, x)))))
defjvp(acos_p, lambda g, x: neg(div(g, sqrt(sub(1, mul(x, x))))))
defjvp(atan_p, lambda g, x: div(g, add(1, mul(x, x))))
defjvp(sinh_p, lambda g, x: mul(g, cosh_p.bind(x)))
defjvp(cosh_p, lambda g, x: mul(g, sinh_p.bind(x)))
defjvp_ans(tanh_p, lambda g, ans, x: mul(g, sub(1, mul(ans, ans))))
defjvp(asinh_p, lambda g, x: div(g, sqrt(add(mul(x, x), 1))))
defjvp(acosh_p, lambda g, x: div(g, mul(sqrt(sub(x, 1)), sqrt(add(x, 1)))))
defjvp(atanh_p, lambda g, x: div(g, sub(1, mul(x, x))))
defjvp_ans(logistic_p, lambda g, ans, x: mul(g, mul(ans, sub(1, ans))))
defjvp(pow_p, lambda g, x, y: _pow_dx(g, x, y), lambda g, x, y: _pow_dy(g, x, y))
defjvp(float_power_p, lambda g, x, y: _pow_dx(g, x, y), lambda g, x, y: _pow_dy(g, x, y))
defjvp_ans(reciprocal_p, lambda g, ans, x: neg(mul(g, mul(ans, ans))))
defjvp(square_p, lambda g, x: mul(g, mul(x, 2)))
defjvp(integer_pow_p, lambda g, x, *, y: mul(g, mul(y, x if y == 2 else
                                                    integer_pow_p.bind(x, y=y - 1)))
       if y != 0 else mul(g, 0))
defjvp(atan2_p, lambda g, x, y: mul(g, div(y, add(mul(x, x), mul(y, y)))),
       lambda g, x, y: mul(g, div(neg(x), add(mul(x, x), mul(y, y)))))
defjvp(rem_p, lambda g, x, y: g,
       lambda g, x, y: mul(g, neg(trunc_p.bind(div(x, y)))))
# Ties of max/min split the derivative evenly between the arguments, as JAX does.
defjvp(max_p, lambda g, x, y: _tie_pick(gt_p, g, x, y),
       lambda g, x, y: _tie_pick(gt_p, g, y, x))
defjvp(min_p, lambda g, x, y: _tie_pick(lt_p, g, x, y),
       lambda g, x, y: _tie_pick(lt_p, g, y, x))
deflinear(neg_p, lambda ct, x: [neg(ct)])
deflinear(conj_p, lambda ct, x: [conj_p.bind(ct)])
# Of a real input, real is the identity and imag is zero: their cotangents stay real.
deflinear(real_p, lambda ct, x: [complex_p.bind(ct, mul(ct, 0))
                                 if x.aval.dtype.kind == "c" else ct])
deflinear(imag_p, lambda ct, x: [complex_p.bind(mul(ct, 0), neg(ct))
                                 if x.aval.dtype.kind == "c" else mul(ct, 0)])
defjvp(complex_p, lambda g, x, y: g, lambda g, x, y: mul(g, 1j))
complex_p.transpose = lambda ct, x, y: [
    unbroadcast(real_p.bind(ct), x.aval) if is_undefined(x) else None,
    unbroadcast(neg(imag_p.bind(ct)), y.aval) if is_undefined(y) else None]
def _sub_jvp(one_sided):
    """With both tangents present, ``sub`` of them (one equation, broadcasting as the
    primal did) rather than ``add`` of one and ``neg`` of the other; else ``one_sided``."""
    def jvp(primals, tangents, **params):
        tx, ty = tangents
        if type(tx) is Zero or type(ty) is Zero:
            return one_sided(primals, tangents, **params)
        out = bind_primal(sub_p, primals, params)
        oaval = get_aval(out)
        if not is_differentiable(oaval):
            return out, Zero(tangent_aval(oaval))
        return out, fit(sub(tx, ty), oaval)
    sub_p.jvp = jvp


defjvp(add_p, lambda g, x, y: g, lambda g, x, y: g)   # one add of the two tangents
add_p.transpose = lambda ct, x, y: [unbroadcast(ct, x.aval) if is_undefined(x) else None,
                                    unbroadcast(ct, y.aval) if is_undefined(y) else None]
_sub_jvp(defjvp(sub_p, lambda g, x, y: g, lambda g, x, y: neg(g)))
sub_p.transpose = lambda ct, x, y: [unbroadcast(ct, x.aval) if is_undefined(x) else None,
                                    unbroadcast(neg(ct), y.aval) if is_undefined(y) else None]


def _abs_jvp(g, x):
    if np.dtype(get_aval(x).dtype).kind == "c":
        ax = abs_p.bind(x)
        safe = select(eq_p.bind(ax, 0), add(ax, 1), ax)
        return div(real_p.bind(mul(conj_p.bind(x), g)), safe)
    # Slope +1 at x = 0 and -0 (JAX's convention); a select, so a NaN x leaks no NaN.
    return select(ge_p.bind(x, 0), g, neg(g))


def _tie_pick(strict, g, x, y):
    """g where x wins strictly, g/2 on a tie, 0 where it loses or is NaN (the weight in
    g's dtype, so that a float32 ReLU builds no float64 temporaries)."""
    from xnp.lax._selection import tie_weight_p
    weight = tie_weight_p.bind(x, y, less=strict is lt_p, dtype=get_aval(g).dtype)
    return mul(g, weight)


def _pow_dx(g, x, y):
    # y * x**(y-1), 0 where x == y == 0 (x**0 has zero derivative at 0) with a safe exponent
    # (higher derivatives 0, not NaN); kept at y == 0 elsewhere (d/dy there is 1/x).
    y_is_0 = eq_p.bind(y, 0)
    both_0 = select(y_is_0, eq_p.bind(x, 0), y_is_0)
    d = mul(y, pow_p.bind(x, select(both_0, np.ones((), get_aval(y).dtype), sub(y, 1))))
    return mul(g, select(both_0, _zero_of(d), d))


def _pow_dy(g, x, y):
    # log(x) * x**y, taken as 0 * x**y where x == 0: 0 for y >= 0 (x**y is constant 0
    # past y = 0), NaN for y < 0 (constant inf), as JAX.
    ans = pow_p.bind(x, y)
    safe_x = select(eq_p.bind(x, 0), add(x, 1), x)
    return mul(g, mul(log(safe_x), ans))


def _zero_of(v):
    """A 0-d zero of ``v``'s dtype (``v * 0`` would keep v's NaN and inf as NaN)."""
    return np.zeros((), get_aval(v).dtype)


def _mul_transpose(ct, x, y):
    # Transposes use the bilinear pairing real(sum(u * v)): no conjugation (as JAX).
    if is_undefined(x):
        return [unbroadcast(mul(ct, y), x.aval), None]
    return [None, unbroadcast(mul(x, ct), y.aval)]


def _div_transpose(ct, x, y):
    return [unbroadcast(div(ct, y), x.aval), None]


def _bilinear_mul_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    out = bind_primal(mul_p, primals, {})
    oaval = get_aval(out)
    total = Zero(tangent_aval(oaval))
    if type(tx) is not Zero:
        total = add_tangents(total, fit(mul(tx, y), oaval))
    if type(ty) is not Zero:
        total = add_tangents(total, fit(mul(x, ty), oaval))
    return out, total


mul_p.jvp = _bilinear_mul_jvp
mul_p.transpose = _mul_transpose
# d(x/y)/dy = -(x/y)/y: the quotient is reused, and the sign goes into the coefficient so
# that the tangent costs one linear equation.
defjvp_ans(div_p, lambda g, ans, x, y: div(g, y),
           lambda g, ans, x, y: mul(g, neg(div(ans, y))))
div_p.transpose = _div_transpose


# --- batching: every primitive here broadcasts like a NumPy ufunc ------------------------------
from xnp.lax._batch_util import batch_elementwise  # noqa: E402

for _p in [v for v in dict(globals()).values() if isinstance(v, type(add_p))]:
    batch_elementwise(_p)


# --- lowering to StableHLO ----------------------------------------------------------------------
from xnp.lax import _lower_complex as lc  # noqa: E402
from xnp.lax import _lower_complex_special as lcs  # noqa: E402
from xnp.lax._lower_util import (  # noqa: E402
    floor_divide,
    in_complex128,
    in_float64,
    int_divmod,
    is_float,
    is_nan,
    lower_comparison,
    lower_ufunc,
    make_complex,
    np_compare,
    np_maximum,
    np_minimum,
    on_floats,
    op,
    parts,
    real_dtype,
    signbit,
)


def _full(ctx, like, value, dtype=None):
    return ctx.full(like.shape, value, dtype or like.dtype)


def _on_bool(name, bool_name):
    """``name``, or ``bool_name`` on booleans (NumPy's add is ``or`` there, mul ``and``)."""
    return lambda ctx, x, y: ctx.binary(bool_name if x.dtype == np.bool_ else name, x, y)


def _sign(ctx, x):
    zero = _full(ctx, x, 0)
    if x.dtype.kind == "u":
        return ctx.convert(ctx.compare(x, zero, "NE"), x.dtype)
    if x.dtype.kind == "c":
        return lc.sign(ctx, x)
    s = ctx.unary("sign", x)
    return s if x.dtype.kind == "i" else ctx.select(ctx.compare(x, zero, "EQ"), zero, s)


def _abs(ctx, x):
    if x.dtype.kind == "c":
        return lc.modulus(ctx, x)
    return x if x.dtype.kind in "ub" else ctx.unary("abs", x)


def _trunc(ctx, x):
    neg = ctx.compare(x, _full(ctx, x, 0), "LT")
    return ctx.select(neg, ctx.unary("ceil", x), ctx.unary("floor", x))


def _on_complex(real_fn, parts_fn):
    """``real_fn`` for real operands, the parts function ``parts_fn`` for complex ones."""
    complex_fn = lcs.complex_fn(parts_fn)
    return lambda ctx, x: complex_fn(ctx, x) if x.dtype.kind == "c" else real_fn(ctx, x)


_exp = _on_complex(op("exponential"), lcs.cexp)


def _expm1(ctx, x):
    return lc.expm1(ctx, x) if x.dtype.kind == "c" else ctx.unary("exponential_minus_one", x)


def _exp2(ctx, x):
    if x.dtype.kind == "c":     # scaled in the operand's precision, as NumPy
        return in_complex128(_exp)(ctx, lc.scale(ctx, x, np.log(2)))
    return ctx.binary("power", _full(ctx, x, 2), x)


def _log_base(base):
    def fn(ctx, x):
        if x.dtype.kind == "c":
            return lc.scale(ctx, _log(ctx, x), 1 / np.log(base))
        x = ctx.convert(x, np.float64)
        r = ctx.binary("divide", ctx.unary("log", x), _full(ctx, x, np.log(base)))
        # Exact at exact powers of the base: log10(1000.0) is 3.0, not 2.9999999999999996.
        k = ctx.unary("round_nearest_even", r)
        exact = ctx.compare(ctx.binary("power", _full(ctx, x, base), k), x, "EQ")
        return ctx.select(exact, k, r)
    return fn


def _logistic(ctx, x):
    """As the eager formula: 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below."""
    one, e = _full(ctx, x, 1), ctx.unary("exponential", x)
    pos = ctx.binary("divide", one, ctx.binary(
        "add", one, ctx.unary("exponential", ctx.unary("negate", x))))
    neg = ctx.binary("divide", e, ctx.binary("add", one, e))
    return ctx.select(np_compare(ctx, x, _full(ctx, x, 0), "GE"), pos, neg)


def _is_finite(ctx, x):
    if x.dtype.kind == "c":
        return ctx.binary("and", *(_is_finite(ctx, p) for p in parts(ctx, x)))
    if is_float(x.dtype):
        return ctx.op("stablehlo.is_finite", [x], (x.shape, np.bool_))
    return _full(ctx, x, True, np.bool_)


def _conj(ctx, x):
    if x.dtype.kind != "c":
        return x
    re, im = parts(ctx, x)
    return make_complex(ctx, re, ctx.unary("negate", im))


def _rem(ctx, x, y):
    return int_divmod(ctx, x, y)[1] if x.dtype.kind in "iu" else \
        ctx.binary("remainder", x, y)


def _div(ctx, x, y):
    if x.dtype.kind == "c":
        return lc.divide(ctx, x, y)
    if any(a.dtype == np.bool_ for a in ctx.avals_in):
        # XLA simplifies convert(bool) / broadcast(convert(bool)) to 0 at 0 / 0 (not NaN).
        y = ctx.op("stablehlo.optimization_barrier", [y], (y.shape, y.dtype))
    return ctx.binary("divide", x, y)


_sqrt = lcs.fixed(lambda ctx, x: lc.sqrt(ctx, x) if x.dtype.kind == "c" else
                  ctx.unary("sqrt", x), "sqrt")
_sin, _cos, _tan = (_on_complex(op(n), f) for n, f in (
    ("sine", lcs.csin), ("cosine", lcs.ccos), ("tan", lcs.ctan)))
_sinh, _cosh = (_on_complex(in_float64(op(n)), f) for n, f in (
    ("chlo.sinh", lcs.csinh), ("chlo.cosh", lcs.ccosh)))
_tanh = _on_complex(op("tanh"), lcs.ctanh)


def _rsqrt(ctx, x):
    return ctx.unary("rsqrt", x) if x.dtype.kind != "c" else \
        lc.divide(ctx, _full(ctx, x, 1), _sqrt(ctx, x))


def _pow(ctx, x, y):
    if x.dtype.kind == "c":
        return lc.power(ctx, x, y)
    if x.dtype.kind not in "iu":
        return ctx.binary("power", x, y)
    # XLA's integer power reads only the exponent's low 6 bits (0**64 gave 1), and unsigned
    # ones as signed: XLA for y & 63, times x**(2**b) for each higher bit b set (wrapping as
    # NumPy's loop); a negative exponent (NumPy raises) keeps XLA's 0 or +-1.
    one, base, zero = _full(ctx, x, 1), x, _full(ctx, y, 0)
    acc = ctx.binary("power", x, ctx.binary("and", y, _full(ctx, y, 63)))
    for b in range(1, 8 * x.dtype.itemsize - (x.dtype.kind == "i")):
        x = ctx.binary("multiply", x, x)
        if b >= 6:
            bit = ctx.compare(ctx.binary("and", y, _full(ctx, y, 1 << b)), zero, "NE")
            acc = ctx.binary("multiply", acc, ctx.select(bit, x, one))
    return acc if x.dtype.kind == "u" else \
        ctx.select(ctx.compare(y, zero, "LT"), ctx.binary("power", base, y), acc)


def _square(ctx, x):
    return ctx.binary("and" if x.dtype == np.bool_ else "multiply", x, x)


def _reciprocal(ctx, x):
    """NumPy's loops: 1 / x of the parts of a complex x by the larger one (so 1 / 0 is
    nan + nan j), 1 / x for floats, and C's integer division for integers."""
    if x.dtype.kind == "c":
        re, im = parts(ctx, x)
        div, add, mul = (lambda p, q, n=n: ctx.binary(n, p, q)
                         for n in ("divide", "add", "multiply"))
        one = _full(ctx, re, 1)
        r1 = div(im, re)                                # |im| <= |re|
        d1 = add(re, mul(im, r1))
        r2 = div(re, im)                                # otherwise, or a NaN
        d2 = add(mul(re, r2), im)
        first = ctx.compare(ctx.unary("abs", im), ctx.unary("abs", re), "LE")
        out_re = ctx.select(first, div(one, d1), div(r2, d2))
        out_im = ctx.select(first, div(ctx.unary("negate", r1), d1),
                            div(ctx.unary("negate", one), d2))
        return make_complex(ctx, out_re, out_im)
    if is_float(x.dtype):
        return ctx.binary("divide", _full(ctx, x, 1), x)
    one, zero = _full(ctx, x, 1), _full(ctx, x, 0)
    # Only +-1 survive; 1 / 0 is what the hardware division gives NumPy (the minimum of
    # 32- and 64-bit signed integers, 0 otherwise).
    keep = ctx.compare(x, one, "EQ")
    if x.dtype.kind == "i":
        keep = ctx.binary("or", keep, ctx.compare(x, _full(ctx, x, -1), "EQ"))
    at_zero = _full(ctx, x, np.iinfo(x.dtype).min if x.dtype.kind == "i" and
                    x.dtype.itemsize >= 4 else 0)
    return ctx.select(keep, x, ctx.select(ctx.compare(x, zero, "EQ"), at_zero, zero))


# Functions with a branch cut, whose side a signed zero selects.
_log, _acos, _acosh = (lcs.fixed(lc.symmetric(op(n)), k) for n, k in (
    ("log", "log"), ("chlo.acos", "acos"), ("chlo.acosh", "acosh")))
_asin, _asinh = (lcs.fixed(lc.symmetric(op(n), odd=True), k) for n, k in (
    ("chlo.asin", "asin"), ("chlo.asinh", "asinh")))
_log1p = _on_complex(op("log_plus_one"), lcs.clog1p)
_atan, _atanh = (_on_complex(op(n), f) for n, f in (
    ("chlo.atan", lcs.catan), ("chlo.atanh", lcs.catanh)))


# Complex64 in complex128 (not log2, log10: NumPy scales a complex64 log in float32; exp2
# and log1p widen after the first step themselves).
_TRANSCENDENTAL = {exp_p, expm1_p, log_p, sqrt_p, rsqrt_p, sin_p, cos_p,
                   tan_p, asin_p, acos_p, atan_p, sinh_p, cosh_p, tanh_p, asinh_p, acosh_p,
                   atanh_p, logistic_p}
for _prim, _fn in [
        (add_p, _on_bool("add", "or")), (sub_p, op("subtract")),
        (mul_p, _on_bool("multiply", "and")), (div_p, _div),
        (neg_p, op("negate")), (sign_p, _sign), (abs_p, _abs),
        (floor_p, on_floats(op("floor"))), (ceil_p, on_floats(op("ceil"))),
        (round_p, on_floats(op("round_nearest_even"))), (trunc_p, on_floats(_trunc)),
        (exp_p, _exp), (exp2_p, _exp2), (expm1_p, _expm1),
        (log_p, _log), (log2_p, _log_base(2)), (log10_p, _log_base(10)),
        (log1p_p, _log1p), (sqrt_p, _sqrt), (rsqrt_p, _rsqrt),
        (cbrt_p, op("cbrt")), (sin_p, _sin), (cos_p, _cos), (tan_p, _tan),
        (asin_p, _asin), (acos_p, _acos), (atan_p, _atan),
        (sinh_p, _sinh), (cosh_p, _cosh), (tanh_p, _tanh),
        (asinh_p, _asinh), (acosh_p, _acosh), (atanh_p, _atanh),
        (logistic_p, _logistic),
        (is_finite_p, _is_finite), (is_nan_p, is_nan), (signbit_p, signbit),
        (conj_p, _conj),
        (floor_divide_p, floor_divide), (rem_p, _rem), (pow_p, _pow),
        (float_power_p, _pow), (reciprocal_p, _reciprocal), (square_p, _square),
        (max_p, np_maximum), (min_p, np_minimum), (atan2_p, op("atan2")),
        (nextafter_p, op("chlo.next_after"))]:
    lower_ufunc(_prim, in_complex128(_fn) if _prim in _TRANSCENDENTAL else _fn)
for _prim, _fn in [(eq_p, "EQ"), (ne_p, "NE"), (lt_p, "LT"), (le_p, "LE"), (gt_p, "GT"),
                   (ge_p, "GE")]:
    lower_comparison(_prim, _fn)
del _prim, _fn


def _real_lower(ctx, x):
    return parts(ctx, x)[0] if x.dtype.kind == "c" else x


def _imag_lower(ctx, x):
    return parts(ctx, x)[1] if x.dtype.kind == "c" else _full(ctx, x, 0)


def _complex_lower(ctx, x, y):
    out = ctx.avals_out[0]
    x, y = (ctx.broadcast(ctx.convert(v, real_dtype(out.dtype)), out.shape) for v in (x, y))
    return make_complex(ctx, x, y)


def _integer_pow_lower(ctx, x, *, y: int):
    """Repeated squaring, in float64 (complex128) for narrower floats; a negative power of a
    float is a power of its reciprocal."""
    dt = x.dtype
    if dt == np.bool_:
        return x if y else _full(ctx, x, True)
    if dt.kind in "iu":
        if y < 0:                       # NumPy raises; XLA's integer power gives 0 or +-1
            return ctx.binary("power", x, _full(ctx, x, y))
    else:
        x = ctx.convert(x, np.complex128 if dt.kind == "c" else np.float64)
        if y < 0:
            x = _div(ctx, _full(ctx, x, 1), x)
    acc, n = None, abs(y)
    while n:
        if n & 1:
            acc = x if acc is None else ctx.binary("multiply", acc, x)
        n >>= 1
        if n:
            x = ctx.binary("multiply", x, x)
    return ctx.convert(_full(ctx, x, 1) if acc is None else acc, dt)


real_p.lower, imag_p.lower, complex_p.lower = _real_lower, _imag_lower, _complex_lower
integer_pow_p.lower = _integer_pow_lower


# The selection primitives (select_n, clamp) live in _selection.py, which imports this
# module; the rules above look select_n_p up when they run.
from xnp.lax import _selection  # noqa: E402
