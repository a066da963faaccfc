"""The HTTP API against a tmp_path SQLite store: events, corrections, exports, safety."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import rules
from assistant.app import create_app
from assistant.cli import main
from assistant.feed import PipelineSubmitter, SeenMatch, submit_checked
from rules.selfplay import random_match
from tests.assistant.assistant_helpers import first_round, local_client, make_settings, post
from tracker.plays import REVIEW_CONF
from tracker.prior import MatchPrior
from tracker.table import TableLayout

REQUIRED = ("finish_order", "scores", "counts", "to_act", "reported", "opened", "tribute", "errors")


def test_a_whole_round_matches_gouji_replay_of_the_export(
        client: TestClient, game_events: list[dict[str, Any]]) -> None:
    client.put("/api/names", json={"names": ["张伟", "王芳", "李强", "刘洋", "陈静", "杨磊"]})
    for event in first_round(game_events):
        assert post(client, event)["error"] is None
    state = client.get("/api/state").json()
    assert set(REQUIRED) <= state.keys()
    assert state["round_over"] and sorted(state["places"].values()) == [1, 2, 3, 4, 5, 6]
    assert [seat["name"] for seat in state["seats"]][:2] == ["张伟", "王芳"]
    exported = client.get(f"/api/games/{state['game']['id']}/events.jsonl").text
    replayed = rules.replay(exported).to_json()
    for seat in state["seats"]:
        del seat["name"]
    assert {k: state[k] for k in replayed if k != "errors"} == {
        k: v for k, v in replayed.items() if k != "errors"}
    assert state["errors"] == replayed["errors"] == []
    record = client.get(f"/api/games/{state['game']['id']}/record.txt").text
    assert "头科" in record and "大落" in record and "进贡" in record
    for row in state["history"][0]["tribute"]:
        assert f"{row['from'] + 1}号" in record and f"{row['to'] + 1}号" in record


@pytest.mark.parametrize(("event", "status", "message"), [
    # the bad card token is named
    ({"type": "play", "seat": 1, "cards": "55X"}, 422, "invalid card token 'X'"),
    ({"type": "play", "seat": 6, "cards": "55"}, 422, "less than or equal to 5"),
    ({"type": "play", "seat": 1}, 422, "needs cards"),
    ({"type": "pass", "seat": 1, "cards": "5"}, 422, "takes no cards"),
    ({"type": "jump", "seat": 1}, 422, "type"),
    ({"type": "round", "ruleset": "poker"}, 422, "poker"),
    ({"type": "pass", "seat": 1, "fixes": 99}, 404, "event 99 does not exist"),
    ({"type": "accept", "fixes": 1}, 422, "not held for review"),
    ({"type": "play", "seat": 1, "cards": "5", "secret": 1}, 422, "secret"),
])
def test_bad_events_are_refused_with_the_reason(
        client: TestClient, event: dict[str, Any], status: int, message: str) -> None:
    post(client, {"type": "round", "first": 0})
    response = client.post("/api/events", json=event)
    assert response.status_code == status
    assert message in json.dumps(response.json(), ensure_ascii=False)
    assert len(client.get("/api/events").json()) == 1  # nothing stored


def test_undo_with_nothing_to_undo_is_404(client: TestClient) -> None:
    assert client.post("/api/events", json={"type": "undo"}).status_code == 404


def test_an_illegal_play_is_kept_reported_and_corrected(
        client: TestClient, game_events: list[dict[str, Any]]) -> None:
    opening, lead = game_events[0], game_events[1]
    post(client, opening)
    wrong = post(client, {"type": "play", "seat": lead["seat"], "cards": "3 4"})
    assert wrong["error"]  # mixed natural ranks are not one play
    assert client.get("/api/state").json()["errors"][0]["line"] == wrong["seq"]
    fixed = post(client, {**lead, "fixes": wrong["seq"]})
    assert fixed["error"] is None
    state = client.get("/api/state").json()
    assert state["errors"] == []
    assert state["counts"] == rules.replay(game_events[:2]).to_json()["counts"]
    raw = client.get(f"/api/games/{state['game']['id']}/events.jsonl?raw=true").text
    assert [json.loads(line).get("fixes") for line in raw.splitlines()] == [None, None, 2]


def test_correction_then_undo_restores_the_original(
        client: TestClient, game_events: list[dict[str, Any]]) -> None:
    for event in game_events[:3]:
        post(client, event)
    second = game_events[2]
    before = client.get("/api/state").json()["counts"]
    moved = post(client, {**second, "seat": (second["seat"] + 1) % 6, "fixes": 3})
    after = client.get("/api/state").json()
    assert after["counts"] != before or after["errors"]
    undo = post(client, {"type": "undo"})
    assert undo["event"]["fixes"] == moved["seq"]
    assert client.get("/api/state").json()["counts"] == before
    statuses = {r["seq"]: r["status"] for r in client.get("/api/events").json()}
    assert statuses == {1: "effective", 2: "effective", 3: "effective", 4: "withdrawn",
                        5: "control"}


def test_a_held_play_waits_for_the_operator(
        client: TestClient, game_events: list[dict[str, Any]]) -> None:
    post(client, game_events[0])
    held = post(client, {**game_events[1], "source": "vision", "conf": 0.41, "review": True})
    state = client.get("/api/state").json()
    assert held["status"] == "held" and [r["seq"] for r in state["held"]] == [held["seq"]]
    assert state["counts"] == rules.replay(game_events[:1]).to_json()["counts"]
    post(client, {"type": "accept", "fixes": held["seq"]})
    state = client.get("/api/state").json()
    assert state["held"] == []
    assert state["counts"] == rules.replay(game_events[:2]).to_json()["counts"]


def test_the_stream_sends_a_snapshot_then_numbered_changes(
        client: TestClient, game_events: list[dict[str, Any]]) -> None:
    post(client, game_events[0])
    with client.websocket_connect("ws://127.0.0.1/api/stream") as socket:
        snapshot = socket.receive_json()
        assert snapshot["kind"] == "snapshot" and snapshot["state"]["round"] == 1
        post(client, game_events[1])
        change = socket.receive_json()
        assert change["kind"] == "change" and change["version"] == snapshot["version"] + 1
        assert "counts" in change["changes"] and "game" not in change["changes"]
        client.post("/api/games")  # a new game: every page switches to it
        change = socket.receive_json()
        assert change["changes"]["round"] == 0 and change["changes"]["game"]["id"] == 2


def test_actions_need_the_token_when_one_is_set(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, token="s3cret"))
    with local_client(app) as client:
        event = {"type": "round", "first": 0}
        assert client.post("/api/events", json=event).status_code == 401
        assert client.put("/api/names", json={"names": ["a"] * 6}).status_code == 401
        assert client.post("/api/events", json=event,
                           headers={"X-Gouji-Token": "wrong"}).status_code == 401
        assert client.post("/api/events", json=event,
                           headers={"X-Gouji-Token": "s3cret"}).status_code == 201
        assert client.post("/api/events", json={"type": "collect"},
                           headers={"Authorization": "Bearer s3cret"}).status_code == 201
        for page in ("/", "/overlay", "/tribute", "/api/state", "/api/info"):
            assert client.get(page).status_code == 200  # read-only views need no token
        assert client.get("/api/info").json()["token_required"] is True


def test_a_restart_resumes_the_same_game(
        tmp_path: Path, game_events: list[dict[str, Any]]) -> None:
    with local_client(create_app(make_settings(tmp_path))) as client:
        for event in game_events[:12]:
            post(client, event)
        post(client, {"type": "undo"})
        before = client.get("/api/state").json()
    with local_client(create_app(make_settings(tmp_path))) as client:
        assert client.get("/api/state").json() == before
        post(client, game_events[11])
        assert client.get("/api/state").json()["counts"] == rules.replay(
            game_events[:12]).to_json()["counts"]


def test_settings_names_ruleset_new_game(client: TestClient) -> None:
    bad = client.put("/api/names", json={"names": ["a"] * 5})
    assert bad.status_code == 422
    assert client.put("/api/ruleset", json={"ruleset": "poker"}).status_code == 422
    assert client.put("/api/ruleset", json={"ruleset": "biesan"}).json() == {"ruleset": "biesan"}
    post(client, {"type": "round"})
    game = client.post("/api/games").json()
    state = client.get("/api/state").json()
    assert state["game"]["id"] == game["id"] and game["ruleset"] == "biesan"
    assert state["stored"] == 0
    assert [g["events"] for g in client.get("/api/games").json()] == [0, 1]
    assert set(client.get("/api/rulesets").json()) >= {"qingdao", "biesan", "irvine"}


def test_speech_is_switchable_and_says_only_what_the_game_said(
        client: TestClient, game_events: list[dict[str, Any]]) -> None:
    assert client.get("/api/state").json()["speech"] is False
    assert client.put("/api/speech", json={"enabled": True}).json() == {"enabled": True}
    for event in game_events[:30]:
        post(client, event)
    state = client.get("/api/state").json()
    for text in (state["turn_text"], state["feed"][0]["text"]):
        response = client.get("/api/speech.wav", params={"text": text})
        assert response.status_code == 200 and response.headers["content-type"] == "audio/wav"
    assert client.get("/api/speech.wav", params={"text": "hello"}).status_code == 404
    assert client.get("/api/speech.wav", params={"text": "x" * 500}).status_code == 422


def test_no_video_source_means_no_stream(client: TestClient) -> None:
    assert client.get("/api/info").json()["video"] is False
    assert client.get("/api/camera").json() == {
        "source": None, "status": "none", "frames": 0, "dropped": 0, "reconnects": 0,
        "lost_for": None, "moves": 0, "shift": 0.0, "turn": 0.0, "unfollowed": 0,
        "message": None, "zones_warning": None}
    assert client.get("/api/video.mjpg").status_code == 404
    assert client.get("/api/table").status_code == 404


def test_calibration_saves_the_seat_zones_to_the_table_file(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)], (1280, 720)).save(path)
    with local_client(create_app(make_settings(tmp_path, table=path))) as client:
        zones = [seat["polygon"] for seat in client.get("/api/table").json()["seats"]]
        zones[0] = [[500, 500], [780, 500], [780, 700], [500, 700]]
        assert client.put("/api/table", json={"zones": zones}).status_code == 200
        assert TableLayout.load(path).seats[0].polygon == ((500, 500), (780, 500), (780, 700),
                                                           (500, 700))
        too_few = client.put("/api/table", json={"zones": zones[:5]})
        assert too_few.status_code == 422
        client.put("/api/names", json={"names": ["东", "南", "西", "北", "", "发"]})
        assert [s.name for s in TableLayout.load(path).seats] == ["东", "南", "西", "北", None,
                                                                   "发"]
    with local_client(create_app(make_settings(tmp_path / "other", table=path))) as client:
        assert client.get("/api/state").json()["names"][:2] == ["东", "南"]  # new store, same table


def test_the_scripted_demo_plays_its_game_and_resumes_after_a_restart(tmp_path: Path) -> None:
    script = random_match(seed=5, rounds=1)
    settings = make_settings(tmp_path, script_seed=5, script_rounds=1, script_pace=0.005)
    with local_client(create_app(settings)) as client:
        deadline = time.monotonic() + 20
        while client.get("/api/state").json()["stored"] < 30:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    with local_client(create_app(settings)) as client:  # picks up where it stopped
        while (state := client.get("/api/state").json())["stored"] < len(script):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert [r["event"]["type"] for r in client.get("/api/events").json()] == [
            e["type"] for e in script]
        assert state["round_over"] and state["errors"] == []


@pytest.mark.parametrize(("argv", "message"), [
    (["serve", "--source", "0"], "--source needs --table"),
    (["serve", "--table", "missing.json"], "no such table file"),
    (["serve", "--source", "missing.mp4", "--table", "new.json"], "missing.mp4"),
    (["serve", "--ruleset", "poker"], "poker"),
])
def test_serve_refuses_bad_options_in_one_line(
        argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--db", str(tmp_path / "g.sqlite3")]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["serve", "export"])
def test_a_store_that_is_no_database_is_refused_and_left_as_it_was(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "table.json"   # given for the store by mistake
    table.write_text('{"version": 1}\n')
    assert main([command, "--db", str(table)]) == 2
    assert capsys.readouterr().err == (f"gouji {command}: error: {table}: not a record store "
                                       f"(file is not a database)\n")
    assert table.read_text() == '{"version": 1}\n'


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_bad_port_is_refused_by_name(port: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: pytest.fail("served"))
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", port, "--db", str(tmp_path / "g.sqlite3")])
    assert exited.value.code == 2 and "argument --port" in capsys.readouterr().err


@pytest.mark.parametrize("games", ["0", "some"])
def test_a_bad_count_of_games_with_pictures_is_refused_by_name(
        games: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--keep-pictures", games])
    assert exited.value.code == 2 and "argument --keep-pictures" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--accept-after", "--round-gap"])
@pytest.mark.parametrize("seconds", ["soon", "-1", "7200"])
def test_a_bad_wait_is_refused_by_name(
        option: str, seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", option, seconds])
    assert exited.value.code == 2 and option in capsys.readouterr().err


@pytest.mark.parametrize("command", ["serve", "process"])
@pytest.mark.parametrize("conf", ["sure", "-0.1", "1.5"])
def test_a_bad_review_threshold_is_refused_by_name(
        command: str, conf: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--review-conf", conf])
    assert exited.value.code == 2 and "argument --review-conf" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["serve", "process"])
def test_the_help_gives_the_segmenters_own_review_threshold(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert f"(default {REVIEW_CONF};" in " ".join(capsys.readouterr().out.split())


def test_a_loopback_server_answers_only_to_local_host_names(client: TestClient) -> None:
    assert client.get("/api/state").status_code == 200
    rebound = client.get("/api/state", headers={"Host": "evil.example:8000"})
    assert rebound.status_code == 400


def test_gouji_export_writes_what_gouji_replay_reproduces(
        tmp_path: Path, game_events: list[dict[str, Any]],
        capsys: pytest.CaptureFixture[str]) -> None:
    with local_client(create_app(make_settings(tmp_path))) as client:
        for event in first_round(game_events):
            post(client, event)
        state = client.get("/api/state").json()
    db = str(tmp_path / "games.sqlite3")
    assert main(["export", "--db", db]) == 0
    (tmp_path / "game.jsonl").write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["replay", str(tmp_path / "game.jsonl")]) == 0
    replayed = json.loads(capsys.readouterr().out)
    for key in ("finish_order", "scores", "counts", "places", "tribute", "history"):
        assert replayed[key] == state[key], key
    assert main(["export", "--db", db, "--game", "1", "--format", "text"]) == 0
    assert "进贡 tribute for the next round" in capsys.readouterr().out
    assert main(["export", "--db", db, "--game", "7"]) == 2
    assert "no game 7" in capsys.readouterr().err


def test_vision_events_keep_their_reason_and_lose_only_unknown_keys(
        app: FastAPI, client: TestClient, game_events: list[dict[str, Any]]) -> None:
    live = app.state.live
    submit_checked(live, {**game_events[0], "source": "inferred"})
    submit_checked(live, {**game_events[1], "t": 3.5, "source": "vision", "conf": 0.31,
                          "review": True, "reason": "low confidence", "boxes": [[1, 2, 3, 4]]})
    held = client.get("/api/state").json()["held"]
    assert [h["event"]["reason"] for h in held] == ["low confidence"]
    assert "boxes" not in held[0]["event"]


def test_a_correction_from_the_pipeline_replaces_the_play_it_names(
        app: FastAPI, client: TestClient) -> None:
    live = app.state.live
    send = PipelineSubmitter(live)
    send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
    send({"type": "play", "seat": 0, "cards": "5555", "source": "vision", "seq": 2})
    send({"type": "play", "seat": 0, "cards": "555", "source": "vision", "fixes": 2,
          "review": True, "reason": "revised", "seq": 3})
    send({"type": "play", "seat": 1, "cards": "666", "source": "vision", "seq": 4})
    send({"type": "play", "seat": 1, "cards": "77", "source": "vision", "fixes": 9, "seq": 5})
    state = client.get("/api/state").json()
    log = {row["seq"]: row for row in state["log"]}
    assert len(log) == 4  # the correction of a play never stored is dropped
    assert log[2]["status"] == "replaced" and log[3]["event"]["fixes"] == 2
    assert [h["event"]["cards"] for h in state["held"]] == ["555"]


def test_a_play_vision_committed_is_shown_as_its_picture_and_so_is_its_correction(
        app: FastAPI, client: TestClient) -> None:
    send = PipelineSubmitter(app.state.live)
    game = app.state.live.game.id
    send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
    send({"type": "play", "seat": 0, "cards": "5555", "source": "vision", "seq": 2})
    send.picture(2, b"\xff\xd8 fives")
    send({"type": "play", "seat": 0, "cards": "555", "source": "vision", "fixes": 2,
          "review": True, "reason": "revised", "seq": 3})
    send.picture(9, b"\xff\xd8 never stored")   # a play the game refused to store: no picture
    state = client.get("/api/state").json()
    assert [(h["seq"], h["event"]["fixes"], h["picture"]) for h in state["held"]] == [(3, 2, True)]
    assert {row["seq"]: row["picture"] for row in state["log"]} == {1: False, 2: True, 3: True}
    for seq in (2, 3):
        for url in (f"/api/plays/{seq}/picture", f"/api/games/{game}/plays/{seq}/picture"):
            answer = client.get(url)
            assert answer.status_code == 200 and answer.headers["content-type"] == "image/jpeg"
            assert answer.content == b"\xff\xd8 fives"
    # A game's play keeps its picture for good; "the current game's play 3" does not.
    assert "immutable" in client.get(f"/api/games/{game}/plays/3/picture").headers[
        "cache-control"]
    assert client.get("/api/plays/3/picture").headers["cache-control"] == "no-store"
    for seq in (1, 4, 9):   # the round, and events never stored
        answer = client.get(f"/api/games/{game}/plays/{seq}/picture")
        assert answer.status_code == 404 and "no picture of event" in answer.json()["detail"]
        assert answer.headers["cache-control"] == "no-store"   # a picture may come later
    # A new game numbers its events from 1 again: the old game's pictures are not its own, and
    # stay the old game's.
    client.post("/api/games")
    assert client.get("/api/plays/2/picture").status_code == 404
    assert client.get(f"/api/games/{game}/plays/2/picture").content == b"\xff\xd8 fives"


def send_plays_with_pictures(app: FastAPI) -> None:
    """Seat 0's 55 (its picture b"55"), seat 1's 66 held for review, seat 2's 77 let in and
    corrected later to 777, held: events 2-5 of the game."""
    send = PipelineSubmitter(app.state.live)
    send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
    plays = [("55", False), ("66", True), ("77", False)]   # (cards, held for review)
    for seq, (cards, held) in enumerate(plays, start=2):
        send({"type": "play", "seat": seq - 2, "cards": cards, "source": "vision",
              "review": held, "seq": seq})
        send.picture(seq, cards.encode())
    send({"type": "play", "seat": 2, "cards": "777", "source": "vision", "fixes": 4,
          "review": True, "seq": 5})


def test_the_pictures_of_plays_outlast_a_restart(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    send_plays_with_pictures(app)
    app.state.live.close()

    resumed = local_client(create_app(make_settings(tmp_path)))   # the same store
    assert [row["picture"] for row in resumed.get("/api/state").json()["log"]] == [
        False, True, True, True, True]
    answers = {seq: resumed.get(f"/api/plays/{seq}/picture") for seq in (2, 3, 4, 5)}
    assert [answers[seq].content for seq in (2, 3, 4)] == [b"55", b"66", b"77"]
    assert answers[5].content == b"77"     # the correction shows the play it corrects


def test_older_games_keep_only_the_pictures_of_the_plays_held_or_corrected(
        tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, keep_pictures=1))
    send_plays_with_pictures(app)
    with local_client(app) as client:
        old = app.state.live.game.id
        pictures = {seq: f"/api/games/{old}/plays/{seq}/picture" for seq in (2, 3, 4)}
        assert all(client.get(url).status_code == 200 for url in pictures.values())
        client.post("/api/games")   # the old game is now past the latest one kept whole
        answers = {seq: client.get(url) for seq, url in pictures.items()}
        assert answers[2].status_code == 404
        assert answers[3].content == b"66" and answers[4].content == b"77"
    # Kept whole while it is among the latest: a restart drops nothing more.
    resumed = local_client(create_app(make_settings(tmp_path, keep_pictures=2)))
    assert resumed.get(pictures[3]).content == b"66"


@pytest.mark.parametrize(("given", "setting", "value"), [
    ([], "keep_pictures", 10), (["--keep-pictures", "3"], "keep_pictures", 3),
    (["--keep-pictures", "all"], "keep_pictures", None),
    ([], "review_conf", REVIEW_CONF), (["--review-conf", "0.5"], "review_conf", 0.5)],
    ids=["pictures-kept", "pictures-of-3-games", "pictures-of-all", "review-conf",
         "review-conf-0.5"])
def test_the_games_with_pictures_and_the_plays_held_are_chosen_on_the_command_line(
        given: list[str], setting: str, value: float | None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[FastAPI] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: served.append(app))
    assert main(["serve", "--db", str(tmp_path / "g.sqlite3"), "--no-speech", *given]) == 0
    assert getattr(served[0].state.settings, setting) == value


def test_gouji_export_writes_the_pictures_of_the_plays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app(make_settings(tmp_path))
    send = PipelineSubmitter(app.state.live)
    send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
    send({"type": "play", "seat": 0, "cards": "55", "source": "vision", "seq": 2})
    send.picture(2, b"55")
    send({"type": "play", "seat": 0, "cards": "555", "source": "vision", "fixes": 2,
          "review": True, "seq": 3})
    send({"type": "play", "seat": 1, "cards": "66", "source": "vision", "seq": 4})
    send.picture(4, b"66")
    app.state.live.close()
    pictures = tmp_path / "pictures"
    assert main(["export", "--db", str(tmp_path / "games.sqlite3"), "--format", "raw",
                 "--pictures", str(pictures)]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["seq"] for line in out.splitlines()] == [1, 2, 3, 4]
    assert {path.name: path.read_bytes() for path in pictures.iterdir()} == {
        "play-2.jpg": b"55", "play-4.jpg": b"66"}
    assert f"2 pictures of game 1's plays written to {pictures}" in err


def test_a_new_deal_vision_opened_under_a_round_left_open_counts_once_that_round_is_corrected(
        app: FastAPI, client: TestClient) -> None:
    # Seat 4's last QQ was read as Q, so round 1 never ended. The table dealt anew; vision
    # opened round 2 with seat 4's KK and judged its plays by round 2's rules. The game refuses
    # all of it until the operator corrects the Q: then round 2 stands as vision saw it.
    send = PipelineSubmitter(app.state.live)
    send({"type": "round", "first": 0, "counts": [1, 36, 1, 36, 3, 36], "source": "inferred",
          "seq": 1})
    for seq, (seat, cards) in enumerate([(0, "5"), (2, "7"), (4, "A"), (4, "Q")], start=2):
        send({"type": "play", "seat": seat, "cards": cards, "source": "vision", "seq": seq})
    send({"type": "round", "first": 4, "source": "inferred", "seq": 6})
    send({"type": "play", "seat": 4, "cards": "KK", "source": "vision", "seq": 7})
    send({"type": "play", "seat": 5, "cards": "AA", "source": "vision", "seq": 8})
    state = client.get("/api/state").json()
    assert state["round"] == 1 and {e["line"] for e in state["errors"]} == {6, 7, 8}
    post(client, {"type": "play", "seat": 4, "cards": "QQ", "fixes": 5})    # the operator
    state = client.get("/api/state").json()
    assert state["round"] == 2 and state["errors"] == []
    assert state["history"][0]["finish_order"][:3] == [0, 2, 4]
    assert state["counts"]["4"] == 34 and state["counts"]["5"] == 34


def vision_holding_a_lead(live: Any, cards: str) -> Callable[[dict[str, Any]], None]:
    """The pipeline's way into ``live``, after it opened a round (its event 1) and sent seat
    0's lead ``cards`` held for review (its event 2)."""
    send = PipelineSubmitter(live)
    send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
    send({"type": "play", "seat": 0, "cards": cards, "source": "vision", "review": True,
          "seq": 2})
    return send


