"""jit: caching, static arguments, lowering text, errors, and composition with grad and vmap
(each checked against eager evaluation or finite differences)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from collections import namedtuple

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
from transforms.tree import tree_flatten

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


# --- the C++ dispatch fast path ------------------------------------------------------------

Pair = namedtuple("Pair", "first second")


def _count_python_lookups(f):
    """Count how often a jitted function's Python path looks a signature up."""
    count = [0]
    lookup = f._lookup

    def counted(args, kwargs):
        count[0] += 1
        return lookup(args, kwargs)
    f._lookup = counted
    return count


def _assert_same(got, want, rtol=0.0):
    got_leaves, got_tree = tree_flatten(got)
    want_leaves, want_tree = tree_flatten(want)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        assert isinstance(g, xnp.ndarray)
        assert g.dtype == np.asarray(w).dtype and g.shape == np.shape(w)
        if rtol:
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol)
        else:
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


FAST_CASES = [
    (lambda x, y: x * y + 1.0, (RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)))),
    (lambda x, y: (x + y, x - y), (np.arange(4, dtype=np.int32), np.ones(4, np.int32))),
    (lambda x, y: {"s": x.sum(), "p": Pair(x * y, None), "l": [y]},
     (np.arange(3.0), np.full(3, 2.0))),
    (lambda x, y: x & y, (np.array([True, False, True]), np.array([True, True, False]))),
    (lambda x, y: x * y, (np.array(2.0 + 1j), np.array([1j, 2.0], np.complex128))),
    (lambda x, y: x + y, (np.float32(1.5), np.zeros((2, 0), np.float32))),
    (lambda x, y: x * y, (np.arange(3.0), 2.5)),                       # a Python scalar
    (lambda x, y: xnp.stack([x, y]), (np.uint8([1, 2]), np.uint8([250, 3]))),
]


@pytest.mark.parametrize("case", range(len(FAST_CASES)))
def test_fast_path_matches_the_python_path(case):
    fun, args = FAST_CASES[case]
    f = xnp.jit(fun)
    want = f._call(args, {})                       # the Python path
    _assert_same(want, fun(*[xnp.asarray(a) for a in args]), rtol=1e-15)   # eager
    lookups = _count_python_lookups(f)
    for _ in range(3):
        _assert_same(f(*args), want)
    # xnp arrays backed by XLA buffers (Python scalars stay: they are weakly typed)
    dev = [a if type(a) is float else xnp.jit(lambda v: v)(a) for a in args]
    for _ in range(3):
        _assert_same(f(*dev), want)
    assert f.trace_count == 1
    if runtime.dispatch_x64():
        assert lookups[0] <= 2                      # one miss per C++ signature, then C++


def test_fast_path_retraces_on_new_dtypes_and_shapes():
    f = xnp.jit(lambda x: x * 2)
    for _ in range(2):
        assert f(np.arange(3.0)).dtype == np.float64
    assert f.trace_count == 1
    out = f(np.arange(4.0))
    assert f.trace_count == 2 and out.shape == (4,)
    out = f(np.arange(3, dtype=np.float32))
    assert f.trace_count == 3 and out.dtype == np.float32
    out = f(np.arange(3))
    assert f.trace_count == 4 and out.dtype == np.int64
    np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert f.trace_count == 4
    np.testing.assert_array_equal(f(2.0), 4.0)       # weak scalar: its own signature
    assert f.trace_count == 5


def test_fast_path_reads_an_updated_value_not_a_stale_buffer():
    f = xnp.jit(lambda x: x + 1.0)
    out = f(np.zeros(3))
    for _ in range(2):
        np.testing.assert_array_equal(f(out), np.full(3, 2.0))
    out[1] = 5.0                                # the handle's value changes in place
    for _ in range(2):
        np.testing.assert_array_equal(f(out), [2.0, 6.0, 2.0])


def test_fast_path_inputs_are_not_aliased_into_results():
    f, ident = xnp.jit(lambda x: x * 1.0), xnp.jit(lambda x: (x, x))
    x = np.arange(8.0)
    outs = [f(x) for _ in range(3)] + [o for _ in range(3) for o in ident(x)]
    x[:] = -1.0
    for o in outs:
        np.testing.assert_array_equal(o, np.arange(8.0))


def test_fast_path_closed_over_constants():
    w = RNG.normal(size=3)
    big = RNG.normal(size=1000)                  # passed as a trailing argument
    f = xnp.jit(lambda x: x * w)
    g = xnp.jit(lambda x: x * big)
    for _ in range(3):
        np.testing.assert_array_equal(f(np.ones(3)), w)
        np.testing.assert_array_equal(g(np.ones(1000)), big)


