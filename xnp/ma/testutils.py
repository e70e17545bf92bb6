"""``xnp.ma.testutils``: NumPy's ``numpy.ma.testutils`` assertions for xnp masked arrays.

Each assertion converts its xnp arguments (masked arrays, ``ma.masked``, arrays, and
lists, tuples and dicts of them) to NumPy's and runs NumPy's own assertion, so the
comparison rules (masked elements compare equal, fill values ignored) are NumPy's.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.ma as _npma
import numpy.ma.testutils as _nptu

import xnp
from xnp.ma._core import MaskedArray, MaskedConstant

__all__ = ["almost", "approx", "assert_", "assert_almost_equal", "assert_array_almost_equal",
           "assert_array_approx_equal", "assert_array_compare", "assert_array_equal",
           "assert_array_less", "assert_close", "assert_equal", "assert_equal_records",
           "assert_mask_equal", "assert_not_equal", "assert_raises", "fail_if_array_equal",
           "fail_if_equal"]


def to_numpy(x):
    """``x`` with every xnp masked array or array in it replaced by NumPy's.

    Parameters
    ----------
    x : object
        A masked array, array, scalar, or a list, tuple or dict of them.

    Returns
    -------
    object
        The same structure holding ``numpy.ma.MaskedArray`` and ``numpy.ndarray`` values.
    """
    if isinstance(x, MaskedConstant):
        return _npma.masked
    if isinstance(x, MaskedArray):
        return x._to_numpy()
    if isinstance(x, xnp.ndarray):
        return np.asarray(x)
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)) and type(x) in (list, tuple):
        return type(x)(to_numpy(v) for v in x)
    return x


def _wrap(fn):
    @functools.wraps(fn)
    def check(*args, **kwargs):
        return fn(*(to_numpy(a) for a in args),
                  **{k: to_numpy(v) for k, v in kwargs.items()})
    return check


assert_ = _nptu.assert_
assert_raises = _nptu.assert_raises
almost = _wrap(_nptu.almost)
approx = _wrap(_nptu.approx)
assert_almost_equal = _wrap(_nptu.assert_almost_equal)
assert_array_almost_equal = _wrap(_nptu.assert_array_almost_equal)
assert_array_approx_equal = _wrap(_nptu.assert_array_approx_equal)
assert_array_compare = _wrap(_nptu.assert_array_compare)
assert_array_equal = _wrap(_nptu.assert_array_equal)
assert_array_less = _wrap(_nptu.assert_array_less)
assert_close = _wrap(_nptu.assert_close)
assert_equal = _wrap(_nptu.assert_equal)
assert_equal_records = _wrap(_nptu.assert_equal_records)
assert_mask_equal = _wrap(_nptu.assert_mask_equal)
assert_not_equal = _wrap(_nptu.assert_not_equal)
fail_if_array_equal = _wrap(_nptu.fail_if_array_equal)
fail_if_equal = _wrap(_nptu.fail_if_equal)
