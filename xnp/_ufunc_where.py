"""Floating-point errors of a ufunc called with ``where=``.

NumPy computes only where ``where`` is true, so ``np.divide(a, b, out=c, where=b != 0)``
warns about nothing. xnp's ufuncs compute every element and then select; called eagerly,
they would warn (or raise, under ``errstate``) about elements ``where`` leaves out. Here
the computation runs with the error state set to record instead; if it recorded an error,
the selected elements alone are computed again under the caller's error state, which then
warns, raises or calls back exactly as NumPy would.
"""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer

_PY_SCALARS = (bool, int, float, complex)


def call_where(fn, values: list, where):
    """``fn(*values)`` (functions on values), with ``where``'s floating-point errors."""
    if where is True or isinstance(where, Tracer) or \
            any(isinstance(v, Tracer) for v in values):
        return fn(*values)
    modes = {k: "call" for k, m in np.geterr().items() if m != "ignore"}
    if not modes:
        return fn(*values)
    seen = []
    with np.errstate(call=lambda kind, flag: seen.append(kind), **modes):
        result = fn(*values)
    if seen:
        _compute_selected(fn, values, where)
    return result


def _compute_selected(fn, values, where):
    import xnp
    from xnp._util import raw
    shape = np.broadcast_shapes(*(np.shape(v) for v in values), np.shape(where))
    mask = xnp.broadcast_to(xnp.asarray(where, dtype=bool), shape)
    if not xnp.any(mask):
        return
    selected = [v if type(v) in _PY_SCALARS else raw(xnp.broadcast_to(v, shape)[mask])
                for v in values]
    fn(*selected)
