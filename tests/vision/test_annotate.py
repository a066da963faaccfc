"""Drawing detections and seat zones: on a copy, where the boxes are."""

from __future__ import annotations

import numpy as np
import pytest

from vision.annotate import CLASS_COLORS, SEAT_COLORS, annotate, label, side_by_side
from vision.classes import class_id
from vision.detections import Detections


def boxes(*rows: tuple[float, float, float, float, str, float], **data: list[int]) -> Detections:
    return Detections(
        xyxy=np.array([r[:4] for r in rows], np.float32).reshape(-1, 4),
        confidence=np.array([r[5] for r in rows], np.float32),
        class_id=np.array([class_id(r[4]) for r in rows], np.int_),
        data={k: np.array(v) for k, v in data.items()},
    )


def test_annotate_returns_a_new_image_and_leaves_the_input_alone():
    frame = np.full((200, 300, 3), 40, np.uint8)
    before = frame.copy()
    drawn = annotate(frame, boxes((50, 60, 150, 180, "T", 0.9)))
    assert drawn is not frame
    assert np.array_equal(frame, before)
    assert drawn.shape == frame.shape and drawn.dtype == np.uint8


def test_box_outline_is_drawn_in_the_class_colour_where_the_box_is():
    frame = np.zeros((400, 400, 3), np.uint8)
    drawn = annotate(frame, boxes((100, 150, 300, 350, "A", 0.8)))
    color = CLASS_COLORS[class_id("A")]
    assert tuple(drawn[250, 100]) == color          # left edge, away from the label
    assert tuple(drawn[350, 200]) == color          # bottom edge
    assert not drawn[250, 200].any()                # inside stays untouched
    assert not drawn[20:100, 320:].any()            # far away stays untouched


def test_label_text_is_drawn_above_the_box():
    frame = np.zeros((400, 400, 3), np.uint8)
    drawn = annotate(frame, boxes((100, 150, 300, 350, "A", 0.8)))
    assert drawn[120:150, 100:160].any()            # the "A 0.80" tag


def test_label_near_the_top_edge_moves_inside():
    frame = np.zeros((200, 200, 3), np.uint8)
    drawn = annotate(frame, boxes((20, 0, 120, 100, "K", 0.8)))
    assert drawn[2:20, 25:60].any()


@pytest.mark.parametrize(("cid", "conf", "text"), [(7, 0.934, "T 0.93"), (14, 1.0, "BJ 1.00"),
                                                    (15, 0.5, "back 0.50")])
def test_label(cid, conf, text):
    assert label(cid, conf) == text


def test_seat_zones_are_outlined_in_the_seat_colour():
    frame = np.zeros((300, 300, 3), np.uint8)
    zones = [np.array([[10, 10], [140, 10], [140, 140], [10, 140]]),
             np.array([[160, 160], [290, 160], [290, 290], [160, 290]])]
    drawn = annotate(frame, Detections.empty(), zones=zones)
    assert tuple(drawn[75, 10]) == SEAT_COLORS[0]
    assert tuple(drawn[225, 290]) == SEAT_COLORS[1]
    assert drawn[20, 120].any()                      # translucent fill inside the zone
    assert not drawn[20, 280].any()                  # outside every zone


def test_seat_numbers_go_into_the_labels():
    frame = np.zeros((300, 300, 3), np.uint8)
    with_seat = annotate(frame, boxes((100, 100, 200, 200, "5", 0.9), seat=[3]))
    without = annotate(frame, boxes((100, 100, 200, 200, "5", 0.9)))
    assert with_seat[70:100, 100:200].sum() > without[70:100, 100:200].sum()   # "5 0.90 s3"


def test_grey_images_come_back_in_colour():
    drawn = annotate(np.zeros((100, 100), np.uint8), boxes((10, 10, 50, 50, "3", 0.9)))
    assert drawn.shape == (100, 100, 3)


def test_no_detections_no_zones_is_an_exact_copy():
    frame = np.random.default_rng(0).integers(0, 255, (50, 60, 3), dtype=np.uint8)
    drawn = annotate(frame, Detections.empty())
    assert np.array_equal(drawn, frame) and drawn is not frame


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_side_by_side_shows_the_cards_as_filmed_and_boxed_turned_upright(turns):
    # A white card with a black tab at its top (which way it turned shows), boxed; turned,
    # its box still fits it.
    frame = np.full((300, 400, 3), 40, np.uint8)
    frame[100:200, 150:220] = 255
    frame[100:110, 150:220] = 0
    found = boxes((150, 100, 220, 200, "T", 0.9))
    picture = side_by_side(frame, found, turns=turns, height=0)
    width = (picture.shape[1] - 2) // 2
    filmed, drawn = picture[:, :width], picture[:, width + 2:]
    assert np.array_equal(filmed, np.rot90(frame[60:240, 122:248], turns))   # margin 0.4
    card = np.argwhere(filmed.min(axis=2) == 255)
    outline = np.argwhere(np.all(drawn == CLASS_COLORS[class_id("T")], axis=2))
    (top, left), (bottom, right) = card.min(0), card.max(0)
    assert (outline.min(0) <= (top, left)).all() and (outline.max(0) >= (bottom, right)).all()
    assert outline.max(0)[0] - outline.min(0)[0] <= bottom - top + 25   # the box, not more


def test_side_by_side_is_enlarged_to_the_height_asked_and_no_more_than_most():
    frame = np.zeros((300, 400, 3), np.uint8)
    assert side_by_side(frame, boxes((150, 100, 220, 200, "T", 0.9)),
                        height=360).shape[0] == 360
    assert side_by_side(frame, boxes((150, 100, 160, 110, "T", 0.9)),
                        height=360, most=2.0).shape[0] == 36   # 18 px high, twice


def test_side_by_side_draws_the_least_sure_label_on_top():
    # Two boxes from one corner, as a fan's strip and its card: the unsure one's tag shows.
    frame = np.zeros((300, 400, 3), np.uint8)
    for unsure_first in (True, False):
        rows = [(150, 100, 220, 200, "T", 0.31), (150, 100, 230, 210, "K", 0.93)]
        picture = side_by_side(frame, boxes(*(rows if unsure_first else rows[::-1])), height=0)
        drawn = picture[:, (picture.shape[1] - 2) // 2 + 2:]
        tags = {rank: np.all(drawn == CLASS_COLORS[class_id(rank)], axis=2).sum()
                for rank in ("T", "K")}
        assert tags["T"] > tags["K"]
