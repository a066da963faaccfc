"""The record store: append-only, numbered, per game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assistant import store


def test_events_are_numbered_per_game_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    conn = store.open_store(path)
    first = store.create_game(conn, ruleset="qingdao")
    second = store.create_game(conn, ruleset="biesan")
    store.append_event(conn, game_id=first.id, event={"type": "round"})
    store.append_event(conn, game_id=second.id, event={"type": "round"})
    stored = store.append_event(conn, game_id=first.id, event={"type": "pass", "seat": 1})
    assert stored.seq == 2
    conn.close()
    reopened = store.open_store(path)
    assert [e.event for e in store.load_events(reopened, game_id=first.id)] == [
        {"type": "round"}, {"type": "pass", "seat": 1}]
    assert store.latest_game(reopened) == second
    assert [(g.id, n) for g, n in store.list_games(reopened)] == [(second.id, 1), (first.id, 2)]


@pytest.mark.parametrize("statement", [
    "UPDATE events SET body = '{}'",   # rewriting history
    "DELETE FROM events",              # losing it
])
def test_events_cannot_be_changed_or_deleted(tmp_path: Path, statement: str) -> None:
    conn = store.open_store(tmp_path / "games.sqlite3")
    game = store.create_game(conn, ruleset="qingdao")
    store.append_event(conn, game_id=game.id, event={"type": "round"})
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(statement)
    assert len(store.load_events(conn, game_id=game.id)) == 1


def test_the_latest_setting_wins_and_older_ones_stay(tmp_path: Path) -> None:
    conn = store.open_store(tmp_path / "games.sqlite3")
    game = store.create_game(conn, ruleset="qingdao")
    store.set_setting(conn, game_id=game.id, key="names", value=["a"] * 6)
    store.set_setting(conn, game_id=game.id, key="names", value=["张伟"] * 6)
    assert store.load_settings(conn, game_id=game.id) == {"names": ["张伟"] * 6}
    assert conn.execute("SELECT COUNT(*) FROM settings").fetchone() == (2,)


def test_each_older_game_is_trimmed_of_pictures_once_even_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    conn = store.open_store(path)

    def play_with_picture(game_id: int) -> int:
        seq = store.append_event(conn, game_id=game_id,
                                 event={"type": "play", "seat": 0, "cards": "55"}).seq
        store.save_picture(conn, game_id=game_id, seq=seq, jpeg=b"cards")
        return seq

    games = [store.create_game(conn, ruleset="qingdao").id for _ in range(3)]
    for game_id in games:
        play_with_picture(game_id)
    assert store.drop_old_pictures(conn, keep_games=1) == 2
    conn.close()
    conn = store.open_store(path)
    late = play_with_picture(games[0])   # not looked at again: a trimmed game stays trimmed
    assert store.drop_old_pictures(conn, keep_games=1) == 0
    assert store.pictured(conn, game_id=games[0]) == {late}
    store.create_game(conn, ruleset="qingdao")
    assert store.drop_old_pictures(conn, keep_games=1) == 1   # the game just left the window
    assert store.pictured(conn, game_id=games[2]) == set()
