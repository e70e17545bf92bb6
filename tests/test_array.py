"""The xnp.ndarray handle: attributes, conversions, printing, protocols, operators."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import xnp


@pytest.fixture
def pair():
    a = np.arange(6.0).reshape(2, 3) - 2.5
    return a, xnp.asarray(a)


def test_attributes_match_numpy(pair):
    a, x = pair
    assert (x.shape, x.dtype, x.ndim, x.size, x.itemsize, x.nbytes) == \
        (a.shape, a.dtype, a.ndim, a.size, a.itemsize, a.nbytes)
    assert x.device == "cpu" and x.to_device("cpu") is x
    np.testing.assert_array_equal(x.T, a.T)
    np.testing.assert_array_equal(x.mT, np.swapaxes(a, -1, -2))


def test_repr_and_str_are_numpys(pair):
    a, x = pair
    assert repr(x) == repr(a) and str(x) == str(a)
    assert repr(xnp.asarray(np.float32(1.5))) == repr(np.asarray(np.float32(1.5)))
    assert f"{xnp.asarray(2.5):.2f}" == "2.50"


def test_scalar_conversions():
    x = xnp.asarray(3.0)
    assert float(x) == 3.0 and int(x) == 3 and complex(x) == 3 + 0j and bool(x)
    assert [10, 20, 30, 40][xnp.asarray(2)] == 30
    with pytest.raises(TypeError):
        [1, 2][xnp.asarray(1.0)]
    with pytest.raises(ValueError):
        bool(xnp.asarray(np.ones(2)))
    assert xnp.asarray(np.arange(3)).tolist() == [0, 1, 2]
    assert xnp.asarray(np.float32(2)).item() == 2.0


def test_len_and_iteration(pair):
    a, x = pair
    assert len(x) == 2
    rows = list(x)
    assert len(rows) == 2 and all(isinstance(r, xnp.ndarray) for r in rows)
    np.testing.assert_array_equal(rows[1], a[1])
    with pytest.raises(TypeError, match="unsized"):
        len(xnp.asarray(1.0))
    with pytest.raises(TypeError, match="0-d"):
        iter(xnp.asarray(1.0))


def test_numpy_interop(pair):
    a, x = pair
    assert np.asarray(x) is x._value
    assert np.array(x, copy=True) is not x._value
    np.testing.assert_array_equal(np.from_dlpack(x), a)
    assert x.__dlpack_device__() == (1, 0)
    assert x.__array_namespace__() is xnp
    y = np.sin(x)                       # __array_ufunc__
    assert isinstance(y, xnp.ndarray)
    np.testing.assert_array_equal(y, np.sin(a))
    out = xnp.zeros_like(x)
    np.add(x, 1.0, out=out)
    np.testing.assert_array_equal(out, a + 1)


@pytest.mark.parametrize("scalar", [np.float32(0.5), np.float64(0.5), np.int8(3),
                                    np.complex64(1j)])
@pytest.mark.parametrize("dtype", ["float16", "float32", "int64", "bool"])
def test_numpy_scalar_operators_on_xnp_arrays(scalar, dtype):
    # numpy_scalar * x reaches xnp through __array_ufunc__ (a float32 learning rate in
    # an SGD update): an xnp array with NumPy's value and NEP 50 dtype, also reflected.
    a = np.arange(1, 5).astype(dtype)
    x = xnp.asarray(a)
    for op in (lambda s, v: s * v, lambda s, v: s - v, lambda s, v: s + v,
               lambda s, v: np.maximum(s, v)):
        got, want = op(scalar, x), op(scalar, a)
        assert isinstance(got, xnp.ndarray)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)

def test_array_function_dispatch(pair):
    # NumPy's functions on concrete xnp arrays return what NumPy returns (libraries that
    # call NumPy get ndarrays); on traced ones they dispatch to xnp's (test_autodiff).
    a, x = pair
    s = np.sum(x, axis=0)               # __array_function__
    assert type(s) is type(np.sum(a, axis=0))
    np.testing.assert_array_equal(s, np.sum(a, axis=0))
    both = np.concatenate([x, x])
    assert type(both) is np.ndarray
    np.testing.assert_array_equal(both, np.concatenate([a, a]))
    traced = xnp.grad(lambda v: np.sum(np.concatenate([v, v]) ** 2))(x.astype(float))
    np.testing.assert_allclose(traced, 4 * a.astype(float))


def test_pickle_copy_deepcopy(pair):
    a, x = pair
    for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        assert isinstance(y, xnp.ndarray)
        np.testing.assert_array_equal(y, a)


def test_ndarray_constructor():
    z = xnp.ndarray((2, 2), dtype=np.int32)
    assert z.shape == (2, 2) and z.dtype == np.int32
    assert z.tolist() == [[0, 0], [0, 0]]


BINOPS = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
          "__pow__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"]


@pytest.mark.parametrize("op", BINOPS)
def test_operators_and_reflected(pair, op):
    a, x = pair
    b = np.array([1.5, -2.0, 3.0])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(getattr(x, op)(b), getattr(a, op)(b))
        np.testing.assert_array_equal(getattr(x, op)(2), getattr(a, op)(2))
        rop = op.replace("__", "__r", 1) if op not in (
            "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__") else None
        if rop:
            np.testing.assert_array_equal(getattr(x, rop)(3.0), getattr(a, rop)(3.0))


def test_bitwise_and_unary_operators():
    a = np.array([3, -4, 5])
    x = xnp.asarray(a)
    for op in ("__and__", "__or__", "__xor__", "__lshift__", "__rshift__"):
        np.testing.assert_array_equal(getattr(x, op)(1), getattr(a, op)(1))
    np.testing.assert_array_equal(-x, -a)
    np.testing.assert_array_equal(+x, +a)
    np.testing.assert_array_equal(abs(x), abs(a))
    np.testing.assert_array_equal(~x, ~a)
    q, r = divmod(x, 2)
    np.testing.assert_array_equal(q, a // 2)
    np.testing.assert_array_equal(r, a % 2)


def test_matmul_operator():
    a = np.arange(6.0).reshape(2, 3)
    x = xnp.asarray(a)
    np.testing.assert_array_equal(x @ a.T, a @ a.T)
    np.testing.assert_array_equal(a.T @ x, a.T @ a)


def test_inplace_operators_rebind_and_cast():
    x = xnp.asarray(np.arange(3))
    handle = x
    x += 2
    assert x is handle and x.tolist() == [2, 3, 4] and x.dtype == np.int64
    with pytest.raises(TypeError, match="same_kind"):
        x += 1.5
    y = xnp.asarray(np.ones((2, 3)))
    y *= np.arange(3.0)
    np.testing.assert_array_equal(y, np.ones((2, 3)) * np.arange(3.0))
    with pytest.raises(ValueError, match="broadcast"):
        z = xnp.asarray(np.ones(3))
        z += np.ones((2, 3))


def test_methods_delegate_to_functions(pair):
    a, x = pair
    np.testing.assert_array_equal(x.sum(axis=1), a.sum(axis=1))
    np.testing.assert_allclose(x.std(ddof=1), a.std(ddof=1))
    np.testing.assert_array_equal(x.reshape(3, 2), a.reshape(3, 2))
    np.testing.assert_array_equal(x.reshape((6,)), a.reshape((6,)))
    np.testing.assert_array_equal(x.transpose(1, 0), a.transpose(1, 0))
    np.testing.assert_array_equal(x.flatten(), a.flatten())
    np.testing.assert_array_equal(x.astype(np.int32), a.astype(np.int32))
    np.testing.assert_array_equal(x.clip(-1, 1), a.clip(-1, 1))
    np.testing.assert_array_equal(x.cumsum(), a.cumsum())
    assert x.argmax() == a.argmax() and x.max() == a.max()
    y = xnp.array(x)
    y.fill(7.0)
    assert y.tolist() == np.full((2, 3), 7.0).tolist()
    z = xnp.asarray(np.array([3, 1, 2]))
    z.sort()
    assert z.tolist() == [1, 2, 3]


def test_zero_d_arrays_hash_and_round_like_the_numpy_scalars_numpy_returns():
    # NumPy's reductions return scalars; xnp's return 0-d arrays, which hash and round
    # as those scalars do (counting into dicts, round(np.mean(x), 2)).
    counts: dict = {}
    for row in ([1, 5, 2], [7, 0, 1], [0, 9, 3]):
        k = xnp.argmax(xnp.asarray(row))
        counts[k] = counts.get(k, 0) + 1
    assert counts == {1: 2, 0: 1}
    s = xnp.mean(xnp.asarray([1.0, 2.0, 2.5]))
    assert hash(s) == hash(np.mean([1.0, 2.0, 2.5]))
    assert round(s) == round(np.mean([1.0, 2.0, 2.5])) and type(round(s)) is int
    assert float(round(s, 2)) == float(round(np.mean([1.0, 2.0, 2.5]), 2))
    with pytest.raises(TypeError, match="unhashable"):
        hash(xnp.ones(2))
    with pytest.raises(TypeError, match="__round__"):
        round(xnp.ones(2))


def test_predicates_return_python_bools_as_numpy():
    for fn, args in [(xnp.allclose, ([1.0, 2.0], [1.0, 2.0 + 1e-12])),
                     (xnp.array_equal, ([1, 2], [1, 2])), (xnp.array_equal, ([1], [1, 2])),
                     (xnp.array_equiv, ([1, 1], 1)), (xnp.array_equiv, ([1, 2], [1, 2, 3]))]:
        got, want = fn(*args), getattr(np, fn.__name__)(*args)
        assert type(got) is bool and got == want
    traced = xnp.jit(lambda a: xnp.allclose(a, 1.0))(np.ones(2))     # traced: an array
    assert bool(traced)


def test_modf_keeps_the_sign_of_zero_fractions_without_warnings():
    x = np.array([-2.5, -1.0, -0.0, 0.0, 3.0, np.inf, -np.inf, np.nan])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = xnp.modf(x)
    for g, w in zip(got, np.modf(x)):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def test_round_of_complex_rounds_each_part_keeping_zero_signs():
    z = np.array([-0.0 + 1j, 1.23456 - 2.34567j, 0.5 - 0.0j])
    for d in (2, -1, 8):
        got, want = xnp.round(z, d), np.round(z, d)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


def test_numpy_functions_xnp_lacks_run_on_numpy_values():
    # __array_function__ dispatches NumPy's functions to xnp's; one xnp does not have
    # runs as NumPy's own on the arrays' NumPy values, as for any array-like, and
    # refuses traced arrays.
    import io
    a = xnp.arange(3.0)
    buf = io.BytesIO()
    np.save(buf, a)
    buf.seek(0)
    np.testing.assert_array_equal(np.load(buf), np.arange(3.0))

    def doubled(x):          # stands for any NumPy function xnp has no counterpart of
        assert type(x) is np.ndarray
        return x * 2
    doubled.__module__ = "numpy"
    a = xnp.arange(3.0)
    got = a.__array_function__(doubled, (xnp.ndarray,), (a,), {})
    np.testing.assert_array_equal(got, [0.0, 2.0, 4.0])
    with pytest.raises(TypeError, match="traced"):
        xnp.grad(lambda x: np.savetxt(io.StringIO(), x) or x.sum())(a)


def test_window_functions_are_numpys_bit_for_bit():
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        for m in (-1, 0, 1, 2, 5, 16, 51):
            got, want = getattr(xnp, name)(m), getattr(np, name)(m)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


_FLAT_WRITES = [
    lambda a: a.flat.__setitem__(3, 9),
    lambda a: a.flat.__setitem__(slice(1, None, 2), -1),
    lambda a: a.flat.__setitem__([0, 1, 2, 4], [5, 6]),          # repeated to fill
    lambda a: a.flat.__setitem__(np.array([True, False] * 6), 2.75),
    lambda a: setattr(a, "flat", [7, 8, 9, 1, 2]),
    lambda a: setattr(a, "flat", 4),
]


@pytest.mark.parametrize("write", range(len(_FLAT_WRITES)))
@pytest.mark.parametrize("transposed", [False, True])
def test_flat_writes_into_the_array_as_numpy(write, transposed):
    ref = np.arange(12).reshape(3, 4)
    got = xnp.arange(12).reshape(3, 4)
    if transposed:
        ref, got = ref.T.copy(), got.T.copy()
    _FLAT_WRITES[write](ref)
    _FLAT_WRITES[write](got)
    np.testing.assert_array_equal(np.asarray(got), ref)
    assert got.dtype == ref.dtype


def test_flat_reads_and_iterates_as_numpy():
    ref = np.arange(6.0).reshape(2, 3).T
    got = xnp.asarray(ref)
    assert repr(got.flat[4]) == repr(ref.flat[4])
    np.testing.assert_array_equal(got.flat[1:5], ref.flat[1:5])
    it_ref, it_got = ref.flat, got.flat
    assert [next(it_got) for _ in range(2)] == [next(it_ref) for _ in range(2)]
    assert (it_got.index, it_got.coords) == (it_ref.index, it_ref.coords)
    assert list(got.flat) == list(ref.flat) and len(got.flat) == len(ref.flat)
    assert got.flat.base is got
    np.testing.assert_array_equal(got.flat.copy(), ref.flat.copy())


_FLAT_KEYS = [(), (1,), ..., True, False, [True, 1], [1.0, 2.0], 1.5, np.array(True),
              np.array([[1, 2]]), np.array([], "S"), None, (1, 2), [True, False, True],
              np.zeros(10, bool), np.zeros((3, 3), bool), np.array(["a"], "S"),
              np.array([1.0])]


def _outcome(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = np.asarray(fn())
        except IndexError as e:
            return "IndexError", str(e), len(w)
    return out.tolist(), str(out.dtype), len(w)


@pytest.mark.parametrize("k", range(len(_FLAT_KEYS)))
def test_flat_keys_follow_numpy(k):
    key = _FLAT_KEYS[k]
    ref, got = np.arange(9).reshape(3, 3), xnp.arange(9).reshape(3, 3)
    assert _outcome(lambda: got.flat[key]) == _outcome(lambda: ref.flat[key])

    def write(a):
        a.flat[key] = 7
        return a
    assert _outcome(lambda: write(got)) == _outcome(lambda: write(ref))


@pytest.mark.parametrize("key", [3, -1, np.int64(2), 9, -10])
@pytest.mark.parametrize("value", [5.0, [5.0], np.array([5.0]), [1.0, 2.0], np.array(4.0)])
def test_flat_single_item_assignment_as_numpy(key, value):
    ref, got = np.arange(9.0).reshape(3, 3), xnp.arange(9.0).reshape(3, 3)

    def write(a):
        try:
            a.flat[key] = value
        except (IndexError, ValueError) as e:
            return type(e)
        return np.asarray(a).tolist()
    assert write(got) == write(ref)


def test_flat_indexed_by_flat():
    ref, got = np.arange(9).reshape(3, 3), xnp.arange(9).reshape(3, 3)
    b = np.array([0, 5, 6])
    np.testing.assert_array_equal(got.flat[xnp.asarray(b).flat], ref.flat[b.flat])


def test_flat_write_differentiates_and_compiles():
    def f(x):
        a = xnp.zeros(4)
        a.flat[1:3] = x
        return (a ** 2).sum()
    x = xnp.asarray(np.array([1.0, 2.0]))
    np.testing.assert_allclose(xnp.grad(f)(x), [2.0, 4.0])
    assert float(xnp.jit(f)(x)) == 5.0


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex128, np.complex64])
@pytest.mark.parametrize("part,value", [("real", [1.5, -2.0, np.inf]), ("imag", 2.5),
                                        ("imag", [np.inf, np.nan, -0.0])])
def test_setting_real_and_imag_parts_as_numpy(dtype, part, value):
    ref = np.arange(3).astype(dtype)
    got = xnp.asarray(ref.copy())
    try:
        with np.errstate(all="ignore"):
            setattr(ref, part, value)
    except TypeError as e:
        with pytest.raises(TypeError, match="imaginary"):
            setattr(got, part, value)
        assert "imaginary" in str(e)
        return
    setattr(got, part, value)
    np.testing.assert_array_equal(np.asarray(got), ref)
    assert got.dtype == ref.dtype


def _method_programs():
    def contains(m):
        a = m.arange(6).reshape(2, 3)
        return [4 in a, 9 in a, a[0] in a, 2.5 in a]

    def partition_in_place(m):
        b = m.array([5, 1, 4, 2, 3])
        b.partition(2)
        return int(b[2]), sorted(b[:2].tolist()), sorted(b[3:].tolist())

    def resize_in_place(m):
        c, d = m.arange(6), m.arange(6.0)
        c.resize(2, 4, refcheck=False)
        d.resize((2, 2))
        return c.tolist(), d.tolist()

    def bytes_and_layout(m):
        a = m.arange(6, dtype=m.int32).reshape(2, 3)
        return (a.tobytes(), a.strides, bytes(a.data), a.dumps()[:2],
                m.arange(3, dtype=m.int16).byteswap().tolist())

    return [contains, partition_in_place, resize_in_place, bytes_and_layout]


@pytest.mark.parametrize("program", _method_programs(), ids=lambda p: p.__name__)
def test_more_methods_as_numpy(program):
    assert program(xnp) == program(np)


def test_ndarray_class_subscripts_for_annotations():
    alias = xnp.ndarray[int, np.dtype[np.float64]]
    assert alias.__origin__ is xnp.ndarray


@pytest.mark.parametrize("name, arg", [
    ("arange", 5), ("zeros", 5), ("ones", 5), ("empty", (2, 2)), ("eye", 2),
    ("asarray", []), ("empty_like", []), ("zeros_like", [1]), ("ones_like", [1])])
def test_device_argument_checked_as_numpy(name, arg):
    """device=None or "cpu" is accepted; any other device is NumPy's ValueError."""
    for mod in (np, xnp):
        fn = getattr(mod, name)
        assert fn(arg, device="cpu").device == fn(arg, device=None).device == "cpu"
        with pytest.raises(ValueError) as info:
            fn(arg, device="nonsense")
        if mod is np:
            want = str(info.value)
    assert str(info.value) == want


