"""The live game: stored log → effective log → rules state, pushed to every open page.

One :class:`LiveGame` per server. Every change (an event from the pipeline or the operator, a new
seat name…) is stored first, then the state is recomputed and pushed to the subscribers as a
numbered change: ``{"kind": "change", "version": n, "changes": {key: value}}`` holding only the
top-level state keys that differ. A subscriber starts with ``{"kind": "snapshot", "version": n,
"state": {...}}``; a page that sees a gap in the numbers asks for a new snapshot by reconnecting.

The pipeline thread and the request handlers call in concurrently; a lock serialises changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import rules
from assistant import store
from assistant.corrections import CONTROL_TYPES, Resolution, last_undoable, resolve
from assistant.store import Game, StoredEvent
from assistant.texts import for_people, turn_text, turn_text_en

log = logging.getLogger("gouji.live")

__all__ = ["LiveGame", "Subscription", "engine_event"]

FEED_LENGTH = 30
"""Announcements kept for the feed (and rebuilt after a restart)."""
SPEAKABLE = 2000
"""Distinct texts remembered as said by the game (and so allowed as speech)."""
LOG_LENGTH = 40
"""Recent stored events shown with their standing in the dashboard's log."""
_ASSISTANT_KEYS = ("fixes", "review", "reason")


def engine_event(event: dict[str, Any]) -> dict[str, Any]:
    """The event as the rules engine sees it: without the assistant's bookkeeping keys.

    >>> engine_event({"type": "play", "seat": 1, "cards": "55", "fixes": 4, "source": "operator"})
    {'type': 'play', 'seat': 1, 'cards': '55', 'source': 'operator'}
    """
    return {k: v for k, v in event.items() if k not in _ASSISTANT_KEYS}


BACKLOG = 200
"""Messages a page may fall behind by before it is cut off (it reconnects for a snapshot)."""


@dataclass(eq=False)
class Subscription:
    """One open page's queue of messages, fed from any thread."""

    loop: asyncio.AbstractEventLoop
    """The event loop of the page's WebSocket handler."""
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    """Messages waiting to be sent; ``None`` ends the connection."""

    def send(self, message: dict[str, Any] | None) -> None:
        self.loop.call_soon_threadsafe(self._put, message)

    def _put(self, message: dict[str, Any] | None) -> None:
        if self.queue.qsize() >= BACKLOG:  # a stalled page: end it rather than pile up changes
            message = None
        self.queue.put_nowait(message)


