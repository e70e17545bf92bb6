"""vmap semantics: axes specifications, nesting, keyword arguments, errors, collectives,
and compositions with grad, all against Python loops or NumPy definitions."""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from transforms.batching import BatchTrace

rng = np.random.default_rng(0)


def loop(f, *args, axis=0):
    return np.stack([np.asarray(f(*a)) for a in zip(*[np.moveaxis(x, axis, 0)
                                                       for x in args])])


def test_in_axes_out_axes_and_unmapped():
    x = rng.normal(size=(4, 3))
    y = rng.normal(size=3)
    f = lambda a, b: xnp.sin(a) * b + 1.0
    out = xnp.vmap(f, in_axes=(1, None), out_axes=1)(xnp.asarray(x.T), xnp.asarray(y))
    np.testing.assert_allclose(out, (np.sin(x) * y + 1.0).T)
    out = xnp.vmap(f, in_axes=(-1, None))(xnp.asarray(x.T), xnp.asarray(y))
    np.testing.assert_allclose(out, np.sin(x) * y + 1.0)
    out = xnp.vmap(lambda a: 2.0, in_axes=0)(xnp.asarray(x))
    np.testing.assert_array_equal(out, np.full(4, 2.0))


def test_pytree_axes_and_kwargs():
    params = {"w": xnp.asarray(rng.normal(size=(5, 3))), "b": xnp.asarray(rng.normal(size=3))}

    def f(p, x, scale=1.0):
        return xnp.sum(p["w"] * x + p["b"], axis=-1) * scale

    xs = xnp.asarray(rng.normal(size=(7, 5, 3)))
    out = xnp.vmap(f, in_axes=({"w": None, "b": None}, 0))(params, xs)
    expected = np.stack([np.asarray(f(params, x)) for x in np.asarray(xs)])
    np.testing.assert_allclose(out, expected)
    scales = xnp.asarray(np.arange(7.0))
    out = xnp.vmap(f, in_axes=(None, 0))(params, xs, scale=scales)
    np.testing.assert_allclose(out, expected * np.arange(7.0)[:, None])


def test_axis_size_with_all_unmapped():
    out = xnp.vmap(lambda x: x + 1.0, in_axes=None, axis_size=3)(xnp.asarray(2.0))
    np.testing.assert_array_equal(out, [3.0, 3.0, 3.0])


def test_nested_vmap_over_different_axes():
    x = rng.normal(size=(3, 4, 5))
    f = lambda v: xnp.sum(xnp.sin(v))
    out = xnp.vmap(xnp.vmap(f, in_axes=1), in_axes=0)(xnp.asarray(x))
    np.testing.assert_allclose(out, np.sin(x).sum(axis=1))


def test_errors():
    with pytest.raises(ValueError, match="inconsistent sizes"):
        xnp.vmap(lambda a, b: a + b)(xnp.asarray(np.ones(3)), xnp.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="rank"):
        xnp.vmap(lambda a: a, in_axes=2)(xnp.asarray(np.ones((2, 3))))
    with pytest.raises(ValueError, match="in_axes"):
        xnp.vmap(lambda a, b: a, in_axes=(0,))(xnp.asarray(np.ones(2)), 1.0)
    with pytest.raises(ValueError, match="out_axes"):
        xnp.vmap(lambda a: a, out_axes=None)(xnp.asarray(np.ones(2)))
    with pytest.raises(NameError, match="unbound axis name"):
        xnp.vmap(lambda a: xnp.lax.psum(a, "j"), axis_name="i")(xnp.asarray(np.ones(2)))
    with pytest.raises(ValueError, match="non-None"):
        xnp.vmap(lambda a: a, in_axes=None)(xnp.asarray(np.ones(2)))


def test_collectives_match_numpy():
    x = rng.normal(size=(5, 3))
    v = lambda f: xnp.vmap(f, axis_name="batch")(xnp.asarray(x))
    np.testing.assert_allclose(v(lambda r: xnp.lax.psum(r, "batch")),
                               np.broadcast_to(x.sum(0), x.shape))
    np.testing.assert_allclose(v(lambda r: r - xnp.lax.pmean(r, "batch")), x - x.mean(0))
    np.testing.assert_allclose(v(lambda r: xnp.lax.pmax(r, "batch")),
                               np.broadcast_to(x.max(0), x.shape))
    np.testing.assert_allclose(v(lambda r: xnp.lax.pmin(r, "batch")),
                               np.broadcast_to(x.min(0), x.shape))
    np.testing.assert_allclose(v(lambda r: xnp.lax.all_gather(r, "batch")),
                               np.broadcast_to(x, (5, 5, 3)))
    np.testing.assert_array_equal(v(lambda r: xnp.lax.axis_index("batch") + 0 * r[0]),
                                  np.arange(5))


