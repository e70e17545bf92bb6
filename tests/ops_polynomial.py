"""Registry entries for the legacy polynomial functions and the small functional helpers
(apply_along_axis, row_stack, real_if_close)."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

_F = [np.float64, np.int64]


def _coeffs(dtypes=_F, min_size=1):
    return st.sampled_from(dtypes).flatmap(lambda d: S.arrays(
        d, st.integers(min_size, 5).map(lambda n: (n,)), finite=True, min_value=-3,
        max_value=3))


def _vector(dtypes=_F):
    return st.sampled_from(dtypes).flatmap(lambda d: S.arrays(
        d, S.shapes(1, 1, min_side=1, max_side=6), finite=True, min_value=-2, max_value=2))


def _fit_samples():
    return st.integers(0, 3).flatmap(lambda deg: st.integers(deg + 2, 8).flatmap(
        lambda n: S.arrays(np.float64, (n,), finite=True, min_value=-2, max_value=2).map(
            lambda y: Sample((np.linspace(-1, 1, n), y, deg)))))


ENTRIES = [
    OpInfo("polyval", st.tuples(_coeffs(), _vector()).map(lambda t: Sample(t)),
           rtol=1e-12),
    OpInfo("vander", _vector().flatmap(lambda x: st.tuples(
        st.sampled_from([None, 0, 1, 3]), st.booleans()).map(
        lambda t: Sample((x,), {"N": t[0], "increasing": t[1]})))),
    OpInfo("polyder", st.tuples(_coeffs(), st.integers(0, 3)).map(lambda t: Sample(t))),
    OpInfo("polyint", st.tuples(_coeffs(), st.integers(0, 2)).map(lambda t: Sample(t)),
           rtol=1e-12),
    OpInfo("polyadd", st.tuples(_coeffs(), _coeffs()).map(lambda t: Sample(t))),
    OpInfo("polysub", st.tuples(_coeffs(), _coeffs()).map(lambda t: Sample(t))),
    OpInfo("polymul", st.tuples(_coeffs(), _coeffs()).map(lambda t: Sample(t)),
           traceable=False),          # strips leading zeros: a value-dependent length
    OpInfo("polyfit", _fit_samples(), rtol=1e-6, atol=1e-8, jittable=False),
    OpInfo("poly", _coeffs([np.float64]).map(lambda z: Sample((z,))), rtol=1e-10,
           atol=1e-12),
    # roots strips zero coefficients (value-dependent shape) and is always complex here.
    OpInfo("roots", _coeffs([np.float64], min_size=2).map(lambda p: Sample((p,))),
           ref=lambda p: np.sort_complex(np.roots(p).astype(complex)),
           op=lambda p: __import__("xnp").sort_complex(__import__("xnp").roots(p)),
           rtol=1e-6, atol=1e-6, traceable=False, differentiable=False),
    OpInfo("apply_along_axis", S.arrays(np.float64, S.shapes(1, 3, min_side=1), finite=True)
           .flatmap(lambda a: st.integers(0, a.ndim - 1).map(
               lambda ax: Sample((lambda v: v * v.sum(), ax, a))))),
    OpInfo("real_if_close", S.arrays(np.complex128, S.shapes(0, 2), finite=True).map(
        lambda a: Sample((a + 0 * a.real if a.size % 2 else a.real + 0j,))),
        traceable=False, differentiable=False),     # complex in: the dtype is decided
    OpInfo("real_if_close", S.arrays(np.float64, S.shapes(0, 2), finite=True).map(
        lambda a: Sample((a,))), id="real_if_close-real"),
]


def _vec_op(f, **kw):
    """xnp.vectorize / numpy.vectorize of one Python function, as registry op and ref."""
    import xnp
    return (lambda *a: xnp.vectorize(f, **kw)(*a)), (lambda *a: np.vectorize(f, **kw)(*a))


def _mul_add(a, b):
    return a * b + a * a


def _matvec(m, v):
    return m @ v


_VEC_OP, _VEC_REF = _vec_op(_mul_add)
_VEC32_OP, _VEC32_REF = _vec_op(_mul_add, otypes=[np.float32])
_GUF_OP, _GUF_REF = _vec_op(_matvec, signature="(m,n),(n)->(m)")

ENTRIES += [
    # pyfunc runs once per element on 0-d arrays; arguments broadcast.
    OpInfo("vectorize", S.arrays(np.float64, S.shapes(0, 3, min_side=1), finite=True,
                                 min_value=-3, max_value=3).flatmap(
        lambda a: S.arrays(np.float64, a.shape[1:], finite=True, min_value=-3,
                           max_value=3).map(lambda b: Sample((a, b)))),
        op=_VEC_OP, ref=_VEC_REF, rtol=1e-12),
    OpInfo("vectorize", S.arrays(np.float64, S.shapes(1, 2, min_side=1), finite=True,
                                 min_value=-3, max_value=3).map(lambda a: Sample((a, 2.0))),
           op=_VEC32_OP, ref=_VEC32_REF, rtol=1e-6, id="vectorize-otypes"),
    OpInfo("vectorize", st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3))
           .flatmap(lambda t: st.tuples(
               S.arrays(np.float64, t, finite=True, min_value=-3, max_value=3),
               S.arrays(np.float64, t[2:], finite=True, min_value=-3, max_value=3)))
           .map(lambda ab: Sample(ab)),
           op=_GUF_OP, ref=_GUF_REF, rtol=1e-12, id="vectorize-signature"),
]
