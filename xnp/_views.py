"""Write-through views: after ``row = a[0]``, ``row[1] = 5`` changes ``a``, as in NumPy.

xnp arrays are handles over immutable values, so a view cannot share memory with its
base under transformations. Instead a handle made by basic indexing (integers, slices,
``...``, ``None``: the keys for which NumPy returns a view) remembers its base handle and
key; one made by ``reshape``/``ravel`` (C or F order), ``.T``/``transpose`` or ``view(dtype)``
remembers its base and a :class:`ViewTransform` (unless NumPy itself would have copied).
A write into such a view (item assignment, an in-place operator, ``out=``, ``fill``,
``sort``, ``flat``) runs in three steps:

1. :func:`refresh` re-reads the view from its base, so writes made to the base since the
   view was taken are kept;
2. the write itself, functional as every write in xnp (so it works under grad/vmap/jit);
3. :func:`write_back` stores the view into ``base[key]``, itself a write, so views of
   views propagate to the outermost array.

Eagerly, a view's value is usually a NumPy view of its base's buffer. Each base keeps a
weak list of its views (:func:`register_view`), so that an eager write to the base may
still happen in place when the only other references to its buffer are those views
(:func:`shared_only_with_views`): then the views see the write, as in NumPy. Where the
base is instead rebound to a new buffer (it is shared with something else, or traced),
an earlier view shows the old elements until the next write into the view itself.
"""

from __future__ import annotations

import sys
import weakref

import numpy as np

from xnp._array import _new_handle, _wrap, ndarray
from xnp._writeable import is_writeable, read_only

_BASIC = (int, np.integer, slice, type(None), type(Ellipsis))


def is_basic_key(key) -> bool:
    """Whether NumPy's ``x[key]`` is a view: integers, slices, Ellipsis and None only
    (a bool is an advanced index)."""
    if type(key) is tuple:
        return all(isinstance(k, _BASIC) and type(k) is not bool for k in key)
    return isinstance(key, _BASIC) and type(key) is not bool


class ViewTransform:
    """A view that is not an index of its base (``.T``, ``reshape``, ``view(dtype)``).
    Subclasses define ``read(base_value)`` (the view's value), ``inverse(view_value)``
    (the base value it stands for) and ``numpy_view(buffer)`` (a NumPy view of an eager
    base buffer to write into in place, or None where NumPy would copy)."""

    __slots__ = ()

    def write(self, base: ndarray, view_value) -> None:
        base[...] = _wrap(self.inverse(view_value))


def mark_view(view: ndarray, base: ndarray, key) -> ndarray:
    """Record that ``view`` is ``base[key]`` (or ``key.read(base)`` for a
    :class:`ViewTransform`); a NumPy scalar result is no view. An index of an index view
    is recorded as one index of the outer base, so that chains of slices (``x = x[1:]``
    in a loop) stay one step deep. Integer keys are not composed: they shorten the
    chain's rank, and ``a[i]`` (iteration) is the hot path (looking the outer base up
    costs a raised AttributeError when there is none)."""
    if isinstance(view, ndarray) and not isinstance(view._value, np.generic):
        parent = base
        outer = None if type(key) is int else getattr(base, "_view_of", None)
        if outer is not None and not isinstance(key, ViewTransform) and \
                not isinstance(outer[1], ViewTransform):
            composed = _compose_keys(outer[0].shape, outer[1], key)
            if composed is not None:
                base, key = outer[0], composed
        if key is None:     # ``a[None]``: a key of its own (None means "no key" to writes)
            key = (None,)
        view._view_of = (base, key)
        register_view(base, view)
        if not is_writeable(parent):     # a view of a read-only array is read-only
            read_only(view)
    return view