def test_device_attribute_and_to_device_stream():
    for mod in (np, xnp):
        a = mod.arange(3)
        with pytest.raises(AttributeError, match="attribute 'device' of '(numpy.)?ndarray' "
                                                 "objects is not writable"):
            a.device = "other"
        with pytest.raises(ValueError, match=r"The stream argument in to_device\(\) is not "
                                             "supported"):
            a.to_device("cpu", stream=1)


@pytest.mark.parametrize("a_shape, b_shape", [
    ((3,), (3,)), ((3, 3), (3,)), ((3, 3), (3, 1)), ((3,), (3, 3)), ((1, 3), (3, 3)),
    ((3, 3, 3), (3, 3, 1)), ((3, 3, 3), (1, 3, 3)), ((1, 3, 3), (3, 3, 3))])
def test_imatmul_keeps_shape_or_raises(a_shape, b_shape):
    """a @= b needs a result of a's shape: NumPy's ValueError (and message) otherwise."""
    out = []
    for mod in (np, xnp):
        a = mod.arange(np.prod(a_shape), dtype=float).reshape(a_shape)
        b = mod.arange(np.prod(b_shape), dtype=float).reshape(b_shape)
        try:
            a @= b
            out.append(("ok", np.asarray(a).tolist()))
        except ValueError as e:
            out.append(("ValueError", str(e).split(" with shape")[0]))
    assert out[0] == out[1]


def test_numpy_functions_write_into_xnp_out_arrays():
    # NumPy's functions with an xnp array as out= write into it (xnp's function runs),
    # even when every input is a NumPy array.
    out = xnp.zeros(4)
    got = np.concatenate([np.ones(2), np.full(2, 2.0)], out=out)
    assert got is out
    np.testing.assert_array_equal(out, [1.0, 1.0, 2.0, 2.0])
    assert type(np.concatenate([xnp.ones(2), np.ones(2)])) is np.ndarray


@pytest.mark.parametrize("make", [
    lambda m, dt: m.array([(1, 2.0), (3, 4.0)], dtype=dt),
    lambda m, dt: m.asarray([(5, -1.5)], dtype=dt),
    lambda m, dt: m.array((7, 8.0), dtype=dt),
])
def test_structured_dtype_reads_tuples_as_records(make):
    # each tuple is one record, as NumPy reads it (was silently a (2, 2) array of
    # records filled element by element)
    dt = [("a", np.int64), ("b", np.float64)]
    got, want = np.asarray(make(xnp, dt)), make(np, dt)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
