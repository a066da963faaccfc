"""The FastAPI application: built by :func:`create_app` from :class:`Settings`, nothing global.

>>> from assistant.settings import Settings
>>> app = create_app(Settings(db=":memory:", speech=False))
>>> app.state.live.state["turn_text"], app.state.live.state["counts"]["0"]
('等待开局', 36)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

import rules
from assistant import pages, store
from assistant.api import events, speech, state, stream, table
from assistant.feed import Feeder, accept_feeder, pipeline_feeder, script_feeder
from assistant.live import LiveGame
from assistant.settings import Settings, is_loopback
from assistant.speech import Speaker
from assistant.video import FrameHub
from rules.selfplay import random_match
from tracker.table import TableLayout, TableLayoutError, load_view

__all__ = ["create_app"]

STATIC = Path(__file__).resolve().parent / "static"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
"""Host names a loopback server answers to."""

# The one place errors become HTTP statuses; the message always goes back to the caller.
_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (LookupError, 404),            # no such game / event, nothing to undo
    (TableLayoutError, 422),
    (rules.GoujiError, 422),       # bad cards, unknown ruleset
    (ValueError, 422),
    (RuntimeError, 503),           # speech engine failed
)


async def _error(_: Request, exc: Exception) -> JSONResponse:
    code = next(code for kind, code in _STATUS if isinstance(exc, kind))
    return JSONResponse({"detail": str(exc).strip("'\"")}, status_code=code)


def _feeders(app: FastAPI) -> list[Feeder]:
    """The pipeline when a video source is set, else the scripted game when a seed is set; and
    the timer letting in held plays when ``accept_after`` is set (they may come from vision
    here or from a client of the API)."""
    settings: Settings = app.state.settings
    live: LiveGame = app.state.live
    feeders = []
    if settings.source is not None:
        if app.state.table is None:
            raise FileNotFoundError("a video source needs a table file: --table TABLE.json")
        view = (load_view(settings.table, app.state.table.image_size)
                if settings.table is not None else None)
        feeders.append(pipeline_feeder(
            live, app.state.frames, source=settings.source, size=settings.source_size,
            fps=settings.source_fps, steady=settings.steady, view=view,
            table=lambda: app.state.table,
            frame_rate=settings.frame_rate, round_gap=settings.round_gap,
            review_conf=settings.review_conf))
    elif settings.script_seed is not None:
        events = random_match(settings.script_seed, live.game.ruleset, settings.script_rounds)
        # A resumed scripted game continues where it stopped: one stored event per script line.
        feeders.append(script_feeder(live, events[len(live.records):], pace=settings.script_pace))
    if settings.accept_after is not None:
        feeders.append(accept_feeder(live, after=settings.accept_after))
    return feeders


def create_app(settings: Settings) -> FastAPI:
    """Build the app: open the store, resume the latest game (or start one), mount the pages."""
    conn = store.open_store(settings.db)
    layout = TableLayout.load(settings.table) if settings.table and settings.table.exists() else None
    names = [seat.name or "" for seat in layout.seats] if layout else None
    game = None if settings.new_game else store.latest_game(conn)
    if game is None:
        rules.load_ruleset(settings.ruleset)  # an unknown ruleset fails before anything is stored
        game = store.create_game(conn, ruleset=settings.ruleset)
    speaker = Speaker(settings.speech_cache)
    live = LiveGame(conn, game, names=names, speech=settings.speech and speaker.available,
                    on_announce=speaker.prepare, keep_pictures=settings.keep_pictures)
    frames = FrameHub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for feeder in feeders:
            feeder.start()
        yield
        for feeder in feeders:
            feeder.close()
        frames.closed = True
        live.close()
        speaker.close()

    app = FastAPI(title="gouji", summary="够级 table assistant", lifespan=lifespan)
    app.state.settings = settings
    app.state.store = conn
    app.state.live = live
    app.state.speaker = speaker
    app.state.frames = frames
    app.state.table = layout
    feeders = _feeders(app)  # built now so a missing model or table fails before serving
    if is_loopback(settings.host):
        # A page of another site must not reach this server through a rebound DNS name.
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_NAMES)
    for kind, _ in _STATUS:
        app.add_exception_handler(kind, _error)
    for module in (state, events, stream, speech, table):
        app.include_router(module.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
