"""Following a bumped camera and warping its frames back to the table's view."""

from __future__ import annotations

import logging
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.helpers import camera_pose, checked_cloth, filmed
from vision.detections import Detections
from vision.stabilize import Stabilizer, card_motion
from vision.synth.scene import make_table_texture

SIZE = (1280, 720)
CORNERS = np.array([[0, 0, 1], [1280, 0, 1], [0, 720, 1], [1280, 720, 1]], np.float64).T


def table(cards=3):
    """A checked cloth (its pattern repeats every 40 pixels: a move of half that looks like
    none to one picture) and ``cards`` cards with pips."""
    image = checked_cloth(SIZE)
    for i in range(cards):
        left, top = 300 + 230 * i, 250 + 60 * (i % 2)
        cv2.rectangle(image, (left, top), (left + 110, top + 160), (235, 235, 235), -1)
        cv2.putText(image, "KQJ"[i % 3], (left + 20, top + 100), cv2.FONT_HERSHEY_SIMPLEX, 2.5,
                    (20, 20, 20), 6)
    return image


def pose(dx, dy, turn=0.0):
    return camera_pose(SIZE, dx, dy, turn)


def corner_error(stabilizer, truth):
    return float(np.abs((stabilizer.pose - truth) @ CORNERS)[:2].max())


