"""What feeds the live game besides the operator: the vision pipeline, or a scripted game.

Each feeder runs in its own thread, started and stopped with the server, and passes every event
through the same validation as the HTTP API before :meth:`LiveGame.submit`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from assistant.live import LiveGame
from assistant.schemas import EventIn
from assistant.store import StoredEvent
from assistant.video import FrameHub

__all__ = ["Feeder", "PipelineSubmitter", "SeenMatch", "accept_feeder", "pipeline_feeder",
           "script_feeder"]

log = logging.getLogger("gouji.feed")

MAX_VIEW_WIDTH = 1280
"""Frames wider than this are scaled down for the live view (zones scale with them)."""


class Feeder:
    """A background thread that stops when asked."""

    def __init__(self, name: str, target: Callable[[threading.Event], None],
                 stop: threading.Event | None = None) -> None:
        self.stop = stop or threading.Event()
        self._thread = threading.Thread(target=self._run, args=(target,), name=name, daemon=True)

    def _run(self, target: Callable[[threading.Event], None]) -> None:
        try:
            target(self.stop)
        except Exception:  # a feeder failing must not take the dashboard down with it
            log.exception("%s stopped", self._thread.name)

    def start(self) -> None:
        self._thread.start()

    def close(self, timeout: float = 3.0) -> None:
        self.stop.set()
        self._thread.join(timeout)


def submit_checked(live: LiveGame, event: dict[str, Any]) -> StoredEvent | None:
    """Validate ``event`` like the API does and store it; a bad one is logged and dropped
    (``None``).

    Keys the log does not know are dropped (and logged) rather than the whole event: losing a
    play the camera saw is worse than losing a detail of it.
    """
    unknown = event.keys() - EventIn.model_fields.keys()
    if unknown:
        log.warning("ignoring unknown keys %s of %s", sorted(unknown), event)
        event = {k: v for k, v in event.items() if k not in unknown}
    try:
        return live.submit(EventIn.model_validate(event).to_event())[0]
    except (ValidationError, ValueError, LookupError) as exc:
        log.warning("dropped event %s: %s", event, exc)
        return None


class PipelineSubmitter:
    """Where the pipeline's events go: into the game through :func:`submit_checked` (a call
    with the event); and the pictures of its plays, to the game's record (:meth:`picture`).

    The game numbers what it stores; the pipeline numbers what it sends (``seq``). A correction
    from the pipeline (``fixes``: one of its numbers) is pointed at the game's number for that
    event; it is dropped when that event was not stored, or when the operator has already
    accepted, corrected or undone it: the operator's word stands (a play let in only because
    it waited, :func:`accept_feeder`, is still vision's to correct).
    """

    def __init__(self, live: LiveGame) -> None:
        self.live = live
        self._stored_as: dict[int, tuple[int, int]] = {}  # the pipeline's seq -> game, seq

    def __call__(self, event: dict[str, Any]) -> None:
        event = dict(event)
        seq = event.pop("seq", None)
        corrected = None
        if "fixes" in event:
            corrected = self._stored_as.get(event["fixes"])
            if corrected is None or _operator_acted_on(self.live, corrected[1]):
                log.warning("dropped correction %s: its play was not stored or the operator "
                            "has seen to it", event)
                return
            event["fixes"] = corrected[1]
        game = self.live.game.id
        stored = submit_checked(self.live, event)
        if stored is None:
            return
        if seq is not None:
            self._stored_as[seq] = game, stored.seq

    def picture(self, seq: int, jpeg: bytes) -> None:
        """Keep the picture of the pipeline's play ``seq`` with the game's record, under the
        game's number for it (none if the play was not stored)."""
        stored = self._stored_as.get(seq)
        if stored is not None:
            self.live.save_picture(*stored, jpeg)


_NOT_THE_OPERATOR = frozenset({"vision", "inferred"})


def _operator_acted_on(live: LiveGame, target: int) -> bool:
    """Whether the operator has acted on event ``target`` or on a correction of it."""
    versions = {target}
    for stored in list(live.records):  # a copy: the operator's thread may append meanwhile
        if stored.event.get("fixes") in versions:
            if stored.event.get("source") not in _NOT_THE_OPERATOR:
                return True
            versions.add(stored.seq)
    return False


def script_feeder(live: LiveGame, events: Iterable[dict[str, Any]], *, pace: float) -> Feeder:
    """Plays a prepared event list into the game, one event every ``pace`` seconds."""

    def run(stop: threading.Event) -> None:
        for event in events:
            if stop.wait(pace):
                return
            submit_checked(live, event)

    return Feeder("script", run)


