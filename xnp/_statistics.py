"""Statistics over samples: cov, corrcoef and interp. The binning functions
(histogram, bincount, digitize) live in ``xnp._histograms`` and the sequence functions
(diff, gradient, convolve, ...) in ``xnp._calculus``; both are re-exported here."""

from __future__ import annotations

import builtins

import numpy as np

from transforms.core import CompositePrimitive, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import result_type
from xnp._histograms import first_v, flat_v, is_static, last_v, search_sorted_v
from xnp._quantiles import take_last_v
from xnp._reductions import FLOAT64, average, concrete_any, strong_v, warn
from xnp._util import cast_v, raw, where_v

__all__ = ["cov", "corrcoef", "interp"]

B = lax


# --- covariance ----------------------------------------------------------------------------------
def _as_rows(v, dtype, rowvar, is_y):
    v = cast_v(v, dtype)
    nd = get_aval(v).ndim
    if nd < 2:
        v = B.reshape_p.bind(v, new_sizes=(1,) * (2 - nd) + get_aval(v).shape)
    if not rowvar and (get_aval(v).shape[0] != 1 if is_y else nd != 1):
        v = B.transpose_p.bind(v, permutation=(1, 0))
    return v


def _sample_weights(w, kind, n):
    w = cast_v(strong_v(w), FLOAT64)
    if kind == "fweights" and concrete_any(B.ne_p.bind(w, B.round_p.bind(w))):
        raise TypeError("fweights must be integer")
    if get_aval(w).ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {kind}")
    if get_aval(w).shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {kind}")
    if concrete_any(B.lt_p.bind(w, 0)):
        raise ValueError(f"{kind} cannot be negative")
    return w


