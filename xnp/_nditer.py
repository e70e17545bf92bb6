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

import inspect
import math

import numpy as np

import xnp
from transforms.core import Tracer
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._flatiter import flatiter
from xnp._writeable import is_writeable

__all__ = ["broadcast", "nditer", "nested_iters"]


class broadcast:
    """The broadcast of the arguments against each other, as :class:`numpy.broadcast`:
    ``shape``, ``ndim``, ``size``, ``numiter``, ``iters``, and iteration over tuples of
    corresponding elements (with ``index`` and ``reset()``)."""

    __module__ = "xnp"     # prints as <class 'xnp.broadcast'>, as NumPy's 'numpy.broadcast'

    __signature__ = inspect.Signature([inspect.Parameter(
        "arrays", inspect.Parameter.VAR_POSITIONAL)])

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise ValueError("keyword arguments not accepted.")
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
        return tuple(_BroadcastFlat(a, self.shape) for a in self._arrays)

    def reset(self, /) -> None:
        self.index = 0

    def __iter__(self) -> broadcast:
        return self

    def __next__(self) -> tuple:
        if self.index >= self.size:
            raise StopIteration
        idx = np.unravel_index(self.index, self.shape) if self.shape else ()
        self.index += 1
        return tuple(xnp.broadcast_to(a, self.shape)[idx] for a in self._arrays)


class _BroadcastFlat(flatiter):
    """``broadcast(...).iters[k]``: a flat iterator over argument ``k`` broadcast to the
    common shape, whose ``base`` is the argument itself (as NumPy's)."""

    __slots__ = ("_shape",)

    def __init__(self, base: ndarray, shape: tuple):
        super().__init__(base)
        self._shape = shape

    def _ravel(self) -> ndarray:
        return xnp.ravel(xnp.broadcast_to(self.base, self._shape))

    def __len__(self) -> int:
        return math.prod(self._shape)

    def __setitem__(self, key, value) -> None:
        raise ValueError("xnp: the iterators of a broadcast object are read-only")


_WRITE_FLAGS = ("readwrite", "writeonly")
_MAX_OPERANDS = 2**31 - 1


def _writable(op_flags, n: int) -> list:
    """For each of the ``n`` operands, whether ``op_flags`` may let NumPy write into it
    (True where the flags are malformed: NumPy then raises, and a copy is always safe)."""
    if op_flags is None:
        return [False] * n
    if isinstance(op_flags, str):
        return [True] * n
    try:
        flags = list(op_flags)
    except TypeError:
        return [True] * n
    if all(isinstance(f, str) for f in flags):        # one list for every operand
        return [any(f in _WRITE_FLAGS for f in flags)] * n
    out = []
    for i in range(n):
        f = flags[i] if i < len(flags) else ()
        try:
            out.append(isinstance(f, str) or any(
                not isinstance(s, str) or s in _WRITE_FLAGS for s in f))
        except TypeError:
            out.append(True)
    return out


def _mirror(v: np.ndarray) -> np.ndarray:
    """A writable copy of ``v`` whose strides have ``v``'s signs and order of magnitude,
    so that NumPy's iterator visits it in the order it would visit ``v`` (the order of
    increasing memory addresses), without the gaps between ``v``'s elements."""
    if v.ndim == 0 or v.size <= 1 or v.dtype.hasobject:
        return np.array(v, copy=True, order="K")
    axes = sorted(range(v.ndim), key=lambda k: (abs(v.strides[k]), -k))
    strides = [0] * v.ndim
    offset, step = 0, v.itemsize
    for k in axes:
        strides[k] = step if v.strides[k] >= 0 else -step
        if v.strides[k] < 0:
            offset += step * (v.shape[k] - 1)
        step *= v.shape[k]
    out = np.ndarray(v.shape, v.dtype, buffer=np.empty(v.nbytes, np.uint8),
                     offset=offset, strides=tuple(strides))
    np.copyto(out, v, casting="no")
    return out