def accept_feeder(live: LiveGame, *, after: float) -> Feeder:
    """Lets in each play held for review for ``after`` seconds as seen
    (:meth:`LiveGame.accept_waiting`), looking a few times within that wait."""

    def run(stop: threading.Event) -> None:
        while not stop.wait(min(1.0, after / 4)):
            live.accept_waiting(after)

    return Feeder("accept", run)


class SeenMatch:
    """What the pipeline reads of the match (its rules prior): the game as the table shows it
    (held plays in their places: a play waiting for review is on the table, and the next plays
    answer it), and copies of it to judge corrections of recent plays from.

    The live game rebuilds its match after a correction, so the pipeline must not hold on to
    one match object; the published state is replaced whole on each change, so reading it from
    the pipeline thread needs no lock (copying the match takes the game's lock).
    """

    def __init__(self, live: LiveGame) -> None:
        self._live = live

    def to_json(self) -> dict[str, Any]:
        return self._live.seen_state

    def copy(self) -> Any:
        """The live match as seen, copied: the checkpoint the pipeline judges corrections
        from."""
        return self._live.match_copy(as_seen=True)


def pipeline_feeder(live: LiveGame, hub: FrameHub, *, source: str, table: Callable[[], Any],
                    frame_rate: float, round_gap: float | None, review_conf: float,
                    size: tuple[int, int] | None = None, fps: float | None = None,
                    steady: bool = True, view: NDArray[np.uint8] | None = None) -> Feeder:
    """Runs the vision pipeline on ``source`` (captured at ``size`` and ``fps`` when given, see
    :func:`vision.capture.frames`; a bumped camera followed when ``steady``, from ``view``, the
    picture the table was calibrated on, when kept): its events go to
    the game, its frames (annotated with detections and the current seat zones) to the live
    view, at most ``frame_rate`` a second, and the picture of each play to the game's record,
    for its review (``GET /api/games/{game}/plays/{seq}/picture``).
    ``table`` gives the current table layout: when the operator recalibrates the zones, the
    pipeline switches to the new ones at the next frame. ``round_gap``: the segmenter's (seconds
    without a play after which an open round is judged; ``None``: never); ``review_conf``: its
    confidence under which a play's least sure card holds it for review.

    The detector loads here, so a missing model fails at start, not in the thread. A video file
    or a folder of images plays at its own speed, as a camera would deliver it.
    """
    from assistant.pipeline import Pipeline  # heavy (ONNX Runtime): only when a source is given
    from vision.annotate import annotate
    from vision.capture import frames

    stop = threading.Event()
    width, height = size or (None, None)
    capture = frames(source, width=width, height=height, fps=fps)
    pipeline = Pipeline(capture if capture.live else _paced(capture, stop), table(),
                        match=SeenMatch(live), round_gap=round_gap, review_conf=review_conf,
                        steady=steady, view=view)
    hub.source, hub.capture, hub.pipeline = source, capture.stats, pipeline.stats

    def on_frame(frame: Any, detections: Any) -> None:
        layout = table()
        if layout is not pipeline.table:
            pipeline.set_table(layout)
        # The frame comes in the table file's pixels, held to its view when the camera moved:
        # boxes, zones and the calibration view line up.
        hub.view = frame.image
        zones = [np.asarray(seat.polygon) for seat in layout.seats]
        image = annotate(frame.image, detections, zones=zones)
        height, width = image.shape[:2]
        view = image if width <= MAX_VIEW_WIDTH else cv2.resize(
            image, (MAX_VIEW_WIDTH, round(height * MAX_VIEW_WIDTH / width)),
            interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            hub.publish(jpeg.tobytes())

    submit = PipelineSubmitter(live)

    def run(stop: threading.Event) -> None:
        pipeline.run(submit, on_frame=on_frame, stop=stop, frame_every=1 / frame_rate,
                     on_picture=submit.picture)

    return Feeder("pipeline", run, stop)


def _paced(capture: Iterable[Any], stop: threading.Event) -> Iterator[Any]:
    """Frames of a file or folder at their own time stamps (never faster than recorded)."""
    started = time.monotonic()
    first: float | None = None
    for frame in capture:
        first = frame.t if first is None else first
        if stop.wait(max(0.0, (frame.t - first) - (time.monotonic() - started))):
            return
        yield frame
