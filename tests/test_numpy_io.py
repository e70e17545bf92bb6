"""xnp's file and buffer I/O: files xnp writes are NumPy's (NumPy reads them back), files
NumPy writes load as xnp arrays, and traced arrays refuse to be written."""

import io

import numpy as np
import pytest

import xnp
from transforms import TracerArrayConversionError


def test_npy_and_npz_round_trips(tmp_path):
    a, b = np.arange(6.0).reshape(2, 3), np.array([1, 2], np.int16)
    xnp.save(tmp_path / "a.npy", xnp.asarray(a))
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), a)
    np.save(tmp_path / "b.npy", b)
    got = xnp.load(tmp_path / "b.npy")
    assert type(got) is xnp.ndarray and got.dtype == np.int16
    xnp.savez(tmp_path / "ab.npz", a=xnp.asarray(a), b=b)
    xnp.savez_compressed(tmp_path / "c.npz", xnp.asarray(b))
    with xnp.load(tmp_path / "ab.npz") as npz:
        assert sorted(npz.files) == ["a", "b"]
        assert type(npz["a"]) is xnp.ndarray
        np.testing.assert_array_equal(npz["a"], a)
    np.testing.assert_array_equal(np.load(tmp_path / "c.npz")["arr_0"], b)


def test_text_files_match_numpys():
    a = np.array([[1.5, -2.0], [3.25, 4.0]])
    ours, theirs = io.StringIO(), io.StringIO()
    xnp.savetxt(ours, xnp.asarray(a), fmt="%.3f", delimiter=",", header="x,y")
    np.savetxt(theirs, a, fmt="%.3f", delimiter=",", header="x,y")
    assert ours.getvalue() == theirs.getvalue()
    for reader in ("loadtxt", "genfromtxt"):
        got = getattr(xnp, reader)(io.StringIO(theirs.getvalue()), delimiter=",")
        want = getattr(np, reader)(io.StringIO(theirs.getvalue()), delimiter=",")
        assert type(got) is xnp.ndarray
        np.testing.assert_array_equal(got, want)


def test_buffers_and_iterables():
    raw = np.arange(4, dtype=np.float32).tobytes()
    got = xnp.frombuffer(raw, dtype=np.float32)
    np.testing.assert_array_equal(got, np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(xnp.fromiter((i * i for i in range(5)), dtype=int),
                                  np.arange(5) ** 2)
    np.testing.assert_array_equal(xnp.fromstring("1 2 3", dtype=int, sep=" "), [1, 2, 3])
    with pytest.raises(ValueError):
        xnp.frombuffer(b"abc", dtype=np.float32)       # NumPy's error


def test_traced_arrays_refuse_to_be_written():
    with pytest.raises(TracerArrayConversionError):
        xnp.grad(lambda x: xnp.save(io.BytesIO(), x) or x.sum())(xnp.ones(2))


def test_testing_compares_zero_d_results_as_numpy_scalars():
    a = xnp.asarray([1.0, 2.0])
    xnp.testing.assert_equal(xnp.sum(a), 3.0)        # NumPy's sum is a scalar there
    xnp.testing.assert_allclose(a, [1.0, 2.0])
    with pytest.raises(AssertionError):
        xnp.testing.assert_array_equal(a, [1.0, 3.0])


def test_testing_is_an_importable_module():
    from xnp.testing import assert_equal  # as `from numpy.testing import ...`
    assert_equal(xnp.eye(2), np.eye(2))
    with pytest.raises(AssertionError):
        assert_equal(xnp.eye(2), np.ones((2, 2)))
