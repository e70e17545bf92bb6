"""The only module that talks to jaxlib: client, device transfers, compilation, execution.

jaxlib's Python bindings are private and change between releases, so every call to them
lives here, behind a handful of functions, and jaxlib is imported only when something is
first compiled. The version is checked at that moment with an error naming the supported
release. jit compiles for the CPU, or for an NVIDIA GPU through jaxlib's CUDA PJRT plugin
when XNP_PLATFORM=cuda (transforms/cuda_plugin.py finds the plugin and NVIDIA's
libraries). Facts this module relies on (measured with jaxlib 0.10.2):

* ``batched_device_put`` with ``enable_x64=True`` keeps 64-bit types (otherwise float64
  silently becomes float32). With ``ZERO_COPY`` it aliases aligned host memory; that is
  safe here because xnp never writes into an array value, and every call waits for its
  results before returning.
* On the GPU (checked on an H100), results are copied to the host with
  ``_single_device_array_to_np_array_did_copy`` (it tries ``import jax.core`` once, and
  goes on without it), and XLA:GPU's GEMM autotuner is turned off
  (``_gpu_option_overrides``).
* Results are read through the buffer protocol (``memoryview``), which is zero-copy on the
  CPU, waits for the buffer and costs about 3 us less than DLPack; it rejects bfloat16,
  which compiled programs return bitcast to uint16 (TRANSPORT_DTYPES). Several other ways
  to read a buffer (``_single_device_array_to_np_array_did_copy``,
  ``disassemble_into_single_device_arrays``) import ``jax`` from C++ on every call.
* Dispatch (see "C++ dispatch" below) goes through jaxlib's C++ jit fast path
  ``_jax.pjit``, which reads three process-wide C++ states (x64, disable-jit, post-hook)
  that jax installs too. xnp installs its own only while jax has not installed its, and
  checks on every cache miss which x64 value is in force, so that either package can be
  imported first (see ``_install_jit_states`` and ``dispatch_x64``).
"""

from __future__ import annotations

import os
import threading
from collections import namedtuple
from typing import Any, Callable, Sequence

import ml_dtypes
import numpy as np

from transforms import core, cuda_plugin

__all__ = ["SUPPORTED_JAXLIB", "backend", "compile_mlir", "device_put", "to_numpy",
           "is_device_buffer", "Executable", "buffer_view", "make_dispatcher",
           "dispatch_x64", "fastpath_data", "output_treedef", "register_dispatch_node",
           "dispatch_leaves", "platform", "require_lapack"]

SUPPORTED_JAXLIB = "0.10.2"
_SUPPORTED_API_VERSION = 467      # jaxlib.xla_client._version of that release

_lock = threading.Lock()
_backend = None


def require_lapack() -> None:
    """Make jaxlib's LAPACK FFI targets (``lapack_*_ffi``, used by xnp.linalg's lowerings)
    known to XLA on the CPU; once, when the first module that calls one is lowered.

    jaxlib's LAPACK kernels take LAPACK's routines from SciPy, so compiling linear algebra
    needs SciPy installed (nothing else in jit does: the import costs about 0.25 s).
    """
    b = _backend or backend()
    if b.lapack_ready:
        return
    with _lock:
        if b.lapack_ready:
            return
        from jaxlib import lapack
        try:
            lapack._lapack.initialize()     # reads the routines from scipy.linalg
        except ImportError as e:
            raise ImportError(
                "xnp.linalg under jit runs jaxlib's LAPACK kernels on the CPU, which take "
                "LAPACK's routines from SciPy, and SciPy is not installed: run "
                "`pip install scipy`, or call the linear algebra outside jit (eagerly it "
                f"uses NumPy's LAPACK). ({e})") from e
        for name, fn, api_version in lapack.registrations()["cpu"]:
            try:
                b.jax.register_custom_call_target(name, fn, "Host", api_version)
            except Exception:  # pragma: no cover - already registered (jax in this process)
                pass
        b.lapack_ready = True


