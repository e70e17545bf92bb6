"""while_loop under vmap with a batched predicate, run eagerly: the body runs only on the
members whose loop is still running (as the Python loop does), so it never sees a value
past the point where its predicate stopped it; a Python loop of the unbatched
while_loop is the oracle. Under jit the select-based loop is kept."""

import warnings

import numpy as np
import pytest

import xnp
from transforms import grad, jit, jvp, vmap
from xnp.lax import fori_loop, while_loop


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def _solve_steps(a, n):
    """n solves x <- a^-1 x; a singular member runs none."""
    return while_loop(lambda c: c[1] < n, lambda c: (xnp.linalg.solve(a, c[0]), c[1] + 1),
                      (xnp.ones(2), 0))[0]


def _solve_steps_np(a, n):
    x = np.ones(2)
    for _ in range(n):
        x = np.linalg.solve(a, x)
    return x


def _exp_until_large(x):
    """exp until x >= 100: one more exp of a finished member would overflow."""
    return while_loop(lambda c: c < 100.0, xnp.exp, x)


def _exp_until_large_np(x):
    while x < 100.0:
        x = np.exp(x)
    return x


def _data():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.5, 1.5, (2, 3, 2, 2)) + 2 * np.eye(2)
    n = np.array([[0, 3, 1], [2, 0, 4]])
    a[0, 0] = a[1, 1] = 0.0                     # singular, but no step runs on them
    return a, n


def test_body_runs_only_on_members_still_looping():
    a, n = _data()
    close(vmap(_solve_steps)(a[0], n[0]), [_solve_steps_np(m, k) for m, k in zip(a[0], n[0])])
    x = np.array([0.1, 50.0, 3.0, 200.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no overflow of a finished member's exp
        close(vmap(_exp_until_large)(x), [_exp_until_large_np(v) for v in x])


def test_nested_vmap_runs_the_body_only_on_running_members():
    a, n = _data()
    expected = [[_solve_steps_np(a[i, j], n[i, j]) for j in range(3)] for i in range(2)]
    close(vmap(vmap(_solve_steps))(a, n), expected)
    x = np.array([[0.1, 50.0, 3.0], [200.0, 1.0, 4.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        close(vmap(vmap(_exp_until_large))(x),
              [[_exp_until_large_np(v) for v in row] for row in x])


def test_jit_keeps_the_select_loop():
    x = np.array([0.1, 2.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(jit(vmap(_exp_until_large))(x), [_exp_until_large_np(v) for v in x])


@pytest.mark.parametrize("nested", [False, True])
def test_derivatives_of_a_batched_while(nested):
    x = np.array([0.5, 1.2, 2.0, 3.5])
    f = lambda x: while_loop(lambda c: c[0] < 10.0,  # noqa: E731
                             lambda c: (c[0] * c[0] + 1.0, c[1] * 2.0 * c[0]), (x, 1.0))[1]

    def f_np(x):                     # the value and derivative of c[1] by the chain rule
        c0, c1, d0, d1 = x, 1.0, 1.0, 0.0
        while c0 < 10.0:
            c0, c1, d0, d1 = c0 * c0 + 1.0, c1 * 2.0 * c0, 2 * c0 * d0, 2 * (d1 * c0 + c1 * d0)
        return c1, d1
    values = [f_np(v)[0] for v in x]
    derivs = [f_np(v)[1] for v in x]
    g = grad(f)
    if nested:
        x, values, derivs = (np.reshape(v, (2, 2)) for v in (x, values, derivs))
        f, g = vmap(f), vmap(g)
    close(vmap(f)(x), values)
    close(vmap(g)(x), derivs)
    close(grad(lambda x: vmap(f)(x).sum())(x), derivs)
    close(jvp(vmap(f), (x,), (np.ones_like(x),))[1], derivs)
    close(vmap(lambda x: jvp(f, (x,), (np.ones_like(x),))[1])(x), derivs)


def test_fori_loop_with_batched_traced_bounds():
    n = np.array([0, 3, 7, 1])
    f = lambda n, x: fori_loop(0, n, lambda i, c: c * x + i, 1.0)  # noqa: E731

    def f_np(n, x):
        c = 1.0
        for i in range(n):
            c = c * x + i
        return c
    x = np.array([0.5, 1.5, 2.0, -1.0])
    close(vmap(f)(n, x), [f_np(k, v) for k, v in zip(n, x)])
    close(vmap(grad(f, argnums=1))(n, x),
          [(f_np(k, v + 1e-6) - f_np(k, v - 1e-6)) / 2e-6 for k, v in zip(n, x)], 1e-5)


def test_control_flow_nested_in_a_batched_cond_or_while_stays_partitioned():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = lambda x: xnp.lax.cond(x > 0, _exp_until_large, lambda x: -x, x)  # noqa: E731
        x = np.array([0.5, -2.0, 3.0, 60.0])
        close(vmap(f)(x), [_exp_until_large_np(v) if v > 0 else -v for v in x])
    a, n = _data()

    def g(a, n):        # more steps than the batched loop runs interpreted, all alike
        def body(c):
            x = xnp.lax.cond(xnp.linalg.det(a) != 0, lambda x: xnp.linalg.solve(a, x),
                             lambda x: x, c[0])
            return x, c[1] + 1
        return while_loop(lambda c: c[1] < n + 6, body, (xnp.ones(2), 0))[0]

    def g_np(a, n):
        return np.ones(2) if np.linalg.det(a) == 0 else _solve_steps_np(a, n + 6)
    close(vmap(g)(a[0], n[0]), [g_np(m, k) for m, k in zip(a[0], n[0])])