def _full_key(key, ndim: int):
    """A basic key as one int or slice per dimension, or None (new axes, several
    ellipses, bounds that are not plain integers: then it is not composed)."""
    key = key if type(key) is tuple else (key,)
    ellipsis = -1
    for i, k in enumerate(key):
        t = type(k)
        if t is slice:
            for b in (k.start, k.stop, k.step):
                if b is not None and type(b) is not int and not isinstance(b, np.integer):
                    return None
        elif k is Ellipsis:
            if ellipsis >= 0:
                return None
            ellipsis = i
        elif k is None:
            return None
    if ellipsis >= 0:
        key = key[:ellipsis] + (_ALL,) * (ndim - len(key) + 1) + key[ellipsis + 1:]
    return key + (_ALL,) * (ndim - len(key)) if len(key) <= ndim else None


_ALL = slice(None)


def _compose_keys(shape: tuple, outer_key, inner_key):
    """The key of ``base`` equal to ``base[outer_key][inner_key]`` (ints and slices), or
    None where it is not composed."""
    if type(outer_key) is int:      # a row of the base: the inner key indexes what follows
        return (outer_key,) + (inner_key if type(inner_key) is tuple else (inner_key,))
    outer = _full_key(outer_key, len(shape))
    if outer is None:
        return None
    parts = []          # per base axis: an index, or (start, step, length)
    for n, k in zip(shape, outer):
        if isinstance(k, slice):
            r = range(*k.indices(n))
            parts.append((r.start, r.step, len(r)))
        else:
            parts.append(int(k) + n if k < 0 else int(k))
    kept = [i for i, p in enumerate(parts) if type(p) is tuple]
    inner = _full_key(inner_key, len(kept))
    if inner is None:
        return None
    for i, k in zip(kept, inner):
        start, step, length = parts[i]
        if isinstance(k, slice):
            r = range(*k.indices(length))
            parts[i] = (start + r.start * step, step * r.step, len(r))
        else:
            parts[i] = start + (int(k) + length if k < 0 else int(k)) * step
    out = []
    for p in parts:
        if type(p) is tuple:
            start, step, length = p
            stop = start + length * step
            p = slice(start, stop if stop >= 0 else None, step) if length else slice(0, 0)
        out.append(p)
    if all(type(p) is not slice for p in out):
        out.append(Ellipsis)        # a 0-d view (not a scalar), as the ellipsis made it
    return tuple(out)


_VIEWS: dict = {}          # id(base handle) -> weak references to its view handles


class _ViewRefs(list):
    """Weak references to a base's views; dead ones are dropped once the list has grown
    to ``limit``, which then doubles the live count (so keeping every row of
    ``for r in a`` costs O(1) per row, not a scan of all the earlier rows). ``owner`` is
    a weak reference to the base whose death removes the list from ``_VIEWS`` (a
    callback on a plain weak reference: ``weakref.finalize`` costs ten times more, and a
    view of a fresh array, ``a.reshape(...).T``, makes one)."""

    __slots__ = ("limit", "owner")


def register_view(base: ndarray, view: ndarray) -> None:
    """Remember that ``view`` is a view of ``base`` (see :func:`shared_only_with_views`)."""
    key = id(base)
    refs = _VIEWS.get(key)
    if refs is None:
        refs = _VIEWS[key] = _ViewRefs()
        refs.limit = 8
        refs.owner = weakref.ref(base, lambda _, key=key: _VIEWS.pop(key, None))
    elif len(refs) >= refs.limit:
        refs[:] = [r for r in refs if r() is not None]
        refs.limit = max(8, 2 * len(refs))
    refs.append(weakref.ref(view))


def iter_rows(base: ndarray):
    """``base[0], base[1], ...`` for ``for row in base`` (2 or more dimensions): each row
    is a view as ``base[i]`` makes it, without its key dispatch, so that loops over the
    rows of concrete arrays cost under 2 us a row (2-3 us through ``base[i]``)."""
    n = base.shape[0]
    if not n:
        return
    yield base[0]
    refs = _VIEWS.get(id(base))
    for i in range(1, n):
        v = base._value
        if refs is None or type(v) is not np.ndarray:
            yield base[i]           # traced values, or a base with no views recorded
            continue
        h = _new_handle(ndarray)
        h._value = v[i]
        h._view_of = (base, i)
        if len(refs) >= refs.limit:
            register_view(base, h)
        else:
            refs.append(weakref.ref(h))
        if not is_writeable(base):
            read_only(h)
        yield h


