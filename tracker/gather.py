"""Trick gathered (扣牌): the cards of the trick left the table or were turned face down.

The segmenter remembers every face-up card of the current trick. When the table is stable and
(almost) none of those cards is still visible face up, the trick was gathered, whether the
cards were swept away or turned over where they lay; the face-down backs need not be seen.

>>> rule = GatherRule()
>>> rule.gathered(remembered=8, still_visible=0), rule.gathered(remembered=8, still_visible=5)
(True, False)
>>> rule.gathered(remembered=0, still_visible=0)  # nothing was on the table
False
>>> rule.confidence(remembered=10, still_visible=1)
0.9
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GatherRule"]


@dataclass(frozen=True, slots=True)
class GatherRule:
    """When does a stable table mean the trick was gathered."""

    max_left: float = 0.1
    """Largest fraction of the trick's remembered cards that may still be seen face up (a
    detector may keep seeing a straggler or two in a swept pile)."""

    def gathered(self, *, remembered: int, still_visible: int) -> bool:
        """True when a trick had cards and (almost) none of them is visible any more."""
        return remembered > 0 and still_visible <= self.max_left * remembered

    def confidence(self, *, remembered: int, still_visible: int) -> float:
        """How sure the gather is: the fraction of remembered cards that vanished."""
        if remembered <= 0:
            return 0.0
        return round(1.0 - still_visible / remembered, 3)
