"""0-d results: NumPy's ufuncs, reductions and ufunc-like functions return NumPy scalars
(``np.float64(2.0)``, not ``array(2.)``), which shows in ``repr``, in ``isinstance(x,
float)`` and in what ``json`` accepts. Eagerly, xnp returns the very same NumPy scalar
types, for every ufunc."""

import warnings

import numpy as np
import pytest

import xnp
from xnp._ufuncs import UFUNCS

_VALUES = {"f": (np.float64(0.75), np.array(-0.25)), "i": (np.int64(7), np.array(3)),
           "b": (np.bool_(True), np.array(False))}


def _is_scalar_result(x):
    return isinstance(x._value if isinstance(x, xnp.ndarray) else x, np.generic)


def _ufunc_cases():
    for name, uf in sorted(UFUNCS.items()):
        for kind, (a, b) in _VALUES.items():
            yield pytest.param(name, uf.nin, a, b, id=f"{name}-{kind}")


@pytest.mark.parametrize("name,nin,a,b", _ufunc_cases())
def test_ufunc_0d_result_kind(name, nin, a, b):
    args = (a, b)[:nin]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            ref = getattr(np, name)(*args)
        except TypeError:
            return      # no loop for this dtype in NumPy either (checked elsewhere)
        got = getattr(xnp, name)(*[xnp.asarray(x) for x in args])
    refs = ref if isinstance(ref, tuple) else (ref,)
    gots = got if isinstance(got, tuple) else (got,)
    for r, g in zip(refs, gots):
        assert _is_scalar_result(g) == isinstance(r, np.generic), (name, type(r), repr(g))
        assert repr(g) == repr(r)
        if isinstance(r, np.generic):
            assert type(g) is type(r)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "max", "min",
                                  "argmax", "argmin", "median", "average", "nanmean",
                                  "nanvar", "nanmax", "nansum", "ptp", "all", "any",
                                  "count_nonzero", "sinc", "nan_to_num", "round", "fix"])
def test_reduction_and_ufunc_like_scalar_results(name):
    a = np.array([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
    ref = getattr(np, name)(a if name not in ("sinc", "nan_to_num", "round", "fix")
                            else a[0, 0])
    got = getattr(xnp, name)(xnp.asarray(a) if name not in ("sinc", "nan_to_num", "round",
                                                          "fix") else xnp.asarray(a[0, 0]))
    assert _is_scalar_result(got) == isinstance(ref, np.generic)
    assert repr(got) == repr(ref)


def test_interp_scalar_point_gives_scalar():
    ref = np.interp(2.5, [1.0, 2.0, 3.0], [3.0, 2.0, 0.0])
    got = xnp.interp(2.5, xnp.asarray([1.0, 2.0, 3.0]), xnp.asarray([3.0, 2.0, 0.0]))
    assert repr(got) == repr(ref)


def test_iteration_and_scalar_arithmetic_print_as_numpy():
    x2 = [(n ** 40) % 10000 for n in xnp.arange(4)]
    ref = [(n ** 40) % 10000 for n in np.arange(4)]
    assert repr(x2) == repr(ref)


def test_scalar_results_work_with_python_protocols():
    import json
    import statistics
    from fractions import Fraction
    m = xnp.mean(xnp.arange(5.0))
    assert isinstance(m, float) and json.dumps({"m": m}) == '{"m": 2.0}'
    assert Fraction(m) == 2 and statistics.mean([m, m]) == 2.0
    assert m.is_integer() and m.as_integer_ratio() == (2, 1)
