"""Holding a bumped camera to the view its table was calibrated on.

A webcam clamped over a table moves when someone leans on the table or knocks its stand: the
cards then lie some pixels away from where they were seen, and the seat zones, drawn in image
pixels, no longer fit them. :class:`Stabilizer` follows the camera's moves and warps every
frame back to the view the table was calibrated on, so that everything downstream (the change
detector's reference pictures, the cards the tracker remembers, the zones) sees a steady camera.

It follows corners of the picture (the cloth's weave, the cards' pips, the table's rim) from a
picture at rest, the *anchor*, with Lucas–Kanade optical flow on a quarter-size grey copy, each
corner searched from where it was found in the previous frame: a move spread over a few frames
is followed step by step, even over a cloth whose pattern repeats. RANSAC keeps the corners
that agree on one motion (hands reaching in, cards landing and tricks being gathered do not),
and a turn and shift is fitted to them; it counts only when they lie all over the picture,
which only the camera moves at once. The pose in force changes only when the fit moves some
corner of the picture by more than ``tolerance`` pixels: a camera at rest gives the same warp
on every frame, and the change detector sees no change where there is none. A plain cloth
gives too few corners to tell the camera from a hand: it is not followed by them. The cards
on it can be (:func:`card_motion`): the caller, which knows where they lay, tells the
stabilizer of the move it found (:meth:`Stabilizer.moved_by`).

Given the picture the table was calibrated on (``reference``), the camera is followed from it:
a camera moved since (between two evenings at the table, by up to about 10° and any shift the
picture still overlaps at) is found in the first frame and held to that view, or, when its
picture matches it nowhere, reported. The pipeline takes its crops from the camera's frame at
the pose found (:attr:`Stabilizer.pose`), and warps back only what needs the whole picture
(:meth:`Stabilizer.steady`).

>>> import numpy as np, cv2
>>> cloth = cv2.GaussianBlur(np.random.default_rng(0).integers(0, 256, (360, 640, 3), np.uint8),
...                          (0, 0), 3)
>>> stabilizer = Stabilizer((640, 360))
>>> for t, dx in enumerate([0, 0, 4, 8, 12] + [12] * 6):  # bumped 12 pixels right, then still
...     shifted = cv2.warpAffine(cloth, np.float32([[1, 0, dx], [0, 1, 0]]), (640, 360))
...     steady = stabilizer.update(shifted, t / 10)
>>> pose = stabilizer.stats.pose
>>> round(pose.dx), round(pose.dy), round(pose.turn), stabilizer.stats.moves
(12, 0, 0, 1)
>>> bool(np.abs(steady[50:-50, 50:-50].astype(int) - cloth[50:-50, 50:-50]).mean() < 2)
True
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detections import Detections

__all__ = ["CameraPose", "Stabilizer", "StabilizerStats", "card_motion"]

log = logging.getLogger(__name__)

_GRID = (6, 4)
"""Columns and rows of the parts of the picture that each give corners to follow."""
_CORNERS_PER_CELL = 6
_PATTERNED_CELLS = 16
"""Parts of the picture with corners to follow, of the 24, from which the cloth is taken as
patterned: one that cannot be followed then means a knocked camera, not a gathered trick."""
_CORNER_BLOCK = 7
_MIN_CORNER_STRENGTH = 2e-4
"""Smallest eigenvalue of a corner worth following (:func:`cv2.cornerMinEigenVal`): a checked
cloth's weave gives 1e-3 in the grey copy, a card's pips 0.1, a plain grey cloth's sensor noise
4e-5 at 8 grey levels (2e-4 at a grainy 20)."""
_FLOW_WINDOW = (15, 15)
_FLOW_LEVELS = 1
_STILL = 0.25
"""Pixels of the grey copy within which a corner has stayed where it was."""
_MOST_STILL = 0.25
"""Share of the corners agreeing on a move that may have stayed where they were: those about
the point a camera turned about (a turn of 0.5° leaves those within 120 px of it, in the
frame)."""
_SEARCH_TURNS = (0.0, 2.0, -2.0, 4.0, -4.0, 6.0, -6.0, 8.0, -8.0, 10.0, -10.0)
"""Degrees the calibrated view is turned by to look for it in a first frame: the flow finds the
corners at the picture's edges within about 1° of the turn they were looked for at."""
_SEARCH_EVERY = 0.25
"""Seconds between two looks for the calibrated view (55 ms each) in a picture it was not found
in: a hand over the table at the start goes away."""
_MOST_CARD_MOTIONS = 8000
"""Most motions :func:`card_motion` draws from two pairs of a card and a place each."""
_FLOW_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 0.03)


