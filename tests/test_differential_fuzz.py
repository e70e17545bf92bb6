"""Regression tests for discrepancies found by differential fuzzing of xnp against NumPy
(random dtypes, shapes, views, special values and Python scalars): each case runs the same
call on NumPy and on xnp and compares dtype, shape, values and exception class."""

import warnings

import numpy as np
import pytest

import xnp
from tests.numpy_compare import equal, same


def _quiet(fn):
    def run(m):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return fn(m)
    return run


def test_two_output_ufuncs_take_dtype():
    x = np.array([23.2, -0.5, 7.0], np.float16)
    same(lambda m: m.modf(m.asarray(x), dtype="float64"))
    same(lambda m: m.modf(m.asarray(x), dtype="int16"))          # no integer loop
    same(lambda m: m.divmod(m.asarray([7, 8], "u1"), m.asarray([2, 3], "u4"), dtype="uint16"))
    for dt in ("int16", "float32", "float64"):
        same(lambda m: m.frexp(m.asarray([1.0, 3.0]), dtype=dt))  # frexp has no such loop
        same(lambda m: m.frexp(2, dtype=dt))


def test_ldexp_zero_and_extreme_exponents():
    x = np.array([0.0, -0.0, 1.5, np.inf, np.nan, 2.0 ** 1000, 3.0, 1e-300])
    e = np.array([2000, 5000, -1080, 3000, 1, -1100, 1023, 1100])
    same(_quiet(lambda m: m.ldexp(m.asarray(x), m.asarray(e))))
    same(_quiet(lambda m: m.ldexp(m.asarray([2, 0, 3], "u2"), m.asarray([65276, 19655, 4], "u2"))))
    # traced: the composition keeps 0 * 2**big at 0 and exact powers of two
    with np.errstate(all="ignore"):
        equal(np.ldexp(x, e), xnp.jit(xnp.ldexp)(x, e))
        f, k = np.array([0, 3, 1.5], np.float16), np.array([30, 4, -24], np.int32)
        equal(np.ldexp(f, k), xnp.jit(xnp.ldexp)(f, k))


def test_searchsorted_python_int_beyond_int64():
    for a in ([1, 5, 9], [False, True]):
        for dt in (("u8", "i1", "u1") if len(a) == 3 else ("?",)):
            arr = np.array(a, dt)
            for v in (2 ** 64 - 1, -2 ** 63, [2 ** 64 - 1, 3]):
                same(lambda m: m.searchsorted(m.asarray(arr), v))
    same(lambda m: m.searchsorted(m.asarray([1.0, 2.0], "f2"), 2 ** 64 - 1))


def test_mean_var_std_axis_of_0d():
    for a in (np.array(3.0), np.array(3), np.array(2.5, "f4")):
        for f in ("mean", "std", "var", "nanmean", "nanstd", "nanvar"):
            for kw in ({"axis": 0}, {"axis": -1, "where": np.array(True)},
                       {"axis": 0, "where": True}, {"axis": (0,), "where": np.array(True)},
                       {"axis": 0, "keepdims": True}):
                same(_quiet(lambda m: getattr(m, f)(m.asarray(a), **kw)))


def test_std_integer_dtype():
    a = np.arange(6, dtype="u1").reshape(2, 3)
    for f in ("std", "nanstd"):
        for kw in ({"dtype": "int64"}, {"dtype": bool}, {"dtype": "int8", "axis": 0},
                   {"dtype": "int8", "keepdims": True}, {"dtype": "float32", "axis": 1}):
            same(_quiet(lambda m: getattr(m, f)(m.asarray(a), **kw)))
        same(_quiet(lambda m: getattr(m, f)(m.ones(3), dtype="int8", axis=0)))


def test_reduce_and_accumulate_dtype_selects_numpy_loop():
    for uf in ("maximum", "minimum", "fmax", "logical_and", "logical_xor", "divide", "hypot",
               "power", "remainder", "copysign", "add", "multiply", "bitwise_or"):
        for adt in ("?", "i1", "u2", "f2", "f8", "c8"):
            for dt in ("?", "i4", "u1", "f8", "c16"):
                x = np.array([1, 2, 3]).astype(adt)
                same(_quiet(lambda m: getattr(m, uf).reduce(m.asarray(x), dtype=dt)))
                same(_quiet(lambda m: getattr(m, uf).accumulate(m.asarray(x), dtype=dt)))


