"""Behaviour shown in NumPy's user guide and reference pages (quickstart, indexing, ufuncs,
strings, masked arrays, polynomials, array classes), compared with NumPy on the same
inputs."""

import pickle

import numpy
import pytest

import xnp

LIBS = (numpy, xnp)


def _outcome(fn):
    try:
        return repr(fn())
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def test_view_does_not_own_its_data():
    # quickstart, "View or shallow copy": c = a.view(); c.flags.owndata is False
    for m in LIBS:
        a = m.arange(12)
        assert a.flags.owndata and a.flags["OWNDATA"]
        for v in (a.view(), a[1:], a.T, a.reshape(3, 4), a[...]):
            assert not v.flags.owndata, (m.__name__, v)
            assert not v.flags["O"]
            assert "OWNDATA : False" in repr(v.flags)
        assert a.copy().flags.owndata


def test_index_with_range():
    # quickstart, "Indexing with arrays of indices": data[ind, range(data.shape[1])]
    got = []
    for m in LIBS:
        d = m.sin(m.arange(20.0)).reshape(5, 4)
        ind = d.argmax(axis=0)
        r = [d[ind, range(d.shape[1])], d[range(2)], d[:, range(0)]]
        d[range(1, 3)] = -1.0
        d[ind, range(4)] += 10.0
        got.append([repr(x) for x in r] + [repr(d)])
    assert got[0] == got[1]


@pytest.mark.parametrize("name,method", [
    (n, m) for n in ("divmod", "sin", "modf")
    for m in ("reduce", "accumulate", "reduceat", "outer") if (n, m) != ("divmod", "outer")])
def test_ufunc_method_arity_errors(name, method):
    # basics.ufuncs: np.divmod.reduce([1, 2, 3]) raises "... functions returning a single
    # value"; unary ufuncs are refused as not binary (divmod.outer is allowed)
    extra = {"reduceat": ([0],), "outer": ([1],)}.get(method, ())
    errors = []
    for m in LIBS:
        with pytest.raises(ValueError) as info:
            getattr(getattr(m, name), method)([1, 2, 3], *extra)
        errors.append(str(info.value))
    np_msg, x_msg = errors
    assert x_msg.endswith(np_msg), (np_msg, x_msg)


def test_divmod_outer():
    want = numpy.divmod.outer([1, 2], [3])
    got = xnp.divmod.outer([1, 2], [3])
    assert [repr(g) for g in got] == [repr(w) for w in want]


def test_view_as_masked_array():
    # maskedarray.generic: x.view(ma.MaskedArray) gives an unmasked masked array of x
    outs = []
    for m in LIBS:
        x = m.array([1, 2, 3])
        v = x.view(m.ma.MaskedArray)
        r = [repr(v), repr(x.view(m.int32, m.ma.MaskedArray)),
             repr(x.view(dtype=m.ma.MaskedArray))]
        v[0] = 7
        v[1] = m.ma.masked
        outs.append(r + [repr(x), repr(v)])
    assert outs[0] == outs[1]


def test_numpy_own_submodules_import():
    # routines.version, basics.strings, basics.performant_code
    assert xnp.version.short_version == numpy.version.short_version
    assert xnp.version.version == xnp.__version__
    from xnp.dtypes import StringDType
    from xnp.exceptions import AxisError
    from xnp.typing import NDArray
    assert StringDType is numpy.dtypes.StringDType
    assert AxisError is numpy.exceptions.AxisError
    assert NDArray is numpy.typing.NDArray


def test_string_dtype_missing_values_and_coercion():
    # basics.strings: StringDType(na_object=...) keeps None / nan as missing values
    sdt = numpy.dtypes.StringDType
    cases = [
        lambda m: m.array(["this array has", None, "as an entry"], dtype=sdt(na_object=None)),
        lambda m: m.array(["this array has", None, "x"], dtype=sdt(na_object=None))[1],
        lambda m: m.array(["hello", m.nan, "world"], dtype=sdt(na_object=m.nan)) * 2,
        lambda m: m.sort(m.array(["hello", m.nan, "world"], dtype=sdt(na_object=m.nan))),
        lambda m: m.array([1, 3.4], dtype=sdt()),
        lambda m: m.array([1, object(), 3.4], dtype=sdt(coerce=False)),
    ]
    for case in cases:
        assert _outcome(lambda: case(xnp)) == _outcome(lambda: case(numpy))


