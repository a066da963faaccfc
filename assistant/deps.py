"""FastAPI dependencies: the objects :func:`assistant.app.create_app` builds, and the operator check."""

from __future__ import annotations

import secrets
import sqlite3
from typing import Annotated

from fastapi import Depends, HTTPException, status
from starlette.requests import HTTPConnection

from assistant.live import LiveGame
from assistant.settings import Settings
from assistant.speech import Speaker
from assistant.video import FrameHub

__all__ = [
    "TOKEN_HEADER",
    "FramesDep",
    "LiveDep",
    "SettingsDep",
    "SpeakerDep",
    "StoreDep",
    "require_operator",
]

TOKEN_HEADER = "X-Gouji-Token"
"""Header carrying the operator token."""


def get_settings(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings  # type: ignore[no-any-return]


def get_store(connection: HTTPConnection) -> sqlite3.Connection:
    return connection.app.state.store  # type: ignore[no-any-return]


def get_live(connection: HTTPConnection) -> LiveGame:
    return connection.app.state.live  # type: ignore[no-any-return]


def get_speaker(connection: HTTPConnection) -> Speaker:
    return connection.app.state.speaker  # type: ignore[no-any-return]


def get_frames(connection: HTTPConnection) -> FrameHub:
    return connection.app.state.frames  # type: ignore[no-any-return]


SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[sqlite3.Connection, Depends(get_store)]
LiveDep = Annotated[LiveGame, Depends(get_live)]
SpeakerDep = Annotated[Speaker, Depends(get_speaker)]
FramesDep = Annotated[FrameHub, Depends(get_frames)]


def require_operator(connection: HTTPConnection, settings: SettingsDep) -> None:
    """Refuse an action without the operator token, when the server has one.

    The token comes in the ``X-Gouji-Token`` header or as ``Authorization: Bearer …``.
    """
    if settings.token is None:
        return
    given = connection.headers.get(TOKEN_HEADER, "")
    bearer = connection.headers.get("Authorization", "")
    if not given and bearer.lower().startswith("bearer "):
        given = bearer[7:]
    if not secrets.compare_digest(given.encode(), settings.token.encode()):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail="operator token required: open the dashboard with ?token=… as printed at start",
        )
