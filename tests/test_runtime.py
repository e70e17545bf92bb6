"""The jaxlib runtime module on its own: every private jaxlib call xnp makes goes through
transforms/runtime.py, so these tests show at once what a jaxlib upgrade breaks."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from transforms import cuda_plugin, runtime
from transforms.lowering import mlir_type

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64,
          np.complex128]


def test_backend_is_the_pinned_jaxlib_on_the_requested_platform():
    b = runtime.backend()
    assert b.platform == runtime.platform() == cuda_plugin.requested_platform()
    import jaxlib.version
    assert jaxlib.version.__version__ == runtime.SUPPORTED_JAXLIB


def test_version_mismatch_names_the_supported_release(monkeypatch):
    import jaxlib.version
    monkeypatch.setattr(jaxlib.version, "__version__", "0.0.1")
    with pytest.raises(ImportError, match=r"jaxlib==0\.10\.2"):
        runtime._Backend()


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (3,), (2, 0), (2, 3)])
def test_round_trip_through_a_compiled_identity(dtype, shape):
    x = (np.arange(int(np.prod(shape))) % 3).reshape(shape).astype(dtype)
    op = "not" if x.dtype == np.bool_ else "negate"      # identity after a second pass
    ty = mlir_type(shape, x.dtype)
    out_ty = mlir_type(shape, runtime.TRANSPORT_DTYPES.get(x.dtype, x.dtype))
    cast = (f'%1 = "stablehlo.bitcast_convert"(%a) : ({ty}) -> {out_ty}'
            if out_ty != ty else f'%1 = "stablehlo.{op}"(%a) : ({ty}) -> {ty}')
    text = (f"module @ident {{ func.func public @main(%a: {ty}) -> ({out_ty}) {{\n{cast}\n"
            f'"func.return"(%1) : ({out_ty}) -> () }} }}')
    exe = runtime.compile_mlir(text, [(shape, x.dtype)])
    buf = runtime.device_put(x)
    assert runtime.is_device_buffer(buf) and not runtime.is_device_buffer(x)
    (back,) = exe(buf)
    assert not back.flags.writeable
    if out_ty == ty:
        back = ~back if x.dtype == np.bool_ else -back
    assert back.dtype == x.dtype and back.shape == x.shape
    np.testing.assert_array_equal(back, x)


ADD = """module @add {
  func.func public @main(%a: tensor<3xf64>, %b: tensor<3xf64>) -> (tensor<3xf64>) {
    %0 = "stablehlo.add"(%a, %b) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    "func.return"(%0) : (tensor<3xf64>) -> ()
  }
}"""


def test_compile_and_run_mlir_text_in_float64():
    exe = runtime.compile_mlir(ADD, [((3,), np.dtype(np.float64))])
    a = np.array([1.0, 1e-300, 2.0 ** -60])
    (out,) = exe(a, a)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, a + a)       # no float32 round trip
    bufs = exe.execute([runtime.device_put(a), a])   # buffers and arrays mix
    np.testing.assert_array_equal(runtime.to_numpy(bufs[0]), a + a)


def test_results_are_read_without_a_copy():
    exe = runtime.compile_mlir(ADD, [((3,), np.dtype(np.float64))])
    (buf,) = exe.execute([np.ones(3), np.ones(3)])
    v1, v2 = runtime.to_numpy(buf), runtime.to_numpy(buf)
    assert v1.ctypes.data == v2.ctypes.data


def test_invalid_module_raises():
    with pytest.raises(Exception, match="error"):
        runtime.compile_mlir("module { this is not mlir }", [])


# --- C++ dispatch ------------------------------------------------------------------------

def test_buffer_view_is_a_read_only_zero_copy_view():
    x = np.arange(6.0).reshape(2, 3)
    buf = runtime.device_put(x.copy())
    v1, v2 = runtime.buffer_view(buf), runtime.buffer_view(buf)
    assert v1.ctypes.data == v2.ctypes.data and not v1.flags.writeable
    assert v1.dtype == x.dtype and v1.shape == x.shape
    np.testing.assert_array_equal(v1, x)
    with pytest.raises(TypeError, match="bfloat16"):
        runtime.to_numpy(runtime.device_put(np.zeros(2, ml_dtypes.bfloat16)))


def test_dispatcher_runs_the_fast_path_without_calling_python():
    exe = runtime.compile_mlir(ADD, [((3,), np.dtype(np.float64))])
    misses = []

    def cache_miss(*args):
        misses.append(args)
        (out,) = exe.execute(list(args))
        fast = runtime.fastpath_data(exe, [], 2, runtime.output_treedef(0))
        return out, (fast if runtime.dispatch_x64() else None), False

    f = runtime.make_dispatcher("add", lambda *a: None, cache_miss)
    a, b = np.array([1.0, 1e-300, 2.0 ** -60]), np.full(3, 2.0)
    for _ in range(3):
        out = f(a, b)
        assert runtime.is_device_buffer(out)
        np.testing.assert_array_equal(runtime.buffer_view(out), a + b)
    if runtime.dispatch_x64():
        assert len(misses) == 1
        f(out, out)                                # device buffers: a new signature
        np.testing.assert_array_equal(runtime.buffer_view(f(out, out)), 2 * (a + b))
        assert len(misses) == 2


def test_x64_is_in_force_when_jax_is_absent():
    import sys
    if "jax" not in sys.modules:
        assert runtime.backend().owns_jit_states and runtime.dispatch_x64()


def test_output_treedef_rejects_structures_flattened_differently():
    class Box:                          # not a registered node: one leaf in C++
        pass

    assert runtime.output_treedef((0, [1, {"a": 2, "b": 3}], None)) is not None
    assert runtime.output_treedef({"b": 1, "a": 0}) is not None
    assert runtime.output_treedef([Box()]) is None
    assert runtime.output_treedef((1, 0)) is None


def test_jit_works_without_scipy_and_linalg_under_jit_says_what_to_install():
    # SciPy is not a dependency: only LAPACK's kernels (linalg under jit) need it.
    import subprocess
    import sys
    code = (
        "import sys\n"
        "sys.modules['scipy'] = None\n"
        "import numpy as np, xnp\n"
        "assert float(xnp.jit(lambda x: x * 2 + 1)(np.float64(1.5))) == 4.0\n"
        "np.testing.assert_array_equal(xnp.linalg.inv(np.eye(2) * 2), np.eye(2) / 2)\n"
        "try:\n"
        "    xnp.jit(xnp.linalg.inv)(np.eye(2))\n"
        "except ImportError as e:\n"
        "    assert 'pip install scipy' in str(e), e\n"
        "else:\n"
        "    raise AssertionError('no ImportError')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


def test_linalg_under_jit_registers_lapack_once_lowered():
    import xnp
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    np.testing.assert_allclose(xnp.jit(xnp.linalg.cholesky)(a), np.linalg.cholesky(a),
                               rtol=1e-15)
    assert runtime.backend().lapack_ready
