"""Tests for ``xnp.lib.stride_tricks.as_strided``: NumPy's ``as_strided`` on a C-contiguous
copy of the same data is the oracle (a NumPy view where negative strides need a start
inside the buffer, an explicit loop otherwise); plus the checks NumPy does not make, and
behaviour under grad, vmap and jit."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided as np_as_strided
from numpy_compare import central_differences

import xnp
from xnp.lib.stride_tricks import as_strided

DTYPES = [np.float64, np.int32, np.bool_, np.complex128]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.bool_:
        flat = rng.integers(0, 2, n).astype(bool)
    elif np.issubdtype(dtype, np.complexfloating):
        flat = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    elif np.issubdtype(dtype, np.integer):
        flat = rng.integers(-100, 100, n)
    else:
        flat = rng.standard_normal(n)
    out = np.array(flat.astype(dtype).reshape(shape), order="C")  # ascontiguousarray: >= 1-d
    assert out.shape == tuple(shape) and out.flags.c_contiguous
    return out


def _same(actual, expected):
    assert isinstance(actual, xnp.ndarray)
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)


def _loop(flat, shape, steps, start=0):
    """The definition, element by element: result[i] = flat[start + sum(i_j * steps_j)]."""
    out = np.empty(shape, flat.dtype)
    for idx in itertools.product(*(range(n) for n in shape)):
        out[idx] = flat[start + sum(i * s for i, s in zip(idx, steps))]
    return out


# (x shape, result shape, strides in elements); strides are scaled by the itemsize.
CASES = {
    "rolling": ((10,), (8, 3), (1, 1)),
    "rolling_w1": ((5,), (5, 1), (1, 1)),
    "rolling_full": ((4,), (1, 4), (1, 1)),
    "rolling_hop2": ((10,), (4, 3), (2, 1)),
    "rolling_2d_rows": ((3, 6), (3, 4, 3), (6, 1, 1)),
    "windows_2d": ((4, 5), (3, 4, 2, 2), (5, 1, 5, 1)),
    "blocks_2d": ((4, 6), (2, 3, 2, 2), (12, 2, 6, 1)),
    "transpose": ((2, 3), (3, 2), (1, 3)),
    "diagonal": ((4, 4), (4,), (5,)),
    "every_other": ((9,), (5,), (2,)),
    "reshape": ((12,), (3, 4), (4, 1)),
    "broadcast_rows": ((3,), (4, 3), (0, 1)),
    "broadcast_cols": ((3,), (3, 4), (1, 0)),
    "all_zero": ((5,), (2, 3), (0, 0)),
    "zero_from_2d": ((2, 3), (2, 2, 3), (3, 0, 1)),
    "scalar_0d": ((), (), ()),
    "scalar_0d_broadcast": ((), (3, 2), (0, 0)),
    "to_0d": ((4,), (), ()),
    "empty_rows": ((5,), (0, 3), (1, 1)),
    "empty_cols": ((5,), (3, 0), (1, 1)),
    "empty_huge_strides": ((5,), (0, 7), (100, 100)),
    "empty_input": ((0,), (0,), (1,)),
    "empty_input_2d": ((0, 3), (2, 0), (0, 1)),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_matches_numpy(case, dtype):
    xshape, shape, steps = CASES[case]
    a = _data(xshape, dtype)
    item = a.itemsize
    strides = tuple(s * item for s in steps)
    want = np_as_strided(a, shape=shape, strides=strides).copy()
    _same(as_strided(xnp.asarray(a), shape=shape, strides=strides), want)
    _same(as_strided(xnp.asarray(a), shape, strides), want)
    _same(as_strided(xnp.asarray(a), shape=list(shape), strides=list(strides)), want)
    if a.size:
        _same(as_strided(xnp.asarray(a), shape, strides), _loop(a.ravel(), shape, steps))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("xshape", [(), (5,), (2, 3), (2, 3, 4), (0,), (3, 0)])
def test_defaults(xshape, dtype):
    a = _data(xshape, dtype)
    x = xnp.asarray(a)
    _same(as_strided(x), np_as_strided(a).copy())
    _same(as_strided(x, strides=x.strides), np_as_strided(a, strides=a.strides).copy())
    _same(as_strided(x, shape=x.shape), np_as_strided(a, shape=a.shape).copy())
    assert x.strides == np.empty(xshape, dtype).strides


@pytest.mark.parametrize("xshape, shape", [((6,), (2, 3)), ((2, 3), (3, 2)),
                                           ((2, 3), (6,)), ((24,), (2, 3, 4)),
                                           ((6,), (2, 2)), ((6,), (0, 5))])
def test_shape_only_uses_c_strides_of_result(xshape, shape):
    # NumPy: strides=None keeps a contiguous x's layout, i.e. C strides of the new shape.
    a = _data(xshape, np.float64)
    _same(as_strided(xnp.asarray(a), shape=shape), np_as_strided(a, shape=shape).copy())


def test_strides_from_attributes_like_numpy_code():
    # The idiom NumPy code uses: strides built from x.strides.
    a = np.arange(20.0).reshape(4, 5)
    x = xnp.asarray(a)
    shape = (3, 4, 2, 2)
    _same(as_strided(x, shape, x.strides + x.strides),
          np_as_strided(a, shape, a.strides + a.strides).copy())
    v = np.arange(10, dtype=np.int32)
    s, = xnp.asarray(v).strides
    _same(as_strided(xnp.asarray(v), (8, 3), (s, s)), np_as_strided(v, (8, 3), (s, s)).copy())


# --- negative strides ----------------------------------------------------------------------------
# (length of a, start k, result shape, strides in elements): NumPy's as_strided(a[k:], ...)
NEGATIVE = {
    "reverse": (6, 5, (6,), (-1,)),
    "reverse_part": (6, 4, (3,), (-1,)),
    "reverse_every_other": (7, 6, (4,), (-2,)),
    "reverse_windows": (8, 7, (6, 3), (-1, -1)),
    "mixed_signs": (6, 3, (2, 3), (-1, 1)),
    "mixed_signs_rows": (12, 8, (3, 4), (-4, 1)),
    "neg_and_zero": (5, 4, (3, 2), (-1, 0)),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", list(NEGATIVE), ids=list(NEGATIVE))
def test_negative_strides(case, dtype):
    n, k, shape, steps = NEGATIVE[case]
    a = _data((n,), dtype)
    item = a.itemsize
    strides = tuple(s * item for s in steps)
    got = as_strided(xnp.asarray(a), shape, strides, offset=k * item)
    # NumPy can only express this from a view whose data starts inside a's buffer.
    _same(got, np_as_strided(a[k:], shape, strides).copy())
    _same(got, _loop(a, shape, steps, start=k))


def test_views_are_read_in_their_numpy_layout():
    # a[::-1], a transpose and a strided slice have NumPy's strides; strides built from
    # them address the same elements as in NumPy.
    a = np.arange(12.0)
    x = xnp.asarray(a)[::-1]
    assert x.strides == a[::-1].strides == (-8,)
    _same(as_strided(x, (6, 3), (-8, -8)), np_as_strided(a[::-1], (6, 3), (-8, -8)).copy())
    with pytest.raises(ValueError, match="outside the elements of x"):
        as_strided(x, (6, 3), (8, 8))     # NumPy would read past the end of a
    m = a.reshape(3, 4)
    for view in (lambda v: v.T, lambda v: v[:, ::2], lambda v: v[::-1, 1:]):
        xv, nv = view(xnp.asarray(m)), view(m)
        assert xv.strides == nv.strides
        _same(as_strided(xv), np_as_strided(nv).copy())
        shape = (2,) + nv.shape[1:]
        _same(as_strided(xv, shape, xv.strides), np_as_strided(nv, shape, nv.strides).copy())


def test_negative_strides_without_offset_are_out_of_range():
    x = xnp.arange(6.0)
    with pytest.raises(ValueError, match=r"-2 to 0.*6 elements"):
        as_strided(x, (3,), (-8,))
    # a size-1 axis never moves, so its stride may be anything
    _same(as_strided(x, (1, 3), (-8, 8)), np.arange(3.0)[None])


# --- errors --------------------------------------------------------------------------------------
def test_shape_strides_length_mismatch():
    x = xnp.arange(6.0)
    with pytest.raises(ValueError, match=r"shape \(2, 3\) and strides \(8,\)"):
        as_strided(x, (2, 3), (8,))
    with pytest.raises(ValueError, match="same length"):
        as_strided(x, (6,), (8, 8))
    with pytest.raises(ValueError, match="same length"):
        as_strided(x, strides=(8, 8))            # shape defaults to x.shape (1-d)


@pytest.mark.parametrize("dtype, strides", [(np.float64, (4,)), (np.float64, (12,)),
                                            (np.int32, (2,)), (np.complex128, (8,)),
                                            (np.float64, (-4,)), (np.int32, (4, 3))])
def test_strides_not_multiple_of_itemsize(dtype, strides):
    x = xnp.asarray(_data((8,), dtype))
    shape = (2,) * len(strides)
    with pytest.raises(ValueError, match="multiple"):
        as_strided(x, shape, strides)


def test_bool_itemsize_accepts_any_stride():
    a = _data((10,), np.bool_)
    _same(as_strided(xnp.asarray(a), (4, 3), (2, 1)), np_as_strided(a, (4, 3), (2, 1)).copy())


@pytest.mark.parametrize("shape, strides, lo, hi", [
    ((5, 3), (8, 8), 0, 6),           # one window too many
    ((7,), (8,), 0, 6),
    ((2, 3), (32, 8), 0, 6),
    ((4,), (16,), 0, 6),
])
def test_out_of_range(shape, strides, lo, hi):
    x = xnp.arange(6.0)
    with pytest.raises(ValueError) as info:
        as_strided(x, shape, strides)
    msg = str(info.value)
    assert f"{lo} to {hi}" in msg and "6 elements" in msg and "[0, 6)" in msg


def test_out_of_range_various():
    x = xnp.asarray(np.arange(10.0))
    with pytest.raises(ValueError, match=r"0 to 10 .*10 elements"):
        as_strided(x, (9, 3), (8, 8))
    with pytest.raises(ValueError, match=r"outside"):
        as_strided(x, (2,), (80,))
    with pytest.raises(ValueError, match=r"-1 to 1"):
        as_strided(x, (2, 2), (-8, 8), offset=0)
    with pytest.raises(ValueError, match=r"offset 80"):
        as_strided(x, (1,), (8,), offset=80)
    with pytest.raises(ValueError, match=r"outside"):
        as_strided(xnp.zeros(0), (1,), (8,))
    with pytest.raises(ValueError, match=r"outside"):
        as_strided(xnp.asarray(1.0), (2,), (8,))
    with pytest.raises(ValueError, match=r"outside"):
        as_strided(xnp.arange(6.0), (3, 3))       # C strides of a 9-element result


def test_negative_shape_and_bad_offset():
    x = xnp.arange(6.0)
    with pytest.raises(ValueError, match="negative"):
        as_strided(x, (-1, 2), (8, 8))
    with pytest.raises(ValueError, match="multiple"):
        as_strided(x, (2,), (8,), offset=4)
    with pytest.raises(TypeError):
        as_strided(x, (2.5,), (8,))
    with pytest.raises(TypeError):
        as_strided(x, (2,), (8.0,))


# --- semantics -----------------------------------------------------------------------------------
def test_result_is_a_copy_and_flags_are_accepted():
    x = xnp.arange(6.0)
    for kwargs in ({}, {"writeable": False}, {"writeable": True}, {"subok": True}):
        w = as_strided(x, (4, 3), (8, 8), **kwargs)
        w[0, 1] = 100.0
        assert float(w[0, 1]) == 100.0
        assert float(w[1, 0]) == 1.0             # no aliasing between overlapping windows
        _same(x, np.arange(6.0))
    w = as_strided(x, (4, 3), (8, 8))
    x[2] = -1.0
    assert float(w[0, 2]) == 2.0


def test_array_like_input_and_dtype_preserved():
    _same(as_strided([1, 2, 3, 4], (3, 2), (8, 8)),
          np_as_strided(np.array([1, 2, 3, 4]), (3, 2), (8, 8)).copy())
    for dt in (np.float32, np.int8, np.uint16, np.complex64, np.int64):
        a = np.arange(6).astype(dt)
        s = a.itemsize
        _same(as_strided(xnp.asarray(a), (4, 3), (s, s)), np_as_strided(a, (4, 3), (s, s)).copy())


def test_import_paths():
    from xnp.lib.stride_tricks import as_strided as imported
    assert imported is xnp.lib.stride_tricks.as_strided
    assert "as_strided" in xnp.lib.stride_tricks.__all__
    import xnp.lib.stride_tricks as st
    assert st.as_strided is as_strided


# --- transformations -----------------------------------------------------------------------------
GRAD_CASES = [
    ((7,), (5, 3), (8, 8), 0),
    ((4, 5), (3, 4, 2, 2), (40, 8, 40, 8), 0),
    ((4,), (3, 4), (0, 8), 0),
    ((6,), (2, 3), (-8, 8), 24),
    ((3, 3), (3,), (32,), 0),
    ((), (3,), (0,), 0),
]


@pytest.mark.parametrize("xshape, shape, strides, offset", GRAD_CASES)
def test_grad_matches_finite_differences(xshape, shape, strides, offset):
    a = _data(xshape, np.float64, seed=3)

    def f(x):
        return xnp.sum(as_strided(x, shape, strides, offset=offset) ** 2)

    g = xnp.grad(f)(xnp.asarray(a))
    fd = central_differences(lambda v: f(xnp.asarray(v)), a)
    assert np.asarray(g).shape == a.shape
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-6)


def test_grad_counts_overlap():
    # d/dx sum(windows) = number of windows each element appears in.
    g = xnp.grad(lambda x: xnp.sum(as_strided(x, (4, 3), (8, 8))))(xnp.arange(6.0))
    _same(g, np.array([1.0, 2.0, 3.0, 3.0, 2.0, 1.0]))


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_vmap_matches_loop(dtype):
    batch = _data((5, 9), dtype, seed=7)
    s = batch.itemsize

    def windows(r):
        return as_strided(r, (7, 3), (s, s))

    got = xnp.vmap(windows)(xnp.asarray(batch))
    want = np.stack([np_as_strided(np.ascontiguousarray(r), (7, 3), (s, s)) for r in batch])
    _same(got, want)
    # in_axes=1 and strides from the per-example x
    got = xnp.vmap(lambda r: as_strided(r, (7, 3), r.strides * 2), in_axes=1)(
        xnp.asarray(batch.T.copy()))
    _same(got, want)


def test_vmap_defaults_and_negative():
    batch = np.arange(24.0).reshape(4, 6)
    _same(xnp.vmap(lambda r: as_strided(r, shape=(2, 3)))(xnp.asarray(batch)),
          batch.reshape(4, 2, 3))
    got = xnp.vmap(lambda r: as_strided(r, (3,), (-8,), offset=40))(xnp.asarray(batch))
    _same(got, batch[:, ::-1][:, :3])


@pytest.mark.parametrize("xshape, shape, strides, offset", GRAD_CASES)
def test_jit_matches_eager(xshape, shape, strides, offset):
    a = _data(xshape, np.float64, seed=11)

    def f(x):
        return as_strided(x, shape, strides, offset=offset) * 2.0 + 1.0

    _same(xnp.jit(f)(xnp.asarray(a)), np.asarray(f(xnp.asarray(a))))


def test_jit_errors_at_trace_time():
    with pytest.raises(ValueError, match="outside"):
        xnp.jit(lambda x: as_strided(x, (9, 3), (8, 8)))(xnp.arange(10.0))


def test_grad_of_jit_and_vmap_composed():
    batch = _data((3, 6), np.float64, seed=2)

    def loss(x):
        w = xnp.vmap(lambda r: as_strided(r, (4, 3), (8, 8)))(x)
        return xnp.sum(w ** 2)

    g = xnp.jit(xnp.grad(loss))(xnp.asarray(batch))
    counts = np.array([1.0, 2.0, 3.0, 3.0, 2.0, 1.0])
    np.testing.assert_allclose(np.asarray(g), 2 * batch * counts, rtol=1e-12)


def test_strides_leaving_a_view_read_its_base_as_numpy():
    # scipy-lecture-notes' stride-diagonal exercise: the super- and sub-diagonals are read
    # from views a[0, 1:] and a[1:, 0] with the stride of the diagonal of a
    a = np.arange(1, 10, dtype=np.int32).reshape(3, 3)
    xa = xnp.asarray(a)
    item = a.itemsize
    for view, shape, strides in [
        (lambda v: v[0, 1:], (2,), (4 * item,)),
        (lambda v: v[1:, 0], (2,), (4 * item,)),
        (lambda v: v[2:, 2:], (3,), (-4 * item,)),
        (lambda v: v[1:, 1:].T, (2, 2), (item, 3 * item)),
        (lambda v: v.reshape(9)[4:], (2, 2), (-3 * item, item)),
    ]:
        _same(as_strided(view(xa), shape, strides),
              np_as_strided(view(a), shape, strides).copy())
    with pytest.raises(ValueError, match="outside"):
        as_strided(xa[2:, 2:], (2,), (item,))       # past the end of a as well

    def f(v):
        return xnp.sum(as_strided(v[2:], (3,), (-8,)) * xnp.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(xnp.grad(f)(xnp.arange(5.0))), [3, 2, 1, 0, 0])
    assert float(xnp.jit(f)(xnp.arange(5.0))) == 4.0