def test_reduceat_result_dtype_and_scalar():
    for uf, dt in (("logical_or", "u1"), ("divide", "i2"), ("add", "u1"), ("add", "?"),
                   ("bitwise_or", "f8"), ("equal", "i4"), ("hypot", "u4")):
        for idx in ([0, 2, 1], [], [1, 1, 0]):
            for shape in ((3,), (), (3, 2)):
                x = np.arange(int(np.prod(shape))).reshape(shape).astype(dt)
                same(_quiet(lambda m: getattr(m, uf).reduceat(m.asarray(x), idx)))


def test_outer_python_scalars_are_not_weak():
    for a, b in ((np.zeros(2, "f2"), 1e300), (np.ones(2, "f4"), -1), (np.ones(2, "u8"), -5),
                 (3, np.ones(2, "i1")), ([1, 2], [3.0])):
        for uf in ("maximum", "power", "add", "equal"):
            same(_quiet(lambda m: getattr(m, uf).outer(a, b)))


def test_putmask_place_cast_arrays_safely():
    mask = np.array([True, False, True])
    for f in ("putmask", "place"):
        for adt in ("u1", "i8", "f4", "?", "c8"):
            for v in (np.array([1.5, 2.0]), np.array([1, 2], "i2"), np.array([1, 2], "f4"),
                      1.5, 300, -1, [1, 2], [300], np.float64(2.5), np.array([], "f8"),
                      np.array([1j])):
                def run(m):
                    a = m.zeros(3, adt)
                    getattr(m, f)(a, mask, v if not isinstance(v, np.ndarray) else m.asarray(v))
                    return a
                same(_quiet(run))


def test_flip_choose_0d_give_scalars():
    same(lambda m: m.flip(m.asarray(3.0)))
    same(lambda m: m.flip(m.asarray(3.0), axis=()))
    same(lambda m: m.flip(m.ones(2), axis=()))
    same(lambda m: m.choose(m.asarray(0), [m.asarray(1.0)]))
    same(lambda m: m.choose(0, [1, 2]))
    for got, want in ((xnp.flip(xnp.asarray(3.0)), np.flip(np.asarray(3.0))),
                      (xnp.choose(0, [1, 2]), np.choose(0, [1, 2]))):
        assert type(got) is type(want)


def test_cross_isin_0d_give_arrays():
    got = _quiet(lambda m: m.cross(m.asarray([1, 2]), m.asarray([3, 4])))(xnp)
    assert isinstance(got, xnp.ndarray) and got.shape == () and got == -2
    for args in ((3, [3]), (np.float32(2.5), np.ones((2, 3), "u1"))):
        got, want = xnp.isin(*args), np.isin(*args)
        assert isinstance(got, xnp.ndarray) and got.shape == () and bool(got) == bool(want)
        assert isinstance(xnp.isin(*args, invert=True), xnp.ndarray)


def test_extremum_where_checked_on_empty():
    for f in ("max", "min", "nanmax"):
        for shape, wshape in (((0, 3), (0,)), ((0, 3), (4, 3)), ((2, 0), (3,)), ((0,), (2,)),
                              ((0, 3), (1, 3))):
            same(_quiet(lambda m: getattr(m, f)(m.zeros(shape), where=m.ones(wshape, bool),
                                                initial=1.0)))


def test_nan_to_num_complex_fill_into_real():
    for x in (np.zeros(0, "c8"), np.ones(2), np.array([np.nan + 1j]), np.array([1, 2])):
        for kw in ({"nan": 1j}, {"posinf": 1j}, {"nan": -7, "neginf": 2.5}):
            same(lambda m: m.nan_to_num(m.asarray(x), **kw))


def test_round_bool():
    for x in (np.array([True, False]), np.array(True)):
        for d in (0, 1, -1):
            same(lambda m: m.round(m.asarray(x), d))
            same(lambda m: m.asarray(x).round(d))


