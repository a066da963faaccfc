"""From the stored log (with corrections) to the effective log the rules engine replays.

Nothing in the store is ever overwritten. The operator corrects by appending events:

- a rules event carrying ``fixes: N`` takes the place of event ``N`` (right seat, right cards);
- ``{"type": "undo", "fixes": N}`` withdraws event ``N`` (an undone correction brings back
  what it replaced; an undone ``accept`` puts the play back on hold);
- ``{"type": "accept", "fixes": N}`` lets a play held for review (``review: true``, sent by the
  vision pipeline when it is unsure) into the game, at its original place.

The effective log is therefore a pure function of the stored log, like the game state itself.

>>> from assistant.store import StoredEvent
>>> log = [StoredEvent(1, "", {"type": "round", "first": 0}),
...        StoredEvent(2, "", {"type": "play", "seat": 0, "cards": "33"}),
...        StoredEvent(3, "", {"type": "play", "seat": 0, "cards": "44", "fixes": 2}),
...        StoredEvent(4, "", {"type": "play", "seat": 1, "cards": "55", "review": True})]
>>> r = resolve(log)
>>> [(seq, e["cards"]) for seq, e in r.effective if e["type"] == "play"]
[(3, '44')]
>>> r.status[2], r.status[3], r.status[4]
('replaced', 'effective', 'held')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from assistant.store import StoredEvent

__all__ = ["CONTROL_TYPES", "Resolution", "Status", "last_undoable", "resolve"]

CONTROL_TYPES = frozenset({"undo", "accept"})
"""Event types that act on other events instead of on the game."""

Status = Literal["effective", "replaced", "withdrawn", "held", "control", "void"]
"""``void``: a control event that has been undone itself."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the stored log means now."""

    effective: list[tuple[int, dict[str, Any]]]
    """``(seq, event)`` pairs the rules engine replays, in game order (``seq`` is the event
    now standing in that place: the original or its latest correction)."""
    status: dict[int, Status]
    """Every stored event's standing, by ``seq``."""
    held: list[int]
    """Plays waiting for the operator's review, oldest first."""
    seen: list[tuple[int, dict[str, Any]]]
    """The effective pairs with the held plays in their places: the game as the table shows
    it, which vision judges the next plays against."""


def _undone(log: Sequence[StoredEvent]) -> set[int]:
    """Events withdrawn by an undo that is itself still standing.

    Undo events only point backwards, so walking the log backwards settles every undo before
    the events it targets are looked at.
    """
    undone: set[int] = set()
    for stored in reversed(log):
        if stored.seq not in undone and stored.event.get("type") == "undo":
            undone.add(int(stored.event["fixes"]))
    return undone


def resolve(log: Sequence[StoredEvent]) -> Resolution:
    """Resolve corrections, undos and reviews of a stored log (see the module docstring)."""
    undone = _undone(log)
    accepted = {int(s.event["fixes"]) for s in log
                if s.event.get("type") == "accept" and s.seq not in undone}
    slots: list[list[StoredEvent]] = []  # per place in the game: its versions, oldest first
    slot_of: dict[int, int] = {}
    status: dict[int, Status] = {}
    for stored in log:
        kind = stored.event.get("type")
        if kind in CONTROL_TYPES:
            status[stored.seq] = "void" if stored.seq in undone else "control"
            continue
        target = stored.event.get("fixes")
        if target is not None and int(target) in slot_of:
            slot = slot_of[int(target)]
            slots[slot].append(stored)
        else:
            slot = len(slots)
            slots.append([stored])
        slot_of[stored.seq] = slot
        status[stored.seq] = "withdrawn" if stored.seq in undone else "replaced"
    effective: list[tuple[int, dict[str, Any]]] = []
    held: list[int] = []
    seen: list[tuple[int, dict[str, Any]]] = []
    for versions in slots:
        standing = [s for s in versions if s.seq not in undone]
        if not standing:
            continue
        current = standing[-1]
        seen.append((current.seq, current.event))
        if current.event.get("review") and current.seq not in accepted:
            status[current.seq] = "held"
            held.append(current.seq)
        else:
            status[current.seq] = "effective"
            effective.append((current.seq, current.event))
    return Resolution(effective=effective, status=status, held=held, seen=seen)


def last_undoable(log: Sequence[StoredEvent]) -> int | None:
    """The event the plain Undo button withdraws: the latest one still standing.

    Undo records themselves are skipped, so pressing Undo twice withdraws two events.

    >>> from assistant.store import StoredEvent
    >>> log = [StoredEvent(1, "", {"type": "play", "seat": 0, "cards": "3"}),
    ...        StoredEvent(2, "", {"type": "play", "seat": 1, "cards": "4"}),
    ...        StoredEvent(3, "", {"type": "undo", "fixes": 2})]
    >>> last_undoable(log)
    1
    """
    undone = _undone(log)
    for stored in reversed(log):
        if stored.seq not in undone and stored.event.get("type") != "undo":
            return stored.seq
    return None
