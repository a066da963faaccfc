"""``Detections``: the one currency between the detector, the tracker and the annotator.

Parallel arrays, after supervision's ``sv.Detections`` (kept small here so the run-time path
needs no scipy or matplotlib).

>>> import numpy as np
>>> d = Detections(xyxy=np.array([[0, 0, 10, 20], [5, 5, 9, 9]], dtype=np.float32),
...                confidence=np.array([0.9, 0.3], dtype=np.float32),
...                class_id=np.array([7, 7]))
>>> len(d), len(d[d.confidence > 0.5])
(2, 1)
>>> d.names()
['T', 'T']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.classes import CLASS_NAMES

__all__ = ["Detections", "FanStep", "box_area", "box_inside", "box_intersection", "box_iou",
           "found_twice", "in_fan_step", "second_readings", "shared_corners"]


def box_area(xyxy: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
    """Areas of ``(n, 4)`` boxes (0 for an empty box)."""
    area: NDArray[np.floating[Any]] = (np.clip(xyxy[:, 2] - xyxy[:, 0], 0, None)
                                       * np.clip(xyxy[:, 3] - xyxy[:, 1], 0, None))
    return area


def box_intersection(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]]
                     ) -> NDArray[np.floating[Any]]:
    """Pairwise intersection areas of two sets of boxes, ``(len(a), len(b))``.

    >>> a, b = np.array([[0, 0, 10, 10]]), np.array([[5, 5, 20, 20], [30, 0, 40, 9]])
    >>> box_intersection(a, b).tolist()
    [[25, 0]]
    """
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    area: NDArray[np.floating[Any]] = np.clip(w, 0, None) * np.clip(h, 0, None)
    return area


def box_inside(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]]
               ) -> NDArray[np.floating[Any]]:
    """Share of each box of ``a`` lying inside each box of ``b``, ``(len(a), len(b))``.

    >>> box_inside(np.array([[0, 0, 10, 10]]), np.array([[5, 0, 20, 20], [0, 0, 40, 40]])).tolist()
    [[0.5, 1.0]]
    """
    share: NDArray[np.floating[Any]] = box_intersection(a, b) / np.maximum(box_area(a),
                                                                           1e-9)[:, None]
    return share


def box_iou(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
    """IoU of every box in ``a`` ``(n, 4)`` with every box in ``b`` ``(m, 4)``: ``(n, m)``.

    >>> box_iou(np.array([[0, 0, 2, 2]]), np.array([[1, 0, 3, 2], [5, 5, 6, 6]])).round(3).tolist()
    [[0.333, 0.0]]
    """
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    inter = box_intersection(a, b)
    union = box_area(a)[:, None] + box_area(b)[None, :] - inter
    iou: NDArray[np.float64] = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
    return iou


@dataclass(frozen=True, slots=True)
class Detections:
    """Boxes found in one image."""

    xyxy: NDArray[np.float32]
    """Boxes as ``(n, 4)`` pixel corners ``x1, y1, x2, y2``."""
    confidence: NDArray[np.float32]
    """Scores in ``[0, 1]``, shape ``(n,)``."""
    class_id: NDArray[np.int_]
    """Indices into :data:`vision.classes.CLASS_NAMES`, shape ``(n,)``."""
    data: dict[str, NDArray[Any]] = field(default_factory=dict)
    """Extra per-box arrays (e.g. ``"seat"``), each of length ``n``."""

    def __post_init__(self) -> None:
        n = len(self.xyxy)
        if self.xyxy.ndim != 2 or self.xyxy.shape[1] != 4:
            raise ValueError(f"xyxy must have shape (n, 4), got {self.xyxy.shape}")
        arrays: list[tuple[str, NDArray[Any]]] = [
            ("confidence", self.confidence), ("class_id", self.class_id), *self.data.items()]
        for name, array in arrays:
            if len(array) != n:
                raise ValueError(f"{name} must have length {n} to match xyxy, got {len(array)}")

    @classmethod
    def empty(cls) -> Detections:
        """No boxes."""
        return cls(xyxy=np.zeros((0, 4), np.float32), confidence=np.zeros(0, np.float32),
                   class_id=np.zeros(0, np.int_))

    @classmethod
    def merge(cls, parts: Iterable[Detections]) -> Detections:
        """Concatenate detections; extra ``data`` keys must be shared by all parts."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        keys = set(parts[0].data)
        if any(set(p.data) != keys for p in parts):
            raise ValueError("cannot merge Detections with different data keys")
        return cls(
            xyxy=np.concatenate([p.xyxy for p in parts]).astype(np.float32),
            confidence=np.concatenate([p.confidence for p in parts]).astype(np.float32),
            class_id=np.concatenate([p.class_id for p in parts]),
            data={k: np.concatenate([p.data[k] for p in parts]) for k in keys},
        )

    def __len__(self) -> int:
        return len(self.xyxy)

    def __iter__(self) -> Iterator[tuple[NDArray[np.float32], float, int]]:
        for box, conf, cid in zip(self.xyxy, self.confidence, self.class_id):
            yield box, float(conf), int(cid)

    def __getitem__(self, index: Any) -> Detections:
        """Select boxes by a boolean mask, an index array or a slice."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return Detections(
            xyxy=self.xyxy[index], confidence=self.confidence[index],
            class_id=self.class_id[index], data={k: v[index] for k, v in self.data.items()},
        )

    @property
    def center(self) -> NDArray[np.float32]:
        """Box centres, shape ``(n, 2)``."""
        return np.stack([(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2,
                         (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2], axis=1)

    def names(self) -> list[str]:
        """Class names of the boxes, in order."""
        return [CLASS_NAMES[int(c)] for c in self.class_id]

    def with_data(self, **arrays: NDArray[Any]) -> Detections:
        """The same boxes carrying ``arrays`` as well (replacing entries of the same name).

        >>> found = Detections.empty().with_data(seat=np.zeros(0, np.int_))
        >>> sorted(found.data)
        ['seat']
        """
        return replace(self, data={**self.data, **arrays})


def _longer_sides(xyxy: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
    """Each of ``(n, 4)`` boxes' longer side: a card's length, however it lies."""
    longer: NDArray[np.floating[Any]] = np.maximum(xyxy[:, 2] - xyxy[:, 0],
                                                   xyxy[:, 3] - xyxy[:, 1])
    return longer


def shared_corners(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]], *, tolerance: float
                   ) -> NDArray[np.bool_]:
    """Which boxes of ``a`` share a corner with which boxes of ``b``, ``(len(a), len(b))``: both
    coordinates of one corner within ``tolerance`` × the longer side of the larger box.

    >>> shared_corners(np.array([[0, 0, 10, 40]]), np.array([[1, 0, 30, 41], [0, 5, 10, 40]]),
    ...                tolerance=0.05).tolist()
    [[True, True]]
    >>> shared_corners(np.array([[0, 0, 10, 40]]), np.array([[5, 5, 30, 30]]),
    ...                tolerance=0.05).tolist()
    [[False]]
    """
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    slack = tolerance * np.maximum(_longer_sides(a)[:, None], _longer_sides(b)[None, :])
    near = np.abs(a[:, None, :] - b[None, :, :]) <= slack[:, :, None]  # per coordinate
    left, top, right, bottom = (near[..., k] for k in range(4))
    return np.asarray((left & top) | (right & top) | (right & bottom) | (left & bottom))


@dataclass(frozen=True, slots=True)
class FanStep:
    """How far apart the boxes of a fan's next cards lie (:func:`in_fan_step`), as shares of
    a card's length: a step from ``least`` to ``most``, the next step matching it to within
    ``spread`` of it."""

    least: float = 0.08
    most: float = 0.3
    spread: float = 0.4


def in_fan_step(found: Detections, pairs: NDArray[np.int_], fan: FanStep) -> NDArray[np.bool_]:
    """Of each pair ``(i, j)`` of ``pairs`` ``(m, 2)``, whether box ``i`` of ``found`` lies one
    step of a fan past box ``j``: a corner of ``i`` lies a step (``fan.least`` to ``fan.most``
    × its longer side) from that corner of ``j``, at least ``fan.least`` × its longer side
    from that corner of every other box, and a box surer than ``i`` (other than ``j``) has
    that corner one more such step on, give or take ``fan.spread`` × the step; unless, on a
    corner so stepped, the fan's next step is twice as long: a surer box of ``i``'s rank
    three steps on (or back), give or take twice that, and no box two steps on (or back).

    A fan's cards lie evenly spaced, so the corners on the side they spread towards step
    evenly from card to card, while a part of a card found again lies where the card's
    detail does, not a step on from it. A corner that another box shares is a card found more
    than once, which the steps cannot tell apart. A box half-way between two cards of a fan
    steps evenly too, but half the fan's step.

    >>> strips = Detections(xyxy=np.array([[0, 0, 60, 90], [12, 0, 72, 90], [25, 0, 85, 90]],
    ...                                   np.float32),
    ...                     confidence=np.array([0.9, 0.3, 0.8]), class_id=np.array([7, 7, 7]))
    >>> in_fan_step(strips, np.array([[1, 0], [1, 2], [2, 1]]), FanStep()).tolist()
    [True, True, False]
    """
    boxes = np.asarray(found.xyxy, np.float64)
    pairs = np.asarray(pairs, np.int_).reshape(-1, 2)
    i, j = pairs[:, 0], pairs[:, 1]
    # (n, 4, 2): each box's top-left, top-right, bottom-right and bottom-left corner
    corners = boxes[:, [[0, 1], [2, 1], [2, 3], [0, 3]]]
    step = corners[i] - corners[j]                                          # (m, 4, 2)
    longer = _longer_sides(boxes[i])[:, None]
    size = np.linalg.norm(step, axis=-1)                                    # (m, 4)
    # (m, 4, n, 2): each box's corner from box i's
    offset = corners.transpose(1, 0, 2)[None] - corners[i][:, :, None]

    def steps_on(steps: int, spread: float) -> NDArray[np.bool_]:
        """(m, 4, n): whether each box has the corner ``steps`` steps on from box i's."""
        miss = np.linalg.norm(offset - steps * step[:, :, None], axis=-1)
        return np.asarray(miss <= spread * size[:, :, None])

    box = np.arange(len(boxes))[None, :]
    others = box != i[:, None]                                               # (m, n)
    beside = (others & (box != j[:, None]))[:, None, :]                      # (m, 1, n)
    scores = np.asarray(found.confidence)
    surer = scores[None, :] > scores[i][:, None]
    onward = (steps_on(1, fan.spread) & surer[:, None, :] & beside).any(axis=2)
    apart = np.linalg.norm(offset, axis=-1)
    alone = ~((apart < fan.least * longer[:, :, None]) & others[:, None, :]).any(axis=2)
    stepped = (size >= fan.least * longer) & (size <= fan.most * longer) & onward
    if not (stepped & alone).any():
        return np.zeros(len(pairs), bool)
    # Half-way between two cards of a fan: the fan's own step, beside the pair, is twice as long.
    surer_alike = ((surer & (found.class_id[None, :] == found.class_id[i][:, None]))[:, None, :]
                   & beside)
    halved = np.zeros_like(stepped)
    for way in (1, -1):
        halved |= ((steps_on(3 * way, 2 * fan.spread) & surer_alike).any(axis=2)
                   & ~(steps_on(2 * way, fan.spread) & beside).any(axis=2))
    return np.asarray((stepped & alone).any(axis=1) & ~(stepped & halved).any(axis=1))


