"""ndarray methods whose arguments differ from the functions they wrap: ``resize``
(in place), ``clip`` (``min``/``max`` first), ``choose`` (the choices may be given as
separate arguments) and ``conj``/``conjugate`` (the array itself when it is real)."""

from __future__ import annotations

import builtins
import math
import operator

import xnp
from xnp._array import ndarray
from xnp._util import raw
from xnp._writeable import check_writeable


def _resize_shape(new_shape: tuple) -> tuple | None:
    """The shape ``a.resize(*new_shape)`` asks for (None: keep the shape), checked as NumPy
    does: integers or one sequence of them, none negative."""
    if not new_shape or (len(new_shape) == 1 and new_shape[0] is None):
        return None
    if len(new_shape) == 1:
        only = new_shape[0]
        try:
            new_shape = (operator.index(only),)
        except TypeError:
            if isinstance(only, (str, bytes)) or not hasattr(only, "__iter__"):
                raise
            new_shape = tuple(only)
    dims = tuple(operator.index(d) for d in new_shape)
    if builtins.any(d < 0 for d in dims):
        raise ValueError("negative dimensions not allowed")
    return dims


def _resize_in_place(self, *new_shape, refcheck=True, **kwargs):
    """NumPy's ``a.resize``: the data, flattened in memory order (Fortran order for a
    Fortran-ordered array), cut or zero-padded to the new size."""
    if kwargs:
        raise TypeError(f"{next(iter(kwargs))!r} is an invalid keyword argument for this "
                        "function")
    operator.index(refcheck)
    new_shape = _resize_shape(new_shape)
    check_writeable(self)
    if new_shape is None:
        return
    from xnp._layout import is_fortran
    order = "F" if is_fortran(self._value) else "C"    # NumPy cuts the data in memory order
    size = math.prod(new_shape)
    if size != self.size:       # NumPy's checks before it reallocates the buffer
        from xnp._views import live_views, view_info
        if view_info(self) is not None:
            raise ValueError("cannot resize this array: it does not own its data")
        if refcheck and live_views(self):   # (a view holds a reference to its base)
            raise ValueError("cannot resize an array that references or is referenced\n"
                             "by another object in this way.\nUse the np.resize function "
                             "or refcheck=False")
    flat = xnp.ravel(self, order)
    if size <= flat.size:
        flat = flat[:size]
    else:
        flat = xnp.concatenate([flat, xnp.zeros(size - flat.size, self.dtype)])
    self._value = raw(xnp.reshape(flat, new_shape, order=order))


def _clip(self, min=None, max=None, out=None, **kwargs):
    """``a.clip(min=None, max=None, out=None, **kwargs)``: a single bound may be given
    positionally, as NumPy's method allows (``a.clip(3)``)."""
    return xnp.clip(self, min, max, out, **kwargs)


def _choose(self, *choices, out=None, mode="raise"):
    """``a.choose(choices, out=None, mode='raise')``; as NumPy's method, several positional
    arguments are the choices themselves."""
    if not choices:
        raise TypeError("choose() takes exactly 1 argument (0 given)")
    return xnp.choose(self, choices[0] if len(choices) == 1 else choices, out=out,
                      mode=mode)


def _conjugate(self, out=None):
    """``a.conjugate(out=None)``: the complex conjugate; a real (or boolean) array itself,
    as NumPy's method returns ``a`` unchanged (the function ``np.conjugate`` makes a copy);
    string and datetime arrays raise TypeError."""
    kind = self.dtype.kind
    if kind in "SUVMm":
        raise TypeError("cannot conjugate non-numeric dtype")
    if kind in "biuf" and out is None:
        return self
    return xnp.conjugate(self) if out is None else xnp.conjugate(self, out=out)


def _install_method_args():
    ndarray.resize = _resize_in_place
    ndarray.clip = _clip
    ndarray.choose = _choose
    ndarray.conj = ndarray.conjugate = _conjugate
