"""``xnp.random.mtrand``: the namespace of NumPy's ``numpy.random.mtrand``, with xnp's
functions (``mtrand.dirichlet``, ``mtrand.RandomState``, ...) drawing from NumPy's global
``RandomState``, which is ``mtrand._rand`` here as there."""


def __getattr__(name: str):
    if name == "_rand":
        import numpy.random
        return numpy.random.mtrand._rand
    import xnp.random
    return getattr(xnp.random, name)
