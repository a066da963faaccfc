"""The record store: every game's events in SQLite, append-only.

Functions take the connection first and keyword-only arguments after it; they know nothing of
HTTP. Rows are never updated or deleted (triggers refuse it): a correction is a new event that
points at the one it fixes, and settings (seat names, ruleset, speech) are new rows whose latest
one wins. Each write is its own committed transaction, so a killed process loses nothing it
acknowledged. Beside the log, the picture of each play vision committed (a JPEG, as vision saw
it) is kept, so that a play is shown as it was read; of older games, those of the plays held
for review or acted upon (:func:`drop_old_pictures`: the pictures are no part of the record).

>>> conn = open_store(":memory:")
>>> game = create_game(conn, ruleset="qingdao")
>>> append_event(conn, game_id=game.id, event={"type": "round", "first": 0}).seq
1
>>> [e.event["type"] for e in load_events(conn, game_id=game.id)]
['round']
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "Game",
    "StoredEvent",
    "append_event",
    "create_game",
    "drop_old_pictures",
    "get_game",
    "latest_game",
    "list_games",
    "load_events",
    "load_picture",
    "load_pictures",
    "load_settings",
    "open_store",
    "pictured",
    "save_picture",
    "set_setting",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    ruleset TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    at      TEXT NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at      TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pictures (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    jpeg    BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS trimmed_games (
    game_id INTEGER PRIMARY KEY REFERENCES games(id)
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""


@dataclass(frozen=True, slots=True)
class Game:
    """One match (several rounds) at one table."""

    id: int
    """Row id, 1-based."""
    created: str
    """UTC time of creation, ISO 8601."""
    ruleset: str
    """Ruleset the game started with."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One line of a game's event log as stored."""

    seq: int
    """Sequence number within the game, 1-based; corrections point at it with ``fixes``."""
    at: str
    """UTC time it was stored, ISO 8601."""
    event: dict[str, Any]
    """The event as received (``type``, ``seat``, ``cards``, ``source``, ``fixes``…)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def open_store(path: Path | str) -> sqlite3.Connection:
    """Open (and create if needed) the store at ``path`` (``":memory:"`` for a throw-away one).

    A file there that is no SQLite database (a video given for the store) is a ValueError naming
    it, and is left as it was."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
    except sqlite3.DatabaseError as exc:   # read before anything is written
        conn.close()
        raise ValueError(f"{path}: not a record store ({exc})") from None
    conn.execute("PRAGMA synchronous=FULL")  # an acknowledged event survives power loss too
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(_SCHEMA)
    return conn


def _game(row: tuple[Any, ...] | None) -> Game | None:
    return None if row is None else Game(id=row[0], created=row[1], ruleset=row[2])


def create_game(conn: sqlite3.Connection, *, ruleset: str) -> Game:
    """Start a new game record."""
    created = _now()
    cursor = conn.execute("INSERT INTO games (created, ruleset) VALUES (?, ?)", (created, ruleset))
    assert cursor.lastrowid is not None
    return Game(id=cursor.lastrowid, created=created, ruleset=ruleset)


def get_game(conn: sqlite3.Connection, *, game_id: int) -> Game | None:
    """The game with this id, or ``None``."""
    return _game(conn.execute(
        "SELECT id, created, ruleset FROM games WHERE id = ?", (game_id,)).fetchone())


def latest_game(conn: sqlite3.Connection) -> Game | None:
    """The most recently created game, or ``None`` in an empty store."""
    return _game(conn.execute(
        "SELECT id, created, ruleset FROM games ORDER BY id DESC LIMIT 1").fetchone())


def list_games(conn: sqlite3.Connection) -> list[tuple[Game, int]]:
    """Every game, newest first, with its number of stored events."""
    rows = conn.execute(
        "SELECT g.id, g.created, g.ruleset, COUNT(e.seq) FROM games g "
        "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC").fetchall()
    return [(Game(id=r[0], created=r[1], ruleset=r[2]), r[3]) for r in rows]


def append_event(conn: sqlite3.Connection, *, game_id: int, event: dict[str, Any]) -> StoredEvent:
    """Store ``event`` as the next line of the game's log and return it with its number."""
    body = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    at = _now()
    with conn:  # one transaction: read the last number and write the next one atomically
        conn.execute("BEGIN IMMEDIATE")
        (last,) = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        conn.execute("INSERT INTO events (game_id, seq, at, body) VALUES (?, ?, ?, ?)",
                     (game_id, last + 1, at, body))
    return StoredEvent(seq=last + 1, at=at, event=event)


