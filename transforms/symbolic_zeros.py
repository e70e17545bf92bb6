"""Symbolic zeros as custom derivative rules see them (``symbolic_zeros=True``).

With ``custom_jvp.defjvp(rule, symbolic_zeros=True)`` the rule receives a
:class:`SymbolicZero` in place of each tangent that is known to be zero (an input that
is not being differentiated), and with ``custom_vjp.defvjp(fwd, bwd,
symbolic_zeros=True)`` ``fwd`` receives each differentiable argument leaf as a
:class:`CustomVJPPrimal` (``value``, ``perturbed``) and ``bwd`` a :class:`SymbolicZero`
for each output cotangent known to be zero. Rules may return a :class:`SymbolicZero` (or
``None``) for a zero tangent or cotangent, whatever the option.

Internally zeros are :class:`transforms.ad.Zero`; the conversions are here.
"""

from __future__ import annotations

from typing import Any

from transforms import core
from transforms.ad import Zero, instantiate, tangent_aval, zeros_like_aval
from transforms.core import get_aval
from transforms.tree import tree_map

__all__ = ["SymbolicZero", "CustomVJPPrimal", "zero_from_primal",
           "custom_vjp_primal_tree_values"]


class SymbolicZero:
    """A zero tangent or cotangent known without computing it.

    Parameters
    ----------
    aval : ShapedArray
        The abstract value (shape and dtype) of the zero it stands for; ``shape``,
        ``dtype``, ``ndim`` and ``size`` read through to it.

    Notes
    -----
    It is not an array: a rule must test for it (``type(t) is SymbolicZero``) before
    computing with a tangent.
    """

    __slots__ = ("aval",)

    def __init__(self, aval):
        self.aval = aval

    def __getattr__(self, name):
        if name in ("shape", "dtype", "ndim", "size", "weak_type"):
            return getattr(self.aval, name)
        raise AttributeError(f"SymbolicZero has no attribute {name!r}")

    def __repr__(self):
        return f"SymbolicZero({self.aval.str_short()})"

    @staticmethod
    def from_primal_value(x) -> SymbolicZero:
        """The symbolic zero tangent of the primal value ``x``."""
        return SymbolicZero(tangent_aval(get_aval(core.unwrap(x))))


class CustomVJPPrimal:
    """An argument leaf of a ``custom_vjp`` ``fwd`` rule defined with
    ``symbolic_zeros=True``.

    Attributes
    ----------
    value : array
        The primal value.
    perturbed : bool
        Whether the value is being differentiated (False: its cotangent is discarded
        and its Jacobian column is zero).
    """

    __slots__ = ("value", "perturbed")

    def __init__(self, value, perturbed: bool):
        self.value, self.perturbed = value, perturbed

    def __repr__(self):
        return f"CustomVJPPrimal(value={self.value!r}, perturbed={self.perturbed})"


def zero_from_primal(val: Any, symbolic_zeros: bool = False):
    """Zero tangents for the pytree of primal values ``val``.

    Parameters
    ----------
    val : pytree
        Primal values.
    symbolic_zeros : bool, optional
        Return :class:`SymbolicZero` leaves instead of arrays of zeros.

    Returns
    -------
    pytree
        The same structure, each leaf the zero tangent of its primal (``float0`` zeros
        for integer and boolean leaves).
    """
    def one(x):
        aval = tangent_aval(get_aval(core.unwrap(x)))
        return SymbolicZero(aval) if symbolic_zeros else core.wrap(zeros_like_aval(aval))
    return tree_map(one, val)


def custom_vjp_primal_tree_values(tree: Any):
    """The values of a pytree whose leaves are :class:`CustomVJPPrimal` (what a
    ``symbolic_zeros`` ``fwd`` rule receives), with the wrappers removed.

    Raises
    ------
    TypeError
        When a leaf is not a :class:`CustomVJPPrimal`.
    """
    def value(leaf):
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"expected CustomVJPPrimal leaves, got {type(leaf).__name__}")
        return leaf.value
    return tree_map(value, tree)


def to_rule(t, symbolic: bool):
    """An internal tangent as a rule receives it: a :class:`SymbolicZero` for a zero
    when ``symbolic``, else an array (zeros materialised)."""
    if type(t) is Zero:
        return SymbolicZero(t.aval) if symbolic else core.wrap(instantiate(t))
    return core.wrap(t)


def from_rule(t, aval=None):
    """A tangent a rule returned, as an internal value: ``SymbolicZero``, ``None`` (when
    ``aval``, the tangent's aval, is given) and ``Zero`` become ``Zero``."""
    if type(t) is SymbolicZero:
        return Zero(t.aval)
    if t is None and aval is not None:
        return Zero(aval)
    return core.unwrap(t)
