"""xnp.emath against numpy.emath: complex exactly where NumPy goes complex, NumPy's
dtypes and values; traced real input raises with the fix."""

import numpy as np
import pytest

import xnp
from transforms.core import ConcretizationTypeError


@pytest.mark.parametrize("name,args", [
    ("sqrt", (-1,)), ("sqrt", ([1, -4],)), ("sqrt", (np.array([4.0, 9.0], np.float32),)),
    ("sqrt", (np.array([-4.0], np.float32),)), ("sqrt", (np.array([-1, 4], np.int16),)),
    ("sqrt", ([1 + 1j, -1],)), ("log", ([-1.0, np.e],)), ("log10", (-10,)),
    ("log2", ([-8, 8],)), ("logn", (2, [4, 8])), ("logn", (-2, 4)), ("power", ([2, 4], -1)),
    ("power", (-8, 1 / 3)), ("power", ([2, -2], 2)), ("arccos", ([0.5, 2],)),
    ("arcsin", (2,)), ("arctanh", ([0.5],)), ("arctanh", (np.array([2.0]),)),
])
def test_matches_numpy(name, args):
    want = getattr(np.emath, name)(*args)
    got = getattr(xnp.emath, name)(*args)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_traced_real_input_needs_complex():
    with pytest.raises(ConcretizationTypeError, match="complex input"):
        xnp.jit(xnp.emath.sqrt)(np.array([1.0, 4.0]))
    np.testing.assert_allclose(xnp.jit(xnp.emath.sqrt)(np.array([-1.0 + 0j])), [1j])
    assert xnp.lib.scimath.sqrt is xnp.emath.sqrt
