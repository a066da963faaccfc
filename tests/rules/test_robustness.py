"""The engine never crashes: random garbage and random illegal events in the middle of real games."""

import random

import pytest

from rules import GoujiError, Match, replay
from rules.selfplay import random_match

GARBAGE_CARDS = ["", "5", "55X", "BJ BJ BJ BJ BJ", "3333333333333333333", "2" * 20, "TJQ", "10",
                 "大王", "SJ SJ 2 2 A A", "🂡", "5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5", None, 7, ["5"]]


def random_event(rng: random.Random):
    kind = rng.choice(["play", "pass", "yield", "declare", "revolution", "collect", "round",
                       "bogus", None, 3])
    event = {"type": kind}
    if rng.random() < 0.9:
        event["seat"] = rng.choice([0, 1, 2, 3, 4, 5, 6, -1, "2", None, True, 2.0])
    if kind == "play" or rng.random() < 0.1:
        event["cards"] = rng.choice(GARBAGE_CARDS)
    if kind == "declare":
        event["level"] = rng.choice(["ming", "yu", "loud", None])
    if kind == "round":
        event["first"] = rng.choice([0, 3, 9, None])
        if rng.random() < 0.3:
            event["counts"] = rng.choice([[1] * 6, [36] * 5, "x", [40] * 6])
    return event


@pytest.mark.parametrize("seed", range(6))
def test_garbage_mixed_into_a_real_game_never_crashes(seed):
    rng = random.Random(seed)
    ruleset = ["qingdao", "biesan", "irvine", "house196", "online", "qingdao"][seed]
    events = random_match(seed, ruleset, rounds=1, extras=True)
    mixed = []
    for event in events:
        if rng.random() < 0.3:
            mixed.append(random_event(rng))
        mixed.append(event)
    m = Match(ruleset)
    for line, event in enumerate(mixed, start=1):
        before = m.to_json()
        try:
            result = m.apply(event, line=line)
        except GoujiError:
            result = None
        after = m.to_json()
        if result is None or not result.applied:   # refused: nothing changed but the errors
            assert len(after.pop("errors")) == len(before.pop("errors")) + 1
            assert after == before
        assert all(c >= 0 for c in m.to_json()["counts"].values())


def test_replay_of_arbitrary_text_never_crashes():
    rng = random.Random(1)
    lines = [f'{{"type":"play","seat":{rng.randrange(8)},"cards":"{rng.choice("3456789TJQKA2")}"}}'
             for _ in range(300)]
    lines += ["{", "null", "[]", '"play"', "{}", '{"type":"round","first":"x"}']
    rng.shuffle(lines)
    m = replay("\n".join(lines))
    assert m.events + len(m.errors) == len(lines)
