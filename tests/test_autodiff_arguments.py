"""How the differentiation transforms check their arguments (argnums, tangent dtypes):
bad input raises the error JAX raises, never a silently wrong derivative."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import xnp


@pytest.mark.parametrize("transform", [xnp.grad, xnp.value_and_grad, xnp.jacrev,
                                       xnp.jacfwd])
@pytest.mark.parametrize("argnums", [(0, 0), (0, -2), (1, 0, 1)])
def test_repeated_argnums_raise(transform, argnums):
    # A repeated argument used to get a zero gradient in one of its slots, silently.
    f = lambda x, y: x * y
    with pytest.raises(ValueError, match="more than once"):
        transform(f, argnums=argnums)(xnp.asarray(1.5), xnp.asarray(2.0))
    out = transform(f, argnums=(0, 1))(xnp.asarray(1.5), xnp.asarray(2.0))
    gx, gy = out[1] if transform is xnp.value_and_grad else out
    assert float(gx) == 2.0 and float(gy) == 1.5


@pytest.mark.parametrize("primal", [np.int64(3), np.arange(3), np.array([True, False])])
def test_tangent_of_an_integer_or_boolean_primal_must_be_float0(primal):
    # A nonzero integer tangent used to be taken as 0 silently; JAX raises TypeError.
    f = lambda x, y: x * y                                   # noqa: E731
    for bad in (np.ones_like(primal), np.ones(np.shape(primal))):
        with pytest.raises(TypeError, match="must have dtype float0"):
            xnp.jvp(f, (primal, 2.0), (bad, 1.0))
    zero = np.zeros(np.shape(primal), transforms.float0)
    out, tan = xnp.jvp(f, (primal, 2.0), (zero, 1.0))
    np.testing.assert_array_equal(tan, primal * 1.0)
    _, f_jvp = xnp.linearize(f, primal, 2.0)
    np.testing.assert_array_equal(f_jvp(zero, 1.0), primal * 1.0)
    with pytest.raises(TypeError, match="must have dtype float0"):
        f_jvp(np.ones_like(primal), 1.0)
