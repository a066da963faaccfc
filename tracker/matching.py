"""Which boxes of one picture are the cards of another, and which lie together.

Cards on a table do not move once laid, so no object tracker is needed: a card of the picture
is a card remembered from before when their boxes overlap enough (or the new box lies inside
the old one: the card is now partly covered), paired by an optimal assignment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from vision.detections import Detections, box_area, box_inside, box_intersection

__all__ = ["CardMatcher", "groups", "grown", "inside_alike", "match_boxes", "over_alike"]


def match_boxes(current: Detections, reference: Detections, *, iou: float,
                cover: float | None = None, same_place: float | None = None
                ) -> NDArray[np.int_]:
    """Pair each current box with at most one reference box of the same class.

    Pairs qualify by IoU ≥ ``iou`` or, when ``cover`` is given, by the current box lying at
    least that much inside the reference box (a remembered card now partly covered shows a
    smaller visible box inside its old one). With ``same_place``, boxes of any class whose
    IoU reaches it pair too: a card that has not moved is the same card even when the detector
    reads it differently this time. The pairing is an optimal assignment: as many pairs as
    can be, then same-class pairs, then the highest IoU (of a card's whole box and a piece of
    it inside its old box, the whole box is the card).

    Returns:
        For each current box, the index of its reference box, or −1.

    >>> d = lambda *boxes: Detections(xyxy=np.array(boxes, np.float32),
    ...     confidence=np.ones(len(boxes), np.float32), class_id=np.zeros(len(boxes), np.int_))
    >>> match_boxes(d([0, 0, 10, 10], [50, 50, 60, 60]), d([1, 0, 11, 10]), iou=0.5).tolist()
    [0, -1]
    >>> match_boxes(d([0, 0, 4, 10]), d([0, 0, 10, 10]), iou=0.5, cover=0.8).tolist()
    [0]
    >>> other = Detections(xyxy=np.array([[0, 0, 10, 10]], np.float32),
    ...                    confidence=np.ones(1, np.float32), class_id=np.array([5]))
    >>> match_boxes(other, d([0, 0, 10, 10]), iou=0.5).tolist()
    [-1]
    >>> match_boxes(other, d([0, 0, 10, 10]), iou=0.5, same_place=0.85).tolist()
    [0]
    """
    result = np.full(len(current), -1, np.int_)
    if not len(current) or not len(reference):
        return result
    inter = box_intersection(current.xyxy, reference.xyxy)
    area_c, area_r = box_area(current.xyxy), box_area(reference.xyxy)
    union = area_c[:, None] + area_r[None, :] - inter
    overlap = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    ok = overlap >= iou
    if cover is not None:
        ok |= inter / np.maximum(area_c[:, None], 1e-9) >= cover
    same_class = current.class_id[:, None] == reference.class_id[None, :]
    ok &= same_class
    if same_place is not None:
        ok |= overlap >= same_place
    # As many pairs as can be; of those, same-class pairs first; then the likest boxes.
    weight = np.where(ok, 10 + 2 * same_class + overlap, 0.0)
    rows, cols = linear_sum_assignment(weight, maximize=True)
    paired = ok[rows, cols]
    result[rows[paired]] = cols[paired]
    return result


@dataclass(frozen=True, slots=True)
class CardMatcher:
    """:func:`match_boxes` at one set of thresholds: when a card is one seen before.

    >>> d = lambda *boxes: Detections(xyxy=np.array(boxes, np.float32),
    ...     confidence=np.ones(len(boxes), np.float32), class_id=np.zeros(len(boxes), np.int_))
    >>> matcher = CardMatcher(iou=0.5, cover=0.8, same_place=0.85)
    >>> len(matcher.not_among(d([0, 0, 10, 10], [50, 50, 60, 60]), d([1, 0, 11, 10])))
    1
    """

    iou: float
    """IoU from which two boxes of one rank are one card."""
    cover: float
    """Share of a box inside an earlier box of its rank from which it is that card, now
    partly covered."""
    same_place: float
    """IoU from which two boxes are one card whatever ranks they were read as."""

    def match(self, current: Detections, reference: Detections) -> NDArray[np.int_]:
        """For each of ``current``, the index of the card of ``reference`` it is, or −1."""
        return match_boxes(current, reference, iou=self.iou, cover=self.cover,
                           same_place=self.same_place)

    def not_among(self, cards: Detections, others: Detections) -> Detections:
        """``cards`` less those that are cards of ``others``."""
        return cards[self.match(cards, others) < 0]


def inside_alike(boxes: Detections, others: Detections, share: float) -> NDArray[np.bool_]:
    """Which ``boxes`` lie at least ``share`` inside one of ``others`` of their rank."""
    inside = box_inside(boxes.xyxy, others.xyxy) >= share
    return np.asarray((inside & (boxes.class_id[:, None] == others.class_id[None, :])).any(1))


def over_alike(boxes: Detections, share: float, area: float) -> NDArray[np.bool_]:
    """Which ``boxes`` hold another of them of their rank at least ``share`` inside, and
    have at least ``area`` times its area.

    >>> d = lambda *boxes: Detections(xyxy=np.array(boxes, np.float32),
    ...     confidence=np.ones(len(boxes), np.float32), class_id=np.zeros(len(boxes), np.int_))
    >>> over_alike(d([0, 0, 10, 14], [-5, -2, 13, 20], [5, 0, 15, 14]), 0.8, 2.2).tolist()
    [False, True, False]
    """
    inside = box_inside(boxes.xyxy, boxes.xyxy) >= share    # [i, j]: box i lies inside box j
    area_of = box_area(boxes.xyxy)
    larger = area_of[None, :] >= area * area_of[:, None]
    alike = boxes.class_id[:, None] == boxes.class_id[None, :]
    return np.asarray((inside & larger & alike).any(0))


def grown(xyxy: NDArray[np.float32], gap: float) -> NDArray[np.float32]:
    """Boxes grown by ``gap`` / 2 × their short side on every side: grown boxes that touch
    lie together."""
    side = np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])
    return (xyxy + np.stack([-side, -side, side, side], 1) * gap / 2).astype(np.float32)


def groups(xyxy: NDArray[np.float32], gap: float) -> list[list[int]]:
    """Boxes lying together (overlapping, or closer than ``gap`` × their short side)."""
    n = len(xyxy)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    wide = grown(xyxy, gap)
    touching = box_intersection(wide, wide) > 0
    for i in range(n):
        for j in range(i + 1, n):
            if touching[i, j]:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())
