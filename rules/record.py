"""Event logs (JSON lines): load, dump, replay.

The state is a pure function of the log: undo is a replay without the last event. An event may
carry ``fixes``: the ``seq`` (else the line number) of an earlier event it corrects; the
correction takes the original's place, and ``{"type": "void", "fixes": N}`` deletes it. A line
that is not JSON, or an illegal event, is reported with its line number and skipped.

>>> log = '''{"type": "round", "first": 0}
... {"type": "play", "seat": 0, "cards": "55"}
... not json
... {"type": "play", "seat": 2, "cards": "44"}
... {"type": "play", "seat": 2, "cards": "66"}'''
>>> m = replay(log)
>>> [(e.line, e.reason) for e in m.errors]    # doctest: +NORMALIZE_WHITESPACE
[(3, 'not JSON: Expecting value'), (4, '44 does not beat 55')]
>>> m.to_json()["counts"]["2"], m.to_json()["to_act"]
(34, [3, 4, 5, 0])
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from rules.errors import GoujiError
from rules.events import UnreadableLine
from rules.match import Match
from rules.ruleset import Ruleset

__all__ = ["dumps", "loads", "replay", "undo"]


def loads(text: str) -> list[tuple[int, Any]]:
    """Parse JSON lines into ``(line number, object)``; blank lines are skipped.

    Lines that are not JSON come back as :class:`rules.events.UnreadableLine` for
    :func:`replay` to report in their place.
    """
    items: list[tuple[int, Any]] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            items.append((number, UnreadableLine(line, f"not JSON: {exc.msg}")))
    return items


def dumps(events: Iterable[Mapping[str, Any]]) -> str:
    """Events as JSON lines (one compact object per line, UTF-8 text).

    >>> dumps([{"type": "play", "seat": 1, "cards": "BJ 55"}])
    '{"type":"play","seat":1,"cards":"BJ 55"}\\n'
    """
    return "".join(json.dumps(dict(e), ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in events)


def replay(events: str | Iterable[Mapping[str, Any]], ruleset: str | Ruleset | None = None
           ) -> Match:
    """Replay a whole event log into a :class:`Match`.

    Args:
        events: JSON-lines text, or event objects (numbered from line 1).
        ruleset: Ruleset to use; None takes the log's ``round`` event, else ``qingdao``.

    Returns:
        The match; ``errors`` lists every skipped event with its line.
    """
    items = loads(events) if isinstance(events, str) else list(enumerate(events, start=1))
    match = Match(ruleset)
    for line, event in items:
        try:
            match.apply(event, line=line)
        except GoujiError:
            pass   # malformed: already recorded by apply
    return match


def undo(events: list[Mapping[str, Any]], ruleset: str | Ruleset | None = None) -> Match:
    """The match without the last event (undo is a replay).

    >>> undo([{"type": "play", "seat": 0, "cards": "5"}, {"type": "play", "seat": 1, "cards": "6"}]
    ...      ).to_json()["counts"]["1"]
    36
    """
    return replay(events[:-1], ruleset)
