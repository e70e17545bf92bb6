"""Pytrees: nested containers flattened into a list of leaves plus a hashable structure.

Tuples, lists, dicts (children in sorted-key order), ``None`` (a node with no children),
namedtuples, :class:`collections.OrderedDict` and :class:`collections.defaultdict` are
nodes, as are types added with :func:`register_pytree_node` or :func:`register_dataclass`.
Everything else is a leaf. A :class:`PyTreeDef` records the structure; it is hashable, so
transformations use it in cache keys.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

__all__ = [
    "Partial", "PyTreeDef", "register_dataclass", "register_pytree_node", "tree_all",
    "tree_flatten", "tree_leaves", "tree_map", "tree_structure", "tree_unflatten",
    "treedef_children",
]

_NoneType = type(None)
_BUILTIN = (tuple, list, dict, _NoneType)
# Registered type -> (flatten_fn(x) -> (children, aux), unflat(kind, aux, children) -> x).
_registry: dict[type, tuple[Callable, Callable]] = {}
_node_types = set(_BUILTIN)  # built-in and registered node types (namedtuples aside)
_DICTS = (dict, OrderedDict, defaultdict)


class PyTreeDef:
    """The structure of a pytree: node kinds, auxiliary data and where the leaves go.

    Treedefs compare (and hash) equal when the structures are the same. A leaf counts as
    one node; ``None`` is a node with no leaves.
    """

    __slots__ = ("_children", "_key", "_unflat", "aux", "kind", "num_leaves", "num_nodes")

    def children(self) -> list[PyTreeDef]:
        """Return the treedefs of this node's immediate children."""
        return list(self._children)

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        """Build the pytree of this structure whose leaves are ``leaves``."""
        leaves = leaves if type(leaves) is list else list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"{self} expects {self.num_leaves} leaves, got {len(leaves)}")
        return _unflatten(self, iter(leaves))

    def flatten_up_to(self, tree: Any) -> list[Any]:
        """Flatten ``tree``, which this treedef must prefix, into one subtree per leaf."""
        out: list[Any] = []
        try:
            _flatten_up_to(self, tree, out, "")
        except _Mismatch as e:
            raise ValueError(
                f"tree structure {tree_structure(tree)} does not match, and is not prefixed "
                f"by, the structure {self}: {e.args[0]} at path '{e.args[1]}'") from None
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PyTreeDef) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"PyTreeDef({_repr(self)})"


def _new(kind, aux, children, unflat, num_leaves, num_nodes, keys) -> PyTreeDef:
    d = object.__new__(PyTreeDef)
    d.kind, d.aux, d._children, d._unflat = kind, aux, tuple(children), unflat
    d.num_leaves, d.num_nodes, d._key = num_leaves, num_nodes, (kind, aux, tuple(keys))
    return d


_LEAF = _new(None, None, [], None, 1, 1, [])  # the one leaf treedef; its kind is None
_LEAF._key = None

# Unflatteners of the built-in nodes, called as f(kind, aux, children).
def _un_tuple(kind, aux, ch): return tuple(ch)
def _un_list(kind, aux, ch): return ch  # ch is always a fresh list
def _un_dict(kind, aux, ch): return dict(zip(aux, ch, strict=True))
def _un_none(kind, aux, ch): return None
def _un_namedtuple(kind, aux, ch): return kind(*ch)


def _sorted_keys(d: dict) -> tuple:
    try:
        return tuple(sorted(d))
    except TypeError:  # keys of mixed, unorderable types
        return tuple(sorted(d, key=lambda k: (type(k).__qualname__, repr(k))))


def _one_level(x: Any):
    """Return ``(kind, aux, children, unflat)`` for a node, or None for a leaf."""
    t = type(x)
    if t is tuple:
        return t, None, x, _un_tuple
    if t is list:
        return t, None, x, _un_list
    if t is dict:
        keys = _sorted_keys(x)
        return t, keys, [x[k] for k in keys], _un_dict
    if x is None:
        return t, None, (), _un_none
    h = _registry.get(t)
    if h is not None:
        children, aux = h[0](x)
        return t, aux, list(children), h[1]
    if isinstance(x, tuple) and hasattr(t, "_fields"):
        return t, None, x, _un_namedtuple
    return None


def _flatten(x: Any, is_leaf: Callable | None, leaves: list) -> PyTreeDef:
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return _LEAF
    node = _one_level(x)
    if node is None:
        leaves.append(x)
        return _LEAF
    kind, aux, children, unflat = node
    defs, keys, n, m = [], [], 0, 1
    for c in children:
        # Inline the common case of a leaf child, saving a recursive call.
        if is_leaf is None and type(c) not in _node_types and not isinstance(c, tuple):
            leaves.append(c)
            d = _LEAF
        else:
            d = _flatten(c, is_leaf, leaves)
        defs.append(d)
        keys.append(d._key)
        n += d.num_leaves
        m += d.num_nodes
    return _new(kind, aux, defs, unflat, n, m, keys)


