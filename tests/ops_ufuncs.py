"""Registry entries for every ufunc: all dtypes, broadcasting, Python scalars (NEP 50).

NumPy is the oracle for dtype support too: where NumPy raises (bitwise ops on floats,
subtracting booleans), the generic test requires the same exception class from xnp."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

from xnp._ufuncs import _ALIASES, UFUNCS

# Composite ufuncs (several primitives) may differ from NumPy's loops by a few ulp.
_COMPOSITE_RTOL = {"hypot": 1e-14, "logaddexp": 1e-14, "logaddexp2": 1e-14,
                   "deg2rad": 1e-15, "rad2deg": 1e-15, "ldexp": 1e-15, "float_power": 1e-14}
# Values where NumPy's own results are platform/loop specific are kept out of range.
_SMALL_INT_ARGS = {"power", "left_shift", "right_shift", "ldexp", "float_power"}


def _unary_samples(name):
    dtypes = S.ALL
    return S.arrays(st.sampled_from(dtypes)).map(lambda a: Sample((a,)))


def _binary_samples(name):
    bounded = name in _SMALL_INT_ARGS
    elem = {"min_value": 0, "max_value": 12} if bounded else {}
    dtypes = S.ALL if not bounded else S.INTEGER + S.FLOATS
    two_arrays = S.broadcastable_arrays(dtypes, 2, **elem).map(lambda xy: Sample(xy))
    scalars = S.python_scalars() if not bounded else st.integers(0, 5)
    array_scalar = st.tuples(S.arrays(st.sampled_from(dtypes), **elem), scalars,
                             st.booleans()).map(
        lambda t: Sample((t[0], t[1]) if t[2] else (t[1], t[0])))
    return st.one_of(two_arrays, array_scalar)


# Remainders jump wherever x / y crosses an integer; with integer x of any size these
# jumps are closer together than a finite-difference step, so their derivatives are
# checked at chosen points in test_autodiff.py instead of on drawn samples.
_DISCONTINUOUS = {"mod", "remainder", "fmod", "divmod"}


def _entry(name, uf):
    samples = _unary_samples(name) if uf.nin == 1 else _binary_samples(name)
    return OpInfo(name, samples, ref=getattr(np, _numpy_name(name)),
                  rtol=_COMPOSITE_RTOL.get(name, 1e-7),
                  differentiable=name not in _DISCONTINUOUS)


def _numpy_name(name):
    return name if hasattr(np, name) else _ALIASES[name]


ENTRIES = [_entry(name, uf) for name, uf in sorted(UFUNCS.items())]

_ERRORS = [
    OpInfo("add", id="add-errors", errors=[
        Sample((np.ones(3), np.ones(4))),                       # shapes do not broadcast
        Sample((np.ones((2, 3)), np.ones((3, 2)))),
    ]),
    OpInfo("bitwise_and", id="bitwise_and-errors", errors=[
        Sample((np.ones(3), np.ones(3)))]),                     # no float loop
    OpInfo("subtract", id="subtract-errors", errors=[
        Sample((np.ones(3, bool), np.ones(3, bool)))]),         # boolean subtract
]
ENTRIES += _ERRORS


def _accumulate_samples(dtypes):
    """An array of at least one dimension and an axis (or None: flattened)."""
    return S.arrays(st.sampled_from(dtypes), S.shapes(1, 3)).flatmap(
        lambda a: st.sampled_from([None, *range(-a.ndim, a.ndim)]).map(
            lambda ax: Sample((a,), {"axis": ax})))


_ACCUMULATE = {"add": S.REAL, "multiply": S.FLOATS, "maximum": S.REAL, "minimum": S.REAL,
               "fmax": S.FLOATS, "fmin": S.FLOATS, "logaddexp": S.FLOATS,
               "logical_and": S.REAL, "logical_or": S.REAL}
ENTRIES += [OpInfo(f"{name}.accumulate", _accumulate_samples(dtypes),
                   differentiable=name not in ("logical_and", "logical_or"),
                   rtol=1e-6, errors=[Sample((np.array(1.0),))])
            for name, dtypes in _ACCUMULATE.items()]
