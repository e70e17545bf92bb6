"""custom_jvp / custom_vjp semantics found by running JAX's CustomJVPTest/CustomVJPTest
against xnp: rules that close over values a vmap batches, rules that call the custom
function on tangents (also inside scan), and bwd rules returning None for a whole
argument. Oracles: NumPy formulas, Python loops, finite differences (check_grads)."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
from jax_subprocess import jax_results, needs_jax

import transforms
import xnp
from transforms import custom_jvp, custom_vjp, grad, jit, jvp, scan, vmap
from transforms.custom_derivatives import (
    SymbolicZero,
    custom_vjp_primal_tree_values,
    zero_from_primal,
)
from transforms.test_util import check_grads


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


def _closing_jvp(x):
    """A custom_jvp function defined inside a vmapped function: function and rule close
    over ``x`` (batched); its argument is not batched."""
    @custom_jvp
    def g(y):
        return x * xnp.sin(y)

    @g.defjvp
    def g_jvp(primals, tangents):
        (y,), (t,) = primals, tangents
        return g(y), x * xnp.cos(y) * t * 2.0      # twice the true derivative: the rule runs
    return g


def test_custom_jvp_closing_over_a_vmapped_value():
    xs = np.array([1.0, 2.0, 3.0])
    out = vmap(lambda x: _closing_jvp(x)(0.5))(xnp.asarray(xs))
    close(out, xs * np.sin(0.5))
    # jvp outside the vmap reaches the rule, which closes over the batched x
    primal, tangent = jvp(lambda z: vmap(lambda x: _closing_jvp(x)(z))(xnp.asarray(xs)),
                          (0.5,), (1.0,))
    close(primal, xs * np.sin(0.5))
    close(tangent, [2 * x * np.cos(0.5) for x in xs])
    g = grad(lambda z: vmap(lambda x: _closing_jvp(x)(z))(xnp.asarray(xs)).sum())(0.5)
    close(g, sum(2 * x * np.cos(0.5) for x in xs))
    close(jit(grad(lambda z: vmap(lambda x: _closing_jvp(x)(z))(xnp.asarray(xs)).sum()))(0.5),
          g)


def test_custom_vjp_closing_over_a_vmapped_value():
    def outer(x):
        @custom_vjp
        def f(y):
            return x * y

        f.defvjp(lambda y: (f(y), xnp.cos(y)), lambda cos_y, g: (cos_y * g,))
        return f

    xs = np.arange(3.0)
    close(vmap(lambda x: outer(x)(3.0))(xnp.asarray(xs)), xs * 3)
    # per-member gradients use the (deliberately different) bwd rule: cos(y) * g
    close(vmap(lambda x: grad(outer(x))(3.0))(xnp.asarray(xs)), np.cos(3.0) * np.ones(3))


def _rule_calls_f():
    @custom_jvp
    def f(box, r):
        return r * box

    @f.defjvp
    def f_jvp(primals, tangents):
        (box, r), (dbox, dr) = primals, tangents
        return f(box, r), f(box, dr) + f(dbox, r)      # the custom function on tangents
    return f


def test_custom_jvp_rule_calling_the_function_on_tangents():
    f = _rule_calls_f()
    close(grad(lambda b: f(b, 2.0))(1.5), 2.0)
    close(grad(f, argnums=1)(1.5, 2.0), 1.5)
    close(jit(grad(lambda b: f(b, 2.0)))(1.5), 2.0)
    close(vmap(grad(lambda b: f(b, 2.0)))(xnp.ones(3)), [2.0] * 3)
    rs = np.array([1.0, -2.0, 0.5])
    energy = lambda b: xnp.sum(vmap(lambda r: f(b, r))(xnp.asarray(rs)) ** 2)
    close(grad(energy)(1.5), np.sum(2 * 1.5 * rs ** 2))
    check_grads(lambda b, r: f(b, r), (np.array(1.5), np.array(-0.7)), order=2)


def test_custom_jvp_linear_rule_inside_scan():
    @custom_jvp
    def neg(x):
        return -x

    @neg.defjvp
    def neg_jvp(primals, tangents):
        return neg(primals[0]), neg(tangents[0])

    def loop(x):
        return scan(lambda c, _: (neg(c) * 2.0, None), x, None, length=3)[0]

    close(grad(loop)(3.0), -8.0)
    close(jit(grad(loop))(3.0), -8.0)
    close(vmap(grad(loop))(xnp.ones(2)), [-8.0, -8.0])
    check_grads(loop, (np.array(0.3),), order=1, modes=("rev",))


def test_custom_vjp_bwd_none_for_a_whole_argument_and_lists():
    @custom_vjp
    def f(xs, y):
        x1, x2 = xs
        return x1 * x2 * xnp.sin(y)

    f.defvjp(lambda xs, y: (f(xs, y), xnp.cos(y)), lambda cos, g: (None, 2 * cos * g))
    close(grad(lambda x: f((x, x), x))(3.0), 2 * np.cos(3.0))
    gx, gy = grad(f, argnums=(0, 1))((1.0, 2.0), 3.0)
    close(gx[0], 0.0)
    close(gx[1], 0.0)
    close(gy, 2 * np.cos(3.0))

    @custom_vjp
    def h(x):
        return x[0]

    h.defvjp(lambda x: (h(x), None), lambda _, g: ((g, (None, None)),))
    g = grad(h)((1.0, (2.0, None)))
    close(g[0], 1.0)
    close(g[1][0], 0.0)

    @custom_vjp
    def mul(x, y):
        return x * y

    mul.defvjp(lambda x, y: (mul(x, y), (x, y)), lambda r, g: [g * r[1], g * r[0]])
    close(grad(mul, argnums=(0, 1))(2.0, 5.0), (5.0, 2.0))


def test_nondiff_argnames_and_optimize_remat_keywords():
    # nondiff_argnames marks parameters by name, as nondiff_argnums by position; the rules
    # take them first. defvjp's optimize_remat is accepted (a JAX memory option).
    def apply_jvp(f, primals, tangents):
        (x,), (t,) = primals, tangents
        return apply_f(f, x), 3.0 * t

    apply_f = custom_jvp(lambda f, x: f(x), nondiff_argnames=("f",))
    apply_f.defjvp(apply_jvp)
    double = lambda y: 2.0 * y  # noqa: E731
    close(apply_f(double, 1.5), 3.0)
    close(jvp(lambda x: apply_f(double, x), (1.5,), (1.0,))[1], 3.0)   # the rule's 3, not 2

    app = custom_vjp(lambda f, x: f(x), nondiff_argnames=["f"])
    app.defvjp(lambda f, x: (app(f, x), xnp.cos(x)), lambda f, cos_x, g: (cos_x * g,),
               optimize_remat=True)
    value, g = xnp.value_and_grad(lambda x: app(double, x))(1.0)
    close(value, 2.0)
    close(g, np.cos(1.0))                 # the bwd rule's value, not the true 2
    close(grad(lambda x: app(f=double, x=x))(0.5), np.cos(0.5))


def test_custom_jvp_rule_with_a_tangent_of_the_wrong_shape_raises_type_error():
    f = custom_jvp(lambda x: x ** 2)
    f.defjvp(lambda p, t: (f(p[0]), xnp.reshape(t[0], (1,))))
    close(f(2.0), 4.0)                               # the function itself is fine
    try:
        jvp(f, (2.0,), (1.0,))
    except TypeError as e:
        assert "shape" in str(e)
    else:
        raise AssertionError("no error")
    g = custom_jvp(lambda x: x ** 2)
    g.defjvp(lambda p, t: (g(p[0]), 2.0 * p[0] * t[0]))
    close(jvp(g, (3.0,), (1.0,))[1], 6.0)            # a correct rule: 2 x t


def test_custom_vjp_bwd_cotangent_of_the_wrong_shape_raises_value_error():
    f = custom_vjp(lambda x: 2.0 * x)
    f.defvjp(lambda x: (2.0 * x, None), lambda r, g: (xnp.ones(4),))
    with pytest.raises(ValueError, match="shape"):
        grad(lambda x: f(x).sum())(xnp.ones(3))
    h = custom_vjp(lambda x: 2.0 * x)
    h.defvjp(lambda x: (2.0 * x, None), lambda r, g: (2.0 * g,))
    close(grad(lambda x: h(x).sum())(xnp.ones(3)), np.full(3, 2.0))   # the right shape


# --- symbolic_zeros=True ---------------------------------------------------------------------


def _symbolic_jvp_function(log, cjvp=custom_jvp, jnp=xnp, zero=SymbolicZero,
                           from_primal=zero_from_primal):
    """(sin(x) y, 2 x) whose rule records which tangents are symbolic zeros (with their
    shapes) and returns a symbolic zero for the second output when x is not perturbed.
    The defaults are xnp's; JAX's are passed to compare."""
    @cjvp
    def f(x, y):
        return jnp.sin(x) * y, 2.0 * x

    def f_jvp(primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        zx, zy = type(tx) is zero, type(ty) is zero
        log.append((zx, zy, *(tuple(t.shape) if type(t) is zero else jnp.shape(t)
                              for t in (tx, ty))))
        t1 = (0.0 if zx else jnp.cos(x) * y * tx) + (0.0 if zy else jnp.sin(x) * ty)
        t2 = from_primal(x, symbolic_zeros=True) if zx else 2.0 * tx
        return f(x, y), (t1, t2)
    f.defjvp(f_jvp, symbolic_zeros=True)
    return f


def _symbolic_vjp_function(log, cvjp=custom_vjp, zero=SymbolicZero):
    """(x y, x + 1) whose rules record the perturbed flags and which cotangents are
    symbolic zeros; bwd returns a symbolic zero for y when the first output's is one,
    and (deliberately) 10 times the true cotangent of x from the second output."""
    @cvjp
    def f(x, y):
        return x * y, x + 1.0

    def fwd(x, y):
        log.append(("fwd", x.perturbed, y.perturbed))
        return f(x.value, y.value), (x.value, y.value)

    def bwd(res, g):
        (x, y), (g1, g2) = res, g
        z1, z2 = type(g1) is zero, type(g2) is zero
        log.append(("bwd", z1, z2))
        gx = (0.0 if z1 else g1 * y) + (0.0 if z2 else g2 * 10.0)
        return gx, zero.from_primal_value(y) if z1 else g1 * x
    f.defvjp(fwd, bwd, symbolic_zeros=True)
    return f


def test_custom_jvp_symbolic_zeros_show_the_rule_which_inputs_are_differentiated():
    log: list = []
    f = _symbolic_jvp_function(log)
    x, y = 0.7, 3.0
    (p1, p2), (t1, t2) = jvp(lambda y: f(x, y), (y,), (1.0,))
    close(p1, np.sin(x) * y)
    close(t1, np.sin(x))                 # d/dy sin(x) y
    close(t2, 0.0)                       # the symbolic zero, materialised at the end
    assert log == [(True, False, (), ())]
    log.clear()
    close(jit(lambda x: jvp(lambda x: f(x, y), (x,), (1.0,))[1][0])(x), np.cos(x) * y)
    close(grad(lambda x: f(x, y)[0] + f(x, y)[1])(x), np.cos(x) * y + 2.0)
    assert log and all(entry[:2] == (False, True) for entry in log)
    log.clear()
    xs = np.array([0.1, 0.5, 0.9])
    ts = vmap(lambda y: jvp(lambda y: f(0.5, y), (y,), (2.0,))[1][0])(xnp.asarray(xs))
    close(ts, np.full(3, 2 * np.sin(0.5)))
    ts = jvp(lambda y: vmap(lambda x, y: f(x, y)[0])(xnp.asarray(xs), y),
             (xnp.asarray(xs),), (xnp.ones(3),))[1]
    close(ts, np.sin(xs))
    # the zeros have one batch member's shape under vmap (x is batched, y's tangent too)
    assert log == [(True, False, (), ()), (True, False, (), ())]


def test_a_rule_may_return_symbolic_zeros_without_the_option():
    @custom_jvp
    def f(x):
        return x + 1.0

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        assert type(t) is not SymbolicZero
        return f(x), zero_from_primal(x, symbolic_zeros=True)

    xs = xnp.arange(3.0)
    p, t = jvp(vmap(jit(f)), (xs,), (xs,))
    close(p, np.arange(3.0) + 1)
    close(t, np.zeros(3))
    close(grad(lambda x: f(x) * x)(2.0), 3.0)        # (x + 1) + x * 0
    z = zero_from_primal((1.0, xnp.ones(2)))
    close(z[0], 0.0)
    close(z[1], np.zeros(2))


def test_custom_vjp_symbolic_zeros_perturbed_flags_and_zero_cotangents():
    log: list = []
    f = _symbolic_vjp_function(log)
    first = lambda x: f(x, 3.0)[0]  # noqa: E731
    for run in (grad(first), jit(grad(first)), grad(jit(first))):
        log.clear()
        close(run(2.0), 3.0)
        assert log == [("fwd", True, False), ("bwd", False, True)]
    log.clear()
    close(vmap(grad(first))(xnp.arange(3.0)), np.full(3, 3.0))
    close(grad(lambda x: vmap(f, in_axes=(0, None))(x, 3.0)[0].sum())(xnp.arange(3.0)),
          np.full(3, 3.0))
    assert log == [("fwd", True, False), ("bwd", False, True)] * 2
    log.clear()
    close(grad(lambda y: f(2.0, y)[1])(3.0), 0.0)    # bwd returned a SymbolicZero for y
    assert log == [("fwd", False, True), ("bwd", True, False)]
    gx, gy = grad(lambda x, y: f(x, y)[0] + f(x, y)[1], argnums=(0, 1))(2.0, 3.0)
    close(gx, 3.0 + 10.0)                            # the rule's 10, not the true 1
    close(gy, 2.0)


def test_custom_vjp_symbolic_zeros_with_nondiff_argnums_and_pytrees():
    @functools.partial(custom_vjp, nondiff_argnums=(0,))
    def scale(k, box):
        return k * box["x"] * box["y"]

    def fwd(k, box):
        assert isinstance(k, float) and isinstance(box["x"].perturbed, bool)
        values = custom_vjp_primal_tree_values(box)
        return scale(k, values), (values, box["x"].perturbed, box["y"].perturbed)

    def bwd(k, res, g):
        values, px, py = res
        return ({"x": k * g * values["y"] if px else None,
                 "y": k * g * values["x"] if py else None},)
    scale.defvjp(fwd, bwd, symbolic_zeros=True)
    close(grad(lambda x: scale(2.0, {"x": x, "y": 5.0}))(3.0), 10.0)
    close(grad(lambda y: scale(2.0, {"x": 3.0, "y": y}))(5.0), 6.0)
    with pytest.raises(NotImplementedError):
        scale.defvjp(fwd, bwd, symbolic_zeros=True, optimize_remat=True)


def _symbolic_programs(api, jnp, cjvp, cvjp, zero, from_primal):
    log: list = []
    f = _symbolic_jvp_function(log, cjvp, jnp, zero, from_primal)
    g = _symbolic_vjp_function(log, cvjp, zero)
    xs = jnp.linspace(0.2, 1.4, 4)
    outs = [*api.jvp(lambda y: f(0.7, y), (3.0,), (1.0,))[1],
            api.grad(lambda x: f(x, 3.0)[0] + f(x, 3.0)[1])(0.7),
            api.vmap(lambda y: api.jvp(lambda y: f(0.5, y), (y,), (2.0,))[1][0])(xs),
            api.vmap(api.grad(lambda x: g(x, 3.0)[0]))(xs),
            api.grad(lambda y: g(2.0, y)[1])(3.0),
            *api.grad(lambda x, y: g(x, y)[0] + g(x, y)[1], argnums=(0, 1))(2.0, 3.0)]
    return outs, [entry[:3] for entry in log]


def _jax_symbolic_programs():
    import jax
    from jax import custom_derivatives as jcd
    return _symbolic_programs(jax, jax.numpy, jax.custom_jvp, jax.custom_vjp,
                              jcd.SymbolicZero, jcd.zero_from_primal)


@needs_jax
def test_symbolic_zeros_agree_with_jax():
    want, want_log = jax_results("test_custom_derivatives", "m._jax_symbolic_programs()")
    got, got_log = _symbolic_programs(transforms, xnp, custom_jvp, custom_vjp,
                                      SymbolicZero, zero_from_primal)
    assert json.loads(json.dumps(got_log)) == want_log     # tuples as lists
    for a, b in zip(got, want):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


def test_differentiating_a_closed_over_value_of_a_custom_jvp_names_the_problem():
    # As JAX: a custom rule only covers the function's explicit arguments; a value the
    # function closes over that is being differentiated gets an error saying so (not
    # one that points at NumPy calls), on the eager tape and on the general path alike.
    def outer(x):
        @transforms.custom_jvp
        def f(y):
            return xnp.sin(y) * x
        f.defjvp(lambda p, t: (f(p[0]), xnp.cos(p[0]) * x * t[0]))
        return f(2.0 * x)

    for run in (lambda: xnp.grad(outer)(0.3), lambda: xnp.vjp(outer, 0.3)[1](1.0)):
        with pytest.raises(TypeError, match="custom_jvp function with respect to a value it "
                                            "closes over"):
            run()
    # passing it as an argument works
    @transforms.custom_jvp
    def g(y, x):
        return xnp.sin(y) * x
    g.defjvp(lambda p, t: (g(*p), xnp.cos(p[0]) * p[1] * t[0] + xnp.sin(p[0]) * t[1]))
    got = xnp.grad(lambda x: g(2.0 * x, x))(0.3)
    np.testing.assert_allclose(got, 2 * np.cos(0.6) * 0.3 + np.sin(0.6), rtol=1e-12)
