"""Table files: the default hexagon, seat order, validation, JSON round trips, homography."""

from __future__ import annotations

import json
from contextlib import nullcontext as does_not_raise

import cv2
import numpy as np
import pytest

from tests.tracker.tracker_builders import PLAY_AREA
from tracker.table import TableLayout, TableLayoutError, load_view, save_view, view_path


@pytest.mark.parametrize(("point", "seat"), [
    ((640, 620), 0),   # bottom edge: seat 0
    ((900, 560), 1),   # lower right: next in play order (counter-clockwise from above)
    ((900, 160), 2),   # upper right
    ((640, 100), 3),   # top: seat 0's 对头
    ((380, 160), 4),   # upper left
    ((380, 560), 5),   # lower left
    ((100, 100), -1),  # off the play area
])
def test_default_layout_numbers_seats_counter_clockwise_from_the_bottom(layout, point, seat):
    assert layout.seat_at(point) == seat


def test_default_layout_zones_tile_the_play_area(layout):
    areas = [s.area for s in layout.seats]
    assert sum(areas) == pytest.approx(600 * 600, rel=1e-3)


def test_json_round_trip_keeps_names_and_homography(tmp_path):
    h = [[1.0, 0.1, 0.0], [0.0, 1.2, 0.0], [0.0, 0.0002, 1.0]]
    layout = TableLayout.default(PLAY_AREA, (1280, 720), homography=h,
                                 names=["东", "南", "西", "北", "甲", "乙"])
    path = tmp_path / "table.json"
    layout.save(path)
    again = TableLayout.load(path)
    assert again == layout
    assert [s.name for s in again.seats] == ["东", "南", "西", "北", "甲", "乙"]


def test_a_file_with_only_a_play_area_gets_the_default_seats(tmp_path):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"image_size": [1280, 720], "play_area": [list(p) for p in PLAY_AREA]}))
    assert TableLayout.load(path) == TableLayout.default(PLAY_AREA, (1280, 720))


def test_oblique_camera_hexagon_is_regular_on_the_table_plane():
    # A camera tilted about the x axis: the far side of the table looks narrower.
    top = np.array([(0, 0), (600, 0), (600, 600), (0, 600)], np.float32)
    image = np.array([(440, 100), (840, 100), (940, 660), (340, 660)], np.float32)
    import cv2
    homography = cv2.getPerspectiveTransform(image, top)
    layout = TableLayout.default(image.tolist(), (1280, 720), homography=homography)
    centre = layout.to_top([layout.centre])[0]
    np.testing.assert_allclose(centre, (300, 300), atol=1e-3)
    reach = [np.hypot(*(layout.to_top([layout.seat_anchor(s)])[0] - centre)) for s in range(6)]
    # Seats 0 and 3 face the square's sides; the others face its corners' sectors.
    assert reach[0] == pytest.approx(reach[3], rel=1e-3)
    assert reach[1] == pytest.approx(reach[2], rel=1e-3) == pytest.approx(reach[4], rel=1e-3)


def _doc(**changes):
    layout = TableLayout.default(PLAY_AREA, (1280, 720)).to_json()
    layout.update(changes)
    return layout


@pytest.mark.parametrize(("document", "expectation"), [
    # the file as written
    (_doc(), does_not_raise()),
    # five seats
    (_doc(seats=_doc()["seats"][:5]), pytest.raises(TableLayoutError, match="6 seats, got 5")),
    # seats listed twice
    (_doc(seats=[_doc()["seats"][0]] * 6),
     pytest.raises(TableLayoutError, match="position 1 holds seat 0")),
    # a two-point polygon
    (_doc(play_area=[[0, 0], [5, 5]]), pytest.raises(TableLayoutError, match="at least 3")),
    # collinear points
    (_doc(play_area=[[0, 0], [5, 5], [10, 10]]), pytest.raises(TableLayoutError, match="no area")),
    # points that are not pairs
    (_doc(play_area=[[0, 0, 1], [5, 5], [10, 0]]),
     pytest.raises(TableLayoutError, match="play_area must be a list of")),
    # a singular homography
    (_doc(homography=[[1, 0, 0], [2, 0, 0], [0, 0, 1]]),
     pytest.raises(TableLayoutError, match="singular")),
    # a 2x2 homography
    (_doc(homography=[[1, 0], [0, 1]]), pytest.raises(TableLayoutError, match="3x3")),
    # a bad image size
    (_doc(image_size=[1280]), pytest.raises(TableLayoutError, match="image_size")),
    # a future version
    (_doc(version=7), pytest.raises(TableLayoutError, match="version 7")),
    # not an object
    ([1, 2], pytest.raises(TableLayoutError, match="JSON object")),
])
def test_table_file_validation(document, expectation):
    with expectation:
        TableLayout.from_json(document)


