"""jit's C++ dispatch fast path (jaxlib's pjit): the same results as the Python path,
retracing, aliasing, threads, static arguments, and sharing a process with jax."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from collections import namedtuple

import numpy as np
import pytest

import xnp
from transforms import runtime
from transforms.tree import tree_flatten

RNG = np.random.default_rng(0)
HAVE_JAX = importlib.util.find_spec("jax") is not None
needs_jax = pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed")


# --- the C++ dispatch fast path ------------------------------------------------------------

Pair = namedtuple("Pair", "first second")


def _count_python_lookups(f):
    """Count how often a jitted function's Python path looks a signature up."""
    count = [0]
    lookup = f._lookup

    def counted(args, kwargs):
        count[0] += 1
        return lookup(args, kwargs)
    f._lookup = counted
    return count


def _assert_same(got, want, rtol=0.0):
    got_leaves, got_tree = tree_flatten(got)
    want_leaves, want_tree = tree_flatten(want)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        assert isinstance(g, xnp.ndarray)
        assert g.dtype == np.asarray(w).dtype and g.shape == np.shape(w)
        if rtol:
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol)
        else:
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


FAST_CASES = [
    (lambda x, y: x * y + 1.0, (RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)))),
    (lambda x, y: (x + y, x - y), (np.arange(4, dtype=np.int32), np.ones(4, np.int32))),
    (lambda x, y: {"s": x.sum(), "p": Pair(x * y, None), "l": [y]},
     (np.arange(3.0), np.full(3, 2.0))),
    (lambda x, y: x & y, (np.array([True, False, True]), np.array([True, True, False]))),
    (lambda x, y: x * y, (np.array(2.0 + 1j), np.array([1j, 2.0], np.complex128))),
    (lambda x, y: x + y, (np.float32(1.5), np.zeros((2, 0), np.float32))),
    (lambda x, y: x * y, (np.arange(3.0), 2.5)),                       # a Python scalar
    (lambda x, y: xnp.stack([x, y]), (np.uint8([1, 2]), np.uint8([250, 3]))),
]


@pytest.mark.parametrize("case", range(len(FAST_CASES)))
def test_fast_path_matches_the_python_path(case):
    fun, args = FAST_CASES[case]
    f = xnp.jit(fun)
    want = f._call(args, {})                       # the Python path
    _assert_same(want, fun(*[xnp.asarray(a) for a in args]), rtol=1e-15)   # eager
    lookups = _count_python_lookups(f)
    for _ in range(3):
        _assert_same(f(*args), want)
    # xnp arrays backed by XLA buffers (Python scalars stay: they are weakly typed)
    dev = [a if type(a) is float else xnp.jit(lambda v: v)(a) for a in args]
    for _ in range(3):
        _assert_same(f(*dev), want)
    assert f.trace_count == 1
    if runtime.dispatch_x64():
        assert lookups[0] <= 2                      # one miss per C++ signature, then C++


def test_fast_path_retraces_on_new_dtypes_and_shapes():
    f = xnp.jit(lambda x: x * 2)
    for _ in range(2):
        assert f(np.arange(3.0)).dtype == np.float64
    assert f.trace_count == 1
    out = f(np.arange(4.0))
    assert f.trace_count == 2 and out.shape == (4,)
    out = f(np.arange(3, dtype=np.float32))
    assert f.trace_count == 3 and out.dtype == np.float32
    out = f(np.arange(3))
    assert f.trace_count == 4 and out.dtype == np.int64
    np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert f.trace_count == 4
    np.testing.assert_array_equal(f(2.0), 4.0)       # weak scalar: its own signature
    assert f.trace_count == 5


def test_fast_path_reads_an_updated_value_not_a_stale_buffer():
    f = xnp.jit(lambda x: x + 1.0)
    out = f(np.zeros(3))
    for _ in range(2):
        np.testing.assert_array_equal(f(out), np.full(3, 2.0))
    out[1] = 5.0                                # the handle's value changes in place
    for _ in range(2):
        np.testing.assert_array_equal(f(out), [2.0, 6.0, 2.0])


def test_fast_path_inputs_are_not_aliased_into_results():
    f, ident = xnp.jit(lambda x: x * 1.0), xnp.jit(lambda x: (x, x))
    x = np.arange(8.0)
    outs = [f(x) for _ in range(3)] + [o for _ in range(3) for o in ident(x)]
    x[:] = -1.0
    for o in outs:
        np.testing.assert_array_equal(o, np.arange(8.0))


