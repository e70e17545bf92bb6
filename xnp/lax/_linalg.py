"""Linear-algebra primitives: solve, det, slogdet, cholesky, eigh and svd, with all rules.

Every primitive works on the last two dimensions of its operands and maps over the
leading ones, as numpy.linalg does; operands share their leading (batch) dimensions
(the xnp.linalg functions broadcast them first). The implementations are numpy.linalg's,
so eager results and errors (LinAlgError for singular or non-positive-definite input)
are NumPy's. Derivatives follow the standard matrix-calculus identities; only the
right-hand side of ``solve`` is linear, so it alone has a transpose rule.

Lowering: XLA's StableHLO has no general solver or eigensolver (JAX calls LAPACK through
custom calls there), so these primitives do not compile yet; ``jit`` of a function using
them raises NotImplementedError naming the primitive.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import primitive


def _square(name, a):
    if a.ndim < 2:
        raise np.linalg.LinAlgError(f"{a.ndim}-dimensional array given. Array must be at "
                                    "least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def _real(dtype):
    return np.dtype(np.float32) if np.dtype(dtype) == np.complex64 else \
        np.dtype(np.float64) if np.dtype(dtype).kind == "c" else np.dtype(dtype)


# --- declarations -----------------------------------------------------------------------------
def _solve_eval(a, b):
    _square("solve", a)
    if b.ndim < 2 or b.shape[:-2] != a.shape[:-2] or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: b of shape {b.shape} does not match a of shape {a.shape}")
    return ShapedArray(b.shape, a.dtype)


def _det_eval(a):
    _square("det", a)
    return ShapedArray(a.shape[:-2], a.dtype)


def _slogdet_eval(a):
    _square("slogdet", a)
    return [ShapedArray(a.shape[:-2], a.dtype), ShapedArray(a.shape[:-2], _real(a.dtype))]


def _cholesky_eval(a):
    _square("cholesky", a)
    return ShapedArray(a.shape, a.dtype)


def _eigh_eval(a, *, lower):
    _square("eigh", a)
    return [ShapedArray(a.shape[:-1], _real(a.dtype)), ShapedArray(a.shape, a.dtype)]


def _svd_eval(a, *, full_matrices):
    if a.ndim < 2:
        raise np.linalg.LinAlgError(f"{a.ndim}-dimensional array given. Array must be at "
                                    "least two-dimensional")
    *batch, m, n = a.shape
    k = min(m, n)
    um, vn = (m, n) if full_matrices else (k, k)
    return [ShapedArray((*batch, m, um), a.dtype), ShapedArray((*batch, k), _real(a.dtype)),
            ShapedArray((*batch, vn, n), a.dtype)]


def _svd_impl(a, *, full_matrices):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return [u, s, vh]


def _qr_eval(a, *, full_matrices):
    if a.ndim < 2:
        raise np.linalg.LinAlgError(f"{a.ndim}-dimensional array given. Array must be at "
                                    "least two-dimensional")
    *batch, m, n = a.shape
    k = m if full_matrices else min(m, n)
    return [ShapedArray((*batch, m, k), a.dtype), ShapedArray((*batch, k, n), a.dtype)]


def _eig_eval(a):
    _square("eig", a)
    cdt = np.dtype(np.complex64) if a.dtype in (np.float32, np.complex64) else \
        np.dtype(np.complex128)
    return [ShapedArray(a.shape[:-1], cdt), ShapedArray(a.shape, cdt)]


def _eig_impl(a):
    w, v = np.linalg.eig(a)
    cdt = _eig_eval(ShapedArray(a.shape, a.dtype))[0].dtype
    return [w.astype(cdt), v.astype(cdt)]


qr_p = primitive("qr", impl=lambda a, *, full_matrices: list(np.linalg.qr(
    a, "complete" if full_matrices else "reduced")), abstract_eval=_qr_eval,
    multiple_results=True)
eig_p = primitive("eig", impl=_eig_impl, abstract_eval=_eig_eval, multiple_results=True)
solve_p = primitive("solve", impl=lambda a, b: np.linalg.solve(a, b), abstract_eval=_solve_eval)
det_p = primitive("det", impl=lambda a: np.asarray(np.linalg.det(a)), abstract_eval=_det_eval)
slogdet_p = primitive("slogdet", impl=lambda a: [np.asarray(r) for r in np.linalg.slogdet(a)],
                      abstract_eval=_slogdet_eval, multiple_results=True)
cholesky_p = primitive("cholesky", impl=np.linalg.cholesky, abstract_eval=_cholesky_eval)
eigh_p = primitive("eigh", impl=lambda a, *, lower: list(np.linalg.eigh(a, "L" if lower else "U")),
                   abstract_eval=_eigh_eval, multiple_results=True)
svd_p = primitive("svd", impl=_svd_impl, abstract_eval=_svd_eval, multiple_results=True)

__all__ = ["solve_p", "det_p", "slogdet_p", "cholesky_p", "eigh_p", "svd_p", "qr_p",
           "eig_p"]


# --- matrix helpers on raw values (bind primitives only) -------------------------------------
from transforms.ad import Zero, is_undefined  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._elementwise import (  # noqa: E402
    add_p,
    conj_p,
    div_p,
    eq_p,
    imag_p,
    mul_p,
    real_p,
    sub_p,
)
from xnp.lax._linear import dot_general_p  # noqa: E402
from xnp.lax._reductions import reduce_sum_p  # noqa: E402
from xnp.lax._structural import convert_element_type_p, transpose_p  # noqa: E402

add, sub, mul, div = add_p.bind, sub_p.bind, mul_p.bind, div_p.bind


def _is_complex(x) -> bool:
    return get_aval(x).dtype.kind == "c"


def mT(x):
    """Swap the last two dimensions."""
    nd = get_aval(x).ndim
    return transpose_p.bind(x, permutation=(*range(nd - 2), nd - 1, nd - 2))


def mH(x):
    """The conjugate transpose of the last two dimensions."""
    return conj_p.bind(mT(x)) if _is_complex(x) else mT(x)


def mm(a, b):
    """Matrix products over shared leading dimensions."""
    nd = get_aval(a).ndim
    batch = tuple(range(nd - 2))
    return dot_general_p.bind(a, b, dimension_numbers=(((nd - 1,), (nd - 2,)), (batch, batch)))


def _eye(n, dtype):
    return np.eye(n, dtype=dtype)


def diag(x):
    """The diagonals of the last two dimensions of square matrices."""
    a = get_aval(x)
    return reduce_sum_p.bind(mul(x, _eye(a.shape[-1], a.dtype)), axes=(a.ndim - 1,))


def diag_embed(v):
    """Square matrices with ``v`` (..., n) on their diagonals."""
    a = get_aval(v)
    return mul(_expand_last(v), _eye(a.shape[-1], a.dtype))


def _expand_last(v):
    from xnp.lax._structural import broadcast_in_dim_p
    a = get_aval(v)
    return broadcast_in_dim_p.bind(v, shape=(*a.shape, 1),
                                   broadcast_dimensions=tuple(range(a.ndim)))


def trace(x):
    a = get_aval(x)
    return reduce_sum_p.bind(diag(x), axes=(a.ndim - 2,))


def _as(x, dtype):
    return convert_element_type_p.bind(x, new_dtype=np.dtype(dtype), weak_type=False)


def _tangent(t):
    return None if type(t) is Zero else t


# --- derivatives ------------------------------------------------------------------------------
def _solve_jvp(primals, tangents):
    # x = a^-1 b:  dx = a^-1 (db - da x)
    a, b = primals
    ta, tb = map(_tangent, tangents)
    x = solve_p.bind(a, b)
    if ta is None and tb is None:
        return x, Zero(get_aval(x))
    if ta is None:
        rhs = tb
    else:
        da_x = mm(ta, x)
        rhs = mul(da_x, -1) if tb is None else sub(tb, da_x)
    return x, solve_p.bind(a, rhs)


def _solve_transpose(ct, a, b):
    if is_undefined(a):
        raise TypeError("solve is linear in its right-hand side only")
    if type(ct) is Zero:
        return [None, None]
    return [None, solve_p.bind(mT(a), ct)]


def _det_jvp(primals, tangents):
    (a,), (ta,) = primals, tangents
    ans = det_p.bind(a)
    if type(ta) is Zero:
        return ans, Zero(get_aval(ans))
    return ans, mul(ans, trace(solve_p.bind(a, ta)))


def _slogdet_jvp(primals, tangents):
    (a,), (ta,) = primals, tangents
    sign, logabs = slogdet_p.bind(a)
    if type(ta) is Zero:
        return [sign, logabs], [Zero(get_aval(sign)), Zero(get_aval(logabs))]
    t = trace(solve_p.bind(a, ta))
    if not _is_complex(a):
        return [sign, logabs], [Zero(get_aval(sign)), t]
    d_logabs = real_p.bind(t)
    d_sign = mul(sign, mul(_as(imag_p.bind(t), get_aval(sign).dtype), 1j))
    return [sign, logabs], [d_sign, d_logabs]


def _cholesky_jvp(primals, tangents):
    (a,), (ta,) = primals, tangents
    low = cholesky_p.bind(a)
    if type(ta) is Zero:
        return low, Zero(get_aval(low))
    n = get_aval(a).shape[-1]
    # dL = L phi(L^-1 dA L^-H), phi: the lower triangle with the diagonal halved.
    inner = mH(solve_p.bind(low, mH(solve_p.bind(low, ta))))
    phi = np.tril(np.ones((n, n))) - 0.5 * np.eye(n)
    return low, mm(low, mul(inner, phi.astype(_real(get_aval(a).dtype))))


def _safe_reciprocal_offdiag(d, n, dtype):
    """1 / d off the diagonal, 0 on it (and 0 where d is 0: degenerate pairs)."""
    eye = _eye(n, dtype)
    zero = eq_p.bind(d, 0)
    from xnp.lax._selection import select_n_p
    safe = add(d, mul(_as(zero, dtype), 1))
    r = div(1, safe)
    return mul(select_n_p.bind(zero, r, mul(r, 0)), sub(1, eye))


def _eigh_jvp(primals, tangents, *, lower):
    (a,), (ta,) = primals, tangents
    w, v = eigh_p.bind(a, lower=lower)
    if type(ta) is Zero:
        return [w, v], [Zero(get_aval(w)), Zero(get_aval(v))]
    n = get_aval(a).shape[-1]
    vh_da_v = mm(mH(v), mm(ta, v))
    dw = real_p.bind(diag(vh_da_v)) if _is_complex(a) else diag(vh_da_v)
    gaps = sub(_expand_w(w, row=True), _expand_w(w, row=False))      # w_j - w_i
    f = _safe_reciprocal_offdiag(gaps, n, get_aval(w).dtype)
    dv = mm(v, mul(f, vh_da_v))
    return [w, v], [dw, dv]


def _expand_w(w, row: bool):
    """(..., n) as (..., 1, n) (row) or (..., n, 1)."""
    from xnp.lax._structural import reshape_p
    shape = get_aval(w).shape
    return reshape_p.bind(w, new_sizes=(*shape[:-1], 1, shape[-1]) if row else
                          (*shape, 1))


def _svd_jvp(primals, tangents, *, full_matrices):
    (a,), (ta,) = primals, tangents
    u, s, vh = svd_p.bind(a, full_matrices=full_matrices)
    if type(ta) is Zero:
        return [u, s, vh], [Zero(get_aval(u)), Zero(get_aval(s)), Zero(get_aval(vh))]
    aval = get_aval(a)
    m, n = aval.shape[-2:]
    if full_matrices and m != n:
        raise NotImplementedError("svd: derivatives of full_matrices=True factors of "
                                  "non-square matrices are not defined; use "
                                  "full_matrices=False")
    k = min(m, n)
    rdt = _real(aval.dtype)
    v = mH(vh)
    ds_mat = mm(mH(u), mm(ta, v))                                  # U^H dA V, (k, k)
    ds = real_p.bind(diag(ds_mat)) if _is_complex(a) else diag(ds_mat)
    s_row, s_col = _expand_w(s, row=True), _expand_w(s, row=False)
    f = _safe_reciprocal_offdiag(sub(mul(s_row, s_row), mul(s_col, s_col)), k, rdt)
    dss, sds = mul(ds_mat, s_row), mul(s_col, ds_mat)
    du_inner = mul(f, add(dss, mH(dss)))
    dv_inner = mul(f, add(sds, mH(sds)))
    s_zero = _as(eq_p.bind(s, 0), rdt)
    s_inv = sub(div(1, add(s, s_zero)), s_zero)
    if _is_complex(a):
        du_inner = add(du_inner, mul(mul(sub(ds_mat, mH(ds_mat)), 0.5),
                                     mul(_expand_w(s_inv, row=True), _eye(k, rdt))))
    du = mm(u, du_inner)
    dv = mm(v, dv_inner)
    s_inv_row = _expand_w(s_inv, row=True)
    if m > n:
        dav = mm(ta, v)
        du = add(du, mul(sub(dav, mm(u, mm(mH(u), dav))), s_inv_row))
    if n > m:
        dahu = mm(mH(ta), u)
        dv = add(dv, mul(sub(dahu, mm(v, mm(mH(v), dahu))), s_inv_row))
    return [u, s, vh], [du, ds, mH(dv)]


def _tril(x, k):
    n, m = get_aval(x).shape[-2:]
    return mul(x, np.tri(n, m, k, dtype=_real(get_aval(x).dtype)))


def _qr_jvp(primals, tangents, *, full_matrices):
    (a,), (ta,) = primals, tangents
    q, r = qr_p.bind(a, full_matrices=full_matrices)
    if type(ta) is Zero:
        return [q, r], [Zero(get_aval(q)), Zero(get_aval(r))]
    m, n = get_aval(a).shape[-2:]
    if m < n or (full_matrices and m > n):
        raise NotImplementedError("qr: derivatives are implemented for m >= n with "
                                  "mode='reduced' (square matrices in any mode)")
    # A R^-1 products as solves: X R^-1 = (R^-T X^T)^T.
    da_rinv = mT(solve_p.bind(mT(r), mT(ta)))
    qt_da_rinv = mm(mH(q), da_rinv)
    low = _tril(qt_da_rinv, -1)
    omega = sub(low, mH(low))                   # skew-Hermitian part fixed by Q^H dQ
    if _is_complex(a):                          # the imaginary diagonal of Q^H dQ
        eye = _eye(n, get_aval(a).dtype)
        omega = add(omega, mul(sub(qt_da_rinv, real_p.bind(qt_da_rinv)), eye))
    dq = add(mm(q, sub(omega, qt_da_rinv)), da_rinv)
    dr = mm(sub(qt_da_rinv, omega), r)
    return [q, r], [dq, dr]


def _eig_jvp(primals, tangents):
    # dw = diag(V^-1 dA V); dV = V (F * (V^-1 dA V)) with F_ij = 1 / (w_j - w_i), then
    # the change of each column's length removed (NumPy returns unit-norm eigenvectors).
    (a,), (ta,) = primals, tangents
    w, v = eig_p.bind(a)
    if type(ta) is Zero:
        return [w, v], [Zero(get_aval(w)), Zero(get_aval(v))]
    cdt = get_aval(v).dtype
    n = get_aval(a).shape[-1]
    vinv_da_v = mm(solve_p.bind(v, _as(ta, cdt)), v)
    f = _safe_reciprocal_offdiag(sub(_expand_w(w, row=True), _expand_w(w, row=False)), n,
                                 cdt)
    dv = mm(v, mul(f, vinv_da_v))
    along = reduce_sum_p.bind(mul(conj_p.bind(v), dv), axes=(get_aval(v).ndim - 2,))
    dv = sub(dv, mul(v, _expand_w(_as(real_p.bind(along), cdt), row=True)))
    return [w, v], [diag(vinv_da_v), dv]


solve_p.jvp = _solve_jvp
solve_p.transpose = _solve_transpose
det_p.jvp = _det_jvp
slogdet_p.jvp = _slogdet_jvp
cholesky_p.jvp = _cholesky_jvp
eigh_p.jvp = _eigh_jvp
svd_p.jvp = _svd_jvp
qr_p.jvp = _qr_jvp
eig_p.jvp = _eig_jvp


# --- batching: the batch dimension goes first, among the leading dimensions ------------------
from xnp.lax._batch_util import bdim_to_front  # noqa: E402


def _batch_leading(prim):
    def rule(vals, dims, **params):
        size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        out = prim.bind(*[bdim_to_front(v, d, size) for v, d in zip(vals, dims)], **params)
        return out, ([0] * len(out) if prim.multiple_results else 0)
    prim.batch = rule


for _p in (solve_p, det_p, slogdet_p, cholesky_p, eigh_p, svd_p, qr_p, eig_p):
    _batch_leading(_p)


# --- lowering -----------------------------------------------------------------------------------
def _not_lowerable(prim):
    def rule(ctx, *args, **params):
        raise NotImplementedError(
            f"the linear-algebra primitive '{prim.name}' cannot be compiled yet (XLA "
            "needs LAPACK custom calls for it); call this xnp.linalg function outside jit")
    prim.lower = rule


for _p in (solve_p, det_p, slogdet_p, cholesky_p, eigh_p, svd_p, qr_p, eig_p):
    _not_lowerable(_p)
del _p
