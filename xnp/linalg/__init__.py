"""xnp.linalg: linear algebra with derivatives, filled by the linalg issue. Importable now so
that the package layout is fixed."""

__all__: list = []
