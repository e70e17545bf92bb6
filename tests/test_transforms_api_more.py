"""custom_gradient, closure_convert, jacobian, block_until_ready, device_put/device_get,
named_call/named_scope, ensure_compile_time_eval and tree_util.Partial, against analytic
values, NumPy and (where installed) JAX."""

import functools

import numpy
import pytest

import transforms
import xnp as np
from transforms.tree_util import Partial

# --- custom_gradient ----------------------------------------------------------------------


@transforms.custom_gradient
def _square(x):
    # the hand rule is deliberately not the true derivative 2x
    return x ** 2, lambda g: (g * x,)


@transforms.custom_gradient
def _times(x, y):
    return x * y, lambda g: (g * y * 10.0, g * x)


def test_custom_gradient_values_and_rule():
    assert float(_square(3.0)) == 9.0
    assert float(np.grad(_square)(3.0)) == 3.0
    gx, gy = np.grad(_times, argnums=(0, 1))(3.0, 4.0)
    assert (float(gx), float(gy)) == (40.0, 3.0)
    x = numpy.array([1.0, 2.0, 3.0])
    out, vjp_fn = np.vjp(_square, x)
    numpy.testing.assert_allclose(out, x ** 2)
    (ct,) = vjp_fn(numpy.array([1.0, 0.5, 2.0]))
    numpy.testing.assert_allclose(ct, numpy.array([1.0, 0.5, 2.0]) * x)


def test_custom_gradient_jit_vmap_and_nested():
    x = numpy.array([0.5, 1.5, -2.0])
    numpy.testing.assert_allclose(np.jit(np.grad(_square))(3.0), 3.0)
    numpy.testing.assert_allclose(np.grad(np.jit(_square))(3.0), 3.0)
    numpy.testing.assert_allclose(np.vmap(np.grad(_square))(x), x)
    numpy.testing.assert_allclose(np.jit(np.vmap(np.grad(_square)))(x), x)
    numpy.testing.assert_allclose(np.jacobian(np.vmap(_square))(x), numpy.diag(x))
    # grad of grad differentiates the rule g * x in x (as in JAX: 1, not 2)
    numpy.testing.assert_allclose(np.grad(np.grad(_square))(3.0), 1.0)
    numpy.testing.assert_allclose(np.jit(np.grad(np.grad(_square)))(3.0), 1.0)
    with pytest.raises(TypeError):
        np.jvp(_square, (1.0,), (1.0,))


def test_custom_gradient_closure_pytrees_and_bare_cotangent():
    @transforms.custom_gradient
    def f(x, scale=2.0):
        s = np.sin(x)
        return {"a": scale * s.sum(), "b": s}, lambda g: (g["a"] * np.cos(x) * 7.0 + g["b"],)

    x = numpy.array([0.1, 0.2, 0.3])
    value = f(x, scale=3.0)
    numpy.testing.assert_allclose(value["a"], 3.0 * numpy.sin(x).sum())
    got = np.grad(lambda x: f(x)["a"] + f(x)["b"].sum())(x)
    numpy.testing.assert_allclose(got, numpy.cos(x) * 7.0 + 1.0)

    @transforms.custom_gradient
    def h(x):
        return np.sum(np.sin(x)), lambda g: g * np.cos(x) * np.arange(3.0, 6.0)
    numpy.testing.assert_allclose(np.grad(h)(x), numpy.cos(x) * numpy.arange(3.0, 6.0))


def test_custom_gradient_matches_jax():
    jax = pytest.importorskip("jax")

    def make(api, mod):
        @api.custom_gradient
        def f(x):
            y = mod.tanh(x)
            return mod.sum(y * x), lambda g: (g * (1.0 - y ** 2) * 3.0,)
        return f
    x = numpy.linspace(-1.0, 1.0, 5).astype(numpy.float32)
    fj, fx = make(jax, jax.numpy), make(transforms, np)
    numpy.testing.assert_allclose(np.grad(fx)(x), numpy.asarray(jax.grad(fj)(x)), rtol=1e-5)
    numpy.testing.assert_allclose(np.jit(np.grad(fx))(x),
                                  numpy.asarray(jax.jit(jax.grad(fj))(x)), rtol=1e-5)
    want = jax.grad(lambda x: jax.grad(lambda x: fj(x * x))(x).sum())(x)
    got = np.grad(lambda x: np.grad(lambda x: fx(x * x))(x).sum())(x)
    numpy.testing.assert_allclose(got, numpy.asarray(want), rtol=1e-5, atol=1e-6)


