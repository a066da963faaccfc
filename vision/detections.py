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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.classes import CLASS_NAMES

__all__ = ["Detections", "box_area", "box_inside", "box_intersection", "box_iou",
           "second_readings"]


def box_area(xyxy: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
    """Areas of ``(n, 4)`` boxes (0 for an empty box)."""
    return np.clip(xyxy[:, 2] - xyxy[:, 0], 0, None) * np.clip(xyxy[:, 3] - xyxy[:, 1], 0, None)


def box_intersection(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]]
                     ) -> NDArray[np.floating[Any]]:
    """Pairwise intersection areas of two sets of boxes, ``(len(a), len(b))``.

    >>> box_intersection(np.array([[0, 0, 10, 10]]), np.array([[5, 5, 20, 20], [30, 0, 40, 9]]))
    array([[25,  0]])
    """
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def box_inside(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]]
               ) -> NDArray[np.floating[Any]]:
    """Share of each box of ``a`` lying inside each box of ``b``, ``(len(a), len(b))``.

    >>> box_inside(np.array([[0, 0, 10, 10]]), np.array([[5, 0, 20, 20], [0, 0, 40, 40]]))
    array([[0.5, 1. ]])
    """
    return box_intersection(a, b) / np.maximum(box_area(a), 1e-9)[:, None]


def box_iou(a: NDArray[np.floating[Any]], b: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
    """IoU of every box in ``a`` ``(n, 4)`` with every box in ``b`` ``(m, 4)``: ``(n, m)``.

    >>> box_iou(np.array([[0, 0, 2, 2]]), np.array([[1, 0, 3, 2], [5, 5, 6, 6]])).round(3)
    array([[0.333, 0.   ]])
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
        for name, array in (("confidence", self.confidence), ("class_id", self.class_id),
                            *self.data.items()):
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


def second_readings(found: Detections, *, inside: float, below: float) -> NDArray[np.bool_]:
    """Which boxes are second readings of one card: scored below ``below`` and lying at least
    ``inside`` of their area within a surer box of the same class.

    A tight fan can make the detector find a card twice, once whole and once a part of it;
    the detector's own suppression keeps both, as their IoU is small. A real under-card whose
    visible strip lies inside the box of the card above it looks the same, unless it is read
    surely or differs in rank: telling the two apart takes more than geometry (the play tracker
    lets such a box count only when the rules need one more card).

    >>> boxes = np.array([[0, 0, 40, 60], [5, 5, 35, 50], [10, 10, 30, 40]], np.float32)
    >>> found = Detections(xyxy=boxes, confidence=np.array([0.9, 0.3, 0.8], np.float32),
    ...                    class_id=np.array([7, 7, 7]))
    >>> second_readings(found, inside=0.7, below=0.4).tolist()   # the box of 0.3
    [False, True, False]
    """
    if not len(found):
        return np.zeros(0, bool)
    share_inside = box_inside(found.xyxy, found.xyxy)
    surer_same_class = ((found.confidence[:, None] < found.confidence[None, :])
                        & (found.class_id[:, None] == found.class_id[None, :]))
    nested = ((share_inside >= inside) & surer_same_class).any(axis=1)
    return np.asarray(nested & (found.confidence < below))