@pytest.mark.parametrize("name", ["positive", "isinf", "sign", "negative"])
def test_unary_ufunc_of_python_int_beyond_int64(name):
    same(_quiet(lambda m: getattr(m, name)(2 ** 64 - 1)))


def test_unary_ufunc_python_scalar_with_dtype_is_strong():
    for name in ("ceil", "abs", "positive", "negative", "sqrt", "invert", "logical_not"):
        for v in (2, -7, 300, 2 ** 64 - 1, 2.5, 1j, True):
            for dt in ("uint8", "int16", "uint64", "float32", "bool"):
                for casting in ("same_kind", "no", "safe", "unsafe"):
                    same(_quiet(lambda m: getattr(m, name)(v, dtype=dt, casting=casting)))


def test_binary_ufunc_python_scalar_errors_and_bool_dtype():
    for name in ("add", "less", "maximum", "logical_and", "logical_xor", "bitwise_or", "equal"):
        for a in (np.ones(2, "i1"), np.ones(2, "u8"), np.ones(2, "f4"), 3):
            for v in (-7, 300, 2 ** 64 - 1, 2.5, 1j):
                for dt in (None, "uint8", "int16", "bool"):
                    for casting in ("same_kind", "safe", "unsafe"):
                        same(_quiet(lambda m: getattr(m, name)(
                            m.asarray(a) if isinstance(a, np.ndarray) else a, v, dtype=dt,
                            casting=casting)))


def test_ufunc_methods_error_order():
    # the axis before the 0-d check and the loop's TypeError; the loop before the indices
    for uf in ("bitwise_or", "add", "logical_and", "maximum"):
        for axis in (0, -1, 1, None, (0,), 5, (0, 1), ()):
            for a in (np.array(3), np.ones(3), np.ones((2, 2)), np.ones(3, "i4")):
                for dt in (None, "f8", "i4"):
                    for meth in ("accumulate", "reduce"):
                        same(_quiet(lambda m: getattr(getattr(m, uf), meth)(
                            m.asarray(a), axis=axis, dtype=dt)))
    for uf, a, idx, b in (("bitwise_or", np.ones(3), [5], 1), ("gcd", np.ones(3, "f4"), [],
                          np.array([1], "u1")), ("gcd", np.ones(3, "i4"), [], np.array([1.0]))):
        def run(m):
            x = m.asarray(a)
            getattr(m, uf).at(x, idx, b)
            return x
        same(run)
    same(lambda m: m.hypot.reduceat(m.asarray([1, 2, 3], "u4"), [0, 7]))


def test_ufunc_reduce_where_skips_masked_elements():
    # masked elements are skipped (not replaced by initial), where= must broadcast to the
    # array, an explicit initial=None refuses where=, and no error comes from them
    rng = np.random.default_rng(0)
    for uf in ("add", "logical_xor", "subtract", "remainder", "divide", "bitwise_and", "gcd",
               "lcm", "copysign", "floor_divide", "fmax", "power"):
        for dt in ("i2", "f8", "u1"):
            for shape, wshape in (((3,), (2, 3)), ((2, 3), (3,)), ((2, 1, 3), (2, 1, 3)),
                                  ((4,), ()), ((0, 3), (3,))):
                for kw in ({}, {"initial": 3}, {"initial": 0}, {"initial": None}):
                    for axis in (0, -1, None):
                        a = rng.integers(-5, 6, size=shape).astype(dt)
                        w = rng.random(wshape) < 0.5
                        if uf == "power" and dt == "f8":
                            continue    # NumPy's float power.reduce is not a left fold
                        same(_quiet(lambda m: getattr(m, uf).reduce(
                            m.asarray(a), axis=axis, where=m.asarray(w), **kw)))


def test_subtract_at_bool_operand():
    for adt in ("f2", "i1", "u1", "?"):
        for b in (np.array([False]), True, np.array([True])):
            def run(m):
                a = m.ones(4, adt)
                m.subtract.at(a, [0, 2, 2], b)
                return a
            same(run)


