"""NumPy's own routine for plain eager calls of xnp's composite functions.

Many xnp functions (``median``, ``linalg.norm``, ``searchsorted``, ``fft.fft``, ...) are
compositions of several primitives, so that grad, vmap and jit see through them. Called
eagerly on plain numeric values, such a composition computes what NumPy's routine
computes, at several times its Python cost (``norm`` of 10 elements: 86 Python calls).
For the functions named in :data:`EAGER_NUMPY`, the public function then runs NumPy's
routine instead, when

- no transformation is active (:func:`transforms.core.is_eager`);
- every array argument is a native numeric NumPy value, or an xnp array holding one
  (not bfloat16, object, string or byte-swapped data);
- every other argument is a Python scalar, string, None, dtype or type, or a list or
  tuple of Python numbers or of such arrays (up to 10,000 items); and
- every keyword is one NumPy's routine takes (JAX's ``size=`` is not) and ``out`` is None;
- for the functions in :data:`EAGER_ADJUST`, its check accepts the call (and may set
  keywords: ``argsort`` runs NumPy's stable sort).

Anything else (a tracer, an ``out=`` array, a callable, a list holding other objects, a
duck array) takes xnp's own implementation. Results are NumPy's, with arrays wrapped as
xnp arrays (NumPy scalars stay NumPy scalars, as xnp returns them), and where NumPy
returns its first argument itself (``matrix_power(a, 1)``), so does xnp. The functions
named return no views of their arguments, and their results are plain arrays or tuples.
xnp's implementation stays what every transformation uses; the registry's jit, vmap and
grad tests compare it with these eager (NumPy) results.
"""

from __future__ import annotations

import inspect

import numpy as np

from transforms.core import _EVAL_TRACE, _n_active, _state
from xnp._array import _new_handle, ndarray
from xnp._index_update import _plain_sequence

# Per namespace, the functions whose plain eager calls run NumPy's routine (not ``diff``,
# whose n=0 returns its argument itself, nor ``pad``, whose mode='empty' xnp fills, nor the
# quantile family, whose NumPy dtype for NaN data depends on the values; xnp's does not).
# ``sort`` and ``argsort`` go through a check of EAGER_ADJUST (below).
EAGER_NUMPY = {
    "xnp": frozenset({
        "all", "allclose", "amax", "amin", "any", "argmax", "argmin", "argwhere",
        "around", "array_equal", "average", "bincount", "clip", "convolve", "corrcoef",
        "correlate", "count_nonzero", "cov", "cross", "cumprod", "cumsum",
        "digitize", "dot", "flatnonzero", "gradient", "histogram", "histogram2d",
        "histogramdd", "inner", "interp", "isclose", "isin", "kron", "lexsort", "logspace",
        "max", "mean", "median", "min", "nanmax", "nanmean", "nanmedian", "nanmin",
        "nanprod", "nanstd", "nansum", "nanvar", "nonzero",
        "outer", "polyfit", "polyval", "prod", "ptp", "roll", "round",
        "searchsorted", "select", "sort", "argsort", "std", "sum", "tensordot", "trace",
        "trapezoid", "tril", "triu", "unique", "vander", "var", "vdot",
        # creating and assembling (not ``empty_like``: xnp gives zeros there; ``zeros``,
        # ``full``, ``eye``, ... take NumPy's constructors in xnp/_creation.py; not
        # ``geomspace``, whose complex-to-real rounding noise differs from jit's)
        "zeros_like", "ones_like", "full_like", "diag", "diagflat", "linspace",
        "column_stack", "dstack", "tile", "repeat", "where",
    }),
    "xnp.linalg": frozenset({
        "cholesky", "cond", "det", "inv", "lstsq", "matrix_power", "matrix_rank", "norm",
        "solve",
    }),
    # (not irfft and hfft: NumPy 2.4's read uninitialised memory padding an empty input)
    "xnp.fft": frozenset({
        "fft", "ifft", "rfft", "ihfft", "fft2", "ifft2", "rfft2", "fftn", "ifftn", "rfftn",
    }),
}


def _sort_call(values, kwargs):
    """``sort`` of a NumPy array with NumPy's default kind, which the sort primitive runs
    eagerly too (not for float16, see xnp/lax/_sorting.py); ``kind``, ``stable`` and
    ``order`` take xnp's path (its checks and messages)."""
    a = values[0] if values else kwargs.get("a")
    if type(a) is np.ndarray and a.dtype.char != "e" and len(values) < 3 and (
            not kwargs or kwargs.keys() <= _ARRAY_AXIS):
        return values, kwargs
    return None


def _argsort_call(values, kwargs):
    """``argsort`` as xnp's, always stable: NumPy's ``kind='stable'`` on real numbers
    (what ``xnp._sorting._argsort_v`` runs eagerly)."""
    a = values[0] if values else kwargs.get("a")
    if type(a) is np.ndarray and a.dtype.kind in "biuf" and len(values) < 3 and (
            not kwargs or kwargs.keys() <= _ARRAY_AXIS):
        return values, {**kwargs, "kind": "stable"}
    return None


_ARRAY_AXIS = frozenset({"a", "axis"})


