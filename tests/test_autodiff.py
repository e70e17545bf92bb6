"""grad, vjp, jvp, linearize, jacobians, hessian and custom rules, end to end: against
finite differences, hand-derived NumPy gradients, and the documented conventions."""

from __future__ import annotations

import collections

import numpy as np
import pytest
import scipy.optimize

import xnp
from transforms import UnexpectedTracerError
from transforms.core import ConcretizationTypeError, TracerArrayConversionError
from transforms.test_util import check_grads

rng = np.random.default_rng(0)


def test_grad_of_pytree_params():
    Params = collections.namedtuple("Params", "w b")

    def loss(params, x):
        return xnp.sum(xnp.tanh(params["layer"].w @ x + params["layer"].b) ** 2)

    w, b, x = rng.normal(size=(3, 4)), rng.normal(size=3), rng.normal(size=4)
    params = {"layer": Params(xnp.asarray(w), xnp.asarray(b))}
    g = xnp.grad(loss)(params, xnp.asarray(x))
    assert isinstance(g, dict) and isinstance(g["layer"], Params)
    h = np.tanh(w @ x + b)
    dz = 2 * h * (1 - h ** 2)
    np.testing.assert_allclose(g["layer"].w, np.outer(dz, x), rtol=1e-12)
    np.testing.assert_allclose(g["layer"].b, dz, rtol=1e-12)


def test_value_and_grad_argnums_and_has_aux():
    def f(x, y):
        return xnp.sum(x * y ** 2), {"norm": xnp.sum(x)}

    x, y = xnp.asarray(np.arange(3.0)), xnp.asarray(np.ones(3) * 2)
    (value, aux), (gx, gy) = xnp.value_and_grad(f, argnums=(0, 1), has_aux=True)(x, y)
    assert float(value) == 12.0 and float(aux["norm"]) == 3.0
    np.testing.assert_array_equal(gx, np.full(3, 4.0))
    np.testing.assert_array_equal(gy, 2 * np.arange(3.0) * 2)


def test_nested_derivatives():
    f = lambda x: xnp.sin(x) * x ** 3
    x = 0.7
    d1 = lambda x: np.cos(x) * x ** 3 + 3 * x ** 2 * np.sin(x)
    d2 = lambda x: -np.sin(x) * x ** 3 + 6 * x ** 2 * np.cos(x) + 6 * x * np.sin(x)
    np.testing.assert_allclose(xnp.grad(f)(x), d1(x), rtol=1e-12)
    np.testing.assert_allclose(xnp.grad(xnp.grad(f))(x), d2(x), rtol=1e-12)
    _, t = xnp.jvp(xnp.grad(f), (x,), (1.0,))
    np.testing.assert_allclose(t, d2(x), rtol=1e-12)
    np.testing.assert_allclose(xnp.grad(xnp.grad(xnp.grad(f)))(x),
                               (d2(x + 1e-5) - d2(x - 1e-5)) / 2e-5, rtol=1e-6)


def test_linearize_matches_jvp():
    f = lambda x: xnp.exp(x) * xnp.cos(x)
    x = xnp.asarray(rng.normal(size=4))
    y, f_jvp = xnp.linearize(f, x)
    v = xnp.asarray(rng.normal(size=4))
    np.testing.assert_allclose(f_jvp(v), xnp.jvp(f, (x,), (v,))[1], rtol=1e-12)
    np.testing.assert_allclose(y, f(x))


def test_jacobians_and_hessian():
    a = rng.normal(size=(3, 3))
    quad = lambda x: x @ (xnp.asarray(a) @ x)
    x = xnp.asarray(rng.normal(size=3))
    np.testing.assert_allclose(xnp.hessian(quad)(x), a + a.T, rtol=1e-12)
    f = lambda x: xnp.sin(x) * x[0]
    jf, jr = xnp.jacfwd(f)(x), xnp.jacrev(f)(x)
    expected = np.diag(np.cos(x) * float(x[0]))
    expected[:, 0] += np.sin(x)
    np.testing.assert_allclose(jf, expected, rtol=1e-12)
    np.testing.assert_allclose(jr, expected, rtol=1e-12)


