"""The eager reverse mode (``transforms.eager_grad``) against the general one.

``grad``/``value_and_grad`` called outside every transformation run the eager tape; under
any transformation they take the general path (``linearize`` + ``backward_pass``). Each
program here runs both ways (the general path forced by making ``value_and_grad`` see a
non-eager state) and must give the same values, dtypes, shapes and weak types, or the
same exception with the same message; some are also checked against central differences
or analytic values.
"""

from __future__ import annotations

import contextlib
import functools
import types

import numpy as np
import pytest
from numpy_compare import central_differences

import transforms
import xnp
from transforms import autodiff, core, eager_grad
from transforms.symbolic_zeros import SymbolicZero
from transforms.tree import tree_flatten

lax = xnp.lax
g = xnp.grad


class _NotEager(types.ModuleType):
    def __getattr__(self, name):
        return getattr(core, name)


@contextlib.contextmanager
def _path(general: bool, monkeypatch):
    """Run ``grad`` by the general path (``general``) or the eager one; the eager tape
    must not run on the general path."""
    calls = []
    real = eager_grad.grad_flat

    def counting(*args):
        calls.append(1)
        return real(*args)
    with monkeypatch.context() as m:
        m.setattr(eager_grad, "grad_flat", counting)
        if general:
            proxy = _NotEager("core")
            proxy.is_eager = lambda: False
            m.setattr(autodiff, "core", proxy)
        yield
    assert not (general and calls)


def _outcome(thunk):
    try:
        return "ok", thunk()
    except Exception as e:      # the same exception type and message both ways
        return "err", type(e), str(e).replace("RevTrace", "JVPTrace")


def _assert_same(a, b):
    la, ta = tree_flatten(a)
    lb, tb = tree_flatten(b)
    assert ta == tb
    for x, y in zip(la, lb):
        assert type(x) is type(y)
        xa, ya = np.asarray(x), np.asarray(y)
        assert (xa.dtype, xa.shape) == (ya.dtype, ya.shape)
        if xa.dtype.kind in "fc":
            np.testing.assert_allclose(xa, ya, rtol=1e-6 if xa.dtype.itemsize < 8 else 1e-12,
                                       atol=1e-12)
        elif xa.dtype.kind != "V":
            np.testing.assert_array_equal(xa, ya)
        wa = core.get_aval(core.unwrap(x)).weak_type
        assert wa == core.get_aval(core.unwrap(y)).weak_type


def both(thunk, monkeypatch):
    with _path(False, monkeypatch):
        eager = _outcome(thunk)
    with _path(True, monkeypatch):
        general = _outcome(thunk)
    assert eager[0] == general[0], (eager, general)
    if eager[0] == "err":
        assert eager[1:] == general[1:]
    else:
        _assert_same(eager[1], general[1])
    return eager


x3 = np.array([0.3, -1.2, 2.0])
A = np.array([[2.0, 0.5, 0.1], [0.5, 3.0, 0.2], [0.1, 0.2, 1.5]])
y3 = np.array([5.0, 6.0, 7.0])


@xnp.custom_jvp
def _sin_times(x, y):
    return xnp.sin(x) * y


_sin_times.defjvp(lambda p, t: (_sin_times(*p), xnp.cos(p[0]) * p[1] * t[0] * 2
                                + xnp.sin(p[0]) * t[1]))


@xnp.custom_vjp
def _cv(x, y):
    return xnp.sin(x) * y


_cv.defvjp(lambda x, y: (_cv(x, y), (xnp.cos(x), xnp.sin(x), y)),
           lambda r, ct: (r[0] * r[2] * ct * 3, r[1] * ct))


@functools.partial(xnp.custom_jvp, nondiff_argnums=(0,))
def _pow_n(n, x):
    return x ** n


_pow_n.defjvp(lambda n, p, t: (_pow_n(n, p[0]), 10.0 * n * p[0] ** (n - 1) * t[0]))


@xnp.custom_jvp
def _val_and_floor(x):
    return x * 2, xnp.floor(x)


