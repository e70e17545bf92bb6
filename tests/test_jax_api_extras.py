"""eval_shape, linear_transpose, checkpoint/remat, xnp.random.gamma/beta/dirichlet and
xnp.lax.associative_scan, against NumPy, finite differences, Python loops and analytic
moments."""

import functools

import numpy
import pytest

import xnp as np
from transforms.test_util import check_grads

# --- eval_shape -------------------------------------------------------------------------


def test_eval_shape_pytree_and_structs():
    def f(x, y, scale=2.0):
        return {"prod": x @ y, "parts": (x.sum(), scale * y)}
    x = np.ShapeDtypeStruct((3, 4), numpy.float32)
    y = numpy.ones((4, 5))
    out = np.eval_shape(f, x, y, scale=3)
    expected = f(numpy.ones((3, 4), numpy.float32), y, scale=3)
    assert out["prod"] == np.ShapeDtypeStruct((3, 5), numpy.float64)
    for got, want in zip([out["prod"], *out["parts"]],
                         [expected["prod"], *expected["parts"]]):
        assert got.shape == numpy.shape(want) and got.dtype == numpy.asarray(want).dtype


def test_eval_shape_computes_nothing():
    calls = []

    def f(x):
        calls.append(type(x))
        return np.sin(x)[:2], np.int32(1) + 1
    out = np.eval_shape(f, np.ShapeDtypeStruct((5,), "float32"))
    assert out[0].shape == (2,) and out[0].dtype == numpy.float32
    assert out[1].shape == () and out[1].dtype == numpy.int32
    assert calls and calls[0] is not numpy.ndarray
    assert repr(np.ShapeDtypeStruct((2,), "f4")) == \
        "ShapeDtypeStruct(shape=(2,), dtype=float32)"


# --- linear_transpose -------------------------------------------------------------------


def test_linear_transpose_matches_matrix_transpose():
    rng = numpy.random.default_rng(0)
    a = rng.standard_normal((3, 4))

    def f(x, y):
        return (a @ x + 2.0 * y[:3], x.sum())
    x0, y0 = numpy.zeros(4), numpy.zeros(5)
    ft = np.linear_transpose(f, x0, y0)
    ct = (rng.standard_normal(3), 1.5)
    tx, ty = ft((ct[0], numpy.float64(ct[1])))
    numpy.testing.assert_allclose(tx, a.T @ ct[0] + ct[1], rtol=1e-12)
    numpy.testing.assert_allclose(ty, numpy.r_[2.0 * ct[0], 0.0, 0.0], rtol=1e-12)
    # <f(v), c> == <v, f^T(c)> on random vectors
    v = (rng.standard_normal(4), rng.standard_normal(5))
    fv = f(*v)
    lhs = fv[0] @ ct[0] + fv[1] * ct[1]
    numpy.testing.assert_allclose(lhs, v[0] @ tx + v[1] @ ty, rtol=1e-12)
    jx, jy = np.jit(ft)((ct[0], numpy.float64(ct[1])))
    numpy.testing.assert_allclose(jx, tx, rtol=1e-12)
    numpy.testing.assert_allclose(jy, ty, rtol=1e-12)


@pytest.mark.parametrize("fun", [lambda x: x * x, lambda x: x + 1.0, np.sin,
                                 lambda x: 1.0 / x, lambda x: np.maximum(x, 0.0)])
def test_linear_transpose_rejects_nonlinear(fun):
    with pytest.raises(TypeError, match="not linear"):
        np.linear_transpose(fun, numpy.ones(3))


def test_linear_transpose_rejects_integer_inputs():
    with pytest.raises(TypeError, match="float and complex"):
        np.linear_transpose(lambda x: x, numpy.ones(3, int))


# --- checkpoint / remat -----------------------------------------------------------------


def test_checkpoint_is_identity_under_transforms():
    f = lambda w, x: np.sum(np.tanh(x @ w) ** 2)  # noqa: E731
    g = np.checkpoint(f, prevent_cse=False, policy=lambda *a, **k: True,
                      static_argnums=())
    assert np.remat is np.checkpoint
    rng = numpy.random.default_rng(1)
    w, xs = rng.standard_normal((3, 2)), rng.standard_normal((4, 3))
    numpy.testing.assert_allclose(g(w, xs), f(w, xs))
    check_grads(g, (w, xs), order=2)
    per_ex = np.jit(np.vmap(np.grad(g), in_axes=(None, 0)))(w, xs)
    numpy.testing.assert_allclose(per_ex, np.vmap(np.grad(f), in_axes=(None, 0))(w, xs),
                                  rtol=1e-12)
    deco = np.checkpoint(static_argnums=1)(lambda x, n: x ** n)
    numpy.testing.assert_allclose(np.grad(deco)(2.0, 3), 12.0)
    with pytest.raises(TypeError):
        np.checkpoint(f, policy=3)


# --- random.gamma / beta / dirichlet ----------------------------------------------------

N = 40000


@pytest.mark.parametrize("a", [0.25, 1.0, 3.7])
def test_gamma_moments_and_ks(a):
    s = numpy.asarray(np.random.gamma(np.random.key(11), a, (N,)))
    assert s.dtype == numpy.float64 and (s >= 0).all()
    # 8 standard errors of the mean and (roughly) of the variance; fixed keys
    assert abs(s.mean() - a) < 8 * numpy.sqrt(a / N)
    assert abs(s.var() - a) < 8 * numpy.sqrt((2 * a * a + 6 * a) / N)
    stats = pytest.importorskip("scipy.stats")
    assert stats.kstest(s, "gamma", args=(a,)).statistic < 0.015


