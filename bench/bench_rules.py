"""Rules engine benchmark: replay random full rounds and print rounds/s.

The rounds are made first by the self-play bots (timed separately), then replayed from their
event logs through :func:`rules.replay` (the timed part: JSON lines in, state out). Target: all
10,000 rounds replayed in under 60 s on one core.

    python bench/bench_rules.py                       # 10,000 qingdao rounds
    python bench/bench_rules.py --rounds 2000 --ruleset irvine --profile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from rules import dumps, replay
from rules.selfplay import random_match


def make_logs(rounds: int, ruleset: str, seed: int) -> list[str]:
    """One JSON-lines log per random full round."""
    return [dumps(random_match(seed + i, ruleset, rounds=1)) for i in range(rounds)]


def replay_all(logs: list[str]) -> int:
    """Replay every log; returns the number of events. Fails loudly on any error."""
    events = 0
    for log in logs:
        match = replay(log)
        if match.errors or not match.to_json()["round_over"]:
            raise SystemExit(f"replay disagrees with self-play: {match.errors[:1]}")
        events += match.events
    return events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--ruleset", default="qingdao")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print the replay's hot spots")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    logs = make_logs(args.rounds, args.ruleset, args.seed)
    made = time.perf_counter() - t0
    print(f"self-play: {args.rounds} {args.ruleset} rounds made in {made:.1f} s "
          f"({args.rounds / made:.0f} rounds/s)")

    t0 = time.perf_counter()
    events = replay_all(logs)
    took = time.perf_counter() - t0
    print(f"replay: {args.rounds} rounds, {events} events in {took:.1f} s: "
          f"{args.rounds / took:.0f} rounds/s, {events / took:.0f} events/s, "
          f"{took / args.rounds * 1e3:.2f} ms/round")
    if args.rounds >= 10_000:
        verdict = "met" if took < 60 else "MISSED"
        print(f"target (10,000 rounds < 60 s): {verdict}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(replay_all, logs[: min(len(logs), 500)])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    return 0


if __name__ == "__main__":
    sys.exit(main())
