"""The whole way from a camera to game events: capture → detector → seat zones → plays.

:class:`Pipeline` reads frames, runs the detector only where the picture changed and has come
to rest (per seat zone, on the zone's upright crop), and feeds the detections to a
:class:`~tracker.plays.PlaySegmenter`, which commits plays and gathered tricks. Every committed
event goes to ``on_event``; with a :class:`rules.Match` the pipeline also says when a new
round starts (the first play after a finished round), and the segmenter asks the match who
may act and what they may play.

Cheap change detection is what makes this fast: a frame is shrunk to a quarter and compared
with the previous frame (motion: a hand is over the table, so nothing can be committed and
nothing needs detecting) and with the picture each zone had when it was last detected
(a changed zone at rest is detected once). Held frames between plays cost a few milliseconds.
Before all that, a camera that is bumped is followed, and its frames are warped back to the
view the table was calibrated on (:mod:`vision.stabilize`).

>>> video, table = demo_assets()                               # doctest: +SKIP
>>> Pipeline(video, TableLayout.load(table)).run(print)        # doctest: +SKIP
{'type': 'play', 'seat': 0, 'cards': '5 5 5', 't': 3.04, 'source': 'vision', ...}
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import cv2
import numpy as np
from numpy.typing import NDArray

from rules.events import apply_corrections
from tracker.closer import CloserViews, ViewsOnDemand
from tracker.plays import FAINT_CONF, PlaySegmenter
from tracker.prior import Event, MatchPrior
from tracker.table import SEAT_COUNT, TableLayout
from tracker.zones import SeatZones, merge_crops
from vision.annotate import side_by_side
from vision.capture import Capture, CaptureStats, Frame, frames
from vision.detections import (
    Detections,
    FanStep,
    box_iou,
    found_twice,
    second_readings,
    shared_corners,
)
from vision.detector import rotate_boxes_back
from vision.stabilize import Stabilizer, StabilizerStats, card_motion

if TYPE_CHECKING:  # the detector loads ONNX Runtime: only when a pipeline needs it
    from vision.detector import Detector

__all__ = [
    "CARDS_MOVED_BY",
    "CARDS_MOVED_ERROR",
    "CARDS_MOVED_MIN",
    "CARDS_MOVED_REACH",
    "CARDS_MOVED_SHARE",
    "CARDS_MOVED_TURN",
    "CLOSER_SCALES",
    "DEMO_SEED",
    "FAN_STEP",
    "MOST_ENLARGED",
    "NESTED_BELOW",
    "NESTED_CORNER",
    "NESTED_INSIDE",
    "PICTURE_QUALITY",
    "PLAY_AREA_SIDE",
    "TURNED_SAME_IOU",
    "WORKING_SIDE",
    "ChangeDetector",
    "Pipeline",
    "PipelineStats",
    "card_detector",
    "demo_assets",
    "working_layout",
]

log = logging.getLogger(__name__)

DetectorFn = Callable[[NDArray[np.uint8]], Detections]


@runtime_checkable
class SettableIoU(Protocol):
    """A detector whose NMS threshold can be set (:class:`vision.detector.Detector`)."""

    def with_iou(self, iou: float) -> DetectorFn: ...

DEMO_SEED = 2024
"""Seed of the demo game (:func:`demo_assets`)."""
PICTURE_QUALITY = 85
"""JPEG quality of a play's picture (:meth:`Pipeline.play_picture`): a fan's corner indices
stay readable, at 15-40 kB a picture."""
NESTED_INSIDE = 0.7
"""Default share of an unsure box within a surer box of its rank that makes it a second
reading (:func:`vision.detections.second_readings`)."""
NESTED_BELOW = 0.35
"""Default score under which a box nested in a surer one is a second reading."""
NESTED_CORNER = 0.05
"""Default tolerance, as a share of card length, for a box sharing a corner with a surer box
of its rank: then it is a second reading whatever its score."""
FAN_STEP = FanStep(least=0.08, most=0.3, spread=0.4)
"""Default steps of a fan (:func:`vision.detections.in_fan_step`): a box nested in a surer one
of its rank, 0.08 to 0.3 of a card's length from it, with a surer box one more such step on
(give or take 0.4 of the step), is the next card of a fan, not a second reading, unless the
fan's own step beside it is twice as long (a box half-way between two of its cards)."""
TURNED_SAME_IOU = 0.8
"""A box found in a crop turned half round is a card the upright crop found already when it
shares a corner with an upright box of its rank, or overlaps any upright box at least this
(IoU)."""
CLOSER_SCALES = (1.3, 1.4, 1.6)
"""Default scales at which a zone is read again when a play is committed with faint cards of
its ranks beside it, or refused by the rules short of cards of its ranks
(:meth:`tracker.plays.PlaySegmenter.update`'s ``closer``): a card most views count is taken
in, the third view read only when the first two disagree; and the zone of the play a refused
play answers, when nothing else explains the refusal. Views at 1.3 and 1.4 times each missed
strips the other found, and a third view breaking their ties takes in more of them and no
wrong card (docs/vision-pipeline.md, step 32)."""
CLOSER_IOU = 0.7
"""Default NMS threshold (IoU) of the closer views, looser than the detector's own: a tight fan
turned on the table gives its strips square boxes that overlap as much as two boxes of one
card, and the strict threshold drops strips as the same card found twice. The closer views are
read only for a play whose count is in doubt, and a card is taken in only when most views count
it, so the second boxes a looser threshold lets through cost little there."""

WORKING_SIDE = 720
"""Pixels along the shorter side of the pictures the pipeline works on: the card models and
the tracker's tolerances in pixels were made on 1280×720 pictures, and every camera's frames
are scaled to this before anything else (:func:`working_layout`), by OpenCV's area method
both ways. Enlarged so (each pixel repeated), ten rounds filmed at 640×360 read 967/975
plays, against 953/975 enlarged bilinearly, softer, 964/975 bicubically, and 88/108 for seed
412 at its own size; eleven filmed at 1920×1080 read 1062/1064 shrunk, 1057/1064 as they
came, seed 423 losing seven pairs' second cards (docs/vision-pipeline.md, *The working
size*)."""

