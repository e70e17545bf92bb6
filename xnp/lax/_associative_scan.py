"""``associative_scan``: inclusive prefix combination with an associative function, by
the parallel (odd/even) recursion, in O(log n) rounds of slicing and concatenation."""

from __future__ import annotations

from typing import Any, Callable

from transforms.tree import tree_flatten, tree_unflatten

__all__ = ["associative_scan"]


def associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0):
    """Inclusive scan of ``elems`` along ``axis`` with the associative function ``fn``.

    Parameters
    ----------
    fn : callable
        ``fn(a, b)``, associative, taking and returning pytrees like ``elems`` whose
        leaves have the same (batched) shapes: it is applied elementwise along ``axis``
        to slices of ``elems``.
    elems : pytree of arrays
        Each leaf has the same length along ``axis`` (leaves may differ in rank;
        a negative ``axis`` counts from the first leaf's last dimension).
    reverse : bool, optional
        Scan from the end: ``result[i]`` combines ``elems[i:]``.
    axis : int, optional
        The scanned axis. Default 0.

    Returns
    -------
    pytree of arrays
        Like ``elems``; ``result[i] = fn(... fn(elems[0], elems[1]) ..., elems[i])``
        (``fn(elems[i], fn(elems[i + 1], ...))`` with ``reverse``).

    Notes
    -----
    JAX's signature. Pairs of neighbours are combined, the scan of the pairs is found
    recursively and the remaining elements are filled in from it, so ``fn`` is called
    O(log n) times on arrays and the result equals a sequential loop up to the
    reassociation of ``fn`` (exact for associative ``fn`` in exact arithmetic).
    """
    import xnp
    leaves, tree = tree_flatten(elems)
    if not leaves:
        return elems
    leaves = [xnp.asarray(x) for x in leaves]
    ndim = leaves[0].ndim
    if ndim == 0:
        raise ValueError("associative_scan: elems must have at least one dimension")
    # the axis is taken relative to the first leaf; leaves may differ in rank (JAX's rule)
    ax = axis + ndim if axis < 0 else axis
    if not 0 <= ax < ndim or any(x.ndim <= ax for x in leaves):
        raise ValueError(f"associative_scan: axis {axis} out of range for leaves of "
                         f"shapes {[x.shape for x in leaves]}")
    n = leaves[0].shape[ax]
    if any(x.shape[ax] != n for x in leaves):
        raise ValueError("associative_scan: every leaf must have the same length along "
                         f"axis {axis}, got {[x.shape[ax] for x in leaves]}")
    leaves = [xnp.moveaxis(x, ax, 0) for x in leaves]
    if reverse:
        leaves = [xnp.flip(x, 0) for x in leaves]

    def combine(a, b):
        # on leaves with the scanned axis first; fn sees them with it back in place
        args = [tree_unflatten(tree, [xnp.moveaxis(x, 0, ax) for x in side])
                for side in (a, b)]
        if reverse:
            args = args[::-1]
        out, out_tree = tree_flatten(fn(*args))
        if out_tree != tree:
            raise TypeError(f"associative_scan: fn returned structure {out_tree}, "
                            f"expected {tree}")
        return [xnp.moveaxis(xnp.asarray(x), ax, 0) for x in out]

    out = _scan(combine, leaves)
    if reverse:
        out = [xnp.flip(x, 0) for x in out]
    return tree_unflatten(tree, [xnp.moveaxis(x, 0, ax) for x in out])


def _scan(combine, xs):
    """The inclusive scan of the leaves ``xs`` along their axis 0."""
    import xnp
    n = xs[0].shape[0]
    if n < 2:
        return xs
    # pairs (x0 x1), (x2 x3), ...: their scan gives the results at the odd positions
    odd = _scan(combine, combine([x[0:n - 1:2] for x in xs], [x[1::2] for x in xs]))
    # the even positions 2, 4, ...: the odd result before them, combined with them
    m = (n - 1) // 2
    even = combine([o[:m] for o in odd], [x[2::2] for x in xs])
    even = [xnp.concatenate([x[:1], e], axis=0) for x, e in zip(xs, even)]
    return [_interleave(e, o) for e, o in zip(even, odd)]


def _interleave(even, odd):
    """``even[0], odd[0], even[1], odd[1], ...`` (``even`` may be one longer)."""
    import xnp
    k = odd.shape[0]
    pairs = xnp.reshape(xnp.stack([even[:k], odd], axis=1), (2 * k,) + odd.shape[1:])
    return pairs if even.shape[0] == k else xnp.concatenate([pairs, even[k:]], axis=0)
