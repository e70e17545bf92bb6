"""jit's argument specifications: ``static_argnums``/``donate_argnums`` checked against
the function's signature, and static positions and names completed from each other."""

from __future__ import annotations

import inspect


def _infer_static(fun, nums: tuple, names: tuple) -> tuple[tuple, tuple, dict]:
    """``static_argnums`` and ``static_argnames`` completed from each other through
    ``fun``'s signature, and the names of the static positions that may come by name."""
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return nums, names, {}
    pos = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    nums = tuple(sorted(set(nums) | {pos.index(n) for n in names if n in pos}))
    by_name = {i: params[i].name for i in nums if i < len(pos)
               and params[i].kind is params[i].POSITIONAL_OR_KEYWORD}
    return nums, names + tuple(n for n in by_name.values() if n not in names), by_name


def _normalize_argnums(fun, argnums, what) -> tuple:
    if argnums is None:
        return ()
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"jit: {what} must be ints, got {n!r}")
    try:
        params = inspect.signature(fun).parameters.values()
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
        varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
    except (TypeError, ValueError):
        return tuple(sorted(nums))
    out = []
    for n in nums:
        if n < 0:
            n += len(positional)
        if n < 0 or (n >= len(positional) and not varargs):
            name = getattr(fun, "__name__", fun)
            raise ValueError(f"jit: {what} {n} is out of range for {name} with "
                             f"{len(positional)} positional parameters")
        out.append(n)
    return tuple(sorted(out))