def test_fast_path_closed_over_constants():
    w = RNG.normal(size=3)
    big = RNG.normal(size=1000)                  # passed as a trailing argument
    f = xnp.jit(lambda x: x * w)
    g = xnp.jit(lambda x: x * big)
    for _ in range(3):
        np.testing.assert_array_equal(f(np.ones(3)), w)
        np.testing.assert_array_equal(g(np.ones(1000)), big)


def test_fast_path_errors_are_raised_every_time():
    f = xnp.jit(lambda x: xnp.reshape(x, (2, 3)))
    for _ in range(3):
        with pytest.raises(Exception, match="reshape|size|shape"):
            f(np.arange(5.0))
    np.testing.assert_array_equal(f(np.arange(6.0)), np.arange(6.0).reshape(2, 3))


def test_a_failed_call_does_not_pin_its_signature_to_the_python_path(monkeypatch):
    jit_module = sys.modules["transforms.jit"]
    runs = [0]
    run = jit_module._Entry.run

    def counted_run(self, *args, **kwargs):
        runs[0] += 1
        return run(self, *args, **kwargs)
    monkeypatch.setattr(jit_module._Entry, "run", counted_run)
    fail = [False]

    @xnp.jit
    def f(x):
        if fail[0]:
            raise RuntimeError("tracing failed on purpose")
        return x + 1.0

    f(np.zeros(2))                         # the C++ dispatcher exists from here on
    fail[0] = True
    with pytest.raises(RuntimeError, match="on purpose"):
        f(np.zeros(3))
    fail[0] = False
    np.testing.assert_array_equal(f(np.zeros(3)), np.ones(3))
    runs[0] = 0
    for _ in range(3):                     # the same signature now runs in C++ alone
        np.testing.assert_array_equal(f(np.zeros(3)), np.ones(3))
    assert runs[0] <= 1


def test_calls_skip_python_once_warm_and_keywords_still_work():
    f = xnp.jit(lambda x, y=2.0: x * y)
    np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert type(f).__call__ is not xnp.jit(lambda x: x).__class__.__call__
    assert isinstance(f, type(xnp.jit(lambda x: x)))
    lookups = _count_python_lookups(f)
    for _ in range(2):
        np.testing.assert_array_equal(f(np.arange(3.0), y=3.0), np.arange(3.0) * 3)
        np.testing.assert_array_equal(f(x=np.arange(3.0)), np.arange(3.0) * 2)
    assert lookups[0] == 4                 # keyword calls take the Python path
    assert f.trace_count == 3


def test_concrete_arguments_under_a_transform_give_the_eager_result():
    f = xnp.jit(lambda c: xnp.cos(c))
    c = np.linspace(0.0, 1.0, 3)
    f(c)                                   # warm: the C++ side may run it by itself
    x = np.linspace(1.0, 2.0, 3)
    g = xnp.grad(lambda v: (f(c) * v ** 2).sum())(x)
    np.testing.assert_allclose(g, 2 * np.cos(c) * x, rtol=1e-15)
    jaxpr = xnp.make_jaxpr(lambda v: f(c) + f(v))(x)
    assert "jit" in str(jaxpr)
    np.testing.assert_allclose(xnp.vmap(lambda v: f(c) * v)(x[:, None]),
                               np.cos(c) * x[:, None], rtol=1e-15)


def test_disable_jit_after_the_fast_path_is_warm():
    seen = []

    @xnp.jit
    def f(x):
        seen.append(type(x).__name__)
        return x * 2

    for _ in range(3):
        f(np.arange(3.0))
    assert len(seen) == 1
    with xnp.disable_jit():
        np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert len(seen) == 2
    np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 2)
    assert len(seen) == 2


def test_disable_jit_in_another_thread_leaves_this_one_compiled():
    f = xnp.jit(lambda x: x + 1)
    f(np.zeros(2))
    entered, release = threading.Event(), threading.Event()

    def other():
        with xnp.disable_jit():
            entered.set()
            release.wait(10)
    t = threading.Thread(target=other)
    t.start()
    entered.wait(10)
    try:
        before = f.trace_count
        np.testing.assert_array_equal(f(np.zeros(2)), np.ones(2))
        assert f.trace_count == before
    finally:
        release.set()
        t.join()


