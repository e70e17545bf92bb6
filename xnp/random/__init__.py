"""xnp.random: a functional PRNG with explicit keys (Threefry-2x32), filled by the random
issue. Importable now so that the package layout is fixed."""

__all__: list = []
