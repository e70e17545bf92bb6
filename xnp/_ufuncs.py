"""NumPy's ufuncs under their NumPy names, as :class:`ufunc` objects built on primitives.

Each ufunc is a function on raw values (one primitive, or a few composed) wrapped in an
object that provides NumPy's calling convention: ``out=``, ``where=``, ``dtype=``,
``casting=``, and the ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and ``at``
methods (``xnp._ufunc_methods`` covers the binary ufuncs without a reduction primitive).
Composite ufuncs first cast their inputs to the loop dtypes NumPy itself would choose, so result
dtypes (and TypeErrors for unsupported types) are NumPy's.
"""

from __future__ import annotations

import math

import numpy as np

from transforms.core import Primitive, Tracer
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import python_scalar_cast_dtype
from xnp._ufunc_fast import MISSING, fast_callable
from xnp._util import cast_v, dtype_of, raw
from xnp._views import refresh, store_value, view_info, write_back, write_numpy_out
from xnp._writeable import check_writeable
from xnp.lax._base import loop_dtypes

_P = lax  # primitives are module attributes of xnp.lax: lax.add_p, ...


class _UfuncMeta(type):
    def __instancecheck__(cls, instance) -> bool:
        # xnp.add etc. are plain functions for speed (see _fast_callable) that carry their
        # ufunc object: isinstance(xnp.add, xnp.ufunc) holds, as in NumPy.
        return type.__instancecheck__(cls, instance) or type.__instancecheck__(
            cls, getattr(instance, "ufunc", None))


