"""``x[mask] op= u`` with a traced boolean mask: NumPy code such as ``x[x > 0] *= 2``.

Python runs ``x[mask] *= u`` as ``t = x[mask]; t = t.__imul__(u); x[mask] = t``. The read
``x[mask]`` has a shape that depends on the mask's values, so with a traced mask (under
jit or vmap) it cannot be an array; it is a :class:`MaskedRead` instead, which records
in-place operators and which ``x.__setitem__`` with the same key turns into
``where(mask, x op u, x)`` (the in-place operator applied to a copy of the whole array,
so NumPy's casting rules and errors hold); ``out[mask] = a[mask]`` (``a`` of ``out``'s
shape, the same mask object) is ``where(mask, a, out)``. Every other use of it raises the
ConcretizationTypeError the read itself would have raised: such a value has no shape.
"""

from __future__ import annotations

import operator

import numpy as np

import xnp
from transforms.core import ConcretizationTypeError, Tracer
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._util import raw, shape_of

__all__ = ["MaskedRead", "deferred_read"]

_INPLACE = {
    "add": operator.iadd, "sub": operator.isub, "mul": operator.imul,
    "truediv": operator.itruediv, "floordiv": operator.ifloordiv, "mod": operator.imod,
    "pow": operator.ipow, "lshift": operator.ilshift, "rshift": operator.irshift,
    "and": operator.iand, "or": operator.ior, "xor": operator.ixor,
}


def deferred_read(x, key, error: ConcretizationTypeError):
    """``x[key]`` for a traced boolean mask ``key`` over leading axes of ``x``: a
    :class:`MaskedRead`; for any other key, ``error`` is raised."""
    mask = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    m = raw(mask)
    if not isinstance(m, Tracer) or m.aval.dtype.kind != "b" or not m.aval.ndim or \
            m.aval.shape != shape_of(x)[:m.aval.ndim]:
        raise error
    return MaskedRead(x, key, error, ())


class MaskedRead:
    """``x[mask]`` for a traced mask, with the in-place operators applied to it so far."""

    __slots__ = ("_array", "_key", "_error", "_ops")

    def __init__(self, array, key, error, ops):
        object.__setattr__(self, "_array", array)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_error", error)
        object.__setattr__(self, "_ops", ops)

    def _fail(self, *args, **kwargs):
        raise ConcretizationTypeError(*self._error.args)

    def __getattr__(self, name):
        self._fail()

    def __repr__(self):
        return f"<x[mask] with a traced mask, of an array of shape {shape_of(self._array)}>"

    def assigned_to(self, x, key):
        """The new value of ``x`` for ``x[key] = self``: ``where(mask, a op u, x)``, where
        ``a`` is the array read: ``x`` itself (``x[mask] *= 2``) or another array of its
        shape (``out[mask] = a[mask]``, cast to ``out``'s dtype as NumPy's assignment)."""
        src = self._array
        if key is not self._key or (x is not src and shape_of(x) != shape_of(src)):
            self._fail()
        if x is src and not self._ops:          # x[mask] = x[mask]
            return x
        from xnp._index_update import _single_mask
        shape = shape_of(x)
        others = [raw(other) for _, other in self._ops] or [np.zeros((), np.int8)]
        masks = [_single_mask(key, shape, u, True) for u in others]
        if any(m is None for m in masks):   # u shaped like the selection: value-dependent
            self._fail()
        # The operators run on the whole array with 1 outside the mask (the double-where
        # pattern): an unselected element never reaches them, so none of its values (a
        # negative base of ** 0.5, a zero divisor) puts a NaN into the derivative.
        full = wrap(lax.select_n_p.bind(masks[0], raw(xnp.ones_like(src)), raw(src)))
        for op, other in self._ops:
            full = op(full, other)
        if full.dtype != x.dtype:
            full = full.astype(x.dtype)
        return wrap(lax.select_n_p.bind(masks[-1], raw(x), raw(full)))


def _record(op):
    def method(self, other):
        return MaskedRead(self._array, self._key, self._error, self._ops + ((op, other),))
    return method


for _name, _op in _INPLACE.items():
    setattr(MaskedRead, f"__i{_name}__", _record(_op))
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
              "and", "or", "xor", "matmul", "divmod"):
    setattr(MaskedRead, f"__{_name}__", MaskedRead._fail)
    setattr(MaskedRead, f"__r{_name}__", MaskedRead._fail)
for _name in ("imatmul", "lt", "le", "gt", "ge", "neg", "pos", "abs", "invert", "bool",
              "int", "float", "complex", "index", "len", "iter", "contains", "getitem",
              "setitem", "array", "array_ufunc", "array_function", "array_namespace",
              "format", "round", "reversed", "dlpack"):
    setattr(MaskedRead, f"__{_name}__", MaskedRead._fail)
