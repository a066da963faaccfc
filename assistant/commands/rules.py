"""``gouji rules beats``, ``gouji rules classify`` and ``gouji replay``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from assistant.commands import read_text


def register(subparsers: Any) -> None:
    """Add the rules commands to the ``gouji`` parser."""
    rules_parser = subparsers.add_parser("rules", help="ask the rules engine about plays")
    rules_sub = rules_parser.add_subparsers(dest="rules_command", required=True, metavar="QUESTION")

    beats = rules_sub.add_parser("beats", help="print true if play A beats play B, else false")
    beats.add_argument("a", metavar="A", help="the answering play, e.g. '25555' or 'BJ BJ 555'")
    beats.add_argument("b", metavar="B", help="the play it answers")
    _ruleset_option(beats)
    beats.set_defaults(func=_beats)

    classify = rules_sub.add_parser("classify", help="print a play's classification as JSON")
    classify.add_argument("cards", metavar="CARDS", help="the play, e.g. '22333'")
    _ruleset_option(classify)
    classify.set_defaults(func=_classify)

    replay = subparsers.add_parser("replay", help="replay an event log and print the state JSON")
    replay.add_argument("record", metavar="RECORD.jsonl", type=Path, help="event log, one JSON per line")
    replay.add_argument("--ruleset", default=None,
                        help="ruleset name or alias (default: the log's, else qingdao)")
    replay.set_defaults(func=_replay)


def _ruleset_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", default="qingdao",
                        help="qingdao (default), biesan, irvine, house196, online; "
                             "options after '+', e.g. qingdao+joker_multi_cover")


def _beats(args: argparse.Namespace) -> int:
    import rules

    print("true" if rules.beats(args.a, args.b, ruleset=args.ruleset) else "false")
    return 0


def _classify(args: argparse.Namespace) -> int:
    import rules

    print(json.dumps(rules.classify(args.cards, ruleset=args.ruleset).to_dict(), ensure_ascii=False))
    return 0


def _replay(args: argparse.Namespace) -> int:
    import rules

    text = read_text(args.record)
    match = rules.replay(text, ruleset=args.ruleset)
    print(json.dumps(match.to_json(), ensure_ascii=False, indent=2))
    return 0