# the floor output's tangent is a symbolic zero
_val_and_floor.defjvp(lambda p, t: (_val_and_floor(*p),
                                    (t[0] * 2, SymbolicZero.from_primal_value(p[0]))))


def _inplace(x, y):
    a = xnp.zeros(4)
    a[1] = x * 2
    a[1:] += y
    a[::2] *= x
    return xnp.sum(a ** 2)


_leaked = []


def _leaker(x):
    _leaked.append(x)
    return xnp.sum(x * 2)


def _use_leaked(body):
    def run():
        _leaked.clear()
        g(_leaker)(x3)
        return g(lambda y: xnp.sum(body(y, _leaked[0])))(x3)
    return run


PROGRAMS = {
    "float32": lambda: g(lambda x: xnp.sum(xnp.sin(x) * x ** 2))(x3.astype(np.float32)),
    "float16": lambda: g(lambda x: xnp.mean(xnp.exp(x) ** 2))(x3.astype(np.float16)),
    "python_float": lambda: g(lambda x: x * x + 3 * x)(2.0),
    "identity": lambda: g(lambda x: x)(np.float32(1.5)),
    "grad_grad": lambda: g(g(lambda x: x ** 3 * xnp.sin(x)))(1.3),
    "grad_of_jvp": lambda: g(lambda x: xnp.jvp(lambda y: xnp.sum(xnp.sin(y) ** 2), (x,),
                                               (xnp.ones(3),))[1])(x3),
    "grad_of_hessian": lambda: g(lambda x: xnp.sum(xnp.hessian(
        lambda y: xnp.sum(xnp.sin(y) * y))(x)))(x3),
    "has_aux": lambda: xnp.value_and_grad(
        lambda x: (xnp.sum(x ** 2), {"h": xnp.sin(x), "n": 3}), has_aux=True)(x3),
    "argnums_pytree": lambda: g(lambda p, c: xnp.sum(p["w"] @ p["b"][0]) + p["b"][1] * c,
                                argnums=(0, 1))({"w": A, "b": [x3, 1.5]}, 2.0),
    "allow_int": lambda: g(lambda a, n: xnp.sum(a * n), argnums=(0, 1),
                           allow_int=True)(x3, np.arange(3)),
    "holomorphic": lambda: g(lambda z: xnp.sum(xnp.sin(z) * z), holomorphic=True)(
        np.array([1 + 1j, 2 - 0.5j], np.complex64)),
    "complex_in_real_out": lambda: g(lambda z: xnp.sum(xnp.abs(z) ** 2))(
        np.array([1 + 1j, 2 - 0.5j])),
    "int_and_bool_values": lambda: g(lambda x: xnp.sum(x * xnp.argmax(x) + x[xnp.argmin(x)]
                                                       + xnp.where(x > 0, x, 0.0) * (x > 1)))(x3),
    "python_if": lambda: g(lambda x: x * 2 if x > 0 else x * 3)(1.5),
    "int_of_traced": lambda: g(lambda x: int(x) * x)(1.5),
    "round_of_traced": lambda: g(lambda x: round(x) * x ** 2)(2.3),
    "float_of_traced": lambda: g(lambda x: float(x) * x)(1.5),
    "numpy_of_traced": lambda: g(lambda x: np.sum(np.asarray(x)))(x3),
    "numpy_ufunc_dispatch": lambda: g(lambda x: np.sum(np.sin(x) * x) + np.dot(x, x))(x3),
    "stop_gradient": lambda: g(lambda x: xnp.sum(lax.stop_gradient(x) * x))(x3),
    "constant_output": lambda: g(lambda x: 3.0)(x3),
    "in_place": lambda: g(_inplace, argnums=(0, 1))(1.5, x3),
    "custom_jvp": lambda: g(lambda x: xnp.sum(_sin_times(x, x ** 2)))(x3),
    "custom_vjp": lambda: g(lambda x: xnp.sum(_cv(x, x ** 2)))(x3),
    "custom_jvp_nondiff": lambda: g(lambda x: xnp.sum(_pow_n(3, x)))(x3),
    "logaddexp_hypot": lambda: g(lambda x: xnp.sum(xnp.logaddexp(x, 2 * x)
                                                   + xnp.hypot(x, 1.0)))(x3),
    "jit_closure": lambda: g(lambda x: xnp.sum(xnp.jit(lambda y: xnp.sin(y * x))(x3)))(x3),
    "cond": lambda: g(lambda x: lax.cond(x > 0, xnp.sin, lambda y: xnp.cos(y) * y, x))(-0.7),
    "while": lambda: g(lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * x, 1.0))(1.5),
    "fori": lambda: g(lambda x: xnp.sum(lax.fori_loop(0, 3, lambda i, c: xnp.sin(c) * x, x)))(x3),
    "scan": lambda: g(lambda x: xnp.sum(lax.scan(lambda c, a: (c * a + 1, c * a), x[0], x)[1]))(x3),
    "eigh": lambda: g(lambda a: xnp.sum(xnp.linalg.eigh(a)[0] ** 2)
                      + xnp.sum(xnp.linalg.eigh(a)[1][:, 0] ** 4))(A),
    "eigh_repeated": lambda: g(lambda a: xnp.sum(xnp.linalg.eigh(a)[0] ** 2))(np.eye(3)),
    "qr_svd_slogdet": lambda: g(lambda a: xnp.sum(xnp.linalg.qr(a)[1])
                                + xnp.sum(xnp.linalg.svd(a)[1]) + xnp.linalg.slogdet(a)[1])(A),
    "top_k": lambda: g(lambda x: xnp.sum(lax.top_k(x, k=2)[0] * np.array([1.0, 3.0])))(x3),
    "frexp_modf_divmod": lambda: g(lambda x: xnp.sum(xnp.frexp(x)[0] + xnp.modf(x)[0]
                                                     + xnp.divmod(x, 0.7)[1]))(x3),
    "random_key": lambda: g(lambda x: xnp.sum(xnp.random.uniform(
        xnp.random.PRNGKey(1), (3,), minval=x, maxval=x + 1)))(x3),
    "empty": lambda: g(lambda x: xnp.sum(xnp.sin(x)) + 1.0)(np.zeros((2, 0), np.float32)),
    "broadcast_weak": lambda: xnp.value_and_grad(
        lambda x, y: xnp.sum(2 * x * y + 1.5 - x / 3), argnums=(0, 1))(
            x3.astype(np.float32)[:, None], 2.0),
    "mixed_precision": lambda: g(lambda x: xnp.sum(x * x3))(x3.astype(np.float32)),
    # errors: the general path's exception and message
    "non_scalar_output": lambda: g(lambda x: x * 2)(x3),
    "int_input": lambda: g(lambda x: x * 2)(3),
    "int_output": lambda: g(lambda x: xnp.argmax(x))(x3),
    "complex_output": lambda: g(lambda z: z * z)(1.0 + 2j),
    "leaked_tracer_used_later": lambda: (_leaked.clear(), g(_leaker)(x3),
                                         xnp.sin(_leaked[0]))[2],
    "leaked_tracer_in_later_grad": _use_leaked(lambda y, leaked: y * leaked[::-1]),
    "leaked_tracer_custom": _use_leaked(lambda y, leaked: y * _sin_times(leaked, 2.0)),
    # outputs whose tangents are symbolic zeros stay concrete (float() and NumPy work)
    "sort_constant_operand": lambda: g(lambda x: float(lax.sort(
        x, y3, dimension=0, num_keys=1)[1][0]) * xnp.sum(x))(x3),
    "sort_operands": lambda: g(lambda x: xnp.sum(lax.sort(
        x, y3, dimension=0, num_keys=1)[0] * y3))(x3),
    "custom_zero_tangent": lambda: g(lambda x: float(_val_and_floor(x)[1]) * x
                                     + _val_and_floor(x)[0])(1.5),
    "custom_zero_tangent_numpy": lambda: g(
        lambda x: np.asarray(_val_and_floor(x)[1]) * x)(1.5),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_eager_path_matches_general_path(name, monkeypatch):
    both(PROGRAMS[name], monkeypatch)


