"""``Detections`` helpers: box geometry and second readings of one card."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import class_id
from vision.detections import Detections, box_area, box_intersection, drop_nested

T, J = class_id("T"), class_id("J")


def test_box_geometry():
    boxes = np.array([[0, 0, 10, 20], [5, 10, 15, 30], [12, 0, 11, 5]], np.float32)
    assert box_area(boxes).tolist() == [200, 200, 0]
    assert box_intersection(boxes[:1], boxes).tolist() == [[200, 50, 0]]


def _found(*rows: tuple[float, float, float, float, float, int]) -> Detections:
    """Detections from ``(x1, y1, x2, y2, score, class)`` rows."""
    table = np.array(rows, np.float32)
    return Detections(xyxy=table[:, :4], confidence=table[:, 4], class_id=table[:, 5].astype(int))


@pytest.mark.parametrize(
    ("rows", "kept"),
    [
        # a ten found whole and, unsure, again as its lower part: the part goes
        ([(0, 0, 40, 60, 0.9, T), (0, 20, 40, 60, 0.3, T)], [0]),
        # the part read surely: a real under-card, kept
        ([(0, 0, 40, 60, 0.9, T), (0, 20, 40, 60, 0.6, T)], [0, 1]),
        # an unsure card of another rank inside it: kept (the rules may still set it aside)
        ([(0, 0, 40, 60, 0.9, T), (0, 20, 40, 60, 0.3, J)], [0, 1]),
        # half of it outside: a card of its own, kept
        ([(0, 0, 40, 60, 0.9, T), (20, 20, 60, 60, 0.3, T)], [0, 1]),
        # the surer box is the one inside: the unsure outer box is not inside anything
        ([(0, 20, 40, 60, 0.9, T), (0, 0, 40, 60, 0.3, T)], [0, 1]),
    ],
    ids=["second-reading", "sure-part", "other-rank", "overhanging", "outer-unsure"],
)
def test_drop_nested_drops_only_unsure_second_readings_of_one_card(rows, kept):
    found = _found(*rows)
    assert np.array_equal(drop_nested(found, inside=0.7, below=0.4).xyxy, found.xyxy[kept])


def test_drop_nested_keeps_empty_detections_empty():
    assert len(drop_nested(Detections.empty(), inside=0.7, below=0.4)) == 0
