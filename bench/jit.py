"""jit: dispatch cost, a fused elementwise chain, and an MLP training step, side by side
with NumPy (and jax.jit where jax is installed) in one run.

    python bench/jit.py

1. dispatch of a jitted ``x + y`` on two 3-element float64 arrays: per call, result read
   as a NumPy array, with NumPy inputs and with inputs that are results of an earlier
   call (already on the device); the contenders are called in turn, one call each, so
   that a busy machine slows them alike (median per call of each);
2. the 10-op elementwise chain of bench/eager.py on 1,000,000 float64 under jit (input
   already on the device), against NumPy eager (contenders timed in interleaved rounds);
3. an MLP 784-512-512-10 training step (batch 128, float32, softmax cross-entropy, SGD)
   under jit: steady-state time per step, and the first call (trace, lower, compile).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
import timeit

import numpy

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from eager import chain  # noqa: E402

import xnp  # noqa: E402

HAVE_JAX = importlib.util.find_spec("jax") is not None


def per_call_median(fn, n=20000, warm=1000) -> float:
    for _ in range(warm):
        fn()
    pc = time.perf_counter_ns
    ts = []
    for _ in range(n):
        t0 = pc()
        fn()
        ts.append(pc() - t0)
    ts.sort()
    return ts[n // 2] / 1e9


def interleaved_medians(fns: dict, n=20000, warm=1000) -> dict:
    """Median seconds per call of each function, calling them in turn (one call each)."""
    calls = list(fns.values())
    for fn in calls:
        for _ in range(warm):
            fn()
    pc = time.perf_counter_ns
    ts = [[] for _ in calls]
    for _ in range(n):
        for fn, t in zip(calls, ts):
            t0 = pc()
            fn()
            t.append(pc() - t0)
    return {k: statistics.median(t) / 1e9 for k, t in zip(fns, ts)}


def interleaved_median_times(fns: dict, number: int, rounds: int = 12) -> dict:
    """Median seconds per call of each function, timing ``number`` calls of each in turn,
    round after round, so that the machine's state (load, heap) is alike for all. The
    order rotates every round: a contender timed right after NumPy's eager chain (whose
    large temporaries leave the heap to be faulted in again) was measured about 0.5 ms
    slower on the chain, whichever it was."""
    for fn in fns.values():
        fn()
    samples = {k: [] for k in fns}
    keys = list(fns)
    for r in range(rounds):
        for k in keys[r % len(keys):] + keys[:r % len(keys)]:
            samples[k].append(timeit.timeit(fns[k], number=number) / number)
    return {k: statistics.median(v) for k, v in samples.items()}


def report(title, times, base):
    print(title)
    for k, t in times.items():
        unit, scale = ("us", 1e6) if t < 1e-3 else ("ms", 1e3)
        ratio = f"  ({t / times[base]:.2f}x {base})" if k != base and base in times else ""
        print(f"  {k:32s} {t * scale:9.2f} {unit}{ratio}")


def dispatch():
    a, b = numpy.array([1.0, 2.0, 3.0]), numpy.array([10.0, 20.0, 30.0])
    f = xnp.jit(lambda x, y: x + y)
    da, db = f(a, 0.0 * a), f(b, 0.0 * b)       # results of a jitted call: on the device
    asarray = numpy.asarray
    fns = {"xnp.jit, numpy in": lambda: asarray(f(a, b)),
           "xnp.jit, device in": lambda: asarray(f(da, db))}
    if HAVE_JAX:
        import jax
        jax.config.update("jax_enable_x64", True)
        jf = jax.jit(lambda x, y: x + y)
        ja, jb = jax.device_put(a), jax.device_put(b)
        fns["jax.jit, numpy in"] = lambda: asarray(jf(a, b))
        fns["jax.jit, device in"] = lambda: asarray(jf(ja, jb))
    floor = raw_buffer_dispatcher(f, a, b)
    fns["floor, numpy in"] = lambda: asarray(floor(a, b))
    fns["floor, device in"] = lambda: asarray(floor(da, db))
    times = interleaved_medians(fns)
    print("dispatch, x + y on 3 float64, NumPy result (median per call, interleaved):")
    for k, t in times.items():
        other = k.replace("xnp", "jax").replace("floor", "jax.jit") if k[0] in "xf" else None
        ratio = f"  ({t / times[other]:.2f}x {other})" if other in times else ""
        print(f"  {k:32s} {t * 1e6:9.2f} us{ratio}")
    print("  (floor: xnp's C++ dispatcher for the same executable, returning the raw jaxlib\n"
          "   buffer instead of an xnp array: what no Python at all per call would cost)")


def raw_buffer_dispatcher(f, *args):
    """A C++ dispatcher running the executable ``f`` compiled for ``args``, whose result
    is the raw jaxlib buffer, not an xnp array: the lower bound of xnp's dispatch (the
    one thing it leaves out is the Python callback that makes the xnp array)."""
    from transforms import runtime
    entry, _ = f._lookup(args, {})
    leaf = runtime.backend().registry.flatten(0)[1]
    data = runtime.fastpath_data(entry._exe, [], len(args), leaf)
    return runtime.make_dispatcher("floor", f.fun, lambda *a: (None, data, False))


def elementwise_chain():
    data = numpy.random.default_rng(0).uniform(0.1, 1.0, 1_000_000)
    jchain = xnp.jit(lambda x: chain(xnp, x))
    xd = xnp.jit(lambda x: x + 0.0)(data)       # on the device, as jax's input below
    numpy.testing.assert_allclose(numpy.asarray(jchain(xd)), chain(numpy, data), rtol=1e-12)
    fns = {"numpy eager": lambda: chain(numpy, data), "xnp eager": lambda: chain(xnp, xd),
           "xnp.jit": lambda: jchain(xd)}
    if HAVE_JAX:
        import jax
        import jax.numpy as jnp
        jj = jax.jit(lambda x: chain(jnp, x))
        jd = jax.device_put(data)
        fns["jax.jit"] = lambda: jj(jd).block_until_ready()
    times = interleaved_median_times(fns, 5)
    report("10-op elementwise chain, 1e6 float64:", times, "numpy eager")


def mlp():
    rng = numpy.random.default_rng(0)
    sizes = [784, 512, 512, 10]
    params = [(rng.normal(size=(m, n)).astype(numpy.float32) * numpy.float32(m ** -0.5),
               numpy.zeros(n, numpy.float32)) for m, n in zip(sizes[:-1], sizes[1:])]
    x = rng.normal(size=(128, 784)).astype(numpy.float32)
    onehot = numpy.eye(10, dtype=numpy.float32)[rng.integers(0, 10, 128)]

    def make_step(np, grad):
        def loss(params, x, onehot):
            h = x
            for w, b in params[:-1]:
                h = np.maximum(h @ w + b, 0.0)
            w, b = params[-1]
            logits = h @ w + b
            logits = logits - np.max(logits, axis=1, keepdims=True)
            logp = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
            return -np.mean(np.sum(logp * onehot, axis=1))

        def step(params, x, onehot):
            g = grad(loss)(params, x, onehot)
            return [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, g)]
        return step

    contenders = {"xnp.jit": (xnp.jit, make_step(xnp, xnp.grad))}
    if HAVE_JAX:
        import jax
        import jax.numpy as jnp
        contenders["jax.jit"] = (jax.jit, make_step(jnp, jax.grad))
    first, calls = {}, {}
    for name, (jit, step) in contenders.items():
        jstep = jit(step)
        t0 = time.perf_counter()
        p = jstep(params, x, onehot)
        _block(p)
        first[name] = time.perf_counter() - t0
        calls[name] = lambda jstep=jstep: _block(jstep(params, x, onehot))
    steady = interleaved_median_times(calls, 10)
    base = "jax.jit" if HAVE_JAX else "xnp.jit"
    report("MLP 784-512-512-10 step, batch 128, float32, steady state:", steady, base)
    report("  first call (trace + lower + compile):", first, base)


def _block(tree):
    for leaf in [v for pair in tree for v in pair]:
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()


if __name__ == "__main__":
    if not HAVE_JAX:
        print("(jax is not installed: ratios against jax.jit are not available)")
    dispatch()
    elementwise_chain()
    mlp()
