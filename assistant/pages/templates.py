"""The Jinja2 templates shared by the pages."""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

__all__ = ["templates"]

templates = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "templates")