def _views_sharing(base: ndarray, buf: np.ndarray) -> int:
    """How many references to ``buf`` the live views of ``base`` (and their views) hold:
    each eager view whose value is a NumPy view of ``buf`` holds one."""
    count = 0
    for ref in _VIEWS.get(id(base), ()):
        view = ref()
        if view is None or getattr(view, "_view_of", (None,))[0] is not base:
            continue
        value = view._value
        if type(value) is np.ndarray and value.base is buf:
            count += 1
        count += _views_sharing(view, buf)
    return count


def shared_only_with_views(base: ndarray, buf: np.ndarray, others: int) -> bool:
    """Whether every reference to ``buf`` beyond ``others`` (the caller's own) is held by
    a view of ``base``: then writing ``buf`` in place is what NumPy does, and the views
    see the write."""
    extra = sys.getrefcount(buf) - 1 - others
    return extra <= 0 or (bool(_VIEWS) and _views_sharing(base, buf) == extra)


def buffer_writable_in_place(h: ndarray, buf) -> bool:
    """Whether ``buf`` (``h``'s NumPy buffer, which the caller also holds in one local)
    may be written in place: a NumPy array owning writeable memory that nothing but ``h``
    and its views can see (no second handle, tape residual or jit constant). Such a write
    is then unobservable except through ``h`` and its views, as in NumPy."""
    # Four references are ours: h's slot, the caller's local, this argument, getrefcount's.
    return type(buf) is np.ndarray and buf.flags.owndata and buf.flags.writeable and (
        sys.getrefcount(buf) <= 4 or shared_only_with_views(h, buf, 4))


def view_info(h: ndarray):
    """``(base, key)`` if ``h`` is a view, else None."""
    return getattr(h, "_view_of", None)


def read_view(base_value, key):
    """The value of the view ``key`` of a base value."""
    if isinstance(key, ViewTransform):
        return key.read(base_value)
    from xnp._indexing import index_value
    return index_value(base_value, key)


def refresh(h: ndarray, info) -> None:
    """Step 1: the view's value as its base holds it now."""
    base, key = info
    h._value = read_view(base._value, key)


def write_back(h: ndarray, info) -> None:
    """Step 3: store the written view into its base."""
    base, key = info
    if isinstance(key, ViewTransform):
        key.write(base, h._value)
    else:
        base[key] = h._value
    h._value = read_view(base._value, key)     # a view of the base's buffer again


def ufunc_into_view(h: ndarray, info, ufunc, operand) -> bool:
    """Eagerly, ``h op= operand`` for a view ``h`` of a base that is no view itself:
    NumPy's ``ufunc(target, operand, out=target)`` on the view of the base's buffer, where
    nothing but the base and its views can see that buffer (as :func:`refresh`, the
    write and :func:`write_back` would give, without their copies). NumPy's out= gives the
    same casting, broadcasting and errors. Returns False (with ``h``'s value dropped)
    where the three-step path must run."""
    base, key = info
    buf = base._value
    h._value = None         # the view's own NumPy view would hold a reference to ``buf``
    if getattr(base, "_view_of", None) is not None or \
            not buffer_writable_in_place(base, buf):
        return False
    transform = isinstance(key, ViewTransform)
    target = key.numpy_view(buf) if transform else buf[key]
    if type(target) is not np.ndarray or transform and not np.may_share_memory(target, buf):
        return False
    try:
        ufunc(target, operand, out=target, casting="same_kind")
    finally:
        h._value = read_view(buf, key) if transform else target
    return True


