"""Registry entries for the reductions: sums, products, extrema, arg-extrema, logical
reductions, means and variances, cumulative sums and products, order statistics
(median, percentile, quantile with every method) and the NaN-ignoring variants.

Arrays come with a valid ``axis`` (None, negative, tuple) and the keyword arguments each
function takes (keepdims, dtype, where, initial, ddof, out, ...). NaN-heavy arrays make
all-NaN slices common for the nan* functions."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

_NAN_HEAVY = [np.nan, np.nan, 1.0, -2.0, 0.5, np.inf, -np.inf, 3.0]
_QUANTILE_METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
                     "averaged_inverted_cdf", "closest_observation",
                     "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                     "normal_unbiased"]


def _nan_heavy(dtypes=S.FLOATS):
    def build(ds):
        dt, shape = ds
        return hnp.arrays(dt, shape, elements=st.sampled_from(_NAN_HEAVY))
    return st.tuples(st.sampled_from(dtypes), S.shapes()).flatmap(build)


def _arrays(dtypes, nan_heavy=False, **elem):
    plain = S.arrays(st.sampled_from(dtypes), **elem)
    if not nan_heavy:
        return plain
    return st.one_of(plain, _nan_heavy([d for d in dtypes if d.kind == "f"]))


def _where_for(a):
    """A boolean mask broadcastable to ``a`` (same shape or a trailing part of it)."""
    k = st.integers(0, a.ndim)
    return k.flatmap(lambda k: hnp.arrays(np.bool_, a.shape[k:]))


def _reduction(dtypes, options=None, nan_heavy=False, tuple_axis=True, **elem):
    """Sample((a,), {axis, keepdims, ...options(a)}) for an axis valid for ``a``."""
    def build(a):
        opt = {"keepdims": st.booleans()}
        if options is not None:
            opt.update(options(a))
        return st.fixed_dictionaries({"axis": S.axes(a.ndim, allow_tuple=tuple_axis)},
                                     optional=opt).map(lambda kw: Sample((a,), kw))
    return _arrays(dtypes, nan_heavy, **elem).flatmap(build)


_ACC_DTYPES = st.sampled_from([None, np.int64, np.float32, np.float64, np.complex128])


def _sum_options(a):
    return {"dtype": _ACC_DTYPES, "initial": st.one_of(st.integers(-3, 3), st.floats(-2, 2)),
            "where": _where_for(a)}


def _extremum_options(a):
    return {"initial": st.integers(-3, 3)}


def _extremum_where():
    """max/min with where= (and the initial it requires)."""
    def build(a):
        return st.tuples(_where_for(a), st.integers(-3, 3), S.axes(a.ndim)).map(
            lambda t: Sample((a,), {"where": t[0], "initial": t[1], "axis": t[2]}))
    return S.arrays(st.sampled_from(S.REAL)).flatmap(build)


def _mean_options(a):
    return {"dtype": st.sampled_from([None, np.float32, np.float64]),
            "where": _where_for(a)}


def _var_options(a):
    return {"dtype": st.sampled_from([None, np.float32, np.float64]),
            "ddof": st.sampled_from([0, 1, 2, 0.5]), "where": _where_for(a)}


def _var_correction():
    return S.arrays(st.sampled_from(S.FLOATS + S.INTS)).flatmap(
        lambda a: st.tuples(S.axes(a.ndim), st.sampled_from([0, 1, 1.5])).map(
            lambda t: Sample((a,), {"axis": t[0], "correction": t[1]})))


def _var_mean():
    """var with a precomputed keepdims mean."""
    def build(t):
        a, axis = t
        return st.just(Sample((a,), {"axis": axis,
                                     "mean": np.mean(a, axis=axis, keepdims=True)}))
    return S.arrays(st.sampled_from(S.FLOATS), shape=S.shapes(min_dims=1, min_side=1),
                    finite=True).flatmap(lambda a: st.tuples(st.just(a), S.axes(a.ndim))
                                         ).flatmap(build)


def _out_sample(name, dtypes, tuple_axis=True):
    """The reduction written into an ``out`` array of the right shape (and some dtype)."""
    fn = getattr(np, name)

    def build(t):
        a, axis, odt = t
        shape = np.shape(fn(a, axis=axis))
        return Sample((a,), {"axis": axis, "out": np.zeros(shape, odt)})
    return S.arrays(st.sampled_from(dtypes), shape=S.shapes(min_side=1)).flatmap(
        lambda a: st.tuples(st.just(a), S.axes(a.ndim, allow_tuple=tuple_axis),
                            st.sampled_from([np.float64, np.int64, np.int32]))).map(build)


def _arg_samples(dtypes, nan_heavy=False):
    def build(a):
        axis = st.one_of(st.none(), st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1))
        return st.fixed_dictionaries({"axis": axis}, optional={"keepdims": st.booleans()}
                                     ).map(lambda kw: Sample((a,), kw))
    return _arrays(dtypes, nan_heavy).flatmap(build)


def _cum_samples(dtypes, nan_heavy=False):
    def build(a):
        axis = st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)) if a.ndim else st.none()
        return st.fixed_dictionaries({"axis": axis}, optional={
            "dtype": st.sampled_from([None, np.int64, np.float64, np.float32])}
        ).map(lambda kw: Sample((a,), kw))
    return _arrays(dtypes, nan_heavy).flatmap(build)


def _cumulative_api_samples():
    def build(a):
        axis = st.integers(-a.ndim, a.ndim - 1) if a.ndim > 1 else \
            st.one_of(st.none(), st.sampled_from([0, -1]))
        return st.fixed_dictionaries({"axis": axis}, optional={
            "dtype": st.sampled_from([None, np.int64, np.float64]),
            "include_initial": st.booleans()}).map(lambda kw: Sample((a,), kw))
    return S.arrays(st.sampled_from(S.ALL)).flatmap(build)


def _average_samples():
    def build(a):
        def weighted(axis):
            if axis is None:
                return hnp.arrays(st.sampled_from(S.FLOATS + S.INTS), a.shape,
                                  elements=st.integers(1, 4))
            axes = axis if isinstance(axis, tuple) else (axis,)
            shape = st.sampled_from([a.shape, tuple(a.shape[i] for i in axes)])
            return shape.flatmap(lambda s: hnp.arrays(np.float64, s,
                                                      elements=st.integers(1, 4)))
        axis = S.axes(a.ndim)
        return axis.flatmap(lambda ax: st.fixed_dictionaries(
            {"axis": st.just(ax)},
            optional={"weights": weighted(ax), "returned": st.booleans(),
                      "keepdims": st.booleans()}).map(lambda kw: Sample((a,), kw)))
    return S.arrays(st.sampled_from(S.FLOATS + S.INTS + S.BOOL + S.COMPLEX),
                    shape=S.shapes(min_side=1), max_value=1e6, min_value=-1e6
                    ).flatmap(build)


_Q = st.one_of(st.floats(0, 1), st.sampled_from([0, 1, 0.5, 0.25]),
               st.lists(st.floats(0, 1), min_size=0, max_size=3).map(np.array),
               st.sampled_from([np.float32(0.3), np.array([0.5, 0.75], np.float32),
                                np.array([0, 1])]))


def _quantile_samples(percent=False, nan_heavy=False):
    def build(a):
        q = _Q.map(lambda q: q * 100 if percent else q)
        return st.tuples(q, st.fixed_dictionaries(
            {"axis": S.axes(a.ndim)},
            optional={"method": st.sampled_from(_QUANTILE_METHODS),
                      "keepdims": st.booleans()})).map(lambda t: Sample((a, t[0]), t[1]))
    return _arrays(S.REAL + S.BOOL, nan_heavy).flatmap(build)


def _weighted_quantile_samples(nan_heavy=False):
    def build(a):
        axis = S.axes(a.ndim, allow_tuple=False)
        return st.tuples(axis, _Q, hnp.arrays(np.float64, a.shape,
                                              elements=st.sampled_from([0.0, 1.0, 2.0, 0.5]))
                         ).map(lambda t: Sample((a, t[1]), {
                             "axis": t[0], "weights": t[2], "method": "inverted_cdf"}))
    arrays = _arrays(S.FLOATS + S.INTS, nan_heavy, shape=S.shapes(min_side=1))
    return arrays.flatmap(build)


def _value_independent_dtype(fn):
    """NumPy's quantile, cast to the dtype it gives for NaN-free data: for NaN data NumPy
    may return the input dtype instead (a value-dependent dtype xnp does not copy)."""
    def ref(a, q, *args, **kwargs):
        r = fn(a, q, *args, **kwargs)
        try:
            dtype = np.asarray(fn(np.nan_to_num(a), q, *args, **kwargs)).dtype
        except Exception:
            return r
        return np.asarray(r).astype(dtype)
    return ref


def _median_samples(dtypes, nan_heavy=False):
    return _reduction(dtypes, nan_heavy=nan_heavy)


_NAN_ALL = S.FLOATS + S.INTS + S.BOOL

ENTRIES = [
    OpInfo("sum", _reduction(S.ALL, _sum_options), rtol=1e-6),
    OpInfo("prod", _reduction(S.ALL, _sum_options, max_value=4, min_value=-4), rtol=1e-6),
    OpInfo("sum", _out_sample("sum", S.REAL), id="sum-out"),
    OpInfo("max", _reduction(S.ALL, _extremum_options)),
    OpInfo("min", _reduction(S.ALL, _extremum_options)),
    OpInfo("max", _extremum_where(), id="max-where"),
    OpInfo("min", _extremum_where(), id="min-where"),
    OpInfo("amax", _reduction(S.REAL)),
    OpInfo("amin", _reduction(S.REAL)),
    OpInfo("ptp", _reduction(S.ALL)),
    # integer and boolean results: nothing to differentiate
    OpInfo("argmax", _arg_samples(S.ALL, nan_heavy=True), differentiable=False),
    OpInfo("argmin", _arg_samples(S.ALL, nan_heavy=True), differentiable=False),
    OpInfo("argmax", _out_sample("argmax", S.REAL, tuple_axis=False), id="argmax-out",
           differentiable=False),
    OpInfo("any", _reduction(S.ALL, lambda a: {"where": _where_for(a)}), differentiable=False),
    OpInfo("all", _reduction(S.ALL, lambda a: {"where": _where_for(a)}), differentiable=False),
    OpInfo("count_nonzero", _reduction(S.ALL), differentiable=False),
    OpInfo("mean", _reduction(S.ALL, _mean_options), rtol=1e-6),
    OpInfo("mean", _out_sample("mean", S.REAL), id="mean-out", rtol=1e-6),
    OpInfo("var", _reduction(S.NUMERIC + S.BOOL, _var_options, max_value=1e4,
                             min_value=-1e4), rtol=1e-6),
    OpInfo("std", _reduction(S.NUMERIC + S.BOOL, _var_options, max_value=1e4,
                             min_value=-1e4), rtol=1e-6, kink_at_zero_output=True),
    OpInfo("var", _var_correction(), id="var-correction", rtol=1e-6),
    OpInfo("var", _var_mean(), id="var-mean", rtol=1e-6),
    OpInfo("std", _var_correction(), id="std-correction", rtol=1e-6,
           kink_at_zero_output=True),
    OpInfo("average", _average_samples(), rtol=1e-6),
    OpInfo("cumsum", _cum_samples(S.ALL), rtol=1e-6),
    OpInfo("cumprod", _cum_samples(S.ALL), rtol=1e-6),
    OpInfo("cumulative_sum", _cumulative_api_samples(), rtol=1e-6),
    OpInfo("cumulative_prod", _cumulative_api_samples(), rtol=1e-6),
    OpInfo("median", _median_samples(S.REAL + S.BOOL + S.COMPLEX, nan_heavy=True)),
    OpInfo("quantile", _quantile_samples(), rtol=1e-6),
    OpInfo("percentile", _quantile_samples(percent=True), rtol=1e-6),
    OpInfo("quantile", _weighted_quantile_samples(), id="quantile-weights"),
    OpInfo("quantile", _quantile_samples(nan_heavy=True), id="quantile-nan", rtol=1e-6,
           ref=_value_independent_dtype(np.quantile)),
    # NaN-ignoring variants
    OpInfo("nansum", _reduction(S.FLOATS + S.COMPLEX + S.INTS, _sum_options, nan_heavy=True),
           rtol=1e-6),
    OpInfo("nanprod", _reduction(S.FLOATS + S.INTS, _sum_options, nan_heavy=True,
                                 max_value=4, min_value=-4), rtol=1e-6),
    OpInfo("nanmean", _reduction(_NAN_ALL + S.COMPLEX, lambda a: {"where": _where_for(a)},
                                 nan_heavy=True), rtol=1e-6),
    OpInfo("nanvar", _reduction(_NAN_ALL + S.COMPLEX, lambda a: {
        "ddof": st.sampled_from([0, 1, 2]), "where": _where_for(a)}, nan_heavy=True,
        max_value=1e4, min_value=-1e4), rtol=1e-6),
    OpInfo("nanstd", _reduction(_NAN_ALL, lambda a: {"ddof": st.sampled_from([0, 1])},
                                nan_heavy=True, max_value=1e4, min_value=-1e4), rtol=1e-6,
           kink_at_zero_output=True),
    OpInfo("nanmax", _reduction(_NAN_ALL, _extremum_options, nan_heavy=True)),
    OpInfo("nanmin", _reduction(_NAN_ALL, _extremum_options, nan_heavy=True)),
    OpInfo("nanargmax", _arg_samples(_NAN_ALL, nan_heavy=True), differentiable=False),
    OpInfo("nanargmin", _arg_samples(_NAN_ALL, nan_heavy=True), differentiable=False),
    OpInfo("nancumsum", _cum_samples(_NAN_ALL, nan_heavy=True), rtol=1e-6),
    OpInfo("nancumprod", _cum_samples(_NAN_ALL, nan_heavy=True), rtol=1e-6),
    OpInfo("nanmedian", _median_samples(_NAN_ALL, nan_heavy=True)),
    OpInfo("nanquantile", _quantile_samples(nan_heavy=True), rtol=1e-6,
           ref=_value_independent_dtype(np.nanquantile)),
    OpInfo("nanpercentile", _quantile_samples(percent=True, nan_heavy=True), rtol=1e-6,
           ref=_value_independent_dtype(np.nanpercentile)),
    OpInfo("nanquantile", _weighted_quantile_samples(nan_heavy=True),
           id="nanquantile-weights"),
]

_E = Sample
ENTRIES += [
    OpInfo("sum", id="sum-errors", errors=[
        _E((np.ones((2, 3)),), {"axis": 2}),
        _E((np.ones((2, 3)),), {"axis": (0, 0)}),
        _E((np.ones(3),), {"where": np.ones(3, np.int64)}),
        _E((np.ones((2, 3)),), {"where": np.ones(2, bool)}),
        _E((np.ones((2, 3)),), {"axis": 0, "out": np.zeros(4)})]),
    OpInfo("max", id="max-errors", errors=[
        _E((np.ones((0, 3)),), {"axis": 0}),
        _E((np.ones(3),), {"where": np.ones(3, bool)}),
        _E((np.ones(3),), {"axis": -2})]),
    OpInfo("min", id="min-errors", errors=[_E((np.ones((2, 0)),), {"axis": 1})]),
    OpInfo("ptp", id="ptp-errors", errors=[_E((np.ones(3, bool),)), _E((np.ones(0),))]),
    OpInfo("argmax", id="argmax-errors", errors=[
        _E((np.ones(0),)), _E((np.ones((2, 3)),), {"axis": 2}),
        _E((np.array(1.0),), {"axis": 1})]),
    OpInfo("argmin", id="argmin-errors", errors=[_E((np.ones((3, 0)),), {"axis": 1})]),
    OpInfo("var", id="var-errors", errors=[
        _E((np.ones(3),), {"ddof": 1, "correction": 1})]),
    OpInfo("mean", id="mean-errors", errors=[_E((np.ones(3),), {"axis": 1})]),
    OpInfo("average", id="average-errors", errors=[
        _E((np.ones((2, 3)),), {"weights": np.ones(3)}),
        _E((np.ones((2, 3)),), {"axis": 0, "weights": np.ones(3)}),
        _E((np.ones((2, 3)),), {"axis": 1, "weights": np.zeros(3)})]),
    OpInfo("cumsum", id="cumsum-errors", errors=[_E((np.ones((2, 3)),), {"axis": 2})]),
    OpInfo("cumulative_sum", id="cumulative_sum-errors", errors=[_E((np.ones((2, 3)),))]),
    OpInfo("cumulative_prod", id="cumulative_prod-errors", errors=[
        _E((np.ones(3),), {"axis": 1})]),
    OpInfo("quantile", id="quantile-errors", errors=[
        _E((np.ones(3), 1.5)), _E((np.ones(3), -0.1)), _E((np.ones(3), [[[0.5]]])),
        _E((np.ones(3, complex), 0.5)), _E((np.ones(3), 0.5), {"method": "bad"}),
        _E((np.ones(0), 0.5)), _E((np.ones(3, bool), 0.5)),
        _E((np.ones(3), 0.5), {"weights": np.ones(3)}),
        _E((np.ones(3), 0.5), {"weights": -np.ones(3), "method": "inverted_cdf"}),
        _E((np.ones(3), 0.5), {"weights": np.zeros(3), "method": "inverted_cdf"})]),
    OpInfo("percentile", id="percentile-errors", errors=[_E((np.ones(3), 101))]),
    OpInfo("nanargmax", id="nanargmax-errors", errors=[
        _E((np.array([np.nan, np.nan]),)), _E((np.ones(0),)),
        _E((np.array([[1.0, np.nan]]),), {"axis": 0})]),
    OpInfo("nanargmin", id="nanargmin-errors", errors=[_E((np.array([np.nan]),))]),
    OpInfo("nanmax", id="nanmax-errors", errors=[
        _E((np.ones(0),)), _E((np.array([np.nan, 1.0]),), {"where": np.ones(2, bool)})]),
    OpInfo("nanmean", id="nanmean-errors", errors=[
        _E((np.ones(3),), {"dtype": np.int64})]),
    OpInfo("nanquantile", id="nanquantile-errors", errors=[
        _E((np.ones(3), 2.0)), _E((np.ones(3, complex), 0.5))]),
]
