"""jit on an NVIDIA GPU (XNP_PLATFORM=cuda, with jaxlib's CUDA plugin installed).

CI has no GPU, so these run only in a session started with XNP_PLATFORM=cuda on a machine
with one, for example:

    XNP_PLATFORM=cuda python -m pytest tests/test_gpu.py tests/test_jit.py \
        tests/test_registry_jit.py

The rest of the suite then also compiles for the GPU wherever it uses jit.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms import cond, fori_loop, grad, jit, runtime, scan, vmap, while_loop

pytestmark = pytest.mark.skipif(
    runtime.platform() != "cuda",
    reason="needs XNP_PLATFORM=cuda and an NVIDIA GPU with jaxlib's CUDA plugin")


def test_the_backend_is_the_gpu():
    b = runtime.backend()
    assert b.platform == "cuda"
    assert "cuda" in str(b.device).lower() or "gpu" in str(b.device).lower()


def test_float64_stays_float64_on_the_gpu():
    x = np.array([1.0, 1e-300, 2.0 ** -60, 1e300])
    out = jit(lambda a: a * 3.0 + a)(x)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(out), x * 3.0 + x)


def test_results_are_read_only_host_copies_reused_as_inputs():
    f = jit(lambda a, b: a @ b + 1.0)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 32)), rng.standard_normal((32, 16))
    out = f(a, b)
    assert isinstance(out, xnp.ndarray)
    host = np.asarray(out)
    assert not host.flags.writeable
    np.testing.assert_allclose(host, a @ b + 1.0, rtol=1e-12)
    again = jit(lambda y: y * 2.0)(out)        # the device buffer goes back in
    np.testing.assert_allclose(np.asarray(again), 2 * (a @ b + 1.0), rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8",
                                   "bool", "complex64", "complex128", "bfloat16",
                                   "float16"])
def test_every_dtype_round_trips(dtype):
    x = (np.arange(12) % 5).astype(np.dtype(xnp.dtype(dtype))).reshape(3, 4)
    out = jit(lambda a: a.T)(x)
    assert out.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(out), x.T)


def test_reductions_sort_cumsum_and_scatter():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((50, 40))

    def f(a):
        b = xnp.sort(a, axis=0)
        c = xnp.cumsum(a, axis=1)
        d = xnp.zeros(5)
        d[xnp.array([0, 2, 2])] += a[0, :3]
        return b, c, a.sum(0), a.max(), d

    for got, want in zip(jit(f)(x), f(x)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12,
                                   atol=1e-12)


def test_control_flow_grad_and_vmap_compose_on_the_gpu():
    def loss(w, x):
        y = cond(x.sum() > 0, lambda v: xnp.tanh(v), lambda v: xnp.sin(v), x @ w)
        total, _ = scan(lambda c, r: (c + (r ** 2).sum(), None), 0.0, y)
        return fori_loop(0, 3, lambda i, t: t * 1.5 + i, total)

    rng = np.random.default_rng(2)
    w, xs = rng.standard_normal((6, 3)), rng.standard_normal((8, 4, 6))
    per_example = vmap(grad(loss), in_axes=(None, 0))
    got = jit(per_example)(w, xs)
    want = np.stack([np.asarray(grad(loss)(w, x)) for x in xs])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


def test_while_loop_runs_on_the_gpu():
    def collatz_steps(n):
        step = lambda s: (xnp.where(s[0] % 2 == 0, s[0] // 2, 3 * s[0] + 1), s[1] + 1)
        return while_loop(lambda s: s[0] != 1, step, (n, 0))[1]

    got = jit(vmap(collatz_steps))(np.array([1, 6, 7, 27]))
    np.testing.assert_array_equal(np.asarray(got), [0, 8, 16, 111])


def test_random_bits_match_the_cpu_definition():
    key = xnp.random.key(42)
    got = jit(lambda k: xnp.random.uniform(k, (1000,)))(key)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(xnp.random.uniform(key, (1000,))))


def test_mlp_training_under_jit_matches_eager():
    rng = np.random.default_rng(3)
    params = [rng.standard_normal((20, 32)) * 0.3, np.zeros(32),
              rng.standard_normal((32, 3)) * 0.3, np.zeros(3)]
    x, labels = rng.standard_normal((64, 20)), rng.integers(0, 3, 64)

    def loss(p):
        h = xnp.tanh(x @ p[0] + p[1])
        logits = h @ p[2] + p[3]
        logits = logits - logits.max(axis=1, keepdims=True)
        logp = logits - xnp.log(xnp.exp(logits).sum(axis=1, keepdims=True))
        return -logp[xnp.arange(64), labels].mean()

    def step(p):
        g = grad(loss)(p)
        return [a - 0.5 * b for a, b in zip(p, g)]

    eager, compiled = params, params
    fast = jit(step)
    for _ in range(20):
        eager, compiled = step(eager), fast(compiled)
    np.testing.assert_allclose(float(loss(compiled)), float(loss(eager)), rtol=1e-9)


def test_linalg_under_jit_says_it_needs_the_cpu():
    with pytest.raises(NotImplementedError, match="only on the CPU"):
        jit(xnp.linalg.inv)(np.eye(3))
