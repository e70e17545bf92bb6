"""Special functions: erf, erfc, erf_inv, lgamma and digamma, with all their rules.

Elementwise with NumPy ufunc semantics in the float dtype NumPy's float ufuncs (like sin)
use; the NumPy implementations are in ``_special_impl``, the lowerings are CHLO's ops
computed in float64.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _special_impl as special
from xnp.lax._base import ufunc_primitive
from xnp.lax._elementwise import _float_impl

erf_p = ufunc_primitive("erf", np.sin, impl=_float_impl(special.erf))
erfc_p = ufunc_primitive("erfc", np.sin, impl=_float_impl(special.erfc))
erf_inv_p = ufunc_primitive("erf_inv", np.sin, impl=_float_impl(special.erf_inv))
lgamma_p = ufunc_primitive("lgamma", np.sin, impl=_float_impl(special.lgamma))
digamma_p = ufunc_primitive("digamma", np.sin, impl=_float_impl(special.digamma))

__all__ = ["erf_p", "erfc_p", "erf_inv_p", "lgamma_p", "digamma_p"]


# --- derivatives ------------------------------------------------------------------------------
from xnp.lax._ad_util import defjvp, defjvp_ans  # noqa: E402
from xnp.lax._elementwise import (  # noqa: E402
    add,
    div,
    exp,
    lt_p,
    mul,
    neg,
    select,
    sin,
    sub,
)

_SQRT_PI = np.sqrt(np.pi)


def _trigamma(x):
    """psi'(x) from primitives: reflection below 1/2, recurrence up to 6, then the
    asymptotic series (used by digamma's derivative)."""
    reflect = lt_p.bind(x, 0.5)
    y = select(reflect, sub(1.0, x), x)
    total = mul(y, 0.0)
    for k in range(6):
        total = add(total, div(1.0, mul(add(y, k), add(y, k))))
    z = add(y, 6.0)
    iz = div(1.0, z)
    iz2 = mul(iz, iz)
    series = mul(iz, add(1.0, mul(iz, add(0.5, mul(iz, add(1 / 6, mul(iz2, add(
        -1 / 30, mul(iz2, add(1 / 42, mul(iz2, -1 / 30)))))))))))
    direct = add(total, series)
    s = sin(mul(x, np.pi))
    return select(reflect, sub(div(np.pi ** 2, mul(s, s)), direct), direct)


defjvp(erf_p, lambda g, x: mul(g, mul(2 / _SQRT_PI, exp(neg(mul(x, x))))))
defjvp(erfc_p, lambda g, x: mul(g, mul(-2 / _SQRT_PI, exp(neg(mul(x, x))))))
defjvp_ans(erf_inv_p, lambda g, ans, x: mul(g, mul(_SQRT_PI / 2, exp(mul(ans, ans)))))
defjvp(lgamma_p, lambda g, x: mul(g, digamma_p.bind(x)))
defjvp(digamma_p, lambda g, x: mul(g, _trigamma(x)))


# --- batching and lowering --------------------------------------------------------------------
from xnp.lax._batch_util import batch_elementwise  # noqa: E402
from xnp.lax._lower_util import in_float64, lower_ufunc, op, signbit  # noqa: E402


def _full(ctx, like, value):
    return ctx.full(like.shape, value, like.dtype)


def _digamma(ctx, x):
    # The eager poles at signed zeros: -inf at +0.0, +inf at -0.0 (CHLO gives NaN).
    inf = ctx.select(signbit(ctx, x), _full(ctx, x, np.inf), _full(ctx, x, -np.inf))
    return ctx.select(ctx.compare(x, _full(ctx, x, 0), "EQ"), inf, op("chlo.digamma")(ctx, x))



for _prim, _fn in [(erf_p, in_float64(op("chlo.erf"))), (erfc_p, in_float64(op("chlo.erfc"))),
                   (erf_inv_p, in_float64(op("chlo.erf_inv"))),
                   (lgamma_p, in_float64(op("chlo.lgamma"))),
                   (digamma_p, in_float64(_digamma))]:
    batch_elementwise(_prim)
    lower_ufunc(_prim, _fn)
del _prim, _fn
