"""String arrays ('U'/'S') against NumPy: the cases NumPy's test_strings, test_unicode and
test_defchararray exercise, run with ``numpy`` and with ``xnp`` on the same inputs.

Each case is a function of the module (``numpy`` or ``xnp``); the two results must agree
in kind (array, scalar, tuple), dtype, shape, values and printed form, or both calls must
raise the same exception type with the same message.
"""

import numpy
import pytest

import xnp
import xnp.char
import xnp.strings


def _outcome(fn, mod):
    """What ``fn(mod)`` gives, in a form comparable across the two modules."""
    try:
        r = fn(mod)
    except Exception as e:       # noqa: BLE001 - the exception is what is compared
        return ("raises", type(e).__name__, str(e))
    return _describe(r)


def _describe(r):
    if isinstance(r, (xnp.ndarray, numpy.ndarray)):
        v = numpy.asarray(r)
        return ("array", v.dtype.str, v.shape, v.tolist(), repr(r), str(r))
    if isinstance(r, (tuple, list)):
        return (type(r).__name__, [_describe(x) for x in r])
    return ("value", type(r).__name__, repr(r))


def _same(fn):
    want = _outcome(fn, numpy)
    got = _outcome(fn, xnp)
    assert got == want


def _set(a, key, v):
    a[key] = v
    return a


U = ["ab", "", "Héllo wörld", "  x\t", "ΣΑΣ", "123"]
S = [b"ab", b"", b" x\t", b"12"]

