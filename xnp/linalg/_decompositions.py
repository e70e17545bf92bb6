"""numpy.linalg's solvers and decompositions, built on the primitives of xnp.lax._linalg.

Inputs are converted as numpy.linalg converts them (integers and booleans to float64,
float32 and complex64 kept; float16 rejected), leading dimensions broadcast, and results
are NumPy's named tuples.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

import xnp
from transforms.core import CompositePrimitive, Tracer, get_aval
from xnp import lax
from xnp._array import ndarray
from xnp._ufunc_composites import sqrt_of_spread_v
from xnp._util import broadcast_to_v, cast_v, raw, wrap
from xnp.lax._linalg import _complex, mH, mT

LinAlgError = np.linalg.LinAlgError

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh",
           "svd", "svdvals", "pinv", "matrix_rank", "lstsq", "matrix_power", "multi_dot",
           "qr", "eig", "eigvals", "tensorsolve", "tensorinv", "EighResult",
           "SlogdetResult", "SVDResult", "QRResult", "EigResult"]


class EighResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class SlogdetResult(NamedTuple):
    sign: ndarray
    logabsdet: ndarray


class SVDResult(NamedTuple):
    U: ndarray
    S: ndarray
    Vh: ndarray


def linalg_dtype(*values) -> np.dtype:
    """numpy.linalg's computation dtype for these inputs (each must be supported:
    integers and booleans count as float64, float16 is rejected)."""
    dts = [get_aval(v).dtype for v in values]
    for dt in dts:
        if dt == np.float16 or dt.kind not in "biufc":
            raise TypeError(f"array type {dt} is unsupported in linalg")
    # each integer or boolean input counts as float64 on its own (float32 + int: double)
    return np.result_type(np.float32, *(np.float64 if dt.kind in "biu" else dt for dt in dts))


def _matrix(a, name: str):
    v = raw(a)
    if get_aval(v).ndim < 2:
        raise LinAlgError(f"{get_aval(v).ndim}-dimensional array given. Array must be at "
                          "least two-dimensional")
    return v


def _hermitian_square(v, hermitian):
    """Hermitian input must be square, checked before the dtype as NumPy does."""
    if hermitian and get_aval(v).shape[-1] != get_aval(v).shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return v


def _square(a, name: str):
    v = _matrix(a, name)
    shape = get_aval(v).shape
    if shape[-1] != shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return cast_v(v, linalg_dtype(v))


def _eye_like(v):
    aval = get_aval(v)
    return np.broadcast_to(np.eye(aval.shape[-1], dtype=aval.dtype), aval.shape)


def _lower_reflected(v, lower: bool):
    """The Hermitian matrix LAPACK sees when it reads only one triangle of ``v``."""
    n = get_aval(v).shape[-1]
    keep = np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n)))
    strict = keep - np.eye(n)
    tri = lax.mul_p.bind(v, keep.astype(get_aval(v).dtype))
    other = mH(lax.mul_p.bind(v, strict.astype(get_aval(v).dtype)))
    half = lax.add_p.bind(tri, other)
    if get_aval(v).dtype.kind == "c":      # LAPACK ignores the imaginary part of the diagonal
        d = np.eye(n, dtype=get_aval(v).dtype)
        half = lax.sub_p.bind(half, lax.mul_p.bind(
            lax.mul_p.bind(lax.imag_p.bind(half), d), 1j))
    return half


# --- solving ------------------------------------------------------------------------------------
def solve(a, b) -> ndarray:
    """Solve ``a @ x = b``, as :func:`numpy.linalg.solve` (NumPy 2 semantics: a 1-d ``b``
    is a vector, otherwise ``b`` is a stack of matrices). Raises LinAlgError for a
    singular ``a`` eagerly."""
    av = _square(a, "solve")
    bv = raw(b)
    dt = linalg_dtype(av, bv)
    av, bv = cast_v(av, dt), cast_v(bv, dt)
    a_shape, b_shape = get_aval(av).shape, get_aval(bv).shape
    vector = len(b_shape) == 1
    if vector:
        bv = lax.reshape_p.bind(bv, new_sizes=(b_shape[0], 1))
        b_shape = (b_shape[0], 1)
    if len(b_shape) < 2 or b_shape[-2] != a_shape[-1]:
        name, sig = ("solve1", "(m,m),(m)->(m)") if vector else ("solve", "(m,m),(m,n)->(m,n)")
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature {sig} (size {b_shape[-2]} is different "
                         f"from {a_shape[-1]})")
    batch = a_shape[:-2] if a_shape[:-2] == b_shape[:-2] else \
        np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    av = broadcast_to_v(av, batch + a_shape[-2:])
    bv = broadcast_to_v(bv, batch + b_shape[-2:])
    x = lax.solve_p.bind(av, bv, transpose_a=False)
    if vector:
        x = lax.reshape_p.bind(x, new_sizes=batch + (a_shape[-1],))
    return wrap(x)


def inv(a) -> ndarray:
    """The inverse of ``a`` (stacks of square matrices), as :func:`numpy.linalg.inv`."""
    av = _square(a, "inv")
    return wrap(lax.solve_p.bind(av, _eye_like(av), transpose_a=False))


def _lu_diagonal(v):
    """The diagonal of U and the permutation's parity sign (+1/-1) of P A = L U."""
    lu, piv, _ = lax.lu_p.bind(v)
    n = get_aval(lu).shape[-1]
    d = xnp.diagonal(wrap(lu), axis1=-2, axis2=-1)
    swaps = xnp.sum(wrap(piv) != xnp.arange(n, dtype=np.int32), axis=-1)
    return d, (1 - 2 * (swaps % 2)).astype(d.dtype)


