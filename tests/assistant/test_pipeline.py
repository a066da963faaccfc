"""The pipeline on drawn frames with a colour-blob detector: detect only what changed, commit plays."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

import rules
from assistant.pipeline import (
    CLOSER_SCALES,
    DEMO_SEED,
    MOST_ENLARGED,
    PLAY_AREA_SIDE,
    ChangeDetector,
    Pipeline,
    demo_assets,
    working_layout,
)
from tests.helpers import camera_pose, checked_cloth, filmed
from tracker.table import Seat, TableLayout
from tracker.zones import SeatZones
from vision.annotate import CLASS_COLORS
from vision.capture import Frame
from vision.classes import CLASS_NAMES
from vision.detections import Detections
from vision.render_game import RENDER_VERSION
from vision.stabilize import Stabilizer

LAYOUT = TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)], (1280, 720))
RED_FIVE, BLUE_KING = CLASS_NAMES.index("5"), CLASS_NAMES.index("K")
COLOURS = {RED_FIVE: (0, 0, 255), BLUE_KING: (255, 0, 0)}


def blob_detector(image):
    """Finds pure red (a 5) and pure blue (a K) rectangles."""
    boxes, classes = [], []
    for cid, colour in COLOURS.items():
        mask = cv2.inRange(image, np.array(colour) - 40, np.array(colour) + 40)
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        for x, y, w, h, area in stats[1:]:
            if area > 100:
                boxes.append([x, y, x + w, y + h])
                classes.append(cid)
    if not boxes:
        return Detections.empty()
    return Detections(xyxy=np.array(boxes, np.float32),
                      confidence=np.full(len(boxes), 0.9, np.float32), class_id=np.array(classes))


class CountingDetector:
    def __init__(self):
        self.calls = 0

    def __call__(self, image):
        self.calls += 1
        return blob_detector(image)


def film(script, fps=10, table=None):
    """Frames of a table (default: grey); ``script`` lists (seconds, cards) with cards as
    (class, x, y) rectangles of 40×60, and ``"hand"`` for a moving skin blob."""
    index, frames = 0, []
    table = np.full((720, 1280, 3), 90, np.uint8) if table is None else table
    for seconds, cards in script:
        for step in range(int(seconds * fps)):
            image = table.copy()
            for card in cards:
                if card == "hand":
                    x = 300 + 37 * step
                    cv2.circle(image, (x % 1280, 600), 40, (120, 160, 210), -1)
                    continue
                cid, x, y = card
                cv2.rectangle(image, (x - 20, y - 30), (x + 20, y + 30), COLOURS[cid], -1)
            frames.append(Frame(image=image, t=index / fps, index=index))
            index += 1
    return frames


class FakeMatch:
    """Enough of rules.Match for the pipeline: no round until one is applied."""

    def __init__(self):
        self.events = []

    def apply(self, event, line=0):
        self.events.append(event)

    def to_json(self):
        started = any(e["type"] == "round" for e in self.events)
        return {"round": int(started), "round_over": False, "to_act": list(range(6)),
                "errors": [], "ruleset": "qingdao", "counts": {str(seat): 36 for seat in range(6)}}


def test_a_play_laid_by_a_hand_becomes_one_event_and_a_round_is_announced():
    fives = [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)]
    frames = film([(1.0, []), (1.0, ["hand", *fives]), (2.0, fives), (1.0, []), (1.0, [])])
    match, events = FakeMatch(), []

    def on_event(event):
        events.append(event)
        match.apply(event)

    detector = CountingDetector()
    stats = Pipeline(frames, LAYOUT, detector, match=match).run(on_event)
    assert [(e["type"], e.get("seat"), e.get("cards")) for e in events] == [
        ("round", None, None), ("play", 0, "55"), ("collect", None, None)]
    assert events[0]["first"] == 0 and events[0]["source"] == "inferred"
    assert stats.frames == 60 and stats.plays == 1 and stats.collects == 1 and stats.held == 0
    # Detection ran on the first frame (all six crops, each upright and turned half round) and
    # then only on crops that changed and came to rest, never on every frame.
    assert stats.detector_calls == detector.calls < 2 * (6 + 12)


def test_whole_frame_detection_gives_the_same_events():
    kings = [(BLUE_KING, 620, 140)]
    frames = film([(1.0, []), (2.0, kings)])
    events = []
    Pipeline(frames, LAYOUT, blob_detector, per_zone=False).run(events.append)
    assert [(e["type"], e["seat"], e["cards"]) for e in events] == [("play", 3, "K")]


def reading_twice(image):
    """The blob detector, also finding each card's lower half again, unsurely."""
    found = blob_detector(image)
    halves = found.xyxy.copy()
    halves[:, 1] = (found.xyxy[:, 1] + found.xyxy[:, 3]) / 2
    return Detections.merge([found, Detections(
        xyxy=halves, confidence=np.full(len(found), 0.3, np.float32), class_id=found.class_id)])


