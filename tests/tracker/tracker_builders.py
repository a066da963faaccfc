"""Builders for the tracker tests: a square table seen from above and hand-made detections."""

from __future__ import annotations

import numpy as np

from tracker.table import TableLayout
from vision.classes import CLASS_NAMES
from vision.detections import Detections

PLAY_AREA = [(340, 60), (940, 60), (940, 660), (340, 660)]
"""A 600-pixel square play area in the middle of a 1280×720 image."""

Card = tuple[str, float, float]
"""(rank, x, y): a 40×60 card box centred at (x, y)."""


def cards(*items: Card | tuple[str, float, float, float]) -> Detections:
    """Detections of upright 40×60 cards: ``(rank, x, y[, conf])``."""
    if not items:
        return Detections.empty()
    xyxy = np.array([[x - 20, y - 30, x + 20, y + 30] for _, x, y, *_ in items], np.float32)
    conf = np.array([item[3] if len(item) > 3 else 0.9 for item in items], np.float32)
    return Detections(xyxy=xyxy, confidence=conf,
                      class_id=np.array([CLASS_NAMES.index(item[0]) for item in items]))


def fan(ranks: str, x: float, y: float, step: float = 14.0) -> list[Card]:
    """A fan of cards left to right starting at (x, y), e.g. ``fan("555", 600, 560)``."""
    tokens = ranks.split() if " " in ranks else list(ranks)
    return [(rank, x + i * step, y) for i, rank in enumerate(tokens)]


def hold(segmenter, detections: Detections, start: float, seconds: float, *, fps: float = 10,
         moving: bool = False, closer=None) -> list[dict]:
    """Feed the same detections for ``seconds`` from ``start``; return the events."""
    events: list[dict] = []
    for i in range(round(seconds * fps)):
        events += segmenter.update(detections, start + i / fps, moving=moving, closer=closer)
    return events


def square_layout() -> TableLayout:
    """The default six seats over :data:`PLAY_AREA` in a 1280×720 image."""
    return TableLayout.default(PLAY_AREA, (1280, 720))