def test_inplace_code_differentiates():
    def f(x, y):
        a = xnp.zeros(4)
        a[1] = x * 2
        a[1:] += y
        return (a ** 2).sum()

    x, y = 1.5, xnp.asarray(np.array([0.5, -1.0, 2.0]))
    gx, gy = xnp.grad(f, argnums=(0, 1))(x, y)
    a = np.zeros(4)
    a[1] = 2 * x
    a[1:] += np.asarray(y)
    np.testing.assert_allclose(gx, 2 * a[1] * 2)
    np.testing.assert_allclose(gy, 2 * a[1:])


def test_plain_numpy_calls_differentiate():
    f = lambda x: np.sum(np.sin(x) * x)
    x = xnp.asarray(np.array([0.1, 0.2]))
    np.testing.assert_allclose(xnp.grad(f)(x), np.cos(x) * x + np.sin(x), rtol=1e-12)


def test_python_control_flow_on_concrete_values():
    def f(x, n):
        for _ in range(n):
            x = xnp.sin(x)
        if x > 0:           # the primal is concrete under grad, as in autograd
            return x * 2
        return -x

    np.testing.assert_allclose(xnp.grad(f)(0.5, 2), 2 * np.cos(np.sin(0.5)) * np.cos(0.5))


def test_numpy_conversion_inside_grad_is_an_error():
    with pytest.raises(TracerArrayConversionError):
        xnp.grad(lambda x: xnp.asarray(np.asarray(x)).sum())(xnp.asarray(np.ones(2)))


@pytest.mark.parametrize("convert", [float, complex, lambda x: x.item(), lambda x: x.tolist(),
                                     np.float64])
def test_python_number_of_a_differentiated_value_is_an_error(convert):
    # The result would be a constant: the gradient would silently be wrong.
    with pytest.raises(TypeError, match="derivative|tracers"):
        xnp.grad(lambda x: convert(x) * x)(3.0)


def test_python_numbers_without_a_derivative_are_allowed():
    # int() is piecewise constant and stop_gradient asks for no derivative: both as
    # autograd allows; bool() drives Python control flow on concrete values.
    assert float(xnp.grad(lambda x: (int(x) + 1.0) * x)(3.5)) == 4.0
    g = xnp.grad(lambda x: float(xnp.lax.stop_gradient(x)) * x)(3.0)
    assert float(g) == 3.0
    assert float(xnp.grad(lambda x, y: float(y) * x)(2.0, 5.0)) == 5.0


def test_allow_int_gives_float0_gradients_for_integer_and_boolean_inputs():
    from transforms import float0
    f = lambda x, n, flag: (x ** 2 * n).sum() * (1.0 + flag)
    x, n = np.array([1.0, -2.0]), np.array([3, 4])
    with pytest.raises(TypeError, match="allow_int"):
        xnp.grad(f, argnums=(0, 1))(x, n, True)
    gx, gn, gflag = xnp.grad(f, argnums=(0, 1, 2), allow_int=True)(x, n, True)
    np.testing.assert_allclose(gx, 2 * x * n * 2.0, rtol=1e-15)
    assert gn.dtype == float0 and gn.shape == (2,)
    assert gflag.dtype == float0 and gflag.shape == ()
    (value, (gx2, gn2)) = xnp.value_and_grad(f, argnums=(0, 1), allow_int=True)(x, n, False)
    assert float(value) == float((x ** 2 * n).sum())
    np.testing.assert_allclose(gx2, 2 * x * n, rtol=1e-15)
    assert gn2.dtype == float0
    # pytrees mixing float and integer leaves keep their structure
    g = xnp.grad(lambda p: (p["w"] * p["k"]).sum(), allow_int=True)({"w": x, "k": n})
    np.testing.assert_array_equal(g["w"], n)
    assert g["k"].dtype == float0
    # Jacobians follow JAX: jacrev takes allow_int, jacfwd refuses integer inputs
    h = lambda x, n: x * n
    for jac in (xnp.jacrev, xnp.jacfwd):
        with pytest.raises(TypeError, match="int64"):
            jac(h, argnums=(0, 1))(x, n)
    jx, jn = xnp.jacrev(h, argnums=(0, 1), allow_int=True)(x, n)
    np.testing.assert_array_equal(jx, np.diag(n))
    assert jn.dtype == float0 and jn.shape == (2, 2)


