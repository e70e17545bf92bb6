"""NumPy's index tricks and small functional helpers: ``s_``, ``index_exp``, ``r_``,
``c_``, ``mgrid``, ``ogrid``, ``apply_along_axis``, ``vectorize``, ``row_stack`` and
``real_if_close``.

``r_``/``c_``/``mgrid``/``ogrid`` build their arrays with xnp functions (arange,
linspace, concatenate, broadcasting), so traced pieces may be concatenated; their
slice bounds must be concrete, as in NumPy. ``apply_along_axis`` and ``vectorize`` call
the Python function on each slice or element, as NumPy does, and stack the results:
Python control flow inside works eagerly and under ``grad``.
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy as np

import xnp
from transforms.core import concrete_or_error
from xnp._array import ndarray

__all__ = ["s_", "index_exp", "r_", "c_", "mgrid", "ogrid", "apply_along_axis",
           "vectorize", "row_stack", "real_if_close"]


class _IndexExpression:
    """``s_[...]`` gives the index as written; ``index_exp[...]`` always a tuple."""

    def __init__(self, maketuple: bool):
        self.maketuple = maketuple

    def __getitem__(self, item):
        return (item,) if self.maketuple and not isinstance(item, tuple) else item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)


def _range_of(key: slice):
    """The values a slice in r_/mgrid stands for: arange, or linspace for a complex step
    (its magnitude is the number of points, the stop included)."""
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    if isinstance(step, complex):
        return xnp.linspace(start, key.stop, int(abs(step)))
    return xnp.arange(start, key.stop, step)


class _Concatenator:
    """``r_`` (axis 0) and ``c_`` (columns: 1-d pieces become (n, 1) columns)."""

    def __init__(self, axis: int, columns: bool):
        self.axis, self.columns = axis, columns

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, pieces = self.axis, 1, []
        for item in items:
            if isinstance(item, str):
                if item in ("r", "c"):
                    raise NotImplementedError("r_/c_: the matrix directives 'r' and 'c' "
                                              "are not supported by xnp")
                parts = [int(p) for p in item.split(",")]
                axis = parts[0]
                ndmin = parts[1] if len(parts) > 1 else ndmin
                continue
            if isinstance(item, slice):
                piece = _range_of(item)
            else:
                piece = xnp.asarray(item)
            piece = xnp.array(piece, copy=False, ndmin=ndmin)
            if self.columns and piece.ndim == 1:
                piece = xnp.reshape(piece, (-1, 1))
            pieces.append(piece)
        if not pieces:
            return xnp.zeros(0)
        return xnp.concatenate(pieces, axis=-1 if self.columns else axis)


r_ = _Concatenator(axis=0, columns=False)
c_ = _Concatenator(axis=-1, columns=True)


class _Grid:
    """``mgrid`` (dense) and ``ogrid`` (open) mesh grids from slices."""

    def __init__(self, sparse: bool):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _range_of(key)
        axes = [_range_of(k) for k in key]
        dtype = np.result_type(*[a.dtype for a in axes]) if axes else np.int64
        axes = [a.astype(dtype) for a in axes]
        n = len(axes)
        shaped = [xnp.reshape(a, [-1 if i == j else 1 for j in range(n)])
                  for i, a in enumerate(axes)]
        if self.sparse:
            return tuple(shaped)
        shape = tuple(a.shape[0] for a in axes)
        return xnp.stack([xnp.broadcast_to(a, shape) for a in shaped])


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def apply_along_axis(func1d, axis: int, arr, *args, **kwargs) -> ndarray:
    """``func1d`` applied to every 1-d slice along ``axis``, as
    :func:`numpy.apply_along_axis`: the results (scalars or arrays) replace that axis."""
    arr = xnp.asarray(arr)
    nd = arr.ndim
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(axis, nd)
    axis %= nd
    moved = xnp.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    flat = xnp.reshape(moved, (-1, moved.shape[-1]))
    results = [xnp.asarray(func1d(flat[i], *args, **kwargs)) for i in range(flat.shape[0])]
    stacked = xnp.stack(results)
    out = xnp.reshape(stacked, outer + stacked.shape[1:])
    # The function's own result axes take the place of ``axis``.
    k = stacked.ndim - 1
    return xnp.moveaxis(out, list(range(len(outer), len(outer) + k)),
                        list(range(axis, axis + k))) if k else out


class vectorize:
    """A function evaluated elementwise over broadcast arguments, as
    :class:`numpy.vectorize`: ``pyfunc`` runs once per element (on 0-d xnp arrays, so it
    may use xnp functions and Python control flow) and the results are stacked.
    ``signature`` (generalised ufuncs) is not supported."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None,
                 cache: bool = False, signature=None):
        if signature is not None:
            raise NotImplementedError("vectorize: signature= is not supported by xnp; "
                                      "use xnp.vmap for core dimensions")
        self.pyfunc = pyfunc
        self.otypes = None if otypes is None else [np.dtype(t) for t in (
            otypes if not isinstance(otypes, str) else list(otypes))]
        self.excluded = set(excluded or ())
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is None:         # used as @vectorize(otypes=...)
            return vectorize(args[0], otypes=self.otypes)
        keys = [i for i in range(len(args)) if i not in self.excluded]
        names = [k for k in kwargs if k not in self.excluded]
        arrays = xnp.broadcast_arrays(*[xnp.asarray(args[i]) for i in keys],
                                      *[xnp.asarray(kwargs[k]) for k in names])
        shape = arrays[0].shape if arrays else ()
        flat = [xnp.ravel(a) for a in arrays]
        outs = []
        for j in range(int(np.prod(shape, dtype=np.int64))):
            call_args = list(args)
            for i, a in zip(keys, flat):
                call_args[i] = a[j]
            call_kwargs = dict(kwargs)
            for k, a in zip(names, flat[len(keys):]):
                call_kwargs[k] = a[j]
            outs.append(self.pyfunc(*call_args, **call_kwargs))
        if not outs:
            dt = self.otypes[0] if self.otypes else np.float64
            return xnp.zeros(shape, dt)
        if isinstance(outs[0], tuple):
            return tuple(self._assemble([o[i] for o in outs], shape, i)
                         for i in range(len(outs[0])))
        return self._assemble(outs, shape, 0)

    def _assemble(self, outs, shape, i):
        r = xnp.reshape(xnp.stack([xnp.asarray(o) for o in outs]), shape)
        return r.astype(self.otypes[i]) if self.otypes else r


def row_stack(tup, *, dtype=None, casting: str = "same_kind") -> ndarray:
    """An alias of :func:`vstack` (deprecated in NumPy 2.0, as here)."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return xnp.vstack(tup, dtype=dtype, casting=casting)


def real_if_close(a, tol=100) -> ndarray:
    """``a``'s real part if every imaginary part is within ``tol`` machine epsilons of
    zero (``tol`` > 1), else ``a``, as :func:`numpy.real_if_close`. The result's dtype
    depends on the values, so ``a`` must be concrete."""
    a = xnp.asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    small = concrete_or_error(xnp.all(xnp.abs(xnp.imag(a)) < tol)._value,
                              "real_if_close's decision (its result dtype)")
    return xnp.real(a) if builtins.bool(small) else a