def cov(m, y=None, rowvar: builtins.bool = True, bias: builtins.bool = False, ddof=None,
        fweights=None, aweights=None, *, dtype=None) -> ndarray:
    """Covariance matrix of the variables in the rows (``rowvar``) or columns of ``m``
    (and ``y``), with frequency and analytic weights as NumPy. A non-positive number of
    degrees of freedom warns and gives inf/NaN; with weights that check needs concrete
    values."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    mv = strong_v(m)
    if get_aval(mv).ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    yv = None if y is None else strong_v(y)
    if yv is not None and get_aval(yv).ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = result_type(mv, FLOAT64) if yv is None else result_type(mv, yv, FLOAT64)
    x = _as_rows(mv, dtype, rowvar, False)
    if get_aval(x).shape[0] == 0:
        return wrap(np.zeros((0, 0)))
    if yv is not None:
        x = B.concatenate_p.bind(x, _as_rows(yv, dtype, rowvar, True), dimension=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = get_aval(x).shape[1]
    fw = None if fweights is None else _sample_weights(fweights, "fweights", n)
    aw = None if aweights is None else _sample_weights(aweights, "aweights", n)
    w = fw if aw is None else (aw if fw is None else B.mul_p.bind(fw, aw))
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = first_v(raw(w_sum))
    if w is None:
        fact = n - ddof
    elif ddof == 0:
        fact = w_sum
    elif aw is None:
        fact = B.sub_p.bind(w_sum, ddof)
    else:
        wa = B.reduce_sum_p.bind(B.mul_p.bind(w, aw), axes=(0,))
        fact = B.sub_p.bind(w_sum, B.div_p.bind(B.mul_p.bind(ddof, wa), w_sum))
    centre = B.reshape_p.bind(raw(avg), new_sizes=(get_aval(x).shape[0], 1))
    x = cast_v(B.sub_p.bind(x, centre), get_aval(x).dtype)
    xt = B.transpose_p.bind(x if w is None else B.mul_p.bind(x, w), permutation=(1, 0))
    if get_aval(xt).dtype.kind == "c":
        xt = B.conj_p.bind(xt)
    c = B.dot_general_p.bind(x, xt, dimension_numbers=(((1,), (0,)), ((), ())))
    c = cast_v(B.mul_p.bind(c, _reciprocal_dof(fact)), get_aval(c).dtype)
    keep = tuple(s for s in get_aval(c).shape if s != 1)
    return wrap(B.reshape_p.bind(c, new_sizes=keep))


def _reciprocal_dof(fact):
    """``1 / fact``, with a warning and ``fact = 0`` when there is no degree of freedom."""
    if type(fact) is int:
        if fact <= 0:
            warn("Degrees of freedom <= 0 for slice")
            fact = 0.0
        with np.errstate(divide="ignore"):
            return np.true_divide(1, fact)
    bad = B.le_p.bind(fact, 0)
    if concrete_any(bad):
        warn("Degrees of freedom <= 0 for slice")
    return B.div_p.bind(1, where_v(bad, cast_v(0.0, get_aval(fact).dtype), fact))


def corrcoef(x, y=None, rowvar: builtins.bool = True, *, dtype=None) -> ndarray:
    """Pearson correlation coefficients (the covariance normalised by the standard
    deviations), clipped to [-1, 1] as NumPy."""
    c = raw(cov(x, y, rowvar, dtype=dtype))
    if get_aval(c).ndim == 0:
        return wrap(B.div_p.bind(c, c))
    k = get_aval(c).shape[0]
    d = B.slice_p.bind(flat_v(c), start_indices=(0,), limit_indices=(k * k,),
                       strides=(k + 1,)) if k else flat_v(c)
    std = B.sqrt_p.bind(B.real_p.bind(d))
    dt = get_aval(c).dtype
    c = cast_v(B.div_p.bind(c, B.reshape_p.bind(std, new_sizes=(k, 1))), dt)
    c = cast_v(B.div_p.bind(c, B.reshape_p.bind(std, new_sizes=(1, k))), dt)
    if dt.kind == "c":
        re = B.clamp_p.bind(-1.0, B.real_p.bind(c), 1.0)
        im = B.clamp_p.bind(-1.0, B.imag_p.bind(c), 1.0)
        return wrap(B.complex_p.bind(re, im))
    return wrap(B.clamp_p.bind(cast_v(-1, dt), c, cast_v(1, dt)))


# --- interpolation --------------------------------------------------------------------------------
def _interp_real_composite(x, xp, fp, left, right):
    """NumPy's piecewise-linear interpolation of real ``fp`` at ``x`` (float64)."""
    n = get_aval(xp).shape[0]
    x0, xn, f0 = first_v(xp), last_v(xp), first_v(fp)
    if n == 1:
        r = where_v(B.gt_p.bind(x, x0), right, f0)
        return where_v(B.lt_p.bind(x, x0), left, r)
    j = B.sub_p.bind(search_sorted_v(xp, x, right=True), 1)
    jc = B.clamp_p.bind(0, j, n - 2)
    xj, xj1 = take_last_v(xp, jc), take_last_v(xp, B.add_p.bind(jc, 1))
    fj, fj1 = take_last_v(fp, jc), take_last_v(fp, B.add_p.bind(jc, 1))
    slope = B.div_p.bind(B.sub_p.bind(fj1, fj), B.sub_p.bind(xj1, xj))
    r = B.add_p.bind(B.mul_p.bind(slope, B.sub_p.bind(x, xj)), fj)
    # NaN from inf * 0: try from the other end, then the flat value.
    r = where_v(B.is_nan_p.bind(r), B.add_p.bind(B.mul_p.bind(slope, B.sub_p.bind(x, xj1)),
                                                 fj1), r)
    r = where_v(B.and_p.bind(B.is_nan_p.bind(r), B.eq_p.bind(fj, fj1)), fj, r)
    r = where_v(B.eq_p.bind(xj, x), _at_knot(fj, slope, x, xj), r)
    r = where_v(B.eq_p.bind(x, xn), _at_knot(last_v(fp), slope, x, xn), r)
    r = where_v(B.gt_p.bind(x, xn), right, r)
    r = where_v(B.lt_p.bind(x, x0), left, r)
    return where_v(B.is_nan_p.bind(x), x, r)


