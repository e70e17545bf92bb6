"""Ufuncs that are not NumPy's (``scipy.special.gammaln``, ``expit``, ``erf``, ...) called
on xnp arrays, through ``__array_ufunc__``.

On concrete arrays the ufunc runs on their NumPy values and its array results come back
as xnp arrays (0-d ones as NumPy scalars), as NumPy's own ufuncs do; ``out=`` xnp arrays
are written. On traced arrays, the SciPy special functions that xnp has primitives or
compositions for run as xnp functions, so ``grad`` and ``vmap`` pass through them; any
other foreign ufunc raises the conversion error that says what to write instead.
"""

from __future__ import annotations

import sys

import numpy as np

import xnp
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._util import numpy_values, raw


def _unary(prim):
    def fn(x):
        return wrap_scalar_result(prim.bind(raw(xnp.asarray(x))))
    return fn


def _expit(x):
    return 0.5 * xnp.tanh(0.5 * xnp.asarray(x)) + 0.5


def _logit(x):
    x = xnp.asarray(x)
    return xnp.log(x) - xnp.log1p(-x)


def _ndtr(x):
    return 0.5 * _unary(lax.erfc_p)(-xnp.asarray(x) / np.sqrt(2.0))


# scipy.special's ufuncs that have an xnp composition, for traced arguments.
_TRACED = {
    "erf": _unary(lax.erf_p), "erfc": _unary(lax.erfc_p), "erfinv": _unary(lax.erf_inv_p),
    "gammaln": _unary(lax.lgamma_p), "psi": _unary(lax.digamma_p),
    "digamma": _unary(lax.digamma_p), "expit": _expit, "logit": _logit, "ndtr": _ndtr,
    "expm1": lambda x: xnp.expm1(x), "log1p": lambda x: xnp.log1p(x),
    "exp2": lambda x: xnp.exp2(x), "cbrt": lambda x: xnp.cbrt(x),
}


def _traced_version(ufunc):
    special = sys.modules.get("scipy.special")
    name = ufunc.__name__
    if special is None or getattr(special, name, None) is not ufunc:
        return None
    return _TRACED.get(name)


def call_foreign_ufunc(ufunc, method, inputs, kwargs, traced: bool):
    if traced and method == "__call__" and not kwargs:
        fn = _traced_version(ufunc)
        if fn is not None:
            return fn(*inputs)
    out = kwargs.get("out")
    into_xnp = out is not None and any(isinstance(o, ndarray) for o in out)
    if into_xnp:
        # NumPy copies of the xnp outputs (so ``where=`` keeps their other elements and
        # NumPy's casting rules apply), written back afterwards.
        copies = tuple(np.array(o) if isinstance(o, ndarray) else o for o in out)
        kwargs = {**kwargs, "out": copies}
    # A traced value raises xnp's conversion error here.
    result = getattr(ufunc, method)(*numpy_values(inputs), **numpy_values(kwargs))
    if into_xnp:
        for o, c in zip(out, copies):
            if isinstance(o, ndarray):
                o[...] = c
        return out[0] if len(out) == 1 else out
    if out is not None:
        return result
    if isinstance(result, tuple):
        return tuple(_finish(r) for r in result)
    return _finish(result)


def _finish(r):
    if type(r) is np.ndarray:
        return wrap_scalar_result(r) if r.ndim == 0 else wrap(r)
    return r
