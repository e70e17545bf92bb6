"""Side-by-side timing shared by the benchmarks.

The development machine is shared and noisy, so contenders are timed in interleaved
rounds (each round times every contender once) and each round keeps the best of a few
repeats: a burst of load then slows all contenders alike instead of one of them.
"""

from __future__ import annotations

import statistics
import timeit
from typing import Callable


def best_time(fn: Callable[[], object], number: int, repeat: int = 3) -> float:
    """Seconds per call: the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def interleaved(fns: dict, number: int, rounds: int = 5) -> dict:
    """Seconds per call of each contender: the median over interleaved rounds."""
    times: dict = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            times[k].append(best_time(fn, number))
    return {k: statistics.median(v) for k, v in times.items()}
