"""jit: caching, static arguments, lowering text, errors, and composition with grad and vmap
(each checked against eager evaluation or finite differences)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import xnp
from transforms import (
    ConcretizationTypeError,
    TracerArrayConversionError,
    UnexpectedTracerError,
    runtime,
)
from transforms.test_util import check_grads

RNG = np.random.default_rng(0)


def f_elementwise(x, y):
    return xnp.sin(x) * y + xnp.tanh(x - 1.0)


def f_reduce(x, y):
    return xnp.sum(xnp.sin(x) * y ** 2) + xnp.max(x)


# --- calling, pytrees, decorators --------------------------------------------------------

def test_pytrees_in_and_out_and_kwargs():
    def f(params, x, *, scale):
        return {"out": params["w"] @ x * scale, "aux": (x.sum(), params["b"])}

    params = {"w": RNG.normal(size=(3, 4)), "b": np.arange(3.0)}
    x = RNG.normal(size=4)
    got = xnp.jit(f)(params, x, scale=2.0)
    want = f(params, x, scale=2.0)
    np.testing.assert_allclose(got["out"], want["out"], rtol=1e-14)
    np.testing.assert_allclose(got["aux"][0], want["aux"][0], rtol=1e-14)
    np.testing.assert_array_equal(got["aux"][1], want["aux"][1])
    assert isinstance(got["out"], xnp.ndarray)


def test_decorator_forms():
    @xnp.jit
    def a(x):
        return x * 2

    @xnp.jit(static_argnums=1)
    def b(x, n):
        return x ** n

    np.testing.assert_array_equal(a(np.arange(3)), np.arange(3) * 2)
    np.testing.assert_array_equal(b(np.arange(3), 3), np.arange(3) ** 3)


def test_64bit_types_are_kept():
    x = np.array([1e-300, 1.0 + 2 ** -52])
    out = xnp.jit(lambda v: v * 1.0 + 0.0)(x)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, x)
    big = np.array([2 ** 62, -(2 ** 62)], dtype=np.int64)
    out = xnp.jit(lambda v: v + 1)(big)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, big + 1)



@pytest.mark.parametrize("dtype", [">f8", ">i4", ">c16"])
def test_byteswapped_inputs_and_constants(dtype):
    # Byte-swapped data (as NumPy reads from big-endian files) enters compiled code in
    # native order: the values are NumPy's, as arguments, repeated calls and constants.
    a = np.array([[3, 1, 2], [2, 5, 1]]).astype(dtype)
    def f(m, x):
        return x * 2, x.sum(), x.mean(axis=0), m.dot(x, x.T), m.cumsum(x)
    jitted = xnp.jit(lambda x: f(xnp, x))
    for arg in (a, xnp.asarray(a), a):
        for got, want in zip(jitted(arg), f(np, a)):
            np.testing.assert_array_equal(np.asarray(got), want)
    got = xnp.jit(lambda y: xnp.sum(xnp.asarray(a) * y) + a[0, 1])(2)
    np.testing.assert_array_equal(np.asarray(got), np.sum(a * 2) + a[0, 1])

def test_python_scalars_are_weak():
    f = xnp.jit(lambda x, s: x * s)
    out = f(np.ones(3, np.float32), 2.0)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.full(3, 2.0, np.float32))


# --- the cache -----------------------------------------------------------------------------

def test_one_trace_per_signature():
    f = xnp.jit(f_elementwise)
    x, y = np.arange(3.0), np.ones(3)
    for k in range(3):
        f(x + k, y)
    assert f.trace_count == 1
    f(np.arange(4.0), np.ones(4))                     # new shape
    assert f.trace_count == 2
    f(np.arange(3, dtype=np.float32), np.ones(3, np.float32))     # new dtype
    assert f.trace_count == 3
    f(xnp.asarray(x), y)                             # xnp array, same signature
    assert f.trace_count == 3


def test_static_args_retrace_on_new_values():
    calls = []

    @xnp.jit(static_argnames="mode")
    def f(x, mode):
        calls.append(mode)
        return x + 1 if mode == "inc" else x - 1

    x = np.arange(3)
    np.testing.assert_array_equal(f(x, mode="inc"), x + 1)
    np.testing.assert_array_equal(f(x, mode="dec"), x - 1)
    np.testing.assert_array_equal(f(x, mode="inc"), x + 1)
    assert calls == ["inc", "dec"]


def test_static_argument_errors():
    f = xnp.jit(lambda x, shape: xnp.reshape(x, shape), static_argnums=1)
    with pytest.raises(ValueError, match="hashable"):
        f(np.arange(6), [2, 3])
    np.testing.assert_array_equal(f(np.arange(6), (2, 3)), np.arange(6).reshape(2, 3))
    with pytest.raises(ValueError, match="out of range"):
        xnp.jit(lambda x: x, static_argnums=3)


# --- lowering, compile, make_jaxpr --------------------------------------------------------

def test_lower_as_text_and_compile():
    f = xnp.jit(f_elementwise)
    x, y = np.arange(3.0), np.ones(3)
    lowered = f.lower(x, y)
    text = lowered.as_text()
    assert "func.func public @main" in text and "stablehlo.sine" in text
    assert "tensor<3xf64>" in text
    compiled = lowered.compile()
    np.testing.assert_allclose(compiled(x, y), f_elementwise(x, y), rtol=1e-14)
    with pytest.raises(TypeError, match="signature"):
        compiled(np.arange(4.0), np.ones(4))


def test_large_closed_over_constants_are_arguments():
    table = RNG.normal(size=1000)
    text = xnp.jit(lambda x: x * table).lower(np.ones(1000)).as_text()
    assert text.count("tensor<1000xf64>") >= 3 and len(text) < 2000
    np.testing.assert_allclose(xnp.jit(lambda x: x * table)(np.ones(1000)), table)


def test_make_jaxpr_shows_a_nested_call():
    jaxpr = xnp.make_jaxpr(xnp.jit(f_elementwise))(np.arange(3.0), np.ones(3))
    text = str(jaxpr)
    assert "jit[" in text and "sin" in text


def test_disable_jit_runs_eagerly():
    seen = []

    @xnp.jit
    def f(x):
        seen.append(float(x.sum()))      # needs a concrete value
        return x * 2

    with xnp.disable_jit():
        np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert seen == [3.0]
    with pytest.raises(ConcretizationTypeError):
        f(np.arange(3.0))


# --- results and buffers -------------------------------------------------------------------

def test_results_are_zero_copy_views_that_round_trip():
    f = xnp.jit(lambda x: x + 1.0)
    out = f(np.zeros(1000))
    view = np.asarray(out)
    assert not view.flags.writeable
    assert view.flags.owndata == (runtime.platform() != "cpu")   # a host copy off the CPU
    again = f(out)                    # the XLA buffer is passed back without a transfer
    np.testing.assert_array_equal(again, np.full(1000, 2.0))
    out += 1.0                        # in-place on the handle rebinds it; the view stays
    np.testing.assert_array_equal(view, np.ones(1000))
    np.testing.assert_array_equal(f(out), np.full(1000, 3.0))


def test_in_place_code_compiles():
    def f(x, y):
        a = xnp.zeros(5)
        a[1] = x * 2
        a[2:] += y
        a[xnp.array([0, 4])] = x
        return (a ** 2).sum()

    x, y = 1.5, np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(xnp.jit(f)(x, y), f(x, y), rtol=1e-14)
    gx, gy = xnp.jit(xnp.grad(f, argnums=(0, 1)))(x, y)
    ex, ey = xnp.grad(f, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, ex, rtol=1e-14)
    np.testing.assert_allclose(gy, ey, rtol=1e-14)


# --- errors -------------------------------------------------------------------------------

def test_python_if_on_traced_value_says_what_to_do():
    def f(x):
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(ConcretizationTypeError, match="static_argnums"):
        xnp.jit(f)(np.ones(3))


def test_numpy_conversion_of_traced_value():
    with pytest.raises(TracerArrayConversionError):
        xnp.jit(lambda x: np.asarray(x) + 1)(np.ones(3))


def test_value_dependent_shape_points_to_size():
    with pytest.raises(ConcretizationTypeError, match="size"):
        xnp.jit(lambda x: xnp.nonzero(x))(np.array([0, 1, 2]))


def test_leaked_tracer():
    leaked = []

    @xnp.jit
    def f(x):
        leaked.append(x)
        return x

    f(np.ones(2))
    with pytest.raises(UnexpectedTracerError):
        leaked[0] + 1


# --- composition with grad and vmap --------------------------------------------------------

X, Y = RNG.normal(size=4), RNG.normal(size=4)


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-14)


def test_grad_of_jit_and_jit_of_grad():
    want = xnp.grad(f_reduce, argnums=(0, 1))(X, Y)
    for got in [xnp.grad(xnp.jit(f_reduce), argnums=(0, 1))(X, Y),
                xnp.jit(xnp.grad(f_reduce, argnums=(0, 1)))(X, Y),
                xnp.jit(xnp.grad(xnp.jit(f_reduce), argnums=(0, 1)))(X, Y)]:
        _close(got[0], want[0])
        _close(got[1], want[1])


def test_jit_derivatives_against_finite_differences():
    check_grads(xnp.jit(f_reduce), (X, Y), order=2, modes=("fwd", "rev"))


def test_vmap_of_jit_and_jit_of_vmap():
    xs, ys = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))
    want = np.stack([np.asarray(f_reduce(a, b)) for a, b in zip(xs, ys)])
    _close(xnp.vmap(xnp.jit(f_reduce))(xs, ys), want)
    _close(xnp.jit(xnp.vmap(f_reduce))(xs, ys), want)
    _close(xnp.vmap(xnp.jit(f_reduce), in_axes=(0, None))(xs, Y),
           np.stack([np.asarray(f_reduce(a, Y)) for a in xs]))


def test_per_example_gradients_through_jit_in_every_order():
    xs = RNG.normal(size=(5, 4))
    want = np.stack([np.asarray(xnp.grad(f_reduce)(a, Y)) for a in xs])
    g = xnp.grad(f_reduce)
    for fn in [xnp.vmap(g, in_axes=(0, None)), xnp.jit(xnp.vmap(g, in_axes=(0, None))),
               xnp.vmap(xnp.jit(g), in_axes=(0, None)),
               xnp.vmap(xnp.grad(xnp.jit(f_reduce)), in_axes=(0, None))]:
        _close(fn(xs, Y), want)


def test_nested_jit_under_grad_splits_the_inner_call():
    inner = xnp.jit(lambda x: xnp.sin(x) * x)

    @xnp.jit
    def outer(x):
        return xnp.sum(inner(x) ** 2 + inner(2.0 * x))

    _close(xnp.grad(outer)(X), xnp.grad(lambda x: xnp.sum(
        (xnp.sin(x) * x) ** 2 + xnp.sin(2.0 * x) * 2.0 * x))(X))
    check_grads(outer, (X,), order=2, modes=("rev",))


def test_hessian_and_jacobians_of_jit():
    f = xnp.jit(lambda x: xnp.sum(xnp.sin(x) * x ** 3))
    h = xnp.hessian(f)(X)
    _close(h, xnp.hessian(lambda x: xnp.sum(xnp.sin(x) * x ** 3))(X))
    g = xnp.jit(lambda x: xnp.sin(x) * x[::-1])
    _close(xnp.jacfwd(g)(X), xnp.jacrev(g)(X))


def test_jit_closing_over_a_traced_value():
    def f(x):
        return xnp.jit(lambda y: y * x)(x).sum()   # the inner function closes over x

    _close(xnp.grad(f)(X), 2 * X)


def test_mlp_training_under_jit_reaches_the_eager_loss():
    rng = np.random.default_rng(1)
    xb = rng.normal(size=(32, 8))
    yb = rng.integers(0, 3, size=32)
    sizes = [8, 16, 16, 3]
    params = [(rng.normal(size=(m, n)) / np.sqrt(m), np.zeros(n))
              for m, n in zip(sizes[:-1], sizes[1:])]

    def loss(params, x, y):
        for w, b in params[:-1]:
            x = xnp.tanh(x @ w + b)
        w, b = params[-1]
        logits = x @ w + b
        logits = logits - logits.max(axis=1, keepdims=True)
        logp = logits - xnp.log(xnp.exp(logits).sum(axis=1, keepdims=True))
        return -logp[xnp.arange(len(y)), y].mean()

    def step(params, x, y):
        g = xnp.grad(loss)(params, x, y)
        return [(w - 0.1 * gw, b - 0.1 * gb) for (w, b), (gw, gb) in zip(params, g)]

    eager, compiled = params, params
    jstep = xnp.jit(step)
    for _ in range(20):
        eager = step(eager, xb, yb)
        compiled = jstep(compiled, xb, yb)
    assert jstep.trace_count == 1
    l_eager, l_jit = float(loss(eager, xb, yb)), float(xnp.jit(loss)(compiled, xb, yb))
    assert l_jit < float(loss(params, xb, yb)) * 0.9
    np.testing.assert_allclose(l_jit, l_eager, rtol=1e-10)


def test_jax_is_never_imported():
    code = ("import sys, numpy as np, xnp\n"
            "assert 'jaxlib' not in sys.modules\n"
            "print(xnp.jit(lambda x: xnp.sin(x).sum())(np.ones(3)))\n"
            "assert not [m for m in sys.modules if m == 'jax' or m.startswith('jax.')]\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


HAVE_JAX = importlib.util.find_spec("jax") is not None
needs_jax = pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed")


@needs_jax      # (importorskip would import jax into this process)
def test_xnp_and_jax_share_a_process():
    code = ("import numpy as np, xnp, jax\n"
            "jax.config.update('jax_enable_x64', True)\n"
            "x = np.array([1.0, 2.0 ** -40])\n"
            "a = xnp.jit(lambda v: v * 3.0)(x)\n"
            "b = jax.jit(lambda v: v * 3.0)(x)\n"
            "c = xnp.jit(lambda v: v * 3.0)(np.asarray(b))\n"
            "assert a.dtype == np.float64 and np.asarray(b).dtype == np.float64\n"
            "np.testing.assert_array_equal(np.asarray(a), np.asarray(b))\n"
            "np.testing.assert_array_equal(np.asarray(c), x * 9.0)\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_custom_rules_survive_jit_in_every_order():
    @xnp.custom_vjp
    def scaled_sin(x):
        return xnp.sin(x)

    # A deliberately "wrong" rule (10x the true derivative) shows which rule ran.
    scaled_sin.defvjp(lambda x: (xnp.sin(x), (xnp.cos(x), None)),
                      lambda res, g: (10.0 * g * res[0],))

    @xnp.custom_jvp
    def clipped(x):
        return xnp.tanh(x)

    clipped.defjvp(lambda p, t: (xnp.tanh(p[0]), 3.0 * t[0]))

    def f(x):
        return xnp.sum(scaled_sin(x)) + xnp.sum(clipped(x))

    want = 10.0 * np.cos(X) + 3.0
    for g in [xnp.grad(f), xnp.jit(xnp.grad(f)), xnp.grad(xnp.jit(f)),
              xnp.jit(xnp.grad(xnp.jit(f)))]:
        _close(g(X), want)
    xs = np.stack([X, 2 * X])
    want_b = 10.0 * np.cos(xs) + 3.0
    for g in [xnp.vmap(xnp.grad(xnp.jit(f))), xnp.jit(xnp.vmap(xnp.grad(f))),
              xnp.vmap(xnp.jit(xnp.grad(f)))]:
        _close(g(xs), want_b)
    _, tangent = xnp.jvp(xnp.jit(lambda x: xnp.sum(clipped(x))), (X,), (np.ones(4),))
    _close(tangent, 12.0)


def test_collectives_inside_jit_under_vmap():
    xs = RNG.normal(size=(3, 2))
    want = xs - xs.mean(axis=0)
    inner = xnp.jit(lambda x: x - xnp.lax.pmean(x, "i"))
    _close(xnp.vmap(inner, axis_name="i")(xs), want)
    _close(xnp.jit(xnp.vmap(lambda x: x - xnp.lax.pmean(x, "i"), axis_name="i"))(xs), want)
    with pytest.raises(NameError, match="unbound axis name"):
        inner(xs[0])


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint64, np.int32])
def test_integer_comparisons_with_python_ints_out_of_range(dtype):
    # NumPy compares a Python int outside the array's range exactly (uint8 < 256 is all
    # true); under jit the int must not be wrapped into the array's dtype.
    a = np.array([0, 1, 100, 127], dtype=dtype)
    for f in [lambda x: x < 256, lambda x: x >= -5, lambda x: x == 300, lambda x: x != -1,
              lambda x: xnp.greater(x, -129), lambda x: x <= 2 ** 40, lambda x: x > 50]:
        out = xnp.jit(f)(xnp.asarray(a))
        np.testing.assert_array_equal(out, f(a))
        assert out.dtype == np.bool_
    out = xnp.jit(lambda x, n: x < n)(xnp.asarray(a), 300)   # a weak traced int
    np.testing.assert_array_equal(out, np.ones(4, bool))


def test_python_ints_beyond_int64_under_jit():
    # A Python int in [2**63, 2**64) has only uint64 as its type: under jit it is not
    # squeezed into the int64 of a weak literal (which raised OverflowError in lowering).
    u = np.array([1, 2 ** 63 + 5, 2 ** 64 - 1], dtype=np.uint64)
    i = np.array([-3, 5, 2 ** 62], dtype=np.int64)
    for a, fns in [(u, [lambda x: x < 2 ** 64 - 1, lambda x: x + 2 ** 63,
                        lambda x: x == 2 ** 64 - 1, lambda x: xnp.maximum(x, 2 ** 63),
                        lambda x: x // 2 ** 63]),
                   (i, [lambda x: x < 2 ** 63, lambda x: x != 2 ** 64 - 1,
                        lambda x: x > 2 ** 63, lambda x: 2 ** 64 - 1 > x])]:
        for f in fns:
            want = f(a)
            got = np.asarray(xnp.jit(f)(xnp.asarray(a)))
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype
    with pytest.raises(OverflowError):
        xnp.jit(lambda x: x + 2 ** 63)(xnp.asarray(i))


def test_histogram_of_unsigned_data_with_a_negative_range_under_jit():
    a = np.array([1, 0, 1, 200], dtype=np.uint8)
    counts, edges = xnp.jit(lambda x: xnp.histogram(x, bins=3, range=(-5.5, 300)))(xnp.asarray(a))
    ref = np.histogram(a, bins=3, range=(-5.5, 300))
    np.testing.assert_array_equal(counts, ref[0])
    np.testing.assert_allclose(edges, ref[1])


def test_python_int_out_of_range_for_an_integer_array_raises_overflow_error_under_jit():
    # NumPy raises OverflowError for uint8_array + 300 (the int does not fit the array's
    # dtype); staged under jit the literal must not silently wrap instead.
    a = xnp.asarray(np.array([0, 1, 200], dtype=np.uint8))
    for f in [lambda x: x + 300, lambda x: x * -1, lambda x: xnp.maximum(x, 2 ** 33),
              lambda x: x // -1, lambda x: xnp.fmod(x, -3)]:
        with pytest.raises(OverflowError, match="out of bounds for uint8"):
            f(np.asarray(a))
        with pytest.raises(OverflowError, match="out of bounds for uint8"):
            xnp.jit(f)(a)
    np.testing.assert_array_equal(xnp.jit(lambda x: x + 55)(a), np.array([55, 56, 255]))
    np.testing.assert_array_equal(xnp.jit(lambda x: x * 2.5)(a), np.array([0, 2.5, 500]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_power_with_a_scalar_exponent_one_half_under_jit_and_vmap(dtype):
    # NumPy's float32/float64 power loops compute sqrt for a scalar exponent 0.5:
    # (-0.0) ** 0.5 is -0.0 and (-inf) ** 0.5 is NaN, where C's pow gives 0.0 and inf.
    x = np.array([-np.inf, -0.0, 4.0, np.inf, -4.0, 0.0, 2.0], dtype=dtype)
    for y in (0.5, np.float64(0.5), np.float32(0.5), np.array(0.5), 0.25):
        with np.errstate(invalid="ignore"):
            want = np.power(x, y)
        for got in (xnp.jit(lambda v: xnp.power(v, y))(x),
                    xnp.vmap(lambda v: xnp.power(v, y))(x[None])[0]):
            got = np.asarray(got)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
            zero = want == 0
            np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))
    np.testing.assert_allclose(xnp.jit(xnp.grad(lambda v: xnp.power(v, 0.5)))(4.0), 0.25)


def test_integer_power_errors_and_boolean_square_under_jit():
    # Integers to negative integer powers raise NumPy's ValueError (uint8 ** -1 its
    # OverflowError) also when staged; bool ** 2 is NumPy's square, int8.
    for a in (np.array([1, 4]), np.array([1, 4], np.int8), np.array([True, False])):
        for f in (lambda x: x ** -1, lambda x: xnp.power(x, np.array([-1, 2]))):
            with pytest.raises(ValueError, match="negative integer powers"):
                xnp.jit(f)(a)
    with pytest.raises(OverflowError):
        xnp.jit(lambda x: x ** -1)(np.array([1, 4], np.uint8))
    b = np.array([True, False])
    for got in (xnp.asarray(b) ** 2, xnp.jit(lambda x: x ** 2)(b)):
        assert np.asarray(got).dtype == (b ** 2).dtype == np.int8
        np.testing.assert_array_equal(got, b ** 2)
    np.testing.assert_array_equal(xnp.jit(lambda x: x ** 3)(np.array([2, 3])), [8, 27])
