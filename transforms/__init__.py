"""transforms: the generic machinery of xnp (primitives, traces, jaxprs, pytrees).

It knows no NumPy function; ``xnp`` declares its primitives with it.
"""

from transforms import custom_batching, custom_derivatives, tree_util  # noqa: F401, E402
from transforms.ad import float0  # noqa: F401
from transforms.api_extras import (  # noqa: F401
    ShapeDtypeStruct,
    checkpoint,
    eval_shape,
    linear_transpose,
    remat,
)
from transforms.api_more import (  # noqa: F401
    block_until_ready,
    closure_convert,
    custom_gradient,
    device_get,
    device_put,
    ensure_compile_time_eval,
    jacobian,
    named_call,
    named_scope,
)
from transforms.autodiff import (  # noqa: F401
    grad,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    value_and_grad,
    vjp,
)
from transforms.batching import vmap  # noqa: F401
from transforms.control_flow import cond, fori_loop, scan, switch, while_loop  # noqa: F401
from transforms.core import (  # noqa: F401
    ConcretizationTypeError,
    Primitive,
    ShapedArray,
    Trace,
    Tracer,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
    get_aval,
)
from transforms.custom_batching import custom_vmap  # noqa: F401
from transforms.custom_derivatives import custom_jvp, custom_vjp  # noqa: F401
from transforms.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr, make_jaxpr  # noqa: F401
from transforms.jit import disable_jit, jit  # noqa: F401
from transforms.tree import (  # noqa: F401
    Partial,
    register_dataclass,
    register_pytree_node,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
)
