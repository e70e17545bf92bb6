"""``disable_jit``, and how a warm jitted function is called by jaxlib's C++ dispatcher
with no Python frame of its own (switched back to the Python entry while any
``disable_jit`` context is open)."""

from __future__ import annotations

import threading
import weakref

__all__ = ["disable_jit"]


class _JitConfig(threading.local):
    disabled = False        # a class default: reading it never raises AttributeError


_config = _JitConfig()
# How many disable_jit contexts are open in all threads: jitted calls read this cheap
# counter first and the thread-local flag only when it is not zero.
_n_disabled = [0]
_disabled_lock = threading.Lock()


def _disabled() -> bool:
    return _config.disabled


class disable_jit:
    """Context manager: jitted functions run eagerly (op by op) inside it, for debugging
    with print statements and concrete values. ``disable_jit(False)`` re-enables jit
    inside an enclosing ``disable_jit()``, as JAX's."""

    def __init__(self, disable: bool = True):
        self.disable = bool(disable)

    def __enter__(self):
        self.prev = _config.disabled
        _config.disabled = self.disable
        with _disabled_lock:
            _n_disabled[0] += 1
            if _n_disabled[0] == 1:
                _set_direct_calls(False)

    def __exit__(self, *exc):
        _config.disabled = self.prev
        with _disabled_lock:
            _n_disabled[0] -= 1
            if _n_disabled[0] == 0:
                _set_direct_calls(True)


# A plain jitted function whose C++ dispatcher exists is called by it directly: it gets a
# subclass of its own whose ``__call__`` is the dispatcher, so that a call runs no Python
# frame on the way in. While any disable_jit context is open (in any thread) these
# subclasses fall back to Jitted.__call__, which honours it.
_direct_classes: weakref.WeakSet = weakref.WeakSet()


def _install_direct_call(f) -> None:
    """Make the jitted function ``f`` (whose ``_cpp`` dispatcher exists) call it directly."""
    direct = staticmethod(f._cpp)
    base = type(f)
    cls = type(base.__name__, (base,), {"_direct_call": direct, "__module__": base.__module__,
                                        "__qualname__": base.__qualname__})
    with _disabled_lock:
        f.__class__ = cls
        _direct_classes.add(cls)
        if not _n_disabled[0]:
            cls.__call__ = direct


def _set_direct_calls(on: bool) -> None:
    for cls in list(_direct_classes):
        if on:
            cls.__call__ = cls.__dict__["_direct_call"]
        elif "__call__" in cls.__dict__:
            del cls.__call__
