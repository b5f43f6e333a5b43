"""Suite-wide settings; the helper modules of tests/support/ importable by name."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))


def pytest_collection_finish(session) -> None:
    """Freeze what collection imported (libraries, test data): it lives to the end anyway.

    pytest runs one full garbage collection as it shuts down. Over everything collection
    imported it can take seconds on a busy machine, and an xdist worker still busy five seconds
    after the run ends is sent SIGINT by execnet: the KeyboardInterrupt then lands in whatever
    runs, often hypothesis's gc callback, and Python prints it as an ignored exception. Frozen
    objects are left out of every collection.
    """
    gc.freeze()
