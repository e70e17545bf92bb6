"""cond, switch, while_loop, fori_loop, scan and map: eager results against the Python
loop or ``if`` they stand for (NumPy as the oracle), derivatives against finite
differences and the JVP/VJP identity (check_grads), vmap against a loop, jit against
eager, every composition in both orders, and JAX's errors."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import xnp
from transforms import grad, hessian, jacfwd, jacrev, jit, jvp, make_jaxpr, vmap
from transforms.test_util import check_grads
from xnp.lax import cond, fori_loop, map, scan, switch, while_loop  # noqa: A004


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# --- models and their NumPy references ----------------------------------------------------

def piecewise(x, w):
    return cond(xnp.sum(x) > 0, lambda x: xnp.sin(x) * w, lambda x: x ** 2 - w, x)


def piecewise_ref(x, w):
    x = np.asarray(x)
    return np.sin(x) * w if x.sum() > 0 else x ** 2 - w


def rnn(w, h0, xs):
    """A tanh recurrence; returns the sum of the final state and of all outputs."""
    def step(h, x):
        h = xnp.tanh(w @ h + x)
        return h, xnp.sum(h ** 2)
    h, ys = scan(step, h0, xs)
    return xnp.sum(h) + xnp.sum(ys)


def rnn_ref(w, h0, xs):
    h, total = np.asarray(h0), 0.0
    for x in np.asarray(xs):
        h = np.tanh(np.asarray(w) @ h + x)
        total += np.sum(h ** 2)
    return h.sum() + total


rng = np.random.default_rng(0)
W = rng.standard_normal((3, 3)) * 0.5
H0 = rng.standard_normal(3)
XS = rng.standard_normal((4, 3))


# --- cond and switch -------------------------------------------------------------------------

@given(st.floats(-3, 3), st.floats(-3, 3))
def test_cond_matches_python_if_in_every_transform(a, b):
    x = np.array([a, b])
    want = piecewise_ref(x, 1.5)
    close(piecewise(x, 1.5), want)
    close(jit(piecewise)(x, 1.5), want)
    close(vmap(piecewise, (0, None))(np.stack([x, -x]), 1.5),
          [piecewise_ref(x, 1.5), piecewise_ref(-x, 1.5)])


def test_cond_derivatives_in_both_branches_and_compositions():
    for x in (np.array([0.3, 0.9]), np.array([-0.7, 0.1])):
        check_grads(piecewise, (x, 1.5), order=2)
        g = grad(lambda x, w: xnp.sum(piecewise(x, w)), argnums=(0, 1))
        eager = g(x, 1.5)
        for transformed in (jit(g), grad(lambda x, w: xnp.sum(jit(piecewise)(x, w)),
                                         argnums=(0, 1))):
            for e, t in zip(eager, transformed(x, 1.5)):
                close(t, e)
    xs = np.array([[0.3, 0.9], [-0.7, 0.1], [2.0, -1.0]])
    per_example = [grad(lambda x: xnp.sum(piecewise(x, 1.5)))(x) for x in xs]
    batched = vmap(grad(lambda x: xnp.sum(piecewise(x, 1.5))))
    close(batched(xs), per_example)
    close(jit(batched)(xs), per_example)       # the batched predicate becomes a select


def test_cond_pytrees_numbers_as_predicates_and_closures():
    out = cond(2, lambda d: {"a": d["x"] + 1, "b": (d["x"],)}, lambda d: {"a": d["x"] - 1,
               "b": (d["x"] * 0,)}, {"x": np.arange(3.0)})
    close(out["a"], np.arange(3.0) + 1)
    close(out["b"][0], np.arange(3.0))
    assert cond(0.0, lambda: 1.0, lambda: 2.0) == 2.0
    assert cond(np.float32(-0.0), lambda: 1, lambda: 2) == 2     # -0.0 is false
    # Values closed over are operands: derivatives flow into them.
    f = lambda w: cond(w > 1, lambda: w ** 3, lambda: -w)  # noqa: E731
    close(grad(f)(2.0), 12.0)
    close(grad(f)(0.5), -1.0)
    close(jit(grad(f))(2.0), 12.0)


def test_switch_clamps_the_index_like_jax():
    branches = [lambda x: x, lambda x: 2 * x, lambda x: -x]
    for i in (-5, 0, 1, 2, 9):
        want = [1.5, 3.0, -1.5][min(max(i, 0), 2)]
        assert float(switch(i, branches, 1.5)) == want
        assert float(jit(lambda i, x: switch(i, branches, x))(i, 1.5)) == want
    idx = np.array([-1, 0, 1, 2, 3])
    close(vmap(lambda i: switch(i, branches, 1.5))(idx), [1.5, 1.5, 3.0, -1.5, -1.5])
    close(grad(lambda x: switch(2, branches, x))(1.0), -1.0)


def test_cond_errors_name_the_problem():
    with pytest.raises(TypeError, match="pred must be a scalar"):
        cond(np.array([True, False]), lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match="identical types"):
        cond(True, lambda: np.float32(1), lambda: np.float64(1))
    with pytest.raises(TypeError, match="same pytree structure"):
        cond(True, lambda: (1.0, 2.0), lambda: 1.0)
    with pytest.raises(TypeError, match="callable"):
        cond(True, 1.0, lambda: 1.0)
    with pytest.raises(TypeError, match="index must be an integer"):
        switch(1.0, [lambda: 1.0], )
    with pytest.raises(ValueError, match="non-empty"):
        switch(0, [])


def test_cond_lowers_to_case():
    text = jit(piecewise).lower(np.ones(2), 1.0).as_text()
    assert "stablehlo.case" in text
    assert "cond[" in str(make_jaxpr(piecewise)(np.ones(2), 1.0))


# --- scan and map ------------------------------------------------------------------------------

@given(st.integers(0, 6), st.integers(0, 3), st.booleans())
def test_scan_cumulative_sum_matches_numpy(n, m, reverse):
    xs = np.random.default_rng(n * 7 + m).standard_normal((n, m))

    def f(xs):
        return scan(lambda c, x: (c + x, c * 2), np.zeros(m), xs, reverse=reverse)

    order = xs[::-1] if reverse else xs
    partial = np.cumsum(np.concatenate([np.zeros((1, m)), order]), axis=0)
    want_ys = (partial[:-1] * 2)[::-1] if reverse else partial[:-1] * 2
    for fn in (f, jit(f)):
        carry, ys = fn(xs)
        close(carry, partial[-1])
        assert np.asarray(ys).shape == (n, m)
        close(ys, want_ys)


def test_scan_rnn_values_and_derivatives():
    close(rnn(W, H0, XS), rnn_ref(W, H0, XS))
    close(jit(rnn)(W, H0, XS), rnn_ref(W, H0, XS))
    check_grads(rnn, (W, H0, XS), order=2)
    g = grad(rnn, argnums=(0, 1, 2))
    eager = g(W, H0, XS)
    for other in (jit(g)(W, H0, XS), grad(jit(rnn), argnums=(0, 1, 2))(W, H0, XS)):
        for e, o in zip(eager, other):
            close(o, e)
    close(jacfwd(rnn, argnums=1)(W, H0, XS), jacrev(rnn, argnums=1)(W, H0, XS))
    hess = hessian(rnn, argnums=1)(W, H0, XS)
    close(hess, np.asarray(hess).T, 1e-8)


def test_scan_under_vmap_every_argument_batched_or_not():
    ws = np.stack([W, W * 0.5])
    h0s = np.stack([H0, -H0])
    xss = np.stack([XS, XS[::-1]], axis=1)              # batched along axis 1
    for in_axes, args in [((0, None, None), (ws, H0, XS)), ((None, 0, None), (W, h0s, XS)),
                          ((None, None, 1), (W, H0, xss)), ((0, 0, 1), (ws, h0s, xss))]:
        got = vmap(rnn, in_axes)(*args)
        want = [rnn_ref(*[a if ax is None else np.take(a, b, axis=ax)
                          for a, ax in zip(args, in_axes)]) for b in range(2)]
        close(got, want)
        close(jit(vmap(rnn, in_axes))(*args), want)
        per_example = [grad(rnn)(*[a if ax is None else np.take(a, b, axis=ax)
                                   for a, ax in zip(args, in_axes)]) for b in range(2)]
        close(vmap(grad(rnn), in_axes)(*args), per_example)


def test_scan_pytrees_length_only_and_map():
    carry, ys = scan(lambda c, _: ((c[0] + 1, c[1] * 2), {"i": c[0]}), (0, 1.0), None,
                     length=4)
    assert int(carry[0]) == 4 and float(carry[1]) == 16.0
    close(ys["i"], [0, 1, 2, 3])
    close(map(lambda x: x ** 2, np.arange(4.0)), np.arange(4.0) ** 2)
    close(vmap(lambda v: map(lambda x: x * v, np.arange(3.0)))(np.array([1.0, 2.0])),
          [[0, 1, 2], [0, 2, 4]])
    # A Python-scalar carry takes the dtype the body gives it, as in JAX.
    carry, _ = scan(lambda c, x: (c + x, None), 0, np.array([0.5, 0.25]))
    assert np.asarray(carry).dtype == np.float64 and float(carry) == 0.75


def test_scan_in_place_code_in_the_body():
    def f(v):
        def step(a, i):
            a = a.copy()
            a[i] = a[i] * v + 1.0
            return a, a.sum()
        return scan(step, xnp.zeros(3), xnp.arange(3))

    a, sums = f(2.0)
    close(a, [1, 1, 1])
    close(sums, [1, 2, 3])
    close(jit(f)(2.0)[0], [1, 1, 1])
    close(grad(lambda v: f(v)[1].sum())(2.0), 0.0)


def test_scan_errors():
    with pytest.raises(ValueError, match="different leading axis sizes"):
        scan(lambda c, x: (c, x), 0.0, (np.ones(2), np.ones(3)))
    with pytest.raises(ValueError, match="disagrees"):
        scan(lambda c, x: (c, x), 0.0, np.ones(2), length=3)
    with pytest.raises(ValueError, match="no leading axis"):
        scan(lambda c, x: (c, x), 0.0, np.float64(1.0))
    with pytest.raises(ValueError, match="length"):
        scan(lambda c, x: (c, x), 0.0)
    with pytest.raises(TypeError, match="pair"):
        scan(lambda c, x: c, 0.0, np.ones(2))
    with pytest.raises(TypeError, match="same types"):
        scan(lambda c, x: (c.astype(np.float32), x), np.float64(0), np.ones(2))
    with pytest.raises(TypeError, match="structure"):
        scan(lambda c, x: ((c, c), x), 0.0, np.ones(2))


# --- while_loop and fori_loop --------------------------------------------------------------

def newton_sqrt(a):
    def body(c):
        x, i = c
        return 0.5 * (x + a / x), i + 1
    return while_loop(lambda c: c[1] < 30, body, (a, 0))[0]


def test_while_loop_values_and_forward_mode():
    for a in (2.0, 9.0):
        close(newton_sqrt(a), np.sqrt(a))
        close(jit(newton_sqrt)(a), np.sqrt(a))
        close(jvp(newton_sqrt, (a,), (1.0,))[1], 0.5 / np.sqrt(a))
        close(jvp(jit(newton_sqrt), (a,), (1.0,))[1], 0.5 / np.sqrt(a))
    close(vmap(newton_sqrt)(np.array([2.0, 9.0])), [np.sqrt(2), 3.0])
    close(jacfwd(newton_sqrt)(4.0), 0.25)


def newton_sqrt_to_tolerance(a):
    def body(c):
        x, i = c
        return 0.5 * (x + a / x), i + 1
    return while_loop(lambda c: xnp.abs(c[0] ** 2 - a) > 1e-12, body, (a, 0))[0]


def test_while_loop_reverse_mode_eagerly_and_its_error_under_jit():
    close(grad(newton_sqrt)(2.0), 0.5 / np.sqrt(2.0))
    close(grad(newton_sqrt_to_tolerance)(2.0), 0.5 / np.sqrt(2.0))
    check_grads(lambda a: newton_sqrt(a) ** 2, (np.float64(3.0),), order=1)
    # a predicate on constants alone (the counter) is known while staging: the loop
    # unrolls on the tape, as eagerly
    close(jit(grad(newton_sqrt))(2.0), 0.5 / np.sqrt(2.0))
    with pytest.raises(TypeError, match="Reverse-mode differentiation does not work"):
        jit(grad(newton_sqrt_to_tolerance))(2.0)


def count_halvings(x):
    return while_loop(lambda c: c[0] > 1.0, lambda c: (c[0] / 2, c[1] + 1), (x, 0))[1]


@given(st.lists(st.floats(0.1, 1000), min_size=1, max_size=5))
def test_while_loop_with_a_batched_predicate_matches_a_loop(values):
    want = []
    for v in values:
        n = 0
        while v > 1.0:
            v, n = v / 2, n + 1
        want.append(n)
    x = np.array(values)
    close(vmap(count_halvings)(x), want)
    close(jit(vmap(count_halvings))(x), want)


def test_fori_loop_concrete_bounds_use_scan_and_traced_bounds_a_while():
    def f(x, n=5):
        return fori_loop(0, n, lambda i, v: v * x + i, 1.0)

    def ref(x, n=5):
        v = 1.0
        for i in range(n):
            v = v * x + i
        return v

    close(f(1.5), ref(1.5))
    check_grads(f, (np.float64(1.5),), order=2)
    close(jit(grad(f))(1.5), grad(f)(1.5))
    assert "scan[" in str(make_jaxpr(f)(1.5))
    traced = jit(lambda x, n: fori_loop(0, n, lambda i, v: v * x, 1.0))
    close(traced(2.0, 10), 1024.0)
    assert "while[" in str(make_jaxpr(lambda x, n: fori_loop(0, n, lambda i, v: v * x, 1.0))
                           (2.0, 3))
    assert float(fori_loop(5, 2, lambda i, v: v + 1, 0.0)) == 0.0      # empty range
    assert int(fori_loop(np.int32(0), 4, lambda i, v: v + i, np.int32(0))) == 6


def test_while_loop_errors():
    with pytest.raises(TypeError, match="boolean scalar"):
        while_loop(lambda c: c, lambda c: c - 1, 3.0)
    with pytest.raises(TypeError, match="same types"):
        while_loop(lambda c: c < 3, lambda c: (c + 1).astype(np.float32), np.float64(0))
    with pytest.raises(TypeError, match="equal types"):     # a float and an int, as JAX
        fori_loop(0.0, 3, lambda i, v: v, 0.0)


# --- nesting and collectives -------------------------------------------------------------

def test_nested_control_flow_composes():
    def f(w):
        def outer(c, x):
            inner = fori_loop(0, 3, lambda i, v: cond(i % 2 == 0, lambda v: v * w,
                                                      lambda v: v + x, v), c)
            return inner, inner
        c, ys = scan(outer, 1.0, np.array([0.5, -0.5]))
        return c + ys.sum()

    def ref(w):
        c, total = 1.0, 0.0
        for x in (0.5, -0.5):
            for i in range(3):
                c = c * w if i % 2 == 0 else c + x
            total += c
        return c + total

    close(f(1.3), ref(1.3))
    close(jit(f)(1.3), ref(1.3))
    close(grad(f)(1.3), (ref(1.3 + 1e-6) - ref(1.3 - 1e-6)) / 2e-6, 1e-6)
    close(jit(grad(f))(1.3), grad(f)(1.3))
    close(vmap(grad(f))(np.array([1.3, 0.7])), [grad(f)(1.3), grad(f)(0.7)])


def test_collectives_inside_cond_and_scan_under_vmap():
    def normalise(x):
        return cond(x > 0, lambda x: x / xnp.lax.psum(x, "b"), lambda x: x * 0, x)

    x = np.array([1.0, 3.0, -2.0])
    close(vmap(normalise, axis_name="b")(x), [1 / 2, 3 / 2, 0.0])

    def running(x):
        return scan(lambda c, _: (c + xnp.lax.pmean(x, "b"), c), 0.0, None, length=3)[1]
    close(vmap(running, axis_name="b")(x), [[0, 2 / 3, 4 / 3]] * 3)


def test_custom_rules_survive_inside_loop_bodies():
    @xnp.custom_jvp
    def f(x):
        return xnp.sin(x)

    @f.defjvp
    def _(primals, tangents):
        return f(primals[0]), 100.0 * tangents[0]     # not cos: shows the rule ran

    def g(w):
        return scan(lambda c, x: (f(c * w) + x, None), 0.5, np.ones(2))[0]

    c1 = np.sin(0.5 * 2.0) + 1
    want = 100 * (100 * 0.5 * 2.0 + c1)          # d/dw of c2 = f(c1 * w) + 1 with f' = 100
    close(grad(g)(2.0), want)
    close(jit(grad(g))(2.0), want)
    close(vmap(grad(g))(np.array([2.0, 2.0])), [want, want])


# --- found by running JAX's lax_control_flow_test against xnp -----------------------------

def test_linearize_of_jitted_while_loop():
    # The primal outputs are computed by a loop over the primal carry only (they are
    # not tangent-tape values); the tangent map runs the JVP loop.
    from transforms import linearize
    cond_fun = lambda x: x[0, 2] <= 8
    body = lambda x: x * x
    x = np.arange(9.0).reshape(3, 3)
    ref = x ** 4                     # two steps: x[0, 2] = 2, then 4 <= 8, then 16 > 8
    for f in (jit(lambda x: while_loop(cond_fun, body, x)),
              lambda x: while_loop(cond_fun, body, x)):
        y, f_lin = linearize(f, xnp.asarray(x))
        close(y, ref)
        close(f_lin(xnp.asarray(x)), 4 * x ** 4)      # d(x^4) = 4 x^3 dx with dx = x
        close(jvp(f, (x,), (x,))[1], 4 * x ** 4)
    with pytest.raises(TypeError, match="scan"):
        grad(lambda x: jit(lambda x: while_loop(cond_fun, body, x))(x).sum())(x)


def test_vmap_cond_batched_predicate_gradient_has_no_nan():
    # Each member differentiates only the branch it takes: sqrt's infinite slope at 0
    # in the branch a member does not take must not reach it as a NaN.
    eps = 1e-3

    def safe_sqrt(x):
        return cond(x < eps, lambda _: eps, lambda _: xnp.sqrt(x), ())

    x = np.array([0.0, 0.5, 4.0])
    expected = [0.0, 0.5 / np.sqrt(0.5), 0.25]
    with np.errstate(divide="ignore", invalid="ignore"):
        close(grad(lambda x: vmap(safe_sqrt)(x).sum())(x), expected)
        close(jit(grad(lambda x: vmap(safe_sqrt)(x).sum()))(x), expected)
        close(vmap(grad(safe_sqrt))(x), expected)


def test_vmap_cond_batched_predicate_keeps_forwarded_operand_unbatched():
    def f(x, y):
        return cond(x < 3, lambda x, y: (x * 2, y), lambda x, y: (x * 3, y), x, y)

    x = np.arange(5)
    a, b = vmap(f, in_axes=(0, None), out_axes=(0, None))(x, np.asarray(3.0))
    close(a, [0, 2, 4, 9, 12])
    close(b, 3.0)
    close(grad(lambda y: vmap(f, in_axes=(0, None))(x, y)[1].sum())(2.0), 5.0)


def test_forwarded_python_scalar_outputs_are_arrays():
    # jvp of a cond returning its (Python float) operand unchanged
    fun = lambda x: cond(x < 3, lambda x: (x, x), lambda x: (2 * x, 4 * x), x)
    primal, tangent = jvp(fun, (2.72,), (1.0,))
    for out in (*primal, *tangent):
        assert out.shape == () and out.ndim == 0 and out.size == 1
        assert out.dtype == np.float64
    close([float(v) for v in primal], [2.72, 2.72])
    close([float(v) for v in tangent], [1.0, 1.0])


def test_outputs_and_carries_passed_through_unchanged_stay_what_they_were():
    # A cond output every branch returns unchanged, and a scan carry the body returns
    # unchanged, are their inputs (as in JAX): unbatched under a batched predicate.
    def f(p, x):
        def then(x):
            return scan(lambda c, _: (c, None), x, None, length=3)[0]
        return cond(p > 0, then, lambda x: x, x)
    preds = np.array([1.0, -1.0, 2.0])
    assert float(vmap(f, in_axes=(0, None), out_axes=None)(preds, 2.5)) == 2.5
    np.testing.assert_array_equal(vmap(f, in_axes=(0, None))(preds, 2.5), np.full(3, 2.5))

    def g(p, x, y):   # one output forwarded, one computed: the computed one is batched
        return cond(p > 0, lambda x, y: (x, y * 2.0), lambda x, y: (x, y - 1.0), x, y)
    a, b = vmap(g, in_axes=(0, None, None), out_axes=(None, 0))(preds, 1.5, 4.0)
    assert float(a) == 1.5
    np.testing.assert_array_equal(b, [8.0, 3.0, 8.0])
    jaxpr = make_jaxpr(lambda p, x: cond(p > 0, lambda x: x, lambda x: x, x))(1.0, 2.0)
    assert "cond" not in str(jaxpr)


def test_scan_with_a_read_only_carry_matches_a_python_loop_and_its_derivatives():
    xs = np.array([0.5, -1.0, 2.0, 0.25])

    def loop(w, xs):       # carry (acc, w): w is read in the body and returned unchanged
        def body(c, x):
            acc, w = c
            return (acc * 0.9 + w * x, w), acc
        (acc, w_out), ys = scan(body, (0.0, w), xs)
        return acc + w_out ** 2 + ys.sum()

    def python_loop(w, xs):
        acc, total = 0.0, 0.0
        for x in xs:
            total += acc
            acc = acc * 0.9 + w * x
        return acc + w ** 2 + total

    for w in (0.3, -1.7):
        np.testing.assert_allclose(loop(w, xs), python_loop(w, xs), rtol=1e-14)
        np.testing.assert_allclose(jit(loop)(w, xs), python_loop(w, xs), rtol=1e-14)
        eps = 1e-6
        fd = (python_loop(w + eps, xs) - python_loop(w - eps, xs)) / (2 * eps)
        np.testing.assert_allclose(grad(loop)(w, xs), fd, rtol=1e-8)
        np.testing.assert_allclose(jit(grad(loop))(w, xs), fd, rtol=1e-8)
    ws = np.array([0.3, -1.7, 2.0])
    np.testing.assert_allclose(vmap(loop, in_axes=(0, None))(ws, xs),
                               [python_loop(w, xs) for w in ws], rtol=1e-14)
    check_grads(loop, (0.7, xs), order=2, modes=("fwd", "rev"))


def test_while_with_a_read_only_carry_stays_unbatched_under_a_batched_predicate():
    # the predicate depends on a mapped bound, w is returned unchanged by the body: it is
    # a constant of the loop, so out_axes=None for it is valid (JAX's flax#4700 case)
    def foo(w, x, c_max):
        _, x, w = while_loop(lambda v: v[0] < c_max,
                             lambda v: (v[0] + 1, v[1] @ v[2], v[2]), (0, x, w))
        return w, x

    w = np.array([[1.0, 0.5], [-0.25, 2.0]])
    xs = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0], [-2.0, 1.0]])
    c_maxs = np.arange(4)

    def python_loop(x, c_max):
        for _ in range(c_max):
            x = x @ w
        return x

    want = np.stack([python_loop(x, c) for x, c in zip(xs, c_maxs)])
    for f in (vmap(foo, in_axes=(None, 0, 0), out_axes=(None, 0)),
              jit(vmap(foo, in_axes=(None, 0, 0), out_axes=(None, 0)))):
        w_out, x_out = f(xnp.asarray(w), xnp.asarray(xs), xnp.asarray(c_maxs))
        np.testing.assert_array_equal(w_out, w)
        np.testing.assert_allclose(x_out, want, rtol=1e-14)
    # derivatives through the loop with the read-only carry: d/dw of sum(x_out) by FD
    g = grad(lambda w: foo(w, xnp.asarray(xs[3]), 3)[1].sum())(xnp.asarray(w))
    eps, fd = 1e-6, np.zeros_like(w)
    for i in np.ndindex(w.shape):
        d = np.zeros_like(w)
        d[i] = eps
        fd[i] = ((python_loop_w(xs[3], 3, w + d) - python_loop_w(xs[3], 3, w - d)).sum()
                 / (2 * eps))
    np.testing.assert_allclose(g, fd, rtol=1e-7)


def python_loop_w(x, n, w):
    for _ in range(n):
        x = x @ w
    return x


def test_scan_and_fori_loop_check_unroll_and_bound_types_as_jax():
    body = lambda c, x: (c + x, c * x)  # noqa: E731
    xs = np.arange(4.0)
    for unroll in (0, 1, 3, True, False, np.int64(2)):  # accepted; same values as the loop
        carry, ys = scan(body, 0.0, xs, unroll=unroll)
        np.testing.assert_allclose(carry, 6.0)
        np.testing.assert_allclose(ys, [0.0, 0.0, 2.0, 9.0])
    for bad in (-1, 1.5):
        with pytest.raises(ValueError, match="unroll"):
            scan(body, 0.0, xs, unroll=bad)
    from transforms import ConcretizationTypeError
    with pytest.raises(ConcretizationTypeError, match="unroll"):
        jit(lambda n, x: scan(body, x, xs, unroll=n))(3, 1.0)
    # fori_loop: bounds of different dtypes (neither a Python int) are an error; a Python
    # int takes the other bound's dtype; unroll needs concrete bounds
    with pytest.raises(TypeError, match="equal types"):
        fori_loop(np.int16(0), xnp.asarray(np.int32(10)), lambda i, c: c, 7.0)
    assert float(fori_loop(np.int16(0), 10, lambda i, c: c + 1, 10.0)) == 20.0
    assert float(fori_loop(0, 4, lambda i, c: c + i, 0.0, unroll=2)) == 6.0
    with pytest.raises(ValueError, match="unroll"):
        jit(lambda n: fori_loop(0, n, lambda i, c: c + 1, 0.0, unroll=3))(10)
    assert float(jit(lambda n: fori_loop(0, n, lambda i, c: c + i, 0.0))(5)) == 10.0


def test_fori_loop_with_float_bounds_matches_a_python_loop():
    # As in JAX: the index starts at lower and steps by one; concrete bounds run
    # int(upper) - int(lower) steps, traced ones while the index is below upper.
    def python_loop(lo, steps, x):
        v, i = 1.0, lo
        for _ in range(steps):
            v, i = v * x + i, i + 1.0
        return v
    body = lambda x: (lambda i, v: v * x + i)  # noqa: E731
    for lo, hi in ((0.0, 3.0), (0.5, 3.2), (2.0, 1.0)):
        want = python_loop(lo, max(int(hi) - int(lo), 0), 1.5)
        np.testing.assert_allclose(fori_loop(lo, hi, body(1.5), 1.0), want, rtol=1e-15)
        eps = 1e-6
        fd = (python_loop(lo, max(int(hi) - int(lo), 0), 1.5 + eps) -
              python_loop(lo, max(int(hi) - int(lo), 0), 1.5 - eps)) / (2 * eps)
        np.testing.assert_allclose(grad(lambda x: fori_loop(lo, hi, body(x), 1.0))(1.5), fd,
                                   rtol=1e-7)
    traced = jit(lambda lo, hi: fori_loop(lo, hi, body(1.5), 1.0))
    np.testing.assert_allclose(traced(0.5, 3.2), python_loop(0.5, 3, 1.5), rtol=1e-15)
    with pytest.raises(TypeError, match="integer or float"):
        fori_loop(np.complex128(0), np.complex128(2), body(1.5), 1.0)


@pytest.mark.parametrize("batch_size", [1, 2, 3, 7, 10])
def test_map_batch_size_matches_a_loop(batch_size):
    xs = np.random.default_rng(0).normal(size=(7, 3))
    f = lambda d: {"a": xnp.sin(d["x"]) * d["x"].sum(), "b": d["n"] * 2}  # noqa: E731
    out = map(f, {"x": xnp.asarray(xs), "n": xnp.arange(7)}, batch_size=batch_size)
    close(out["a"], np.stack([np.sin(x) * x.sum() for x in xs]))
    np.testing.assert_array_equal(out["b"], np.arange(7) * 2)
    loss = lambda v: map(lambda x: xnp.sin(x).sum(), v, batch_size=batch_size).sum()  # noqa: E731
    close(grad(loss)(xnp.asarray(xs)), np.cos(xs))
    close(jit(lambda v: map(lambda x: x * 2, v, batch_size=batch_size))(xnp.asarray(xs)),
          2 * xs)
    with pytest.raises(ValueError, match="batch_size"):
        map(lambda x: x, xnp.ones(3), batch_size=0)