@pytest.mark.parametrize("per_zone", [True, False], ids=["per-zone", "whole-frame"])
def test_an_unsure_second_reading_of_a_card_does_not_count(per_zone):
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 620, 140)])])
    events = []
    Pipeline(frames, LAYOUT, reading_twice, per_zone=per_zone).run(events.append)
    assert [(e["seat"], e["cards"]) for e in events] == [(3, "K")]
    # Sharing the card's corner, the half casts no doubt on the play (whole frames judge no
    # corners: there it is a faint card beside the play).
    assert events[0].get("reason") == (None if per_zone else "faint K (conf 0.300) beside it")
    # The half starts at the card's corner (in the upright crop: shared corners mean nothing
    # in a whole frame, where a turned play's boxes share corners) and lies inside the card.
    for options, cards in (({"nested_below": 0}, "K" if per_zone else "KK"),
                           ({"nested_corner": 0}, "K"),
                           ({"nested_below": 0, "nested_corner": 0}, "KK")):
        events = []
        Pipeline(frames, LAYOUT, reading_twice, per_zone=per_zone, **options).run(events.append)
        assert [(e["seat"], e["cards"]) for e in events] == [(3, cards)]


def reading_a_fan(image):
    """The blob detector, reading each card as a tight fan of three of its rank: the card's
    box, an unsure box lying within it a step on (a fifth of the card's length: the next
    card's strip) and a surer box a step further (the top card)."""
    found = blob_detector(image)
    x1, y1, x2, y2 = found.xyxy.T
    step = 0.2 * np.maximum(x2 - x1, y2 - y1)
    strip = np.stack([x1 + step, y1, x2 + step / 2, y2], 1)
    top = np.stack([x1 + 2 * step, y1, x2 + 2 * step, y2], 1)
    return Detections(xyxy=np.concatenate([found.xyxy, strip, top]).astype(np.float32),
                      confidence=np.repeat(np.float32([0.9, 0.3, 0.8]), len(found)),
                      class_id=np.tile(found.class_id, 3))


@pytest.mark.parametrize("per_zone", [True, False], ids=["per-zone", "whole-frame"])
def test_an_unsure_box_a_step_on_in_a_fan_is_the_next_card(per_zone):
    # The strip lies 0.8 inside the card's box: without the fan's steps, a second reading.
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 620, 140)])])
    for options, cards in (({}, "KKK"), ({"fan_step": None}, "KK")):
        events = []
        Pipeline(frames, LAYOUT, reading_a_fan, per_zone=per_zone, **options).run(events.append)
        assert [(e["seat"], e["cards"]) for e in events] == [(3, cards)]


class PairLedMatch(FakeMatch):
    """A round under way in which a pair was led: one card does not answer it."""

    def to_json(self):
        return {**super().to_json(), "round": 1,
                "trick": {"last_cards": "55", "answer": "beat"}}


@pytest.mark.parametrize("per_zone", [True, False], ids=["per-zone", "whole-frame"])
def test_the_rules_may_take_in_a_second_reading_when_the_play_needs_one_more_card(per_zone):
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 620, 140)])])
    events, shown = [], []
    Pipeline(frames, LAYOUT, reading_twice, match=PairLedMatch(), per_zone=per_zone).run(
        events.append, on_frame=lambda frame, found: shown.append(len(found)))
    assert [(e["seat"], e["cards"]) for e in events] == [(3, "KK")]
    assert events[0]["review"] is True and "took in faint K (conf 0.300)" in events[0]["reason"]
    assert max(shown) == 1  # the live view shows the cards that count


def missing_the_rightmost(image):
    """The blob detector, missing the right-most card it sees (in a crop turned half round,
    another card)."""
    found = blob_detector(image)
    return found[found.xyxy[:, 0] < found.xyxy[:, 0].max()] if len(found) else found


@pytest.mark.parametrize(("options", "cards", "reason"), [
    ({"turned_look": False}, "K", None),
    ({}, "K", "faint K (conf 0.900) beside it"),
    ({"match": PairLedMatch()}, "KK", "took in faint K (conf 0.900)")])
def test_a_card_found_only_in_the_crop_turned_half_round_is_faint(options, cards, reason):
    # The turned crop finds the card the upright one missed (and misses another, found
    # upright already): it counts only when the rules need it, and holds a lead meanwhile.
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 600, 140), (BLUE_KING, 648, 140)])])
    events = []
    Pipeline(frames, LAYOUT, missing_the_rightmost, **options).run(events.append)
    assert [(e["seat"], e["cards"]) for e in events] == [(3, cards)]
    assert events[0]["review"] is (reason is not None)
    assert reason is None or reason in events[0]["reason"]


class FaintUnlessEnlarged(CountingDetector):
    """The blob detector, reading the right-most card it sees faintly (0.14) unless the cards
    look larger than the film's 40-pixel-wide ones (a play read closer); noting the size of
    every view."""

    def __init__(self):
        super().__init__()
        self.sizes = []

    def __call__(self, image):
        found = super().__call__(image)
        self.sizes.append(image.shape[:2])
        if len(found) and np.median(found.xyxy[:, 2] - found.xyxy[:, 0]) <= 1.2 * 40:
            found.confidence[found.xyxy[:, 0].argmax()] = 0.14
        return found


