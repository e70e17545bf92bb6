"""Regressions found by running NumPy's complex-ufunc and regression test files
(``_core/tests/test_umath_complex.py``, ``test_regression.py``) against xnp: values at
special points (signed zeros, infinities, NaNs), dtypes, warnings and error messages,
each compared with NumPy on the same inputs."""

import warnings

import numpy
import pytest

import xnp
from xnp import grad, jit

_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, numpy.inf, -numpy.inf, numpy.nan, 1e300,
            -1e300, 3.0, -3.0, 1e20, 710.0, -710.0]
_GRID = numpy.array([complex(a, b) for a in _SPECIAL for b in _SPECIAL])


def _bits_equal(got, want):
    """Same dtype, and the same values including the sign of zeros and where NaNs are."""
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    pairs = [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" \
        else [(got, want)]
    for g, w in pairs:
        if w.dtype.kind == "f":
            both_nan = numpy.isnan(g) & numpy.isnan(w)
            same = (g == w) & (numpy.signbit(g) == numpy.signbit(w))
            bad = ~(both_nan | same)
            assert not bad.any(), (numpy.asarray(got)[bad][:5], numpy.asarray(want)[bad][:5])
        else:
            numpy.testing.assert_array_equal(g, w)


def _run(fn, *args):
    """(result or (exception type, message), sorted set of warnings as (class, text))."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args)
        except Exception as e:  # noqa: BLE001 - compared with NumPy's
            out = (type(e), str(e))
    return out, sorted({(w.category.__name__, str(w.message)) for w in caught})


def _complex_ufuncs(nin):
    names = []
    for name in sorted(dir(numpy)):
        uf = getattr(numpy, name)
        if isinstance(uf, numpy.ufunc) and uf.nin == nin and uf.nout == 1 and \
                any("D" in t.split("->")[0] for t in uf.types) and hasattr(xnp, name) \
                and name not in ("matmul", "vecdot", "vecmat", "matvec"):
            names.append(name)
    return names


# --- eager values and warnings at special points ------------------------------------------
@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("name", _complex_ufuncs(1))
def test_unary_complex_special_values(name, dtype):
    with numpy.errstate(all="ignore"):
        z = _GRID.astype(dtype)
    want, want_w = _run(getattr(numpy, name), z)
    got, got_w = _run(getattr(xnp, name), xnp.asarray(z))
    _bits_equal(got, want)
    assert got_w == want_w


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("name", ["fmax", "fmin", "maximum", "minimum", "divide", "power",
                                  "float_power", "multiply", "add", "subtract"])
def test_binary_complex_special_values(name, dtype):
    with numpy.errstate(all="ignore"):
        z = numpy.array([complex(a, b) for a in _SPECIAL for b in _SPECIAL[::3]], dtype)
    x, y = (v.ravel() for v in numpy.meshgrid(z, z))
    want, want_w = _run(getattr(numpy, name), x, y)
    got, got_w = _run(getattr(xnp, name), xnp.asarray(x), xnp.asarray(y))
    _bits_equal(got, want)
    assert got_w == want_w


@pytest.mark.parametrize("name", ["fmax", "fmin"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128, numpy.complex64])
def test_fmax_fmin_both_nan_pick(name, dtype):
    # Which NaN comes back when both are NaN (complex: NumPy returns the first).
    nans = [complex(numpy.nan, 1), complex(numpy.nan, -2), complex(2, numpy.nan)] \
        if numpy.dtype(dtype).kind == "c" else [numpy.nan, -numpy.nan]
    a = numpy.array([p for p in nans for _ in nans], dtype)
    b = numpy.array([q for _ in nans for q in nans], dtype)
    _bits_equal(getattr(xnp, name)(a, b), getattr(numpy, name)(a, b))


# --- reciprocal, square and float_power run NumPy's own loops ------------------------------
_ALL_NUMERIC = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16",
                "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", _ALL_NUMERIC)
@pytest.mark.parametrize("name", ["reciprocal", "square"])
def test_reciprocal_square_all_dtypes(name, dtype):
    a = numpy.array([0, 1, 2, 3, 0, 1], dtype=dtype)
    if numpy.dtype(dtype).kind in "fc":
        a = numpy.array([0.0, -0.0, 1.0, -2.5, numpy.inf, numpy.nan, 1e300, 4.0]).astype(
            dtype) if numpy.dtype(dtype).kind == "f" else _GRID.astype(dtype)
    want, want_w = _run(getattr(numpy, name), a)
    got, got_w = _run(getattr(xnp, name), xnp.asarray(a))
    _bits_equal(got, want)
    assert got_w == want_w


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint32", "float32",
                                   "float64", "complex128"])
def test_reciprocal_under_jit(dtype):
    # Finite, non-subnormal results (jit flushes subnormals): NumPy's algorithm, also for
    # complex 1 / 0 (nan + nan j) and integers (1 / 0 as the hardware division gives it).
    if numpy.dtype(dtype).kind == "c":
        a = numpy.array([0j, complex(0, -0.0), 1 + 2j, -3 + 0.5j, complex(numpy.inf, 0),
                         complex(numpy.nan, 1), complex(2, numpy.inf), 1e300 + 1e300j])
    else:
        a = numpy.array([0, 1, 2, 3, 7] if numpy.dtype(dtype).kind == "u"
                        else [0, 1, -1, 2, -3, 7], dtype)
    with numpy.errstate(all="ignore"):
        want = numpy.reciprocal(a)
        got = jit(xnp.reciprocal)(xnp.asarray(a))
    _bits_equal(got, want)


@pytest.mark.parametrize("z", [1 + 2j, -0.5 + 3j, 2.0, -4.0])
def test_reciprocal_square_derivatives(z):
    # d(1/z) = -1/z**2 and d(z**2) = 2z, from the real part's gradient (xnp's convention,
    # the same as for the operators 1 / z and z * z).
    for f, op in ((xnp.reciprocal, lambda v: 1 / v), (xnp.square, lambda v: v * v)):
        got = grad(lambda v: xnp.real(f(v)))(z)
        want = grad(lambda v: xnp.real(op(v)))(z)
        numpy.testing.assert_allclose(got, want, rtol=1e-15)


@pytest.mark.parametrize("name", ["square", "reciprocal", "float_power"])
def test_warning_names_are_numpys(name):
    big = numpy.array([1e300 + 1e300j, 0j, complex(numpy.inf, numpy.inf)])
    args = (big,) if name != "float_power" else (big, numpy.array([2.0, -1.0, 0.5]))
    want, want_w = _run(getattr(numpy, name), *args)
    got, got_w = _run(getattr(xnp, name), *args)
    assert want_w and got_w == want_w


# --- degrees and radians are ufuncs of their own -------------------------------------------
def test_degrees_radians_identity():
    for a, b in (("degrees", "rad2deg"), ("radians", "deg2rad"), ("mod", "remainder")):
        assert (getattr(xnp, a) is getattr(xnp, b)) == (getattr(numpy, a) is getattr(numpy, b))
        assert getattr(xnp, a).__name__ == getattr(numpy, a).__name__


@pytest.mark.parametrize("name", ["degrees", "radians", "deg2rad", "rad2deg", "divmod",
                                  "fabs", "spacing", "hypot", "logaddexp"])
def test_complex_unsupported_names_the_ufunc(name):
    args = (numpy.array([1j]),) * getattr(numpy, name).nin
    want_t, want_msg = _run(getattr(numpy, name), *args)[0]
    got_t, got_msg = _run(getattr(xnp, name), *args)[0]
    assert issubclass(got_t, TypeError) and issubclass(want_t, TypeError)
    assert got_msg.split(" not supported")[0] == want_msg.split(" not supported")[0]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["degrees", "radians", "deg2rad", "rad2deg"])
def test_angle_conversion_bits(name, dtype):
    # float16 and float32 scale by the factor rounded to float32, as NumPy's loops.
    rng = numpy.random.default_rng(0)
    a = (rng.standard_normal(2000) * 100).astype(dtype)
    a = numpy.concatenate([a, numpy.array([0.0, -0.0, numpy.inf, numpy.nan], dtype)])
    want = getattr(numpy, name)(a)
    got = getattr(xnp, name)(xnp.asarray(a))
    assert numpy.asarray(got).dtype == want.dtype
    assert numpy.asarray(got).tobytes() == want.tobytes()
    scalar = getattr(xnp, name)(numpy.dtype(dtype).type(1.5))
    assert type(scalar) is type(getattr(numpy, name)(numpy.dtype(dtype).type(1.5)))
    assert scalar == getattr(numpy, name)(numpy.dtype(dtype).type(1.5))