CASES = {
    # creation and width discovery
    "list_U": lambda np: np.array(U),
    "list_S": lambda np: np.array(S),
    "list_sized_U3": lambda np: np.array(U, dtype="U3"),
    "list_sized_S1": lambda np: np.array(S, dtype="S1"),
    "bytes_as_U": lambda np: np.array(S, dtype="U"),
    "str_as_S": lambda np: np.array(["ab", "c"], dtype="S"),
    "non_ascii_as_S": lambda np: np.array(["é"], dtype="S"),
    "zero_d": lambda np: np.array("abc"),
    "empty_string": lambda np: np.array(""),
    "numpy_scalar": lambda np: np.array(numpy.str_("abc")),
    "bytes_scalar": lambda np: np.array(numpy.bytes_(b"abc")),
    "tuple": lambda np: np.array(("a", "bcd")),
    "mixed_str_int": lambda np: np.array(["a", 1]),
    "mixed_float_str": lambda np: np.array([1.5, "a"]),
    "mixed_bool_str": lambda np: np.array([True, "a"]),
    "mixed_bytes_str": lambda np: np.array([b"a", "bc"]),
    "zeros_U": lambda np: np.zeros(3, "U2"),
    "zeros_S": lambda np: np.zeros((2, 2), "S3"),
    "ones_U": lambda np: np.ones(2, "U2"),
    "full_U": lambda np: np.full(3, "abc", dtype="U2"),
    "full_like": lambda np: np.full_like(np.array(["abc"]), "qwerty"),
    "zeros_like": lambda np: np.zeros_like(np.array(["abc"])),
    "long_item": lambda np: np.array(["a" * 1009]),
    # casts
    "int_to_U": lambda np: np.arange(3).astype("U"),
    "int_to_S": lambda np: np.arange(3).astype("S"),
    "float_to_U": lambda np: np.array([1.5, 2.25]).astype("U"),
    "bool_to_U": lambda np: np.array([True, False]).astype("U"),
    "nan_to_S": lambda np: np.array([numpy.nan, numpy.inf]).astype("S"),
    "U_to_float": lambda np: np.array(["1.5", "2"]).astype(float),
    "U_to_int": lambda np: np.array(["1", "-2"]).astype(int),
    "U_to_complex": lambda np: np.array(["1+2j"]).astype(complex),
    "U_to_bool": lambda np: np.array(["False", "", "0"]).astype(bool),
    "U_to_S": lambda np: np.array(["1", "22"]).astype("S"),
    "S_to_U": lambda np: np.array([b"1", b"22"]).astype("U"),
    "U_to_narrower": lambda np: np.array(["abcdef"]).astype("U2"),
    "bad_float": lambda np: np.array(["abc"]).astype(float),
    "bad_int": lambda np: np.array(["1.5"]).astype(int),
    "non_ascii_to_S": lambda np: np.array(["é"]).astype("S"),
    # indexing and assignment (truncated to the dtype's width)
    "index": lambda np: np.array(U)[2],
    "index_S": lambda np: np.array(S)[0],
    "index_2d": lambda np: np.array([U[:3], U[3:]])[1, ::-1],
    "iterate": lambda np: [type(x).__name__ for x in np.array(U)],
    "tolist": lambda np: np.array(U).tolist(),
    "item": lambda np: np.array(U).item(2),
    "assign_truncates": lambda np: _set(np.array(["ab", "c"]), 0, "xyzw"),
    "assign_S_truncates": lambda np: _set(np.array([b"ab", b"c"]), 1, b"xyzw"),
    "assign_int": lambda np: _set(np.array(["ab", "c"]), 0, 12345),
    "assign_float": lambda np: _set(np.array(["abcd", "c"]), 0, 1.5),
    "assign_bytes_to_U": lambda np: _set(np.array(["ab", "c"]), 0, b"qq"),
    "assign_non_ascii_to_S": lambda np: _set(np.array([b"ab"]), 0, "é"),
    "assign_slice": lambda np: _set(np.array(["ab", "c", "d"]), slice(1, None), ["xyz", "q"]),
    "assign_mask": lambda np: _set(np.array(["ab", "c"]), np.array([True, False]), "xyzw"),
    "assign_fancy": lambda np: _set(np.array(["ab", "c"]), [1, 0], ["xyzw", "q"]),
    "fill": lambda np: (lambda a: (a.fill("zzzz"), a)[1])(np.array(["ab", "c"])),
    "copyto": lambda np: (lambda a: (np.copyto(a, "xyzw"), a)[1])(np.array(["ab", "c"])),
    "put": lambda np: (lambda a: (np.put(a, [0], ["xyzw"]), a)[1])(np.array(["ab", "c"])),
    "view_write": lambda np: (lambda a: (_set(a[1:], 0, "zz"), a)[1])(np.array(["ab", "c"])),
    "inplace_add": lambda np: (lambda a: (a.__iadd__("zz"), a)[1])(np.array(["ab", "c"])),
    "inplace_mul": lambda np: (lambda a: (a.__imul__(20), a)[1])(np.array("a", dtype="U1")),
    # operators and comparisons
    "add": lambda np: np.array(U) + "!",
    "radd": lambda np: "x" + np.array(U),
    "add_S": lambda np: np.array(S) + b"-",
    "add_U_S": lambda np: np.array(U) + np.array(S[:1]),
    "add_int": lambda np: np.array(["a"]) + 1,
    "mul": lambda np: np.array(U) * 3,
    "rmul": lambda np: np.array([0, 1, 2])[:, None] * np.array(["ab", "c"]),
    "mul_negative": lambda np: np.array(["ab"]) * -1,
    "mul_str": lambda np: np.array(["ab"]) * "qrs",
    "mod": lambda np: np.array(["%d", "%x", "%s"]) % 42,
    "mod_array": lambda np: np.array([["%d", "%f"], ["%s", "%r"]]) % np.array([[3, 7],
                                                                                [19, 1]]),
    "rmod": lambda np: 3 % np.array(["%d"]),
    "neg": lambda np: -np.array(["a"]),
    "eq": lambda np: np.array(U) == "ab",
    "eq_S": lambda np: np.array(S) == b"ab",
    "eq_U_S": lambda np: np.array(["ab"]) == np.array([b"ab"]),
    "eq_int": lambda np: np.array(["ab", "c"]) == 1,
    "lt": lambda np: np.array(U) < np.array(U[::-1]),
    "ge_broadcast": lambda np: np.array([U[:3], U[3:]]) >= np.array(["b"]),
    "lt_int": lambda np: np.array(["ab"]) < 1,
    "trailing_spaces": lambda np: np.array(["a "]) == np.array(["a"]),
    "zero_d_eq": lambda np: np.array("abc") == np.array("abc"),
    "maximum": lambda np: np.maximum(np.array(["b", "a", "c"]), "b"),
    "bool_of_one": lambda np: bool(np.array(["a"])),
    "bool_of_empty_string": lambda np: bool(np.array([""])),
    "bool_of_two": lambda np: bool(np.array(["", "a"])),
    "contains": lambda np: "a" in np.array(["a", "b"]),
    # functions on string arrays
    "sort": lambda np: np.sort(np.array(U)),
    "argsort": lambda np: np.argsort(np.array(U)),
    "unique": lambda np: np.unique(np.array(["b", "a", "b"])),
    "where": lambda np: np.where([True, False], np.array(["a", "b"]), np.array(["ccc", "d"])),
    "concatenate": lambda np: np.concatenate([np.array(["a"]), np.array(["bbb"])]),
    "concatenate_U_S": lambda np: np.concatenate([np.array(["a"]), np.array([b"bbb"])]),
    "stack": lambda np: np.stack([np.array(["a"]), np.array(["bbb"])]),
    "max": lambda np: np.max(np.array(U)),
    "nonzero": lambda np: np.nonzero(np.array(["b", "", "c"])),
    "count_nonzero": lambda np: np.count_nonzero(np.array(["b", "", "c"])),
    "isin": lambda np: np.isin(np.array(["b", "", "c"]), ["b"]),
    "searchsorted": lambda np: np.searchsorted(np.array(["a", "c"]), "b"),
    "tile": lambda np: np.tile(np.array(["ab"]), 3),
    "repeat": lambda np: np.repeat(np.array(["ab", "c"]), 2),
    "pad": lambda np: np.pad(np.array(["ab"]), 1, constant_values="zzz"),
    "insert": lambda np: np.insert(np.array(["ab", "c"]), 1, "xyzw"),
    "append": lambda np: np.append(np.array(["ab", "c"]), "xyzw"),
    "result_type": lambda np: np.result_type(np.array(["ab"]), np.array([b"abc"])),
    "promote_types": lambda np: np.promote_types("U3", "S5"),
    "promote_int": lambda np: np.promote_types("U3", "i8"),
    # printing
    "repr_2d": lambda np: repr(np.array([["ab", "c"], ["d", "eeeee"]])),
    "repr_S": lambda np: repr(np.array([b"\x00a\xff", b"q"])),
    "repr_escapes": lambda np: repr(np.array(["a\nb", "it's", 'q"'])),
    "str_0d": lambda np: str(np.array("abc")),
    "format_0d": lambda np: format(np.array("abc"), ">5"),
    "fstring": lambda np: f"{np.array(U)!r} {np.array(S)}",
    "summarised": lambda np: repr(np.array(["x" * 10] * 1001)),
    "line_width": lambda np: np.array2string(np.array(["abc", "de"] * 30), max_line_width=40),
}


