"""The series classes of ``xnp.polynomial`` against ``numpy.polynomial``'s: every method,
operator and printed form on the same inputs; derivatives of evaluation with respect to
points and coefficients; ``jit``/``vmap`` of code that builds, fits and evaluates series.
The module-level functions are covered by the registry (``ops_polynomial_module.py``)."""

from __future__ import annotations

import inspect
import pickle
import warnings

import numpy as np
import numpy.polynomial as NP
import pytest

import xnp
import xnp.polynomial as XP
from transforms import ConcretizationTypeError
from transforms.test_util import check_grads

CLASSES = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]
SETUPS = [((1, 2, 3),), ((1.5, -2, 0.25), [0, 2]), ((1, 2, 3), [0, 2], [-1, 3], "t"),
          ((-0.5, 2),), ((1 + 2j, -3),), ((4.0,),)]
rng = np.random.default_rng(0)


def assert_same(actual, expected, tol=1e-9, where=""):
    """Same structure, classes, printed forms, shapes, dtypes and values (to tol)."""
    if isinstance(expected, NP._polybase.ABCPolyBase):
        assert type(actual).__name__ == type(expected).__name__, where
        assert isinstance(actual, XP._base.ABCPolyBase), where
        for name in ("coef", "domain", "window"):
            assert_same(getattr(actual, name), getattr(expected, name), tol, where + name)
        assert actual.symbol == expected.symbol
        if np.isrealobj(expected.coef):      # complex: the sign of a zero may differ
            assert str(actual) == str(expected), where
            assert repr(actual) == repr(expected), where
        return
    if isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected), where
        for a, e in zip(actual, expected):
            assert_same(a, e, tol, where)
        return
    a, e = np.asarray(actual), np.asarray(expected)
    assert a.shape == e.shape and a.dtype == e.dtype, f"{where}: {a!r} != {e!r}"
    np.testing.assert_allclose(a, e, rtol=tol, atol=tol, err_msg=where)


def pair(cls, *args, **kwargs):
    return getattr(XP, cls)(*args, **kwargs), getattr(NP, cls)(*args, **kwargs)


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_methods_match_numpy(cls, setup):
    px, pn = pair(cls, *SETUPS[setup])
    assert_same(px, pn)
    for method in ("__neg__", "__pos__", "copy", "trim", "deriv", "integ", "roots",
                   "linspace", "mapparms", "convert", "degree", "__len__"):
        assert_same(getattr(px, method)(), getattr(pn, method)(), 1e-7, method)
    assert_same(px.integ(2, [1, 2], 0.5), pn.integ(2, [1, 2], 0.5))
    assert_same(px.deriv(2), pn.deriv(2))
    assert_same(px.cutdeg(0), pn.cutdeg(0))
    assert_same(px.truncate(2), pn.truncate(2))
    assert_same(px.linspace(5, [0, 1]), pn.linspace(5, [0, 1]))
    assert_same(px.trim(1.2), pn.trim(1.2))
    for x in (0.3, [0.3, 2], np.ones((2, 2)), np.float32(0.5)):
        assert_same(px(x), pn(x), where=f"call {x}")
    assert_same(px.convert(kind=XP.Polynomial), pn.convert(kind=NP.Polynomial))
    assert_same(px.convert(domain=[0, 1], kind=XP.Chebyshev, window=[-1, 2]),
                pn.convert(domain=[0, 1], kind=NP.Chebyshev, window=[-1, 2]))
    assert_same(list(px), list(pn))


