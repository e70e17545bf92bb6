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


# --- in-place functions and out= on a view write into its base (numpy-tutorials, SVD) -------
_INPLACE_ON_VIEW = [
    lambda m, v: m.fill_diagonal(v, 7.0),
    lambda m, v: m.put(v, [0, 2], [5.0, 6.0]),
    lambda m, v: v.put([0, 2], [5.0, 6.0]),
    lambda m, v: m.place(v, v > 30, [9.0]),
    lambda m, v: m.putmask(v, v > 30, 9.0),
    lambda m, v: m.put_along_axis(v, m.zeros((v.shape[0], 1), dtype=int), 9.0, axis=1),
    lambda m, v: m.add.at(v, (0, 1), 10.0),
    lambda m, v: m.maximum.at(v, ([0, 1], [1, 0]), 100.0),
    lambda m, v: m.divide.at(v, ([0, 1], [1, 0]), 4.0),
    lambda m, v: m.clip(v, 2, 30, out=v),
    lambda m, v: m.cumsum(v, axis=1, out=v),
    lambda m, v: m.round(v / 3, out=v),
    lambda m, v: m.mean(v[..., None], axis=-1, out=v),
    lambda m, v: m.take(v.copy(), m.zeros(v.shape, dtype=int), out=v),
    lambda m, v: m.concatenate([v[:1] * 0 + 7, v[1:]], out=v),
    lambda m, v: m.einsum("ij->ij", v * 2, out=v),
    lambda m, v: m.matmul(v, m.eye(v.shape[1]), out=v),
]


@pytest.mark.parametrize("write", _INPLACE_ON_VIEW)
@pytest.mark.parametrize("view", [
    lambda a: a[1], lambda a: a[1, :, :], lambda a: a[:, 1:3][0], lambda a: a[0].T,
    lambda a: a[1][::2],
])
def test_inplace_function_on_view_writes_base(write, view):
    def run(m):
        a = m.arange(48.0).reshape(2, 6, 4)
        write(m, view(a))
        return np.asarray(a)
    np.testing.assert_array_equal(run(xnp), run(np))


def test_svd_tutorial_fill_diagonal_of_stacked_sigma():
    # tutorial-svd: np.fill_diagonal(Sigma[j, :, :], s[j, :]) for each colour channel
    rng = np.random.default_rng(0)
    img = rng.random((3, 6, 5))
    for m in (np, xnp):
        U, s, Vt = m.linalg.svd(m.asarray(img))
        Sigma = m.zeros((3, 6, 5))
        for j in range(3):
            m.fill_diagonal(Sigma[j, :, :], s[j, :])
        np.testing.assert_allclose(np.asarray(U @ Sigma @ Vt), img, atol=1e-12)


