"""``gouji demo`` and ``gouji serve`` (the dashboard, overlay and tribute table on a local server)
and ``gouji export`` (a stored game as its event log or a readable record)."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

from assistant.commands import (
    add_capture_options,
    add_review_conf,
    add_round_gap,
    capture_options,
    count_or_all,
    given,
    play_picture_file,
    port,
    seconds,
)

__all__ = ["register"]

DEMO_NAMES = ["张伟", "王芳", "李强", "刘洋", "陈静", "杨磊"]
"""Seat names of the demo table."""
DEMO_ACCEPT_AFTER = 5.0
"""Seconds a held play of the demo waits for someone to look at it before it is let in."""


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="interface to bind (default 127.0.0.1; others need the operator token)")
    parser.add_argument("--port", type=port, default=8000, help="port (default 8000)")
    parser.add_argument("--token", help="operator token (default: generated when not on loopback)")
    parser.add_argument("--ruleset", default="qingdao", help="ruleset of new games (default qingdao)")
    parser.add_argument("--no-speech", action="store_true", help="do not speak announcements")
    parser.add_argument("--keep-pictures", type=count_or_all, default=argparse.SUPPRESS,
                        metavar="GAMES",
                        help="the latest games whose every play keeps its picture (default 10; "
                             "all: every game); older games keep those of the plays held for "
                             "review or corrected")


def register(subparsers: Any) -> None:
    demo = subparsers.add_parser(
        "demo", help="the dashboard fed by the demo game video (no camera needed)",
        description="Serve the dashboard on a local port, fed by the demo game video through the "
                    "whole pipeline (or a scripted game with --scripted).")
    _common(demo)
    demo.add_argument("--db", type=Path, default=Path.home() / ".cache" / "gouji" / "demo.sqlite3",
                      help="record store (default ~/.cache/gouji/demo.sqlite3; each demo is a new game)")
    demo.add_argument("--scripted", action="store_true",
                      help="no video: play a random legal game straight into the rules engine")
    demo.add_argument("--seed", type=int, default=7, help="seed of the scripted game (default 7)")
    demo.add_argument("--rounds", type=int, default=3, help="rounds of the scripted game (default 3)")
    demo.add_argument("--pace", type=float, default=1.5,
                      help="seconds between scripted events (default 1.5)")
    demo.add_argument("--accept-after", type=seconds, default=DEMO_ACCEPT_AFTER, metavar="SECONDS",
                      help="let a play held for review in as seen after SECONDS nobody looked "
                           f"at it (default {DEMO_ACCEPT_AFTER:g}; 0: wait for the operator)")
    demo.set_defaults(func=_demo)

    serve = subparsers.add_parser(
        "serve", help="the dashboard for a real table (camera, video file or RTSP)",
        description="Serve the dashboard, overlay and tribute table for a real table.")
    _common(serve)
    serve.add_argument("--source", help="camera index (0), video file or rtsp:// URL; "
                                        "without it, events come from the operator only")
    serve.add_argument("--table", type=Path, help="table layout file (seat zones, names)")
    add_capture_options(serve)
    serve.add_argument("--db", type=Path, default=Path("gouji.sqlite3"),
                       help="record store (default ./gouji.sqlite3); the latest game resumes")
    serve.add_argument("--new-game", action="store_true", help="start a new game instead of resuming")
    serve.add_argument("--accept-after", type=seconds, metavar="SECONDS",
                       help="let a play held for review in as seen after SECONDS nobody looked "
                            "at it (default: held plays wait for the operator)")
    add_round_gap(serve, zero="never")
    add_review_conf(serve)
    serve.set_defaults(func=_serve)

    export = subparsers.add_parser(
        "export", help="write a stored game as its event log or as a readable record",
        description="Print a game of the record store: the effective event log as JSON lines "
                    "(what gouji replay replays), every stored event with corrections (raw), "
                    "or the readable record with places, scores and tribute table (text); "
                    "and with --pictures, the picture of each play vision committed.")
    export.add_argument("--db", type=Path, default=Path("gouji.sqlite3"),
                        help="record store (default ./gouji.sqlite3)")
    export.add_argument("--game", type=int, help="game number (default: the latest)")
    export.add_argument("--format", choices=("jsonl", "raw", "text"), default="jsonl",
                        help="jsonl (default), raw or text")
    export.add_argument("--pictures", type=Path, metavar="DIR",
                        help="also write the picture of each play vision committed to "
                             "DIR/play-SEQ.jpg (SEQ: its number in the store, as --format raw "
                             "gives it)")
    export.set_defaults(func=_export)


def _demo(args: argparse.Namespace) -> int:
    options: dict[str, Any] = {"db": args.db, "new_game": True}
    scripted = {"script_seed": args.seed, "script_rounds": args.rounds, "script_pace": args.pace}
    if args.scripted:
        return _run(args, {**options, **scripted}, names=DEMO_NAMES)
    from assistant.pipeline import demo_assets

    print("gouji demo: preparing the demo game video (rendered once, then cached) ...")
    video, table = demo_assets()
    try:
        return _run(args, {**options, "source": str(video), "table": table,
                           "accept_after": args.accept_after}, names=DEMO_NAMES)
    except FileNotFoundError as exc:  # no detector model shipped or built yet
        print(f"gouji demo: {exc}\ngouji demo: playing a scripted game without video instead")
        return _run(args, {**options, **scripted}, names=DEMO_NAMES)


def _serve(args: argparse.Namespace) -> int:
    if args.source is not None and args.table is None:
        raise ValueError("--source needs --table TABLE.json (the seat zones of that camera)")
    if args.table is not None and not args.table.is_file():
        if args.source is None:
            raise FileNotFoundError(f"no such table file: {args.table}")
        _start_table(args.source, args.table, **capture_options(args))
    return _run(args, {"db": args.db, "new_game": args.new_game, "source": args.source,
                       "source_size": args.size, "source_fps": args.fps, "steady": args.steady,
                       "table": args.table, "accept_after": args.accept_after,
                       **given(args, "round_gap", "review_conf")})


def _start_table(source: str, path: Path, **options: Any) -> None:
    """A first table file for a new camera: six even zones over the middle of its picture,
    to be dragged into place in the dashboard (calibrate, K). ``options``: the size and rate
    asked of the source (:func:`vision.capture.frames`)."""
    from tracker.table import TableLayout, save_view
    from vision.capture import frames

    # A few tries (3.5 s): the layout needs the picture's size, and the server waits for it.
    capture = frames(source, max_reconnects=3, **options)
    try:
        frame = next(iter(capture), None)
    except ValueError as exc:
        raise ValueError(f"{exc}: a new table file is sized on its first picture") from exc
    finally:
        capture.close()
    if frame is None:
        raise FileNotFoundError(f"no picture from {source}")
    height, width = frame.image.shape[:2]
    x, y = 0.15 * width, 0.08 * height
    TableLayout.default([(x, y), (width - x, y), (width - x, height - y), (x, height - y)],
                        (width, height)).save(path)
    save_view(path, frame.image)
    print(f"gouji serve: new table file {path} with even seat zones: calibrate them in the "
          "dashboard (K)")


def _export(args: argparse.Namespace) -> int:
    from assistant import record, store

    if not args.db.is_file():
        raise FileNotFoundError(f"no such record store: {args.db}")
    conn = store.open_store(args.db)
    game = store.get_game(conn, game_id=args.game) if args.game else store.latest_game(conn)
    if game is None:
        raise ValueError(f"no game {args.game} in {args.db}" if args.game else
                         f"no game in {args.db}")
    if args.format == "text":
        print(record.text(conn, game_id=game.id), end="")
    else:
        print(record.jsonl(conn, game_id=game.id, raw=args.format == "raw"), end="")
    if args.pictures is not None:
        args.pictures.mkdir(parents=True, exist_ok=True)
        written = 0
        for seq, jpeg in store.load_pictures(conn, game_id=game.id):
            play_picture_file(args.pictures, seq).write_bytes(jpeg)
            written += 1
        print(f"gouji export: {written} pictures of game {game.id}'s plays written to "
              f"{args.pictures}", file=sys.stderr)
    return 0


def _run(args: argparse.Namespace, options: dict[str, Any], *,
         names: list[str] | None = None) -> int:
    import uvicorn

    import rules
    from assistant.app import create_app
    from assistant.settings import Settings, is_loopback

    rules.load_ruleset(args.ruleset)  # a bad name fails here, before anything starts
    token = args.token
    if token is None and not is_loopback(args.host):
        token = secrets.token_urlsafe(12)
    settings = Settings(host=args.host, port=args.port, token=token, ruleset=args.ruleset,
                        speech=not args.no_speech, **options, **given(args, "keep_pictures"))
    app = create_app(settings)
    live = app.state.live
    if names and not any(live.names):
        live.set_names(names)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    base = f"http://{shown}:{args.port}"
    print(f"gouji: game {live.game.id} ({len(live.records)} events) in {settings.db}")
    print(f"  dashboard  {base}/" + (f"?token={token}" if token else ""))
    print(f"  overlay    {base}/overlay   (OBS browser source, 1920x1080)")
    print(f"  tribute    {base}/tribute")
    if token:
        print(f"  operator token: {token}   (needed for every action; read-only pages need none)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=2)
    return 0
