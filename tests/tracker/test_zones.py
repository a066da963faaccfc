"""Seat zones: seats of boxes, and the upright per-seat crops the detector runs on."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tracker.tracker_builders import cards
from tracker.zones import SeatZones, merge_crops
from vision.detections import Detections


def test_label_map_agrees_with_the_layout(layout, zones):
    rng = np.random.default_rng(0)
    points = rng.uniform((300, 40), (980, 680), size=(300, 2)).astype(np.float32)
    expected = [layout.seat_at((float(x), float(y))) for x, y in points]
    got = zones.seat_of_points(points).tolist()
    # Rasterising may differ exactly on a border; elsewhere they agree.
    assert sum(a != b for a, b in zip(expected, got)) <= 3


def test_trigger_gives_the_seat_of_each_box_by_its_centre(zones):
    found = cards(("5", 640, 600), ("K", 900, 560), ("A", 40, 40), ("2", 2000, 40))
    assert zones.trigger(found).tolist() == [0, 1, -1, -1]


def _arrow_image(tip, tail):
    """A black image with a white line from ``tail`` to a filled dot at ``tip``."""
    import cv2
    image = np.zeros((720, 1280, 3), np.uint8)
    cv2.line(image, tail, tip, (255, 255, 255), 6)
    cv2.circle(image, tip, 12, (255, 255, 255), -1)
    return image


@pytest.mark.parametrize("seat", range(6))
def test_warp_turns_each_zone_so_its_player_sits_at_the_bottom(layout, zones, seat):
    # A stroke pointing from the player towards the table centre must point up in the crop.
    cx, cy = layout.centre
    ax, ay = layout.seat_anchor(seat)
    tail = (int(cx + 0.75 * (ax - cx)), int(cy + 0.75 * (ay - cy)))
    tip = (int(cx + 0.35 * (ax - cx)), int(cy + 0.35 * (ay - cy)))
    crop = zones.warp(_arrow_image(tip, tail), seat)
    ys, xs = np.nonzero(crop.image[:, :, 0] > 128)
    top_half = ys < np.median(ys)
    # The dot (the tip) is in the upper part and the stroke runs vertically.
    assert xs[top_half].std() > 0 and np.ptp(ys) > 3 * np.ptp(xs) / 2
    dot_y = ys[top_half].mean()
    assert dot_y < ys.mean()


def test_quarter_turns_bring_each_seats_player_to_the_bottom(layout, zones):
    height, width = layout.image_size[1], layout.image_size[0]
    turns = [zones.upright_turns(seat) for seat in range(6)]
    assert turns[0] == 0 and turns[3] == 2
    for seat, k in enumerate(turns):
        picture = np.zeros((height, width), np.uint8)
        x, y = (round(v) for v in layout.seat_anchor(seat))
        picture[y, x] = 255
        centre_x, centre_y = (round(v) for v in layout.centre)
        picture[centre_y, centre_x] = 128
        turned = np.rot90(picture, k)
        player, centre = np.argwhere(turned == 255)[0], np.argwhere(turned == 128)[0]
        rise, run = player - centre   # rows, columns
        assert rise > 0 and rise >= abs(run), seat


def test_detect_maps_crop_boxes_back_and_keeps_each_card_once(layout, zones):
    import cv2
    image = np.zeros((720, 1280, 3), np.uint8)
    # One bright square in seat 1's zone, near the border with seat 0: seen by both crops.
    cv2.rectangle(image, (790, 600), (830, 640), (255, 255, 255), -1)

    def blob_detector(crop):
        ys, xs = np.nonzero(crop[:, :, 0] > 128)
        if not len(xs):
            return Detections.empty()
        return Detections(xyxy=np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]],
                                        np.float32),
                          confidence=np.array([0.9], np.float32), class_id=np.array([3]))

    found = merge_crops(zones.detect_each(image, blob_detector).values())
    assert len(found) == 1
    # Per seat, the square is only its owner's; every seat asked for answers, empty or not.
    owner = layout.seat_at((810, 620))
    each = zones.detect_each(image, blob_detector, [0, 1, 2])
    assert sorted(each) == [0, 1, 2]
    assert {seat: len(boxes) for seat, boxes in each.items()} == {
        seat: int(seat == owner) for seat in (0, 1, 2)}
    assert each[owner].data["seat"].tolist() == [owner]
    # The square is tilted in seat 1's upright crop, so its crop box is larger than the square;
    # mapped back, the box holds the square and keeps its centre.
    x1, y1, x2, y2 = found.xyxy[0]
    assert x1 <= 791 and y1 <= 601 and x2 >= 830 and y2 >= 640
    np.testing.assert_allclose(found.center[0], [810.5, 620.5], atol=2)
    assert found.data["seat"].tolist() == [layout.seat_at((810, 620))]


def kept_by(seat, *boxes):
    """Boxes ``(x1, y1, x2, y2, conf)`` of rank 3 as the crop of ``seat`` kept them."""
    return Detections(xyxy=np.array([b[:4] for b in boxes], np.float32),
                      confidence=np.array([b[4] for b in boxes], np.float32),
                      class_id=np.full(len(boxes), 1)).with_data(seat=np.full(len(boxes), seat))


def test_a_border_card_kept_by_two_crops_is_merged_into_the_surer_box():
    # A fan of 3s across seats 4 and 5 (rendered seed 246): its second card seen by both
    # crops, each box centred on its own side of the border (IoU 0.79); the cards beside it
    # overlap it by 0.61 and stay.
    merged = merge_crops([
        kept_by(4, (425, 226, 558, 368, 0.63), (444, 248, 571, 385, 0.60)),
        kept_by(5, (444, 261, 586, 390, 0.66), (459, 278, 600, 407, 0.76)),
    ])
    assert merged.xyxy[:, :2].tolist() == [[425, 226], [444, 261], [459, 278]]
    assert merged.data["seat"].tolist() == [4, 5, 5]
    # As sure: the first is kept. One crop's own boxes are the detector's to suppress.
    tie = merge_crops([kept_by(4, (0, 0, 10, 10, 0.5)), kept_by(5, (0, 0, 10, 11, 0.5))])
    assert tie.data["seat"].tolist() == [4]
    same_crop = merge_crops([kept_by(4, (0, 0, 10, 10, 0.5), (0, 0, 10, 11, 0.4))])
    assert len(same_crop) == 2
    assert len(merge_crops([])) == 0 and len(merge_crops([Detections.empty()])) == 0


def test_margin_makes_crops_reach_past_their_zone(layout):
    tight, wide = SeatZones(layout, margin=0.0), SeatZones(layout, margin=0.5)
    image = np.zeros((720, 1280, 3), np.uint8)
    assert wide.warp(image, 0).image.size > tight.warp(image, 0).image.size