class _Backend:
    """The jaxlib objects xnp uses, created once: client, device, sharding."""

    def __init__(self, platform: str | None = None):
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
        platform = platform or cuda_plugin.requested_platform()
        self.cuda_data_dir = None
        if platform == "cpu":
            self.client = _jax.get_tfrt_cpu_client(asynchronous=True)
        else:
            self.client = _cuda_client(xla_client)
            self.cuda_data_dir = cuda_plugin.cuda_data_dir()
        self.device = self.client.local_devices()[0]
        self.platform = cuda_plugin.PLATFORM_NAMES.get(self.client.platform,
                                                       self.client.platform)
        self.device_list = _jax.DeviceList((self.device,))
        # Results are read through the buffer protocol on the CPU (no copy); from other
        # devices they are copied to the host.
        self.host_readable = self.platform == "cpu"
        self.lapack_ready = False        # see require_lapack
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
        # How host arrays are transferred: aliased on the CPU; elsewhere copied without
        # waiting (safe: every call reads its results, so waits for its transfers, before
        # it returns, and xnp never writes into an array's value).
        self.zero_copy = (_jax.HostBufferSemantics.ZERO_COPY if self.host_readable else
                          _jax.HostBufferSemantics.IMMUTABLE_UNTIL_TRANSFER_COMPLETES)
        self.array_type = _jax.ArrayImpl
        # C++ dispatch: a pytree registry of the built-in containers, a cache of compiled
        # entries separate from jax's, and the process-wide states if nobody set them yet.
        self.registry = _jax.pytree.PyTreeRegistry(
            enable_none=True, enable_tuple=True, enable_namedtuple=True, enable_list=True,
            enable_dict=True)
        self.dispatch_cache = _jax.PjitFunctionCache()
        self.owns_jit_states = _install_jit_states(_jax)


def _cuda_client(xla_client):
    """A PJRT client of the CUDA plugin (see transforms/cuda_plugin.py)."""
    path, major = cuda_plugin.find_plugin(SUPPORTED_JAXLIB)
    cuda_plugin.preload_libraries(major)
    if not xla_client.pjrt_plugin_loaded("cuda"):
        xla_client.load_pjrt_plugin_dynamically("cuda", path)
    if not xla_client.pjrt_plugin_initialized("cuda"):
        xla_client.initialize_pjrt_plugin("cuda")
    try:
        return xla_client.make_c_api_client("cuda",
                                            xla_client.generate_pjrt_gpu_plugin_options())
    except Exception as e:
        raise RuntimeError(f"XNP_PLATFORM=cuda: the CUDA plugin at {path} found no usable "
                           f"GPU ({e}); unset XNP_PLATFORM to compile for the CPU") from e


def platform() -> str:
    """The platform jit compiles for ("cpu" or "cuda"): the backend's once it exists, else
    the one XNP_PLATFORM asks for (without importing jaxlib)."""
    return _backend.platform if _backend is not None else cuda_plugin.requested_platform()


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


def _host_copy(buf) -> np.ndarray:
    """A read-only host copy of a buffer on another device than the CPU."""
    value = buf._single_device_array_to_np_array_did_copy()[0]
    value.flags.writeable = False
    return value


def is_device_buffer(x) -> bool:
    """Whether ``x`` is a buffer of xnp's own client. jax's arrays are of the same type but
    belong to jax's client (XLA refuses them as arguments): they count as host values."""
    b = _backend
    return b is not None and type(x) is b.array_type and x._sharding is b.sharding


def buffer_view(buf) -> np.ndarray:
    """A read-only NumPy view of a device buffer through the buffer protocol: no copy on
    the CPU, waits until the buffer is ready; a host copy from other devices. Every dtype
    but bfloat16 (TRANSPORT_DTYPES)."""
    if _backend.host_readable:
        return np.asarray(buf)     # through the buffer protocol
    return _host_copy(buf)


def to_numpy(buf) -> np.ndarray:
    """A read-only NumPy view of a device buffer: no copy on the CPU; waits until ready."""
    aval = buf.aval
    if aval.dtype in TRANSPORT_DTYPES:
        raise TypeError(f"runtime.to_numpy: DLPack cannot export {aval.dtype} buffers; "
                        "compiled programs return them bitcast to "
                        f"{TRANSPORT_DTYPES[aval.dtype]}")
    return buffer_view(buf)


# Dtypes DLPack (and so NumPy) cannot exchange, and the same-width type that carries their
# bits out of a compiled program instead.
TRANSPORT_DTYPES = {np.dtype(ml_dtypes.bfloat16): np.dtype(np.uint16),
                    # float0 (gradients of integer inputs) has no data: carried as bool
                    core.float0: np.dtype(np.bool_)}


