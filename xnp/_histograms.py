"""Binning: histogram, histogram_bin_edges, bincount and digitize.

Bins are found by a search in the sorted edges built from comparisons and gathers (in
NumPy's sort order, NaN last) and counted with one ``scatter_add``, so histograms with a
given number of bins are traceable. Outputs whose length depends on the values
(``bincount`` without ``length=``, histograms with a bin-estimator name) need concrete
inputs.
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy as np

from transforms.core import CompositePrimitive, Tracer, concrete_or_error, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._calculus import diff
from xnp._dtypes import is_inexact, result_type
from xnp._quantiles import take_last_v
from xnp._reductions import FLOAT64, INT64, concrete_any, strong_v
from xnp._util import cast_v, raw, where_v

__all__ = ["histogram", "histogram_bin_edges", "bincount", "digitize"]

B = lax


def flat_v(v):
    return B.reshape_p.bind(v, new_sizes=(get_aval(v).size,))


def last_v(v):
    """The last element of a 1-d value, as a 0-d value."""
    n = get_aval(v).shape[0]
    return B.reshape_p.bind(B.slice_p.bind(v, start_indices=(n - 1,), limit_indices=(n,)),
                            new_sizes=())


def first_v(v):
    return B.reshape_p.bind(B.slice_p.bind(v, start_indices=(0,), limit_indices=(1,)),
                            new_sizes=())

# --- searching in sorted edges -----------------------------------------------------------------
def _before(edge, x, right: builtins.bool):
    """Whether ``edge`` sorts before ``x`` (or equals it, with ``right``), NaN last."""
    if not (is_inexact(get_aval(edge).dtype) or is_inexact(get_aval(x).dtype)):
        return (B.le_p if right else B.lt_p).bind(edge, x)
    x_nan = B.is_nan_p.bind(x)
    if right:
        return B.or_p.bind(B.le_p.bind(edge, x), x_nan)
    return B.or_p.bind(B.lt_p.bind(edge, x),
                       B.and_p.bind(x_nan, B.not_p.bind(B.is_nan_p.bind(edge))))


def search_sorted_v(edges, x, right: builtins.bool = False):
    """``searchsorted(edges, x, side)`` for a sorted 1-d ``edges`` (int64, x's shape):
    a count of the edges before each value when there are few, else a binary search with
    one gather per halving step."""
    m = get_aval(edges).shape[0]
    shape = get_aval(x).shape
    if m <= 32:
        e = B.reshape_p.bind(edges, new_sizes=(1,) * len(shape) + (m,))
        before = _before(e, B.expand_dims_p.bind(x, dimensions=(len(shape),)), right)
        return B.reduce_sum_p.bind(cast_v(before, INT64), axes=(len(shape),))
    lo = B.broadcast_in_dim_p.bind(np.int64(0), shape=shape, broadcast_dimensions=())
    hi = B.broadcast_in_dim_p.bind(np.int64(m), shape=shape, broadcast_dimensions=())
    for _ in range(m.bit_length()):
        active = B.lt_p.bind(lo, hi)
        mid = B.floor_divide_p.bind(B.add_p.bind(lo, hi), 2)
        probe = take_last_v(edges, B.min_p.bind(mid, m - 1))
        go_right = B.and_p.bind(active, _before(probe, x, right))
        go_left = B.and_p.bind(active, B.not_p.bind(go_right))
        lo = where_v(go_right, B.add_p.bind(mid, 1), lo)
        hi = where_v(go_left, mid, hi)
    return lo


# --- digitize and bincount ---------------------------------------------------------------------
def _monotonic_direction(bins):
    """+1 increasing, -1 decreasing, 0 neither (concrete bins); None when traced."""
    n = get_aval(bins).shape[0]
    if n < 2:
        return 1
    lo = B.slice_p.bind(bins, start_indices=(0,), limit_indices=(n - 1,))
    hi = B.slice_p.bind(bins, start_indices=(1,), limit_indices=(n,))
    # NumPy's direction: that of the first edge unequal to the first (NaN is unequal,
    # and not above it). Accepted where the search is then defined: the edges sorted
    # that way with NaN last (NumPy takes more NaN placements, with arbitrary results).
    first = B.slice_p.bind(bins, start_indices=(0,), limit_indices=(1,))
    differs = B.ne_p.bind(hi, first)
    any_differs = concrete_any(differs)
    if any_differs is None:
        return None
    if not any_differs:
        return 1
    i = B.argmax_p.bind(differs, axis=0, index_dtype=np.dtype(np.int64))
    edge = B.dynamic_slice_p.bind(hi, i, slice_sizes=(1,))
    up = concrete_any(B.lt_p.bind(first, edge))
    a, b = (lo, hi) if up else (hi, lo)
    unsorted = B.or_p.bind(B.gt_p.bind(a, b), B.and_p.bind(
        B.is_nan_p.bind(a), B.not_p.bind(B.is_nan_p.bind(b))))
    return 0 if concrete_any(unsorted) else (1 if up else -1)


def digitize(x, bins, right: builtins.bool = False) -> ndarray:
    """Index of the bin of each ``x`` for monotonic ``bins`` (increasing or decreasing).

    The monotonicity check needs concrete bins; traced bins are taken to be increasing
    unless their last element is below their first.
    """
    xv, bv = strong_v(x), strong_v(bins)
    if get_aval(xv).dtype.kind == "c":
        raise TypeError("x may not be complex")
    if get_aval(bv).dtype.kind == "c":
        raise TypeError(f"Cannot cast array data from {get_aval(bv).dtype!r} to "
                        "dtype('float64') according to the rule 'safe'")
    if get_aval(bv).ndim != 1:          # NumPy's words for a bins array of the wrong rank
        raise ValueError("object too deep for desired array" if get_aval(bv).ndim > 1
                         else "object of too small depth for desired array")
    direction = _monotonic_direction(bv)
    if direction == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    n = get_aval(bv).shape[0]
    up = search_sorted_v(bv, xv, right=not right) if direction != -1 else None
    if direction == 1:
        return wrap(up)
    down = B.sub_p.bind(n, search_sorted_v(B.rev_p.bind(bv, dimensions=(0,)), xv,
                                           right=not right))
    if direction == -1:
        return wrap(down)
    return wrap(where_v(B.lt_p.bind(last_v(bv), first_v(bv)), down, up))


def bincount(x, /, weights=None, minlength: int = 0, *, length: int | None = None):
    """Number of occurrences of each non-negative integer in ``x`` (1-d).

    As in JAX, ``length`` fixes the output length (larger values are dropped), which keeps
    the function traceable; without it the length is ``max(x) + 1`` and ``x`` must be
    concrete. Negative values raise ValueError when ``x`` is concrete.
    """
    if isinstance(x, (list, tuple)) and not x:
        x = np.zeros(0, np.int64)        # NumPy reads an empty sequence as integers here
    xv = strong_v(x)
    aval = get_aval(xv)
    if aval.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from {aval.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    if aval.ndim != 1:
        raise ValueError("bincount: x must be 1-dimensional (object " +
                         ("of too small depth" if aval.ndim == 0 else "too deep") +
                         " for desired array)")
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    if isinstance(minlength, (builtins.bool, np.bool_)):
        raise TypeError("an integer is required")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    xv = cast_v(xv, INT64)
    if weights is not None:
        wv = strong_v(weights)
        if get_aval(wv).shape != aval.shape:
            raise ValueError("The weights and list don't have the same length.")
        if get_aval(wv).dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from {get_aval(wv).dtype!r} to "
                            "dtype('float64') according to the rule 'safe'")
        wv = cast_v(wv, FLOAT64)
    if aval.size and concrete_any(B.lt_p.bind(xv, 0)):
        raise ValueError("'list' argument must have no negative elements")
    if aval.size == 0:   # NumPy counts nothing in int64, even with weights
        weights = None
    if length is None:
        values = np.asarray(concrete_or_error(xv, "xnp.bincount (pass length= to trace it)"))
        top = int(values.max()) + 1 if aval.size else 0
        length = builtins.max(top, int(minlength))
    return wrap(count_v(xv, wv if weights is not None else None, int(length)))


def count_v(idx, weights, length: int):
    """Sum ``weights`` (or ones) into ``length`` bins at int64 indices ``idx`` (1-d);
    indices outside ``[0, length)`` are dropped."""
    if weights is None:
        return count_p.bind(idx, length=length)
    return count_p.bind(idx, weights, length=length)


def _count_numpy(idx, weights=None, *, length):
    idx = np.asarray(idx)
    keep = (idx >= 0) & (idx < length)
    if not keep.all():
        idx = idx[keep]
        weights = None if weights is None else np.asarray(weights)[keep]
    if weights is not None and np.asarray(weights).dtype != np.float64:
        out = np.zeros(length, np.asarray(weights).dtype)   # bincount sums in float64
        np.add.at(out, idx, weights)
        return out
    return np.bincount(idx, weights, minlength=length).astype(
        np.int64 if weights is None else np.float64, copy=False)


def _count_composite(idx, weights=None, *, length):
    dt = INT64 if weights is None else get_aval(weights).dtype
    zeros = B.broadcast_in_dim_p.bind(cast_v(0, dt), shape=(length,),
                                      broadcast_dimensions=())
    n = get_aval(idx).shape[0]
    if n == 0 or length == 0:
        return zeros
    updates = weights if weights is not None else B.broadcast_in_dim_p.bind(
        np.int64(1), shape=(n,), broadcast_dimensions=())
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    indices = B.reshape_p.bind(idx, new_sizes=(n, 1))
    return B.scatter_add_p.bind(zeros, indices, updates, dimension_numbers=dn, mode="fill")


# Eagerly numpy.bincount; under transformations a scatter-add.
count_p = CompositePrimitive("count", impl=_count_numpy, expand=_count_composite)


# --- histograms --------------------------------------------------------------------------------
def is_static(x):
    return not isinstance(x, Tracer)


def _outer_edges(v, range_):
    """(first, last) edge: Python or NumPy scalars when static, else 0-d values."""
    if range_ is not None:
        first, last = (raw(r) for r in range_)
        if is_static(first) and is_static(last):
            f, l = np.asarray(first), np.asarray(last)
            if f > l:
                raise ValueError("max must be larger than min in range parameter.")
            if not (np.isfinite(f) and np.isfinite(l)):
                raise ValueError(f"supplied range of [{first}, {last}] is not finite")
            if f == l:
                first, last = first - 0.5, last + 0.5
            return first, last
    elif get_aval(v).size == 0:
        return 0, 1
    else:
        first = B.reduce_min_p.bind(v, axes=(0,))
        last = B.reduce_max_p.bind(v, axes=(0,))
        bad = B.not_p.bind(B.and_p.bind(B.is_finite_p.bind(first),
                                        B.is_finite_p.bind(last)))
        if concrete_any(bad):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if get_aval(first).dtype.kind in "iub":
        first, last = cast_v(first, FLOAT64), cast_v(last, FLOAT64)
    same = B.eq_p.bind(first, last)
    return (where_v(same, B.sub_p.bind(first, 0.5), first),
            where_v(same, B.add_p.bind(last, 0.5), last))


def _uniform_edges(first, last, n: int, a_dtype, range_=None):
    """``linspace(first, last, n + 1)`` as NumPy computes it, in NumPy's edge dtype (from a
    traced ``range_`` itself: its Python numbers are weak, as NumPy's)."""
    calc = result_type(first, last, 1.0) if not is_inexact(result_type(first, last)) \
        else result_type(first, last)
    traced = range_ is not None and any(isinstance(raw(r), Tracer) for r in range_)
    ends = tuple(raw(r) for r in range_) if traced else (first, last)
    bin_type = result_type(*ends, np.empty(0, a_dtype))
    if bin_type.kind in "iub":
        bin_type = FLOAT64
    start, stop = cast_v(first, calc), cast_v(last, calc)
    delta = B.sub_p.bind(stop, start)
    step = B.div_p.bind(delta, n)
    ramp = B.iota_p.bind(dtype=calc, shape=(n + 1,), dimension=0)
    scaled = where_v(B.eq_p.bind(step, 0), B.mul_p.bind(B.div_p.bind(ramp, n), delta),
                     B.mul_p.bind(ramp, step))
    y = B.add_p.bind(scaled, start)
    y = B.concatenate_p.bind(B.slice_p.bind(y, start_indices=(0,), limit_indices=(n,)),
                             B.reshape_p.bind(stop, new_sizes=(1,)), dimension=0)
    return cast_v(y, bin_type)


def _unsigned_span(first, last):
    """``last - first`` as NumPy's histogram computes it (wrapping in unsigned ints);
    with NumPy on Python or NumPy scalars (parameters), with primitives on values."""
    if isinstance(first, (int, float, np.generic)) and isinstance(last, (int, float,
                                                                           np.generic)):
        dt = np.result_type(first, last)
        if dt.kind == "i":
            udt = np.dtype(f"u{dt.itemsize}")
            return np.subtract(np.asarray(last, dt), np.asarray(first, dt), dtype=udt,
                               casting="unsafe")
        return np.subtract(last, first, dtype=dt)
    return B.sub_p.bind(last, first)


def _bin_edges(v, bins, range_, weights):
    """(edges, (first, last, n) for equal bins or None)."""
    if isinstance(bins, str):
        return _estimated_edges(v, bins, range_, weights)
    b = raw(bins)
    if np.ndim(b) == 0:
        try:
            n = int(b.__index__()) if not isinstance(b, int) else b
        except (TypeError, AttributeError):
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(v, range_)
        edges = _uniform_edges(first, last, n, get_aval(v).dtype, range_)
        _check_increasing(edges, strict=True, n=n)
        return edges, (first, last, n)
    b = strong_v(b)
    if get_aval(b).ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    _check_increasing(b, strict=False)
    return b, None


def _check_increasing(edges, strict, n=None):
    m = get_aval(edges).shape[0]
    if m < 2:
        return
    lo = B.slice_p.bind(edges, start_indices=(0,), limit_indices=(m - 1,))
    hi = B.slice_p.bind(edges, start_indices=(1,), limit_indices=(m,))
    bad = (B.ge_p if strict else B.gt_p).bind(lo, hi)
    if concrete_any(bad):
        if strict:
            raise ValueError(f"Too many bins for data range. Cannot create {n} "
                             "finite-sized bins.")
        raise ValueError("`bins` must increase monotonically, when an array")


def _concrete_float(v, name):
    return float(np.asarray(concrete_or_error(raw(v), f"xnp.histogram(bins={name!r})")))


def _bin_width(name, x, range_):
    """The bin width of NumPy's estimator ``name`` for the (concrete) data ``x``."""
    from xnp import mean, percentile, std
    n = get_aval(x).size
    lo = concrete_or_error(B.reduce_min_p.bind(x, axes=(0,)))
    hi = concrete_or_error(B.reduce_max_p.bind(x, axes=(0,)))
    ptp = float(_unsigned_span(np.asarray(lo)[()], np.asarray(hi)[()]))
    sqrt_w = ptp / np.sqrt(n)
    sturges_w = ptp / (np.log2(n) + 1.0)
    if name == "sqrt":
        return sqrt_w
    if name == "sturges":
        return sturges_w
    if name == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * np.pi ** 0.5 / n) ** (1.0 / 3.0) * _concrete_float(std(x), name)
    if name in ("fd", "auto"):
        q75, q25 = np.asarray(concrete_or_error(raw(percentile(x, [75, 25]))))
        fd_w = 2.0 * float(q75 - q25) * n ** (-1.0 / 3.0)
        return fd_w if name == "fd" else min(max(fd_w, sqrt_w / 2), sturges_w)
    if name == "doane":
        if n <= 2:
            return 0.0
        sg1 = np.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        sigma = std(x)
        if _concrete_float(sigma, name) <= 0.0:
            return 0.0
        dev = B.sub_p.bind(x, raw(mean(x)))
        z = cast_v(B.div_p.bind(dev, raw(sigma)), get_aval(dev).dtype)
        g1 = _concrete_float(mean(B.integer_pow_p.bind(z, y=3)), name)
        return ptp / (1.0 + np.log2(n) + np.log2(1.0 + abs(g1) / sg1))
    return _stone_width(x, n, ptp, range_)


