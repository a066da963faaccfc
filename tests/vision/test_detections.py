"""``Detections`` helpers: box geometry and second readings of one card."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import class_id
from vision.detections import Detections, box_area, box_intersection, second_readings

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
    ("rows", "second"),
    [
        # a ten found whole and, unsure, again as its lower part: the part is a second reading
        ([(0, 0, 40, 60, 0.9, T), (0, 20, 40, 60, 0.3, T)], [False, True]),
        # the part read surely: a real under-card
        ([(0, 0, 40, 60, 0.9, T), (0, 20, 40, 60, 0.6, T)], [False, False]),
        # an unsure card of another rank inside it: a card (the rules may still set it aside)
        ([(0, 0, 40, 60, 0.9, T), (0, 20, 40, 60, 0.3, J)], [False, False]),
        # half of it outside: a card of its own
        ([(0, 0, 40, 60, 0.9, T), (20, 20, 60, 60, 0.3, T)], [False, False]),
        # the surer box is the one inside: the unsure outer box is not inside anything
        ([(0, 20, 40, 60, 0.9, T), (0, 0, 40, 60, 0.3, T)], [False, False]),
    ],
    ids=["second-reading", "sure-part", "other-rank", "overhanging", "outer-unsure"],
)
def test_only_unsure_boxes_nested_in_a_surer_one_of_their_rank_are_second_readings(rows,
                                                                                   second):
    found = _found(*rows)
    assert second_readings(found, inside=0.7, below=0.4).tolist() == second


@pytest.mark.parametrize(
    ("rows", "second"),
    [
        # a ten's strip, and a box from the same corner reaching over the next ten: read
        # fairly surely, but a second reading
        ([(0, 0, 30, 110, 0.9, T), (2, 3, 75, 112, 0.6, T), (25, 0, 120, 110, 0.8, T)],
         [False, True, False]),
        # the same with a jack next, the wide box read as a jack: it shares the ten's corner,
        # not the jack's, so it counts (the rules may set it aside)
        ([(0, 0, 30, 110, 0.9, T), (2, 3, 75, 112, 0.6, J), (25, 0, 120, 110, 0.8, J)],
         [False, False, False]),
        # a fan of three, each a step (a fifth of a card) on: no shared corner
        ([(0, 0, 25, 110, 0.9, T), (22, 0, 47, 110, 0.5, T), (44, 0, 139, 110, 0.8, T)],
         [False, False, False]),
        # a wide box spanning two strips is a second reading of the first; the box sharing a
        # corner with the second strip only is a card (the second strip itself is nested)
        ([(0, 0, 56, 110, 0.47, T), (21, 0, 66, 110, 0.32, T), (16, 4, 90, 114, 0.29, T),
          (43, 7, 135, 123, 0.83, T)], [False, True, False, False]),
    ],
    ids=["strip-and-wide", "other-rank", "fan-steps", "no-chains"],
)
def test_boxes_sharing_a_corner_with_a_surer_card_of_their_rank_are_second_readings(rows,
                                                                                    second):
    found = _found(*rows)
    assert second_readings(found, inside=0.7, below=0.4, corner=0.05).tolist() == second


def test_no_detections_hold_no_second_readings():
    assert second_readings(Detections.empty(), inside=0.7, below=0.4).tolist() == []