@pytest.mark.parametrize("f", [
    lambda x: xnp.sum(xnp.sin(x) * x ** 2),
    lambda x: xnp.sum(xnp.linalg.eigh(x[:, None] * x[None, :] + np.diag(y3))[0] ** 3),
    lambda x: xnp.sum(xnp.jit(lambda y: xnp.cumprod(y) * y[::-1])(x)),
    lambda x: lax.fori_loop(0, 3, lambda i, c: c * xnp.tanh(x[i]), 1.0),
    lambda x: _inplace(x[0], x),
    lambda x: xnp.sum(lax.sort(x, y3, dimension=0, num_keys=1)[0] * y3),
], ids=["elementwise", "eigh", "jit", "fori", "in_place", "sort"])
def test_eager_grad_matches_finite_differences(f):
    want = central_differences(lambda v: f(xnp.asarray(v)), x3)
    np.testing.assert_allclose(np.asarray(g(f)(x3)), want, rtol=1e-6, atol=1e-6)


def test_custom_rules_give_their_own_derivatives():
    # _sin_times's rule doubles d/dx, _cv's bwd triples it: the eager path uses the rules
    np.testing.assert_allclose(g(lambda x: _sin_times(x, 2.0))(0.7), 4 * np.cos(0.7))
    np.testing.assert_allclose(g(lambda x: _cv(x, 2.0))(0.7), 6 * np.cos(0.7))


