"""The pseudo-inverse with its derivative at constant rank.

With P = pinv(A) the derivative is (Golub and Pereyra, 1973)

    dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P.

Differentiating the SVD that computes P instead gives a wrong answer wherever singular
values coincide (the SVD's rule drops the terms coupling equal singular values, whose
vectors are not unique): at the identity it missed every off-diagonal entry.
"""

from __future__ import annotations

import xnp
from transforms.custom_derivatives import custom_jvp


def _h(x):
    return xnp.conj(xnp.swapaxes(x, -1, -2))


def _lower_hermitian(x):
    low = xnp.tril(x, -1)
    diag = xnp.real(xnp.diagonal(x, axis1=-2, axis2=-1)).astype(x.dtype)
    return low + _h(low) + diag[..., None] * xnp.eye(x.shape[-1], dtype=x.dtype)


def _pinv_from_svd(a, rcond, hermitian, tolerance):
    u, s, vh = xnp.linalg.svd(a, full_matrices=False, hermitian=hermitian)
    large = s > tolerance(s, rcond)
    s_inv = xnp.where(large, 1 / xnp.where(large, s, 1), 0).astype(a.dtype)
    return xnp.matmul(_h(vh) * s_inv[..., None, :], _h(u))


pinv_core = custom_jvp(_pinv_from_svd, nondiff_argnums=(1, 2, 3))


@pinv_core.defjvp
def _pinv_core_jvp(rcond, hermitian, tolerance, primals, tangents):
    (a,), (da,) = primals, tangents
    p = pinv_core(a, rcond, hermitian, tolerance)
    if hermitian:       # eigh reads the lower triangle and the diagonal's real part
        a, da = _lower_hermitian(a), _lower_hermitian(da)
    m, n = a.shape[-2:]
    dah, ph = _h(da), _h(p)
    left = xnp.eye(m, dtype=a.dtype) - xnp.matmul(a, p)           # I - A P   (m x m)
    right = xnp.eye(n, dtype=a.dtype) - xnp.matmul(p, a)          # I - P A   (n x n)
    dp = -xnp.matmul(xnp.matmul(p, da), p)
    dp = dp + xnp.matmul(xnp.matmul(xnp.matmul(p, ph), dah), left)
    dp = dp + xnp.matmul(xnp.matmul(right, dah), xnp.matmul(ph, p))
    return p, dp
