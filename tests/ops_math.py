"""Registry entries for the non-ufunc elementwise functions of xnp/_math.py."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample


def _one(dtypes, **kw):
    return S.arrays(st.sampled_from(dtypes), **kw).map(lambda a: Sample((a,)))


def _two(dtypes, **kw):
    return S.broadcastable_arrays(dtypes, 2, **kw).map(lambda xy: Sample(xy))


_where = S.broadcastable_arrays(S.ALL, 3).map(
    lambda t: Sample((t[0].astype(bool), t[1], t[2])))
_where_scalar = st.tuples(S.arrays(st.sampled_from(S.BOOL)), S.arrays(st.sampled_from(
    S.NUMERIC)), S.python_scalars()).map(lambda t: Sample((t[0], t[1], t[2])))


def _clip_samples():
    bound = st.one_of(st.none(), st.floats(-10, 10, width=32), st.integers(-10, 10))
    return st.tuples(S.arrays(st.sampled_from(S.INTS + S.FLOATS)), bound, bound).filter(
        lambda t: t[1] is not None or t[2] is not None).map(
        lambda t: Sample((t[0], t[1], t[2])))


def _round_samples():
    return st.tuples(S.arrays(st.sampled_from(S.INTS + S.FLOATS + S.COMPLEX),
                              max_value=1e6, min_value=-1e6),
                     st.integers(-3, 3)).map(lambda t: Sample((t[0],), {"decimals": t[1]}))


def _nan_to_num():
    opts = st.fixed_dictionaries({}, optional={"nan": st.floats(-5, 5),
                                               "posinf": st.floats(0, 1e5),
                                               "neginf": st.floats(-1e5, 0)})
    return st.tuples(S.arrays(st.sampled_from(S.NUMERIC + S.BOOL)), opts).map(
        lambda t: Sample((t[0],), t[1]))


def _isclose():
    kw = st.fixed_dictionaries({}, optional={"rtol": st.sampled_from([1e-5, 0.1, 0.0]),
                                             "atol": st.sampled_from([1e-8, 0.5, 0.0]),
                                             "equal_nan": st.booleans()})
    return st.tuples(S.broadcastable_arrays(S.REAL + S.COMPLEX, 2), kw).map(
        lambda t: Sample(t[0], t[1]))


def _equal_pairs():
    same = S.arrays(st.sampled_from(S.FLOATS), min_value=-3, max_value=3).flatmap(
        lambda a: st.tuples(st.just(a), st.sampled_from([a.copy(), a + 1, a.reshape(-1)[:1]])))
    return st.tuples(same, st.booleans()).map(
        lambda t: Sample(t[0], {"equal_nan": t[1]}))


# Entries whose results are integers or booleans: no derivative (test_registry_grads and
# test_registry_compositions leave them out).
_NO_DERIVATIVE = {"differentiable": False}

ENTRIES = [
    OpInfo("where", st.one_of(_where, _where_scalar)),
    OpInfo("clip", _clip_samples()),
    OpInfo("nan_to_num", _nan_to_num()),
    OpInfo("sinc", _one(S.REAL + S.COMPLEX), rtol=1e-12),
    # Piecewise constant with jumps every 10**-decimals: finite differences land on jumps,
    # so the (zero) derivative is checked in test_autodiff.py instead.
    OpInfo("round", _round_samples(), rtol=1e-12, differentiable=False),
    OpInfo("around", _round_samples(), rtol=1e-12, differentiable=False),
    OpInfo("fix", _one(S.REAL)),
    OpInfo("real", _one(S.ALL)),
    OpInfo("imag", _one(S.ALL)),
    OpInfo("angle", _one(S.REAL + S.COMPLEX)),
    # predicates (and below ndim, shape, size): nothing to differentiate
    OpInfo("isclose", _isclose(), **_NO_DERIVATIVE),
    OpInfo("allclose", _isclose(), **_NO_DERIVATIVE),
    OpInfo("array_equal", _equal_pairs(), **_NO_DERIVATIVE),
    OpInfo("array_equiv", _two(S.REAL, min_value=-2, max_value=2), **_NO_DERIVATIVE),
    OpInfo("isreal", _one(S.NUMERIC), **_NO_DERIVATIVE),
    OpInfo("iscomplex", _one(S.NUMERIC), **_NO_DERIVATIVE),
    OpInfo("isrealobj", _one(S.NUMERIC), **_NO_DERIVATIVE),
    OpInfo("iscomplexobj", _one(S.NUMERIC), **_NO_DERIVATIVE),
    OpInfo("isposinf", _one(S.REAL + S.COMPLEX), **_NO_DERIVATIVE),
    OpInfo("isneginf", _one(S.REAL + S.COMPLEX), **_NO_DERIVATIVE),
    OpInfo("i0", _one([np.dtype(np.float64)] + S.INTS, min_value=-50, max_value=50), rtol=1e-12,
           check_dtype=False),
    OpInfo("ndim", _one(S.ALL), **_NO_DERIVATIVE),
    OpInfo("shape", _one(S.ALL), **_NO_DERIVATIVE),
    OpInfo("size", _one(S.ALL), **_NO_DERIVATIVE),
    OpInfo("isscalar", st.sampled_from([Sample((1.0,)), Sample((np.ones(2),)),
                                        Sample(("a",))]), **_NO_DERIVATIVE),
    OpInfo("clip", id="clip-errors", errors=[Sample((np.ones((2, 3)), np.ones(4), 5.0))]),
    OpInfo("where", id="where-errors", errors=[Sample((np.ones(3, bool), np.ones(4), 0.0))]),
]
