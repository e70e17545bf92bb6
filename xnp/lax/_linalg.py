"""Linear-algebra primitives: cholesky, triangular_solve, lu, qr, eigh, svd and eig.

Every primitive works on the last two dimensions of its operands and maps over the
leading ones, as numpy.linalg does; operands share their leading (batch) dimensions
(the xnp.linalg functions broadcast them first). Implementations are numpy.linalg's
where NumPy has the routine; ``triangular_solve`` (a back-substitution through
``numpy.linalg.solve`` on the triangle, arranged so that LAPACK never pivots) and ``lu``
(blocked partial pivoting) are written here in NumPy. Eager errors are NumPy's:
``cholesky`` of a matrix that is not positive definite and ``triangular_solve`` with a
zero on the diagonal raise LinAlgError. Compiled (jit), the same inputs give NaN or
infinite values instead, as in JAX. Derivatives follow the standard matrix-calculus
identities; ``triangular_solve`` is linear in its right-hand side, which has a transpose
rule. Lowerings (StableHLO ops and LAPACK custom calls) are in ``_linalg_lower.py``.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import primitive

LinAlgError = np.linalg.LinAlgError


def _matrix(name, a):
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")


def _square(name, a):
    _matrix(name, a)
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _real(dtype):
    return np.dtype(np.float32) if np.dtype(dtype) == np.complex64 else \
        np.dtype(np.float64) if np.dtype(dtype).kind == "c" else np.dtype(dtype)


def _complex(dtype):
    return np.dtype(np.complex64) if np.dtype(dtype) in (np.float32, np.complex64) else \
        np.dtype(np.complex128)


# --- abstract evaluation ----------------------------------------------------------------------
def _cholesky_eval(a):
    _square("cholesky", a)
    return ShapedArray(a.shape, a.dtype)


def _triangular_solve_eval(a, b, *, left_side, lower, transpose_a, conjugate_a,
                           unit_diagonal):
    _square("triangular_solve", a)
    n = a.shape[-1]
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or \
            b.shape[-2 if left_side else -1] != n or a.dtype != b.dtype:
        raise TypeError(f"triangular_solve: b {b.str_short()} does not match a "
                        f"{a.str_short()} (left_side={left_side})")
    return ShapedArray(b.shape, b.dtype)


def _lu_eval(a):
    _matrix("lu", a)
    m, n = a.shape[-2:]
    i32 = np.dtype(np.int32)
    return [ShapedArray(a.shape, a.dtype), ShapedArray((*a.shape[:-2], min(m, n)), i32),
            ShapedArray((*a.shape[:-2], m), i32)]


def _qr_eval(a, *, full_matrices):
    _matrix("qr", a)
    m, n = a.shape[-2:]
    k = m if full_matrices else min(m, n)
    return [ShapedArray((*a.shape[:-2], m, k), a.dtype),
            ShapedArray((*a.shape[:-2], k, n), a.dtype)]


def _eigh_eval(a, *, lower):
    _square("eigh", a)
    return [ShapedArray(a.shape[:-1], _real(a.dtype)), ShapedArray(a.shape, a.dtype)]


def _svd_eval(a, *, full_matrices):
    _matrix("svd", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    lead = a.shape[:-2]
    return [ShapedArray((*lead, m, m if full_matrices else k), a.dtype),
            ShapedArray((*lead, k), _real(a.dtype)),
            ShapedArray((*lead, n if full_matrices else k, n), a.dtype)]


def _eig_eval(a):
    _square("eig", a)
    c = _complex(a.dtype)
    return [ShapedArray(a.shape[:-1], c), ShapedArray(a.shape, c)]


# --- implementations --------------------------------------------------------------------------
def _upper_solve(u, b, block: int = 64):
    """``u^-1 b`` for upper triangular ``u``: blocked back-substitution. Each diagonal
    block goes to numpy.linalg.solve, whose partially pivoted LU takes no row swaps on an
    upper triangle, so it is exactly a back-substitution."""
    n = u.shape[-1]
    if n <= block:
        return np.linalg.solve(u, b)
    x = np.empty(np.broadcast_shapes(u.shape[:-2], b.shape[:-2]) + b.shape[-2:],
                 np.result_type(u, b))
    for i1 in range(n, 0, -block):
        i0 = max(0, i1 - block)
        rhs = b[..., i0:i1, :]
        if i1 < n:
            rhs = rhs - u[..., i0:i1, i1:] @ x[..., i1:, :]
        x[..., i0:i1, :] = np.linalg.solve(u[..., i0:i1, i0:i1], rhs)
    return x


def _triangular_solve_impl(a, b, *, left_side, lower, transpose_a, conjugate_a,
                           unit_diagonal):
    a, b = np.asarray(a), np.asarray(b)
    n = a.shape[-1]
    tri = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        tri = tri * (1 - np.eye(n, dtype=a.real.dtype)) + np.eye(n, dtype=a.dtype)
    elif (np.diagonal(a, axis1=-2, axis2=-1) == 0).any():
        raise LinAlgError("Singular matrix")
    if conjugate_a:
        tri = tri.conj()
    if transpose_a:
        tri = np.swapaxes(tri, -1, -2)
    if not left_side:               # x M = b  <=>  M^T x^T = b^T
        tri, b = np.swapaxes(tri, -1, -2), np.swapaxes(b, -1, -2)
    if lower == (transpose_a != (not left_side)):     # the matrix solved with is upper
        x = _upper_solve(tri, b)
    else:                           # lower: reverse rows and columns to make it upper
        x = _upper_solve(tri[..., ::-1, ::-1], b[..., ::-1, :])[..., ::-1, :]
    x = np.swapaxes(x, -1, -2) if not left_side else x
    return np.ascontiguousarray(x, dtype=b.dtype)


def _pivot_magnitude(col):
    # LAPACK's i?amax: |re| + |im| for complex values.
    return np.abs(col.real) + np.abs(col.imag) if col.dtype.kind == "c" else np.abs(col)


def _lu_impl(a, block: int = 32):
    """LU with partial pivoting, P A = L U, as LAPACK's getrf: blocked, right-looking."""
    a = np.asarray(a)
    *lead, m, n = a.shape
    k = min(m, n)
    lu = a.reshape(int(np.prod(lead, dtype=np.int64)), m, n).copy()
    nb = lu.shape[0]
    rows = np.arange(nb)
    piv = np.zeros((nb, k), np.int32)
    perm = np.tile(np.arange(m, dtype=np.int32), (nb, 1))
    for j0 in range(0, k, block):
        j1 = min(j0 + block, k)
        if nb == 1:
            _lu_panel_single(lu[0], piv[0], perm[0], j0, j1)
        for j in range(j0, j1 if nb != 1 else j0):
            p = j + np.argmax(_pivot_magnitude(lu[:, j:, j]), axis=1)
            piv[:, j] = p
            lu[rows, j], lu[rows, p] = lu[rows, p], lu[rows, j].copy()
            perm[rows, j], perm[rows, p] = perm[rows, p], perm[rows, j].copy()
            d = lu[:, j, j]
            nonzero = d != 0
            lu[:, j + 1:, j] /= np.where(nonzero, d, 1)[:, None]
            lu[:, j + 1:, j + 1:j1] -= lu[:, j + 1:, j:j + 1] * lu[:, j:j + 1, j + 1:j1]
        if j1 < n:
            l11 = np.tril(lu[:, j0:j1, j0:j1], -1)
            lu[:, j0:j1, j1:] = _triangular_solve_impl(
                l11, lu[:, j0:j1, j1:], left_side=True, lower=True, transpose_a=False,
                conjugate_a=False, unit_diagonal=True)
            lu[:, j1:, j1:] -= lu[:, j1:, j0:j1] @ lu[:, j0:j1, j1:]
    return [lu.reshape(a.shape), piv.reshape(*lead, k), perm.reshape(*lead, m)]