def test_load_names_the_file_on_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such table file"):
        TableLayout.load(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(TableLayoutError, match="broken.json: not valid JSON"):
        TableLayout.load(broken)
    video = tmp_path / "game.mp4"   # given for the table by mistake
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42\x9f\x92\x96")
    with pytest.raises(TableLayoutError, match="game.mp4: not a table file"):
        TableLayout.load(video)


def test_four_clicked_corners_of_an_oblique_mat_give_a_regular_hexagon_on_the_table():
    corners = [(440, 100), (840, 100), (940, 660), (340, 660)]  # far edge looks shorter
    layout = TableLayout.from_corners(corners, (1280, 720))
    assert layout.homography is not None
    centre = layout.to_top([layout.centre])[0]
    reach = [np.hypot(*(layout.to_top([layout.seat_anchor(s)])[0] - centre)) for s in range(6)]
    assert reach[0] == pytest.approx(reach[3], rel=1e-3)
    assert layout.seat_at((640, 640)) == 0 and layout.seat_at((640, 120)) == 3


def test_a_layout_resized_to_another_camera_resolution_covers_the_same_cloth():
    corners = [(440, 100), (840, 100), (940, 660), (340, 660)]
    layout = TableLayout.from_corners(corners, (1280, 720), names=["东", None, None, None, None, None])
    wide = layout.resized((1920, 1080))        # the same camera filming at 1080p
    squeezed = layout.resized((640, 480))      # each axis on its own: 0.5 across, 2/3 down
    assert wide.image_size == (1920, 1080) and wide.seats[0].name == "东"
    for resized, (sx, sy) in ((wide, (1.5, 1.5)), (squeezed, (0.5, 2 / 3))):
        scale = np.array([sx, sy])
        np.testing.assert_allclose(resized.to_top(np.array(corners) * scale),
                                   layout.to_top(corners), atol=1e-6)
        for point in [(640, 640), (900, 560), (640, 120), (380, 160), (100, 100)]:
            assert resized.seat_at(tuple(np.array(point) * scale)) == layout.seat_at(point)
    assert TableLayout.from_json(wide.to_json()) == wide
    with pytest.raises(TableLayoutError, match="image_size must be positive"):
        layout.resized((0, 720))


def test_a_layout_moved_into_a_far_cameras_picture_covers_the_same_cloth():
    corners = [(440, 100), (840, 100), (940, 660), (340, 660)]
    layout = TableLayout.from_corners(corners, (1280, 720))
    move = np.array([[0.5, 0, 320], [0, 0.5, 180], [0, 0, 1]])   # twice as far, in the middle
    far = layout.transformed(move, (1280, 720))

    def moved(points):
        return np.asarray(points, np.float64) * 0.5 + [320, 180]

    np.testing.assert_allclose(far.to_top(moved(corners)), layout.to_top(corners), atol=1e-6)
    np.testing.assert_allclose(far.play_area, moved(layout.play_area))
    for point in [(640, 640), (900, 560), (640, 120), (380, 160), (100, 100)]:
        assert far.seat_at(tuple(moved(point))) == layout.seat_at(point)
    with pytest.raises(TableLayoutError, match="invertible 3x3 matrix"):
        layout.transformed(np.zeros((3, 3)), (1280, 720))
    with pytest.raises(TableLayoutError, match="invertible 3x3 matrix"):
        layout.transformed([[1, 0], [0, 1]], (1280, 720))


def test_from_corners_needs_four_corners():
    with pytest.raises(TableLayoutError, match="4 corners, got 3"):
        TableLayout.from_corners([(0, 0), (10, 0), (10, 10)], (1280, 720))


def test_the_view_the_zones_were_drawn_on_is_kept_beside_the_table_file(tmp_path):
    table = tmp_path / "club" / "table.json"
    table.parent.mkdir()
    assert view_path(table) == tmp_path / "club" / "table.view.jpg"
    assert load_view(table, (320, 240)) is None   # none kept: the camera's first frame serves
    view = cv2.GaussianBlur(np.random.default_rng(0).integers(0, 256, (240, 320, 3), np.uint8),
                            (0, 0), 3)
    assert save_view(table, view) == view_path(table)
    kept = load_view(table, (320, 240))
    assert kept is not None and kept.shape == view.shape
    assert np.abs(kept.astype(int) - view).mean() < 2   # a JPEG of it


def test_a_view_of_another_size_or_no_picture_is_a_clear_error(tmp_path):
    table = tmp_path / "table.json"
    save_view(table, np.zeros((480, 640, 3), np.uint8))
    with pytest.raises(TableLayoutError, match=r"table.view.jpg: 640x480, but the table is "
                                               r"drawn on 1280x720 pictures"):
        load_view(table, (1280, 720))
    view_path(table).write_text("not a picture")
    with pytest.raises(TableLayoutError, match="table.view.jpg: not a picture"):
        load_view(table, (640, 480))