class _Fit(NamedTuple):
    """The camera's motion from an anchor, as its corners found it."""

    motion: NDArray[np.float64]
    """3×3, frame pixels."""
    share: float
    """Share of the anchor's corners that agree on it."""
    found: NDArray[np.float32]
    """Where to search each corner next: where it was found, or, where it was not (a hand
    over it, a card hiding it), where the motion puts it, to be found again when uncovered."""


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera's picture lies against the one its table was calibrated on."""

    dx: float = 0.0
    """Pixels the picture's centre moved right (negative: left)."""
    dy: float = 0.0
    """Pixels the picture's centre moved down (negative: up)."""
    turn: float = 0.0
    """Degrees the picture turned, clockwise as seen on screen."""

    @property
    def shift(self) -> float:
        """Pixels the picture's centre moved."""
        return math.hypot(self.dx, self.dy)


@dataclass(slots=True)
class StabilizerStats:
    """Running counters of a :class:`Stabilizer`, updated frame by frame."""

    pose: CameraPose = field(default_factory=CameraPose)
    """The camera's pose when it last came to rest: frames are warped back by it."""
    moves: int = 0
    """Times the camera came to rest in a new pose."""
    unfollowed: int = 0
    """Times the picture changed past following (a hard knock, or something covering the
    lens) and stayed so: the pose was kept as it stood, and the table may need calibrating
    again."""
    message: str | None = None
    """The latest of those, in words; ``None`` while all is well, and again once the table is
    calibrated anew (:meth:`Stabilizer.recalibrated`)."""


