"""custom_jvp / custom_vjp semantics found by running JAX's CustomJVPTest/CustomVJPTest
against xnp: rules that close over values a vmap batches, rules that call the custom
function on tangents (also inside scan), and bwd rules returning None for a whole
argument. Oracles: NumPy formulas, Python loops, finite differences (check_grads)."""

from __future__ import annotations

import numpy as np

import xnp
from transforms import custom_jvp, custom_vjp, grad, jit, jvp, scan, vmap
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
