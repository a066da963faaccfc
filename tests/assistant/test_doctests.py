"""The examples in the assistant's docstrings run (the default run doctests only tests/ and rules/)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", [
    "assistant.app", "assistant.corrections", "assistant.live", "assistant.settings",
    "assistant.store", "assistant.texts",
])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
