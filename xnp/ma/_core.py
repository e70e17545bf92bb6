"""``xnp.ma.MaskedArray``: data (an xnp array) and a mask (an xnp bool array of the same
shape, or ``nomask``), built from xnp functions so that it works under grad, vmap and jit.

Printing and ``tolist`` build a NumPy masked array from the concrete data and mask (they
are conversions, not transformations); everything else computes with xnp functions.
"""

from __future__ import annotations

import numpy as np
import numpy.ma as _npma

import xnp
from transforms.core import Tracer

MaskError = _npma.MaskError
MAError = _npma.MAError
nomask = _npma.nomask          # NumPy's own: np.False_
MaskType = np.bool_


def _is_traced(x) -> bool:
    v = getattr(x, "_value", x)
    return isinstance(v, Tracer)


def _arr(x, dtype=None):
    """An xnp ndarray handle (0-d values too, never a NumPy scalar)."""
    if isinstance(x, xnp.ndarray) and (dtype is None or x.dtype == np.dtype(dtype)):
        return x
    out = xnp.asarray(x, dtype=dtype)
    if not isinstance(out, xnp.ndarray):
        out = xnp.array(out)
    return out


def _scalar(x):
    """A 0-d result as NumPy returns it: the NumPy scalar when concrete."""
    if isinstance(x, xnp.ndarray) and x.ndim == 0 and not _is_traced(x):
        return np.asarray(x)[()]
    return x


def _check_fill(value, dtype):
    """NumPy's stored fill value (a 0-d NumPy array) for ``value`` on ``dtype``."""
    if value is None:
        return None
    if isinstance(value, MaskedArray):
        value = np.asarray(value.filled())
    return _npma.MaskedArray(np.zeros(0, dtype), fill_value=value)._fill_value