@pytest.mark.parametrize("name", CASES)
def test_string_arrays_match_numpy(name):
    _same(CASES[name])


# --- np.strings / np.char: outputs, dispatch, broadcasting -------------------------------

UFUNC_OUT = [
    ("str_len", (["ab", "c", ""],), "i8"),
    ("isalpha", (["ab", "c1", ""],), "?"),
    ("add", (["ab", "c", ""], "xy"), "U3"),
    ("equal", (["ab", "c", ""], ["ab", "d", ""]), "?"),
]


@pytest.mark.parametrize("name, args, dt", UFUNC_OUT, ids=[c[0] for c in UFUNC_OUT])
def test_positional_out(name, args, dt):
    """An out array given positionally is filled and returned, as NumPy's ufuncs do."""
    def call(np):
        out = np.zeros(3, dt)
        ins = [np.array(a) if isinstance(a, list) else a for a in args]
        r = getattr(np.strings, name)(*ins, out)
        return [r is out, out]
    _same(call)


@pytest.mark.parametrize("name, args, dt", UFUNC_OUT, ids=[c[0] for c in UFUNC_OUT])
def test_keyword_out_forms(name, args, dt):
    """out= as an array, a 1-tuple, (None,) and a view into a larger array."""
    def call(np):
        ins = [np.array(a) if isinstance(a, list) else a for a in args]
        fn = getattr(np.strings, name)
        out, base = np.zeros(3, dt), np.zeros((2, 3), dt)
        r1 = fn(*ins, out=out)
        r2 = fn(*ins, out=(out,))
        r3 = fn(*ins, out=(None,))
        r4 = fn(*ins, base[1])
        return [r1 is out, r2 is out, r3, base, r4]
    _same(call)


@pytest.mark.parametrize("call", [
    lambda np: np.strings.str_len(np.array(["a"]), np.zeros(1, int), np.zeros(1, int)),
    lambda np: np.strings.str_len(np.array(["a"]), np.zeros(1, int), out=np.zeros(1, int)),
    lambda np: np.strings.str_len(np.array(["a"]), out=5),
    lambda np: np.strings.str_len(np.array(["a"]), out=(np.zeros(1, int),) * 2),
    lambda np: np.strings.add(np.array(["ab"]), "c", out=np.zeros(1, "U2")),
    lambda np: np.strings.str_len(np.array(["ab", "c"]), out=np.zeros(3, int)),
], ids=["too_many", "both", "not_array", "two_outs", "narrow_out", "bad_shape"])
def test_out_errors(call):
    _same(call)


