"""``gouji process`` (a video to its event log) and ``gouji render-game`` (a scripted game filmed)."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.commands import (
    add_capture_options,
    add_review_conf,
    add_round_gap,
    capture_options,
    given,
    play_picture_file,
    positive_float,
    positive_int,
    read_text,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    process = subparsers.add_parser(
        "process", help="run the whole pipeline headless on a video file, write the event log",
        description="Recognise the plays of a filmed game and write them as an event log "
                    "(JSON lines); prints frames/s and the plays committed and held for review.")
    process.add_argument("video", help="video file (or folder of images, camera index, "
                                        "rtsp:// or http:// stream)")
    process.add_argument("--table", type=Path, required=True,
                         help="table file (table.json); the picture its zones were drawn on, "
                              "table.view.jpg beside it, when kept, finds a camera moved since")
    add_capture_options(process)
    process.add_argument("--events", type=Path, required=True, help="event log to write (.jsonl)")
    process.add_argument("--pictures", type=Path, default=None, metavar="DIR",
                         help="also write a picture of each play, its cards as filmed and with "
                              "the boxes found, as DIR/play-SEQ.jpg (SEQ: the play's number in "
                              "the log), to review held plays by")
    process.add_argument("--model", type=Path, default=None,
                         help="ONNX detector (default: $GOUJI_MODEL or models/gouji-cards.onnx)")
    process.add_argument("--classifier", type=Path, default=None,
                         help="rank classifier of a one-class detector (default: "
                              "$GOUJI_CLASSIFIER or models/gouji-ranks.onnx)")
    process.add_argument("--ruleset", default="qingdao",
                         help="ruleset of the game, for the rules' prior (default: qingdao)")
    process.add_argument("--window", type=positive_float, default=0.5,
                         help="seconds cards must lie still before they count (default: 0.5)")
    add_round_gap(process, zero="only at the end of the video")
    add_review_conf(process)
    process.add_argument("--threads", type=positive_int, default=2,
                         help="detector threads (default: 2)")
    process.add_argument("--whole-frame", action="store_true",
                         help="detect on whole frames instead of each seat's upright crop")
    process.add_argument("--truth", type=Path, default=None, metavar="TRUTH.jsonl",
                         help="the game's true event log (a rendered game's truth.jsonl): also "
                              "print how many plays came back exactly, the plays that differ, "
                              "and whether the game ends as the truth does")
    process.set_defaults(func=process_command)

    render = subparsers.add_parser(
        "render-game", help="film a scripted legal game: game.mp4, table.json (and its view, "
                            "table.view.jpg), truth.jsonl",
        description="Render a random legal game (rules self-play) as a 1280x720 overhead video "
                    "with its table file and its true event log.")
    render.add_argument("--seed", type=int, required=True, help="picks the game and its look")
    render.add_argument("--out", type=Path, required=True, help="output folder")
    render.add_argument("--frames-per-second", type=float, default=25.0, dest="fps",
                        help="video frame rate (default: 25)")
    render.add_argument("--ruleset", default="qingdao", help="ruleset (default: qingdao)")
    render.add_argument("--rounds", type=int, default=1,
                        help="rounds to play, the table empty for 70-100 s of dealing between "
                             "them (default: 1)")
    render.add_argument("--max-plays", type=int, default=None,
                        help="film only the first N plays (a short clip)")
    render.add_argument("--boxes", action="store_true",
                        help="also write boxes.jsonl, the exact visible card boxes per frame")
    render.set_defaults(func=render_command)


def process_command(args: argparse.Namespace) -> int:
    import rules
    from assistant.pipeline import Pipeline, card_detector
    from tracker.table import TableLayout, load_view
    from vision.capture import frames

    table = TableLayout.load(args.table)
    view = load_view(args.table, table.image_size)
    truth = _read_truth(args.truth) if args.truth is not None else None
    # A missing file fails here, before the model loads.
    source = frames(args.video, **capture_options(args))
    args.events.parent.mkdir(parents=True, exist_ok=True)   # and a log it cannot write here
    if args.pictures is not None:
        args.pictures.mkdir(parents=True, exist_ok=True)
    detector = card_detector(args.model, classifier=args.classifier, threads=args.threads)
    match = rules.Match(ruleset=args.ruleset)
    events: list[dict[str, Any]] = []
    with args.events.open("w", encoding="utf-8") as log:

        def on_event(event: dict[str, Any]) -> None:
            events.append(event)
            log.write(json.dumps(event, ensure_ascii=False) + "\n")
            log.flush()
            match.apply(event, line=len(events))

        pipeline = Pipeline(source, table, detector, match=match, ruleset=args.ruleset,
                            window=args.window, per_zone=not args.whole_frame,
                            steady=args.steady, view=view,
                            **given(args, "round_gap", "review_conf"))
        def on_picture(seq: int, jpeg: bytes) -> None:
            play_picture_file(args.pictures, seq).write_bytes(jpeg)

        with _stop_on_interrupt() as stop:
            stats = pipeline.run(on_event, stop=stop,
                                 on_picture=on_picture if args.pictures is not None else None)
        if stop.is_set():
            print(f"stopped (Ctrl-C) after {stats.frames} frames", file=sys.stderr)
    latency = (f", latency median {1000 * sorted(stats.latencies)[len(stats.latencies) // 2]:.0f} ms"
               if stats.latencies else "")
    print(f"{stats.frames} frames in {stats.seconds:.1f} s: {stats.fps:.1f} frames/s "
          f"({stats.detector_calls} detector runs taking {stats.detector_seconds:.1f} s{latency})")
    print(f"plays committed: {stats.plays}, held for review: {stats.held}, "
          f"corrected later: {stats.corrections}, tricks gathered: {stats.collects}")
    working = pipeline.zones.layout.image_size
    if working != table.image_size:
        print(f"pictures of {table.image_size[0]}x{table.image_size[1]} read at "
              f"{working[0]}x{working[1]}, the cards as large as the models learnt them")
    if stats.capture is not None and stats.capture.dropped:
        print(f"frames skipped as unreadable: {stats.capture.dropped}", file=sys.stderr)
    motion = stats.camera_motion
    if motion is not None and motion.moves:
        print(f"camera moved {motion.moves} times, its frames held to the table's view "
              f"(at last {motion.pose.shift:.1f} px and {motion.pose.turn:+.2f}° away)")
    if motion is not None and motion.unfollowed:
        print(f"camera's picture changed past following {motion.unfollowed} times: check the "
              f"table's zones against the video", file=sys.stderr)
    print(f"events written to {args.events}")
    if args.pictures is not None:
        print(f"pictures of the plays written to {args.pictures}")
    if truth is not None:
        _compare_with_truth(events, truth, args.truth, args.ruleset, pictures=args.pictures)
    return 0


@contextlib.contextmanager
def _stop_on_interrupt() -> Iterator[threading.Event]:
    """An event set by Ctrl-C, which ends a camera's or stream's run as the end of a file
    does, with the log whole and the figures printed; a second Ctrl-C quits at once."""
    stop = threading.Event()

    def interrupted(signum: int, frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print("stopping after this frame (Ctrl-C again to quit at once)", file=sys.stderr)

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def _read_truth(path: Path) -> list[dict[str, Any]]:
    """A true event log, every line checked, so that a bad one fails before the video is read."""
    import rules

    events = []
    for line, item in rules.loads(read_text(path)):
        try:
            rules.parse_event(item)
        except rules.GoujiError as exc:
            raise ValueError(f"{path}: line {line}: {exc}") from None
        events.append(item)
    return events


def _compare_with_truth(events: list[dict[str, Any]], truth: list[dict[str, Any]], path: Path,
                        ruleset: str, *, pictures: Path | None = None) -> None:
    """Print the score of ``events`` against ``truth`` and the plays that differ, each
    recognised one with its picture in ``pictures`` (a correction: its play's), when written."""
    from tracker.score import game_outcome, score_plays

    score = score_plays(truth, events)
    print(f"against {path}: {score.summary()}")
    same = game_outcome(events, ruleset) == game_outcome(truth, ruleset)
    print(f"finishing order, counts and tribute as the truth's: {'yes' if same else 'no'}")
    for difference in score.differences:
        print("\n".join(difference.lines()))
        if pictures is None:
            continue
        for play in difference.seen:
            picture = play_picture_file(pictures, play.get("fixes", play["seq"]))
            if picture.is_file():
                print(f"  picture: {picture}")


def render_command(args: argparse.Namespace) -> int:
    from tracker.table import save_view
    from vision.render_game import render_game

    if not 1 <= args.fps <= 120:
        raise ValueError(f"--frames-per-second must be between 1 and 120, got {args.fps}")
    game = render_game(args.seed, args.out, fps=args.fps, ruleset=args.ruleset,
                       rounds=args.rounds, boxes=args.boxes, max_plays=args.max_plays)
    view = save_view(game.table, game.view)
    print(f"{game.plays} plays, {game.frames} frames ({game.seconds:.1f} s) -> {game.video}")
    print(f"table: {game.table} (its view: {view})\ntruth: {game.truth}")
    return 0
