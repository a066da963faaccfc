"""Builders for scripted rounds: a compact script of events, checked by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Match


def events_from_script(script: str) -> list[dict[str, Any]]:
    """``"0 55 | 3 77 | pass 4 | yield 3 | declare 0 yu | revolution 2 wutou | collect"``."""
    events: list[dict[str, Any]] = []
    for step in (s.strip() for s in script.split("|")):
        if not step:
            continue
        word, *rest = step.split()
        if word == "collect":
            events.append({"type": "collect"})
        elif word in ("pass", "yield"):
            events.append({"type": word, "seat": int(rest[0])})
        elif word == "declare":
            events.append({"type": "declare", "seat": int(rest[0]), "level": rest[1]})
        elif word == "revolution":
            event: dict[str, Any] = {"type": "revolution", "seat": int(rest[0])}
            if len(rest) > 1:
                event["choice"] = rest[1]
            events.append(event)
        else:
            events.append({"type": "play", "seat": int(word), "cards": " ".join(rest)})
    return events


def run_script(script: str, ruleset: str = "qingdao", *, first: int | None = 0,
               counts: list[int] | None = None, strict: bool = True) -> Match:
    """Play a script in a fresh match; with ``strict`` every event must be legal."""
    match = Match(ruleset)
    start: dict[str, Any] = {"type": "round", "first": first}
    if counts is not None:
        start["counts"] = counts
    match.apply(start)
    for line, event in enumerate(events_from_script(script), start=2):
        result = match.apply(event, line=line)
        if strict:
            assert result.applied, f"line {line} {event}: {result.error}"
    return match


@pytest.fixture
def script():
    """The :func:`run_script` builder."""
    return run_script
