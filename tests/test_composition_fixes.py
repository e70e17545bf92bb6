"""Regressions found by the composition sweep (test_registry_compositions.py), each checked
against NumPy/SciPy on the same inputs."""

import time

import numpy as np
import pytest
import scipy.special as sp

import xnp
from transforms import ConcretizationTypeError, grad, jit, vmap


def test_i0_traced_compiles_fast_and_differentiates():
    # Traced i0 was 390 unrolled series steps: jit(grad(i0)) took XLA minutes to compile.
    x = np.array([0.0, 0.3, 5.0, -20.0, 100.0, 300.0, np.inf, np.nan])
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(jit(xnp.i0)(x), np.i0(x), rtol=1e-14)
        np.testing.assert_allclose(vmap(xnp.i0)(x), np.i0(x), rtol=1e-14)
    y = np.array([0.3, 5.0, -2.0, 30.0])
    start = time.perf_counter()
    g = jit(grad(lambda x: xnp.i0(x).sum()))(y)
    assert time.perf_counter() - start < 20.0
    np.testing.assert_allclose(g, sp.i1(y), rtol=1e-12)        # i0' = i1
    np.testing.assert_allclose(vmap(grad(xnp.i0))(y), sp.i1(y), rtol=1e-12)
    f32 = jit(xnp.i0)(np.float32(2.5))
    assert f32.dtype == np.float32
    np.testing.assert_allclose(f32, np.i0(np.float32(2.5)), rtol=1e-6)


def _masked_program(x):
    a = x.copy()
    a[a > 0] *= 3.0
    a[a < -0.5] += x[0]
    a[a < 0] **= 2
    return (a * x).sum()


def test_masked_augmented_assignment_with_a_traced_mask():
    # x[mask] op= u under vmap and jit: where(mask, x op u, x), as NumPy's eager result
    from transforms import make_jaxpr
    xs = np.random.default_rng(0).uniform(-1, 1, (3, 4))
    want = [_masked_program(r) for r in xs]           # NumPy arrays: NumPy's semantics
    np.testing.assert_allclose(vmap(_masked_program)(xs), want, rtol=1e-14)
    np.testing.assert_allclose(jit(vmap(_masked_program))(xs), want, rtol=1e-14)
    grads = [grad(_masked_program)(xnp.asarray(r)) for r in xs]    # concrete masks
    np.testing.assert_allclose(vmap(grad(_masked_program))(xs), grads, rtol=1e-14)
    np.testing.assert_allclose(jit(vmap(grad(_masked_program)))(xs), grads, rtol=1e-14)

    def rows(x):           # a mask over the leading axis, u broadcast over the rest
        a = x.reshape(2, 2) * 1.0
        a[a[:, 0] > 0] -= np.array([1.0, 2.0])
        return a
    for r in xs:
        e = r.reshape(2, 2).copy()
        e[e[:, 0] > 0] -= [1.0, 2.0]
        np.testing.assert_array_equal(jit(rows)(r), e)

    def int_added(x):
        a = xnp.arange(4)
        a[x > 0] += 2
        return a
    np.testing.assert_array_equal(jit(int_added)(xs[0]),
                                  np.where(xs[0] > 0, np.arange(4) + 2, np.arange(4)))

    def int_scaled(x):
        a = xnp.arange(4)
        a[x > 0] *= 2.5          # NumPy: float64 into int64 fails the same_kind cast
        return a
    with pytest.raises(TypeError, match="same_kind"):
        jit(int_scaled)(xs[0])
    # Other uses of the read, and values shaped like the selection, raise as before.
    for bad in (lambda v: v[v > 0], lambda v: v[v > 0] + 1, lambda v: xnp.sum(v[v > 0])):
        with pytest.raises(ConcretizationTypeError, match="Boolean mask"):
            make_jaxpr(bad)(xs[0])

    def selection_shaped(x):
        a = x.copy()
        a[a > 0] += xnp.ones(4)
        return a
    with pytest.raises(ConcretizationTypeError):
        jit(selection_shaped)(xs[0])


def test_empty_constants_lower_with_their_rank():
    # A size-0 boolean constant was written as the literal "[]" (rank 1): XLA rejected
    # tensor<0x0xi1> with it ("inferred shape of elements literal").
    from transforms import runtime
    from transforms.lowering import dense_attr, mlir_type
    for value in (np.zeros((0, 0), bool), np.zeros((2, 0, 3), bool), np.zeros((0, 4))):
        ty = mlir_type(value.shape, value.dtype)
        text = (f'module @m {{\n  func.func public @main() -> ({ty}) {{\n'
                f'    %0 = "stablehlo.constant"() {{value = {dense_attr(value)}}} : () -> {ty}\n'
                f'    "func.return"(%0) : ({ty}) -> ()\n  }}\n}}')
        (out,) = runtime.compile_mlir(text, [(value.shape, value.dtype)])()
        np.testing.assert_array_equal(np.asarray(out), value)
        assert np.asarray(out).dtype == value.dtype


def test_masked_update_keeps_unselected_elements_out_of_the_derivative():
    # x[x > 0] **= 0.5: the square root of the negative (unselected) entry must not put a
    # NaN into the compiled gradient (the eager gradient, with a concrete mask, has none)
    def f(x):
        x = x * 1.0
        x[x > 0] **= 0.5
        return x.sum()
    x = np.array([-1.0, 4.0, 0.25])
    want = [1.0, 0.5 / 2.0, 0.5 / 0.5]         # d/dx of x and of sqrt(x)
    np.testing.assert_allclose(grad(f)(xnp.asarray(x)), want, rtol=1e-14)
    np.testing.assert_allclose(jit(grad(f))(x), want, rtol=1e-14)
    np.testing.assert_allclose(jit(f)(x), -1.0 + 2.0 + 0.5, rtol=1e-14)


def test_masked_copy_between_arrays_with_a_traced_mask():
    # out[m] = a[m] (and a masked read updated in place, then stored) under vmap and jit:
    # where(m, a, out), cast to out's dtype, as NumPy's eager result.
    def prog(np_, v):
        out = np_.zeros(6)
        m = v > 0
        out[m] = v[m]
        t = v[m]
        t *= 3.0
        w = np_.ones(6)
        w[m] = t
        k = np_.zeros(6, dtype=np_.int64)
        k[m] = (v * 10)[m]
        return out * w + k

    xs = np.random.default_rng(1).normal(size=(3, 6))
    want = np.stack([prog(np, r) for r in xs])
    np.testing.assert_allclose(vmap(lambda v: prog(xnp, v))(xs), want, rtol=1e-14)
    np.testing.assert_allclose(jit(vmap(lambda v: prog(xnp, v)))(xs), want, rtol=1e-14)
    g = vmap(grad(lambda v: prog(xnp, v).sum()))(xs)
    np.testing.assert_allclose(g, np.where(xs > 0, 2 * 3 * xs, 0.0), rtol=1e-14)
    with pytest.raises(ConcretizationTypeError):          # a different mask object
        jit(lambda v: xnp.zeros(6).__setitem__(v > 0, v[v > 0]))(xs[0])
