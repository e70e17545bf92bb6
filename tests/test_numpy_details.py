"""Small NumPy behaviours real programs depend on, each checked against NumPy itself:
exception classes and messages, warnings, and namespaces forwarded from NumPy."""

import warnings

import numpy as np
import pytest

import xnp


def _error(mod, fn):
    with pytest.raises(Exception) as info:
        fn(mod)
    return info.value


@pytest.mark.parametrize("call", [
    lambda m: m.moveaxis(m.ones((2, 2)), 5, 0),
    lambda m: m.moveaxis(m.ones((2, 2)), 0, 5),
    lambda m: m.swapaxes(m.ones((2, 3)), 0, 2),
    lambda m: m.diagonal(m.ones((2, 2)), 0, 0, 3),
    lambda m: m.sum(m.ones((2, 2)), axis=3),
    lambda m: m.add(m.arange(3), 1.5, out=m.arange(3)),
    lambda m: m.add(m.arange(3), 1.5, dtype=m.int64),
    lambda m: m.arange(3) < "a",
    lambda m: m.ones(3, dtype=int) + "a",
    lambda m: m.std(m.ones(3), out=m.zeros((), int)),
    lambda m: m.ones((2, 3)).std(axis=0, out=m.zeros(3, bool)),
    lambda m: m.std(m.arange(6).reshape(2, 3), axis=1, dtype=m.int8),
], ids=["moveaxis-source", "moveaxis-destination", "swapaxes", "diagonal", "sum",
        "out-casting", "input-casting", "less-str", "add-str", "std-out-int",
        "std-out-bool", "std-dtype-int"])
def test_error_class_and_message_match_numpy(call):
    expected, actual = _error(np, call), _error(xnp, call)
    assert type(actual) is type(expected), (actual, expected)
    assert str(actual) == str(expected)


WARNING_CASES = [
    "m.nanmean(m.array([m.nan, m.nan]))",
    "m.nanvar(m.array([m.nan, m.nan]))",
    "m.nanstd(m.array([m.nan]))",
    "m.nanmean(m.ones((2, 0)), axis=1)",
    "m.nanmax(m.array([m.nan]))",
]


@pytest.mark.parametrize("expr", WARNING_CASES)
def test_nan_function_warnings_match_numpy(expr):
    def record(m):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eval(expr, {"m": m})
        return [(w.category, str(w.message)) for w in caught]
    assert record(xnp) == record(np)


def test_mean_of_empty_slice_message():
    with pytest.warns(RuntimeWarning, match="^Mean of empty slice$"):
        xnp.mean(xnp.asarray([]))


@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64"])
def test_mean_and_var_compute_in_the_input_precision(dtype):
    # NumPy's mean divides the sum by a Python int count (weakly typed): no float64 step
    # appears in a float32 mean (it did, and cost two full-size conversions under grad
    # and jit). var divides by numpy.maximum(count - ddof, 0), an int64, as NumPy does.
    a = (np.arange(1, 13) / 7).astype(dtype).reshape(3, 4)
    text = str(xnp.make_jaxpr(lambda x: (xnp.mean(x, axis=0), xnp.mean(x)))(a))
    assert "f64" not in text and "c128" not in text
    for fn in ("mean", "var", "std"):
        got, want = getattr(xnp, fn)(xnp.asarray(a), axis=1), getattr(np, fn)(a, axis=1)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)

def test_string_arrays_compare_with_str():
    words = np.array(["fox", "dog", "fox"])
    x = xnp.asarray(words)
    for op in ("__eq__", "__ne__", "__lt__", "__ge__"):
        np.testing.assert_array_equal(np.asarray(getattr(x, op)("fox")),
                                      getattr(words, op)("fox"))
    np.testing.assert_array_equal(np.asarray(xnp.arange(3) == "a"), np.arange(3) == "a")
    np.testing.assert_array_equal(np.asarray(xnp.arange(3) != "a"), np.arange(3) != "a")
    assert (xnp.asarray([[1, 2], [3, 4]])[xnp.asarray(["a", "b"]) == "a"]).shape == (1, 2)


