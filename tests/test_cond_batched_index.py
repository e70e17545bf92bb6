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