def _det_via_lu(v):
    from xnp.linalg._det_rule import det_from_lu  # its derivative holds at singular A
    return raw(det_from_lu(wrap(v)))


def _slogdet_via_lu(v):
    d, sign = _lu_diagonal(v)
    mag = xnp.abs(d)
    zero = mag == 0
    logabs = xnp.sum(xnp.where(zero, -np.inf, xnp.log(xnp.where(zero, 1, mag))), axis=-1)
    unit = xnp.where(zero, 0, d / xnp.where(zero, 1, mag).astype(d.dtype))
    return [raw(sign * xnp.prod(unit, axis=-1)), raw(logabs)]


# Eagerly numpy.linalg's routines (one LAPACK call); under every transformation the
# product of U's diagonal in P A = L U, signed by the permutation's parity.
det_p = CompositePrimitive("det", impl=np.linalg.det, expand=_det_via_lu)
slogdet_p = CompositePrimitive("slogdet", impl=lambda v: list(np.linalg.slogdet(v)),
                               expand=_slogdet_via_lu, multiple_results=True)


def det(a) -> ndarray:
    """The determinant, as :func:`numpy.linalg.det` (from the LU factorization)."""
    return wrap(det_p.bind(_square(a, "det")))


def slogdet(a) -> SlogdetResult:
    """``(sign, log|det|)``, as :func:`numpy.linalg.slogdet` (sign 0 and log|det| -inf
    for singular matrices)."""
    sign, logabs = slogdet_p.bind(_square(a, "slogdet"))
    return SlogdetResult(wrap(sign), wrap(logabs))


