"""NumPy's index tricks and small functional helpers: ``s_``, ``index_exp``, ``r_``,
``c_``, ``mgrid``, ``ogrid``, ``apply_along_axis``, ``vectorize``, ``row_stack`` and
``real_if_close``.

``r_``/``c_``/``mgrid``/``ogrid`` build their arrays with xnp functions (arange,
linspace, concatenate, broadcasting), so traced pieces may be concatenated; their
slice bounds must be concrete numbers, as in NumPy. ``apply_along_axis`` and
``vectorize`` (elementwise or with a gufunc ``signature``) call the Python function on
each slice or element in a Python loop, as NumPy does, and stack the results: Python
control flow inside works eagerly and under ``grad``, and the loop is unrolled under
``jit``/``vmap`` (for large inputs prefer ``xnp.vmap``).
"""

from __future__ import annotations

import builtins
import math
import operator
import re
import warnings

import numpy as np

import xnp
from transforms.core import Tracer, concrete_or_error
from xnp._array import ndarray

__all__ = ["s_", "index_exp", "r_", "c_", "mgrid", "ogrid", "apply_along_axis",
           "vectorize", "row_stack", "real_if_close"]


class _IndexExpression:
    """Builds index tuples for arrays, as NumPy's ``s_`` and ``index_exp``.

    ``s_[...]`` returns the index exactly as written (``s_[1:3]`` is ``slice(1, 3)``);
    ``index_exp[...]`` always returns a tuple (``index_exp[2]`` is ``(2,)``). Plain
    Python: no arrays are created, so they work anywhere, traced code included.
    """

    def __init__(self, maketuple: bool):
        self.maketuple = maketuple

    def __getitem__(self, item):
        return (item,) if self.maketuple and not isinstance(item, tuple) else item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)


def _slice_values(key: slice):
    """The 1-d values a slice in ``r_``/``c_`` stands for: ``arange(start, stop, step)``,
    or ``linspace(start, stop, n)`` for a complex step ``nj`` (the stop included)."""
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    if isinstance(step, (complex, np.complexfloating)):
        return xnp.linspace(start, key.stop, num=int(abs(step)))
    return xnp.arange(start, key.stop, step)


def _parse_directive(item: str, axis: int, ndmin: int, trans1d: int):
    """``'axis'`` or ``'axis,ndmin[,trans1d]'``, as NumPy reads them."""
    if "," in item:
        parts = item.split(",")
        try:
            axis, ndmin = (int(p) for p in parts[:2])
            if len(parts) == 3:
                trans1d = int(parts[2])
        except Exception as e:
            raise ValueError(f"unknown special directive {item!r}") from e
        return axis, ndmin, trans1d
    try:
        return int(item), ndmin, trans1d
    except (ValueError, TypeError) as e:
        raise ValueError("unknown special directive") from e


