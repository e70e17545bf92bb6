"""Object arrays in composite ufuncs: a composite (``remainder``, ``logical_and``, ...)
finding that NumPy would run its object loop raises :class:`ObjectLoop`, and the ufunc's
callers answer with that loop (``xnp.lax.object_ufunc_p``), so numeric calls pay nothing
for it."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp._util import dtype_of


class ObjectLoop(TypeError):
    """NumPy computes this ufunc call with its object loop (Python's operators on each
    element); :meth:`result` does that."""

    def __init__(self, ufunc, values):
        super().__init__(f"{ufunc.__name__} on object operands runs NumPy's object loop")
        self.ufunc, self.values = ufunc, values

    def result(self):
        return lax.object_ufunc_p.bind(*self.values, ufunc=self.ufunc)


OBJECT = np.dtype(object)


def object_aware(fn, np_ufunc):
    """``fn`` (a composite ufunc on values), answering :class:`ObjectLoop` with NumPy's
    object loop; ``fn`` itself where NumPy has no object loop for ``np_ufunc``."""
    if not any("O" in t for t in np_ufunc.types):
        return fn
    if np_ufunc.nin == 1:
        def call(x):
            try:
                return fn(x)
            except ObjectLoop as e:
                return e.result()
    else:
        def call(x, y):
            try:
                return fn(x, y)
            except ObjectLoop as e:
                return e.result()
    call.__name__ = call.__qualname__ = getattr(fn, "__name__", np_ufunc.__name__)
    return call


def object_scalar(x) -> np.ndarray:
    """A 0-d object array holding ``x`` itself (a list, an array, None ...), unconverted."""
    v = np.empty((), dtype=OBJECT)
    v[()] = x
    return v


def nonzero_or_object_loop(x, np_ufunc, xs):
    """``x != 0`` for a logical ufunc's operand; for an object operand NumPy's object loop
    (Python's ``and``/``or``/``not``, keeping the operands) computes the whole call."""
    if dtype_of(x).kind == "O":
        raise ObjectLoop(np_ufunc, xs)
    return lax.ne_p.bind(x, 0)
