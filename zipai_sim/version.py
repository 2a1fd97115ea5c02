"""The package version, one place for every result's provenance (kept equal to pyproject.toml's)."""

__version__ = "0.1.0"