def test_custom_gradient_with_logs_unsupported():
    with pytest.raises(NotImplementedError):
        transforms.custom_gradient(lambda x: (x, lambda g: (g,)), with_logs=True)


# --- closure_convert ----------------------------------------------------------------------


@functools.partial(transforms.custom_vjp, nondiff_argnums=(0,))
def _cos_after(fn, x, *args):
    return np.cos(fn(x, *args))


def _cos_after_fwd(fn, x, *args):
    return _cos_after(fn, x, *args), (x, args)


def _cos_after_bwd(fn, res, g):
    x, args = res
    return (17.0 * x, *[42.0 * a for a in args])


_cos_after.defvjp(_cos_after_fwd, _cos_after_bwd)


def _cos_after_closure(fn, x, hoisted_counts):
    converted, hoisted = np.closure_convert(fn, x)
    hoisted_counts.append(len(hoisted))
    return _cos_after(converted, x, *hoisted)


def test_closure_convert_hoists_traced_closure_values():
    counts = []

    def solve(c, s, x):
        return _cos_after_closure(lambda x: np.sum(s * (x - c) ** 2.0), x, counts)

    c, s, x = 2.0 * numpy.ones(2), 3.0 * numpy.ones(2), numpy.ones(2)
    numpy.testing.assert_allclose(solve(c, s, x), numpy.cos(numpy.sum(s * (x - c) ** 2)))
    assert counts[-1] == 0          # nothing traced: nothing hoisted
    for grad in (np.grad(solve, argnums=(0, 2)), np.jit(np.grad(solve, argnums=(0, 2))),
                 np.grad(np.jit(solve), argnums=(0, 2))):
        g_c, g_x = grad(c, s, x)
        numpy.testing.assert_allclose(g_c, 42.0 * c)   # bwd's rule for the hoisted c
        numpy.testing.assert_allclose(g_x, 17.0 * x)
    g_c, _ = np.grad(solve, argnums=(0, 2))(c, s, x)
    assert counts[-1] >= 1


def test_closure_convert_function_and_structure_check():
    def f(x, z):
        return z * x
    _, vjp_fn = np.vjp(f, 2.0, 3.0)
    converted, hoisted = np.closure_convert(vjp_fn, 2.0)
    assert [float(v) for v in converted(2.0, *hoisted)] == [6.0, 4.0]
    with pytest.raises(TypeError, match="same pytree structure"):
        converted(2.0, [1.0])
    a = numpy.arange(3.0)
    conv, hoisted = np.closure_convert(lambda t: {"y": t["x"] * a}, {"x": a})
    assert hoisted == []
    numpy.testing.assert_allclose(conv({"x": a + 1.0})["y"], (a + 1.0) * a)


# --- small API pieces ---------------------------------------------------------------------


def test_jacobian_is_jacrev():
    assert np.jacobian is np.jacrev is transforms.jacobian
    x = numpy.array([0.3, 0.7])
    numpy.testing.assert_allclose(np.jacobian(np.sin)(x), numpy.diag(numpy.cos(x)))


def test_block_until_ready_device_put_get():
    class Waits:
        waited = 0

        def block_until_ready(self):
            Waits.waited += 1
            return self
    tree = {"a": np.arange(3.0), "b": [Waits(), 1, None]}
    assert np.block_until_ready(tree) is tree and Waits.waited == 1

    src = numpy.arange(4.0)
    put = np.device_put(src)
    assert type(put) is np.ndarray
    src[0] = 99.0                   # a copy, as a transfer is
    numpy.testing.assert_array_equal(put, numpy.arange(4.0))
    assert np.device_put(put) is put
    leaves = np.device_put({"i": 1, "f": [numpy.float32(2.0)]})
    assert type(leaves["i"]) is np.ndarray and leaves["i"].dtype == numpy.int64
    assert leaves["f"][0].dtype == numpy.float32 and leaves["f"][0].shape == ()
    with pytest.raises(TypeError):
        np.device_put("text")
    numpy.testing.assert_allclose(np.jit(lambda x: np.device_put(x) * 2.0)(put),
                                  2.0 * numpy.arange(4.0))
    numpy.testing.assert_allclose(np.grad(lambda x: np.device_put(x) ** 2)(3.0), 6.0)

    got = np.device_get({"a": put, "b": 1, "c": "s"})
    assert type(got["a"]) is numpy.ndarray and got["b"] == 1 and got["c"] == "s"
    numpy.testing.assert_array_equal(got["a"], numpy.arange(4.0))


