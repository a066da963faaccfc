"""``/tribute``: every round's tribute table (进贡) and the match scoreboard, printable."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from assistant.pages.templates import templates

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)


@router.get("/tribute")
def tribute(request: Request) -> HTMLResponse:
    """The tribute tables, newest round first, with the match score; prints on white."""
    return templates.TemplateResponse(request, "tribute.html")
