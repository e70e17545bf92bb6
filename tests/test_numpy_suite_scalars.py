"""Scalar types and dtypes against NumPy: what NumPy's test_numerictypes, test_dtype,
test_getlimits and test_scalar_ctors exercise (``isdtype``/``issubdtype`` arguments, DType
classes as ``dtype=``, promotion and casting errors, scalar constructors of unusual
arguments, ``finfo``/``iinfo`` as classes). Every expectation is NumPy's own result."""

import types

import numpy as np
import pytest

import xnp


def _outcome(fn, mod):
    """What ``fn(mod)`` gives: its value's repr and type name (``ndarray`` for both
    libraries' arrays), or the exception's type and text."""
    try:
        r = fn(mod)
    except Exception as e:  # noqa: BLE001  (the exception is the thing compared)
        return "raises", type(e), str(e)
    return "returns", repr(r), type(r).__name__


def _same_as_numpy(fn):
    assert _outcome(fn, xnp) == _outcome(fn, np)


# --- isdtype -----------------------------------------------------------------------------
KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]
TYPE_NAMES = ["bool_", "int8", "uint16", "int64", "intp", "longlong", "float16", "float32",
              "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", TYPE_NAMES)
@pytest.mark.parametrize("kind", KINDS + [("bool", "real floating"), ("numeric",)])
def test_isdtype_kind_names(name, kind):
    _same_as_numpy(lambda m: m.isdtype(getattr(m, name), kind))
    _same_as_numpy(lambda m: m.isdtype(m.dtype(getattr(m, name)), kind))


@pytest.mark.parametrize("name", TYPE_NAMES)
@pytest.mark.parametrize("kind_name", ["float64", "int64", "longlong", "bool_"])
def test_isdtype_dtype_kinds(name, kind_name):
    _same_as_numpy(lambda m: m.isdtype(getattr(m, name), getattr(m, kind_name)))
    _same_as_numpy(lambda m: m.isdtype(getattr(m, name),
                                       (m.dtype(getattr(m, kind_name)), "bool")))


@pytest.mark.parametrize("args", [
    ("int64", "numeric"),                    # a string is not a dtype
    (1.5, "numeric"),
    (np.float64, 1),                         # nor an int a kind
    (np.float64, (np.float64, None)),
    (np.float64, "int64"),                   # unknown kind name
    (np.float64, ("numeric", "float")),
    (np.float64, np.floating),               # abstract types are no dtypes
    (np.str_, "numeric"),
])
def test_isdtype_argument_errors(args):
    _same_as_numpy(lambda m: m.isdtype(*args))


def test_isdtype_rejects_arrays():
    # The array itself, NumPy's or xnp's, is not a dtype (NumPy's message and type).
    _same_as_numpy(lambda m: m.isdtype(np.ones(2), "numeric"))
    with pytest.raises(TypeError, match="dtype argument must be a NumPy dtype"):
        xnp.isdtype(xnp.ones(2), "numeric")


@pytest.mark.parametrize("kind", KINDS + [("bool", "real floating"), np.float32])
def test_isdtype_bfloat16_is_a_real_floating_type(kind):
    # bfloat16 answers as NumPy's float32 does, except that it is not float32 itself.
    expected = np.isdtype(np.float32, kind) and kind is not np.float32
    assert xnp.isdtype(xnp.bfloat16, kind) == expected
    assert xnp.isdtype(np.dtype(xnp.bfloat16), kind) == expected
    kinds = kind if isinstance(kind, tuple) else (kind,)
    assert xnp.isdtype(xnp.bfloat16, (*kinds, xnp.bfloat16))
    assert not xnp.isdtype(xnp.float32, xnp.bfloat16)
    assert xnp.isdtype(xnp.float32, (xnp.bfloat16, *kinds)) == np.isdtype(np.float32, kind)


def test_isdtype_bfloat16_argument_errors():
    for kind in ("int64", 1):
        expected = _outcome(lambda m: m.isdtype(m.float32, kind), np)
        assert _outcome(lambda m: m.isdtype(m.bfloat16, kind), xnp) == expected


# --- issubdtype --------------------------------------------------------------------------
@pytest.mark.parametrize("a1, a2", [
    ("f8", "f4"), ("f8", float), (np.int32, int), (np.float64, np.floating),
    (np.bool_, np.number), ("i4", np.signedinteger), (np.uint8, np.signedinteger),
    ("foo", np.floating), (np.float32, "foo"),
])
def test_issubdtype(a1, a2):
    _same_as_numpy(lambda m: m.issubdtype(a1, a2))


def test_issubdtype_rejects_arrays():
    _same_as_numpy(lambda m: m.issubdtype(np.ones(2), np.floating))
    expected = _outcome(lambda m: m.issubdtype(m.ones(2), m.floating), np)
    assert _outcome(lambda m: m.issubdtype(m.ones(2), m.floating), xnp) == expected
    assert _outcome(lambda m: m.issubdtype(m.floating, m.ones(2)), xnp) == expected


def test_issubdtype_bfloat16():
    for abstract in (np.floating, np.inexact, np.number, np.generic):
        assert xnp.issubdtype(xnp.bfloat16, abstract) == np.issubdtype(np.float32, abstract)
    for other in (np.integer, np.complexfloating, np.float32):
        assert xnp.issubdtype(xnp.bfloat16, other) == (np.issubdtype(np.float32, other)
                                                       and other is not np.float32)
    assert xnp.issubdtype(xnp.bfloat16, xnp.bfloat16)
    assert not xnp.issubdtype(np.float32, xnp.bfloat16)