def test_named_call_and_named_scope_are_transparent():
    @np.named_scope("layer")
    def layer(w, x):
        with np.named_scope("dot"):
            y = w * x
        return np.tanh(y).sum()
    named = np.named_call(layer, name="my_layer")
    assert np.named_call(layer).__name__ == "layer"
    w, x = numpy.array([0.5, -1.0]), numpy.array([1.0, 2.0])
    want_grad = x * (1.0 - numpy.tanh(w * x) ** 2)
    numpy.testing.assert_allclose(named(w, x), numpy.tanh(w * x).sum())
    numpy.testing.assert_allclose(np.grad(named)(w, x), want_grad)
    numpy.testing.assert_allclose(np.jit(np.grad(named))(w, x), want_grad)
    numpy.testing.assert_allclose(np.vmap(named, in_axes=(None, 0))(w, numpy.stack([x, x])),
                                  [numpy.tanh(w * x).sum()] * 2)
    with pytest.raises(TypeError):
        np.named_scope(3)


def test_ensure_compile_time_eval_inside_jit():
    seen = {}

    @np.jit
    def f(x):
        with np.ensure_compile_time_eval():
            y = np.sin(3.0)
            positive = np.sin(y) > 0
            table = np.arange(4.0) * 2.0
            staged = x * 2.0                   # traced: still staged
        seen["table"] = type(table), type(table._value)
        seen["staged"] = type(staged._value)
        if positive:                            # concrete: Python control flow works
            return np.sin(staged) + table.sum()
        return np.cos(x)

    numpy.testing.assert_allclose(f(1.0), numpy.sin(2.0) + 12.0)
    assert seen["table"] == (np.ndarray, numpy.ndarray)
    assert issubclass(seen["staged"], transforms.Tracer)
    eqns = [e.prim.name for e in np.make_jaxpr(f)(1.0).eqns[0].params["jaxpr"].eqns]
    assert "iota" not in eqns and eqns.count("sin") == 1 and eqns.count("mul") == 1
    with np.ensure_compile_time_eval():         # eagerly: no change
        numpy.testing.assert_allclose(np.sin(1.0), numpy.sin(1.0))


# --- tree_util.Partial --------------------------------------------------------------------


def test_partial_as_jit_argument_without_retracing():
    traces = []

    @np.jit
    def call(fn, y):
        traces.append(1)
        return fn(y)

    def g(a, y, scale=1.0):
        return scale * a * np.sin(y)
    x = numpy.arange(3.0)
    numpy.testing.assert_allclose(call(Partial(g, x, scale=2.0), 0.5),
                                  2.0 * x * numpy.sin(0.5))
    numpy.testing.assert_allclose(call(Partial(g, x + 1.0, scale=3.0), 0.5),
                                  3.0 * (x + 1.0) * numpy.sin(0.5))
    assert len(traces) == 1           # same function, arguments of the same types

    p = Partial(g, x, scale=2.0)
    leaves, tree = transforms.tree_flatten(p)
    assert len(leaves) == 2 and tree.unflatten(leaves)(0.5).shape == (3,)
    # a functools.partial as the function keeps its own arguments out of the pytree
    inner = Partial(functools.partial(g, scale=5.0), x)
    assert transforms.tree_leaves(inner) == [x] and inner.func.keywords == {"scale": 5.0}
    numpy.testing.assert_allclose(call(inner, 0.5), 5.0 * x * numpy.sin(0.5))
    # its arguments are differentiated and batched as leaves
    grads = np.grad(lambda p: p(0.5).sum())(Partial(g, x))
    numpy.testing.assert_allclose(grads.args[0], numpy.full(3, numpy.sin(0.5)))
    batched = np.vmap(lambda p: p(0.5))(Partial(g, numpy.ones((2, 3))))
    numpy.testing.assert_allclose(batched, numpy.full((2, 3), numpy.sin(0.5)))
