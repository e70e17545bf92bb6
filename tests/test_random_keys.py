"""xnp.random's functional (key) API: Threefry-2x32 keys and samplers, JAX style.

Known-answer vectors pin the values without JAX (CI has none): the published Random123
Threefry-2x32 (20 rounds) vectors, and values produced by jax 0.10.2 (with
``jax_enable_x64``). Where JAX is installed, results are also compared with it directly.
"""

import math

import numpy as np
import pytest

import xnp
import xnp.random as xr
from xnp.random._threefry import threefry2x32, threefry2x32_p


def _np(x):
    return np.asarray(x)


# --- the hash -----------------------------------------------------------------------------------
KNOWN_ANSWERS = [   # Random123's kat_vectors for threefry2x32_20: key, counter, result
    ((0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6b200159, 0x99ba4efe)),
    ((0xffffffff, 0xffffffff), (0xffffffff, 0xffffffff), (0x1cb996fc, 0xbb002be7)),
    ((0x13198a2e, 0x03707344), (0x243f6a88, 0x85a308d3), (0xc4923a9c, 0x483df7a0)),
]


@pytest.mark.parametrize("key,ctr,want", KNOWN_ANSWERS)
def test_threefry_known_answers(key, ctr, want):
    args = [np.uint32(v) for v in (*key, *ctr)]
    assert tuple(int(y) for y in threefry2x32(*args)) == want
    jitted = xnp.jit(lambda *a: threefry2x32(*a))(*args)
    assert tuple(int(y) for y in jitted) == want


def test_threefry_eager_and_expansion_agree_bitwise():
    rng = np.random.default_rng(0)
    k0, k1 = (np.uint32(v) for v in rng.integers(0, 2 ** 32, 2))
    x0, x1 = (rng.integers(0, 2 ** 32, 40_000).astype(np.uint32) for _ in range(2))
    eager = threefry2x32_p.impl(k0, k1, x0, x1)
    expanded = threefry2x32_p.expand(k0, k1, x0, x1)
    jitted = xnp.jit(lambda *a: threefry2x32(*a))(k0, k1, x0, x1)
    for e, x, j in zip(eager, expanded, jitted):
        np.testing.assert_array_equal(e, x)
        np.testing.assert_array_equal(e, _np(j))
    batched = threefry2x32_p.impl(x0[:5], x1[:5], x0[:5], x1[5:10])   # a batch of keys
    for i in range(5):
        one = threefry2x32_p.impl(x0[i], x1[i], x0[i], x1[5 + i])
        assert [int(b[i]) for b in batched] == [int(o) for o in one]


def test_threefry_requires_uint32():
    with pytest.raises(TypeError, match="threefry2x32 requires uint32"):
        threefry2x32(np.int32(0), np.uint32(0), np.uint32(0), np.uint32(0))


# --- keys: known answers (jax 0.10.2, x64) -------------------------------------------------------
@pytest.mark.parametrize("seed,want", [
    (0, [0, 0]), (1, [0, 1]), (-1, [4294967295, 4294967295]), (42, [0, 42]),
    (2 ** 32 + 5, [1, 5]), (-2 ** 40, [4294967040, 0]), (2 ** 63 - 1, [2147483647, 4294967295]),
    (-2 ** 63, [2147483648, 0]),
])
def test_prngkey_seeds(seed, want):
    k = xr.PRNGKey(seed)
    assert k.dtype == np.uint32 and k.shape == (2,)
    assert _np(k).tolist() == want
    assert _np(xr.key(seed)).tolist() == want
    assert _np(xnp.jit(xr.PRNGKey)(np.int64(seed))).tolist() == want


def test_prngkey_array_seeds_and_errors():
    # jax 0.10.2: PRNGKey(jnp.int32(-1)) == [0, 4294967295]; uint64 max -> both words set
    assert _np(xr.PRNGKey(np.int32(-1))).tolist() == [0, 4294967295]
    assert _np(xr.PRNGKey(xnp.asarray(np.uint64(2 ** 64 - 1)))).tolist() == [4294967295] * 2
    with pytest.raises(OverflowError):
        xr.PRNGKey(2 ** 63)
    with pytest.raises(TypeError, match="scalar seed"):
        xr.PRNGKey(xnp.arange(2))
    with pytest.raises(TypeError, match="integer"):
        xr.PRNGKey(1.5)


