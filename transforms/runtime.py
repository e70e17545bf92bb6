"""The only module that talks to jaxlib: client, device transfers, compilation, execution.

jaxlib's Python bindings are private and change between releases, so every call to them
lives here, behind a handful of functions, and jaxlib is imported only when something is
first compiled. The version is checked at that moment with an error naming the supported
release. Facts this module relies on (measured with jaxlib 0.10.2):

* ``batched_device_put`` with ``enable_x64=True`` keeps 64-bit types (otherwise float64
  silently becomes float32). With ``ZERO_COPY`` it aliases aligned host memory; that is
  safe here because xnp never writes into an array value, and every call waits for its
  results before returning.
* Results are read through DLPack, which is zero-copy on the CPU and waits for the buffer.
  Several other ways to read a buffer (``_single_device_array_to_np_array_did_copy``,
  ``disassemble_into_single_device_arrays``) import ``jax`` from C++ on every call.
* No process-wide jaxlib setting is changed, so xnp and jax can share a process.
"""

from __future__ import annotations

import os
import threading
from typing import Sequence

import ml_dtypes
import numpy as np

__all__ = ["SUPPORTED_JAXLIB", "backend", "compile_mlir", "device_put", "to_numpy",
           "is_device_buffer", "Executable"]

SUPPORTED_JAXLIB = "0.10.2"
_SUPPORTED_API_VERSION = 467      # jaxlib.xla_client._version of that release

_lock = threading.Lock()
_backend = None


def _register_lapack(jax_ext) -> None:
    """Make jaxlib's LAPACK FFI targets (``lapack_*_ffi``, used by xnp.linalg's lowerings)
    known to XLA on the CPU; once, when the backend is created."""
    from jaxlib import lapack
    for name, fn, api_version in lapack.registrations()["cpu"]:
        try:
            jax_ext.register_custom_call_target(name, fn, "Host", api_version)
        except Exception:  # pragma: no cover - already registered (jax in this process)
            pass
    lapack._lapack.initialize()


class _Backend:
    """The jaxlib objects xnp uses, created once: client, device, sharding."""

    def __init__(self, platform: str = "cpu"):
        try:
            import jaxlib
            from jaxlib import _hlo, _jax, xla_client
        except ImportError as e:  # pragma: no cover - jaxlib is a dependency
            raise ImportError(f"xnp.jit needs jaxlib=={SUPPORTED_JAXLIB}: {e}") from e
        version = getattr(getattr(jaxlib, "version", None), "__version__", "unknown")
        if version != SUPPORTED_JAXLIB or xla_client._version != _SUPPORTED_API_VERSION:
            raise ImportError(
                f"xnp.jit supports exactly jaxlib=={SUPPORTED_JAXLIB} (its Python bindings "
                f"are private and change between releases), but jaxlib {version} is "
                f"installed. Run: pip install jaxlib=={SUPPORTED_JAXLIB}")
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        from jaxlib import utils
        utils.absl_set_min_log_level(1)    # the client logs INFO lines on creation
        self.jax = _jax
        self.client = _jax.get_tfrt_cpu_client(asynchronous=True)
        self.device = self.client.local_devices()[0]
        self.platform = self.client.platform
        self.device_list = _jax.DeviceList((self.device,))
        _register_lapack(_jax)
        replicated = _hlo.HloSharding.replicate()

        class _Sharding(_jax.SingleDeviceSharding):
            # jax patches these onto the C++ class; a subclass keeps the process untouched.
            def _to_xla_hlo_sharding(self, num_dimensions):
                return replicated

            @property
            def memory_kind(self):
                return self._memory_kind

        self.sharding = _Sharding(self.device)
        self.devices = [self.device]
        self.put = _jax.batched_device_put
        self.zero_copy = _jax.HostBufferSemantics.ZERO_COPY
        self.array_type = _jax.ArrayImpl
        self.to_dlpack = _jax.buffer_to_dlpack_managed_tensor


def backend() -> _Backend:
    """The jaxlib backend, created (and jaxlib imported) on first use."""
    global _backend
    if _backend is None:
        with _lock:
            if _backend is None:
                _backend = _Backend()
    return _backend


class _Aval:
    """What jaxlib's C++ reads from an abstract value."""

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype):
        self.shape, self.dtype, self.weak_type = tuple(shape), np.dtype(dtype), False


_aval_cache: dict = {}


def _aval(shape, dtype) -> _Aval:
    key = (shape, dtype)
    a = _aval_cache.get(key)
    if a is None:
        a = _aval_cache[key] = _Aval(shape, dtype)
    return a