def test_polynomial_equality_is_numpy_bool():
    # routines.polynomials: p1 == p2 with different domains is np.False_
    for args in (([1, 2, 3], [-2, 2]), ([1, 2, 4], None), ([1, 2, 3], None), ([1, 2], None)):
        got = []
        for m in LIBS:
            p1 = m.polynomial.Polynomial([1, 2, 3])
            p2 = m.polynomial.Polynomial(args[0], domain=args[1])
            got.append((repr(p1 == p2), repr(p1.has_samedomain(p2)),
                        repr(p1.has_samecoef(p2)), repr(p1 != p2)))
        assert got[0] == got[1]


def test_ndarray_type_repr():
    # quickstart: type(a) prints <class 'numpy.ndarray'>; xnp's class names its package
    a = xnp.arange(3)
    assert repr(type(a)) == "<class 'xnp.ndarray'>"
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is xnp.ndarray and repr(b) == repr(a)


def test_testing_overrides_count_xnp_ufuncs():
    # basics.dispatch: allows_array_ufunc_override(np.add) is True
    from xnp.testing.overrides import allows_array_function_override, allows_array_ufunc_override
    assert allows_array_ufunc_override(xnp.add)
    assert allows_array_ufunc_override(numpy.add)
    assert not allows_array_ufunc_override(xnp.sum)
    assert allows_array_function_override(numpy.mean)
    assert allows_array_function_override(xnp.mean)         # NEP 18, as numpy.mean
    assert allows_array_function_override(xnp.linalg.norm)
    assert not allows_array_function_override(xnp.add)
    assert not allows_array_function_override(xnp.asarray)


def test_array_method_returning_xnp_array():
    # arrays.classes: a class whose __array__ is written with ``import xnp as np``
    def make(m):
        class DiagonalArray:
            def __init__(self, n, value):
                self._n, self._i = n, value

            def __array__(self, dtype=None, copy=None):
                return self._i * m.eye(self._n, dtype=dtype)
        return DiagonalArray(3, 2)

    for fn in (lambda m, a: m.asarray(a), lambda m, a: m.asarray(a, dtype=m.float32),
               lambda m, a: m.multiply(a, 2), lambda m, a: m.array(a) + 1):
        assert repr(fn(xnp, make(xnp))) == repr(fn(numpy, make(numpy)))


def test_ufunc_on_masked_array_warns_as_numpy():
    # maskedarray.generic: np.log(x) of a masked array computes on the data, so NumPy's
    # RuntimeWarnings appear; numpy.ma's functions and operators stay silent
    import warnings

    def warned(m, fn):
        x = m.ma.array([-1.0, 1.0, 0.0, 2.0, 3.0], mask=[0, 0, 0, 0, 1])
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            r = fn(m, x)
        return repr(r), sorted(str(w.message) for w in got)

    for fn in (lambda m, x: m.log(x), lambda m, x: m.sqrt(x), lambda m, x: m.divide(x, 0),
               lambda m, x: m.ma.log(x), lambda m, x: x / 0, lambda m, x: m.ma.sqrt(x)):
        assert warned(xnp, fn) == warned(numpy, fn)


@pytest.mark.parametrize("args,kwargs", [
    ((2,), {"dtype": str}), ((2,), {"dtype": "S"}), ((3,), {"dtype": "V8"}),
    ((2,), {"dtype": numpy.dtypes.StringDType()}), ((numpy.str_("a"),), {}),
    ((numpy.bytes_(b"a"),), {})])
def test_arange_of_string_dtypes_raises_as_numpy(args, kwargs):
    # NumPy 2.4 release notes: np.arange(2, dtype=str) raises TypeError naming the DType
    assert _outcome(lambda: xnp.arange(*args, **kwargs)) == \
        _outcome(lambda: numpy.arange(*args, **kwargs))


def _diagonal_array_class(m):
    """basics.dispatch: a duck array that implements np.sum and np.mean only."""
    handled = {}

    class DiagonalArray:
        def __init__(self, n, value):
            self._n, self._i = n, value

        def __array__(self, dtype=None, copy=None):
            return self._i * numpy.eye(self._n, dtype=dtype)

        def __array_function__(self, func, types, args, kwargs):
            self.seen = (func, types)
            if func not in handled or not all(issubclass(t, DiagonalArray) for t in types):
                return NotImplemented
            return handled[func](*args, **kwargs)

    handled[m.sum] = lambda a: a._i * a._n
    handled[m.mean] = lambda a: a._i / a._n
    handled[m.linalg.norm] = lambda a: abs(a._i) * a._n ** 0.5
    return DiagonalArray