PLAY_AREA_SIDE = 440.0
"""Fewest pixels, at the working size, of the side of a square as large as the play area in
the picture, as the six seat zones together cover it. A camera far above the table, or one of
a wide lens, shows the cards smaller than the card models learnt them, and its pictures are
enlarged until the zones cover this much (by at most :data:`MOST_ENLARGED`). The rendered
games' play areas measure 445–657 px so (median 533, 90 rounds), their cards 90–112 px long
on a play area 600 px square: none of them is enlarged."""
MOST_ENLARGED = 3.0
"""Most times a camera's pictures are enlarged for a small play area (:data:`PLAY_AREA_SIDE`):
past that, a card is too few pixels for any enlarging to bring back, and the pictures cost the
square of it."""

CARDS_MOVED_MIN = 2
"""Fewest cards, in two seats' zones, that must have moved as one for the camera to have moved
(:meth:`Pipeline._cards_moved`): a camera is bumped as often early in a trick, with a card or
two on the table, as over a full one."""
CARDS_MOVED_SHARE = 0.6
"""Share of the cards the table showed that must have moved as one: a camera moves them all,
save those a hand now covers or a card just laid hides; a hand moves one seat's."""
CARDS_MOVED_BY = 5.0
"""Pixels by which such a move must shift some of the cards: a card's box read anew may
differ by 2; and a card moved less is still known at its place."""
CARDS_MOVED_TURN = 3.0
"""Most degrees by which such a move may turn the picture: a camera clamped over a table is
knocked askew by a degree or two; cards of two seats, each lying close together, agree on a
far larger turn about them as well."""
CARDS_MOVED_REACH = 100.0
"""Pixels a card's box may have moved by (a camera knocked 30 px off and turned 2°)."""
CARDS_MOVED_ERROR = 4.0
"""Pixels within which a card's box, read anew, lies where the move puts it."""


def working_layout(table: TableLayout) -> TableLayout:
    """``table`` as the pipeline works on it: drawn on pictures scaled to a shorter side of
    :data:`WORKING_SIDE` pixels, and enlarged further when its seat zones together cover less
    than a square :data:`PLAY_AREA_SIDE` pixels wide there (itself when neither scales it).

    >>> small = TableLayout.default([(170, 30), (470, 30), (470, 330), (170, 330)], (640, 360))
    >>> working_layout(small).image_size, working_layout(small.resized((1920, 1080))).image_size
    ((1280, 720), (1280, 720))
    >>> far = TableLayout.default([(490, 210), (790, 210), (790, 510), (490, 510)], (1280, 720))
    >>> working_layout(far).image_size    # a play area 300 px square, enlarged to 440
    (1876, 1056)

    Scaled pictures have sides of a multiple of 4 pixels, so that the change detector's copy,
    a quarter of their size, is a whole number of pixels each way. A frame is scaled only when
    a zone of it is read; that copy is shrunk from the frame as it came
    (:meth:`Pipeline._change_detector`).
    """
    width, height = table.image_size
    scale = WORKING_SIDE / min(width, height)
    side = scale * _zones_side(table)
    if side < PLAY_AREA_SIDE:
        scale *= min(PLAY_AREA_SIDE / side, MOST_ENLARGED)
    if scale == 1:
        return table
    return table.resized((4 * round(width * scale / 4), 4 * round(height * scale / 4)))


def _zones_side(table: TableLayout) -> float:
    """The side, in ``table``'s pixels, of a square as large as its six seat zones together.
    The zones, as the operator drew them, show where the cards land: calibrating in the
    dashboard moves them, not the play area a new camera's table file was given."""
    return math.sqrt(sum(seat.area for seat in table.seats))


def _too_small(working: TableLayout) -> str | None:
    """Why the zones of a table as the pipeline works on it (:func:`working_layout`) are read
    badly, when its cards are still smaller than the models read well."""
    side = _zones_side(working)
    if side >= PLAY_AREA_SIDE - 1:   # a pixel for the sides' rounding
        return None
    return (f"the seat zones cover a square only {side:.0f} px wide though enlarged "
            f"{MOST_ENLARGED:.0f} times ({PLAY_AREA_SIDE:.0f} wanted): the cards are smaller "
            f"than the models read well; bring the camera closer or film at a higher "
            f"resolution")


def _at_size(image: NDArray[np.uint8], size: tuple[int, int]) -> NDArray[np.uint8]:
    """``image`` scaled to ``size`` (width, height), itself when it has that size: by OpenCV's
    area method, which averages when shrinking and repeats pixels when enlarging
    (:data:`WORKING_SIDE` says why)."""
    if (image.shape[1], image.shape[0]) == size:
        return image
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)


def card_detector(model: str | Path | None = None, *, classifier: str | Path | None = None,
                  threads: int = 2, faint_conf: float = FAINT_CONF) -> Detector:
    """The ONNX card models (:class:`vision.detector.Detector`; ``None``: the shipped ones)
    reporting boxes down to ``faint_conf``, the segmenter's: the rules may need a card the
    detector found only faintly, so the detector must not drop it."""
    from vision.detector import Detector
    return Detector(model, classifier=classifier, threads=threads, conf=faint_conf)


