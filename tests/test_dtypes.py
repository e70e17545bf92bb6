"""dtype promotion against NumPy 2 (NEP 50): every pair of dtypes and Python scalar kinds,
over every binary operator and every binary ufunc; plus result_type, promote_types,
can_cast, finfo, iinfo, isdtype and issubdtype."""

from __future__ import annotations

import itertools
import operator
import warnings

import ml_dtypes
import numpy as np
import pytest
import strategies as S

import xnp
from xnp._ufuncs import UFUNCS

PY_SCALARS = [True, 1, 1.0, 1j]
BINARY_UFUNCS = sorted(n for n, u in UFUNCS.items() if u.nin == 2)
OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv,
             operator.floordiv, operator.mod, operator.pow, operator.and_, operator.or_,
             operator.xor, operator.lshift, operator.rshift, operator.eq, operator.ne,
             operator.lt, operator.le, operator.gt, operator.ge]


def _outcome(fn, *args):
    """The result dtype(s), or the exception class an operation raises."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = fn(*args)
        except Exception as exc:   # noqa: BLE001 - the class is what we compare
            return _exc_class(exc)
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(np.asarray(o).dtype if not isinstance(o, xnp.ndarray) else o.dtype
                 for o in outs)


def _exc_class(exc):
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls
    return Exception


def _operand_pairs():
    for d1, d2 in itertools.product(S.ALL, S.ALL):
        yield np.ones(2, d1), np.ones(2, d2)
    for d, s in itertools.product(S.ALL, PY_SCALARS):
        yield np.ones(2, d), s
        yield s, np.ones(2, d)


def _as_xnp(x):
    return xnp.asarray(x) if isinstance(x, np.ndarray) else x


def _mismatches(np_fn, xnp_fn):
    bad = []
    for a, b in _operand_pairs():
        want = _outcome(np_fn, a, b)
        got = _outcome(xnp_fn, _as_xnp(a), _as_xnp(b))
        if want != got:
            bad.append((_name(a), _name(b), want, got))
    return bad


def _name(x):
    return x.dtype.name if isinstance(x, np.ndarray) else type(x).__name__


@pytest.mark.parametrize("name", BINARY_UFUNCS)
def test_binary_ufunc_promotion_matches_numpy(name):
    np_name = name if hasattr(np, name) else {
        "pow": "power", "atan2": "arctan2", "bitwise_left_shift": "left_shift",
        "bitwise_right_shift": "right_shift", "mod": "remainder",
        "true_divide": "divide"}[name]
    bad = _mismatches(getattr(np, np_name), UFUNCS[name])
    assert not bad, f"{name}: {len(bad)} mismatches, e.g. {bad[:5]}"


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: o.__name__)
def test_operator_promotion_matches_numpy(op):
    bad = _mismatches(op, op)
    assert not bad, f"{op.__name__}: {len(bad)} mismatches, e.g. {bad[:5]}"


@pytest.mark.parametrize("op", [operator.iadd, operator.isub, operator.imul,
                                operator.itruediv, operator.ifloordiv, operator.ipow],
                         ids=lambda o: o.__name__)
def test_inplace_operator_casting_matches_numpy(op):
    bad = []
    for a, b in _operand_pairs():
        if not isinstance(a, np.ndarray):
            continue
        want = _outcome(lambda x, y: op(x.copy(), y), a, b)
        got = _outcome(lambda x, y: op(xnp.array(x), y), a, _as_xnp(b))
        if want != got:
            bad.append((_name(a), _name(b), want, got))
    assert not bad, f"{op.__name__}: {len(bad)} mismatches, e.g. {bad[:5]}"


def test_result_type_matches_numpy():
    for d1, d2 in itertools.product(S.ALL, S.ALL):
        assert xnp.result_type(d1, d2) == np.result_type(d1, d2)
        assert xnp.promote_types(d1, d2) == np.promote_types(d1, d2)
        for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
            assert xnp.can_cast(d1, d2, casting) == np.can_cast(d1, d2, casting)
    for d, s in itertools.product(S.ALL, PY_SCALARS):
        want = _outcome(np.result_type, np.ones(1, d), s)
        assert _outcome(xnp.result_type, xnp.ones(1, d) if hasattr(xnp, "ones")
                        else xnp.asarray(np.ones(1, d)), s) == want
    assert xnp.result_type(1, 2.0) == np.result_type(1, 2.0)
    assert xnp.result_type(True, 1) == np.result_type(True, 1)
    with pytest.raises(TypeError):
        xnp.can_cast(1.0, np.float32)


def test_bfloat16_promotion_follows_numpy_with_ml_dtypes():
    bf = np.dtype(ml_dtypes.bfloat16)
    assert xnp.result_type(bf, 1.0) == (np.ones(1, bf) + 1.0).dtype == np.float32
    assert xnp.result_type(bf, 1) == bf
    assert xnp.result_type(bf, np.float16) == np.float32
    assert xnp.result_type(bf, np.float32) == np.float32
    assert xnp.result_type(bf, np.int8) == bf
    x = xnp.asarray(np.ones(3, bf))
    assert (x + 1.0).dtype == np.float32 and (x * 2).dtype == bf
    jaxpr = xnp.make_jaxpr(lambda a: (a + 1.0, a * 2))(x)
    assert [a.dtype for a in jaxpr.out_avals] == [np.float32, bf]


def test_finfo_iinfo_match_numpy():
    for d in S.FLOATS + S.COMPLEX:
        assert xnp.finfo(d).eps == np.finfo(d).eps
        assert xnp.finfo(d).max == np.finfo(d).max
    for d in S.INTEGER:
        assert (xnp.iinfo(d).min, xnp.iinfo(d).max) == (np.iinfo(d).min, np.iinfo(d).max)
    assert xnp.finfo(xnp.asarray(np.ones(2, np.float32))).bits == 32
    assert xnp.finfo(ml_dtypes.bfloat16).bits == 16
    with pytest.raises(ValueError):
        xnp.iinfo(np.float64)


def test_isdtype_and_issubdtype_match_numpy():
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric", ("bool", "integral")]
    for d in S.ALL:
        for k in kinds:
            assert xnp.isdtype(d, k) == np.isdtype(d, k), (d, k)
        for abstract in (np.integer, np.floating, np.inexact, np.number, np.signedinteger):
            assert xnp.issubdtype(d, abstract) == np.issubdtype(d, abstract)
    assert xnp.issubdtype(ml_dtypes.bfloat16, np.floating)
    with pytest.raises(ValueError):
        xnp.isdtype(np.float64, "floating point")


def test_scalar_types_stand_for_numpys():
    assert xnp.float32 == np.float32 and xnp.int64 == np.int64 and np.int64 == xnp.int64
    assert np.dtype(xnp.float32) == np.float32 and hash(xnp.int8) == hash(np.int8)
    assert xnp.asarray(np.ones(2)).dtype == xnp.float64
    assert xnp.asarray([1, 2]).dtype == np.int64
    assert xnp.asarray([1.0, 2]).dtype == np.float64
    assert xnp.asarray(True).dtype == np.bool_


def test_aliases_are_the_same_objects_as_in_numpy():
    # Every group of NumPy names bound to one object (np.conj is np.conjugate, ...) is one
    # object in xnp too, except the array API's own functions (concat, permute_dims).
    own = {"concat", "permute_dims"}
    groups: dict = {}
    for name in dir(np):
        if not name.startswith("_") and hasattr(xnp, name) and name not in own:
            groups.setdefault(id(getattr(np, name)), []).append(name)
    for names in groups.values():
        assert len({id(getattr(xnp, n)) for n in names}) == 1, names


def test_isrealobj_and_iscomplexobj_of_non_arrays():
    for x in (None, "a", [1, 2], [1j], 3j, xnp.ones(2), xnp.ones(2, complex)):
        assert xnp.isrealobj(x) == np.isrealobj(np.asarray(x) if isinstance(x, xnp.ndarray)
                                                else x), x
        assert xnp.iscomplexobj(x) == np.iscomplexobj(np.asarray(x) if isinstance(
            x, xnp.ndarray) else x), x


def test_where_result_dtypes_with_python_scalars_match_numpy():
    # the eager select caches its result dtype by the cases' dtypes and Python types
    cond = np.array([True, False, True])
    cases = [np.arange(3, dtype=np.int8), np.arange(3, dtype=np.uint16), np.arange(3.0),
             np.arange(3, dtype=np.float32), np.array([1j, 2, 3], np.complex64),
             np.array([True, False, True]), np.float32(1.5), 2, 0.5, 1j, True]
    for x in cases:
        for y in cases:
            want = np.where(cond, x, y)
            got = np.asarray(xnp.where(cond, x, y))
            assert got.dtype == want.dtype, (x, y)
            np.testing.assert_array_equal(got, want)
