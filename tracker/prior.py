"""The rules engine as a prior for vision: who may act now, and would it accept a play.

The segmenter never lets the rules add, drop or change a card. It asks them two things: which
of two zones a border play belongs to (the seat that may act), and whether a play it saw is
one the rules would take (same count as the play it answers, the 对头 answering a 够级 play,
beating it). A play the rules refuse is still reported, held for the operator's review with
the rules' reason.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["MatchPrior"]


class MatchPrior:
    """A :class:`tracker.plays.Prior` reading a :class:`rules.Match` kept current by its owner.

    Args:
        match: the live match; only read (a trial play is applied to a copy).
    """

    def __init__(self, match: Any) -> None:
        self.match = match

    def _live_round(self) -> dict[str, Any] | None:
        state: dict[str, Any] = self.match.to_json()
        if state.get("round", 0) < 1 or state.get("round_over", False):
            return None  # before the first play of a round anyone may lead
        return state

    def may_act(self, seat: int) -> bool:
        """Whether the rules let ``seat`` play now (always, before a round has begun)."""
        state = self._live_round()
        return state is None or seat in state.get("to_act", ())

    def objection(self, seat: int, cards: str) -> str | None:
        """The rules' reason to refuse ``cards`` from ``seat`` now, or ``None``."""
        if self._live_round() is None:
            return None
        trial = copy.deepcopy(self.match)
        try:
            result = trial.apply({"type": "play", "seat": seat, "cards": cards,
                                  "source": "vision"}, line=0)
        except ValueError as exc:  # a malformed play (GoujiError)
            return f"rules: {exc}"
        return None if result.applied else f"rules: {result.error.reason}"