class MaskedArray:
    """An array with a mask: masked elements are left out of computations."""

    __array_priority__ = 15
    __hash__ = None

    def __init__(self, data=None, mask=nomask, dtype=None, copy=False, fill_value=None,
                 keep_mask=True, hard_mask=False, shrink=True, subok=True, ndmin=0,
                 **kwargs):
        if isinstance(data, MaskedArray):
            base_mask = data._mask if keep_mask else nomask
            if fill_value is None:
                fill_value = data._fill_value
            else:
                fill_value = _check_fill(fill_value, data.dtype if dtype is None else dtype)
            data = data._data
        else:
            base_mask = nomask
            data, list_mask = _from_sequence(data)
            if list_mask is not None:
                base_mask = list_mask
            fill_value = _check_fill(fill_value, _arr(data).dtype if dtype is None
                                     else np.dtype(dtype))
        d = _arr(data, dtype)
        if copy and d is data:
            d = xnp.array(d)
        while d.ndim < ndmin:
            d = xnp.expand_dims(d, 0)
        self._data = d
        self._mask = union_of_masks(base_mask, _make_mask_for(mask, d.shape))
        if self._mask is not nomask and self._mask.shape != d.shape:
            self._mask = _full_mask(self._mask, d.shape)
        if self._mask is not nomask and copy and self._mask is base_mask:
            self._mask = xnp.array(self._mask)
        self._fill_value = fill_value

    @classmethod
    def _new(cls, data, mask, fill_value=None):
        out = object.__new__(MaskedArray)
        out._data = _arr(data)
        out._mask = mask if mask is nomask else _full_mask(mask, out._data.shape)
        out._fill_value = fill_value
        return out

    # --- attributes ---------------------------------------------------------------------
    @property
    def data(self):
        return self._data

    @property
    def mask(self):
        return self._mask

    @mask.setter
    def mask(self, value):
        if value is nomask and self._mask is nomask:
            return
        if value is nomask:
            value = False
        value = _arr(value, bool)
        if value.size == self.size and value.shape != self.shape and value.ndim:
            value = xnp.reshape(value, self.shape)      # NumPy accepts any same-size mask
        self._mask = xnp.array(xnp.broadcast_to(value, self.shape))

    @property
    def shape(self):
        return self._data.shape

    @shape.setter
    def shape(self, value):
        self._data = xnp.reshape(self._data, value)
        if self._mask is not nomask:
            self._mask = xnp.reshape(self._mask, value)

    ndim = property(lambda self: self._data.ndim)
    size = property(lambda self: self._data.size)
    dtype = property(lambda self: self._data.dtype)
    T = property(lambda self: self.transpose())
    mT = property(lambda self: self.swapaxes(-1, -2))
    real = property(lambda self: self._map(xnp.real, keep_fill=False, mask_fn=_same))
    imag = property(lambda self: self._map(xnp.imag, keep_fill=False, mask_fn=_same))

    @property
    def fill_value(self):
        twin = _npma.MaskedArray(np.zeros((), self.dtype))
        twin._fill_value = self._fill_value
        value = twin.fill_value
        self._fill_value = twin._fill_value
        return value

    @fill_value.setter
    def fill_value(self, value):
        if value is None:
            self._fill_value = None
        else:
            self._fill_value = _check_fill(value, self.dtype)

    def get_fill_value(self):
        return self.fill_value

    def set_fill_value(self, value=None):
        self.fill_value = value

    @property
    def recordmask(self):
        return self._mask

    # --- conversion ---------------------------------------------------------------------
    def filled(self, fill_value=None):
        if self._mask is nomask:
            return self._data
        if fill_value is None:
            fill = np.asarray(self.fill_value)
        elif isinstance(fill_value, (xnp.ndarray, MaskedArray)):
            fill = getdata(fill_value)
        else:
            fill = np.asarray(fill_value)
        if isinstance(fill, np.ndarray):
            with np.errstate(all="ignore"):
                fill = fill.astype(self.dtype)
        else:
            fill = fill.astype(self.dtype)
        return xnp.where(self._mask, fill, self._data)

    def compressed(self):
        d = xnp.ravel(self._data)
        if self._mask is nomask:
            return d
        return d[xnp.logical_not(xnp.ravel(self._mask))]

    def _to_numpy(self):
        data = np.asarray(self._data)
        mask = nomask if self._mask is nomask else np.asarray(self._mask)
        out = _npma.MaskedArray(data, mask=mask)
        out._fill_value = self._fill_value
        return out

    def _concrete(self):
        return not _is_traced(self._data) and (self._mask is nomask
                                               or not _is_traced(self._mask))

    def tolist(self, fill_value=None):
        if fill_value is not None:
            return np.asarray(self.filled(fill_value)).tolist()
        return self._to_numpy().tolist()

    def __array__(self, dtype=None, copy=None):
        out = np.asarray(self._data, dtype=dtype)
        return out.copy() if copy else out

    def __repr__(self):
        if self._concrete():
            return repr(self._to_numpy())
        mask = "False" if self._mask is nomask else repr(self._mask)
        return (f"masked_array(data={self._data!r},\n             mask={mask},\n"
                f"       fill_value={self.fill_value!r})")

    def __str__(self):
        if self._concrete():
            return str(self._to_numpy())
        return repr(self)

    def __format__(self, spec):
        if not spec:
            return str(self)
        return format(self._to_numpy(), spec)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for i in range(self.shape[0]):
            yield self[i]

    def __bool__(self):
        return bool(self._data)

    def __float__(self):
        if self.size > 1:
            raise TypeError("Only length-1 arrays can be converted to Python scalars")
        if self._mask is not nomask and bool(xnp.any(self._mask)):
            import warnings
            warnings.warn("Warning: converting a masked element to nan.", UserWarning,
                          stacklevel=2)
            return float("nan")
        return float(xnp.ravel(self._data)[0])

    def __int__(self):
        if self.size > 1:
            raise TypeError("Only length-1 arrays can be converted to Python scalars")
        if self._mask is not nomask and bool(xnp.any(self._mask)):
            raise MaskError("Cannot convert masked element to a Python int.")
        return int(xnp.ravel(self._data)[0])

    # --- indexing -----------------------------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, MaskedArray):
            key = key.filled(False)
        d = self._data[key]
        scalar = not isinstance(d, xnp.ndarray) or (
            d.ndim == 0 and self.ndim > 0 and _integer_key(key))
        m = self._mask
        if scalar:
            if m is nomask:
                return d
            mv = m[key]
            if _is_traced(mv):
                return MaskedArray._new(d, _arr(mv), self._fill_value)
            if bool(mv):
                return masked
            return d
        return MaskedArray._new(d, nomask if m is nomask else m[key], self._fill_value)

    def __setitem__(self, key, value):
        if self is masked:
            raise MaskError("Cannot alter the masked element.")
        if isinstance(key, MaskedArray):
            key = key.filled(False)
        if value is masked:
            if self._mask is nomask:
                self._mask = xnp.zeros(self.shape, bool)
            self._mask[key] = True
            return
        if isinstance(value, MaskedArray):
            self._data[key] = value._data
            vmask = value._mask
            if vmask is nomask and self._mask is nomask:
                return
            if self._mask is nomask:
                self._mask = xnp.zeros(self.shape, bool)
            self._mask[key] = getmaskarray(value)
            return
        self._data[key] = value
        if self._mask is not nomask:
            self._mask[key] = False

    # --- shape and copies ---------------------------------------------------------------
    def _map(self, fn, keep_fill=True, mask_fn=None):
        m = self._mask
        if m is not nomask:
            m = (mask_fn or fn)(m)
        return MaskedArray._new(fn(self._data), m, self._fill_value if keep_fill else None)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return self._map(lambda x: xnp.reshape(x, shape, order=order))

    def ravel(self, order="C"):
        return self._map(lambda x: xnp.ravel(x, order=order))

    def flatten(self, order="C"):
        return self._map(lambda x: xnp.array(xnp.ravel(x, order=order)))

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        axes = axes or None
        return self._map(lambda x: xnp.transpose(x, axes))

    def swapaxes(self, a, b):
        return self._map(lambda x: xnp.swapaxes(x, a, b))

    def squeeze(self, axis=None):
        return self._map(lambda x: xnp.squeeze(x, axis=axis))

    def copy(self, order="C"):
        if self is masked:
            return self
        return self._map(xnp.array)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        dtype = np.dtype(dtype)
        out = self._map(lambda x: x.astype(dtype, casting=casting), keep_fill=False,
                        mask_fn=xnp.array)
        if self._fill_value is not None:
            with np.errstate(all="ignore"):
                out._fill_value = _check_fill(self._fill_value.astype(dtype)
                                              if isinstance(self._fill_value, np.ndarray)
                                              else self._fill_value, dtype)
        return out

    def view(self, dtype=None, type=None):
        if type is not None and dtype is None and isinstance(type, type.__class__):
            return self if issubclass(type, MaskedArray) else self._data
        if dtype is None:
            return MaskedArray._new(self._data, self._mask, self._fill_value)
        return self._map(lambda x: x.view(dtype), keep_fill=False, mask_fn=lambda m: m)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo=None):
        return self.copy()