def test_fast_path_under_grad_and_vmap_uses_the_primitive():
    f = xnp.jit(lambda x: xnp.sin(x) * x)
    x = np.linspace(0.1, 1.0, 4)
    for _ in range(2):
        f(x)
    g = xnp.grad(lambda v: f(v).sum())(x)
    np.testing.assert_allclose(g, np.cos(x) * x + np.sin(x), rtol=1e-14)
    np.testing.assert_allclose(xnp.vmap(f)(x[:, None]), (np.sin(x) * x)[:, None],
                               rtol=1e-14)


def _run(code):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


_XNP_CHECK = (
    "def check_xnp():\n"
    "    f = xnp.jit(lambda v, w: v * 3.0 + w)\n"
    "    for _ in range(3):\n"
    "        a = f(x, x)\n"
    "        assert a.dtype == np.float64, a.dtype\n"
    "        np.testing.assert_array_equal(np.asarray(a), x * 4.0)\n"
    "        a = f(a, x)\n"
    "        np.testing.assert_array_equal(np.asarray(a), x * 13.0)\n"
    "    return f\n")


@needs_jax
def test_jax_imported_after_xnp_both_stay_correct():
    code = (
        "import numpy as np, sys, xnp\n"
        "x = np.array([1.0, 2.0 ** -40, 1e-300])\n" + _XNP_CHECK +
        "f = check_xnp()\n"
        "from transforms import runtime\n"
        "assert runtime.dispatch_x64() and 'jax' not in sys.modules\n"
        "import jax\n"
        "assert not runtime.dispatch_x64()            # jax's states, x64 off\n"
        "check_xnp()\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float32                 # jax's default is untouched\n"
        "with jax.disable_jit():\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "jax.config.update('jax_enable_x64', True)\n"
        "assert runtime.dispatch_x64()\n"
        "check_xnp()\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float64\n"
        "np.testing.assert_array_equal(np.asarray(b), x * 3.0)\n"
        "with jax.enable_x64(False) if hasattr(jax, 'enable_x64') else "
        "jax.experimental.disable_x64():\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n")
    _run(code)


@needs_jax
def test_jax_imported_before_xnp_both_stay_correct():
    code = (
        "import numpy as np, jax, xnp\n"
        "from transforms import runtime\n"
        "x = np.array([1.0, 2.0 ** -40, 1e-300])\n" + _XNP_CHECK +
        "f = check_xnp()\n"
        "assert not runtime.backend().owns_jit_states and not runtime.dispatch_x64()\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float32\n"
        "jax.config.update('jax_enable_x64', True)\n"
        "check_xnp()\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "b = jax.jit(lambda v: v * 3.0)(x)\n"
        "assert b.dtype == np.float64\n"
        "np.testing.assert_array_equal(np.asarray(b), x * 3.0)\n"
        "g = xnp.jit(lambda v: v + 1)\n"
        "for _ in range(3):\n"
        "    assert g(np.int32([1, 2])).dtype == np.int32\n"
        "big = np.array([2 ** 40], np.int64)\n"
        "with jax.enable_x64(False):                  # thread-local, in the C++ key\n"
        "    for _ in range(3):\n"
        "        out = g(big)\n"
        "        assert out.dtype == np.int64 and int(out[0]) == 2 ** 40 + 1\n"
        "        np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "jax.config.update('jax_enable_x64', False)\n"
        "check_xnp()\n"
        "assert g(big).dtype == np.int64 and int(g(big)[0]) == 2 ** 40 + 1\n"
        "assert jax.jit(lambda v: v * 3.0)(x).dtype == np.float32\n")
    _run(code)


@needs_jax
def test_jax_arrays_are_host_values_to_xnp_jit():
    # jax's arrays belong to jax's XLA client, which xnp's executables cannot take as
    # arguments: they are read as host values, warm fast path or not.
    code = (
        "import numpy as np, jax, xnp\n"
        "jax.config.update('jax_enable_x64', True)\n"
        "x = np.array([1.5, -2.0, 2.0 ** -30])\n"
        "ja = jax.numpy.asarray(x)\n"
        "f = xnp.jit(lambda v, w: v * 3.0 + w)\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(ja, ja)), x * 4.0)\n"
        "d = f(x, x)\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(d, d)), x * 16.0)\n"
        "    np.testing.assert_array_equal(np.asarray(f(ja, d)), x * 7.0)\n"
        "    np.testing.assert_array_equal(np.asarray(f(d, ja)), x * 13.0)\n")
    _run(code)


