"""xnp.ma against numpy.ma: one table of cases, each run with both modules on the same
inputs; results compared by data, mask, dtype, fill value, repr/str and masked scalars.
Then errors, and grad / vmap / jit of masked computations."""

import warnings

import numpy
import numpy.ma as nma
import pytest

import xnp
import xnp.ma as xma

NAN, INF = float("nan"), float("inf")

# Inputs: (data, mask) pairs built into masked arrays by each module.
INPUTS = {
    "i1d": ([1, 2, 3, 4], [0, 1, 0, 0]),
    "f1d": ([1.5, -2.0, 3.25, 0.0, 4.0], [0, 0, 1, 0, 0]),
    "f2d": ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[0, 1, 0], [1, 1, 1]]),
    "i2d": ([[1, 2, 3], [4, 5, 6]], [[0, 1, 0], [0, 0, 1]]),
    "nomask": ([[1.0, 2.0], [3.0, 4.0]], None),
    "allmasked": ([1.0, 2.0, 3.0], [1, 1, 1]),
    "nan": ([1.0, NAN, INF, 0.0, -2.0, 3.0], [0, 0, 0, 0, 1, 0]),
    "zerod": (5.0, 0),
    "zerod_masked": (5, 1),
    "f32": (numpy.array([1.0, 2.0, 3.0], numpy.float32), [0, 1, 0]),
    "bool": ([True, False, True], [0, 0, 1]),
}


def mk(M, key, **kw):
    data, mask = INPUTS[key]
    if mask is None:
        return M.array(data, **kw)
    return M.array(data, mask=mask, **kw)


def _set_masked(M, N=None):
    a = mk(M, "i1d")
    a[2] = M.masked
    a[1] = 7
    return a


def _set_slice(M, N=None):
    a = mk(M, "f2d")
    a[0] = 9.0
    a[1, 2] = M.masked
    return a


def _iadd(M, N=None):
    a = mk(M, "f1d")
    a += mk(M, "nan")[:5]
    return a


def _mask_set(M, N=None):
    a = mk(M, "nomask")
    a.mask = [[0, 1], [1, 0]]
    return a


