"""Elementwise functions that are not ufuncs in NumPy: where, clip, nan_to_num, sinc,
rounding to decimals, complex parts, and closeness tests."""

from __future__ import annotations

import builtins
import math
import operator
import warnings

import numpy as np

from transforms.core import Tracer, concrete_or_error, is_eager
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import finfo, is_inexact, result_type
from xnp._util import cast_v, dtype_of, raw, shape_of, user_cast_v, where_v
from xnp._views import store_through, write_numpy_out
from xnp._writeable import check_writeable

__all__ = [
    "where", "clip", "nan_to_num", "sinc", "round", "around", "fix", "real", "imag",
    "angle", "isclose", "allclose", "array_equal", "array_equiv", "isreal", "iscomplex",
    "isrealobj", "iscomplexobj", "isneginf", "isposinf", "i0", "isscalar", "ndim", "shape",
    "size",
]


def where(condition, x=None, y=None, /) -> ndarray:
    """Elements of ``x`` where ``condition`` is true, else of ``y`` (NEP 50 promotion).

    With only ``condition`` it is ``nonzero(condition)``, whose output shape depends on
    the values (see :func:`xnp.nonzero` for the ``size=`` argument under jit).
    """
    if x is None and y is None:
        from xnp import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return wrap(where_v(raw(condition), raw(x), raw(y)))


