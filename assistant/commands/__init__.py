"""The ``gouji`` subcommands, one module per group; each module's ``register`` adds its own."""

from __future__ import annotations

import argparse

__all__ = ["seconds"]


def seconds(text: str) -> float | None:
    """A wait in seconds from the command line; 0 means none."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds must lie within 0-3600, not {text}")
    return value or None