class LiveGame:
    """The game being played, its store and its subscribers.

    ``keep_pictures``: the latest games whose every play keeps its picture; older games keep
    only those of the plays held for review or acted upon (``None``: every picture kept).
    """

    def __init__(self, conn: sqlite3.Connection, game: Game, *, names: list[str] | None = None,
                 speech: bool = False, on_announce: Callable[[str], None] | None = None,
                 keep_pictures: int | None = None) -> None:
        self._conn = conn
        self._keep_pictures = keep_pictures
        self._lock = threading.RLock()
        self._subscribers: set[Subscription] = set()
        self._on_announce = on_announce
        self._speakable: dict[str, None] = {}  # ordered set, oldest first
        self.version = 0
        self._load(game, names=names, speech=speech)
        self._drop_old_pictures()

    # -- loading -------------------------------------------------------------------------------

    def _load(self, game: Game, *, names: list[str] | None, speech: bool) -> None:
        self.game = game
        self.records: list[StoredEvent] = store.load_events(self._conn, game_id=game.id)
        self._pictured = store.pictured(self._conn, game_id=game.id)
        saved = store.load_settings(self._conn, game_id=game.id)
        self.names: list[str] = saved.get("names") or names or [""] * 6
        self.next_ruleset: str = saved.get("ruleset", game.ruleset)
        self.speech: bool = saved.get("speech", speech)
        self._feed: deque[dict[str, Any]] = deque(maxlen=FEED_LENGTH)
        self._replay(resolve(self.records))
        self._state = self._public_state()
        self._seen_state = self._seen_json()

    def _drop_old_pictures(self) -> None:
        """Keep every play's picture of the latest games only (``keep_pictures`` of them;
        :func:`assistant.store.drop_old_pictures`)."""
        if self._keep_pictures is not None:
            dropped = store.drop_old_pictures(self._conn, keep_games=self._keep_pictures)
            if dropped:
                log.info("dropped %d pictures of plays of games before the latest %d",
                         dropped, self._keep_pictures)

    def new_game(self, *, ruleset: str | None = None) -> Game:
        """Start a new game record (seat names carry over) and show it."""
        with self._lock:
            game = store.create_game(self._conn, ruleset=ruleset or self.next_ruleset)
            store.set_setting(self._conn, game_id=game.id, key="names", value=self.names)
            self._drop_old_pictures()
            shown = self._state
            self._load(game, names=self.names, speech=self.speech)
            self._state = shown  # so the change pushed to the pages is the whole difference
            self._publish()
            return game

    # -- the rules state -----------------------------------------------------------------------

    def _replay(self, resolution: Resolution) -> None:
        """Rebuild the match from the effective log (after a correction, an undo, a restart),
        and, while plays are held, the game as the table shows it (:attr:`seen_state`)."""
        self._match = rules.Match(ruleset=self.game.ruleset)
        self._engine_errors: list[dict[str, Any]] = []
        self._resolution = resolution
        self._feed.clear()
        self._seen_match: rules.Match | None = None
        feed_from = len(resolution.effective) - FEED_LENGTH
        held, applied = set(resolution.held), 0
        # One pass: the game as seen is the game's copy from its first held play on.
        for seq, event in resolution.seen:
            if seq in held and self._seen_match is None:
                self._seen_match = self._match.copy()
            if seq not in held:
                self._apply(seq, event, announce=applied >= feed_from, speak=False)
                applied += 1
            if self._seen_match is not None:
                self._apply_seen(seq, event)

    def _apply_seen(self, seq: int, event: dict[str, Any]) -> None:
        """Apply ``event`` to the game as seen (malformed ones are the match's errors already)."""
        assert self._seen_match is not None
        with contextlib.suppress(rules.GoujiError):
            self._seen_match.apply(engine_event(event), line=seq)

    def _apply(self, seq: int, event: dict[str, Any], *, announce: bool, speak: bool) -> None:
        try:
            result = self._match.apply(engine_event(event), line=seq)
        except rules.GoujiError as exc:  # malformed despite validation: reported, never fatal
            self._engine_errors.append({"line": seq, "event": event, "reason": str(exc)})
            return
        if not announce:
            return
        for text in map(for_people, result.announcements):
            self._feed.append({"seq": seq, "text": text})
            self._may_speak(text)
            if speak and self.speech and self._on_announce is not None:
                self._on_announce(text)

    def _public_state(self) -> dict[str, Any]:
        state = self._match.to_json()
        state["errors"] = [*state.get("errors", []), *self._engine_errors]
        state["seats"] = [{**seat, "name": self.names[seat["seat"]]}
                          for seat in state.get("seats", [])]
        held = set(self._resolution.held)
        pictured = self._plays_pictured()
        state.update(
            game={"id": self.game.id, "created": self.game.created, "ruleset": self.game.ruleset},
            next_ruleset=self.next_ruleset,
            speech=self.speech,
            names=list(self.names),
            turn_text=turn_text(state),
            turn_text_en=turn_text_en(state),
            feed=list(self._feed),
            held=self.record_views([s for s in self.records if s.seq in held], state["errors"],
                                   pictured),
            log=self.record_views(self.records[-LOG_LENGTH:], state["errors"], pictured),
            stored=len(self.records),
        )
        return state

    def record_views(self, records: list[StoredEvent],
                     errors: list[dict[str, Any]] | None = None,
                     pictured: set[int] | None = None) -> list[dict[str, Any]]:
        """Stored events with their standing (``effective``, ``replaced``…), the rules'
        reason when refused and whether a picture shows them (``errors``: the state's, and
        ``pictured``: :meth:`_plays_pictured`, unless given)."""
        errors = self._state["errors"] if errors is None else errors
        reasons = {int(e["line"]): e["reason"] for e in errors}
        status = self._resolution.status
        pictured = self._plays_pictured() if pictured is None else pictured
        return [{"seq": s.seq, "at": s.at, "event": s.event,
                 "status": status.get(s.seq, "effective"), "error": reasons.get(s.seq),
                 "picture": s.seq in pictured}
                for s in records]

    def _plays_pictured(self) -> set[int]:
        """The plays a picture shows (``GET /api/games/{game}/plays/{seq}/picture``): those
        whose own is kept, and corrections of them."""
        shown: set[int] = set()
        for stored in self.records:   # a correction comes after the play it corrects
            if stored.event.get("type") == "play" and (
                    stored.seq in self._pictured or stored.event.get("fixes") in shown):
                shown.add(stored.seq)
        return shown

    # -- changes ---------------------------------------------------------------------------------

    def submit(self, event: dict[str, Any]) -> tuple[StoredEvent, str | None]:
        """Store ``event``, bring the state up to date and push the change.

        Returns the stored event and the rules engine's reason when it refused the event (the
        event stays in the log, marked, for the operator to correct or undo).
        """
        with self._lock:
            if event.get("type") == "undo" and event.get("fixes") is None:
                target = last_undoable(self.records)
                if target is None:
                    raise LookupError("nothing to undo")
                event = {**event, "fixes": target}
            self._check_target(event)
            stored = store.append_event(self._conn, game_id=self.game.id, event=event)
            self.records.append(stored)
            resolution = resolve(self.records)
            if resolution.seen[:-1] == self._resolution.seen and resolution.seen[-1:] == [
                    (stored.seq, event)]:   # a new event at the end, nothing else changed
                self._resolution = resolution
                if resolution.held[-1:] == [stored.seq]:
                    if self._seen_match is None:
                        self._seen_match = self._match.copy()
                else:
                    self._apply(stored.seq, event, announce=True, speak=True)
                if self._seen_match is not None:
                    self._apply_seen(stored.seq, event)
            else:
                self._replay(resolution)
            self._publish()
            error = next((e["reason"] for e in self._state["errors"] if e["line"] == stored.seq),
                         None)
            return stored, error

    def _check_target(self, event: dict[str, Any]) -> None:
        """A correction must point at an earlier game event (not at an undo or accept)."""
        target = event.get("fixes")
        if target is None:
            return
        found = next((s for s in self.records if s.seq == target), None)
        if found is None:
            raise LookupError(f"event {target} does not exist in game {self.game.id}")
        kind = event.get("type")
        if kind == "accept" and not found.event.get("review"):
            raise ValueError(f"event {target} is not held for review")
        if kind not in CONTROL_TYPES and found.event.get("type") in CONTROL_TYPES:
            raise ValueError(f"event {target} is an {found.event['type']}, not a game event")

    def accept_waiting(self, after: float, *, now: datetime | None = None) -> list[int]:
        """Let in every play held for review for ``after`` seconds or more, as seen (an
        ``accept`` from ``inferred`` each): at a table nobody referees the game goes on. A
        play vision corrects later is held anew and waits again; a play put back on hold by
        undoing its ``accept`` waits for the operator. Returns the plays let in."""
        now = now or datetime.now(UTC)
        with self._lock:
            held = set(self._resolution.held) - {
                stored.event["fixes"] for stored in self.records
                if stored.event.get("type") == "accept"}
            due = [stored.seq for stored in self.records if stored.seq in held
                   and (now - datetime.fromisoformat(stored.at)).total_seconds() >= after]
            for seq in due:
                self.submit({"type": "accept", "fixes": seq, "source": "inferred"})
            return due

    def save_picture(self, game: int, seq: int, jpeg: bytes) -> None:
        """Keep the picture of play ``seq`` of game ``game`` with the record
        (:func:`assistant.store.save_picture`)."""
        with self._lock:
            store.save_picture(self._conn, game_id=game, seq=seq, jpeg=jpeg)
            if game == self.game.id:   # the pages show it from now on
                self._pictured.add(seq)
                self._publish()

    def load_picture(self, game: int, seq: int) -> bytes | None:
        """The picture of play ``seq`` of game ``game``, or of the play it corrects
        (:func:`assistant.store.load_picture`)."""
        with self._lock:
            return store.load_picture(self._conn, game_id=game, seq=seq)

    def set_names(self, names: list[str]) -> None:
        with self._lock:
            store.set_setting(self._conn, game_id=self.game.id, key="names", value=names)
            self.names = list(names)
            self._publish()

    def set_next_ruleset(self, ruleset: str) -> None:
        with self._lock:
            store.set_setting(self._conn, game_id=self.game.id, key="ruleset", value=ruleset)
            self.next_ruleset = ruleset
            self._publish()

    def set_speech(self, enabled: bool) -> None:
        with self._lock:
            store.set_setting(self._conn, game_id=self.game.id, key="speech", value=enabled)
            self.speech = enabled
            self._publish()

    # -- reading and pushing ---------------------------------------------------------------------

    @property
    def state(self) -> dict[str, Any]:
        """The public state (the STATE JSON plus seat names and the dashboard's extras)."""
        return self._state

    @property
    def resolution(self) -> Resolution:
        return self._resolution

    @property
    def seen_state(self) -> dict[str, Any]:
        """The STATE JSON of the game as the table shows it: held plays in their places. While
        a play waits for review the game goes on at the table, and vision judges the plays
        after it against this state, not against :attr:`state`, which leaves it out."""
        return self._seen_state or self._state

    def match_copy(self, *, as_seen: bool = False) -> rules.Match:
        """A copy of the rules' match as it stands (the effective log applied; ``as_seen``:
        with the held plays too), which the caller may play on without touching the game."""
        with self._lock:
            match = self._seen_match if as_seen and self._seen_match is not None else self._match
            return match.copy()

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> Subscription:
        """Register a page; its queue starts with a snapshot."""
        with self._lock:
            subscription = Subscription(loop)
            subscription.queue.put_nowait(
                {"kind": "snapshot", "version": self.version, "state": self._state})
            self._subscribers.add(subscription)
            return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    def close(self) -> None:
        """Tell every page the server is going away (they reconnect by themselves)."""
        with self._lock:
            for subscription in self._subscribers:
                subscription.send(None)
            self._subscribers.clear()

    def _may_speak(self, text: str) -> None:
        self._speakable[text] = None
        if len(self._speakable) > SPEAKABLE:
            del self._speakable[next(iter(self._speakable))]

    def speakable(self, text: str) -> bool:
        """Whether the game said ``text`` (only its own words are rendered as speech)."""
        return text in self._speakable

    def _seen_json(self) -> dict[str, Any] | None:
        """The STATE JSON of the game as seen, when it differs from the game's (plays held)."""
        return self._seen_match.to_json() if self._seen_match is not None else None

    def _publish(self) -> None:
        self._seen_state = self._seen_json()
        old, new = self._state, self._public_state()
        self._may_speak(new["turn_text"])
        self._state = new
        changes = {k: v for k, v in new.items() if old.get(k) != v}
        changes.update({k: None for k in old.keys() - new.keys()})
        self.version += 1
        message = {"kind": "change", "version": self.version, "changes": changes}
        for subscription in list(self._subscribers):
            subscription.send(message)