# --- views that are not indexes ---------------------------------------------------------------
def _numpy_would_copy(base_value, transform: ViewTransform) -> bool:
    """Eagerly, whether NumPy's own operation would copy ``base_value`` (then there is no
    view to write through); traced values have no layout and count as views."""
    if type(base_value) is not np.ndarray or base_value.flags.c_contiguous:
        return False        # C-order reshapes and transposes of these are always views
    target = transform.numpy_view(base_value)
    return target is None or not np.may_share_memory(target, base_value)


def _mark(result, base, transform: ViewTransform):
    if type(base) is not ndarray or not isinstance(result, ndarray) or \
            _numpy_would_copy(base._value, transform):
        return result
    return mark_view(result, base, transform)


class _Reshape(ViewTransform):
    __slots__ = ("shape", "base_shape")

    def __init__(self, shape, base_shape):
        self.shape, self.base_shape = shape, base_shape

    def read(self, v):
        from xnp import lax
        return lax.reshape_p.bind(v, new_sizes=self.shape)

    def inverse(self, v):
        from xnp import lax
        return lax.reshape_p.bind(v, new_sizes=self.base_shape)

    def numpy_view(self, buf):
        return buf.reshape(self.shape)


class _FReshape(_Reshape):
    """A Fortran-order reshape (``a.reshape(s, order='F')``, ``a.ravel('F')``)."""

    __slots__ = ()

    def read(self, v):
        from xnp._shapes import reshape_v
        return reshape_v(v, self.shape, "F")

    def inverse(self, v):
        from xnp._shapes import reshape_v
        return reshape_v(v, self.base_shape, "F")

    def numpy_view(self, buf):
        return buf.reshape(self.shape, order="F")


class _Transpose(ViewTransform):
    __slots__ = ("perm",)

    def __init__(self, perm):
        self.perm = perm

    def read(self, v):
        from xnp import lax
        return lax.transpose_p.bind(v, permutation=self.perm)

    def inverse(self, v):
        from xnp import lax
        perm = self.perm
        return lax.transpose_p.bind(v, permutation=tuple(sorted(range(len(perm)),
                                                                key=perm.__getitem__)))

    def numpy_view(self, buf):
        return buf.transpose(self.perm)


class _ComplexPart(ViewTransform):
    """``.real`` / ``.imag`` of a complex array: writing the part keeps the other one."""

    __slots__ = ("imag",)

    def __init__(self, imag: bool):
        self.imag = imag

    def read(self, v):
        from xnp import lax
        return (lax.imag_p if self.imag else lax.real_p).bind(v)

    def write(self, base: ndarray, view_value) -> None:
        from xnp import lax
        from xnp._util import cast_v
        v = base._value
        part = cast_v(view_value, np.finfo(base.dtype).dtype)
        re, im = (lax.real_p.bind(v), part) if self.imag else (part, lax.imag_p.bind(v))
        base[...] = _wrap(lax.complex_p.bind(re, im))

    def numpy_view(self, buf):
        return buf.imag if self.imag else buf.real


def complex_part_view(base: ndarray, imag: bool) -> ndarray:
    """``base.real`` / ``base.imag`` of a complex array, a view that writes through."""
    transform = _ComplexPart(imag)
    return _mark(_wrap(transform.read(base._value)), base, transform)