def _lu_panel_single(x, piv, perm, j0, j1):
    """The unblocked LU of columns j0:j1 of one matrix ``x`` (in place): fewer NumPy
    calls per column than the batched loop."""
    for j in range(j0, j1):
        p = j + int(np.argmax(_pivot_magnitude(x[j:, j])))
        piv[j] = p
        if p != j:
            x[[j, p]] = x[[p, j]]
            perm[[j, p]] = perm[[p, j]]
        d = x[j, j]
        if d != 0:
            x[j + 1:, j] /= d
        if j + 1 < j1:
            x[j + 1:, j + 1:j1] -= np.multiply.outer(x[j + 1:, j], x[j, j + 1:j1])


def _svd_impl(a, *, full_matrices):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return [u, s, vh]


def _eig_impl(a):
    w, v = np.linalg.eig(a)
    c = _complex(np.asarray(a).dtype)
    return [np.asarray(w, c), np.asarray(v, c)]


cholesky_p = primitive("cholesky", impl=np.linalg.cholesky, abstract_eval=_cholesky_eval)
triangular_solve_p = primitive("triangular_solve", impl=_triangular_solve_impl,
                               abstract_eval=_triangular_solve_eval)
lu_p = primitive("lu", impl=_lu_impl, abstract_eval=_lu_eval, multiple_results=True)
qr_p = primitive("qr", impl=lambda a, *, full_matrices: list(np.linalg.qr(
    a, "complete" if full_matrices else "reduced")), abstract_eval=_qr_eval,
    multiple_results=True)
