"""NumPy's element-iteration objects: ``broadcast`` and ``nditer``.

``broadcast`` is built from xnp operations (its shape is static, its elements come from
``broadcast_to``), so it also works on traced arrays. ``nditer`` is an eager tool: it runs
NumPy's own iterator (every flag, order and casting rule as NumPy) over *copies* of the
concrete operands, and stores the writable operands back into their xnp arrays when the
iteration ends, the ``with`` block exits or ``close()`` is called. Under a
transformation it raises: a Python loop over traced elements is written with xnp
operations (or ``vmap``) instead.
"""

from __future__ import annotations

import math

import numpy as np

import xnp
from transforms.core import Tracer
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._util import raw

__all__ = ["broadcast", "nditer"]


class broadcast:
    """The broadcast of the arguments against each other, as :class:`numpy.broadcast`:
    ``shape``, ``ndim``, ``size``, ``numiter``, ``iters``, and iteration over tuples of
    corresponding elements (with ``index`` and ``reset()``)."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError(f"Need at least 0 and at most 64 array objects, got {len(args)}")
        parts = []
        for a in args:
            if isinstance(a, broadcast):
                parts.extend(a._arrays)
            else:
                parts.append(xnp.asarray(a))
        self._arrays = parts
        self.shape = xnp.broadcast_shapes(*[p.shape for p in parts])
        self.index = 0

    @property
    def ndim(self) -> int:
        return len(self.shape)

    nd = ndim

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def numiter(self) -> int:
        return len(self._arrays)

    @property
    def iters(self) -> tuple:
        """One flat iterator per argument, over its broadcast view."""
        return tuple(xnp.broadcast_to(a, self.shape).flat for a in self._arrays)

    def reset(self) -> None:
        self.index = 0

    def __iter__(self) -> broadcast:
        return self

    def __next__(self) -> tuple:
        if self.index >= self.size:
            raise StopIteration
        idx = np.unravel_index(self.index, self.shape) if self.shape else ()
        self.index += 1
        return tuple(xnp.broadcast_to(a, self.shape)[idx] for a in self._arrays)


def _concrete_copy(op, i: int):
    v = raw(op)
    if isinstance(v, Tracer):
        raise TypeError(
            f"nditer: operand {i} is a traced array {v.aval.str_short()}; nditer iterates "
            "over concrete values only. Write the loop with xnp operations on whole "
            "arrays (or vmap) inside transformations.")
    return np.array(v)


class nditer:
    """NumPy's multi-dimensional iterator (:class:`numpy.nditer`) over xnp arrays.

    Every argument is NumPy's. Differences: the iterator works on copies of the
    (concrete) operands, so writes through its elements reach the xnp arrays when the
    iteration ends, at the end of a ``with`` block or at ``close()`` (NumPy writes
    unbuffered elements at once); ``operands`` are xnp arrays. Traced operands raise a
    TypeError.
    """

    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", op_axes=None, itershape=None, buffersize=0):
        single = not isinstance(op, (list, tuple))
        ops = [op] if single else list(op)
        self._targets = [o if type(o) is ndarray else None for o in ops]
        copies = [None if o is None else _concrete_copy(o, i) for i, o in enumerate(ops)]
        self._it = np.nditer(copies[0] if single else copies, flags=flags, op_flags=op_flags,
                             op_dtypes=op_dtypes, order=order, casting=casting,
                             op_axes=op_axes, itershape=itershape, buffersize=buffersize)
        self._closed = False

    def _write_back(self) -> None:
        """Store the iterator's (copied) operands into the xnp arrays they came from."""
        for target, value in zip(self._targets, self._it.operands):
            if target is not None and value.flags.writeable:
                if not np.array_equal(value, np.asarray(target), equal_nan=True) or \
                        value.dtype != target.dtype:
                    target[...] = value

    def __iter__(self) -> nditer:
        return self

    def __next__(self):
        try:
            return next(self._it)
        except StopIteration:
            self._write_back()
            raise

    def iternext(self) -> bool:
        more = self._it.iternext()
        if not more:
            self._write_back()
        return more

    @property
    def operands(self) -> tuple:
        """The operands as xnp arrays (written back first)."""
        self._write_back()
        return tuple(t if t is not None else wrap(np.array(v))
                     for t, v in zip(self._targets, self._it.operands))

    def close(self) -> None:
        if not self._closed:
            self._write_back()
            self._it.close()
            self._closed = True

    def __enter__(self) -> nditer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def copy(self) -> nditer:
        new = object.__new__(nditer)
        new._targets, new._it, new._closed = self._targets, self._it.copy(), False
        return new

    def __len__(self) -> int:
        return len(self._it)

    def __getitem__(self, i):
        return self._it[i]

    def __getattr__(self, name):
        # multi_index, index, finished, shape, value, reset, remove_axis, ...: NumPy's.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._it, name)
