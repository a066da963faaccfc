"""How well an event log recognised from video matches the true one.

Plays are compared in order (the order of a game is part of its truth): the two sequences of
``(seat, cards)`` are aligned, so one missed or extra play costs one play, not every play after
it. Cards compare as multisets (``"2TT5"`` is ``"5 T T 2"``). A correction (``fixes``) stands in
the place of the play it fixes, as in :func:`rules.replay`.

>>> truth = [{"type": "play", "seat": 0, "cards": "555"}, {"type": "pass", "seat": 1},
...          {"type": "play", "seat": 2, "cards": "666"}, {"type": "play", "seat": 3, "cards": "K"}]
>>> seen = [{"type": "play", "seat": 0, "cards": "5 5 5", "review": False},
...         {"type": "play", "seat": 2, "cards": "6 6", "review": True},
...         {"type": "play", "seat": 4, "cards": "9", "review": False},
...         {"type": "play", "seat": 3, "cards": "K", "review": False}]
>>> score = score_plays(truth, seen)
>>> score.exact, score.wrong_cards, score.phantom, score.missed, score.held, score.silent
(2, 1, 1, 0, 1, 1)
>>> round(score.accuracy, 3)
0.667
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules import apply_corrections, parse_cards

__all__ = ["PlayScore", "play_key", "score_plays"]


@dataclass(frozen=True, slots=True)
class PlayScore:
    """Counts of a recognised play sequence against the truth."""

    truth: int
    """Plays in the true log."""
    exact: int
    """Plays recognised with the right seat and exactly the right cards."""
    wrong_cards: int
    """Plays aligned with a true play of the same seat but other cards."""
    wrong_seat: int
    """Plays aligned with a true play of the same cards but another seat."""
    phantom: int
    """Recognised plays matching no true play."""
    missed: int
    """True plays with no recognised play."""
    held: int
    """Recognised plays held for review."""
    silent: int
    """Recognised plays that are wrong (cards, seat or phantom) and not held for review."""
    corrected: int = 0
    """Corrections in the recognised log (each stands in the place of the play it fixes)."""

    @property
    def accuracy(self) -> float:
        """Share of true plays recognised exactly (seat and cards)."""
        return self.exact / self.truth if self.truth else 1.0

    def summary(self) -> str:
        """One line for people."""
        return (f"{self.exact}/{self.truth} plays exact ({100 * self.accuracy:.1f} %), "
                f"wrong cards {self.wrong_cards}, wrong seat {self.wrong_seat}, "
                f"phantom {self.phantom}, missed {self.missed}, held for review {self.held}, "
                f"wrong and not held {self.silent}"
                + (f", corrected later {self.corrected}" if self.corrected else ""))


def _plays(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays standing once every correction is in its place."""
    return [e for _, e in apply_corrections(list(enumerate(events, start=1)))
            if e.get("type") == "play"]


def play_key(event: dict[str, Any]) -> tuple[int, Any]:
    """What makes two plays the same: the seat and the multiset of cards.

    >>> play_key({"seat": 2, "cards": "2TT5"}) == play_key({"seat": 2, "cards": "5 T T 2"})
    True
    """
    return int(event["seat"]), parse_cards(str(event["cards"]))


def score_plays(truth: Iterable[dict[str, Any]], seen: Iterable[dict[str, Any]]) -> PlayScore:
    """Compare the plays of a recognised log with the true log (other events are ignored)."""
    seen = list(seen)
    true_plays, seen_plays = _plays(truth), _plays(seen)
    key = [play_key(e) for e in true_plays]
    got = [play_key(e) for e in seen_plays]
    exact = wrong_cards = wrong_seat = phantom = missed = silent = 0
    matcher = difflib.SequenceMatcher(a=key, b=got, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            exact += a1 - a0
            continue
        silent += sum(not seen_plays[i].get("review") for i in range(b0, b1))
        pairs = min(a1 - a0, b1 - b0) if tag == "replace" else 0
        for (seat_a, cards_a), (seat_b, cards_b) in zip(key[a0:a0 + pairs], got[b0:b0 + pairs]):
            if seat_a == seat_b:
                wrong_cards += 1
            elif cards_a == cards_b:
                wrong_seat += 1
            else:
                phantom += 1
                missed += 1
        missed += (a1 - a0) - pairs
        phantom += (b1 - b0) - pairs
    held = sum(bool(e.get("review")) for e in seen_plays)
    return PlayScore(truth=len(key), exact=exact, wrong_cards=wrong_cards,
                     wrong_seat=wrong_seat, phantom=phantom, missed=missed, held=held,
                     silent=silent, corrected=sum("fixes" in e for e in seen))