@needs_jax
def test_device_inputs_take_the_fast_path_with_jax_x64_off():
    code = (
        "import numpy as np, jax, xnp\n"
        "from transforms import jit as _, runtime\n"
        "import sys\n"
        "J = sys.modules['transforms.jit']\n"
        "runs = [0]\n"
        "run = J._Entry.run\n"
        "def counted(self, *a, **k):\n"
        "    runs[0] += 1\n"
        "    return run(self, *a, **k)\n"
        "J._Entry.run = counted\n"
        "x = np.array([1.0, 2.0 ** -40, 1e-300])\n"
        "f = xnp.jit(lambda v, w: v * 3.0 + w)\n"
        "d = f(x, x)\n"
        "assert not runtime.dispatch_x64()\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(d, d)), x * 16.0)\n"
        "    np.testing.assert_array_equal(np.asarray(f(x, x)), x * 4.0)\n"
        "    np.testing.assert_array_equal(np.asarray(f(np.float32(x), np.float32(x))),\n"
        "                                  np.float32(x) * 4)\n"
        "before = runs[0]\n"
        "for _ in range(3):\n"
        "    np.testing.assert_array_equal(np.asarray(f(d, d)), x * 16.0)\n"
        "assert runs[0] == before, (runs, before)     # C++ ran it: no Python run\n"
        "for _ in range(2):\n"
        "    assert f(x, x).dtype == np.float64\n"
        "assert runs[0] == before + 2                # NumPy inputs: the Python path\n")
    _run(code)


def test_fast_path_with_registered_pytree_nodes():
    import dataclasses
    from collections import OrderedDict, defaultdict

    from transforms.tree import register_dataclass

    f = xnp.jit(lambda d: OrderedDict(z=d["b"] * 2, a=d["a"] + 1))
    arg = OrderedDict(b=np.arange(3.0), a=np.ones(2))
    want = f._call((arg,), {})
    for _ in range(3):
        got = f(arg)
        assert type(got) is OrderedDict and list(got) == ["z", "a"]
        _assert_same(got, want)

    g = xnp.jit(lambda d: d["k"] * 3)
    dd = defaultdict(list, k=np.arange(2))
    for _ in range(3):
        np.testing.assert_array_equal(g(dd), np.arange(2) * 3)

    @dataclasses.dataclass
    class Params:                      # registered after the dispatchers above exist
        w: object
        scale: float = dataclasses.field(default=1.0, metadata={"static": True})

    register_dataclass(Params)
    h = xnp.jit(lambda p, x: Params(p.w * x * p.scale, p.scale))
    lookups = _count_python_lookups(h)
    for scale in (1.0, 2.0):
        p = Params(np.arange(3.0), scale)
        for _ in range(3):
            out = h(p, np.full(3, 2.0))
            assert type(out) is Params and out.scale == scale
            np.testing.assert_array_equal(out.w, np.arange(3.0) * 2 * scale)
    assert h.trace_count == 2
    if runtime.dispatch_x64():
        assert lookups[0] <= 4


def test_fast_path_from_several_threads():
    f = xnp.jit(lambda x, y: x * y + 1)
    errors = []

    def work(k):
        try:
            for i in range(60):
                x = np.full(3 + i % 3, float(k))
                r = f(x, x)
                np.testing.assert_array_equal(r, x * x + 1)
                np.testing.assert_array_equal(f(r, x), (x * x + 1) * x + 1)
                if i % 20 == 0:
                    with xnp.disable_jit():
                        np.testing.assert_array_equal(f(x, x), x * x + 1)
        except Exception as e:          # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:2]
    assert f.trace_count >= 3          # first calls may race to trace a signature


def test_fast_path_with_static_argnums():
    f = xnp.jit(lambda x, shape, k: xnp.reshape(x, shape) * k, static_argnums=(1, 2))
    lookups = _count_python_lookups(f)
    x = np.arange(6.0)
    for _ in range(3):
        for shape in ((2, 3), (3, 2)):
            np.testing.assert_array_equal(f(x, shape, 2), x.reshape(shape) * 2)
    assert f.trace_count == 2
    if runtime.dispatch_x64():
        # the first call creates the dispatcher on the Python path; then one C++ miss
        # per signature, and C++ alone afterwards
        assert lookups[0] <= 3
    np.testing.assert_array_equal(f(x, (2, 3), 2.5), x.reshape(2, 3) * 2.5)
    assert f.trace_count == 3
    with pytest.raises(ValueError, match="convert lists to tuples"):
        f(x, [2, 3], 1)
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        f(x, (2, 3))        # a left-out static argument without a default
