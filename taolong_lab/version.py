"""The version of taolong_lab (every layer may read it; the package root re-exports it)."""

__version__ = "0.1.0"

__all__ = ["__version__"]
