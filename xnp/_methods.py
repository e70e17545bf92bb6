"""Operators, methods and NumPy protocols of ``xnp.ndarray``, attached once the namespace
exists. Binary operators take a short path (unwrap, bind, wrap) because eager speed
depends on them; methods delegate to the xnp functions of the same name."""

from __future__ import annotations

import builtins
import operator
import types

import numpy as np

import xnp
from transforms.core import (
    _EVAL_TRACE,
    ConcretizationTypeError,
    Primitive,
    Tracer,
    _n_active,
    _state,
    concrete_or_error,
    get_aval,
)
from xnp import _layout, lax
from xnp._array import _new_handle, _wrap, ndarray, wrap_scalar_result
from xnp._dtypes import can_cast
from xnp._flatiter import flat_property
from xnp._masked_update import deferred_read
from xnp._method_args import _install_method_args
from xnp._method_delegation import install_delegated_methods
from xnp._numpy_protocols import array_function, array_ufunc
from xnp._object_loops import object_scalar
from xnp._operators import (
    check_in_place_cast,
    output_casting_error,
    power_in_place,
    power_operator,
)
from xnp._setitem import _setitem
from xnp._ufuncs import UFUNCS
from xnp._util import dtype_of, raw
from xnp._views import (
    buffer_writable_in_place,
    complex_part_view,
    dtype_view,
    eager_reshape,
    eager_T,
    is_basic_key,
    mark_view,
    refresh,
    store_value,
    ufunc_into_view,
    view_info,
    write_back,
)
from xnp._writeable import check_writeable, read_only, setflags

_SCALARS = (bool, int, float, complex)
_VALUE_TYPES = (np.ndarray, np.generic, Tracer)


def _other_value(other):
    t = type(other)
    if t is ndarray:
        return other._value
    if t in _SCALARS or isinstance(other, (np.ndarray, np.generic, Tracer)):
        return other
    if isinstance(other, (list, tuple)):
        return raw(other)
    if isinstance(other, (str, bytes)):      # string arrays compare with str, as in NumPy
        return np.asarray(other)
    if isinstance(other, type) or any(hasattr(t, name) for name in _DEFERRING_PROTOCOLS):
        return NotImplemented
    if any(hasattr(t, name) for name in _ARRAY_LIKE_PROTOCOLS):
        # NumPy converts a plain array-like (one that neither overrides ufuncs nor asks
        # for priority) and computes; an error of its __array__ propagates.
        return raw(other)
    try:                # NumPy's conversion: a range is numbers, a Fraction or a Decimal
        return raw(other)   # a 0-d object array (NumPy's object loops then compute)
    except TypeError:
        return NotImplemented


_NONE = np.array(None, dtype=object)
_NONE.flags.writeable = False
# Operands xnp's operators leave to the other side (NumPy's deferral: they override
# ufuncs, or ask for priority), and the plain array-likes they convert.
_DEFERRING_PROTOCOLS = ("__array_ufunc__", "__array_priority__", "__array_function__")
_ARRAY_LIKE_PROTOCOLS = ("__array__", "__array_interface__", "__array_struct__")


def _equality(op, incomparable: bool):
    """``==`` / ``!=``: where NumPy has no loop for the pair (a number array against a
    string), NumPy's operators answer elementwise ``incomparable`` instead of raising."""
    def compare(self, other):
        if other is None:           # NumPy compares each element with None (object loop)
            other = _NONE
        try:
            return op(self, other)
        except TypeError:
            o = np.asarray(other) if isinstance(other, (str, bytes)) else other
            if np.dtype(dtype_of(self._value)).kind in "US" or getattr(
                    getattr(o, "dtype", None), "kind", "") in "US":
                out = xnp.full(np.broadcast_shapes(self.shape, np.shape(o)), incomparable)
                return out[()]          # a NumPy bool for 0-d, as NumPy's operators
            raise
    return compare