class Executable:
    """A compiled XLA program: call it with NumPy arrays or device buffers.

    Results whose dtype is in TRANSPORT_DTYPES arrive bitcast (the lowering inserts the
    bitcast) and are viewed back as their true dtype here.
    """

    __slots__ = ("_exe", "_handlers", "out_dtypes", "_needs_view", "true_dtype_results",
                 "out_avals")

    def __init__(self, exe, out_shapes: Sequence[tuple]):
        b = backend()
        self._exe = exe
        self.out_dtypes = [np.dtype(d) for _, d in out_shapes]
        self._needs_view = any(d in TRANSPORT_DTYPES for d in self.out_dtypes)
        # Per result: whether its buffer holds the result's own dtype (not a transport
        # bitcast), so that passing the result back can reuse the buffer.
        self.true_dtype_results = [d not in TRANSPORT_DTYPES for d in self.out_dtypes]
        # The avals of the result buffers (transport dtypes where bitcast).
        self.out_avals = [_aval(tuple(s), TRANSPORT_DTYPES.get(np.dtype(d), np.dtype(d)))
                          for s, d in out_shapes]
        self._handlers = [b.jax.array_result_handler(a, b.sharding, True, _skip_checks=True)
                          for a in self.out_avals]

    def execute(self, args: Sequence) -> list:
        """Run on ``args`` (NumPy arrays or device buffers); returns device buffers."""
        b = _backend
        array_type, put, sharding, devices, zero_copy = (
            b.array_type, b.put, b.sharding, b.devices, b.zero_copy)
        bufs = [a if type(a) is array_type and a._sharding is sharding else
                put(_aval(a.shape, a.dtype), sharding, [a], devices, True, False, zero_copy,
                    enable_x64=True) for a in args]
        return self._exe.execute_sharded(bufs).consume_with_handlers(self._handlers)

    def results(self, buffers: Sequence) -> list:
        """NumPy views of the buffers ``execute`` returned, in their true dtypes."""
        if _backend.host_readable:
            outs = [np.asarray(b) for b in buffers]
        else:
            outs = [_host_copy(b) for b in buffers]
        if self._needs_view:
            outs = [o if o.dtype == d else o.view(d) if d.itemsize else np.zeros(o.shape, d)
                    for o, d in zip(outs, self.out_dtypes)]
        return outs

    def __call__(self, *args) -> list:
        return self.results(self.execute(args))


def _gpu_option_overrides() -> list:
    """XLA options for GPU compiles. XLA:GPU's autotuner tries many kernels for every
    float32 product at HIGHEST precision (which xnp's lowering asks for, to give NumPy's
    float32 results): the MLP step of bench/jit.py took 25 s to compile on an H100 with
    it and 1.5 s without, and its step ran no slower (0.5 ms against 1.0 ms, one run). So
    it is off unless XLA_FLAGS sets xla_gpu_autotune_level."""
    if "xla_gpu_autotune_level" in os.environ.get("XLA_FLAGS", ""):
        return []
    return [("xla_gpu_autotune_level", 0)]


def compile_mlir(text: str, out_shapes: Sequence[tuple]) -> Executable:
    """Compile a StableHLO module given as MLIR text for the default device.

    ``out_shapes`` lists the (shape, dtype) of each result of ``@main``.
    """
    b = backend()
    options = b.jax.CompileOptions()
    if b.platform != "cpu":
        if b.cuda_data_dir:
            options.executable_build_options.debug_options.xla_gpu_cuda_data_dir = (
                b.cuda_data_dir)
        options.env_option_overrides = _gpu_option_overrides()
    exe = b.client.compile_and_load(text, b.device_list, options)
    return Executable(exe, out_shapes)


# ---------------------------------------------------------------------------------------
# C++ dispatch
#
# ``_jax.pjit`` wraps a Python "cache miss" function in a C++ callable. Each call computes
# a signature of the positional arguments (pytree structure; dtype, shape and weak type of
# every NumPy array, NumPy or Python scalar and device buffer; the values of every C++
# config marked include_in_jit_key) and looks it up in a C++ cache. On a hit it transfers
# NumPy inputs, runs the cached executable and returns device buffers without running any
# Python. On a miss it calls ``cache_miss(*args)``, which must return
# ``(result, fastpath_data_or_None, remove_entry)``; with None the signature is marked to
# always call ``cache_miss`` (whose ``result`` is then returned), and arguments the C++
# signature does not understand (xnp arrays, tracers) always go to ``cache_miss`` too.
#
# Three process-wide states are read on every call: enable_x64 (False turns float64 into
# float32, in signatures and in transfers), disable_jit (True calls ``fun`` instead) and a
# post-call hook. jax installs its own when ``jax._src.config`` is imported, replacing
# whatever was there; xnp installs its own only while jax's are absent. So:
# * jax imported first: jax's states stay, and xnp's dispatch follows jax_enable_x64.
# * xnp first, jax later: jax's replace xnp's (so jax behaves as usual) and the key changes
#   (jax's configs join it), so every signature misses once more.
# ``dispatch_x64()`` tells the cache-miss callback which x64 value is in force; callers give
# fastpath data only when it is True. The key holds jax_enable_x64's value, so a signature
# seen with x64 off cannot be reused with it on, or the reverse.

