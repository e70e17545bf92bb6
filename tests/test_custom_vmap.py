"""``transforms.custom_vmap`` (JAX's ``jax.custom_batching.custom_vmap``) and
``sequential_vmap``. Oracles: Python loops over the batch, a counter showing that the
rule runs, finite differences for derivatives, and JAX itself (x64) on the same
programs."""

from __future__ import annotations

import numpy as np
import pytest
from jax_subprocess import jax_results, needs_jax

import transforms
import xnp
from transforms import custom_vjp, grad, jacfwd, jit, jvp, linearize, make_jaxpr, vjp, vmap
from transforms.custom_batching import custom_vmap, sequential_vmap


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


def fd(f, x, eps=1e-6):
    return (f(x + eps) - f(x - eps)) / (2 * eps)


def sin_with_cos_rule(log=None):
    """sin, whose batching rule (deliberately) computes cos instead."""
    @custom_vmap
    def f(x):
        return xnp.sin(x)

    @f.def_vmap
    def rule(axis_size, in_batched, xs):
        if log is not None:
            log.append((axis_size, in_batched))
        return xnp.cos(xs), in_batched[0]
    return f


def test_module_attribute_and_top_level_name():
    assert transforms.custom_vmap is custom_vmap
    assert transforms.custom_batching.sequential_vmap is sequential_vmap


def test_vmap_runs_the_rule_eager_and_jit_run_the_function():
    log: list = []
    f = sin_with_cos_rule(log)
    xs = np.array([0.1, 0.7, 2.0])
    close(f(0.7), np.sin(0.7))
    close(jit(f)(0.7), np.sin(0.7))
    assert log == []
    close(vmap(f)(xnp.asarray(xs)), [np.cos(x) for x in xs])
    assert log == [(3, [True])] and type(log[0][0]) is int and type(log[0][1]) is list
    close(jit(vmap(f))(xnp.asarray(xs)), np.cos(xs))
    close(vmap(jit(f))(xnp.asarray(xs)), np.cos(xs))
    close(vmap(f, in_axes=1)(xnp.asarray(np.stack([xs, xs]))), np.cos(np.stack([xs, xs])).T)
    assert "custom_vmap_call" in str(make_jaxpr(f)(0.5))
    # nothing batched: the function itself, the rule is not called
    n = len(log)
    close(vmap(f, in_axes=None, axis_size=3)(0.5), np.full(3, np.sin(0.5)))
    assert len(log) == n


def test_mixed_batching_of_two_arguments_against_a_loop():
    seen: list = []

    @custom_vmap
    def dot(u, v):
        assert u.ndim == v.ndim == 1
        return u @ v

    @dot.def_vmap
    def rule(axis_size, in_batched, u, v):
        seen.append(list(in_batched))
        ub, vb = in_batched
        if ub and vb:
            return xnp.sum(u * v, axis=1), True
        return (u @ v if ub else v @ u), ub or vb

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal(3)
    close(vmap(dot, in_axes=(0, None))(xnp.asarray(a), xnp.asarray(b)), [r @ b for r in a])
    close(vmap(dot, in_axes=(1, None))(xnp.asarray(a.T), xnp.asarray(b)), [r @ b for r in a])
    close(vmap(dot, in_axes=(None, 0))(xnp.asarray(b), xnp.asarray(a)), [b @ r for r in a])
    close(vmap(dot)(xnp.asarray(a), xnp.asarray(a)), [r @ r for r in a])
    assert seen == [[True, False], [True, False], [False, True], [True, True]]


def test_pytrees_nones_multiple_outputs_and_keywords():
    @custom_vmap
    def f(tree, scale):
        (a, (b, none)), c = tree
        return {"s": xnp.sin(a) * scale, "c": (xnp.cos(b), c)}

    @f.def_vmap
    def rule(axis_size, in_batched, tree, scale):
        assert in_batched == [((True, (False, None)), True), False]
        (a, (b, _)), c = tree
        out = {"s": xnp.sin(a) * scale * 2, "c": (xnp.cos(b), c)}
        return out, {"s": True, "c": (False, True)}

    a, b, c = np.arange(3.0), 0.5, np.arange(3.0) + 1
    out = vmap(f, in_axes=(((0, (None, None)), 0), None))(
        ((xnp.asarray(a), (b, None)), xnp.asarray(c)), 3.0)
    close(out["s"], [np.sin(x) * 6 for x in a])
    close(out["c"][0], np.full(3, np.cos(b)))
    close(out["c"][1], c)
    eager = f(((1.0, (b, None)), 2.0), scale=3.0)
    close(eager["s"], np.sin(1.0) * 3)


