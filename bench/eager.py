"""Eager overhead of xnp against NumPy, measured side by side in one run.

    python bench/eager.py

Prints the time of a 10-op elementwise chain on 8 and on 1,000,000 float64 elements, xnp
over NumPy (and autograd, torch, jax where installed), and `import xnp` over
`import numpy` in fresh processes.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

import numpy
from _timing import interleaved


def chain(np, x):
    y = np.sin(x)
    y = y * 2.0
    y = y + x
    y = np.exp(y)
    y = y - 1.0
    y = np.tanh(y)
    y = y * x
    y = np.abs(y)
    y = np.sqrt(y)
    return y / 3.0


def contenders(n):
    import xnp
    data = numpy.random.default_rng(0).uniform(0.1, 1.0, n)
    fns = {"numpy": (lambda x=data: chain(numpy, x)),
           "xnp": (lambda x=xnp.asarray(data): chain(xnp, x))}
    try:
        import autograd.numpy as anp
        fns["autograd"] = lambda x=data: chain(anp, x)
    except ImportError:
        pass
    try:
        import torch
        t = torch.from_numpy(data)
        fns["torch"] = lambda x=t: chain(torch, x)
    except ImportError:
        pass
    return fns


def import_time(module: str, runs: int = 7) -> float:
    """Median wall time of `import module` in fresh processes, after a warm-up import
    that writes the bytecode caches (as an installed package has them)."""
    code = f"import time; t=time.perf_counter(); import {module}; print(time.perf_counter()-t)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    samples = []
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env)
        samples.append(float(out.stdout))
    return statistics.median(samples)


def main():
    for n, number in ((8, 2000), (1_000_000, 5)):
        times = interleaved(contenders(n), number)
        base = times["numpy"]
        print(f"10-op elementwise chain, {n} float64 elements:")
        for k, t in times.items():
            print(f"  {k:9s} {t * 1e6:10.1f} us   {t / base:5.2f}x NumPy")
    t_np, t_x = import_time("numpy"), import_time("xnp")
    print(f"import: numpy {t_np * 1e3:.1f} ms, xnp {t_x * 1e3:.1f} ms, "
          f"ratio {t_x / t_np:.2f}x")


if __name__ == "__main__":
    main()
