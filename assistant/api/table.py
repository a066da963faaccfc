"""Table calibration: the seat zones drawn over the live view, saved to the table file."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from starlette.requests import HTTPConnection

from assistant.deps import FramesDep, SettingsDep, require_operator
from assistant.schemas import TableIn
from assistant.settings import Settings
from tracker.table import Seat, TableLayout, save_view

router = APIRouter(prefix="/api", tags=["table"])


def current_layout(connection: HTTPConnection) -> TableLayout:
    layout: TableLayout | None = connection.app.state.table
    if layout is None:
        raise HTTPException(404, detail="no table file: start with --table TABLE.json")
    return layout


def save_names(connection: HTTPConnection, settings: Settings, names: list[str]) -> None:
    """Keep the seat names in the table file too, so the next game at this table has them."""
    layout: TableLayout | None = connection.app.state.table
    if layout is None:
        return
    updated = layout.with_names([name or None for name in names])
    if settings.table is not None:
        updated.save(settings.table)
    connection.app.state.table = updated


@router.get("/table")
def get_table(connection: HTTPConnection) -> dict[str, Any]:
    """The table layout (``table.json``): image size, play area, six seat zones."""
    return current_layout(connection).to_json()


@router.put("/table", dependencies=[Depends(require_operator)])
def put_table(body: TableIn, connection: HTTPConnection, settings: SettingsDep,
              frames: FramesDep) -> dict[str, Any]:
    """Replace the six seat zones (image pixels) and save the table file, with the live view
    they were drawn on beside it (``table.view.jpg``): a camera moved before the next start
    is then found and held to that view."""
    layout = current_layout(connection)
    seats = tuple(Seat(s.index, tuple((x, y) for x, y in zone), s.name)
                  for s, zone in zip(layout.seats, body.zones, strict=True))
    updated = TableLayout(layout.image_size, layout.play_area, seats, layout.homography)
    if settings.table is not None:
        updated.save(settings.table)
        if frames.view is not None:
            save_view(settings.table, frames.view)
    connection.app.state.table = updated
    return updated.to_json()