def test_errors_say_what_to_do():
    with pytest.raises(TypeError, match="jacrev"):
        xnp.grad(lambda x: x * 2)(xnp.asarray(np.ones(2)))
    with pytest.raises(TypeError, match="int64"):
        xnp.grad(lambda x: x * 2.0)(xnp.asarray(np.array(3)))
    with pytest.raises(ValueError, match="out of range"):
        xnp.grad(lambda x, y: x * y, argnums=2)(1.0, 2.0)
    with pytest.raises(TypeError, match="argnums"):
        xnp.grad(lambda x: x, argnums=[[0]])(1.0)
    leaked = []
    xnp.grad(lambda x: leaked.append(x) or x * 2)(1.0)
    with pytest.raises(UnexpectedTracerError):
        leaked[0] + 1.0
    with pytest.raises(ConcretizationTypeError):
        xnp.make_jaxpr(xnp.grad(lambda x: x if x > 0 else -x))(1.0)


def test_conventions_at_the_edges():
    assert float(xnp.grad(xnp.abs)(0.0)) == 1.0            # slope +1 at 0, as JAX
    assert float(xnp.grad(xnp.abs)(-0.0)) == 1.0
    assert float(xnp.grad(lambda x: xnp.copysign(x, -1.0))(0.0)) == -1.0
    assert float(xnp.grad(xnp.sqrt)(0.0)) == np.inf
    np.testing.assert_allclose(xnp.grad(lambda x: xnp.maximum(x, 1.0))(1.0), 0.5)
    g = xnp.grad(lambda x: xnp.max(x))(xnp.asarray(np.array([1.0, 3.0, 3.0])))
    np.testing.assert_allclose(g, [0.0, 0.5, 0.5])

    def safe_log(x):                                     # the double-where pattern
        ok = x > 0
        return xnp.where(ok, xnp.log(xnp.where(ok, x, 1.0)), 0.0)
    g = xnp.grad(lambda x: xnp.sum(safe_log(x)))(xnp.asarray(np.array([0.0, 2.0])))
    np.testing.assert_allclose(g, [0.0, 0.5])
    assert np.isfinite(np.asarray(g)).all()


def test_complex_conventions():
    z = xnp.asarray(np.array(1.0 + 2.0j))
    # holomorphic: the derivative itself (conjugate of the cotangent convention)
    np.testing.assert_allclose(xnp.grad(lambda z: z ** 2, holomorphic=True)(z), 2 * z)
    # real-valued function of complex input: JAX's convention, grad = conj(df/dz) * 2...
    g = xnp.grad(lambda z: xnp.real(z * xnp.conj(z)))(z)
    np.testing.assert_allclose(g, 2 * np.conj(complex(z)))
    check_grads(lambda z: xnp.sin(z) * xnp.exp(z), (np.array([0.3 + 0.2j, -1 + 1j]),))


def test_custom_jvp_rule_is_used_and_survives_nesting():
    calls = []

    @xnp.custom_jvp
    def f(x):
        if float(x) > 0:            # Python control flow inside still works eagerly
            return xnp.sin(x)
        return x

    @f.defjvp
    def f_jvp(primals, tangents):
        calls.append(1)
        (x,), (t,) = primals, tangents
        return f(x), 10.0 * t

    assert float(xnp.grad(f)(1.0)) == 10.0 and calls
    assert float(xnp.grad(lambda x: f(x) * 2)(1.0)) == 20.0
    _, t = xnp.jvp(f, (1.0,), (1.0,))
    assert float(t) == 10.0


def test_custom_jvp_defjvps_and_nondiff_argnums():
    def g(n, x):
        return x ** n
    g = xnp.custom_jvp(g, nondiff_argnums=(0,))

    @g.defjvp
    def g_jvp(n, primals, tangents):
        (x,), (t,) = primals, tangents
        return g(n, x), n * x ** (n - 1) * t

    np.testing.assert_allclose(xnp.grad(lambda x: g(3, x))(2.0), 12.0)

    h = xnp.custom_jvp(lambda x, y: x * y)
    h.defjvps(lambda tx, ans, x, y: tx * y, lambda ty, ans, x, y: ty * x * 0)
    np.testing.assert_allclose(xnp.grad(h, argnums=(0, 1))(2.0, 3.0), (3.0, 0.0))


