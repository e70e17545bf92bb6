"""Selecting the platform jit compiles for, and finding the CUDA plugin and libraries
(transforms/cuda_plugin.py). These run anywhere: the file layouts of the wheels are
recreated in a temporary directory. tests/test_gpu.py runs compiled code on a GPU."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import xnp
from transforms import cuda_plugin, runtime


@pytest.mark.parametrize("value, platform", [
    (None, "cpu"), ("", "cpu"), ("cpu", "cpu"), ("CUDA", "cuda"), (" gpu ", "cuda")])
def test_requested_platform_reads_xnp_platform(monkeypatch, value, platform):
    if value is None:
        monkeypatch.delenv("XNP_PLATFORM", raising=False)
    else:
        monkeypatch.setenv("XNP_PLATFORM", value)
    assert cuda_plugin.requested_platform() == platform


def test_unknown_platform_names_the_choices(monkeypatch):
    monkeypatch.setenv("XNP_PLATFORM", "tpu")
    with pytest.raises(ValueError, match=r"XNP_PLATFORM='tpu'.*\['cpu', 'cuda', 'gpu'\]"):
        cuda_plugin.requested_platform()


def _touch(path) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb"):
        pass
    return str(path)


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A fresh directory first on the import path, holding no packages yet."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("XNP_CUDA_PLUGIN", raising=False)
    monkeypatch.delenv("CUDA_ROOT", raising=False)
    for name in ("jax_plugins", "nvidia"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


@pytest.mark.parametrize("majors, found", [(["12"], "12"), (["13"], "13"),
                                           (["12", "13"], "13")])
def test_find_plugin_prefers_the_newest_cuda(site, majors, found):
    for major in majors:
        _touch(site / "jax_plugins" / f"xla_cuda{major}" / "xla_cuda_plugin.so")
    path, major = cuda_plugin.find_plugin("0.10.2")
    assert major == found
    assert path == str(site / "jax_plugins" / f"xla_cuda{found}" / "xla_cuda_plugin.so")


def test_find_plugin_honours_xnp_cuda_plugin(site, monkeypatch):
    lib = _touch(site / "elsewhere" / "cuda12" / "plugin.so")
    monkeypatch.setenv("XNP_CUDA_PLUGIN", lib)
    assert cuda_plugin.find_plugin("0.10.2") == (lib, "12")
    monkeypatch.setenv("XNP_CUDA_PLUGIN", str(site / "missing.so"))
    with pytest.raises(ImportError, match="XNP_CUDA_PLUGIN=.*missing.so.*not a file"):
        cuda_plugin.find_plugin("0.10.2")


def _hide_installed_plugins(monkeypatch):
    """Search no installed jax_plugins package (a GPU machine may have one)."""
    real = cuda_plugin._namespace_dirs
    monkeypatch.setattr(cuda_plugin, "_namespace_dirs",
                        lambda name: [] if name == "jax_plugins" else real(name))


def test_missing_plugin_says_what_to_install(site, monkeypatch):
    _hide_installed_plugins(monkeypatch)
    with pytest.raises(ImportError, match=r'pip install "xnp\[cuda13\]".*==0\.10\.2'):
        cuda_plugin.find_plugin("0.10.2")


def test_library_dirs_keep_to_one_cuda_release(site):
    for sub in ("cu13", "cudnn", "nccl", "cublas", "cu12"):
        _touch(site / "nvidia" / sub / "lib" / "libx.so.1")
    names = lambda major: [os.path.basename(os.path.dirname(d))  # noqa: E731
                           for d in cuda_plugin._library_dirs(major)
                           if d.startswith(str(site))]
    assert names("13") == ["cu13", "cublas", "cudnn", "nccl"]
    assert names("12") == ["cu12", "cublas", "cudnn", "nccl"]


def test_preload_skips_files_that_are_not_libraries(site):
    # Empty files named like CUDA's libraries fail to load and are passed over; the
    # dynamic loader's own search then applies.
    _touch(site / "nvidia" / "cu13" / "lib" / "libcudart.so.13")
    loaded = cuda_plugin.preload_libraries("13")
    assert not [p for p in loaded if p.startswith(str(site))]


def test_cuda_data_dir_finds_the_nvcc_wheel(site, monkeypatch):
    assert cuda_plugin.cuda_data_dir() is None or "CUDA_ROOT" in os.environ
    _touch(site / "nvidia" / "cuda_nvcc" / "bin" / "ptxas")
    assert cuda_plugin.cuda_data_dir() == str(site / "nvidia" / "cuda_nvcc")
    monkeypatch.setenv("CUDA_ROOT", "/opt/cuda")
    assert cuda_plugin.cuda_data_dir() == "/opt/cuda"


def test_a_cuda_backend_without_a_plugin_says_what_to_install(site, monkeypatch):
    _hide_installed_plugins(monkeypatch)
    with pytest.raises(ImportError, match="jaxlib's CUDA PJRT plugin"):
        runtime._Backend("cuda")


def test_linalg_under_jit_off_the_cpu_raises_with_the_way_out(monkeypatch):
    monkeypatch.setattr(runtime, "platform", lambda: "cuda")
    with pytest.raises(NotImplementedError, match=r"LAPACK's getrf.*outside jit"):
        xnp.jit(xnp.linalg.inv).lower(np.eye(3)).as_text()