@pytest.mark.parametrize(("closer_scales", "cards", "reason"), [
    ((1.3, 1.4), "KK", "took in K (conf 0.140), counted when its zone was read closer"),
    ((), "K", "faint K (conf 0.140) beside it"),
])
def test_a_faint_card_the_zone_read_closer_counts_is_taken_into_the_play(closer_scales, cards,
                                                                         reason):
    detector = FaintUnlessEnlarged()
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 600, 140), (BLUE_KING, 648, 140)])])
    events = []
    Pipeline(frames, LAYOUT, detector, closer_scales=closer_scales).run(events.append)
    assert [(e["seat"], e["cards"]) for e in events] == [(3, cards)]
    assert events[0]["review"] is True and reason in events[0]["reason"]
    # Seat 3's zone was read closer once at each scale, for the one play.
    crops = [(height, width) for width, height in SeatZones(LAYOUT).crop_sizes]
    height, width = crops[3]
    assert [size for size in detector.sizes if size not in crops] == [
        (round(height * scale), round(width * scale)) for scale in closer_scales]


def test_a_zone_looked_at_closer_twice_in_a_frame_is_read_once_per_scale(monkeypatch):
    # A play may be looked at closer for two reasons in one frame (a faint card beside it, a
    # refusal): the second look reuses the views of the first.
    detector = FaintUnlessEnlarged()
    pipeline = Pipeline(film([(1.0, [(BLUE_KING, 600, 140)])]), LAYOUT, detector)
    looks = []

    def update(detections, t, *, moving=False, closer=None):
        if not looks:
            looks.extend([list(closer(3)), list(closer(3))])
        return []

    monkeypatch.setattr(pipeline.segmenter, "update", update)
    pipeline.run(lambda event: None)
    crops = [(height, width) for width, height in SeatZones(LAYOUT).crop_sizes]
    enlarged = [size for size in detector.sizes if size not in crops]
    assert len(enlarged) == len(CLOSER_SCALES) and len(looks[0]) == len(CLOSER_SCALES)
    assert all(again is first for first, again in zip(*looks))


def test_the_closer_views_are_read_ahead_of_the_commit_and_anew_when_the_zone_changes():
    # Two kings lie long enough for their commit to be rehearsed, their zone read closer; a
    # third lands before the window ends: the zone is detected again, and read closer again.
    detector = FaintUnlessEnlarged()
    kings = [(BLUE_KING, 600, 140), (BLUE_KING, 648, 140)]
    frames = film([(1.0, []), (0.5, kings), (2.0, [*kings, (BLUE_KING, 696, 140)])])
    crops = [(height, width) for width, height in SeatZones(LAYOUT).crop_sizes]
    views, events = [], []
    Pipeline(frames, LAYOUT, detector).run(
        lambda event: events.append((event, len(detector.sizes))),
        on_frame=lambda frame, found: views.append(len(detector.sizes)))
    ((event, read_by_then),) = events
    assert (event["seat"], event["cards"]) == (3, "KKK")
    assert "took in K (conf 0.140), counted when its zone was read closer" in event["reason"]
    height, width = crops[3]
    # Each time, the first two views count the card: they are most of the three.
    assert len(CLOSER_SCALES) == 3
    assert [size for size in detector.sizes if size not in crops] == 2 * [
        (round(height * scale), round(width * scale)) for scale in CLOSER_SCALES[:2]]
    assert read_by_then in views   # nothing read in the frame that committed the play


class LoosenableNms(FaintUnlessEnlarged):
    """:class:`FaintUnlessEnlarged` with an NMS threshold: loosened, a copy noting its own
    views."""

    def __init__(self, iou=0.6):
        super().__init__()
        self.iou, self.loosened = iou, []

    def with_iou(self, iou):
        self.loosened.append(LoosenableNms(iou))
        return self.loosened[-1]


def test_the_closer_views_are_read_with_a_looser_nms_where_the_detector_has_one():
    detector = LoosenableNms()
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 600, 140), (BLUE_KING, 648, 140)])])
    events = []
    Pipeline(frames, LAYOUT, detector, closer_iou=0.75).run(events.append)
    assert [(e["seat"], e["cards"]) for e in events] == [(3, "KK")]
    (loose,) = detector.loosened
    assert (detector.iou, loose.iou) == (0.6, 0.75)
    crops = [(height, width) for width, height in SeatZones(LAYOUT).crop_sizes]
    height, width = crops[3]
    assert all(size in crops for size in detector.sizes)
    assert loose.sizes == [(round(height * scale), round(width * scale))
                           for scale in CLOSER_SCALES[:2]]   # the first two agree
    # A detector without a threshold to set reads the closer views itself.
    assert Pipeline([], LAYOUT, blob_detector).closer_detector is blob_detector


def test_closer_scales_must_be_positive():
    with pytest.raises(ValueError, match="closer_scales must be positive"):
        Pipeline([], LAYOUT, blob_detector, closer_scales=(1.3, 0))


class FittingDetector(CountingDetector):
    """A detector of dynamic input size, noting the size it is fitted to."""

    dynamic = True

    def __init__(self):
        super().__init__()
        self.fitted = []

    def fit_input(self, width, height):
        self.fitted.append((width, height))


