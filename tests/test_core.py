"""The core machinery: abstract values, bind's fast path, traces, jaxprs, errors."""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
import pytest

import xnp
from transforms import core
from transforms.core import (
    ConcretizationTypeError,
    ShapedArray,
    TracerArrayConversionError,
    UnexpectedTracerError,
)
from transforms.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr, make_jaxpr
from xnp import lax


def test_shaped_array_equality_hash_and_str():
    a = ShapedArray((2, 3), np.float32)
    assert a == ShapedArray((2, 3), "float32") and hash(a) == hash(ShapedArray((2, 3), "f4"))
    assert a != ShapedArray((2, 3), np.float32, weak_type=True)
    assert a.str_short() == "f32[2,3]" and a.ndim == 2 and a.size == 6
    assert ShapedArray((), bool).str_short() == "bool[]"


def test_get_aval_of_python_scalars_is_weak():
    assert core.get_aval(1.0) == ShapedArray((), np.float64, True)
    assert core.get_aval(3) == ShapedArray((), np.int64, True)
    assert core.get_aval(np.float32(1)) == ShapedArray((), np.float32, False)
    with pytest.raises(TypeError):
        core.get_aval("text")


def test_bind_eager_runs_numpy_implementation():
    x = np.arange(3.0)
    out = lax.sin_p.bind(x)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.sin(x))


def test_make_jaxpr_prints_readable_program():
    def f(x, y):
        return xnp.sin(x) * y + 2.0

    jaxpr = make_jaxpr(f)(xnp.asarray(np.ones(3)), 1.5)
    text = str(jaxpr)
    assert text.splitlines()[0] == "{ lambda ; a:f64[3] b:f64[]. let"
    assert "c:f64[3] = sin a" in text and "e:f64[3] = add d 2.0" in text
    assert text.strip().endswith("in (e,) }")


def test_make_jaxpr_pytrees_and_constants():
    w = xnp.asarray(np.arange(6.0).reshape(2, 3))

    def f(params, x):
        return {"out": params["a"] * x + w, "n": params["b"]}

    closed = make_jaxpr(f)({"a": 2.0, "b": xnp.asarray(np.ones(2))}, xnp.asarray(np.ones(3)))
    assert isinstance(closed, ClosedJaxpr) and isinstance(closed.jaxpr, Jaxpr)
    assert len(closed.consts) == 1 and closed.consts[0] is w._value
    assert len(closed.jaxpr.invars) == 3
    outs = eval_jaxpr(closed, 2.0, np.ones(2), np.ones(3))
    np.testing.assert_array_equal(outs[1], 2.0 * np.ones(3) + w._value)
    np.testing.assert_array_equal(outs[0], np.ones(2))


def test_eval_jaxpr_with_explicit_consts():
    closed = make_jaxpr(lambda x: xnp.exp(x) + x)(xnp.asarray(np.ones(2)))
    out = eval_jaxpr(closed.jaxpr, closed.consts, np.array([0.0, 1.0]))
    np.testing.assert_allclose(out[0], np.exp([0.0, 1.0]) + [0.0, 1.0])
    with pytest.raises(TypeError, match="expected 1 arguments"):
        eval_jaxpr(closed.jaxpr, closed.consts)


def test_make_jaxpr_static_argnums():
    def f(x, n):
        for _ in range(n):      # Python control flow on a static value
            x = x * 2
        return x

    jaxpr = make_jaxpr(f, static_argnums=1)(xnp.asarray(np.ones(2)), 3)
    assert [e.prim.name for e in jaxpr.eqns] == ["mul"] * 3


def test_python_if_on_traced_value_raises_clear_error():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(ConcretizationTypeError, match="xnp.where"):
        make_jaxpr(f)(xnp.asarray(1.0))
    with pytest.raises(ConcretizationTypeError, match="float"):
        make_jaxpr(lambda x: float(x))(xnp.asarray(1.0))


def test_numpy_conversion_of_tracer_raises_clear_error():
    with pytest.raises(TracerArrayConversionError, match="xnp function"):
        make_jaxpr(lambda x: np.asarray(x))(xnp.asarray(np.ones(2)))


def test_plain_numpy_calls_dispatch_to_xnp_under_tracing():
    jaxpr = make_jaxpr(lambda x: np.sum(np.sin(x)))(xnp.asarray(np.ones(2)))
    assert jaxpr.eqns[0].prim.name == "sin"
    assert "reduce_sum" in [e.prim.name for e in jaxpr.eqns]


def test_leaked_tracer_is_reported():
    leaked = []

    def f(x):
        leaked.append(x)
        return x * 2

    make_jaxpr(f)(xnp.asarray(np.ones(2)))
    with pytest.raises(UnexpectedTracerError, match="leaked tracer"):
        np.asarray(leaked[0])
    with pytest.raises(UnexpectedTracerError):
        make_jaxpr(lambda y: y + leaked[0])(xnp.asarray(np.ones(2)))


def test_trace_state_is_thread_local():
    seen = []
    barrier = threading.Barrier(2)

    def worker():
        barrier.wait()
        seen.append(core.current_trace())

    def f(x):
        t = threading.Thread(target=worker)
        t.start()
        barrier.wait()
        t.join()
        return x

    make_jaxpr(f)(xnp.asarray(np.ones(1)))
    assert isinstance(seen[0], core.EvalTrace)


def test_abstract_eval_errors_name_the_problem():
    x = xnp.asarray(np.ones((2, 3)))
    with pytest.raises(ValueError, match="broadcast"):
        make_jaxpr(lambda a: a + xnp.asarray(np.ones(4)))(x)
    with pytest.raises(ValueError, match="cannot reshape"):
        lax.reshape(x, new_sizes=(4,))


def test_import_does_not_import_jax_or_jaxlib():
    code = ("import sys, xnp; import numpy as np; xnp.sin(xnp.asarray(np.ones(2))); "
            "print(any(m == 'jax' or m.startswith('jax.') or m.startswith('jaxlib') "
            "for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_import_leaves_numpys_lazy_submodules_alone():
    # numpy.f2py and numpy.testing load lazily (some 50 ms); import xnp must not touch
    # them (xnp.testing loads numpy.testing when it is itself first used)
    code = ("import sys, xnp; print(sorted(m for m in ('numpy.f2py', 'numpy.testing') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_composite_primitive_runs_impl_eagerly_and_expands_under_transforms():
    """impl on concrete values (also inside a transformation when no argument is traced);
    the expansion, and so the expansion's derivative, batching and lowering, otherwise."""
    from transforms.core import CompositePrimitive
    calls = []

    def impl(x):
        calls.append("impl")
        return np.square(x)

    def expand(x):
        calls.append("expand")
        return lax.mul_p.bind(x, x)

    square_p = CompositePrimitive("test_square", impl=impl, expand=expand)
    f = lambda x: xnp.sum(xnp.asarray(square_p.bind(xnp.asarray(x)._value)))
    x = np.array([1.0, -2.0, 3.0])
    assert float(f(x)) == 14.0 and calls == ["impl"]
    calls.clear()
    np.testing.assert_allclose(xnp.grad(f)(x), 2 * x)
    assert calls == ["expand"]
    calls.clear()
    np.testing.assert_allclose(xnp.vmap(f)(x[:, None]), x ** 2)
    np.testing.assert_allclose(xnp.jit(f)(x), 14.0)
    assert calls == ["expand", "expand"]
    calls.clear()
    g = xnp.grad(lambda y: y * xnp.asarray(square_p.bind(x)).sum())   # x is not traced
    np.testing.assert_allclose(g(2.0), 14.0)
    assert calls == ["impl"]