def _stone_width(x, n, ptp, range_):
    """Stone's estimator: the bin count minimising an estimate of the L2 risk."""
    if n <= 1 or ptp == 0:
        return 0
    upper = max(100, int(np.sqrt(n)))

    def risk(nbins):
        counts = np.asarray(histogram(wrap(x), bins=nbins, range=range_)[0]._value)
        p = counts / n
        return (2 - (n + 1) * p.dot(p)) / (ptp / nbins)
    best = min(builtins.range(1, upper + 1), key=risk)
    if best == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                      stacklevel=4)
    return ptp / best


_ESTIMATORS = ("stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges")


def _estimated_edges(v, name, range_, weights):
    """Bins chosen by one of NumPy's estimators; the bin count must be concrete."""
    if name not in _ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported for "
                        "weighted data")
    first, last = _outer_edges(v, range_)
    data = v
    if range_ is not None:
        keep = B.and_p.bind(B.ge_p.bind(v, first), B.le_p.bind(v, last))
        keep = concrete_or_error(keep, f"xnp.histogram(bins={name!r})")
        data = wrap(v)[np.asarray(keep)]._value
    if get_aval(data).size == 0:
        n = 1
    else:
        width = _bin_width(name, data, range_)
        span = np.asarray(concrete_or_error(_unsigned_span(first, last),
                                            f"xnp.histogram(bins={name!r})"))
        if width:
            if get_aval(data).dtype.kind in "iu" and width < 1:
                width = 1
            n = int(np.ceil(span / width))
        else:
            n = 1
    edges = _uniform_edges(first, last, n, get_aval(v).dtype)
    _check_increasing(edges, strict=True, n=n)
    return edges, (first, last, n)


