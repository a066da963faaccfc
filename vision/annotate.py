"""Draw detections (and optionally the seat zones) on a copy of an image.

Drawing never touches the caller's frame: the live view, the recorder and the detector may
share it.

>>> import numpy as np
>>> from vision.detections import Detections
>>> frame = np.zeros((120, 160, 3), np.uint8)
>>> boxes = Detections(xyxy=np.array([[10, 10, 60, 90]], np.float32),
...                    confidence=np.array([0.93], np.float32), class_id=np.array([7]))
>>> drawn = annotate(frame, boxes)
>>> drawn.shape, bool(drawn.any()), bool(frame.any())
((120, 160, 3), True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from vision.classes import CLASS_NAMES
from vision.detections import Detections
from vision.detector import rotate_boxes_back

__all__ = ["CLASS_COLORS", "SEAT_COLORS", "annotate", "label", "side_by_side"]

def _hue_colors(count: int) -> tuple[tuple[int, int, int], ...]:
    hsv = np.array([[[round(180 * i / count), 220, 255] for i in range(count)]], np.uint8)
    return tuple((int(b), int(g), int(r)) for b, g, r in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0])


CLASS_COLORS: tuple[tuple[int, int, int], ...] = _hue_colors(len(CLASS_NAMES))
"""One BGR colour per class, spread over the hue circle so neighbouring ranks differ."""

SEAT_COLORS: tuple[tuple[int, int, int], ...] = (
    (80, 80, 230), (230, 160, 60), (80, 200, 80), (40, 200, 230), (200, 90, 200), (200, 200, 80),
)
"""BGR colour of seats 0-5 (the two federations alternate)."""

_FONT = cv2.FONT_HERSHEY_SIMPLEX


def label(class_id: int, confidence: float) -> str:
    """The text drawn over a box.

    >>> label(7, 0.934)
    'T 0.93'
    """
    return f"{CLASS_NAMES[class_id]} {confidence:.2f}"


def annotate(image: NDArray[np.uint8], detections: Detections,
             zones: Sequence[ArrayLike] | None = None) -> NDArray[np.uint8]:
    """Return a copy of ``image`` with boxes, rank labels and optional seat zones drawn.

    Args:
        image: BGR image; left unchanged.
        detections: boxes in ``image`` pixels. If ``detections.data`` has a ``"seat"`` array,
            each label also names the seat (``-1``: none).
        zones: seat polygons, zone ``i`` being seat ``i``; each a ``(k, 2)`` array of pixel
            points.

    Returns:
        The annotated copy.
    """
    canvas = np.array(image, dtype=np.uint8, copy=True)
    if canvas.ndim == 2:
        canvas = np.asarray(cv2.cvtColor(canvas, cv2.COLOR_GRAY2BGR), np.uint8)
    scale = max(canvas.shape[:2]) / 1000
    thickness = max(1, round(2 * scale))
    font_scale = max(0.4, 0.6 * scale)
    for seat, polygon in enumerate(zones or ()):
        _draw_zone(canvas, np.asarray(polygon, np.float32), seat, thickness, font_scale)
    seats = detections.data.get("seat")
    for index, (box, confidence, cid) in enumerate(detections):
        color = CLASS_COLORS[cid]
        x1, y1, x2, y2 = (round(float(v)) for v in box)
        cv2.rectangle(canvas, (x1, y1), (x2, y2), color, thickness)
        text = label(cid, confidence)
        if seats is not None and int(seats[index]) >= 0:
            text += f" s{int(seats[index])}"
        _draw_label(canvas, text, (x1, y1), color, font_scale, thickness)
    return canvas


def side_by_side(image: NDArray[np.uint8], detections: Detections, *, turns: int = 0,
                 margin: float = 0.4, height: int = 360, most: float = 3.0) -> NDArray[np.uint8]:
    """The part of ``image`` around ``detections`` twice, side by side: as filmed, and with
    the boxes drawn (:func:`annotate`). In a tight fan the labels cover the cards' corners;
    beside the clean copy, the cards stay readable next to what was made of them. The least
    sure boxes are drawn last: where labels overlap, the doubted card's is read.

    Args:
        image: BGR image; left unchanged.
        detections: boxes in ``image`` pixels.
        turns: quarter turns counter-clockwise (``np.rot90``'s ``k``) given to the part, so
            that its cards stand upright: upright boxes stay upright, and as found.
        margin: how far the part reaches past the boxes, as a share of their extent on each
            side (none: the whole image).
        height: the picture is enlarged to this height when smaller, by at most ``most``.

    >>> found = Detections(xyxy=np.array([[40, 30, 80, 90]], np.float32),
    ...                    confidence=np.array([0.9], np.float32), class_id=np.array([7]))
    >>> side_by_side(np.zeros((200, 300, 3), np.uint8), found, height=0).shape
    (108, 146, 3)
    >>> side_by_side(np.zeros((200, 300, 3), np.uint8), found, turns=1).shape   # 3 times
    (216, 654, 3)
    """
    image_height, image_width = image.shape[:2]
    left, top, right, bottom = 0, 0, image_width, image_height
    if len(detections):
        (x1, y1), (x2, y2) = detections.xyxy[:, :2].min(0), detections.xyxy[:, 2:].max(0)
        grow_x, grow_y = margin * (x2 - x1), margin * (y2 - y1)
        left, top = max(0, int(x1 - grow_x)), max(0, int(y1 - grow_y))
        right = min(image_width, int(np.ceil(x2 + grow_x)))
        bottom = min(image_height, int(np.ceil(y2 + grow_y)))
    part = np.ascontiguousarray(np.rot90(image[top:bottom, left:right], turns))
    # The part's boxes are those "found" in the part turned back by the other quarter turns.
    boxes = rotate_boxes_back(detections.xyxy - np.array([left, top, left, top], np.float32),
                              -turns, part.shape[:2])
    surest_first = np.argsort(-detections.confidence, kind="stable")
    drawn = annotate(part, replace(detections, xyxy=boxes)[surest_first])
    gap = np.full((part.shape[0], 2, 3), 255, np.uint8)
    both = np.hstack([part, gap, drawn])
    factor = min(most, height / both.shape[0])
    if factor <= 1:
        return both
    return np.asarray(cv2.resize(both, None, fx=factor, fy=factor,
                                 interpolation=cv2.INTER_CUBIC), np.uint8)


def _draw_zone(canvas: NDArray[np.uint8], polygon: NDArray[np.float32], seat: int,
               thickness: int, font_scale: float) -> None:
    color = SEAT_COLORS[seat % len(SEAT_COLORS)]
    points = np.round(polygon).astype(np.int32).reshape(-1, 1, 2)
    # A translucent fill keeps the cards under the zone readable.
    overlay = canvas.copy()
    cv2.fillPoly(overlay, [points], color)
    cv2.addWeighted(overlay, 0.15, canvas, 0.85, 0, dst=canvas)
    cv2.polylines(canvas, [points], True, color, thickness)
    cx, cy = polygon.mean(axis=0)
    _draw_label(canvas, f"seat {seat}", (round(float(cx)), round(float(cy))), color, font_scale,
                thickness)


def _draw_label(canvas: NDArray[np.uint8], text: str, corner: tuple[int, int],
                color: Any, font_scale: float, thickness: int) -> None:
    """Text on a filled tag just above ``corner`` (inside the image when there is no room)."""
    (width, height), baseline = cv2.getTextSize(text, _FONT, font_scale, thickness)
    x = min(max(corner[0], 0), max(canvas.shape[1] - width, 0))
    y = corner[1] if corner[1] - height - baseline >= 0 else corner[1] + height + baseline
    cv2.rectangle(canvas, (x, y - height - baseline), (x + width, y), color, cv2.FILLED)
    blue, green, red = color
    ink = (0, 0, 0) if 0.114 * blue + 0.587 * green + 0.299 * red > 140 else (255, 255, 255)
    cv2.putText(canvas, text, (x, y - baseline), _FONT, font_scale, ink, thickness, cv2.LINE_AA)
