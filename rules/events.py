"""Events: the lines of the event log, checked into typed values.

An event is a JSON object with a ``type``: ``round``, ``play``, ``pass``, ``yield``, ``declare``,
``revolution`` or ``collect`` (DESIGN.md). Anything else, or a field of the wrong kind, is a
:class:`~rules.errors.MalformedEventError`; a bad card token is an
:class:`~rules.errors.InvalidCardsError`.

>>> parse_event({"type": "play", "seat": 3, "cards": "10 10 10 10 10"}).cards
'TTTTT'
>>> parse_event({"type": "jump", "seat": 3})
Traceback (most recent call last):
...
rules.errors.MalformedEventError: unknown event type 'jump'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.cards import canonical_cards
from rules.errors import MalformedEventError

__all__ = ["Declaration", "Event", "EventType", "RevolutionChoice", "UnreadableLine",
           "apply_corrections", "parse_event"]


class EventType(StrEnum):
    """The kinds of event lines."""

    ROUND = "round"
    PLAY = "play"
    PASS = "pass"
    YIELD = "yield"
    DECLARE = "declare"
    REVOLUTION = "revolution"
    COLLECT = "collect"


class Declaration(StrEnum):
    """Declarations against one's 对头: 明点 (after tribute) and 预点 (before the deal)."""

    MING = "ming"
    YU = "yu"


class RevolutionChoice(StrEnum):
    """What a revolutionary's 对头 chooses: 要头 (够死级 plays) or 无头."""

    YAOTOU = "yaotou"
    WUTOU = "wutou"


_TYPES = {str(t): t for t in EventType}
_SEATED = frozenset({EventType.PLAY, EventType.PASS, EventType.YIELD, EventType.DECLARE,
                     EventType.REVOLUTION})


@dataclass(frozen=True, slots=True)
class Event:
    """One checked event."""

    type: EventType
    """What happened."""
    seat: int | None = None
    """Acting seat 0..5 (``round``: the first leader, or None)."""
    cards: str | None = None
    """``play``: the cards in canonical notation."""
    level: Declaration | None = None
    """``declare``: 明点 or 预点."""
    choice: RevolutionChoice | None = None
    """``revolution``: the 对头's choice, when given."""
    ruleset: str | None = None
    """``round``: the ruleset named by the log."""
    counts: tuple[int, ...] | None = None
    """``round``: cards per seat after the deal and tribute, when the referee gives them."""
    source: str | None = None
    """``vision``, ``operator`` or ``inferred``."""


def _seat(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise MalformedEventError(f"{field} must be a seat 0..5, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class UnreadableLine:
    """A log line that is no JSON at all (:func:`rules.record.loads`): it keeps its place in a
    log, so that every replay reports it there."""

    text: str
    reason: str


def parse_event(raw: Mapping[str, Any]) -> Event:
    """Check one event object.

    Raises:
        MalformedEventError: Not an object (an :class:`UnreadableLine`: its reason), unknown
            type, missing or bad fields.
        InvalidCardsError: A play with a bad card token.
    """
    if isinstance(raw, UnreadableLine):
        raise MalformedEventError(raw.reason)
    if not isinstance(raw, dict) and not isinstance(raw, Mapping):
        raise MalformedEventError(f"an event is a JSON object, not {type(raw).__name__}")
    kind = raw.get("type")
    etype = _TYPES.get(kind) if isinstance(kind, str) else None
    if etype is None:
        raise MalformedEventError(f"unknown event type {kind!r}")
    source = raw.get("source")
    source = source if isinstance(source, str) else None
    if etype in _SEATED:
        if "seat" not in raw:
            raise MalformedEventError(f"a {etype} event needs a seat")
        seat = _seat(raw["seat"], "seat")
        if etype is EventType.PLAY:
            cards = raw.get("cards")
            if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
                cards = " ".join(cards)
            if not isinstance(cards, str):
                raise MalformedEventError(f"a play needs cards as text, not {cards!r}")
            return Event(etype, seat, cards=canonical_cards(cards), source=source)
        if etype is EventType.DECLARE:
            try:
                level = Declaration(str(raw.get("level")))
            except ValueError:
                raise MalformedEventError(
                    f"declare level must be 'ming' or 'yu', not {raw.get('level')!r}") from None
            return Event(etype, seat, level=level, source=source)
        if etype is EventType.REVOLUTION:
            choice = raw.get("choice")
            try:
                parsed = RevolutionChoice(choice) if choice is not None else None
            except ValueError:
                raise MalformedEventError(
                    f"revolution choice must be 'yaotou' or 'wutou', not {choice!r}") from None
            return Event(etype, seat, choice=parsed, source=source)
        return Event(etype, seat, source=source)
    if etype is EventType.ROUND:
        first = raw.get("first")
        ruleset = raw.get("ruleset")
        if ruleset is not None and not isinstance(ruleset, str):
            raise MalformedEventError(f"ruleset must be a name, not {ruleset!r}")
        counts = raw.get("counts")
        if counts is not None:
            if not (isinstance(counts, list) and len(counts) == 6 and all(
                    isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 216
                    for c in counts)):
                raise MalformedEventError(f"counts must be six numbers of cards, not {counts!r}")
            counts = tuple(counts)
        return Event(etype, _seat(first, "first") if first is not None else None,
                     ruleset=ruleset, counts=counts, source=source)
    return Event(etype, source=source)


def apply_corrections(items: Sequence[tuple[int | None, Any]]) -> list[tuple[int | None, Any]]:
    """Put each correction in the place of the event it fixes.

    ``items`` are ``(line, event)`` pairs in log order. An event carrying ``fixes`` names an
    earlier event by its ``seq`` (else its line): it takes that event's place (and line), and
    ``{"type": "void", "fixes": N}`` deletes it. A correction of a correction goes to the same
    place. One naming no earlier event stays where it stands (and is judged there).

    >>> log = [(1, {"type": "play", "seat": 0, "cards": "55"}),
    ...        (2, {"type": "play", "seat": 1, "cards": "66"}),
    ...        (3, {"type": "play", "seat": 0, "cards": "44", "fixes": 1}),
    ...        (4, {"type": "play", "seat": 0, "cards": "33", "fixes": 3})]
    >>> [(line, e["cards"]) for line, e in apply_corrections(log)]
    [(1, '33'), (2, '66')]
    """
    if not any(isinstance(ev, Mapping) and "fixes" in ev for _, ev in items):
        return list(items)
    place: dict[Any, int] = {}   # an event's seq (else line) -> its place in the log
    result: list[tuple[int | None, Any] | None] = list(items)
    for i, (line, ev) in enumerate(items):
        if not isinstance(ev, Mapping):
            continue
        fixes = ev.get("fixes")
        target = place.get(fixes) if isinstance(fixes, int | str) else None
        if target is None or result[target] is None:
            place.setdefault(ev.get("seq", line), i)
            continue
        result[target] = None if ev.get("type") == "void" else (items[target][0], ev)
        result[i] = None
        place.setdefault(ev.get("seq", line), target)
    return [item for item in result if item is not None]