# NumPy's ufuncs of the operators whose xnp function is not a single primitive: eager
# in-place updates (``a |= 1``, ``a %= 3``) run them with out=, so views of ``a`` see the
# write, as for ``a += 1``.
_IN_PLACE_UFUNCS = {"mod": np.remainder, "pow": power_in_place, "lshift": np.left_shift,
                    "rshift": np.right_shift, "and": np.bitwise_and, "or": np.bitwise_or,
                    "xor": np.bitwise_xor}


def _binary(fn, name: str = ""):
    """Operator, reflected operator and in-place operator for ``fn``, a primitive (fast
    path straight to its implementation when eager) or a function on values."""
    prim = fn if isinstance(fn, Primitive) else None
    impl = prim.impl if prim is not None else None
    ufunc = impl if isinstance(impl, np.ufunc) else _IN_PLACE_UFUNCS.get(name)
    fn = prim.bind if prim is not None else fn
    # Closure cells are read faster than module globals on this hot path.
    handle, new, active, scalars = ndarray, _new_handle, _n_active, _SCALARS
    np_array = np.ndarray

    def op(self, other):
        t = type(other)
        if t is handle:
            o = other._value
        elif t in scalars or isinstance(other, _VALUE_TYPES):
            o = other
        else:
            o = _other_value(other)
            if o is NotImplemented:
                return o
        if impl is None or (active[0] and _state.trace is not _EVAL_TRACE):
            return wrap_scalar_result(fn(self._value, o))
        r = impl(self._value, o)
        if type(r) is np_array:
            h = new(handle)
            h._value = r
            return h
        return r if isinstance(r, np.generic) else wrap_scalar_result(r)

    def rop(self, other):
        o = _other_value(other)
        if o is NotImplemented:
            return o
        return wrap_scalar_result(fn(o, self._value))

    def iop(self, other):
        o = _other_value(other)
        if o is NotImplemented:
            return o
        check_writeable(self, "output array")
        view = view_info(self)
        if view is not None:
            if ufunc is not None and (not active[0] or _state.trace is _EVAL_TRACE) and \
                    (type(o) in scalars or type(o) is np.ndarray or
                     isinstance(o, np.generic)) and ufunc_into_view(self, view, ufunc, o):
                return self
            refresh(self, view)
            in_place(self, o)
            write_back(self, view)
            return self
        return in_place(self, o)

    def in_place(self, o):
        if ufunc is not None and (not active[0] or _state.trace is _EVAL_TRACE):
            buf = self._value
            # NumPy's out= gives the same casting, broadcasting and errors.
            if (type(o) in scalars or type(o) is np.ndarray or isinstance(o, np.generic)) \
                    and buffer_writable_in_place(self, buf):
                ufunc(buf, o, out=buf, casting="same_kind")
                return self
            check_in_place_cast(name, buf.dtype, o)
            result = impl(buf, o)
            if type(result) is type(buf) and result.dtype == buf.dtype and \
                    result.shape == buf.shape:        # nothing to cast or broadcast
                self._value = result
                return self
            self._value = _same_kind_into(self, result, name)
            return self
        check_in_place_cast(name, self.dtype, o)
        result = fn(self._value, o)
        self._value = _same_kind_into(self, result, name)
        return self
    return op, rop, iop


def _same_kind_into(handle, result, operator: str):
    """The in-place result of ``operator`` (``"add"``, ...) cast back into ``handle``'s
    dtype and shape, as NumPy's out=."""
    from xnp._util import broadcast_to_v, cast_v
    rdt, dt = dtype_of(result), handle.dtype
    if rdt != dt:
        if not can_cast(rdt, dt, "same_kind"):
            raise output_casting_error(operator, rdt, dt)
        result = cast_v(result, dt)
    shape = handle.shape
    rshape = get_aval(result).shape
    if rshape != shape:
        if len(rshape) > len(shape) or np.broadcast_shapes(rshape, shape) != shape:
            raise ValueError(f"non-broadcastable output operand with shape {shape} doesn't "
                             f"match the broadcast shape {np.broadcast_shapes(rshape, shape)}")
        result = broadcast_to_v(result, shape)
    return result