class ufunc(metaclass=_UfuncMeta):
    """A NumPy-style universal function over xnp arrays (and tracers)."""

    __slots__ = ("__name__", "nin", "nout", "_fn", "_prim", "_np", "identity", "__dict__")

    def __init__(self, name: str, nin: int, fn, np_ufunc, identity=None):
        self.__name__, self.nin, self.nout = name, nin, np_ufunc.nout
        self._prim = fn if isinstance(fn, Primitive) else None
        self._fn = fn.bind if self._prim is not None else fn
        self._np, self.identity = np_ufunc, identity
        self.__doc__ = (f"xnp.{name}: NumPy's ``{np_ufunc.__name__}`` built on primitives; "
                        "same broadcasting, NEP 50 dtypes, out=/where=/dtype= arguments.")

    @property
    def nargs(self) -> int:
        return self.nin + self.nout

    def __repr__(self):
        return f"<xnp.ufunc '{self.__name__}'>"

    def __call__(self, *args, out=MISSING, where=True, dtype=None, casting="same_kind",
                 order="K", subok=True, signature=None):
        from xnp import _ufunc_args
        args, out = _ufunc_args.split_args(self, args, out, MISSING)
        as_array = out is Ellipsis
        if out is MISSING or as_array:
            if where is not True and out is MISSING:
                _ufunc_args.warn_where_without_out()
            out = None
        sig = None if signature is None else \
            _ufunc_args.signature_dtypes(self, signature, dtype)
        other = _override(args + (out if isinstance(out, tuple) else (out,)))
        if other is not None:
            kwargs = {"out": out} if out is not None else {}
            if where is not True:
                kwargs["where"] = where
            if dtype is not None:
                kwargs["dtype"] = dtype
            return type(other).__array_ufunc__(other, self, "__call__", *args, **kwargs)
        values = [raw(a) for a in args]
        if out is None and where is True and dtype is None and sig is None and \
                casting not in ("no", "equiv"):
            result = self._fn(*values)
            finish = _as_array if as_array else wrap_scalar_result
            return finish(result) if self.nout == 1 else tuple(map(finish, result))
        return _general_call(self, values, out, where, dtype, casting, sig, as_array)

    # --- methods ------------------------------------------------------------------------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=True):
        from xnp import _reductions as red
        name = _REDUCERS.get(self.__name__)
        if name is None or (initial is not None and name in ("all", "any")):
            from xnp import _ufunc_methods
            return _ufunc_methods.reduce(self, array, axis, dtype, out, keepdims, initial,
                                         where)
        kwargs = {"axis": axis, "keepdims": keepdims, "out": out}
        if name in ("sum", "prod"):
            kwargs["dtype"] = dtype
        if initial is not None:
            kwargs["initial"] = initial
        if where is not True:
            kwargs["where"] = where
        return getattr(red, name)(array, **kwargs)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running results of the ufunc along ``axis``, as NumPy's ``ufunc.accumulate``."""
        from xnp import _reductions as red
        name = _ACCUMULATORS.get(self.__name__)
        if name is None:
            from xnp import _ufunc_methods
            return _ufunc_methods.accumulate(self, array, axis, dtype, out)
        ndim = red.aval_of(array).ndim
        if ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        if axis is None:
            if ndim > 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = 0
        if name in ("cumsum", "cumprod"):
            return getattr(red, name)(array, axis=axis, dtype=dtype, out=out)
        return red.accumulate_along(f"{self.__name__}.accumulate", name, array, axis,
                                    dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """NumPy's ``ufunc.reduceat`` (the indices must be concrete)."""
        from xnp import _ufunc_methods
        return _ufunc_methods.reduceat(self, array, indices, axis, dtype, out)

    def outer(self, a, b, **kwargs):
        from xnp._manipulation import expand_dims
        a, b = wrap(raw(a)), wrap(raw(b))
        a = expand_dims(a, tuple(range(a.ndim, a.ndim + b.ndim)))
        return self(a, b, **kwargs)

    def at(self, a, indices, b=None):
        """In-place unbuffered operation: rebinds the handle ``a`` to the result."""
        from xnp._ufunc_at import ufunc_at
        return ufunc_at(self, a, indices, b)

    @property
    def types(self) -> list:
        """NumPy's loops for this ufunc (``'ff->f'``, ...), less the object and datetime
        ones xnp has no dtype for."""
        return [t for t in self._np.types if not set(t) & set("OMm")]

    @property
    def ntypes(self) -> int:
        return len(self.types)

    signature = None    # elementwise: no core dimensions (NumPy's gufuncs have one)


_REDUCERS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
             "logical_and": "all", "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}
_ACCUMULATORS = {"add": "cumsum", "multiply": "cumprod", "maximum": "max", "minimum": "min",
                 "fmax": "fmax", "fmin": "fmin", "logaddexp": "logaddexp",
                 "logical_and": "all", "logical_or": "any"}


def _casting_error(kind: str, uf, casting, from_, to, index: int = 0) -> TypeError:
    """NumPy's own exception (``_UFuncInputCastingError`` / ``_UFuncOutputCastingError``,
    TypeErrors), so that code catching ``numpy.exceptions``' classes catches xnp's too."""
    try:
        from numpy._core import _exceptions
        return getattr(_exceptions, f"_UFunc{kind}CastingError")(uf._np, casting, from_, to,
                                                                  index)
    except (ImportError, AttributeError, TypeError):    # NumPy's private classes moved
        return TypeError(f"Cannot cast ufunc '{uf.__name__}' {kind.lower()} from {from_!r} "
                         f"to {to!r} with casting rule '{casting}'")


_OWN_TYPES = (ndarray, np.ndarray, np.generic, int, float, complex, bool, list, tuple)


def _override(args):
    """The first argument whose class overrides ufuncs (``__array_ufunc__``, as
    ``xnp.ma.MaskedArray`` does), or None: NumPy's protocol, so such objects handle
    ``xnp.sin(x)`` themselves."""
    for a in args:
        if not isinstance(a, _OWN_TYPES) and a is not None and \
                getattr(type(a), "__array_ufunc__", None) is not None and \
                not isinstance(a, Tracer):
            return a
    return None


_PY_SCALARS = (int, float, complex, bool)   # weak: cast to a signature's dtypes unchecked


def _as_array(r):
    """``out=...``: the result as an array also when it is 0-d."""
    return wrap(np.asarray(r) if isinstance(r, np.generic) else r)


def _general_call(uf, values, out, where, dtype, casting, sig=None, as_array=False):
    from xnp._util import where_v
    out_dtypes = [None] * uf.nout
    if sig is not None:
        ins, out_dtypes = sig[:uf.nin], sig[uf.nin:]
        if all(d is None for d in ins):       # outputs only: the loop of that dtype
            dtype = out_dtypes[0]
        else:
            for i, (v, dt) in enumerate(zip(values, ins)):
                if dt is not None and type(v) not in _PY_SCALARS and \
                        not np.can_cast(dtype_of(v), dt, casting=casting):
                    raise _casting_error("Input", uf, casting, dtype_of(v), dt, i)
            values = [v if dt is None else cast_v(v, dt) for v, dt in zip(values, ins)]
    if dtype is not None:
        dtype = np.dtype(dtype)
        for i, v in enumerate(values):
            # a Python scalar takes dtype's kind where it can (NEP 50), range-checked
            src = python_scalar_cast_dtype(v, dtype) if type(v) in _PY_SCALARS else \
                dtype_of(v)
            if not np.can_cast(src, dtype, casting=casting):
                raise _casting_error("Input", uf, casting, src, dtype, i)
        cast = [cast_v(v, dtype) for v in values]
        values.clear()
        values = cast
    elif casting in ("no", "equiv") and sig is None:
        from xnp._ufunc_args import check_loop_inputs
        check_loop_inputs(uf, values, casting, _casting_error)
    result = uf._fn(*values)
    values.clear()      # the inputs' buffers: an out= that is also an input may then be
    del values          # written in place (xnp._views.store_value), so its views see it
    results = [result] if uf.nout == 1 else list(result)
    results = [r if dt is None else cast_v(r, dt) for r, dt in zip(results, out_dtypes)]
    outs = (out,) if isinstance(out, (ndarray, np.ndarray)) or out is None else tuple(out)
    if len(outs) != uf.nout:
        raise ValueError(f"{uf.__name__}: out must have {uf.nout} arrays")
    final = []
    for r, o in zip(results, outs):
        if o is None:
            if where is not True:
                r = where_v(raw(where), r, cast_v(0, dtype_of(r)))
            final.append(_as_array(r) if as_array else wrap_scalar_result(r))
            continue
        if type(o) is not ndarray and type(o) is not np.ndarray:
            raise TypeError(f"{uf.__name__}: out must be an xnp array, got "
                            f"{type(o).__name__}")
        if not np.can_cast(dtype_of(r), o.dtype, casting=casting):
            raise _casting_error("Output", uf, casting, dtype_of(r), o.dtype)
        from xnp._util import broadcast_to_v
        r = broadcast_to_v(cast_v(r, o.dtype), o.shape)
        if type(o) is np.ndarray:            # a NumPy array from elsewhere: as NumPy
            if where is not True:
                r = where_v(raw(where), r, o)
            final.append(write_numpy_out(o, r, uf.__name__))
            continue
        view = view_info(o)
        if view is not None:
            refresh(o, view)
        if where is not True:
            r = where_v(raw(where), r, o._value)
        check_writeable(o, "output array")
        store_value(o, r)
        if view is not None:
            write_back(o, view)
        final.append(o)
    return final[0] if uf.nout == 1 else tuple(final)


def _in_loop(np_ufunc, *values):
    """Cast values to the input dtypes of NumPy's loop for ``np_ufunc``."""
    from transforms.core import get_aval
    dts = loop_dtypes(np_ufunc, *(get_aval(v) for v in values))
    for v, dt in zip(values, dts):
        if type(v) is int and dt.kind in "iu" and not np.iinfo(dt).min <= v <= np.iinfo(dt).max:
            raise OverflowError(f"Python integer {v} out of bounds for {dt.name}")
    return [cast_v(v, dt) for v, dt in zip(values, dts)]


# --- composite ufuncs on raw values ------------------------------------------------------------
B = lambda prim: prim  # a ufunc that is exactly one primitive  # noqa: E731


def _select(c, x, y):
    return lax.select_n_p.bind(c, y, x)


def _positive(x):
    (x,) = _in_loop(np.positive, x)
    return x


def _copysign(x, y):
    x, y = _in_loop(np.copysign, x, y)
    ax = lax.abs_p.bind(x)
    return _select(lax.signbit_p.bind(y), lax.neg_p.bind(ax), ax)


def _remainder(x, y):
    x, y = _in_loop(np.remainder, x, y)
    r = lax.rem_p.bind(x, y)
    if dtype_of(r).kind == "b":
        return r
    wrong_sign = lax.and_p.bind(lax.ne_p.bind(r, 0),
                                lax.ne_p.bind(lax.lt_p.bind(r, 0), lax.lt_p.bind(y, 0)))
    r = _select(wrong_sign, lax.add_p.bind(r, y), r)
    if dtype_of(r).kind == "f":   # a zero remainder takes the sign of the divisor
        r = _select(lax.eq_p.bind(r, 0), _copysign(r, y), r)
    return r


def _power(x, y):
    # x ** 2 with a Python int exponent on inexact x: integer_pow has the cheaper
    # derivative (no log x term) and is what NumPy computes for it anyway.
    if type(y) is int and dtype_of(x).kind in "fc":
        return lax.integer_pow_p.bind(x, y=y)
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
    ax, ay = lax.abs_p.bind(x), lax.abs_p.bind(y)
    big, small = lax.max_p.bind(ax, ay), lax.min_p.bind(ax, ay)
    safe = _select(lax.eq_p.bind(big, 0), lax.add_p.bind(big, 1), big)
    ratio = lax.div_p.bind(small, safe)
    r = lax.mul_p.bind(big, lax.sqrt_p.bind(lax.add_p.bind(1, lax.mul_p.bind(ratio, ratio))))
    inf = lax.or_p.bind(lax.eq_p.bind(ax, np.inf), lax.eq_p.bind(ay, np.inf))
    return _select(inf, cast_v(np.inf, dtype_of(r)), r)


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


def _logical(prim):
    def fn(*xs):
        bools = [lax.ne_p.bind(x, 0) if dtype_of(x).kind != "b" else x for x in xs]
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


def _ldexp(x, e):
    x, e = _in_loop(np.ldexp, x, e)
    return lax.mul_p.bind(x, lax.exp2_p.bind(cast_v(e, dtype_of(x))))


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
    frac = _copysign(lax.sub_p.bind(finite, lax.trunc_p.bind(finite)), x)
    return frac, whole


def _spacing(x):
    (x,) = _in_loop(np.spacing, x)
    toward = _copysign(cast_v(np.inf, dtype_of(x)), x)
    # Piecewise constant in x: its derivative is zero, not that of the subtraction.
    x = lax.stop_gradient_p.bind(x)
    return lax.sub_p.bind(lax.nextafter_p.bind(x, toward), x)


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


# --- the table: NumPy name, raw function, the NumPy ufunc it mirrors --------------------------
_TABLE = {
    "absolute": (B(lax.abs_p), np.absolute), "add": (B(lax.add_p), np.add),
    "arccos": (B(lax.acos_p), np.arccos), "arccosh": (B(lax.acosh_p), np.arccosh),
    "arcsin": (B(lax.asin_p), np.arcsin), "arcsinh": (B(lax.asinh_p), np.arcsinh),
    "arctan": (B(lax.atan_p), np.arctan), "arctan2": (B(lax.atan2_p), np.arctan2),
    "arctanh": (B(lax.atanh_p), np.arctanh),
    "bitwise_and": (B(lax.and_p), np.bitwise_and), "bitwise_or": (B(lax.or_p), np.bitwise_or),
    "bitwise_xor": (B(lax.xor_p), np.bitwise_xor),
    "bitwise_count": (B(lax.population_count_p), np.bitwise_count),
    "cbrt": (B(lax.cbrt_p), np.cbrt), "ceil": (B(lax.ceil_p), np.ceil),
    "conjugate": (B(lax.conj_p), np.conjugate), "copysign": (_copysign, np.copysign),
    "cos": (B(lax.cos_p), np.cos), "cosh": (B(lax.cosh_p), np.cosh),
    "deg2rad": (_scaled(np.deg2rad, math.pi, 180), np.deg2rad),
    "degrees": (_scaled(np.degrees, 180, math.pi), np.degrees),
    "divide": (B(lax.div_p), np.divide), "divmod": (_divmod, np.divmod),
    "equal": (B(lax.eq_p), np.equal), "exp": (B(lax.exp_p), np.exp),
    "exp2": (B(lax.exp2_p), np.exp2), "expm1": (B(lax.expm1_p), np.expm1),
    "fabs": (_fabs, np.fabs), "float_power": (_float_power, np.float_power),
    "floor": (B(lax.floor_p), np.floor),
    "floor_divide": (B(lax.floor_divide_p), np.floor_divide),
    "fmax": (_fmax_fmin(lax.max_p), np.fmax), "fmin": (_fmax_fmin(lax.min_p), np.fmin),
    "fmod": (B(lax.rem_p), np.fmod), "frexp": (_frexp, np.frexp),
    "gcd": (B(lax.gcd_p), np.gcd), "greater": (B(lax.gt_p), np.greater),
    "greater_equal": (B(lax.ge_p), np.greater_equal), "heaviside": (_heaviside, np.heaviside),
    "hypot": (_with_custom_jvp(_hypot, _hypot_tangent, np.hypot), np.hypot),
    "invert": (B(lax.not_p), np.invert),
    "isfinite": (B(lax.is_finite_p), np.isfinite), "isinf": (_isinf, np.isinf),
    "isnan": (B(lax.is_nan_p), np.isnan), "lcm": (_lcm, np.lcm), "ldexp": (_ldexp, np.ldexp),
    "left_shift": (B(lax.shift_left_p), np.left_shift), "less": (B(lax.lt_p), np.less),
    "less_equal": (B(lax.le_p), np.less_equal), "log": (B(lax.log_p), np.log),
    "log10": (B(lax.log10_p), np.log10), "log1p": (B(lax.log1p_p), np.log1p),
    "log2": (B(lax.log2_p), np.log2),
    "logaddexp": (_with_custom_jvp(_logaddexp_base(lax.exp_p, 1),
                                   _logaddexp_tangent(lax.exp_p), np.logaddexp),
                  np.logaddexp),
    "logaddexp2": (_with_custom_jvp(_logaddexp_base(lax.exp2_p, 1 / math.log(2)),
                                    _logaddexp_tangent(lax.exp2_p), np.logaddexp2),
                   np.logaddexp2),
    "logical_and": (_logical(lax.and_p), np.logical_and),
    "logical_not": (_logical(lax.not_p), np.logical_not),
    "logical_or": (_logical(lax.or_p), np.logical_or),
    "logical_xor": (_logical(lax.xor_p), np.logical_xor),
    "maximum": (B(lax.max_p), np.maximum), "minimum": (B(lax.min_p), np.minimum),
    "modf": (_modf, np.modf), "multiply": (B(lax.mul_p), np.multiply),
    "negative": (B(lax.neg_p), np.negative),
    "nextafter": (B(lax.nextafter_p), np.nextafter),
    "not_equal": (B(lax.ne_p), np.not_equal), "positive": (_positive, np.positive),
    "power": (_power, np.power),
    "rad2deg": (_scaled(np.rad2deg, 180, math.pi), np.rad2deg),
    "radians": (_scaled(np.radians, math.pi, 180), np.radians),
    "reciprocal": (B(lax.reciprocal_p), np.reciprocal), "remainder": (_remainder, np.remainder),
    "right_shift": (_right_shift, np.right_shift), "rint": (B(lax.round_p), np.rint),
    "sign": (B(lax.sign_p), np.sign),
    "signbit": (B(lax.signbit_p), np.signbit), "sin": (B(lax.sin_p), np.sin),
    "sinh": (B(lax.sinh_p), np.sinh), "spacing": (_spacing, np.spacing),
    "sqrt": (B(lax.sqrt_p), np.sqrt), "square": (B(lax.square_p), np.square),
    "subtract": (B(lax.sub_p), np.subtract),
    "tan": (B(lax.tan_p), np.tan), "tanh": (B(lax.tanh_p), np.tanh),
    "trunc": (B(lax.trunc_p), np.trunc),
}
_IDENTITY = {"add": 0, "multiply": 1, "logical_and": True, "logical_or": False,
             "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0}

UFUNCS = {name: ufunc(name, np_uf.nin, fn, np_uf, _IDENTITY.get(name, np_uf.identity))
          for name, (fn, np_uf) in _TABLE.items()}
_ALIASES = {
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_invert": "invert", "bitwise_not": "invert", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift", "conj": "conjugate", "mod": "remainder",
    "pow": "power", "true_divide": "divide",
}
UFUNCS.update({alias: UFUNCS[target] for alias, target in _ALIASES.items()})


_CALLABLES: dict = {}      # one function per ufunc, so aliases are the same object (NumPy)
for _uf in UFUNCS.values():
    if id(_uf) not in _CALLABLES:
        _CALLABLES[id(_uf)] = fast_callable(_uf, _override)
FUNCTIONS = {name: _CALLABLES[id(uf)] for name, uf in UFUNCS.items()}
globals().update(FUNCTIONS)
negative = FUNCTIONS["negative"]

__all__ = sorted(FUNCTIONS) + ["ufunc"]
