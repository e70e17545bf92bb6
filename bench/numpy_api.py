"""Eager cost of common NumPy calls: xnp against NumPy on the same inputs, side by side.

    python bench/numpy_api.py [--size N]

Each row times one call with ``np`` bound to NumPy and to xnp (interleaved rounds, see
``_timing.py``) on small (10 or 10x10) inputs, where per-call overhead dominates, and on
larger ones (``--size``, default 10,000 elements), where the work does. It prints the
ratio per call, worst first, so that a function that silently became slow (a Python loop,
a decomposition where NumPy makes one LAPACK call) stands out.
"""

from __future__ import annotations

import argparse
import sys
import warnings

import numpy

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import interleaved  # noqa: E402

import xnp  # noqa: E402


def calls(n: int) -> dict:
    """name -> function of the module (numpy or xnp) making the call on fixed inputs."""
    rng = numpy.random.default_rng(0)
    side = max(int(n ** 0.5), 2)
    a, b = rng.normal(size=n), rng.normal(size=n)
    m, m2 = rng.normal(size=(side, side)), rng.normal(size=(side, side))
    ints = rng.integers(0, 100, n)
    idx = rng.integers(0, n, max(n // 2, 1))
    small = min(side, 64)
    sq = rng.normal(size=(small, small)) + small * numpy.eye(small)
    spd = sq @ sq.T
    sorted_b = numpy.sort(b)
    as_list = a.tolist()
    return {
        "array(list)": lambda np: np.array(as_list),
        "a + b": lambda np: np.add(a, b),
        "exp": lambda np: np.exp(a),
        "sum": lambda np: np.sum(a),
        "mean/std": lambda np: np.std(a),
        "max(axis=0)": lambda np: np.max(m, axis=0),
        "argmax": lambda np: np.argmax(a),
        "cumsum": lambda np: np.cumsum(a),
        "where": lambda np: np.where(a > 0, a, b),
        "clip": lambda np: np.clip(a, -1, 1),
        "sort": lambda np: np.sort(a),
        "argsort": lambda np: np.argsort(a),
        "unique": lambda np: np.unique(ints),
        "x[idx]": lambda np: np.asarray(a)[idx],
        "x[mask]": lambda np: np.asarray(a)[a > 0],
        "x[i]": lambda np: np.asarray(a)[3],
        "nonzero": lambda np: np.nonzero(a > 0),
        "concatenate": lambda np: np.concatenate([a, b]),
        "stack": lambda np: np.stack([a, b]),
        "reshape/T": lambda np: np.reshape(m, (-1, side)).T,
        "arange": lambda np: np.arange(n),
        "linspace": lambda np: np.linspace(0, 1, n),
        "median": lambda np: np.median(a),
        "percentile": lambda np: np.percentile(a, 90),
        "histogram": lambda np: np.histogram(a, 10),
        "bincount": lambda np: np.bincount(ints),
        "searchsorted": lambda np: np.searchsorted(sorted_b, a),
        "interp": lambda np: np.interp(a, sorted_b, b),
        "convolve(5 taps)": lambda np: np.convolve(a, b[:5]),
        "polyfit(deg 2)": lambda np: np.polyfit(a, b, 2),
        "dot/matmul": lambda np: np.dot(m, m2),
        "einsum ij,jk": lambda np: np.einsum("ij,jk->ik", m, m2),
        "linalg.solve": lambda np: np.linalg.solve(sq, sq[0]),
        "linalg.inv": lambda np: np.linalg.inv(sq),
        "linalg.det": lambda np: np.linalg.det(sq),
        "linalg.cholesky": lambda np: np.linalg.cholesky(spd),
        "linalg.eigh": lambda np: np.linalg.eigh(spd),
        "linalg.svd": lambda np: np.linalg.svd(sq),
        "linalg.lstsq": lambda np: np.linalg.lstsq(sq, sq[0]),
        "linalg.norm": lambda np: np.linalg.norm(m),
        "fft.fft": lambda np: np.fft.fft(a),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    rows = []
    for n in (10, args.size):
        for name, call in calls(n).items():
            number = 200 if n <= 100 else 10
            t = interleaved({"numpy": lambda: call(numpy), "xnp": lambda: call(xnp)},
                            number, rounds=3)
            rows.append((t["xnp"] / t["numpy"], name, n, t["numpy"], t["xnp"]))
    print(f"{'call':18s} {'n':>7s} {'numpy':>10s} {'xnp':>10s} {'ratio':>7s}")
    for ratio, name, n, tn, tx in sorted(rows, reverse=True):
        print(f"{name:18s} {n:7d} {tn * 1e6:8.1f}us {tx * 1e6:8.1f}us {ratio:6.1f}x")


if __name__ == "__main__":
    main()
