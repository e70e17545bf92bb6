"""Registry entries for the control-flow functions of ``xnp.lax`` (transforms/control_flow.py).

Each entry fixes the functions passed to cond/switch/while_loop/fori_loop/scan/map, so the
registry's generic checks (NumPy reference, derivatives, vmap against a loop, jit against
eager, jaxpr staging) run the control-flow primitives on drawn shapes and values; the
references are the plain Python loops and ``if`` statements they stand for.
"""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

import xnp
from xnp import lax

FLOATS = st.sampled_from([np.dtype(np.float32), np.dtype(np.float64)])


def _arrays(min_dims=0):
    return S.arrays(FLOATS, S.shapes(min_dims, 3, max_side=4), finite=True,
                    min_value=-3, max_value=3).map(lambda a: Sample((a,)))


def _scan(x):
    init = xnp.zeros(x.shape[1:], x.dtype)
    return lax.scan(lambda c, r: (c * 0.5 + r, xnp.sin(c) * r), init, x)[1]


def _scan_ref(x):
    c, ys = np.zeros(x.shape[1:], x.dtype), []
    for r in x:
        ys.append(np.sin(c) * r)
        c = c * x.dtype.type(0.5) + r
    return np.stack(ys) if ys else np.zeros_like(x)


def _cond(x):
    return lax.cond(xnp.sum(x) > 0, lambda v: xnp.cos(v) * v, lambda v: v * 3.0, x)


def _cond_ref(x):
    return np.cos(x) * x if np.sum(x) > 0 else x * x.dtype.type(3.0)


_BRANCHES = [lambda v: v * 2.0, lambda v: xnp.tanh(v), lambda v: v ** 2]


def _switch(x):          # an index of 3 is out of range: clamped to the last branch
    return lax.switch(xnp.sum(x > 0) % 4, _BRANCHES, x)


def _switch_ref(x):
    i = min(int(np.sum(x > 0)) % 4, 2)
    return [x * x.dtype.type(2), np.tanh(x), x ** 2][i]


def _while(x):
    return lax.while_loop(lambda c: c[1] < 3, lambda c: (xnp.sin(c[0]) + c[0], c[1] + 1),
                          (x, 0))[0]


def _while_ref(x):
    for _ in range(3):
        x = np.sin(x) + x
    return x


def _fori(x):
    return lax.fori_loop(1, 4, lambda i, v: v * 0.5 + xnp.cos(v) * i.astype(v.dtype), x)


def _fori_ref(x):
    for i in range(1, 4):
        x = x * x.dtype.type(0.5) + np.cos(x) * x.dtype.type(i)
    return x


def _map(x):
    return lax.map(lambda r: xnp.sum(xnp.sin(r) * r) + xnp.sum(r ** 2), x)


def _map_ref(x):
    if not x.shape[0]:
        return np.zeros(0, x.dtype)
    return np.stack([np.sum(np.sin(r) * r) + np.sum(r ** 2) for r in x])


ENTRIES = [
    OpInfo("lax.scan", _arrays(1), ref=_scan_ref, op=_scan, rtol=1e-5, atol=1e-6),
    OpInfo("lax.cond", _arrays(), ref=_cond_ref, op=_cond, rtol=1e-5, atol=1e-6),
    OpInfo("lax.switch", _arrays(), ref=_switch_ref, op=_switch, rtol=1e-5, atol=1e-6),
    OpInfo("lax.while_loop", _arrays(), ref=_while_ref, op=_while, rtol=1e-5, atol=1e-6),
    OpInfo("lax.fori_loop", _arrays(), ref=_fori_ref, op=_fori, rtol=1e-5, atol=1e-6),
    OpInfo("lax.map", _arrays(1), ref=_map_ref, op=_map, rtol=1e-5, atol=1e-6),
]