def largest_view(layout, per_zone):
    """The largest crop, enlarged for the closer look; or the whole frame."""
    crops = SeatZones(layout).crop_sizes
    if not per_zone:
        return (1280, 720)
    return tuple(math.ceil(max(sides) * max(CLOSER_SCALES)) for sides in zip(*crops))


@pytest.mark.parametrize("per_zone", [True, False], ids=["per-zone", "whole-frame"])
def test_a_dynamic_detector_is_fitted_to_the_largest_view_it_will_see(per_zone):
    detector = FittingDetector()
    pipeline = Pipeline(film([(0.3, [])]), LAYOUT, detector, per_zone=per_zone)
    assert detector.fitted == [largest_view(LAYOUT, per_zone)]
    # Recalibrated zones refit it before the next frame.
    wider = TableLayout.default([(240, 20), (1040, 20), (1040, 700), (240, 700)], (1280, 720))
    pipeline.set_table(wider)
    pipeline.run(lambda event: None)
    assert detector.fitted[-1] == largest_view(wider, per_zone)
    assert detector.fitted[-1] > detector.fitted[0] or not per_zone


@pytest.mark.parametrize("scale", [0.5, 1.5], ids=["640x360", "1920x1080"])
def test_a_cameras_frames_are_worked_on_at_720_and_shown_at_their_own_size(scale):
    fives = [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)]
    size = (round(1280 * scale), round(720 * scale))
    frames = [replace(frame, image=cv2.resize(frame.image, size, interpolation=cv2.INTER_AREA))
              for frame in film([(1.0, []), (2.0, fives)])]
    crops, shown, events = [], [], []

    def detector(image):
        crops.append(max(image.shape[:2]))
        return blob_detector(image)

    pipeline = Pipeline(frames, LAYOUT.resized(size), detector)
    pipeline.run(events.append, on_frame=lambda frame, found: shown.append((frame, found)))
    assert [(e["seat"], e["cards"]) for e in events] == [(0, "55")]
    # The detector read the zones as a 1280x720 camera's, the cards at the size it learnt.
    assert pipeline.zones.layout.image_size == (1280, 720)
    assert max(crops) == max(max(crop) for crop in SeatZones(LAYOUT).crop_sizes)
    # The live view gets the camera's own frames, the boxes in their pixels.
    frame, found = shown[-1]
    assert frame.image.shape[:2] == (size[1], size[0])
    np.testing.assert_allclose(found.xyxy / scale, [[600, 530, 640, 590], [648, 530, 688, 590]],
                               atol=2)


def from_afar(image, scale):
    """``image`` as a camera ``1 / scale`` times as far films it: shrunk into the middle of
    its frame, the room about it grey; and the move of its pixels."""
    height, width = image.shape[:2]
    small = (round(width * scale), round(height * scale))
    left, top = (width - small[0]) // 2, (height - small[1]) // 2
    filmed = np.full_like(image, 40)
    filmed[top:top + small[1], left:left + small[0]] = cv2.resize(image, small,
                                                                  interpolation=cv2.INTER_AREA)
    return filmed, np.array([[scale, 0, left], [0, scale, top], [0, 0, 1]])


def twice_as_far(script, scale=0.5):
    """The frames of ``script`` filmed by a camera twice as far (``1 / scale`` times:
    :func:`from_afar`), and :data:`LAYOUT` with its zones drawn where the table now lies, as
    the dashboard draws them (the play area stays as a new table file guessed it)."""
    frames = film(script)
    move = from_afar(frames[0].image, scale)[1]
    return ([replace(frame, image=from_afar(frame.image, scale)[0]) for frame in frames],
            replace(LAYOUT, seats=LAYOUT.transformed(move, (1280, 720)).seats))


def zones_side(layout):
    return math.sqrt(sum(cv2.contourArea(np.asarray(seat.polygon, np.float32))
                         for seat in layout.seats))


def test_a_far_cameras_small_zones_are_enlarged_to_the_card_models_scale():
    frames, far = twice_as_far([(1.0, []), (2.0, [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)])])
    assert zones_side(far) == pytest.approx(300, abs=1)
    crops, shown, events = [], [], []

    def detector(image):
        crops.append(max(image.shape[:2]))
        return blob_detector(image)

    pipeline = Pipeline(frames, far, detector)
    pipeline.run(events.append, on_frame=lambda frame, found: shown.append((frame, found)))
    assert [(e["seat"], e["cards"]) for e in events] == [(0, "55")]
    # Worked on enlarged until the zones cover PLAY_AREA_SIDE square, the cards with them.
    assert zones_side(pipeline.zones.layout) == pytest.approx(PLAY_AREA_SIDE, rel=2e-3)
    near = max(max(crop) for crop in SeatZones(LAYOUT).crop_sizes)
    assert max(crops) == pytest.approx(near * PLAY_AREA_SIDE / 600, abs=2)
    # The live view gets the camera's own frames, the boxes in their pixels.
    frame, found = shown[-1]
    assert frame.image.shape[:2] == (720, 1280)
    np.testing.assert_allclose(found.xyxy, np.array([[600, 530, 640, 590], [648, 530, 688, 590]])
                               * 0.5 + [320, 180] * 2, atol=2)


