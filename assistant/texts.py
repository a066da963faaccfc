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


def turn_text(state: Mapping[str, Any]) -> str:
    """Who is to act now and who may answer, in Chinese (see the module example)."""
    if not state.get("round"):
        return "等待开局"
    if state.get("round_over"):
        places = " · ".join(f"{PLACE_NAMES[p]} {seat_label(s)}" for p, s in _places(state))
        return f"本局结束：{places}" if places else "本局结束"
    to_act: list[int] = list(state.get("to_act", []))
    trick = state.get("trick", {})
    answer = trick.get("answer")
    last = trick.get("last_seat")
    if not to_act:
        return "等待操作"
    if answer == "lead" or last is None:
        return f"请 {seat_label(to_act[0])} 出牌"
    if answer == "duitou":
        duitou = (last + 3) % 6
        burners = [s for s in to_act if s != duitou]
        text = f"{seat_label(last)} 够级，请对头 {seat_label(duitou)} 应牌"
        if duitou not in to_act:
            text = f"{seat_label(last)} 够级，请 {_seats(burners)} 应牌"
        elif len(burners) > 2:
            text += "，其余各家可烧"
        elif burners:
            text += f"，{_seats(burners)} 可烧"
        return text
    prefix = "四户乱缠，" if answer == "free" else ""
    return f"{prefix}{seat_label(last)} 出 {trick.get('last_cards', '')}，请 {seat_label(to_act[0])} 应牌"


def turn_text_en(state: Mapping[str, Any]) -> str:
    """The same as :func:`turn_text`, in English."""
    if not state.get("round"):
        return "Waiting for the first round"
    if state.get("round_over"):
        places = ", ".join(f"{PLACE_NAMES_EN[p]} seat {s + 1}" for p, s in _places(state))
        return f"Round over: {places}" if places else "Round over"
    to_act: list[int] = list(state.get("to_act", []))
    trick = state.get("trick", {})
    answer = trick.get("answer")
    last = trick.get("last_seat")
    if not to_act:
        return "Waiting for the operator"
    if answer == "lead" or last is None:
        return f"Seat {to_act[0] + 1} to lead"
    if answer == "duitou":
        duitou = (last + 3) % 6
        burners = [s for s in to_act if s != duitou]
        if duitou not in to_act:
            return f"Seat {last + 1} played gouji: seats {_seats_en(burners)} may answer"
        text = f"Seat {last + 1} played gouji: seat {duitou + 1} (opposite) to answer"
        if len(burners) > 2:
            text += ", the others may burn"
        elif burners:
            text += f", seat{'s' if len(burners) > 1 else ''} {_seats_en(burners)} may burn"
        return text
    prefix = "Free play: " if answer == "free" else ""
    text = f"{prefix}seat {last + 1} played {trick.get('last_cards', '')}: seat {to_act[0] + 1} to answer"
    return text[0].upper() + text[1:]
