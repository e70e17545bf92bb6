"""Values known while staging: an equation whose inputs are all constants (or results of
such equations) has a value at trace time, computed on demand.

Under ``jit`` every primitive is staged, also one applied to constants only, so NumPy
code such as ``n = int(np.prod(x.shape))`` or ``int(np.ceil(len(x) / 2))`` would meet a
tracer where NumPy gives a number. The staging trace records such an equation as usual
(the jaxpr is unchanged) and gives its output tracers a :class:`KnownEquation`; when
Python code asks for a concrete value (``int``, ``bool``, ``if``, a shape argument), the
equation runs eagerly on the known inputs, once. Nothing is computed unless asked for.
"""

from __future__ import annotations

import warnings

import numpy as np

from transforms.core import Tracer

_UNSET = object()


class KnownEquation:
    """``prim.bind(*args, **params)`` whose tracer arguments all have known values."""

    __slots__ = ("prim", "args", "params", "_outs")

    def __init__(self, prim, args, params):
        self.prim, self.args, self.params = prim, args, params
        self._outs = _UNSET

    def outputs(self):
        """The equation's outputs as a list, or None where they cannot be computed."""
        if self._outs is _UNSET:
            _evaluate(self)
        return self._outs


def _evaluate(root: KnownEquation) -> None:
    """Compute ``root``'s outputs and those of the known equations it depends on, with an
    explicit stack (long chains of staged constants would exceed Python's recursion)."""
    stack = [root]
    while stack:
        eqn = stack[-1]
        if eqn._outs is not _UNSET:
            stack.pop()
            continue
        pending = [x.known[0] for x in eqn.args if isinstance(x, Tracer)
                   and x.known[0]._outs is _UNSET]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        eqn._outs = _run(eqn)


def _run(eqn: KnownEquation):
    args = []
    for x in eqn.args:
        if isinstance(x, Tracer):
            outs = x.known[0]._outs
            if outs is None:
                return None
            x = outs[x.known[1]]
        args.append(x)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eqn.prim.impl(*args, **eqn.params)
    except Exception:  # noqa: BLE001 - the value stays unknown; the caller's error stands
        return None
    return list(out) if eqn.prim.multiple_results else [out]
