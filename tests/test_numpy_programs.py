"""Differences found by running small public NumPy programs (exercise solutions, book
examples) with ``numpy`` and with ``xnp``: each test runs the same input through both and
compares values, dtypes, layout, warnings and errors."""

import warnings

import numpy as np
import pytest

import xnp


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fn()
    return sorted(str(w.message) for w in seen)


def _bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype
    assert a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def _complex_samples(dtype):
    rng = np.random.default_rng(7)
    z = (rng.standard_normal(2000) + 1j * rng.standard_normal(2000)) * \
        np.exp(rng.standard_normal(2000) * 20)
    return z.astype(dtype)


# --- x ** 2, x ** -1, x ** 0.5: square, reciprocal and sqrt, as NumPy's operator ------------
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("exponent", [2, -1, 0.5, 2.0, -1.0, 3, np.int64(2), np.float64(0.5)])
def test_power_operator_special_exponents_match_numpy_bits(dtype, exponent):
    z = _complex_samples(dtype)
    with np.errstate(all="ignore"):
        expected = z ** exponent
        got = xnp.asarray(z) ** exponent
    _bits_equal(got, expected)


def test_power_operator_in_place_and_reflected_match_numpy():
    z = _complex_samples(np.complex64)
    a, b = z.copy(), xnp.asarray(z.copy())
    a **= 2
    b **= 2
    _bits_equal(b, a)
    _bits_equal(2 ** xnp.asarray(z), 2 ** z)        # no fast path for the reflected form


def test_mandelbrot_iteration_matches_numpy():
    # the book's vectorised Mandelbrot: complex64 z ** 2 + c over masked updates
    def run(m):
        x = m.linspace(-2.25, 0.75, 60, dtype=m.float32)
        y = m.linspace(-1.25, 1.25, 50, dtype=m.float32)
        c = x + y[:, None] * 1j
        z = m.zeros(c.shape, m.complex64)
        for _ in range(30):
            inside = m.less(abs(z), 2.0)
            z[inside] = z[inside] ** 2 + c[inside]
        return z
    with np.errstate(all="ignore"):
        _bits_equal(run(xnp), run(np))


@pytest.mark.parametrize("expr", ["x ** 2", "x ** 0.5", "x ** -1", "x ** 2.0", "x ** 3"])
def test_power_operator_warnings_name_numpys_ufunc(expr):
    for values in ([1e200, 2.0], [-1.0, 4.0], [0.0, 1.0]):
        expected = _warnings_of(lambda: eval(expr, {"x": np.array(values)}))
        got = _warnings_of(lambda: eval(expr, {"x": xnp.array(values)}))
        assert got == expected, (expr, values)


def test_power_operator_traced_stays_integer_pow():
    text = str(xnp.make_jaxpr(lambda x: x ** 2)(1.0))
    assert "integer_pow" in text
    assert xnp.grad(lambda x: (x ** 2 + x ** 0.5 + x ** -1).sum())(
        xnp.array([1.0, 4.0])).tolist() == [1.5, 8.1875]


# --- in-place operators: NumPy's casting error, naming the operator's ufunc -----------------
@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "@="])
def test_in_place_operator_casting_error_matches_numpy(op):
    results = []
    for m in (np, xnp):
        a = m.eye(3, dtype=int)
        view = a[:]                     # a view: the buffer cannot be updated in place
        try:
            exec(f"a {op} b", {"a": a, "b": m.eye(3) * 0.5})
            results.append(("ok", np.asarray(a).tolist()))
        except TypeError as e:
            results.append((type(e).__mro__[1:3], str(e)))
        del view
    assert results[1] == results[0]


@pytest.mark.parametrize("stmt", ["a **= -1.5", "a **= 1j", "a /= 0", "a //= 0.0",
                                  "a %= 0.0", "a -= 1j"])
@pytest.mark.parametrize("shared", [False, True])
def test_in_place_casting_error_comes_before_any_warning(stmt, shared):
    def run(m):
        a = m.arange(3)
        view = a[:] if shared else None
        try:
            exec(stmt, {"a": a})
        except TypeError as e:
            return str(e), view is None
        return "ok", view is None
    for m in (np, xnp):
        assert _warnings_of(lambda: run(m)) == []
    assert run(xnp) == run(np)


# --- np.array(..., copy=False) -------------------------------------------------------------
def _outcome(fn):
    try:
        r = fn()
    except ValueError as e:
        return "ValueError", str(e)
    return "ok", np.asarray(r).tolist(), str(np.asarray(r).dtype)