def test_take_compress_repeat_squeeze_axis_of_0d():
    a = np.array(5)
    for axis in (0, -1, (0,), 1, -2, None):
        same(lambda m: m.squeeze(m.asarray(a), axis=axis))
        same(lambda m: m.take(m.asarray(a), [0], axis=axis))
        same(lambda m: m.take(m.asarray(a), 0, axis=axis))
        same(lambda m: m.take(m.asarray(a), [], axis=axis))
        same(lambda m: m.repeat(m.asarray(a), 2, axis=axis))
        same(lambda m: m.repeat(m.asarray(a), [3], axis=axis))
        same(lambda m: m.compress([True], m.asarray(a), axis=axis))


def test_take_index_lists_convert():
    for idx in ([], np.array([]), [1.0], (), [[0, 1], [2, 2]], [1.7], [True]):
        same(lambda m: m.take(m.arange(3.0), idx))


def test_clip_python_int_bounds_out_of_range():
    for dt in ("i1", "u1", "i8", "u8", "f4"):
        for lo, hi in ((300, None), (None, -129), (2 ** 64 - 1, None), (None, -2 ** 63),
                       (-1, None), (None, -1), (-300, 300), (2 ** 70, None), (-2 ** 70, None),
                       (None, 2 ** 70), (300, 1), (1, -300)):
            same(_quiet(lambda m: m.clip(m.asarray(np.array([1, 2, 3], dt)), lo, hi)))


def test_python_complex_into_real_array():
    for fn in (lambda m: m.array([1j, 2], dtype="u4"), lambda m: m.array(1j, dtype=bool),
               lambda m: m.asarray(1j, dtype="i4"), lambda m: m.array([1, 2 + 0j], dtype="f8"),
               lambda m: m.insert(m.ones(3, "u4"), 1, 1j),
               lambda m: m.insert(m.ones(3, "f4"), 1, [1j]),
               lambda m: m.full(2, 1j, dtype=float),
               lambda m: m.pad(m.ones(2), 1, constant_values=1j)):
        same(_quiet(fn))


def test_average_of_empty_result():
    for shape, axis in (((0, 3), -1), ((0, 3), 0), ((0,), None), ((2, 0), 0), ((0,), ()),
                        ((2, 3), 1)):
        for returned in (False, True):
            same(_quiet(lambda m: m.average(m.zeros(shape), axis=axis, returned=returned)))


def test_reorderable_reduce_starts_from_identity():
    for uf in ("gcd", "hypot", "bitwise_and", "logaddexp", "logical_xor", "lcm"):
        for a in (np.array([-10]), np.array([-2.5]), np.array(-5), np.array([[-10, -4]]),
                  np.array([], "i8"), np.array([-0.0])):
            for axis in (0, None, -1):
                same(_quiet(lambda m: getattr(m, uf).reduce(m.asarray(a), axis=axis)))


def test_quantiles_keepdims_of_0d_give_arrays():
    for name, args in (("median", ()), ("nanmedian", ()), ("percentile", (50,)),
                       ("nanquantile", (0.5,))):
        for a in (np.array(15, "i1"), np.array(2.5), np.array([[1.0, np.nan]])):
            for kw in ({"keepdims": True}, {"axis": None, "keepdims": True}, {}):
                got = _quiet(lambda m: getattr(m, name)(m.asarray(a), *args, **kw))(xnp)
                want = _quiet(lambda m: getattr(m, name)(m.asarray(a), *args, **kw))(np)
                assert isinstance(got, xnp.ndarray) == isinstance(want, np.ndarray)
                equal(want, got)


def test_setxor1d_dedupes_each_array_in_its_own_dtype():
    a = np.array([-2 ** 63, -2 ** 63 + 1, 2 ** 63 - 1, 3, -3, 5])
    b = np.array([2 ** 63 + 5, 2 ** 64 - 1, 3, 5], "u8")
    for x, y in ((a, b), (b, a), (a.astype("f4"), b)):
        same(_quiet(lambda m: m.setxor1d(x, y)))


