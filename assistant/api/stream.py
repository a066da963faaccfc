"""Pushing: the state over a WebSocket (snapshot + numbered changes), the live view as MJPEG;
and the pictures of the plays vision committed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import Response, StreamingResponse

from assistant.deps import FramesDep, LiveDep, SettingsDep
from assistant.live import LiveGame

router = APIRouter(prefix="/api", tags=["stream"])


@router.websocket("/stream")
async def stream(websocket: WebSocket, live: LiveDep) -> None:
    """Read-only: a snapshot first, then every change with its number."""
    await websocket.accept()
    subscription = live.subscribe(asyncio.get_running_loop())
    client_gone = asyncio.Event()

    async def watch_client() -> None:
        # Pages never send; reading is how a closed page is noticed while no change comes.
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        client_gone.set()
        subscription.queue.put_nowait(None)

    watcher = asyncio.create_task(watch_client())
    try:
        while (message := await subscription.queue.get()) is not None:
            await websocket.send_json(message)
        if not client_gone.is_set():
            await websocket.close(code=1012)  # server going away: the page reconnects
    except (WebSocketDisconnect, RuntimeError):
        pass  # the page went away mid-send
    finally:
        watcher.cancel()
        live.unsubscribe(subscription)


@router.get("/video.mjpg")
async def video(frames: FramesDep, settings: SettingsDep) -> StreamingResponse:
    """The annotated camera view as a motion-JPEG stream (an ``<img>`` shows it)."""
    if not frames.active:
        raise HTTPException(404, detail="no video source: start with --source or use gouji demo")

    async def parts() -> AsyncIterator[bytes]:
        shown = 0
        while not frames.closed:
            index, jpeg = frames.latest()
            if jpeg is not None and index != shown:
                shown = index
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                       + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
            await asyncio.sleep(1 / settings.frame_rate)

    return StreamingResponse(parts(), media_type="multipart/x-mixed-replace; boundary=frame",
                             headers={"Cache-Control": "no-store"})


@router.get("/frame.jpg")
def frame(frames: FramesDep) -> Response:
    """The newest annotated frame as one JPEG."""
    _, jpeg = frames.latest()
    if jpeg is None:
        raise HTTPException(404, detail="no frame yet")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/games/{game_id}/plays/{seq}/picture")
def game_play_picture(game_id: int, seq: int, live: LiveDep) -> Response:
    """The picture of play ``seq`` of game ``game_id`` as vision committed it: its cards as
    filmed, and beside them with the boxes found, their ranks and scores drawn. A correction
    shows the picture of the play it corrects. A picture given stays the answer (the first one
    kept stands, and corrections have none of their own), so it is cached."""
    return _picture(live, game_id, seq, cache="private, max-age=31536000, immutable")


@router.get("/plays/{seq}/picture")
def play_picture(seq: int, live: LiveDep) -> Response:
    """The picture of the current game's play ``seq``
    (``GET /api/games/{game_id}/plays/{seq}/picture``): not cached, a new game numbers its
    plays from 1 again."""
    return _picture(live, live.game.id, seq, cache="no-store")


def _picture(live: LiveGame, game_id: int, seq: int, *, cache: str) -> Response:
    jpeg = live.load_picture(game_id, seq)
    if jpeg is None:   # not cached: it may come a moment after its play
        raise HTTPException(404, detail=f"no picture of event {seq} of game {game_id}: only "
                                        "plays vision committed have one",
                            headers={"Cache-Control": "no-store"})
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": cache})
