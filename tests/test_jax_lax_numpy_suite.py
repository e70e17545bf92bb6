"""Regressions found by running JAX's NumPy-compatibility tests (tests/lax_numpy_test.py,
lax_numpy_operators_test.py, lax_numpy_reducers_test.py, lax_numpy_indexing_test.py) with
xnp in jax.numpy's place. Each case runs the same call with NumPy and with xnp and
compares values, dtypes and exception types; traced cases check what NumPy raises for
every value of the traced input."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_compare import same

import xnp

_X = np.arange(6.0, dtype=np.float32).reshape(2, 3)

CASES = {
    "astype_function_dtype_none": lambda m: m.astype(m.asarray(_X), None),
    "astype_method_dtype_none": lambda m: m.asarray(_X).astype(None),
    "take_mode_none": lambda m: m.take(m.asarray(_X), np.array([1, 0]), axis=1, mode=None),
    "take_mode_none_scalar": lambda m: m.take(m.asarray(_X), 4, mode=None),
    "take_mode_none_out_of_bounds": lambda m: m.take(m.arange(3), 5, mode=None),
    "take_method_mode_none": lambda m: m.asarray(_X).take([2, 0], mode=None),
    "transpose_method_numpy_int": lambda m: m.arange(3.0).transpose(np.int64(0)),
    "transpose_method_0d_array": lambda m: m.arange(3.0).transpose(np.array(0)),
    "transpose_method_numpy_ints": lambda m: m.asarray(_X).transpose(np.int64(1), np.int64(0)),
    "transpose_method_float_axis": lambda m: m.arange(3.0).transpose(0.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_numpy(name):
    same(CASES[name])


@pytest.mark.parametrize("key", [lambda i: (0, i), lambda i: (slice(None), i),
                                 lambda i: (0, xnp.stack([i, i]))])
def test_traced_index_into_an_empty_axis_raises_index_error(key):
    # NumPy raises IndexError for any integer into a size-0 axis, so a traced one can too
    x = xnp.ones((2, 0))
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 0"):
        xnp.jit(lambda x, i: x[key(i)])(x, 0)
    with pytest.raises(IndexError):
        np.ones((2, 0))[key(0) if not isinstance(key(0)[-1], xnp.ndarray) else (0, [0, 0])]


def test_traced_index_into_an_empty_axis_with_a_mode_does_not_raise():
    x = xnp.ones((2, 0))
    assert xnp.jit(lambda x, i: x.at[:, i].get(mode="fill"))(x, 0).shape == (2,)
    assert xnp.jit(lambda x, i: x.at[:, i].set(3.0, mode="drop"))(x, 0).shape == (2, 0)
    assert xnp.jit(lambda x, i: x[:, i[None][:0]])(x, 0).shape == (2, 0)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_jit_integer_power_reads_every_exponent_bit(dtype):
    # XLA's integer power uses only the exponent's low 6 bits (0 ** 64 gave 1 under jit)
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 3, 5, 7, info.max, info.min] +
                 ([-1, -3, -2] if info.min < 0 else []), dtype)
    f = xnp.jit(xnp.power)
    for y in [0, 5, 6, 63, 64, 65, 100, 128, 200, 1000, 2**31 - 1, 2**62 + 1, int(info.max)]:
        if y <= info.max:
            ys = np.full(x.shape, y, dtype)
            got = f(x, ys)
            assert got.dtype == dtype
            np.testing.assert_array_equal(np.asarray(got), np.power(x, ys), err_msg=str(y))


@pytest.mark.parametrize("k", [-2**100, -5, 3, 2**63, 2**100])
@pytest.mark.parametrize("n, m", [(0, None), (4, None), (4, 3), (1, 4)])
def test_jit_eye_with_offsets_past_int64(n, m, k):
    # the offset used to become an int64 literal (OverflowError when lowering)
    got = xnp.jit(lambda: xnp.eye(n, m, k))()
    np.testing.assert_array_equal(np.asarray(got), np.eye(n, m, k))


@pytest.mark.parametrize("rng", [(0, 10), (0.0, 10.0), (np.int64(0), np.int64(10)),
                                 (np.float32(0), np.float32(3)), (0, np.int64(4))])
def test_jit_histogram_edges_dtype_with_a_traced_range(rng):
    # a range of Python numbers passed to jit is weak, as NumPy's: float32 data keeps
    # float32 edges (they were float64)
    a = np.array([0.5, 2.0, -1.0, 7.5, 3.25], np.float32)
    want = np.histogram_bin_edges(a, bins=10, range=rng)
    for f in (lambda a, r: xnp.histogram_bin_edges(a, bins=10, range=r),
              lambda a, r: xnp.histogram(a, bins=10, range=r)[1]):
        got = xnp.jit(f)(a, rng)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


@pytest.mark.parametrize("yshape, xshape, axis", [((2, 3, 10), (3, 10), -2),
                                                  ((3, 10), (2, 3, 10), -1),
                                                  ((10, 3), (10,), -2),
                                                  ((4, 5), (4, 5), 0)])
def test_jit_trapezoid_takes_the_axis_as_given_for_x(yshape, xshape, axis):
    # NumPy's diff(x, axis) and the sum use the axis as given, not normalised for y
    rng = np.random.RandomState(0)
    y, x = rng.randn(*yshape), rng.randn(*xshape)
    want = np.trapezoid(y, x, axis=axis)
    got = xnp.jit(lambda y, x: xnp.trapezoid(y, x, axis=axis))(y, x)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


@pytest.mark.parametrize("arg", [[True, False, True], [1, 2, 3], [[1.0, 2.5], [3, 4]], 2.5])
def test_jit_array_of_traced_values_as_bfloat16(arg):
    # bfloat16's kind is 'V', which sent the traced values down the structured-dtype path
    bf16 = xnp.bfloat16
    want = np.array(arg, dtype=bf16, ndmin=2)
    got = xnp.jit(lambda a: xnp.array(a, dtype=bf16, ndmin=2))(arg)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("shift, axis", [((-2,), (-2,)), ((1, 2), (0, 2)), ((1, 2), (1, 1)),
                                         (3, (0, 1)), ((1, -7), 2), (5, None)])
def test_jit_roll_with_a_traced_shift_per_axis(shift, axis):
    x = np.arange(60).reshape(3, 4, 5)
    got = xnp.jit(lambda x, s: xnp.roll(x, s, axis))(x, np.asarray(shift))
    np.testing.assert_array_equal(np.asarray(got), np.roll(x, shift, axis))


@pytest.mark.parametrize("k", [-5, -1, 0, 2, 4])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_jit_eye_tri_triu_tril_with_a_traced_offset(k, dtype):
    a = np.arange(20.0).reshape(4, 5)
    kk = dtype(k)
    for want, f in [(np.eye(4, 3, k), lambda k: xnp.eye(4, 3, k)),
                    (np.tri(4, 5, k), lambda k: xnp.tri(4, 5, k)),
                    (np.triu(a, k), lambda k: xnp.triu(a, k)),
                    (np.tril(a, k), lambda k: xnp.tril(a, k))]:
        got = xnp.jit(f)(kk)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int16, np.float16, np.int32,
                                   np.float32, np.uint64, np.float64, np.complex64,
                                   np.complex128])
def test_byteswap_of_traced_arrays(dtype):
    x = (np.arange(12).reshape(3, 4) * 37 + 5).astype(dtype)
    if x.dtype.kind == "c":
        x = (x + 1j * x[::-1]).astype(dtype)
    want = x.byteswap()
    for f in (xnp.jit(lambda a: a.byteswap()), xnp.vmap(lambda a: a.byteswap())):
        got = np.asarray(f(x))
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    got = xnp.jit(lambda a: (lambda b: (b.byteswap(inplace=True), b)[1])(a.copy()))(x)
    assert np.asarray(got).tobytes() == want.tobytes()


@pytest.mark.parametrize("shape, axis", [((4,), None), ((3, 4), 1), ((3, 4), -2),
                                         ((2, 3, 4), None), ((2, 1, 4), 1)])
def test_jit_insert_at_a_traced_index(shape, axis):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    n = x.size if axis is None else shape[axis]
    f = xnp.jit(lambda x, i, v: xnp.insert(x, i, v, axis=axis))
    for i in range(-n, n + 1):
        for val in (np.float32(-7), np.array([-1.0, -2.0], np.float32)):
            try:
                want = np.insert(x, i, val, axis=axis)
            except ValueError:
                continue            # the values do not fit: NumPy raises, so does xnp
            got = f(x, np.int32(i), val)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_with_bfloat16_as_numpy(casting):
    # ml_dtypes registers bfloat16's casts with NumPy: float32 -> bfloat16 is same_kind
    # (concatenate(..., dtype=bfloat16) raised), int16 -> bfloat16 is not safe
    bf16 = np.dtype(xnp.bfloat16)
    for t in [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64, np.float16,
              np.float32, np.float64, np.complex64, np.complex128, bf16]:
        for a, b in [(np.dtype(t), bf16), (bf16, np.dtype(t))]:
            assert xnp.can_cast(a, b, casting) == np.can_cast(a, b, casting), (a, b)
    same(lambda m: m.concatenate([m.ones(2, np.float32)], dtype=bf16))


@pytest.mark.parametrize("a", [
    np.array([0, -2**63]), np.array([-128, 0, 127], np.int8),
    np.array([2**64 - 1, 0, 2**63], np.uint64), np.array([np.inf, np.nan, 1.0]),
    np.array([0.0, -0.0, 5e-324, -5e-324]), np.array([True, False, True]),
    np.array([1 + 2j, 1 + 1j, np.nan, 2 + 0j, complex(1, np.nan)])])
def test_top_k_orders_as_numpy_sorts_descending(a):
    # Descending in NumPy's sort order (NaN largest), ties in index order, eagerly and
    # under jit; the integer minimum used to overflow a negated sort key and come first.
    n = a.shape[-1]
    order = (n - 1 - np.argsort(a[::-1], kind="stable")[::-1])
    for run in (xnp.lax.top_k, xnp.jit(xnp.lax.top_k, static_argnames="k")):
        values, indices = run(a, k=n)
        np.testing.assert_array_equal(np.asarray(indices), order)
        np.testing.assert_array_equal(np.asarray(values), a[order])