class _Bitcast(ViewTransform):
    """``view(dtype)``: the last axis scales by the ratio of the item sizes (NumPy's
    rule), built on bitcast_convert_type (which adds or consumes a trailing axis)."""

    __slots__ = ("old", "new", "shape")

    def __init__(self, old, new, shape):
        self.old, self.new, self.shape = old, new, shape
        if old.itemsize != new.itemsize:
            if not shape:
                raise ValueError("Changing the dtype of a 0d array is only supported if "
                                 "the itemsize is unchanged")
            if new.itemsize > old.itemsize and shape[-1] % (new.itemsize // old.itemsize):
                raise ValueError("When changing to a larger dtype, its size must be a "
                                 "divisor of the total size in bytes of the last axis of "
                                 "the array.")

    def read(self, v):
        from xnp import lax
        old, new, shape = self.old, self.new, self.shape
        if new.itemsize > old.itemsize:
            r = new.itemsize // old.itemsize
            v = lax.reshape_p.bind(v, new_sizes=shape[:-1] + (shape[-1] // r, r))
        out = lax.bitcast_convert_type_p.bind(v, new_dtype=new)
        if new.itemsize < old.itemsize:
            r = old.itemsize // new.itemsize
            out = lax.reshape_p.bind(out, new_sizes=shape[:-1] + (shape[-1] * r,))
        return out

    def inverse(self, v):
        from xnp import lax
        old, new, shape = self.old, self.new, self.shape
        if new.itemsize < old.itemsize:
            v = lax.reshape_p.bind(v, new_sizes=shape + (old.itemsize // new.itemsize,))
        out = lax.bitcast_convert_type_p.bind(v, new_dtype=old)
        return lax.reshape_p.bind(out, new_sizes=shape)

    def numpy_view(self, buf):
        try:
            return buf.view(self.new)
        except ValueError:
            return None


def live_views(h: ndarray) -> list:
    """The live views whose base is ``h`` itself."""
    return [v for v in (r() for r in _VIEWS.get(id(h), ()))
            if v is not None and getattr(v, "_view_of", (None,))[0] is h]


def set_shape(h: ndarray, value) -> None:
    """``h.shape = s`` (``value``: ``h``'s value reshaped, no copy needed). The memory
    each view sees stays the same, as in NumPy: a view ``h`` becomes a reshape of a
    handle standing for the view it was, and the views of ``h`` become views of a handle
    standing for ``h`` in its old shape."""
    old_shape = h.shape
    info = view_info(h)
    views = live_views(h)
    if views:
        before = _new_handle(ndarray)
        before._value = h._value
        before._view_of = (h, _Reshape(old_shape, value.shape))
        for v in views:
            v._view_of = (before, v._view_of[1])
            register_view(before, v)
        _VIEWS.pop(id(h), None)
        register_view(h, before)
    if info is not None:
        was = _new_handle(ndarray)
        was._value = h._value
        was._view_of = info
        register_view(info[0], was)
        h._view_of = (was, _Reshape(value.shape, old_shape))
        register_view(was, h)
    h._value = value


def contiguous_view(base: ndarray, value: np.ndarray, transform: ViewTransform) -> ndarray:
    """``value``, a NumPy view made by ``transform`` of the C-contiguous NumPy buffer of
    ``base`` (an eager xnp.ndarray), as a view handle: what :func:`_mark` records, without
    the checks these facts settle (NumPy made a view; no index keys to compose)."""
    h = _new_handle(ndarray)
    h._value = value
    h._view_of = (base, transform)
    register_view(base, h)
    if not is_writeable(base):
        read_only(h)
    return h


def reshape_view(result: ndarray, base, order: str = "C") -> ndarray:
    """Mark ``result`` (a reshape of ``base`` in ``order``, 'C' or 'F') as its view; a
    Fortran-order one only where NumPy's is a view of a concrete base (traced values
    count as C-ordered)."""
    if type(base) is not ndarray:           # a list or NumPy array: nothing to write to
        return result
    if order == "F":
        v = base._value
        if type(v) is not np.ndarray or not isinstance(result, ndarray) or \
                not np.may_share_memory(v.reshape(result.shape, order="F"), v):
            return result
        return mark_view(result, base, _FReshape(result.shape, base.shape))
    return _mark(result, base, _Reshape(result.shape, base.shape))


def eager_reshape(base: ndarray, value: np.ndarray, shape: tuple):
    """``base`` reshaped to ``shape`` (a tuple of ints) as a view handle, for an eager
    xnp.ndarray ``base`` whose ``value`` is C-contiguous; None where NumPy's reshape
    fails or keeps the shape (the general path then raises or returns what it does)."""
    try:
        r = value.reshape(shape)
    except ValueError:
        return None
    if r.shape == value.shape:
        return None
    return contiguous_view(base, r, _Reshape(r.shape, value.shape))


def transpose_view(result: ndarray, base, perm: tuple) -> ndarray:
    """Mark ``result`` (``base`` with its axes permuted by ``perm``) as its view."""
    return _mark(result, base, _Transpose(perm))


_REVERSED = [tuple(range(n))[::-1] for n in range(33)]


def eager_T(base: ndarray):
    """``base.T`` as a view handle for an eager C-contiguous xnp.ndarray of 2 or more
    dimensions; None for every other array (the general path)."""
    v = base._value
    if type(v) is not np.ndarray or type(base) is not ndarray or v.ndim < 2 or \
            not v.flags.c_contiguous:
        return None
    return contiguous_view(base, v.T, _Transpose(_REVERSED[v.ndim]))


def dtype_view(base: ndarray, new_dtype) -> ndarray:
    """``base.view(new_dtype)``: its bytes read as ``new_dtype``, a view that writes
    through."""
    new_dtype = np.dtype(new_dtype)
    if new_dtype.itemsize != base.itemsize and base.ndim and base.shape[-1] > 1 and \
            base.size:                      # a 0-size array counts as contiguous
        from xnp._layout import strides
        if strides(base._value, base.shape, base.dtype)[-1] != base.itemsize:
            raise ValueError("To change to a dtype of a different size, the last axis "
                             "must be contiguous")
    transform = _Bitcast(base.dtype, new_dtype, base.shape)
    return mark_view(_wrap(transform.read(base._value)), base, transform)


def store_value(h: ndarray, value) -> None:
    """``h._value = value`` for a whole-array write (``out=``, ``fill``, ``copyto``): into
    ``h``'s buffer in place when both are eager NumPy arrays of one shape and dtype and
    only ``h`` and its views can see the buffer, so that the views see the write."""
    buf = h._value
    if type(buf) is np.ndarray and type(value) is np.ndarray and value is not buf and \
            value.shape == buf.shape and value.dtype == buf.dtype and \
            buf.flags.owndata and buf.flags.writeable and \
            sys.getrefcount(buf) > 3 and shared_only_with_views(h, buf, 3):
        np.copyto(buf, value)
        return
    h._value = value


def fresh(h: ndarray) -> None:
    """Before an in-place function reads ``h`` (``put``, ``place``, ``fill_diagonal``,
    ``ufunc.at``): if ``h`` is a view, re-read it from its base (step 1 above)."""
    info = view_info(h)
    if info is not None:
        refresh(h, info)


def store_through(h: ndarray, value) -> None:
    """:func:`store_value`, then, if ``h`` is a view, the write into its base (step 3), so
    that ``np.put(a[0], ...)`` or ``np.clip(v, 0, 1, out=v)`` changes ``a`` as in NumPy."""
    info = view_info(h)
    store_value(h, value)
    if info is not None:
        write_back(h, info)


def write_numpy_out(out: np.ndarray, value, name: str) -> np.ndarray:
    """``out=`` given a NumPy array (data from another library): written in place, as
    NumPy writes it, when the result is concrete (``value`` already has ``out``'s shape
    and dtype). A traced result cannot live in a NumPy array: TypeError."""
    from transforms.core import Tracer
    if isinstance(value, Tracer):
        raise TypeError(f"{name}: out= is a NumPy array, which cannot hold a traced "
                        "value; pass an xnp array as out= (or use the result)")
    if not out.flags.writeable:
        raise ValueError("output array is read-only")
    np.copyto(out, value, casting="unsafe")
    return out
