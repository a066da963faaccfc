"""The ``gouji`` subcommands, one module per group; each module's ``register`` adds its own."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["add_capture_options", "add_review_conf", "add_round_gap", "capture_options",
           "confidence", "count_or_all", "frame_size", "given", "play_picture_file", "port",
           "positive_float", "positive_int", "read_text", "seconds"]


def read_text(path: Path) -> str:
    """A text file named on the command line; one that is not UTF-8 text (a video given for a
    log) is a ValueError naming it."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file (not UTF-8)") from None


def play_picture_file(folder: Path, seq: int) -> Path:
    """Where ``--pictures DIR`` (``gouji process``, ``gouji export``) keeps the picture of play
    ``seq``: ``DIR/play-SEQ.jpg``."""
    return folder / f"play-{seq}.jpg"


def positive_int(text: str) -> int:
    """A count of at least 1 from the command line."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def count_or_all(text: str) -> int | None:
    """A count of at least 1, or ``all`` (``None``: no limit), from the command line."""
    return None if text == "all" else positive_int(text)


def port(text: str) -> int:
    """A TCP port to serve on, 1-65535, from the command line."""
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is at most 65535, got {value}")
    return value


def _number(text: str, what: str) -> float:
    """``text`` from the command line as a number; else an error saying ``what`` it must be."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def positive_float(text: str) -> float:
    """A number above 0 from the command line."""
    value = _number(text, "a number")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {value:g}")
    return value


def frame_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels from the command line.

    >>> frame_size("1280x720")
    (1280, 720)
    """
    width, _, height = text.lower().partition("x")
    try:
        size = int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x720, got {text!r}"
                                         ) from None
    if not all(16 <= side <= 8192 for side in size):
        raise argparse.ArgumentTypeError(f"each side must lie within 16-8192 pixels, got {text}")
    return size


def add_capture_options(parser: argparse.ArgumentParser) -> None:
    """``--size`` and ``--fps`` of the video source (:func:`vision.capture.frames`), and
    ``--no-steady``."""
    parser.add_argument("--size", type=frame_size, metavar="WIDTHxHEIGHT",
                        help="frame size: asked of a webcam, other sources' frames are scaled "
                             "to it (default: as the source delivers)")
    parser.add_argument("--fps", type=positive_float, metavar="F",
                        help="frame rate: asked of a webcam; a video file's frames are thinned "
                             "to it; an image folder's images are F a second (default: the "
                             "source's own; 25 for a folder)")
    parser.add_argument("--no-steady", dest="steady", action="store_false",
                        help="take the frames as they come: do not follow a bumped camera and "
                             "warp its frames back to the table's view")


def capture_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`vision.capture.frames` that ``--size``/``--fps`` set."""
    width, height = args.size or (None, None)
    return {"width": width, "height": height, "fps": args.fps}


def seconds(text: str) -> float | None:
    """A wait in seconds from the command line; 0 means none."""
    value = _number(text, "a number of seconds")
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds must lie within 0-3600, not {text}")
    return value or None


def add_round_gap(parser: argparse.ArgumentParser, *, zero: str) -> None:
    """``--round-gap SECONDS``, the segmenter's ``round_gap``; ``zero`` says what 0 means."""
    parser.add_argument("--round-gap", type=seconds, default=argparse.SUPPRESS, metavar="SECONDS",
                        help="after SECONDS without a play (the next deal), correct a play of "
                             "the round left open if, read with one card more or changed, it "
                             f"ends the round (default: 60; 0: {zero})")


def confidence(text: str) -> float:
    """A confidence from the command line, within 0-1."""
    value = _number(text, "a confidence")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a confidence lies within 0-1, not {text}")
    return value


def add_review_conf(parser: argparse.ArgumentParser) -> None:
    """``--review-conf CONF``, the segmenter's ``review_conf`` (its default written out: the
    parser is built for every command, and the tracker takes 0.4 s to import)."""
    parser.add_argument("--review-conf", type=confidence, default=argparse.SUPPRESS,
                        metavar="CONF",
                        help="hold a play for review when its least sure card reads below "
                             "CONF (default 0.3; a stricter referee's 0.4 or 0.5 "
                             "holds more plays, nearly all of them right, to catch a wrong one "
                             "more; 0: none for that reason alone)")


def given(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The options of ``names`` that were given on the command line (each declared with
    ``default=argparse.SUPPRESS``), by name: the others keep the default of whatever takes
    them (``--round-gap``, ``--review-conf``, ``--keep-pictures``)."""
    return {name: getattr(args, name) for name in names if name in args}
