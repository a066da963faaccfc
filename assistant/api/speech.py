"""Speech: the WAV of an announcement, and switching speech on or off."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import FileResponse

from assistant.deps import LiveDep, SpeakerDep, require_operator
from assistant.schemas import SpeechIn
from assistant.speech import MAX_TEXT

router = APIRouter(prefix="/api", tags=["speech"])


@router.get("/speech.wav")
async def speech_wav(speaker: SpeakerDep, live: LiveDep,
                     text: str = Query(min_length=1, max_length=MAX_TEXT)) -> FileResponse:
    """An announcement or turn text of the game, spoken: rendered by espeak-ng on first request
    and cached. Other texts are refused, so nobody fills the cache with words of their own."""
    if not speaker.available:
        raise HTTPException(404, detail="speech is unavailable: espeak-ng is not installed")
    if not live.speakable(text):
        raise HTTPException(404, detail=f"{text!r} is not something the game announced")
    path = await asyncio.to_thread(speaker.render, text)
    return FileResponse(path, media_type="audio/wav",
                        headers={"Cache-Control": "public, max-age=86400"})


@router.put("/speech", dependencies=[Depends(require_operator)])
def put_speech(body: SpeechIn, live: LiveDep) -> dict[str, bool]:
    live.set_speech(body.enabled)
    return {"enabled": live.speech}