def _at_knot(fk, slope, x, xk):
    """``fk`` exactly (its sign of zero too) at a knot ``x == xk``, with the derivative
    of ``fk + slope * (x - xk)``: the slope of the segment used (to the right of an inner
    knot, to the left of the last), not the zero of a constant."""
    from xnp.lax._structural import stop_gradient_p
    z = B.mul_p.bind(slope, B.sub_p.bind(x, xk))
    carried = B.sub_p.bind(fk, B.sub_p.bind(stop_gradient_p.bind(z), z))   # fk - (+0)
    return where_v(B.is_finite_p.bind(slope), carried, fk)


def _interp_numpy(x, xp, fp, left, right):
    return np.asarray(np.interp(x, xp, fp, left, right), np.float64)


# Eagerly numpy.interp; under transformations the search-and-gather composition.
_interp_real_p = CompositePrimitive("interp", impl=_interp_numpy,
                                    expand=_interp_real_composite)


def _interp_real(x, xp, fp, left, right):
    return _interp_real_p.bind(x, xp, fp, left, right)


def _to_float64(v, what):
    dt = get_aval(v).dtype
    if not np.can_cast(dt, FLOAT64, "safe"):
        raise TypeError(f"Cannot cast array data from {dt!r} to dtype('float64') according "
                        f"to the rule 'safe' ({what})")
    return cast_v(v, FLOAT64)


def interp(x, xp, fp, left=None, right=None, period=None) -> ndarray:
    """One-dimensional piecewise-linear interpolation of ``(xp, fp)`` at ``x`` (``xp``
    increasing, or periodic with ``period``); float64 or complex128 results as NumPy."""
    xv = _to_float64(strong_v(x), "x")
    xpv = _to_float64(strong_v(xp), "xp")
    fpv = strong_v(fp)
    fdt = np.dtype(np.complex128) if get_aval(fpv).dtype.kind == "c" else FLOAT64
    fpv = cast_v(fpv, fdt)
    if get_aval(xpv).ndim != 1 or get_aval(fpv).ndim != 1:
        raise ValueError("Data points must be 1-D sequences")
    if get_aval(xpv).shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if get_aval(xpv).shape[0] != get_aval(fpv).shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if period is not None:
        xv, xpv, fpv = _periodic(xv, xpv, fpv, period)
        left = right = None
    if fdt.kind == "f" and complex in (type(left), type(right)):
        raise TypeError("must be real number, not complex")     # NumPy's float(left)
    lo = first_v(fpv) if left is None else cast_v(raw(left), fdt)
    hi = last_v(fpv) if right is None else cast_v(raw(right), fdt)
    if fdt.kind == "c":
        parts = [_interp_real(xv, xpv, part.bind(fpv), part.bind(lo), part.bind(hi))
                 for part in (B.real_p, B.imag_p)]
        return wrap_scalar_result(B.complex_p.bind(*parts))
    return wrap_scalar_result(_interp_real(xv, xpv, fpv, lo, hi))


def _periodic(x, xp, fp, period):
    from xnp._ufuncs import UFUNCS
    p = raw(period)
    if is_static(p) and np.asarray(p) == 0:
        raise ValueError("period must be a non-zero value")
    p = B.abs_p.bind(cast_v(p, FLOAT64))
    mod = UFUNCS["remainder"]._fn
    x, xp = mod(x, p), mod(xp, p)
    xp, fp = B.sort_p.bind(xp, fp, dimension=0, is_stable=True, num_keys=1)
    n = get_aval(xp).shape[0]

    def end(v, i):
        return B.slice_p.bind(v, start_indices=(i,), limit_indices=(i + 1,))
    xp = B.concatenate_p.bind(B.sub_p.bind(end(xp, n - 1), p), xp,
                              B.add_p.bind(end(xp, 0), p), dimension=0)
    fp = B.concatenate_p.bind(end(fp, n - 1), fp, end(fp, 0), dimension=0)
    return x, xp, fp


from xnp._calculus import *  # noqa: E402, F403
from xnp._calculus import __all__ as _calculus_all  # noqa: E402
from xnp._histograms import *  # noqa: E402, F403
from xnp._histograms import __all__ as _histograms_all  # noqa: E402

__all__ += _histograms_all + _calculus_all
