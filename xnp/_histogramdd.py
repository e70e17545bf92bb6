"""Multidimensional histograms: histogramdd and histogram2d.

Built on the binning helpers of :mod:`xnp._histograms`: equal-width edges are NumPy's
``linspace`` recomputed from primitives, each coordinate's bin is a search in its sorted
edges, and the counts are one scatter-add over the flattened bin index. With integer
bin counts or explicit edge arrays the output shapes are static, so both functions trace
(jit, vmap) and differentiate (in the weights, and the edges in the data's range).
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

import xnp
from transforms.core import get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._histograms import _outer_edges, _uniform_edges, count_v, last_v, search_sorted_v
from xnp._reductions import FLOAT64, INT64, concrete_any, strong_v
from xnp._util import cast_v, raw, where_v

__all__ = ["histogramdd", "histogram2d"]

B = lax


def _as_sample(sample):
    """The (N, D) sample as NumPy reads it: an array's own shape, while a list or tuple
    is a sequence of D coordinate arrays (``atleast_2d(sample).T``)."""
    if hasattr(sample, "shape") and hasattr(sample, "ndim"):
        s = xnp.asarray(sample)
        if s.ndim != 2:
            s = xnp.atleast_2d(s).T
    else:
        s = xnp.atleast_2d(sample).T
    if s.ndim != 2:
        raise ValueError(f"too many values to unpack (expected 2, got {s.ndim})")
    if s.dtype.kind == "c":
        raise TypeError("histogramdd: complex samples are not supported")
    return s


def _column(s, i):
    n = s.shape[0]
    v = B.slice_p.bind(raw(s), start_indices=(0, i), limit_indices=(n, i + 1))
    return B.reshape_p.bind(v, new_sizes=(n,))


def _edges_for(i, b, col, rng):
    """The edges of dimension ``i`` for its ``bins`` entry ``b`` and ``range`` entry."""
    if np.ndim(b) == 0:
        if b < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        first, last = _outer_edges(col, rng)
        try:
            n = operator.index(b)
        except TypeError as e:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
        calc = xnp.result_type(first, last, 1.0)      # numpy.linspace's dtype
        return _uniform_edges(first, last, n, calc)
    if np.ndim(b) == 1:
        e = strong_v(b)
        m = get_aval(e).shape[0]
        if m > 1:
            lo = B.slice_p.bind(e, start_indices=(0,), limit_indices=(m - 1,))
            hi = B.slice_p.bind(e, start_indices=(1,), limit_indices=(m,))
            if concrete_any(B.gt_p.bind(lo, hi)):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an "
                                 "array")
        return e
    raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")


def _bin_of(col, edges):
    """NumPy's ``searchsorted(edges, col, 'right')``, values on the last edge moved into
    the last bin: 0 below the edges, ``len(edges)`` above (or NaN)."""
    m = get_aval(edges).shape[0]
    if m == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    common = xnp.result_type(get_aval(col).dtype, get_aval(edges).dtype)
    x, e = cast_v(col, common), cast_v(edges, common)
    c = search_sorted_v(e, x, right=True)
    on_edge = B.eq_p.bind(x, last_v(e))
    return where_v(on_edge, B.sub_p.bind(c, np.int64(1)), c)


def histogramdd(sample, bins=10, range=None, density=None,
                weights=None) -> tuple[ndarray, list[ndarray]]:
    """The multidimensional histogram of ``sample``, as :func:`numpy.histogramdd`.

    ``sample`` is an (N, D) array, or a sequence of D coordinate arrays of length N (a
    1-d array is N points in one dimension). ``bins`` is a count for every dimension, a
    sequence of D counts or increasing edge arrays, and ``range`` a sequence of D
    ``(min, max)`` pairs or None entries. Each bin is half-open except the last one of
    each dimension, which includes its right edge; points outside (and NaN) are dropped.

    Returns ``(hist, edges)``: float64 counts (weighted sums, with ``weights`` of length
    N, summed in float64) of shape ``(nbins_0, ..., nbins_{D-1})``, and the list of D
    edge arrays (equal-width edges have ``linspace``'s dtype: the data's floating dtype,
    or float64). ``density=True`` divides by the total and by the bin volumes.

    Differences from NumPy: complex samples raise TypeError (NumPy orders them
    lexicographically). Traceable and differentiable (in ``weights``, and the equal-width
    edges in the data); the checks that need values (finite autodetected range,
    increasing edge arrays) are skipped for traced inputs.
    """
    s = _as_sample(sample)
    n_pts, dims = s.shape
    w = None
    if weights is not None:
        w = strong_v(weights)
        if get_aval(w).dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from {get_aval(w).dtype!r} to "
                            "dtype('float64') according to the rule 'safe'")
        if get_aval(w).shape != (n_pts,):
            raise ValueError("The weights and list don't have the same length.")
        w = cast_v(w, FLOAT64)
    try:
        n_bins = len(bins)
    except TypeError:
        bins, n_bins = dims * [bins], dims
    if n_bins != dims:
        raise ValueError("The dimension of bins must be equal to the dimension of the "
                         "sample x.")
    if range is None:
        range = (None,) * dims
    elif len(range) != dims:
        raise ValueError("range argument must have one entry per dimension")

    cols = [_column(s, i) for i in builtins.range(dims)]
    edges = [_edges_for(i, bins[i], cols[i], range[i]) for i in builtins.range(dims)]
    shape = tuple(builtins.max(get_aval(e).shape[0] - 1, 0) for e in edges)
    flat = B.broadcast_in_dim_p.bind(np.int64(0), shape=(n_pts,), broadcast_dimensions=())
    inside = B.broadcast_in_dim_p.bind(np.bool_(True), shape=(n_pts,),
                                       broadcast_dimensions=())
    for col, e, nb in zip(cols, edges, shape):
        c = _bin_of(col, e)
        inside = B.and_p.bind(inside, B.and_p.bind(B.ge_p.bind(c, np.int64(1)),
                                                   B.le_p.bind(c, np.int64(nb))))
        flat = B.add_p.bind(B.mul_p.bind(flat, np.int64(nb)), B.sub_p.bind(c, np.int64(1)))
    total = int(np.prod(shape, dtype=np.int64))
    flat = where_v(inside, flat, np.int64(total))       # outside: dropped by the count
    counts = count_v(cast_v(flat, INT64), w, total)
    hist = wrap(cast_v(B.reshape_p.bind(counts, new_sizes=shape), FLOAT64))
    if density:
        s_total = hist.sum()
        for i, e in enumerate(edges):
            widths = xnp.diff(wrap(e))
            hist = hist / widths.reshape(tuple(shape[i] if j == i else 1
                                               for j in builtins.range(dims)))
        hist = hist / s_total
    return hist, [wrap(e) for e in edges]


def histogram2d(x, y, bins=10, range=None, density=None,
                weights=None) -> tuple[ndarray, ndarray, ndarray]:
    """The 2-d histogram of the points ``(x[k], y[k])``, as :func:`numpy.histogram2d`.

    ``bins`` is a count for both axes, a pair ``[nx, ny]``, one edge array used for both
    axes, or a pair of edge arrays (or a count and an edge array); ``range`` is
    ``[[xmin, xmax], [ymin, ymax]]``. Returns ``(hist, xedges, yedges)`` with ``hist``
    float64 of shape ``(nx, ny)``: ``x`` varies along the first axis.

    Differences from NumPy: as :func:`histogramdd` (complex input raises TypeError).
    Traceable and differentiable as histogramdd.
    """
    if xnp.ndim(x) and xnp.ndim(y) and xnp.shape(x)[0] != xnp.shape(y)[0]:
        raise ValueError("x and y must have the same length.")
    if isinstance(bins, str):
        bins = [bins, bins]         # NumPy: TypeError comparing the name with 1
    else:
        try:
            nb = len(bins)
        except TypeError:
            nb = 1
        if nb not in (1, 2):
            edges = xnp.asarray(bins)
            bins = [edges, edges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]

