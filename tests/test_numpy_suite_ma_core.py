"""Regressions found by running NumPy's numpy/ma/tests (test_core, test_extras) against
xnp.ma: each case runs numpy.ma and xnp.ma on the same inputs and compares data, mask,
dtype, fill value and printed text (or the raised exception)."""

import operator

import numpy
import numpy.ma as nma
import pytest

import xnp
import xnp.ma as xma


def _same(x, n, approx=False):
    if n is nma.masked:
        assert x is xma.masked
    elif isinstance(n, nma.MaskedArray):
        assert isinstance(x, xma.MaskedArray), type(x)
        assert x.dtype == n.dtype and x.shape == n.shape
        numpy.testing.assert_array_equal(numpy.asarray(xma.getmaskarray(x)),
                                         nma.getmaskarray(n))
        if approx:
            numpy.testing.assert_allclose(numpy.asarray(x.filled(0)), n.filled(0),
                                          rtol=1e-12)
        else:
            numpy.testing.assert_array_equal(numpy.asarray(x.data), n.data)
            assert repr(x) == repr(n)
        assert (xma.getmask(x) is xma.nomask) == (nma.getmask(n) is nma.nomask)
        assert x.fill_value == n.fill_value
    elif isinstance(n, (list, tuple)):
        assert type(x) is type(n) and len(x) == len(n)
        for a, b in zip(x, n):
            _same(a, b, approx)
    elif isinstance(n, numpy.ndarray):
        assert x.dtype == n.dtype
        if approx:
            numpy.testing.assert_allclose(numpy.asarray(x), n, rtol=1e-12)
        else:
            numpy.testing.assert_array_equal(numpy.asarray(x), n)
    else:
        assert type(x) is type(n), (x, n)
        assert x == n or x != x and n != n or approx and abs(x - n) < 1e-12, (x, n)


def _both(fn, *args, approx=False, **kwargs):
    """``fn(ma, *args)`` with ``ma`` bound to numpy.ma and to xnp.ma, compared."""
    _same(fn(xma, *args, **kwargs), fn(nma, *args, **kwargs), approx)


_DATA = numpy.array([[1.5, 2.0, -3.0, 4.25], [0.5, -1.0, 7.0, 2.0], [3.0, 3.5, -2.0, 1.0]])
_MASK = numpy.array([[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]], bool)


# --- operators reached through NumPy's ufuncs ----------------------------------------------
@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt, operator.ge])
@pytest.mark.parametrize("dtype", ["i1", "f4", "u8"])
def test_scalar_compared_with_masked(op, dtype):
    def run(ma):
        a = ma.array([0, 1], dtype=dtype, mask=[0, 1])
        b = ma.array([0, 1], dtype=dtype, mask=[1, 0])
        return [op(a[0], b), op(b, a[0]), op(numpy.int8(1), b)]
    _both(run)


@pytest.mark.parametrize("fn", ["sqrt", "log", "divide"])
def test_ufunc_on_masked_keeps_raw_data(fn):
    def run(ma):
        np = xnp if ma is xma else numpy
        a = ma.array([-1.0, 4.0, 9.0, 0.0], mask=[0, 0, 1, 0])
        with numpy.errstate(all="ignore"):
            r = getattr(np, fn)(a) if fn != "divide" else np.divide(a, [0, 2, 0, 1])
        return [r, np.sqrt(ma.masked), np.true_divide(ma.array([1.0]), 5)]
    _both(run)


# --- ufunc methods of ma's functions -------------------------------------------------------
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum"])
def test_binary_reduce_outer_accumulate(name):
    def run(ma):
        f = getattr(ma, name)
        a = ma.array(_DATA, mask=_MASK)
        r = [f.reduce(a, 0), f.reduce(a, 1), f.outer(a[0], a[1])]
        if name in ("add", "multiply"):
            r.append(f.accumulate(a, 0))
        return r
    _both(run)


# --- methods -------------------------------------------------------------------------------
def test_methods_round_clip_conj_trace_dot():
    def run(ma):
        a = ma.array(_DATA * 1.37, mask=_MASK)
        c = ma.array(_DATA + 2j * _DATA[::-1], mask=_MASK)
        out = ma.empty((3, 4))
        a.round(1, out=out)
        return [a.round(), a.round(2), out, a.clip(0, 3), c.conj(), c.imag, c.real,
                a.trace(), a[:, :3].dot(a[:, :3]), a[0].dot(a[1]),
                ma.array(1.26, mask=True).round()]
    _both(run, approx=True)


def test_diff_append_expand_dims_convolve():
    def run(ma):
        a = ma.masked_equal([1, 2, 2, 3, 4, 2, 1, 1], 2)
        b = ma.array(_DATA, mask=_MASK)
        return [ma.diff(a), ma.diff(a, n=2), ma.diff(a, prepend=[0], append=9),
                ma.diff(b, axis=0), ma.append(a, b), ma.append(b, b, axis=1),
                ma.expand_dims(b, 1), ma.convolve(a, [1, 0, 1]),
                ma.convolve(a, [1, 0, 1], propagate_mask=False),
                ma.correlate(a, [1, 2], mode="full")]
    _both(run)
    for ma in (nma, xma):
        with pytest.raises(ValueError, match="order must be non-negative"):
            ma.diff(ma.array([1, 2]), n=-1)


