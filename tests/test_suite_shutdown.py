"""The suite ends quietly (issue 32): what collection imported is frozen (tests/conftest.py), so
pytest's last full garbage collection leaves it out and an xdist worker is never interrupted in
it."""

from __future__ import annotations

import gc


def test_what_collection_imported_is_frozen_and_left_out_of_collections():
    assert gc.get_freeze_count() > 10_000  # the test modules and the libraries they import
    this = test_what_collection_imported_is_frozen_and_left_out_of_collections  # made then
    assert gc.is_tracked(this)
    assert not any(obj is this for obj in gc.get_objects())  # what a collection walks
