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
- every keyword is one NumPy's routine takes (JAX's ``size=`` is not) and ``out`` is None.

Anything else (a tracer, an ``out=`` array, a callable, a list holding other objects, a
duck array) takes xnp's own implementation. Results are NumPy's, with arrays wrapped as
xnp arrays (NumPy scalars stay NumPy scalars, as xnp returns them), and where NumPy
returns its first argument itself (``matrix_power(a, 1)``), so does xnp. The functions
named return no views of their arguments, and their results are plain arrays or tuples. xnp's implementation stays what every transformation
uses; the registry's jit, vmap and grad tests compare it with these eager (NumPy) results.
"""

from __future__ import annotations

import inspect

import numpy as np

from transforms import core
from xnp._array import _wrap, ndarray
from xnp._index_update import _plain_sequence

# Per namespace, the functions whose plain eager calls run NumPy's routine (not ``diff``,
# whose n=0 returns its argument itself, nor ``pad``, whose mode='empty' xnp fills, nor
# ``argsort``, stable in xnp (as the array API and JAX require) but not in NumPy, nor the
# quantile family, whose NumPy dtype for NaN data depends on the values; xnp's does not).
EAGER_NUMPY = {
    "xnp": frozenset({
        "all", "allclose", "amax", "amin", "any", "argmax", "argmin", "argwhere",
        "around", "array_equal", "average", "bincount", "clip", "convolve", "corrcoef",
        "correlate", "count_nonzero", "cov", "cross", "cumprod", "cumsum",
        "digitize", "dot", "flatnonzero", "gradient", "histogram", "histogram2d",
        "histogramdd", "inner", "interp", "isclose", "isin", "kron", "lexsort", "logspace",
        "max", "mean", "median", "min", "nanmax", "nanmean", "nanmedian", "nanmin",
        "nanprod", "nanstd", "nansum", "nanvar", "nonzero",
        "outer", "polyval", "prod", "ptp", "roll", "round",
        "searchsorted", "select", "std", "sum", "tensordot", "trace", "trapezoid", "tril",
        "triu", "unique", "var", "vdot",
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

_NO = object()
_PARAMETER_TYPES = frozenset({int, float, complex, bool, str, type(None)})
_NUMBER_TYPES = (int, float, complex)
_LONGEST_SCANNED = 10_000


def call_plan(numpy_fn) -> tuple[int, frozenset] | None:
    """How many leading positional arguments ``numpy_fn`` takes as data (those before an
    ``out`` parameter) and the keywords it accepts, other than ``out``; None where its
    signature cannot be read."""
    try:
        params = list(inspect.signature(numpy_fn).parameters.values())
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params if p.kind is not p.VAR_KEYWORD]
    n = names.index("out") if "out" in names else len(names)
    if any(p.kind is p.VAR_POSITIONAL for p in params[:n]):
        n = 1 << 30
    return n, frozenset(names) - {"out"}


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
    if not core.is_eager():
        return None
    n, accepted = plan
    if len(args) > n:
        return None
    values = []
    for a in args:
        v = _plain(a)
        if v is _NO:
            return None
        values.append(v)
    if kwargs:
        kw = {}
        for k, a in kwargs.items():
            if k not in accepted:
                if k == "out" and a is None:
                    continue
                return None
            v = _plain(a)
            if v is _NO:
                return None
            kw[k] = v
        kwargs = kw
    return values, kwargs


def wrap_result(r):
    """NumPy's result with its arrays as xnp arrays."""
    t = type(r)
    if t is np.ndarray:
        return _wrap(r)
    if t is tuple:
        return tuple(map(wrap_result, r))
    if t is list:
        return [wrap_result(x) for x in r]
    return r