# Values below are jax 0.10.2's outputs (jax_enable_x64=True) for key PRNGKey(42).
JAX_42 = {
    "split3": [[1832780943, 270669613], [64467757, 2916123636], [2465931498, 255383827]],
    "fold7": [2547012911, 1371500959],
    "bits64": [7871734211187709741, 276886910877598708, 10591095138341673235],
    "bits32": [2098992034, 2919706841, 2646866425],
    "uniform64": ["0x1.b4f8123c40884p-2", "0x1.ebd996d6e8400p-7", "0x1.25f641d41e71ap-1",
                  "0x1.75aad28c6a974p-1"],
    "uniform32_bits": [1056585764, 1059981104, 1058915320, 1057988288],
    "normal64": [-0.18471174528191162, -2.169824560397754, 0.18693555179382582,
                 0.6122653570510959],
    "randint": [-5, 8, -7, 1, -5, -4],
    "permutation8": [7, 4, 2, 5, 3, 6, 0, 1],
    "choice_noreplace": [7, 4, 2, 5],
    "bernoulli": [1, 1, 0, 0, 0, 0, 0, 0],
    "categorical": [3, 1, 3, 4, 3, 0],
}


def test_known_answers_from_jax():
    k = xr.PRNGKey(42)
    assert _np(xr.split(k, 3)).tolist() == JAX_42["split3"]
    assert _np(xr.fold_in(k, 7)).tolist() == JAX_42["fold7"]
    assert _np(xr.bits(k, (3,))).tolist() == JAX_42["bits64"]
    assert _np(xr.bits(k, (3,), np.uint32)).tolist() == JAX_42["bits32"]
    assert [float(v).hex() for v in _np(xr.uniform(k, (4,)))] == JAX_42["uniform64"]
    u32 = _np(xr.uniform(k, (4,), np.float32))
    assert u32.view(np.uint32).tolist() == JAX_42["uniform32_bits"]
    np.testing.assert_allclose(_np(xr.normal(k, (4,))), JAX_42["normal64"], rtol=1e-14)
    assert _np(xr.randint(k, (6,), -10, 10)).tolist() == JAX_42["randint"]
    assert _np(xr.permutation(k, 8)).tolist() == JAX_42["permutation8"]
    assert _np(xr.choice(k, 10, (4,), replace=False)).tolist() == JAX_42["choice_noreplace"]
    assert _np(xr.bernoulli(k, 0.5, (8,))).astype(int).tolist() == JAX_42["bernoulli"]
    assert _np(xr.categorical(k, xnp.zeros(5), shape=(6,))).tolist() == JAX_42["categorical"]


def test_split_fold_in_and_shapes():
    k = xr.PRNGKey(0)
    assert xr.split(k).shape == (2, 2) and xr.split(k, (2, 3)).shape == (2, 3, 2)
    assert xr.split(k, 5).dtype == np.uint32
    keys = _np(xr.split(k, 6))
    for i in range(6):                      # fold_in(key, i) == split(key, n)[i]
        assert _np(xr.fold_in(k, i)).tolist() == keys[i].tolist()
    assert _np(xr.split(k, (2, 3))).reshape(6, 2).tolist() == keys.tolist()
    assert _np(xr.fold_in(k, xnp.asarray(np.uint32(3)))).tolist() == keys[3].tolist()
    assert len({tuple(r) for r in keys}) == 6
    assert _np(xr.key_data(xr.split(k, 3))).shape == (3, 2)
    assert _np(xr.wrap_key_data(keys)).tolist() == keys.tolist()
    with pytest.raises(OverflowError):
        xr.fold_in(k, -1)


def test_determinism_and_independent_streams():
    k = xr.PRNGKey(123)
    np.testing.assert_array_equal(_np(xr.uniform(k, (100,))), _np(xr.uniform(k, (100,))))
    k1, k2 = xr.split(k)
    a, b = _np(xr.normal(k1, (2000,))), _np(xr.normal(k2, (2000,)))
    assert not np.array_equal(a, b)
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.1