@pytest.mark.parametrize("cls", CLASSES)
def test_operators_match_numpy(cls):
    for setup in SETUPS[:3]:
        px, pn = pair(cls, *setup)
        other_x, other_n = pair(cls, [3, 4, 0.5], *setup[1:])
        ops = ["__add__", "__sub__", "__mul__", "__floordiv__", "__mod__", "__divmod__",
               "__radd__", "__rsub__", "__rmul__", "__rfloordiv__", "__rmod__",
               "__rdivmod__", "__truediv__"]
        for ox, on in [(2, 2), (2.5, 2.5), ([1, 2], [1, 2]), (other_x, other_n)]:
            for op in ops:
                if op.startswith("__r") and isinstance(on, NP._polybase.ABCPolyBase):
                    continue
                try:
                    expected = getattr(pn, op)(on)
                except TypeError:
                    with pytest.raises(TypeError):
                        getattr(px, op)(ox)
                    continue
                if expected is NotImplemented:
                    assert getattr(px, op)(ox) is NotImplemented
                else:
                    assert_same(getattr(px, op)(ox), expected, where=f"{op} {on}")
        for n in range(4):
            assert_same(px ** n, pn ** n)
        assert_same(-px + 2 * px - px * px // 3, -pn + 2 * pn - pn * pn // 3)


@pytest.mark.parametrize("cls", CLASSES)
def test_constructors_match_numpy(cls):
    X, N = getattr(XP, cls), getattr(NP, cls)
    x = np.linspace(0, 3, 9)
    y = x ** 3 - x
    assert_same(X.fit(x, y, 3), N.fit(x, y, 3), 1e-8)
    assert_same(X.fit(x, y, 2, domain=[]), N.fit(x, y, 2, domain=[]), 1e-8)
    assert_same(X.fit(x, y, 2, w=x + 1), N.fit(x, y, 2, w=x + 1), 1e-8)
    px, extra_x = X.fit(x, y, [1, 3], full=True, window=[0, 1], symbol="z")
    pn, extra_n = N.fit(x, y, [1, 3], full=True, window=[0, 1], symbol="z")
    assert_same(px, pn, 1e-8)
    assert_same(extra_x, extra_n, 1e-8)
    assert_same(X.fit(np.ones(4), np.arange(4.0), 1), N.fit(np.ones(4), np.arange(4.0), 1))
    assert_same(X.fromroots([3, 1, 2]), N.fromroots([3, 1, 2]))
    assert_same(X.fromroots([1, 2, 3], domain=None), N.fromroots([1, 2, 3], domain=None))
    assert_same(X.fromroots([1j, -1j], domain=[0, 2]), N.fromroots([1j, -1j], domain=[0, 2]))
    assert_same(X.identity(), N.identity())
    assert_same(X.identity([0, 2], [1, 3], "s"), N.identity([0, 2], [1, 3], "s"))
    assert_same(X.basis(3), N.basis(3))
    assert_same(X.basis(2, [0, 1]), N.basis(2, [0, 1]))
    assert_same(X.cast(XP.Polynomial([1, 2, 3])), N.cast(NP.Polynomial([1, 2, 3])))
    assert_same(X.cast(XP.Legendre([1, 2]), [0, 1]), N.cast(NP.Legendre([1, 2]), [0, 1]))
    assert_same(X.fit(x, y, 3).roots(), N.fit(x, y, 3).roots(), 1e-7)


def test_chebyshev_interpolate():
    assert_same(XP.Chebyshev.interpolate(np.exp, 5), NP.Chebyshev.interpolate(np.exp, 5))
    assert_same(XP.Chebyshev.interpolate(lambda x, a: np.sin(a * x), 4, [0, 2], (2.0,)),
                NP.Chebyshev.interpolate(lambda x, a: np.sin(a * x), 4, [0, 2], (2.0,)))


@pytest.mark.parametrize("cls", CLASSES)
def test_printing_matches_numpy(cls):
    coef = [1e-5, 123456789.0, -np.inf, np.nan, 1.0 / 3, -100, 0.0] + [1.5] * 14
    for args in [(coef,), (coef, [0, 2]), ([1, -2, 3], [1, 2], [0, 3], "y"),
                 ([1, 2], [-1, 1], [0, 1]), ([1, 2], [1, 3], [0, 2])]:
        px, pn = pair(cls, *args)
        assert str(px) == str(pn)
        assert repr(px) == repr(pn)
        assert format(px, "ascii") == format(pn, "ascii")
        assert format(px, "unicode") == format(pn, "unicode")
        assert f"{px}" == f"{pn}"
        assert px._repr_latex_() == pn._repr_latex_()
        with np.printoptions(linewidth=30, precision=3, sign="+"):
            assert str(px) == str(pn)
            assert format(px, "ascii") == format(pn, "ascii")
        with np.printoptions(floatmode="fixed", precision=2):
            assert str(px) == str(pn)
    px, pn = pair(cls, np.array([1, 2], np.float32))
    assert repr(px) == repr(pn)
    px, pn = pair(cls, [1 + 2j, -3j])
    assert str(px) == str(pn)
    with pytest.raises(ValueError, match="Unsupported format"):
        format(px, "latex")


def test_default_printstyle():
    p = XP.Polynomial([1, 2, 3])
    assert str(p) == "1.0 + 2.0·x + 3.0·x²"
    try:
        XP.set_default_printstyle("ascii")
        assert str(p) == "1.0 + 2.0 x + 3.0 x**2"
        assert str(XP.Chebyshev([1, 2])) == "1.0 + 2.0 T_1(x)"
    finally:
        XP.set_default_printstyle("unicode")
    assert str(XP.Hermite([1, 2])) == "1.0 + 2.0·H₁(x)"
    with pytest.raises(ValueError):
        XP.set_default_printstyle("fancy")


def test_format_float_matches_numpy():
    for x in [0.0, -0.0, 1.5, 1e-5, 1e-4, 123456789.0, 1e300, np.nan, np.inf, 1 / 3, 7]:
        for parens in (False, True):
            assert (XP.polyutils.format_float(np.float64(x), parens)
                    == NP.polyutils.format_float(np.float64(x), parens))


def test_errors_match_numpy():
    P, C = XP.Polynomial, XP.Chebyshev
    cases = [
        lambda m: m.Polynomial([1]) + m.Chebyshev([1]),
        lambda m: m.Polynomial([1], [0, 1]) + m.Polynomial([1]),
        lambda m: m.Polynomial([1], None, [0, 1]) * m.Polynomial([1]),
        lambda m: m.Polynomial([1], symbol="y") - m.Polynomial([1]),
        lambda m: m.Polynomial([1], [0, 1, 2]),
        lambda m: m.Polynomial([1], None, [0]),
        lambda m: m.Polynomial([1], symbol="1x"),
        lambda m: m.Polynomial([1], symbol=3),
        lambda m: m.Polynomial([]),
        lambda m: m.Polynomial([[1, 2]]),
        lambda m: m.Polynomial([1, 2]).truncate(0),
        lambda m: m.Polynomial([1, 2]).truncate(1.5),
        lambda m: m.Polynomial.basis(-1),
        lambda m: m.Polynomial([1, 2]) / [1, 2],
        lambda m: m.Polynomial([1, 2]) / True,
        lambda m: m.Polynomial([1, 2]) // m.Polynomial([0]),
        lambda m: m.Polynomial([1, 2]) ** -1,
        lambda m: m.Chebyshev([1, 2]) ** 101,
        lambda m: m.Polynomial([1, 2]).trim(-1),
        lambda m: m.Polynomial([1, 2]).deriv(-1),
        lambda m: m.Polynomial([1, 2]).integ(1, [1, 2]),
    ]
    for case in cases:
        with pytest.raises(Exception) as expected:
            case(NP)
        with pytest.raises(type(expected.value)):
            case(XP)
    assert P([1, 2]) == P([1.0, 2.0])
    assert P([1, 2]) != P([1, 2, 0])
    assert P([1, 2]) != C([1, 2])
    assert P([1, 2], [0, 1]) != P([1, 2])
    assert P([1, 2], symbol="y") != P([1, 2])
    assert (P([1, 2]) == 3) is False


def test_grad_of_evaluation():
    c = np.array([0.3, -0.5, 0.7, 0.2])
    x = np.array([0.1, 0.4, -0.3])
    for cls in CLASSES:
        X = getattr(XP, cls)
        check_grads(lambda c, x: X(c, domain=[-2, 3])(x), (c, x), order=2)
        check_grads(lambda c, x: X(c).deriv().integ(k=1.5, lbnd=0.2)(x), (c, x), order=1)
        dx = xnp.grad(lambda x: xnp.sum(X(c)(x)))(xnp.asarray(x))
        deriv = getattr(NP, cls)(c).deriv()(x)
        np.testing.assert_allclose(np.asarray(dx), deriv, rtol=1e-12)
        dc = xnp.grad(lambda c: X(c)(0.4))(xnp.asarray(c))
        basis = [getattr(NP, cls).basis(k)(0.4) for k in range(4)]
        np.testing.assert_allclose(np.asarray(dc), basis, rtol=1e-12)


def test_grad_of_arithmetic_fit_and_roots():
    c = np.array([0.3, -0.5, 0.7, 0.2])
    x = np.array([0.1, 0.4, -0.3])
    xs = np.linspace(-1, 2, 10)
    for cls in CLASSES:
        X = getattr(XP, cls)
        check_grads(lambda c: ((X(c) * X(c) + 1) ** 2 // X(c[:2]) % X(c[1:]))(x), (c,),
                    order=1)
        check_grads(lambda ys: X.fit(xs, ys, 3)(0.3), (np.sin(xs),), order=1)
        check_grads(lambda c: X(c).convert(kind=XP.Chebyshev).coef, (c,), order=1)
    # roots need concrete values, which grad has: d(root)/d(coef) of a quadratic
    check_grads(lambda c: XP.Polynomial(c).roots(), (np.array([-2.0, 1.0, 1.0]),), order=1)


def test_jit_of_fitted_series_equals_eager():
    xs = np.linspace(-1, 2, 12)
    ys = np.sin(xs)
    t = np.array([0.1, 0.4, 1.7])
    for cls in CLASSES:
        X = getattr(XP, cls)

        def fit_and_eval(xs, ys, t):
            p = X.fit(xs, ys, 4)
            return p(t), p.deriv()(t), (p * p).integ()(t)
        eager = fit_and_eval(xnp.asarray(xs), xnp.asarray(ys), xnp.asarray(t))
        jitted = xnp.jit(fit_and_eval)(xnp.asarray(xs), xnp.asarray(ys), xnp.asarray(t))
        for e, j in zip(eager, jitted):     # (Laguerre's p * p cancels to about 1e-8)
            np.testing.assert_allclose(np.asarray(j), np.asarray(e), rtol=1e-7, atol=1e-7)
        expected = getattr(NP, cls).fit(xs, ys, 4)(t)
        np.testing.assert_allclose(np.asarray(eager[0]), expected, rtol=1e-12)


def test_series_are_pytrees():
    p = XP.Chebyshev([1.0, 2.0, 3.0], domain=[0, 2])
    q = xnp.jit(lambda p: p * 2 + 1)(p)
    assert isinstance(q, XP.Chebyshev)
    assert_same(q, NP.Chebyshev([1.0, 2.0, 3.0], domain=[0, 2]) * 2 + 1)
    g = xnp.grad(lambda p: xnp.sum(p(xnp.asarray([0.5, 1.5]))))(p)
    assert isinstance(g, XP.Chebyshev)
    np.testing.assert_allclose(np.asarray(g.coef),
                               NP.chebyshev.chebvander([-0.5, 0.5], 2).sum(0))
    batch = xnp.vmap(lambda c: XP.Legendre(c)(0.3))(xnp.asarray(rng.normal(size=(4, 3))))
    assert batch.shape == (4,)
    out = xnp.vmap(lambda c: XP.Hermite(c, symbol="s").deriv())(xnp.ones((5, 3)))
    assert isinstance(out, XP.Hermite) and out.coef.shape == (5, 2) and out.symbol == "s"
    assert_same(pickle.loads(pickle.dumps(p)), NP.Chebyshev([1.0, 2.0, 3.0], domain=[0, 2]))


def test_trailing_zeros_depend_on_concreteness():
    """Eagerly (and under grad) trailing zeros are dropped as in NumPy; traced
    coefficients keep their length, which represents the same polynomial."""
    a, b = xnp.asarray([1.0, 2.0]), xnp.asarray([1.0, -2.0])
    assert_same(XP.polynomial.polyadd(a, b), NP.polynomial.polyadd([1, 2], [1, -2]))
    traced = xnp.jit(XP.polynomial.polyadd)(a, b)
    np.testing.assert_array_equal(np.asarray(traced), [2.0, 0.0])
    xs = xnp.asarray([0.5, 2.0])
    np.testing.assert_allclose(np.asarray(XP.polynomial.polyval(xs, traced)), [2.0, 2.0])
    with pytest.raises(ConcretizationTypeError):
        xnp.jit(XP.polynomial.polyroots)(xnp.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ConcretizationTypeError):
        xnp.jit(lambda c: XP.Polynomial(c).trim())(xnp.asarray([1.0, 0.0]))
    with pytest.raises(ConcretizationTypeError):
        xnp.jit(lambda x, y: XP.polynomial.polyfit(x, y, 1, full=True)[0])(
            xnp.asarray([0.0, 1.0, 2.0]), xnp.asarray([1.0, 0.0, 1.0]))


def test_rank_warning_and_dtypes():
    with pytest.warns(np.exceptions.RankWarning):
        XP.polynomial.polyfit([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        XP.polynomial.polyfit([0.0, 1.0, 2.0], [1.0, 2.0, 3.0], 1)
    assert XP.polynomial.polyroots([2.0, -3.0, 1.0]).dtype == np.float64
    assert XP.polynomial.polyroots([1.0, 0.0, 1.0]).dtype == np.complex128
    assert XP.chebyshev.chebval(2, np.array([1, 2], np.float32)).dtype == np.float32
    assert XP.polynomial.polyline(1, 2).dtype == np.int64


def test_functions_are_documented():
    for mod in ("polynomial", "chebyshev", "legendre", "hermite", "hermite_e", "laguerre",
                "polyutils"):
        module, reference = getattr(XP, mod), getattr(NP, mod)
        for name in module.__all__:
            fn = getattr(module, name)
            assert hasattr(reference, name), name
            if callable(fn) and not isinstance(fn, type):
                doc = inspect.getdoc(fn) or ""
                assert not any(t in doc for t in ("{kind}", "{Kind}", "{prefix}", "{module}"))
                assert "Returns" in doc, name
                assert fn.__name__ == name or name.endswith("trim"), name
        missing = set(reference.__all__) - set(module.__all__) - {"RankWarning"}
        assert not missing, (mod, missing)
    sig = inspect.signature(XP.chebyshev.chebpow)
    assert sig.parameters["maxpower"].default == 16
    assert inspect.signature(XP.polynomial.polypow).parameters["maxpower"].default is None