def second_readings(found: Detections, *, inside: float, below: float, corner: float = 0.0,
                    fan: FanStep | None = None) -> NDArray[np.bool_]:
    """Which boxes are second readings of cards already found: boxes with a surer box of their
    class (itself no second reading) that they lie at least ``inside`` within, if scored below
    ``below``, or that they share a corner with, whatever their score (:func:`shared_corners`
    with tolerance ``corner``; 0: never). With ``fan``, a box lying one step of a fan past the
    surer box it lies within (:func:`in_fan_step`) is a card of its own.

    A tight fan can make the detector find a card twice: once whole and once a part of it,
    or once as its visible strip and once as a wider box reaching over the card beside it;
    the detector's own suppression keeps both, as their IoU is small. Both boxes start at the
    card's own corner (where its index is), while the next card of a fan starts a step further
    on. A real under-card whose strip lies inside the box of the card above it looks the same as
    a part, unless it is read surely, differs in rank, or lies a step on from that card with
    the fan going on a step further.

    >>> boxes = np.array([[0, 0, 40, 60], [5, 5, 35, 50], [10, 10, 30, 40]], np.float32)
    >>> found = Detections(xyxy=boxes, confidence=np.array([0.9, 0.3, 0.8], np.float32),
    ...                    class_id=np.array([7, 7, 7]))
    >>> second_readings(found, inside=0.7, below=0.4).tolist()   # the box of 0.3
    [False, True, False]
    """
    second = np.zeros(len(found), bool)
    if not len(found):
        return second
    same_class = found.class_id[:, None] == found.class_id[None, :]
    nested = ((box_inside(found.xyxy, found.xyxy) >= inside) & (found.confidence < below)[:, None]
              & same_class)
    if fan is not None and nested.any():
        pairs = np.argwhere(nested)
        nested[tuple(pairs.T)] = ~in_fan_step(found, pairs, fan)
    if corner > 0:
        nested |= shared_corners(found.xyxy, found.xyxy, tolerance=corner) & same_class
    # Surest first, and only by boxes that are cards themselves: a wide second reading must
    # not take the card it reaches over with it.
    order = np.argsort(-found.confidence, kind="stable")
    for place, i in enumerate(order):
        surer = order[:place]
        second[i] = bool((nested[i, surer] & ~second[surer]).any())
    return second