def _bin_index(v, edges, uniform):
    """(bin index of each value, whether it falls inside the edges)."""
    if uniform is None:
        return bin_index_p.bind(v, edges, None, None, n=None)
    first, last, n = uniform
    return bin_index_p.bind(v, edges, first, last, n=n)


def _bin_index_composite(v, edges, first, last, *, n):
    if n is None:
        m = get_aval(edges).shape[0]
        keep = B.and_p.bind(B.ge_p.bind(v, first_v(edges)), B.le_p.bind(v, last_v(edges)))
        idx = B.sub_p.bind(search_sorted_v(edges, v, right=True), 1)
        return [B.min_p.bind(idx, m - 2), keep]
    keep = B.and_p.bind(B.ge_p.bind(v, first), B.le_p.bind(v, last))
    x = cast_v(v, get_aval(edges).dtype)
    f = B.mul_p.bind(B.div_p.bind(B.sub_p.bind(x, first), _unsigned_span(first, last)), n)
    idx = cast_v(f, INT64)
    idx = where_v(B.eq_p.bind(idx, n), n - 1, idx)
    below = B.lt_p.bind(x, take_last_v(edges, B.clamp_p.bind(0, idx, n)))
    idx = where_v(below, B.sub_p.bind(idx, 1), idx)
    upper = take_last_v(edges, B.clamp_p.bind(0, B.add_p.bind(idx, 1), n))
    above = B.and_p.bind(B.ge_p.bind(x, upper), B.ne_p.bind(idx, n - 1))
    return [where_v(above, B.add_p.bind(idx, 1), idx), keep]


