"""xnp.random's key-based chisquare, f, geometric, lognormal, pareto, rayleigh, triangular
and wald, and fixes found by running JAX's random tests: gumbel/categorical
``mode="highest"``, beta/dirichlet for tiny parameters, permutation's axis check, the
``method`` argument of the gamma samplers, Python-number parameters under jit.

Values pinned from jax 0.10.2 (``jax_enable_x64``, ``jax.jit``), key PRNGKey(42); the
gamma-based samplers (xnp's own gamma) by Kolmogorov-Smirnov tests on fixed keys.
"""

import numpy as np
import pytest

import xnp
import xnp.random as xr

N = 20_000

# under xnp.jit bit for bit (float64), eagerly to rounding
KNOWN = {
    "geometric": (lambda k: xr.geometric(k, np.array([0.2, 0.7]), (2, 2)),
                  np.array([[4, 4], [3, 1]], np.int64)),
    "lognormal": (lambda k: xr.lognormal(k, 0.5, (3,)),
                  [0.9117806140267735, 0.33793142787224595, 1.0979752215045038]),
    "pareto": (lambda k: xr.pareto(k, 3.0, (3,)),
               [1.203777755582976, 1.0050540155743009, 1.3291659848108275]),
    "rayleigh": (lambda k: xr.rayleigh(k, 2.0, (3,)),
                 [2.6101486342144358, 5.795884058247333, 2.1068921475580344]),
    "triangular": (lambda k: xr.triangular(k, 0.0, 0.25, 1.0, (3,)),
                   [0.34429097534610054, 0.06125779443326903, 0.4348525090072959]),
    "wald": (lambda k: xr.wald(k, 2.0, (3,)),
             [5.324020671222717, 1.3862836856025678, 0.2658722707168426]),
    "gumbel_highest32": (lambda k: xr.gumbel(k, (4,), np.float32, mode="highest"),
                         np.array([0.3992578089237213, -0.129975825548172,
                                   0.04309510067105293, 0.19444338977336884], np.float32)),
    "categorical_highest32": (
        lambda k: xr.categorical(k, np.log(np.array([0.1, 0.2, 0.7], np.float32)),
                                 shape=(6,), mode="highest"),
        np.array([2, 2, 0, 1, 2, 2], np.int64)),
}


