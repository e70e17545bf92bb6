"""Regressions found by running MLX's grad/vjp/jvp/vmap/compile tests against xnp."""

from __future__ import annotations

import pytest

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