def _imatmul(self, other):
    check_writeable(self, "output array")
    b_shape = xnp.shape(other)
    if self.ndim < 1 or len(b_shape) < 2:
        raise ValueError("inplace matrix multiplication requires the first operand to have "
                         "at least one and the second at least two dimensions.")
    if b_shape[-1] != self.shape[-1]:   # the result must keep self's shape (NumPy's out=)
        raise ValueError("matmul: Output operand 0 has a mismatch in its core dimension 1, "
                         "with gufunc signature (n?,k),(k,m?)->(n?,m?) (size "
                         f"{self.shape[-1]} is different from {b_shape[-1]})")
    view = view_info(self)
    if view is not None:
        refresh(self, view)
    store_value(self, _same_kind_into(self, raw(xnp.matmul(self, other)), "matmul"))
    if view is not None:
        write_back(self, view)
    return self


_BINARY = {
    "add": lax.add_p, "sub": lax.sub_p, "mul": lax.mul_p,
    "truediv": lax.div_p, "floordiv": lax.floor_divide_p,
    "mod": UFUNCS["remainder"]._fn, "pow": power_operator(UFUNCS["power"]._fn, UFUNCS),
    "lshift": UFUNCS["left_shift"]._fn, "rshift": UFUNCS["right_shift"]._fn,
    "and": UFUNCS["bitwise_and"]._fn, "or": UFUNCS["bitwise_or"]._fn,
    "xor": UFUNCS["bitwise_xor"]._fn,
}
_COMPARE = {"eq": lax.eq_p, "ne": lax.ne_p, "lt": lax.lt_p, "le": lax.le_p,
            "gt": lax.gt_p, "ge": lax.ge_p}


def _install_operators():
    for name, fn in _BINARY.items():
        op, rop, iop = _binary(fn, name)
        setattr(ndarray, f"__{name}__", op)
        setattr(ndarray, f"__r{name}__", rop)
        setattr(ndarray, f"__i{name}__", iop)
    for name, fn in _COMPARE.items():
        op = _binary(fn)[0]
        if name in ("eq", "ne"):
            op = _equality(op, incomparable=name == "ne")
        setattr(ndarray, f"__{name}__", op)
    ndarray.__neg__ = lambda self: _wrap(lax.neg_p.bind(self._value))
    ndarray.__pos__ = lambda self: xnp.positive(self)
    ndarray.__abs__ = lambda self: _wrap(lax.abs_p.bind(self._value))
    ndarray.__invert__ = lambda self: _wrap(lax.not_p.bind(self._value))
    ndarray.__matmul__ = _deferring(lambda self, other: xnp.matmul(self, other))
    ndarray.__rmatmul__ = _deferring(lambda self, other: xnp.matmul(other, self))
    ndarray.__imatmul__ = _imatmul
    ndarray.__divmod__ = _deferring(lambda self, other: xnp.divmod(self, other))
    ndarray.__rdivmod__ = _deferring(lambda self, other: xnp.divmod(other, self))


def _deferring(method):
    """An operator that answers NotImplemented for operands xnp does not take (objects
    with ``__array_ufunc__ = None``, such as numpy.polynomial's), so that Python asks the
    other operand, as NumPy's operators do."""
    def op(self, other):
        if _other_value(other) is NotImplemented:
            return NotImplemented
        return method(self, other)
    return op


# --- methods ---------------------------------------------------------------------------------
def _reshape(self, *shape, order="C", copy=None):
    if not shape:
        raise TypeError("reshape() takes exactly 1 argument (0 given)")
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    v = self._value
    if type(v) is np.ndarray and type(shape) is tuple and order == "C" and copy is None \
            and type(self) is ndarray and v.flags.c_contiguous \
            and all(type(d) is int for d in shape):
        out = eager_reshape(self, v, shape)     # the common call, without its dispatch
        if out is not None:
            return out
    return xnp.reshape(self, shape, order=order, copy=copy)


