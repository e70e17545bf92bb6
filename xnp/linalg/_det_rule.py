"""The determinant from P A = L U, with a derivative that also holds at singular matrices.

d det(A) = tr(adj(A) dA), and with P A = L U, adj(A) = s adj(U) L^-1 P (s = det P), so
the tangent is s tr(adj(U) X) with X = L^-1 P dA. Let U' be U with its zero pivots
(at z_1 < ... < z_c) replaced by 1, M = U'^-1 and q = s * (product of the nonzero
pivots). With no zero pivot adj(U) = q M. Otherwise adj(U) is the limit of
eps^c q U(eps)^-1, U(eps) having eps at the zero pivots; by Woodbury its leading term is
the rank-one q r (M e_z1)(e_zc^T M), r = M[z_1, z_2] M[z_2, z_3] ... (1 when c = 1). So
the tangent stays finite and exact where dividing by det (or solving with U) would not.
"""

from __future__ import annotations

import numpy as np

import xnp
from transforms.custom_derivatives import custom_jvp
from xnp import lax
from xnp._util import raw, wrap


def _lu_sign_pivots(a):
    lu, piv, perm = (wrap(v) for v in lax.lu_p.bind(raw(a)))
    n = lu.shape[-1]
    d = xnp.diagonal(lu, axis1=-2, axis2=-1)
    swaps = xnp.sum(piv != xnp.arange(n, dtype=np.int32), axis=-1)
    return lu, perm, (1 - 2 * (swaps % 2)).astype(d.dtype), d


def _tri_solve(a, b, *, left_side, lower, unit_diagonal=False):
    return wrap(lax.triangular_solve_p.bind(
        raw(a), raw(b), left_side=left_side, lower=lower, transpose_a=False,
        conjugate_a=False, unit_diagonal=unit_diagonal))


@custom_jvp
def det_from_lu(a):
    _, _, sign, d = _lu_sign_pivots(a)
    return sign * xnp.prod(d, axis=-1)


@det_from_lu.defjvp
def _det_from_lu_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    lu, perm, sign, d = _lu_sign_pivots(a)
    zero = d == 0
    count = xnp.sum(zero, axis=-1)
    d1 = xnp.where(zero, xnp.ones((), d.dtype), d)
    q = sign * xnp.prod(d1, axis=-1)
    n = lu.shape[-1]
    u1 = xnp.where(xnp.eye(n, dtype=bool), d1[..., None, :], lu)       # U'
    x = _tri_solve(lu, xnp.take_along_axis(wrap(raw(da)), perm[..., :, None], axis=-2),
                   left_side=True, lower=True, unit_diagonal=True)       # L^-1 P dA
    y = _tri_solve(u1, x, left_side=True, lower=False)                   # U'^-1 X
    no_zero = xnp.trace(y, axis1=-2, axis2=-1)
    z = _tri_solve(u1, y, left_side=False, lower=False)                  # M X M
    idx = xnp.arange(n)
    at = xnp.where(zero, idx, n)
    # next zero pivot after each one (n if none): a reverse running minimum, shifted.
    after = xnp.flip(xnp.minimum.accumulate(xnp.flip(at, axis=-1), axis=-1), axis=-1)
    nxt = xnp.concatenate([after[..., 1:], xnp.full(at.shape[:-1] + (1,), n)], axis=-1)
    mz = _tri_solve(u1, xnp.broadcast_to(xnp.eye(n, dtype=d.dtype), u1.shape),
                    left_side=True, lower=False)                         # M
    link = xnp.take_along_axis(mz, xnp.minimum(nxt, n - 1)[..., :, None], axis=-1)[..., 0]
    r = xnp.prod(xnp.where(zero & (nxt < n), link, xnp.ones((), d.dtype)), axis=-1)
    first = xnp.argmax(zero, axis=-1)
    last = n - 1 - xnp.argmax(xnp.flip(zero, axis=-1), axis=-1)
    row = xnp.take_along_axis(z, last[..., None, None], axis=-2)[..., 0, :]
    corner = xnp.take_along_axis(row, first[..., None], axis=-1)[..., 0]
    t = xnp.where(count == 0, no_zero, r * corner)
    return det_from_lu(a), q * t