def test_string_zeros_are_empty_strings():
    for make in (lambda m: m.zeros(2, dtype="U3"), lambda m: m.zeros((2, 1), dtype="S2"),
                 lambda m: m.zeros_like(m.array(["ab"]))):
        np.testing.assert_array_equal(np.asarray(make(xnp)), make(np))


def test_forwarded_namespaces():
    assert xnp.typing is np.typing and xnp.get_include() == np.get_include()
    assert xnp.lib.mixins is np.lib.mixins and xnp.lib.array_utils is np.lib.array_utils
    with pytest.raises(AttributeError):
        _ = xnp.lib.no_such_module


def test_matrix_norm_orders_give_scalars():
    m = np.array([[1.0, -2.0], [3.0, 4.0]])
    for order in (1, -1, np.inf, -np.inf, 2, "fro", "nuc"):
        got, want = xnp.linalg.norm(xnp.asarray(m), ord=order), np.linalg.norm(m, ord=order)
        assert type(got) is type(want) and got == pytest.approx(want)


def test_clip_arguments_as_numpy():
    for call in (lambda m: m.clip(m.asarray(np.array([1, 2], np.uint8)), -1, 129),
                 lambda m: m.clip(m.arange(3, dtype=m.int8), -300, 1000),
                 lambda m: m.clip(m.arange(3), None, 1), lambda m: m.clip(m.arange(3), min=1)):
        expected, actual = call(np), call(xnp)
        assert actual.dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(actual), expected)
    for call in (lambda m: m.clip(m.arange(3), 2), lambda m: m.clip(m.arange(3), 1, 2, min=1)):
        expected, actual = _error(np, call), _error(xnp, call)
        assert type(actual) is type(expected) and str(actual) == str(expected)


def test_string_truth_as_numpy():
    words = np.array(["a", "", "c"])
    for fn in ("any", "all", "count_nonzero", "nonzero", "flatnonzero"):
        expected = getattr(np, fn)(words)
        actual = getattr(xnp, fn)(xnp.asarray(words))
        np.testing.assert_array_equal(np.asarray(actual, dtype=object) if isinstance(
            actual, tuple) else np.asarray(actual), np.asarray(expected, dtype=object)
            if isinstance(expected, tuple) else expected)
    np.testing.assert_array_equal(np.asarray(xnp.where(xnp.asarray(words), 1, 2)),
                                  np.where(words, 1, 2))


def test_promote_types_keeps_the_dtype():
    d = np.dtype("i4", metadata={"unit": "m"})
    assert xnp.promote_types(d, d) is np.promote_types(d, d)
    assert xnp.promote_types("S100", "q") == np.promote_types("S100", "q")


@pytest.mark.parametrize("call", [
    lambda m: m.arange(12).reshape(-1, 5),
    lambda m: m.arange(12).reshape(2, -1, 5),
    lambda m: m.arange(12).reshape(7),
    lambda m: m.sum(m.ones((2, 2)), axis=(0, 0)),
    lambda m: m.squeeze(m.ones((1, 2)), (0, 0)),
    lambda m: m.expand_dims(m.ones(2), (0, 0)),
    lambda m: m.flip(m.ones((2, 2)), (0, 0)),
    lambda m: m.median(m.ones((2, 2)), axis=(0, 0)),
    lambda m: m.average(m.ones((2, 2)), axis=(0, 0)),
    lambda m: m.moveaxis(m.ones((2, 3)), (0, 0), (0, 1)),
    lambda m: m.broadcast_to(m.arange(3), (4, 2)),
    lambda m: m.convolve([], [1, 2]),
    lambda m: m.convolve([1, 2], []),
    lambda m: m.zeros(3, int).__setitem__(0, None),
], ids=["reshape-lead", "reshape-mid", "reshape-1d", "sum-dup", "squeeze-dup", "expand-dup",
        "flip-dup", "median-dup", "average-dup", "moveaxis-dup", "broadcast_to",
        "convolve-a", "convolve-v", "int-none"])
def test_more_messages_match_numpy(call):
    expected, actual = _error(np, call), _error(xnp, call)
    assert type(actual) is type(expected) and str(actual) == str(expected)


