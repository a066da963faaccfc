"""Corrections, undos and reviews: the stored log never changes, the effective log follows."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.corrections import last_undoable, resolve
from assistant.store import StoredEvent


def log(*events: dict[str, Any]) -> list[StoredEvent]:
    return [StoredEvent(seq, "", event) for seq, event in enumerate(events, start=1)]


ROUND = {"type": "round", "first": 0}
P33 = {"type": "play", "seat": 0, "cards": "33"}
P44 = {"type": "play", "seat": 1, "cards": "44"}


@pytest.mark.parametrize(("events", "effective", "status"), [
    # plain events are effective in order
    ([ROUND, P33], [1, 2], {1: "effective", 2: "effective"}),
    # a correction takes the place of what it fixes
    ([ROUND, P33, P44, {**P33, "cards": "55", "fixes": 2}], [1, 4, 3],
     {2: "replaced", 4: "effective"}),
    # undo withdraws; undoing the correction brings back the original
    ([ROUND, P33, {**P33, "cards": "55", "fixes": 2}, {"type": "undo", "fixes": 3}], [1, 2],
     {2: "effective", 3: "withdrawn", 4: "control"}),
    # undoing an undo restores the event
    ([ROUND, P33, {"type": "undo", "fixes": 2}, {"type": "undo", "fixes": 3}], [1, 2],
     {2: "effective", 3: "void", 4: "control"}),
    # a held play waits for review, then enters at its own place
    ([ROUND, {**P33, "review": True}], [1], {2: "held"}),
    ([ROUND, {**P33, "review": True}, P44, {"type": "accept", "fixes": 2}], [1, 2, 3],
     {2: "effective"}),
    # correcting a held play lets the corrected play in
    ([ROUND, {**P33, "review": True}, {**P33, "cards": "34", "fixes": 2}], [1, 3],
     {2: "replaced", 3: "effective"}),
    # a correction of a correction stays in the original's place
    ([ROUND, P33, P44, {**P33, "cards": "55", "fixes": 2}, {**P33, "cards": "66", "fixes": 4}],
     [1, 5, 3], {4: "replaced", 5: "effective"}),
])
def test_resolve(events: list[dict[str, Any]], effective: list[int],
                 status: dict[int, str]) -> None:
    resolution = resolve(log(*events))
    assert [seq for seq, _ in resolution.effective] == effective
    assert {seq: resolution.status[seq] for seq in status} == status


def test_undo_button_walks_back_one_event_at_a_time() -> None:
    events = log(ROUND, P33, P44, {"type": "undo", "fixes": 3})
    assert last_undoable(events) == 2
    assert last_undoable(log()) is None