def test_nested_vmaps_run_the_rule_once_per_level():
    calls = [0]

    @custom_vmap
    def f(x):
        return xnp.sin(x)

    @f.def_vmap
    def rule(axis_size, in_batched, xs):      # applies f member by member
        calls[0] += 1
        return xnp.stack([f(xs[i]) + 1.0 for i in range(axis_size)]), True

    x = np.arange(6.0).reshape(2, 3)
    # inner level: one rule call whose f calls are batched by the outer level (3 calls)
    close(vmap(vmap(f))(xnp.asarray(x)), np.sin(x) + 2.0)
    assert calls[0] == 4

    g = sequential_vmap(lambda x, y: xnp.sin(x) * y)
    close(vmap(vmap(g, in_axes=(0, None)), in_axes=(0, None))(xnp.asarray(x), 2.0),
          np.sin(x) * 2.0)
    close(vmap(g, in_axes=(None, 0))(1.0, xnp.asarray(x[0])), np.sin(1.0) * x[0])
    assert "scan" in str(make_jaxpr(vmap(g))(xnp.asarray(x[0]), xnp.asarray(x[1])))


def test_forward_mode_outside_vmap_is_the_function_inside_the_rule():
    log: list = []
    f = sin_with_cos_rule(log)
    xs = np.array([0.3, 1.1, 2.5])
    p, t = jvp(f, (0.4,), (2.0,))
    close(p, np.sin(0.4))
    np.testing.assert_allclose(t, 2 * fd(np.sin, 0.4), rtol=1e-8)
    assert log == []
    # primal and tangent both batched: the JVP of the rule, which sees them batched
    p, t = vmap(lambda x, tx: jvp(f, (x,), (tx,)))(xnp.asarray(xs), xnp.asarray(2 * xs))
    close(p, np.cos(xs))
    np.testing.assert_allclose(t, 2 * xs * fd(np.cos, xs), rtol=1e-8)
    close(jvp(vmap(f), (xnp.asarray(xs),), (xnp.asarray(2 * xs),))[1], t)
    assert log[-1] == (3, [True])
    # only the tangents (jacfwd) or only the primals batched: the rule sees them unbatched
    close(jacfwd(f)(xnp.asarray(xs)), np.diag(-np.sin(xs)))
    assert log[-1] == (3, [False])
    p, t = vmap(lambda x: jvp(f, (x,), (4.0,)))(xnp.asarray(xs))
    close(p, np.cos(xs))
    close(t, -np.sin(xs) * 4)
    assert log[-1] == (3, [False])


def test_forward_mode_with_singly_and_doubly_batched_inputs_takes_the_diagonal():
    @custom_vmap
    def f(x, y):
        return xnp.sin(x) * y

    @f.def_vmap
    def rule(axis_size, in_batched, xs, ys):
        assert in_batched == [True, True]
        return xnp.sin(xs) * ys * 2, True

    xs, ys = np.array([0.5, 1.0, 1.5]), np.array([1.0, 2.0, 3.0])
    # x's primal and tangent batched, y's primal only (its tangent is the constant 1)
    p, t = vmap(lambda x, y: jvp(f, (x, y), (x, 1.0)))(xnp.asarray(xs), xnp.asarray(ys))
    rule_of = lambda x, y: 2 * np.sin(x) * y  # noqa: E731
    close(p, rule_of(xs, ys))
    want = [x * fd(lambda u: rule_of(u, y), x) + fd(lambda v: rule_of(x, v), y)
            for x, y in zip(xs, ys)]
    np.testing.assert_allclose(t, want, rtol=1e-8)


def test_reverse_mode_raises_and_vmap_inside_grad_uses_the_rule():
    f = sin_with_cos_rule()
    for run in (lambda: grad(f)(0.5), lambda: vjp(f, 0.5), lambda: linearize(f, 0.5),
                lambda: grad(jit(f))(0.5), lambda: vmap(grad(f))(xnp.arange(3.0))):
        with pytest.raises(ValueError, match="reverse-mode"):
            run()
    xs = np.array([0.2, 0.9])
    np.testing.assert_allclose(grad(lambda x: vmap(f)(x).sum())(xnp.asarray(xs)),
                               fd(np.cos, xs), rtol=1e-8)
    close(grad(lambda x: x * f(2.0))(1.5), np.sin(2.0))   # f of a constant: no derivative