def test_batch_norm_and_per_example_clipping():
    x = rng.normal(size=(8, 4))

    def normalise(r):
        mean = xnp.lax.pmean(r, "b")
        var = xnp.lax.pmean((r - mean) ** 2, "b")
        return (r - mean) / xnp.sqrt(var + 1e-5)

    out = xnp.vmap(normalise, axis_name="b")(xnp.asarray(x))
    np.testing.assert_allclose(out, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5), rtol=1e-12)

    w = rng.normal(size=4)
    loss = lambda w, r: (xnp.sum(w * r) - 1.0) ** 2

    def clipped(w, r):
        g = xnp.grad(loss)(w, r)
        norm = xnp.sqrt(xnp.sum(g ** 2))
        return g * xnp.minimum(1.0, 0.5 / norm)

    out = xnp.vmap(clipped, in_axes=(None, 0))(xnp.asarray(w), xnp.asarray(x))
    expected = []
    for r in x:
        g = 2 * (w @ r - 1.0) * r
        expected.append(g * min(1.0, 0.5 / np.linalg.norm(g)))
    np.testing.assert_allclose(out, np.stack(expected), rtol=1e-12)


def test_per_example_gradients_and_grad_of_vmap():
    w = rng.normal(size=6)
    xs, ys = rng.normal(size=(9, 6)), rng.normal(size=9)
    loss = lambda w, x, y: (xnp.tanh(xnp.sum(w * x)) - y) ** 2
    per_ex = xnp.vmap(xnp.grad(loss), in_axes=(None, 0, 0))(
        xnp.asarray(w), xnp.asarray(xs), xnp.asarray(ys))
    expected = np.stack([np.asarray(xnp.grad(loss)(xnp.asarray(w), xnp.asarray(x), y))
                         for x, y in zip(xs, ys)])
    np.testing.assert_allclose(per_ex, expected, rtol=1e-12)
    total = lambda w: xnp.sum(xnp.vmap(loss, in_axes=(None, 0, 0))(
        w, xnp.asarray(xs), xnp.asarray(ys)))
    np.testing.assert_allclose(xnp.grad(total)(xnp.asarray(w)), expected.sum(0), rtol=1e-12)


def test_custom_rules_survive_vmap():
    @xnp.custom_jvp
    def f(x):
        return xnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), 7.0 * t

    xs = xnp.asarray(np.array([0.1, 0.2, 0.3]))
    np.testing.assert_allclose(xnp.vmap(xnp.grad(f))(xs), [7.0] * 3)
    np.testing.assert_allclose(xnp.grad(lambda v: xnp.sum(xnp.vmap(f)(v)))(xs), [7.0] * 3)

    @xnp.custom_vjp
    def g(x):
        return x * 2.0

    g.defvjp(lambda x: (x * 2.0, None), lambda res, ct: (ct * 10.0,))
    np.testing.assert_allclose(xnp.vmap(xnp.grad(g))(xs), [10.0] * 3)
    np.testing.assert_allclose(xnp.grad(lambda v: xnp.sum(xnp.vmap(g)(v)))(xs), [10.0] * 3)


def test_inplace_code_batches():
    def f(v, i):
        a = xnp.zeros(4)
        a[i] = v * 2
        a[1:] += v
        return a

    vs = np.array([1.0, 2.0, 3.0])
    idx = np.array([0, 2, 3])
    out = xnp.vmap(f)(xnp.asarray(vs), xnp.asarray(idx))
    np.testing.assert_allclose(out, loop(lambda v, i: f(xnp.asarray(v), int(i)), vs, idx))


def test_jacobians_through_vmap_agree():
    f = lambda x: xnp.sin(x) * xnp.sum(x ** 2)
    x = xnp.asarray(rng.normal(size=4))
    np.testing.assert_allclose(xnp.jacfwd(f)(x), xnp.jacrev(f)(x), rtol=1e-12)
    h = xnp.hessian(lambda x: xnp.sum(xnp.sin(x) * x[0]))(x)
    np.testing.assert_allclose(h, np.asarray(h).T, rtol=1e-12)


