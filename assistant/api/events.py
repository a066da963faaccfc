"""Changing the game: events from the pipeline and the operator, seat names, ruleset."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from starlette.requests import HTTPConnection

from assistant.api.table import save_names
from assistant.deps import LiveDep, SettingsDep, require_operator
from assistant.schemas import EventIn, EventOut, NamesIn, RulesetIn
from rules import PRESETS

router = APIRouter(prefix="/api", tags=["events"])


@router.post("/events", dependencies=[Depends(require_operator)], status_code=201)
def post_event(body: EventIn, live: LiveDep) -> EventOut:
    """Append an event: a play, pass, 让牌, declaration, 革命, trick gathered, next round; or a
    correction (any of those with ``fixes``), ``undo`` (``fixes`` optional: the latest event)
    and ``accept`` (a play held for review)."""
    stored, error = live.submit(body.to_event())
    return EventOut(seq=stored.seq, event=stored.event, error=error, version=live.version,
                    status=live.resolution.status.get(stored.seq, "effective"))


@router.get("/events")
def list_events(live: LiveDep) -> list[dict[str, Any]]:
    """Every stored event of the current game with its standing and the rules' verdict."""
    return live.record_views(live.records)


@router.put("/names", dependencies=[Depends(require_operator)])
def put_names(body: NamesIn, live: LiveDep, connection: HTTPConnection,
              settings: SettingsDep) -> dict[str, list[str]]:
    """Seat names of this game (and of the table file, when there is one)."""
    live.set_names(body.names)
    save_names(connection, settings, body.names)
    return {"names": live.names}


@router.get("/rulesets")
def list_rulesets() -> list[str]:
    return list(PRESETS)


@router.put("/ruleset", dependencies=[Depends(require_operator)])
def put_ruleset(body: RulesetIn, live: LiveDep) -> dict[str, str]:
    """The ruleset of the next round (a round's ruleset never changes mid-round)."""
    live.set_next_ruleset(body.ruleset)
    return {"ruleset": live.next_ruleset}