# (name, builder(M, N)): M is xnp.ma or numpy.ma, N is xnp or numpy.
CASES = [
    *[(f"repr_{k}", (lambda k: lambda M, N: mk(M, k))(k)) for k in INPUTS],
    ("fill_value_i", lambda M, N: mk(M, "i1d").fill_value),
    ("fill_value_f32", lambda M, N: mk(M, "f32").fill_value),
    ("fill_value_bool", lambda M, N: mk(M, "bool").fill_value),
    ("fill_value_complex", lambda M, N: M.array([1 + 2j], mask=[1]).fill_value),
    ("fill_value_given", lambda M, N: mk(M, "i1d", fill_value=-1)),
    ("filled", lambda M, N: mk(M, "f2d").filled()),
    ("filled_0", lambda M, N: mk(M, "i1d").filled(0)),
    ("compressed", lambda M, N: mk(M, "f2d").compressed()),
    ("count", lambda M, N: mk(M, "f2d").count()),
    ("count_axis", lambda M, N: mk(M, "f2d").count(axis=0)),
    ("count_nomask", lambda M, N: mk(M, "nomask").count()),
    ("tolist", lambda M, N: mk(M, "f2d").tolist()),
    ("T", lambda M, N: mk(M, "f2d").T),
    ("reshape", lambda M, N: mk(M, "f2d").reshape(3, 2)),
    ("ravel", lambda M, N: mk(M, "i2d").ravel()),
    ("astype", lambda M, N: mk(M, "i1d").astype(float)),
    ("copy", lambda M, N: mk(M, "f2d").copy()),
    ("getitem_masked", lambda M, N: mk(M, "i1d")[1]),
    ("getitem_scalar", lambda M, N: mk(M, "i1d")[2]),
    ("getitem_slice", lambda M, N: mk(M, "i1d")[1:]),
    ("getitem_row", lambda M, N: mk(M, "f2d")[1]),
    ("getitem_2d", lambda M, N: mk(M, "f2d")[0, 1]),
    ("getitem_bool", lambda M, N: mk(M, "f1d")[N.asarray([True, False, True, True, False])]),
    ("setitem_masked", _set_masked),
    ("setitem_slice", _set_slice),
    ("mask_setter", _mask_set),
    ("iter", lambda M, N: list(mk(M, "i1d"))),
    ("len", lambda M, N: len(mk(M, "f2d"))),
    # arithmetic and comparisons
    ("add_scalar", lambda M, N: mk(M, "i1d") + 1),
    ("radd", lambda M, N: 2.5 + mk(M, "i1d")),
    ("add_ma", lambda M, N: mk(M, "f1d") + mk(M, "nan")[:5]),
    ("add_broadcast", lambda M, N: mk(M, "f2d") + M.array([1.0, 2.0, 3.0], mask=[1, 0, 0])),
    ("add_nomask", lambda M, N: mk(M, "nomask") + 1),
    ("sub", lambda M, N: mk(M, "i2d") - mk(M, "i2d")[0]),
    ("mul_f32", lambda M, N: mk(M, "f32") * 2.0),
    ("truediv", lambda M, N: mk(M, "nan") / M.array([0.0, 1, 1, 2, 1, 1e-320])),
    ("truediv_int", lambda M, N: M.array([5, -7, 0], mask=[0, 0, 1]) / 0),
    ("floordiv", lambda M, N: mk(M, "nan") // M.array([0.0, 1, 1, 2, 1, 1e-320])),
    ("floordiv_int", lambda M, N: M.array([5, -7, 3], mask=[0, 0, 1]) // M.array([0, 2, 1])),
    ("mod", lambda M, N: mk(M, "nan") % M.array([0.0, 1, 1, 2, 1, 1e-320])),
    ("mod_int", lambda M, N: M.array([5, -7, 3]) % M.array([0, 2, 1])),
    ("pow", lambda M, N: mk(M, "nan") ** 2),
    ("pow_neg", lambda M, N: mk(M, "nan") ** -1),
    ("neg", lambda M, N: -mk(M, "f1d")),
    ("abs", lambda M, N: abs(mk(M, "f1d"))),
    ("gt", lambda M, N: mk(M, "i1d") > 1),
    ("eq", lambda M, N: mk(M, "i1d") == 3),
    ("div_0d", lambda M, N: M.array(4.0) / 0),
    ("add_0d", lambda M, N: M.array(4.0) + 1),
    ("add_masked_const", lambda M, N: M.array([1, 2]) + M.masked),
    ("masked_const_mul", lambda M, N: M.masked * 2),
    ("fill_propagates", lambda M, N: (mk(M, "i1d", fill_value=5) + 1).fill_value),
    ("iadd", _iadd),
    # unary functions
    ("sqrt", lambda M, N: M.sqrt(mk(M, "nan"))),
    ("log", lambda M, N: M.log(mk(M, "nan"))),
    ("log2", lambda M, N: M.log2(mk(M, "nan"))),
    ("log10", lambda M, N: M.log10(mk(M, "nan"))),
    ("exp", lambda M, N: M.exp(mk(M, "f1d"))),
    ("sin", lambda M, N: M.sin(mk(M, "f2d"))),
    ("cos_nomask", lambda M, N: M.cos(mk(M, "nomask"))),
    ("ma_abs", lambda M, N: M.abs(mk(M, "f1d"))),
    ("ma_divide", lambda M, N: M.divide(mk(M, "nan"), 2.0)),
    ("ma_remainder", lambda M, N: M.remainder(mk(M, "nan"), M.array([0.0, 1, 1, 2, 1, 1]))),
    ("np_sin", lambda M, N: numpy.sin(mk(M, "f2d"))),
    ("np_log", lambda M, N: numpy.log(mk(M, "nan"))),
    ("np_add", lambda M, N: numpy.add(mk(M, "i1d"), 1)),
    # construction and masking
    ("masked_where", lambda M, N: M.masked_where(N.asarray([1, 2, 3]) > 1, N.asarray([1, 2, 3]))),
    ("masked_invalid", lambda M, N: M.masked_invalid(N.asarray([1.0, NAN, INF, 2.0]))),
    ("masked_equal", lambda M, N: M.masked_equal(N.asarray([1, 2, 3, 2]), 2)),
    ("masked_not_equal", lambda M, N: M.masked_not_equal(N.asarray([1, 2, 3]), 2)),
    ("masked_greater", lambda M, N: M.masked_greater(N.asarray([1, 2, 3]), 2)),
    ("masked_greater_equal", lambda M, N: M.masked_greater_equal(N.asarray([1, 2, 3]), 2)),
    ("masked_less", lambda M, N: M.masked_less(N.asarray([1, 2, 3]), 2)),
    ("masked_less_equal", lambda M, N: M.masked_less_equal(N.asarray([1, 2, 3]), 2)),
    ("masked_inside", lambda M, N: M.masked_inside(N.asarray([1, 2, 3, 4]), 3, 2)),
    ("masked_outside", lambda M, N: M.masked_outside(N.asarray([1, 2, 3, 4]), 2, 3)),
    ("masked_values", lambda M, N: M.masked_values(N.asarray([1.0, 2.0, 3.0]), 2.0)),
    ("masked_values_none", lambda M, N: M.masked_values(N.asarray([1.0, 2.0, 3.0]), 5.0)),
    ("masked_where_ma", lambda M, N: M.masked_where(N.asarray([1, 0, 0, 1]) > 0, mk(M, "i1d"))),
    ("list_with_masked", lambda M, N: M.array([1, M.masked, 3])),
    ("mask_scalar", lambda M, N: M.array([1, 2, 3], mask=[1])),
    ("mask_reshaped", lambda M, N: M.array([[1, 2], [3, 4]], mask=[1, 0, 0, 1])),
    ("mask_false", lambda M, N: M.array([1, 2, 3], mask=False)),
    ("zeros", lambda M, N: M.zeros((2, 3))),
    ("ones", lambda M, N: M.ones(3, dtype=int)),
    ("arange", lambda M, N: M.arange(5)),
    ("asarray", lambda M, N: M.asarray([1.0, 2.0])),
    ("getmask_nomask", lambda M, N: M.getmask(mk(M, "nomask")) is M.nomask),
    ("getmask", lambda M, N: M.getmask(mk(M, "i1d"))),
    ("getmaskarray", lambda M, N: M.getmaskarray(mk(M, "nomask"))),
    ("getdata", lambda M, N: M.getdata(mk(M, "i1d"))),
    ("is_masked", lambda M, N: (M.is_masked(mk(M, "i1d")), M.is_masked(mk(M, "nomask")))),
    ("isMaskedArray", lambda M, N: (M.isMaskedArray(mk(M, "i1d")), M.isMaskedArray([1]))),
    ("count_masked", lambda M, N: M.count_masked(mk(M, "f2d"))),
    ("make_mask", lambda M, N: (M.make_mask([0, 0]) is M.nomask, M.make_mask([0, 1]))),
    ("mask_or", lambda M, N: M.mask_or(M.nomask, M.nomask) is M.nomask),
    ("fix_invalid", lambda M, N: M.fix_invalid(N.asarray([1.0, NAN, 3.0]))),
    # module functions
    ("where", lambda M, N: M.where(N.asarray([True, False, True, False]), mk(M, "i1d"), 0)),
    ("where_nomask", lambda M, N: M.where(N.asarray([True, False]), N.asarray([1, 2]), 3)),
    ("concatenate", lambda M, N: M.concatenate([mk(M, "i1d"), M.array([9])])),
    ("concatenate_nomask", lambda M, N: M.concatenate([M.array([1, 2]), M.array([3])])),
    ("stack", lambda M, N: M.stack([mk(M, "i1d"), mk(M, "i1d")])),
    ("sort", lambda M, N: M.sort(M.array([3, 1, 2, 0], mask=[0, 1, 0, 0]))),
    ("sort_2d", lambda M, N: M.sort(mk(M, "f2d"), axis=0)),
    ("argsort", lambda M, N: M.argsort(M.array([3, 1, 2, 0], mask=[0, 1, 0, 0]))),
    ("clip", lambda M, N: M.clip(M.array([1, 5, 9], mask=[0, 1, 0]), 2, 6)),
    ("dot", lambda M, N: M.dot(mk(M, "i2d"), mk(M, "i2d").T)),
    ("dot_allmasked_row", lambda M, N: M.dot(mk(M, "f2d"), M.array([1.0, 2.0, 3.0]))),
]

# reductions: method and function, full and along axes
_RED = ["sum", "prod", "mean", "var", "std", "min", "max", "ptp", "any", "all",
        "argmin", "argmax", "cumsum", "cumprod"]
for _name in _RED:
    for _key in ("f2d", "i2d", "nomask", "allmasked", "f1d", "nan"):
        CASES.append((f"{_name}_{_key}", (lambda n, k: lambda M, N: getattr(mk(M, k), n)())(
            _name, _key)))
        if _key in ("f2d", "i2d", "nomask"):
            for ax in (0, 1):
                CASES.append((f"{_name}_{_key}_ax{ax}",
                              (lambda n, k, ax: lambda M, N: getattr(M, n)(mk(M, k), axis=ax))(
                                  _name, _key, ax)))
    if _name not in ("argmin", "argmax", "cumsum", "cumprod"):
        CASES.append((f"{_name}_keepdims", (lambda n: lambda M, N: getattr(mk(M, "f2d"), n)(
            axis=1, keepdims=True))(_name)))
CASES += [
    ("var_ddof", lambda M, N: mk(M, "f2d").var(ddof=1)),
    ("std_ddof_ax", lambda M, N: mk(M, "i2d").std(axis=1, ddof=1)),
    ("var_ddof_masked", lambda M, N: M.array([1.0, 2.0], mask=[0, 1]).var(ddof=1)),
    ("mean_f32", lambda M, N: mk(M, "f32").mean()),
    ("median", lambda M, N: M.median(mk(M, "f2d"))),
    ("median_ax1", lambda M, N: M.median(mk(M, "i2d"), axis=1)),
    ("median_ax0", lambda M, N: M.median(mk(M, "f2d"), axis=0)),
    ("median_nomask", lambda M, N: M.median(mk(M, "nomask"), axis=0)),
    ("median_even", lambda M, N: M.median(M.array([4.0, 1.0, 3.0, 2.0, 9.0],
                                                  mask=[0, 0, 0, 0, 1]))),
    ("average", lambda M, N: M.average(mk(M, "f2d"))),
    ("average_w", lambda M, N: M.average(mk(M, "i2d"), axis=1, weights=[1, 2, 3])),
    ("average_w_masked_row", lambda M, N: M.average(mk(M, "f2d"), axis=1, weights=[1, 2, 3])),
    ("np_sum", lambda M, N: numpy.sum(mk(M, "f2d"), axis=0)),
    ("np_mean", lambda M, N: numpy.mean(mk(M, "f2d"))),
    ("sort_method", lambda M, N: _sorted_in_place(M)),
]


def _sorted_in_place(M):
    a = M.array([3, 1, 2, 0], mask=[0, 1, 0, 0])
    a.sort()
    return a


def _eq_values(x, n):
    x, n = numpy.asarray(x), numpy.asarray(n)
    assert x.shape == n.shape and x.dtype == n.dtype, (x.shape, x.dtype, n.shape, n.dtype)
    numpy.testing.assert_array_equal(x, n)


def compare(x, n):
    if n is nma.masked:
        assert x is xma.masked, repr(x)
        return
    if isinstance(n, nma.MaskedArray):
        assert isinstance(x, xma.MaskedArray), type(x)
        assert x.shape == n.shape and x.dtype == n.dtype
        assert (x.mask is xma.nomask) == (n.mask is nma.nomask)
        _eq_values(xma.getmaskarray(x), nma.getmaskarray(n))
        keep = ~nma.getmaskarray(n)
        numpy.testing.assert_array_equal(numpy.asarray(x.data)[keep], n.data[keep])
        _eq_values(x.filled(), n.filled())
        assert repr(x.fill_value) == repr(n.fill_value)
        assert repr(x) == repr(n)
        assert str(x) == str(n)
        return
    if isinstance(n, (list, tuple)):
        assert type(x) is type(n) and len(x) == len(n)
        for a, b in zip(x, n):
            compare(a, b)
        return
    if isinstance(n, numpy.ndarray):
        assert isinstance(x, xnp.ndarray), type(x)
        _eq_values(x, n)
        return
    assert type(x) is type(n), (type(x), type(n))
    assert repr(x) == repr(n)


@pytest.mark.parametrize("name,build", CASES, ids=[c[0] for c in CASES])
def test_against_numpy(name, build):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = build(nma, numpy)
        got = build(xma, xnp)
    compare(got, expected)


def test_masked_constant():
    assert repr(xma.masked) == "masked" and str(xma.masked) == "--"
    assert xma.masked.dtype == numpy.float64 and xma.masked.shape == ()
    assert xma.nomask is nma.nomask and xma.MaskError is nma.MaskError
    assert xma.masked_array is xma.MaskedArray


def test_print_options():
    a = xma.array([1.123456789, 2.0, 3.0], mask=[0, 1, 0])
    n = nma.array([1.123456789, 2.0, 3.0], mask=[0, 1, 0])
    with numpy.printoptions(precision=3):
        assert repr(a) == repr(n) and str(a) == str(n)


@pytest.mark.parametrize("build", [
    lambda M: M.array([1, 2, 3], mask=[1, 0]),
    lambda M: M.masked_where([True, False], [1, 2, 3]),
    lambda M: M.array([1, 2]) + M.array([1, 2, 3]),
], ids=["mask_size", "condition_shape", "broadcast"])
def test_errors(build):
    with pytest.raises(Exception) as expected:
        build(nma)
    with pytest.raises(expected.type) as got:
        build(xma)
    if expected.type is nma.MaskError:
        assert str(got.value) == str(expected.value)


def test_grad_masked_sum():
    def f(x):
        return xma.masked_where(x > 1, x * x).sum()

    x = xnp.asarray([0.5, 2.0, -1.5, 1.2])
    g = numpy.asarray(xnp.grad(f)(x))
    xv, eps = numpy.asarray(x), 1e-6
    fd = []
    for i in range(4):
        e = numpy.zeros(4)
        e[i] = eps
        fd.append((float(f(xnp.asarray(xv + e))) - float(f(xnp.asarray(xv - e)))) / (2 * eps))
    numpy.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(g, [1.0, 0.0, -3.0, 0.0])


def _row_mean(r):
    return xma.masked_where(r > 4, r).mean()


def test_vmap_masked_mean():
    x = xnp.asarray([[1.0, 5.0, 3.0], [2.0, 8.0, 4.0], [0.5, 0.25, 9.0]])
    got = numpy.asarray(xnp.vmap(_row_mean)(x))
    xn = numpy.asarray(x)
    want = [nma.masked_where(r > 4, r).mean() for r in xn]
    numpy.testing.assert_allclose(got, want)


def test_jit_masked_mean():
    x = xnp.asarray([[1.0, 5.0, 3.0], [2.0, 8.0, 4.0]])

    def f(x):
        m = xma.masked_where(x > 4, x)
        return m.mean(axis=1).filled(0.0), (m * 2).sum()

    eager = f(x)
    jitted = xnp.jit(f)(x)
    numpy.testing.assert_allclose(numpy.asarray(jitted[0]), numpy.asarray(eager[0]))
    numpy.testing.assert_allclose(numpy.asarray(jitted[1]), numpy.asarray(eager[1]))


def test_traced_repr():
    seen = []

    def f(x):
        m = xma.masked_where(x > 1, x)
        seen.append(repr(m))
        return m.filled(0.0).sum()

    xnp.jit(f)(xnp.asarray([0.5, 2.0]))
    assert seen and seen[0].startswith("masked_array(data=")


def test_top_level_functions_honour_the_mask():
    # xnp.sin(m) reaches MaskedArray.__array_ufunc__; xnp.mean(m) calls m.mean(), as
    # numpy.mean does: both keep the mask, as NumPy's do on numpy.ma arrays.
    data = numpy.array([[1.0, numpy.nan, 4.0], [2.0, 3.0, numpy.inf]])
    xm, nm = xnp.ma.masked_invalid(xnp.asarray(data)), numpy.ma.masked_invalid(data)
    for name in ("sqrt", "sin", "negative"):
        got, want = getattr(xnp, name)(xm), getattr(numpy, name)(nm)
        assert isinstance(got, xnp.ma.MaskedArray)
        numpy.testing.assert_array_equal(numpy.asarray(got.mask), want.mask)
        numpy.testing.assert_allclose(numpy.asarray(got.filled(0)), want.filled(0))
    got = xnp.add(xm, 1)
    numpy.testing.assert_array_equal(numpy.asarray(got.mask), numpy.add(nm, 1).mask)
    for name in ("sum", "mean", "std", "var", "min", "max", "amax", "argmax", "prod"):
        for axis in (None, 0, 1):
            got, want = getattr(xnp, name)(xm, axis=axis), getattr(numpy, name)(nm, axis=axis)
            numpy.testing.assert_allclose(numpy.ma.filled(numpy.ma.asarray(want), -1),
                                       numpy.asarray(xnp.ma.filled(got, -1)), rtol=1e-12)
    assert float(xnp.median(xm)) == float(numpy.ma.median(nm))
    assert float(xnp.average(xm)) == float(numpy.ma.average(nm))