# --- DType classes and dtype-like arguments ---------------------------------------------
DTYPE_CLASSES = [np.dtypes.Float32DType, np.dtypes.Int8DType, np.dtypes.UInt64DType,
                 np.dtypes.Complex64DType, np.dtypes.BoolDType, np.dtypes.Float16DType]


@pytest.mark.parametrize("cls", DTYPE_CLASSES)
def test_dtype_classes_as_dtype_arguments(cls):
    _same_as_numpy(lambda m: m.zeros(3, dtype=cls).dtype)
    _same_as_numpy(lambda m: m.full(2, 1, dtype=cls).dtype)
    _same_as_numpy(lambda m: m.array([1, 0, 2], dtype=cls))
    _same_as_numpy(lambda m: m.asarray(2.0, dtype=cls).dtype)
    _same_as_numpy(lambda m: m.ones((2, 2), cls).sum(dtype=cls))


@pytest.mark.parametrize("make", [
    lambda m: m.array(m.ones(3), dtype=np.dtype),
    lambda m: m.zeros(3, dtype=np.dtype),
    lambda m: m.full(3, 1.5, dtype=np.dtype),
    lambda m: m.zeros(3, dtype="foo"),
    lambda m: m.zeros(3, dtype=3.5),
    lambda m: m.arange(3, dtype=object()),
])
def test_bad_dtype_arguments(make):
    _same_as_numpy(make)


# --- promotion and casting errors ---------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda m: m.promote_types("i4", None),
    lambda m: m.promote_types(None, "f8"),
    lambda m: m.promote_types("i4", 3.5),
    lambda m: m.promote_types("i4", "foo"),
    lambda m: m.promote_types("i4", np.dtypes.Float32DType),
    lambda m: m.result_type("foo"),
    lambda m: m.result_type(object()),
    lambda m: m.result_type(None, m.float32),
    lambda m: m.result_type(np.float64(1), m.float32),
    lambda m: m.can_cast(None, "i2"),
    lambda m: m.can_cast("i2", None),
    lambda m: m.can_cast(1, m.int8),
    lambda m: m.can_cast(2.5, m.float32),
    lambda m: m.can_cast("f8", "f4", "bogus"),
    lambda m: m.can_cast(m.float64(1), m.float32),
    lambda m: m.can_cast("i4", "U11"),
    lambda m: m.can_cast("f8", "foo"),
])
def test_promotion_and_casting_arguments(call):
    _same_as_numpy(call)


# --- scalar constructors ------------------------------------------------------------------
SCALAR_NAMES = ["bool_", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32",
                "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", SCALAR_NAMES)
@pytest.mark.parametrize("make", [
    lambda t: t(None),
    lambda t: t({}),
    lambda t: t(object()),
    lambda t: t(x=1),
    lambda t: t(1, x=2),
    lambda t: t(memoryview(b"\x01")),
    lambda t: t(range(3)),
])
def test_scalar_constructor_arguments(name, make):
    _same_as_numpy(lambda m: make(getattr(m, name)))


@pytest.mark.parametrize("name", ["int8", "float32", "complex128", "bool_"])
def test_scalar_constructor_still_casts_arrays(name):
    t, nt = getattr(xnp, name), getattr(np, name)
    got = t(xnp.arange(3.0))
    assert isinstance(got, xnp.ndarray)
    np.testing.assert_array_equal(np.asarray(got), nt(np.arange(3.0)))
    assert np.asarray(got).dtype == np.dtype(nt)
    assert _outcome(lambda m: m(xnp.array(2.0)), t) == _outcome(lambda m: m(np.array(2.0)),
                                                               nt)


# --- finfo and iinfo ----------------------------------------------------------------------
def test_finfo_iinfo_are_classes_as_in_numpy():
    for name, arg in (("finfo", np.float64), ("iinfo", np.int_)):
        alias = getattr(xnp, name)[arg]
        assert isinstance(alias, types.GenericAlias)
        assert alias.__args__ == getattr(np, name)[arg].__args__
    assert isinstance(xnp.finfo(xnp.float32), np.finfo)
    assert isinstance(np.finfo(np.float32), xnp.finfo)
    assert isinstance(xnp.iinfo(xnp.int16), xnp.iinfo)
    assert isinstance(np.iinfo(np.int16), xnp.iinfo)
    assert not isinstance(np.iinfo(np.int16), xnp.finfo)
    assert issubclass(np.finfo, xnp.finfo) and not issubclass(np.iinfo, xnp.finfo)
    assert isinstance(xnp.finfo(xnp.bfloat16), xnp.finfo)


@pytest.mark.parametrize("call", [
    lambda m: m.finfo(m.float32).eps, lambda m: m.finfo(1.0).dtype,
    lambda m: m.finfo("f2").max, lambda m: m.finfo(m.complex64).dtype,
    lambda m: m.finfo(m.int32), lambda m: m.finfo(None),
    lambda m: m.iinfo(m.int8).min, lambda m: m.iinfo("u4").max, lambda m: m.iinfo(5).dtype,
    lambda m: m.iinfo(m.float64), lambda m: m.iinfo(m.bool_), lambda m: repr(m.iinfo("i2")),
    lambda m: m.finfo(m.float64(1.0)).bits, lambda m: m.iinfo(m.uint16(3)).max,
])
def test_finfo_iinfo_values(call):
    _same_as_numpy(call)
