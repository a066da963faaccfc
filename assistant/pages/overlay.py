"""``/overlay``: the OBS browser source, 1920×1080, transparent, public information only."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from assistant.pages.templates import templates

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)


@router.get("/overlay")
def overlay(request: Request) -> HTMLResponse:
    """The overlay. URL parameters: ``layout`` = ``bar`` (bottom strip, default) | ``ring``
    (seats around the table) | ``side`` (right column); ``names=0`` hides names; ``score=0``
    hides the score; ``scale`` (0.5–2) resizes everything; ``status=0`` never shows the
    reconnecting notice (otherwise shown after 3 s without the server)."""
    return templates.TemplateResponse(request, "overlay.html")
