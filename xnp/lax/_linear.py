"""``dot_general``: the one contraction primitive behind matmul, dot, tensordot and einsum.

Output dimensions are ordered (batch, lhs free, rhs free), as in XLA. The NumPy
implementation moves dimensions into (batch, free, contracting) order and calls
``numpy.matmul`` once, so it runs at BLAS speed.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp._dtypes import result_dtype_of_avals
from xnp.lax._base import primitive


def _free_dims(ndim, contract, batch):
    return [d for d in range(ndim) if d not in contract and d not in batch]


def _dot_general_eval(x, y, *, dimension_numbers, preferred_element_type=None):
    (lc, rc), (lb, rb) = dimension_numbers
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise TypeError(f"dot_general: mismatched dimension numbers {dimension_numbers}")
    for a, b in [*zip(lc, rc), *zip(lb, rb)]:
        if not (0 <= a < x.ndim and 0 <= b < y.ndim) or x.shape[a] != y.shape[b]:
            raise ValueError(
                f"dot_general: shapes {x.shape} and {y.shape} are not aligned for "
                f"dimension numbers {dimension_numbers}")
    shape = (*(x.shape[d] for d in lb), *(x.shape[d] for d in _free_dims(x.ndim, lc, lb)),
             *(y.shape[d] for d in _free_dims(y.ndim, rc, rb)))
    dtype = preferred_element_type or result_dtype_of_avals([x, y])
    return ShapedArray(shape, dtype, x.weak_type and y.weak_type)


def _dot_general_impl(x, y, *, dimension_numbers, preferred_element_type=None):
    x, y = np.asarray(x), np.asarray(y)
    (lc, rc), (lb, rb) = dimension_numbers
    if preferred_element_type is not None:
        x = x.astype(preferred_element_type, copy=False)
        y = y.astype(preferred_element_type, copy=False)
    if not lb and x.ndim == 2 and y.ndim == 2 and lc == (1,) and rc == (0,):
        return x @ y
    lf, rf = _free_dims(x.ndim, lc, lb), _free_dims(y.ndim, rc, rb)
    xt = np.transpose(x, (*lb, *lf, *lc))
    yt = np.transpose(y, (*rb, *rc, *rf))
    bshape = xt.shape[:len(lb)]
    m = int(np.prod(xt.shape[len(lb):len(lb) + len(lf)], dtype=np.int64))
    k = int(np.prod([x.shape[d] for d in lc], dtype=np.int64))
    n = int(np.prod(yt.shape[len(rb) + len(rc):], dtype=np.int64))
    out = np.matmul(xt.reshape(*bshape, m, k), yt.reshape(*bshape, k, n))
    shape = (*bshape, *(x.shape[d] for d in lf), *(y.shape[d] for d in rf))
    return out.reshape(shape)


dot_general_p = primitive("dot_general", impl=_dot_general_impl,
                          abstract_eval=_dot_general_eval)

__all__ = ["dot_general_p"]
