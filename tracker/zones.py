"""Seat zones: which seat a box belongs to, and each zone seen from its player's chair.

:class:`SeatZones` answers questions about a :class:`~tracker.table.TableLayout` quickly and
never draws. :meth:`SeatZones.trigger` gives the seat of every box (−1 outside the play area);
:meth:`SeatZones.warp` cuts a seat's zone out as an upright crop with its player at the bottom at
native camera resolution, so the detector sees cards roughly upright and large, and
:meth:`SeatZones.detect_each` runs a detector on such crops and maps each seat's boxes back to
the image (:func:`merge_crops` makes them one set).

>>> import numpy as np
>>> from vision.detections import Detections
>>> from tracker.table import TableLayout
>>> zones = SeatZones(TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)],
...                                       (1280, 720)))
>>> boxes = Detections(xyxy=np.array([[600, 560, 680, 640], [600, 80, 680, 160],
...                                   [10, 10, 50, 50]], np.float32),
...                    confidence=np.ones(3, np.float32), class_id=np.zeros(3, np.int_))
>>> zones.trigger(boxes).tolist()
[0, 3, -1]
>>> crop = zones.warp(np.zeros((720, 1280, 3), np.uint8), 3)
>>> crop.image.shape[2], crop.seat
(3, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from tracker.table import SEAT_COUNT, Point, TableLayout
from vision.detections import Detections, box_iou

__all__ = ["BORDER_SAME_IOU", "SeatZones", "ZoneCrop", "merge_crops"]

BORDER_SAME_IOU = 0.7
"""IoU (image pixels) from which boxes kept by the crops of two seats are one card lying on
their border, seen by both: each crop bounds the card's visible part as its own turn shows it,
so the two boxes differ and may be centred on either side of the border (a 3 of a fan laid
across seats 4 and 5, kept by both crops at IoU 0.79, made that fan of four a play of five).
Neighbouring cards of a fan overlap less; within one crop, the detector's own suppression
decides which boxes are one card."""


@dataclass(frozen=True, slots=True)
class ZoneCrop:
    """A seat's zone warped upright, its player at the bottom edge."""

    seat: int
    """The seat this crop shows."""
    image: NDArray[np.uint8]
    """The crop's pixels (BGR)."""
    matrix: NDArray[np.float64]
    """3×3 perspective matrix from image pixels (the table's view, the camera's moves taken
    out) to crop pixels."""

    def to_image(self, xyxy: NDArray[np.float32]) -> NDArray[np.float32]:
        """Map crop boxes ``(n, 4)`` back to image boxes (the box around the mapped corners)."""
        if not len(xyxy):
            return np.zeros((0, 4), np.float32)
        x1, y1, x2, y2 = xyxy.T
        corners = np.stack([np.stack([x1, y1], 1), np.stack([x2, y1], 1),
                            np.stack([x2, y2], 1), np.stack([x1, y2], 1)], 1)
        mapped = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64),
                                          np.linalg.inv(self.matrix)).reshape(-1, 4, 2)
        return np.concatenate([mapped.min(1), mapped.max(1)], 1).astype(np.float32)


