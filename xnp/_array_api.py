"""Array API inspection (``__array_namespace_info__``) and ``from_dlpack``.

xnp arrays live on one device, the host CPU, named ``"cpu"`` (as ``ndarray.device``).
"""

from __future__ import annotations

import numpy as np

from xnp._array import _wrap as wrap

__all__ = ["__array_namespace_info__", "from_dlpack"]

_DEVICE = "cpu"
_KINDS = {
    "bool": ["bool"],
    "signed integer": ["int8", "int16", "int32", "int64"],
    "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
    "real floating": ["float32", "float64"],
    "complex floating": ["complex64", "complex128"],
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]


def _check_device(device, fn: str) -> None:
    if device not in (None, _DEVICE):
        raise ValueError(f"{fn}: unknown device {device!r}; xnp has the one device 'cpu'")


class ArrayNamespaceInfo:
    """What the xnp namespace supports, as the Array API's inspection interface."""

    __module__ = "xnp"
    __qualname__ = "__array_namespace_info__"   # prints as NumPy's class of that name

    def capabilities(self) -> dict:
        """Boolean indexing and data-dependent shapes work eagerly (under ``jit`` they
        need static sizes, as in JAX); up to 64 dimensions, as NumPy."""
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self) -> str:
        """The one device, ``"cpu"``."""
        return _DEVICE

    def devices(self) -> list:
        """All devices: ``["cpu"]``."""
        return [_DEVICE]

    def default_dtypes(self, *, device=None) -> dict:
        """NumPy's defaults: float64, complex128, and int64 for integers and indices."""
        _check_device(device, "default_dtypes")
        return {"real floating": np.dtype(np.float64),
                "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The Array API dtypes xnp supports, by name, optionally only those of ``kind``
        (a kind name or a tuple of them, as in :func:`xnp.isdtype`)."""
        _check_device(device, "dtypes")
        if kind is None:
            names = _KINDS["bool"] + _KINDS["numeric"]
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            names = []
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"dtypes: unknown kind {k!r}; expected one of "
                                     f"{sorted(_KINDS)}")
                names += [n for n in _KINDS[k] if n not in names]
        return {n: np.dtype(n) for n in names}


def __array_namespace_info__() -> ArrayNamespaceInfo:
    """The Array API inspection namespace of xnp."""
    return ArrayNamespaceInfo()


def from_dlpack(x, /, *, device=None, copy=None):
    """An xnp array from any object implementing the DLPack protocol (``__dlpack__``),
    as :func:`numpy.from_dlpack`; ``copy=True`` copies, otherwise memory is shared where
    the producer allows it."""
    _check_device(device, "from_dlpack")
    return wrap(np.from_dlpack(x, copy=copy))