def _unflatten(d: PyTreeDef, it) -> Any:
    if d.kind is None:
        return next(it)
    return d._unflat(d.kind, d.aux, [next(it) if c.kind is None else _unflatten(c, it)
                                     for c in d._children])


class _Mismatch(Exception):  # args: (message, path)
    pass


def _dict_keys(d: PyTreeDef) -> tuple:
    return d.aux[1] if d.kind is defaultdict else d.aux


def _flatten_up_to(d: PyTreeDef, x: Any, out: list, path: str) -> None:
    if d.kind is None:
        out.append(x)
        return
    node = _one_level(x)
    if node is None:
        raise _Mismatch(f"expected a {d.kind.__name__} node, got leaf {type(x).__name__}", path)
    kind, aux, children, _ = node
    if kind is not d.kind:
        raise _Mismatch(f"expected {d.kind.__name__}, got {kind.__name__}", path)
    if len(children) != len(d._children):
        raise _Mismatch(f"{len(children)} children instead of {len(d._children)}", path)
    if aux != d.aux:
        raise _Mismatch(f"{kind.__name__} node data {aux!r} instead of {d.aux!r}", path)
    keys = range(len(children)) if kind not in _DICTS else _dict_keys(d)
    for key, cd, c in zip(keys, d._children, children, strict=True):
        _flatten_up_to(cd, c, out, f"{path}[{key!r}]")


def _repr(d: PyTreeDef) -> str:
    k = d.kind
    if k is None:
        return "*"
    kids = [_repr(c) for c in d._children]
    if k is tuple:
        return f"({kids[0]},)" if len(kids) == 1 else f"({', '.join(kids)})"
    if k is list:
        return f"[{', '.join(kids)}]"
    if k is _NoneType:
        return "None"
    if k in _DICTS:
        body = ", ".join(f"{key!r}: {v}" for key, v in zip(_dict_keys(d), kids, strict=True))
        if k is dict:
            return "{" + body + "}"
        return (f"OrderedDict({{{body}}})" if k is OrderedDict
                else f"defaultdict({d.aux[0]!r}, {{{body}}})")
    if k in _registry:
        return f"CustomNode({k.__name__}[{d.aux!r}], [{', '.join(kids)}])"
    fields = (f"{f}={v}" for f, v in zip(k._fields, kids, strict=True))
    return f"{k.__name__}({', '.join(fields)})"


def tree_flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None
                 ) -> tuple[list[Any], PyTreeDef]:
    """Flatten a pytree into its leaves (left to right, dicts by sorted key) and structure.

    Parameters
    ----------
    tree : Any
        The pytree.
    is_leaf : callable, optional
        Called on every subtree; where it returns True that subtree is a leaf.

    Returns
    -------
    tuple of (list, PyTreeDef)
        The leaves and the treedef; ``tree_unflatten(treedef, leaves)`` rebuilds ``tree``.
    """
    leaves: list[Any] = []
    return leaves, _flatten(tree, is_leaf, leaves)


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuild the pytree of structure ``treedef`` from its ``treedef.num_leaves`` leaves."""
    return treedef.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    """Return the leaves of ``tree``, in :func:`tree_flatten` order."""
    leaves: list[Any] = []
    _flatten(tree, is_leaf, leaves)
    return leaves


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """Return the :class:`PyTreeDef` of ``tree``."""
    return _flatten(tree, is_leaf, [])


def tree_map(f: Callable[..., Any], tree: Any, *rest: Any,
             is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply ``f`` to corresponding leaves of one or more pytrees.

    Parameters
    ----------
    f : callable
        Called as ``f(x, *xs)``: ``x`` a leaf of ``tree``, ``xs`` the matching parts of
        the trees in ``rest``. The result has the structure of ``tree``.
    tree : Any
        The first pytree; ``is_leaf`` (as for :func:`tree_flatten`) applies to it only.
    *rest : Any
        Pytrees with the structure of ``tree`` or having it as a prefix (the subtree at a
        leaf of ``tree`` is passed to ``f`` whole); a mismatch raises ValueError.
    """
    leaves: list[Any] = []
    treedef = _flatten(tree, is_leaf, leaves)
    if not rest:
        return _unflatten(treedef, iter([f(x) for x in leaves]))
    others = [treedef.flatten_up_to(r) for r in rest]
    return _unflatten(treedef, iter([f(*xs) for xs in zip(leaves, *others, strict=True)]))


