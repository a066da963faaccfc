"""A match: rounds of play observed from one event log, with scores and the tribute table.

:meth:`Match.apply` never raises for an illegal event: it reports the rule, records the error and
leaves the state as it was. Only a malformed event (not an event at all) raises a
:class:`~rules.errors.GoujiError`, after it is recorded too.

>>> m = Match("qingdao")
>>> m.apply({"type": "round", "first": 0}).applied
True
>>> m.apply({"type": "play", "seat": 0, "cards": "TTTTT"}).announcements
('0号 够级',)
>>> m.to_json()["to_act"], m.to_json()["trick"]["answer"]    # the 对头 3, or a burner
([1, 2, 3, 4, 5], 'duitou')
>>> result = m.apply({"type": "play", "seat": 1, "cards": "99999"}, line=3)
>>> result.applied, result.error.reason, m.to_json()["counts"]["1"]
(False, '99999 does not beat TTTTT', 36)
>>> m.apply({"type": "play", "seat": 1, "cards": "JJJJJ"}).announcements
('1号 烧牌',)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import GoujiError, IllegalEventError
from rules.events import Event, EventType, UnreadableLine, apply_corrections, parse_event
from rules.round import Round, Termination, duitou, federation
from rules.ruleset import Ruleset, load_ruleset
from rules.tribute import TributeRow, tribute_rows

__all__ = ["ApplyResult", "EventError", "Match"]

_RECORDS = ("_given", "_applied", "_snapshots")
"""What a match records of the events it was given, beside its state."""


@dataclass(frozen=True, slots=True)
class EventError:
    """An event that was reported and skipped."""

    line: int | None
    """Line of the event log (1-based), when known."""
    event: Any
    """The event as given."""
    reason: str
    """Which rule refused it, or why it is not an event."""

    def to_json(self) -> dict[str, Any]:
        """The STATE JSON ``errors`` item."""
        event = (dict(self.event) if isinstance(self.event, Mapping) else
                 {"raw": self.event.text if isinstance(self.event, UnreadableLine)
                  else repr(self.event)})
        return {"line": self.line, "event": event, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """What :meth:`Match.apply` did with one event."""

    applied: bool
    """The event changed the state."""
    error: EventError | None
    """Why not, when it was refused."""
    announcements: tuple[str, ...]
    """Short 中文 announcements for the dashboard."""


class Match:
    """All rounds of a match, observed event by event.

    Args:
        ruleset: Name, alias or :class:`Ruleset`; None takes the first ``round`` event's
            ruleset, else ``qingdao``.
    """

    def __init__(self, ruleset: str | Ruleset | None = None) -> None:
        self._ruleset_fixed = ruleset is not None
        self._ruleset_given = ruleset
        self._given: list[tuple[int | None, Any]] = []
        """Every event given to :meth:`apply`, with its line: what a correction replays."""
        self._applied: list[tuple[int | None, Any]] = []
        """The events the state stands on, corrections in place, in order."""
        self._snapshots: list[tuple[int, Match]] = []
        """``(n, copy)``: a copy of the state after the first ``n`` of :attr:`_applied`, taken
        as each round began: a correction replays the events since the last one before the
        event it corrects, not the whole match."""
        self._reset()

    def _reset(self) -> None:
        """The state before any event."""
        self.ruleset = load_ruleset(self._ruleset_given)
        self.rounds: list[Round] = []
        self.errors: list[EventError] = []
        self.scores = [0, 0]
        self.history: list[dict[str, Any]] = []
        self.tribute: tuple[TributeRow, ...] = ()
        """Tribute owed in the next round (empty when it starts a new game)."""
        self.game_round = 0
        """Number of the current round within its game (局)."""
        self.events = 0
        """Number of applied events."""
        self.log: list[dict[str, Any]] = []
        """The applied events, as given (a correction in the place of what it fixed)."""
        self.announcements: list[str] = []
        self._next_new_game = True

    @property
    def round(self) -> Round | None:
        """The current (or last) round."""
        return self.rounds[-1] if self.rounds else None

    @property
    def to_act(self) -> list[int]:
        """Seats that may act now."""
        r = self.round
        return r.to_act if r is not None else []

    # ---- applying events ------------------------------------------------------------------------

    def verify(self, event: Mapping[str, Any]) -> None:
        """Raise the :class:`GoujiError` that :meth:`apply` would report; change nothing."""
        self._dispatch(parse_event(event), dry_run=True)

    def can_apply(self, event: Mapping[str, Any]) -> bool:
        """Whether :meth:`apply` would apply ``event``."""
        try:
            self.verify(event)
        except GoujiError:
            return False
        return True

    def apply(self, event: Mapping[str, Any], *, line: int | None = None) -> ApplyResult:
        """Apply one event.

        An event carrying ``fixes`` (the ``seq``, else the line, of an earlier event) is a
        correction: it takes that event's place, or deletes it (type ``void``), and the match
        is replayed with it there (:func:`rules.events.apply_corrections`), from a copy of the
        state taken as the round of the corrected event began.

        Args:
            event: The event object (DESIGN.md event log line).
            line: Its line in the log, for the error record (and for corrections naming it).

        Returns:
            Whether it was applied, the error if not, and the announcements.

        Raises:
            GoujiError: The event is malformed (also recorded in :attr:`errors`).
        """
        self._given.append((line, event))
        if isinstance(event, Mapping) and "fixes" in event:
            corrected = apply_corrections(self._given)
            if len(corrected) < len(self._given):
                self._replay(corrected)
                error = next((e for e in self.errors if e.event is event), None)
                return ApplyResult(error is None, error, ())
        return self._apply_next(event, line)

    def _apply_next(self, event: Any, line: int | None) -> ApplyResult:
        """Apply ``event`` after those applied; copy the state when it began a round (a round
        only one event old copies cheaply)."""
        rounds = len(self.rounds)
        self._applied.append((line, event))
        result = self._apply_one(event, line)
        if len(self.rounds) > rounds:
            self._snapshots.append((len(self._applied), self._copy_state()))
        return result

    def _apply_one(self, event: Any, line: int | None) -> ApplyResult:
        try:
            checked = parse_event(event)
        except GoujiError as exc:
            self.handle_error(EventError(line, event, str(exc)))
            raise
        try:
            announcements = self._dispatch(checked, dry_run=False)
        except IllegalEventError as exc:
            error = EventError(line, event, exc.reason)
            self.handle_error(error)
            return ApplyResult(False, error, ())
        self.events += 1
        self.log.append(dict(event))
        self.announcements = announcements
        return ApplyResult(True, None, tuple(announcements))

    def _replay(self, items: list[tuple[int | None, Any]]) -> None:
        """Make the state that of ``items`` (corrections already in place): from the last copy
        taken before the first item that differs from those applied, apply the rest."""
        same = 0
        for (line, event), (new_line, new_event) in zip(self._applied, items):
            if event is not new_event or line != new_line:
                break
            same += 1
        while self._snapshots and self._snapshots[-1][0] > same:
            self._snapshots.pop()
        if self._snapshots:
            start, snapshot = self._snapshots[-1]
            vars(self).update(vars(snapshot._copy_state()))
        else:
            start = 0
            self._reset()
        del self._applied[start:]
        for line, event in items[start:]:
            try:
                self._apply_next(event, line)
            except GoujiError:
                pass   # malformed: recorded again

    def _copy_state(self) -> Match:
        """A copy of the state alone, without the record of what was given and applied (a
        snapshot, which :meth:`_replay` copies again to start from)."""
        twin = copy.copy(self)
        for name in _RECORDS:
            vars(twin).pop(name, None)
        twin.rounds = []
        if self.rounds:
            shared = {id(self.ruleset): self.ruleset, id(self.rounds[-1].ruleset):
                      self.rounds[-1].ruleset}
            twin.rounds = [*self.rounds[:-1], copy.deepcopy(self.rounds[-1], shared)]
        for name in ("errors", "scores", "history", "log", "announcements"):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    def copy(self) -> Match:
        """An independent copy: events applied to it leave this match as it is.

        Only the round in play is copied deeply: finished rounds, the history and the logs are
        never changed once written, so the copy shares their items (copying a match costs the
        same in its twentieth round as in its first).
        """
        twin = self._copy_state()
        for name in _RECORDS:
            setattr(twin, name, list(getattr(self, name)))
        return twin

    def undo(self) -> Match:
        """A new match replayed from the applied events without the last one.

        >>> m = Match()
        >>> _ = m.apply({"type": "play", "seat": 0, "cards": "55"})
        >>> m.undo().to_json()["counts"]["0"], m.to_json()["counts"]["0"]
        (36, 34)
        """
        match = Match(self.ruleset if self._ruleset_fixed else None)
        for event in self.log[:-1]:
            match.apply(event)
        return match

    def handle_error(self, error: EventError) -> None:
        """Record a refused or malformed event; override to raise or log instead."""
        self.errors.append(error)

    def _dispatch(self, ev: Event, *, dry_run: bool) -> list[str]:
        r = self.round
        in_progress = r is not None and not r.over
        if ev.type is EventType.ROUND:
            if in_progress:
                assert r is not None
                raise IllegalEventError(f"round {r.number} is still in progress")
            if dry_run:
                return []
            if not self._ruleset_fixed and ev.ruleset and not self.rounds:
                self.ruleset = load_ruleset(ev.ruleset)
            self._start_round(self._new_round(ev.seat, ev.counts))
            return [f"第{len(self.rounds)}回合"]
        if ev.type is EventType.COLLECT:
            if not in_progress or dry_run:
                return []   # nothing to gather: harmless
            assert r is not None
            return r.collect(source=ev.source)
        if not in_progress:
            if ev.type in (EventType.PASS, EventType.YIELD):
                raise IllegalEventError("no round in progress")
            r = self._new_round(None, None)   # a play before any round event starts one
        assert r is not None and ev.seat is not None
        seat = ev.seat
        verify: Callable[[], None]
        action: Callable[[], list[str]]
        if ev.type is EventType.PLAY:
            cards = ev.cards or ""
            verify = lambda: r.verify_play(seat, cards)
            action = lambda: r.play(seat, cards, source=ev.source)
        elif ev.type is EventType.PASS:
            verify = lambda: r.verify_pass(seat)
            action = lambda: r.pass_(seat, source=ev.source)
        elif ev.type is EventType.YIELD:
            verify = lambda: r.verify_yield(seat)
            action = lambda: r.yield_(seat, source=ev.source)
        elif ev.type is EventType.DECLARE:
            level = ev.level or "ming"
            verify = lambda: r.verify_declare(seat, level)
            action = lambda: r.declare(seat, level, source=ev.source)
        else:
            verify = lambda: r.verify_revolution(seat)
            action = lambda: r.revolution(seat, ev.choice, source=ev.source)
        if dry_run or not in_progress:
            verify()   # a new round is kept only if its first event is legal
        if dry_run:
            return []
        announcements: list[str] = []
        if not in_progress:
            self._start_round(r)
            announcements.append(f"第{len(self.rounds)}回合")
        announcements += action()
        if r.over:
            self._close_round(r)
        return announcements

    # ---- rounds ---------------------------------------------------------------------------------

    def _new_round(self, first: int | None, counts: tuple[int, ...] | None) -> Round:
        rs = self.ruleset
        prev = self.round
        if first is None and prev is not None and prev.result is not None:
            if rs.first_leader == "rotate" and prev.first_leader is not None:
                first = (prev.first_leader + 1) % 6
            elif rs.first_leader == "last_daluo" and prev.result.ranking:
                first = prev.result.ranking[-1]
        if counts is None:
            dealt = list(rs.deal)
            for row in self.tribute:
                if not row.returned:
                    dealt[row.giver] -= row.cards
                    dealt[row.receiver] += row.cards
            counts = tuple(max(0, c) for c in dealt)
        return Round(rs, number=len(self.rounds) + 1, first=first, counts=counts)

    def _start_round(self, r: Round) -> None:
        prev = self.round
        voided = prev is not None and prev.result is not None \
            and prev.result.termination is Termination.VOID
        if not voided:
            self.game_round = 1 if self._next_new_game else self.game_round + 1
        self.rounds.append(r)
        r.events.insert(0, {"type": "round", "ruleset": self.ruleset.key, "first": r.first_leader,
                            "counts": list(r.counts)})

    def _close_round(self, r: Round) -> None:
        result = r.result
        assert result is not None
        rs = self.ruleset
        if result.termination is Termination.VOID:
            self.history.append({"round": r.number, "finish_order": [], "places": {},
                                 "scores": {"0": 0, "1": 0}, "tribute": [], "chuan": False,
                                 "termination": str(result.termination)})
            return
        self.scores[0] += result.scores[0]
        self.scores[1] += result.scores[1]
        self._next_new_game = bool(
            (rs.rounds_per_game and self.game_round >= rs.rounds_per_game)
            or (result.chuan and rs.chuan_ends_game))
        self.tribute = () if self._next_new_game else tribute_rows(result, rs)
        self.history.append({
            "round": r.number, "finish_order": list(result.finish_order),
            "places": {str(s): result.place_of(s) for s in range(6)},
            "scores": {"0": result.scores[0], "1": result.scores[1]},
            "tribute": [row.to_json() for row in self.tribute], "chuan": result.chuan,
            "termination": str(result.termination)})

    # ---- the STATE JSON -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The state as the STATE JSON (``gouji replay`` output, ``GET /api/state``)."""
        rs = self.ruleset
        r = self.round
        counts = list(r.counts) if r is not None else list(rs.deal)
        over = r is not None and r.over
        places = r.places() if r is not None else {}
        result = r.result if r is not None else None
        opened = list(result.opened) if result is not None and result.ranking else (
            list(r.opened) if r is not None else [False] * 6)
        reported = {str(s): c for s, c in enumerate(counts)
                    if 0 < c <= rs.report_max} if rs.baohu else {}
        passed = r.trick.passed if r is not None else set()
        seats = []
        for s in range(6):
            burning = r.burning[s] if r is not None else None
            declared = r.declared[s] if r is not None else None
            seats.append({
                "seat": s, "federation": federation(s), "duitou": duitou(s), "count": counts[s],
                "reported": str(s) in reported, "opened": opened[s], "place": places.get(s),
                "burning": str(burning) if burning is not None else None,
                "revolution": r is not None and r.revolutionary == s,
                "declared": str(declared) if declared is not None else None,
                "passed": s in passed})
        round_scores = {"0": 0, "1": 0}
        if result is not None:
            round_scores = {"0": result.scores[0], "1": result.scores[1]}
        return {
            "ruleset": rs.key,
            "round": len(self.rounds),
            "game_round": self.game_round,
            "round_over": over,
            "finish_order": list(r.finished) if r is not None else [],
            "places": {str(s): p for s, p in sorted(places.items())},
            "scores": {"0": self.scores[0], "1": self.scores[1]},
            "round_scores": round_scores,
            "counts": {str(s): c for s, c in enumerate(counts)},
            "to_act": self.to_act,
            "reported": reported,
            "opened": [s for s in range(6) if opened[s]],
            "tribute": [row.to_json() for row in self.tribute] if over else [],
            "history": list(self.history),
            "seats": seats,
            "trick": self._trick_json(),
            "events": self.events,
            "announcements": list(self.announcements),
            "errors": [e.to_json() for e in self.errors],
        }

    def _trick_json(self) -> dict[str, Any]:
        r = self.round
        if r is None:
            return {"leader": None, "plays": [], "last_seat": None, "last_cards": None,
                    "gouji": False, "answer": "lead", "luanchan": False}
        t = r.trick
        last = t.plays[-1] if t.plays else None
        return {
            "leader": t.leader,
            "plays": [{"seat": p.seat, "cards": str(p.play), "gouji": p.gouji, "burn": p.burn}
                      for p in t.plays],
            "last_seat": last.seat if last else None,
            "last_cards": str(last.play) if last else None,
            "gouji": bool(last and last.gouji),
            "answer": str(t.answer),
            "luanchan": t.luanchan,
        }