def clip(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *, min=None, max=None,
         **kwargs) -> ndarray:
    """Limit values to ``[a_min, a_max]`` (either may be None), as :func:`numpy.clip`.

    NaN bounds propagate, as in NumPy; the result dtype follows NEP 50 over all three.
    """
    no = np._NoValue
    if a_min is no and a_max is no:
        lo, hi = min, max
    elif a_min is no or a_max is no:
        missing = "a_min" if a_min is no else "a_max"
        raise TypeError(f"clip() missing 1 required positional argument: '{missing}'")
    elif min is not None or max is not None:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` "
                         "are provided is forbidden.")
    else:
        lo, hi = a_min, a_max
    casting = kwargs.get("casting", "same_kind")
    if not isinstance(casting, str):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")
    v = raw(a)
    bounds = [raw(b) for b in (lo, hi) if b is not None]
    if dtype_of(v).kind in "biu" and any(
            type(b) in (float, complex) or type(b) not in (int, bool) and
            dtype_of(b).kind in "fc" for b in bounds):
        # an inexact bound makes an integer result inexact, and no range check is needed
        v = cast_v(v, result_type(v, *bounds))
        lo_b, hi_b = (None if b is None else raw(b) for b in (lo, hi))
    else:
        lo_b = None if lo is None else _int_bound(raw(lo), v, True)
        hi_b = None if hi is None else _int_bound(raw(hi), v, False)
    if lo is not None:
        v = lax.max_p.bind(v, lo_b)
    if hi is not None:
        v = lax.min_p.bind(v, hi_b)
    if lo is None and hi is None:
        v = lax.copy_p.bind(v)
    if out is not None and not np.can_cast(dtype_of(v), out.dtype, casting):
        raise _clip_cast_error(casting, dtype_of(v), out.dtype)
    return _out(v, out)


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _clip_cast_error(casting, from_, to) -> TypeError:
    """NumPy's own output-casting TypeError for its ``clip`` ufunc."""
    try:
        from numpy._core import _exceptions, umath
        return _exceptions._UFuncOutputCastingError(umath.clip, casting, from_, to, 0)
    except (ImportError, AttributeError, TypeError):    # NumPy's private names moved
        return TypeError(f"Cannot cast ufunc 'clip' output from {from_!r} to {to!r} with "
                         f"casting rule '{casting}'")


def _int_bound(bound, v, lower: bool):
    """A Python int bound outside an integer array's range on its harmless side (a lower
    bound below it, an upper one above it) clips to that range (NumPy 2:
    ``clip(uint8_array, -1, 300)`` keeps uint8); on the other side it is NumPy's
    OverflowError."""
    dt = dtype_of(v)
    if type(bound) is int and dt.kind in "iu":
        info = np.iinfo(dt)
        if (bound > info.max) if lower else (bound < info.min):
            if not -2**63 <= bound < 2**64:
                raise OverflowError("Python int too large to convert to C long")
            raise OverflowError(f"Python integer {bound} out of bounds for {dt}")
        return builtins.min(builtins.max(bound, int(info.min)), int(info.max))
    return bound


def _out(v, out) -> ndarray:
    if out is None:
        return wrap_scalar_result(v)
    from xnp._util import broadcast_to_v
    if type(out) is np.ndarray:
        return write_numpy_out(out, broadcast_to_v(user_cast_v(v, out.dtype), out.shape),
                               "out")
    check_writeable(out, "output array")
    store_through(out, broadcast_to_v(user_cast_v(v, out.dtype), out.shape))
    return out


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None) -> ndarray:
    """Replace NaN by ``nan`` and infinities by ``posinf``/``neginf`` (default: the largest
    finite values of the dtype), as :func:`numpy.nan_to_num`. With ``copy=False`` an xnp
    array is updated in place and returned, as NumPy's is."""
    if not copy and type(x) is ndarray and is_inexact(x.dtype):
        result = nan_to_num(x, True, nan, posinf, neginf)
        x[...] = result
        return x
    v = raw(x)
    dt = dtype_of(v)
    if dt.kind == "c":
        re = nan_to_num(wrap(lax.real_p.bind(v)), nan=nan, posinf=posinf, neginf=neginf)
        im = nan_to_num(wrap(lax.imag_p.bind(v)), nan=nan, posinf=posinf, neginf=neginf)
        return wrap_scalar_result(lax.complex_p.bind(raw(re), raw(im)))
    if not is_inexact(dt):
        return wrap_scalar_result(lax.copy_p.bind(v) if copy else v)
    for fill in (nan, posinf, neginf):     # NumPy copies them in with 'same_kind' casting
        if fill is not None and np.iscomplexobj(fill):
            raise TypeError(f"Cannot cast scalar from {np.result_type(fill, dt)!r} to "
                            f"{dt!r} according to the rule 'same_kind'")
    info = finfo(dt)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    out = lax.select_n_p.bind(lax.is_nan_p.bind(v), v, cast_v(nan, dt))
    out = lax.select_n_p.bind(lax.eq_p.bind(v, np.inf), out, cast_v(big, dt))
    out = lax.select_n_p.bind(lax.eq_p.bind(v, -np.inf), out, cast_v(small, dt))
    return wrap_scalar_result(out)


def sinc(x) -> ndarray:
    """``sin(pi x) / (pi x)``, with ``sinc(0) = 1``."""
    v = raw(x)
    dt = result_type(v, 1.0)     # NumPy computes pi * x: ints become float64
    v = cast_v(v, dt)
    zero = lax.eq_p.bind(v, 0)
    safe = lax.select_n_p.bind(zero, v, cast_v(1, dt))
    pix = lax.mul_p.bind(safe, np.pi)
    return wrap_scalar_result(lax.select_n_p.bind(
        zero, lax.div_p.bind(lax.sin_p.bind(pix), pix),
        cast_v(1, dt) if is_eager() else _sinc_series(v, dt)))


def _sinc_series(v, dt):
    """sinc's Maclaurin polynomial through (pi x)**8: exactly 1 at x = 0, where it is
    used, and it carries sinc's derivatives there up to the ninth."""
    y = lax.integer_pow_p.bind(lax.mul_p.bind(v, cast_v(np.pi, dt)), y=2)
    acc = cast_v(1 / 362880, dt)
    for c in (-1 / 5040, 1 / 120, -1 / 6, 1.0):
        acc = lax.add_p.bind(lax.mul_p.bind(acc, y), cast_v(c, dt))
    return acc


def round(a, decimals: int = 0, out=None) -> ndarray:
    """Round half to even to ``decimals`` places, computed as NumPy does
    (scale, round, unscale)."""
    v = raw(a)
    dt = dtype_of(v)
    if dt.kind == "b":      # NumPy's rint loop for bools is float16's; other scales fail
        if decimals != 0 or (out is not None and
                             not np.can_cast(np.float16, out.dtype, "same_kind")):
            raise TypeError(f"Cannot cast ufunc '{'rint' if decimals == 0 else 'multiply'}' "
                            "output from dtype('float16') to dtype('bool') with casting "
                            "rule 'same_kind'")
        return _out(cast_v(v, np.float16), out)
    if dt.kind in "biu":
        if decimals >= 0:
            return _out(lax.copy_p.bind(v), out)
        # NumPy computes in float64 (x / 10**-d, rint, times 10**-d) and casts back
        scale = np.float64(_power_of_ten(-decimals))
        x = lax.div_p.bind(cast_v(v, np.float64), scale)
        return _out(cast_v(lax.mul_p.bind(lax.round_p.bind(x), scale), dt), out)
    if decimals == 0:
        return _out(lax.round_p.bind(v), out)
    if dt.kind == "c":          # each part on its own, as NumPy (keeps the signs of zeros)
        parts = [_round_real(part.bind(v), decimals) for part in (lax.real_p, lax.imag_p)]
        return _out(lax.complex_p.bind(*parts), out)
    return _out(_round_real(v, decimals), out)


def _power_of_ten(n: int) -> float:
    """``10.0 ** n`` as NumPy's round computes it: exact up to 1e8, then repeated
    multiplications by 10 (inexact from 1e23; inf, not OverflowError, past 1e308)."""
    if n < 9:
        return 10.0 ** n
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
        if r == math.inf:
            break
    return r


def _round_real(v, decimals: int):
    with np.errstate(over="ignore"):    # NumPy's weak Python float: inf in a float16
        scale = dtype_of(v).type(_power_of_ten(abs(decimals)))
    if decimals > 0:
        return lax.div_p.bind(lax.round_p.bind(lax.mul_p.bind(v, scale)), scale)
    return lax.mul_p.bind(lax.round_p.bind(lax.div_p.bind(v, scale)), scale)


around = round


def fix(x, out=None) -> ndarray:
    """Round towards zero; the dtype is kept (float for floats), as :func:`numpy.fix`."""
    v = raw(x)
    if dtype_of(v).kind in "biu":
        return _out(lax.copy_p.bind(v), out)
    return _out(lax.trunc_p.bind(v), out)


def _is_scalar(val) -> bool:
    # Python and NumPy scalars: NumPy returns their own ``.real``/``.imag`` (a scalar)
    return isinstance(val, (int, float, complex, np.generic))


def real(val) -> ndarray:
    """The real part (the array itself for real input); a scalar for a Python or NumPy
    scalar, as in NumPy."""
    if _is_scalar(val):
        return val.real
    if type(val) is ndarray:    # as NumPy's: ``val`` itself, or its writable view
        return val.real if val.dtype.kind == "c" else val
    return wrap(lax.real_p.bind(raw(val)))


def imag(val) -> ndarray:
    """The imaginary part (zeros for real input); a scalar for a Python or NumPy scalar,
    as in NumPy."""
    if _is_scalar(val):
        return val.imag
    if type(val) is ndarray and val.dtype.kind == "c":
        return val.imag         # the attribute: a view that writes into ``val``
    v = raw(val)
    if dtype_of(v).kind != "c":     # zeros (not x * 0, which is NaN at inf)
        from xnp._util import full_v
        out = wrap(full_v(shape_of(v), 0, dtype_of(v)))
        if type(val) is ndarray:    # NumPy's ``val.imag``: read-only zeros
            from xnp._writeable import read_only
            read_only(out)
        return out
    return wrap(lax.imag_p.bind(v))


def angle(z, deg: bool = False) -> ndarray:
    """The argument of complex numbers, in radians (degrees if ``deg``)."""
    v = raw(z)
    dt = dtype_of(v)
    if dt.kind == "c":
        re, im = lax.real_p.bind(v), lax.imag_p.bind(v)
    else:
        dt = np.sin.resolve_dtypes((dt, None))[1] if not is_inexact(dt) else dt
        re, im = cast_v(v, dt), cast_v(0, dt)
    a = lax.atan2_p.bind(im, re)
    return wrap(lax.mul_p.bind(a, 180 / np.pi) if deg else a)


def isclose(a, b, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False):
    """``|a - b| <= atol + rtol * |b|`` elementwise, with NumPy's handling of infinities
    (equal infinities are close) and of NaN (close to NaN only with ``equal_nan``)."""
    x, y = raw(a), raw(b)
    dt = np.result_type(*(np.asarray(0, dtype_of(t)) if not isinstance(t, (int, float,
                          complex)) else t for t in (x, y)), 1.0)
    if dt.kind == "O":
        return _isclose_objects(x, y, rtol, atol, equal_nan)
    # As NumPy: b in its own float type (a Python int as a float), the tolerance in b's
    # precision (1e-8 is 0 in float16), then |a - b| compared in the common type.
    if isinstance(y, int):
        y = float(y)
    elif not isinstance(y, (float, complex)):
        y = cast_v(y, np.result_type(np.asarray(0, dtype_of(y)), 1.0))
    if isinstance(x, int) and not isinstance(x, bool):
        x = float(x)
    atol, rtol = raw(atol), raw(rtol)
    _check_tolerances(atol, rtol)
    with np.errstate(invalid="ignore", over="ignore"):   # inf - inf, 0 * inf: see below
        diff = lax.abs_p.bind(lax.sub_p.bind(x, y))
        if all(isinstance(t, (int, float, complex)) for t in (atol, rtol, y)):
            tol = atol + rtol * abs(y)          # Python numbers stay weakly typed
        else:
            tol = lax.add_p.bind(atol, lax.mul_p.bind(rtol, lax.abs_p.bind(y)))
    close = lax.and_p.bind(lax.le_p.bind(diff, tol), lax.is_finite_p.bind(y))
    close = lax.or_p.bind(close, lax.eq_p.bind(x, y))
    if equal_nan:
        both_nan = lax.and_p.bind(lax.is_nan_p.bind(x), lax.is_nan_p.bind(y))
        close = lax.or_p.bind(close, both_nan)
    return wrap(close)


def _check_tolerances(atol, rtol) -> None:
    """NumPy's report of a non-finite concrete ``atol``/``rtol``, as ``geterr()['invalid']``
    asks (a RuntimeWarning by default)."""
    if isinstance(atol, Tracer) or isinstance(rtol, Tracer):
        return
    if np.all(np.isfinite(atol)) and np.all(np.isfinite(rtol)):
        return
    message = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
    mode = np.geterr()["invalid"]
    if mode == "warn":
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    elif mode == "raise":
        raise FloatingPointError(message)
    elif mode == "print":
        print(message)


def _isclose_objects(x, y, rtol, atol, equal_nan):
    """NumPy's isclose with an object operand: the objects' own arithmetic on ``a``, with
    ``b`` cast to its float dtype and tested for finiteness (an object ``b`` cannot be)."""
    if not isinstance(y, (int, float, complex)):
        y = cast_v(y, np.result_type(np.asarray(0, dtype_of(y)), 1.0))
    diff = lax.abs_p.bind(lax.sub_p.bind(x, y))
    tol = lax.add_p.bind(atol, lax.mul_p.bind(rtol, lax.abs_p.bind(y)))
    close = lax.and_p.bind(lax.le_p.bind(diff, tol), lax.is_finite_p.bind(y))
    close = lax.or_p.bind(close, lax.eq_p.bind(x, y))
    if equal_nan:
        both_nan = lax.and_p.bind(lax.is_nan_p.bind(x), lax.is_nan_p.bind(y))
        close = lax.or_p.bind(close, both_nan)
    return wrap(close)


def _python_bool(x):
    """A Python bool, as NumPy returns, for a concrete result; the traced 0-d array
    otherwise (its value is not known while tracing)."""
    v = raw(x)
    return x if isinstance(v, Tracer) else builtins.bool(v)


def allclose(a, b, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False):
    """Whether all elements are :func:`isclose`: a Python bool, as NumPy (a 0-d bool
    array when traced)."""
    from xnp import all as all_
    return _python_bool(all_(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan: bool = False) -> ndarray:
    """Same shape and elements: a Python bool, as NumPy (a 0-d bool array when traced;
    False for shapes that differ)."""
    from xnp import all as all_
    x, y = raw(a1), raw(a2)
    if shape_of(x) != shape_of(y):
        return False
    eq = _elementwise_eq(x, y)
    if equal_nan and is_inexact(dtype_of(x)) and is_inexact(dtype_of(y)):
        eq = lax.or_p.bind(eq, lax.and_p.bind(lax.is_nan_p.bind(x), lax.is_nan_p.bind(y)))
    return _python_bool(all_(wrap(eq)))


def array_equiv(a1, a2) -> ndarray:
    """Equal after broadcasting: a Python bool, as NumPy (a 0-d bool array when traced;
    False if the shapes do not broadcast)."""
    from xnp import all as all_
    x, y = raw(a1), raw(a2)
    try:
        np.broadcast_shapes(shape_of(x), shape_of(y))
    except ValueError:
        return False
    return _python_bool(all_(wrap(_elementwise_eq(x, y))))


def _elementwise_eq(x, y):
    """``x == y`` as the ``==`` operator gives it: where NumPy has no comparison loop for
    the two dtypes (a string and a number), every element compares unequal."""
    try:
        return lax.eq_p.bind(x, y)
    except TypeError:
        return raw(wrap(x) == wrap(y))


def isreal(x) -> ndarray:
    """True where the imaginary part is zero."""
    return wrap(lax.eq_p.bind(raw(imag(x)), 0))


def iscomplex(x) -> ndarray:
    """True where the imaginary part is non-zero."""
    return wrap(lax.ne_p.bind(raw(imag(x)), 0))


def isrealobj(x) -> bool:
    """Whether ``x`` has a non-complex dtype (any object without a dtype, such as None,
    counts as real, as in NumPy)."""
    return not iscomplexobj(x)


def iscomplexobj(x) -> bool:
    """Whether ``x`` has a complex dtype (False for objects that are not array-like);
    objects with a ``dtype`` attribute are judged by its ``type``, as NumPy does."""
    if type(x) is not ndarray:
        try:
            return issubclass(x.dtype.type, np.complexfloating)
        except AttributeError:
            pass
    try:
        return dtype_of(raw(x)).kind == "c"
    except TypeError:
        return np.iscomplexobj(x)


def isposinf(x, out=None) -> ndarray:
    """True where ``x`` is +inf. Complex input raises TypeError, as in NumPy."""
    v = raw(x)
    if dtype_of(v).kind == "c":
        raise TypeError(f"This operation is not supported for {dtype_of(v)} values "
                        "because it would be ambiguous.")
    return _out(lax.eq_p.bind(v, np.inf) if is_inexact(dtype_of(v))
                else lax.ne_p.bind(v, v), out)


def isneginf(x, out=None) -> ndarray:
    """True where ``x`` is -inf. Complex input raises TypeError, as in NumPy."""
    v = raw(x)
    if dtype_of(v).kind == "c":
        raise TypeError(f"This operation is not supported for {dtype_of(v)} values "
                        "because it would be ambiguous.")
    return _out(lax.eq_p.bind(v, -np.inf) if is_inexact(dtype_of(v))
                else lax.ne_p.bind(v, v), out)


def i0(x) -> ndarray:
    """Modified Bessel function of the first kind, order 0, by its power series.

    The number of terms covers the largest finite |x| when the input is concrete (about
    |x| + 40: the terms peak near k = |x|/2); traced, 390 terms, exact for |x| up to
    about 300 (1e-3 relative at 700). NaN for NaN and infinite input, as NumPy.
    """
    v = raw(x)
    if dtype_of(v).kind == "c":
        raise TypeError("i0 not supported for complex values")
    # NumPy keeps a float input's dtype (float64 for the rest); computed in float64 at
    # least, then rounded.
    out_dt = dtype_of(v) if dtype_of(v).kind == "f" else np.dtype(np.float64)
    dt = np.dtype(np.longdouble) if out_dt == np.longdouble else np.dtype(np.float64)
    v = cast_v(v, dt)
    try:
        concrete = np.abs(np.asarray(concrete_or_error(v)))
        finite = concrete[np.isfinite(concrete)]
        biggest = float(finite.max(initial=0.0))
    except TypeError:
        biggest = None
    # Past the largest term (k ~ |x|/2) to convergence; traced, a compile-friendly count
    # that is exact to a few ulps for |x| up to about 300.
    terms = int(min(biggest, 710.0)) + 40 if biggest is not None else 390
    q = lax.mul_p.bind(lax.mul_p.bind(v, v), 0.25)
    term, total = cast_v(1.0, dt), cast_v(1.0, dt)
    if biggest is None:
        # Traced: the same recurrence as one scan, whose program stays small (390 unrolled
        # steps took XLA minutes to compile once differentiated).
        def step(carry, k2):
            term, total = map(raw, carry)
            term = lax.div_p.bind(lax.mul_p.bind(term, q), raw(k2))
            return (term, lax.add_p.bind(total, term)), None
        shape = shape_of(q)
        init = tuple(lax.broadcast_in_dim_p.bind(t, shape=shape, broadcast_dimensions=())
                     for t in (term, total))
        (_, total), _ = lax.scan(step, init, np.arange(1, terms, dtype=dt) ** 2)
        terms = 1
    for k in range(1, terms):
        term = lax.div_p.bind(lax.mul_p.bind(term, q), float(k * k))
        total = lax.add_p.bind(total, term)
    total = raw(total)
    # NumPy's i0 is NaN at +-inf (its Chebyshev form multiplies inf by 0 there).
    r = lax.select_n_p.bind(lax.is_finite_p.bind(v), cast_v(np.nan, dt), total)
    return wrap(cast_v(r, out_dt))


def isscalar(element) -> bool:
    """As :func:`numpy.isscalar`: xnp arrays (even 0-d) are not scalars."""
    return np.isscalar(element)


def ndim(a) -> int:
    """Number of dimensions of ``a``."""
    return len(shape_of(raw(a)))


def shape(a) -> tuple:
    """Shape of ``a``."""
    return shape_of(raw(a))


def size(a, axis=None) -> int:
    """Number of elements of ``a`` (along ``axis`` if given)."""
    s = shape_of(raw(a))
    if axis is None:
        return int(np.prod(s, dtype=np.int64))
    from xnp._util import normalize_axis
    try:
        axes = (operator.index(axis),)
    except TypeError:
        axes = tuple(axis)      # NumPy 2.4: a sequence of axes; "'float' object is not iterable"
    axes = [normalize_axis(ax, len(s)) for ax in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return math.prod(s[ax] for ax in axes)