@pytest.mark.parametrize(("scale", "compared_at"), [(0.5, (469, 264)), (0.4, (640, 360))],
                         ids=["twice-as-far", "2.5-times-as-far"])
def test_a_far_cameras_frames_are_enlarged_only_when_a_zone_is_read(monkeypatch, scale,
                                                                   compared_at):
    frames, far = twice_as_far([(1.0, []), (2.0, [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)]),
                                (1.0, [])], scale)
    working = working_layout(far).image_size
    resized, detector_runs, runs_by_frame, events = [], [], [], []
    real_resize = cv2.resize

    def resize(image, size, *args, **kwargs):
        resized.append((image.shape[:2], tuple(size)))
        return real_resize(image, size, *args, **kwargs)

    def detector(image):
        detector_runs.append(image.shape)
        return blob_detector(image)

    monkeypatch.setattr(cv2, "resize", resize)
    Pipeline(frames, far, detector).run(
        events.append, on_frame=lambda frame, found: runs_by_frame.append(len(detector_runs)))
    assert [(e["seat"], e["cards"]) for e in events if e["type"] == "play"] == [(0, "55")]
    # The frame is enlarged for the frames whose zones are read, and for no other.
    frames_read = np.count_nonzero(np.diff(runs_by_frame, prepend=0))
    assert [size for _, size in resized].count(working) == frames_read < len(frames) / 4
    # Every frame is compared shrunk from the frame as it came: to a quarter of the working
    # size, or near it to a whole fraction of the frame, which is fast to shrink to (half of
    # 1280x720 rather than 587x330).
    assert resized.count(((720, 1280), compared_at)) == len(frames)


def recalibrated(frames, table, at):
    """Run ``frames`` with :data:`LAYOUT`'s zones, ``table`` set at frame ``at`` as the
    dashboard sets it: the events as (type, seat, cards), the working size at each frame."""
    events, working = [], {}

    def on_frame(frame, found):
        working[frame.index] = pipeline.zones.layout.image_size
        if frame.index == at:
            pipeline.set_table(table)

    pipeline = Pipeline(frames, LAYOUT, blob_detector)
    pipeline.run(events.append, on_frame=on_frame)
    assert pipeline.table is table
    return [(e["type"], e.get("seat"), e.get("cards")) for e in events], working


def test_zones_recalibrated_to_another_working_size_wait_for_the_trick_to_be_gathered():
    # Seat 0's 55 lies on the table when the zones are redrawn; the trick is gathered, then
    # seat 3 plays a king.
    fives, king = [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)], [(BLUE_KING, 620, 140)]
    frames, far = twice_as_far([(1.0, []), (2.0, fives), (2.0, []), (2.0, king)])
    events, working = recalibrated(frames, far, at=20)
    assert events == [("play", 0, "55"), ("collect", None, None), ("play", 3, "K")]
    # The 55 remembered kept the old size until it was swept away.
    assert working[25] == (1280, 720) and working[45] == (1876, 1056)


def test_a_straggler_of_the_gathered_trick_stays_no_play_in_zones_of_another_size():
    # Ten cards gathered but one five, which stays where it lay; the zones are redrawn then,
    # and seat 3 leads a king.
    fives = [(RED_FIVE, 560 + 45 * i, 560) for i in range(5)]
    kings = [(BLUE_KING, 560 + 45 * i, 140) for i in range(5)]
    frames, far = twice_as_far([(1.0, []), (2.0, fives), (2.0, fives + kings),
                                (2.0, fives[:1]), (2.0, fives[:1] + [(BLUE_KING, 640, 200)])])
    events, working = recalibrated(frames, far, at=60)
    assert events == [("play", 0, "55555"), ("play", 3, "KKKKK"), ("collect", None, None),
                      ("play", 3, "K")]
    assert working[55] == (1280, 720) and working[65] == (1876, 1056)


def test_a_play_area_too_small_to_read_is_enlarged_no_more_than_most_enlarged(caplog):
    speck = LAYOUT.transformed([[0.1, 0, 600], [0, 0.1, 330], [0, 0, 1]], (1280, 720))
    assert working_layout(speck).image_size == (round(1280 * MOST_ENLARGED), 720 * MOST_ENLARGED)
    assert working_layout(LAYOUT) is LAYOUT
    # The operator is told, once, when the table is taken on: in the log and the stats.
    half = Pipeline([], LAYOUT.transformed(np.diag([0.5, 0.5, 1]), (1280, 720)), blob_detector)
    assert not caplog.records and half.stats.zones_warning is None
    told = Pipeline([], speck, blob_detector).stats.zones_warning
    assert [r.getMessage() for r in caplog.records] == [told]
    assert told is not None and told.startswith(
        "the seat zones cover a square only 180 px wide though enlarged 3 times (440 wanted)")
    assert told.endswith("bring the camera closer or film at a higher resolution")


def test_stop_ends_the_run_and_on_frame_sees_every_frame():
    frames = film([(3.0, [])])
    seen = []
    stats = Pipeline(frames, LAYOUT, blob_detector).run(
        lambda e: None, on_frame=lambda frame, found: seen.append(frame.index),
        stop=lambda: len(seen) >= 5)
    assert seen == [0, 1, 2, 3, 4] and stats.frames == 5