def test_copy_false_returns_the_array_itself():
    x = xnp.arange(3.0)
    assert x.astype(x.dtype, copy=False) is x and xnp.ascontiguousarray(x) is x
    assert x.astype(np.float32, copy=False) is not x
    for m in (np, xnp):
        y = m.array([np.nan, np.inf, 1.0])
        assert m.nan_to_num(y, copy=False) is y
        np.testing.assert_array_equal(np.asarray(y), [0.0, np.finfo(float).max, 1.0])


def test_none_assignment_and_read_only_results():
    for m in (np, xnp):
        a = m.zeros(3)
        a[1] = None
        np.testing.assert_array_equal(np.asarray(a), [0.0, np.nan, 0.0])
        assert not m.frombuffer(b"ab", m.uint8).flags.writeable
        assert not m.eye(2).diagonal().flags.writeable
        assert not m.arange(2.0).imag.flags.writeable


def test_real_and_imag_are_write_through_views():
    def writes(m):
        z = m.zeros(3, complex)
        z.imag[0] = 5
        z.real[1:] = 7
        zr = z.real
        z[2] = 3 + 4j                  # seen by the earlier view, as in NumPy
        a = m.arange(3.0)
        a.real[0] = 9
        return z, zr, a
    for got, want in zip(writes(xnp), writes(np)):
        np.testing.assert_array_equal(np.asarray(got), want)
    grad = xnp.grad(lambda x: ((x * (1 + 2j)).imag ** 2).sum())(np.array([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(grad), [8.0, 16.0])


def test_invalid_float_to_int_casts_warn_as_numpy():
    for m in (np, xnp):
        with pytest.warns(RuntimeWarning, match="invalid value encountered in cast"):
            m.array([np.nan, 1.5]).astype(np.int64)
        with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
            m.array([np.inf]).astype(np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xnp.array([1.5, -2.5]).astype(np.int64)          # valid values: no warning


def test_numpy_arrays_as_out():
    # Data from other libraries arrives as NumPy arrays; out= writes them as NumPy does.
    def run(m):
        a, b, c = np.arange(3.0), np.zeros(3), np.zeros(())
        d = np.arange(3.0)
        m.clip(a, 0, 1, out=a)
        r = m.add(m.arange(3), 1, out=b)
        m.sum(m.arange(3), out=c)
        m.multiply(d, 2, out=d, where=np.array([True, False, True]))
        return a, b, c, d, r is b
    for got, want in zip(run(xnp), run(np)):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="cannot hold a traced value"):
        xnp.jit(lambda x: xnp.add(x, 1, out=np.zeros(3)))(np.ones(3))


@pytest.mark.parametrize("call", [
    lambda m: m.unravel_index([], (2, 2)),
    lambda m: m.unravel_index([1.0], (2, 2)),
    lambda m: m.digitize([1], [[1, 2]]),
    lambda m: m.digitize([1], 1),
    lambda m: m.arange(12).reshape(3, 4)[[0, 1], [0, 1, 2]],
    lambda m: m.linalg.solve(m.eye(3), m.ones(2)),
    lambda m: m.linalg.solve(m.eye(3), m.ones((2, 2))),
    lambda m: m.zeros(3, int).__setitem__(0, "abc"),
], ids=["unravel-empty", "unravel-float", "digitize-deep", "digitize-shallow",
        "index-broadcast", "solve1", "solve", "int-from-str"])
def test_messages_of_index_and_linalg_errors_match_numpy(call):
    expected, actual = _error(np, call), _error(xnp, call)
    assert type(actual) is type(expected) and str(actual) == str(expected)


def test_a_written_view_keeps_sharing_its_base():
    for m in (np, xnp):
        h = m.arange(6).reshape(2, 3)
        v = h.reshape(3, 2)
        v[0, 0] = -5
        h[1, 1] = 40
        assert m.shares_memory(h, v)
        np.testing.assert_array_equal(np.asarray(v), [[-5, 1], [2, 3], [40, 5]])


@pytest.mark.parametrize("statement", [
    "a[[0, 1]] = [1, 2, 3]", "a[m.array([True, False, True])] = [1, 2, 3]",
    "a[0:2] = [1, 2, 3]", "b[[0, 1], :] = m.ones((3, 3))",
    "b[m.array([True, False, True])] = m.ones((3, 3))", "b[1:, [0, 1]] = m.ones(3)",
    "a[[True, False, True]] = [1, 2, 3]"])
def test_assignment_shape_errors_match_numpy(statement):
    def run(m):
        scope = {"m": m, "a": m.zeros(3), "b": m.zeros((3, 3))}
        with pytest.raises(ValueError) as info:
            exec(statement, scope)
        return str(info.value)
    assert run(xnp) == run(np)


def test_frompyfunc_runs_numpys_object_loop():
    def run(m):
        f = m.frompyfunc(lambda a, b: a + b, 2, 1)
        return f(m.arange(3), 1), f.reduce(m.arange(4)), f.outer(m.arange(2), m.arange(2))
    for got, want in zip(run(xnp), run(np)):
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want)
    assert repr(xnp.frompyfunc(abs, 1, 1)) == repr(np.frompyfunc(abs, 1, 1))
    with pytest.raises(Exception, match="[Tt]race"):
        xnp.jit(lambda x: xnp.frompyfunc(abs, 1, 1)(x))(np.ones(2))


@pytest.mark.parametrize("kind", ["own", "numpy", "keyword"])
def test_view_as_ndarray_type_is_a_plain_view(kind):
    a, n = xnp.arange(4.0), np.arange(4.0)
    views = {"own": lambda m, x: x.view(type(x)),
             "numpy": lambda m, x: x.view(np.ndarray),
             "keyword": lambda m, x: x.view(dtype=np.int64, type=np.ndarray)}[kind]
    xv, nv = views(xnp, a), views(np, n)
    assert xv.dtype == nv.dtype and xv.shape == nv.shape
    xv[0] = 100
    nv[0] = 100
    np.testing.assert_array_equal(np.asarray(a), n)
    with pytest.raises(TypeError, match="subclasses"):
        a.view(np.matrix)


def test_callables_that_do_not_bind_in_numpy_do_not_bind_in_xnp():
    # NumPy's ufuncs and array constructors are C callables: stored on a class, they are
    # called without the instance (``class C: f = np.sin`` then ``C().f(x)``).
    names = [n for n in dir(np) if not n.startswith("_") and hasattr(xnp, n)
             and callable(getattr(np, n)) and not isinstance(getattr(np, n), type)
             and not hasattr(getattr(np, n), "__get__")]
    assert len(names) > 100
    binding = [n for n in names if hasattr(getattr(xnp, n), "__get__")]
    assert binding == []

    class Holder:
        array, sin, add, zeros = xnp.array, xnp.sin, xnp.add, xnp.zeros

    h = Holder()
    np.testing.assert_array_equal(h.add(h.sin(h.array([0.5])), h.zeros(1)), np.sin([0.5]))


def test_testing_asserts_that_call_pass_the_callers_arrays():
    a = xnp.arange(3.0)

    def double_in_place(x):
        x *= 2
    xnp.testing.assert_no_warnings(double_in_place, a)
    np.testing.assert_array_equal(np.asarray(a), [0.0, 2.0, 4.0])
    xnp.testing.assert_raises(IndexError, lambda x: x[5], a)


def test_dot_out_is_written_in_place_and_must_be_c_contiguous():
    a, b = np.ones((2, 3)), np.arange(12.0).reshape(3, 4)
    out = xnp.zeros((2, 4))
    row = out[0]
    assert xnp.dot(xnp.asarray(a), xnp.asarray(b), out) is out
    np.testing.assert_array_equal(np.asarray(row), (a @ b)[0])
    with pytest.raises(ValueError, match="not acceptable"):
        np.dot(a, b, np.zeros((4, 2)).T)
    with pytest.raises(ValueError, match="not acceptable"):
        xnp.dot(xnp.asarray(a), xnp.asarray(b), xnp.zeros((4, 2)).T)


@pytest.mark.parametrize("values, kwargs", [
    ([-0.0, -0.0], {}), ([-0.0, -0.0], {"initial": -0.0}), ([], {"initial": -0.0}),
    ([-0.0, 0.0], {"initial": -0.0}), ([1.0, -1.0], {"initial": -0.0}),
    ([[-0.0, 0.0], [-0.0, -0.0]], {"axis": 1, "initial": -0.0}),
    ([-0.0, 0.0], {"initial": -0.0, "where": [True, False]}),
    ([-0.0, -0.0], {"initial": 0.0}),
])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sum_adds_the_elements_to_initial_keeping_negative_zero(values, kwargs, dtype):
    # NumPy starts the sum at `initial` (a sum of negative zeros stays -0.0), eagerly and
    # under jit.
    a = np.array(values, dtype)
    kw = {k: np.array(v) if k == "where" else v for k, v in kwargs.items()}
    want = np.sum(a, **kw)
    for got in (xnp.sum(xnp.asarray(a), **kw), xnp.jit(lambda x: xnp.sum(x, **kw))(a)):
        got = np.asarray(got)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("values, dtype", [
    ([1.5, 2.0], "int64"), ([1.0, 300.0], "uint8"), ([1.0, 2.0], "int32"),
    ([1.1], "float32"), ([1.0, 0.5], "float16"), ([1, 200], "int8"), ([1, 2], "int8"),
])
def test_astype_same_value_casting_checks_the_values_as_numpy(values, dtype):
    a = np.array(values)
    try:
        want = a.astype(dtype, casting="same_value")
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            xnp.asarray(a).astype(dtype, casting="same_value")
    else:
        got = xnp.asarray(a).astype(dtype, casting="same_value")
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_astype_same_value_under_jit_asks_for_concrete_values():
    from transforms import ConcretizationTypeError
    with pytest.raises(ConcretizationTypeError, match="same_value"):
        xnp.jit(lambda x: x.astype("int32", casting="same_value"))(np.ones(2))


@pytest.mark.parametrize("call", [
    lambda m: m.lcm(m.asarray([1.5]), m.asarray([2.0])),
    lambda m: m.gcd(1.5, 2),
    lambda m: m.asarray([1.0]).__array_namespace__(api_version="2025.12"),
    lambda m: m.asarray([1.0]).__array_namespace__(api_version=1),
], ids=["lcm-no-loop", "gcd-python-float", "namespace-version", "namespace-version-type"])
def test_error_class_and_message_are_numpys(call):
    want, got = _error(np, call), _error(xnp, call)
    assert type(got) is type(want)
    assert str(got) == str(want)


def test_dot_writes_into_a_numpy_out_array():
    a = np.arange(6.0).reshape(2, 3)
    want_out, got_out = np.zeros((2, 2)), np.zeros((2, 2))
    want = np.dot(a, a.T, out=want_out)
    got = xnp.dot(xnp.asarray(a), xnp.asarray(a.T), out=got_out)
    assert got is got_out and want is want_out
    np.testing.assert_array_equal(got_out, want_out)
    with pytest.raises(ValueError, match="output array is not acceptable"):
        xnp.dot(xnp.asarray(a), xnp.asarray(a.T), out=np.zeros((2, 2), np.float32))


def test_divmod_and_matmul_defer_to_operands_that_opt_out_of_ufuncs():
    class OptsOut:
        __array_ufunc__ = None

        def __rdivmod__(self, other):
            return "rdivmod"

        def __rmatmul__(self, other):
            return "rmatmul"

    for mod in (np, xnp):
        a = mod.ones(2)
        assert divmod(a, OptsOut()) == "rdivmod"
        assert a @ OptsOut() == "rmatmul"


@pytest.mark.parametrize("make", [
    lambda m: m.array([1, 22, 333], dtype="U"), lambda m: m.array(1 / 3, dtype="S"),
    lambda m: m.array([], dtype="U"), lambda m: m.array([None], dtype="U"),
    lambda m: m.array("abc1", dtype="c"), lambda m: m.asarray([1.5], dtype="U"),
    lambda m: m.array(["a", "bcd"], dtype="S2"),
], ids=["ints-U", "float-S", "empty-U", "None-U", "chars-c", "asarray-U", "truncate-S2"])
def test_string_dtypes_are_sized_from_the_values(make):
    want, got = make(np), np.asarray(make(xnp))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_numpy_strings_ufuncs_dispatch_to_xnp_strings():
    a = np.array(["ab", "c d", "EF"])
    for ufunc in (np.strings.str_len, np.strings.isalpha, np.char.isupper):
        got = ufunc(xnp.asarray(a))
        assert isinstance(got, xnp.ndarray)
        np.testing.assert_array_equal(np.asarray(got), ufunc(a))


@pytest.mark.parametrize("call", [
    lambda m: m.add(m.asarray([True, False]), m.asarray([1, 2], dtype=m.int8), casting="no"),
    lambda m: m.add(m.asarray([1.0]), m.asarray([1], dtype=m.int8), casting="equiv"),
    lambda m: m.sin(m.asarray([1], dtype=m.int8), casting="no"),
    lambda m: m.add(m.asarray([1], dtype=m.int8), 2.5, casting="no"),
], ids=["bool-int8-no", "float-int8-equiv", "sin-int8-no", "int8-pyfloat-no"])
def test_ufunc_inputs_are_checked_against_the_loop_under_no_and_equiv(call):
    want, got = _error(np, call), _error(xnp, call)
    assert type(got) is type(want)
    assert str(got) == str(want)


@pytest.mark.parametrize("casting", ["no", "equiv"])
@pytest.mark.parametrize("call", [lambda m, x, c: m.add(x, x, casting=c),
                                  lambda m, x, c: m.multiply(x, 2, casting=c)],
                         ids=["same-dtype", "python-int"])
def test_ufunc_no_and_equiv_casting_outcome_is_numpys(call, casting):
    b = np.array([1, 2], np.int8)
    try:
        want = call(np, b, casting)
    except TypeError as e:
        with pytest.raises(TypeError, match=str(e)):
            call(xnp, xnp.asarray(b), casting)
    else:
        got = call(xnp, xnp.asarray(b), casting)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["S3", "U2", bool, "i4", float, complex])