def _T(self):
    out = eager_T(self)
    return xnp.transpose(self) if out is None else out


def _is_index(a) -> bool:
    """Whether ``a`` is one integer (``np.int64(0)``, a 0-d integer array), as
    ``operator.index`` accepts."""
    try:
        operator.index(a)
    except TypeError:
        return False
    return True


def _transpose(self, *axes):
    if not axes:
        return xnp.transpose(self)
    if len(axes) == 1 and (axes[0] is None or not _is_index(axes[0])):
        axes = axes[0]          # one sequence (or array) of axes, or None
    return xnp.transpose(self, axes)


def _astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    v = self._value
    if type(v) is np.ndarray and copy is True and casting == "unsafe" and order == "K" \
            and v.dtype.kind in "biufc":
        # a plain eager conversion between numeric dtypes is NumPy's own
        try:
            to = np.dtype(dtype)
        except TypeError:
            to = None
        if to is not None and to.kind in "biufc":
            h = _new_handle(ndarray)
            h._value = v.astype(to)
            return h
    out = xnp.astype(self, dtype, copy=copy, casting=casting)
    if order not in ("K", "k", None):   # a copy only where the layout asked for differs
        laid = _layout.with_order(out._value, order)
        if laid is not out._value:
            out = _wrap(laid)
    return out


def _get_real(self):
    """``a.real``: a view that writes through (the array itself when it is real, as
    NumPy's)."""
    if self.dtype.kind == "c":
        return complex_part_view(self, imag=False)
    return self


def _get_imag(self):
    """``a.imag``: a view that writes through; zeros, read-only, for a real array."""
    if self.dtype.kind == "c":
        return complex_part_view(self, imag=True)
    out = xnp.imag(self)
    return read_only(out) if isinstance(out, ndarray) else out


def _set_real(self, value):
    if self.dtype.kind == "c":
        self[...] = _complex_from(self, real=value)
    else:       # NumPy converts the value to an array first: an unsafe cast, no checks
        self[...] = xnp.asarray(value).astype(self.dtype)


def _set_imag(self, value):
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    self[...] = _complex_from(self, imag=value)


def _complex_from(a, real=None, imag=None):
    """``a`` with its real or imaginary part replaced (broadcast, cast unsafely)."""
    part_dtype = xnp.real(a).dtype
    re = xnp.real(a) if real is None else xnp.asarray(real).astype(part_dtype)
    im = xnp.imag(a) if imag is None else xnp.asarray(imag).astype(part_dtype)
    re, im = xnp.broadcast_arrays(re, im)
    return xnp.asarray(lax.complex_p.bind(raw(re), raw(im)))


def _view(self, dtype=None, type=None):
    """A view of the array that writes through (``dtype``: its bytes reinterpreted, the
    last axis scaled by the ratio of item sizes). ``type`` may be ``xnp.ndarray`` or
    ``numpy.ndarray`` (both give an xnp view); ndarray subclasses do not exist here."""
    from xnp.ma import MaskedArray
    if type is None and isinstance(dtype, builtins.type) and issubclass(
            dtype, (np.ndarray, ndarray, MaskedArray)):
        dtype, type = None, dtype
    if type is MaskedArray:     # x.view(ma.MaskedArray): unmasked, writing through to x
        return MaskedArray(_view(self, dtype))
    if type is not None and type not in (ndarray, np.ndarray):
        raise TypeError(f"xnp: view(type={type.__name__}) is not supported (xnp has no "
                        "ndarray subclasses; view(xnp.ndarray) and view(numpy.ndarray) "
                        "give a plain view)")
    if dtype is None:
        return mark_view(_wrap(self._value), self, Ellipsis)
    return dtype_view(self, dtype)