def _bin_index_numpy(v, edges, first, last, *, n):
    """The same steps on NumPy values (one call each instead of a bind each)."""
    if n is None:
        keep = (v >= edges[0]) & (v <= edges[-1])
        idx = np.searchsorted(edges, v, "right").astype(INT64) - 1
        return [np.minimum(idx, edges.shape[0] - 2), keep]
    keep = (v >= first) & (v <= last)
    x = np.asarray(v).astype(edges.dtype, copy=False)
    f = (x - first) / _unsigned_span(first, last) * n
    idx = B.convert_element_type_p.impl(f, new_dtype=INT64, weak_type=False)
    idx = np.where(idx == n, n - 1, idx)
    idx = np.where(x < edges[np.clip(idx, 0, n)], idx - 1, idx)
    above = (x >= edges[np.clip(idx + 1, 0, n)]) & (idx != n - 1)
    return [np.where(above, idx + 1, idx), keep]


# Eagerly the binning in NumPy calls; under transformations the same steps as primitives.
bin_index_p = CompositePrimitive("bin_index", impl=_bin_index_numpy,
                                 expand=_bin_index_composite, multiple_results=True)


def _prepare(a, weights):
    v = flat_v(strong_v(a))
    if get_aval(v).dtype.kind == "b":
        warnings.warn("Converting input from bool to uint8 for compatibility.",
                      RuntimeWarning, stacklevel=3)
        v = cast_v(v, np.uint8)
    w = None
    if weights is not None:
        w = strong_v(weights)
        if get_aval(w).shape != shape_of_input(a):
            raise ValueError("weights should have the same shape as a.")
        w = flat_v(w)
    return v, w