def test_a_correction_from_the_pipeline_leaves_what_the_operator_did_alone(
        app: FastAPI, client: TestClient) -> None:
    send = vision_holding_a_lead(app.state.live, "5555")
    post(client, {"type": "play", "seat": 0, "cards": "55", "fixes": 2})   # the operator
    send({"type": "play", "seat": 0, "cards": "555", "source": "vision", "fixes": 2,
          "review": True, "seq": 3})
    state = client.get("/api/state").json()
    assert state["held"] == [] and state["counts"]["0"] == 34
    assert len(state["log"]) == 3


def test_vision_judges_the_plays_after_a_held_one_against_the_table_as_seen(
        app: FastAPI, client: TestClient) -> None:
    live = app.state.live
    send = PipelineSubmitter(live)
    prior = MatchPrior(SeenMatch(live))
    send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
    send({"type": "play", "seat": 0, "cards": "555", "source": "vision", "review": True,
          "reason": "faint 5 (conf 0.2) beside it", "seq": 2})
    # The held lead is out of the game until accepted, but it lies on the table: the answer
    # to it is judged against the table, not refused because seat 0 "is still to act".
    assert live.state["to_act"] == [0] and live.state["counts"]["0"] == 36
    assert live.seen_state["counts"]["0"] == 33 and prior.may_act(1)
    assert prior.objection(1, "666") is None
    assert prior.checkpoint().to_json()["trick"]["last_cards"] == "555"
    send({"type": "play", "seat": 1, "cards": "666", "source": "vision", "seq": 3})
    seen = live.seen_state["counts"]
    assert (seen["0"], seen["1"]) == (33, 33) and live.state["counts"]["1"] == 36
    post(client, {"type": "accept", "fixes": 2})
    state = client.get("/api/state").json()
    assert state["errors"] == [] and (state["counts"]["0"], state["counts"]["1"]) == (33, 33)
    assert live.seen_state == live.state