@dataclass(slots=True)
class PipelineStats:
    """Figures of one :meth:`Pipeline.run`, updated while it runs."""

    frames: int = 0
    """Frames processed."""
    seconds: float = 0.0
    """Wall-clock seconds spent, reading frames included."""
    detector_calls: int = 0
    """Detector runs (one per zone crop, two with the turned look, or one per frame without
    zones)."""
    detector_seconds: float = 0.0
    """Wall-clock seconds spent in those runs."""
    events: int = 0
    """Events handed over (each one's ``seq``)."""
    plays: int = 0
    """Plays committed."""
    held: int = 0
    """Plays held for operator review as they stand, each correction in the place of the play
    it fixes: a correction may hold a play committed unheld, or let one in."""
    collects: int = 0
    """Gathered tricks."""
    corrections: int = 0
    """Earlier plays corrected (``fixes``) as their trick went on; not counted in ``plays``."""
    latencies: list[float] = field(default_factory=list)
    """Seconds from the arrival of the frame that completed a play's stability window to its
    event being handed over, one per event."""
    slowest_frame: float = 0.0
    """Seconds the slowest frame but the first took, from its arrival to the end of its
    events (the first detects every zone and warms the detector up): one that detects many
    zones afresh (a trick gathered) or reads a zone closer ahead of a commit. A live camera's
    next frames wait meanwhile."""
    capture: CaptureStats | None = None
    """The capture's own counters (dropped frames, reconnects)."""
    camera_motion: StabilizerStats | None = None
    """How the camera moved and was held to the table's view (with ``steady``)."""
    zones_warning: str | None = None
    """Why the seat zones in force are read badly, in words, when they are: too small in the
    picture even enlarged :data:`MOST_ENLARGED` times."""

    @property
    def fps(self) -> float:
        """Frames per wall-clock second."""
        return self.frames / self.seconds if self.seconds > 0 else 0.0


