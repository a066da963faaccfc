"""``/``: the operator's dashboard: live view, seats, turn, trick, feed, controls."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from assistant.pages.templates import templates

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)


@router.get("/")
def dashboard(request: Request) -> HTMLResponse:
    """The dashboard; actions need the operator token when the server has one (``?token=``)."""
    return templates.TemplateResponse(request, "dashboard.html")