def test_batch_trace_is_used():
    seen = []
    xnp.vmap(lambda a: seen.append(type(a._value._trace)) or a)(xnp.asarray(np.ones(2)))
    assert seen == [BatchTrace]


# --- found by running JAX's batching_test against xnp -------------------------------------

def test_collectives_over_a_tuple_of_axis_names():
    x = rng.normal(size=(2, 3))
    inner = lambda v: (xnp.lax.psum(v, ("i", "j")), xnp.lax.pmax(v, ("j",)),
                       xnp.lax.pmean(v, ("j", "i")), xnp.lax.axis_index(("i", "j")),
                       xnp.lax.axis_index(("j", "i")), xnp.lax.psum(v, ()))
    s, m, mean, ij, ji, same = xnp.vmap(xnp.vmap(inner, axis_name="j"), axis_name="i")(x)
    np.testing.assert_allclose(s, np.full((2, 3), x.sum()))
    np.testing.assert_allclose(m, np.repeat(x.max(axis=1, keepdims=True), 3, axis=1))
    np.testing.assert_allclose(mean, np.full((2, 3), x.mean()))
    np.testing.assert_array_equal(ij, [[0, 1, 2], [3, 4, 5]])     # i * 3 + j
    np.testing.assert_array_equal(ji, [[0, 2, 4], [1, 3, 5]])     # j * 2 + i
    np.testing.assert_allclose(same, x)
    # x - psum over both axes, differentiated: check_grads against finite differences
    from transforms.test_util import check_grads
    f = xnp.vmap(xnp.vmap(lambda v: v * xnp.lax.psum(v, ("i", "j")), axis_name="j"),
                 axis_name="i")
    check_grads(f, (x,), order=2)


def test_all_gather_of_an_outer_axis_and_its_vjp():
    x = np.arange(15.0).reshape(3, 5)
    gather = lambda name: (lambda v: xnp.lax.all_gather(v, name))
    # the inner vmap (over j) gathers along the outer axis i: each element sees its column
    res = xnp.vmap(xnp.vmap(gather("i"), axis_name="j"), axis_name="i", out_axes=None)(x)
    np.testing.assert_allclose(res, x.T)
    res = xnp.vmap(xnp.vmap(gather("i"), axis_name="i", out_axes=None), axis_name="j")(x)
    np.testing.assert_allclose(res, x)
    # vjp: member i's cotangent is the sum over members of their cotangents' row i
    y_bar = rng.normal(size=(3, 3, 5))
    x_bar, = xnp.vmap(lambda v, c: xnp.vjp(gather("i"), v)[1](c), axis_name="i")(x, y_bar)
    np.testing.assert_allclose(x_bar, y_bar.sum(axis=0))


def test_axes_specifications_must_be_ints_or_none():
    # a bool is not an axis (True would otherwise map axis 1); nor is an array
    x = np.ones((2, 3))
    for bad in (True, (False,), (np.array([0, 1]),), {"a": 1.0}):
        with pytest.raises(TypeError, match="in_axes must be an int, None"):
            xnp.vmap(lambda a: a, in_axes=bad)
    with pytest.raises(TypeError, match="out_axes must be an int, None"):
        xnp.vmap(lambda a: a, out_axes=(True,))
    np.testing.assert_allclose(xnp.vmap(lambda a: a.sum(), in_axes=[1])(x), x.sum(axis=0))
    with pytest.raises(ValueError, match="tree prefix"):
        xnp.vmap(lambda a: a, in_axes=([0],))(x)       # a list where an array is


def test_in_place_write_to_an_unmapped_argument_leaves_the_callers_array_alone():
    # As under jit, fun gets its own handle on an unmapped array: writing a batched value
    # into it must not rebind (and leak a tracer into) the caller's array.
    def f(a, x):
        a[0] = x
        return a * 2.0

    a = xnp.zeros(3)
    out = xnp.vmap(f, in_axes=(None, 0))(a, xnp.asarray([1.0, 2.0]))
    np.testing.assert_array_equal(out, [[2.0, 0, 0], [4.0, 0, 0]])
    np.testing.assert_array_equal(a, np.zeros(3))
    out = xnp.vmap(lambda d, x: f(d["a"], x), in_axes=({"a": None}, 0))(
        {"a": a}, xnp.asarray([3.0]))
    np.testing.assert_array_equal(out, [[6.0, 0, 0]])
    np.testing.assert_array_equal(a + 1.0, np.ones(3))      # still a usable array