def _diag_call(values, kwargs):
    """``diag`` of a 1-d array only: NumPy's of a 2-d one is a read-only view of it."""
    v = values[0] if values else kwargs.get("v")
    if type(v) is np.ndarray and v.ndim == 1:
        return values, kwargs
    return None


# Per function name, a check of the plain values ``(args, kwargs)`` for NumPy's routine:
# it returns them (changed where need be), or None where xnp's implementation must run.
EAGER_ADJUST = {"sort": _sort_call, "argsort": _argsort_call, "diag": _diag_call}

_NO = object()
_PARAMETER_TYPES = frozenset({int, float, complex, bool, str, type(None)})
# The native numeric dtypes: an array of one of these needs no further look (others go
# through _plain's checks).
NUMERIC = frozenset(np.dtype(c) for c in "?bBhHiIlLqQpPefdgFDG")
_NUMBER_TYPES = (int, float, complex)
_LONGEST_SCANNED = 10_000


def call_plan(numpy_fn, adjust=None) -> tuple[int, frozenset, object] | None:
    """How many leading positional arguments ``numpy_fn`` takes as data (those before an
    ``out`` parameter), the keywords it accepts, other than ``out``, and ``adjust`` (a
    check of :data:`EAGER_ADJUST`); None where its signature cannot be read."""
    try:
        params = list(inspect.signature(numpy_fn).parameters.values())
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params if p.kind is not p.VAR_KEYWORD]
    n = names.index("out") if "out" in names else len(names)
    if any(p.kind is p.VAR_POSITIONAL for p in params[:n]):
        n = 1 << 30
    return n, frozenset(names) - {"out"}, adjust


def numpy_plan(name: str, numpy_fn):
    """The call plan of NumPy's ``numpy_fn`` (named ``name``) for :func:`plain_call`,
    read from its signature or that of its undecorated routine; None if neither can be
    read."""
    adjust = EAGER_ADJUST.get(name)
    return call_plan(numpy_fn, adjust) or call_plan(numpy_fn._implementation, adjust)


def _plain(x):
    """``x`` as NumPy's routine may take it, or ``_NO``."""
    t = type(x)
    if t is ndarray:
        x = x._value
        t = type(x)
    if t is np.ndarray:
        dt = x.dtype
        return x if dt.kind in "biufc" and dt.isnative else _NO   # (bfloat16's kind is V)
    if t in _PARAMETER_TYPES:
        return x
    if isinstance(x, np.generic):
        return x if x.dtype.kind in "biufc" and x.dtype.isnative else _NO
    if t is list or t is tuple:      # (long lists take xnp's path: no second scan)
        if len(x) > _LONGEST_SCANNED:
            return _NO
        if _plain_sequence(x):
            return x
        items = [_plain(item) for item in x]    # arrays in a list: lexsort((a, b))
        return _NO if any(item is _NO for item in items) else t(items)
    if t is np.dtype:
        return x if x.kind in "biufc" else _NO
    if t is type:       # a dtype= argument: Python's or NumPy's numeric types only
        return x if x in _NUMBER_TYPES or x is bool or (
            issubclass(x, np.generic) and np.dtype(x).kind in "biufc") else _NO
    return _NO


def plain_call(plan, args, kwargs):
    """``(args, kwargs)`` as values for NumPy's routine, or None where xnp's own
    implementation must run (see the module's docstring)."""
    if _n_active[0] and _state.trace is not _EVAL_TRACE:     # (is_eager(), inlined)
        return None
    n, accepted, adjust = plan
    if len(args) > n:
        return None
    values = []
    for a in args:
        t = type(a)
        if t is ndarray:
            a = a._value
            t = type(a)
        # (the common arguments without a call: native numeric arrays, Python scalars)
        if not (t is np.ndarray and a.dtype in NUMERIC or t in _PARAMETER_TYPES):
            a = _plain(a)
            if a is _NO:
                return None
        values.append(a)
    if kwargs:
        kw = {}
        for k, a in kwargs.items():
            if k not in accepted:
                if k == "out" and a is None:
                    continue
                return None
            v = a if type(a) in _PARAMETER_TYPES else _plain(a)
            if v is _NO:
                return None
            kw[k] = v
        kwargs = kw
    if adjust is not None:
        return adjust(values, kwargs)
    return values, kwargs


def native_arrays(seq, at_least: int = 2):
    """The NumPy arrays of ``seq``, a list or tuple of at least ``at_least`` native numeric
    arrays of one or more dimensions (NumPy's or xnp's, concrete), when no transformation
    is active; else None. The cheap gate of functions that run NumPy's routine on a
    sequence of arrays themselves (``concatenate``, ``stack``)."""
    if (type(seq) is not list and type(seq) is not tuple) or len(seq) < at_least or (
            _n_active[0] and _state.trace is not _EVAL_TRACE):
        return None
    values = []
    for a in seq:
        if type(a) is ndarray:
            a = a._value
        if type(a) is not np.ndarray or a.dtype not in NUMERIC or not a.ndim:
            return None
        values.append(a)
    return values


def wrap_result(r):
    """NumPy's result with its arrays as xnp arrays."""
    t = type(r)
    if t is np.ndarray:
        h = _new_handle(ndarray)        # (_wrap, inlined)
        h._value = r
        return h
    if t is tuple:
        return tuple(map(wrap_result, r))
    if t is list:
        return [wrap_result(x) for x in r]
    return r
