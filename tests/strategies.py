"""Hypothesis strategies for the test registry: dtypes, shapes and array values with the
hard cases (0-d, empty, size-1 broadcasting, NaN, inf, -0.0, huge and tiny values)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

BOOL = [np.dtype(bool)]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UINTS = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
FLOATS = [np.dtype(t) for t in (np.float16, np.float32, np.float64)]
COMPLEX = [np.dtype(np.complex64), np.dtype(np.complex128)]
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
INTEGER = INTS + UINTS
REAL = INTEGER + FLOATS
NUMERIC = REAL + COMPLEX
ALL = BOOL + NUMERIC

FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, np.inf, -np.inf, np.nan, 1e300, -1e300,
               5e-324, 1e-310, 2.0, 3.0]


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def elements(dtype: np.dtype, *, finite=False, min_value=None, max_value=None,
             edges=True, nonzero=False):
    """Values of ``dtype`` with its edge cases (unless finite/bounded)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo = info.min if min_value is None else max(info.min, int(min_value))
        hi = info.max if max_value is None else min(info.max, int(max_value))
        s = st.integers(lo, hi)
        return s.filter(bool) if nonzero else s
    if dtype.kind == "c":
        part = elements(np.dtype(f"f{dtype.itemsize // 2}"), finite=finite,
                        min_value=min_value, max_value=max_value, edges=edges)
        return st.builds(complex, part, part)
    width = 64 if dtype.itemsize >= 8 else 32 if dtype.itemsize >= 4 else 16
    biggest = float(np.finfo(dtype).max)
    if min_value is not None:
        min_value = max(min_value, -biggest)
    if max_value is not None:
        max_value = min(max_value, biggest)
    bounded = min_value is not None or max_value is not None
    s = st.floats(min_value=min_value, max_value=max_value, allow_nan=not finite and not
                  bounded, allow_infinity=not finite and not bounded, width=width,
                  allow_subnormal=not bounded or (min_value is None or min_value <= 0))
    if edges and not bounded:
        with np.errstate(over="ignore"):
            picks = [float(dtype.type(v)) for v in FLOAT_EDGES]
        picks = [v for v in picks if not finite or np.isfinite(v)]
        s = st.one_of(s, st.sampled_from(picks))
    return s.filter(lambda v: v != 0) if nonzero else s


def arrays(dtype, shape=None, **elem_kwargs):
    """A NumPy array of ``dtype`` (a dtype or strategy) and ``shape`` (tuple or strategy)."""
    dtype_st = dtype if isinstance(dtype, st.SearchStrategy) else st.just(np.dtype(dtype))
    shape_st = shape if isinstance(shape, st.SearchStrategy) else \
        (st.just(shape) if shape is not None else shapes())
    return st.tuples(dtype_st, shape_st).flatmap(
        lambda ds: hnp.arrays(ds[0], ds[1], elements=elements(ds[0], **elem_kwargs)))


def broadcastable_arrays(dtypes, n=2, max_dims=3, **elem_kwargs):
    """``n`` arrays of (independently drawn) dtypes with mutually broadcastable shapes."""
    def build(shapes_result):
        return st.tuples(*[arrays(st.sampled_from(dtypes), shape, **elem_kwargs)
                           for shape in shapes_result.input_shapes])
    return hnp.mutually_broadcastable_shapes(num_shapes=n, max_dims=max_dims,
                                             max_side=4).flatmap(build)


def python_scalars(kinds=("bool", "int", "float", "complex")):
    options = {"bool": st.booleans(), "int": st.integers(-100, 100),
               "float": st.floats(-1e3, 1e3, allow_nan=False, width=32),
               "complex": st.builds(complex, st.integers(-5, 5), st.integers(-5, 5))}
    return st.one_of(*[options[k] for k in kinds])


def axes(ndim: int, allow_none=True, allow_tuple=True):
    """A valid axis argument for an array of ``ndim`` dimensions (possibly negative)."""
    choices = []
    if allow_none:
        choices.append(st.none())
    if ndim:
        choices.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            choices.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)
                           .map(tuple))
    return st.one_of(*choices) if choices else st.none()
