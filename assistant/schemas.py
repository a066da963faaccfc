"""Request and response bodies of the HTTP API (kept apart from the domain types).

Every input is validated here, with messages that name the bad value: seats are 0–5, cards are
checked by the rules engine's own parser, texts have bounded lengths.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

import rules

__all__ = [
    "CameraOut",
    "CameraStatus",
    "ErrorOut",
    "EventIn",
    "EventOut",
    "GameOut",
    "NamesIn",
    "RulesetIn",
    "SpeechIn",
    "TableIn",
]

Seat = Annotated[int, Field(ge=0, le=5, description="Seat 0–5 in play order")]
Seq = Annotated[int, Field(ge=1, description="Sequence number of a stored event")]


class EventIn(BaseModel):
    """An event as the pipeline or the operator sends it (the event-log contract, plus the
    assistant's ``undo`` and ``accept`` controls)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["round", "play", "pass", "yield", "declare", "revolution", "collect", "undo",
                  "accept"]
    seat: Seat | None = None
    cards: str | None = Field(default=None, max_length=200)
    level: Literal["ming", "yu"] | None = None
    ruleset: str | None = Field(default=None, max_length=40)
    first: Seat | None = None
    counts: list[Annotated[int, Field(ge=0, le=216)]] | None = Field(
        default=None, min_length=6, max_length=6,
        description="round: cards per seat after the deal and tribute, when the referee gives them")
    choice: Literal["yaotou", "wutou"] | None = Field(
        default=None, description="revolution: the 对头's choice, 要头 or 无头")
    t: float | None = Field(default=None, ge=0)
    source: Literal["vision", "operator", "inferred"] = "operator"
    conf: float | None = Field(default=None, ge=0, le=1)
    review: bool = False
    reason: str | None = Field(default=None, max_length=300,
                               description="why vision holds the play for review")
    fixes: Seq | None = None

    @field_validator("cards")
    @classmethod
    def _cards(cls, value: str | None) -> str | None:
        if value is None:
            return None
        return rules.format_cards(rules.parse_cards(value))  # raises with the bad token named

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, value: str | None) -> str | None:
        if value is not None:
            rules.load_ruleset(value)  # unknown names and options fail here, with the name
        return value

    @model_validator(mode="after")
    def _fields_per_type(self) -> EventIn:
        needs: dict[str, tuple[str, ...]] = {
            "play": ("seat", "cards"), "pass": ("seat",), "yield": ("seat",),
            "declare": ("seat", "level"), "revolution": ("seat",), "accept": ("fixes",),
        }
        missing = [name for name in needs.get(self.type, ()) if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.type!r} event needs {', '.join(missing)}")
        allowed = {"play": {"seat", "cards"}, "pass": {"seat"}, "yield": {"seat"},
                   "declare": {"seat", "level"}, "revolution": {"seat", "choice"},
                   "round": {"ruleset", "first", "counts"}}.get(self.type, set())
        extra = [name for name in ("seat", "cards", "level", "ruleset", "first", "counts", "choice")
                 if getattr(self, name) is not None and name not in allowed]
        if extra:
            raise ValueError(f"a {self.type!r} event takes no {', '.join(extra)}")
        if (self.review or self.reason is not None) and self.type != "play":
            raise ValueError("only plays can be held for review")
        return self

    def to_event(self) -> dict[str, Any]:
        """The log line: contract keys only, unset ones left out."""
        return self.model_dump(exclude_none=True, exclude_defaults=False,
                               exclude={"review"} if not self.review else set())


class EventOut(BaseModel):
    """What was stored, and whether the rules accepted it."""

    seq: int
    event: dict[str, Any]
    status: str
    error: str | None = Field(description="The rules engine's reason when it refused the event")
    version: int


class NamesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    names: list[Annotated[str, Field(max_length=24)]] = Field(min_length=6, max_length=6)

    @field_validator("names")
    @classmethod
    def _strip(cls, names: list[str]) -> list[str]:
        return [name.strip() for name in names]


class RulesetIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=40)

    @field_validator("ruleset")
    @classmethod
    def _known(cls, value: str) -> str:
        rules.load_ruleset(value)
        return value


class SpeechIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled: bool


Point = Annotated[list[Annotated[float, Field(ge=-10_000, le=100_000)]],
                  Field(min_length=2, max_length=2)]


class TableIn(BaseModel):
    """New seat zones from the calibration view: six polygons in image pixels."""

    model_config = ConfigDict(extra="forbid")
    zones: list[Annotated[list[Point], Field(min_length=3, max_length=32)]] = Field(
        min_length=6, max_length=6)


class GameOut(BaseModel):
    id: int
    created: str
    ruleset: str
    events: int


class ErrorOut(BaseModel):
    detail: str


CameraStatus = Literal["none", "opening", "live", "lost", "ended"]


class CameraOut(BaseModel):
    """How the video source is doing."""

    source: str | None = Field(description="Camera index, file or stream URL; null: no video")
    status: CameraStatus = Field(
        description="none: no video source; opening: no frame yet; live: delivering; lost: "
                    "stopped delivering and being reopened; ended: the video ended or the "
                    "source was given up")
    frames: int = 0
    dropped: int = Field(default=0, description="Frames that could not be read or decoded")
    reconnects: int = Field(default=0, description="Attempts to reopen a lost source")
    lost_for: float | None = Field(default=None, description="Seconds since it stopped delivering")
    moves: int = Field(default=0, description="Times the camera was bumped to a new pose and "
                                              "its frames held to the table's view")
    shift: float = Field(default=0.0, description="Pixels the picture lies from the table's view "
                                                  "(at its centre), after the last move")
    turn: float = Field(default=0.0, description="Degrees it turned, clockwise")
    unfollowed: int = Field(default=0, description="Times the picture changed past following: "
                                                   "the table may need calibrating again")
    message: str | None = Field(default=None, description="The latest problem, in words")
    zones_warning: str | None = Field(
        default=None, description="Why the seat zones are read badly, when they are: too small "
                                   "in the picture (the camera too far, or too few pixels)")
