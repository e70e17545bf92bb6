"""Finding what jit needs to run on an NVIDIA GPU: the CUDA PJRT plugin of jaxlib's release
and the CUDA libraries it loads. Only the file system is read here; runtime.py loads the
plugin into jaxlib.

The plugin comes from the ``jax-cuda13-pjrt`` or ``jax-cuda12-pjrt`` wheel (installed by
``pip install "xnp[cuda13]"`` or ``"xnp[cuda12]"``, with NVIDIA's libraries as wheels).
Its Python package imports jax, so it is located without importing it.
"""

from __future__ import annotations

import importlib.util
import os

__all__ = ["PLATFORM_NAMES", "requested_platform", "find_plugin", "preload_libraries",
           "cuda_data_dir"]

# Values of XNP_PLATFORM and the platform each selects.
PLATFORM_NAMES = {"cpu": "cpu", "cuda": "cuda", "gpu": "cuda"}

_CUDA_MAJORS = ("13", "12")

# The libraries the plugin opens by name, in an order where each one's own dependencies
# come first (so loading by absolute path makes later lookups by name find them).
_LIBRARIES = ("libcudart", "libnvJitLink", "libnvrtc", "libcublasLt", "libcublas",
              "libcusparse", "libcusolver", "libcufft", "libcupti", "libnccl",
              "libnvshmem_host", "libcudnn")


def requested_platform() -> str:
    """The platform jit compiles for, from the XNP_PLATFORM environment variable
    (``cpu``, the default, or ``cuda``/``gpu``)."""
    name = os.environ.get("XNP_PLATFORM", "cpu").strip().lower() or "cpu"
    if name not in PLATFORM_NAMES:
        raise ValueError(f"XNP_PLATFORM={name!r} is not a platform xnp.jit knows; "
                         f"use one of {sorted(PLATFORM_NAMES)}")
    return PLATFORM_NAMES[name]


def _namespace_dirs(package: str) -> list[str]:
    """The directories of a namespace package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    return list(spec.submodule_search_locations or [])


def find_plugin(supported_release: str) -> tuple[str, str]:
    """(path of the CUDA PJRT plugin library, the CUDA major version it was built for).

    ``XNP_CUDA_PLUGIN`` may name the library file directly; otherwise the first of
    ``jax_plugins/xla_cuda13`` and ``jax_plugins/xla_cuda12`` on the import path is used.
    Raises ImportError saying what to install when there is none."""
    explicit = os.environ.get("XNP_CUDA_PLUGIN")
    if explicit:
        if not os.path.isfile(explicit):
            raise ImportError(f"XNP_CUDA_PLUGIN={explicit!r} is not a file")
        major = next((m for m in _CUDA_MAJORS if f"cuda{m}" in explicit), _CUDA_MAJORS[0])
        return explicit, major
    for base in _namespace_dirs("jax_plugins"):
        for major in _CUDA_MAJORS:
            path = os.path.join(base, f"xla_cuda{major}", "xla_cuda_plugin.so")
            if os.path.isfile(path):
                return path, major
    raise ImportError(
        "XNP_PLATFORM=cuda needs jaxlib's CUDA PJRT plugin of the same release: "
        f'pip install "xnp[cuda13]" (or "xnp[cuda12]"), which installs '
        f"jax-cuda13-plugin[with-cuda]=={supported_release} and NVIDIA's libraries; or "
        "set XNP_CUDA_PLUGIN to the path of xla_cuda_plugin.so")


def _library_dirs(major: str) -> list[str]:
    """Directories of NVIDIA's library wheels for one CUDA major version: CUDA 13's wheels
    share ``nvidia/cu13/lib``; CUDA 12's have one ``nvidia/<name>/lib`` each."""
    import glob
    dirs = []
    for base in _namespace_dirs("nvidia"):
        for lib in sorted(glob.glob(os.path.join(base, "*", "lib"))):
            name = os.path.basename(os.path.dirname(lib))
            if not (name.startswith("cu1") and name != f"cu{major}"):
                dirs.append(lib)
    if major == "13":   # its own directory first: cu12 wheels may sit beside it
        dirs.sort(key=lambda d: os.path.basename(os.path.dirname(d)) != "cu13")
    return dirs


def preload_libraries(major: str) -> list[str]:
    """Load NVIDIA's CUDA libraries from their pip wheels (when installed), so that the
    plugin's lookups by name find them; without the wheels the system's libraries (the
    dynamic loader's path) are used. Returns the files loaded."""
    import ctypes
    import glob
    loaded, dirs = [], _library_dirs(major)
    for name in _LIBRARIES:
        for d in dirs:
            candidates = [p for p in glob.glob(os.path.join(d, name + ".so.*"))
                          if p[len(os.path.join(d, name)) + 4:].split(".")[0].isdigit()]
            if candidates:
                path = min(candidates, key=len)       # libX.so.12 over libX.so.12.1.2
                try:
                    ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                except OSError:
                    continue
                loaded.append(path)
                break
    return loaded


def cuda_data_dir() -> str | None:
    """Where XLA finds ``ptxas`` and ``libdevice`` when it compiles for the GPU: CUDA_ROOT
    if set, else the ``nvidia-cuda-nvcc`` wheel's directory, else None (XLA then looks in
    /usr/local/cuda and on PATH)."""
    if os.environ.get("CUDA_ROOT"):
        return os.environ["CUDA_ROOT"]
    for sub in ("cu13", "cuda_nvcc"):
        for base in _namespace_dirs("nvidia"):
            root = os.path.join(base, sub)
            if os.path.isfile(os.path.join(root, "bin", "ptxas")):
                return root
    return None
