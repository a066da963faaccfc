"""Exact labels from the renderer's masks: one box per physical card around its visible part.

A scene is a stack of :class:`Layer` s, bottom first: cards (with a class id, the card-to-canvas
homography and the card's corner index rectangles) and occluders such as hands (``class_id=-1``).
:func:`visible_cards` paints the stack into a label map, so each card keeps exactly the pixels no
later layer covers. A card is *readable*, and labelled, when one of its corner indices is nearly
fully visible (a back: when enough of it shows) and it is large enough to read.

>>> import numpy as np
>>> full = np.ones((10, 10), bool)
>>> under = Layer(origin=(0, 0), mask=full, class_id=7, area=100.0)
>>> over = Layer(origin=(0, 4), mask=full[:6], class_id=-1, area=60.0)   # covers rows 4..9
>>> [(c.class_id, c.box, c.visible) for c in visible_cards([under, over], (10, 10), min_card_px=1)]
[(7, (0.0, 0.0, 10.0, 4.0), 0.4)]
>>> sorted(visible_cards([under, over], (10, 10), min_card_px=1)[0].rotated[2:4])
[4.0, 10.0]
>>> yolo_lines([visible_cards([under], (10, 10), min_card_px=1)[0]], (10, 20))
['7 0.250000 0.500000 0.500000 1.000000']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["NO_PLAY", "Layer", "VisibleCard", "hidden_lines", "visible_cards", "yolo_lines"]

OCCLUDER = -1
"""``class_id`` of a layer that hides cards but is not one (a hand, a cup)."""

NO_PLAY = -1
"""The play of a labelled card that belongs to none (a pile of earlier plays, a gathered stack),
in a scene's ``plays`` and a dataset's ``plays/`` files."""


@dataclass(frozen=True, slots=True, eq=False)
class Layer:
    """One pasted thing: where it lies on the canvas and what it is."""

    origin: tuple[int, int]
    """Canvas ``(x, y)`` of the mask's top-left pixel (the mask lies fully inside the canvas)."""
    mask: NDArray[np.bool_]
    """Pixels this layer covers, relative to ``origin``."""
    class_id: int = OCCLUDER
    """Detector class of a card (index into :data:`vision.classes.CLASS_NAMES`); -1: occluder."""
    area: float = 0.0
    """Area of the whole silhouette in canvas pixels, including any part outside the canvas."""
    homography: NDArray[np.float64] | None = None
    """3x3 map from card pixels to canvas pixels (cards only)."""
    index_regions: tuple[tuple[float, float, float, float], ...] = ()
    """Corner index rectangles in card pixels (empty for backs and occluders)."""


@dataclass(frozen=True, slots=True)
class VisibleCard:
    """What the camera sees of one card of the stack."""

    layer: int
    """Position of the card in the stack (0 = bottom)."""
    class_id: int
    """Detector class of the card."""
    box: tuple[float, float, float, float]
    """``x1, y1, x2, y2`` around the visible pixels (``x2``/``y2`` exclusive); zeros if none."""
    visible: float
    """Fraction of the card's area that is visible."""
    index_visible: float
    """Visible fraction of the best-visible corner index (1.0 for backs)."""
    readable: bool
    """Whether the card gets a label."""
    rotated: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    """``cx, cy, w, h, angle`` (degrees), OpenCV's ``RotatedRect``: the smallest rectangle at
    any angle around the visible pixels, which in a fan overlaps its neighbours less than the
    upright :attr:`box` does (``bench/bench_nms_bound.py --rotated``); zeros if none."""