def matrix_power(a, n: int) -> ndarray:
    """``a`` to the integer power ``n`` by repeated squaring (the inverse's power for
    ``n < 0``), as :func:`numpy.linalg.matrix_power`."""
    import operator
    v = raw(a)
    shape = get_aval(v).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        if len(shape) < 2:
            raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be at "
                              "least two-dimensional")
        raise LinAlgError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    if n == 0:
        return wrap(np.broadcast_to(np.eye(shape[-1], dtype=get_aval(v).dtype), shape).copy())
    if n == 1 and isinstance(a, xnp.ndarray):
        return a            # NumPy's returns its argument itself, so writes show in both
    if n < 0:
        v, n = raw(inv(wrap(v))), -n
    result, power = None, v
    while n:
        if n & 1:
            result = power if result is None else raw(xnp.matmul(wrap(result), wrap(power)))
        n >>= 1
        if n:
            power = raw(xnp.matmul(wrap(power), wrap(power)))
    return wrap(result)


def multi_dot(arrays, *, out=None) -> ndarray:
    """The product of a chain of matrices (1-d ends are vectors), as
    :func:`numpy.linalg.multi_dot`: multiplied in the order of fewest scalar
    multiplications (so results round as NumPy's do)."""
    if len(arrays) < 2:          # a sequence: len() raises TypeError for an iterator
        raise ValueError("Expecting at least two arrays.")
    if len(arrays) == 2:
        return xnp.dot(arrays[0], arrays[1], out=out)
    arrays = [xnp.asarray(a) for a in arrays]
    vec_first, vec_last = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if vec_first:
        arrays[0] = arrays[0][None, :]
    if vec_last:
        arrays[-1] = arrays[-1][:, None]
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                              "two-dimensional")
    dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    split = _chain_splits(dims)

    def product(i, j, out=None):
        if i == j:
            return arrays[i]
        k = split[i, j]
        return xnp.dot(product(i, k), product(k + 1, j), out=out)

    result = product(0, len(arrays) - 1, out=out)
    if vec_first and vec_last:
        return result[0, 0]
    return result.ravel() if vec_first or vec_last else result


def _chain_splits(dims: list) -> dict:
    """For the chain of matrices of shapes ``dims[i] x dims[i + 1]``: the cheapest split
    ``k`` of each sub-chain ``(i, j)`` (first of equal costs), by dynamic programming."""
    n = len(dims) - 1
    if n == 3:          # as NumPy: ties go to the right-nested product
        left = dims[0] * dims[2] * (dims[1] + dims[3])
        right = dims[1] * dims[3] * (dims[0] + dims[2])
        return {(0, 2): 1 if left < right else 0, (0, 1): 0, (1, 2): 1}
    cost, split = {(i, i): 0 for i in range(n)}, {}
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                c = cost[i, k] + cost[k + 1, j] + dims[i] * dims[k + 1] * dims[j + 1]
                if best is None or c < best:
                    best, split[i, j] = c, k
            cost[i, j] = best
    return split


# --- decompositions -----------------------------------------------------------------------------
# Eagerly numpy.linalg's routine, which reads one triangle itself; under transformations
# the factorization primitives see the Hermitian matrix that triangle stands for.
cholesky_lower_p = CompositePrimitive(
    "cholesky_lower", impl=np.linalg.cholesky,
    expand=lambda v: lax.cholesky_p.bind(_lower_reflected(v, lower=True)))
eigh_triangle_p = CompositePrimitive(
    "eigh_triangle", impl=lambda v, *, lower: list(np.linalg.eigh(v, "L" if lower else "U")),
    expand=lambda v, *, lower: lax.eigh_p.bind(_lower_reflected(v, lower), lower=lower),
    multiple_results=True)
eigvalsh_triangle_p = CompositePrimitive(
    "eigvalsh_triangle", impl=lambda v, *, lower: np.linalg.eigvalsh(v, "L" if lower else "U"),
    expand=lambda v, *, lower: eigh_triangle_p.expand(v, lower=lower)[0])


def cholesky(a, /, *, upper: bool = False) -> ndarray:
    """The Cholesky factor (lower, or upper with ``upper=True``), as
    :func:`numpy.linalg.cholesky`; only the lower (``upper=True``: upper) triangle of
    ``a`` is read."""
    a = _square(a, "cholesky")
    if not upper:
        return wrap(cholesky_lower_p.bind(a))
    # U = L^H where L L^H = a^H, whose lower triangle is the conjugated upper one of a
    u = wrap(mH(cholesky_lower_p.bind(mH(a))))
    return u + 0 if xnp.iscomplexobj(u) else u    # +0 imaginary parts, not conj's -0


