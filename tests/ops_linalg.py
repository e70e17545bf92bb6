"""Registry entries for xnp.linalg.

Matrices are drawn with random entries and made well conditioned inside the entry (both
the xnp op and the NumPy reference add ``(n + 2) I``, or form ``A A^H + n I`` where a
positive-definite matrix is needed), so that the registry's derivative checks, which
redraw the entries, stay away from singular matrices. Eigenvector and singular-vector
signs are not unique: entries compare eigenvalues and singular values, and
tests/test_linalg.py checks the vectors up to sign.
"""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

import xnp

XL, NL = xnp.linalg, np.linalg
DTYPES = st.sampled_from([np.float64, np.float64, np.float32, np.complex128])


def _wc(mod):
    """``a + (n + 2) I``: diagonally dominant enough to be well conditioned."""
    return lambda a: a + (a.shape[-1] + 2) * mod.eye(a.shape[-1], dtype=a.dtype)


def _wc_rect(mod):
    """``a + (k + 2) I`` for an m-by-n ``a``: singular values well away from zero."""
    return lambda a: a + (min(a.shape[-2:]) + 2) * mod.eye(*a.shape[-2:], dtype=a.dtype)


def _spd(mod):
    """``a a^H + n I``: Hermitian positive definite."""
    return lambda a: mod.matmul(a, mod.conj(mod.swapaxes(a, -1, -2))) + \
        a.shape[-1] * mod.eye(a.shape[-1], dtype=a.dtype)


@st.composite
def _square(draw, min_n=1, max_n=4, batch=True, dtype=None):
    n = draw(st.integers(min_n, max_n))
    lead = draw(S.shapes(0, 1 if batch else 0, min_side=1, max_side=3))
    dt = dtype or draw(DTYPES)
    return draw(S.arrays(dt, (*lead, n, n), finite=True, min_value=-2, max_value=2))


@st.composite
def _matrix(draw):
    m, n = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    lead = draw(S.shapes(0, 1, min_side=1, max_side=3))
    return draw(S.arrays(draw(DTYPES), (*lead, m, n), finite=True, min_value=-2,
                         max_value=2))


@st.composite
def _solve_samples(draw):
    a = draw(_square())
    n = a.shape[-1]
    if draw(st.booleans()):
        b = draw(S.arrays(a.dtype, (n,), finite=True, min_value=-2, max_value=2))
    else:
        k = draw(st.integers(1, 3))
        b = draw(S.arrays(a.dtype, (*a.shape[:-2], n, k), finite=True, min_value=-2,
                          max_value=2))
    return Sample((a, b))


def _one(strategy, **kwargs):
    return strategy.map(lambda a: Sample((a,), kwargs))


def _unary(name, make, mod_fn, **kw):
    """An entry calling ``linalg.<name>`` on ``make(x)`` (make: _wc, _spd or identity)."""
    return OpInfo(f"linalg.{name}", kw.pop("samples", _one(_square())),
                  op=lambda a, **k: getattr(XL, name)(make(xnp)(a), **k),
                  ref=lambda a, **k: getattr(NL, name)(make(np)(a), **k),
                  id=kw.pop("id", f"linalg.{name}"), rtol=kw.pop("rtol", 1e-5),
                  atol=kw.pop("atol", 1e-6), **kw)


def _identity(mod):
    return lambda a: a


_NORM_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]
_VEC_ORDS = [None, 0, 1, -1, 2, 3, 0.5, np.inf, -np.inf]


@st.composite
def _norm_samples(draw):
    if draw(st.booleans()):
        a = draw(_matrix())
        ord_ = draw(st.sampled_from(_NORM_ORDS))
        axis = (-2, -1) if a.ndim == 3 or draw(st.booleans()) else None
        if a.ndim == 3 and ord_ is None:
            ord_ = "fro"
        return Sample((a,), {"ord": ord_, "axis": axis, "keepdims": draw(st.booleans())})
    v = draw(S.arrays(draw(DTYPES), draw(S.shapes(1, 2, min_side=1)), finite=True,
                      min_value=-2, max_value=2))
    axis = draw(st.sampled_from([None, -1, 0])) if v.ndim == 1 else -1
    return Sample((v,), {"ord": draw(st.sampled_from(_VEC_ORDS)), "axis": axis,
                         "keepdims": draw(st.booleans())})