@pytest.mark.parametrize("order", ["C", "F"])
def test_eye_string_dtype_and_order(dtype, order):
    """eye writes 1 into zeros (b'1' and b'' for bytes, not b'True'), laid out in order."""
    want = np.eye(4, 3, k=-1, dtype=dtype, order=order)
    got = xnp.eye(4, 3, k=-1, dtype=dtype, order=order)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("copy", [True, False])
def test_astype_method_order(order, copy):
    """a.astype(order=...) lays out the result (a copy only where the layout differs)."""
    for mod in (np, xnp):
        a = mod.arange(24).reshape(4, 6).T
        b = a.astype("i8", order=order, copy=copy)
        flags = (b is a, b.flags.c_contiguous, b.flags.f_contiguous)
        if mod is np:
            want = flags
    assert flags == want


def test_astype_copymode_rejected():
    for mod in (np, xnp):
        err = _error(mod, lambda m: m.arange(3).astype(float, copy=m._CopyMode.NEVER))
        assert type(err) is ValueError
        assert "_CopyMode enum is not allowed" in str(err)


def test_copy_order_k_follows_strides():
    """copy(order='K') keeps a non-contiguous layout's stride order, as NumPy's."""
    for mod in (np, xnp):
        c = mod.arange(24).reshape(2, 1, 4, 3).swapaxes(2, 3)
        flags = [(r.flags.c_contiguous, r.flags.f_contiguous)
                 for r in (c.copy(order="K"), mod.copy(c, order="K"))]
        if mod is np:
            want = flags
    assert flags == want


