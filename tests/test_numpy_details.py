"""Small NumPy behaviours real programs depend on, each checked against NumPy itself:
exception classes and messages, warnings, and namespaces forwarded from NumPy."""

import warnings

import numpy as np
import pytest

import xnp


def _error(mod, fn):
    with pytest.raises(Exception) as info:
        fn(mod)
    return info.value


@pytest.mark.parametrize("call", [
    lambda m: m.moveaxis(m.ones((2, 2)), 5, 0),
    lambda m: m.moveaxis(m.ones((2, 2)), 0, 5),
    lambda m: m.swapaxes(m.ones((2, 3)), 0, 2),
    lambda m: m.diagonal(m.ones((2, 2)), 0, 0, 3),
    lambda m: m.sum(m.ones((2, 2)), axis=3),
    lambda m: m.add(m.arange(3), 1.5, out=m.arange(3)),
    lambda m: m.add(m.arange(3), 1.5, dtype=m.int64),
    lambda m: m.arange(3) < "a",
    lambda m: m.ones(3, dtype=int) + "a",
], ids=["moveaxis-source", "moveaxis-destination", "swapaxes", "diagonal", "sum",
        "out-casting", "input-casting", "less-str", "add-str"])
def test_error_class_and_message_match_numpy(call):
    expected, actual = _error(np, call), _error(xnp, call)
    assert type(actual) is type(expected), (actual, expected)
    assert str(actual) == str(expected)


WARNING_CASES = [
    "m.nanmean(m.array([m.nan, m.nan]))",
    "m.nanvar(m.array([m.nan, m.nan]))",
    "m.nanstd(m.array([m.nan]))",
    "m.nanmean(m.ones((2, 0)), axis=1)",
    "m.nanmax(m.array([m.nan]))",
]


@pytest.mark.parametrize("expr", WARNING_CASES)
def test_nan_function_warnings_match_numpy(expr):
    def record(m):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eval(expr, {"m": m})
        return [(w.category, str(w.message)) for w in caught]
    assert record(xnp) == record(np)


def test_mean_of_empty_slice_message():
    with pytest.warns(RuntimeWarning, match="^Mean of empty slice$"):
        xnp.mean(xnp.asarray([]))


def test_string_arrays_compare_with_str():
    words = np.array(["fox", "dog", "fox"])
    x = xnp.asarray(words)
    for op in ("__eq__", "__ne__", "__lt__", "__ge__"):
        np.testing.assert_array_equal(np.asarray(getattr(x, op)("fox")),
                                      getattr(words, op)("fox"))
    np.testing.assert_array_equal(np.asarray(xnp.arange(3) == "a"), np.arange(3) == "a")
    np.testing.assert_array_equal(np.asarray(xnp.arange(3) != "a"), np.arange(3) != "a")
    assert (xnp.asarray([[1, 2], [3, 4]])[xnp.asarray(["a", "b"]) == "a"]).shape == (1, 2)


def test_string_zeros_are_empty_strings():
    for make in (lambda m: m.zeros(2, dtype="U3"), lambda m: m.zeros((2, 1), dtype="S2"),
                 lambda m: m.zeros_like(m.array(["ab"]))):
        np.testing.assert_array_equal(np.asarray(make(xnp)), make(np))


def test_forwarded_namespaces():
    assert xnp.typing is np.typing and xnp.get_include() == np.get_include()
    assert xnp.lib.mixins is np.lib.mixins and xnp.lib.array_utils is np.lib.array_utils
    with pytest.raises(AttributeError):
        _ = xnp.lib.no_such_module


def test_matrix_norm_orders_give_scalars():
    m = np.array([[1.0, -2.0], [3.0, 4.0]])
    for order in (1, -1, np.inf, -np.inf, 2, "fro", "nuc"):
        got, want = xnp.linalg.norm(xnp.asarray(m), ord=order), np.linalg.norm(m, ord=order)
        assert type(got) is type(want) and got == pytest.approx(want)


def test_clip_arguments_as_numpy():
    for call in (lambda m: m.clip(m.asarray(np.array([1, 2], np.uint8)), -1, 129),
                 lambda m: m.clip(m.arange(3, dtype=m.int8), -300, 1000),
                 lambda m: m.clip(m.arange(3), None, 1), lambda m: m.clip(m.arange(3), min=1)):
        expected, actual = call(np), call(xnp)
        assert actual.dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(actual), expected)
    for call in (lambda m: m.clip(m.arange(3), 2), lambda m: m.clip(m.arange(3), 1, 2, min=1)):
        expected, actual = _error(np, call), _error(xnp, call)
        assert type(actual) is type(expected) and str(actual) == str(expected)


def test_string_truth_as_numpy():
    words = np.array(["a", "", "c"])
    for fn in ("any", "all", "count_nonzero", "nonzero", "flatnonzero"):
        expected = getattr(np, fn)(words)
        actual = getattr(xnp, fn)(xnp.asarray(words))
        np.testing.assert_array_equal(np.asarray(actual, dtype=object) if isinstance(
            actual, tuple) else np.asarray(actual), np.asarray(expected, dtype=object)
            if isinstance(expected, tuple) else expected)
    np.testing.assert_array_equal(np.asarray(xnp.where(xnp.asarray(words), 1, 2)),
                                  np.where(words, 1, 2))


def test_promote_types_keeps_the_dtype():
    d = np.dtype("i4", metadata={"unit": "m"})
    assert xnp.promote_types(d, d) is np.promote_types(d, d)
    assert xnp.promote_types("S100", "q") == np.promote_types("S100", "q")
