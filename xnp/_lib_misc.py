"""Assorted numpy.lib functions: mask_indices and apply_over_axes.

``mask_indices`` returns the indices of the nonzero entries of a mask (a
value-dependent length, but its only input is the Python integer ``n``), and
``apply_over_axes`` calls a user function repeatedly, so it transforms whenever that
function does.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np

import xnp
from transforms.core import _EVAL_TRACE, concrete_or_error, set_current_trace
from xnp._array import ndarray

__all__ = ["mask_indices", "apply_over_axes"]


def mask_indices(n: int, mask_func: Callable, k: Any = 0) -> tuple[ndarray, ...]:
    """The indices of the nonzero entries of ``mask_func(ones((n, n), int), k)``, as
    :func:`numpy.mask_indices` (for example ``mask_func=xnp.triu``).

    ``mask_func`` receives an xnp int64 array; NumPy's own ``numpy.triu``/``numpy.tril``
    work too (they dispatch to xnp). The result is a tuple of two int64 index arrays.

    Differences from NumPy: none known. ``n`` and ``k`` must be concrete; ``mask_func`` is
    evaluated eagerly, even inside ``jit``/``vmap`` (the mask depends on ``n`` and ``k``
    only, and its nonzero count sets the output length), so it must not close over
    traced values.
    """
    n = operator.index(n)
    k = concrete_or_error(k, "mask_indices' k")
    # The mask depends on n and k only: it is computed eagerly even inside a
    # transformation, so the (value-dependent) number of indices is known.
    with set_current_trace(_EVAL_TRACE):
        mask = xnp.asarray(mask_func(xnp.ones((n, n), dtype=np.int64), k))
        return xnp.nonzero(mask != 0)


def apply_over_axes(func: Callable, a, axes) -> ndarray:
    """Apply ``func(a, axis)`` repeatedly over several axes, as
    :func:`numpy.apply_over_axes`.

    For each axis in ``axes`` in turn, ``func`` is called with the current result and the
    axis (negative axes count from the end of ``a``'s original dimensions). The result of
    each call must have the same number of dimensions as its input, or one fewer (the
    removed axis is then re-inserted with length 1); otherwise ValueError, as in NumPy.

    Differences from NumPy: none known; ``func`` receives xnp arrays, so it should be an
    xnp function (NumPy's ufunc methods and functions dispatch to xnp as well).
    """
    val = xnp.asarray(a)
    nd = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        axis = operator.index(axis)
        if axis < 0:
            axis = nd + axis
        res = xnp.asarray(func(val, axis))
        if res.ndim != val.ndim:
            res = xnp.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val
