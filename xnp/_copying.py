"""Copying values into arrays (copyto, putmask) and NumPy's array-requirement helpers
(asfortranarray, require, asarray_chkfinite).

``copyto`` and ``putmask`` modify their first argument in NumPy: here it must be an xnp
array, whose handle is rebound to the updated value (a select between the old and new
values), so they also work on traced arrays under grad, vmap and jit.
``asfortranarray`` and ``require`` copy into the memory layout asked for (see
:mod:`xnp._layout`), as NumPy does.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

import xnp
from transforms.core import _PY_SCALAR_DTYPES, Tracer, concrete_or_error
from xnp._array import ndarray
from xnp._layout import with_order
from xnp._util import raw
from xnp._views import fresh, refresh, store_through, store_value, view_info, write_back
from xnp._writeable import check_writeable

__all__ = ["copyto", "putmask", "asfortranarray", "require", "asarray_chkfinite"]

_PY_DEFAULT = _PY_SCALAR_DTYPES       # Python scalar type -> NumPy's default dtype
_WEAK_KINDS = {int: "iufcO", float: "fcO", complex: "cO"}    # where a Python scalar fits


def _source_dtype(v) -> np.dtype:
    t = type(v)
    if t in _PY_DEFAULT:
        return _PY_DEFAULT[t]
    return v.dtype if isinstance(v, (Tracer, np.ndarray, np.generic)) else np.asarray(v).dtype


def copyto(dst, src, casting: str = "same_kind", where=True) -> None:
    """Copy ``src`` (broadcast) into the xnp array ``dst`` where ``where`` is true, as
    :func:`numpy.copyto`, with its casting rule; ``dst`` is rebound, nothing returned."""
    if type(dst) is not ndarray:
        raise TypeError(f"copyto() argument 1 must be an xnp.ndarray, not "
                        f"{type(dst).__name__}")
    value = raw(src)
    src_dt = _source_dtype(value)
    if type(value) in _WEAK_KINDS and dst.dtype.kind in _WEAK_KINDS[type(value)]:
        # a Python int, float or complex is weak: it fits any dtype of its kind or a
        # wider kind (an int must be in range), except that 'equiv' wants its own dtype
        if casting == "equiv" and dst.dtype != src_dt and dst.dtype.kind != "O":
            raise TypeError(f"cannot cast Python {type(value).__name__} to {dst.dtype} "
                            f"under the casting rule 'equiv'")
        if type(value) is int and dst.dtype.kind in "iu":
            info = np.iinfo(dst.dtype)
            if not -2**63 <= value < (2**64 if dst.dtype.kind == "u" else 2**63):
                raise OverflowError("Python int too large to convert to C long")
            if not info.min <= value <= info.max:
                raise OverflowError(f"Python integer {value} out of bounds for {dst.dtype}")
    elif not np.can_cast(src_dt, dst.dtype, casting=casting):
        what = "scalar" if type(value) in _PY_DEFAULT else "array data"
        raise TypeError(f"Cannot cast {what} from {src_dt!r} to {dst.dtype!r} according "
                        f"to the rule {casting!r}")
    if type(value) in (float, complex) and dst.dtype.itemsize < 8:
        np.asarray(value).astype(dst.dtype)     # NumPy's overflow warning (2e300 -> f4)
    value = xnp.asarray(value).astype(dst.dtype)
    try:
        new = xnp.broadcast_to(value, dst.shape)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {value.shape} into "
                         f"shape {dst.shape}") from None
    view = view_info(dst)           # a view (``a.T``, ``a[:, :2]``) writes into its base
    if where is True:
        check_writeable(dst)
        store_value(dst, raw(xnp.array(new)))
    else:
        mask = xnp.broadcast_to(xnp.asarray(where, dtype=bool), dst.shape)
        check_writeable(dst)
        if view is not None:
            refresh(dst, view)
        store_value(dst, raw(xnp.where(mask, new, dst)))
    if view is not None:
        write_back(dst, view)
    return None


def putmask(a, /, mask, values) -> None:
    """``a.flat[n] = values[n % len(values)]`` wherever ``mask.flat[n]``, as
    :func:`numpy.putmask` (array values cast safely to ``a``'s dtype, scalars and lists as
    in an assignment); ``a`` is rebound."""
    if type(a) is not ndarray:
        raise TypeError(f"putmask: first argument must be an xnp.ndarray, not "
                        f"{type(a).__name__}")
    fresh(a)
    m = xnp.asarray(mask, dtype=bool)
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    from xnp._index_update import masked_put_value
    v = xnp.ravel(xnp.asarray(masked_put_value(values, a.dtype)))
    if a.size == 0 or v.size == 0:      # NumPy puts nothing when there are no values
        return None
    reps = -(-a.size // v.size)
    cycled = xnp.tile(v, reps)[:a.size]
    flat = xnp.where(xnp.ravel(m), cycled, xnp.ravel(a))
    check_writeable(a)
    store_through(a, raw(xnp.reshape(flat, a.shape)))
    return None


def asfortranarray(a, dtype=None, *, like=None) -> ndarray:
    """As :func:`asarray`, at least 1-d, with a Fortran-ordered value (copied if need be)."""
    if type(a) is ndarray and a.ndim and (dtype is None or np.dtype(dtype) == a.dtype) \
            and with_order(a._value, "F") is a._value:
        return a                        # NumPy returns a Fortran-ordered array itself
    return xnp.asarray(xnp.array(a, dtype=dtype, copy=None, ndmin=1), order="F")


def require(a, dtype=None, requirements: str | Sequence[str] | None = None, *,
            like=None) -> ndarray:
    """:func:`asarray` with ``dtype`` meeting the requirements (C, F, A, W, O, E and their
    long names), as :func:`numpy.require`: a copy where the layout (C or Fortran order),
    ownership or writeability asks for one."""
    valid = {"C", "C_CONTIGUOUS", "CONTIGUOUS", "F", "F_CONTIGUOUS", "FORTRAN", "A",
             "ALIGNED", "W", "WRITEABLE", "O", "OWNDATA", "E", "ENSUREARRAY"}
    reqs = list(requirements or [])          # a string is its letters, as in NumPy
    for r in reqs:
        if r.upper() not in valid:
            raise KeyError(r)
    upper = {r.upper() for r in reqs}
    if ({"C", "C_CONTIGUOUS", "CONTIGUOUS"} & upper and
            {"F", "F_CONTIGUOUS", "FORTRAN"} & upper):
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if {"C", "C_CONTIGUOUS", "CONTIGUOUS"} & upper else \
        "F" if {"F", "F_CONTIGUOUS", "FORTRAN"} & upper else None
    out = xnp.asarray(a, dtype=dtype, order=order)
    if ({"O", "OWNDATA"} & upper and not out.flags.owndata) or \
            ({"W", "WRITEABLE"} & upper and not out.flags.writeable):
        out = xnp.copy(out, order=order or "K")
    return out


def asarray_chkfinite(a, dtype=None, order=None) -> ndarray:
    """As :func:`asarray`, raising ValueError if any element is infinite or NaN (as
    :func:`numpy.asarray_chkfinite`); the check needs concrete values."""
    out = xnp.asarray(a, dtype=dtype)
    if out.dtype.kind in "fc" and not bool(concrete_or_error(
            raw(xnp.all(xnp.isfinite(out))), "asarray_chkfinite's check")):
        raise ValueError("array must not contain infs or NaNs")
    return out
