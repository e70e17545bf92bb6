"""The pseudo-inverse with its derivative at constant rank.

With P = pinv(A) the derivative is (Golub and Pereyra, 1973)

    dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P.

Differentiating the SVD that computes P instead gives a wrong answer wherever singular
values coincide (the SVD's rule drops the terms coupling equal singular values, whose
vectors are not unique): at the identity it missed every off-diagonal entry.
"""

from __future__ import annotations

import numpy as np

import xnp
from transforms.core import CompositePrimitive, Tracer
from transforms.custom_derivatives import custom_jvp
from xnp._util import raw, wrap
from xnp.lax._linalg import mH
from xnp.linalg._decompositions import _chain_splits, _lower_reflected


def _h(x):
    return wrap(mH(raw(x)))


def _lower_hermitian(x):
    """The Hermitian matrix eigh reads from the lower triangle (and real diagonal)."""
    return wrap(_lower_reflected(raw(x), lower=True))


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
    dah, ph = _h(da), _h(p)
    # the formula multiplied out, each product in its cheapest order: no m x m or n x n
    # matrix is formed unless it is the small side (a 400000 x 2 matrix works)
    dp = _chain(p, ph, dah) - _chain(p, ph, dah, a, p) + _chain(dah, ph, p) \
        - _chain(p, a, dah, ph, p) - _chain(p, da, p)
    return p, dp


def _chain(*mats):
    """The (batched) product of a chain of matrices, in the order of fewest scalar
    multiplications for their shapes."""
    split = _chain_splits([x.shape[-2] for x in mats] + [mats[-1].shape[-1]])

    def product(i, j):
        if i == j:
            return mats[i]
        k = split[i, j]
        return xnp.matmul(product(i, k), product(k + 1, j))
    return product(0, len(mats) - 1)


def _pinv_numpy(v, *, rcond, hermitian, tolerance):
    return np.linalg.pinv(v, rcond=rcond, hermitian=hermitian)


def _pinv_expand(v, *, rcond, hermitian, tolerance):
    return raw(pinv_core(wrap(v), rcond, hermitian, tolerance))


# Eagerly numpy.linalg.pinv (one call instead of an SVD and a dozen small primitives);
# under every transformation pinv_core, whose JVP is the constant-rank formula above.
pinv_p = CompositePrimitive("pinv", impl=_pinv_numpy, expand=_pinv_expand)


def pinv_dispatch(a, rcond, hermitian, tolerance):
    """``pinv_core(a, ...)``, through ``pinv_p`` unless ``rcond`` itself is traced."""
    rc = raw(rcond) if isinstance(rcond, xnp.ndarray) else rcond
    if isinstance(rc, Tracer):
        return pinv_core(a, rcond, hermitian, tolerance)
    return wrap(pinv_p.bind(raw(a), rcond=rc, hermitian=hermitian, tolerance=tolerance))