# --- samplers: values, shapes, dtypes ---------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_uniform_range_shape_dtype(dtype):
    k = xr.PRNGKey(1)
    u = xr.uniform(k, (3, 500), dtype)
    assert u.shape == (3, 500) and u.dtype == dtype
    assert (_np(u) >= 0).all() and (_np(u) < 1).all()
    v = _np(xr.uniform(k, (4, 250), minval=xnp.array([-3.0, 0.0, 1.0, 2.0])[:, None],
                       maxval=5.0))
    lo = np.array([-3.0, 0.0, 1.0, 2.0])[:, None]
    assert (v >= lo).all() and (v < 5.0).all()
    assert xr.uniform(k).shape == () and xr.uniform(k).dtype == np.float64


def test_normal_moments_and_complex():
    x = _np(xr.normal(xr.PRNGKey(5), (200_000,)))
    assert x.dtype == np.float64
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    assert abs(np.mean(x ** 3)) < 0.04 and abs(np.mean(x ** 4) - 3) < 0.1
    z = _np(xr.normal(xr.PRNGKey(5), (50_000,), np.complex64))
    assert z.dtype == np.complex64
    assert abs(z.real.var() - 0.5) < 0.02 and abs(z.imag.var() - 0.5) < 0.02
    assert xr.normal(xr.PRNGKey(5), (3,), np.float32).dtype == np.float32


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint8, np.uint64])
def test_randint_bounds(dtype):
    r = _np(xr.randint(xr.PRNGKey(2), (2000,), 3, 20, dtype))
    assert r.dtype == dtype and r.min() == 3 and r.max() == 19
    full = _np(xr.randint(xr.PRNGKey(2), (2000,), 0, 256, np.uint8))
    assert full.max() > 250 and full.min() < 5
    assert (_np(xr.randint(xr.PRNGKey(2), (5,), 4, 4)) == 4).all()   # empty range: minval


def test_discrete_samplers():
    k = xr.PRNGKey(9)
    b = _np(xr.bernoulli(k, 0.3, (20_000,)))
    assert b.dtype == bool and abs(b.mean() - 0.3) < 0.02
    r = _np(xr.rademacher(k, (1000,)))
    assert r.dtype == np.int64 and set(np.unique(r)) == {-1, 1}
    c = _np(xr.choice(k, 50, (30,), replace=False))
    assert len(set(c.tolist())) == 30 and c.min() >= 0 and c.max() < 50
    c = _np(xr.choice(k, xnp.arange(40.0).reshape(4, 10), (3,), replace=False, axis=1))
    assert c.shape == (4, 3) and len(set(c[0].tolist())) == 3
    cp = _np(xr.choice(k, 3, (20_000,), p=xnp.array([0.2, 0.0, 0.8])))
    assert 1 not in cp and abs((cp == 2).mean() - 0.8) < 0.02
    p = _np(xr.permutation(k, 100))
    assert sorted(p.tolist()) == list(range(100))
    x = np.arange(24).reshape(4, 6)
    px = _np(xr.permutation(k, xnp.asarray(x), axis=1))
    assert sorted(px[0].tolist()) == list(range(6)) and (px == x[:, px[0]]).all()
    pi = _np(xr.permutation(k, xnp.asarray(x), axis=1, independent=True))
    assert all(sorted(row) == sorted(orig) for row, orig in zip(pi.tolist(), x.tolist()))
    logits = xnp.log(xnp.array([0.1, 0.6, 0.3]))
    cat = _np(xr.categorical(k, logits, shape=(20_000,)))
    assert cat.dtype == np.int64 and abs((cat == 1).mean() - 0.6) < 0.02
    nr = _np(xr.categorical(k, xnp.zeros((2, 5)), shape=(5, 2), replace=False))
    assert nr.shape == (5, 2) and all(sorted(nr[:, j].tolist()) == list(range(5))
                                      for j in range(2))


