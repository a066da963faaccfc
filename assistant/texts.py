"""Words for the state: who is to act and who may answer, place names, tribute kinds.

Seats are numbered 1–6 for people (``3号`` is seat index 2), as at a physical table.

>>> state = {"round": 1, "round_over": False, "to_act": [5, 1],
...          "trick": {"answer": "duitou", "last_seat": 2, "last_cards": "QQQ", "gouji": True}}
>>> turn_text(state)
'3号 够级，请对头 6号 应牌，2号 可烧'
>>> turn_text_en(state)
'Seat 3 played gouji: seat 6 (opposite) to answer, seat 2 may burn'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "PLACE_NAMES", "PLACE_NAMES_EN", "TRIBUTE_KINDS", "for_people", "seat_label", "turn_text",
    "turn_text_en",
]

PLACE_NAMES = {1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"}
"""Finishing place (1 = first out) → its name."""
PLACE_NAMES_EN = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "last"}
"""Finishing place → English."""
TRIBUTE_KINDS = {
    "men": ("闷贡", "silent tribute"),
    "shao": ("烧贡", "burn tribute"),
    "dian": ("点贡", "opening tribute"),
    "luo": ("落贡", "loser's tribute"),
    "chuan": ("串贡", "sweep tribute"),
}
"""Tribute kind (contract spelling) → (Chinese, English)."""


def seat_label(seat: int) -> str:
    """``2`` → ``'3号'``."""
    return f"{seat + 1}号"


_ENGINE_SEAT = re.compile(r"(?<![0-9])([0-5])号")


def for_people(announcement: str) -> str:
    """An announcement of the rules engine, which numbers seats 0–5, with seats numbered 1–6.

    >>> for_people("0号 开点"), for_people("5号 报户 10 张")
    ('1号 开点', '6号 报户 10 张')
    """
    return _ENGINE_SEAT.sub(lambda match: seat_label(int(match[1])), announcement)


def _seats(seats: Iterable[int], sep: str = "、") -> str:
    return sep.join(seat_label(s) for s in seats)


def _seats_en(seats: Iterable[int]) -> str:
    return ", ".join(str(s + 1) for s in seats)


def _places(state: Mapping[str, Any]) -> list[tuple[int, int]]:
    """``(place, seat)`` pairs of the seats placed so far, best first."""
    return sorted((int(p), int(s)) for s, p in state.get("places", {}).items() if p)


def _turn(state: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The situation both turn texts put into words: a case name and its details."""
    if not state.get("round"):
        return "waiting", {}
    if state.get("round_over"):
        return "over", {"places": _places(state)}
    to_act: list[int] = list(state.get("to_act", []))
    trick = state.get("trick", {})
    answer = trick.get("answer")
    last = trick.get("last_seat")
    if not to_act:
        return "operator", {}
    if answer == "lead" or last is None:
        return "lead", {"seat": to_act[0]}
    if answer == "duitou":
        duitou = (last + 3) % 6
        burners = [s for s in to_act if s != duitou]
        if duitou not in to_act:
            return "burners_only", {"last": last, "burners": burners}
        return "duitou", {"last": last, "duitou": duitou, "burners": burners}
    return "answer", {"free": answer == "free", "last": last,
                      "cards": trick.get("last_cards", ""), "seat": to_act[0]}


def turn_text(state: Mapping[str, Any]) -> str:
    """Who is to act now and who may answer, in Chinese (see the module example)."""
    case, d = _turn(state)
    if case == "waiting":
        return "等待开局"
    if case == "over":
        places = " · ".join(f"{PLACE_NAMES[p]} {seat_label(s)}" for p, s in d["places"])
        return f"本局结束：{places}" if places else "本局结束"
    if case == "operator":
        return "等待操作"
    if case == "lead":
        return f"请 {seat_label(d['seat'])} 出牌"
    if case == "burners_only":
        return f"{seat_label(d['last'])} 够级，请 {_seats(d['burners'])} 应牌"
    if case == "duitou":
        text = f"{seat_label(d['last'])} 够级，请对头 {seat_label(d['duitou'])} 应牌"
        burners = d["burners"]
        if len(burners) > 2:
            return text + "，其余各家可烧"
        return text + f"，{_seats(burners)} 可烧" if burners else text
    prefix = "四户乱缠，" if d["free"] else ""
    return f"{prefix}{seat_label(d['last'])} 出 {d['cards']}，请 {seat_label(d['seat'])} 应牌"


def turn_text_en(state: Mapping[str, Any]) -> str:
    """The same as :func:`turn_text`, in English."""
    case, d = _turn(state)
    if case == "waiting":
        return "Waiting for the first round"
    if case == "over":
        places = ", ".join(f"{PLACE_NAMES_EN[p]} seat {s + 1}" for p, s in d["places"])
        return f"Round over: {places}" if places else "Round over"
    if case == "operator":
        return "Waiting for the operator"
    if case == "lead":
        return f"Seat {d['seat'] + 1} to lead"
    if case == "burners_only":
        return f"Seat {d['last'] + 1} played gouji: seats {_seats_en(d['burners'])} may answer"
    if case == "duitou":
        text = f"Seat {d['last'] + 1} played gouji: seat {d['duitou'] + 1} (opposite) to answer"
        burners = d["burners"]
        if len(burners) > 2:
            return text + ", the others may burn"
        if burners:
            text += f", seat{'s' if len(burners) > 1 else ''} {_seats_en(burners)} may burn"
        return text
    prefix = "Free play: " if d["free"] else ""
    text = f"{prefix}seat {d['last'] + 1} played {d['cards']}: seat {d['seat'] + 1} to answer"
    return text[0].upper() + text[1:]