@pytest.mark.parametrize("stopped", [False, True])
def test_the_segmenters_last_word_is_heard_when_the_source_ends_not_when_stopped(stopped):
    # What the end of a filmed round calls for (tracker tests: a last lead read short) comes
    # after the last frame's events, counted; a run stopped by hand is no end of a round.
    frames = film([(1.0, []), (2.0, [(BLUE_KING, 620, 140)])])
    pipeline = Pipeline(frames, LAYOUT, blob_detector)
    correction = {"type": "play", "seat": 3, "cards": "KK", "fixes": 1, "seq": 2,
                  "review": True}
    pipeline.segmenter.finish = lambda: [correction]
    events = []
    stats = pipeline.run(events.append, stop=lambda: stopped and len(events) == 1)
    assert [(e["cards"], e.get("fixes")) for e in events] == (
        [("K", None)] if stopped else [("K", None), ("KK", 1)])
    assert stats.plays == 1 and stats.corrections == (not stopped)
    assert stats.held == (not stopped)  # the play as it stands, corrected and held


@pytest.mark.parametrize(("change", "moving", "detected"), [
    (None, [], []),                # nothing changed
    ((640, 600), [0], [0]),        # something in the middle of seat 0's zone
    ((790, 600), [0, 1], [0, 1]),  # a blob across the border of seats 0 and 1
    ((640, 690), [], [0]),         # just outside the play area, within reach of seat 0's cards
])
def test_change_detector_waits_for_rest_before_detecting(change, moving, detected):
    changes = ChangeDetector(SeatZones(LAYOUT))
    still = np.full((720, 1280, 3), 90, np.uint8)
    first_moving, first_detect = changes.update(still)
    assert not first_moving.any() and first_detect.all()   # everything is new at first
    image = still.copy()
    if change is not None:
        cv2.circle(image, change, 20, (255, 255, 255), -1)
    got_moving, got_detect = changes.update(image)
    assert np.flatnonzero(got_moving).tolist() == moving and not got_detect.any()
    # At rest on the next frame: the seats whose cards it may concern are detected, once.
    assert np.flatnonzero(changes.update(image)[1]).tolist() == detected
    assert not changes.update(image)[1].any()


def test_demo_assets_are_rendered_once_and_then_reused(tmp_path, monkeypatch):
    calls = []

    def fake_render(seed, out):
        calls.append(seed)
        out.mkdir(parents=True)
        for name in ("game.mp4", "table.json", "truth.jsonl"):
            (out / name).write_text("")

    monkeypatch.setattr("vision.render_game.render_game", fake_render)
    first = demo_assets(tmp_path)
    folder = tmp_path / f"demo-{DEMO_SEED}-r{RENDER_VERSION}"
    assert demo_assets(tmp_path) == first == (folder / "game.mp4", folder / "table.json")
    assert calls == [DEMO_SEED]


def test_sensor_noise_is_neither_motion_nor_change():
    changes = ChangeDetector(SeatZones(LAYOUT))
    rng = np.random.default_rng(0)
    table = np.full((720, 1280, 3), 90, np.int16)
    for i in range(10):
        noisy = np.clip(table + rng.normal(0, 6, table.shape), 0, 255).astype(np.uint8)
        moving, detect = changes.update(noisy)
        assert not moving.any() and (i == 0 or not detect.any())


def test_the_whole_picture_brightening_or_darkening_is_neither_motion_nor_change():
    # A webcam's exposure hunting, or lights flickering against its frame rate, changes every
    # pixel by a few percent at once: a white card by more than a pixel's noise.
    changes = ChangeDetector(SeatZones(LAYOUT))
    table = np.full((720, 1280, 3), (60, 110, 70), np.uint8)
    cv2.rectangle(table, (600, 520), (680, 640), (235, 235, 235), -1)  # a card in seat 0's zone
    assert changes.update(table)[1].all()
    for gain in (1.06, 1.1, 0.96, 0.9, 0.93, 1.0):
        moving, detect = changes.update(cv2.convertScaleAbs(table, alpha=gain))
        assert not moving.any() and not detect.any(), gain
    # A card laid meanwhile is still seen, in the seat whose zone it lies in.
    laid = table.copy()
    cv2.rectangle(laid, (610, 90), (670, 170), (235, 235, 235), -1)
    darker = cv2.convertScaleAbs(laid, alpha=0.92)
    assert np.flatnonzero(changes.update(darker)[0]).tolist() == [3]
    assert np.flatnonzero(changes.update(darker)[1]).tolist() == [3]