class _Operands:
    """What the iterators made from one call share: for each operand, the xnp array it
    came from (or None), and the copy NumPy iterates instead of its value (None where
    NumPy reads the value itself)."""

    def __init__(self, op, op_flags):
        if not isinstance(op, (list, tuple)):
            op = [op]
        elif len(op) > _MAX_OPERANDS:      # before a Python loop over billions of them
            raise ValueError(f"Too many operands to nditer, found {len(op)}.")
        ops = op
        writable = _writable(op_flags, len(ops))
        self.targets, self.copies = [], []
        arrays = []
        for i, o in enumerate(ops):
            if type(o) is not ndarray:          # NumPy's own rules (scalars are read-only)
                self.targets.append(None)
                self.copies.append(None)
                arrays.append(o)
                continue
            v = o._value
            if isinstance(v, Tracer):
                raise TypeError(
                    f"nditer: operand {i} is a traced array {v.aval.str_short()}; nditer "
                    "iterates over concrete values only. Write the loop with xnp "
                    "operations on whole arrays (or vmap) inside transformations.")
            copy = None
            if writable[i]:
                copy = _mirror(np.asarray(v))
                if not is_writeable(o):
                    copy.flags.writeable = False
            self.targets.append(o)
            self.copies.append(copy)
            arrays.append(v if copy is None else copy)
        self.arrays = arrays

    __slots__ = ("targets", "copies", "arrays")

    def write_back(self) -> None:
        """Store the iterated copies into the xnp arrays they came from."""
        for target, copy in zip(self.targets, self.copies):
            if copy is None or not copy.flags.writeable:
                continue
            try:
                same = np.array_equal(copy, np.asarray(target._value), equal_nan=True)
            except (TypeError, ValueError):
                same = False
            if not same:
                target[...] = copy