def load_events(conn: sqlite3.Connection, *, game_id: int) -> list[StoredEvent]:
    """The game's whole log in order."""
    rows = conn.execute(
        "SELECT seq, at, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    return [StoredEvent(seq=seq, at=at, event=json.loads(body)) for seq, at, body in rows]


def set_setting(conn: sqlite3.Connection, *, game_id: int, key: str, value: Any) -> None:
    """Record a new value of a game setting (seat names, next ruleset, speech on/off)."""
    conn.execute("INSERT INTO settings (game_id, at, key, value) VALUES (?, ?, ?, ?)",
                 (game_id, _now(), key, json.dumps(value, ensure_ascii=False)))


def load_settings(conn: sqlite3.Connection, *, game_id: int) -> dict[str, Any]:
    """The latest value of each setting of the game."""
    rows = conn.execute(
        "SELECT key, value FROM settings WHERE game_id = ? ORDER BY id", (game_id,)).fetchall()
    return {key: json.loads(value) for key, value in rows}


def save_picture(conn: sqlite3.Connection, *, game_id: int, seq: int, jpeg: bytes) -> None:
    """Keep the picture of event ``seq`` of the game (a play vision committed: a JPEG); the
    first one kept of an event stands."""
    conn.execute("INSERT OR IGNORE INTO pictures (game_id, seq, jpeg) VALUES (?, ?, ?)",
                 (game_id, seq, jpeg))


def drop_old_pictures(conn: sqlite3.Connection, *, keep_games: int) -> int:
    """Drop the pictures of games older than the latest ``keep_games``, save those of plays
    that were held for review or acted upon (an event fixes them: corrected, accepted or
    undone): a record of every play costs some 4 MB a round, of those some 0.3. Returns how
    many were dropped.

    >>> conn = open_store(":memory:")
    >>> for game_id in (1, 2):
    ...     _ = create_game(conn, ruleset="qingdao")
    ...     for event in ({"type": "play", "seat": 0, "cards": "55"},
    ...                   {"type": "play", "seat": 1, "cards": "66", "review": True},
    ...                   {"type": "play", "seat": 2, "cards": "77"},
    ...                   {"type": "accept", "fixes": 3}):
    ...         seq = append_event(conn, game_id=game_id, event=event).seq
    ...         save_picture(conn, game_id=game_id, seq=seq, jpeg=b"cards")
    >>> drop_old_pictures(conn, keep_games=1)
    2
    >>> [[seq for seq, _ in load_pictures(conn, game_id=game_id)] for game_id in (1, 2)]
    [[2, 3], [1, 2, 3, 4]]
    >>> drop_old_pictures(conn, keep_games=1), drop_old_pictures(conn, keep_games=0)
    (0, 2)
    """
    # A game once trimmed gets no more pictures (vision keeps those of the current game), so
    # each game is trimmed once: a start or a new game costs one game's events, not all.
    due = [game_id for (game_id,) in conn.execute("""
        SELECT id FROM games WHERE id NOT IN (SELECT id FROM games ORDER BY id DESC LIMIT ?)
        AND id NOT IN (SELECT game_id FROM trimmed_games) ORDER BY id""", (keep_games,))]
    dropped = 0
    for game_id in due:   # marked after its trim: one cut short is trimmed again, to no harm
        dropped += conn.execute("""
            DELETE FROM pictures WHERE game_id = :game AND seq NOT IN (
                SELECT seq FROM events WHERE game_id = :game AND json_extract(body, '$.review')
                UNION SELECT json_extract(body, '$.fixes') FROM events
                WHERE game_id = :game AND json_extract(body, '$.fixes') IS NOT NULL)
            """, {"game": game_id}).rowcount
        conn.execute("INSERT INTO trimmed_games (game_id) VALUES (?)", (game_id,))
    return dropped


def pictured(conn: sqlite3.Connection, *, game_id: int) -> set[int]:
    """The numbers of the game's events whose own picture is kept."""
    return {seq for (seq,) in conn.execute("SELECT seq FROM pictures WHERE game_id = ?",
                                            (game_id,))}


def load_pictures(conn: sqlite3.Connection, *, game_id: int) -> Iterator[tuple[int, bytes]]:
    """``(seq, jpeg)`` of every picture kept of the game's plays, in the log's order."""
    rows = conn.execute("SELECT seq, jpeg FROM pictures WHERE game_id = ? ORDER BY seq",
                        (game_id,))
    return ((seq, bytes(jpeg)) for seq, jpeg in rows)


def load_picture(conn: sqlite3.Connection, *, game_id: int, seq: int) -> bytes | None:
    """The picture of event ``seq`` of the game: its own, or for a correction the picture of
    the play it corrects (followed back through corrections of corrections); ``None`` if
    neither has one.

    >>> conn = open_store(":memory:")
    >>> game = create_game(conn, ruleset="qingdao")
    >>> for event in ({"type": "play", "seat": 0, "cards": "55"},
    ...               {"type": "play", "seat": 0, "cards": "555", "fixes": 1},
    ...               {"type": "play", "seat": 0, "cards": "5555", "fixes": 2}):
    ...     _ = append_event(conn, game_id=game.id, event=event)
    >>> save_picture(conn, game_id=game.id, seq=1, jpeg=b"first")
    >>> save_picture(conn, game_id=game.id, seq=1, jpeg=b"second")
    >>> [load_picture(conn, game_id=game.id, seq=seq) for seq in (1, 2, 3, 4)]
    [b'first', b'first', b'first', None]
    >>> list(load_pictures(conn, game_id=game.id)), pictured(conn, game_id=game.id)
    ([(1, b'first')], {1})
    """
    while True:
        row = conn.execute("SELECT jpeg FROM pictures WHERE game_id = ? AND seq = ?",
                           (game_id, seq)).fetchone()
        if row is not None:
            return bytes(row[0])
        row = conn.execute("SELECT json_extract(body, '$.fixes') FROM events "
                           "WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
        # A correction names an earlier event: following the names back ends.
        if row is None or not isinstance(row[0], int) or row[0] >= seq:
            return None
        seq = row[0]