class _Concatenator:
    """Translates slice objects and arrays into a concatenation along an axis.

    ``r_`` stacks along the first axis, ``c_`` along the last with 1-d pieces (and
    slices) turned into columns. Each entry is one of: a slice (``start:stop:step``, an
    ``arange``; a complex step ``nj`` asks for ``n`` points of a ``linspace`` including
    ``stop``), a scalar, or an array (xnp arrays and tracers included). A string as the
    first entry sets the axis (``'1'``), or the axis, the minimum number of dimensions
    and where 1-d pieces' axis goes among them (``'0,2,0'``), as in NumPy. Scalars do not
    upcast the result (``r_[int32_array, 3]`` is int32), as in NumPy.

    Differences from NumPy: the matrix directives ``'r'`` and ``'c'`` return a 2-d
    ``xnp.ndarray`` (a row, or a column for 1-d results), since xnp has no ``matrix``
    class; a string expression key (``r_['1 2; 3 4']``) is not supported.
    """

    def __init__(self, axis: int, ndmin: int, trans1d: int):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise NotImplementedError("r_/c_ with a matrix string expression (numpy's "
                                      "bmat syntax) is not supported by xnp")
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        matrix = column = False
        objs, type_objs = [], []
        for k, item in enumerate(items):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, column = True, item == "c"
                else:
                    axis, ndmin, trans1d = _parse_directive(item, axis, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                obj = _slice_values(item)
                if ndmin > 1:
                    obj = xnp.array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = xnp.swapaxes(obj, -1, trans1d)
                type_objs.append(obj.dtype)
            elif type(item) in np.ScalarType:
                obj = item
                type_objs.append(item)          # weak: does not upcast the arrays
            else:
                item_ndim = xnp.ndim(item)
                obj = xnp.array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    axes = list(range(ndmin))
                    obj = xnp.transpose(obj, axes[:k1] + axes[k2:] + axes[k1:k2])
                type_objs.append(obj.dtype)
            objs.append(obj)
        if type_objs:
            dtype = np.result_type(*type_objs)
            objs = [xnp.array(o, copy=None, ndmin=ndmin, dtype=dtype) for o in objs]
        res = xnp.concatenate(tuple(objs), axis=axis)
        if matrix:
            if res.ndim > 2:
                raise ValueError("shape too large to be a matrix.")
            res = xnp.reshape(res, (res.shape[0], 1) if res.ndim == 1 and column
                              else (1, -1) if res.ndim < 2 else res.shape)
        return res


r_ = _Concatenator(axis=0, ndmin=1, trans1d=-1)
c_ = _Concatenator(axis=-1, ndmin=2, trans1d=0)


def _is_complex_step(step) -> bool:
    return isinstance(step, (complex, np.complexfloating))


class _Grid:
    """Dense (``mgrid``) or open (``ogrid``) mesh grids from slices, as NumPy's.

    ``grid[a:b:s, ...]``: each slice is ``arange(a, b, s)``; a complex step ``nj`` asks
    for ``n`` points from ``a`` to ``b`` inclusive. The result's dtype is that of all the
    bounds and steps together (``mgrid[0:5]`` int64, ``mgrid[0:1:5j]`` float64).
    ``mgrid`` returns one array of shape ``(ndim, *sizes)``, ``ogrid`` a tuple of arrays
    each varying along its own axis; a single slice gives a 1-d array for both.
    The bounds must be concrete Python or NumPy numbers, as in NumPy.
    """

    def __init__(self, sparse: bool):
        self.sparse = sparse

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            return self._one(key)
        sizes, nums, steps = [], [0], []
        for k in key:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if _is_complex_step(step):
                n = int(abs(step))
                sizes.append(n)
                nums += [start, k.stop, abs(step)]
                steps.append(((k.stop - start) / float(n - 1) if n != 1 else 1, start))
            else:
                sizes.append(math.ceil((k.stop - start) / step))
                nums += [start, k.stop, step]
                steps.append((step, start))
        dtype = np.result_type(*nums)
        if any(s < 0 for s in sizes):
            if not self.sparse:
                raise ValueError("negative dimensions are not allowed")
            sizes = [max(s, 0) for s in sizes]     # an empty arange, as in NumPy
        n = len(sizes)
        axes = []
        for i, (size, (step, start)) in enumerate(zip(sizes, steps)):
            a = xnp.arange(size, dtype=dtype) * step + start
            axes.append(xnp.reshape(a, [size if j == i else 1 for j in range(n)]))
        if self.sparse:
            return tuple(axes)
        if not axes:
            return xnp.zeros((0,), dtype)
        return xnp.stack([xnp.broadcast_to(a, tuple(sizes)) for a in axes])

    @staticmethod
    def _one(key):
        start = 0 if key.start is None else key.start
        step = key.step
        if _is_complex_step(step):
            n = int(abs(step))
            dtype = np.result_type(start, key.stop, abs(step))
            delta = (key.stop - start) / float(n - 1) if n != 1 else n
            return xnp.arange(0, n, 1, dtype=dtype) * delta + start
        return xnp.arange(start, key.stop, step)


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def apply_along_axis(func1d, axis: int, arr, *args, **kwargs) -> ndarray:
    """Apply ``func1d`` to every 1-d slice of ``arr`` along ``axis``, as
    :func:`numpy.apply_along_axis`.

    ``func1d(v, *args, **kwargs)`` is called in a Python loop on each 1-d xnp slice
    ``v``; its results (scalars or arrays of one shape) are stacked, and their
    dimensions replace ``axis`` in the output. The output's dtype is the first result's
    (later results are cast to it), as in NumPy. Built from xnp indexing and ``stack``,
    so it differentiates, and traces under ``jit``/``vmap`` when ``func1d`` does.

    Raises ``AxisError`` for an out-of-range axis and ValueError when a dimension other
    than ``axis`` is 0, as NumPy does.
    """
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
    flat = xnp.reshape(moved, (math.prod(outer), moved.shape[-1]))
    first = xnp.asarray(func1d(flat[0], *args, **kwargs))
    results = [first] + [xnp.broadcast_to(xnp.asarray(func1d(flat[i], *args, **kwargs)),
                                          first.shape) for i in range(1, flat.shape[0])]
    stacked = xnp.stack(results).astype(first.dtype, copy=False)
    out = xnp.reshape(stacked, outer + stacked.shape[1:])
    # The function's own result axes take the place of ``axis``.
    k = stacked.ndim - 1
    return xnp.moveaxis(out, list(range(len(outer), len(outer) + k)),
                        list(range(axis, axis + k))) if k else out


_DIMS = r"\w+(?:,\w+)*"
_ARGLIST = rf"\((?:{_DIMS})?\)(?:,\((?:{_DIMS})?\))*"
_SIGNATURE = re.compile(rf"^{_ARGLIST}->{_ARGLIST}$")


def _parse_signature(signature: str):
    """``'(m,n),(n)->(m)'`` -> ([('m', 'n'), ('n',)], [('m',)])."""
    signature = re.sub(r"\s+", "", signature)
    if not _SIGNATURE.match(signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = signature.split("->")
    return tuple([tuple(re.findall(r"\w+", arg)) for arg in re.findall(r"\(([^)]*)\)", side)]
                 for side in (ins, outs))


def _record_core_sizes(sizes: dict, shape: tuple, core: tuple):
    if len(shape) < len(core):
        raise ValueError(f"{len(shape)}-dimensional argument does not have enough "
                         f"dimensions for all core dimensions {core!r}")
    for dim, size in zip(core, shape[len(shape) - len(core):]):
        if dim in sizes and sizes[dim] != size:
            raise ValueError(f"inconsistent size for core dimension {dim!r}: {size} vs "
                             f"{sizes[dim]}")
        sizes[dim] = size


def _loop_rows(a, loop_shape, core_shape, count):
    """``a`` broadcast to the loop shape and flattened to ``(count, *core_shape)``. An
    object array (``None`` or other Python objects, never traced) stays a NumPy array, so
    that pyfunc gets its elements as the Python objects they are, under jit too."""
    shape = loop_shape + core_shape
    if a.dtype == object:
        return np.broadcast_to(np.asarray(a, dtype=object), shape).reshape(
            (count,) + core_shape)
    return xnp.reshape(xnp.broadcast_to(a, shape), (count,) + core_shape)


class vectorize:
    """A Python function made to take arrays and broadcast, as :class:`numpy.vectorize`.

    Calling the result broadcasts the (non-``excluded``) arguments together and calls
    ``pyfunc`` once per element (or, with ``signature``, once per core sub-array), in a
    Python loop as NumPy does; the results are stacked into arrays. Each call receives
    0-d xnp arrays (or sub-arrays), so ``pyfunc`` may use xnp functions and Python
    control flow on concrete values, and the whole differentiates under ``grad``.

    Parameters
    ----------
    pyfunc : callable
        The function; may be omitted to use ``vectorize(otypes=...)`` as a decorator.
    otypes : str or list of dtypes, optional
        The outputs' dtypes. Without it they are the first call's result dtypes (later
        results are cast to them, as in NumPy), and size-0 inputs raise ValueError.
    doc : str, optional
        The docstring; ``pyfunc.__doc__`` by default.
    excluded : set of int or str, optional
        Positional indices or keyword names passed to ``pyfunc`` unchanged.
    cache : bool
        Accepted for compatibility; the first element is evaluated once either way
        (NumPy evaluates it twice without ``cache`` to find the output types).
    signature : str, optional
        A generalised-ufunc signature such as ``'(m,n),(n)->(m)'``: ``pyfunc`` gets and
        returns arrays with these core dimensions; the rest broadcast.

    Differences from NumPy: ``pyfunc`` gets 0-d xnp arrays rather than NumPy scalars.
    For speed prefer ``xnp.vmap``, which traces the function once instead of looping.
    """

    __module__ = "xnp"     # prints as <class 'xnp.vectorize'>, as NumPy's 'numpy.vectorize'

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None,
                 cache: bool = False, signature=None):
        if pyfunc is not None and not callable(pyfunc):
            raise TypeError("`pyfunc` should be a callable")
        self.pyfunc, self.cache = pyfunc, cache
        self.otypes = otypes
        self.excluded = set(excluded or ())
        self.signature = signature
        self._core = None if signature is None else _parse_signature(signature)
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)
        if pyfunc is not None:
            self.__name__ = getattr(pyfunc, "__name__", type(pyfunc).__name__)

    @property
    def otypes(self):
        """The output dtypes (a list), or None when the first result decides them."""
        return self._otypes

    @otypes.setter
    def otypes(self, otypes):
        # Settable after construction, as NumPy's attribute.
        if isinstance(otypes, str):
            for char in otypes:
                if char not in np.typecodes["All"]:
                    raise ValueError(f"Invalid otype specified: {char}")
            otypes = list(otypes)
        self._otypes = None if otypes is None else [np.dtype(t) for t in otypes]

    def __call__(self, *args, **kwargs):
        if self.pyfunc is None:         # used as @vectorize(otypes=...)
            return vectorize(args[0], otypes=self.otypes, excluded=self.excluded,
                             cache=self.cache, signature=self.signature)
        pos = [i for i in range(len(args)) if i not in self.excluded]
        names = [k for k in kwargs if k not in self.excluded]
        inputs = [xnp.asarray(args[i]) for i in pos] + [xnp.asarray(kwargs[k]) for k in names]

        def call(values):
            call_args, call_kwargs = list(args), dict(kwargs)
            for i, v in zip(pos, values):
                call_args[i] = v
            for k, v in zip(names, values[len(pos):]):
                call_kwargs[k] = v
            return self.pyfunc(*call_args, **call_kwargs)

        if self._core is None:
            in_core, out_core = [()] * len(inputs), None
        else:
            in_core, out_core = self._core
            if len(inputs) != len(in_core):
                raise TypeError(f"wrong number of positional arguments: expected "
                                f"{len(in_core)}, got {len(inputs)}")
        sizes: dict = {}
        for a, core in zip(inputs, in_core):
            _record_core_sizes(sizes, a.shape, core)
        loop_shape = np.broadcast_shapes(*[a.shape[:a.ndim - len(c)]
                                           for a, c in zip(inputs, in_core)])
        count = math.prod(loop_shape)
        inputs = [_loop_rows(a, loop_shape, a.shape[a.ndim - len(c):], count)
                  for a, c in zip(inputs, in_core)]
        if count == 0:
            return self._empty(loop_shape, out_core, sizes)
        otypes, first_result = self.otypes, None
        if out_core is None and not any(isinstance(getattr(a, "_value", None), Tracer)
                                        for a in inputs):
            # NumPy's loop hands pyfunc Python objects; without otypes, a first call on
            # NumPy scalars picks the output dtypes
            if otypes is None:
                first_result = call([a[0] for a in inputs])
                otypes = [_unsized(xnp.asarray(r).dtype) for r in (
                    first_result if isinstance(first_result, tuple) else (first_result,))]
            inputs = [a.astype(object) for a in inputs]
        results = []
        for j in range(count):
            r = first_result if j == 0 and self.cache else call([a[j] for a in inputs])
            n_out = len(out_core) if out_core is not None else (
                len(r) if isinstance(r, tuple) else 1)
            got = len(r) if isinstance(r, tuple) else 1
            if got != n_out:
                raise ValueError(f"wrong number of outputs from pyfunc: expected {n_out}, "
                                 f"got {got}")
            results.append(r if isinstance(r, tuple) else (r,))
        n_out = len(results[0])
        if self.otypes is not None and len(self.otypes) != n_out:
            raise TypeError(f"vectorize: otypes has {len(self.otypes)} entries but pyfunc "
                             f"returned {n_out} outputs")
        outs = []
        for i in range(n_out):
            if out_core is None and otypes is not None and otypes[i].kind == "O":
                outs.append(_object_cells([r[i] for r in results], loop_shape))
                continue
            first = xnp.asarray(results[0][i])
            if out_core is not None:
                _record_core_sizes(sizes, first.shape, out_core[i])
                core_shape = tuple(sizes[d] for d in out_core[i])
            else:
                core_shape = first.shape
            dtype = otypes[i] if otypes is not None else first.dtype
            pieces = [xnp.broadcast_to(xnp.asarray(r[i]), core_shape) for r in results]
            out = xnp.reshape(xnp.stack(pieces), loop_shape + core_shape)
            outs.append(out if out.dtype == dtype else out.astype(dtype))
        return outs[0] if n_out == 1 else tuple(outs)

    def _empty(self, loop_shape, out_core, sizes):
        if self.otypes is None:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` "
                             "is set")
        cores = out_core if out_core is not None else [()] * len(self.otypes)
        if any(d not in sizes for core in cores for d in core):
            raise ValueError("cannot call `vectorize` with a signature including new "
                             "output dimensions on size 0 inputs")
        outs = [xnp.zeros(loop_shape + tuple(sizes[d] for d in core), t)
                for core, t in zip(cores, self.otypes)]
        return outs[0] if len(outs) == 1 else tuple(outs)


def _unsized(dt: np.dtype) -> np.dtype:
    """A string dtype without its length (the results decide it), as NumPy's otypes."""
    return np.dtype(dt.kind) if dt.kind in "SU" else dt


def _object_cells(results: list, shape: tuple) -> ndarray:
    """An object array of ``shape`` holding each result itself (lists and arrays too),
    as NumPy's object loop fills ``vectorize(otypes=[object])`` results."""
    cells = np.empty(len(results), dtype=object)
    for j, r in enumerate(results):
        cells[j] = r
    return xnp.reshape(xnp.asarray(cells), shape)


def row_stack(tup, *, dtype=None, casting: str = "same_kind") -> ndarray:
    """Stack arrays row-wise: an alias of :func:`vstack`, as :func:`numpy.row_stack`.

    Deprecated in NumPy 2.0; NumPy 2.4 still provides it and emits a
    DeprecationWarning on each call, and so does xnp. Use ``vstack``.
    """
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return xnp.vstack(tup, dtype=dtype, casting=casting)


def real_if_close(a, tol=100) -> ndarray:
    """``a``'s real part if every imaginary part is close to zero, else ``a``, as
    :func:`numpy.real_if_close`.

    Parameters
    ----------
    a : array_like
        Non-complex input is returned unchanged.
    tol : float
        Tolerance on the imaginary parts: in machine epsilons of ``a``'s dtype when
        ``tol > 1`` (default 100), else absolute.

    Differences from NumPy: the result's dtype depends on the values, so ``a`` must be
    concrete: fine eagerly and under ``grad``; under ``jit``/``vmap`` this raises
    ConcretizationTypeError (use ``xnp.real`` when the imaginary part is known to be
    negligible).
    """
    a = xnp.asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    small = concrete_or_error(xnp.all(xnp.abs(xnp.imag(a)) < tol),
                              "real_if_close's decision (its result dtype)")
    return xnp.real(a) if builtins.bool(small) else a