def device_put(x: np.ndarray):
    """A device buffer holding ``x`` (aliasing its memory when aligned, on the CPU)."""
    b = _backend or backend()
    return b.put(_aval(x.shape, x.dtype), b.sharding, [x], b.devices, True, False,
                 b.zero_copy, enable_x64=True)


def is_device_buffer(x) -> bool:
    return _backend is not None and type(x) is _backend.array_type


class _DLPackSource:
    __slots__ = ("buf",)

    def __init__(self, buf):
        self.buf = buf

    def __dlpack__(self, stream=None, **kwargs):
        return _backend.to_dlpack(self.buf)

    def __dlpack_device__(self):
        return (1, 0)      # kDLCPU, device 0


def to_numpy(buf) -> np.ndarray:
    """A read-only NumPy view of a device buffer: no copy on the CPU; waits until ready."""
    aval = buf.aval
    if aval.dtype.itemsize == 0 or 0 in aval.shape:
        arr = np.zeros(aval.shape, aval.dtype)         # DLPack rejects empty buffers
    else:
        if aval.dtype in TRANSPORT_DTYPES:
            raise TypeError(f"runtime.to_numpy: DLPack cannot export {aval.dtype} buffers; "
                            "compiled programs return them bitcast to "
                            f"{TRANSPORT_DTYPES[aval.dtype]}")
        arr = np.from_dlpack(_DLPackSource(buf))
    arr.flags.writeable = False
    return arr


# Dtypes DLPack (and so NumPy) cannot exchange, and the same-width type that carries their
# bits out of a compiled program instead.
TRANSPORT_DTYPES = {np.dtype(ml_dtypes.bfloat16): np.dtype(np.uint16)}


class Executable:
    """A compiled XLA program: call it with NumPy arrays or device buffers.

    Results whose dtype is in TRANSPORT_DTYPES arrive bitcast (the lowering inserts the
    bitcast) and are viewed back as their true dtype here.
    """

    __slots__ = ("_exe", "_handlers", "out_dtypes", "_needs_view", "_plain_results",
                 "true_dtype_results")

    def __init__(self, exe, out_shapes: Sequence[tuple]):
        b = backend()
        self._exe = exe
        self.out_dtypes = [np.dtype(d) for _, d in out_shapes]
        self._needs_view = any(d in TRANSPORT_DTYPES for d in self.out_dtypes)
        # Every result can be read through DLPack directly (the common, fast case).
        self._plain_results = not self._needs_view and all(
            d.itemsize and 0 not in s for (s, _), d in zip(out_shapes, self.out_dtypes))
        # Per result: whether its buffer holds the result's own dtype (not a transport
        # bitcast), so that passing the result back can reuse the buffer.
        self.true_dtype_results = [d not in TRANSPORT_DTYPES for d in self.out_dtypes]
        self._handlers = [
            b.jax.array_result_handler(_aval(s, TRANSPORT_DTYPES.get(np.dtype(d), d)),
                                       b.sharding, True, _skip_checks=True)
            for s, d in out_shapes]

    def execute(self, args: Sequence) -> list:
        """Run on ``args`` (NumPy arrays or device buffers); returns device buffers."""
        b = _backend
        array_type, put, sharding, devices, zero_copy = (
            b.array_type, b.put, b.sharding, b.devices, b.zero_copy)
        bufs = [a if type(a) is array_type else
                put(_aval(a.shape, a.dtype), sharding, [a], devices, True, False, zero_copy,
                    enable_x64=True) for a in args]
        return self._exe.execute_sharded(bufs).consume_with_handlers(self._handlers)

    def results(self, buffers: Sequence) -> list:
        """NumPy views of the buffers ``execute`` returned, in their true dtypes."""
        if self._plain_results:
            outs = [np.from_dlpack(_DLPackSource(b)) for b in buffers]
            for o in outs:
                o.setflags(write=False)
            return outs
        outs = [to_numpy(b) for b in buffers]
        if self._needs_view:
            outs = [o.view(d) if o.dtype != d else o for o, d in zip(outs, self.out_dtypes)]
        return outs

    def __call__(self, *args) -> list:
        return self.results(self.execute(args))


def compile_mlir(text: str, out_shapes: Sequence[tuple]) -> Executable:
    """Compile a StableHLO module given as MLIR text for the default device.

    ``out_shapes`` lists the (shape, dtype) of each result of ``@main``.
    """
    b = backend()
    exe = b.client.compile_and_load(text, b.device_list, b.jax.CompileOptions())
    return Executable(exe, out_shapes)
