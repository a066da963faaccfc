"""Crash safety: ``kill -9`` the server mid-game, start it again, nothing acknowledged is lost."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

import rules
from tests.assistant.assistant_helpers import free_port


def start_server(db: Path, port: int, cwd: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "serve", "--db", str(db), "--port", str(port),
         "--no-speech"], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(process.stderr.read().decode() if process.stderr else "exited")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=0.5)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not start")


def test_kill_9_mid_game_then_restart_resumes_exactly(
        tmp_path: Path, game_events: list[dict[str, Any]]) -> None:
    db, port = tmp_path / "games.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(db, port, tmp_path)
    acknowledged: list[int] = []
    try:
        with httpx.Client(base_url=url) as http:
            for event in game_events[:10]:
                acknowledged.append(http.post("/api/events", json=event).json()["seq"])
            wrong = {**game_events[10], "seat": (game_events[10]["seat"] + 2) % 6}
            acknowledged.append(http.post("/api/events", json=wrong).json()["seq"])
            fix = {**game_events[10], "fixes": acknowledged[-1]}
            acknowledged.append(http.post("/api/events", json=fix).json()["seq"])

        def keep_posting() -> None:  # the table goes on playing until the crash
            with httpx.Client(base_url=url, timeout=2) as http:
                for event in game_events[11:]:
                    try:
                        response = http.post("/api/events", json=event)
                    except httpx.TransportError:
                        return
                    acknowledged.append(response.json()["seq"])

        poster = threading.Thread(target=keep_posting)
        poster.start()
        while len(acknowledged) < 40 and poster.is_alive():
            time.sleep(0.005)
        server.kill()  # SIGKILL: no shutdown code runs
        server.wait()
        poster.join()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    server = start_server(db, port, tmp_path)
    try:
        with httpx.Client(base_url=url) as http:
            stored = http.get("/api/events").json()
            state = http.get("/api/state").json()
            effective = http.get(f"/api/games/{state['game']['id']}/events.jsonl").text
    finally:
        server.kill()
        server.wait()
    seqs = [record["seq"] for record in stored]
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(acknowledged) <= set(seqs)  # every acknowledged event survived
    assert len(seqs) <= len(acknowledged) + 1  # at most the one in flight at the crash
    assert stored[11]["event"]["fixes"] == 11 and stored[10]["status"] == "replaced"
    replayed = rules.replay(effective).to_json()
    assert state["counts"] == replayed["counts"]
    assert state["to_act"] == replayed["to_act"]
    assert state["events"] == replayed["events"]
