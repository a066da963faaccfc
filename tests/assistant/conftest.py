"""Fixtures of the assistant's tests: an app on a throw-away SQLite file, a real server, games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from assistant_helpers import SilentSpeaker, make_settings
from fastapi import FastAPI
from fastapi.testclient import TestClient
from rules.selfplay import random_match

from assistant.app import create_app
from assistant.deps import get_speaker


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = create_app(make_settings(tmp_path))
    app.dependency_overrides[get_speaker] = lambda: SilentSpeaker(tmp_path)
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="session")
def game_events() -> list[dict[str, Any]]:
    """One complete legal round followed by the start of a second (random bots, fixed seed)."""
    return random_match(seed=11, ruleset="qingdao", rounds=2)
