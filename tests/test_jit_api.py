"""jit's calling conventions (and vjp's) found by running JAX's api_test against xnp: callables
without ``__name__`` (functools.partial), static parameters given by position or by name
whichever of static_argnums/static_argnames named them, disable_jit(False). Oracle: the
same function run eagerly (NumPy values)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import xnp
from transforms import core, disable_jit, jit, scan


def f(x, flag, scale=2.0):
    return x * scale if flag else xnp.zeros_like(x)


def test_jit_of_functools_partial():
    g = jit(functools.partial(scan, lambda c, x: (c + x, c * x)))
    carry, ys = g(0.0, xnp.arange(4.0))
    np.testing.assert_allclose(carry, 6.0)
    np.testing.assert_allclose(ys, [0.0, 0.0, 2.0, 9.0])   # y = c * x before the update
    assert "scan" in repr(g)


def test_static_parameters_by_position_or_by_name():
    x = np.array([1.0, -2.0])
    for g in (jit(f, static_argnames="flag"), jit(f, static_argnames=["flag"]),
              jit(f, static_argnums=1)):
        np.testing.assert_allclose(g(x, True), f(x, True))
        np.testing.assert_allclose(g(x, False), f(x, False))
        np.testing.assert_allclose(g(x, flag=True), f(x, True))
        np.testing.assert_allclose(g(x, flag=False, scale=3.0), f(x, False, 3.0))
        np.testing.assert_allclose(g(x=x, flag=True), f(x, True))


def test_disable_jit_false_reenables_jit():
    traced = []

    @jit
    def h(x):
        traced.append(isinstance(core.unwrap(x), core.Tracer))
        return x + 1

    with disable_jit():
        np.testing.assert_allclose(h(np.ones(2)), 2.0)
        assert traced == [False]                # ran eagerly on the concrete value
        with disable_jit(False):
            np.testing.assert_allclose(h(np.ones(2)), 2.0)
    assert traced == [False, True]              # then traced for compilation


def test_vjp_takes_the_primal_output_as_cotangent_for_integer_outputs():
    # JAX's scan forwarding test calls vjp_fn(primal_out) where an output is an integer:
    # its cotangent may have any dtype (it stands for a float0 zero); float ones still
    # contribute. Oracle: the analytic derivative of sum(c * x) + 0 * n.
    from transforms import float0, vjp

    def h(x, n):
        return (x * 3.0).sum(), n + 1
    x, n = np.array([1.0, 2.0]), np.array([4, 5])
    (out, k), pullback = vjp(h, x, n)
    gx, gn = pullback((out, k))                 # k is int64, as the primal output is
    np.testing.assert_allclose(gx, 3.0 * float(out) * np.ones(2))
    assert gn.dtype == float0 and gn.shape == (2,)
    gx2, _ = pullback((2.0, np.zeros(2, float0)))
    np.testing.assert_allclose(gx2, [6.0, 6.0])


def test_jit_inline_traces_into_the_caller_and_errors_are_subclassed():
    from transforms import (
        ConcretizationTypeError,
        TracerBoolConversionError,
        TracerIntegerConversionError,
        make_jaxpr,
    )

    def g(x):
        return x * 2.0
    assert "jit" in str(make_jaxpr(jit(g))(3.0))
    assert "jit" not in str(make_jaxpr(jit(g, inline=True))(3.0))
    assert "jit" not in str(make_jaxpr(jit(inline=True, keep_unused=True)(g))(3.0))
    np.testing.assert_allclose(jit(jit(g, inline=True))(3.0), 6.0)
    np.testing.assert_allclose(jit(g, inline=True)(np.arange(3.0)), [0.0, 2.0, 4.0])
    # bool() and index() of traced values: ConcretizationTypeError subclasses (as JAX's)
    for fun, err in ((lambda x: 1.0 if x > 0 else 0.0, TracerBoolConversionError),
                     (lambda x: [1.0, 2.0][x], TracerIntegerConversionError)):
        try:
            jit(fun)(xnp.asarray(1))
        except err as e:
            assert isinstance(e, ConcretizationTypeError)
        else:
            raise AssertionError("no error")


def test_jit_of_functions_with_float0_values():
    # gradients of integer inputs (allow_int) are float0 zeros; under jit they come out
    # the same as eagerly, as do float0 constants and float0 arguments passed through
    from transforms import custom_vjp, float0, grad, vjp, vmap
    g = grad(lambda x, i: x[i] * x[0], argnums=(0, 1), allow_int=True)
    x = np.array([2.0, 3.0])
    for i in (0, 1):
        (ex, ei), (jx, ji) = g(x, i), jit(g)(x, i)
        np.testing.assert_allclose(jx, ex)
        assert ji.dtype == ei.dtype == float0 and ji.shape == ei.shape == ()
    np.testing.assert_allclose(jit(g)(x, 1)[0], [3.0, 2.0])          # d(x0 x1) analytic
    out = jit(lambda a, b: (a * 2, b, np.zeros((2, 3), float0)))(x, np.zeros(4, float0))
    np.testing.assert_allclose(out[0], 2 * x)
    assert [(o.dtype, o.shape) for o in out[1:]] == [(float0, (4,)), (float0, (2, 3))]
    f = custom_vjp(lambda x, y: x)
    f.defvjp(lambda x, y: (x, None), lambda _, z: (0.0, 1))
    ct = jit(lambda n: vjp(f, 0.0, n)[1](1.0))(1)
    assert float(ct[0]) == 0.0 and ct[1].dtype == float0
    gs = vmap(jit(g), in_axes=(0, None))(np.stack([x, 2 * x]), 1)
    np.testing.assert_allclose(gs[0], [[3.0, 2.0], [6.0, 4.0]])


# --- values known while staging (transforms/known_values.py) ----------------------------------
def _numpy_style(x):
    # NumPy code doing shape arithmetic with NumPy functions: under jit these are staged
    # equations on constants, whose values Python still gets
    n = int(xnp.prod(x.shape))
    half = int(xnp.ceil(len(x) / 2))
    steps = xnp.arange(3) * 2
    if steps[1] > 1:
        x = x + 1
    return x.reshape(n)[:half] * int(xnp.sum((1, 2)))


def test_constant_expressions_are_concrete_under_jit():
    for shape in [(3, 2), (5, 1), (4,)]:
        x = np.random.default_rng(0).normal(size=shape)
        np.testing.assert_array_equal(jit(_numpy_style)(x), _numpy_style(x))
    # the jaxpr still holds the staged equations
    text = str(xnp.make_jaxpr(lambda x: x + xnp.sin(xnp.arange(3.0)))(np.ones(3)))
    assert "sin" in text and "iota" in text or "sin" in text and "arange" in text


def test_values_depending_on_arguments_stay_abstract():
    import pytest
    with pytest.raises(core.ConcretizationTypeError, match="int"):
        jit(lambda x: int(x.sum()))(np.ones(3))
    with pytest.raises(core.ConcretizationTypeError):
        jit(lambda x: int(xnp.sum(x.shape) + x[0]))(np.ones(3))


def test_long_chains_of_constants():
    def chain(x):
        s = xnp.float64(0.0) + xnp.zeros(())
        for i in range(3000):          # deeper than Python's recursion limit
            s = s + i
        return x * int(s)
    np.testing.assert_array_equal(jit(chain)(np.ones(2)), np.full(2, 3000 * 2999 // 2))


def test_numpy_conversion_of_known_values_under_jit():
    import pytest

    def f(x):
        idx = np.asarray(xnp.arange(3) * 2)     # NumPy's own conversion of a constant
        return x[idx[1]] + idx.sum()
    x = np.arange(5.0)
    assert float(jit(f)(x)) == float(f(x)) == 8.0
    # an argument, or a differentiated value, still refuses NumPy's conversion
    with pytest.raises(core.TracerArrayConversionError):
        jit(lambda x: np.asarray(x))(x)
    with pytest.raises(core.TracerArrayConversionError):
        xnp.grad(lambda x: np.asarray(x).sum())(x)


def test_in_place_write_to_a_non_differentiated_argument_leaves_the_callers_array_alone():
    # As every argument of jit, one grad does not differentiate reaches fun as its own
    # handle: a traced write into it must not leak into the caller's array.
    def f(x, a):
        a[0] = x            # a traced value into the argument that is not differentiated
        return (a * x).sum()

    a = xnp.zeros(3)
    np.testing.assert_allclose(xnp.grad(f)(xnp.asarray(2.0), a), 4.0)      # d(x^2)/dx
    np.testing.assert_array_equal(a + 1.0, np.ones(3))
    np.testing.assert_allclose(xnp.jacrev(f)(xnp.asarray(3.0), a), 6.0)
    np.testing.assert_array_equal(a, np.zeros(3))


def test_transforming_a_traced_function_runs_its_python_once():
    # grad/vmap of jit, cond and scan transform the traced jaxpr (as JAX), so a Python
    # side effect of the function happens once, at its trace; re-tracing happens only
    # for functions that call custom rules, which the rules need.
    calls = []

    def body(x):
        calls.append(1)
        return xnp.sin(x) * x

    cases = [
        (lambda: xnp.grad(jit(body))(0.7), np.sin(0.7) + 0.7 * np.cos(0.7)),
        (lambda: xnp.vmap(jit(body))(np.array([0.5, 1.5])), np.sin([0.5, 1.5]) * [0.5, 1.5]),
        (lambda: xnp.grad(lambda x: xnp.lax.cond(x > 0, body, lambda y: -y, x))(0.7),
         np.sin(0.7) + 0.7 * np.cos(0.7)),
        (lambda: xnp.grad(lambda x: scan(lambda c, _: (body(c), None), x, None, length=2)[0])(
            0.7), None),
    ]
    for run, want in cases:
        calls.clear()
        got = run()
        assert len(calls) == 1, (run, len(calls))
        if want is not None:
            np.testing.assert_allclose(got, want, rtol=1e-12)
    # two scan steps: d/dx b(b(x)) = b'(b(x)) b'(x), against central differences
    def b2(x):
        return np.sin(np.sin(x) * x) * (np.sin(x) * x)
    calls.clear()
    g = cases[3][0]()
    np.testing.assert_allclose(g, (b2(0.7 + 1e-6) - b2(0.7 - 1e-6)) / 2e-6, rtol=1e-7)

    @xnp.custom_jvp
    def twice(x):
        calls.append(1)
        return 2 * x
    twice.defjvp(lambda p, t: (twice(p[0]), 10 * t[0]))     # a deliberately odd rule
    np.testing.assert_allclose(xnp.grad(jit(lambda x: twice(x) * 1.0))(0.3), 10.0)
    np.testing.assert_allclose(xnp.grad(lambda x: scan(
        lambda c, _: (twice(c), None), x, None, length=1)[0])(0.3), 10.0)


def test_a_static_argument_left_out_takes_its_default():
    # as in JAX: static_argnums may name a parameter the call leaves to its default
    def scale(x, n=2):
        return x * n
    g = jit(scale, static_argnums=1)
    x = np.array([1.0, 2.0])
    np.testing.assert_array_equal(g(x), [2.0, 4.0])
    np.testing.assert_array_equal(g(x, 3), [3.0, 6.0])
    np.testing.assert_array_equal(g(x, n=5), [5.0, 10.0])
    np.testing.assert_array_equal(jit(xnp.round, static_argnums=1)(np.array([1.26])), [1.0])
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        jit(lambda x, n: x * n, static_argnums=1)(x)


def test_static_argnames_none():
    # JAX accepts static_argnames=None (no static names), as static_argnums=None
    f = jit(lambda x, n: x * n, static_argnames=None)
    assert int(f(np.int64(3), 2)) == 6
