"""Regressions found by running NumPy's numpy.polynomial and numpy.ma test files against
xnp: each case runs with NumPy and with xnp on the same inputs and compares data, mask,
dtype, fill value and printed text (or the raised exception)."""

import numpy
import numpy.ma as nma
import numpy.polynomial.chebyshev as ncheb
import pytest

import xnp
import xnp.ma as xma
import xnp.polynomial.chebyshev as xcheb


def _same(x, n):
    if isinstance(n, nma.MaskedArray) and n is not nma.masked:
        assert isinstance(x, xma.MaskedArray), type(x)
        assert x.dtype == n.dtype
        assert x.shape == n.shape
        numpy.testing.assert_array_equal(numpy.asarray(xma.getmaskarray(x)),
                                         nma.getmaskarray(n))
        numpy.testing.assert_array_equal(numpy.asarray(x.data), n.data)
        assert repr(x) == repr(n)
        assert x.fill_value == n.fill_value
    elif isinstance(n, (list, tuple)):
        assert type(x) is type(n) and len(x) == len(n)
        for a, b in zip(x, n):
            _same(a, b)
    elif isinstance(n, numpy.ndarray):
        assert x.dtype == n.dtype
        numpy.testing.assert_array_equal(numpy.asarray(x), n)
    else:
        assert type(x) is type(n) and (x == n or x != x and n != n), (x, n)


# --- numpy.polynomial ------------------------------------------------------------------------
@pytest.mark.parametrize("coef", [[1.0], [1.0, 2.0, 3.0], [0, 4, -1, 5], [1j, 2.0]])
def test_cheb_zseries_roundtrip(coef):
    c = numpy.array(coef)
    nz = ncheb._cseries_to_zseries(c)
    xz = xcheb._cseries_to_zseries(xnp.array(c))
    _same(xz, nz)
    _same(xcheb._zseries_to_cseries(xz), ncheb._zseries_to_cseries(nz))


def test_cheb_zseries_differentiates():
    g = xnp.grad(lambda c: xcheb._cseries_to_zseries(c).sum())(xnp.array([1.0, 2.0, 3.0]))
    numpy.testing.assert_allclose(numpy.asarray(g), [1.0, 1.0, 1.0])


@pytest.mark.parametrize("coef", [[7, 5, 3], [1.5, -2.0], [2]])
@pytest.mark.parametrize("mask", [[False, True, False], [True, True, True], False])
def test_polyval_keeps_mask(coef, mask):
    data = [1.0, 2.0, 3.0]
    _same(xnp.polyval(coef, xma.array(data, mask=mask)),
          numpy.polyval(coef, nma.array(data, mask=mask)))


# --- numpy.ma ----------------------------------------------------------------------------------
def test_ma_core_and_extras_modules():
    import xnp.ma.core as xcore
    import xnp.ma.extras as xextras
    import xnp.ma.testutils as xtu
    assert xcore.MaskedArray is xma.MaskedArray and xcore.masked is xma.masked
    assert xextras.masked_all is xma.masked_all
    xtu.assert_equal(xma.array([1, 2], mask=[0, 1]), xma.array([1, 5], mask=[0, 1]))
    with pytest.raises(AssertionError):
        xtu.assert_equal(xma.array([1, 2]), xma.array([1, 3]))


COMPARE = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]


@pytest.mark.parametrize("op", COMPARE)
@pytest.mark.parametrize("fill", [None, 1, 0])
@pytest.mark.parametrize("dtypes", [("i4", "i4"), ("f8", "u1"), ("?", "f4")])
def test_comparison_operators(op, fill, dtypes):
    def run(M, other):
        a = M.array([0, 1, 2], dtype=dtypes[0], mask=[0, 1, 0], fill_value=fill)
        b = M.array([0, 1, 1], dtype=dtypes[1], mask=[1, 0, 0])
        rhs = {"same": a, "other": b, "first": a[0], "scalar": 1}[other]
        return getattr(a, op)(rhs)
    for other in ("same", "other", "first", "scalar"):
        _same(run(xma, other), run(nma, other))


def _no_data(a):
    """What is defined of a fully masked array (its data is uninitialised)."""
    return (a.mask, a.dtype, a.shape, repr(a))