def test_known_values_from_jax():
    k = xr.PRNGKey(42)
    names = list(KNOWN)
    jitted = xnp.jit(lambda k: [KNOWN[n][0](k) for n in names])(k)
    for name, got in zip(names, jitted):
        want = np.asarray(KNOWN[name][1])       # lists: float64
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_array_equal(got, want, err_msg=name)
        eager = np.asarray(KNOWN[name][0](k))
        if eager.dtype.kind == "f":
            np.testing.assert_allclose(eager, want, rtol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(eager, want, err_msg=name)


def test_gumbel_highest_other_dtypes_are_high():
    k = xr.PRNGKey(5)
    for dt in (np.float16, np.float64):
        np.testing.assert_array_equal(np.asarray(xr.gumbel(k, (5,), dt, mode="highest")),
                                      np.asarray(xr.gumbel(k, (5,), dt, mode="high")))
    with pytest.raises(ValueError, match="mode"):
        xr.gumbel(k, (2,), mode="nonsense")


def test_distributions_ks():
    stats = pytest.importorskip("scipy.stats")
    k = xr.PRNGKey(1)
    cases = [
        (xr.chisquare(k, 3.0, (N,)), "chi2", (3.0,)),
        (xr.chisquare(k, 0.5, (N,), np.float32), "chi2", (0.5,)),
        (xr.f(k, 4.0, 7.0, (N,)), "f", (4.0, 7.0)),
        (xr.lognormal(k, 0.7, (N,)), "lognorm", (0.7,)),
        (xr.pareto(k, 2.5, (N,)), "pareto", (2.5,)),
        (xr.rayleigh(k, 1.5, (N,)), "rayleigh", (0, 1.5)),
        (xr.triangular(k, -1.0, 0.5, 2.0, (N,)), "triang", (0.5, -1.0, 3.0)),
        (xr.wald(k, 1.3, (N,)), "invgauss", (1.3,)),
        (xr.gumbel(k, (N,), np.float32, mode="highest"), "gumbel_r", ()),
    ]
    for sample, dist, args in cases:
        p = stats.kstest(np.asarray(sample).astype(np.float64), dist, args=args).pvalue
        assert p > 1e-3, (dist, args, p)
    g = np.asarray(xr.geometric(k, 0.3, (N,)))
    assert g.dtype == np.int64 and g.min() >= 1
    assert abs(g.mean() - 1 / 0.3) < 0.1


def test_shapes_dtypes_dispatch_and_transforms():
    k = xr.PRNGKey(0)
    assert xr.chisquare(k, np.ones((2, 3))).shape == (2, 3)
    assert xr.f(k, np.ones(3, np.float32), 2.0, (4, 3), np.float32).dtype == np.float32
    assert xr.geometric(k, 0.5, (3,), np.int32).dtype == np.int32
    assert xr.triangular(k, 0.0, np.array([0.1, 0.5]), 1.0).shape == (2,)
    with pytest.raises(ValueError):
        xr.pareto(k, np.ones(3), shape=(2,))
    with pytest.raises(ValueError):
        xr.geometric(k, 0.5, dtype=np.float64)
    with pytest.raises(ValueError, match="safely cast"):
        xr.wald(k, np.float64(1.0), (2,), np.float32)
    # Python numbers are weakly typed, also when jit traces them (JAX's rule)
    got = xnp.jit(lambda k, b: xr.pareto(k, b, (3,), np.float32))(k, 2.0)
    assert got.dtype == np.float32
    assert xnp.vmap(lambda kk: xr.wald(kk, 1.0, (2,)))(xr.split(k, 3)).shape == (3, 2)
    # without a key, NumPy's functions (and signatures)
    assert np.shape(xr.chisquare(3.0, 4)) == (4,)
    assert np.shape(xr.pareto(2.0, (2, 2))) == (2, 2)


def test_gamma_method_argument():
    k = xr.PRNGKey(0)
    for f, args in ((xr.gamma, (2.0,)), (xr.loggamma, (2.0,)), (xr.beta, (2.0, 3.0)),
                    (xr.chisquare, (2.0,))):
        np.testing.assert_array_equal(np.asarray(f(k, *args, (3,), method="approximate")),
                                      np.asarray(f(k, *args, (3,))))
        with pytest.raises(ValueError, match=f"method argument to `{f.__name__}`"):
            f(k, *args, method="nonsense")


def test_beta_dirichlet_tiny_parameters():
    k = xr.PRNGKey(0)
    d = np.asarray(xr.dirichlet(k, 1e-5 * np.ones(3), (50,), np.float32))
    assert np.isfinite(d).all()
    np.testing.assert_allclose(d.sum(1), 1, rtol=1e-5)
    np.testing.assert_allclose(d.max(1), 1, rtol=1e-4)
    b = np.asarray(xr.beta(k, 1e-5, 1e-5, (50,), np.float32))
    assert np.isfinite(b).all() and ((b < 1e-4) | (b > 1 - 1e-4)).all()


def test_permutation_of_int_checks_axis():
    k = xr.PRNGKey(0)
    for axis in (3, -2):
        with pytest.raises(ValueError):
            xr.permutation(k, 10, axis=axis)
    np.testing.assert_array_equal(np.asarray(xr.permutation(k, 10, axis=-1)),
                                  np.asarray(xr.permutation(k, 10)))


def test_poisson():
    stats = pytest.importorskip("scipy.stats")
    k = xr.PRNGKey(0)
    for lam in (0.5, 9.0, 11.0, 500.0):
        s = np.asarray(xr.poisson(k, lam, (N,)))
        assert s.dtype == np.int64
        assert abs(s.mean() - lam) < 0.05 * lam + 0.02 and abs(s.var() - lam) < 0.08 * lam
        x = np.arange(s.max() + 1)
        cdf = stats.poisson(lam).cdf(x)
        emp = np.searchsorted(np.sort(s), x, side="right") / N
        assert np.abs(emp - cdf).max() < 0.02, lam
    corner = xr.poisson(k, np.array([-1.0, 0.0, np.nan, 20.0]), dtype=np.int32)
    np.testing.assert_array_equal(np.asarray(corner)[:3], [-1, 0, -1])
    assert corner.dtype == np.int32
    got = xnp.jit(lambda k: xr.poisson(k, np.array([2.0, 20.0]), (3, 2)))(k)
    assert got.shape == (3, 2)
    assert xnp.vmap(lambda kk: xr.poisson(kk, 20.0, (2,)))(xr.split(k, 3)).shape == (3, 2)
    with pytest.raises(ValueError, match="method argument to `poisson`"):
        xr.poisson(k, 1.0, method="nonsense")
    assert np.shape(xr.poisson(3.0, 4)) == (4,)      # NumPy's without a key
