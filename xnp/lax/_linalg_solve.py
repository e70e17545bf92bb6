"""The ``solve`` primitive: ``op(A)^-1 B`` for square ``A``, with all its rules.

Eagerly it is numpy.linalg.solve (LAPACK's gesv: one call, LinAlgError for a singular
``A``), which the composition of ``lu`` and two triangular solves cannot match in speed
when ``lu`` runs in NumPy. Operands share their leading (batch) dimensions and dtype
(xnp.linalg broadcasts and converts them first); ``op`` is the transpose when
``transpose_a``. The derivative is ``dX = op(A)^-1 (dB - op(dA) X)``: linear in ``B``, whose
transpose solves with ``op(A)^T``. Compiled, it is lowered as ``lu`` followed by two
triangular solves (singular inputs then give non-finite values, as in JAX).
"""

from __future__ import annotations

import numpy as np

from transforms.ad import Zero, is_undefined
from transforms.core import get_aval
from transforms.lowering import lower_composite
from xnp.lax._base import primitive
from xnp.lax._elementwise import mul_p, sub_p
from xnp.lax._linalg import _batch_leading, lu_solve, mm, mT

__all__ = ["solve_p"]


def _solve_eval(a, b, *, transpose_a: bool):
    return b.update(weak_type=False)


def _solve_impl(a, b, *, transpose_a: bool):
    a = np.asarray(a)
    return np.linalg.solve(np.swapaxes(a, -1, -2) if transpose_a else a, b)


solve_p = primitive("solve", impl=_solve_impl, abstract_eval=_solve_eval)


def _solve_jvp(primals, tangents, *, transpose_a):
    (a, b), (ta, tb) = primals, tangents
    x = solve_p.bind(a, b, transpose_a=transpose_a)
    if type(ta) is Zero and type(tb) is Zero:
        return x, Zero(get_aval(x))
    rhs = None if type(tb) is Zero else tb
    if type(ta) is not Zero:
        prod = mm(mT(ta) if transpose_a else ta, x)
        rhs = mul_p.bind(prod, -1) if rhs is None else sub_p.bind(rhs, prod)
    return x, solve_p.bind(a, rhs, transpose_a=transpose_a)


def _solve_transpose(ct, a, b, *, transpose_a):
    if is_undefined(a):
        raise TypeError("solve is linear in its right-hand side only")
    if type(ct) is Zero:
        return [None, None]
    # <ct, op(A)^-1 db> = <op(A)^-T ct, db>: the bilinear pairing, so no conjugation.
    return [None, solve_p.bind(a, ct, transpose_a=not transpose_a)]


def _solve_via_lu(a, b, *, transpose_a):
    return lu_solve(mT(a) if transpose_a else a, b)


solve_p.jvp = _solve_jvp
solve_p.transpose = _solve_transpose
solve_p.lower = lower_composite(_solve_via_lu)
_batch_leading(solve_p)