CASES = {
    "take": lambda M: M.take(M.array([1, 2, 3, 4], mask=[0, 1, 0, 0]), [3, 1, 0]),
    "take_masked_idx": lambda M: M.take(M.arange(5), M.array([1, 2], mask=[0, 1])),
    "repeat": lambda M: M.repeat(M.array([1, 2, 3], mask=[0, 1, 0]), 2),
    "diag": lambda M: M.diag(M.array([[1, 2], [3, 4]], mask=[[0, 1], [0, 1]])),
    "diag_build": lambda M: M.diag(M.array([1.0, 2.0], mask=[1, 0]), 1),
    "resize": lambda M: M.resize(M.array([1, 2, 3], mask=[0, 1, 0]), (2, 4)),
    "inner": lambda M: M.inner(M.array([1.0, 2, 3], mask=[0, 1, 0]), [1.0, 1, 1]),
    "outer": lambda M: M.outer(M.array([1, 2], mask=[0, 1]), M.array([3, 4, 5])),
    "identity": lambda M: M.identity(3, dtype=int),
    "angle": lambda M: M.angle(M.array([1j, -1, 1], mask=[0, 1, 0])),
    "anom": lambda M: M.anom(M.array([1.0, 2, 4, 8], mask=[0, 0, 1, 0])),
    "anom_axis": lambda M: M.array([[1.0, 2], [3, 5]], mask=[[0, 1], [0, 0]]).anom(1),
    "allequal": lambda M: (M.allequal(M.array([1, 2], mask=[0, 1]), [1, 5]),
                           M.allequal(M.array([1, 2], mask=[0, 1]), [1, 5], False)),
    "allclose": lambda M: (M.allclose(M.array([1.0, M.masked, 3]), [1.0, 9, 3.0000001]),
                           M.allclose([1.0, numpy.inf], [1.0, numpy.inf]),
                           M.allclose([1.0, numpy.inf], [1.0, -numpy.inf])),
    "choose": lambda M: M.choose(M.array([0, 1, 2], mask=[0, 0, 1]),
                                 [M.array([1, 2, 3], mask=[1, 0, 0]), [4, 5, 6],
                                  [7, 8, 9]]),
    "compress": lambda M: M.compress([1, 0, 1], M.array([1, 2, 3], mask=[0, 0, 1])),
    "nonzero": lambda M: M.nonzero(M.array([0, 1, 2, 3], mask=[0, 0, 1, 0])),
    "shape_ndim_size": lambda M: (M.shape(M.ones((2, 3))), M.ndim(M.ones((2, 3))),
                                  M.size(M.ones((2, 3)))),
    "fill_values": lambda M: (M.minimum_fill_value(M.array([1, 2], dtype="i2")),
                              M.maximum_fill_value(M.array([1.0]))),
    "masked_all": lambda M: _no_data(M.masked_all((2, 3), dtype="i4")),
    "masked_all_like": lambda M: _no_data(M.masked_all_like(numpy.zeros(3, "f4"))),
    "atleast_2d": lambda M: M.atleast_2d(M.array([1, 2], mask=[0, 1]), 3.0),
    "diagflat": lambda M: M.diagflat(M.array([1, 2], mask=[0, 1])),
    "ediff1d": lambda M: M.ediff1d(M.array([1, 4, 9, 16], mask=[0, 0, 1, 0]), to_end=[0]),
    "clumps": lambda M: (M.clump_masked(M.array(range(8), mask=[1, 1, 0, 0, 1, 0, 1, 1])),
                         M.clump_unmasked(M.array(range(8),
                                                  mask=[1, 1, 0, 0, 1, 0, 1, 1]))),
    "flatnotmasked": lambda M: (
        M.flatnotmasked_contiguous(M.array(range(6), mask=[0, 1, 0, 0, 1, 0])),
        M.flatnotmasked_edges(M.array(range(6), mask=[1, 1, 0, 0, 1, 0]))),
    "compress_rowcols": lambda M: M.compress_rowcols(
        M.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], mask=[[0, 1, 0], [0, 0, 0], [0, 0, 0]])),
    "compress_rows": lambda M: M.compress_rows(
        M.array([[1, 2], [4, 5], [7, 8]], mask=[[0, 1], [0, 0], [0, 0]])),
    "mask_rowcols": lambda M: M.mask_rowcols(
        M.array([[1, 2, 3], [4, 5, 6]], mask=[[0, 1, 0], [0, 0, 0]])),
    "mask_cols": lambda M: M.mask_cols(M.array([[1, 2], [4, 5]], mask=[[0, 1], [0, 0]])),
    "unique": lambda M: M.unique(M.array([3, 1, 3, 2, 1], mask=[0, 0, 0, 1, 0])),
    "intersect1d": lambda M: M.intersect1d(M.array([1, 3, 4], mask=[0, 0, 1]), [3, 4, 5]),
    "isin": lambda M: M.isin(M.array([1, 3, 4], mask=[0, 0, 1]), [3, 4]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_ma_functions(name):
    _same(CASES[name](xma), CASES[name](nma))


def test_put_and_putmask():
    out = []
    for M in (xma, nma):
        a = M.array([1, 2, 3, 4], mask=[0, 0, 1, 0])
        M.put(a, [0, 2], M.array([9, 8], mask=[1, 0]))
        b = M.array([1.0, 2, 3], mask=[1, 0, 0])
        M.putmask(b, [True, False, True], [5.0, 6.0, 7.0])
        out.append((a, b))
    _same(out[0], out[1])


def test_mask_rows_axis_deprecated():
    for M in (xma, nma):
        with pytest.warns(DeprecationWarning, match="axis argument has always"):
            M.mask_rows(M.array([[1, 2], [3, 4]], mask=[[0, 1], [0, 0]]), 0)


def test_compress_rowcols_needs_2d():
    for M in (xma, nma):
        with pytest.raises(NotImplementedError, match="2D arrays only"):
            M.compress_rowcols(M.array([1, 2, 3], mask=[0, 1, 0]))