def test_continuous_samplers_moments():
    k = xr.PRNGKey(11)
    n = 100_000
    e = _np(xr.exponential(k, (n,)))
    assert e.min() >= 0 and abs(e.mean() - 1) < 0.02
    g = _np(xr.gumbel(k, (n,)))
    assert abs(g.mean() - 0.5772156649) < 0.02
    g2 = _np(xr.gumbel(k, (n,), mode="high"))
    assert abs(g2.mean() - 0.5772156649) < 0.02
    lp = _np(xr.laplace(k, (n,)))
    assert abs(lp.mean()) < 0.02 and abs(lp.var() - 2) < 0.05
    lg = _np(xr.logistic(k, (n,)))
    assert abs(lg.mean()) < 0.03 and abs(lg.var() - math.pi ** 2 / 3) < 0.1
    t = _np(xr.truncated_normal(k, -1.0, 2.0, (n,)))
    assert t.min() > -1 and t.max() < 2 and abs(t.mean() - 0.2290) < 0.01
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    for method in ("cholesky", "eigh", "svd"):
        m = _np(xr.multivariate_normal(k, xnp.array([1.0, -2.0]), xnp.asarray(cov), (n,),
                                       method=method))
        assert m.shape == (n, 2)
        np.testing.assert_allclose(m.mean(0), [1.0, -2.0], atol=0.02)
        np.testing.assert_allclose(np.cov(m.T), cov, atol=0.03)


# --- transformations ---------------------------------------------------------------------------
SAMPLERS = {
    "split": lambda k: xr.split(k, 3),
    "fold_in": lambda k: xr.fold_in(k, 5),
    "bits": lambda k: xr.bits(k, (4,)),
    "uniform": lambda k: xr.uniform(k, (4,)),
    "uniform32": lambda k: xr.uniform(k, (4,), np.float32),
    "randint": lambda k: xr.randint(k, (4,), -5, 100),
    "randint8": lambda k: xr.randint(k, (4,), 0, 100, np.int8),
    "bernoulli": lambda k: xr.bernoulli(k, 0.4, (6,)),
    "rademacher": lambda k: xr.rademacher(k, (4,)),
    "permutation": lambda k: xr.permutation(k, 9),
    "permutation_axis": lambda k: xr.permutation(k, xnp.arange(12.0).reshape(3, 4), axis=1),
    "choice": lambda k: xr.choice(k, 10, (3,), replace=False),
    "choice_p": lambda k: xr.choice(k, 4, (5,), p=xnp.array([0.1, 0.2, 0.3, 0.4])),
    "categorical": lambda k: xr.categorical(k, xnp.zeros((2, 5))),
    "gumbel": lambda k: xr.gumbel(k, (4,)),
    "normal": lambda k: xr.normal(k, (4,)),
    "exponential": lambda k: xr.exponential(k, (4,)),
    "truncated_normal": lambda k: xr.truncated_normal(k, -1.0, 1.0, (4,)),
    "multivariate_normal": lambda k: xr.multivariate_normal(k, xnp.zeros(2), xnp.eye(2)),
}
# Eagerly these go through NumPy's log/log1p and xnp's erf_inv; under jit through XLA's.
TRANSCENDENTAL = {"normal", "exponential", "truncated_normal", "multivariate_normal"}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_jit_and_vmap_match_eager(name):
    f = SAMPLERS[name]
    k = xr.PRNGKey(3)
    eager, jitted = _np(f(k)), _np(xnp.jit(f)(k))
    assert eager.dtype == jitted.dtype and eager.shape == jitted.shape
    if name in TRANSCENDENTAL:
        np.testing.assert_allclose(jitted, eager, rtol=1e-14, atol=1e-15)
    else:
        np.testing.assert_array_equal(jitted, eager)
    keys = xr.split(k, 3)
    batched = _np(xnp.vmap(f)(keys))
    np.testing.assert_array_equal(batched, np.stack([_np(f(kk)) for kk in keys]))


def test_grad_of_uniform_bounds():
    k = xr.PRNGKey(4)
    u = _np(xr.uniform(k, (100,)))
    loss = lambda a, b: xnp.sum(xr.uniform(k, (100,), minval=a, maxval=b))
    ga, gb = xnp.grad(loss, argnums=(0, 1))(1.0, 3.0)
    np.testing.assert_allclose([float(ga), float(gb)], [100 - u.sum(), u.sum()], rtol=1e-12)
    eps = 1e-6
    fd = (float(loss(1.0, 3.0 + eps)) - float(loss(1.0, 3.0 - eps))) / (2 * eps)
    assert abs(fd - float(gb)) < 1e-5
    gm = xnp.grad(lambda m: xnp.sum(xr.multivariate_normal(k, m, xnp.eye(2), (5,))))(
        xnp.zeros(2))
    np.testing.assert_allclose(_np(gm), [5.0, 5.0])


