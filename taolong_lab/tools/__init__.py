"""Developer tools for taolong_lab (golden transcripts, ...). Run them with ``python -m``."""
