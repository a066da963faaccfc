"""Replay speed (run with ``-m bench``; prints figures, asserts behaviour only).

The full benchmark is ``python bench/bench_rules.py`` (10,000 rounds).
"""

import statistics
import time

import pytest

from rules import PRESETS, dumps, replay
from rules.selfplay import random_match


@pytest.mark.bench
@pytest.mark.parametrize("ruleset", PRESETS)
def test_replay_rounds_per_second(ruleset):
    logs = [dumps(random_match(seed, ruleset)) for seed in range(100)]
    per_round = []
    for log in logs:
        start = time.perf_counter()
        match = replay(log)
        per_round.append(time.perf_counter() - start)
        assert not match.errors and match.to_json()["round_over"]
    median = statistics.median(per_round)
    print(f"\n{ruleset}: median {median * 1e3:.2f} ms/round, {1 / median:.0f} rounds/s")