def test_gradient_dtypes_follow_the_inputs():
    f = lambda x: xnp.sum(x * x)     # noqa: E731
    for dt in (np.float16, np.float32, np.float64):
        assert g(f)(x3.astype(dt)).dtype == dt
    assert g(lambda z: xnp.sum(xnp.abs(z)))(x3.astype(np.complex64)).dtype == np.complex64


def test_zero_tangent_outputs_are_concrete_values():
    # float() of a sorted constant operand works (its tangent is a symbolic zero), and the
    # gradient is that of the traced operand only
    grad = g(lambda x: float(lax.sort(x, y3, dimension=0, num_keys=1)[1][0]) * xnp.sum(x))(x3)
    np.testing.assert_allclose(grad, np.full(3, 6.0))
    with pytest.raises(transforms.ConcretizationTypeError):
        g(lambda x: float(lax.sort(x, y3, dimension=0, num_keys=1)[0][0]))(x3)


def test_leaked_tracer_raises_in_a_later_grad():
    _leaked.clear()
    g(_leaker)(x3)
    with pytest.raises(transforms.UnexpectedTracerError):
        g(lambda y: xnp.sum(y * _leaked[0][::-1]))(x3)


def test_vjp_programs_holding_large_constants_are_not_cached(monkeypatch):
    # cumprod's derivative builds an n x n mask (a constant of its VJP program). A
    # program holding more than _MAX_CACHED_BYTES of constants is not cached: the cache
    # keeps only the marker that sends the primitive to the general path, and the
    # gradient is the same.
    def cumprod_grads(n):
        x = np.linspace(0.999, 1.001, n)
        eager = xnp.grad(lambda x: xnp.sum(xnp.cumprod(x)))(x)
        general = xnp.vjp(lambda x: xnp.sum(xnp.cumprod(x)), x)[1](1.0)[0]
        np.testing.assert_allclose(eager, general, rtol=1e-12)
        # d/dx_i sum_k prod(x[:k+1]) = sum over k >= i of prod(x[:k+1]) / x_i
        expected = np.cumsum(np.cumprod(x)[::-1])[::-1] / x
        np.testing.assert_allclose(eager, expected, rtol=1e-9)

    def markers():
        return sum(p is eager_grad._UNDERIVABLE for p in eager_grad._PROGRAMS.values())
    monkeypatch.setattr(eager_grad, "_PROGRAMS", {})
    cumprod_grads(64)
    assert markers() == 0
    monkeypatch.setattr(eager_grad, "_PROGRAMS", {})
    monkeypatch.setattr(eager_grad, "_MAX_CACHED_BYTES", 16 * 64)
    cumprod_grads(64)
    assert markers() >= 1
    for p in eager_grad._PROGRAMS.values():
        if isinstance(p, eager_grad._Program):
            assert sum(v.nbytes for v in p.tail if isinstance(v, np.ndarray)) <= 16 * 64