def test_a_play_held_past_the_wait_is_let_in_and_vision_may_still_correct_it(
        app: FastAPI, client: TestClient) -> None:
    live = app.state.live
    send = vision_holding_a_lead(live, "555")
    held_at = datetime.fromisoformat(live.records[-1].at)
    assert live.accept_waiting(5, now=held_at + timedelta(seconds=4)) == []
    assert live.state["counts"]["0"] == 36
    assert live.accept_waiting(5, now=held_at + timedelta(seconds=5)) == [2]
    state = client.get("/api/state").json()
    assert state["held"] == [] and state["counts"]["0"] == 33
    assert state["log"][-1]["event"] == {"type": "accept", "fixes": 2, "source": "inferred"}
    # Let in by the wait, not by the operator: a later correction from vision still lands,
    # held anew, and waits again.
    send({"type": "play", "seat": 0, "cards": "5555", "source": "vision", "fixes": 2,
          "review": True, "seq": 3})
    state = client.get("/api/state").json()
    assert [h["event"]["cards"] for h in state["held"]] == ["5555"]
    assert state["counts"]["0"] == 36 and live.seen_state["counts"]["0"] == 32
    corrected_at = datetime.fromisoformat(live.records[-1].at)
    assert live.accept_waiting(5, now=corrected_at + timedelta(seconds=1)) == []
    assert live.accept_waiting(5, now=corrected_at + timedelta(seconds=6)) == [4]
    assert live.state["counts"]["0"] == 32 and live.state["errors"] == []
    # The operator undoes that accept: the play is held again, for the operator alone.
    post(client, {"type": "undo", "fixes": 5})
    assert [h["seq"] for h in client.get("/api/state").json()["held"]] == [4]
    assert live.accept_waiting(5, now=corrected_at + timedelta(hours=1)) == []


def test_the_wait_lets_held_plays_in_while_the_server_runs(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, accept_after=0.2))
    live = app.state.live
    with local_client(app):
        vision_holding_a_lead(live, "555")
        deadline = time.monotonic() + 10
        while live.state["held"] and time.monotonic() < deadline:
            time.sleep(0.05)
    assert live.state["held"] == [] and live.state["counts"]["0"] == 33


def test_a_copy_of_the_live_match_is_the_games_and_playing_on_it_leaves_the_game_alone(
        app: FastAPI, client: TestClient, game_events: list[dict[str, Any]]) -> None:
    for event in game_events[:3]:
        post(client, event)
    copy = app.state.live.match_copy()
    state = client.get("/api/state").json()
    assert copy.to_json()["counts"] == state["counts"]
    copy.apply({"type": "collect"})
    assert copy.apply({"type": "play", "seat": copy.to_json()["to_act"][0], "cards": "3"}).applied
    assert copy.to_json()["counts"] != state["counts"]
    assert client.get("/api/state").json()["counts"] == state["counts"]
