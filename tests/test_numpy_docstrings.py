"""Differences found by running NumPy's docstring examples (ndarray methods, linalg, ma,
lib.array_utils, ufunc ``out=``) with ``np`` bound to NumPy and to xnp: each case runs the
same code with both modules and compares the printed result or the exception."""

import numpy
import pytest

import xnp


def outcome(fn, mod):
    try:
        return "ok", repr(fn(mod))
    except Exception as e:      # the exception's type and message, as NumPy's
        return type(e).__name__, str(e)


def same(fn):
    expected, got = outcome(fn, numpy), outcome(fn, xnp)
    assert got == expected


def test_lib_array_utils_importable_by_name():
    from xnp.lib.array_utils import normalize_axis_index, normalize_axis_tuple
    assert normalize_axis_index(-1, ndim=3) == 2
    assert normalize_axis_tuple((0, -1), 3) == (0, 2)


@pytest.mark.parametrize("a", [[1.0, 2.0], [0.0, 0.0], 0.0, 3])
def test_matrix_rank_of_vectors_and_scalars_is_a_python_int(a):
    same(lambda np: np.linalg.matrix_rank(np.asarray(a)))
    assert type(xnp.linalg.matrix_rank(xnp.asarray(a))) is int


@pytest.mark.parametrize("a", [
    [[1, -2j], [2j, 5]],
    [[4.0, 2 + 1j], [7 - 3j, 5.0]],      # upper=True reads the upper triangle only
    [[4.0, 1.0], [100.0, 5.0]],
])
def test_cholesky_upper(a):
    same(lambda np: np.linalg.cholesky(np.array(a), upper=True))
    same(lambda np: np.linalg.cholesky(np.array(a).astype(np.complex64), upper=True))


@pytest.mark.parametrize("axis", [(0, 1), [0, 2], (1, -1), (), (0, 0), 1.5, (0, 3), 1])
def test_size_with_a_tuple_of_axes(axis):
    same(lambda np: np.size(np.ones((2, 3, 4)), axis))


@pytest.mark.parametrize("case", [
    lambda np: np.cos(np.zeros((3, 3)), np.zeros((2, 2))),
    lambda np: np.add(np.zeros((3, 3)), 1, out=np.zeros((2, 2)), where=np.ones(3, bool)),
    lambda np: np.add(np.zeros((3, 3)), 1, out=np.zeros(3)),
    lambda np: np.add(np.zeros((3, 3)), 1, out=np.zeros((1, 3))),
    lambda np: np.divmod(np.zeros(3), 1, out=(np.zeros(2), np.zeros(3))),
    lambda np: np.add(np.zeros(3), 1, out=np.zeros((2, 3))),
])
def test_ufunc_out_shape_errors(case):
    same(case)


def test_masked_where_counts_masked_condition_entries_as_true():
    def run(np):
        a = np.ma.array(np.arange(4), mask=[0, 0, 1, 0])
        b = np.ma.masked_where(np.arange(4) == 0, np.arange(4))
        return np.ma.masked_where(a == 3, b), np.ma.make_mask(a == 3)
    same(run)


def test_masked_where_without_matches_leaves_nomask():
    same(lambda np: np.ma.masked_equal([0, 1, 0, 2, 3], 42))
    same(lambda np: np.ma.masked_where([False, False], np.ma.array([1, 2], mask=[0, 0])))


def test_ma_put_drops_an_all_false_mask():
    def run(np):
        a = np.ma.array([1, 2, 3, 4], mask=[False, True, False, False])
        np.ma.put(a, [1, 3], [10, 30])
        b = np.ma.array([1, 2, 3, 4], mask=[False, True, False, False])
        b.put([0], [10])
        return a, b
    same(run)


@pytest.mark.parametrize("values", ["10x", [7, 8], 9, "masked"])
def test_ma_putmask(values):
    def run(np):
        x = np.ma.array([[1, 2], [3, 4]], mask=[[1, 0], [0, 0]])
        v = {"10x": 10 * x, "masked": np.ma.array([[5, 6], [7, 8]], mask=[[0, 1], [0, 0]])
             }.get(values, values) if isinstance(values, str) else values
        np.ma.putmask(x, x < 4, v)
        return x, x.data
    same(run)


def test_ma_shifts_fill_values_mask_dtypes():
    def run(np):
        arr = np.ma.array([10, 20, 30], mask=[False, True, False])
        n = np.ma.array([1, 1, 2], mask=[1, 0, 0])
        return (np.ma.left_shift(arr, 1), np.ma.left_shift(10, 10),
                np.ma.left_shift(2, arr), np.ma.right_shift(arr, n),
                np.ma.common_fill_value(np.ma.array([0, 1.], fill_value=3),
                                        np.ma.array([0, 1.], fill_value=3)),
                np.ma.common_fill_value(np.ma.array([1], fill_value=2), [1]),
                np.ma.make_mask_descr(np.float32), np.ma.bool_)
    same(run)