def tree_all(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Return True when every leaf of ``tree`` is truthy."""
    return all(tree_leaves(tree, is_leaf))


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """Return the treedefs of the immediate children of ``treedef``'s root."""
    return treedef.children()


def register_pytree_node(nodetype: type, flatten_fn: Callable[[Any], tuple[Iterable, Hashable]],
                         unflatten_fn: Callable[[Any, list], Any]) -> None:
    """Make instances of ``nodetype`` pytree nodes.

    Parameters
    ----------
    nodetype : type
        The class (exactly: subclasses stay leaves). Registering twice raises ValueError.
    flatten_fn : callable
        ``flatten_fn(x) -> (children, aux_data)``: an iterable of children and hashable
        auxiliary data that is kept in the treedef.
    unflatten_fn : callable
        ``unflatten_fn(aux_data, children) -> x``, the inverse of ``flatten_fn``.
    """
    if nodetype in _BUILTIN or nodetype in _registry:
        raise ValueError(f"{nodetype!r} is already a pytree node type")
    _registry[nodetype] = (flatten_fn, lambda kind, aux, ch: unflatten_fn(aux, ch))
    _node_types.add(nodetype)


def register_dataclass(cls: type | None = None, data_fields: Sequence[str] | None = None,
                       meta_fields: Sequence[str] | None = None) -> Any:
    """Register a dataclass as a pytree node; usable as a decorator.

    Parameters
    ----------
    cls : type, optional
        The dataclass, which is returned. When omitted, a decorator is returned.
    data_fields, meta_fields : sequence of str, optional
        Fields that are children, and fields kept as (hashable) auxiliary data in the
        treedef. When both are omitted, a field is meta if its metadata has
        ``{'static': True}`` and data otherwise; when one is, it is the other init fields.
    """
    if cls is None:
        return lambda c: register_dataclass(c, data_fields, meta_fields)
    if data_fields is None or meta_fields is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass; give data and meta fields")
        fields = [f for f in dataclasses.fields(cls) if f.init]
        if data_fields is None and meta_fields is None:
            meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
        given = set(meta_fields if data_fields is None else data_fields)
        rest = [f.name for f in fields if f.name not in given]
        data_fields, meta_fields = (rest, meta_fields) if data_fields is None else (
            data_fields, rest)
    data, meta = tuple(data_fields), tuple(meta_fields)
    if set(data) & set(meta):
        raise ValueError(f"fields {sorted(set(data) & set(meta))} are both data and meta")

    def flatten(x):
        return [getattr(x, n) for n in data], tuple(getattr(x, n) for n in meta)

    def unflatten(aux, children):
        return cls(**dict(zip(data, children, strict=True)), **dict(zip(meta, aux, strict=True)))

    register_pytree_node(cls, flatten, unflatten)
    return cls


def _flatten_defaultdict(x: defaultdict):
    keys = _sorted_keys(x)
    return [x[k] for k in keys], (x.default_factory, keys)


register_pytree_node(OrderedDict, lambda x: (list(x.values()), tuple(x)),
                     lambda aux, ch: OrderedDict(zip(aux, ch, strict=True)))
register_pytree_node(defaultdict, _flatten_defaultdict,
                     lambda aux, ch: defaultdict(aux[0], zip(aux[1], ch, strict=True)))


class _WrappedPartial:
    """A ``functools.partial`` kept whole as the function of a :class:`Partial` (so that
    its own arguments stay outside the pytree); compares and hashes as the partial, and
    shows its ``func``, ``args`` and ``keywords``."""

    __slots__ = ("partial",)

    def __init__(self, partial: functools.partial):
        self.partial = partial

    func = property(lambda self: self.partial.func)
    args = property(lambda self: self.partial.args)
    keywords = property(lambda self: self.partial.keywords)

    def __call__(self, *args, **kwargs):
        return self.partial(*args, **kwargs)

    def __eq__(self, other):
        other = other.partial if isinstance(other, _WrappedPartial) else other
        return self.partial == other

    def __hash__(self):
        return hash(self.partial)

    def __repr__(self):
        return repr(self.partial)


class Partial(functools.partial):
    """``functools.partial`` as a pytree, so that functions can be arguments of ``jit``.

    ``Partial(func, *args, **kwargs)`` calls as ``functools.partial`` does. As a pytree
    its children are ``args`` and ``keywords`` (their leaves are traced under
    transformations) and ``func`` is auxiliary data: it must be hashable, and equal
    functions reuse a ``jit`` trace. When ``func`` is itself a ``functools.partial``, its
    arguments are not merged into this one's (they stay part of ``func``), as in JAX.
    """

    def __new__(cls, func, *args, **kwargs):
        if isinstance(func, functools.partial):
            func = _WrappedPartial(func)
        return super().__new__(cls, func, *args, **kwargs)


register_pytree_node(Partial, lambda p: ((p.args, p.keywords), p.func),
                     lambda func, ch: Partial(func, *ch[0], **ch[1]))
