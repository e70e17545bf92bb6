"""jit's use of jaxlib's C++ dispatch (``_jax.pjit``, see runtime's "C++ dispatch"): how
xnp arrays and xnp's registered pytree nodes look to the C++ pytree registry, how results
come back as xnp arrays, and when a signature may be run by the C++ side alone."""

from __future__ import annotations

import threading

import numpy as np

from transforms import core, runtime
from transforms import tree as _tree
from transforms.tree import tree_flatten

_wrap_value = core.wrap
_handle_types = core._handle_types


class _Result:
    """Marks a result leaf in the C++ output structure: the C++ dispatch builds each result
    through ``_result_unflatten``, which wraps the buffer in an xnp array."""

    __slots__ = ("leaf",)

    def __init__(self, leaf):
        self.leaf = leaf


def _result_flatten(r):
    return (r.leaf,), None


def _result_unflatten(aux, children):
    return _wrap_buffer(children[0])


def _make_result_unflatten(handle_type):
    """``_result_unflatten`` for one array class, inlined: it runs once per result."""
    new, asarray = object.__new__, np.asarray

    def result_unflatten(aux, children):
        buf = children[0]
        value = asarray(buf)     # runtime.buffer_view, inlined (NumPy takes the buffer)
        handle = new(handle_type)
        handle._value = value
        handle._buffer = (value, buf)
        return handle
    return result_unflatten


def _dispatch_leaf(h):
    """How the C++ dispatch sees an xnp array: its device buffer when its value is a view
    of one, else its value (a tracer there makes the C++ side call the Python path). A
    property of the array classes, read by the C++ registry as a dataclass field: no
    Python call per argument beyond this getter."""
    try:
        v, buf = h._buffer
    except AttributeError:              # never a result of a compiled call
        return h._value
    return buf if v is h._value else h._value


_registered_nodes: set = set()


def _sync_dispatch_registry():
    """Mirror xnp's registered pytree node types (OrderedDict, defaultdict, dataclasses,
    ...) into the C++ dispatch's registry, so that arguments holding them dispatch there
    too; types registered later are added on the next cache miss."""
    with _registry_lock:
        for t, (flatten, unflat) in list(_tree._registry.items()):
            if t not in _registered_nodes:
                runtime.register_dispatch_node(
                    t, flatten,
                    lambda aux, children, t=t, u=unflat: u(t, aux, list(children)))
                _registered_nodes.add(t)
        _synced[0] = len(_tree._registry)


_synced = [-1]
_registry_lock = threading.RLock()


def _register_dispatch_nodes():
    with _registry_lock:
        _register_dispatch_nodes_locked()


def _register_dispatch_nodes_locked():
    if _synced[0] != len(_tree._registry):
        _sync_dispatch_registry()
    for t in (*_handle_types, _Result):
        if t not in _registered_nodes:
            if t is _Result:
                handles = list(_handle_types)
                unflatten = (_make_result_unflatten(handles[0]) if len(handles) == 1
                             and _wrap_value(np.zeros(0)).__class__ is handles[0]
                             and runtime.backend().host_readable else _result_unflatten)
                runtime.register_dispatch_node(t, _result_flatten, unflatten)
            else:
                t._dispatch_leaf = property(_dispatch_leaf)
                runtime.register_dispatch_fields(t, ("_dispatch_leaf",))
            _registered_nodes.add(t)


_SCALAR_TYPES = core._PY_SCALAR_DTYPES
_CONTAINER_TYPES = (tuple, list, dict, type(None))
_BUFFER_TYPE = [None]       # jaxlib's device buffer type, once the backend exists


def _dispatchable(args, entry) -> bool:
    """Whether the C++ dispatch may run ``entry`` for these arguments by itself: every leaf
    as the C++ side flattens it (xnp arrays through ``_dispatch_leaf``) is the very value
    the Python path passed, of a type the C++ side transfers to the entry's dtype and
    shape. With 64-bit types off in the C++ dispatch (jax's jax_enable_x64, see
    runtime.dispatch_x64) only device buffers qualify: their signatures and transfers keep
    their dtype, while NumPy and Python values are narrowed (a float64 array would then
    share the signature of a float32 one)."""
    x64 = runtime.dispatch_x64()
    for a in args:       # a quick look first: this runs on every call the C++ side sends
        t = type(a)
        if t in _handle_types or t is _BUFFER_TYPE[0]:
            continue
        if not x64 or not (t in _CONTAINER_TYPES or t is np.ndarray or t in _SCALAR_TYPES
                           or t in _tree._registry or isinstance(a, (tuple, np.generic))):
            return False
    leaves = runtime.dispatch_leaves(args)
    if leaves is None:
        return False
    flat, _ = tree_flatten(args)
    if len(flat) != len(leaves) or len(leaves) != len(entry.in_avals):
        return False
    for x, leaf, aval in zip(flat, leaves, entry.in_avals):
        t = type(leaf)
        if t in _handle_types:
            return False
        if type(x) in _handle_types:
            if _dispatch_leaf(x) is not leaf:
                return False
        elif x is not leaf:
            return False
        if runtime.is_device_buffer(leaf):
            ok = leaf.aval.dtype == aval.dtype and leaf.aval.shape == aval.shape
        elif not x64:
            ok = False
        elif t is np.ndarray or isinstance(leaf, np.generic):
            ok = leaf.dtype == aval.dtype and leaf.shape == aval.shape
        elif t in _SCALAR_TYPES:
            ok = _SCALAR_TYPES[t] == aval.dtype and aval.shape == ()
        else:
            ok = False
        if not ok:
            return False
    return True


def _native(signature) -> bool:
    """Whether a fast-path signature's arrays can go to XLA unconverted, as the fast path
    hands them: in native byte order, and not float0 (carried as bool)."""
    return all(dt.isnative and dt != core.float0 for _, dt in signature)


def _wrap_buffer(buf):
    """An xnp array viewing a result buffer."""
    value = _buffer_view(buf)
    handle = _wrap_value(value)
    handle._buffer = (value, buf)
    return handle


_buffer_view = runtime.buffer_view
