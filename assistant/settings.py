"""Run-time settings of the assistant (environment variables ``GOUJI_*`` or the command line)."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from tracker.plays import REVIEW_CONF, ROUND_GAP

__all__ = ["KEEP_PICTURES", "Settings", "is_loopback"]

KEEP_PICTURES = 10
"""Default number of the latest games whose every play keeps its picture (some 4 MB a round)."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


class Settings(BaseSettings):
    """Everything :func:`assistant.app.create_app` needs; nothing is read at import time."""

    model_config = SettingsConfigDict(env_prefix="GOUJI_", frozen=True)

    host: str = "127.0.0.1"
    """Interface the server binds to; anything but loopback requires an operator token."""
    port: int = Field(default=8000, ge=0, le=65535)
    """TCP port of the server."""
    db: Path = Path("gouji.sqlite3")
    """SQLite file holding every game's event log."""
    table: Path | None = None
    """Table layout file (seat zones, names); calibration saves into it."""
    ruleset: str = "qingdao"
    """Ruleset of new games and the next round."""
    token: str | None = None
    """Operator token; when set, every action needs it (header ``X-Gouji-Token``)."""
    source: str | None = None
    """Video source of the pipeline (camera index, file, ``rtsp://`` URL); ``None`` runs without."""
    source_size: tuple[int, int] | None = None
    """Frame size ``(width, height)`` asked of a webcam; other sources' frames are scaled to it.
    ``None``: as the source delivers."""
    source_fps: float | None = Field(default=None, gt=0, le=240)
    """Frame rate asked of a webcam, or a video file's frames thinned to it. ``None``: the
    source's own."""
    steady: bool = True
    """Follow a bumped camera and warp its frames back to the table's view
    (:mod:`vision.stabilize`)."""
    script_seed: int | None = None
    """Without a ``source``: play the random legal game of this seed (``gouji demo --scripted``)."""
    script_rounds: int = Field(default=2, ge=1, le=20)
    """Rounds of the scripted game."""
    script_pace: float = Field(default=1.5, gt=0, le=60)
    """Seconds between the scripted game's events."""
    new_game: bool = False
    """Start a new game instead of resuming the latest one in ``db``."""
    speech: bool = True
    """Speak announcements (espeak-ng's Mandarin voice) when espeak-ng is installed."""
    speech_cache: Path = Path.home() / ".cache" / "gouji" / "speech"
    """Folder of the generated WAV files, one per distinct text."""
    accept_after: float | None = Field(default=None, gt=0, le=3600)
    """Seconds a play held for review waits for the operator before it is let in as seen
    (an ``accept`` from ``inferred``): a table without a referee keeps its counts going.
    ``None``: held plays wait for the operator."""
    round_gap: float | None = Field(default=ROUND_GAP, gt=0, le=3600)
    """Seconds without a play after which vision asks whether the round in play should be
    over (the next deal is being made): a round left open by a play read a card short ends
    by correcting it. ``None``: never (a camera's stream has no end to ask it at)."""
    review_conf: float = Field(default=REVIEW_CONF, ge=0, le=1)
    """Confidence under which a play's least sure card holds it for review: higher holds more
    plays, nearly all of them right, to catch a wrong one more."""
    frame_rate: float = Field(default=10.0, gt=0, le=60)
    """Most annotated frames per second sent to the live view."""
    keep_pictures: int | None = Field(default=KEEP_PICTURES, ge=1)
    """The latest games whose every play keeps its picture; older games keep only those of
    the plays held for review or acted upon. ``None``: every picture kept."""