def found_twice(found: Detections, second: NDArray[np.bool_], *, corner: float
                ) -> NDArray[np.bool_]:
    """Which of the second readings ``second`` (:func:`second_readings`) share a corner with a
    surer box of their class that is no second reading (:func:`shared_corners` with tolerance
    ``corner``; 0: none): a card found twice from its own index corner, which the next card of
    a fan never shares. A second reading nested in a surer box without sharing its corner may
    be that card's neighbour.

    >>> boxes = np.array([[0, 0, 40, 60], [0, 0, 20, 60], [5, 5, 35, 50]], np.float32)
    >>> found = Detections(xyxy=boxes, confidence=np.array([0.9, 0.3, 0.3], np.float32),
    ...                    class_id=np.array([7, 7, 7]))
    >>> second = second_readings(found, inside=0.7, below=0.4, corner=0.05)
    >>> second.tolist(), found_twice(found, second, corner=0.05).tolist()
    ([False, True, True], [False, True, False])
    """
    if not len(found) or corner <= 0:
        return np.zeros(len(found), bool)
    twins = (shared_corners(found.xyxy, found.xyxy, tolerance=corner)
             & (found.class_id[:, None] == found.class_id[None, :])
             & (found.confidence[None, :] > found.confidence[:, None]) & ~second[None, :])
    return np.asarray(second & twins.any(axis=1))