def test_custom_vjp_around_custom_vmap_gives_both_rules():
    @custom_vjp
    @custom_vmap
    def f(x, y):
        return xnp.sin(x) * y

    @f.def_vmap
    def f_vmap(axis_size, in_batched, xs, ys):
        return xnp.cos(xs) * ys, True

    f.defvjp(lambda x, y: (f(x, y), (xnp.cos(x), xnp.sin(x), y)),
             lambda res, g: (res[0] * g * res[2] * 10, res[1] * g))
    xs, ys = np.linspace(0, 1, 4), np.linspace(-1, 1, 4)
    close(vmap(f)(xnp.asarray(xs), xnp.asarray(ys)), np.cos(xs) * ys)
    close(grad(f)(0.3, 2.0), np.cos(0.3) * 2.0 * 10)
    close(vmap(grad(f))(xnp.asarray(xs), xnp.asarray(ys)), np.cos(xs) * ys * 10)


def test_errors():
    @custom_vmap
    def f(x, y=1.0, *, z=None):
        return xnp.sin(x) * y

    with pytest.raises(AttributeError, match="No batching rule"):
        f(0.5)

    @f.def_vmap
    def rule(axis_size, in_batched, xs, ys):
        return [xnp.sin(xs), xnp.cos(xs)], [True]
    with pytest.raises(TypeError, match="keyword-only"):
        f(0.5, z=1.0)
    with pytest.raises(ValueError, match="out_batched"):
        vmap(f)(xnp.arange(3.0), xnp.ones(3))
    f.def_vmap(lambda n, b, xs, ys: ([xnp.sin(xs)], [True]))
    with pytest.raises(ValueError, match="function's output"):
        vmap(f)(xnp.arange(3.0), xnp.ones(3))
    f.def_vmap(lambda n, b, xs, ys: (xnp.sin(xs[0]), True))
    with pytest.raises(ValueError, match="leading dimension"):
        vmap(f)(xnp.arange(3.0), xnp.ones(3))

    def closing(z):
        @custom_vmap
        def g(x):
            return x + z
        g.def_vmap(lambda n, b, xs: (xs, b[0]))
        return g(xnp.ones(2))
    with pytest.raises(ValueError, match="closes over"):
        vmap(closing)(xnp.arange(3.0))


def _programs(api, jnp, custom_vmap_):
    """Programs run in JAX and in xnp: each returns a list of arrays."""
    calls = [0]

    @custom_vmap_
    def f(x, y):
        return jnp.sin(x) * y

    @f.def_vmap
    def rule(axis_size, in_batched, xs, ys):
        calls[0] += 1
        xb, yb = in_batched
        out = jnp.cos(xs) * ys if (xb or yb) else jnp.sin(xs) * ys
        return out, xb or yb

    xs, ys = jnp.linspace(0.1, 1.3, 5), jnp.linspace(-1.0, 2.0, 5)
    outs = [api.vmap(f)(xs, ys), api.vmap(f, in_axes=(0, None))(xs, 2.0),
            api.jit(api.vmap(f, in_axes=(None, 0)))(0.4, ys),
            *api.vmap(lambda x, y: api.jvp(f, (x, y), (x, y)))(xs, ys),
            *api.vmap(lambda x: api.jvp(f, (x, 2.0), (1.0, 0.5)))(xs),
            *api.vmap(lambda t: api.jvp(f, (0.7, 2.0), (t, 1.0)))(ys),
            api.jacfwd(f)(xs, ys),
            api.grad(lambda x: api.vmap(f)(x, ys).sum())(xs),
            api.vmap(api.vmap(f))(xs.reshape(1, 5), ys.reshape(1, 5)),
            jnp.asarray(float(calls[0]))]
    return outs


def _jax_programs():
    import jax
    from jax.custom_batching import custom_vmap as jax_custom_vmap
    return _programs(jax, jax.numpy, jax_custom_vmap)


@needs_jax
def test_matches_jax():
    want = jax_results("test_custom_vmap", "m._jax_programs()")
    got = _programs(transforms, xnp, custom_vmap)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-12, atol=1e-12)
