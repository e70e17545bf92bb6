"""Array methods that are functions of xnp (``a.sum()`` is ``xnp.sum(a)``) and the
copying methods (``copy``, ``flatten``, ``ravel``).

On a plain eager call (nothing traced, NumPy's own arguments, see xnp/_eager_numpy.py) a
delegated method whose function runs NumPy's routine runs NumPy's method instead, and
``copy``/``flatten``/``ravel`` of a concrete numeric array are NumPy's: the same results
without the function's wrapper (``a.sum()`` on 10 elements: 5.5 -> 1.7 us). Anything
else calls the xnp function, which binds primitives.
"""

from __future__ import annotations

import numpy as np

import xnp
from xnp._array import _new_handle, ndarray
from xnp._eager_numpy import EAGER_NUMPY, numpy_plan, plain_call, wrap_result
from xnp._views import _Reshape, contiguous_view


def _delegate(name):
    numpy_method = getattr(np.ndarray, name, None)
    plans = _METHOD_PLANS

    def method(self, *args, **kwargs):
        # a plain eager call of a function that runs NumPy's routine then (see
        # xnp/_eager_numpy.py) runs NumPy's method, skipping the function's wrapper
        plan = plans.get(name)
        if plan is not None and type(self) is ndarray:
            call = plain_call(plan, (self, *args), kwargs)
            if call is not None:
                values, kw = call
                r = numpy_method(*values, **kw)
                return self if r is values[0] else wrap_result(r)
        return getattr(xnp, name)(self, *args, **kwargs)
    method.__name__ = name
    method.__doc__ = f"See :func:`xnp.{name}`."
    return method


_METHOD_PLANS: dict = {}     # method name -> plain_call plan of NumPy's function


def _install_method_plans():
    """The delegated methods whose function runs NumPy's routine on plain eager calls:
    their NumPy methods take the same arguments after the array."""
    for name in _DELEGATED:
        if name in EAGER_NUMPY["xnp"] and hasattr(np.ndarray, name):
            plan = numpy_plan(name, getattr(np, name))
            if plan is not None:
                _METHOD_PLANS[name] = plan


def _copy(self, order="C"):
    v = self._value
    if type(v) is np.ndarray and order == "C" and v.dtype.kind in "biufc":
        h = _new_handle(ndarray)        # a plain eager copy: NumPy's
        h._value = v.copy()
        return h
    return xnp.copy(self, order=order)


def _flatten(self, order="C"):
    v = self._value
    if type(v) is np.ndarray and order == "C" and v.dtype.kind in "biufc":
        h = _new_handle(ndarray)
        h._value = v.flatten()
        return h
    return xnp.copy(xnp.ravel(self, order=order))


def _ravel(self, order="C"):
    v = self._value
    if type(v) is np.ndarray and order == "C" and type(self) is ndarray and \
            v.flags.c_contiguous:
        return contiguous_view(self, v.reshape(-1), _Reshape((v.size,), v.shape))
    return xnp.ravel(self, order=order)


_DELEGATED = [
    "sum", "mean", "std", "var", "max", "min", "prod", "any", "all", "argmax", "argmin",
    "cumsum", "cumprod", "round", "dot", "argsort",
    "nonzero", "repeat", "swapaxes", "diagonal", "trace", "ravel", "squeeze", "take",
    "searchsorted", "argpartition", "put",
]   # (not ``ptp``: NumPy 2's arrays have no such method, only the function)


def install_delegated_methods() -> None:
    """Attach the delegated and copying methods to ``xnp.ndarray``."""
    _install_method_plans()
    for name in _DELEGATED:
        if hasattr(xnp, name):
            setattr(ndarray, name, _delegate(name))
    ndarray.ravel = _ravel
    ndarray.copy = _copy
    # the order is read from self's layout (a copy's may differ: 'A' of a strided array)
    ndarray.flatten = _flatten
