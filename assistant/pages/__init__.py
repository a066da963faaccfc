"""The HTML pages: dashboard (operator), overlay (OBS), tribute table."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

__all__ = ["router"]

templates = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "templates")
router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)


@router.get("/")
def dashboard(request: Request) -> HTMLResponse:
    """The operator's dashboard: live view, seats, turn, trick, feed, controls."""
    return templates.TemplateResponse(request, "dashboard.html", {"page": "dashboard"})


@router.get("/overlay")
def overlay(request: Request) -> HTMLResponse:
    """The OBS overlay: 1920×1080, transparent, public information only.

    URL parameters: ``layout`` = ``bar`` (bottom strip, default) | ``ring`` (seats around the
    table) | ``side`` (right column); ``names=0`` hides names; ``scale`` (0.5–2); ``score=0``
    hides the score.
    """
    return templates.TemplateResponse(request, "overlay.html", {"page": "overlay"})


@router.get("/tribute")
def tribute(request: Request) -> HTMLResponse:
    """The tribute table of each round and the match scoreboard, printable."""
    return templates.TemplateResponse(request, "tribute.html", {"page": "tribute"})
