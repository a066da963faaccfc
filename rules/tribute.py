"""The tribute table (进贡) for the next round, from a finished round.

Rows are 闷贡, 烧贡, 点贡, 落贡 (in the ruleset's order) and 串贡; each row says kind, giver,
receiver, number of cards and whether it is returned (还贡).

>>> from rules.round import Round
>>> from rules.ruleset import load_ruleset
>>> r = Round(load_ruleset("qingdao"), counts=[1, 1, 1, 1, 1, 1], first=0)
>>> for seat, cards in [(0, "5"), (1, "6"), (2, "7"), (3, "8"), (4, "9")]:
...     _ = r.play(seat, cards)
>>> for row in tribute_rows(r.result, r.ruleset):   # nobody opened: 对头s swap one 点贡
...     print(row)
dian 3→0 1
dian 0→3 1
dian 4→1 1
dian 1→4 1
dian 5→2 1
dian 2→5 1
luo 5→0 2 returned
luo 4→1 1 returned
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.round import RoundResult, Termination, duitou, federation
from rules.ruleset import Ruleset

__all__ = ["TributeKind", "TributeRow", "tribute_rows"]


class TributeKind(StrEnum):
    """Kinds of tribute."""

    MEN = "men"
    """闷贡 (憋三): the 3s player whose play before them was beaten gives to the beater."""
    SHAO = "shao"
    """烧贡: burned → burner (反燒: burner → burned)."""
    DIAN = "dian"
    """点贡: between 对头s, from 开点 and declarations."""
    LUO = "luo"
    """落贡: 大落 → 头科, 二落 → 二科."""
    CHUAN = "chuan"
    """串贡: after 串三户, each loser → his 对头."""


@dataclass(frozen=True, slots=True)
class TributeRow:
    """One row of the tribute table."""

    kind: TributeKind
    """Which tribute."""
    giver: int
    """Seat that gives."""
    receiver: int
    """Seat that receives."""
    cards: int
    """Number of cards."""
    returned: bool
    """The receiver gives back as many cards (还贡)."""

    def to_json(self) -> dict[str, Any]:
        """The STATE JSON row: ``kind``, ``from``, ``to``, ``cards``, ``returned``."""
        return {"kind": str(self.kind), "from": self.giver, "to": self.receiver,
                "cards": self.cards, "returned": self.returned}

    def __str__(self) -> str:
        return (f"{self.kind} {self.giver}→{self.receiver} {self.cards}"
                f"{' returned' if self.returned else ''}")


def tribute_rows(result: RoundResult, ruleset: Ruleset) -> tuple[TributeRow, ...]:
    """The tribute a finished round owes in the next round (before the game-boundary rule).

    Args:
        result: The round's result.
        ruleset: The rules in force.

    Returns:
        Rows in the order they are paid.
    """
    if result.termination is Termination.VOID:
        return ()

    def row(kind: TributeKind, giver: int, receiver: int, cards: int) -> TributeRow:
        return TributeRow(kind, giver, receiver, cards, str(kind) in ruleset.tribute_returned)

    chuan_rows: list[TributeRow] = []
    if result.chuan:
        if ruleset.chuan_tribute == "none":
            return ()
        winners = federation(result.ranking[0])
        chuan_rows = [row(TributeKind.CHUAN, s, duitou(s), 1)
                      for s in result.ranking if federation(s) != winners]
        if ruleset.chuan_tribute == "only":
            return tuple(chuan_rows)
    by_kind: dict[str, list[TributeRow]] = {
        "men": [row(TributeKind.MEN, g, r, 1) for g, r in result.men] if ruleset.men_tribute
        else [],
        "shao": [row(TributeKind.SHAO, g, r, 1) for g, r in result.burns],
        "dian": _dian_rows(result, ruleset, row),
        "luo": chuan_rows if result.chuan else [
            row(TributeKind.LUO, result.ranking[5], result.ranking[0], ruleset.luo_cards[0]),
            row(TributeKind.LUO, result.ranking[4], result.ranking[1], ruleset.luo_cards[1])],
    }
    return tuple(r for kind in ruleset.tribute_order for r in by_kind[kind] if r.cards > 0)


def _dian_rows(result: RoundResult, ruleset: Ruleset, row: Any) -> list[TributeRow]:
    rows: list[TributeRow] = []
    for seat in range(3):
        other = duitou(seat)
        for me, him in ((seat, other), (other, seat)):
            cards = ruleset.dian_cards(result.declared[me], result.declared[him],
                                       result.opened[me], result.opened[him])
            if cards:
                rows.append(row(TributeKind.DIAN, him, me, cards))
    return rows