@pytest.mark.parametrize("call", [
    lambda m, d: m.sum(d), lambda m, d: m.mean(d), lambda m, d: m.linalg.norm(d),
    lambda m, d: m.concatenate([d, d]), lambda m, d: m.sum(d, axis=0),
    lambda m, d: m.concatenate([m.ones((5, 5)), d]), lambda m, d: m.where(True, d, 0),
    lambda m, d: m.fft.fft(d), lambda m, d: m.concatenate([m.asarray(d)] * 2),
    lambda m, d: m.sum([1.0, 2.0]), lambda m, d: m.stack([m.ones(2), (1, 2)])])
def test_array_function_protocol(call):
    # basics.dispatch: np.sum(arr) calls arr.__array_function__ (NEP 18); functions it
    # does not handle raise TypeError; np.asarray(arr) converts it through __array__
    got = [_outcome(lambda: call(m, _diagonal_array_class(m)(5, 1))).split(":")[0]
           for m in LIBS]
    assert got[0] == got[1]


def test_array_function_receives_public_function_and_types():
    # NEP 18: func is the public function (its _implementation the undispatched one);
    # types lists the argument types that implement the protocol, arrays included
    for m in LIBS:
        d = _diagonal_array_class(m)(3, 2)
        a = m.ones((3, 3))
        with pytest.raises(TypeError, match="no implementation found"):
            m.concatenate([a, d])
        func, types = d.seen
        assert func is m.concatenate and set(types) == {type(a), type(d)}
        assert m.sum._implementation(m.ones(2)) == 2.0


def test_iterator_and_helper_classes_print_as_numpy():
    # arrays.nditer: ``it`` prints as <numpy.nditer object at ...>; type() of these helpers
    # names the top-level module, as NumPy's do
    for name in ("nditer", "broadcast", "flatiter", "poly1d", "vectorize"):
        assert repr(getattr(xnp, name)) == repr(getattr(numpy, name)).replace("numpy", "xnp")
    assert repr(xnp.nditer(xnp.ones(2))).startswith("<xnp.nditer object at ")
    assert repr(xnp.ones(2).flat).startswith("<xnp.flatiter object at ")
    assert repr(xnp.__array_namespace_info__()).startswith(
        "<xnp.__array_namespace_info__ object at ")


@pytest.mark.parametrize("call", [
    lambda m: m.polyder(m.poly1d([1, 1, 1, 1])), lambda m: m.polyder(m.poly1d([1, 1, 1]), 3),
    lambda m: m.polyder(m.poly1d([1, 2, 3]))(2.0), lambda m: m.polyint(m.poly1d([1, 1, 1])),
    lambda m: m.polyint(m.poly1d([1, 1, 1]), 3, k=[6, 5, 3]),
    lambda m: m.polyder(m.polyint(m.poly1d([1, 1, 1]))) == m.poly1d([1, 1, 1]),
    lambda m: m.polyval([3, 0, 1], m.poly1d(5)), lambda m: m.polyval(m.poly1d([3, 0, 1]), 2.0),
    lambda m: m.polyval(m.poly1d([1, 2]), m.poly1d([1, 0, 3])),
    lambda m: str(m.polyadd(m.poly1d([1, 2]), m.poly1d([9, 5, 4]))),
    lambda m: m.polysub([1, 1, 1], m.poly1d([1, 2])), lambda m: m.polyadd([1, 2], [3]),
    lambda m: str(m.polymul(m.poly1d([1, 2, 3]), m.poly1d([9, 5, 1]))),
    lambda m: m.polymul([0, 1, 2], m.poly1d([1, 2])), lambda m: m.poly1d([1, 2]) != [1, 2]])
def test_legacy_polynomial_functions_keep_poly1d(call):
    # routines.polynomials.poly1d: polyder/polyint/polyadd/polysub/polymul return a poly1d
    # when given one; polyval of a poly1d x composes; poly1d == gives np.True_
    assert _outcome(lambda: call(xnp)) == _outcome(lambda: call(numpy))


def test_flips_and_rot90_are_views():
    # fill_diagonal's docstring: np.fill_diagonal(np.fliplr(a), [1, 2, 3]) writes the
    # anti-diagonal of a; flip, flipud and rot90 are views too
    got = []
    for m in LIBS:
        out = []
        for make in (lambda a: m.fliplr(a), lambda a: m.flipud(a), lambda a: m.flip(a),
                     lambda a: m.flip(a, 1), lambda a: m.flip(a, ()),
                     *(lambda a, k=k: m.rot90(a, k) for k in range(4))):
            a = m.zeros((3, 3), int)
            v = make(a)
            m.fill_diagonal(v, [1, 2, 3])
            v[0, 1] += 7
            out.append((repr(v), repr(a)))
        got.append(out)
    assert got[0] == got[1]
    g = xnp.grad(lambda x: (xnp.rot90(xnp.fliplr(x)) * xnp.arange(6.0).reshape(3, 2)).sum())
    assert g(xnp.ones((2, 3))).tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]  # it is x.T


