"""The examples in the docstrings of the tracker, capture and game renderer run (the default
run doctests only tests/ and rules/)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", [
    "tracker", "tracker.table", "tracker.zones", "tracker.plays", "tracker.gather",
    "tracker.score", "vision.capture", "vision.render_game",
])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