class Stabilizer:
    """Follows a camera that moves, and warps its frames back to the view of its first frame
    (or of ``reference``).

    Args:
        image_size: ``(width, height)`` of the frames.
        scale: shrink factor of the grey copy the corners are followed on.
        tolerance: pixels (of the frame) some corner of the picture must move before the pose
            in force changes.
        min_corners: fewest corners that must agree on a pose.
        min_cells: fewest parts of the picture (of the 6 × 4) they must lie in; and at least
            half of those the anchor has corners in.
        min_share: share of the anchor's corners that must agree, below which the picture is
            not followed on this frame (a hand over most of it).
        settle: seconds a new pose must hold before its picture becomes the anchor.
        give_up: seconds after which a picture that cannot be followed is taken as it stands
            (and reported: the camera may have been knocked): longer than a hand stays over
            the table.
        refresh_share: share of agreeing corners below which a picture at rest becomes the new
            anchor (cards landed or were gathered over many of its corners).
        reference: the picture the table was calibrated on (the camera's view then, at
            ``image_size``), when kept: the camera is followed from it, not from its first
            frame.
        reported_size: ``(width, height)`` of the pictures whose pixels :attr:`stats` gives
            the pose in (default ``image_size``): the camera's own, for frames scaled before
            they are followed.
    """

    def __init__(self, image_size: tuple[int, int], *, scale: float = 0.25,
                 tolerance: float = 1.5, min_corners: int = 12, min_cells: int = 8,
                 min_share: float = 0.3,
                 settle: float = 0.5, give_up: float = 2.0, refresh_share: float = 0.6,
                 reference: NDArray[np.uint8] | None = None,
                 reported_size: tuple[int, int] | None = None) -> None:
        self.reported_size = reported_size or image_size
        self.scale = scale
        self.tolerance = tolerance
        self.min_corners = min_corners
        self.min_cells = min_cells
        self.min_share = min_share
        self.settle = settle
        self.give_up = give_up
        self.refresh_share = refresh_share
        self.stats = StabilizerStats()
        self._sized(image_size)
        self._pose = np.eye(3)          # calibrated view → this camera's frame, in force
        self._estimate = np.eye(3)      # the same as last measured
        self._anchor: NDArray[np.uint8] | None = None   # the picture corners are followed from
        self._anchor_level = 0.0        # its median grey level
        self._anchor_pose = np.eye(3)   # the camera's pose when the anchor was taken
        self._points = np.empty((0, 1, 2), np.float32)   # the anchor's corners
        self._found = np.empty((0, 1, 2), np.float32)    # where each was last found
        self._anchor_cells = 0          # parts of the picture the anchor has corners in
        self._still_since = 0.0         # since when the pose in force has held
        self._lost_since: float | None = None
        self._reference = reference     # until the first frame
        self._searching = False         # looking for the calibrated view (the anchor) in frames
        self._next_search = 0.0         # when to look for it next

    def _sized(self, image_size: tuple[int, int]) -> None:
        """Follow frames of ``image_size``."""
        self.image_size = image_size
        width, height = image_size
        self._small_size = (max(1, round(width * self.scale)), max(1, round(height * self.scale)))
        self._shrink = _resizing(self.scale)
        self._grow = np.linalg.inv(self._shrink)
        self._corners = np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]],
                                 np.float64).T
        self._window = cv2.createHanningWindow(self._small_size, cv2.CV_32F)   # for _shift

    @property
    def pose(self) -> NDArray[np.float64]:
        """The pose in force, a 3×3 matrix taking a point of the calibrated view to the same
        point in the camera's frame."""
        return self._pose.copy()

    def recalibrated(self) -> None:
        """The table was calibrated again on the view as it now stands (frames warped by the
        pose in force): a picture once past following is no more to be reported."""
        self.stats.message = None

    def resized(self, image_size: tuple[int, int]) -> None:
        """Follow the camera's frames scaled to ``image_size`` from the next one on (the same
        view worked on at another size), in small copies of the size followed so far
        (:attr:`scale` changes): the pose in force is kept, in their pixels, and the corners
        are looked for afresh in the next frame, taken at that pose."""
        factor = _resizing(image_size[0] / self.image_size[0], image_size[1] / self.image_size[1])
        self._pose = factor @ self._pose @ np.linalg.inv(factor)
        self.scale *= self.image_size[1] / image_size[1]
        if self._reference is not None:
            self._reference = np.asarray(cv2.resize(self._reference, image_size,
                                                    interpolation=cv2.INTER_AREA), np.uint8)
        self._sized(image_size)
        self._anchor = None
        self._points = self._found = np.empty((0, 1, 2), np.float32)
        self._searching = False

    def moved_by(self, motion: NDArray[np.float64], image: NDArray[np.uint8], t: float) -> None:
        """The camera was found moved by other means than its corners (the cards it sees,
        :func:`card_motion`): what lay at ``x`` in the table's view, through the pose in
        force, now lies at ``motion @ x``. The camera's new pose is taken at rest, counted as a
        move, and followed from ``image`` (its frame at ``t``, or a copy of it shrunk) on."""
        self._pose = self._pose @ motion
        self._came_to_rest()
        self._take_anchor(self._grey_copy(image), t, pose=self._pose)

    @property
    def displaced(self) -> bool:
        """Whether the pose in force is not the calibrated view's: frames are warped back."""
        return not np.array_equal(self._pose, np.eye(3))

    def update(self, image: NDArray[np.uint8], t: float) -> NDArray[np.uint8]:
        """Follow the camera to ``image`` (taken at ``t`` seconds) and return it warped back
        to the calibrated view (``image`` itself while the camera has never moved): as
        :meth:`follow`, then :meth:`steady`."""
        self.follow(image, t)
        return self.steady(image)

    def follow(self, image: NDArray[np.uint8], t: float) -> None:
        """Follow the camera to ``image``, its frame at ``t`` seconds or a copy of it shrunk
        (area-averaged, in colour: the caller may have one): :attr:`pose` is then the
        camera's."""
        small = self._grey_copy(image)
        if self._reference is not None:     # followed from the calibrated view
            self._take_anchor(self._grey_copy(self._reference), t)
            self._reference, self._searching = None, bool(len(self._points))
            self._next_search = t
        if self._anchor is None:
            self._take_anchor(small, t, pose=self._pose)
            return
        # Optical flow takes a brighter picture for a moved one: match the anchor's level.
        level = float(np.median(small[::4, ::4]))
        small = np.asarray(cv2.convertScaleAbs(small, alpha=self._anchor_level / max(level, 1.0)),
                           np.uint8)
        if self._searching and t >= self._next_search:
            self._next_search = t + _SEARCH_EVERY
            if self._found_from_reference(small, t):
                return
        self._follow_from_anchor(small, t)

    def steady(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """A frame of the camera as it now stands, or a copy of it shrunk or grown, warped
        back to the calibrated view (``image`` itself when the camera has not moved)."""
        if not self.displaced:
            return image
        height, width = image.shape[:2]
        pose = self._pose
        if (width, height) != self.image_size:
            resize = _resizing(width / self.image_size[0])
            pose = resize @ pose @ np.linalg.inv(resize)
        return np.asarray(cv2.warpAffine(
            image, pose[:2], (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE), np.uint8)

    def _grey_copy(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        # Grey first: a third of the pixels to shrink.
        grey = _grey(image)
        if grey.shape[::-1] == self._small_size:   # shrunk already
            return grey
        return np.asarray(cv2.resize(grey, self._small_size, interpolation=cv2.INTER_AREA),
                          np.uint8)

    def _found_from_reference(self, small: NDArray[np.uint8], t: float) -> bool:
        """Look for the calibrated view (the anchor) in ``small``, the camera having perhaps
        moved far since; when found, follow the camera from ``small`` on, at the pose found.

        The view is looked for as it was, and turned by each of :data:`_SEARCH_TURNS` and
        shifted as the whole picture's shift (phase correlation) says: the flow then matches
        corners whose patches face the same way. The one most corners agree on is taken; of a
        cloth whose pattern repeats, several match, and the view as it was, the nearest, is
        the likeliest."""
        assert self._anchor is not None
        width, height = self._small_size
        found: tuple[NDArray[np.float64], float] | None = None
        for turn in _SEARCH_TURNS:
            turning = np.asarray(cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2),
                                                         turn, 1.0), np.float64)
            # The view turned as the camera may be, and its corners there: searched shifted
            # as the whole picture is (and, unturned, also where they were).
            turned = self._anchor if not turn else np.asarray(cv2.warpAffine(
                self._anchor, turning, self._small_size, borderMode=cv2.BORDER_REPLICATE),
                np.uint8)
            points = np.asarray(cv2.transform(self._points, turning), np.float32)
            turned_by = self._grow @ np.vstack([turning, [0, 0, 1]]) @ self._shrink
            shifts = [self._shift(turned, small)]
            if not turn:
                shifts.insert(0, np.zeros(2, np.float32))
            for shift in shifts:
                fit = self._fit(small, turned, points, points + shift)
                if fit is not None and (found is None or fit.share > found[1] + 0.05):
                    found = fit.motion @ turned_by, fit.share
        if found is None:
            return False
        if self._distance(found[0], np.eye(3)) > self.tolerance:
            self._pose = found[0]
            self._came_to_rest()
        self._take_anchor(small, t, pose=self._pose)
        return True

    def _shift(self, before: NDArray[np.uint8], after: NDArray[np.uint8]) -> NDArray[np.float32]:
        """How far the whole picture moved from ``before`` to ``after`` (grey copies), by
        phase correlation."""
        (dx, dy), _ = cv2.phaseCorrelate(before.astype(np.float32), after.astype(np.float32),
                                         self._window)
        return np.array([dx, dy], np.float32)

    def _follow_from_anchor(self, small: NDArray[np.uint8], t: float) -> None:
        assert self._anchor is not None
        if not len(self._points):
            # A bare cloth has nothing to follow: look again from time to time (cards come).
            if t - self._still_since >= self.settle:
                self._take_anchor(small, t, pose=self._pose)
            return
        fit = self._fit(small, self._anchor, self._points, self._found)
        if fit is None:
            # A jump too far for the flow from where the corners were found last (a hard
            # knock): they are looked for where the whole picture's shift puts them.
            fit = self._fit(small, self._anchor, self._points,
                            self._points + self._shift(self._anchor, small))
        if fit is None:
            # A hand over much of the picture goes away again; a picture that stays past
            # following is taken as it stands, at the pose of the last picture at rest. Over
            # a plain cloth that is most often a trick gathered; over a patterned one, the
            # camera knocked.
            self._lost_since = t if self._lost_since is None else self._lost_since
            if t - self._lost_since >= self.give_up:
                if self._anchor_cells >= _PATTERNED_CELLS:
                    self.stats.unfollowed += 1
                    self.stats.message = ("the camera's picture changed past following: if the "
                                          "camera moved, calibrate the table again")
                    log.warning("camera: %s", self.stats.message)
                self._pose = self._anchor_pose.copy()
                self._take_anchor(small, t, pose=self._pose)
            return
        self._lost_since = None
        motion, share, self._found = fit
        self._estimate = motion @ self._anchor_pose
        if self._distance(self._estimate, self._pose) > self.tolerance:
            self._pose = self._estimate.copy()
            self._still_since = t
            return
        if t - self._still_since < self.settle:
            return
        if self._distance(self._estimate, self._anchor_pose) > self.tolerance:
            self._pose = self._estimate.copy()  # to rest: as measured, not as last held
            self._came_to_rest()
            self._take_anchor(small, t, pose=self._estimate)
            return
        self._pose = self._anchor_pose.copy()   # back from a swing (a hand fooled the fit)
        if share < self.refresh_share:
            self._take_anchor(small, t, pose=self._anchor_pose)

    def _fit(self, small: NDArray[np.uint8], anchor: NDArray[np.uint8],
             points: NDArray[np.float32], guess: NDArray[np.float32]) -> _Fit | None:
        """The camera's motion from ``anchor`` to ``small`` by the anchor's corners
        ``points``, each searched from its ``guess``; ``None`` when too few agree, or only
        corners of one part of the picture (a hand, a trick being gathered)."""
        flow, status, _ = cv2.calcOpticalFlowPyrLK(
            anchor, small, points, guess.copy(), winSize=_FLOW_WINDOW, maxLevel=_FLOW_LEVELS,
            criteria=_FLOW_CRITERIA, flags=cv2.OPTFLOW_USE_INITIAL_FLOW)
        found = np.asarray(flow, np.float32)
        tracked = status.ravel() == 1
        if tracked.sum() < self.min_corners:
            return None
        # RANSAC sorts the corners that moved with the camera from those on hands and cards;
        # the camera's motion is then fitted to them as a turn and shift alone.
        motion, inliers = cv2.estimateAffinePartial2D(
            points[tracked], found[tracked], method=cv2.RANSAC, ransacReprojThreshold=1.0)
        if motion is None:
            return None
        agreeing = np.zeros(len(points), bool)
        agreeing[np.flatnonzero(tracked)[inliers.ravel() == 1]] = True
        # Only the camera moves every part of the picture at once. Corners of a few cards
        # alone would agree on a slight turn about them that moves the picture's corners far.
        if (agreeing.sum() < max(self.min_corners, self.min_share * len(points))
                or self._cells(points[agreeing]) < max(self.min_cells, self._anchor_cells / 2)):
            return None
        small_motion = _turn_and_shift(points[agreeing].reshape(-1, 2),
                                       found[agreeing].reshape(-1, 2))
        moved = self._grow @ small_motion @ self._shrink
        # A hand that moved some cards against others that stayed agrees with them on a
        # slight turn about those: but a camera that moved leaves few corners where they were.
        still = agreeing & (np.hypot(*(found - points).reshape(-1, 2).T) < _STILL)
        if (still.sum() >= max(3, _MOST_STILL * agreeing.sum())
                and self._distance(moved, np.eye(3)) > self.tolerance):
            return None
        # Corners a hand covers, or that a card now hides, are searched from where the fit
        # puts them, so that they are found again when uncovered.
        return _Fit(moved, float(agreeing.mean()), np.where(
            agreeing[:, None, None], found, cv2.transform(points, small_motion[:2])
        ).astype(np.float32))

    def _cells(self, points: NDArray[np.float32]) -> int:
        """How many of the picture's parts (:data:`_GRID`) ``points`` (of the grey copy) lie
        in."""
        width, height = self._small_size
        x, y = points.reshape(-1, 2).T
        column = np.minimum((x * _GRID[0] / width).astype(int), _GRID[0] - 1)
        row = np.minimum((y * _GRID[1] / height).astype(int), _GRID[1] - 1)
        return len(np.unique(row * _GRID[0] + column))

    def _take_anchor(self, small: NDArray[np.uint8], t: float, *,
                     pose: NDArray[np.float64] | None = None) -> None:
        """Follow the camera from ``small`` on, taken at ``pose`` (default: the calibrated
        view's)."""
        points = self._spread_corners(small)
        # Corners in a few parts of the picture only (a plain cloth and a few cards) are not
        # followed: what moves them is more likely a hand than the camera.
        self._anchor_cells = self._cells(points)
        self._points = (points if len(points) >= self.min_corners
                        and self._anchor_cells >= self.min_cells else points[:0])
        self._found = self._points.copy()
        self._anchor = small
        self._anchor_level = float(np.median(small[::4, ::4]))
        self._anchor_pose = np.eye(3) if pose is None else pose.copy()
        self._estimate = self._anchor_pose.copy()
        self._still_since = t
        self._lost_since = None
        self._searching = False

    def _spread_corners(self, small: NDArray[np.uint8]) -> NDArray[np.float32]:
        """Corners to follow, the strongest of each part of the picture: the corners of a
        card's pips outshine the cloth's weave a hundredfold, yet cards get gathered, and
        corners spread over the whole picture also pin its turn down best. None where the
        picture is bare: a plain cloth's sensor noise has corners that lead nowhere."""
        width, height = self._small_size
        strength = cv2.cornerMinEigenVal(small, _CORNER_BLOCK)
        found = []
        for top, bottom in itertools.pairwise(np.linspace(0, height, _GRID[1] + 1).astype(int)):
            for left, right in itertools.pairwise(np.linspace(0, width, _GRID[0] + 1).astype(int)):
                points = cv2.goodFeaturesToTrack(
                    small[top:bottom, left:right], maxCorners=_CORNERS_PER_CELL,
                    qualityLevel=0.05, minDistance=max(2, height // 30), blockSize=_CORNER_BLOCK)
                if points is not None:
                    found.append(points.reshape(-1, 2) + (left, top))
        points = (np.concatenate(found) if found else np.empty((0, 2))).astype(np.float32)
        columns, rows = np.round(points).astype(int).T
        points = points[strength[rows, columns] >= _MIN_CORNER_STRENGTH]
        return np.asarray(points.reshape(-1, 1, 2), np.float32)

    def _came_to_rest(self) -> None:
        """Count and report the camera's new pose."""
        matrix = self._pose
        centre = np.array([self.image_size[0] / 2, self.image_size[1] / 2, 1.0])
        dx, dy = ((matrix @ centre - centre)[:2] * self.reported_size
                  / np.asarray(self.image_size, np.float64))
        turn = math.degrees(math.atan2(matrix[1, 0], matrix[0, 0]))
        self.stats.pose = CameraPose(round(float(dx), 1), round(float(dy), 1), round(turn, 2))
        self.stats.moves += 1
        log.info("camera moved: its picture now lies %.1f px right, %.1f px down and turned "
                 "%.2f° from the table's view; frames are warped back", dx, dy, turn)

    def _distance(self, a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
        """Farthest apart, in pixels, that ``a`` and ``b`` put a corner of the picture."""
        return float(np.abs((a - b) @ self._corners)[:2].max())


def card_motion(before: Detections, after: Detections, *, reach: float, error: float,
                max_turn: float = 3.0, turn_span: float = 200.0
                ) -> tuple[NDArray[np.float64], NDArray[np.bool_]] | None:
    """The turn (by at most ``max_turn`` degrees) and shift that takes the most of the cards
    ``before`` to a card of the same class in ``after`` (each card by its box's centre, moved
    by at most ``reach`` pixels and put within ``error`` pixels of it, its box's sides within
    twice that of what they were): ``(motion 3×3, which of before follow it)``, or ``None``
    when no card has a place to go. Cards on a table stay where they were laid; when all of
    them, seen anew, lie moved as one, the camera moved.

    Each pair of a card and a place it may have gone to gives a shift, and every two pairs a
    turn and shift; the motion the most cards follow is taken, fitted to them. A tight fan's
    strips of one rank lie near each other, so each strip may pair with its neighbour's
    place: such a pair agrees with no card elsewhere. Cards of two plays alone, each lying
    close together, agree on far larger turns about them as well, hence the bound on the turn;
    and the cards followed are fitted a turn only when they lie ``turn_span`` pixels apart or
    more: two boxes of a pair, each read within a few pixels, give no turn worth the name.

    >>> boxes = np.array([[100, 100, 160, 190], [400, 120, 460, 210], [700, 500, 790, 560]],
    ...                  np.float32)
    >>> def cards(xyxy):
    ...     return Detections(xyxy=xyxy, confidence=np.ones(3, np.float32),
    ...                       class_id=np.array([3, 3, 9]))
    >>> motion, followed = card_motion(cards(boxes), cards(boxes + [12, -5, 12, -5]), reach=60,
    ...                                error=3)
    >>> motion[:2, 2].round(1).tolist(), followed.tolist()
    ([12.0, -5.0], [True, True, True])
    """
    if not len(before) or not len(after):
        return None
    centres_before = before.center.astype(np.float64)
    centres_after = after.center.astype(np.float64)
    apart = np.linalg.norm(centres_before[:, None] - centres_after[None], axis=2)
    # A card keeps its size when the camera moves; one that a card laid on it now partly
    # hides does not, and its box's middle moves by itself.
    sizes_before = (before.xyxy[:, 2:] - before.xyxy[:, :2]).astype(np.float64)
    sizes_after = (after.xyxy[:, 2:] - after.xyxy[:, :2]).astype(np.float64)
    resized = np.abs(sizes_before[:, None] - sizes_after[None]).max(axis=2)
    card, place = np.nonzero((apart <= reach) & (resized <= 2 * error)
                             & (before.class_id[:, None] == after.class_id[None]))
    if not len(card):
        return None
    start, end = centres_before[card], centres_after[place]
    # Two pairs of two cards as far apart as their error allows a turn to be told. Many cards
    # of one rank lying together (a pile of fans) pair many ways: a sample of the motions they
    # give still holds the camera's many times over, and bounds the work.
    one, other = np.triu_indices(len(card), 1)
    if len(one) > _MOST_CARD_MOTIONS:
        sample = np.sort(np.random.default_rng(0).choice(len(one), _MOST_CARD_MOTIONS,
                                                         replace=False))
        one, other = one[sample], other[sample]
    span_before, span_after = start[other] - start[one], end[other] - end[one]
    length = np.linalg.norm(span_before, axis=1)
    turn = np.arctan2(span_before[:, 0] * span_after[:, 1] - span_before[:, 1] * span_after[:, 0],
                      (span_before * span_after).sum(axis=1))
    kept = ((card[one] != card[other]) & (length >= 4 * error)
            & (np.abs(np.linalg.norm(span_after, axis=1) - length) <= 2 * error)
            & (np.abs(turn) <= math.radians(max_turn)))
    one, other, turn = one[kept], other[kept], turn[kept]
    # The motions: each pair's shift alone, then each two pairs' turn and shift about their
    # middle.
    turn = np.concatenate([np.zeros(len(card)), turn])
    middle_before = np.concatenate([start, (start[one] + start[other]) / 2])
    middle_after = np.concatenate([end, (end[one] + end[other]) / 2])
    cos, sin = np.cos(turn), np.sin(turn)
    shift = middle_after - np.stack([cos * middle_before[:, 0] - sin * middle_before[:, 1],
                                     sin * middle_before[:, 0] + cos * middle_before[:, 1]], 1)
    # Where each motion puts each card's start, against the place paired with it.
    x = cos[:, None] * start[None, :, 0] - sin[:, None] * start[None, :, 1] + shift[:, :1]
    y = sin[:, None] * start[None, :, 0] + cos[:, None] * start[None, :, 1] + shift[:, 1:]
    near = np.hypot(x - end[None, :, 0], y - end[None, :, 1]) <= error
    each_card = np.zeros((len(card), len(before)))
    each_card[np.arange(len(card)), card] = 1
    agree = near[int(np.argmax((near @ each_card > 0).sum(axis=1)))]
    motion = _card_fit(start[agree], end[agree], turn_span)
    # Fitted to the cards that follow it, each taken by its nearest place (not two at once).
    residual = np.linalg.norm(start @ motion[:2, :2].T + motion[:2, 2] - end, axis=1)
    order = np.lexsort((residual, card))
    pairs = order[(residual[order] <= error) & np.r_[True, np.diff(card[order]) != 0]]
    if not len(pairs):
        return None
    followed = np.zeros(len(before), bool)
    followed[card[pairs]] = True
    return _card_fit(start[pairs], end[pairs], turn_span), followed


def _card_fit(before: NDArray[np.float64], after: NDArray[np.float64], turn_span: float
              ) -> NDArray[np.float64]:
    """The turn and shift that best take the points ``before`` to ``after``; the shift alone
    when they lie less than ``turn_span`` apart."""
    if np.ptp(before, axis=0).max() >= turn_span:
        return _turn_and_shift(before, after)
    motion = np.eye(3)
    motion[:2, 2] = (after - before).mean(axis=0)
    return motion


def _resizing(scale: float, scale_y: float | None = None) -> NDArray[np.float64]:
    """The 3×3 map from a frame's pixels to those of its copy resized by ``scale`` (across,
    and down unless ``scale_y`` says otherwise): pixel x becomes (x + 0.5) · scale − 0.5, so
    that pixel centres line up."""
    sy = scale if scale_y is None else scale_y
    return np.array([[scale, 0, 0.5 * scale - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1]])


def _grey(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image,
                      np.uint8)


def _turn_and_shift(before: NDArray[np.floating[Any]], after: NDArray[np.floating[Any]]
                    ) -> NDArray[np.float64]:
    """The turn and shift (3×3) that best take the points ``before`` to ``after``, in the
    least-squares sense (2-D Procrustes)."""
    mean_before, mean_after = before.mean(axis=0), after.mean(axis=0)
    a, b = (before - mean_before).astype(np.float64), (after - mean_after).astype(np.float64)
    angle = math.atan2(float((a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()),
                       float((a * b).sum()))
    cos, sin = math.cos(angle), math.sin(angle)
    turn = np.array([[cos, -sin], [sin, cos]])
    return np.vstack([np.column_stack([turn, mean_after - turn @ mean_before]), [0, 0, 1]])