def test_array_copy_false_asks_array_protocol():
    """array(obj, dtype=other, copy=False) on an object with __array__ raises ValueError
    (its __array__ cannot give the dtype without a copy), as NumPy."""
    for mod in (np, xnp):
        class Holder:
            def __array__(self, dtype=None, copy=None):
                return np.arange(3, dtype="i4").__array__(dtype=dtype, copy=copy)
        err = _error(mod, lambda m: m.array(Holder(), dtype="i2", copy=False))
        assert type(err) is ValueError
        assert np.asarray(xnp.array(Holder(), copy=False)).dtype == np.int32


def test_concatenate_too_many_arrays(monkeypatch):
    import xnp._joining as joining
    monkeypatch.setattr(joining, "_MAX_ARRAYS", 2)
    with pytest.raises(ValueError, match=r"concatenate\(\) only supports up to 2 arrays but "
                                         r"got 3\."):
        xnp.concatenate([xnp.ones(1)] * 3)


@pytest.mark.parametrize("call", [
    lambda m: m.array([1, 2, 3], copy="always"),
    lambda m: m.array(m.arange(3), copy=m._CopyMode.NEVER, dtype=float),
    lambda m: m.array(m.ones((2, 3)), ndmax=1, dtype=object),
])
def test_array_copy_and_ndmax_errors(call):
    want, got = _error(np, call), _error(xnp, call)
    assert type(got) is type(want)
    assert str(got) == str(want)