def test_positional_out_keeps_other_arrays():
    """The out array is written through xnp's assignment, never NumPy's in place: an xnp
    array sharing the out's old value keeps its values."""
    out = xnp.zeros(2, int)
    copy = xnp.asarray(out)            # the same handle: sees the write, as in NumPy
    independent = xnp.array(out)
    r = xnp.strings.str_len(xnp.array(["abc", "d"]), out)
    want = numpy.strings.str_len(numpy.array(["abc", "d"]))
    assert r is out
    assert copy.tolist() == out.tolist() == want.tolist()
    assert independent.tolist() == numpy.zeros(2, int).tolist()


def test_numpy_char_join_on_xnp_arrays():
    """numpy.char.join on (concrete) xnp arrays gives NumPy's result; xnp.char.join an
    xnp array."""
    for sep, seq in [("-", ["abc", "de"]), (["-", "+"], "abc"), (["", "é"], ["xy", "z"])]:
        want = numpy.char.join(numpy.asarray(sep), numpy.asarray(seq))
        got = numpy.char.join(xnp.asarray(sep), xnp.asarray(seq))
        assert type(got) is numpy.ndarray
        assert _describe(got)[1:4] == _describe(want)[1:4]
        mine = xnp.char.join(xnp.asarray(sep), xnp.asarray(seq))
        assert type(mine) is xnp.ndarray
        assert _describe(mine)[1:4] == _describe(want)[1:4]


BROADCAST = [
    ("center", lambda np: (np.array([["a"], ["bcd"]]), np.array([3, 6]), "*")),
    ("replace", lambda np: (np.array(["aaa", "aba"]), np.array([["a"], ["b"]]), "XY",
                            np.array([1, -1]))),
    ("find", lambda np: (np.array(["abcabc"]), np.array([["a"], ["c"]]), np.array([0, 2]))),
    ("slice", lambda np: (np.array(["hello", "world"]), np.array([[0], [1]]), None,
                          np.array([1, 2]))),
    ("zfill", lambda np: (np.array(["-1", "+22"]), np.array([[1], [5]]))),
    ("expandtabs", lambda np: (np.array(["a\tb"]), np.array([[0], [4]]))),
    ("mod", lambda np: (np.array([["%d"], ["%x"]]), np.array([10, 255]))),
    ("multiply", lambda np: (np.array([b"ab", b"c"]), np.array([[0], [3]]))),
    ("partition", lambda np: (np.array([["a-b"], ["c"]]), np.array(["-", "c"]))),
    ("startswith", lambda np: (np.array(["abc", "xbc"]), np.array([["a"], ["x"]]))),
]


@pytest.mark.parametrize("name, args", BROADCAST, ids=[c[0] for c in BROADCAST])
def test_broadcasting_and_widths(name, args):
    """Arguments broadcast against each other and the result widths are NumPy's."""
    _same(lambda np: getattr(np.strings, name)(*args(np)))


@pytest.mark.parametrize("call", [
    lambda np: np.strings.upper(np.array([1, 2])),
    lambda np: np.strings.str_len(np.array([1.5])),
    lambda np: np.strings.slice(np.array(["foo"]), np.array(["foo"])),
    lambda np: np.strings.center(np.array(["a"]), 4, "xx"),
    lambda np: np.strings.center(np.array([b"a"]), 4, "x"),
    lambda np: np.strings.multiply(np.array(["a"]), 1.5),
    lambda np: np.strings.multiply(np.array(["abc"]), 2 ** 62),
    lambda np: np.strings.index(np.array(["abc"]), "z"),
    lambda np: np.strings.add(np.array(["a"]), np.array([1])),
    lambda np: np.strings.decode(np.array([b"\xff"]), "ascii"),
    lambda np: np.strings.encode(np.array(["é"]), "ascii"),
    lambda np: np.char.compare_chararrays(np.array(["a"]), np.array(["b"]), "<<", True),
    lambda np: np.strings.find(np.array([b"a"]), "a"),
], ids=["upper_int", "str_len_float", "slice_str", "center_fill", "center_S_U",
        "multiply_float", "multiply_overflow", "index_missing", "add_int", "decode",
        "encode", "compare_op", "find_S_U"])
def test_errors_match_numpy(call):
    _same(call)
