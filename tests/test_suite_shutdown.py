"""The suite ends quietly (issue 32): what collection imported is frozen (tests/conftest.py), so
pytest's last full garbage collection walks few objects and an xdist worker is never
interrupted in it."""

from __future__ import annotations

import gc


def test_what_collection_imported_is_frozen_and_left_out_of_collections():
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the test modules and the libraries they import
    assert len(gc.get_objects()) < frozen  # what a full collection walks: the rest only