def _contains(self, item) -> bool:
    return builtins.bool(xnp.any(self == item))


def _partition(self, kth, axis=-1, kind="introselect", order=None):
    if axis is None:        # in place: the method has no flattened form, as NumPy's
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    self[...] = xnp.partition(self, kth, axis=axis, kind=kind, order=order)


def _concrete_numpy(self, what: str) -> np.ndarray:
    return np.asarray(concrete_or_error(self._value, what))


def _install_byte_methods():
    """Byte-level methods and attributes of concrete arrays, as NumPy's (C order)."""
    ndarray.tobytes = lambda self, order="C": _concrete_numpy(self, "x.tobytes()").tobytes(
        order)
    ndarray.tofile = lambda self, fid, sep="", format="%s": _concrete_numpy(
        self, "x.tofile()").tofile(fid, sep, format)
    ndarray.dumps = lambda self: _concrete_numpy(self, "x.dumps()").dumps()
    ndarray.dump = lambda self, file: _concrete_numpy(self, "x.dump()").dump(file)
    ndarray.byteswap = lambda self, inplace=False: _byteswap(self, inplace)
    ndarray.strides = property(lambda self: _layout.strides(self._value, self.shape,
                                                             self.dtype))
    ndarray.data = property(lambda self: memoryview(np.ascontiguousarray(
        _concrete_numpy(self, "x.data"))))
    ndarray.__class_getitem__ = classmethod(lambda cls, item: types.GenericAlias(cls, item))
    from xnp._fields import getfield, setfield
    ndarray.getfield, ndarray.setfield = getfield, setfield


def _byteswap(self, inplace):
    if isinstance(self._value, Tracer):
        from xnp._fields import byteswap_value
        swapped = _wrap(byteswap_value(self._value))
    else:
        swapped = _concrete_numpy(self, "x.byteswap()").byteswap()
    if inplace:
        self[...] = swapped
        return self
    return xnp.asarray(swapped)


def _fill(self, value):
    check_writeable(self)
    if self.dtype.kind == "O":      # every element is ``value`` itself, as NumPy's fill
        value = object_scalar(value)
    elif type(value) in (int, float, complex):
        # NumPy stores it as an item: NaN or inf into integers, complex into reals and
        # out-of-range integers raise (full_like's cast would not)
        from xnp._shapes import value_as
        value_as(value, self.dtype)
        if self.dtype.kind == "b":
            value = bool(value)     # a bool item is the number's truth (2**63 too)
    elif isinstance(value, (np.generic, str)) and self.dtype.kind in "biufc" and \
            (type(value) is str or value.dtype.kind in "biufc") or \
            self.dtype.kind in "biufc" and _not_an_item(value):
        # NumPy's fill of one item decides: int() of a float into signed integers (its
        # ValueError for NaN), a cast into the others with its "invalid value" and
        # "overflow" warnings under the caller's errstate; parsing of a string; an
        # array of one or more dimensions or a sequence raises (a bool takes its truth)
        slot = np.empty((), self.dtype)
        slot.fill(value._value if type(value) is ndarray else value)
        value = slot[()]
    view = view_info(self)
    if view is None and (type(value) in _PY_NUMBERS or isinstance(value, np.generic)) \
            and _fill_eagerly(self, value):
        return
    store_value(self, raw(xnp.full_like(self, value)))
    if view is not None:
        write_back(self, view)


def _not_an_item(value) -> bool:
    """Whether ``value`` is a list, tuple or concrete array of one or more dimensions."""
    t = type(value)
    if t is ndarray:
        value = value._value
        t = type(value)
    return t is list or t is tuple or t is np.ndarray and value.ndim > 0