def bump(stabilizer, image, start, end, *, t, steps=4, rest=15, fps=25):
    """Film ``image`` while the camera moves from pose ``start`` to ``end`` over ``steps``
    frames, then ``rest`` frames at rest; return the time after and the last steadied frame."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    for i in range(1, steps + rest + 1):
        steady = stabilizer.update(filmed(image, pose(*start + (end - start)
                                                       * min(1.0, i / steps))), t)
        t += 1 / fps
    return t, steady


def test_a_camera_at_rest_passes_frames_through_untouched_while_hands_and_cards_come_and_go():
    stabilizer = Stabilizer(SIZE)
    empty, laid = table(cards=0), table(cards=3)
    for i in range(60):
        image = (empty if i < 20 else laid).copy()
        if 10 <= i < 40:   # a hand reaching in and out over the cards
            cv2.circle(image, (200 + 25 * i, 400), 70, (90, 120, 170), -1)
        assert stabilizer.update(image, i / 25) is image
    assert stabilizer.stats.moves == 0 and stabilizer.stats.unfollowed == 0
    assert np.array_equal(stabilizer.pose, np.eye(3))


@pytest.mark.parametrize("dx, dy, turn", [
    (12, -5, 0.0),      # a nudge
    (-31, 18, 0.4),     # farther than half the checks' repeat, and turned
    (25, 30, -1.5),     # turned by 1.5°: 19 pixels at the picture's corners
])
def test_a_bumped_camera_is_followed_and_its_frames_warped_back_to_the_table(dx, dy, turn):
    stabilizer = Stabilizer(SIZE)
    image = table()
    t, _ = bump(stabilizer, image, (0, 0, 0), (0, 0, 0), t=0.0, steps=1, rest=3)
    _, steady = bump(stabilizer, image, (0, 0, 0), (dx, dy, turn), t=t)
    assert corner_error(stabilizer, pose(dx, dy, turn)) < 1.0
    told = stabilizer.stats.pose
    assert stabilizer.stats.moves == 1
    assert (told.dx, told.dy, told.turn) == pytest.approx((dx, dy, turn), abs=0.15)
    # The steadied frame is the table as calibrated (its edges are the camera's new margins).
    inside = (slice(80, -80), slice(80, -80))
    assert np.abs(steady[inside].astype(int) - image[inside]).mean() < 4


def test_frames_worked_on_at_another_size_keep_the_pose_in_force():
    # The table recalibrated into a larger working size while the camera stood moved: the
    # same camera's frames, enlarged, are warped back by the same pose in their pixels.
    stabilizer = Stabilizer(SIZE)
    image = table()
    t, _ = bump(stabilizer, image, (0, 0, 0), (0, 0, 0), t=0.0, steps=1, rest=3)
    t, _ = bump(stabilizer, image, (0, 0, 0), (-31, 18, 0.4), t=t)
    big = (2 * SIZE[0], 2 * SIZE[1])
    stabilizer.resized(big)
    for i in range(20):     # at rest, then nudged further
        camera = pose(-31, 18, 0.4) if i < 5 else pose(-20, 10, 0.4)
        steady = stabilizer.update(cv2.resize(filmed(image, camera), big), t + i / 25)
    assert stabilizer.image_size == big
    double = np.diag([2.0, 2.0, 1.0])
    truth = double @ pose(-20, 10, 0.4) @ np.linalg.inv(double)
    assert np.abs((stabilizer.pose - truth) @ (double @ CORNERS))[:2].max() < 2.0
    told = stabilizer.stats.pose
    assert stabilizer.stats.moves == 2 and (told.dx, told.dy) == pytest.approx((-20, 10), abs=1)
    inside = (slice(160, -160), slice(160, -160))
    assert np.abs(steady[inside].astype(int) - cv2.resize(image, big)[inside]).mean() < 4


def test_moves_add_up_and_a_move_back_is_followed_too():
    stabilizer = Stabilizer(SIZE)
    image = table()
    t, _ = bump(stabilizer, image, (0, 0, 0), (0, 0, 0), t=0.0, steps=1, rest=3)
    t, _ = bump(stabilizer, image, (0, 0, 0), (20, 10, 0.5), t=t)
    t, _ = bump(stabilizer, image, (20, 10, 0.5), (-10, 25, -0.3), t=t)
    assert corner_error(stabilizer, pose(-10, 25, -0.3)) < 1.0
    t, steady = bump(stabilizer, image, (-10, 25, -0.3), (0, 0, 0), t=t)
    assert stabilizer.stats.moves == 3
    assert corner_error(stabilizer, np.eye(3)) < 1.0
    assert np.abs(steady[80:-80, 80:-80].astype(int) - image[80:-80, 80:-80]).mean() < 4


def test_a_knock_past_following_is_reported_and_the_view_kept(caplog):
    stabilizer = Stabilizer(SIZE)
    image = table()
    t, _ = bump(stabilizer, image, (0, 0, 0), (0, 0, 0), t=0.0, steps=1, rest=3)
    # Knocked off the table: the camera now films the floor.
    floor = np.random.default_rng(1).integers(0, 256, (720, 1280, 3), np.uint8)
    knocked = cv2.GaussianBlur(floor, (0, 0), 4)
    with caplog.at_level(logging.WARNING, logger="vision.stabilize"):
        for _ in range(60):
            assert stabilizer.update(knocked, t) is knocked
            t += 1 / 25
    assert stabilizer.stats.unfollowed == 1 and stabilizer.stats.moves == 0
    assert "calibrate the table again" in (stabilizer.stats.message or "")
    assert "calibrate the table again" in caplog.text
    assert np.array_equal(stabilizer.pose, np.eye(3))
    # It goes on from the new picture: a later nudge is followed from there.
    bump(stabilizer, knocked, (0, 0, 0), (10, -6, 0), t=t)
    assert stabilizer.stats.moves == 1
    assert corner_error(stabilizer, pose(10, -6, 0)) < 1.0
    # The operator drew the zones again on the view as it stands: nothing left to tell.
    stabilizer.recalibrated()
    assert stabilizer.stats.message is None and stabilizer.stats.unfollowed == 1


def test_a_bare_cloth_has_nothing_to_follow_and_raises_no_alarm():
    stabilizer = Stabilizer(SIZE)
    rng = np.random.default_rng(0)
    for i in range(40):   # plain felt and a webcam's grain
        image = np.clip(rng.normal(90, 8, (720, 1280, 3)), 0, 255).astype(np.uint8)
        assert stabilizer.update(image, i / 25) is image
    assert stabilizer.stats.unfollowed == 0 and stabilizer.stats.message is None


def test_flickering_light_and_sensor_noise_neither_move_the_camera_nor_hide_a_bump():
    stabilizer = Stabilizer(SIZE)
    rng = np.random.default_rng(2)
    image = make_table_texture(1280, 720, np.random.default_rng(2), kind="cloth")  # a woven one

    def webcam(picture, i):   # brightness swaying ±10 %, fresh noise of 8 grey levels
        gain = 1 + 0.1 * np.sin(i / 3)
        return np.clip(picture * gain + rng.normal(0, 8, picture.shape), 0, 255).astype(np.uint8)

    for i in range(40):
        stabilizer.update(webcam(image, i), i / 25)
    assert np.array_equal(stabilizer.pose, np.eye(3)) and stabilizer.stats.moves == 0
    for i in range(40, 80):   # bumped over four frames
        moved = filmed(image, pose(*np.array([18, -12, 0.6]) * min((i - 39) / 4, 1.0)))
        stabilizer.update(webcam(moved, i), i / 25)
    assert stabilizer.stats.moves == 1
    assert corner_error(stabilizer, pose(18, -12, 0.6)) < 1.0


def woven_table():
    image = make_table_texture(1280, 720, np.random.default_rng(3), kind="cloth")
    cv2.rectangle(image, (500, 300), (610, 460), (235, 235, 235), -1)   # a card left lying
    return image


@pytest.mark.parametrize(("dx", "dy", "turn"), [(45, -30, 1.2), (-70, 25, -2.0), (-90, 110, 7.0),
                                                (0, 0, 0)])
def test_a_camera_moved_since_the_table_was_calibrated_is_found_from_its_first_frame(dx, dy, turn):
    calibrated = woven_table()
    stabilizer = Stabilizer(SIZE, reference=calibrated)
    moved = filmed(calibrated, pose(dx, dy, turn))
    steady = moved
    for i in range(20):
        steady = stabilizer.update(moved, i / 25)
        if i == 0:   # held to the calibrated view at once, not after a settling time
            assert corner_error(stabilizer, pose(dx, dy, turn)) < 1.0
    assert corner_error(stabilizer, pose(dx, dy, turn)) < 1.0
    assert stabilizer.stats.moves == (1 if dx else 0)
    assert (steady is moved) is (not dx)   # a camera where it was: frames passed untouched
    inside = (slice(120, -120), slice(120, -120))   # the weave blurred: resampled twice

    def blurred(image):
        return cv2.GaussianBlur(image, (0, 0), 2)[inside].astype(int)

    assert np.abs(blurred(steady) - blurred(calibrated)).mean() < 2
    # Followed on from there as ever: a bump later adds to it.
    bump(stabilizer, moved, (0, 0, 0), (-12, 8, 0), t=1.0)
    assert corner_error(stabilizer, pose(-12, 8, 0) @ pose(dx, dy, turn)) < 1.0


@pytest.mark.parametrize("turn", [1.2, 0.0])
def test_a_calibrated_view_kept_is_looked_for_at_the_size_frames_are_worked_on(turn):
    # Zones taken on before the first frame at twice the working size: the view kept with
    # them is looked for in frames of that size, in copies as small as before.
    calibrated = woven_table()
    big = (2 * SIZE[0], 2 * SIZE[1])
    resized = Stabilizer(SIZE, reference=calibrated)
    resized.resized(big)
    assert resized.scale == 0.125
    made_so = Stabilizer(big, scale=0.125,
                         reference=cv2.resize(calibrated, big, interpolation=cv2.INTER_AREA))
    moved = cv2.resize(filmed(calibrated, pose(45, -30, turn)), big, interpolation=cv2.INTER_AREA)
    for stabilizer in (resized, made_so):
        for i in range(5):
            stabilizer.update(moved, i / 25)
    np.testing.assert_allclose(resized.pose, made_so.pose)
    double = np.diag([2.0, 2.0, 1.0])
    truth = double @ pose(45, -30, turn) @ np.linalg.inv(double)
    assert np.abs((resized.pose - truth) @ (double @ CORNERS))[:2].max() < 1.5
    assert resized.stats.moves == 1


def test_over_a_pattern_that_repeats_the_calibrated_view_is_found_at_the_nearest_match():
    calibrated = table()   # checks repeating every 40 px: moved 12 px looks like moved 28 back
    stabilizer = Stabilizer(SIZE, reference=calibrated)
    for i in range(15):
        stabilizer.update(filmed(calibrated, pose(12, -8, 0.4)), i / 25)
    assert corner_error(stabilizer, pose(12, -8, 0.4)) < 1.0


def test_a_picture_unlike_the_calibrated_view_is_reported_and_taken_as_it_stands():
    stabilizer = Stabilizer(SIZE, reference=woven_table())
    elsewhere = make_table_texture(1280, 720, np.random.default_rng(4), kind="cloth")
    for i in range(60):
        assert stabilizer.update(elsewhere, i / 25) is elsewhere
    assert stabilizer.stats.unfollowed == 1
    assert "calibrate the table again" in (stabilizer.stats.message or "")


def test_a_hand_sliding_cards_past_others_that_stay_is_no_camera_move():
    rng = np.random.default_rng(6)
    felt = np.clip(rng.normal(90, 3, (720, 1280, 3)), 0, 255).astype(np.uint8)   # plain

    def cards(at):
        image = felt.copy()
        for i, (left, top) in enumerate(at):
            cv2.rectangle(image, (left, top), (left + 110, top + 160), (235, 235, 235), -1)
            cv2.putText(image, "KQJA"[i % 4], (left + 20, top + 100), cv2.FONT_HERSHEY_SIMPLEX,
                        2.5, (20, 20, 20), 6)
        return image

    lying = [(330, 400), (800, 470), (770, 560), (1000, 520)]
    held = [(560, 60), (660, 80)]   # two cards in a hand, far from those lying
    stabilizer = Stabilizer(SIZE)
    for i in range(40):   # slid 5 px left and 3 down, the others staying
        slid = [(x - 5 * min(i // 20, 1), y + 3 * min(i // 20, 1)) for x, y in held]
        image = cards(lying + slid)
        assert stabilizer.update(image, i / 25) is image
    assert stabilizer.stats.moves == 0


def cards(centres, ranks):
    """Upright 60×90 card boxes about ``centres``."""
    centres = np.asarray(centres, np.float32)
    return Detections(xyxy=np.hstack([centres - (30, 45), centres + (30, 45)]),
                      confidence=np.full(len(centres), 0.9, np.float32),
                      class_id=np.asarray(ranks))


def moved(centres, motion):
    return cv2.transform(np.asarray(centres, np.float64)[:, None], motion[:2])[:, 0]


# A tight fan of five 7s, its strips 16 px apart (each within reach of its neighbours' places),
# a pair of kings across the table and a lone 3.
TABLE = [(500 + 16 * i, 520) for i in range(5)] + [(600, 180), (660, 180), (860, 380)]
RANKS = [7] * 5 + [12, 12, 3]


@pytest.mark.parametrize("dx, dy, turn", [(25, -12, 0.0), (-18, 30, 1.0), (6, 4, -2.0)])
def test_cards_all_moved_as_one_give_the_cameras_move(dx, dy, turn):
    truth = pose(dx, dy, turn)
    found = card_motion(cards(TABLE, RANKS), cards(moved(TABLE, truth), RANKS), reach=100,
                        error=4)
    assert found is not None
    motion, followed = found
    assert followed.all()
    assert np.abs(moved(TABLE, motion) - moved(TABLE, truth)).max() < 0.5


def test_cards_a_hand_moved_are_told_from_those_that_stayed():
    """A hand pushed the kings 30 px along: the fan and the 3 stayed, and agree on no move."""
    after = np.array(TABLE, np.float64)
    after[5:7] += (30, 10)
    found = card_motion(cards(TABLE, RANKS), cards(after, RANKS), reach=100, error=4)
    assert found is not None
    motion, followed = found
    assert followed.tolist() == [True] * 5 + [False, False, True]
    assert np.abs(moved(TABLE, motion) - TABLE).max() < 0.5


def test_cards_of_other_ranks_or_out_of_reach_give_no_move():
    before = cards(TABLE[5:], RANKS[5:])
    assert card_motion(before, cards(TABLE[5:], [4, 4, 5]), reach=100, error=4) is None
    assert card_motion(before, cards(np.array(TABLE[5:]) + (250, 0), RANKS[5:]), reach=100,
                       error=4) is None
    assert card_motion(before, Detections.empty(), reach=100, error=4) is None


def test_a_move_found_by_other_means_is_taken_and_followed_from_there():
    stabilizer = Stabilizer(SIZE)
    image = table()
    t, _ = bump(stabilizer, image, (0, 0, 0), (0, 0, 0), t=0.0, steps=1, rest=3)
    t, _ = bump(stabilizer, image, (0, 0, 0), (20, 10, 0.5), t=t)
    # Told of a further move (as the cards show it) with the camera's frame there ...
    further = np.linalg.inv(pose(20, 10, 0.5)) @ pose(-5, 30, -0.2)
    stabilizer.moved_by(further, filmed(image, pose(-5, 30, -0.2)), t)
    assert corner_error(stabilizer, pose(-5, 30, -0.2)) < 1.0
    assert stabilizer.stats.moves == 2
    # ... it follows the camera from that pose on.
    bump(stabilizer, image, (-5, 30, -0.2), (10, 5, 0.0), t=t)
    assert corner_error(stabilizer, pose(10, 5, 0.0)) < 1.0


def test_cards_partly_hidden_by_cards_laid_on_them_have_not_moved():
    """The kings' boxes shrink to their visible left halves: their middles move 15 px left,
    as a camera's move would move them, but a camera keeps a card's size."""
    before = cards(TABLE[5:7], RANKS[5:7])
    hidden = replace(before, xyxy=before.xyxy - [0, 0, 30, 0])
    assert card_motion(before, hidden, reach=100, error=4) is None


def test_a_pair_alone_tells_the_shift_and_not_the_turn():
    """Two boxes 34 px apart, each read within 2 px, would give a turn of up to 7°."""
    pair = [(600, 500), (634, 502)]
    after = np.array(pair, np.float64) + (20, -10)
    after[1] += (2, -1)
    motion, followed = card_motion(cards(pair, [5, 5]), cards(after, [5, 5]), reach=100,
                                   error=4)
    assert followed.all()
    assert np.array_equal(motion[:2, :2], np.eye(2))
    assert motion[:2, 2] == pytest.approx((21, -10.5))
