"""``x[key]``, ``x[key] = v`` and ``x.at[key]`` against NumPy.

Random shapes and random keys mixing integers, slices (any start/stop/step), None,
Ellipsis, integer arrays and lists (broadcast together, adjacent or separated), boolean
masks and 0-d booleans; some keys are invalid on purpose (out of bounds, too many indices,
mismatched masks, unbroadcastable index arrays), and then xnp must raise NumPy's exception
class. The same keys are traced with make_jaxpr (array and integer-array indices as
tracers) and must give the eager result.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import strategies as S
from hypothesis import given
from hypothesis import strategies as st

import xnp
from transforms import ConcretizationTypeError

_DTYPES = st.sampled_from([np.dtype(t) for t in (np.bool_, np.int8, np.int32, np.int64,
                                                  np.uint8, np.float32, np.float64,
                                                  np.complex64)])
_INDEX_DTYPES = [np.dtype(t) for t in (np.int8, np.int32, np.int64, np.uint8)]


# --- key strategies -----------------------------------------------------------------------
def _batch_part(draw, batch):
    """A shape that broadcasts to ``batch``: a suffix of it with some sides set to 1."""
    k = draw(st.integers(0, len(batch)))
    suffix = batch[len(batch) - k:]
    return tuple(s if draw(st.booleans()) else 1 for s in suffix)


def _int_array(draw, n, shape, errors):
    spill = 2 if errors and draw(st.integers(0, 5)) == 0 else 0
    lo, hi = -n - spill, n - 1 + spill
    if hi < lo or (n == 0 and not spill):
        return None
    values = draw(S.arrays(np.int64, shape, min_value=lo, max_value=hi))
    dtype = draw(st.sampled_from(_INDEX_DTYPES))
    if dtype.kind == "u":
        values = np.where(values < 0, values + n, values)
    if np.iinfo(dtype).max < max(abs(lo), abs(hi)) or values.min(initial=0) < 0 <= \
            np.iinfo(dtype).min:
        dtype = np.dtype(np.int64)
    return values.astype(dtype)


def _slice(draw, n):
    bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
    step = st.one_of(st.none(), st.integers(-3, 3).filter(bool))
    return slice(draw(bound), draw(bound), draw(step))


def _items(draw, sizes, batch, errors, masks):
    """Key items consuming exactly the axes of ``sizes`` (plus any new axes)."""
    items = []
    d = 0
    while d < len(sizes):
        n = sizes[d]
        kinds = ["int", "slice", "slice", "array", "list", "none"]
        if masks:
            kinds += ["mask", "bool0"]
        kind = draw(st.sampled_from(kinds))
        if kind == "none":
            items.append(None)
            continue
        if kind == "bool0":
            items.append(draw(st.sampled_from([True, False, np.True_, np.array(False)])))
            continue
        if kind == "mask":
            k = draw(st.integers(1, len(sizes) - d))
            shape = tuple(sizes[d:d + k])
            if errors and draw(st.integers(0, 6)) == 0:
                shape = shape[:-1] + (shape[-1] + 1,)
            items.append(draw(S.arrays(bool, shape)))
            d += k
            continue
        if kind == "int":
            spill = 2 if errors and draw(st.integers(0, 5)) == 0 else 0
            if n == 0 and not spill:
                kind = "slice"
            else:
                items.append(draw(st.integers(-n - spill, n - 1 + spill)))
        if kind == "slice":
            items.append(_slice(draw, n))
        if kind in ("array", "list"):
            arr = _int_array(draw, n, _batch_part(draw, batch), errors)
            if arr is None:
                items.append(slice(None))
            elif kind == "list":
                items.append(arr.tolist())
            else:
                items.append(arr if draw(st.booleans()) else xnp.asarray(arr))
        d += 1
    return items


@st.composite
def array_and_key(draw, errors=True, masks=True):
    a = draw(S.arrays(_DTYPES, S.shapes(max_dims=4, max_side=4), finite=True))
    batch = draw(S.shapes(max_dims=2, max_side=3))
    if errors and draw(st.integers(0, 8)) == 0:
        batch = ()   # with several arrays, this may give unbroadcastable index shapes
    nd = a.ndim
    used = draw(st.integers(0, nd))
    if draw(st.booleans()):
        split = draw(st.integers(0, used))
        head = _items(draw, a.shape[:split], batch, errors, masks)
        tail = _items(draw, a.shape[nd - (used - split):], batch, errors, masks)
        items = head + [Ellipsis] + tail
    else:
        items = _items(draw, a.shape[:used], batch, errors, masks)
    if errors and draw(st.integers(0, 10)) == 0:
        items.append(draw(st.sampled_from([0, Ellipsis, 1.5, "a"])))   # too many / bad
    key = tuple(items) if len(items) != 1 or draw(st.booleans()) else items[0]
    return a, key


def _np_key(key):
    """The key with xnp arrays replaced by NumPy arrays, for the reference."""
    if isinstance(key, tuple):
        return tuple(_np_key(k) for k in key)
    return np.asarray(key) if isinstance(key, xnp.ndarray) else key


def _same(actual, expected):
    a = np.asarray(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != NumPy's {e.shape}"
    assert a.dtype == e.dtype, f"dtype {a.dtype} != NumPy's {e.dtype}"
    np.testing.assert_array_equal(a, e)


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:
            return None, exc


def _exception_class(exc):
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls
    return Exception


# --- getitem ------------------------------------------------------------------------------
@given(array_and_key())
def test_getitem_matches_numpy(case):
    a, key = case
    expected, exc = _outcome(lambda: a[_np_key(key)])
    if exc is not None:
        with pytest.raises(_exception_class(exc)):
            xnp.asarray(a)[key]
        return
    _same(xnp.asarray(a)[key], expected)


@given(array_and_key(errors=False, masks=False))
def test_getitem_traced_matches_eager(case):
    a, key = case
    items = key if isinstance(key, tuple) else (key,)
    slots = [i for i, k in enumerate(items) if isinstance(k, (np.ndarray, xnp.ndarray))]
    expected = xnp.asarray(a)[key]

    def f(x, *arrays):
        k = list(items)
        for i, arr in zip(slots, arrays):
            k[i] = arr
        return x[tuple(k) if isinstance(key, tuple) else k[0]]

    args = [xnp.asarray(a)] + [xnp.asarray(items[i]) for i in slots]
    closed = xnp.make_jaxpr(f)(*args)
    (got,) = xnp.eval_jaxpr(closed, *args)
    _same(got, expected)


@given(S.arrays(_DTYPES, S.shapes(min_dims=1, max_side=4)), st.data())
def test_traced_scalar_index_uses_dynamic_slice(a, data):
    i = data.draw(st.integers(-a.shape[0], a.shape[0] - 1)) if a.shape[0] else None
    if i is None:
        return
    closed = xnp.make_jaxpr(lambda x, j: x[j, ...])(xnp.asarray(a), np.int64(i))
    assert "gather" not in str(closed) and "dynamic_slice" in str(closed)
    (got,) = xnp.eval_jaxpr(closed, xnp.asarray(a), np.int64(i))
    _same(got, a[i])


# --- setitem ------------------------------------------------------------------------------
@st.composite
def _value_for(draw, a, target_shape):
    kind = draw(st.sampled_from(["scalar", "full", "broadcast", "python"]))
    if kind == "python" or target_shape is None:
        if a.dtype.kind == "b":
            return draw(st.booleans())
        return draw(st.integers(0, 100)) if a.dtype.kind in "iu" else draw(
            st.floats(-10, 10, width=32))
    if kind == "scalar":
        return draw(S.arrays(a.dtype, ()))
    shape = target_shape
    if kind == "broadcast":
        shape = tuple(s if draw(st.booleans()) else 1 for s in shape)
        shape = shape[draw(st.integers(0, len(shape))):]
        if draw(st.integers(0, 4)) == 0:
            shape = (1,) + shape      # a leading length-1 axis NumPy strips
    return draw(S.arrays(a.dtype, shape, finite=True))


@given(array_and_key(), st.data())
def test_setitem_matches_numpy(case, data):
    a, key = case
    target, _ = _outcome(lambda: a[_np_key(key)].shape)
    value = data.draw(_value_for(a, target))
    expected = a.copy()
    _, exc = _outcome(lambda: expected.__setitem__(_np_key(key), value))
    x = xnp.asarray(a.copy())
    if exc is not None:
        with pytest.raises(_exception_class(exc)):
            x[key] = value
        return
    x[key] = value
    _same(x, expected)


@given(array_and_key(errors=False, masks=False), st.data())
def test_setitem_traced_matches_eager(case, data):
    a, key = case
    items = key if isinstance(key, tuple) else (key,)
    slots = [i for i, k in enumerate(items) if isinstance(k, (np.ndarray, xnp.ndarray))]
    value = data.draw(_value_for(a, a[_np_key(key)].shape))
    eager = xnp.asarray(a.copy())
    _, exc = _outcome(lambda: eager.__setitem__(key, value))
    if exc is not None:
        return                      # invalid values are covered by the test above

    def f(x, v, *arrays):
        k = list(items)
        for i, arr in zip(slots, arrays):
            k[i] = arr
        x = xnp.array(x)
        x[tuple(k) if isinstance(key, tuple) else k[0]] = v
        return x

    args = [xnp.asarray(a), value] + [xnp.asarray(items[i]) for i in slots]
    closed = xnp.make_jaxpr(f)(*args)
    (got,) = xnp.eval_jaxpr(closed, *args)
    _same(got, eager)


# --- x.at[...] ----------------------------------------------------------------------------
_AT = [("add", np.add), ("multiply", np.multiply), ("min", np.minimum),
       ("max", np.maximum), ("subtract", np.subtract)]


@given(array_and_key(), st.sampled_from(_AT), st.data())
def test_at_matches_ufunc_at(case, op, data):
    a, key = case
    name, ufunc = op
    if a.dtype.kind == "b" and name == "add":
        name, ufunc = "max", np.maximum
    target, _ = _outcome(lambda: a[_np_key(key)].shape)
    value = data.draw(_value_for(a, target))
    expected = a.copy()
    _, exc = _outcome(lambda: ufunc.at(expected, _np_key(key), value))
    x = xnp.asarray(a)
    if exc is not None:
        with pytest.raises(_exception_class(exc)):
            getattr(x.at[key], name)(value)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = getattr(x.at[key], name)(value)
    _same(got, expected)
    _same(x, a)                                    # functional: x is unchanged


@given(array_and_key(errors=False))
def test_at_set_and_get(case):
    a, key = case
    x = xnp.asarray(a)
    got, exc = _outcome(lambda: a[_np_key(key)])
    if exc is not None:
        with pytest.raises(_exception_class(exc)):
            x.at[key].get()
        return
    _same(x.at[key].get(), got)
    expected = a.copy()
    expected[_np_key(key)] = a.flat[0] if a.size else 0
    _same(x.at[key].set(a.flat[0] if a.size else 0), expected)


@pytest.mark.parametrize("name, ufunc", [("divide", np.divide), ("power", np.power)])
def test_at_divide_power_accumulate(name, ufunc):
    a = np.linspace(1.0, 2.0, 12).reshape(3, 4)
    idx = (np.array([0, 2, 0]), slice(1, None))
    v = np.array([[1.5], [2.0], [0.5]])
    expected = a.copy()
    ufunc.at(expected, idx, v)
    got = getattr(xnp.asarray(a).at[idx], name)(v)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-14)


def test_at_add_accumulates_but_iadd_does_not():
    x = xnp.zeros(3) if hasattr(xnp, "zeros") else xnp.asarray(np.zeros(3))
    idx = np.array([0, 0, 2])
    _same(x.at[idx].add(1.0), np.array([2.0, 0.0, 1.0]))
    y = xnp.asarray(np.zeros(3))
    y[idx] += 1.0
    _same(y, np.array([1.0, 0.0, 1.0]))


def test_at_get_modes():
    x = xnp.asarray(np.arange(5.0))
    idx = np.array([-1, 4, 5, -6, 9])
    _same(x.at[idx].get(mode="fill", fill_value=-1.0), np.array([4.0, 4.0, -1, -1, -1]))
    _same(x.at[idx].get(mode="clip"), np.array([4.0, 4.0, 4.0, 0.0, 4.0]))
    assert np.isnan(np.asarray(x.at[7].get(mode="fill")))
    with pytest.raises(IndexError):
        x.at[idx].get()
    with pytest.raises(ValueError):
        x.at[0].get(mode="wrong")
    _same(x.at[np.array([1, 7])].set(9.0, mode="drop"), np.array([0.0, 9, 2, 3, 4]))
    _same(x.at[np.array([1, 7])].add(9.0, mode="clip"), np.array([0.0, 10, 2, 3, 13]))


def test_at_apply():
    x = xnp.asarray(np.arange(6.0).reshape(2, 3))
    _same(x.at[:, 1].apply(xnp.negative), np.array([[0.0, -1, 2], [3, -4, 5]]))
    _same(x.at[1].mul(2), np.array([[0.0, 1, 2], [6, 8, 10]]))


# --- deterministic cases ------------------------------------------------------------------
def test_error_messages_match_numpy():
    a = np.arange(6).reshape(2, 3)
    x = xnp.asarray(a)
    for key in [5, (0, 3), (slice(None), [0, 5]), (0, 0, 0), (Ellipsis, Ellipsis), 1.5,
                np.array([1.5]), np.array([True, False, True]), ([0, 1], [0, 1, 2])]:
        with pytest.raises(IndexError) as expected:
            a[key]
        with pytest.raises(IndexError) as got:
            x[key]
        assert str(got.value).strip() == str(expected.value).strip()


def test_assignment_casting():
    x = xnp.asarray(np.zeros(3, np.int8))
    with pytest.raises(OverflowError):
        x[0] = 300
    with pytest.raises(OverflowError):
        x[:] = [1, 300, 2]
    y = xnp.asarray(np.zeros(3, np.int64))
    with pytest.raises(ValueError):
        y[0] = float("nan")
    y[1] = 2.9                                  # truncates, as NumPy
    _same(y, np.array([0, 2, 0]))
    f = xnp.asarray(np.zeros(3))
    with pytest.raises(TypeError):
        f[0] = 1j
    with pytest.warns(np.exceptions.ComplexWarning):
        f[:] = np.array([1 + 2j, 3j, 1])
    _same(f, np.array([1.0, 0.0, 1.0]))
    with pytest.raises(ValueError):
        f[0:2] = np.ones(3)
    f[0:2] = np.ones((1, 1, 2))                  # leading length-1 axes are dropped
    _same(f, np.array([1.0, 1.0, 1.0]))


def test_duplicate_indices_last_write_wins():
    x = xnp.asarray(np.zeros(4))
    x[np.array([1, 1, 3, 1])] = np.array([1.0, 2.0, 3.0, 4.0])
    _same(x, np.array([0.0, 4.0, 0.0, 3.0]))


def test_views_are_not_tracked_but_handles_are_rebound():
    x = xnp.asarray(np.arange(4.0))
    y = x
    x[1] = 10.0
    assert y is x
    _same(y, np.array([0.0, 10.0, 2.0, 3.0]))


def test_zero_dim():
    x = xnp.asarray(np.array(3.0))
    _same(x[()], np.array(3.0))
    _same(x[...], np.array(3.0))
    _same(x[None], np.array([3.0]))
    _same(x[True], np.array([3.0]))
    _same(x[False], np.zeros(0))
    x[...] = 5.0
    _same(x, np.array(5.0))
    with pytest.raises(IndexError):
        x[0]


def test_traced_mask_raises_clear_error():
    x = xnp.asarray(np.arange(4.0))
    with pytest.raises(ConcretizationTypeError, match="size="):
        xnp.make_jaxpr(lambda v: v[v > 1])(x)
    with pytest.raises(ConcretizationTypeError, match="xnp.where"):
        xnp.make_jaxpr(lambda v: v[v > 1])(x)


def test_traced_mask_assignment_is_a_select():
    a = np.arange(6.0).reshape(2, 3)

    def f(v):
        v = xnp.array(v)
        v[v > 2] = 0.0
        v[v[:, 0] > 0] = np.array([7.0, 8.0, 9.0])
        return v
    closed = xnp.make_jaxpr(f)(xnp.asarray(a))
    assert "scatter" not in str(closed)
    (got,) = xnp.eval_jaxpr(closed, xnp.asarray(a))
    expected = a.copy()
    expected[expected > 2] = 0.0
    expected[expected[:, 0] > 0] = [7.0, 8.0, 9.0]
    _same(got, expected)


def test_traced_out_of_bounds_indices_clamp():
    x = xnp.asarray(np.arange(5.0))
    closed = xnp.make_jaxpr(lambda v, i: v[i])(x, np.array([7, -9, 2]))
    (got,) = xnp.eval_jaxpr(closed, x, np.array([7, -9, 2]))
    _same(got, np.array([4.0, 0.0, 2.0]))


def test_basic_indexing_avoids_gather():
    x = xnp.asarray(np.zeros((3, 4, 5)))
    closed = xnp.make_jaxpr(lambda v: v[1, ::-2, None, 1:4])(x)
    assert "gather" not in str(closed)
    closed = xnp.make_jaxpr(lambda v: v.at[1:, 2].set(1.0))(x)
    assert "scatter" not in str(closed) and "dynamic_update_slice" in str(closed)


def test_advanced_index_placement():
    a = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    x = xnp.asarray(a)
    for key in [(slice(None), [0, 2], [1, 3]), (slice(None), [0, 2], slice(None), [1, 3]),
                ([[0], [1]], slice(None), [0, 1, 2]), (0, slice(None), [1, 2]),
                (slice(None), 0, slice(None), [0, 1]), ([0], None, [0]),
                (None, [0], [0]), (slice(None), True, [0, 1])]:
        _same(x[key], a[key])


def test_in_place_writes_are_seen_only_through_the_written_array():
    # Eagerly, x[k] = v writes into x's buffer when nothing else references it (the fast
    # path of element-by-element loops); everything that could see the buffer is left as
    # the functional update would leave it.
    x = xnp.zeros(5)
    buffer_id = id(x._value)                    # (a reference would defeat the fast path)
    x[1] = 2.0
    x[np.array([2, 3])] = xnp.asarray([3.0, 4.0])
    assert id(x._value) == buffer_id            # the fast path was taken
    _same(x, np.array([0.0, 2.0, 3.0, 4.0, 0.0]))
    source = np.zeros(3)
    y = xnp.asarray(source)                     # shares the caller's NumPy array
    y[0] = 1.0
    _same(source, np.zeros(3))
    z = xnp.arange(6.0)
    view = z[1:4]
    z[2] = 100.0
    view[0] = -1.0          # a write through a view reaches the base (xnp/_views.py),
    _same(view, np.array([-1.0, 100.0, 3.0]))   # after re-reading it, as NumPy
    _same(z, np.array([0.0, -1.0, 100.0, 3.0, 4.0, 5.0]))
    w = xnp.arange(3.0)
    alias = xnp.array(w, copy=False)        # w itself, as NumPy's (the write shows)
    w[0] = 7.0
    w_np = np.arange(3.0)
    alias_np = np.array(w_np, copy=False)
    w_np[0] = 7.0
    _same(alias, alias_np)
    # Residuals held by a vjp closure must not change under later writes.
    u = xnp.asarray(np.array([1.0, 2.0, 3.0]))
    _, f_vjp = xnp.vjp(lambda t: xnp.sin(t) * u, xnp.asarray(np.array([0.5, 0.5, 0.5])))
    u[0] = 100.0
    _same(f_vjp(xnp.ones(3))[0], np.cos(0.5) * np.array([1.0, 2.0, 3.0]))


def test_in_place_operators_are_seen_only_through_the_updated_array():
    # a += b updates a's buffer in place when nothing else references it; views, aliases,
    # caller-owned NumPy arrays and vjp residuals keep their values, as for x[k] = v.
    x = xnp.arange(4.0)
    buffer_id = id(x._value)
    x += 1.0
    x *= xnp.asarray([1.0, 2.0, 3.0, 4.0])
    assert id(x._value) == buffer_id            # the fast path was taken
    _same(x, np.array([1.0, 4.0, 9.0, 16.0]))
    source = np.zeros(3)
    y = xnp.asarray(source)
    y += 1.0
    _same(source, np.zeros(3))
    z = xnp.arange(6.0)
    view = z[1:4]
    z -= 1.0
    _same(view, np.array([0.0, 1.0, 2.0]))     # a view sees the in-place write, as in NumPy
    u = xnp.asarray(np.array([1.0, 2.0, 3.0]))
    _, f_vjp = xnp.vjp(lambda t: xnp.sin(t) * u, xnp.asarray(np.array([0.5, 0.5, 0.5])))
    u += 100.0
    _same(f_vjp(xnp.ones(3))[0], np.cos(0.5) * np.array([1.0, 2.0, 3.0]))
    i = xnp.arange(3)
    with pytest.raises(TypeError, match="same_kind"):
        i += 1.5
    with pytest.raises(ValueError, match="broadcast"):
        x += xnp.ones((2, 4))
    _same(i, np.arange(3))


def test_empty_tuple_key_assigns_the_whole_array():
    # x[()] indexes no axis, so size-1 leading dimensions of the value drop as in any
    # whole-array assignment; x[0] selects one element, which rejects arrays (NumPy).
    for a, value in [(np.array(False), np.array([True])), (np.zeros(2), np.ones((1, 2)))]:
        expected = a.copy()
        expected[()] = value
        eager = xnp.asarray(a.copy())
        eager[()] = value
        _same(eager, expected)

        def traced(x, v):
            x = xnp.array(x)
            x[()] = v
            return x
        _same(xnp.jit(traced)(xnp.asarray(a), value), expected)
    with pytest.raises(ValueError, match="sequence"):
        x = xnp.zeros(3)
        x[0] = np.array([5.0])
