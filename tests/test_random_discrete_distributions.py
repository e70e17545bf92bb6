"""xnp.random's key-based ``binomial`` and ``multinomial`` (jax.random's signatures and
corner cases, checked against jax 0.10.2 by hand; xnp's own draws, so the values are
tested against the exact distributions with chi-square tests on fixed keys)."""

import math

import numpy as np
import pytest

import xnp
import xnp.random as xr


def _binom_pmf(n, p):
    return np.array([math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)])


def _chi2_pvalue(counts, expected):
    """Chi-square p-value, cells with expected count below 5 pooled into one."""
    stats = pytest.importorskip("scipy.stats")
    counts, expected = np.asarray(counts, float), np.asarray(expected, float)
    big = expected >= 5
    obs = np.append(counts[big], counts[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


def test_shapes_dtypes_and_dispatch():
    k = xr.PRNGKey(0)
    x = xr.binomial(k, 5, 0.3)
    assert x.shape == () and x.dtype == np.float64
    assert xr.binomial(k, 5, 0.3, dtype=np.float32).dtype == np.float32
    assert xr.binomial(k, np.int32(5), 0.3, shape=(2, 3)).shape == (2, 3)
    assert xr.binomial(k, np.ones((4, 1)), np.full(3, 0.5)).shape == (4, 3)
    assert xr.binomial(k, np.ones((0, 3)), 0.5).shape == (0, 3)
    with pytest.raises(ValueError, match="float dtype"):
        xr.binomial(k, 5, 0.3, dtype=np.int32)
    with pytest.raises(ValueError):
        xr.binomial(k, np.ones(3), 0.3, shape=(2,))
    m = xr.multinomial(k, 10, np.array([0.2, 0.3, 0.5]))
    assert m.shape == (3,) and m.dtype == np.float64 and float(m.sum()) == 10
    assert xr.multinomial(k, 10, np.array([0.5, 0.5]), dtype=np.int32).dtype == np.int32
    # ``shape`` is the full result shape, as JAX 0.10.2 does it
    assert xr.multinomial(k, 10, np.array([0.2, 0.3, 0.5]), shape=(4, 3)).shape == (4, 3)
    assert xr.multinomial(k, 10, np.ones(0)).shape == (0,)
    with pytest.raises(ValueError):
        xr.multinomial(k, 10, np.array([0.2, 0.3, 0.5]), shape=(4,))
    with pytest.raises(ValueError):
        xr.multinomial(k, np.array([10, 20]), np.array([0.2, 0.3, 0.5]))
    with pytest.raises(ValueError):
        xr.multinomial(k, 10, 0.5)
    # without a key: NumPy's legacy functions
    xr.seed(3)
    a = xr.binomial(10, 0.5, size=4)
    b = xr.multinomial(10, [0.5, 0.5], size=2)
    np.random.seed(3)
    np.testing.assert_array_equal(a, np.random.binomial(10, 0.5, size=4))
    np.testing.assert_array_equal(b, np.random.multinomial(10, [0.5, 0.5], size=2))


def test_binomial_corner_cases():
    k = xr.PRNGKey(1)
    n = np.array([0., 5, 5, 5, -1, np.nan, 5, 5, 2.7, 0, np.inf, 1e6, 1e6])
    p = np.array([.3, 0, 1, np.nan, .3, .3, -0.1, 1.1, .999, 0, 0.3, 0., 1.])
    # jax 0.10.2 gives the same (it loops forever on infinite n; xnp gives inf)
    want = [0, 0, 5, np.nan, np.nan, np.nan, np.nan, np.nan, 2, 0, np.inf, 0, 1e6]
    for f in (xr.binomial, xnp.jit(xr.binomial)):
        np.testing.assert_array_equal(np.asarray(f(k, n, p)), want)
    x = np.asarray(xr.binomial(k, np.array([3.0, 50, 1e4, 1e15]), 0.4, shape=(500, 4)))
    assert np.all(x == np.floor(x)) and np.all(x >= 0)
    assert np.all(x <= [3, 50, 1e4, 1e15])


def test_multinomial_corner_cases():
    k = xr.PRNGKey(2)
    assert np.asarray(xr.multinomial(k, 10, np.array([0., 0, 0]))).tolist() == [0, 0, 0]
    assert np.asarray(xr.multinomial(k, 10, np.array([0., 1, 0]))).tolist() == [0, 10, 0]
    assert np.all(np.isnan(np.asarray(xr.multinomial(k, 10, np.array([.5, np.nan, .5])))))
    assert np.all(np.isnan(np.asarray(xr.multinomial(k, -3, np.array([.5, .5])))))
    assert float(xr.multinomial(k, 10.7, np.array([.5, .5])).sum()) == 10
    x = np.asarray(xr.multinomial(k, np.array([7, 1000]), np.array([[1., 2, 3]] * 2)))
    np.testing.assert_array_equal(x.sum(-1), [7, 1000])
    # a negative weight gets ratio 0 (clipped) and so count 0
    assert np.asarray(xr.multinomial(k, 10, np.array([.5, -.1, .5])))[1] == 0


def test_jit_and_vmap_agree():
    k = xr.PRNGKey(3)
    n = np.array([3.0, 50, 1000, 0])
    f = lambda k: xr.binomial(k, n, 0.4)                              # noqa: E731
    g = lambda k: xr.multinomial(k, 100, np.array([.1, .2, .7]))     # noqa: E731
    jitted = xnp.jit(lambda k: (f(k), g(k)))(k)          # one compilation for both
    ks = xr.split(k, 4)
    for fn, got in zip((f, g), jitted):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(fn(k)))
        looped = np.stack([np.asarray(fn(ks[i])) for i in range(4)])
        np.testing.assert_array_equal(np.asarray(xnp.vmap(fn)(ks)), looped)
    # vmap over the parameters too
    ns = np.array([5.0, 40.0])
    got = np.asarray(xnp.vmap(lambda m: xr.binomial(k, m, 0.3))(ns))
    np.testing.assert_array_equal(got, [np.asarray(xr.binomial(k, m, 0.3)) for m in ns])


@pytest.mark.parametrize("n,p", [(12, 0.3), (40, 0.05), (30, 0.8), (100, 0.4), (1000, 0.93)])
def test_binomial_chi_square(n, p):
    size = 20_000
    x = np.asarray(xr.binomial(xr.PRNGKey(n), n, p, shape=(size,))).astype(int)
    counts = np.bincount(x, minlength=n + 1)
    assert len(counts) == n + 1
    assert _chi2_pvalue(counts, size * _binom_pmf(n, p)) > 1e-4


def test_binomial_huge_n_moments():
    n, p, size = 1e12, 0.3, 20_000
    x = np.asarray(xr.binomial(xr.PRNGKey(7), n, p, shape=(size,)))
    sd = math.sqrt(n * p * (1 - p))
    z = (x - n * p) / sd
    assert abs(z.mean()) < 5 / math.sqrt(size)
    assert abs(z.var() - 1) < 0.05


def test_multinomial_chi_square():
    # n = 4 trials over 3 outcomes: 15 possible count vectors, weights not normalised
    n, w, size = 4, np.array([1.0, 2.0, 5.0]), 20_000
    pr = w / w.sum()
    x = np.asarray(xr.multinomial(xr.PRNGKey(11), n, w, shape=(size, 3))).astype(int)
    assert np.all(x.sum(-1) == n)
    cells = [(a, b, n - a - b) for a in range(n + 1) for b in range(n + 1 - a)]
    index = {c: i for i, c in enumerate(cells)}
    counts = np.bincount([index[tuple(r)] for r in x], minlength=len(cells))
    pmf = [math.factorial(n) / math.prod(math.factorial(c) for c in cell)
           * math.prod(q ** c for q, c in zip(pr, cell)) for cell in cells]
    assert _chi2_pvalue(counts, size * np.array(pmf)) > 1e-4
