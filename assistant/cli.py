"""The ``gouji`` command line.

Each group of sub-commands lives in a module of :mod:`assistant.commands` that exposes
``register(subparsers)``; a handler is stored as ``func`` and returns the exit status.
Heavy imports happen inside the handlers so ``gouji rules …`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = (
    "assistant.commands.rules",     # rules beats / rules classify / replay
    "assistant.commands.vision",    # detect / eval
    "assistant.commands.train",     # synth / train
    "assistant.commands.pipeline",  # process / render-game
    "assistant.commands.serve",     # demo / serve
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gouji", description="Table assistant for 够级 (Gouji), the six-player card game.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a missing dependency, not a missing command module
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    # Bad input (GoujiError among others) or a path that cannot be read or written (missing,
    # a file for a folder): one line, exit 2.
    except (ValueError, OSError) as exc:
        print(f"gouji {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
