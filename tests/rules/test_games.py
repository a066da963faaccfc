"""Whole games as data: each ``games/NAME.jsonl`` replays to the state in ``games/NAME.json``.

Hand-written games check rules worked out by hand; ``selfplay_*`` games are whole 36-card rounds
recorded from :func:`rules.selfplay.random_match` and guard against regressions.
"""

import json
from pathlib import Path

import pytest

from rules import replay

GAMES = sorted(Path(__file__).parent.joinpath("games").glob("*.jsonl"))


@pytest.mark.parametrize("log", GAMES, ids=[g.stem for g in GAMES])
def test_game_replays_to_its_expected_state(log):
    expected = json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
    expected.pop("comment", None)
    state = replay(log.read_text(encoding="utf-8")).to_json()
    assert {key: state[key] for key in expected} == expected


def test_there_are_games_for_every_preset():
    assert {g.stem.removeprefix("selfplay_") for g in GAMES} >= {
        "qingdao", "biesan", "irvine", "house196", "online"}
