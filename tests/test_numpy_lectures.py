"""Behaviour met running the Scientific Python Lectures' NumPy chapters (intro/numpy,
advanced/advanced_numpy) with ``import xnp as np``: views that write through, compared
with NumPy on the same inputs."""

import numpy
import pytest

import xnp

LIBS = (numpy, xnp)


def _both(fn):
    got = [repr(fn(m)) for m in LIBS]
    assert got[0] == got[1], got


def test_write_through_newaxis_view():
    # advanced_numpy, "Indexing scheme: strides": a[np.newaxis] is a view of a
    def run(m):
        a = m.eye(3)
        b = a[m.newaxis]
        b[0, 0, 1] = 5
        b += 1
        c = a[None]
        c[..., 0] = 7
        return a, b.base is a
    _both(run)


def test_set_shape_of_a_view():
    # operations.md, "Reshaping": setting .shape of a view keeps it a view of its base
    def run(m):
        a = m.arange(6)
        v = a.view()
        v.shape = (2, 3)
        v[0, 0] = 5
        v[1] += 10
        return a, v, v.base is a
    _both(run)


def test_set_shape_keeps_earlier_views():
    def run(m):
        a = m.arange(6)
        s = a[1:3]
        a.shape = (2, 3)
        s[0] = 9
        a[1, 2] = -1
        out = [a.copy(), s.copy(), s.base is a, a.base is None]
        b = m.arange(12)
        v = b[2:8]
        w = v[1:3]
        v.shape = (3, 2)
        w[0] = 100
        v[2, 1] = -5
        r = m.arange(6).reshape(2, 3)
        r.shape = (3, 2)
        r[0, 1] = 70
        return out + [b, v, w, r, r.base]
    _both(run)


@pytest.mark.parametrize("name,args", [
    ("split", (2,)), ("array_split", ([1, 3, 10],)), ("hsplit", (2,)), ("vsplit", (2,)),
    ("dsplit", (2,))])
def test_split_pieces_are_views(name, args):
    # advanced_numpy: the pieces of split & co. are views of their input
    def run(m):
        a = m.arange(16.).reshape(2, 2, 4) if name == "dsplit" else \
            m.arange(16).reshape(4, 4)
        pieces = getattr(m, name)(a, *args)
        pieces[0][...] = -1
        pieces[-1] += 100
        return a, [p.shape for p in pieces]
    _both(run)


def test_split_of_lists_and_shapes():
    for m in LIBS:
        assert repr(m.split(m.arange(6), [2, 1, 5])) == repr(
            numpy.split(numpy.arange(6), [2, 1, 5]))
        assert repr(m.array_split([1, 2, 3, 4, 5], 3)) == repr(
            numpy.array_split([1, 2, 3, 4, 5], 3))


def test_unstack_and_noop_squeeze_are_views():
    def run(m):
        a = m.arange(6).reshape(2, 3)
        u = m.unstack(a)
        u[1][0] = -4
        v = m.unstack(a, axis=1)
        v[2][0] = -5
        c = m.arange(3.)
        m.squeeze(c)[0] = 9
        c.squeeze()[1] = 8
        return a, [x.shape for x in v], c, m.unstack(m.zeros((3, 2, 1)), axis=-1)[0].shape
    _both(run)


def test_earlier_views_see_whole_array_writes():
    # a view taken before an in-place sort, @=, flat or fancy-index write of its base
    # sees the write, as NumPy's views share the base's memory
    def run(m):
        x = m.arange(5.)[::-1].copy()
        y = x[1:4]
        x.sort()
        out = [y.copy()]
        x[::-1].sort()
        out.append(y.copy())
        a = m.eye(2)
        r = a[0]
        a @= m.array([[1., 2], [3, 4]])
        out.append(r.copy())
        x = m.arange(5.)
        y = x[1:4]
        x.flat[2] = 100
        x[[0, 3]] = m.array([7., 8.])
        out.append(y.copy())
        b = m.arange(6.).reshape(2, 3)
        t = b.T
        b.flat[[0, 5]] = -1
        b[..., [1]] = m.zeros((2, 1))
        b[[1], [2]] = 5
        out.append(t.copy())
        c = m.arange(12.)[::-1].reshape(3, 4).copy()
        row, col = c[1], c[:, 0]
        c.sort(axis=0)
        return out + [row, col]
    _both(run)


