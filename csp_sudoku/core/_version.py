"""The package version, in a module of its own so that any layer can read it.

Keep it equal to ``version`` in pyproject.toml (tests/test_layers.py checks).
"""

__version__ = "0.2.0"
