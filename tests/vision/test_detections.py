"""``Detections`` helpers: box geometry and second readings of one card."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import class_id
from vision.detections import (
    Detections,
    FanStep,
    box_area,
    box_intersection,
    in_fan_step,
    second_readings,
)

T, J, Q, ACE, TWO, SEVEN = (class_id(rank) for rank in ("T", "J", "Q", "A", "2", "7"))
FAN = FanStep(least=0.08, most=0.3, spread=0.4)


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


@pytest.mark.parametrize(
    ("rows", "second", "unfanned"),
    [
        # a tight fan, read from a zone enlarged (seed 631's SJ 22QQQQQ): the second 2, read
        # unsure, lies 0.8 inside the first 2's box, a step on from it, and the queen lies a
        # step further: a card
        ([(185, 229, 235, 315, 0.50, J), (197, 225, 250, 311, 0.52, TWO),
          (208, 225, 257, 310, 0.29, TWO), (222, 222, 271, 307, 0.60, Q)],
         [False, False, False, False], [False, False, True, False]),
        # the same strip with no card a step further on: the fan does not go on past it
        ([(185, 229, 235, 315, 0.50, J), (197, 225, 250, 311, 0.52, TWO),
          (208, 225, 257, 310, 0.29, TWO)], [False, False, True], [False, False, True]),
        # a part of the first 2 found again, nested but where its face is, not a step on
        ([(197, 225, 250, 311, 0.52, TWO), (205, 250, 245, 300, 0.29, TWO),
          (222, 222, 271, 307, 0.60, Q)], [False, True, False], [False, True, False]),
        # a step too short to be a fan's (under 0.08 of the card): the card found again
        ([(197, 225, 250, 311, 0.52, TWO), (200, 225, 253, 311, 0.29, TWO),
          (203, 225, 256, 311, 0.60, Q)], [False, True, False], [False, True, False]),
        # seed 591's 7777, a tight fan read at the camera's scale: the box at x 206 lies within
        # the 0.29 box beside it; its right corners lie 36 px (0.38 of the card) from that
        # box's, with a 0.24 box's one such step further, too long a step for a fan whose
        # boxes nest: still a second reading
        ([(176, 215, 197, 312, 0.24, SEVEN), (179, 217, 242, 311, 0.11, SEVEN),
          (188, 218, 213, 313, 0.29, SEVEN), (206, 218, 232, 313, 0.20, SEVEN),
          (212, 216, 268, 313, 0.29, SEVEN), (211, 217, 244, 313, 0.13, SEVEN),
          (229, 218, 292, 315, 0.88, SEVEN)],
         [False, True, False, True, False, True, False],
         [False, True, False, True, False, True, False]),
        # seed 619's 22AAA enlarged 1.3 times: a box at x 211 lies 13 px on from the first
        # ace's, the second ace 16 px further, but the third ace lies 31 px past that, with no
        # box between: the fan steps 30 px, and the box lies half a step between two aces
        ([(176, 209, 225, 300, 0.62, TWO), (176, 210, 207, 296, 0.31, TWO),
          (183, 210, 240, 303, 0.45, TWO), (198, 213, 257, 305, 0.54, ACE),
          (211, 214, 281, 306, 0.31, ACE), (227, 214, 297, 304, 0.51, ACE),
          (258, 219, 322, 308, 0.91, ACE)],
         [False, True, False, False, True, False, False],
         [False, True, False, False, True, False, False]),
    ],
    ids=["fan-goes-on", "fan-ends", "part-of-the-card", "jitter", "step-too-long",
         "half-a-step"],
)
def test_a_nested_box_a_step_on_in_a_fan_going_on_is_a_card(rows, second, unfanned):
    found = _found(*rows)
    assert second_readings(found, inside=0.7, below=0.35, corner=0.05, fan=FAN).tolist() == second
    assert second_readings(found, inside=0.7, below=0.35, corner=0.05).tolist() == unfanned


def _strips(*lefts: float, confidence: list[float], ranks: list[int] | None = None
            ) -> Detections:
    """Upright boxes, 60 × 90 px, their left sides at ``lefts``, of ``ranks`` (default: 7s)."""
    return _found(*((x, 0, x + 60, 90, score, rank) for x, score, rank
                     in zip(lefts, confidence, ranks or [SEVEN] * len(lefts))))


def test_a_fan_step_needs_a_surer_box_further_on_and_a_corner_of_its_own():
    # three strips 12 px apart, the middle one unsure: one step past the first, the third a
    # step further, and one step back from the third with the first a step further back
    strips = _strips(0, 12, 25, confidence=[0.9, 0.3, 0.8])
    pairs = np.array([[1, 0], [1, 2], [0, 1], [2, 1]])
    assert in_fan_step(strips, pairs, FAN).tolist() == [
        True, True, False, False]   # no box surer than the sure strips lies further on
    # a fourth box 3 px from the middle strip's corners: one card found twice
    crowded = _strips(0, 12, 25, 15, confidence=[0.9, 0.3, 0.8, 0.2])
    assert not in_fan_step(crowded, pairs, FAN).any()
    # the third strip further off: the steps differ by more than 0.4 of a step
    assert not in_fan_step(_strips(0, 12, 35, confidence=[0.9, 0.3, 0.8]), pairs, FAN).any()
    # strips 30 px apart, a third of the card: too far apart to nest in a fan
    loose = _strips(0, 30, 60, confidence=[0.9, 0.3, 0.8])
    assert in_fan_step(loose, pairs[:1], FAN).tolist() == [False]
    assert in_fan_step(loose, pairs[:1], FanStep(most=0.4)).tolist() == [True]


def test_a_box_half_way_between_two_cards_of_a_fan_is_no_step_of_it():
    # a fan stepping 26 px, and an unsure box half-way between its first two cards
    halved = _strips(0, 13, 26, 52, confidence=[0.9, 0.3, 0.8, 0.85])
    pairs = np.array([[1, 0], [1, 2]])
    assert in_fan_step(halved, pairs, FAN).tolist() == [False, False]
    # the fan's next card a short step on after all: a strip, the fan stepping evenly
    assert in_fan_step(_strips(0, 13, 26, 39, 52, confidence=[0.9, 0.3, 0.8, 0.85, 0.7]),
                       pairs, FAN).tolist() == [True, True]
    # the card two half steps on of another rank: no fan of the box's rank steps twice as far
    other = _strips(0, 13, 26, 52, confidence=[0.9, 0.3, 0.8, 0.85],
                    ranks=[SEVEN, SEVEN, SEVEN, Q])
    assert in_fan_step(other, pairs, FAN).tolist() == [True, True]