class ChangeDetector:
    """Which seat zones changed since they were last detected, and whether anything moves.

    Works on a quarter-size colour copy of each frame, blurred against sensor noise and video
    compression (colour, because a red card on a table of the same brightness vanishes in
    grey). A pixel counts as changed when a channel differs by more than ``level``; a region
    changed when more than ``fraction`` of its pixels (at least ``min_pixels``) did. Two
    pictures are compared at one brightness: a webcam's exposure hunting, or lights
    flickering against its frame rate, brightens or darkens the whole picture by some percent,
    a white card by more than ``level``. Each channel of the older picture is scaled by the
    ratio of their medians (the table's cloth, which cards and hands cover little of), by at
    most ``max_gain`` either way.

    Two regions per seat: its zone inside the play area, where motion means a hand is at work
    (a hand at the table's edge, outside the play area, does not hold plays up), and the zone
    widened by ``reach``, which holds every card whose centre lies in the zone: when that
    changed, the seat's boxes may have changed and its crop is detected again. A change in
    another part of the crop (a neighbour's play in the crop's margin) cannot change the boxes
    the seat keeps, so it costs no detector run.

    Args:
        zones: the table's seat zones.
        scale: shrink factor of the working copy.
        level: channel difference that counts.
        fraction: share of a region's pixels that must change.
        min_pixels: smallest count of changed pixels that counts.
        reach: how far beyond its zone a seat's cards may reach, as a fraction of the image
            height (about half a card).
        max_gain: the largest change of brightness taken for the camera's or the lights'.
    """

    def __init__(self, zones: SeatZones, *, scale: float = 0.25, level: int = 18,
                 fraction: float = 0.0005, min_pixels: int = 3, reach: float = 0.08,
                 max_gain: float = 1.25) -> None:
        self.scale, self.level, self.max_gain = scale, level, max_gain
        w, h = zones.layout.image_size
        self.size = (max(1, round(w * scale)), max(1, round(h * scale)))
        labels = cv2.resize(zones.labels, self.size, interpolation=cv2.INTER_NEAREST)
        self.areas = (np.stack([labels == seat for seat in range(SEAT_COUNT)])
                      .astype(np.uint8))
        radius = max(1, round(reach * self.size[1]))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        self.watched = np.stack([np.asarray(cv2.dilate(area, kernel), np.uint8)
                                 for area in self.areas])
        self._watched_min = np.maximum(self.watched.sum((1, 2)) * fraction, min_pixels)
        self._area_min = np.maximum(self.areas.sum((1, 2)) * fraction, min_pixels)
        self._previous: _Picture | None = None
        self._references: list[_Picture | None] = [None] * SEAT_COUNT

    def shrink(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """A frame, of any size, shrunk to the working copy's size."""
        return np.asarray(cv2.resize(image, self.size, interpolation=cv2.INTER_AREA), np.uint8)

    def small(self, shrunk: NDArray[np.uint8]) -> _Picture:
        """The working copy of a frame :meth:`shrink` gave: blurred, with its brightness."""
        pixels = np.asarray(cv2.GaussianBlur(shrunk, (3, 3), 0), np.uint8)
        # A coarse sample gives the cloth's level as well as every pixel would.
        return _Picture(pixels, np.median(pixels[::8, ::8], axis=(0, 1)))

    def _diff(self, a: _Picture, b: _Picture) -> NDArray[np.uint8]:
        """1 where any channel differs by more than ``level``, ``b`` brought to ``a``'s
        brightness, else 0."""
        older = b.pixels
        if np.any(np.abs(a.level - b.level) > 2):  # more than the median's own jitter
            gain = np.clip(a.level / np.maximum(b.level, 1.0), 1 / self.max_gain, self.max_gain)
            scaled = np.clip(np.arange(256)[:, None] * gain + 0.5, 0, 255).astype(np.uint8)
            older = np.asarray(cv2.LUT(b.pixels, scaled.reshape(256, 1, 3)), np.uint8)
        blue, green, red = cv2.split(cv2.absdiff(a.pixels, older))
        largest = cv2.max(cv2.max(blue, green), red)
        return np.asarray(cv2.threshold(largest, self.level, 1, cv2.THRESH_BINARY)[1], np.uint8)

    @staticmethod
    def _counts(masks: NDArray[np.uint8], diff: NDArray[np.uint8]) -> NDArray[np.int_]:
        """Changed pixels inside each mask."""
        return np.array([cv2.countNonZero(cv2.bitwise_and(mask, diff)) for mask in masks])

    def update(self, image: NDArray[np.uint8], *, shrunk: NDArray[np.uint8] | None = None
               ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Take the next frame (``shrunk``: as :meth:`shrink` gave it, when the caller has it).

        Returns:
            ``(moving, to_detect)``: per seat, whether its zone moved since the previous frame,
            and whether its widened zone is at rest but differs from the picture it was last
            detected on (then the caller detects it, and this frame becomes its reference).
        """
        small = self.small(self.shrink(image) if shrunk is None else shrunk)
        moving = np.zeros(SEAT_COUNT, bool)
        watched_moving = np.zeros(SEAT_COUNT, bool)
        if self._previous is not None:
            diff = self._diff(small, self._previous)
            if cv2.countNonZero(diff):
                moving = self._counts(self.areas, diff) > self._area_min
                watched_moving = self._counts(self.watched, diff) > self._watched_min
        self._previous = small
        to_detect = np.zeros(SEAT_COUNT, bool)
        changed: dict[int, NDArray[np.bool_]] = {}  # per reference picture: seats that differ
        for seat in np.flatnonzero(~watched_moving):
            reference = self._references[seat]
            if reference is None:
                to_detect[seat] = True
                continue
            if id(reference) not in changed:
                diff = self._diff(small, reference)
                changed[id(reference)] = (
                    self._counts(self.watched, diff) > self._watched_min
                    if cv2.countNonZero(diff) else np.zeros(SEAT_COUNT, bool))
            to_detect[seat] = changed[id(reference)][seat]
        for seat in np.flatnonzero(to_detect):
            self._references[seat] = small
        return moving, to_detect

    def rest(self, shrunk: NDArray[np.uint8], seats: Iterable[int]) -> None:
        """Take ``shrunk`` (the frame :meth:`update` last took, as :meth:`shrink` gave it,
        warped anew: the camera's pose was corrected) in place of that frame, and as the
        picture ``seats``' zones were last detected on."""
        small = self.small(shrunk)
        self._previous = small
        for seat in seats:
            self._references[seat] = small


class _WorkingFrame:
    """A frame as the pipeline reads it: scaled to the working size (:func:`working_layout`),
    and warped back to the table's view, each made when first needed. Most frames are read
    only through the change detector's small copy, shrunk from the frame as it came: a far
    camera's every frame enlarged whole, then shrunk again for that copy, took some 3 ms."""

    def __init__(self, image: NDArray[np.uint8], size: tuple[int, int],
                 stabilizer: Stabilizer | None) -> None:
        self.image = image
        """The frame as it came."""
        self.size = size
        """The working size (width, height)."""
        self._stabilizer = stabilizer
        self._scaled: NDArray[np.uint8] | None = None
        self._steadied: tuple[NDArray[np.float64], NDArray[np.uint8]] | None = None  # pose, frame

    @property
    def scaled(self) -> NDArray[np.uint8]:
        """The frame at the working size, as filmed."""
        if self._scaled is None:
            self._scaled = _at_size(self.image, self.size)
        return self._scaled

    @property
    def steadied(self) -> NDArray[np.uint8]:
        """:attr:`scaled` warped back to the table's view at the camera's pose in force (itself
        while the camera has not moved): warped once per pose."""
        if self._stabilizer is None:
            return self.scaled
        pose = self._stabilizer.pose
        if self._steadied is None or not np.array_equal(self._steadied[0], pose):
            self._steadied = (pose, self._stabilizer.steady(self.scaled))
        return self._steadied[1]

    def in_table_view(self, size: tuple[int, int]) -> NDArray[np.uint8]:
        """The frame at ``size`` in the table's view: scaled from the frame as it came while
        the camera has not moved."""
        if self._stabilizer is not None and self._stabilizer.displaced:
            return _at_size(self.steadied, size)
        return _at_size(self.image, size)


@dataclass(frozen=True, slots=True)
class _Picture:
    """A working copy of a frame and its brightness."""

    pixels: NDArray[np.uint8]
    level: NDArray[np.float64]
    """Median of each channel."""


class Pipeline:
    """Capture → detector → play segmentation, as a loop with callbacks.

    Args:
        source: anything :func:`vision.capture.frames` opens (camera index, file, URL, folder),
            or an iterable of :class:`~vision.capture.Frame` values.
        table: the table layout (its ``image_size`` should match the frames; frames of another
            size are scaled to it). They are worked on scaled to :data:`WORKING_SIDE` pixels
            on their shorter side (:func:`working_layout`, :attr:`zones`), and handed to
            ``on_frame`` in the table's pixels.
        detector: ``image -> Detections``; ``None`` loads the shipped ONNX model
            (:class:`vision.detector.Detector`); one of dynamic input size is fitted to the
            largest view it will see (:meth:`~vision.detector.Detector.fit_input`), so every
            crop keeps its native scale. It should report boxes down to the segmenter's
            ``faint_conf`` (:data:`tracker.plays.FAINT_CONF`), so that the rules can take
            faint cards into a play they refuse without them; boxes below ``min_conf`` never
            count on their own.
        match: a :class:`rules.Match` the caller keeps up to date by applying the events it
            receives; the rules' prior (:class:`tracker.prior.MatchPrior`), which also opens
            new rounds. The pipeline only reads it.
        ruleset: ruleset named in inferred ``round`` events (default: the match's).
        window: seconds cards must lie still before they count.
        per_zone: detect on each seat's upright crop (the detector's training view); ``False``
            detects on the whole frame.
        nested_inside, nested_below, nested_corner: a box read below ``nested_below`` that
            lies at least ``nested_inside`` inside a surer box of the same rank, or one of any
            score that shares a corner with it (within ``nested_corner`` × the card's length),
            is most often that card read twice (a tight fan's card found whole and again in
            part, or as its strip and again as a box reaching over the next card): it does not
            count on its own, only as a faint card the rules may need
            (:func:`vision.detections.second_readings`, surest first; ``nested_below=0`` and
            ``nested_corner=0``: every box counts). One sharing the corner is marked found
            twice (``data["found_twice"]``): beside a play it holds none. Judged in the view
            the detector saw (a zone's upright crop), not after mapping to the frame, where a
            turned zone's boxes swell and nest by themselves; shared corners only per zone, for
            the same reason.
        fan_step: how far apart a fan's cards lie: a box nested so in a surer box of its
            rank that lies a step on from it, with a surer box a step further, is the fan's
            next card and counts, unless the fan's own step beside it is twice as long
            (:func:`vision.detections.in_fan_step`; ``None``: a second reading too).
        turned_look: also detect on each zone's crop turned half round; a box found there that
            is no card found upright (no shared corner with an upright box of its rank, IoU
            below :data:`TURNED_SAME_IOU` with any) is a faint card, for the rules to take when
            they need one more (a tight fan's strip the upright view missed): twice the detector
            runs.
        closer_scales: with ``per_zone``, when a play is committed with faint cards of its
            ranks beside it, or refused by the rules short of cards of its ranks, its zone is
            read again enlarged by these factors in turn (upright, one detector run each),
            until most views agree; the cards most views count are taken into the play (faint
            ones first). So is the
            zone of the play a refused play answers, when nothing else explains the refusal: a
            card a view reads as another rank may correct that play (``()``: never).
        closer_iou: the NMS threshold of the closer views, for a detector that has one to set
            (``with_iou``, as :class:`vision.detector.Detector`): see :data:`CLOSER_IOU`.
        steady: follow the camera when it is bumped, and read every frame in the view its
            first frame gave, or ``view`` (:class:`vision.stabilize.Stabilizer`): the zones'
            crops are taken at the camera's pose, and the change detector's copy and the
            frame handed to ``on_frame`` are warped back, so that the zones, the cards
            remembered and the change detector's reference pictures still fit. The zones of a
            table set meanwhile (:meth:`set_table`) are taken as drawn on that view, as the
            dashboard shows it.
        view: the picture the table was calibrated on (:func:`tracker.table.load_view`), when
            kept: with ``steady``, the camera is followed from it, and a camera moved since
            is held to that view from the first frame.
        segmenter_options: further keyword arguments of :class:`~tracker.plays.PlaySegmenter`.
    """

    def __init__(self, source: int | str | Path | Iterable[Frame], table: TableLayout,
                 detector: DetectorFn | None = None, *, match: Any = None,
                 ruleset: str | None = None, window: float = 0.5, per_zone: bool = True,
                 nested_inside: float = NESTED_INSIDE, nested_below: float = NESTED_BELOW,
                 nested_corner: float = NESTED_CORNER,
                 fan_step: FanStep | None = FAN_STEP, turned_look: bool = True,
                 closer_scales: tuple[float, ...] = CLOSER_SCALES,
                 closer_iou: float = CLOSER_IOU, steady: bool = True,
                 view: NDArray[np.uint8] | None = None, **segmenter_options: Any) -> None:
        if any(scale <= 0 for scale in closer_scales):
            raise ValueError(f"closer_scales must be positive, got {closer_scales}")
        self.source = source
        self.table = table
        self.per_zone = per_zone
        self.closer_scales = closer_scales
        self.nested_inside = nested_inside
        self.nested_below = nested_below
        self.nested_corner = nested_corner
        self.fan_step = fan_step
        self.turned_look = turned_look
        self.zones = SeatZones(working_layout(table))
        """The seat zones as the pipeline works on them (:func:`working_layout`)."""
        self.segmenter = PlaySegmenter(
            self.zones, window=window,
            prior=MatchPrior(match, ruleset=ruleset) if match is not None else None,
            **segmenter_options)
        if detector is None:
            detector = card_detector(faint_conf=self.segmenter.faint_conf)
        self.detector = detector
        self.closer_detector = (detector.with_iou(closer_iou)
                                if isinstance(detector, SettableIoU) else detector)
        """Reads the closer views: :attr:`detector` with the NMS threshold ``closer_iou``
        where it has one to set."""
        self._fit_detector()
        size = self.zones.layout.image_size
        if view is not None:
            view = _at_size(view, size)
        # The stabilizer follows copies 180 px high whatever the working size: its corners'
        # spacing, windows and reach were set on a quarter of 1280x720 (followed in a quarter
        # of 2560x1440, a woven cloth's kept view was found 99 px off).
        self.stabilizer = (Stabilizer(size, scale=WORKING_SIDE / 4 / min(size), reference=view,
                                      reported_size=table.image_size) if steady else None)
        """Follows the camera's moves (``steady``); kept across :meth:`set_table`."""
        self.stats = PipelineStats(
            camera_motion=self.stabilizer.stats if self.stabilizer is not None else None)
        self._judge_zones()
        self._plays: list[tuple[int | None, Event]] = []  # as handed over, corrections too
        self._next_table: tuple[TableLayout, TableLayout] | None = None  # as set, as worked on

    def set_table(self, table: TableLayout) -> None:
        """Use new seat zones from the next frame on (the operator recalibrated the table).

        Safe to call from another thread while :meth:`run` is going. Every zone is detected
        afresh in its new shape; plays already committed stay as they are. Zones that call
        for another working size (:func:`working_layout`) wait for the trick in play to be
        gathered (at once before the first play).
        """
        if table.image_size != self.table.image_size:
            raise ValueError(f"the new table is for {table.image_size[0]}x{table.image_size[1]} "
                             f"images, the running one for "
                             f"{self.table.image_size[0]}x{self.table.image_size[1]}")
        pending = self._next_table
        if pending is None or pending[0] is not table:   # the dashboard sets it till taken
            self._next_table = (table, working_layout(table))

    def _judge_zones(self) -> None:
        """Say, in :attr:`PipelineStats.zones_warning` and the log, whether the zones in
        force are too small to read well."""
        self.stats.zones_warning = _too_small(self.zones.layout)
        if self.stats.zones_warning is not None:
            log.warning(self.stats.zones_warning)

    def _take_next_table(self, size: tuple[int, int]) -> TableLayout | None:
        """Take on the table :meth:`set_table` left, if any (its zones, and the segmenter,
        stabilizer and detector at its working size), and return it as worked on
        (:func:`working_layout`); ``None`` while none is left, or while one of another
        working size than ``size`` waits for the trick in play to be gathered: its plays
        are weighed against each other in the pixels they were read in."""
        pending = self._next_table
        if pending is None:
            return None
        table, working = pending
        resized = working.image_size != size
        if resized:
            if self.segmenter.holds_trick:
                return None
            self.segmenter.resized((working.image_size[0] / size[0],
                                    working.image_size[1] / size[1]))
        self.table, self._next_table = table, None
        self.zones = self.segmenter.zones = SeatZones(working)
        self._judge_zones()
        if self.stabilizer is not None:
            self.stabilizer.recalibrated()
            if resized:
                self.stabilizer.resized(working.image_size)
        self._fit_detector()
        return working

    def _fit_detector(self) -> None:
        """Let a detector of dynamic input size (an ONNX :class:`~vision.detector.Detector`)
        see every view whole at native scale, the scale its cards were learnt at: the largest
        seat-zone crop (enlarged by the largest of :attr:`closer_scales`), or the whole frame."""
        if self.per_zone:
            largest = max((1.0, *self.closer_scales))
            width, height = (math.ceil(max(sides) * largest)
                             for sides in zip(*self.zones.crop_sizes))
        else:
            width, height = self.zones.layout.image_size
        for detector in {id(d): d for d in (self.detector, self.closer_detector)}.values():
            fit_input = getattr(detector, "fit_input", None)
            if fit_input is not None and getattr(detector, "dynamic", False):
                fit_input(width, height)

    def _change_detector(self) -> ChangeDetector:
        """A change detector for the zones in force, its copy of each frame a quarter of the
        working size, or near it a whole fraction of the frame filmed: shrunk by whole blocks
        of pixels, the copy is made some 15 times as fast as at another size (a far camera's
        1280×720 frame shrunk to 640×360 in 0.14 ms, to 585×329 in 2.3 ms)."""
        width, height = self.table.image_size
        working_height = self.zones.layout.image_size[1]
        blocks = max(1, round(4 * height / working_height))
        if width % blocks or height % blocks:
            return ChangeDetector(self.zones)
        return ChangeDetector(self.zones, scale=height / blocks / working_height)

    def _frames(self) -> Iterable[Frame]:
        source = frames(self.source) if isinstance(self.source, int | str | Path) else self.source
        if isinstance(source, Capture):
            self.stats.capture = source.stats
        return source

    def _look_closer(self, picture: _WorkingFrame, seat: int, *,
                     camera: NDArray[np.float64] | None, read: dict[int, list[Detections]]
                     ) -> CloserViews:
        """``seat``'s zone of ``picture`` (filmed at the pose ``camera``, as
        :meth:`SeatZones.warp <tracker.zones.SeatZones.warp>` takes it) read again at each of
        :attr:`closer_scales`, as the segmenter asks (see :class:`~tracker.closer.CloserLook`):
        boxes in the table's pixels.
        Each view is read once while the zone's detections stay in force, kept in ``read`` by
        seat: a play may be looked at closer for more than one reason, the segmenter asks
        ahead of its commit (while the picture stands), and each look costs a detector run."""
        def read_view(index: int) -> Detections:
            started = time.perf_counter()
            view = self.zones.detect_each(picture.scaled, functools.partial(
                self._read_enlarged, scale=self.closer_scales[index]), [seat],
                camera=camera)[seat]
            self.stats.detector_seconds += time.perf_counter() - started
            return view

        return ViewsOnDemand(read_view, len(self.closer_scales), read.setdefault(seat, []))

    def _read_enlarged(self, crop: NDArray[np.uint8], *, scale: float) -> Detections:
        """``crop`` read as :meth:`_read_once` reads it, enlarged by ``scale`` (boxes in the
        crop's pixels)."""
        height, width = crop.shape[:2]
        size = (round(width * scale), round(height * scale))
        found = self._read_once(np.asarray(cv2.resize(crop, size, interpolation=cv2.INTER_LINEAR),
                                           np.uint8), corner=self.nested_corner,
                                detector=self.closer_detector)
        factors = np.array([size[0] / width, size[1] / height] * 2, np.float32)
        return replace(found, xyxy=found.xyxy / factors)

    def _read_zone(self, crop: NDArray[np.uint8]) -> Detections:
        """A zone's upright crop read as :meth:`_read_once` does, and, with the turned look,
        the boxes that only the crop turned half round shows (``data["second_reading"]``:
        faint)."""
        found = self._read_once(crop, corner=self.nested_corner)
        if not self.turned_look or not len(found):
            # A zone with no trace of a card upright has none to complete turned: what that
            # view alone finds is faint, and only taken into a play it lies beside.
            return found
        turned = self._run_detector(np.ascontiguousarray(np.rot90(crop, 2)))
        turned = replace(turned, xyxy=rotate_boxes_back(turned.xyxy, 2, crop.shape[:2]))
        if len(found) and len(turned):
            same_card = ((shared_corners(turned.xyxy, found.xyxy, tolerance=self.nested_corner)
                          & (turned.class_id[:, None] == found.class_id[None, :]))
                         | (box_iou(turned.xyxy, found.xyxy) >= TURNED_SAME_IOU))
            turned = turned[~same_card.any(axis=1)]
        return Detections.merge([found, turned.with_data(
            second_reading=np.ones(len(turned), bool), found_twice=np.zeros(len(turned), bool))])

    def _read_once(self, image: NDArray[np.uint8], *, corner: float,
                   detector: DetectorFn | None = None) -> Detections:
        """``detector``'s boxes (default: :attr:`detector`'s), second readings marked
        (``data["second_reading"]``; shared corners within ``corner``), and those of them that
        share a corner with the card they read again (``data["found_twice"]``,
        :func:`vision.detections.found_twice`)."""
        found = self._run_detector(image, detector)
        second = second_readings(found, inside=self.nested_inside, below=self.nested_below,
                                 corner=corner, fan=self.fan_step)
        return found.with_data(second_reading=second,
                               found_twice=found_twice(found, second, corner=corner))

    def _run_detector(self, image: NDArray[np.uint8], detector: DetectorFn | None = None
                      ) -> Detections:
        self.stats.detector_calls += 1
        return (detector or self.detector)(image)

    def run(self, on_event: Callable[[Event], None],
            on_frame: Callable[[Frame, Detections], None] | None = None,
            stop: Callable[[], bool] | threading.Event | None = None, *,
            frame_every: float = 0.0,
            on_picture: Callable[[int, bytes], None] | None = None) -> PipelineStats:
        """Process frames until the source ends or ``stop`` says so. When the source ends,
        the round filmed should be over: a play that ends it when read with one card changed
        is corrected then (:meth:`tracker.plays.PlaySegmenter.finish`).

        Args:
            on_event: called with each event dict, in order (``round`` when inferred, ``play``,
                ``collect``), each numbered by ``seq`` from 1 (its line in a written log); a
                correction of an earlier play is a ``play`` carrying ``fixes``, that play's
                ``seq`` (the caller's :class:`rules.Match` takes it as it comes).
            on_frame: called with each frame, as the pipeline saw it (scaled to the table's
                image size, warped back to its view when ``steady``), and the detections in
                force for it (those that count: faint ones left out).
            frame_every: seconds (of the clock) at least between two calls of ``on_frame``: a
                live view shows a few frames a second, and only those are warped back whole.
            stop: a callable or a :class:`threading.Event`; checked before every frame.
            on_picture: called after each new play's event with its ``seq`` and a JPEG of its
                cards as the detector read them when the play was committed, as filmed and
                boxed (:meth:`play_picture`): what an operator reviewing the play looks at
                once the trick is gathered. Corrections of a play have no picture of their own.

        Returns:
            The run's :class:`PipelineStats` (also kept in :attr:`stats`).
        """
        should_stop = stop.is_set if isinstance(stop, threading.Event) else stop
        changes = self._change_detector()
        per_seat = [Detections.empty()] * SEAT_COUNT
        detections = Detections.empty()  # in force until a zone is detected again
        still = detections  # in force when the table last lay still: where the cards lie
        still_pose = np.eye(3)  # the camera's pose then
        views: dict[int, list[Detections]] = {}  # a zone's closer views, while its detections hold
        size = self.zones.layout.image_size
        started = time.perf_counter()
        shown = -math.inf   # when on_frame was last called
        for frame in self._frames():
            if should_stop is not None and should_stop():
                break
            working = self._take_next_table(size)
            if working is not None:
                size = working.image_size
                changes = self._change_detector()  # no reference pictures: detect every zone
                per_seat = [Detections.empty()] * SEAT_COUNT
                detections = still = Detections.empty()
                views = {}
            arrived = time.perf_counter()
            picture = _WorkingFrame(frame.image, size, self.stabilizer)
            # One shrunk copy, from the frame as it came, serves the change detector and the
            # stabilizer (which shrinks it again to its own size when the pictures are
            # enlarged for a far camera).
            shrunk = changes.shrink(frame.image)
            show = on_frame is not None and arrived - shown >= frame_every
            camera = None       # the camera's pose, when it moved from the table's view
            steady_shrunk = shrunk
            if self.stabilizer is not None:
                self.stabilizer.follow(shrunk, frame.t)
                if self.stabilizer.displaced:
                    # The zones' crops are taken from the frame as it came: resampled once,
                    # as sharp as a steady camera's.
                    camera, steady_shrunk = self.stabilizer.pose, self.stabilizer.steady(shrunk)
            moving, to_detect = changes.update(frame.image, shrunk=steady_shrunk)
            seats = [int(s) for s in np.flatnonzero(to_detect)]
            if seats:
                detected = time.perf_counter()
                detections = self._detect(picture, seats, camera, per_seat, views)
                # After a move the corners followed, the boxes in force were read at two
                # poses, zone by zone: that move is taken care of, and theirs is no evidence.
                motion = (self._cards_moved(still, detections)
                          if self.stabilizer is not None
                          and np.array_equal(self.stabilizer.pose, still_pose) else None)
                if motion is not None:
                    # The camera moved where its picture has too little to follow (a plain
                    # cloth): the cards it sees have. Read the zones again at its new pose.
                    assert self.stabilizer is not None
                    self.stabilizer.moved_by(motion, shrunk, frame.t)
                    camera = still_pose = self.stabilizer.pose
                    changes.rest(self.stabilizer.steady(shrunk), seats)
                    detections = self._detect(picture, seats, camera, per_seat, views)
                self.stats.detector_seconds += time.perf_counter() - detected
            closer = (functools.partial(self._look_closer, picture, camera=camera, read=views)
                      if self.per_zone and self.closer_scales else None)
            for event in self.segmenter.update(detections, frame.t, moving=bool(moving.any()),
                                               closer=closer):
                self._count(event)
                on_event(event)
                self.stats.latencies.append(time.perf_counter() - arrived)
                if on_picture is not None and event["type"] == "play" and "fixes" not in event:
                    self._picture_taken(on_picture, event, picture.steadied, detections)
            if not seats and not moving.any():
                still = detections
                still_pose = self.stabilizer.pose if self.stabilizer is not None else still_pose
            if on_frame is not None and show:
                shown = arrived
                self._show(on_frame, frame, picture, detections[self.segmenter.counts(detections)])
            done = time.perf_counter()
            if self.stats.frames:
                self.stats.slowest_frame = max(self.stats.slowest_frame, done - arrived)
            self.stats.frames += 1
            self.stats.seconds = done - started
        else:   # the source ended: so did the round filmed, if it was whole
            for event in self.segmenter.finish():
                self._count(event)
                on_event(event)
        return self.stats

    def _show(self, on_frame: Callable[[Frame, Detections], None], frame: Frame,
              picture: _WorkingFrame, detections: Detections) -> None:
        """Hand ``on_frame`` the ``frame`` as the pipeline saw it (``picture``) and its
        ``detections``, in the table's pixels."""
        width, height = self.table.image_size
        image = picture.in_table_view((width, height))
        if picture.size != (width, height):
            factors = np.array([width / picture.size[0], height / picture.size[1]] * 2,
                               np.float32)
            detections = replace(detections, xyxy=detections.xyxy * factors)
        on_frame(frame if image is frame.image else replace(frame, image=image), detections)

    def _detect(self, picture: _WorkingFrame, seats: list[int],
                camera: NDArray[np.float64] | None, per_seat: list[Detections],
                views: dict[int, list[Detections]]) -> Detections:
        """The detections in force once ``seats``' zones of ``picture`` (filmed at the pose
        ``camera``) are read again: each seat's boxes kept in ``per_seat`` and its closer
        views, now stale, dropped from ``views``; or, without zones, the whole frame's,
        warped back to the table's view."""
        if not self.per_zone:
            # Corners are a card's own only in an upright view: not a turned play's.
            return self._read_once(picture.steadied, corner=0.0)
        for seat, found in self.zones.detect_each(picture.scaled, self._read_zone, seats,
                                                  camera=camera).items():
            per_seat[seat] = found
            views.pop(seat, None)
        return merge_crops(per_seat)

    def _cards_moved(self, before: Detections, after: Detections) -> NDArray[np.float64] | None:
        """How the camera moved, as the cards show it, when its own corners did not (a plain
        cloth): the motion of the table's view (:func:`vision.stabilize.card_motion`) from
        ``before`` (the boxes in force when the table last lay still) to ``after`` (those in
        force now), or ``None``.

        Cards stay where they were laid, and only the camera moves the cards of several
        seats as one: the move counts when at least :data:`CARDS_MOVED_MIN` cards followed
        it, :data:`CARDS_MOVED_SHARE` of all those the table showed, and it turned the
        picture by no more than :data:`CARDS_MOVED_TURN` degrees and moved cards of two
        seats' zones or more by more than :data:`CARDS_MOVED_BY` pixels. A hand that pushed
        one seat's cards along while another's lay still agrees with those on a slight turn
        about them; and one seat's cards alone may seem to move when a play of their rank is
        laid over them, a little apart."""
        # The cards laid on the table: not those in the players' hands at its edge.
        seats = self.zones.trigger(before)
        laid = self.segmenter.counts(before) & (seats >= 0)
        before, seats = before[laid], seats[laid]
        after = after[self.segmenter.counts(after) & (self.zones.trigger(after) >= 0)]
        if len(before) < CARDS_MOVED_MIN:
            return None
        centres = before.center
        # Most often the table's cards lie where they were (a play was laid): no move to seek.
        stayed = ((np.linalg.norm(centres[:, None] - after.center[None], axis=2)
                   <= CARDS_MOVED_ERROR)
                  & (before.class_id[:, None] == after.class_id[None])).any(axis=1)
        if stayed.mean() > 1 - CARDS_MOVED_SHARE:
            return None
        fitted = card_motion(before, after, reach=CARDS_MOVED_REACH, error=CARDS_MOVED_ERROR,
                             max_turn=CARDS_MOVED_TURN)
        if fitted is None:
            return None
        motion, followed = fitted
        if followed.sum() < max(CARDS_MOVED_MIN, CARDS_MOVED_SHARE * len(before)):
            return None
        moved = np.linalg.norm(centres @ motion[:2, :2].T + motion[:2, 2] - centres, axis=1)
        return motion if len(np.unique(seats[followed & (moved > CARDS_MOVED_BY)])) >= 2 else None

    def _picture_taken(self, on_picture: Callable[[int, bytes], None], event: Event,
                       image: NDArray[np.uint8], detections: Detections) -> None:
        """Hand the picture of the play ``event`` to ``on_picture`` (``image``: the frame in
        the table's view). A picture is for people to look at: one that cannot be made or
        kept (a disk full) is logged, and the game goes on."""
        try:
            on_picture(event["seq"], self.play_picture(image, event["seat"], detections))
        except Exception:
            log.exception("no picture of play %s", event["seq"])

    def play_picture(self, image: NDArray[np.uint8], seat: int, detections: Detections
                     ) -> bytes:
        """A JPEG of the part of ``image`` (a frame in the table's view) around the boxes of
        ``detections`` (the table's pixels) whose centre lies in ``seat``'s zone, turned by
        quarter turns so that the seat's player sits at the bottom: as filmed, and beside it
        with those boxes drawn, faint ones too, each labelled with its rank and score
        (:func:`vision.annotate.side_by_side`). The boxes are drawn as the tracker holds them:
        a quarter turn keeps them upright and as they were."""
        boxes = detections[self.zones.trigger(detections) == seat]
        picture = side_by_side(image, Detections(xyxy=boxes.xyxy, confidence=boxes.confidence,
                                                 class_id=boxes.class_id),
                               turns=self.zones.upright_turns(seat))
        ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, PICTURE_QUALITY])
        if not ok:
            raise RuntimeError(f"could not encode the picture of seat {seat}'s zone")
        return jpeg.tobytes()

    def _count(self, event: Event) -> None:
        """Count ``event`` in :attr:`stats`."""
        if event["type"] == "play":
            if "fixes" in event:
                self.stats.corrections += 1
            else:
                self.stats.plays += 1
            self._plays.append((None, event))
            self.stats.held = sum(bool(play.get("review"))
                                  for _, play in apply_corrections(self._plays))
        elif event["type"] == "collect":
            self.stats.collects += 1
        self.stats.events += 1


def demo_assets(cache_dir: str | Path | None = None) -> tuple[Path, Path]:
    """The demo game: ``(video path, table path)``, rendered on first use and cached.

    Rendered deterministically from :data:`DEMO_SEED` by :func:`vision.render_game.render_game`
    into ``cache_dir`` (default ``$GOUJI_CACHE`` or ``~/.cache/gouji``), under
    ``demo-<seed>-r<renderer version>`` (a new renderer renders a new demo).
    """
    import os

    from vision.render_game import RENDER_VERSION, render_game

    root = Path(cache_dir or os.environ.get("GOUJI_CACHE") or Path.home() / ".cache" / "gouji")
    folder = root / f"demo-{DEMO_SEED}-r{RENDER_VERSION}"
    video, table = folder / "game.mp4", folder / "table.json"
    if not (video.is_file() and table.is_file() and (folder / "truth.jsonl").is_file()):
        render_game(DEMO_SEED, folder)
    return video, table