def test_array_copymode_values():
    for mode in ("ALWAYS", "IF_NEEDED"):
        a = xnp.arange(3)
        b = xnp.array(a, copy=getattr(xnp._CopyMode, mode))
        assert (b is a) == (mode == "IF_NEEDED")
    a = np.ones((2, 3))
    np.testing.assert_array_equal(xnp.array(a, ndmax=1), np.array(a, ndmax=1))


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
def test_contiguous_copy_of_strided_1d(fn):
    """A strided 1-d array is not contiguous: ascontiguousarray/asfortranarray copy it."""
    for mod in (np, xnp):
        out = getattr(mod, fn)(mod.ones(10)[::2])
        flags = (out.flags.c_contiguous, out.flags.f_contiguous)
        if mod is np:
            want = flags
    assert flags == want == (True, True)


def test_array_protocol_returning_none_is_value_error():
    class NoArray:
        def __array__(self, dtype=None, copy=None):
            return None
    want, got = _error(np, lambda m: m.array(NoArray())), _error(xnp, lambda m: m.array(NoArray()))
    assert type(got) is type(want) is ValueError
    assert str(got) == str(want)


@pytest.mark.parametrize("obj", ["ab", b"ab", None, 3, 2.5, np.float32(1)])
@pytest.mark.parametrize("copy", [False, "never"])
def test_array_copy_false_of_scalar_needs_copy(obj, copy):
    """array(scalar, copy=False) (also str, bytes, None; also copy=_CopyMode.NEVER)
    raises ValueError: a scalar always needs a new buffer."""
    for mod in (np, xnp):
        flag = mod._CopyMode.NEVER if copy == "never" else copy
        with pytest.raises(ValueError):
            mod.array(obj, copy=flag)


@pytest.mark.parametrize("method, args", [("sort", ()), ("partition", (2,))])
def test_in_place_sort_methods_refuse_axis_none(method, args):
    """a.sort(axis=None) and a.partition(k, axis=None) raise TypeError (no flattened
    in-place form), and leave the array as it was."""
    for mod in (np, xnp):
        a = mod.arange(10)[::-1].reshape(2, 5)
        err = _error(mod, lambda m: getattr(a, method)(*args, axis=None))
        assert type(err) is TypeError
        assert str(err) == "'NoneType' object cannot be interpreted as an integer"
        assert a.tolist() == [[9, 8, 7, 6, 5], [4, 3, 2, 1, 0]]


@pytest.mark.parametrize("call", [
    lambda m: m.arange(stop=3), lambda m: m.arange(start=1, stop=4),
    lambda m: m.arange(2, step=1), lambda m: m.arange(0, 5, 2, float),
    lambda m: m.arange(start=3), lambda m: m.arange(), lambda m: m.arange(1, start=2, stop=3),
])
def test_arange_keywords_as_numpy(call):
    def outcome(m):
        try:
            return repr(call(m))
        except TypeError as e:
            return f"TypeError: {e}"
    assert outcome(xnp) == outcome(np)
