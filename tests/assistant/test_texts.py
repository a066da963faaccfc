"""Who is to act, in words (seats shown 1-6 as at the table)."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.texts import turn_text


def state(answer: str | None, last: int | None, to_act: list[int], **extra: Any) -> dict[str, Any]:
    return {"round": 1, "round_over": False, "to_act": to_act,
            "trick": {"answer": answer, "last_seat": last, "last_cards": "99"}, **extra}


@pytest.mark.parametrize(("given", "text"), [
    ({"round": 0}, "等待开局"),
    (state("lead", None, [2]), "请 3号 出牌"),
    (state("any", 0, [1, 2]), "1号 出 99，请 2号 应牌"),
    # a gouji play: only the 对头 answers, others may burn
    (state("duitou", 2, [5]), "3号 够级，请对头 6号 应牌"),
    (state("duitou", 2, [5, 0]), "3号 够级，请对头 6号 应牌，1号 可烧"),
    (state("duitou", 2, [3, 4, 5, 0, 1]), "3号 够级，请对头 6号 应牌，其余各家可烧"),
    # 无头: the 对头 is out, so the gouji play is open to the others
    (state("duitou", 2, [0]), "3号 够级，请 1号 应牌"),
    (state("free", 4, [5]), "四户乱缠，5号 出 99，请 6号 应牌"),
    ({"round": 1, "round_over": True, "places": {"3": 1, "0": 2, "1": None}},
     "本局结束：头科 4号 · 二科 1号"),
])
def test_turn_text(given: dict[str, Any], text: str) -> None:
    assert turn_text(given) == text
