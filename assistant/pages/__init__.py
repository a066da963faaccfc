"""The HTML pages: dashboard (operator), overlay (OBS), tribute table; plain HTML, CSS and JS."""

from __future__ import annotations

from fastapi import APIRouter

from assistant.pages import dashboard, overlay, tribute

__all__ = ["router"]

router = APIRouter()
for page in (dashboard, overlay, tribute):
    router.include_router(page.router)