class nditer:
    """NumPy's multi-dimensional iterator (:class:`numpy.nditer`) over xnp arrays.

    Parameters
    ----------
    op, flags, op_flags, op_dtypes, order, casting, op_axes, itershape, buffersize
        As :class:`numpy.nditer`.

    Notes
    -----
    The iterator runs NumPy's own iterator. Read-only operands are iterated directly;
    writable ones (``readwrite``, ``writeonly``) are iterated over copies with the
    operand's memory order, stored back into the xnp arrays when the iteration ends, at
    the end of a ``with`` block or at ``close()`` (NumPy writes unbuffered elements at
    once). ``operands`` are xnp arrays; writes into them reach the iterator. Traced
    operands raise a TypeError.
    """

    __module__ = "xnp"     # prints as <class 'xnp.nditer'>, as NumPy's 'numpy.nditer'

    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", op_axes=None, itershape=None, buffersize=0):
        single = not isinstance(op, (list, tuple))
        shared = _Operands(op, op_flags)
        it = np.nditer(shared.arrays[0] if single else shared.arrays, flags=flags,
                       op_flags=op_flags, op_dtypes=op_dtypes, order=order,
                       casting=casting, op_axes=op_axes, itershape=itershape,
                       buffersize=buffersize)
        self._setup(it, shared, True)

    def _setup(self, it, shared: _Operands, owner: bool) -> None:
        d = self.__dict__
        d["_it"], d["_shared"], d["_owner"] = it, shared, owner
        d["_handles"], d["_closed"] = {}, False

    @classmethod
    def _of(cls, it, shared: _Operands, owner: bool) -> nditer:
        new = object.__new__(cls)
        new._setup(it, shared, owner)
        return new

    def _sync(self) -> None:
        """Copy writes made to the xnp arrays of ``operands`` into the iterator's."""
        for handle, buf in self._handles.values():
            if handle._value is not buf and buf.flags.writeable:
                np.copyto(buf, np.asarray(handle._value), casting="unsafe")
                handle._value = buf

    def __iter__(self) -> nditer:
        return self

    def __next__(self):
        if self._handles:
            self._sync()
        try:
            return next(self._it)
        except StopIteration:
            if self._owner:
                self._shared.write_back()
            raise

    def iternext(self, /) -> bool:
        """Advance to the next element; False (after storing writes) at the end."""
        if self._handles:
            self._sync()
        more = self._it.iternext()
        if not more and self._owner:
            self._shared.write_back()
        return more

    def reset(self, /) -> None:
        """Go back to the first element."""
        if self._handles:
            self._sync()
        self._it.reset()

    @property
    def operands(self) -> tuple:
        """The operands as xnp arrays: the arrays given for read-only operands, arrays
        over the iterator's memory otherwise (writes into them reach the iterator)."""
        values = self._it.operands                 # ValueError once closed, as NumPy
        if self._handles:
            self._sync()
        shared, out = self._shared, []
        for i, v in enumerate(values):
            target = shared.targets[i]
            if target is not None and shared.copies[i] is None and v is shared.arrays[i]:
                out.append(target)
                continue
            entry = self._handles.get(i)
            if entry is None or entry[1] is not v:
                entry = self._handles[i] = (wrap(v), v)
            out.append(entry[0])
        return tuple(out)

    def close(self, /) -> None:
        """Resolve the writes and store them into the operands (as NumPy's ``close``)."""
        if self._handles:
            self._sync()
        self._it.close()
        if not self._closed:
            self.__dict__["_closed"] = True
            self._shared.write_back()

    def __enter__(self) -> nditer:
        self._it.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def copy(self, /) -> nditer:
        """An independent iterator at the same position, over the same operands."""
        if self._handles:
            self._sync()
        return nditer._of(self._it.copy(), self._shared, self._owner)

    def remove_axis(self, i, /) -> None:
        """Remove axis ``i`` from the iteration (as NumPy's)."""
        self._it.remove_axis(i)

    def remove_multi_index(self, /) -> None:
        """Stop tracking the multi-index (as NumPy's)."""
        self._it.remove_multi_index()

    def enable_external_loop(self, /) -> None:
        """Switch to the external loop (as NumPy's)."""
        self._it.enable_external_loop()

    def debug_print(self, /) -> None:
        """Print NumPy's description of the iterator."""
        self._it.debug_print()

    def __len__(self) -> int:
        return len(self._it)

    def __getitem__(self, i):
        if self._handles:
            self._sync()
        return self._it[i]

    def __setitem__(self, i, value) -> None:
        if self._handles:
            self._sync()
        self._it[i] = np.asarray(value) if type(value) is ndarray else value
        self._shared.write_back()                  # unbuffered writes show at once

    def __delitem__(self, i) -> None:
        del self._it[i]

    def __getattr__(self, name):
        # multi_index, index, finished, shape, value, itviews, ...: NumPy's.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._it, name)

    def __setattr__(self, name, value) -> None:
        setattr(self._it, name, value)        # multi_index, iterindex, ...: NumPy's

    def __delattr__(self, name) -> None:
        delattr(self._it, name)


def nested_iters(op, axes, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", buffersize=0) -> tuple:
    """Nested iterators over the groups of axes ``axes`` (:func:`numpy.nested_iters`).

    Parameters
    ----------
    op, axes, flags, op_flags, op_dtypes, order, casting, buffersize
        As :func:`numpy.nested_iters`.

    Returns
    -------
    tuple of nditer
        The iterators, outermost first; writes into writable operands are stored into
        the xnp arrays when the outer iteration ends or an iterator is closed.
    """
    single = not isinstance(op, (list, tuple))
    shared = _Operands(op, op_flags)
    its = np.nested_iters(shared.arrays[0] if single else shared.arrays, axes,
                          flags=flags, op_flags=op_flags, op_dtypes=op_dtypes,
                          order=order, casting=casting, buffersize=buffersize)
    return tuple(nditer._of(it, shared, k == 0) for k, it in enumerate(its))
