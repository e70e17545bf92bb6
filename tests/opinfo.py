"""The test registry's entry type, in the manner of PyTorch's OpInfo, with few fields.

One :class:`OpInfo` per public function: how to draw its inputs (a hypothesis strategy of
:class:`Sample`), its NumPy reference, tolerances, and inputs on which it must raise what
NumPy raises. The generic tests in ``test_registry.py`` (and the autodiff, vmap and jit
checks added later) run every entry; adding a function means adding one entry.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any, Callable, NamedTuple

import numpy as np
from hypothesis import strategies as st

import xnp


class Sample(NamedTuple):
    """Arguments for one call. NumPy arrays among ``args`` (and in lists/tuples of args)
    become xnp arrays for the xnp call and traced inputs for the jaxpr check."""
    args: tuple
    kwargs: dict = {}


@dataclasses.dataclass
class OpInfo:
    name: str                                   # attribute path in xnp: "sum", "linalg.norm"
    samples: st.SearchStrategy | None = None    # strategy of Sample; None: errors only
    ref: Callable | None = None                 # NumPy reference; default numpy.<name>
    op: Callable | None = None                  # default xnp.<name>
    rtol: float = 1e-7
    atol: float = 0.0
    check_dtype: bool = True
    traceable: bool = True                      # False: output shape depends on values
    jittable: bool = True                       # False: jit may raise NotImplementedError
    errors: list = dataclasses.field(default_factory=list)   # Samples NumPy rejects
    differentiable: bool = True
    # The derivative does not exist where the output is 0 (sqrt-like: std, norms):
    # gradient checks skip such samples.
    kink_at_zero_output: bool = False
    id: str | None = None                       # distinguishes entries for one name

    def __post_init__(self):
        if self.op is None:
            self.op = _lookup(xnp, self.name)
        if self.ref is None:
            self.ref = _lookup(np, self.name)
        self.id = self.id or self.name

    def __repr__(self):
        return f"OpInfo({self.id})"


def _lookup(module, dotted: str):
    obj: Any = module
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def map_nested(fn, x, dicts: bool = True):
    """``fn`` applied to every item of (nested) lists, tuples and (with ``dicts``) dicts
    in ``x``, the containers rebuilt; NamedTuples are parameters, not containers."""
    if type(x) is list:
        return [map_nested(fn, i, dicts) for i in x]
    if type(x) is tuple:
        return tuple(map_nested(fn, i, dicts) for i in x)
    if dicts and type(x) is dict:
        return {k: map_nested(fn, v, dicts) for k, v in x.items()}
    return fn(x)


def to_xnp(x):
    """Convert NumPy arrays (also inside lists and tuples) to xnp arrays."""
    return map_nested(lambda v: xnp.asarray(v) if isinstance(v, np.ndarray) else v, x,
                      dicts=False)


def call_ref(info: OpInfo, sample: Sample):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return info.ref(*sample.args, **sample.kwargs)


def call_xnp(info: OpInfo, sample: Sample):
    args = to_xnp(sample.args)
    kwargs = {k: to_xnp(v) for k, v in sample.kwargs.items()}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return info.op(*args, **kwargs)


def standard_exception(exc: BaseException) -> type:
    """The exception class a compatible implementation must raise for NumPy's ``exc``."""
    if isinstance(exc, np.exceptions.AxisError):
        return np.exceptions.AxisError
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls
    return Exception


def assert_same_result(actual, expected, info: OpInfo, where: str = ""):
    """Same structure, shapes, dtypes (if checked) and values (NaN == NaN)."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), f"{where}: expected a sequence"
        assert len(actual) == len(expected), f"{where}: {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same_result(a, e, info, f"{where}[{i}]")
        return
    if expected is None or isinstance(expected, (str, bool, int, float, complex)) and \
            not isinstance(expected, np.generic) and \
            not isinstance(actual, (xnp.ndarray, np.generic)):
        assert actual == expected or (actual != actual and expected != expected), \
            f"{where}: {actual!r} != {expected!r}"
        return
    a = np.asarray(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{info.id}{where}: shape {a.shape} != NumPy's {e.shape}"
    if info.check_dtype:
        assert a.dtype == e.dtype, f"{info.id}{where}: dtype {a.dtype} != NumPy's {e.dtype}"
    if e.dtype.kind in "fc" and a.dtype.kind in "fc":
        rtol = max(info.rtol, _dtype_rtol(e.dtype))
        np.testing.assert_allclose(a, e, rtol=rtol, atol=info.atol, equal_nan=True,
                                   err_msg=f"{info.id}{where}")
    else:
        np.testing.assert_array_equal(a, e, err_msg=f"{info.id}{where}")


def _dtype_rtol(dtype):
    return 8 * float(np.finfo(dtype).eps)