def test_custom_vjp_with_pytree_residuals():
    @xnp.custom_vjp
    def clip_gradient(x, lo):
        return x * 1.0

    def fwd(x, lo):
        return x * 1.0, {"lo": lo}

    def bwd(res, g):
        return (xnp.clip(g, res["lo"], -res["lo"]), None)

    clip_gradient.defvjp(fwd, bwd)
    g = xnp.grad(lambda x: xnp.sum(clip_gradient(x, -0.5) * 3.0))(
        xnp.asarray(np.ones(2)))
    np.testing.assert_allclose(g, [0.5, 0.5])
    with pytest.raises(TypeError, match="forward-mode"):
        xnp.jvp(lambda x: clip_gradient(x, -0.5), (1.0,), (1.0,))


def test_custom_rules_inside_xnp_are_stable():
    assert np.isfinite(float(xnp.grad(lambda x: xnp.hypot(x, x))(0.0)))
    np.testing.assert_allclose(xnp.grad(lambda x: xnp.logaddexp(x, x))(1000.0), 1.0)
    np.testing.assert_allclose(xnp.grad(xnp.sinc)(0.0), 0.0, atol=1e-12)
    check_grads(lambda x: xnp.hypot(x, 2 * x), (np.array([0.5, 1.5]),), order=2)


def _softmax_xent_numpy(w, x, y):
    logits = x @ w
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = -np.log(p[np.arange(n), y]).mean()
    p[np.arange(n), y] -= 1
    return loss, x.T @ p / n


def test_logistic_regression_reaches_hand_derived_loss():
    x = rng.normal(size=(64, 5))
    y = (x @ rng.normal(size=5) > 0).astype(np.int64)
    ya = np.stack([1 - y, y], axis=1).astype(float)

    def loss(w, x, ya):
        logits = x @ w
        logits = logits - xnp.max(logits, axis=1, keepdims=True)
        logp = logits - xnp.log(xnp.sum(xnp.exp(logits), axis=1, keepdims=True))
        return -xnp.mean(xnp.sum(logp * ya, axis=1))

    w_x, w_np = xnp.zeros((5, 2)), np.zeros((5, 2))
    for _ in range(50):
        w_x = w_x - 0.5 * xnp.grad(loss)(w_x, xnp.asarray(x), xnp.asarray(ya))
        w_np = w_np - 0.5 * _softmax_xent_numpy(w_np, x, y)[1]
    np.testing.assert_allclose(w_x, w_np, rtol=1e-10)
    np.testing.assert_allclose(loss(w_x, xnp.asarray(x), xnp.asarray(ya)),
                               _softmax_xent_numpy(w_np, x, y)[0], rtol=1e-10)


def test_mlp_training_matches_hand_written_backprop():
    x = rng.normal(size=(32, 4))
    t = rng.normal(size=(32, 1))
    w1, w2 = rng.normal(size=(4, 8)) * 0.5, rng.normal(size=(8, 1)) * 0.5

    def loss(params, x, t):
        w1, w2 = params
        h = xnp.tanh(x @ w1)
        return xnp.mean((h @ w2 - t) ** 2)

    def numpy_grads(w1, w2):
        h = np.tanh(x @ w1)
        err = 2 * (h @ w2 - t) / len(x)
        gw2 = h.T @ err
        gh = err @ w2.T * (1 - h ** 2)
        return x.T @ gh, gw2

    p = (xnp.asarray(w1), xnp.asarray(w2))
    for _ in range(20):
        g = xnp.grad(loss)(p, xnp.asarray(x), xnp.asarray(t))
        p = tuple(a - 0.1 * b for a, b in zip(p, g))
        gw1, gw2 = numpy_grads(w1, w2)
        w1, w2 = w1 - 0.1 * gw1, w2 - 0.1 * gw2
    np.testing.assert_allclose(p[0], w1, rtol=1e-10)
    np.testing.assert_allclose(p[1], w2, rtol=1e-10)