FastpathData = namedtuple(
    "FastpathData", "xla_executable out_pytree_def in_shardings out_shardings out_avals "
    "out_committed kept_var_bitvec in_device_local_layouts const_args")

_jit_states: list = []       # xnp's config states, kept alive while installed


def _install_jit_states(_jax) -> bool:
    """Install xnp's C++ dispatch states unless jax has installed its own; True if done."""
    names = _jax.config.trace_context_names()
    if "jax_enable_x64" in names and "jax_disable_jit" in names:
        return False
    x64 = _jax.config.Config("xnp_enable_x64", True, include_in_jit_key=True)
    disable = _jax.config.Config("xnp_disable_jit", False, include_in_jit_key=True)
    hook = _jax.config.Config("xnp_post_hook", None)
    _jax.jax_jit.set_enable_x64_state(x64)
    _jax.jax_jit.set_disable_jit_state(disable)
    _jax.jax_jit.set_post_hook_state(hook)
    _jit_states[:] = [x64, disable, hook]
    return True


def dispatch_x64() -> bool:
    """Whether the C++ dispatch keeps 64-bit types now (in this thread)."""
    b = _backend or backend()
    values = b.jax.config.trace_context()      # configs only ever get added
    if len(values) != _x64_slot[0]:
        names = b.jax.config.trace_context_names()
        _x64_slot[:] = [len(names), names.index("jax_enable_x64")
                        if "jax_enable_x64" in names else -1]
    i = _x64_slot[1]
    if i >= 0:                                 # jax's state is installed and in force
        return bool(values[i])
    return b.owns_jit_states


_x64_slot = [-1, -1]      # (number of trace-context configs, index of jax_enable_x64)


def make_dispatcher(name: str, fun: Callable, cache_miss: Callable,
                    static_argnums: Sequence[int] = ()):
    """A C++ callable dispatching positional arguments through a signature cache.

    ``fun(*args)`` runs instead when jax's disable_jit is on; ``cache_miss(*args)`` on every
    new signature and on signatures without fastpath data. Arguments at
    ``static_argnums`` are part of the signature by hash and equality, and not passed to
    the executable."""
    b = _backend or backend()
    return b.jax.pjit(name, fun, cache_miss, list(static_argnums), [], _DispatchKey(),
                      b.registry,
                      _shard_arg_fallback, b.dispatch_cache)


class _DispatchKey:
    """An identity-hashed object: every dispatcher's C++ cache is its own."""

    __slots__ = ()


def _shard_arg_fallback(x, sharding, layout):
    # Called by the C++ path for inputs it cannot transfer itself (not expected with one
    # CPU device and default layouts).
    return device_put(np.asarray(x))


def output_treedef(sample: Any):
    """The C++ pytree structure of ``sample`` (a pytree whose leaves flatten, through
    registered nodes, to 0, 1, ..., n-1 in xnp's flattening order), or None if the C++
    registry flattens it differently."""
    b = _backend or backend()
    try:
        leaves, treedef = b.registry.flatten(sample)
    except Exception:      # noqa: BLE001 - unusual keys or nodes: no fast path
        return None
    if leaves != list(range(len(leaves))):
        return None
    return treedef


def register_dispatch_node(cls: type, flatten: Callable, unflatten: Callable) -> None:
    """Make ``cls`` a pytree node of the C++ dispatch: ``flatten(x) -> (children, aux)``,
    ``unflatten(aux, children) -> x``."""
    (_backend or backend()).registry.register_node(cls, flatten, unflatten)


def register_dispatch_fields(cls: type, fields: Sequence[str]) -> None:
    """Make ``cls`` a pytree node of the C++ dispatch whose children are the attributes
    ``fields``, read by the C++ side itself (it is never rebuilt from them)."""
    (_backend or backend()).registry.register_dataclass_node(cls, list(fields), [])


def dispatch_leaves(args: tuple):
    """The leaves the C++ dispatch sees in ``args``, or None if it cannot flatten them."""
    try:
        return (_backend or backend()).registry.flatten(args)[0]
    except Exception:      # noqa: BLE001 - a node's flatten failed: the Python path decides
        return None


def fastpath_data(exe: Executable, const_args: Sequence, n_args: int, out_treedef):
    """What the C++ dispatch needs to run ``exe`` itself: leading constant arguments, then
    ``n_args`` arguments, results as buffers in ``out_treedef``."""
    b = _backend
    n_in, n_out = len(const_args) + n_args, len(exe.out_avals)
    sh = b.sharding
    return FastpathData(exe._exe, out_treedef, [sh] * n_in, [sh] * n_out,
                        list(exe.out_avals), [True] * n_out, [True] * n_in, [None] * n_in,
                        list(const_args))
