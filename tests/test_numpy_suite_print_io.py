"""Printing and text/binary I/O of xnp against NumPy on the same inputs.

Regression tests for what running NumPy's own test_arrayprint.py, test_io.py and
test_loadtxt.py against ``import xnp as np`` found: each test computes the expected
text, values, dtypes or exception with NumPy itself.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import xnp

ARRAYS = [
    lambda m: m.arange(6.0).reshape(2, 3) / 3,
    lambda m: m.array(1.5),
    lambda m: m.array([1, 2], dtype=m.int32),
    lambda m: m.array([1e-10, 1.0, m.nan, m.inf]),
    lambda m: m.array([1 + 2j, 3j], dtype=m.complex64),
    lambda m: m.array([True, False]),
    lambda m: m.zeros((0, 3)),
    lambda m: m.arange(2000),
    lambda m: m.arange(6.0).reshape(2, 3).T,
]


def _outcome(fn):
    """What ``fn()`` gives, or the type of the exception it raises."""
    try:
        return fn()
    except Exception as e:   # noqa: BLE001  (the exception type is the result)
        return type(e)


@pytest.mark.parametrize("make", ARRAYS)
def test_repr_str_format_match_numpy(make):
    a, n = make(xnp), make(np)
    assert repr(a) == repr(n)
    assert str(a) == str(n)
    assert f"{a}" == f"{n}"
    assert _outcome(lambda: format(a, ".3f")) == _outcome(lambda: format(n, ".3f"))


def test_value_held_as_numpy_scalar_prints_as_array():
    # a handle may hold a NumPy scalar: it still prints as a 0-d array
    a = xnp.array(2.5)
    a._value = np.float64(2.5)
    n = np.array(2.5)
    assert (repr(a), str(a), format(a, ".2f")) == (repr(n), str(n), format(n, ".2f"))


@pytest.mark.parametrize("opts", [
    {"precision": 2}, {"suppress": True}, {"threshold": 5, "edgeitems": 1},
    {"linewidth": 20}, {"sign": "+"}, {"floatmode": "fixed"}, {"legacy": "1.13"},
    {"formatter": {"float": "{:.1f}".format}},
])
def test_printoptions_apply_to_xnp_arrays(opts):
    a, n = xnp.linspace(-1.0, 1.0, 11), np.linspace(-1.0, 1.0, 11)
    with xnp.printoptions(**opts):
        got = (repr(a), str(a), xnp.get_printoptions())
    with np.printoptions(**opts):
        want = (repr(n), str(n), np.get_printoptions())
    assert got == want


@pytest.mark.parametrize("fn", ["array2string", "array_repr", "array_str"])
@pytest.mark.parametrize("kwargs", [{}, {"precision": 1}, {"max_line_width": 10},
                                    {"suppress_small": True}])
def test_array2string_family(fn, kwargs):
    a, n = xnp.arange(8.0) / 7, np.arange(8.0) / 7
    assert getattr(xnp, fn)(a, **kwargs) == getattr(np, fn)(n, **kwargs)
    assert getattr(xnp, fn)(n, **kwargs) == getattr(np, fn)(n, **kwargs)


@pytest.mark.parametrize("fn", ["array2string", "array_repr", "array_str"])
def test_array2string_family_rejects_what_numpy_rejects(fn):
    # NumPy's printing functions take arrays, not lists or Python scalars
    for bad in ([1.0, 2.0], 1.5):
        assert _outcome(lambda: getattr(xnp, fn)(bad)) == _outcome(
            lambda: getattr(np, fn)(bad))


def test_array2string_arguments_and_errors():
    a, n = xnp.arange(3), np.arange(3)
    f = {"int": hex}
    assert xnp.array2string(a, formatter=f) == np.array2string(n, formatter=f)
    assert xnp.array2string(a, separator=", ") == np.array2string(n, separator=", ")
    assert _outcome(lambda: xnp.array2string(a, sign="x")) is _outcome(
        lambda: np.array2string(n, sign="x"))


@pytest.mark.parametrize("fn", ["format_float_positional", "format_float_scientific"])
@pytest.mark.parametrize("make", [lambda m: m.array(1.25), lambda m: m.float32(0.1),
                                  lambda m: m.array(0.1, dtype=m.float32),
                                  lambda m: m.array([1.0, 2.0])])
def test_format_float(fn, make):
    got = _outcome(lambda: getattr(xnp, fn)(make(xnp), precision=3))
    want = _outcome(lambda: getattr(np, fn)(make(np), precision=3))
    assert got == want


def test_format_of_traced_array():
    def f(x):
        assert f"{x}" == repr(x._value)
        with pytest.raises(TypeError):
            format(x, ".2f")           # as NumPy for arrays with ndim > 0
        with pytest.raises(Exception, match="concrete"):
            format(x.sum(), ".2f")     # no digits to format under jit
        return x
    xnp.jit(f)(xnp.ones(3))


TEXT = "# a comment\n1,2,3\n4,5,6\n\n7,8,9\n"


@pytest.mark.parametrize("kwargs", [
    {}, {"usecols": (0, 2)}, {"usecols": 1}, {"skiprows": 2}, {"max_rows": 2},
    {"dtype": "int32"}, {"dtype": "float32", "ndmin": 2}, {"unpack": True},
    {"converters": {0: lambda s: float(s) * 2}}, {"comments": "#", "ndmin": 1},
    {"usecols": 5}, {"ndmin": 3}, {"skiprows": -1}, {"dtype": "complex128"},
])
def test_loadtxt(kwargs):
    got = _outcome(lambda: xnp.loadtxt(io.StringIO(TEXT), delimiter=",", **kwargs))
    want = _outcome(lambda: np.loadtxt(io.StringIO(TEXT), delimiter=",", **kwargs))
    if isinstance(want, type):
        assert got is want
        return
    assert type(got) is xnp.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("kwargs", [
    {}, {"usecols": (0, 1)}, {"skip_header": 2}, {"skip_footer": 1}, {"max_rows": 1},
    {"dtype": "int64"}, {"unpack": True}, {"filling_values": -1.0},
])
def test_genfromtxt(kwargs):
    text = "1,2,3\n4,,6\n7,8,9\n"
    got = xnp.genfromtxt(io.StringIO(text), delimiter=",", **kwargs)
    want = np.genfromtxt(io.StringIO(text), delimiter=",", **kwargs)
    assert type(got) is xnp.ndarray and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


def test_genfromtxt_usemask_gives_xnp_masked_array():
    text = "1,,3\n4,5,\n"
    got = xnp.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)
    want = np.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)
    assert isinstance(got, xnp.ma.MaskedArray)
    assert repr(got) == repr(want) and str(got) == str(want)
    assert float(xnp.sum(got)) == float(want.sum())
    np.testing.assert_array_equal(np.asarray(xnp.ma.getmaskarray(got)),
                                  np.ma.getmaskarray(want))


@pytest.mark.parametrize("kwargs", [{}, {"fmt": "%d"}, {"delimiter": ","},
                                    {"header": "h", "footer": "f"}, {"fmt": "%d %d"}])
@pytest.mark.parametrize("make", [lambda m: m.arange(6.0).reshape(2, 3),
                                  lambda m: m.arange(3), lambda m: m.array(1.0),
                                  lambda m: m.zeros((2, 2, 2))])
def test_savetxt(kwargs, make):
    def text(m):
        s = io.StringIO()
        m.savetxt(s, make(m), **kwargs)
        return s.getvalue()
    assert _outcome(lambda: text(xnp)) == _outcome(lambda: text(np))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint16", "bool",
                                   "complex64"])
def test_save_load_npy(tmp_path, dtype):
    a = xnp.arange(6).reshape(2, 3).astype(dtype)
    xnp.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "n.npy", np.asarray(a))
    assert (tmp_path / "a.npy").read_bytes() == (tmp_path / "n.npy").read_bytes()
    got = xnp.load(tmp_path / "a.npy")
    assert type(got) is xnp.ndarray and got.dtype == a.dtype
    np.testing.assert_array_equal(np.asarray(got), np.load(tmp_path / "n.npy"))


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
def test_npz_file_is_numpys_with_xnp_items(tmp_path, save):
    getattr(xnp, save)(tmp_path / "x.npz", xnp.arange(3.0), b=xnp.ones((2, 2)))
    getattr(np, save)(tmp_path / "y.npz", np.arange(3.0), b=np.ones((2, 2)))
    with xnp.load(tmp_path / "x.npz") as got, np.load(tmp_path / "y.npz") as want:
        assert isinstance(got, np.lib.npyio.NpzFile)
        assert isinstance(got, xnp.lib.npyio.NpzFile)
        assert got.files == want.files and sorted(got) == sorted(want)
        assert repr(got) == repr(want).replace("y.npz", "x.npz")
        assert "b" in got and len(got) == len(want)
        for item in (got["b"], got.f.b, got.get("b"), dict(got.items())["b"]):
            assert type(item) is xnp.ndarray
            np.testing.assert_array_equal(np.asarray(item), want["b"])
        assert got.zip is not None and got.fid is not None
        assert _outcome(lambda: got["missing"]) is _outcome(lambda: want["missing"])
    assert got.zip is None and got.fid is None      # closed by the with block


def test_tofile_fromfile_fromstring(tmp_path):
    a, n = xnp.arange(6.0), np.arange(6.0)
    a.tofile(tmp_path / "a.bin")
    n.tofile(tmp_path / "n.bin")
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    got = xnp.fromfile(tmp_path / "a.bin")
    assert type(got) is xnp.ndarray
    np.testing.assert_array_equal(np.asarray(got), n)
    a.tofile(tmp_path / "a.txt", sep=",")
    n.tofile(tmp_path / "n.txt", sep=",")
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "n.txt").read_text()
    got = xnp.fromfile(tmp_path / "a.txt", sep=",")
    np.testing.assert_array_equal(np.asarray(got), np.fromfile(tmp_path / "n.txt", sep=","))
    for args in [("1 2 3",), ("1,2,3",), ("1,2,,3",), (b"\x01\x02",)]:
        for kw in [{"sep": " "}, {"sep": ","}, {"sep": ",", "dtype": int}, {}]:
            g = _outcome(lambda: xnp.fromstring(*args, **kw))
            w = _outcome(lambda: np.fromstring(*args, **kw))
            if isinstance(w, type):
                assert g is w
            else:
                assert g.dtype == w.dtype
                np.testing.assert_array_equal(np.asarray(g), w)


def test_frombuffer_fromiter_errors():
    for m_args in [(b"abcd", "uint8"), (b"abc", "int32")]:
        g = _outcome(lambda: xnp.frombuffer(m_args[0], dtype=m_args[1]))
        w = _outcome(lambda: np.frombuffer(m_args[0], dtype=m_args[1]))
        assert (g is w) if isinstance(w, type) else np.array_equal(np.asarray(g), w)
    assert _outcome(lambda: xnp.fromiter(iter([1, 2]), float, count=3)) is _outcome(
        lambda: np.fromiter(iter([1, 2]), float, count=3))