def test_keys_in_control_flow():
    k = xr.PRNGKey(8)
    body = lambda i, acc: acc + xr.uniform(xr.fold_in(k, i))
    got = float(xnp.lax.fori_loop(0, 4, body, 0.0))
    want = sum(float(xr.uniform(xr.fold_in(k, i))) for i in range(4))
    assert got == pytest.approx(want, rel=1e-15)

    def step(key, _):
        key, sub = xr.split(key)
        return key, xr.normal(sub, (2,))
    _, draws = xnp.lax.scan(step, k, None, length=3)
    key, want = k, []
    for _ in range(3):
        key, sub = xr.split(key)
        want.append(_np(xr.normal(sub, (2,))))
    np.testing.assert_allclose(_np(draws), np.stack(want), rtol=1e-14)


# --- errors ---------------------------------------------------------------------------------
def test_errors():
    k = xr.PRNGKey(0)
    with pytest.raises(TypeError, match=r"split.*shape \(3,\) and dtype float64"):
        xr.split(xnp.zeros(3))
    with pytest.raises(TypeError, match=r"bernoulli.*dtype int64"):
        xr.bernoulli(xnp.array([1, 2]), 0.5)
    with pytest.raises(TypeError, match=r"fold_in.*shape \(3, 2\) and dtype uint8"):
        xr.fold_in(xnp.zeros((3, 2), np.uint8), 1)
    with pytest.raises(ValueError, match="single key"):
        xr.split(xr.split(k, 2))
    with pytest.raises(ValueError, match="nonnegative"):
        xr.uniform(k, (-1,))
    with pytest.raises(TypeError, match="shape"):
        xr.normal(k, ("a",))
    with pytest.raises(ValueError, match="broadcast"):
        xr.randint(k, (2,), xnp.zeros(3, int), 5)
    with pytest.raises(ValueError, match="float dtype"):
        xr.uniform(k, (2,), np.int32)
    with pytest.raises(TypeError, match="integer dtypes"):
        xr.randint(k, (2,), 0, 5, np.float64)
    with pytest.raises(ValueError, match="larger sample"):
        xr.choice(k, 3, (5,), replace=False)
    with pytest.raises(ValueError, match="unsigned"):
        xr.bits(k, (2,), np.int32)


# --- dispatch between the key API and NumPy's legacy API --------------------------------
def test_shared_names_dispatch():
    k = xr.PRNGKey(0)
    np.testing.assert_array_equal(_np(xr.normal(k, (3,))), _np(xr.normal(key=k, shape=(3,))))
    assert xr.normal(k, (3,)).dtype == np.float64
    np.random.seed(17)
    want = np.random.normal(0.0, 1.0, 3)
    xr.seed(17)
    np.testing.assert_array_equal(_np(xr.normal(0.0, 1.0, 3)), want)
    np.random.seed(17)
    want = np.random.permutation(6)
    xr.seed(17)
    np.testing.assert_array_equal(_np(xr.permutation(6)), want)
    assert sorted(_np(xr.permutation(k, 6)).tolist()) == list(range(6))
    for name in ("uniform", "randint", "choice", "exponential", "gumbel", "laplace",
                 "logistic", "multivariate_normal"):
        assert callable(getattr(xr, name)) and name in dir(xr)


# --- JAX itself, where installed ------------------------------------------------------------
@pytest.fixture(scope="module")
def jr():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax.random