@pytest.mark.parametrize("make", [
    lambda m: m.array([[0], [1]], copy=False), lambda m: m.array((1.0, 2.0), copy=False),
    lambda m: m.array(3, copy=False), lambda m: m.array(m.float32(3), copy=False),
    lambda m: m.array(m.arange(3), copy=False, dtype=float),
    lambda m: m.array(m.arange(3), copy=False, dtype=m.int64),
    lambda m: m.array(m.arange(6).reshape(2, 3).T, copy=False, order="C"),
    lambda m: m.array(m.arange(6).reshape(2, 3).T, copy=False, order="F"),
    lambda m: m.asarray([1, 2], copy=False), lambda m: m.asarray([1, 2]),
    lambda m: m.asarray(m.arange(3), dtype=np.float32, copy=False),
    lambda m: m.array(m.arange(3), copy=0), lambda m: m.array([1, 2], copy=None),
    lambda m: m.ascontiguousarray([1, 2]), lambda m: m.asfortranarray(3.0),
])
def test_array_copy_false_matches_numpy(make):
    assert _outcome(lambda: make(xnp)) == _outcome(lambda: make(np))


def test_array_copy_false_returns_the_array_or_a_view():
    for m in (np, xnp):
        a = m.arange(6).reshape(2, 3)
        assert m.array(a, copy=False) is a
        assert m.array(a, copy=None) is a
        b = m.array(a, copy=False, ndmin=4)
        assert b.shape == (1, 1, 2, 3)
        b[0, 0, 1, 2] = 50
        assert a[1, 2] == 50
        assert m.array(a) is not a


def test_array_copy_false_under_jit_keeps_values():
    a = xnp.arange(6).reshape(2, 3)
    assert xnp.jit(lambda x: xnp.asarray(x, dtype=float))(a).dtype == np.float64
    assert xnp.jit(lambda x: xnp.array(x, copy=False) + 1)(a).tolist() == \
        (np.arange(6).reshape(2, 3) + 1).tolist()


# --- attributes NumPy 2 removed -------------------------------------------------------------
@pytest.mark.parametrize("name", ["NaN", "Inf", "byte_bounds", "round_", "float", "int0",
                                  "no_such_name"])
def test_removed_attribute_messages_match_numpy(name):
    with pytest.raises(AttributeError) as expected:
        getattr(np, name)
    with pytest.raises(AttributeError) as got:
        getattr(xnp, name)
    assert str(got.value) == str(expected.value).replace("module 'numpy' has no attribute",
                                                         "module 'xnp' has no attribute") \
        or str(got.value) == str(expected.value)


# --- large zeros/ones/full own a contiguous buffer -----------------------------------------
@pytest.mark.parametrize("make", [
    lambda m: m.zeros(100_000), lambda m: m.ones((300, 400), m.float32),
    lambda m: m.full(50_000, 2.5), lambda m: m.empty(10_000, int),
    lambda m: m.ones((300, 200), order="F"), lambda m: m.zeros_like(m.ones((300, 200), order="F")),
    lambda m: m.full_like(m.arange(20_000), 7),
])
def test_large_constant_arrays_have_numpys_layout(make):
    a, b = make(np), make(xnp)
    assert b.strides == a.strides
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"):
        assert b.flags[flag] == a.flags[flag], flag


def test_view_of_another_itemsize_writes_through_large_ones():
    # the book's benchmark: Z.view(np.float16)[...] = 0 on a 4,000,000-element float32 array
    for m in (np, xnp):
        z = m.ones(400_000, m.float32)
        z.view(m.float16)[...] = 0
        z.view(m.int8)[: 4] = 1
        assert float(z.sum()) == float(np.int32(0x01010101).view(np.float32))


# --- ufuncs with where=: no floating-point errors from the elements left out ---------------
@pytest.mark.parametrize("call", [
    lambda m, a, b: m.divide(a, b, out=m.zeros(4), where=b != 0),
    lambda m, a, b: m.divide(a, b, out=m.zeros(4), where=[True, False, True, True]),
    lambda m, a, b: m.divide(a, b, out=m.zeros(4), where=True),
    lambda m, a, b: m.log(b, out=m.ones(4), where=b > 0),
    lambda m, a, b: m.log(b - 1, out=m.ones(4), where=m.array([True, False, False, True])),
    lambda m, a, b: m.sqrt(m.stack([a - 1, b]), out=m.zeros((2, 4)), where=a > 0),
    lambda m, a, b: m.power(b, -1.0, out=m.zeros(4), where=b != 0),
    lambda m, a, b: m.multiply(a, 1e308, out=m.zeros(4), where=a < 2),
])
def test_where_warns_only_for_selected_elements(call):
    def run(m):
        a, b = m.array([1.0, 0.0, 2.0, 0.0]), m.array([0.0, 0.0, 1.0, 2.0])
        return call(m, a, b)
    assert _warnings_of(lambda: run(xnp)) == _warnings_of(lambda: run(np))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(run(xnp)), run(np))


def test_where_under_errstate_raise_matches_numpy():
    for m in (np, xnp):
        b = m.array([0.0, 0.0, 1.0, 2.0])
        with np.errstate(divide="raise", invalid="raise"):
            assert m.divide(1.0, b, out=m.ones(4), where=b != 0).tolist() == [1, 1, 1, 0.5]
            with pytest.raises(FloatingPointError, match="divide by zero"):
                m.divide(1.0, b, out=m.ones(4), where=b >= 0)