class SeatZones:
    """Fast seat look-ups and per-seat crops for one table layout.

    Args:
        layout: the table.
        margin: how far each crop reaches beyond its zone, as a fraction of the zone's depth
            (centre to player), so a card lying across a zone border is whole in the crop of the
            seat that owns its centre.
    """

    def __init__(self, layout: TableLayout, *, margin: float = 0.25) -> None:
        self.layout = layout
        self.margin = margin
        self.anchors: tuple[Point, ...] = tuple(layout.seat_anchor(s) for s in range(SEAT_COUNT))
        """Where each seat's player sits, image pixels."""
        self.labels = self._label_map()
        """Seat of every image pixel, −1 outside the play area and the zones, ``(h, w)`` int8."""
        self._warps = tuple(self._warp_geometry(s) for s in range(SEAT_COUNT))

    # -- seats of points and boxes ---------------------------------------------------------

    def _label_map(self) -> NDArray[np.int8]:
        """Rasterise :meth:`TableLayout.seat_at` once: overlaps and gaps inside the play area go
        to the nearest player on the table plane."""
        w, h = self.layout.image_size
        inside = np.zeros((SEAT_COUNT, h, w), np.uint8)
        for seat in self.layout.seats:
            cv2.fillPoly(inside[seat.index], [np.round(seat.polygon).astype(np.int32)], 1)
        area = np.zeros((h, w), np.uint8)
        cv2.fillPoly(area, [np.round(self.layout.play_area).astype(np.int32)], 1)
        count = inside.sum(0)
        labels = np.where(count == 1, inside.argmax(0), -1).astype(np.int8)
        ambiguous = (count > 1) | ((count == 0) & (area == 1))
        if ambiguous.any():
            ys, xs = np.nonzero(ambiguous)
            top = self.layout.to_top(np.stack([xs, ys], 1).astype(np.float64))
            anchors = self.layout.to_top(self.anchors)
            distance = np.hypot(top[:, None, 0] - anchors[None, :, 0],
                                top[:, None, 1] - anchors[None, :, 1])
            allowed = np.where(count[ys, xs, None] > 0, inside[:, ys, xs].T == 1, True)
            distance[~allowed] = np.inf
            labels[ys, xs] = distance.argmin(1)
        return labels

    def seat_of_points(self, points: NDArray[np.float32]) -> NDArray[np.int_]:
        """Seat of each ``(x, y)`` point, −1 outside the play area (and outside the image)."""
        h, w = self.labels.shape
        xs = np.round(points[:, 0]).astype(np.int64)
        ys = np.round(points[:, 1]).astype(np.int64)
        seats = np.full(len(points), -1, np.int_)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        seats[ok] = self.labels[ys[ok], xs[ok]]
        return seats

    def trigger(self, detections: Detections) -> NDArray[np.int_]:
        """Seat of each box by its centre, −1 for none."""
        return self.seat_of_points(detections.center)

    def nearest_seat(self, point: Point, candidates: Iterable[int] = range(SEAT_COUNT)) -> int:
        """Of ``candidates``, the seat whose player is nearest to ``point`` (table plane)."""
        return self.layout.nearest_seat(point, list(candidates))

    # -- upright crops ---------------------------------------------------------------------

    def _warp_geometry(self, seat: int) -> tuple[NDArray[np.float64], tuple[int, int]]:
        layout = self.layout
        centre = layout.to_top([layout.centre])[0]
        down = layout.seat_direction(seat)             # towards the player: crop's bottom
        right = np.array([down[1], -down[0]])          # seat 0 (down) keeps the image's x axis
        zone = layout.to_top(layout.seats[seat].polygon) - centre
        u, v = zone @ right, zone @ down
        pad = self.margin * float(v.max() - min(v.min(), 0.0))
        u0, u1, v0, v1 = u.min() - pad, u.max() + pad, min(v.min(), 0.0) - pad, v.max() + pad
        corners_top = np.array([centre + a * right + b * down
                                for a, b in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))])
        quad = layout.to_image(corners_top)
        width = round(max(np.hypot(*(quad[1] - quad[0])), np.hypot(*(quad[2] - quad[3]))))
        height = round(max(np.hypot(*(quad[3] - quad[0])), np.hypot(*(quad[2] - quad[1]))))
        target = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float32)
        matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        return matrix.astype(np.float64), (width, height)

    def upright_turns(self, seat: int) -> int:
        """Quarter turns counter-clockwise (``np.rot90``'s ``k``) that bring ``seat``'s player
        nearest the bottom of a picture of the table: unlike :meth:`warp`'s turn, they keep
        upright boxes upright."""
        (centre_x, centre_y), (x, y) = self.layout.centre, self.layout.seat_anchor(seat)
        dx, dy = x - centre_x, y - centre_y
        # Each quarter turn takes a direction (dx, dy) in the picture to (dy, -dx).
        return int(np.argmax([dy, -dx, -dy, dx]))

    @property
    def crop_sizes(self) -> tuple[tuple[int, int], ...]:
        """``(width, height)`` of each seat's crop (:meth:`warp`), in seat order."""
        return tuple(size for _, size in self._warps)

    def crop_quad(self, seat: int) -> NDArray[np.float32]:
        """The image quad ``(4, 2)`` that :meth:`warp` turns into ``seat``'s crop (top-left,
        top-right, bottom-right, bottom-left of the crop)."""
        matrix, (width, height) = self._warps[seat]
        corners = np.array([[(0, 0), (width, 0), (width, height), (0, height)]], np.float64)
        quad = cv2.perspectiveTransform(corners, np.linalg.inv(matrix))[0]
        return np.asarray(quad, np.float32)

    def warp(self, image: NDArray[np.uint8], seat: int, *,
             camera: NDArray[np.float64] | None = None) -> ZoneCrop:
        """``seat``'s zone (plus margin) upright, its player at the bottom, native resolution.
        ``camera``: the pose (3×3, table's view → ``image``) of a camera that moved since the
        table was drawn (:mod:`vision.stabilize`): the crop is then taken from ``image``
        as it came, resampled once."""
        matrix, size = self._warps[seat]
        sampling = matrix if camera is None else matrix @ np.linalg.inv(camera)
        crop = cv2.warpPerspective(image, sampling, size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        return ZoneCrop(seat=seat, image=np.asarray(crop, np.uint8), matrix=matrix)

    def detect_each(self, image: NDArray[np.uint8],
                    detector: Callable[[NDArray[np.uint8]], Detections],
                    seats: Iterable[int] = range(SEAT_COUNT), *,
                    camera: NDArray[np.float64] | None = None) -> dict[int, Detections]:
        """Each of ``seats``' boxes: ``detector`` run on its upright crop, mapped back to the
        image, each box kept only by the crop of the seat that owns its centre (a crop
        reaches past its zone, so a border card is seen by two crops). Each seat's boxes
        carry ``data["seat"]`` and the detector's own ``data`` entries; :func:`merge_crops`
        makes them one set (of two boxes that two crops kept of one card on their border, only
        the surer), which a caller keeping them per seat, reading some zones again later, does
        when it needs it. ``camera``: as :meth:`warp` takes it; boxes are in the table's
        view."""
        parts = {}
        for seat in seats:
            crop = self.warp(image, seat, camera=camera)
            found = detector(crop.image)
            mapped = replace(found, xyxy=crop.to_image(found.xyxy))
            keep = self.trigger(mapped) == seat
            parts[seat] = mapped[keep].with_data(seat=np.full(int(keep.sum()), seat))
        return parts


def merge_crops(parts: Iterable[Detections]) -> Detections:
    """The boxes that each seat's crop kept (each part with its ``data["seat"]``), as one set:
    of two boxes kept by the crops of two seats that overlap at :data:`BORDER_SAME_IOU` or
    more, only the surer (the first of two as sure), since they are one card on the border.

    A 3 on the border of seats 4 and 5, kept by both crops (IoU 0.79), and the 3 beside it
    in the fan (IoU 0.61 with either):

    >>> def kept(seat, box, conf):
    ...     return Detections(xyxy=np.array([box], np.float32), class_id=np.array([1]),
    ...                       confidence=np.array([conf], np.float32)).with_data(seat=[seat])
    >>> merged = merge_crops([kept(4, [444, 248, 571, 385], 0.6),
    ...                       kept(5, [444, 261, 586, 390], 0.66),
    ...                       kept(5, [425, 226, 558, 368], 0.63)])
    >>> merged.data["seat"].tolist(), merged.xyxy[:, 1].tolist()
    ([5, 5], [261.0, 226.0])
    """
    parts = [part for part in parts if len(part)]
    if not parts:
        return Detections.empty().with_data(seat=np.zeros(0, np.int_))
    found = Detections.merge(parts)
    seat, index = found.data["seat"], np.arange(len(found))
    surer = ((found.confidence[None, :] > found.confidence[:, None])
             | ((found.confidence[None, :] == found.confidence[:, None])
                & (index[None, :] < index[:, None])))
    same = (box_iou(found.xyxy, found.xyxy) >= BORDER_SAME_IOU) & (seat[:, None] != seat[None, :])
    return found[~(same & surer).any(axis=1)]