# --- extras ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("masked", [False, True])
def test_cov_corrcoef(rowvar, masked):
    def run(ma):
        x = ma.array(_DATA, mask=_MASK if masked else ma.nomask)
        y = ma.array(_DATA[::-1] * 2.0, mask=_MASK[::-1] if masked else ma.nomask)
        return [ma.cov(x, rowvar=rowvar), ma.cov(x, y, rowvar=rowvar, bias=True),
                ma.cov(x, rowvar=rowvar, ddof=2), ma.corrcoef(x, rowvar=rowvar),
                ma.corrcoef(x, y, rowvar=rowvar), ma.cov(x[0]), ma.corrcoef(x[0])]
    _both(run, approx=True)
    for ma in (nma, xma):
        with pytest.raises(ValueError, match="Cannot process masked data."):
            ma.cov(ma.array(_DATA, mask=_MASK), allow_masked=False)


def test_cov_is_differentiable():
    def f(v):
        return xma.cov(xma.array(v, mask=_MASK)).filled(0.0).sum()
    g = xnp.grad(f)(xnp.asarray(_DATA))
    assert g.shape == _DATA.shape
    assert numpy.all(numpy.asarray(g)[_MASK] == 0)


def test_polyfit_leaves_masked_points_out():
    x = numpy.linspace(0, 1, 10)
    y = numpy.stack([x ** 2 - x, 3 * x + 1], axis=1)
    xm = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    ym = numpy.zeros((10, 2), bool)
    ym[-1, 1] = True

    def run(ma):
        return [ma.polyfit(ma.array(x, mask=xm), ma.array(y, mask=ym), 2),
                ma.polyfit(ma.array(x, mask=xm), y[:, 0], 2, full=True)[0],
                ma.polyfit(x, ma.array(y[:, 1], mask=ym[:, 1]), 1, w=x + 1)]
    _both(run, approx=True)


def test_apply_along_and_over_axes():
    def run(ma):
        a = ma.array(_DATA, mask=_MASK)
        return [ma.apply_along_axis(lambda r: r.sum(), 1, a),
                ma.apply_along_axis(lambda r: r * 2, 0, a),
                ma.apply_along_axis(lambda r: r[1], 1, numpy.arange(6).reshape(2, 3)),
                ma.apply_over_axes(ma.sum, a, [0, 1]),
                ma.apply_over_axes(ma.sum, a, 1)]
    _both(run)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_median_axes_nan_out(axis, keepdims):
    d = _DATA.copy()
    d[1, 2] = numpy.nan

    def run(ma):
        a = ma.array(d, mask=_MASK)
        i = ma.array(numpy.arange(12).reshape(3, 4), mask=_MASK)
        with numpy.errstate(all="ignore"):
            return [ma.median(a, axis=axis, keepdims=keepdims),
                    ma.median(i, axis=axis, keepdims=keepdims),
                    ma.median(ma.array(_DATA), axis=axis, keepdims=keepdims)]
    _both(run)

    def with_out(ma):
        out = ma.array(numpy.ones(4))
        r = ma.median(ma.array(_DATA, mask=_MASK), axis=0, out=out)
        assert r is out
        return out
    _both(with_out)


def test_average_complex_and_masked_weights():
    def run(ma):
        a = ma.array(_DATA + 1j * _DATA[::-1], mask=_MASK)
        b = ma.array(_DATA, mask=_MASK)
        w = ma.array([5.0, 28.0, 31.0], mask=[1, 0, 0])
        return [ma.average(a), ma.average(a, axis=0, weights=numpy.abs(_DATA)),
                ma.average(b, axis=0, weights=w),
                ma.average(b, axis=1, weights=[1.0, numpy.nan, 1.0, 2.0]),
                ma.average(b, axis=(0, 1), weights=numpy.abs(_DATA), returned=True)]
    with numpy.errstate(all="ignore"):
        _both(run, approx=True)


def test_mr_directives_and_masked_constant():
    def run(ma):
        b1 = ma.array(_DATA, mask=_MASK)
        return [ma.mr_["1", b1, b1], ma.mr_[b1, b1], ma.mr_[ma.masked, 1],
                ma.mr_[[1, 2], ma.masked], ma.mr_[1, 2.5, ma.array([3, 4], mask=[0, 1])]]
    _both(run)


def test_diagflat_full_mask_and_mask_reshape():
    def run(ma):
        a = ma.array(_DATA)
        a.mask = numpy.zeros(12, bool)
        return [ma.diagflat(1.0), ma.diagflat(ma.array([1, 2], mask=[0, 1])), a]
    _both(run)