def shape_of_input(a):
    return get_aval(strong_v(a)).shape


def histogram_bin_edges(a, bins=10, range=None, weights=None) -> ndarray:
    """The bin edges :func:`histogram` would use."""
    v, w = _prepare(a, weights)
    return wrap(_bin_edges(v, bins, range, w)[0])


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Histogram of the flattened ``a``: (counts, edges), with the last bin closed.

    ``bins`` is a count (traceable: with ``range`` or from the data's min and max), an
    array of increasing edges, or the name of a NumPy bin estimator (concrete data only).
    Weighted counts are summed in float64 and cast to the weights' dtype.
    """
    v, w = _prepare(a, weights)
    edges, uniform = _bin_edges(v, bins, range, w)
    if uniform is None and w is not None and get_aval(w).dtype.kind == "b" and get_aval(w).size:
        # NumPy accumulates the weights' cumulative sum (int64) into bool counts.
        raise TypeError("histogram: boolean weights are not supported with explicit bin "
                        "edges (NumPy cannot cast their int64 sums to bool)")
    nbins = builtins.max(get_aval(edges).shape[0] - 1, 0)
    if nbins:
        idx, keep = _bin_index(v, edges, uniform)
        idx = where_v(keep, idx, np.int64(nbins))   # out of range: dropped by the scatter
    else:
        idx = B.broadcast_in_dim_p.bind(np.int64(0), shape=get_aval(v).shape,
                                        broadcast_dimensions=())
    if w is None:
        counts = count_v(idx, None, nbins)
    elif get_aval(w).dtype.kind == "c":
        re = count_v(idx, cast_v(B.real_p.bind(w), FLOAT64), nbins)
        im = count_v(idx, cast_v(B.imag_p.bind(w), FLOAT64), nbins)
        counts = cast_v(B.complex_p.bind(re, im), get_aval(w).dtype)
    else:
        counts = cast_v(count_v(idx, cast_v(w, FLOAT64), nbins), get_aval(w).dtype)
    if density:
        widths = cast_v(raw(diff(edges)), FLOAT64)
        total = B.reduce_sum_p.bind(counts, axes=(0,))
        counts = B.div_p.bind(B.div_p.bind(counts, widths), total)
    return wrap(counts), wrap(edges)