def test_fast_path_errors_are_raised_every_time():
    f = xnp.jit(lambda x: xnp.reshape(x, (2, 3)))
    for _ in range(3):
        with pytest.raises(Exception, match="reshape|size|shape"):
            f(np.arange(5.0))
    np.testing.assert_array_equal(f(np.arange(6.0)), np.arange(6.0).reshape(2, 3))


def test_disable_jit_after_the_fast_path_is_warm():
    seen = []

    @xnp.jit
    def f(x):
        seen.append(type(x).__name__)
        return x * 2

    for _ in range(3):
        f(np.arange(3.0))
    assert len(seen) == 1
    with xnp.disable_jit():
        np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert len(seen) == 2
    np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert len(seen) == 2


def test_disable_jit_in_another_thread_leaves_this_one_compiled():
    f = xnp.jit(lambda x: x + 1)
    f(np.zeros(2))
    entered, release = threading.Event(), threading.Event()

    def other():
        with xnp.disable_jit():
            entered.set()
            release.wait(10)
    t = threading.Thread(target=other)
    t.start()
    entered.wait(10)
    try:
        before = f.trace_count
        np.testing.assert_array_equal(f(np.zeros(2)), np.ones(2))
        assert f.trace_count == before
    finally:
        release.set()
        t.join()


def test_fast_path_under_grad_and_vmap_uses_the_primitive():
    f = xnp.jit(lambda x: xnp.sin(x) * x)
    x = np.linspace(0.1, 1.0, 4)
    for _ in range(2):
        f(x)
    g = xnp.grad(lambda v: f(v).sum())(x)
    np.testing.assert_allclose(g, np.cos(x) * x + np.sin(x), rtol=1e-14)
    np.testing.assert_allclose(xnp.vmap(f)(x[:, None]), (np.sin(x) * x)[:, None],
                               rtol=1e-14)


def _run(code):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


_XNP_CHECK = (
    "def check_xnp():\n"
    "    f = xnp.jit(lambda v, w: v * 3.0 + w)\n"
    "    for _ in range(3):\n"
    "        a = f(x, x)\n"
    "        assert a.dtype == np.float64, a.dtype\n"
    "        np.testing.assert_array_equal(np.asarray(a), x * 4.0)\n"
    "        a = f(a, x)\n"
    "        np.testing.assert_array_equal(np.asarray(a), x * 13.0)\n"
    "    return f\n")


@needs_jax
def test_jax_imported_after_xnp_both_stay_correct():
    code = (
        "import numpy as np, sys, xnp\n"
        "x = np.array([1.0, 2.0 ** -40, 1e-300])\n" + _XNP_CHECK +
        "f = check_xnp()\n"
        "from transforms import runtime\n"
        "assert runtime.dispatch_x64() and 'jax' not in sys.modules\n"
        "import jax\n"
        "assert not runtime.dispatch_x64()            # jax's states, x64 off\n"
        "check_xnp()\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float32                 # jax's default is untouched\n"
        "with jax.disable_jit():\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "jax.config.update('jax_enable_x64', True)\n"
        "assert runtime.dispatch_x64()\n"
        "check_xnp()\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float64\n"
        "np.testing.assert_array_equal(np.asarray(b), x * 3.0)\n"
        "with jax.enable_x64(False) if hasattr(jax, 'enable_x64') else "
        "jax.experimental.disable_x64():\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n")
    _run(code)


@needs_jax
def test_jax_imported_before_xnp_both_stay_correct():
    code = (
        "import numpy as np, jax, xnp\n"
        "from transforms import runtime\n"
        "x = np.array([1.0, 2.0 ** -40, 1e-300])\n" + _XNP_CHECK +
        "f = check_xnp()\n"
        "assert not runtime.backend().owns_jit_states and not runtime.dispatch_x64()\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float32\n"
        "jax.config.update('jax_enable_x64', True)\n"
        "check_xnp()\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float64\n"
        "np.testing.assert_array_equal(np.asarray(b), x * 3.0)\n"
        "g = xnp.jit(lambda v: v + 1)\n"
        "for _ in range(3):\n"
        "    assert g(np.int32([1, 2])).dtype == np.int32\n"
        "big = np.array([2 ** 40], np.int64)\n"
        "with jax.enable_x64(False):                  # thread-local, in the C++ key\n"
        "    for _ in range(3):\n"
        "        out = g(big)\n"
        "        assert out.dtype == np.int64 and int(out[0]) == 2 ** 40 + 1\n"
        "        np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "jax.config.update('jax_enable_x64', False)\n"
        "check_xnp()\n"
        "assert g(big).dtype == np.int64 and int(g(big)[0]) == 2 ** 40 + 1\n"
        "assert jax.jit(lambda v: v * 3.0)(x).dtype == np.float32\n")
    _run(code)


