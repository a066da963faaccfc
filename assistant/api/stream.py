"""Pushing: the state over a WebSocket (snapshot + numbered changes), the live view as MJPEG;
and the pictures of the plays vision committed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import Response, StreamingResponse

from assistant.deps import FramesDep, LiveDep, SettingsDep
from assistant.video import PICTURES_KEPT

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


@router.get("/plays/{seq}/picture")
def play_picture(seq: int, frames: FramesDep, live: LiveDep) -> Response:
    """The picture of the current game's play ``seq`` as vision committed it: its cards as
    filmed, and beside them with the boxes found, their ranks and scores drawn. A correction
    shows the picture of the play it corrects."""
    def kept(seq: int) -> bytes | None:
        return frames.picture(live.game.id, seq) or live.load_picture(seq)

    asked, jpeg = seq, kept(seq)
    if jpeg is None:   # a correction shows its play's: the log is read only then
        fixes = {stored.seq: stored.event.get("fixes") for stored in list(live.records)}
        # A correction names an earlier event: following the names back ends.
        while jpeg is None and isinstance(target := fixes.get(seq), int) and target < seq:
            seq = target
            jpeg = kept(seq)
    if jpeg is None:
        raise HTTPException(404, detail=f"no picture of event {asked}: only plays vision "
                                        f"committed have one, the latest {PICTURES_KEPT} kept "
                                        f"and those held for review")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})