def test_bufsize_and_arrayterator():
    # routines.other: setbufsize inside errstate is undone on exit; routines.lib:
    # Arrayterator yields sub-arrays of at most buf_size elements
    for m in LIBS:
        with m.errstate():
            assert m.setbufsize(4096) == 8192 and m.getbufsize() == 4096
        assert m.getbufsize() == 8192
    got = []
    for m in LIBS:
        it = m.lib.Arrayterator(m.arange(3 * 4 * 5 * 6).reshape(3, 4, 5, 6), 2)
        got.append([it.shape, [repr(s) for s in it if not s.all()], it[0].shape])
        assert all(type(s) is m.ndarray for s in it)
    assert got[0] == got[1]


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk,kl->il", [(2, 2)] * 3),
    ("ea,fb,abcd,gc,hd->efgh", [(4, 4)] * 2 + [(4,) * 4] + [(4, 4)] * 2),
    ("ij,jk", [(3, 4), (4, 5)]), ("ij->", [(3, 4)]), ("ii->i", [(3, 3)]),
    ("ij,jk,kl,lm->im", [(5, 2), (2, 30), (30, 3), (3, 40)]),
    ("abc,bcd,cde,def->af", [(2, 3, 4), (3, 4, 5), (4, 5, 6), (5, 6, 7)])])
@pytest.mark.parametrize("optimize", ["greedy", "optimal"])
def test_einsum_path_report_is_numpys(subscripts, shapes, optimize):
    # routines.linalg, einsum_path: print(path_info[1]) shows NumPy's report (its FLOP
    # counts, intermediate labels ordered by size, 74-column layout)
    got = [m.einsum_path(subscripts, *[m.ones(s) for s in shapes], optimize=optimize)
           for m in LIBS]
    assert got[0][0] == got[1][0]
    assert got[0][1] == got[1][1]


@pytest.mark.parametrize("make", [
    lambda m: m.arange(12).reshape(2, 3, 2).swapaxes(1, 2),
    lambda m: m.arange(12).reshape(3, 4)[::-1, ::2],
    lambda m: m.arange(24).reshape(2, 3, 4).transpose(2, 0, 1)[:, ::-1],
    lambda m: m.arange(24).reshape(2, 3, 4).transpose(2, 1, 0)[::2],
    lambda m: m.arange(60).reshape(3, 4, 5).transpose(1, 0, 2)[:, 1:, ::2],
    lambda m: m.asfortranarray(m.arange(12).reshape(3, 4))[:, 1:]])
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
def test_ravel_and_flatten_follow_strides(make, order):
    # ravel's docstring: a.ravel(order='K') of a swapped array reads it in memory order;
    # flatten('A') reads a strided array that is not Fortran-ordered in C order
    got = [(repr(make(m).ravel(order)), repr(make(m).flatten(order))) for m in LIBS]
    assert got[0] == got[1]


def test_extended_precision_names():
    # arrays.scalars: float128/complex256 are the platform's aliases of longdouble
    for name in ("float96", "float128", "complex192", "complex256"):
        assert hasattr(xnp, name) == hasattr(numpy, name)
        if hasattr(numpy, name):
            assert getattr(xnp, name) is getattr(numpy, name)
            assert xnp.zeros(2, getattr(xnp, name)).dtype == getattr(numpy, name)


@pytest.mark.parametrize("expr", [
    "linalg.lstsq(a, b)", "type(linalg.lstsq(a, b[:, 0]))", "a[np.ix_([1, 3, 4], [0, 2])]",
    "a[np.r_[:len(a),0]]", "np.r_[1:10:10j]", "np.meshgrid(np.r_[0:9.], np.r_[0:6.])",
    "a[:,np.nonzero(v > 0.5)[0]]", "np.linalg.matrix_rank(a)", "np.block([[a, b], [a, b]])"])
def test_numpy_for_matlab_users_table(expr):
    # numpy-for-matlab-users: the NumPy column of the equivalents table; lstsq gives
    # NumPy's plain tuple (x, residuals, rank, s)
    def run(m):
        a0 = numpy.arange(1.0, 37.0).reshape(6, 6) / 40 + numpy.eye(6)
        ns = {"np": m, "linalg": m.linalg, "a": m.asarray(a0), "b": m.asarray(a0.T + 0.5),
              "v": m.asarray(numpy.linspace(0, 1, 6))}
        return eval(expr, ns)
    assert _outcome(lambda: run(xnp)).replace("xnp", "numpy") == _outcome(lambda: run(numpy))