@needs_jax
def test_device_inputs_take_the_fast_path_with_jax_x64_off():
    code = (
        "import numpy as np, jax, xnp\n"
        "from transforms import jit as _, runtime\n"
        "import sys\n"
        "J = sys.modules['transforms.jit']\n"
        "runs = [0]\n"
        "run = J._Entry.run\n"
        "def counted(self, *a, **k):\n"
        "    runs[0] += 1\n"
        "    return run(self, *a, **k)\n"
        "J._Entry.run = counted\n"
        "x = np.array([1.0, 2.0 ** -40, 1e-300])\n"
        "f = xnp.jit(lambda v, w: v * 3.0 + w)\n"
        "d = f(x, x)\n"
        "assert not runtime.dispatch_x64()\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(d, d)), x * 16.0)\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "    np.testing.assert_array_equal(np.asarray(f(np.float32(x), np.float32(x))),\n"
        "                                  np.float32(x) * 4)\n"
        "before = runs[0]\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(d, d)), x * 16.0)\n"
        "assert runs[0] == before, (runs, before)     # C++ ran it: no Python run\n"
        "for _ in range(2):\n"
        "    assert f(x, x).dtype == np.float64\n"
        "assert runs[0] == before + 2                # NumPy inputs: the Python path\n")
    _run(code)


def test_fast_path_with_registered_pytree_nodes():
    import dataclasses
    from collections import OrderedDict, defaultdict

    from transforms.tree import register_dataclass

    f = xnp.jit(lambda d: OrderedDict(z=d["b"] * 2, a=d["a"] + 1))
    arg = OrderedDict(b=np.arange(3.0), a=np.ones(2))
    want = f._call((arg,), {})
    for _ in range(3):
        got = f(arg)
        assert type(got) is OrderedDict and list(got) == ["z", "a"]
        _assert_same(got, want)

    g = xnp.jit(lambda d: d["k"] * 3)
    dd = defaultdict(list, k=np.arange(2))
    for _ in range(3):
        np.testing.assert_array_equal(g(dd), np.arange(2) * 3)

    @dataclasses.dataclass
    class Params:                      # registered after the dispatchers above exist
        w: object
        scale: float = dataclasses.field(default=1.0, metadata={"static": True})

    register_dataclass(Params)
    h = xnp.jit(lambda p, x: Params(p.w * x * p.scale, p.scale))
    lookups = _count_python_lookups(h)
    for scale in (1.0, 2.0):
        p = Params(np.arange(3.0), scale)
        for _ in range(3):
            out = h(p, np.full(3, 2.0))
            assert type(out) is Params and out.scale == scale
            np.testing.assert_array_equal(out.w, np.arange(3.0) * 2 * scale)
    assert h.trace_count == 2
    if runtime.dispatch_x64():
        assert lookups[0] <= 4


def test_fast_path_from_several_threads():
    f = xnp.jit(lambda x, y: x * y + 1)
    errors = []

    def work(k):
        try:
            for i in range(60):
                x = np.full(3 + i % 3, float(k))
                r = f(x, x)
                np.testing.assert_array_equal(r, x * x + 1)
                np.testing.assert_array_equal(f(r, x), (x * x + 1) * x + 1)
                if i % 20 == 0:
                    with xnp.disable_jit():
                        np.testing.assert_array_equal(f(x, x), x * x + 1)
        except Exception as e:          # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:2]
    assert f.trace_count >= 3          # first calls may race to trace a signature


def test_fast_path_with_static_argnums():
    f = xnp.jit(lambda x, shape, k: xnp.reshape(x, shape) * k, static_argnums=(1, 2))
    lookups = _count_python_lookups(f)
    x = np.arange(6.0)
    for _ in range(3):
        for shape in ((2, 3), (3, 2)):
            np.testing.assert_array_equal(f(x, shape, 2), x.reshape(shape) * 2)
    assert f.trace_count == 2
    if runtime.dispatch_x64():
        # the first call creates the dispatcher on the Python path; then one C++ miss
        # per signature, and C++ alone afterwards
        assert lookups[0] <= 3
    np.testing.assert_array_equal(f(x, (2, 3), 2.5), x.reshape(2, 3) * 2.5)
    assert f.trace_count == 3
    with pytest.raises(ValueError, match="convert lists to tuples"):
        f(x, [2, 3], 1)
    with pytest.raises(TypeError, match="positional arguments"):
        f(x, (2, 3))
