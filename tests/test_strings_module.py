"""xnp.strings and xnp.char against numpy.strings and numpy.char.

Every wrapped function is driven from the one table ``CASES`` of (name, args, kwargs):
each case runs in every module that has the name, once with NumPy's inputs and once with
the NumPy arrays among them turned into xnp arrays, and the results must agree exactly
(type, dtype, shape, values; the same exception type when NumPy raises). A new function
needs one entry in ``CASES``; ``test_table_covers_every_wrapper`` fails until it has one.
"""

import inspect

import numpy as np
import pytest

import xnp
import xnp.char
import xnp.strings

U1 = np.array(["", "abc", "Héllo wörld", "  pad\t", "ÅßÇ", "Title Case", "123", "½", "a-b-a"])
U2 = np.array([["ab", ""], [" x y ", "ΣΑΣ"]])
U0 = np.array("  mixed Case ")
S1 = np.array([b"", b"abc", b" x\tY", b"12"])
U_TAB = np.array(["a\tb", "\t", "no tab", ""])
U_FMT = np.array(["%d items", "[%5d]", "%x"])
U_NUM = np.array(["-42", "7", "", "+3.5", "abc"])
S_TABLE = bytes(range(256)).replace(b"a", b"A")
U_TABLE = str.maketrans({"a": "A", "é": None, "b": "xy"})

# (name, args, kwargs): all of numpy.strings and numpy.char, with representative inputs
CASES = [
    *[(n, a, {}) for n in ("equal", "not_equal", "less", "less_equal", "greater",
                           "greater_equal")
      for a in [(U1, U1[::-1]), (U2, "ab"), (np.array(["a ", "b"]), np.array(["a", "b "])),
                (S1, b"abc"), (U0, U0)]],
    *[("add", a, {}) for a in [(U1, U1[::-1]), (U2, "!"), ("x", U0), (S1, b"-")]],
    *[("multiply", a, {}) for a in [(U1, 2), (U2, np.array([0, 3])), (U0, 0), (S1, 3),
                                    ("ab", np.arange(3)), (U1, -1)]],
    ("mod", (U_FMT, 42), {}), ("mod", (U_FMT, np.array([1, 2, 255])), {}),
    ("mod", (np.array("%s|%s"), ("a", "b")), {}), ("mod", (np.array([b"%d"]), 5), {}),
    *[(n, (a,), {}) for n in ("isalpha", "isdigit", "isspace", "isalnum", "islower",
                              "isupper", "istitle", "str_len", "upper", "lower",
                              "swapcase", "capitalize", "title")
      for a in (U1, U2, U0, S1)],
    *[(n, (a,), {}) for n in ("isdecimal", "isnumeric") for a in (U1, U2, U0, U_NUM)],
    *[(n, a, k) for n in ("find", "rfind", "count")
      for a, k in [((U1, "a"), {}), ((U1, ""), {}), ((U2, "x", 1, 4), {}),
                   ((S1, b"b"), {}), ((U0, "e"), {"start": 3, "end": np.array(9)}),
                   ((U1, np.array(["a", "l"] * 4 + ["b"])), {})]],
    *[(n, a, {}) for n in ("index", "rindex")
      for a in [(np.array(["abcab", "xaax"]), "a"), (U0, "Case"), (U1, "a"),
                (np.array(["abab"]), "b", 0, 3)]],
    *[(n, a, k) for n in ("startswith", "endswith")
      for a, k in [((U1, "a"), {}), ((U1, ""), {}), ((U2, " x", 0, 3), {}),
                   ((S1, b"ab"), {}), ((U0, "Case "), {"end": -1})]],
    *[(n, a, {}) for n in ("lstrip", "rstrip", "strip")
      for a in [(U1,), (U1, "a\t "), (U2, None), (U0,), (S1, b" \t"), (S1,)]],
    ("replace", (U1, "a", "AA"), {}), ("replace", (U1, "", "-"), {}),
    ("replace", (U2, "x", "", 1), {}), ("replace", (S1, b"b", b"BB"), {}),
    ("replace", (U0, " ", "_"), {"count": np.array(2)}),
    ("expandtabs", (U_TAB,), {}), ("expandtabs", (U_TAB, 3), {}),
    ("expandtabs", (U_TAB, np.array([0, 1, 2, 4])), {}), ("expandtabs", (U0, 2), {}),
    *[(n, a, {}) for n in ("center", "ljust", "rjust")
      for a in [(U1, 12), (U1, 4, "*"), (U2, np.array([3, 7]), "é"), (U0, 20), (S1, 6, b"-")]],
    *[("zfill", a, {}) for a in [(U_NUM, 6), (U2, np.array([1, 5])), (U0, 3), (S1, 4)]],
    *[(n, a, {}) for n in ("partition", "rpartition")
      for a in [(U1, "a"), (U2, " "), (U0, "x"), (S1, b"b"), (U1, "-")]],
    ("slice", (U1, 2), {}), ("slice", (U1, 1, 4), {}), ("slice", (U1, None, None, -1), {}),
    ("slice", (U2, np.array([0, 1]), 3, 2), {}), ("slice", (U0, -3, None), {}),
    ("slice", (S1, 1, None), {}),
    ("translate", (U1, U_TABLE), {}), ("translate", (U0, U_TABLE), {}),
    ("translate", (S1, S_TABLE), {}), ("translate", (S1, S_TABLE, b"b "), {}),
    ("decode", (S1,), {}), ("decode", (S1, "ascii"), {}),
    ("decode", (np.array([b"caf\xc3\xa9", b"\xff"]), "utf-8", "replace"), {}),
    ("encode", (U1,), {}), ("encode", (U2, "utf-16"), {}),
    ("encode", (np.array(["abc", "é"]), "ascii", "ignore"), {}),
    ("join", ("-", U1), {}), ("join", (np.array(["", ".", "é"]), np.array(["ab", "xy", "z"])),
                                       {}),
    ("join", (b":", S1), {}),
    *[("compare_chararrays", (a, b, op, rs), {})
      for a, b in [(U1, U1[::-1]), (np.array(["a ", "b"]), np.array(["a", "b  "]))]
      for op in ("==", "!=", "<", "<=", ">", ">=") for rs in (True, False)],
    ("array", (["a ", "bc", ""],), {}), ("array", (U2,), {"itemsize": 3}),
    ("array", ([b"x", b"yz"],), {"unicode": True}), ("array", (U0,), {}),
    ("asarray", (U1,), {}), ("asarray", ([b"ab", b"c"],), {"itemsize": 5}),
]
NOT_TABLED = {"chararray", "split", "rsplit", "splitlines"}   # tested on their own below

