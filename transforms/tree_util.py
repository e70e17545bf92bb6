"""``transforms.tree_util``: the pytree functions under JAX's module name
(``jax.tree_util``); they are those of :mod:`transforms.tree`."""

from transforms.tree import (  # noqa: F401
    Partial,
    PyTreeDef,
    register_dataclass,
    register_pytree_node,
    tree_all,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
    treedef_children,
)