def _uplo(UPLO) -> bool:
    UPLO = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == "L"


def eigh(a, UPLO: str = "L") -> EighResult:
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, as
    :func:`numpy.linalg.eigh`; only the ``UPLO`` triangle is read."""
    lower = _uplo(UPLO)
    w, v = eigh_triangle_p.bind(_square(a, "eigh"), lower=lower)
    return EighResult(wrap(w), wrap(v))


def eigvalsh(a, UPLO: str = "L") -> ndarray:
    """Eigenvalues of Hermitian matrices, as :func:`numpy.linalg.eigvalsh`."""
    lower = _uplo(UPLO)
    return wrap(eigvalsh_triangle_p.bind(_square(a, "eigvalsh"), lower=lower))


class QRResult(NamedTuple):
    Q: ndarray
    R: ndarray


class EigResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


def qr(a, mode: str = "reduced"):
    """The QR decomposition, as :func:`numpy.linalg.qr` (modes 'reduced', 'complete',
    'r' and 'raw': LAPACK's Householder form ``(h, tau)``, ``h`` transposed as NumPy
    returns it). Derivatives need m >= n and mode 'reduced' (or square matrices)."""
    if mode in ("f", "full", "e", "economic"):     # NumPy's deprecated spellings
        warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor "
                      "backward compatibility let mode default." if mode[0] == "f" else
                      "The 'economic' option is deprecated.", DeprecationWarning,
                      stacklevel=2)
        mode = "reduced" if mode[0] == "f" else "economic"
    elif mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    av = _matrix(a, "qr")
    av = cast_v(av, linalg_dtype(av))
    if mode in ("raw", "economic"):               # a plain tuple, as NumPy's
        h, tau = qr_raw_p.bind(av)
        return wrap(mT(h)) if mode == "economic" else (wrap(h), wrap(tau))
    q, r = lax.qr_p.bind(av, full_matrices=mode == "complete")
    return wrap(r) if mode == "r" else QRResult(wrap(q), wrap(r))


def _qr_raw_numpy(v):
    h, tau = np.linalg.qr(v, mode="raw")
    return [h, tau]


def _qr_raw_householder(v):
    """LAPACK's geqr2 in xnp operations: for each column k, the reflector
    ``H = I - tau [1; u] [1; u]^H`` that maps ``a[k:, k]`` to ``beta e1`` (``beta`` real,
    of the sign opposite to ``Re a[k, k]``; ``tau = 0`` when there is nothing to do), its
    ``u`` stored below the diagonal, and ``H^H`` applied to the columns on the right."""
    a = xnp.array(wrap(v))
    m, n = a.shape[-2:]
    taus = []
    for k in range(min(m, n)):
        alpha, x = a[..., k, k], a[..., k + 1:, k]
        xsq = xnp.sum(xnp.abs(x) ** 2, axis=-1)
        nothing = (xsq == 0) & (xnp.imag(alpha) == 0)
        norm = wrap(sqrt_of_spread_v(raw(xnp.abs(alpha) ** 2 + xsq)))   # 0 slope at 0
        beta = -xnp.copysign(norm, xnp.real(alpha))
        beta = xnp.where(nothing, 1, beta).astype(beta.dtype)
        tau = xnp.where(nothing, 0, (beta - alpha) / beta).astype(a.dtype)
        u = x / xnp.where(nothing, 1, alpha - beta).astype(a.dtype)[..., None]
        a[..., k, k] = xnp.where(nothing, alpha, beta).astype(a.dtype)
        a[..., k + 1:, k] = u
        if k + 1 < n:
            w = xnp.concatenate([xnp.ones(u.shape[:-1] + (1,), a.dtype), u], axis=-1)
            rest = a[..., k:, k + 1:]
            proj = xnp.sum(xnp.conj(w)[..., :, None] * rest, axis=-2)
            a[..., k:, k + 1:] = rest - (xnp.conj(tau)[..., None, None] * w[..., :, None]
                                         * proj[..., None, :])
        taus.append(tau)
    tau = (xnp.stack(taus, axis=-1) if taus else
           xnp.zeros(a.shape[:-2] + (0,), a.dtype))
    return [raw(xnp.swapaxes(a, -1, -2)), raw(tau)]


# Eagerly numpy.linalg.qr's raw mode (LAPACK geqrf); under transformations the same
# Householder reflections from xnp operations.
qr_raw_p = CompositePrimitive("qr_raw", impl=_qr_raw_numpy, expand=_qr_raw_householder,
                              multiple_results=True)


def _all_real(a, w) -> bool:
    """NumPy's rule for a real input: real results when every eigenvalue is real. The
    dtype then depends on the values, so it applies to concrete results only."""
    return (not isinstance(w, Tracer) and get_aval(a).dtype.kind != "c"
            and not np.any(np.imag(w)))


def eig(a) -> EigResult:
    """Eigenvalues and unit-norm eigenvectors of general square matrices, as
    :func:`numpy.linalg.eig`. Concrete real input whose eigenvalues are all real gives
    real arrays, as in NumPy; traced values (grad, vmap, jit) always give complex ones,
    as in JAX, since their dtype cannot depend on the values."""
    av = _square(_finite_before_dtype(a), "eig")
    w, v = lax.eig_p.bind(av)
    if _all_real(av, w):
        w, v = lax.real_p.bind(w), lax.real_p.bind(v)
    return EigResult(wrap(w), wrap(v))


def eigvals(a) -> ndarray:
    """Eigenvalues of general square matrices, as :func:`numpy.linalg.eigvals` (real or
    complex as described in :func:`eig`)."""
    av = _square(_finite_before_dtype(a), "eigvals")
    w = eigvals_p.bind(av)
    return wrap(lax.real_p.bind(w) if _all_real(av, w) else w)


def _finite_before_dtype(a):
    """As NumPy's eig: a concrete float16 matrix with NaN or inf is a LinAlgError."""
    v = raw(a) if isinstance(a, ndarray) else a
    if isinstance(v, np.ndarray) and v.dtype == np.float16 and v.ndim >= 2 and \
            v.shape[-1] == v.shape[-2] and not np.isfinite(v).all():
        raise LinAlgError("Array must not contain infs or NaNs")
    return a