@pytest.mark.parametrize("seed", [0, 7, -3, 2 ** 40 + 1])
def test_bitwise_equal_to_jax(jr, seed):
    jk, xk = jr.PRNGKey(seed), xr.PRNGKey(seed)
    x = np.arange(24.0).reshape(4, 6)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    cases = [
        (lambda m, k: m.split(k, (2, 3))), (lambda m, k: m.fold_in(k, 99)),
        (lambda m, k: m.bits(k, (5,))), (lambda m, k: m.bits(k, (5,), np.uint16)),
        (lambda m, k: m.uniform(k, (3, 4))), (lambda m, k: m.uniform(k, (7,), np.float32)),
        (lambda m, k: m.uniform(k, (5,), np.float16)),
        (lambda m, k: m.randint(k, (9,), -50, 50)),
        (lambda m, k: m.randint(k, (9,), 0, 256, np.uint8)),
        (lambda m, k: m.randint(k, (9,), -2 ** 63, 2 ** 63 - 1)),
        (lambda m, k: m.randint(k, (3, 2), np.array([[-5], [0], [10 ** 12]]), 10 ** 13)),
        (lambda m, k: m.bernoulli(k, 0.3, (10,))),
        (lambda m, k: m.bernoulli(k, np.linspace(0, 1, 7), mode="high")),
        (lambda m, k: m.rademacher(k, (8,))),
        (lambda m, k: m.permutation(k, 12)), (lambda m, k: m.permutation(k, 2000)),
        (lambda m, k: m.permutation(k, x, axis=1)),
        (lambda m, k: m.permutation(k, x, axis=1, independent=True)),
        (lambda m, k: m.choice(k, 10, (5,))), (lambda m, k: m.choice(k, x, (2,), axis=1)),
        (lambda m, k: m.choice(k, x, (3,), replace=False, axis=1)),
        (lambda m, k: m.choice(k, 4, (8,), p=p)),
        (lambda m, k: m.choice(k, 4, (3,), replace=False, p=p)),
        (lambda m, k: m.categorical(k, np.log(p), shape=(6,))),
        (lambda m, k: m.categorical(k, np.log(x + 1), axis=0, shape=(2, 6))),
        (lambda m, k: m.categorical(k, np.log(x + 1), shape=(3, 4), replace=False)),
    ]
    for i, f in enumerate(cases):
        want, got = np.asarray(f(jr, jk)), _np(f(xr, xk))
        assert got.dtype == want.dtype and got.shape == want.shape, i
        np.testing.assert_array_equal(got, want, err_msg=f"case {i}")


@pytest.mark.parametrize("seed", [0, 11])
def test_close_to_jax(jr, seed):
    """Transcendental samplers: NumPy's log/erf_inv eagerly (a few ulps from XLA's);
    under xnp.jit, XLA's, bit for bit JAX's (except float32 erf_inv)."""
    jk, xk = jr.PRNGKey(seed), xr.PRNGKey(seed)
    cov = np.array([[2.0, 0.3], [0.3, 1.0]])
    cases = {
        "normal": (lambda m, k: m.normal(k, (50,)), 1e-13),
        "normal32": (lambda m, k: m.normal(k, (50,), np.float32), 1e-5),
        "normal_c128": (lambda m, k: m.normal(k, (5,), np.complex128), 1e-13),
        "exponential": (lambda m, k: m.exponential(k, (50,)), 1e-13),
        "gumbel": (lambda m, k: m.gumbel(k, (50,), np.float32), 1e-5),
        "gumbel_high": (lambda m, k: m.gumbel(k, (50,), mode="high"), 1e-13),
        "laplace": (lambda m, k: m.laplace(k, (50,)), 1e-13),
        "logistic": (lambda m, k: m.logistic(k, (50,)), 1e-13),
        "truncated_normal": (lambda m, k: m.truncated_normal(k, -1.0, np.array([0.5, 2.0]),
                                                             (3, 2)), 1e-13),
        "mvn": (lambda m, k: m.multivariate_normal(k, np.array([1.0, -1.0]), cov, (4,)),
                1e-13),
        "uniform_bounds": (lambda m, k: m.uniform(k, (3, 4), minval=np.arange(4.0),
                                                  maxval=10.0), 1e-15),
    }
    for name, (f, rtol) in cases.items():
        want, got = np.asarray(f(jr, jk)), _np(f(xr, xk))
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=name)
        if name in ("normal", "exponential", "laplace", "logistic", "gumbel"):
            np.testing.assert_array_equal(_np(xnp.jit(lambda k: f(xr, k))(xk)), want,
                                          err_msg=name)