def test_scipy_minimize_with_xnp_gradient():
    def rosen(x):
        return xnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    fun = lambda x: float(rosen(xnp.asarray(x)))
    jac = lambda x: np.asarray(xnp.grad(rosen)(xnp.asarray(x)))
    res = scipy.optimize.minimize(fun, np.array([-1.2, 1.0, 0.5]), jac=jac, method="BFGS")
    assert res.success
    np.testing.assert_allclose(res.x, np.ones(3), atol=1e-4)


def test_remainder_derivatives_away_from_jumps():
    x, y = np.array([5.3, -5.3, 2.2]), np.array([2.0, 2.0, -0.7])
    for f in (xnp.mod, xnp.fmod, xnp.remainder, lambda a, b: xnp.divmod(a, b)[1]):
        check_grads(f, (x, y), order=2)
    gx, gy = xnp.grad(lambda a, b: xnp.sum(xnp.mod(a, b)), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, np.ones(3))
    np.testing.assert_allclose(gy, -np.floor(x / y))


def test_piecewise_constant_functions_have_zero_derivative():
    x = np.array([0.123, 1.77, -2.5])
    for f in (lambda a: xnp.round(a, 2), xnp.floor, xnp.ceil, xnp.rint, xnp.trunc,
              xnp.sign, xnp.fix):
        np.testing.assert_array_equal(xnp.grad(lambda a: xnp.sum(f(a) * a))(x), f(x))


def test_jacobians_of_pytrees_with_aux_agree_with_finite_differences():
    def f(p):
        out = {"a": xnp.sin(p["x"]) * p["y"][0, 0], "b": p["y"] ** 2}
        return out, xnp.sum(p["x"])

    x, y = np.array([0.1, 0.2, 0.3]), np.array([[1.0, 2.0]])
    p = {"x": xnp.asarray(x), "y": xnp.asarray(y)}
    jf, aux_f = xnp.jacfwd(f, has_aux=True)(p)
    jr, aux_r = xnp.jacrev(f, has_aux=True)(p)
    assert float(aux_f) == float(aux_r) == x.sum()
    eps = 1e-6
    for name, base in (("x", x), ("y", y)):
        for j in range(base.size):
            bump = np.zeros(base.size)
            bump[j] = eps
            hi = dict(x=x, y=y)
            lo = dict(x=x, y=y)
            hi[name] = base + bump.reshape(base.shape)
            lo[name] = base - bump.reshape(base.shape)
            f_hi = f({k: xnp.asarray(v) for k, v in hi.items()})[0]
            f_lo = f({k: xnp.asarray(v) for k, v in lo.items()})[0]
            for out in ("a", "b"):
                fd = (np.asarray(f_hi[out]) - np.asarray(f_lo[out])) / (2 * eps)
                col = np.asarray(jf[out][name]).reshape(fd.shape + (-1,))[..., j]
                np.testing.assert_allclose(col, fd, rtol=1e-6, atol=1e-8)
                np.testing.assert_allclose(jr[out][name], jf[out][name], rtol=1e-12)