eigvals_p = CompositePrimitive(
    "eigvals", impl=lambda v: np.asarray(np.linalg.eigvals(v), _complex(v.dtype)),
    expand=lambda v: lax.eig_p.bind(v)[0])
svdvals_p = CompositePrimitive(
    "svdvals", impl=lambda v: np.linalg.svd(v, compute_uv=False),
    expand=lambda v: lax.svd_p.bind(v, full_matrices=False)[1])


def svd(a, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False):
    """The singular value decomposition, as :func:`numpy.linalg.svd`. With
    ``hermitian=True`` it comes from ``eigh`` as NumPy's does (singular values are the
    eigenvalues' magnitudes, in decreasing order; ``full_matrices`` is then ignored).
    Derivatives need ``full_matrices=False`` or square matrices."""
    av = _hermitian_square(_matrix(a, "svd"), hermitian)
    av = cast_v(av, linalg_dtype(av))
    if hermitian:
        return _hermitian_svd(wrap(av), compute_uv)
    if not compute_uv:
        return wrap(svdvals_p.bind(av))
    u, s, vh = lax.svd_p.bind(av, full_matrices=bool(full_matrices))
    return SVDResult(wrap(u), wrap(s), wrap(vh))


def _hermitian_svd(a, compute_uv):
    if not compute_uv:
        return xnp.flip(xnp.sort(xnp.abs(eigvalsh(a)), axis=-1), axis=-1)
    w, v = eigh(a)
    order = xnp.flip(xnp.argsort(xnp.abs(w), axis=-1), axis=-1)
    w = xnp.take_along_axis(w, order, axis=-1)
    u = xnp.take_along_axis(v, order[..., None, :], axis=-1)
    # the eigenvalues' signs move into vh; a zero eigenvalue counts as positive, so
    # that vh stays unitary for singular matrices
    sign = xnp.copysign(xnp.ones_like(w), w)
    vh = xnp.conj(xnp.swapaxes(u * sign[..., None, :].astype(u.dtype), -1, -2))
    return SVDResult(u, xnp.abs(w), vh)