def test_recalibrated_zones_take_effect_while_the_pipeline_runs():
    """The operator drags the zones during a game: later plays go to the seats of the new zones."""
    rotated = TableLayout(LAYOUT.image_size, LAYOUT.play_area, tuple(
        Seat(seat.index, LAYOUT.seats[(seat.index + 1) % 6].polygon) for seat in LAYOUT.seats))
    first, second = [(RED_FIVE, 620, 560)], [(BLUE_KING, 620, 140)]
    frames = film([(1.0, []), (2.0, first), (2.0, first + second)])
    events = []
    pipeline = Pipeline(frames, LAYOUT, blob_detector)

    def on_frame(frame, found):
        if frame.index == 25:  # after the first play, before the second
            pipeline.set_table(rotated)

    pipeline.run(events.append, on_frame=on_frame)
    # Seat 3's old zone is seat 2's now; the five already committed is not played again.
    assert [(e["seat"], e["cards"]) for e in events if e["type"] == "play"] == [(0, "5"), (2, "K")]
    assert pipeline.table is rotated


def bumped_film():
    """Someone leans on the table after the first play: the camera's picture moves by 30 px
    and turns by half a degree, and stays so."""
    fives, king = [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)], [(BLUE_KING, 620, 140)]
    frames = film([(1.0, []), (2.0, fives), (2.0, fives), (2.0, fives + king)],
                  table=checked_cloth((1280, 720), square=24))
    frames[30:] = [   # over three frames from 3 s on
        replace(frame, image=filmed(frame.image, camera_pose((1280, 720), *np.array(
            [26, 15, 0.5]) * min((frame.index - 29) / 3, 1.0))))
        for frame in frames[30:]]
    return frames


@pytest.mark.parametrize("steady", [True, False])
def test_a_camera_bumped_between_two_plays_changes_no_play(steady):
    events, shown = [], {}
    pipeline = Pipeline(bumped_film(), LAYOUT, blob_detector, steady=steady)
    pipeline.run(events.append, on_frame=lambda frame, found: shown.update({frame.index: found}))
    plays = [(e["seat"], e["cards"]) for e in events if e["type"] == "play"]
    if not steady:   # the fives, seen 30 px off, are taken for a trick gathered and laid anew
        assert plays == [(0, "55"), (0, "55"), (3, "K")]
        return
    assert plays == [(0, "55"), (3, "K")]
    assert pipeline.stats.camera_motion is not None and pipeline.stats.camera_motion.moves == 1
    # The frames handed on are held to the table's view: the king is seen where it was laid.
    assert len(shown[69]) == 3
    assert np.abs(shown[69].xyxy[shown[69].class_id == BLUE_KING][0]
                  - [600, 110, 641, 171]).max() <= 2


FIVES = [(RED_FIVE, 620, 560), (RED_FIVE, 668, 560)]
KINGS = [(BLUE_KING, 620, 140), (BLUE_KING, 668, 140)]


def bumped_on_a_plain_cloth(frames, *, at=50, pose=(26, 15, 0.5)):
    """``frames`` filmed by a camera bumped over three frames from frame ``at`` on."""
    return frames[:at] + [
        replace(frame, image=filmed(frame.image, camera_pose((1280, 720), *np.array(pose) * min(
            (frame.index - at + 1) / 3, 1.0))))
        for frame in frames[at:]]


@pytest.mark.parametrize("fives, kings", [(FIVES, KINGS), (FIVES[:1], KINGS[:1])])
def test_a_camera_bumped_over_a_plain_cloth_is_followed_by_the_cards_it_sees(fives, kings):
    """A bare grey table gives the camera's picture nothing of its own to follow: the cards
    of two seats, all moved as one, show the move."""
    frames = film([(1.0, []), (2.0, fives), (2.0, fives + kings), (2.0, fives + kings),
                   (2.0, fives + kings + [(BLUE_KING, 716, 140)])])
    events = []
    pipeline = Pipeline(bumped_on_a_plain_cloth(frames), LAYOUT, blob_detector)
    pipeline.run(events.append)
    assert [(e["seat"], e["cards"]) for e in events if e["type"] == "play"] == [
        (0, "5" * len(fives)), (3, "K" * len(kings)), (3, "K")]
    assert pipeline.stats.camera_motion is not None
    told = pipeline.stats.camera_motion.pose
    assert pipeline.stats.camera_motion.moves == 1
    assert (told.dx, told.dy, told.turn) == pytest.approx((26, 15, 0.5), abs=1.5)


def test_one_seats_cards_moved_by_a_hand_are_no_camera_move():
    """Four kings pushed 20 px along while the fives lie still: two thirds of the table's cards
    moved as one, but in one seat's zone of two holding cards: a hand, not the camera."""
    kings = [(BLUE_KING, x, 140) for x in (572, 620, 668, 716)]
    pushed = [(BLUE_KING, x + 20, 148) for x in (572, 620, 668, 716)]
    frames = film([(1.0, []), (2.0, FIVES), (2.0, FIVES + kings), (0.5, FIVES + ["hand"]),
                   (2.0, FIVES + pushed)])
    pipeline = Pipeline(frames, LAYOUT, blob_detector)
    pipeline.run(lambda event: None)
    assert pipeline.stats.camera_motion is not None
    assert pipeline.stats.camera_motion.moves == 0