MODULES = [(xnp.strings, np.strings), (xnp.char, np.char)]
PARAMS = [pytest.param(xm, nm, name, args, kwargs,
                       id=f"{xm.__name__.split('.')[1]}.{name}-{i}")
          for i, (name, args, kwargs) in enumerate(CASES)
          for xm, nm in MODULES if name in xm.__all__]


def to_xnp(x):
    return xnp.asarray(x) if isinstance(x, np.ndarray) else x


def assert_same(got, want):
    """``got`` (from xnp) matches ``want`` (from NumPy) exactly."""
    if isinstance(want, tuple):
        assert type(got) is tuple and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
        return
    if isinstance(want, np.ndarray):
        want = want.view(np.ndarray)
        assert type(got) is xnp.ndarray, type(got)
        value = got._value
        assert type(value) is np.ndarray
        assert value.dtype == want.dtype and value.shape == want.shape
        assert value.tolist() == want.tolist()
        return
    assert type(got) is type(want), (type(got), type(want))
    assert got == want


@pytest.mark.parametrize("xmod, nmod, name, args, kwargs", PARAMS)
def test_matches_numpy(xmod, nmod, name, args, kwargs):
    xfn, nfn = getattr(xmod, name), getattr(nmod, name)
    try:
        want = nfn(*args, **kwargs)
    except Exception as e:
        with pytest.raises(type(e)):
            xfn(*map(to_xnp, args), **{k: to_xnp(v) for k, v in kwargs.items()})
        return
    assert_same(xfn(*args, **kwargs), want)            # NumPy inputs
    assert_same(xfn(*map(to_xnp, args), **{k: to_xnp(v) for k, v in kwargs.items()}), want)


def test_table_covers_every_wrapper():
    names = {name for name, _, _ in CASES}
    for xmod, _ in MODULES:
        missing = set(xmod.__all__) - names - NOT_TABLED
        assert not missing, f"{xmod.__name__}: no CASES entry for {sorted(missing)}"