def svdvals(x, /) -> ndarray:
    """The singular values, as :func:`numpy.linalg.svdvals`."""
    return svd(x, compute_uv=False)


def _default_rtol(shape, dtype):
    return max(shape[-2:]) * np.finfo(dtype).eps


def _real_dtype(dtype):
    return np.finfo(dtype).dtype


def _tolerance(s, rcond):
    """``rcond * max(s)`` per matrix, shaped to compare with ``s`` (..., k)."""
    return xnp.asarray(rcond)[..., None] * xnp.max(s, axis=-1, keepdims=True, initial=0)


_NO_VALUE = object()


def pinv(a, rcond=None, hermitian: bool = False, *, rtol=_NO_VALUE) -> ndarray:
    """The Moore-Penrose pseudo-inverse from the SVD, as :func:`numpy.linalg.pinv`:
    singular values at most ``rcond * max(s)`` count as zero. ``rcond`` defaults to
    1e-15; ``rtol=None`` means ``max(M, N) * eps``; giving both raises ValueError."""
    if rcond is not None and rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    av = _matrix(a, "pinv")
    shape = get_aval(av).shape
    if rcond is None and rtol is None:      # eps of the input's dtype: ValueError for ints
        np.finfo(get_aval(av).dtype)
    if 0 in shape[-2:]:         # NumPy keeps the input's dtype here
        return xnp.zeros((*shape[:-2], shape[-1], shape[-2]), get_aval(av).dtype)
    av = wrap(cast_v(_hermitian_square(av, hermitian), linalg_dtype(av)))
    if rcond is None:
        rcond = (1e-15 if rtol is _NO_VALUE else rtol if rtol is not None else
                 _default_rtol(shape, _real_dtype(av.dtype)))
    from xnp.linalg._pinv_rule import pinv_dispatch  # exact derivative at repeated s
    return pinv_dispatch(av, rcond, hermitian, _tolerance)


