"""Reading the game: state, games, exports."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import PlainTextResponse

from assistant import record, store
from assistant.deps import FramesDep, LiveDep, SettingsDep, SpeakerDep, StoreDep, require_operator
from assistant.schemas import CameraOut, GameOut

router = APIRouter(prefix="/api", tags=["state"])


@router.get("/state")
def get_state(live: LiveDep) -> dict[str, Any]:
    """The STATE JSON (as ``gouji replay`` prints it) plus seat names and the dashboard's extras."""
    return live.state


@router.get("/info")
def get_info(settings: SettingsDep, speaker: SpeakerDep, frames: FramesDep) -> dict[str, Any]:
    """What the pages need to know about the server."""
    return {"token_required": settings.token is not None, "video": frames.active,
            "speech_available": speaker.available, "table": settings.table is not None}


@router.get("/camera")
def get_camera(frames: FramesDep) -> CameraOut:
    """How the video source is doing: delivering, lost and being reopened, or ended."""
    return frames.camera()


@router.get("/games")
def list_games(conn: StoreDep) -> list[GameOut]:
    return [GameOut(id=g.id, created=g.created, ruleset=g.ruleset, events=n)
            for g, n in store.list_games(conn)]


@router.post("/games", dependencies=[Depends(require_operator)], status_code=201)
def new_game(live: LiveDep) -> GameOut:
    """Close the current game (its record stays) and start a new one."""
    game = live.new_game()
    return GameOut(id=game.id, created=game.created, ruleset=game.ruleset, events=0)


@router.get("/games/{game_id}/events.jsonl", response_class=PlainTextResponse)
def export_events(game_id: int, conn: StoreDep, raw: bool = False) -> PlainTextResponse:
    """The game's event log as JSON lines: the effective log that ``gouji replay`` replays, or
    with ``raw=true`` every stored event including corrections and undos."""
    text = record.jsonl(conn, game_id=game_id, raw=raw)
    return PlainTextResponse(text, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="gouji-game-{game_id}.jsonl"'})


@router.get("/games/{game_id}/record.txt", response_class=PlainTextResponse)
def export_record(game_id: int, conn: StoreDep) -> PlainTextResponse:
    """A readable record: header, plays, places, scores and tribute table per round."""
    return PlainTextResponse(record.text(conn, game_id=game_id),
                             media_type="text/plain; charset=utf-8")