def test_grad_of_one_element_outputs():
    # A one-element output counts as a scalar (as in autograd and torch, unlike JAX); the
    # gradient is that of its only element.
    x = np.array([[0.3, -1.2, 2.0]])
    g = xnp.grad(lambda v: xnp.sum(xnp.sin(v), axis=1, keepdims=True))(x)
    np.testing.assert_allclose(g, np.cos(x))
    np.testing.assert_allclose(xnp.grad(lambda v: (xnp.sum(v ** 2),))(x), 2 * x)
    np.testing.assert_allclose(xnp.grad(lambda v: [v * 3.0])(np.ones(1)), [3.0])
    with pytest.raises(TypeError, match="shape: \\(2,\\)"):
        xnp.grad(lambda v: v)(np.ones(2))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_remainder_slope_is_one_at_exact_multiples():
    # remainder(x, y) = x - y * floor(x / y): slope 1 in x everywhere (also where the
    # remainder is a signed zero or NaN), -floor(x / y) in y.
    x = np.array([0.0, 0.0, 1.0, -1.0, 2.0, -0.0, -3.0, 2.0, 0.7])
    y = np.array([-0.5, 2.0, 2.0, -1.0, 1.0, 1.0, 1.5, 0.0, -0.3])
    for f in (xnp.remainder, xnp.mod, lambda a, b: xnp.divmod(a, b)[1]):
        gx, gy = xnp.grad(lambda a, b: xnp.sum(f(a, b)), argnums=(0, 1))(x, y)
        np.testing.assert_array_equal(gx, np.ones_like(x))
        np.testing.assert_array_equal(gy[:-2], -np.floor(x / y)[:-2])
    g = xnp.grad(lambda a: xnp.sum(xnp.abs(a)))(np.array([np.nan, 0.0, -2.0]))
    np.testing.assert_array_equal(g, [-1.0, 1.0, -1.0])     # a NaN leaks into no other slot


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_power_exponent_slope_at_zero_base():
    # d/dy 0**y: 0 where 0**y is locally constant 0 (y > 0), NaN where it is inf (y < 0).
    for f in (xnp.power, xnp.float_power):
        g = xnp.grad(lambda y: xnp.sum(f(np.zeros(3), y)))(np.array([2.0, 0.5, -0.5]))
        np.testing.assert_array_equal(g, [0.0, 0.0, np.nan])


def test_modf_fraction_has_slope_one_at_integers():
    # frac = x - trunc(x): slope 1 also where the fraction is a signed zero.
    x = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.0, -0.5])
    g = xnp.grad(lambda a: xnp.sum(xnp.modf(a)[0]))(x)
    np.testing.assert_array_equal(g, np.ones_like(x))
    np.testing.assert_array_equal(np.signbit(xnp.modf(x)[0]), np.signbit(np.modf(x)[0]))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_cotangent_of_a_case_not_taken_is_zero_even_if_infinite():
    # An all-NaN slice has count 0: its cotangent 1/0 is inf, but every entry is NaN and
    # so not taken by the select that drops NaNs; select's transpose must give 0, not NaN.
    x = np.array([[1.0, np.nan], [np.nan, np.nan]])
    for f in (xnp.nanmean, xnp.nanvar, xnp.nansum):
        g = xnp.grad(lambda a: xnp.sum(f(a, axis=1)))(x)
        assert np.isfinite(np.asarray(g)).all(), f
    np.testing.assert_array_equal(xnp.grad(lambda a: xnp.sum(xnp.nanmean(a, axis=1)))(x),
                                  [[1.0, 0.0], [0.0, 0.0]])
    clip_lo = xnp.grad(lambda lo: xnp.sum(xnp.clip(np.array([np.inf, -np.inf]), lo, 1.0)))
    assert float(clip_lo(0.0)) == 1.0


def test_interp_slope_at_the_knots():
    # At an inner knot the segment to its right is used (searchsorted side='right'), at
    # the last knot the last segment: its slope, not the zero of a constant value.
    xp, fp = np.array([0.0, 1.0, 2.0, 3.0]), np.array([0.0, 2.0, -1.0, -0.0])
    x = np.array([0.0, 1.0, 2.0, 3.0, 0.5, -1.0, 4.0])
    np.testing.assert_array_equal(xnp.grad(lambda a: xnp.sum(xnp.interp(a, xp, fp)))(x),
                                  [2.0, -3.0, 1.0, 1.0, 2.0, 0.0, 0.0])
    np.testing.assert_array_equal(xnp.grad(lambda b: xnp.sum(xnp.interp(x, b, fp)))(xp),
                                  [-3.0, 2.0, -1.0, -1.0])
    out = xnp.jit(xnp.interp)(x, xp, fp)                  # values (and -0.0) unchanged
    np.testing.assert_array_equal(np.signbit(out), np.signbit(np.interp(x, xp, fp)))


def _cofactors(a):
    n = a.shape[0]
    return np.array([[(-1) ** (i + j) * np.linalg.det(np.delete(np.delete(a, i, 0), j, 1))
                      for j in range(n)] for i in range(n)])


