"""Exports of a stored game: the JSON-lines event log and a readable text record.

The effective log (corrections applied, undone events left out, held plays left out) is what
``gouji replay`` replays; the text record is written from that same log and its replay, so the
two always agree.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import rules
from assistant import store
from assistant.corrections import resolve
from assistant.live import engine_event
from assistant.texts import PLACE_NAMES, PLACE_NAMES_EN, TRIBUTE_KINDS, seat_label

__all__ = ["effective_events", "jsonl", "text"]


def effective_events(conn: sqlite3.Connection, *, game_id: int) -> list[dict[str, Any]]:
    """The game's effective log, as the rules engine replays it."""
    if store.get_game(conn, game_id=game_id) is None:
        raise LookupError(f"no game {game_id}")
    records = store.load_events(conn, game_id=game_id)
    return [engine_event(event) for _, event in resolve(records).effective]


def jsonl(conn: sqlite3.Connection, *, game_id: int, raw: bool = False) -> str:
    """The event log as JSON lines; ``raw`` keeps every stored event with corrections."""
    if raw:
        if store.get_game(conn, game_id=game_id) is None:
            raise LookupError(f"no game {game_id}")
        events = [{**s.event, "seq": s.seq} for s in store.load_events(conn, game_id=game_id)]
    else:
        events = effective_events(conn, game_id=game_id)
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def _describe(event: dict[str, Any]) -> str:
    kind = event["type"]
    seat = seat_label(event["seat"]) if "seat" in event else ""
    if kind == "play":
        return f"{seat}  出 {event['cards']}"
    descriptions = {
        "pass": f"{seat}  过 pass",
        "yield": f"{seat}  让牌 yield",
        "declare": f"{seat}  {'明点' if event.get('level') == 'ming' else '预点'} declares",
        "revolution": f"{seat}  革命 revolution",
        "collect": "    收牌 trick gathered",
    }
    return descriptions.get(kind, str(kind))


def _score(value: int) -> str:
    return f"{value:+d}"


def text(conn: sqlite3.Connection, *, game_id: int) -> str:
    """The readable record of a game (Chinese with English glosses)."""
    game = store.get_game(conn, game_id=game_id)
    if game is None:
        raise LookupError(f"no game {game_id}")
    events = effective_events(conn, game_id=game_id)
    names = store.load_settings(conn, game_id=game_id).get("names") or [""] * 6
    state = rules.replay(events, ruleset=game.ruleset).to_json()
    lines = [f"够级 对局记录 · Gouji game record — game {game.id}",
             f"开始 started {game.created} · 规则 ruleset {game.ruleset}",
             "座位 seats (联邦 A = 1 3 5号, 联邦 B = 2 4 6号; 对头 = opposite, +3):"]
    for seat in range(6):
        lines.append(f"  {seat_label(seat)} {names[seat] or '-'}  联邦 {'AB'[seat % 2]}  "
                     f"对头 {seat_label((seat + 3) % 6)}")
    history = {h["round"]: h for h in state.get("history", [])}
    round_number = 0
    for line_number, event in enumerate(events, start=1):
        if event["type"] == "round":
            if round_number in history:
                lines += _round_summary(history[round_number], names)
            round_number += 1
            first = f" · 先出 first {seat_label(event['first'])}" if "first" in event else ""
            lines += ["", (f"== 第 {round_number} 局 · round {round_number} "
                          f"({event.get('ruleset', game.ruleset)}){first} ==")]
            continue
        lines.append(f"  {line_number:4d}  {_describe(event)}")
    if round_number in history:
        lines += _round_summary(history[round_number], names)
    lines += ["", "== 比分 · match score ==", "  局 round   A (1 3 5号)   B (2 4 6号)"]
    for number in sorted(history):
        scores = history[number]["scores"]
        lines.append(f"  {number:>8}   {_score(scores['0']):>11}   {_score(scores['1']):>11}")
    lines.append(f"  {'合计 total':>8}   {_score(state['scores']['0']):>9}   "
                 f"{_score(state['scores']['1']):>11}")
    if state.get("errors"):
        lines += ["", "== 规则错误 · rule errors (skipped) =="]
        lines += [f"  line {e['line']}: {e['reason']}" for e in state["errors"]]
    return "\n".join(lines) + "\n"


def _places(entry: dict[str, Any]) -> dict[int, int]:
    """Seat → place of a finished round (the last seats are placed without going out)."""
    if "places" in entry:
        return {int(seat): int(place) for seat, place in entry["places"].items() if place}
    return {seat: place for place, seat in enumerate(entry["finish_order"], start=1)}


def _round_summary(entry: dict[str, Any], names: list[str]) -> list[str]:
    def who(seat: int) -> str:
        return f"{seat_label(seat)}{' ' + names[seat] if names[seat] else ''}"

    lines = ["", f"-- 第 {entry['round']} 局结果 · round {entry['round']} result --", "  名次 places:"]
    for seat, place in sorted(_places(entry).items(), key=lambda item: item[1]):
        lines.append(f"    {PLACE_NAMES[place]} {PLACE_NAMES_EN[place]:>4}  {who(seat)}")
    lines.append(f"  得分 score: A {_score(entry['scores']['0'])} · B {_score(entry['scores']['1'])}")
    lines.append("  进贡 tribute for the next round:")
    if not entry["tribute"]:
        lines.append("    无 none")
    for row in entry["tribute"]:
        chinese, english = TRIBUTE_KINDS[row["kind"]]
        back = "还贡 returned" if row["returned"] else "不还 kept"
        lines.append(f"    {chinese} {english:<16} {who(row['from'])} → {who(row['to'])}  "
                     f"{row['cards']} 张 cards  {back}")
    return lines