@pytest.mark.parametrize("xmod, nmod", MODULES, ids=["strings", "char"])
def test_coverage_and_metadata(xmod, nmod):
    assert set(nmod.__all__) <= set(xmod.__all__)
    for name in set(nmod.__all__) - {"chararray"}:
        fn = getattr(xmod, name)
        assert fn.__name__ == fn.__qualname__ == name
        assert fn.__module__ == xmod.__name__
        assert "eagerly" in fn.__doc__ and f"{nmod.__name__}.{name}" in fn.__doc__
        try:
            want = inspect.signature(getattr(nmod, name))
        except (TypeError, ValueError):
            continue
        assert inspect.signature(fn) == want


TRACED = [pytest.param(xm, name, id=f"{xm.__name__.split('.')[1]}.{name}")
          for xm, _ in MODULES for name in xm.__all__ if name != "chararray"]


@pytest.mark.parametrize("xmod, name", TRACED)
def test_traced_argument_raises(xmod, name):
    fn = getattr(xmod, name)
    qual = f"{xmod.__name__}.{name}"
    with pytest.raises(TypeError, match=qual.replace(".", r"\.")):
        xnp.vmap(lambda i: fn(i, "a"))(xnp.arange(3))
    with pytest.raises(TypeError, match=qual.replace(".", r"\.")):
        xnp.jit(lambda i: fn(xnp.asarray(["a"]), [i, i]))(xnp.arange(3))


def test_traced_multiply_example():
    with pytest.raises(TypeError, match=r"xnp\.strings\.multiply: .*concrete values only"):
        xnp.vmap(lambda i: xnp.strings.multiply(xnp.asarray(["a"]), i))(xnp.arange(3))


def test_zero_d_results_follow_numpy():
    """NumPy's ufuncs give scalars; its Python-level functions give 0-d arrays."""
    assert type(xnp.strings.str_len("abc")) is np.int64
    assert type(xnp.strings.isalpha(xnp.asarray("ab"))) is np.bool_
    up = xnp.strings.upper(xnp.asarray("ab"))
    assert type(up) is xnp.ndarray and up.shape == () and up[()] == "AB"
    eq = xnp.char.equal(b"a", b"a ")
    assert type(eq) is xnp.ndarray and eq.shape == () and bool(eq)
    p = xnp.strings.partition(xnp.asarray("a-b"), "-")
    assert [x.shape for x in p] == [()] * 3 and [x[()] for x in p] == ["a", "-", "b"]


def test_lists_holding_xnp_arrays():
    got = xnp.strings.add([xnp.asarray(["a", "c"]), ["b", "d"]], xnp.asarray(["x", "y"]))
    assert_same(got, np.strings.add([["a", "c"], ["b", "d"]], ["x", "y"]))


def test_ufunc_out_and_where():
    a = xnp.asarray(U2)
    out = xnp.zeros((3, 2), dtype=int)
    res = xnp.strings.str_len(a, out=out[1:])          # a view: writes back to its base
    assert res is out[1:] or type(res) is xnp.ndarray
    assert out.tolist() == [[0, 0]] + np.strings.str_len(U2).tolist()
    mask = np.array([True, False])
    out2 = xnp.ones(2, dtype=bool)
    xnp.strings.equal(xnp.asarray(["a", "b"]), "a", out=out2, where=mask)
    assert out2.tolist() == [True, True]
    with pytest.raises(TypeError, match="out must be an xnp array"):
        xnp.strings.str_len(a, out=np.zeros((2, 2), int))


@pytest.mark.parametrize("name", ["split", "rsplit", "splitlines"])
def test_object_results_are_object_arrays(name):
    words = ["a b\nc", "d"]
    got = getattr(xnp.char, name)(xnp.asarray(words))
    expected = getattr(np.char, name)(np.asarray(words))
    assert type(got) is xnp.ndarray and got.dtype == object
    assert got.tolist() == expected.tolist()


def test_chararray_refused():
    with pytest.raises(TypeError, match="chararray"):
        xnp.char.chararray((2,), itemsize=3)
    assert not isinstance(xnp.asarray(["a"]), xnp.char.chararray)
    arr = xnp.char.array(["a ", "b"])
    assert type(arr) is xnp.ndarray and arr.dtype == np.dtype("<U2")