def test_masked_array_flags_and_tobytes():
    same(lambda np: (np.ma.array([1, 2, 3]).flags, np.ma.array([1, 2, 3]).flags["OWNDATA"]))
    same(lambda np: np.ma.array([1, 2, 3], mask=[0, 1, 0]).tobytes())
    same(lambda np: np.ma.array([1, 2, 3], mask=[0, 1, 0]).tobytes(fill_value=0))


def test_clump_bounds_are_numpy_ints_inside():
    def run(np):
        a = np.ma.masked_array(np.arange(10))
        a[[0, 1, 2, 6, 8, 9]] = np.ma.masked
        b = np.ma.masked_array(np.arange(10))
        b[[3, 4]] = np.ma.masked
        return (np.ma.clump_masked(a), np.ma.clump_unmasked(a), np.ma.clump_masked(b),
                np.ma.clump_unmasked(b), np.ma.flatnotmasked_contiguous(b))
    same(run)


def test_setflags_uic_is_an_error():
    same(lambda np: np.ones(3).setflags(uic=1))
    same(lambda np: np.ones(3).setflags(uic=0))


@pytest.mark.parametrize("make", [
    lambda np: np.zeros((4, 2))[::2],
    lambda np: np.zeros((4, 2)).T,
    lambda np: np.zeros((4, 2))[:2],
    lambda np: np.zeros((2, 3, 4))[:, ::-1],
])
@pytest.mark.parametrize("shape", [(-1,), (2, 2, 2), (4, 2)])
def test_reshape_in_place_and_without_copy(make, shape):
    def set_shape(np):
        a = make(np)
        if a.size != 8:
            shape_ = (a.size,)
        else:
            shape_ = shape
        a.shape = shape_
        return a.shape
    same(set_shape)
    same(lambda np: np.reshape(make(np), (-1,), copy=False).shape)


def test_ndarray_constructor_buffer_offset_strides_order():
    same(lambda np: np.ndarray((2,), buffer=np.array([1, 2, 3]), offset=np.int_().itemsize,
                               dtype=int))
    same(lambda np: np.ndarray((2,), buffer=bytearray(b"\x01\x00\x02\x00\x03\x00"),
                               dtype=np.int16, strides=(4,)))
    same(lambda np: np.ndarray((5,), buffer=b"\x01\x00", dtype=np.int16))
    same(lambda np: np.ndarray((2, 2), dtype=float, order="F").flags.f_contiguous)


def test_atleast_nd_returns_the_array_or_a_view_of_it():
    x = xnp.arange(3.0)
    assert xnp.atleast_1d(x) is x
    y = xnp.atleast_2d(x)
    assert y.base is x
    y[0, 0] = 100.0
    assert x[0] == 100.0
    same(lambda np: (np.atleast_1d(5), np.atleast_2d([1, 2]), np.atleast_3d(np.ones(2))))


def test_getfield_and_setfield():
    def run(np):
        x = np.diag([1.0 + 1.0j] * 2)
        x[1, 1] = 2 + 4.0j
        e = np.eye(3)
        e.setfield(3, np.int32)
        field = e.getfield(np.int32)
        t = np.arange(4.0).reshape(2, 2).T
        t.setfield(0, np.int32, 4)
        return (x.getfield(np.float64), x.getfield(np.float64, offset=8), field, e,
                t, np.ones(()).getfield(np.int32, 4))
    same(run)
    same(lambda np: np.ones(2).getfield(np.float64, 8))
    same(lambda np: np.ones(2).getfield(np.int32, -1))


@pytest.mark.parametrize("make", [
    lambda np: np.arange(4, dtype=np.int32).reshape(2, 2).T.view(np.int64),
    lambda np: np.arange(4, dtype=np.int32)[::2].view(np.int16),
    lambda np: np.arange(4, dtype=np.int32).reshape(4, 1)[::2].view(np.int16),
    lambda np: np.arange(8, dtype=np.int16).reshape(2, 4)[:, :2].view(np.int32),
    lambda np: np.arange(4, dtype=np.int32).reshape(2, 2).T.view(np.uint32),
])
def test_dtype_view_needs_a_contiguous_last_axis(make):
    same(make)


@pytest.mark.parametrize("shape", [(2, 1), (3, 2), (4,), (5,)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_resize_method_cuts_in_memory_order(shape, order):
    def run(np):
        a = np.array([[0, 1], [2, 3]], order=order)
        a.resize(shape, refcheck=False)
        return a
    same(run)


@pytest.mark.parametrize("name", ["matmul", "vecdot", "matvec", "vecmat"])
def test_gufunc_attributes(name):
    f, g = getattr(xnp, name), getattr(numpy, name)
    assert (f.nin, f.nout, f.nargs, f.identity, f.signature) == (
        g.nin, g.nout, g.nargs, g.identity, g.signature)
    assert f.types == g.types and f.ntypes == len(f.types)     # object loops included
