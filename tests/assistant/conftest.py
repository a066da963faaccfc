"""Fixtures of the assistant's tests: an app on a throw-away SQLite file, a real server, games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from assistant.app import create_app
from assistant.deps import get_speaker
from rules.selfplay import random_match
from tests.assistant.assistant_helpers import SilentSpeaker, local_client, make_settings

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (the system one), shared by the browser tests."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium at /usr/bin/chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = create_app(make_settings(tmp_path))
    app.dependency_overrides[get_speaker] = lambda: SilentSpeaker(tmp_path)
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with local_client(app) as client:
        yield client


@pytest.fixture(scope="session")
def game_events() -> list[dict[str, Any]]:
    """One complete legal round followed by the start of a second (random bots, fixed seed)."""
    return random_match(seed=11, ruleset="qingdao", rounds=2)
