"""The round in play as the segmenter saw it: its tricks, their plays as read and as reported.

A count gone wrong shows in the next trick, a rank read too often when the deck runs out of it:
the segmenter keeps each trick of the round with the rules' checkpoint before its lead, so that
it can replay the plays since with one of them read otherwise (:class:`Replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tracker.readings import Reading, described, format_play, taking_in_cost
from vision.detections import Detections

__all__ = ["MendedPair", "Replay", "Trick", "TrickPlay", "laid_late", "taken_with"]


@dataclass(slots=True)
class TrickPlay:
    """A play of the round in play, as the segmenter committed it."""

    seq: int
    seat: int
    t: float
    read: Detections
    """Its cards as read."""
    faint: Detections
    """The faint cards lying with it then, surest first."""
    reading: Reading
    """How it stands reported now."""
    count_in_doubt: bool = False
    """Whether a faint card of its ranks lay beside it, not taken in."""
    held: bool = False
    """Whether it is held for review as it stands reported."""
    alternatives: list[Reading] | None = None
    """Its other readings with one card changed, once a correction was weighed."""
    two_changes: list[Reading] | None = None
    """Its other readings with two cards changed, once an answer to it was refused."""


@dataclass(slots=True)
class Trick:
    """A trick of the round in play, as the segmenter saw it."""

    checkpoint: Any
    """The rules' state before its lead (:meth:`tracker.prior.Prior.checkpoint`)."""
    plays: list[TrickPlay] = field(default_factory=list)
    gathered: bool = False
    """Whether it was seen gathered (a ``collect``)."""


@dataclass(frozen=True, slots=True)
class MendedPair:
    """A refused play taken with the play it answers read otherwise
    (:meth:`tracker.plays.PlaySegmenter._mended_with_answered`)."""

    answered: TrickPlay
    answered_reading: Reading
    reading: Reading
    """The refused play's own reading."""

    @property
    def cost(self) -> float:
        return self.answered_reading.cost + self.reading.cost


class Replay:
    """The plays of some tricks as :meth:`tracker.prior.Prior.objection_from` takes them,
    each as read (or as reported), ``None`` where a trick was gathered (a seat that went out
    leads no more, whoever took the trick); written out once, then varied one play at a
    time."""

    def __init__(self, tricks: Sequence[Trick], *, as_read: bool = False) -> None:
        self.items: list[tuple[int, str] | None] = []
        self.starts: list[int] = []                  # where each trick begins in items
        self._where: dict[int, int] = {}             # id of a play -> its place in items
        for trick in tricks:
            self.starts.append(len(self.items))
            for play in trick.plays:
                self._where[id(play)] = len(self.items)
                cards = play.read if as_read else play.reading.cards
                self.items.append((play.seat, format_play(cards.class_id)))
            if trick.gathered:
                self.items.append(None)

    def with_reading(self, play: TrickPlay, reading: Reading, *, from_trick: int = 0
                     ) -> list[tuple[int, str] | None]:
        """The items from trick ``from_trick`` on, ``play`` in ``reading``."""
        return self.with_readings([(play, reading)], from_trick=from_trick)

    def with_readings(self, changes: Sequence[tuple[TrickPlay, Reading]], *,
                      from_trick: int = 0) -> list[tuple[int, str] | None]:
        """The items from trick ``from_trick`` on, each play of ``changes`` in its reading."""
        items = self.items[self.starts[from_trick]:]
        for play, reading in changes:
            items[self._where[id(play)] - self.starts[from_trick]] = (
                play.seat, format_play(reading.cards.class_id))
        return items


def laid_late(play: TrickPlay, cards: Detections) -> Reading:
    """``play`` as reported with ``cards``, seen only after it was committed."""
    return Reading(Detections.merge([play.reading.cards, cards]), taken=cards, late=True,
                   change=f"took in {described(cards)}, laid late",
                   cost=taking_in_cost(cards))


def taken_with(corrections: list[dict[str, Any]]) -> str:
    """``"taken with seat 4's play 5 corrected to Q"``: the corrections a play was taken on."""
    return "taken with " + ", ".join(f"seat {e['seat']}'s play {e['fixes']} corrected to "
                                     f"{e['cards']}" for e in corrections)
