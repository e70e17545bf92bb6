"""cond and switch under vmap with a batched predicate or index, run eagerly: each member
goes through the branch it takes only (as the Python loop does), so a branch is never
evaluated on a member outside its domain; NumPy's loop is the oracle."""

import numpy as np

import xnp
from transforms import grad, jit, vmap
from xnp.lax import cond, switch


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def _safe_inverse(a):
    return cond(xnp.linalg.det(a) != 0, xnp.linalg.inv, xnp.zeros_like, a)


def test_branch_not_taken_by_a_singular_member_is_not_evaluated_on_it():
    a = np.stack([np.eye(2) * 2.0, np.zeros((2, 2)), np.array([[1.0, 2.0], [3.0, 4.0]])])
    expected = [np.linalg.inv(m) if np.linalg.det(m) != 0 else np.zeros((2, 2)) for m in a]
    close(vmap(_safe_inverse)(a), expected)      # eagerly raised LinAlgError before
    close(jit(vmap(_safe_inverse))(a), expected)


def test_gradient_of_a_batched_cond_over_linear_algebra():
    # The linearized branches take each other's residuals as zeros: the transposed det
    # branch must not solve with the zero factors of the members taking the other one.
    rng = np.random.default_rng(0)
    a = rng.uniform(0.2, 0.8, (3, 3, 3))
    preds = np.array([True, False, True])
    f = lambda x, p: cond(p, xnp.linalg.det, lambda x: -xnp.linalg.det(x), x)  # noqa: E731
    # d det(x) / dx = det(x) inv(x)^T
    expected = [(1 if p else -1) * np.linalg.det(m) * np.linalg.inv(m).T
                for m, p in zip(a, preds)]
    close(vmap(grad(f))(a, preds), expected)
    close(jit(vmap(grad(f)))(a, preds), expected)
    close(grad(lambda x: vmap(f)(x, preds).sum())(a), expected)


def test_switch_with_a_batched_index_solves_only_for_its_members():
    rng = np.random.default_rng(1)
    a = rng.uniform(0.2, 0.8, (4, 3, 3))
    b = rng.uniform(0.2, 0.8, (4, 3))
    idx = np.array([2, 0, 1, 2])
    branches = [lambda a, b: b, lambda a, b: xnp.linalg.solve(a, b) * 2.0,
                lambda a, b: xnp.linalg.solve(a, b).sum() * xnp.ones(3)]

    def f(i, a, b):
        return switch(i, branches, a, b).sum()
    grads = vmap(grad(f, argnums=(1, 2)))(idx, a, b)
    for k, i in enumerate(idx):
        g = grad(f, argnums=(1, 2))(int(i), a[k], b[k])
        close(grads[0][k], g[0])
        close(grads[1][k], g[1])
    # every member taking one branch, and an unbatched operand
    close(vmap(f, in_axes=(0, None, None))(np.array([1, 1]), a[0], b[0]),
          2 * np.full(2, np.linalg.solve(a[0], b[0]).sum()))


def test_collectives_in_a_branch_still_see_the_whole_batch():
    x = np.array([1.0, 2.0, 3.0])
    f = lambda x: cond(x > 1.5, lambda x: xnp.lax.psum(x, "i"), lambda x: -x, x)  # noqa
    close(vmap(f, axis_name="i")(x), [-1.0, 6.0, 6.0])


def _solve_or_zero(a, b):
    return cond(xnp.linalg.det(a) != 0, lambda a: xnp.linalg.solve(a, b),
                lambda a: xnp.zeros_like(b), a)


def _solve_or_zero_np(a, b):
    return np.linalg.solve(a, b) if np.linalg.det(a) != 0 else np.zeros_like(b)


def _singular_grid():
    rng = np.random.default_rng(2)
    a = rng.uniform(-1.0, 1.0, (3, 4, 2, 2))
    a[0, 1] = 0.0
    a[2, 3] = [[1.0, 2.0], [2.0, 4.0]]
    a[1, :] = 0.0
    b = rng.uniform(-1.0, 1.0, (3, 4, 2))
    return a, b