def test_view_fixes_under_transformations():
    # each write goes through the view last written (under tracing an earlier view of a
    # rebound base keeps its old elements: see README)
    def set_shape(x):
        x = x * 1.0
        v = x.reshape(-1)
        v.shape = (2, 2)
        v[0, 0] = 10.
        return (x ** 2).sum()

    def split(x):
        x = x * 1.0
        first = xnp.split(x, 2)[0]
        first *= 3
        return (x ** 2).sum()

    def unstack_squeeze(x):
        x = x * 1.0
        u = xnp.unstack(x.reshape(2, 2))[1]
        u[0] = 5.
        s = xnp.squeeze(x)
        s[1] = -1.
        return (x ** 2).sum()

    x = xnp.arange(4.)
    for f in (set_shape, split, unstack_squeeze):
        want = f(x)
        assert float(xnp.jit(f)(x)) == float(want), f.__name__
        assert xnp.vmap(f)(xnp.stack([x, x])).tolist() == [float(want)] * 2
        g = numpy.asarray(xnp.grad(f)(x))
        eye = xnp.eye(4)
        num = [(f(x + 1e-6 * eye[i]) - f(x - 1e-6 * eye[i])) / 2e-6 for i in range(4)]
        assert numpy.allclose(g, num, atol=1e-4), (f.__name__, g, num)


def test_put_functions_keep_earlier_views():
    def run(m):
        x = m.arange(10.)
        y = x[2:8]
        x.put([2, 3], 0)
        m.place(x, x > 6, -9)
        m.putmask(x, x == 4, 44)
        z = m.arange(9.).reshape(3, 3)
        col = z[:, 1]
        m.put_along_axis(z, m.array([[0], [1], [2]]), -1, axis=1)
        return y, col
    _both(run)


def test_ravel_copies_what_is_not_contiguous():
    # operations.md, "Flattening": ravel is a view only of a contiguous array
    def run(m):
        sums = []
        for key in ((slice(None), 1), slice(None, None, 2), 1, slice(None, 1),
                    (slice(None), slice(None, 1)), (1, slice(None, None, 2)), Ellipsis):
            b = m.arange(12).reshape(3, 4)
            r = b[key].ravel()
            r[0] = -7
            r2 = m.ravel(b[key])
            r2[-1] = -8
            sums.append(int(b.sum()))
        return sums
    _both(run)


def test_cumulative_into_its_input_keeps_views():
    def run(m):
        x = m.arange(6.)
        y = x[1:4]
        m.cumsum(x, out=x)
        x.cumsum(out=x)
        z = m.arange(1., 7.)
        w = z[:3]
        m.cumprod(z, out=z)
        z.cumprod(out=z)
        return y, w, m.cumsum(m.arange(4), dtype=m.float32), m.cumprod([[1, 2], [3, 4]], axis=1)
    _both(run)


def test_real_and_imag_functions_are_views():
    # np.real(c) / np.imag(c) are c.real / c.imag: views that write into c; of a real
    # array, np.real is the array itself and np.imag read-only zeros
    def run(m):
        a = m.arange(3.)
        c = a + 1j
        m.real(c)[0] = 9
        m.imag(c)[1] = 7
        ra = m.real(a)
        ra[2] = -1
        try:
            m.imag(a)[0] = 1
            ro = False
        except ValueError:
            ro = True
        return c, a, ra is a, a.real is a, ro, m.imag(a), m.imag([1, 2]), \
            m.real(m.array(1 + 1j)), m.imag(m.arange(3)).dtype
    _both(run)


def test_unstack_of_1d_gives_scalars():
    _both(lambda m: (m.unstack(m.arange(3)), m.unstack(m.zeros((0, 2))),
                     m.unstack(m.arange(4).reshape(2, 2), axis=-1)))


def test_resize_refuses_views_and_arrays_with_views():
    # operations.md, "Resizing": a view cannot be resized (it does not own its data),
    # nor, with refcheck, an array that a live view refers to; same-size resizes and
    # refcheck=False pass
    def attempt(fn):
        try:
            return repr(fn())
        except ValueError:
            return "ValueError"

    def run(m):
        def view_of_base():
            a = m.arange(6)
            a[1:].resize(3)
            return a

        def base_with_view(refcheck):
            a = m.arange(6)
            v = a[1:]
            a.resize(8, refcheck=refcheck)
            return a, v.shape

        def rows_after_loop(drop):
            a = m.zeros((2, 3))
            for r in a:
                r += 1
            if drop:
                del r
            a.resize(8)
            return a

        def same_size():
            a = m.arange(6)
            v = a[1:]
            a.resize((3, 2))
            return a, v.shape
        return [attempt(f) for f in (
            view_of_base, lambda: base_with_view(True), lambda: base_with_view(False),
            lambda: rows_after_loop(False), lambda: rows_after_loop(True), same_size,
            lambda: m.arange(6.).reshape(2, 3).T.resize(2))]
    _both(run)