@pytest.mark.parametrize("a", [
    [[1.0, 2.0], [2.0, 4.0]],                                # one zero pivot
    [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]],
    [[0.0, 1.0], [0.0, 0.0]],                                # rank 1, two zero pivots
    np.triu(np.ones((4, 4)), 1),                             # rank 3, four zero pivots
    np.zeros((3, 3)),
    [[0.0, 1.0 + 1.0j], [0.0, 0.0]],
])
def test_det_gradient_is_the_cofactor_matrix_at_singular_matrices(a):
    # d det(A) = tr(adj(A) dA): the gradient is the cofactor matrix, finite at every A.
    a = np.asarray(a)
    if a.dtype.kind == "f":
        np.testing.assert_allclose(xnp.grad(xnp.linalg.det)(a), _cofactors(a), atol=1e-12)
    t = np.arange(a.size, dtype=a.dtype).reshape(a.shape)
    np.testing.assert_allclose(xnp.jvp(xnp.linalg.det, (a,), (t,))[1],
                               np.sum(_cofactors(a) * t), atol=1e-12)


def test_det_derivatives_at_regular_matrices():
    rng = np.random.default_rng(3)
    check_grads(xnp.linalg.det, [rng.standard_normal((2, 3, 3))], order=2)
    check_grads(xnp.linalg.det, [rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))],
                order=1)


# --- found by running JAX's api_test (APITest) against xnp --------------------------------

def test_aux_of_an_inner_grad_is_differentiable_outside():
    # aux leaves the inner transformation, not the outer ones: d/dx (x**3) = 3 x**2
    def via(transform):
        def f(x):
            return transform(lambda x: (x ** 3, [x ** 3]), has_aux=True)(x)[1][0]
        return f

    for t in (xnp.grad, xnp.jacfwd, xnp.jacrev):
        np.testing.assert_allclose(xnp.grad(via(t))(4.0), 48.0)
        np.testing.assert_allclose(xnp.jit(xnp.grad(via(t)))(4.0), 48.0)
    np.testing.assert_allclose(
        xnp.grad(lambda x: xnp.vjp(lambda x: (x ** 2, x ** 3), x, has_aux=True)[2])(2.0), 12.0)
    np.testing.assert_allclose(xnp.vmap(xnp.grad(via(xnp.grad)))(np.array([1.0, 2.0])),
                               [3.0, 12.0])


def test_jvp_and_linearize_with_aux():
    f = lambda x: (xnp.sin(x), {"c": xnp.cos(x)})
    x = np.array([0.3, 1.2])
    out, tangent, aux = xnp.jvp(f, (x,), (np.ones(2),), has_aux=True)
    np.testing.assert_allclose(out, np.sin(x))
    np.testing.assert_allclose(tangent, np.cos(x))
    np.testing.assert_allclose(aux["c"], np.cos(x))
    out, f_jvp, aux = xnp.linearize(f, x, has_aux=True)
    np.testing.assert_allclose(f_jvp(2 * np.ones(2)), 2 * np.cos(x))
    np.testing.assert_allclose(aux["c"], np.cos(x))


def test_jacobians_keep_the_signature_for_jit_static_argnames():
    def f(x, flag):
        return x * x if flag else xnp.zeros_like(x)

    for t in (xnp.grad, xnp.jacfwd, xnp.jacrev):
        g = xnp.jit(t(f), static_argnames=["flag"])
        np.testing.assert_allclose(g(3.0, True), 6.0)
        np.testing.assert_allclose(g(3.0, False), 0.0)


