"""Writes through views reach the base array, as in NumPy (xnp/_views.py).

Oracle: the same sequence of view creations and writes run on NumPy arrays."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import xnp


@st.composite
def _basic_key(draw, shape):
    """A basic index (ints, slices, Ellipsis, None) valid for ``shape`` that leaves at
    least one dimension (so NumPy returns a view, not a scalar)."""
    items, left = [], len(shape)
    for n in shape:
        choice = draw(st.sampled_from(["int", "slice", "full"]) if n else st.just("full"))
        if choice == "int" and left > 1:
            items.append(draw(st.integers(-n, n - 1)))
        elif choice == "slice":
            start = draw(st.none() | st.integers(-n, n))
            stop = draw(st.none() | st.integers(-n, n))
            step = draw(st.sampled_from([None, 1, 2, -1]))
            items.append(slice(start, stop, step))
        else:
            items.append(slice(None))
        if choice == "int" and left > 1:
            left -= 1
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), None)
    if draw(st.booleans()) and items:
        items = items[:draw(st.integers(1, len(items)))] + [Ellipsis]
    return tuple(items)


_WRITES = {          # write(view, module): the same write on NumPy's and xnp's view
    "setitem-first": lambda v, m: v.__setitem__((0,) * min(v.ndim, 1), 7.5),
    "setitem-all": lambda v, m: v.__setitem__(Ellipsis, -2.0),
    "iadd": lambda v, m: v.__iadd__(10.0),
    "imul-broadcast": lambda v, m: v.__imul__(m.arange(v.shape[-1]) if v.ndim else 3.0),
    "fill": lambda v, m: v.fill(4.25),
    "flat": lambda v, m: v.flat.__setitem__(-1, 9.0),
}


@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
       data=st.data(), write=st.sampled_from(sorted(_WRITES)))
def test_write_through_a_view_matches_numpy(shape, data, write):
    key = data.draw(_basic_key(shape))
    ref = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    got = xnp.asarray(ref.copy())
    ref_view, got_view = ref[key], got[key]
    if ref_view.size == 0:
        return
    _WRITES[write](ref_view, np)
    _WRITES[write](got_view, xnp)
    np.testing.assert_array_equal(np.asarray(got), ref)
    np.testing.assert_array_equal(np.asarray(got_view), ref_view)


def test_view_of_a_view_and_rows_of_a_loop():
    ref = np.zeros((3, 4))
    got = xnp.zeros((3, 4))
    for a in (ref, got):
        inner = a[1:][0]
        inner[2] = 5.0
        for row in a:
            row[0] = -1.0
        a[2][1:3] += 4.0
        a[:, 3].sort()
    np.testing.assert_array_equal(np.asarray(got), ref)


def test_a_write_after_the_base_changed_keeps_the_base_change():
    ref = np.arange(6.0)
    got = xnp.arange(6.0)
    for a in (ref, got):
        view = a[1:4]
        a[2] = 100.0
        view[0] = -1.0
    np.testing.assert_array_equal(np.asarray(got), ref)


def test_ufunc_out_into_a_view():
    ref, got = np.ones((2, 3)), xnp.ones((2, 3))
    np.add(ref[1], 5, out=ref[1])
    xnp.add(got[1], 5, out=got[1])
    np.testing.assert_array_equal(np.asarray(got), ref)


def test_advanced_index_results_are_copies_as_in_numpy():
    ref, got = np.zeros((3, 3)), xnp.zeros((3, 3))
    for a in (ref, got):
        rows = a[[0, 2]]
        rows[0, 0] = 1.0
        masked = a[a == 0]
        masked[0] = 2.0
    np.testing.assert_array_equal(np.asarray(got), ref)


@pytest.mark.parametrize("transform", ["grad", "jit", "vmap"])
def test_view_writes_under_transformations(transform):
    def f(x):
        a = xnp.zeros((2, 3))
        row = a[1]
        row[1:] = x
        row *= 2.0
        return (a ** 2).sum()

    x = np.array([1.0, 2.0])
    if transform == "grad":
        np.testing.assert_allclose(xnp.grad(f)(x), 8 * x)
    elif transform == "jit":
        assert float(xnp.jit(f)(x)) == 20.0
    else:
        xs = np.arange(6.0).reshape(3, 2)
        np.testing.assert_allclose(xnp.vmap(f)(xs), [4 * (r ** 2).sum() for r in xs])


def test_a_failed_write_leaves_the_view_usable():
    a = xnp.zeros((3, 3))
    row = a[1]
    with pytest.raises(IndexError):
        row[5] = 1.0
    row[2] = 3.0
    np.testing.assert_array_equal(np.asarray(a)[1], [0.0, 0.0, 3.0])


def _structural_programs():
    """Each writes through a view NumPy returns from reshape, ravel, .T, transpose or
    view; returns the base as a list."""
    def reshape(m):
        a = m.zeros((2, 3))
        a.reshape(-1)[2] = 7.0
        a.reshape(3, 2)[1] *= 10.0
        return a.tolist()

    def ravel_and_transpose(m):
        a = m.arange(6.0).reshape(2, 3)
        a.ravel()[:2] = -1.0
        a.T[0, 1] = 5.0
        t = m.transpose(a)
        t += 1.0
        return a.tolist()

    def copies_stay_copies(m):
        a = m.arange(6.0).reshape(2, 3)
        a.T.reshape(-1)[0] = 99.0            # NumPy copies here: a is unchanged
        a.reshape(-1, order="F")[1] = 98.0
        return a.tolist()

    def dtype_views(m):
        a = m.arange(4.0)
        a.view(m.int64)[0] = 4607182418800017408     # the bits of 1.0
        a.view(m.uint8)[15] = 0
        a.view()[3] = -3.0
        b = m.arange(8, dtype=m.uint8)
        return a.tolist() + b.view(m.uint32).tolist() + \
            m.array([1 + 2j, 3 - 4j]).view(m.float64).tolist()

    return [reshape, ravel_and_transpose, copies_stay_copies, dtype_views]


@pytest.mark.parametrize("program", _structural_programs(), ids=lambda p: p.__name__)
def test_structural_views_write_through_as_numpy(program):
    assert program(xnp) == program(np)


def test_view_dtype_errors_as_numpy():
    with pytest.raises(ValueError, match="divisor"):
        xnp.arange(3, dtype=np.uint8).view(np.uint16)
    with pytest.raises(ValueError, match="0d"):
        xnp.asarray(np.float64(1.0)).view(np.uint8)


def test_axis_permutations_and_squeezes_write_through():
    # swapaxes, moveaxis, rollaxis, matrix_transpose, squeeze and expand_dims are views in
    # NumPy; writes through them reach the base, as NumPy's do.
    def writes(m):
        a = m.arange(6.0).reshape(2, 3)
        m.swapaxes(a, 0, 1)[0, 1] = 50
        m.moveaxis(a, 0, -1)[2, 0] = 70
        m.rollaxis(a, 1)[1, 1] = 60
        m.matrix_transpose(a)[1, 0] = 40
        m.squeeze(a[None])[1, 1] = 80
        m.expand_dims(a, 0)[0, 0, 0] = 90
        return a
    np.testing.assert_array_equal(np.asarray(writes(xnp)), writes(np))


VIEW_READ_CASES = {
    "slice, then base item": lambda m: (lambda h: (h[1:], h.__setitem__(1, 9)))(m.zeros(4)),
    ".T, then base item": lambda m: (lambda t: (t.T, t.__setitem__((0, 1), 9)))(
        m.zeros((2, 2))),
    "slice, then +=": lambda m: (lambda c: (c[:], c.__iadd__(1)))(m.zeros(3)),
    "slice, then out=": lambda m: (lambda c: (c[:], m.add(c, 1, out=c)))(m.zeros(3)),
    "column, then list": lambda m: (lambda t: (t[:, 0], t.__setitem__(
        (slice(None), 0), [1, 2, 3])))(m.zeros((3, 2))),
    "strided, then copyto": lambda m: (lambda s: (s[::2], m.copyto(s, m.arange(4.0))))(
        m.zeros(4)),
    "slice, then fill": lambda m: (lambda f: (f[1:], f.fill(7)))(m.zeros(3)),
    "ravel, then item": lambda m: (lambda a: (a.ravel(), a.__setitem__((1, 1), 3)))(
        m.zeros((2, 2))),
    "rows, then [...]": lambda m: (lambda b: (b[0], b.__setitem__(
        Ellipsis, m.arange(6.0).reshape(2, 3))))(m.zeros((2, 3))),
    "view of view": lambda m: (lambda a: (a[0][1:], a.__setitem__((0, 2), 50)))(
        m.arange(6.0).reshape(2, 3)),
}


@pytest.mark.parametrize("case", sorted(VIEW_READ_CASES))
def test_earlier_views_see_later_writes_to_the_base(case):
    # Eagerly, a base written in place shares its buffer with its views, as in NumPy.
    expected, _ = VIEW_READ_CASES[case](np)
    actual, _ = VIEW_READ_CASES[case](xnp)
    np.testing.assert_array_equal(np.asarray(actual), expected)


def test_long_chains_of_slices_write_through():
    # Each slice of a slice is recorded as one index of the array owning the memory, as
    # NumPy's ``base``: a chain thousands deep neither recurses nor slows each write.
    def run(m):
        d = m.arange(3000)
        x = d
        while x.size > 3:
            mid = x.size // 2
            x[mid], x[-2] = x[-2], x[mid]
            x = x[:-2]
        return np.asarray(d), x.base is d
    (want, want_base), (got, got_base) = run(np), run(xnp)
    np.testing.assert_array_equal(got, want)
    assert got_base and want_base


@pytest.mark.parametrize("outer, inner", [
    (slice(1, None), slice(None, None, 2)), (slice(None, None, -1), slice(1, -1)),
    (slice(None, None, 3), slice(None, None, -2)), ((Ellipsis, slice(1, 3)), (0, Ellipsis)),
    ((slice(1, 3), 2), (Ellipsis, -1)), (1, slice(1, None)), (1, (Ellipsis, 0)),
    ((slice(4, 0, -2), slice(None)), (slice(None), slice(3, None, -1))),
    ((slice(None), None), (0, slice(None))),          # new axes stay a chain
])
def test_views_of_views_read_and_write_as_numpy(outer, inner):
    def run(m):
        a = m.arange(30).reshape(5, 6)
        v = a[outer]
        w = v[inner]
        first = np.asarray(w).copy()
        w[...] = -1 - w
        return first, np.asarray(a), np.asarray(v)
    for got, want in zip(run(xnp), run(np)):
        np.testing.assert_array_equal(got, want)
    for m in (np, xnp):        # NumPy's base: the owner of the memory (a's own base)
        a = m.arange(30).reshape(5, 6)
        assert a[outer][inner].base is a.base


def test_keeping_many_rows_alive_stays_linear_and_writes_through():
    # ``[r for r in a]`` (as decision trees split data) keeps every row view alive; the
    # weak-reference list of the base's views grew by a full scan per row before (16,000
    # rows: 8 s, NumPy 1 ms), now dead references are dropped at doubling sizes.
    from xnp._views import _VIEWS
    base_np = np.arange(3000.0).reshape(1000, 3)
    a = xnp.asarray(base_np.copy())
    rows = [r for r in a]
    refs = _VIEWS[id(a)]
    assert len(refs) == 1000 and refs.limit >= 1000     # not rescanned at every row
    rows[700][1] = -1.0
    base_np[700, 1] = -1.0
    np.testing.assert_array_equal(a, base_np)
    del rows
    for _row in a:              # the dead references go at the next scans
        pass
    assert len(_VIEWS[id(a)]) <= 16
    a[5, 0] = 7.0
    base_np[5, 0] = 7.0
    np.testing.assert_array_equal(a, base_np)
    # rows of a 3-d array write through; rows of a read-only array are read-only
    c_np = np.arange(24.0).reshape(4, 3, 2)
    c = xnp.asarray(c_np.copy())
    for k, (r, r_np) in enumerate(zip(c, c_np)):
        r[k % 3] = -k
        r_np[k % 3] = -k
    np.testing.assert_array_equal(c, c_np)
    c.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        list(c)[3][0, 0] = 1.0


@pytest.mark.parametrize("make", [
    lambda m, a: a.reshape(3, 4).T,
    lambda m, a: m.reshape(a, (2, 6)).T.reshape(4, 3),
    lambda m, a: m.transpose(a.reshape(2, 2, 3)),
    lambda m, a: a.reshape((12,)).reshape(6, 2).T,
])
def test_reshape_and_T_of_a_fresh_array_write_through(make):
    # eager reshape/.T of C-contiguous arrays take a short path (no generic marking):
    # the views it makes must still write through both ways, as NumPy's
    for m in (np, xnp):
        a = m.arange(12.0)
        v = make(m, a)
        v[(1,) * v.ndim] = -5.0
        v += 1
        a[0] = 100.0
        if m is np:
            want = (a.copy(), v.copy())
        else:
            np.testing.assert_array_equal(a, want[0])
            np.testing.assert_array_equal(v, want[1])


def test_short_path_views_keep_read_only_and_the_registry_empties():
    import gc

    from xnp._views import _VIEWS
    a = xnp.arange(6.0)
    a.flags.writeable = False
    for v in (a.reshape(2, 3), a.reshape(3, 2).T, xnp.transpose(a.reshape(1, 6))):
        with pytest.raises(ValueError, match="read-only"):
            v[0, 0] = 1.0
    b = xnp.arange(6.0)
    key = id(b)
    t = b.reshape(2, 3).T
    assert key in _VIEWS
    del b, t
    gc.collect()
    assert key not in _VIEWS        # the base's death removes its list of views


def test_fortran_order_reshape_and_ravel_are_views_where_numpys_are():
    # order='F' reshapes and ravels of arrays laid out for it (1-d, Fortran-ordered) are
    # NumPy views that write through; of C-ordered 2-d arrays they are copies
    def program(m):
        a = m.arange(6)
        g = a.reshape((2, 3), order="F")
        g[0, 0] = 77
        g[:, 1] += 100
        b = m.arange(6).reshape(2, 3)
        b.reshape(3, 2, order="F")[0, 0] = -5       # a copy
        b.ravel("F")[0] = 1000                      # a copy
        c = m.asfortranarray(m.arange(6.0).reshape(2, 3))
        c.ravel("F")[1] = 9.5
        c.ravel("A")[2] = 8.5
        f = c.reshape(3, 2, order="F")
        c[0, 0] = -1.0                              # seen by the earlier view
        seen = f.tolist()
        f.fill(1.25)
        d = m.arange(4)
        d.ravel("F")[3] = 44
        x = m.zeros((1, 4))
        y = x.reshape(4, order="F")
        y += 2
        return [a.tolist(), b.tolist(), c.tolist(), seen, d.tolist(), x.tolist()]
    assert program(xnp) == program(np)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "ptp", "max", "min", "var", "std",
                                  "nansum", "nanmean"])
def test_reductions_into_a_row_of_the_input_write_through_to_earlier_views(name):
    # ``a.sum(axis=0, out=a[2])`` writes into ``a`` itself: a view taken before sees it
    results = []
    for lib in (np, xnp):
        a = lib.arange(1.0, 13.0).reshape(3, 4)
        view = a[1:]
        getattr(lib, name)(a, axis=0, out=a[2])
        results.append((np.asarray(a), np.asarray(view)))
    (want_a, want_view), (got_a, got_view) = results
    np.testing.assert_allclose(got_a, want_a, rtol=1e-15)
    np.testing.assert_allclose(got_view, want_view, rtol=1e-15)
    np.testing.assert_allclose(got_view, got_a[1:], rtol=0)