@st.composite
def _tensorsolve_samples(draw):
    """A well-conditioned n-by-n matrix and b; the entry reshapes the matrix to
    ``b.shape + x_shape``."""
    n = draw(st.sampled_from([1, 2, 4, 6]))
    m = draw(S.arrays(draw(DTYPES), (n, n), finite=True, min_value=-2, max_value=2))
    b_shape = draw(st.sampled_from([(n,), (2, n // 2)] if n % 2 == 0 else [(n,)]))
    x_shape = draw(st.sampled_from([(n,), (n // 2, 2)] if n % 2 == 0 else [(n,)]))
    b = draw(S.arrays(m.dtype, b_shape, finite=True, min_value=-2, max_value=2))
    return Sample((m, b), {"x_shape": x_shape})


def _tensorsolve(mod):
    return lambda m, b, x_shape: mod.linalg.tensorsolve(
        mod.reshape(_wc(mod)(m), b.shape + x_shape), b)


@st.composite
def _tensorinv_samples(draw):
    n = draw(st.sampled_from([2, 4, 6]))
    m = draw(S.arrays(draw(DTYPES), (n, n), finite=True, min_value=-2, max_value=2))
    return Sample((m,), {"ind": draw(st.sampled_from([1, 2]))})


def _tensorinv(mod):
    def f(m, ind):
        n = m.shape[-1]
        shape = (n, 2, n // 2) if ind == 1 else (2, n // 2, n)
        return mod.linalg.tensorinv(mod.reshape(_wc(mod)(m), shape), ind=ind)
    return f


_E = Sample
ENTRIES = [
    OpInfo("linalg.solve", _solve_samples(), rtol=1e-5, atol=1e-6,
           op=lambda a, b: XL.solve(_wc(xnp)(a), b), ref=lambda a, b: NL.solve(_wc(np)(a), b),
           id="linalg.solve"),
    _unary("inv", _wc, None),
    _unary("det", _wc, None),
    _unary("slogdet", _wc, None),
    _unary("cholesky", _spd, None),
    _unary("eigvalsh", _spd, None),
    OpInfo("linalg.eigh", _one(_square()), op=lambda a: XL.eigh(_spd(xnp)(a))[0],
           ref=lambda a: NL.eigh(_spd(np)(a))[0], rtol=1e-5, atol=1e-6,
           id="linalg.eigh-eigenvalues"),
    OpInfo("linalg.qr", _one(_matrix()), rtol=1e-5, atol=1e-6, id="linalg.qr"),
    OpInfo("linalg.qr", _one(_matrix(), mode="complete"), rtol=1e-5, atol=1e-6,
           id="linalg.qr-complete"),
    OpInfo("linalg.qr", _matrix().flatmap(lambda a: st.sampled_from(
        ["complete", "r"]).map(lambda m: Sample((a, m)))), rtol=1e-5, atol=1e-6,
        differentiable=False, id="linalg.qr-modes"),
    # NumPy's eigvals is real when every eigenvalue is (so is xnp's on concrete values,
    # tests/test_linalg.py): compared as complex here, where traced ones are too.
    OpInfo("linalg.eigvals", _one(_square(dtype=np.float64)),
           op=lambda a: XL.eigvals(a).astype(np.complex128),
           ref=lambda a: np.linalg.eigvals(a).astype(np.complex128), rtol=1e-5, atol=1e-6,
           differentiable=False),
    OpInfo("linalg.svdvals", _one(_matrix()), rtol=1e-5, atol=1e-6),
    OpInfo("linalg.svd", _one(_matrix(), compute_uv=False), rtol=1e-5, atol=1e-6,
           id="linalg.svd-values"),
    OpInfo("linalg.pinv", _one(_matrix()), op=lambda a: XL.pinv(_wc_rect(xnp)(a)),
           ref=lambda a: NL.pinv(_wc_rect(np)(a)), rtol=1e-4, atol=1e-5),
    _unary("pinv", _wc, None, id="linalg.pinv-square"),
    _unary("cond", _wc, None),
    OpInfo("linalg.matrix_rank", _one(_matrix()), differentiable=False),
    OpInfo("linalg.matrix_power", _square().flatmap(
        lambda a: st.integers(-2, 3).map(lambda k: Sample((a, k)))),
        op=lambda a, k: XL.matrix_power(_wc(xnp)(a), k),
        ref=lambda a, k: NL.matrix_power(_wc(np)(a), k), rtol=1e-5, atol=1e-6),
    OpInfo("linalg.norm", _norm_samples(), rtol=1e-5, atol=1e-6,
           kink_at_zero_output=True),
    OpInfo("linalg.vector_norm", _norm_samples().filter(
        lambda s: s.kwargs["ord"] is not None and not isinstance(s.kwargs["ord"], str)
        and s.kwargs["axis"] != (-2, -1)).map(
        lambda s: Sample(s.args, {"ord": s.kwargs["ord"], "axis": s.kwargs["axis"],
                                  "keepdims": s.kwargs["keepdims"]})),
        rtol=1e-5, atol=1e-6, kink_at_zero_output=True),
    OpInfo("linalg.matrix_norm", _matrix().flatmap(lambda a: st.sampled_from(
        ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]).map(
        lambda o: Sample((a,), {"ord": o}))), rtol=1e-5, atol=1e-6,
        kink_at_zero_output=True),
    OpInfo("linalg.multi_dot", st.integers(1, 3).flatmap(lambda n: st.tuples(
        *[S.arrays(np.float64, (n, n), finite=True, min_value=-2, max_value=2)
          for _ in range(3)])).map(lambda t: Sample((list(t),))), rtol=1e-7),
    OpInfo("linalg.matrix_transpose", _one(_matrix())),
    OpInfo("linalg.trace", _one(_square())),
    OpInfo("linalg.diagonal", _one(_matrix())),
    OpInfo("linalg.outer", st.tuples(S.arrays(np.float64, (3,)), S.arrays(np.float64, (2,)))
           .map(lambda t: Sample(t)), errors=[_E((np.ones((2, 2)), np.ones(2)))]),
    OpInfo("linalg.cross", st.tuples(S.arrays(np.float64, (2, 3), finite=True),
                                     S.arrays(np.float64, (3,), finite=True))
           .map(lambda t: Sample(t)), rtol=1e-7, atol=1e-12),
    OpInfo("linalg.tensorsolve", _tensorsolve_samples(), op=_tensorsolve(xnp),
           ref=_tensorsolve(np), rtol=1e-5, atol=1e-6),
    OpInfo("linalg.tensorinv", _tensorinv_samples(), op=_tensorinv(xnp), ref=_tensorinv(np),
           rtol=1e-5, atol=1e-6),
    OpInfo("linalg.svd", _one(_square()), rtol=1e-5, atol=1e-6, id="linalg.svd-hermitian",
           op=lambda a: XL.svd(_spd(xnp)(a), compute_uv=False, hermitian=True),
           ref=lambda a: NL.svd(_spd(np)(a), compute_uv=False, hermitian=True)),
    # Errors, on the plain functions: singular, non-square and 1-d inputs.
    OpInfo("linalg.solve", id="linalg.solve-errors", errors=[
        _E((np.zeros((2, 2)), np.ones(2))), _E((np.ones((2, 3)), np.ones(2))),
        _E((np.ones(3), np.ones(3))), _E((np.eye(2), np.ones(3)))]),
    OpInfo("linalg.inv", id="linalg.inv-errors", errors=[
        _E((np.zeros((3, 3)),)), _E((np.ones((2, 3)),)), _E((np.ones(3),))]),
    OpInfo("linalg.det", id="linalg.det-errors", errors=[_E((np.ones(3),)),
                                                         _E((np.ones((2, 3)),))]),
    OpInfo("linalg.cholesky", id="linalg.cholesky-errors", errors=[
        _E((-np.eye(2),)), _E((np.ones((2, 3)),))]),
    OpInfo("linalg.eigh", id="linalg.eigh-errors", errors=[
        _E((np.ones((2, 3)),)), _E((np.eye(2),), {"UPLO": "X"})]),
    OpInfo("linalg.norm", id="linalg.norm-errors", errors=[
        _E((np.ones(3),), {"ord": "fro"}), _E((np.ones((2, 2)),), {"ord": 3}),
        _E((np.ones((2, 2, 2)),), {"ord": 2}), _E((np.ones((2, 2)),), {"axis": (0, 0)})]),
    OpInfo("linalg.tensorsolve", id="linalg.tensorsolve-errors", errors=[
        _E((np.ones((2, 3)), np.ones(2))), _E((np.zeros((2, 2)), np.ones(2)))]),
    OpInfo("linalg.tensorinv", id="linalg.tensorinv-errors", errors=[
        _E((np.eye(4).reshape(2, 2, 4), 0)), _E((np.ones((2, 3)), 1))]),
    OpInfo("linalg.matrix_power", id="linalg.matrix_power-errors", errors=[
        _E((np.ones((2, 3)), 2)), _E((np.eye(2), 1.5))]),
]