def test_gamma_shapes_dtypes_and_transforms():
    k = np.random.key(0)
    a = numpy.array([0.5, 2.0, 10.0])
    out = np.random.gamma(k, a, (4, 3), dtype=numpy.float32)
    assert out.shape == (4, 3) and out.dtype == numpy.float32
    numpy.testing.assert_allclose(np.jit(lambda k: np.random.gamma(k, a))(k),
                                  np.random.gamma(k, a), rtol=1e-12)
    keys = np.random.split(k, 3)
    batched = np.vmap(lambda k: np.random.gamma(k, 2.0, (5,)))(keys)
    for i in range(3):
        numpy.testing.assert_allclose(batched[i], np.random.gamma(keys[i], 2.0, (5,)),
                                      rtol=1e-12)
    with pytest.raises(ValueError):
        np.random.gamma(k, a, (2,))
    assert np.random.gamma(2.0, size=3).shape == (3,)       # NumPy's without a key


def test_beta_and_dirichlet_moments():
    a, b = 2.0, 3.0
    s = numpy.asarray(np.random.beta(np.random.key(3), a, b, (N,)))
    mean, var = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))
    assert abs(s.mean() - mean) < 8 * numpy.sqrt(var / N)
    assert abs(s.var() - var) < 0.05 * var
    stats = pytest.importorskip("scipy.stats")
    assert stats.kstest(s, "beta", args=(a, b)).statistic < 0.015
    alpha = numpy.array([1.0, 2.0, 5.0])
    d = numpy.asarray(np.random.dirichlet(np.random.key(4), alpha, (N,)))
    assert d.shape == (N, 3)
    numpy.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-12)
    a0 = alpha.sum()
    numpy.testing.assert_allclose(d.mean(0), alpha / a0, atol=8 * 0.5 / numpy.sqrt(N))
    dvar = alpha * (a0 - alpha) / (a0 ** 2 * (a0 + 1))
    numpy.testing.assert_allclose(d.var(0), dvar, rtol=0.05)
    assert np.random.dirichlet(np.random.key(4), numpy.ones((2, 4))).shape == (2, 4)


# --- lax.associative_scan ---------------------------------------------------------------


def _loop_scan(fn, xs, reverse):
    out, acc = [], None
    order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for i in order:
        acc = xs[i] if acc is None else (fn(xs[i], acc) if reverse else fn(acc, xs[i]))
        out.append(acc)
    return numpy.stack(out[::-1] if reverse else out)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_matches_loop(n, reverse):
    rng = numpy.random.default_rng(n)
    mats = rng.standard_normal((n, 2, 2))
    matmul = lambda a, b: a @ b  # noqa: E731  (associative, not commutative)
    got = np.lax.associative_scan(matmul, np.asarray(mats), reverse=reverse)
    numpy.testing.assert_allclose(got, _loop_scan(numpy.matmul, mats, reverse), rtol=1e-10,
                                  atol=1e-12)
    x = rng.standard_normal((3, n))
    got = np.lax.associative_scan(np.maximum, np.asarray(x), reverse=reverse, axis=1)
    want = _loop_scan(numpy.maximum, x.T, reverse).T
    numpy.testing.assert_array_equal(got, want)


def test_associative_scan_pytree_jit_grad():
    # affine maps (a, b): x -> a x + b, composed; a pytree of two leaves
    def compose(f, g):
        return (g[0] * f[0], g[0] * f[1] + g[1])
    rng = numpy.random.default_rng(7)
    a, b = rng.uniform(0.5, 1.5, 6), rng.standard_normal(6)
    ga, gb = np.jit(functools.partial(np.lax.associative_scan, compose))((a, b))
    la = _loop_scan(lambda f, g: numpy.stack(compose(f, g)), numpy.stack([a, b], 1), False)
    numpy.testing.assert_allclose(ga, la[:, 0], rtol=1e-12)
    numpy.testing.assert_allclose(gb, la[:, 1], rtol=1e-12)
    check_grads(lambda a, b: np.lax.associative_scan(compose, (a, b))[1], (a, b), order=1)


def test_make_jaxpr_takes_shape_dtype_structs_as_eval_shape_does():
    f = lambda x, y: (x @ y).sum(axis=0) + 1.0
    spec = (np.ShapeDtypeStruct((3, 4), numpy.float32),
            np.ShapeDtypeStruct((4, 2), numpy.float32))
    closed = np.make_jaxpr(f)(*spec)
    assert [v.aval.shape for v in closed.jaxpr.invars] == [(3, 4), (4, 2)]
    assert [(v.aval.shape, v.aval.dtype) for v in closed.jaxpr.outvars] == [((2,), numpy.float32)]
    out = np.eval_shape(f, *spec)
    assert (out.shape, out.dtype) == ((2,), numpy.float32)


def test_associative_scan_leaves_of_different_ranks():
    # JAX takes leaves of any rank with equal length along the axis: (matrix, vector)
    # pairs composed as affine maps, against a Python loop
    rng = numpy.random.default_rng(3)
    ms = rng.standard_normal((5, 2, 2))
    vs = rng.standard_normal((5, 2))

    def compose(f, g):
        return (g[0] @ f[0], (g[0] @ f[1][..., None])[..., 0] + g[1])
    gm, gv = np.lax.associative_scan(compose, (np.asarray(ms), np.asarray(vs)))
    m, v = ms[0], vs[0]
    for i in range(5):
        if i:
            m, v = ms[i] @ m, ms[i] @ v + vs[i]
        numpy.testing.assert_allclose(gm[i], m, rtol=1e-12, atol=1e-12)
        numpy.testing.assert_allclose(gv[i], v, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError):
        np.lax.associative_scan(compose, (np.asarray(ms), np.asarray(vs)), axis=2)
