"""Elementwise primitives: one declaration each, NumPy ufunc semantics.

Every primitive here broadcasts its operands and resolves its dtype exactly as the NumPy
ufunc named in its declaration (NEP 50 for Python scalars), so ``add_p.bind(x, 2.0)`` is
``numpy.add(x, 2.0)`` eagerly and the same abstract value under tracing.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp._dtypes import result_dtype_of_avals
from xnp.lax import _special_impl as special
from xnp.lax._base import broadcast_shapes_cached, loop_dtypes, primitive, ufunc_primitive


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
erf_p = ufunc_primitive("erf", np.sin, impl=_float_impl(special.erf))
erfc_p = ufunc_primitive("erfc", np.sin, impl=_float_impl(special.erfc))
erf_inv_p = ufunc_primitive("erf_inv", np.sin, impl=_float_impl(special.erf_inv))
lgamma_p = ufunc_primitive("lgamma", np.sin, impl=_float_impl(special.lgamma))
digamma_p = ufunc_primitive("digamma", np.sin, impl=_float_impl(special.digamma))
is_finite_p = ufunc_primitive("is_finite", np.isfinite)
is_nan_p = ufunc_primitive("is_nan", np.isnan)
signbit_p = ufunc_primitive("signbit", np.signbit)
not_p = ufunc_primitive("not", np.invert)             # logical on bool, bitwise on ints
conj_p = ufunc_primitive("conj", np.conjugate)
population_count_p = ufunc_primitive("population_count", np.bitwise_count)


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
and_p = ufunc_primitive("and", np.bitwise_and)        # logical on bool
or_p = ufunc_primitive("or", np.bitwise_or)
xor_p = ufunc_primitive("xor", np.bitwise_xor)
shift_left_p = ufunc_primitive("shift_left", np.left_shift)
gcd_p = ufunc_primitive("gcd", np.gcd)
eq_p = ufunc_primitive("eq", np.equal)
ne_p = ufunc_primitive("ne", np.not_equal)
lt_p = ufunc_primitive("lt", np.less)
le_p = ufunc_primitive("le", np.less_equal)
gt_p = ufunc_primitive("gt", np.greater)
ge_p = ufunc_primitive("ge", np.greater_equal)


def _as_signedness(x, kind: str):
    x = np.asarray(x)
    if x.dtype.kind == kind or x.dtype.kind not in "iu":
        return x
    return x.view(np.dtype(f"{kind}{x.dtype.itemsize}"))


def _shift_right(kind):
    def impl(x, y):
        dt = loop_dtypes(np.right_shift, _aval(x), _aval(y))[-1]
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


def _aval(x):
    from transforms.core import get_aval
    return get_aval(x)


shift_right_arithmetic_p = ufunc_primitive("shift_right_arithmetic", np.right_shift,
                                           impl=_shift_right("i"))
shift_right_logical_p = ufunc_primitive("shift_right_logical", np.right_shift,
                                        impl=_shift_right("u"))


def _integer_pow_impl(x, *, y: int):
    return np.power(x, y)


def _integer_pow_eval(x, *, y: int):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


integer_pow_p = primitive("integer_pow", impl=_integer_pow_impl,
                          abstract_eval=_integer_pow_eval)

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def _complex_eval(x, y):
    dt = result_dtype_of_avals([x, y])
    if dt not in _COMPLEX_OF:
        raise TypeError(f"complex: operands must be float32 or float64, got "
                        f"{x.dtype.name} and {y.dtype.name}")
    shape = broadcast_shapes_cached((x.shape, y.shape))
    return ShapedArray(shape, _COMPLEX_OF[dt], x.weak_type and y.weak_type)


def _complex_impl(x, y):
    out_aval = _complex_eval(_aval(x), _aval(y))
    out = np.empty(out_aval.shape, out_aval.dtype)
    out.real, out.imag = x, y
    return out


complex_p = primitive("complex", impl=_complex_impl, abstract_eval=_complex_eval)


# --- selection ------------------------------------------------------------------------------
def _select_n_eval(which, *cases):
    if which.dtype.kind not in "bi":
        raise TypeError(f"select_n: selector must be bool or int, got {which.dtype.name}")
    if which.dtype.kind == "b" and len(cases) != 2:
        raise TypeError(f"select_n: a boolean selector needs 2 cases, got {len(cases)}")
    shape = broadcast_shapes_cached(tuple(a.shape for a in (which, *cases)))
    dt = result_dtype_of_avals(cases)
    return ShapedArray(shape, dt, all(c.weak_type for c in cases))


def _select_n_impl(which, *cases):
    dt = _select_n_eval(_aval(which), *map(_aval, cases)).dtype
    if len(cases) == 2:
        return np.asarray(np.where(which, cases[1], cases[0]), dtype=dt)
    return np.asarray(np.choose(which, cases), dtype=dt)


select_n_p = primitive("select_n", impl=_select_n_impl, abstract_eval=_select_n_eval)


def _clamp_eval(lo, x, hi):
    shape = broadcast_shapes_cached((lo.shape, x.shape, hi.shape))
    return ShapedArray(shape, result_dtype_of_avals([lo, x, hi]), x.weak_type)


def _clamp_impl(lo, x, hi):
    dt = _clamp_eval(_aval(lo), _aval(x), _aval(hi)).dtype
    return np.asarray(np.minimum(np.maximum(x, lo), hi), dtype=dt)


clamp_p = primitive("clamp", impl=_clamp_impl, abstract_eval=_clamp_eval)

__all__ = [name for name in dir() if name.endswith("_p")]
