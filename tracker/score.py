"""How well an event log recognised from video matches the true one.

Plays are compared in order (the order of a game is part of its truth): the two sequences of
``(seat, cards)`` are aligned, so one missed or extra play costs one play, not every play after
it. Cards compare as multisets (``"2TT5"`` is ``"5 T T 2"``). A correction (``fixes``) stands in
the place of the play it fixes, as in :func:`rules.replay`. The score's ``differences`` are the
stretches where the two logs part, for people to look at; :func:`game_outcome` is what the game
comes to, to check that the rules engine fed by the recognised log ends as the true game did.

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
>>> for difference in score.differences:
...     for line in difference.lines():
...         print(line)
- seat 2 plays 666
+ seat 2 plays 6 6 (held for review)
+ seat 4 plays 9
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules import apply_corrections, parse_cards, replay

__all__ = ["PlayDifference", "PlayScore", "game_outcome", "play_key", "score_plays"]


@dataclass(frozen=True, slots=True)
class PlayDifference:
    """A stretch of the game where the recognised plays part from the true ones."""

    truth: tuple[dict[str, Any], ...]
    """The true plays of the stretch; none where the recognised ones are phantoms."""
    seen: tuple[dict[str, Any], ...]
    """The recognised plays standing in their place; none where the true ones were missed."""

    def lines(self) -> list[str]:
        """The stretch as a diff for people: ``-`` the true plays, ``+`` the recognised ones."""
        return ([f"- {_described(play)}" for play in self.truth]
                + [f"+ {_described(play)}" + _review_note(play) for play in self.seen])


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
    differences: tuple[PlayDifference, ...] = ()
    """Where the recognised plays part from the true ones, in game order."""

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


def _described(play: dict[str, Any]) -> str:
    at = f" at {play['t']:.2f} s" if isinstance(play.get("t"), int | float) else ""
    return f"seat {play['seat']} plays {play['cards']}{at}"


def _review_note(play: dict[str, Any]) -> str:
    if not play.get("review"):
        return ""
    return f" (held for review: {play['reason']})" if play.get("reason") \
        else " (held for review)"


def score_plays(truth: Iterable[dict[str, Any]], seen: Iterable[dict[str, Any]]) -> PlayScore:
    """Compare the plays of a recognised log with the true log (other events are ignored)."""
    seen = list(seen)
    true_plays, seen_plays = _plays(truth), _plays(seen)
    keys, gots = [play_key(e) for e in true_plays], [play_key(e) for e in seen_plays]
    exact = wrong_cards = wrong_seat = phantom = missed = silent = 0
    differences = []
    matcher = difflib.SequenceMatcher(a=keys, b=gots, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            exact += a1 - a0
            continue
        seen_part, key, got = seen_plays[b0:b1], keys[a0:a1], gots[b0:b1]
        differences.append(PlayDifference(tuple(true_plays[a0:a1]), tuple(seen_part)))
        silent += sum(not e.get("review") for e in seen_part)
        pairs = min(len(key), len(got))
        for (seat_a, cards_a), (seat_b, cards_b) in zip(key, got[:pairs]):
            if seat_a == seat_b:
                wrong_cards += 1
            elif cards_a == cards_b:
                wrong_seat += 1
            else:
                phantom += 1
                missed += 1
        missed += len(key) - pairs
        phantom += len(got) - pairs
    return PlayScore(truth=len(keys), exact=exact, wrong_cards=wrong_cards,
                     wrong_seat=wrong_seat, phantom=phantom, missed=missed,
                     held=sum(bool(e.get("review")) for e in seen_plays), silent=silent,
                     corrected=sum("fixes" in e for e in seen), differences=tuple(differences))


def game_outcome(events: Iterable[dict[str, Any]], ruleset: str | None = None) -> dict[str, Any]:
    """What a game comes to when the rules engine replays its log: the last round's finishing
    order, counts and tribute, and the rounds before it (their places, scores and tribute).

    Two logs of one game end alike when their outcomes are equal.
    """
    state = replay(list(events), ruleset=ruleset).to_json()
    return {key: state.get(key) for key in ("round", "finish_order", "counts", "tribute",
                                            "history", "scores")}