class MaskedConstant(MaskedArray):
    """``ma.masked``: a 0-d float64 masked array whose element is masked."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            inst = object.__new__(cls)
            inst._data = xnp.array(0.0)
            inst._mask = xnp.array(True)
            inst._fill_value = None
            cls._instance = inst
        return cls._instance

    def __init__(self):
        pass

    def __repr__(self):
        return "masked"

    def __str__(self):
        return "--"

    def __format__(self, spec):
        return format("--", spec) if spec else "--"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (MaskedConstant, ())


masked = masked_singleton = MaskedConstant()


def _same(x):
    return x


def _integer_key(key) -> bool:
    keys = key if isinstance(key, tuple) else (key,)
    for k in keys:
        if k is None or k is Ellipsis or isinstance(k, (slice, list)):
            return False
        if isinstance(k, (xnp.ndarray, np.ndarray)) and k.ndim > 0:
            return False
    return True


def _contains_masked(seq) -> bool:
    if seq is masked:
        return True
    if isinstance(seq, (list, tuple)):
        return any(_contains_masked(s) for s in seq)
    return False


def _from_sequence(data):
    """Lists holding ``ma.masked`` or MaskedArrays: their data and mask (NumPy makes the
    masked constant a float 0 element)."""
    if not isinstance(data, (list, tuple)) or not _contains_masked(data) and not any(
            isinstance(s, MaskedArray) for s in data):
        return data, None
    if not _contains_masked(data):
        items = [s if isinstance(s, MaskedArray) else MaskedArray(s) for s in data]
        from xnp.ma._funcs import stack
        st = stack(items)
        return st._data, st._mask

    def strip(s):
        if s is masked:
            return 0.0, True
        if isinstance(s, (list, tuple)):
            pairs = [strip(x) for x in s]
            return [p[0] for p in pairs], [p[1] for p in pairs]
        return s, False
    d, m = strip(data)
    return d, _arr(np.asarray(m, dtype=bool))


def _make_mask_for(mask, shape):
    if mask is nomask:
        return nomask
    if isinstance(mask, MaskedArray):
        mask = mask.filled(True)
    m = _arr(mask, bool) if not (isinstance(mask, xnp.ndarray) and mask.dtype == bool) \
        else mask
    if m.shape != tuple(shape):
        nd, nm = int(np.prod(shape)), m.size
        if nm == 1:
            m = xnp.broadcast_to(xnp.reshape(m, ()), shape)
        elif nm == nd:
            m = xnp.reshape(m, shape)
        else:
            raise MaskError(f"Mask and data not compatible: data size is {nd}, mask size "
                            f"is {nm}.")
        m = xnp.array(m)
    elif m is mask:
        m = xnp.array(m)
    return m


def union_of_masks(m1, m2):
    """Elements masked in either (``nomask`` stands for none)."""
    if m1 is nomask:
        return m2
    if m2 is nomask:
        return m1
    return xnp.logical_or(m1, m2)


def _full_mask(m, shape):
    if m is nomask:
        return xnp.zeros(shape, bool)
    m = _arr(m, bool)
    if m.shape != tuple(shape):
        m = xnp.array(xnp.broadcast_to(m, shape))
    return m


def getmask(a):
    return a._mask if isinstance(a, MaskedArray) else nomask


get_mask = getmask


def getmaskarray(arr):
    if isinstance(arr, MaskedArray):
        return _full_mask(arr._mask, arr.shape)
    return xnp.zeros(np.shape(arr) if not isinstance(arr, xnp.ndarray) else arr.shape,
                     bool)


def getdata(a, subok=True):
    if isinstance(a, MaskedArray):
        return a._data
    return _arr(a)


get_data = getdata


def isMaskedArray(x) -> bool:
    return isinstance(x, MaskedArray)


isMA = isarray = isMaskedArray