def matrix_rank(A, tol=None, hermitian: bool = False, *, rtol=None) -> ndarray:
    """The number of singular values above the tolerance, as
    :func:`numpy.linalg.matrix_rank` (0-d and 1-d inputs: 1 unless all zero; empty
    matrices have rank 0). ``tol`` is absolute, ``rtol`` relative to the largest
    singular value (default ``max(M, N) * eps``); they cannot both be given."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = xnp.asarray(A)
    if A.ndim < 2:
        nonzero = xnp.asarray(xnp.any(A != 0))
        if not isinstance(raw(nonzero), Tracer):
            return int(bool(nonzero))       # NumPy returns a Python int here
        return nonzero.astype(np.int64)
    A = A.astype(linalg_dtype(_hermitian_square(raw(A), hermitian)))
    s = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        r = rtol if rtol is not None else _default_rtol(A.shape, _real_dtype(A.dtype))
        tol = _tolerance(s, r)
    else:
        tol = xnp.asarray(tol)[..., None]
    return xnp.sum(s > tol, axis=-1)


def lstsq(a, b, rcond=None) -> tuple:
    """Least-squares solution of ``a @ x = b``, as :func:`numpy.linalg.lstsq` (eagerly
    LAPACK's gelsd; under transformations via the SVD). The residuals' shape depends on
    the rank, so they need concrete inputs. Returns the plain tuple ``(x, residuals,
    rank, s)``, as NumPy (no named fields, unlike ``svd``'s result)."""
    av, bv = raw(a), raw(b)
    for nd in (get_aval(av).ndim, max(get_aval(bv).ndim, 2) if get_aval(bv).ndim else 0):
        if nd != 2:
            raise LinAlgError(f"{nd}-dimensional array given. Array must be "
                              "two-dimensional")
    m, n = get_aval(av).shape
    if get_aval(bv).shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    dt = linalg_dtype(av, bv)
    av, bv = cast_v(av, dt), cast_v(bv, dt)
    if rcond is None:
        rcond = np.finfo(_real_dtype(dt)).eps * max(m, n)
    return tuple(map(wrap, lstsq_p.bind(av, bv, rcond=rcond)))


def _lstsq_numpy(av, bv, *, rcond):
    x, residuals, rank, s = np.linalg.lstsq(av, bv, rcond=rcond)
    return [x, residuals, np.int32(rank), s]


def _lstsq_via_svd(av, bv, *, rcond):
    m, n = get_aval(av).shape
    x = pinv(wrap(av), rcond=rcond)
    s = svdvals(wrap(av))
    sol = xnp.matmul(x, wrap(bv))
    rank = matrix_rank(wrap(av), tol=xnp.max(s) * rcond) if s.size else xnp.asarray(0)
    from transforms.core import concrete_or_error
    r = int(concrete_or_error(raw(rank), "lstsq's rank (the residuals' shape)"))
    if r == n and m > n:
        diff = xnp.subtract(xnp.matmul(wrap(av), sol), wrap(bv))
        residuals = xnp.sum(xnp.abs(diff) ** 2, axis=0)
        if get_aval(bv).ndim == 1:
            residuals = xnp.reshape(residuals, (1,))
    else:
        residuals = xnp.zeros((0,), _real_dtype(get_aval(av).dtype))
    return [raw(sol), raw(residuals), raw(rank.astype(np.int32)), raw(s)]


lstsq_p = CompositePrimitive("lstsq", impl=_lstsq_numpy, expand=_lstsq_via_svd,
                             multiple_results=True)


def tensorsolve(a, b, axes=None) -> ndarray:
    """Solve ``tensordot(a, x, x.ndim) = b`` for ``x``, as :func:`numpy.linalg.tensorsolve`:
    ``axes`` of ``a`` are first moved to the end; the leading ``b.ndim`` dimensions of
    ``a`` index the equations and the rest the unknowns (their products must match)."""
    a, b = xnp.asarray(a), xnp.asarray(b)
    nd = a.ndim
    if axes is not None:
        order = list(range(nd))
        for k in axes:                 # NumPy's order: each named axis to the end in turn
            order.remove(k)
            order.append(k)
        a = xnp.transpose(a, order)
    x_shape = a.shape[b.ndim:]
    prod = int(np.prod(x_shape))
    if int(np.prod(a.shape[:b.ndim])) != prod:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    x = solve(xnp.reshape(a, (prod, prod)), xnp.reshape(b, (prod,)))
    return xnp.reshape(x, x_shape)


def tensorinv(a, ind: int = 2) -> ndarray:
    """The inverse of ``a`` for ``tensordot(..., ind)``, as :func:`numpy.linalg.tensorinv`:
    the result has shape ``a.shape[ind:] + a.shape[:ind]``."""
    a = xnp.asarray(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    out_shape = a.shape[ind:] + a.shape[:ind]
    prod = int(np.prod(a.shape[:ind]))
    return xnp.reshape(inv(xnp.reshape(a, (prod, -1))), out_shape)