eigh_p = primitive("eigh", impl=lambda a, *, lower: list(np.linalg.eigh(a, "L" if lower else "U")),
                   abstract_eval=_eigh_eval, multiple_results=True)
svd_p = primitive("svd", impl=_svd_impl, abstract_eval=_svd_eval, multiple_results=True)
eig_p = primitive("eig", impl=_eig_impl, abstract_eval=_eig_eval, multiple_results=True)

__all__ = ["cholesky_p", "triangular_solve_p", "lu_p", "qr_p", "eigh_p", "svd_p", "eig_p",
           "lu_solve"]


# --- matrix helpers on raw values (bind primitives only) -------------------------------------
from transforms.ad import Zero, is_undefined, tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._elementwise import (  # noqa: E402
    add_p,
    conj_p,
    div_p,
    eq_p,
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


def _as(x, dtype):
    return convert_element_type_p.bind(x, new_dtype=np.dtype(dtype), weak_type=False)


def _tri(x, k, upper=False):
    """The lower (or upper) triangle of the last two dimensions, from diagonal ``k``."""
    n, m = get_aval(x).shape[-2:]
    mask = np.tri(n, m, k) if not upper else 1 - np.tri(n, m, k - 1)
    return mul(x, mask.astype(_real(get_aval(x).dtype)))


def triangular_solve(a, b, *, left_side=True, lower=True, transpose_a=False,
                     conjugate_a=False, unit_diagonal=False):
    return triangular_solve_p.bind(a, b, left_side=left_side, lower=lower,
                                   transpose_a=transpose_a, conjugate_a=conjugate_a,
                                   unit_diagonal=unit_diagonal)


def permutation_matrix(perm, dtype):
    """Rows of the identity in the order ``perm`` (..., n): ``P @ b == b[perm]``."""
    n = get_aval(perm).shape[-1]
    from xnp.lax._structural import broadcast_in_dim_p
    shape = get_aval(perm).shape
    col = broadcast_in_dim_p.bind(perm, shape=(*shape, 1),
                                  broadcast_dimensions=tuple(range(len(shape))))
    return _as(eq_p.bind(col, np.arange(n, dtype=np.int32)), dtype)


def lu_solve(a, b):
    """``a^-1 b`` for square ``a`` (..., n, n) and ``b`` (..., n, k) with equal leading
    dimensions: P A = L U, then two triangular solves (LinAlgError eagerly when U has a
    zero on its diagonal, as numpy.linalg.solve)."""
    lu, _, perm = lu_p.bind(a)
    pb = mm(permutation_matrix(perm, get_aval(b).dtype), b)
    y = triangular_solve(lu, pb, lower=True, unit_diagonal=True)
    return triangular_solve(lu, y, lower=False)


# --- derivatives ------------------------------------------------------------------------------
def _zeros_like(*outs):
    return [Zero(tangent_aval(get_aval(o))) for o in outs]


def _cholesky_jvp(primals, tangents):
    (a,), (ta,) = primals, tangents
    low = cholesky_p.bind(a)
    if type(ta) is Zero:
        return low, Zero(get_aval(low))
    # dL = L phi(L^-1 dA L^-H), phi: the lower triangle with the diagonal halved.
    inner = triangular_solve(low, triangular_solve(low, ta), left_side=False,
                             transpose_a=True, conjugate_a=_is_complex(a))
    n = get_aval(a).shape[-1]
    phi = np.tril(np.ones((n, n))) - 0.5 * np.eye(n)
    return low, mm(low, mul(inner, phi.astype(_real(get_aval(a).dtype))))


def _triangular_solve_jvp(primals, tangents, **params):
    # op(A) x = b:  d x = op(A)^-1 (db - op(dA) x)   (x op(A) = b: db - x op(dA), on the right)
    (a, b), (ta, tb) = primals, tangents
    x = triangular_solve_p.bind(a, b, **params)
    if type(ta) is Zero and type(tb) is Zero:
        return x, Zero(get_aval(x))
    rhs = None if type(tb) is Zero else tb
    if type(ta) is not Zero:
        strict = 1 if params["unit_diagonal"] else 0
        da = _tri(ta, -strict) if params["lower"] else _tri(ta, strict, upper=True)
        if params["conjugate_a"] and _is_complex(da):
            da = conj_p.bind(da)
        if params["transpose_a"]:
            da = mT(da)
        prod = mm(da, x) if params["left_side"] else mm(x, da)
        rhs = mul(prod, -1) if rhs is None else sub(rhs, prod)
    return x, triangular_solve_p.bind(a, rhs, **params)


def _triangular_solve_transpose(ct, a, b, **params):
    if is_undefined(a):
        raise TypeError("triangular_solve is linear in its right-hand side only")
    if type(ct) is Zero:
        return [None, None]
    params = dict(params, transpose_a=not params["transpose_a"])
    return [None, triangular_solve_p.bind(a, ct, **params)]


def _lu_jvp(primals, tangents):
    # P A = L U:  L^-1 P dA U^-1 = L^-1 dL + dU U^-1 (strictly lower + upper parts), so
    # with X = L^-1 P dA U^-1: dL = L tril(X, -1), dU = triu(X) U.
    (a,), (ta,) = primals, tangents
    lu, piv, perm = outs = lu_p.bind(a)
    if type(ta) is Zero:
        return outs, _zeros_like(*outs)
    # A rectangular (m, n) A, k = min(m, n), has an (m, k) L and a (k, n) U: the same
    # identities hold with L completed to (m, m) by the last columns of the identity and
    # U to (n, n) by its last rows (the completions' parts of X are dropped by tril/triu).
    m, n = get_aval(a).shape[-2:]
    k = min(m, n)
    dtype = get_aval(a).dtype
    pda = mm(permutation_matrix(perm, dtype), ta)
    low, up = _tri(lu, -1), _tri(lu, 0, upper=True)
    if m != n:
        low = _pad_last(_cols(low, 0, k), 0, m - k)
        up = add(_pad_last(_rows(up, 0, k), n - k, 0), np.diag([0] * k + [1] * (n - k)))
    low = add(low, _eye(m, dtype))
    x = triangular_solve(up, triangular_solve(low, pda, unit_diagonal=True),
                         left_side=False, lower=False)
    dlu = add(mm(low, _tri(x, -1)), mm(_tri(x, 0, upper=True), up))
    return outs, [dlu, *_zeros_like(piv, perm)]


def _rows(x, start, stop):
    return mT(_cols(mT(x), start, stop))


def _pad_last(x, rows: int, cols: int):
    """Zeros appended: ``rows`` rows below and ``cols`` columns to the right."""
    from xnp.lax._structural import pad_p
    nd = get_aval(x).ndim
    config = ((0, 0, 0),) * (nd - 2) + ((0, rows, 0), (0, cols, 0))
    return pad_p.bind(x, np.zeros((), get_aval(x).dtype), padding_config=config)


def _safe_reciprocal_offdiag(d, n, dtype):
    """1 / d off the diagonal, 0 on it (and 0 where d is 0: degenerate pairs)."""
    eye = _eye(n, dtype)
    zero = eq_p.bind(d, 0)
    from xnp.lax._selection import select_n_p
    safe = add(d, mul(_as(zero, dtype), 1))
    r = div(1, safe)
    return mul(select_n_p.bind(zero, r, mul(r, 0)), sub(1, eye))


def _expand_w(w, row: bool):
    """(..., n) as (..., 1, n) (row) or (..., n, 1)."""
    from xnp.lax._structural import reshape_p
    shape = get_aval(w).shape
    return reshape_p.bind(w, new_sizes=(*shape[:-1], 1, shape[-1]) if row else
                          (*shape, 1))


def _eigh_jvp(primals, tangents, *, lower):
    (a,), (ta,) = primals, tangents
    w, v = eigh_p.bind(a, lower=lower)
    if type(ta) is Zero:
        return [w, v], _zeros_like(w, v)
    n = get_aval(a).shape[-1]
    vh_da_v = mm(mH(v), mm(ta, v))
    dw = real_p.bind(diag(vh_da_v)) if _is_complex(a) else diag(vh_da_v)
    gaps = sub(_expand_w(w, row=True), _expand_w(w, row=False))      # w_j - w_i
    f = _safe_reciprocal_offdiag(gaps, n, get_aval(w).dtype)
    dv = mm(v, mul(f, vh_da_v))
    return [w, v], [dw, dv]


def _svd_jvp(primals, tangents, *, full_matrices):
    (a,), (ta,) = primals, tangents
    u, s, vh = svd_p.bind(a, full_matrices=full_matrices)
    if type(ta) is Zero:
        return [u, s, vh], _zeros_like(u, s, vh)
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


def _qr_jvp(primals, tangents, *, full_matrices):
    (a,), (ta,) = primals, tangents
    q, r = qr_p.bind(a, full_matrices=full_matrices)
    if type(ta) is Zero:
        return [q, r], _zeros_like(q, r)
    m, n = get_aval(a).shape[-2:]
    if full_matrices and m > n:
        return [q, r], _qr_complete_jvp(q, r, ta, m, n) if n else _zeros_like(q, r)
    if m < n:   # A = Q [R1 R2]: A1 = Q R1 is a square QR, and R2 = Q^H A2
        dq, dr1 = _qr_square_jvp(q, _cols(r, 0, m), _cols(ta, 0, m))
        dr2 = add(mm(mH(dq), _cols(a, m, n)), mm(mH(q), _cols(ta, m, n)))
        from xnp.lax._structural import concatenate_p
        return [q, r], [dq, concatenate_p.bind(dr1, dr2, dimension=get_aval(a).ndim - 1)]
    return [q, r], list(_qr_square_jvp(q, r, ta))


def _qr_complete_jvp(q, r, ta, m, n):
    """Tall A, mode='complete': Q = [Q1 Q2], where LAPACK's Q = I - V T V^H (V unit lower
    trapezoidal) ties Q2 to Q1. With Z = Q1[n:] (Q1[:n] - I)^-1 (= V[n:] V[:n]^-1),
    dQ2 = dQ1 Z^H - (Q1 + Q2 Z) (dQ1[n:] - Z dQ1[:n])^H (arXiv:2409.13374, eq. 32)."""
    from xnp.lax._structural import concatenate_p
    q1, q2 = _cols(q, 0, n), _cols(q, n, m)
    dq1, dr1 = _qr_square_jvp(q1, _rows(r, 0, n), ta)
    top, bottom = _rows(q1, 0, n), _rows(q1, n, m)
    z_h = lu_solve(mH(sub(top, _eye(n, get_aval(q).dtype))), mH(bottom))
    z = mH(z_h)
    drift = mH(sub(_rows(dq1, n, m), mm(z, _rows(dq1, 0, n))))
    dq2 = sub(mm(dq1, z_h), mm(add(q1, mm(q2, z)), drift))
    return [concatenate_p.bind(dq1, dq2, dimension=get_aval(q).ndim - 1),
            _pad_last(dr1, m - n, 0)]


def _cols(x, start, stop):
    from xnp.lax._slicing import slice_p
    shape = get_aval(x).shape
    return slice_p.bind(x, start_indices=(0,) * (len(shape) - 1) + (start,),
                        limit_indices=(*shape[:-1], stop))


def _qr_square_jvp(q, r, ta):
    """dQ, dR of A = Q R with (..., m, n) A, m >= n, and (..., n, n) R."""
    n = get_aval(r).shape[-1]
    da_rinv = triangular_solve(r, ta, left_side=False, lower=False)     # dA R^-1
    qt_da_rinv = mm(mH(q), da_rinv)
    low = _tri(qt_da_rinv, -1)
    omega = sub(low, mH(low))                   # skew-Hermitian part fixed by Q^H dQ
    if _is_complex(q):                          # the imaginary diagonal of Q^H dQ
        eye = _eye(n, get_aval(q).dtype)
        omega = add(omega, mul(sub(qt_da_rinv, real_p.bind(qt_da_rinv)), eye))
    dq = add(mm(q, sub(omega, qt_da_rinv)), da_rinv)
    dr = mm(sub(qt_da_rinv, omega), r)
    return dq, dr


def _eig_jvp(primals, tangents):
    # dw = diag(V^-1 dA V); dV = V (F * (V^-1 dA V)) with F_ij = 1 / (w_j - w_i), then
    # the change of each column's length removed (NumPy returns unit-norm eigenvectors).
    (a,), (ta,) = primals, tangents
    w, v = eig_p.bind(a)
    if type(ta) is Zero:
        return [w, v], _zeros_like(w, v)
    cdt = get_aval(v).dtype
    n = get_aval(a).shape[-1]
    vinv_da_v = mm(lu_solve(v, _as(ta, cdt)), v)
    f = _safe_reciprocal_offdiag(sub(_expand_w(w, row=True), _expand_w(w, row=False)), n,
                                 cdt)
    dv = mm(v, mul(f, vinv_da_v))
    along = reduce_sum_p.bind(mul(conj_p.bind(v), dv), axes=(get_aval(v).ndim - 2,))
    dv = sub(dv, mul(v, _expand_w(_as(real_p.bind(along), cdt), row=True)))
    return [w, v], [diag(vinv_da_v), _eig_phase_fixed(v, dv)]


def _eig_phase_fixed(v, dv):
    """LAPACK's geev makes the largest-modulus component of each eigenvector real, which
    fixes its phase: remove the tangent's rotation i Im(dv_k / v_k) v at that component."""
    from xnp.lax._elementwise import abs_p, imag_p
    from xnp.lax._reductions import argmax_p
    nd, n = get_aval(v).ndim, get_aval(v).shape[-2]
    k = argmax_p.bind(abs_p.bind(v), axis=nd - 2, index_dtype=np.dtype(np.int32))
    pick = _as(eq_p.bind(_expand_w(k, row=True), np.arange(n, dtype=np.int32)[:, None]),
               get_aval(v).dtype)
    vk = reduce_sum_p.bind(mul(v, pick), axes=(nd - 2,))
    dvk = reduce_sum_p.bind(mul(dv, pick), axes=(nd - 2,))
    vk = add(vk, _as(eq_p.bind(vk, 0), get_aval(v).dtype))     # a zero column: no change
    turn = mul(_as(imag_p.bind(div(dvk, vk)), get_aval(v).dtype), 1j)
    return sub(dv, mul(v, _expand_w(turn, row=True)))


cholesky_p.jvp = _cholesky_jvp
triangular_solve_p.jvp = _triangular_solve_jvp
triangular_solve_p.transpose = _triangular_solve_transpose
lu_p.jvp = _lu_jvp
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


for _p in (cholesky_p, triangular_solve_p, lu_p, qr_p, eigh_p, svd_p, eig_p):
    _batch_leading(_p)
del _p

from xnp.lax import _linalg_lower  # noqa: E402, F401  (the lowering rules)