# --- a.dtype = t reinterprets the bytes in place (scipy-lecture-notes, advanced NumPy) ------
def test_dtype_attribute_assignment_matches_numpy():
    def run(m):
        x = m.array([1, 2, 3, 4], dtype=m.uint8)
        x.dtype = "<i2"
        y = x.view("<i4")
        x[1] = 5                        # seen through the later view, as in NumPy
        z = m.arange(6.0).reshape(2, 3)
        z.dtype = m.int32
        out = [np.asarray(x), np.asarray(y), np.asarray(z)]
        for bad in (lambda: setattr(m.arange(6.0).reshape(2, 3).T, "dtype", m.int32),
                    lambda: setattr(m.arange(3.0), "dtype", m.complex128)):
            with pytest.raises(ValueError):
                bad()
        return out
    for got, want in zip(run(xnp), run(np)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


# --- x[mask] = u with a mask of all of x's axes (rougier's Mandelbrot: Z[I] = Z[I]**2 + C[I])
@pytest.mark.parametrize("value", [np.ones((1, 1)), np.ones((1, 3)), np.ones((3, 1)),
                                   np.ones(1), np.ones(3), np.ones((1, 1, 1)), 5, [[1, 2, 3]],
                                   np.ones(2)])
@pytest.mark.parametrize("key", ["mask", "tuple", "rows", "list"])
@pytest.mark.parametrize("own", [True, False])
def test_boolean_mask_assignment_matches_numpy(value, key, own):
    def run(m):
        a = m.array(np.arange(6.0).reshape(2, 3)) if own else m.arange(6.0).reshape(2, 3)
        k = {"mask": a > 2, "tuple": (a > 2,), "rows": m.array([False, True]),
             "list": [[False, False, True], [True, True, False]]}[key]
        try:
            a[k] = value
        except (TypeError, ValueError) as e:
            return type(e).__name__, str(e)
        return np.asarray(a).tolist()
    assert run(xnp) == run(np)


def test_masked_iteration_writes_in_place_and_matches_numpy():
    def run(m):
        x = m.linspace(-2.0, 1.0, 40, dtype=m.float32)
        c = x + m.linspace(-1.0, 1.0, 30, dtype=m.float32)[:, None] * 1j
        n, z = m.zeros(c.shape, dtype=int), m.zeros(c.shape, m.complex64)
        for k in range(30):
            inside = m.less(abs(z), 2.0 ** 10)
            n[inside] = k
            z[inside] = z[inside] ** 2 + c[inside]
        return np.asarray(n), np.asarray(z)
    for got, want in zip(run(xnp), run(np)):
        _bits_equal(got, want)


# --- from numpy import * (jrjohansson's lectures): the lazily loaded names come too ---------
def test_star_import_gives_numpys_lazy_names():
    ns = {}
    exec("from xnp import *", ns)
    for name in ("ma", "polynomial", "testing", "char", "strings", "info", "typing",
                 "__version__", "genfromtxt", "linalg", "random", "pi", "newaxis"):
        assert name in ns, name
    assert ns["polynomial"].Polynomial([1, 2])(2.0) == 5.0
    assert "_methods" not in ns and "_numpy" not in ns


# --- hypot rounds as NumPy's (C's hypot): Sobel magnitudes of a uint8 image are float16 ----
@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
def test_hypot_matches_numpy_bits(dtype):
    rng = np.random.default_rng(3)
    n = 20000
    if dtype == np.uint8:
        x, y = rng.integers(0, 256, n).astype(dtype), rng.integers(0, 256, n).astype(dtype)
    else:
        x = rng.standard_normal(n) * np.exp(rng.standard_normal(n) * 3)
        y = rng.standard_normal(n) * np.exp(rng.standard_normal(n) * 3)
        if dtype == np.float64:
            x[:n // 4] *= 2.0 ** rng.integers(-1074, 1024, n // 4)
            y[:n // 4] *= 2.0 ** rng.integers(-1074, 1024, n // 4)
        specials = [np.inf, np.nan, -np.inf, 0.0, 1e-300, 1.7e308, 5e-324, 1e200, -0.0]
        x[:9], y[:9] = specials, [np.nan, np.inf, 1.0, 0.0, 1e-300, 1.7e308, 5e-324, 1e-200,
                                  -2.0]
        with np.errstate(all="ignore"):
            x, y = x.astype(dtype), y.astype(dtype)
    with np.errstate(all="ignore"):
        _bits_equal(xnp.hypot(x, y), np.hypot(x, y))


def test_del_item_raises_numpys_value_error():
    # ageron's tools_numpy: ``del a[2, 3]`` is a ValueError, as NumPy's
    for m in (np, xnp):
        a = m.arange(12).reshape(3, 4)
        for key in ((2, 3), 0, slice(None)):
            with pytest.raises(ValueError, match="cannot delete array elements"):
                del a[key]


def test_iterating_a_1d_array_matches_numpy():
    # PDSH 02.04: min(big_array), sum(L) iterate in Python; elements are NumPy's scalars
    # and later elements reflect writes made during the loop
    def run(m):
        a = m.arange(5.0)
        alias = a       # noqa: F841  (a second reference: xnp rebinds instead of writing)
        seen = []
        for i, e in enumerate(a):
            seen.append((type(e), float(e)))
            if i + 1 < 5:
                a[i + 1] = e + 10
        kinds = [[type(e) for e in m.array(v)] for v in ([True], [1 + 2j], ["ab"], [3])]
        return seen, kinds, min(m.array([3.0, -1.0, 2.0])), sum(m.arange(4))
    assert run(xnp) == run(np)
    assert xnp.grad(lambda v: sum(e * e for e in v))(xnp.arange(3.0)).tolist() == [0, 2, 4]


# --- matmul/dot of stacks: NumPy loops over the matrices of a stack -------------------------
_STACKS = [((48, 64, 3), (3,)), ((4, 64, 30), (30, 7)), ((30,), (4, 30, 5)),
           ((6, 30), (4, 30, 5)), ((4, 6, 30), (1, 30, 5)), ((2, 4, 6, 30), (30,))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shapes", _STACKS)
def test_matmul_of_stacks_matches_numpy_bits(shapes, dtype):
    # NumPy tutorial "SVD": img_gray = img_array @ [0.2126, 0.7152, 0.0722] on (h, w, 3)
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shapes[0]).astype(dtype)
    b = rng.standard_normal(shapes[1]).astype(dtype)
    _bits_equal(xnp.asarray(a) @ xnp.asarray(b), a @ b)
    _bits_equal(xnp.matmul(a, b), np.matmul(a, b))
    if len(shapes[1]) > 2:
        _bits_equal(xnp.dot(a, b), np.dot(a, b))
    if len(shapes[0]) > 1 and len(shapes[1]) == 1:
        _bits_equal(xnp.matvec(a, b), np.matvec(a, b))
        _bits_equal(xnp.tensordot(a, b, 1), np.tensordot(a, b, 1))
    if len(shapes[0]) == 1 and len(shapes[1]) > 1:
        _bits_equal(xnp.vecmat(a, b), np.vecmat(a, b))


@pytest.mark.parametrize("axes", [1, 2, ([1, 2], [1, 0]), 0])
def test_tensordot_matches_numpy_bits(axes):
    rng = np.random.default_rng(6)
    a = rng.standard_normal((3, 4, 5))
    b = rng.standard_normal((5, 4, 6)) if axes == ([1, 2], [1, 0]) else \
        rng.standard_normal((4, 5, 6)) if axes == 2 else rng.standard_normal((5, 6))
    _bits_equal(xnp.tensordot(a, b, axes), np.tensordot(a, b, axes))


def test_matmul_and_dot_of_stacks_under_transformations():
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((3, 5)), rng.standard_normal((4, 5, 2))
    s = rng.standard_normal((4, 2, 5))
    np.testing.assert_allclose(xnp.jit(lambda x, y: x @ y)(s, a.T), s @ a.T, rtol=1e-13)
    np.testing.assert_allclose(xnp.jit(xnp.dot)(a, b), np.dot(a, b), rtol=1e-13)
    g = xnp.grad(lambda x: xnp.sum(xnp.dot(x, b) ** 2))(a)
    np.testing.assert_allclose(g, 2 * np.einsum("ikl,kjl->ij", np.dot(a, b), b), rtol=1e-12)
    g = xnp.grad(lambda x: xnp.sum(xnp.sin(s @ x)))(a.T)
    np.testing.assert_allclose(g, np.einsum("bij,bik->jk", s, np.cos(s @ a.T)), rtol=1e-12)
    img = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8) / 255
    w = [0.2126, 0.7152, 0.0722]
    _bits_equal(xnp.asarray(img) @ w, img @ w)


# --- in-place operators on slice views: the solvers' u[1:-1, 1:-1] -= ... ------------------
def _view_writes(m):
    out = []
    a = m.arange(12.0).reshape(3, 4)
    r = a[1]
    r += 10
    s = r[1:3]
    s *= 2
    t = a.T
    t -= 1
    c = a[:, 1]
    c += m.array([1.0, 2.0, 3.0])
    a[1:-1, 1:-1] -= 0.5 * (a[2:, 1:-1] - a[:-2, 1:-1])
    out += [a.copy(), r.copy(), s.copy(), t.copy()]
    b = m.arange(6)
    v = b[::2]
    try:
        v += 1.5
    except TypeError as e:
        out.append(str(e))
    v //= 2
    v **= 2
    v <<= 1
    out.append(b.copy())
    d = m.arange(8.0)
    e, f = d[2:6], d[3:7]
    e += f              # overlapping operands, as NumPy's out= resolves them
    g = m.arange(8.0)
    h = g[1:]
    h += g[:-1]
    k = m.zeros((2, 3), dtype=m.int32)
    kv = k.view(m.uint8)[0]
    kv += 7
    w = m.arange(4.0)
    ww = w[1:3]
    w[...] = 9          # a write to the base after the view was taken
    ww += 1
    out += [d.copy(), g.copy(), k.copy(), w.copy(), ww.copy()]
    return out


def test_in_place_operators_on_views_match_numpy():
    got_all, want_all = _view_writes(xnp), _view_writes(np)
    assert len(got_all) == len(want_all)
    for got, want in zip(got_all, want_all):
        if isinstance(want, str):
            assert got == want
        else:
            _bits_equal(got, want)


def test_in_place_operator_on_view_under_grad_writes_the_base():
    def f(x):
        y = x * 1.0
        v = y[1:3]
        v += x[:2] ** 2
        return xnp.sum(y * y)
    x = np.array([1.0, 2.0, 3.0, 4.0])
    y = x.copy()
    y[1:3] += x[:2] ** 2
    want = 2 * y
    want[:2] += 2 * y[1:3] * 2 * x[:2]
    np.testing.assert_allclose(xnp.grad(f)(x), want)


# --- linalg.norm: NumPy's dot-product and conj(x) * x formulas ------------------------------
def test_norm_matches_numpy_bits():
    # book "From Python to NumPy", boids: mag = norm(vec) for each 2-d velocity
    rng = np.random.default_rng(5)
    vecs = [rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3) for n in (2, 3, 7, 100)
            for _ in range(25)]
    cplx = [rng.standard_normal((4, n)) + 1j * rng.standard_normal((4, n)) for n in (2, 5)]
    mats = [rng.standard_normal((5, 7)), np.asfortranarray(rng.standard_normal((6, 9)))]
    for v in vecs + [v.astype(np.float32) for v in vecs[:20]] + cplx + mats:
        _bits_equal(xnp.linalg.norm(v), np.linalg.norm(v))
        _bits_equal(xnp.linalg.vector_norm(v), np.linalg.vector_norm(v))
    for m in cplx + mats:
        _bits_equal(xnp.linalg.norm(m, axis=-1), np.linalg.norm(m, axis=-1))
        _bits_equal(xnp.linalg.norm(m, axis=(0, 1)), np.linalg.norm(m, axis=(0, 1)))
        _bits_equal(xnp.linalg.norm(m, keepdims=True), np.linalg.norm(m, keepdims=True))
    assert type(xnp.linalg.norm(vecs[0])) is type(np.linalg.norm(vecs[0]))
    g = xnp.grad(xnp.linalg.norm)
    assert np.asarray(g(np.zeros(3))).tolist() == [0, 0, 0]
    np.testing.assert_allclose(g(np.array([3.0, 4.0])), [0.6, 0.8])


def test_stacked_products_keep_bfloat16():
    # ml_dtypes gives NumPy a bfloat16 matmul loop returning float32; xnp keeps the
    # operands' dtype eagerly as under jit (and computes the same values)
    import ml_dtypes
    rng = np.random.default_rng(3)
    b = rng.normal(size=(2, 3, 3)).astype(ml_dtypes.bfloat16)
    v = rng.normal(size=3).astype(ml_dtypes.bfloat16)
    for fn, args in [(xnp.matmul, (b, b)), (xnp.matvec, (b, v)), (xnp.dot, (v, b))]:
        eager, compiled = fn(*args), xnp.jit(fn)(*args)
        assert eager.dtype == compiled.dtype == ml_dtypes.bfloat16
        want = getattr(np, fn.__name__)(*(a.astype(np.float32) for a in args))
        np.testing.assert_allclose(np.asarray(eager, np.float32), want, rtol=2e-2, atol=2e-2)