def visible_cards(stack: Sequence[Layer], shape: tuple[int, int], *, min_index_visible: float = 0.8,
                  min_back_visible: float = 0.3, min_card_px: float = 24.0) -> list[VisibleCard]:
    """Visible region of every card in a stack of layers, bottom first.

    Args:
        stack: cards and occluders in paint order (later layers cover earlier ones).
        shape: canvas ``(height, width)``.
        min_index_visible: a face is readable when this fraction of one corner index shows.
        min_back_visible: a back is readable when this fraction of it shows.
        min_card_px: cards whose longer side is below this many pixels are never readable.

    Returns:
        One :class:`VisibleCard` per card layer (occluders are skipped), in stack order.
    """
    labels = np.full(shape, -1, np.int32)
    for k, layer in enumerate(stack):
        x, y = layer.origin
        h, w = layer.mask.shape
        labels[y:y + h, x:x + w][layer.mask] = k
    cards = []
    for k, layer in enumerate(stack):
        if layer.class_id == OCCLUDER:
            continue
        x, y = layer.origin
        h, w = layer.mask.shape
        mine = labels[y:y + h, x:x + w] == k
        ys, xs = np.nonzero(mine)
        visible = len(ys) / layer.area if layer.area > 0 else 0.0
        if len(ys) == 0:
            cards.append(VisibleCard(k, layer.class_id, (0.0, 0.0, 0.0, 0.0), 0.0, 0.0, False))
            continue
        box = (float(x + xs.min()), float(y + ys.min()),
               float(x + xs.max() + 1), float(y + ys.max() + 1))
        if layer.index_regions and layer.homography is not None:
            index_visible = max(_region_visible(mine, layer, region)
                                for region in layer.index_regions)
            readable = index_visible >= min_index_visible
        else:
            index_visible = 1.0
            readable = visible >= min_back_visible
        side = float(np.sqrt(layer.area * 1.4))  # longer side of a 63 x 88 card of this area
        cards.append(VisibleCard(k, layer.class_id, box, round(visible, 4), round(index_visible, 4),
                                 readable and side >= min_card_px, _rotated_rect(mine, (x, y))))
    return cards


def _rotated_rect(mine: NDArray[np.bool_],
                  origin: tuple[int, int]) -> tuple[float, float, float, float, float]:
    """The smallest rotated rectangle around a mask's pixels (their outer edges), in canvas
    coordinates. Each row's first and last pixel span the same convex hull as all of them."""
    rows = np.flatnonzero(mine.any(axis=1))
    first = mine[rows].argmax(axis=1)
    last = mine.shape[1] - 1 - mine[rows, ::-1].argmax(axis=1)
    corners = np.array([(0, 0), (1, 0), (0, 1), (1, 1)], np.float32)  # a pixel's four corners
    ends = np.concatenate([np.column_stack([first, rows]), np.column_stack([last, rows])])
    points = (ends[:, None, :].astype(np.float32) + corners).reshape(-1, 2) \
        + np.asarray(origin, np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    return float(cx), float(cy), float(w), float(h), float(angle)


def _region_visible(mine: NDArray[np.bool_], layer: Layer,
                    region: tuple[float, float, float, float]) -> float:
    """Visible fraction of one card-space rectangle, measured against its full projected area."""
    assert layer.homography is not None
    x0, y0, x1, y1 = region
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    projected = cv2.perspectiveTransform(corners, layer.homography)[0]
    projected -= layer.origin
    area = abs(cv2.contourArea(projected.astype(np.float32)))
    if area < 1.0:
        return 0.0
    poly = np.zeros(mine.shape, np.uint8)
    cv2.fillPoly(poly, [np.round(projected * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    inside = int(np.count_nonzero(poly))
    return min(1.0, int(np.count_nonzero(poly.view(bool) & mine)) / max(area, inside, 1))


def yolo_lines(cards: Sequence[VisibleCard], shape: tuple[int, int]) -> list[str]:
    """YOLO label lines (``class cx cy w h``, normalised) of the readable cards."""
    return [_yolo_line(card, shape) for card in cards if card.readable]


def hidden_lines(cards: Sequence[VisibleCard], shape: tuple[int, int]) -> list[str]:
    """YOLO lines of the cards in view but too hidden to be labelled: a detector that finds
    one of them with its rank has not found something that is not there."""
    return [_yolo_line(card, shape) for card in cards if not card.readable and card.visible > 0]


def _yolo_line(card: VisibleCard, shape: tuple[int, int]) -> str:
    height, width = shape
    x1, y1, x2, y2 = card.box
    return (f"{card.class_id} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
            f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