def _fill_eagerly(self, value) -> bool:
    """NumPy's fill of a concrete numeric array that is no view: in place where only
    ``self`` and its views see the buffer (a local of the caller holding the old value
    would count as one more reference, hence this function of its own)."""
    v = self._value
    if type(v) is not np.ndarray or v.dtype.kind not in "biufc":
        return False
    if not buffer_writable_in_place(self, v):
        v = self._value = np.empty_like(v)
    v.fill(value)
    return True


_PY_NUMBERS = (bool, int, float, complex)


def _sort(self, axis=-1, kind=None, order=None, *, stable=None):
    if axis is None:        # in place: the method has no flattened form, as NumPy's
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    check_writeable(self)
    view = view_info(self)
    if view is not None:
        refresh(self, view)
    # into the buffer where only views of self see it, so that they see the sort
    store_value(self, raw(xnp.sort(self, axis=axis, kind=kind, order=order, stable=stable)))
    if view is not None:
        write_back(self, view)


_PLAIN_BASIC = frozenset((int, slice, type(None), type(Ellipsis)))


def _getitem(self, key):
    v = self._value
    if type(v) is np.ndarray and v.ndim and (
            type(key) in _PLAIN_BASIC or type(key) is tuple and key and
            all(type(k) in _PLAIN_BASIC for k in key)):
        # x[i], x[i, j], x[1:5]: a concrete array and a basic key are NumPy's own view
        # or element (what index_p's eager implementation returns), without its dispatch
        r = v[key]
        if type(r) is not np.ndarray or v.dtype.kind == "O" and (
                type(key) is int and v.ndim == 1 or type(key) is tuple and
                len(key) == v.ndim and all(type(k) is int for k in key)):
            return r                # an element: a NumPy scalar, or an object array's
        h = _new_handle(ndarray)
        h._value = r
        return mark_view(h, self, key)
    if type(key) is ndarray:
        key = key._value if type(key._value) is np.ndarray else key
    if type(key) is np.ndarray and type(v) is np.ndarray and key.dtype.kind in "iub" and \
            v.dtype.kind != "O":
        # x[idx], x[mask]: a concrete array and index array give NumPy's own copy (what
        # index_p's eager implementation returns), without parsing the key
        r = v[key]
        if type(r) is not np.ndarray:
            return r                # a 0-d integer index: NumPy's scalar
        h = _new_handle(ndarray)
        h._value = r
        return h
    if type(key) is tuple and not key and type(v) is np.ndarray and not v.ndim:
        return v[()]                # a 0-d array's a[()]: its scalar, as NumPy
    try:
        h = xnp._indexing.getitem(self, key)
    except ConcretizationTypeError as e:        # a traced mask: x[mask] op= u works
        return deferred_read(self, key, e)
    if type(h) is not ndarray:
        return h                    # a NumPy scalar: a full integer index, as NumPy
    return mark_view(h, self, key) if is_basic_key(key) else h


def _install_methods():
    install_delegated_methods()
    ndarray.compress = lambda self, condition, axis=None, out=None: xnp.compress(
        condition, self, axis=axis, out=out)
    ndarray.reshape = _reshape
    ndarray.transpose = _transpose
    ndarray.astype = _astype
    ndarray.fill = _fill
    ndarray.__contains__ = _contains
    ndarray.partition = _partition
    _install_method_args()
    _install_byte_methods()
    ndarray.view = _view
    ndarray.sort = _sort
    ndarray.T = property(_T)
    ndarray.mT = property(lambda self: xnp.matrix_transpose(self))
    ndarray.real = property(_get_real, _set_real)
    ndarray.imag = property(_get_imag, _set_imag)
    ndarray.flat = flat_property
    ndarray.__getitem__ = _getitem
    ndarray.__setitem__ = _setitem
    ndarray.setflags = setflags
    ndarray.at = property(lambda self: xnp._index_update.IndexUpdateHelper(self))
    ndarray.__array_ufunc__ = array_ufunc
    ndarray.__array_function__ = array_function


_install_operators()
_install_methods()