def test_digitize_bins_with_nan():
    # NumPy's direction rule; the NaN-last sorted bins it then searches give its answers
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0, np.nan, -np.inf])
    for bins in ([0.5, 2.0, np.nan], [np.nan, 2.0, 0.5], [1.0, 2.0, np.nan, np.nan],
                 [3.0, 3.0, 1.0], [1, 2, 3], [3, 2, 1], [], [2.0]):
        for right in (False, True):
            same(lambda m: m.digitize(x, np.array(bins), right=right))


def test_clip_int_bounds_with_inexact_result():
    for dt in ("i1", "u1", "u8", "f2"):
        for lo, hi in ((np.nan, -7), (-7, 2.5), (300, np.float32(2)), (300, 500.0),
                       (np.array([1.5]), 300), (2 ** 64 - 1, 1.5), (None, 1j)):
            same(_quiet(lambda m: m.clip(m.asarray(np.array([1, 2, 3], dt)), lo, hi)))


def test_fill_converts_as_item_assignment():
    for dt in ("i8", "u2", "?", "f4", "c8", "i1"):
        for v in (1.5 - 2j, np.nan, np.inf, -1, 300, 2 ** 64 - 1, 2.5, 2 ** 70,
                  np.float64(np.nan), np.complex128(1j), np.int64(300), np.float64(1e300),
                  np.uint64(2 ** 64 - 1), np.float32(np.inf)):
            def run(m):
                a = m.zeros(3, dt)
                a.fill(v)
                return a
            same(_quiet(run))


def test_piecewise_scalar_values_and_empty_condlist():
    same(lambda m: m.piecewise(m.asarray([1, 2, 3], "u1"), [], []))
    for dt in ("u4", "i1", "f4"):
        for funcs in ([-129, 0], [2 ** 64 - 1], [np.inf], [np.nan, 1], [1.5 - 2j], [2.5, 7]):
            x = np.array([1, 2, 3], dt)
            same(_quiet(lambda m: m.piecewise(m.asarray(x), [m.asarray(x) > 1], funcs)))


def test_ufunc_out_must_have_the_where_broadcast_shape():
    for shape, wshape, oshape in (((), (2, 3), ()), ((1,), (3,), (1,)), ((3, 1), (1, 3), (3, 1)),
                                  ((2, 3), (3,), (2, 3)), ((3,), (2, 3), (2, 3))):
        def run(m):
            o = m.zeros(oshape)
            m.add(m.ones(shape), 1.0, out=o, where=m.asarray(np.ones(wshape, bool)))
            return o
        same(run)


def test_histogram_estimator_too_many_bins():
    for a, kw in ((np.array(827292983273332914, "u8"), {"bins": "auto"}),
                  (np.array([-0.006, 0.2678, -4.0, -65504.0, -1.0], "f2"),
                   {"bins": "fd", "density": True}),
                  (np.array([1.0, 2, 3]), {"bins": "auto"})):
        same(_quiet(lambda m: m.histogram(a, **kw)))


def test_median_of_negative_zeros():
    for a in ([-0.0], [-0.0, -0.0], [-0.0, -0.0, -np.inf, 0.0], [2.0, -np.inf, 0.0, -0.0]):
        for dt in ("f8", "f4", "f2"):
            same(lambda m: m.median(m.asarray(np.array(a, dt))))


def test_interp_python_complex_bound_for_real_fp():
    for kw in ({"left": 1j}, {"right": 1.5 - 2j}, {"left": 1j, "period": 3}, {"left": 2.5}):
        for fp in (np.array([1.0, 2.0]), np.array([1j, 2])):
            same(lambda m: m.interp([0.0, 1.5, 5], [1.0, 2.0], fp, **kw))


def test_reduce_initial_converted_as_numpy():
    for uf, a, kw in (("bitwise_or", np.array([1, 2], "u4"), {"initial": 1.5 - 2j}),
                      ("gcd", np.zeros((0, 3), "u8"), {"axis": None, "initial": 1e300}),
                      ("bitwise_xor", np.array([1, 2], "i2"), {"initial": 1j}),
                      ("divide", np.array([8, 0, 9], "u1"), {"initial": 1j}),
                      ("power", np.array([2, 3], "i1"), {"initial": 2}),
                      ("bitwise_or", np.array([1, 2], "u1"), {"initial": 300}),
                      ("gcd", np.array([4, 6]), {"initial": np.int64(2)})):
        same(_quiet(lambda m: getattr(m, uf).reduce(m.asarray(a), **kw)))


