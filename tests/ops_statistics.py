"""Registry entries for the statistics and sequence functions: histogram,
histogram_bin_edges, bincount, digitize, cov, corrcoef, interp, diff, ediff1d, gradient,
trapezoid, cross, convolve and correlate.

Values where the result is sensitive to rounding (covariances, convolutions) are small
integers stored in float dtypes, so that NumPy and xnp agree closely; bin edges and sample
points are drawn sorted (and with duplicates where NumPy allows them)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

import xnp

_E = Sample
_SMALL = st.integers(-5, 5)


def _small_arrays(dtypes, shape=None):
    """Arrays of small integer values in any of ``dtypes`` (exact in every float dtype)."""
    def build(ds):
        dt, shp = ds
        elems = st.booleans() if dt.kind == "b" else (
            st.integers(0, 5) if dt.kind == "u" else _SMALL)
        if dt.kind == "c":
            elems = st.builds(complex, _SMALL, _SMALL)
        return hnp.arrays(dt, shp, elements=elems)
    shape = shape if shape is not None else S.shapes()
    shape = shape if isinstance(shape, st.SearchStrategy) else st.just(shape)
    return st.tuples(st.sampled_from(dtypes), shape).flatmap(build)


def _sorted_1d(dtype=np.float64, min_size=0, max_size=5, unique=False):
    elems = st.floats(-10, 10, width=32) if np.dtype(dtype).kind == "f" else _SMALL
    return st.lists(elems, min_size=min_size, max_size=max_size, unique=unique).map(
        lambda v: np.array(sorted(v), dtype=dtype))


# --- histograms --------------------------------------------------------------------------------
_RANGE = st.one_of(st.none(), st.tuples(st.integers(-3, 3), st.integers(0, 4)).map(
    lambda t: (t[0], t[0] + t[1])), st.tuples(st.floats(-3, 3), st.floats(0, 4)).map(
    lambda t: (t[0], t[0] + t[1])))


def _hist_samples(with_density=True):
    def build(a):
        weights = st.one_of(
            hnp.arrays(st.sampled_from([np.float64, np.float32, np.int64]), a.shape,
                       elements=st.integers(0, 3)),
            hnp.arrays(np.bool_, a.shape))
        bins = st.one_of(st.integers(1, 5), _sorted_1d(min_size=0, max_size=5))
        opt = {"range": _RANGE, "weights": weights}
        if with_density:
            opt["density"] = st.booleans()
        return st.tuples(bins, st.fixed_dictionaries({}, optional=opt)).map(
            lambda t: Sample((a, t[0]), t[1]))
    data = st.one_of(S.arrays(st.sampled_from(S.FLOATS + S.INTS + S.BOOL)),
                     S.arrays(st.sampled_from(S.FLOATS), min_value=-6, max_value=6))
    return data.flatmap(build)


def _estimator_samples():
    names = st.sampled_from(["auto", "fd", "doane", "scott", "stone", "rice", "sturges",
                             "sqrt"])
    data = S.arrays(st.sampled_from([np.dtype(np.float64), np.dtype(np.int64)]),
                    shape=S.shapes(max_dims=1, min_side=1, max_side=8), min_value=-20,
                    max_value=20)
    return st.tuples(data, names, st.sampled_from([None, (-5.0, 5.0)])).map(
        lambda t: Sample((t[0],), {"bins": t[1], "range": t[2]}))


# --- bincount and digitize ----------------------------------------------------------------------
def _bincount_samples():
    def build(x):
        weights = hnp.arrays(st.sampled_from([np.float64, np.float32, np.int32, np.uint64]),
                             x.shape, elements=st.integers(0, 3))
        return st.fixed_dictionaries({}, optional={
            "weights": weights, "minlength": st.integers(0, 6)}).map(
            lambda kw: Sample((x,), kw))
    x = S.arrays(st.sampled_from(S.INTEGER[:3] + S.UINTS[:3] + S.BOOL),
                 shape=S.shapes(min_dims=1, max_dims=1, max_side=6), min_value=0,
                 max_value=6)
    return x.flatmap(build)


def _bincount_length_ref(x, weights=None, minlength=0, length=None):
    return np.bincount(x, weights, minlength=length)


def _bincount_length_samples():
    return _bincount_samples().map(lambda s: Sample(s.args, {
        **{k: v for k, v in s.kwargs.items() if k != "minlength"}, "length": 8}))


def _digitize_samples():
    bins = st.tuples(_sorted_1d(max_size=5), st.booleans()).map(
        lambda t: t[0][::-1].copy() if t[1] else t[0])
    x = S.arrays(st.sampled_from(S.FLOATS + S.INTS), min_value=-12, max_value=12)
    x = st.one_of(x, S.arrays(st.sampled_from(S.FLOATS)))
    return st.tuples(x, bins, st.booleans()).map(
        lambda t: Sample((t[0], t[1]), {"right": t[2]}))


# --- covariance -----------------------------------------------------------------------------------
def _cov_samples(with_weights=True):
    def build(m):
        n = m.shape[-1] if m.ndim else 1
        rows = m.ndim == 2

        def weights(kind):
            elems = st.integers(1, 3) if kind == "f" else st.sampled_from([0.5, 1.0, 2.0])
            return hnp.arrays(np.float64 if kind == "a" else np.int64, (n,), elements=elems)
        opt = {"rowvar": st.just(True) if not rows else st.booleans(),
               "bias": st.booleans(), "ddof": st.sampled_from([None, 0, 1, 2]),
               "dtype": st.sampled_from([None, np.float64, np.complex128]),
               "y": _small_arrays([np.dtype(np.float64)], shape=(n,))}
        if with_weights:
            opt.update(fweights=weights("f"), aweights=weights("a"))
        return st.fixed_dictionaries({}, optional=opt).map(
            lambda kw: Sample((m,), _fix_rowvar(m, kw)))
    shape = st.one_of(S.shapes(min_dims=1, max_dims=2, min_side=1),
                      st.just(()))
    return _small_arrays(S.FLOATS[1:] + S.INTS + S.COMPLEX, shape).flatmap(build)


def _fix_rowvar(m, kw):
    if not kw.get("rowvar", True) and m.ndim == 2:   # observations are then the rows
        for key in ("fweights", "aweights"):
            kw.pop(key, None)
        kw.pop("y", None)
    return kw


# --- interpolation -------------------------------------------------------------------------------
def _interp_samples():
    def build(xp):
        fp = st.one_of(hnp.arrays(np.float64, xp.shape, elements=st.floats(-10, 10)),
                       hnp.arrays(np.complex128, xp.shape,
                                  elements=st.builds(complex, _SMALL, _SMALL)))
        x = S.arrays(st.sampled_from([np.dtype(np.float64), np.dtype(np.int64)]),
                     min_value=-15, max_value=15)
        x = st.one_of(x, S.arrays(st.sampled_from([np.dtype(np.float64)])),
                      st.floats(-15, 15))
        return st.tuples(x, fp, st.fixed_dictionaries({}, optional={
            "left": st.floats(-5, 5), "right": st.floats(-5, 5),
            "period": st.sampled_from([360, 7.5, -4])})).map(
            lambda t: Sample((t[0], xp, t[1]), t[2]))
    return _sorted_1d(min_size=1, max_size=6, unique=True).flatmap(build)


# --- sequence functions ---------------------------------------------------------------------------
def _diff_samples():
    def build(a):
        axis = st.integers(-a.ndim, a.ndim - 1)
        edge = st.one_of(_SMALL, st.just(np.ones(a.shape[:-1] + (2,), a.dtype)))
        return st.tuples(axis, st.fixed_dictionaries({}, optional={
            "n": st.integers(0, 3), "prepend": edge, "append": edge})).map(
            lambda t: Sample((a,), {"axis": -1, **t[1]} if t[1] else {"axis": t[0]}))
    return S.arrays(st.sampled_from(S.ALL), shape=S.shapes(min_dims=1)).flatmap(build)


def _ediff1d_samples():
    extra = st.one_of(st.none(), _SMALL, st.lists(_SMALL, max_size=3).map(np.array))
    return st.tuples(S.arrays(st.sampled_from(S.NUMERIC)), extra, extra).map(
        lambda t: Sample((t[0],), {"to_begin": t[1], "to_end": t[2]}))


def _gradient_samples():
    def build(t):
        f, edge_order = t
        axes = st.one_of(st.none(), st.integers(-f.ndim, f.ndim - 1),
                         st.lists(st.integers(0, f.ndim - 1), min_size=1, max_size=f.ndim,
                                  unique=True).map(tuple))

        def spacing(axis):
            chosen = tuple(range(f.ndim)) if axis is None else (
                axis if isinstance(axis, tuple) else (axis,))
            per_axis = st.tuples(*[st.one_of(
                st.sampled_from([1.0, 2, 0.5]),
                _sorted_1d(min_size=f.shape[ax], max_size=f.shape[ax], unique=True),
                st.just(np.arange(f.shape[ax]) * 3))
                for ax in chosen])
            return st.one_of(st.just(()), st.sampled_from([(2.0,), (3,)]), per_axis)
        return axes.flatmap(lambda ax: spacing(ax).map(
            lambda sp: Sample((f, *sp), {"axis": ax, "edge_order": edge_order})))
    f = _small_arrays(S.FLOATS + S.INTS + S.COMPLEX,
                      S.shapes(min_dims=1, min_side=3, max_side=5))
    return st.tuples(f, st.sampled_from([1, 2])).flatmap(build)


def _trapezoid_samples():
    def build(y):
        axis = st.integers(-y.ndim, y.ndim - 1)

        def xs(ax):
            n = y.shape[ax]
            return st.one_of(st.none(), _sorted_1d(min_size=n, max_size=n),
                             st.just(np.cumsum(np.ones(y.shape), axis=ax)))
        return axis.flatmap(lambda ax: st.tuples(xs(ax), st.sampled_from([1.0, 0.5, 2])).map(
            lambda t: Sample((y,), {"axis": ax, **({"x": t[0]} if t[0] is not None else
                                                  {"dx": t[1]})})))
    return _small_arrays(S.FLOATS + S.INTS + S.COMPLEX + S.BOOL,
                         S.shapes(min_dims=1)).flatmap(build)


def _cross_samples():
    def build(t):
        (sa, sb), na, nb, dt = t
        a = hnp.arrays(dt, sa + (na,), elements=st.integers(-4, 4) if dt.kind != "b"
                       else st.booleans())
        b = hnp.arrays(dt, sb + (nb,), elements=st.integers(-4, 4) if dt.kind != "b"
                       else st.booleans())
        nd = max(len(sa), len(sb)) + 1
        axisc = st.integers(-nd, nd - 1) if 3 in (na, nb) else st.just(-1)
        return st.tuples(a, b, axisc, st.booleans()).map(_cross_sample)
    shapes = hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3).map(
        lambda r: r.input_shapes)
    dtypes = st.sampled_from(S.INTS + S.FLOATS + S.COMPLEX + S.BOOL)
    return st.tuples(shapes, st.sampled_from([2, 3]), st.sampled_from([2, 3]), dtypes
                     ).flatmap(build)


def _cross_sample(t):
    a, b, axisc, move = t
    if move and a.ndim > 1:            # vectors along the first axis of a
        return Sample((np.moveaxis(a, -1, 0), b), {"axisa": 0, "axisc": axisc})
    return Sample((a, b), {"axisc": axisc})


def _convolve_samples():
    one = _small_arrays(S.ALL, S.shapes(max_dims=1, max_side=5))
    return st.tuples(one, one, st.sampled_from(["full", "same", "valid"])).map(
        lambda t: Sample((t[0], t[1]), {"mode": t[2]}))


ENTRIES = [
    OpInfo("histogram", _hist_samples(), rtol=1e-6),
    OpInfo("histogram_bin_edges", _hist_samples(with_density=False)),
    OpInfo("histogram", _estimator_samples(), id="histogram-estimators", traceable=False),
    OpInfo("histogram_bin_edges", _estimator_samples(), id="histogram_bin_edges-estimators",
           traceable=False),
    OpInfo("bincount", _bincount_samples(), traceable=False),
    OpInfo("bincount", st.integers(0, 4).map(lambda n: Sample(([],), {"minlength": n})),
           id="bincount-empty-list", differentiable=False),
    OpInfo("bincount", _bincount_length_samples(), id="bincount-length",
           ref=_bincount_length_ref),
    OpInfo("digitize", _digitize_samples(), differentiable=False),
    OpInfo("cov", _cov_samples(), rtol=1e-9, atol=1e-12),
    OpInfo("corrcoef", _cov_samples(with_weights=False).map(
        lambda s: Sample(s.args, {k: v for k, v in s.kwargs.items()
                                  if k in ("y", "rowvar", "dtype")})), rtol=1e-9,
           atol=1e-12),
    OpInfo("interp", _interp_samples(), rtol=1e-9, atol=1e-12, differentiable=False),
    # xp sorted inside, so that inputs the derivative checks redraw stay valid (unsorted
    # xp is undefined behaviour, where NumPy and the traced search may differ)
    OpInfo("interp", _interp_samples(), id="interp-sorted-xp", rtol=1e-9, atol=1e-12,
           op=lambda x, xp, fp, **kw: xnp.interp(x, xnp.sort(xp), fp, **kw),
           ref=lambda x, xp, fp, **kw: np.interp(x, np.sort(xp), fp, **kw)),
    OpInfo("diff", _diff_samples()),
    OpInfo("ediff1d", _ediff1d_samples()),
    OpInfo("gradient", _gradient_samples(), rtol=1e-9, atol=1e-12),
    OpInfo("trapezoid", _trapezoid_samples(), rtol=1e-9, atol=1e-12),
    OpInfo("cross", _cross_samples()),
    OpInfo("convolve", _convolve_samples()),
    OpInfo("correlate", _convolve_samples()),
]

ENTRIES += [
    OpInfo("histogram", id="histogram-errors", errors=[
        _E((np.array([1.0, np.nan]),)), _E((np.ones(3), 0)), _E((np.ones(3), 2.5)),
        _E((np.ones(3), [[1, 2]])), _E((np.ones(3), [3, 1, 2])),
        _E((np.ones(3),), {"range": (2, 1)}), _E((np.ones(3),), {"range": (0, np.inf)}),
        _E((np.ones(3),), {"weights": np.ones(2)}), _E((np.ones(3), "bad")),
        _E((np.ones(3), "auto"), {"weights": np.ones(3)})]),
    OpInfo("bincount", id="bincount-errors", errors=[
        _E((np.array([1.0]),)), _E((np.array(1),)), _E((np.ones((2, 2), int),)),
        _E((np.array([-1]),)), _E((np.array([1]),), {"minlength": -1}),
        _E((np.array([1]),), {"weights": np.ones(2)}),
        _E((np.array([1]),), {"weights": np.ones(1, complex)})]),
    OpInfo("digitize", id="digitize-errors", errors=[
        _E((np.ones(2, complex), np.ones(2))), _E((np.ones(2), np.array([1.0, 3, 2]))),
        _E((np.ones(2), np.ones((2, 2)))), _E((np.ones(2), np.array(1.0)))]),
    OpInfo("cov", id="cov-errors", errors=[
        _E((np.ones((2, 2, 2)),)), _E((np.ones(3),), {"ddof": 1.5}),
        _E((np.ones(3),), {"y": np.ones((2, 2, 2))}),
        _E((np.ones(3),), {"fweights": np.array([1.5, 1, 1])}),
        _E((np.ones(3),), {"fweights": np.array([-1, 1, 1])}),
        _E((np.ones(3),), {"aweights": np.ones(2)}),
        _E((np.ones(3),), {"aweights": np.ones((3, 1))}),
        _E((np.ones((2, 3)),), {"y": np.ones((2, 4))})]),
    OpInfo("interp", id="interp-errors", errors=[
        _E((1.0, [], [])), _E((1.0, [1, 2], [1])), _E((1.0, [[1, 2]], [1, 2])),
        _E((np.ones(2, complex), [1, 2], [1, 2])), _E((1.0, [1, 2], [1, 2]), {"period": 0})]),
    OpInfo("diff", id="diff-errors", errors=[
        _E((np.array(1.0),)), _E((np.ones(3),), {"n": -1}), _E((np.ones(3),), {"axis": 1}),
        _E((np.ones((2, 3)),), {"prepend": np.ones((3, 3))})]),
    OpInfo("ediff1d", id="ediff1d-errors", errors=[
        _E((np.ones(3, np.int64),), {"to_begin": 1.5}), _E((np.ones(3, bool),))]),
    OpInfo("gradient", id="gradient-errors", errors=[
        _E((np.ones(2),), {"edge_order": 2}), _E((np.ones(3),), {"edge_order": 3}),
        _E((np.ones(3), 1.0, 2.0)), _E((np.ones(3), np.ones(4))),
        _E((np.ones(3), np.ones((3, 1)))), _E((np.ones(3, bool),)),
        _E((np.ones((3, 3)),), {"axis": 2})]),
    OpInfo("trapezoid", id="trapezoid-errors", errors=[
        _E((np.array(1.0),)), _E((np.ones(3),), {"axis": 1})]),
    OpInfo("cross", id="cross-errors", errors=[
        _E((np.ones(4), np.ones(3))), _E((np.array(1.0), np.ones(3))),
        _E((np.ones((2, 3)), np.ones((3, 3)))), _E((np.ones(3), np.ones(3)), {"axisa": 1}),
        _E((np.ones(3), np.ones(3)), {"axisc": 2}), _E((np.ones(2, bool), np.ones(2, bool)))]),
    OpInfo("convolve", id="convolve-errors", errors=[
        _E((np.ones(3), np.ones(0))), _E((np.ones(0), np.ones(2))),
        _E((np.ones((2, 2)), np.ones(2))), _E((np.ones(3), np.ones(2)), {"mode": "bad"})]),
    OpInfo("correlate", id="correlate-errors", errors=[
        _E((np.ones(3), np.ones(0))), _E((np.ones(3), np.ones(2)), {"mode": "other"})]),
]