def test_linearized_function_checks_tangent_shapes():
    _, f_jvp = xnp.linearize(xnp.sum, np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(f_jvp(np.array([1.0, 1.0, 2.0])), 4.0)
    with pytest.raises(ValueError, match="inconsistent with the original primal"):
        f_jvp(np.ones((3, 2)))


def test_jax_lax_autodiff_regressions():
    # sinc at 0: its Maclaurin series 1 - (pi x)^2/6 + (pi x)^4/120 - ... gives the
    # derivatives 0, -pi^2/3, 0, pi^4/5, by any mix of forward and reverse mode.
    def deriv(f):
        return lambda x: xnp.jvp(f, (x,), (1.0,))[1]
    for fs, want in [((deriv,), 0.0), ((xnp.grad, deriv), -np.pi ** 2 / 3),
                     ((xnp.grad,) * 3, 0.0), ((deriv, xnp.grad) * 2, np.pi ** 4 / 5)]:
        f = xnp.sinc
        for t in fs:
            f = t(f)
        np.testing.assert_allclose(f(0.0), want, atol=1e-9)
    check_grads(xnp.sinc, (np.array([0.0, 0.3, -1.5]),), order=1)
    # stop_gradient stops outer derivatives too: d2/dx2 sin(x) cos(c) = -sin(x) cos(c).
    f = lambda x: xnp.sin(x) * xnp.cos(xnp.lax.stop_gradient(x))  # noqa: E731
    np.testing.assert_allclose(xnp.grad(xnp.grad(f))(0.7), -np.sin(0.7) * np.cos(0.7))
    # The mixed second derivative of x**y at y = 0 is 1/x (not 0), in both orders.
    want = [[0.0, 0.25], [0.25, np.log(4.0) ** 2]]
    for jac in (xnp.jacfwd, xnp.jacrev):
        got = jac(jac(xnp.lax.pow, (0, 1)), (0, 1))(4.0, 0.0)
        np.testing.assert_allclose(np.array(got, dtype=float), want, atol=1e-12)
    assert float(xnp.grad(lambda x: x ** 0.0)(0.0)) == 0.0


def test_tangents_take_the_primal_dtype():
    # A real tangent of a complex primal means a real direction: as a complex one, not
    # cast the primal to real inside a rule (which lost the imaginary part of qr's R).
    a = rng.normal(size=(4, 3)) + 1j * rng.normal(size=(4, 3))
    t = rng.normal(size=(4, 3))
    _, got = xnp.jvp(xnp.linalg.qr, (a,), (t,))
    _, want = xnp.jvp(xnp.linalg.qr, (a,), (t + 0j,))
    eps = 1e-6         # and both are qr's derivative along t: central differences
    plus, minus = np.linalg.qr(a + eps * t), np.linalg.qr(a - eps * t)
    assert len(got) == len(want) == 2
    for g, w, p, m in zip(got, want, plus, minus):
        np.testing.assert_allclose(g, w, atol=1e-12)
        np.testing.assert_allclose(g, (p - m) / (2 * eps), atol=1e-6)
    assert xnp.jvp(lambda x: x * 2, (np.float32(1),), (1.0,))[1].dtype == np.float32
    assert xnp.vjp(lambda x: x * 2, np.ones(2, np.float32))[1](np.ones(2))[0].dtype == \
        np.float32
    with pytest.raises(TypeError, match="tangent dtype complex128"):
        xnp.jvp(lambda x: x * 2, (np.ones(2),), (np.ones(2) + 1j,))


def test_jacobians_of_complex_values_follow_the_holomorphic_rule():
    z = np.array([1.0 + 2.0j, -0.5 + 0.25j])
    for jac in (xnp.jacfwd, xnp.jacrev):       # the complex derivative: diag(2 z)
        np.testing.assert_allclose(jac(lambda z: z ** 2, holomorphic=True)(z),
                                   np.diag(2 * z), rtol=1e-15)
        with pytest.raises(TypeError, match="holomorphic=True requires inputs"):
            jac(lambda x: x ** 2, holomorphic=True)(np.array([3.0]))
    with pytest.raises(TypeError, match="real-valued inputs"):
        xnp.jacfwd(xnp.sin)(z)                  # as JAX: complex inputs need holomorphic
    with pytest.raises(TypeError, match="real-valued outputs"):
        xnp.jacrev(xnp.sin)(z)
    # a real-valued function of complex inputs: jacrev gives df/dx - i df/dy (grad's rule)
    np.testing.assert_allclose(xnp.jacrev(lambda z: xnp.abs(z) ** 2)(z), np.diag(2 * z.conj()),
                               rtol=1e-15)


def test_jvp_with_mismatched_primal_and_tangent_structures_raises_type_error():
    with pytest.raises(TypeError, match="structures differ"):
        xnp.jvp(lambda x, y: x * y, (np.float64(2.0),), ())
    with pytest.raises(TypeError, match="structures differ"):
        xnp.jvp(lambda x: x * 2, ((1.0, 2.0),), ([1.0, 2.0],))