def test_a_live_view_of_a_few_frames_a_second_has_only_those_warped_back(monkeypatch):
    warped = []
    steady = Stabilizer.steady

    def counting_steady(self, image):
        warped.append(image.shape[1])
        return steady(self, image)

    monkeypatch.setattr(Stabilizer, "steady", counting_steady)
    events, shown = [], []
    # Frames come far faster than one an hour: the first alone is shown.
    pipeline = Pipeline(bumped_film(), LAYOUT, blob_detector)
    pipeline.run(events.append, on_frame=lambda frame, found: shown.append(frame.index),
                 frame_every=3600)
    assert shown == [0]
    assert [(e["seat"], e["cards"]) for e in events if e["type"] == "play"] == [(0, "55"),
                                                                              (3, "K")]
    # Displaced from 3 s on, each frame's quarter-size copy is warped back; no whole frame is.
    assert warped and 1280 not in warped


def test_a_table_for_another_image_size_is_refused():
    other = TableLayout.default([(0, 0), (600, 0), (600, 400), (0, 400)], (640, 480))
    with pytest.raises(ValueError, match="640x480"):
        Pipeline([], LAYOUT, blob_detector).set_table(other)


def unsure_fourth_five(image):
    """The blob detector, unsure (0.3) of a 5 lying right of x = 680."""
    found = blob_detector(image)
    unsure = (found.class_id == RED_FIVE) & (found.xyxy[:, 0] > 680)
    return Detections(xyxy=found.xyxy, class_id=found.class_id,
                      confidence=np.where(unsure, 0.3, 0.9).astype(np.float32))


def lead_corrected_by_its_answer():
    """Seat 0 leads four 5s, the fourth read unsurely; seat 1 answers with three kings."""
    lead = [(RED_FIVE, 580 + 45 * i, 560) for i in range(4)]
    answer = [(BLUE_KING, 800 + 45 * i, 480) for i in range(3)]
    return film([(1.0, []), (1.0, ["hand", *lead]), (1.5, lead),
                 (1.0, ["hand", *lead, *answer]), (1.5, [*lead, *answer])])


def test_events_are_numbered_in_order_and_a_correction_names_its_plays_number():
    """A lead read with a card too many, corrected when the answer comes: the pipeline's
    numbers (``seq``, round events included) are what the correction's ``fixes`` names."""
    match, events = rules.Match(ruleset="qingdao"), []

    def on_event(event):
        events.append(event)
        match.apply(event, line=len(events))

    stats = Pipeline(lead_corrected_by_its_answer(), LAYOUT, unsure_fourth_five, match=match,
                     per_zone=False).run(on_event)
    assert [(e["seq"], e["type"], e.get("cards"), e.get("fixes")) for e in events] == [
        (1, "round", None, None), (2, "play", "5555", None), (3, "play", "555", 2),
        (4, "play", "KKK", None)]
    assert stats.plays == 2 and stats.corrections == 1 and stats.events == 4
    assert match.errors == [] and match.to_json()["counts"]["0"] == 33
    assert rules.replay(events).to_json() == match.to_json()


@pytest.mark.parametrize("per_zone", [True, False], ids=["per-zone", "whole-frame"])
def test_each_new_play_comes_with_a_picture_of_its_cards_as_read(per_zone):
    pictures: dict[int, NDArray[np.uint8]] = {}
    events: list[dict] = []

    def on_picture(seq, jpeg):
        pictures[seq] = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)

    Pipeline(lead_corrected_by_its_answer(), LAYOUT, unsure_fourth_five,
             match=rules.Match(ruleset="qingdao"), per_zone=per_zone).run(
        events.append, on_picture=on_picture)
    plays = {e["seq"]: e for e in events if e["type"] == "play" and "fixes" not in e}
    assert sorted(pictures) == sorted(plays) == [2, 4]   # the correction (3) has none
    for seq, picture in pictures.items():
        # Two halves: the cards as filmed, and the same with their boxes drawn.
        middle = picture.shape[1] // 2
        filmed_half, drawn_half = picture[:, :middle - 3], picture[:, middle + 3:]
        colour = {"5": (0, 0, 255), "K": (255, 0, 0)}[plays[seq]["cards"][0]]
        cards = len(plays[seq]["cards"])
        for half in (filmed_half, drawn_half):
            card_pixels = np.all(np.abs(half.astype(int) - colour) < 60, axis=2).sum()
            # Each 40×60 card whole, never shrunk (JPEG blurs its edges).
            assert card_pixels > 0.9 * cards * 40 * 60
        rank = CLASS_NAMES.index(plays[seq]["cards"][0])
        boxed = [np.all(np.abs(half.astype(int) - CLASS_COLORS[rank]) < 40, axis=2).sum()
                 for half in (filmed_half, drawn_half)]
        assert boxed[1] > boxed[0] + 500


def test_a_picture_that_cannot_be_kept_is_logged_and_the_game_goes_on(caplog):
    def disk_full(seq, jpeg):
        raise OSError(28, "No space left on device")

    events: list[dict] = []
    Pipeline(lead_corrected_by_its_answer(), LAYOUT, unsure_fourth_five,
             match=rules.Match(ruleset="qingdao"), per_zone=False).run(
        events.append, on_picture=disk_full)
    assert [(e["seq"], e["type"]) for e in events] == [
        (1, "round"), (2, "play"), (3, "play"), (4, "play")]
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        "no picture of play 2", "no picture of play 4"]
