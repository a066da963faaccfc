"""Builders shared by the assistant's tests: settings, a silent speaker, a live server."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any, Self

import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from assistant.settings import Settings


class SilentSpeaker:
    """Stands in for espeak-ng: writes a tiny WAV per text and remembers what was asked."""

    available = True

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.rendered: list[str] = []

    def render(self, text: str) -> Path:
        self.rendered.append(text)
        path = self.folder / f"{len(self.rendered)}.wav"
        path.write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt ")
        return path

    def prepare(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def make_settings(tmp_path: Path, **changes: Any) -> Settings:
    return Settings(db=tmp_path / "games.sqlite3", speech=False,
                    speech_cache=tmp_path / "speech", **changes)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """A real uvicorn server in a thread, for the browser tests."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                timeout_graceful_shutdown=1, ws_ping_interval=None)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def local_client(app: FastAPI) -> TestClient:
    """A test client that calls as a page of this machine does (host 127.0.0.1)."""
    return TestClient(app, base_url="http://127.0.0.1")


def first_round(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the first round (up to the second ``round`` event)."""
    second = next(i for i, e in enumerate(events) if e["type"] == "round" and i > 0)
    return events[:second]


def post(client: TestClient, event: dict[str, Any], status: int = 201) -> dict[str, Any]:
    """POST one event and check the status."""
    response = client.post("/api/events", json=event)
    assert response.status_code == status, response.text
    return response.json()  # type: ignore[no-any-return]