def test_cached_programs_take_scalar_constants_at_run_time():
    # Python scalars key a VJP program by their type only: one program per signature
    # serves every exponent, bound and fill value, read when it runs (checked here with
    # the cache primed by another value first, against analytic derivatives)
    x = np.array([0.5, 1.5, 2.0])
    for p in (2, 3, 0, -1, 0.5, 2.0, 0.0):
        np.testing.assert_allclose(g(lambda x: xnp.sum(x ** p))(x),
                                   p * x ** (p - 1) if p else np.zeros(3))
        np.testing.assert_allclose(g(lambda x: xnp.sum(p ** x))(x),
                                   np.log(p) * p ** x if p > 0 else
                                   xnp.vjp(lambda x: xnp.sum(p ** x), x)[1](1.0)[0])
        np.testing.assert_allclose(g(lambda x: xnp.sum(xnp.maximum(x, p)))(x),
                                   np.where(x > p, 1.0, np.where(x == p, 0.5, 0.0)))


def test_tape_records_survive_in_place_updates_after_use():
    # records keep the values a derivative reads; an in-place update of an operand after
    # its use (the handle rebinds) leaves the recorded value as it was when used
    x = np.array([0.5, -1.5, 2.0])

    def f(x):
        a = xnp.ones(3)
        v = a[:2]
        y = xnp.sum(a * x * x)
        a[0] = 5.0
        v[1] *= 3.0
        return y

    np.testing.assert_allclose(g(f)(x), 2 * x)
    np.testing.assert_allclose(g(f)(x), xnp.vjp(f, x)[1](1.0)[0])


def test_round_of_a_traced_scalar_gives_its_rounded_value():
    # round(x) has derivative 0: under grad it is the concrete value's int (as int(x)),
    # under jit/vmap an integer array (as in JAX), where it raised "x.item() would drop
    # its derivative" before
    f = lambda x: round(x) * x ** 2     # noqa: E731
    for x, r in ((2.3, 2), (2.5, 2), (-1.7, -2)):
        np.testing.assert_allclose(g(f)(x), 2 * r * x)
        np.testing.assert_allclose(xnp.jit(g(f))(x), 2 * r * x)
        np.testing.assert_allclose(g(g(f))(x), 2 * r)
    xs = np.array([1.4, 2.6, -0.5])
    np.testing.assert_allclose(xnp.vmap(g(f))(xs), 2 * np.round(xs) * xs)
    out = xnp.jit(lambda x: round(x))(2.7)
    assert out.dtype == np.int64 and int(out) == 3
    assert round(xnp.asarray(2.5)) == 2 and type(round(xnp.asarray(2.5))) is int


def test_aux_objects_that_are_not_arrays_pass_through():
    # has_aux: strings, None and other objects come back as they were returned
    aux = {"name": "loss", "none": None, "n": 3}
    (v, a), d = xnp.value_and_grad(lambda x: (x * x, dict(aux, x=x)), has_aux=True)(2.0)
    assert (v, d) == (4.0, 4.0) and type(a["name"]) is str and a["none"] is None
    assert type(a["n"]) is int and float(a["x"]) == 2.0
    for tag in (xnp.jvp(lambda x: (x * x, "tag"), (2.0,), (1.0,), has_aux=True)[2],
                xnp.vjp(lambda x: (x * x, "tag"), 2.0, has_aux=True)[2],
                xnp.jacrev(lambda x: (x * x, "tag"), has_aux=True)(2.0)[1]):
        assert type(tag) is str and tag == "tag"
