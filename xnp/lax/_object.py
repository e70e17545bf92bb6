"""``object_ufunc_p``: a NumPy ufunc's own object loop, for object arrays (dtype=object).

NumPy computes object arrays element by element with Python's operators (or the
elements' methods), and for some ufuncs (``logical_and``, ``remainder``, ``positive``,
...) that differs from what xnp's composition of numeric primitives would give. This
primitive runs the ufunc itself (``method``: ``"__call__"``, or ``"reduce"``,
``"accumulate"``, ``"reduceat"`` with their keyword ``options``), so results and
exceptions are NumPy's. Calls are eager and batchable, the other methods eager only:
object arrays have no derivative and cannot be compiled.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp.lax._base import primitive, ufunc_abstract_eval


def _impl(*values, ufunc, method="__call__", options=()):
    return getattr(ufunc, method)(*values, **dict(options))


def _eager_only(ufunc, method):
    if method != "__call__":
        raise TypeError(f"{ufunc.__name__}.{method} of an object array runs eagerly only: "
                        "it cannot be traced or batched")


def _abstract_eval(*avals, ufunc, method="__call__", options=()):
    _eager_only(ufunc, method)
    out = ufunc_abstract_eval(ufunc, *avals)
    dtype = dict(options).get("dtype")      # a loop of that dtype (object): its results
    if dtype is None:
        return out
    outs = [ShapedArray(o.shape, np.dtype(dtype)) for o in (out if ufunc.nout > 1 else [out])]
    return outs if ufunc.nout > 1 else outs[0]


object_ufunc_p = primitive("object_ufunc", impl=_impl, abstract_eval=_abstract_eval)

__all__ = ["object_ufunc_p"]

from xnp.lax._batch_util import batch_elementwise  # noqa: E402

_batch_call = batch_elementwise(object_ufunc_p)


def _batch(values, dims, *, ufunc, method="__call__", options=()):
    _eager_only(ufunc, method)
    return _batch_call(values, dims, ufunc=ufunc, options=options)


object_ufunc_p.batch = _batch


def _lower(ctx, *args, **params):
    from transforms.lowering import LoweringError
    raise LoweringError("jit: dtype object cannot be compiled (object arrays run eagerly, "
                        "element by element, as in NumPy)")


object_ufunc_p.lower = _lower