def test_nested_vmap_partitions_a_predicate_batched_by_both_levels():
    a, b = _singular_grid()
    expected = [[_solve_or_zero_np(a[i, j], b[i, j]) for j in range(4)] for i in range(3)]
    close(vmap(vmap(_solve_or_zero))(a, b), expected)          # raised LinAlgError
    close(jit(vmap(vmap(_solve_or_zero)))(a, b), expected)
    # the inner vmap over the other axis, and b batched only by the outer level
    close(vmap(vmap(_solve_or_zero, in_axes=(0, None)), in_axes=(1, None), out_axes=1)(
        a, b[0, 0]), [[_solve_or_zero_np(a[i, j], b[0, 0]) for j in range(4)]
                      for i in range(3)])
    # three levels
    a3 = np.stack([a, a[::-1]])
    b3 = np.stack([b, b])
    close(vmap(vmap(vmap(_solve_or_zero)))(a3, b3),
          [[[_solve_or_zero_np(a3[k, i, j], b3[k, i, j]) for j in range(4)]
            for i in range(3)] for k in range(2)])


def test_nested_vmap_switch_partitions_its_index():
    a, b = _singular_grid()
    idx = np.array([[0, 1, 2, 1], [0, 0, 2, 0], [1, 2, 1, 0]])
    a[idx != 0] = np.eye(2) * 2.0 + 0.1      # singular only where branch 0 is taken
    branches = [lambda a, b: b, lambda a, b: xnp.linalg.solve(a, b),
                lambda a, b: xnp.linalg.inv(a) @ b * 2.0]
    np_branches = [lambda a, b: b, np.linalg.solve, lambda a, b: np.linalg.inv(a) @ b * 2]
    f = lambda i, a, b: switch(i, branches, a, b)  # noqa: E731
    expected = [[np_branches[idx[i, j]](a[i, j], b[i, j]) for j in range(4)]
                for i in range(3)]
    close(vmap(vmap(f))(idx, a, b), expected)


def test_gradients_through_nested_vmap_of_a_partitioned_cond():
    a, b = _singular_grid()
    loss = lambda a, b: _solve_or_zero(a, b).sum()  # noqa: E731

    def expected_grad(m, v):          # d sum(inv(m) v)/dm = -inv(m)^T 1 (inv(m) v)^T
        if np.linalg.det(m) == 0:
            return np.zeros_like(m)
        return -np.outer(np.linalg.inv(m).T @ np.ones(2), np.linalg.solve(m, v))
    expected = [[expected_grad(a[i, j], b[i, j]) for j in range(4)] for i in range(3)]
    close(vmap(vmap(grad(loss)))(a, b), expected, 1e-8)
    close(grad(lambda a: vmap(vmap(loss))(a, b).sum())(a), expected, 1e-8)
    close(jit(vmap(vmap(grad(loss))))(a, b), expected, 1e-8)


def test_cond_inside_a_batched_scan_body_is_partitioned():
    a = np.stack([np.eye(2) * 2.0, np.zeros((2, 2)), np.array([[1.0, 2.0], [3.0, 4.0]])])
    b = np.ones(2)

    def f(a, reverse):
        def step(c, x):
            c = cond(xnp.linalg.det(a) != 0, lambda c: xnp.linalg.solve(a, c) + x,
                     lambda c: c, c)
            return c, c.sum()
        return xnp.lax.scan(step, b, np.arange(3.0), reverse=reverse)

    def f_np(a, reverse):
        c, ys = b, [0.0] * 3
        for i in (range(2, -1, -1) if reverse else range(3)):
            c = np.linalg.solve(a, c) + i if np.linalg.det(a) != 0 else c
            ys[i] = c.sum()
        return c, ys
    for reverse in (False, True):
        out = vmap(lambda a: f(a, reverse))(a)
        expected = [f_np(m, reverse) for m in a]
        close(out[0], [e[0] for e in expected])
        close(out[1], [e[1] for e in expected])
        close(vmap(vmap(lambda a: f(a, reverse)))(a[None])[1], [[e[1] for e in expected]])
    loss = lambda a: f(a, False)[0].sum()  # noqa: E731
    close(vmap(grad(loss))(a), grad(lambda a: vmap(loss)(a).sum())(a))
    close(vmap(grad(loss))(a)[1], np.zeros((2, 2)))
    close(jit(vmap(grad(loss)))(a[[0, 2]]), vmap(grad(loss))(a)[[0, 2]])