def test_arange_length_edges():
    for args in ((0, 1e300, -1), (0, -1e300, 1), (1e300, 0, 1), (-3, 1j, np.float32(0.1)),
                 (np.float32(0.1), 1j, -1), (-3, 1j, 0.1), (0, 10, 2.5)):
        for kw in ({}, {"dtype": "int8"}, {"dtype": "float32"}):
            same(_quiet(lambda m: m.arange(*args, **kw)))


def test_advanced_indices_split_by_an_empty_ellipsis():
    a, b = np.arange(6).reshape(2, 3), np.arange(6.0).reshape(2, 1, 3)
    for x, key in ((a, (None, [-1, 0], Ellipsis, -2)), (a, (None, np.array([1, 0]), ..., [0, 2])),
                   (a, ([1, 0], ..., 1)), (a, ([0, 1], ..., [0, 1])),
                   (b, (slice(-5, -1), -1, ..., [-3, 2])), (b, (None, 0, ..., 0, [1, 0]))):
        same(lambda m: m.asarray(x)[key])

        def put(m):
            y = m.asarray(x.copy())
            y[key] = m.arange(int(np.prod(np.shape(x[key])))).reshape(np.shape(x[key]))
            return y
        same(put)


def test_round_scales_as_numpy():
    x = np.array([-0.3, 1.5e-10, 123.456, 5e-324, 1e300, -2.5, 0.1, 15.0])
    for d in (23, 30, -30, 400, -400, 5, -1):
        for dt in ("f8", "f4", "f2", "c16", "i4", "u1", "i8"):
            a = (x * 1j + x).astype(dt) if dt[0] == "c" else _quiet(lambda m: x.astype(dt))(np)
            same(_quiet(lambda m: m.round(m.asarray(a), d)))


def test_casting_no_equiv_with_python_scalars():
    # logical ufuncs have a loop per dtype; a Python bool is a bool; a unary ufunc's
    # operand takes its default dtype; comparisons take any Python int in integer loops
    for name in ("add", "less", "equal", "logical_and", "maximum", "bitwise_or"):
        for a in (np.ones(2, "i1"), np.ones(2, "u8"), np.ones(2, "f4"), np.ones(2, "c8"), 3):
            for v in (2, -7, 2.5, 1j, True):
                for dt in (None, "float32", "bool"):
                    for casting in ("no", "equiv"):
                        same(_quiet(lambda m: getattr(m, name)(
                            m.asarray(a) if isinstance(a, np.ndarray) else a, v, dtype=dt,
                            casting=casting)))
    for name in ("ceil", "negative", "signbit", "isfinite", "invert"):
        for v in (2, -7, 2 ** 64 - 1, 2.5, True):
            for casting in ("no", "equiv"):
                same(_quiet(lambda m: getattr(m, name)(v, casting=casting)))


def test_complex_nanmax_nanmin_of_all_nan_slices_keep_the_first_nan_element():
    # NumPy's fmax/fmin reductions return the first NaN of an all-NaN complex slice
    # (nan+3j stays nan+3j), not a fresh NaN.
    rows = np.array([[complex(np.nan, 1), 1 + 1j], [complex(np.nan, 3), complex(np.nan, 4)],
                     [complex(1, np.nan), complex(np.nan, np.nan)]])
    for name in ("nanmax", "nanmin"):
        for axis in (None, 0, 1):
            for keepdims in (False, True):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    want = getattr(np, name)(rows, axis=axis, keepdims=keepdims)
                    got = getattr(xnp, name)(xnp.asarray(rows), axis=axis, keepdims=keepdims)
                assert np.asarray(got).dtype == want.dtype and np.shape(got) == np.shape(want)
                # compare real and imaginary parts bit for bit, NaN payloads included
                np.testing.assert_array_equal(np.atleast_1d(np.asarray(got)).view(float),
                                              np.atleast_1d(want).view(float))
