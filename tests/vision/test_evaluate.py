"""Detector metrics on hand-made boxes with answers worked out by hand."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import numpy as np
import pytest

from vision.classes import class_id
from vision.detections import Detections
from vision.evaluate import (
    ScenePlays,
    average_precision,
    box_iou,
    class_map_from_names,
    evaluate,
    evaluate_at,
    evaluate_images,
    heldout_synthetic_set,
    load_yolo_folder,
    read_labels,
)


def cards(*rows: tuple) -> Detections:
    """Rows ``(x1, y1, x2, y2, rank)`` (truth) or ``(x1, y1, x2, y2, rank, score)``."""
    return Detections(
        xyxy=np.array([r[:4] for r in rows], np.float32).reshape(-1, 4),
        confidence=np.array([r[5] if len(r) > 5 else 1.0 for r in rows], np.float32),
        class_id=np.array([class_id(r[4]) for r in rows], np.int_),
    )


# Two tens and a five, side by side.
TRUTH = cards((0, 0, 10, 10, "T"), (20, 0, 30, 10, "T"), (40, 0, 50, 10, "5"))


def test_box_iou_table():
    a = np.array([[0, 0, 10, 10], [0, 0, 0, 0]])
    b = np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]])
    assert np.allclose(box_iou(a, b), [[1, 1 / 3, 0], [0, 0, 0]])
    assert box_iou(np.zeros((0, 4)), b).shape == (0, 3)


@pytest.mark.parametrize(
    ("scores", "hits", "num_truth", "ap"),
    [
        ([0.9, 0.8], [True, True], 2, 1.0),                       # all found, nothing extra
        ([0.9, 0.8, 0.7], [True, False, True], 2, (51 + 50 * 2 / 3) / 101),
        # precision 1 up to recall .5 (51 points), then 2/3 up to recall 1 (50 points)
        ([0.9, 0.8, 0.7], [False, True, True], 2, (101 * 2 / 3) / 101),
        # the false positive ranks first: precision 1/2 at recall .5, 2/3 at 1; envelope 2/3
        ([0.9], [True], 4, 26 / 101),                             # recall reaches .25 only
        ([0.9, 0.5], [False, False], 1, 0.0),                     # nothing right
        ([], [], 3, 0.0),                                         # nothing found
        ([0.5, 0.9], [True, False], 1, 0.5 * 101 / 101),          # sorted by score first: 1/2
    ],
)
def test_average_precision_101_points(scores, hits, num_truth, ap):
    assert average_precision(np.array(scores), np.array(hits, bool), num_truth) == pytest.approx(ap)


def test_perfect_detections_score_one_everywhere():
    found = cards(*[(*r[:5], 0.9) for r in [(0, 0, 10, 10, "T"), (20, 0, 30, 10, "T"),
                                            (40, 0, 50, 10, "5")]])
    result = evaluate([found], [TRUTH])
    assert (result.map50, result.map50_95, result.exact_match, result.rank_accuracy) == (1, 1, 1, 1)
    assert result.ap50 == {"5": 1.0, "T": 1.0}
    assert (result.images, result.cards) == (1, 3)


def test_loose_box_counts_at_low_iou_thresholds_only():
    # IoU 0.72: a hit at 0.50 … 0.70 (5 thresholds), a miss at 0.75 … 0.95 (5 thresholds).
    truth = cards((0, 0, 100, 100, "Q"))
    found = cards((0, 0, 100, 72, "Q", 0.9))
    result = evaluate([found], [truth])
    assert result.map50 == 1.0
    assert result.map50_95 == pytest.approx(0.5)
    assert result.exact_match == 1.0


def test_a_duplicate_box_is_a_false_positive():
    truth = cards((0, 0, 10, 10, "T"))
    found = cards((0, 0, 10, 10, "T", 0.9), (0, 0, 10, 10, "T", 0.8))
    result = evaluate([found], [truth])
    assert result.map50 == 1.0                      # the duplicate ranks after the only hit
    assert result.exact_match == 0.0                # but the play reads "T T": wrong
    assert result.rank_accuracy == 1.0


def test_a_duplicate_ranked_first_costs_precision():
    truths = [cards((0, 0, 10, 10, "T")), cards((0, 0, 10, 10, "T"))]
    predictions = [cards((50, 50, 60, 60, "T", 0.95)), cards((0, 0, 10, 10, "T", 0.9))]
    # image 1: a false ten at 0.95 ; image 2: a true ten at 0.9. Recall .5 at precision 1/2;
    # image 1's ten is never found, so recall stops at .5: 51 points of 1/2.
    result = evaluate(predictions, truths)
    assert result.map50 == pytest.approx(51 * 0.5 / 101)
    assert result.exact_match == 1.0                # each play does read "T": ranks, not places
    assert result.rank_accuracy == 0.5              # but image 1's card was not read


# Two plays side by side (a pair of tens, a lone five) over a pile card (a K), in one scene;
# a third ten of the pair lies under the others, too hidden to be labelled.
SCENE = cards((0, 0, 10, 10, "T"), (8, 0, 18, 10, "T"), (40, 0, 50, 10, "5"), (0, 20, 10, 30, "K"))
SCENE_PLAYS = ScenePlays(np.array([0, 0, 1, -1]), hidden=cards((4, 0, 14, 10, "T")))


@pytest.mark.parametrize(("found", "right"), [
    # every card read right: both plays
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "T", .9), (40, 0, 50, 10, "5", .9),
      (0, 20, 10, 30, "K", .9)], [True, True]),
    # the pile card misread, the five missed: the pair is still right, the five is not
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "T", .9), (0, 20, 10, 30, "Q", .9)],
     [True, False]),
    # a ten found twice: the second box takes no card and lies within the pair
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "T", .9), (9, 0, 17, 10, "T", .5),
      (40, 0, 50, 10, "5", .9)], [False, True]),
    # a ten read as a five: the pair reads "T 5", the five's play is untouched
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "5", .9), (40, 0, 50, 10, "5", .9)],
     [False, True]),
    # a box of nothing between the plays counts against neither
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "T", .9), (40, 0, 50, 10, "5", .9),
      (25, 0, 35, 10, "9", .9)], [True, True]),
    # the hidden ten found and read: a card of the play, not an extra one
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "T", .9), (4, 0, 14, 10, "T", .5),
      (40, 0, 50, 10, "5", .9)], [True, True]),
    # the hidden ten found but misread: the pair reads "T T 9"
    ([(0, 0, 10, 10, "T", .9), (8, 0, 18, 10, "T", .9), (4, 0, 14, 10, "9", .5),
      (40, 0, 50, 10, "5", .9)], [False, True]),
])
def test_each_play_of_a_scene_is_judged_apart(found, right):
    result = evaluate([cards(*found)], [SCENE], plays=[SCENE_PLAYS])
    assert result.plays == 2
    assert result.play_exact_match == np.mean(right)
    assert result.to_json()["play_exact_match"] == round(np.mean(right), 4)
    assert (" of images, " in result.format()) and ("plays 2" in result.format())
    # the pair is a play of two cards, the five one of a lone card
    pair, five = right
    assert result.play_exact_by_size == {"1": (1, float(five)), "2-3": (1, float(pair))}
    assert result.to_json()["play_exact_by_size"]["2-3"] == {"plays": 1, "exact": float(pair)}
    assert (f"plays exact by cards in the play: 1: {five:.1%} of 1, 2-3: {pair:.1%} of 1"
            in result.format())


def test_without_plays_only_scenes_are_judged():
    found = cards((0, 0, 10, 10, "T", .9))
    result = evaluate([found, found], [SCENE, SCENE], plays=[None, None])
    assert (result.plays, result.play_exact_match) == (0, None)
    assert result.to_json()["play_exact_match"] is None and " of plays" not in result.format()
    assert result.play_exact_by_size == {} and "by cards in the play" not in result.format()
    assert evaluate([found, found], [SCENE, SCENE], plays=[None, SCENE_PLAYS]).plays == 2
    with pytest.raises(ValueError, match="plays for 1 of 2 labelled images"):
        evaluate([found, found], [SCENE, SCENE], plays=[SCENE_PLAYS])


def test_a_generated_sets_plays_are_read_with_its_labels(tmp_path):
    write_image(tmp_path / "images" / "a.png", (100, 200))
    write_image(tmp_path / "images" / "b.png", (100, 200))
    (tmp_path / "labels").mkdir()
    (tmp_path / "plays").mkdir()
    (tmp_path / "labels" / "a.txt").write_text("7 0.5 0.5 0.2 0.4\n1 0.25 0.25 0.1 0.2\n")
    (tmp_path / "plays" / "a.txt").write_text("0\n-1\n")
    a, b = load_yolo_folder(tmp_path)
    assert a.play.tolist() == [0, -1] and b.play is None and b.scene_plays((100, 200)) is None
    assert len(a.scene_plays((100, 200)).hidden) == 0                 # no hidden/ file: none hidden
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / "a.txt").write_text("7 0.55 0.5 0.2 0.4\n")
    a, _ = load_yolo_folder(tmp_path)
    assert a.scene_plays((100, 200)).hidden.xyxy.round().tolist() == [[90, 30, 130, 70]]
    result = evaluate_images(lambda image: cards((80, 30, 120, 70, "T", 0.9)), [a])
    assert (result.plays, result.play_exact_match) == (1, 1.0)
    (tmp_path / "plays" / "a.txt").write_text("0\n")
    with pytest.raises(ValueError, match="1 plays for 2 labelled cards"):
        load_yolo_folder(tmp_path)
    (tmp_path / "plays" / "a.txt").write_text("0\nx\n")
    with pytest.raises(ValueError, match="one play number per line"):
        load_yolo_folder(tmp_path)


def test_a_card_is_read_by_its_own_box_not_by_a_surer_neighbour_over_it():
    fan = cards((0, 0, 10, 10, "5"), (2, 0, 12, 10, "7"))           # the 7 shows a strip
    found = cards((0, 0, 10, 10, "5", 0.9), (2, 0, 12, 10, "7", 0.6))
    assert box_iou(found.xyxy[:1], fan.xyxy[1:])[0, 0] >= 0.5       # the 5's box covers the 7
    result = evaluate([found], [fan])
    assert result.rank_accuracy == 1.0 and result.outcomes["extra"] == 0
    alone = evaluate([found[:1]], [fan])              # the 7's own box missing: not misread
    assert alone.outcomes == {"read right": 1, "misread": 0, "found below the threshold": 0,
                              "not found": 1, "extra": 0}


def test_wrong_rank_is_a_miss_for_the_true_class():
    truth = cards((0, 0, 10, 10, "9"))
    found = cards((0, 0, 10, 10, "6", 0.9))
    result = evaluate([found], [truth])
    assert result.ap50 == {"9": 0.0}                # "6" has no truth: left out of the mean
    assert result.map50 == 0.0
    assert result.rank_accuracy == 0.0 and result.exact_match == 0.0


def test_each_truth_card_has_one_outcome_and_stray_boxes_are_extra():
    truth = cards((0, 0, 10, 10, "9"), (20, 0, 30, 10, "9"), (40, 0, 50, 10, "K"),
                  (60, 0, 70, 10, "A"))
    found = cards((0, 0, 10, 10, "9", 0.9),          # read right
                  (0, 0, 10, 10, "6", 0.3),          # a weaker box on it: found twice, extra
                  (20, 0, 30, 10, "6", 0.8),         # misread
                  (40, 0, 50, 10, "K", 0.1),         # found below the threshold
                  (80, 0, 90, 10, "Q", 0.7),         # covers no card: extra
                  (100, 0, 110, 10, "Q", 0.2))       # below the threshold: not extra
    result = evaluate([found], [truth], conf=0.25)
    assert result.outcomes == {"read right": 1, "misread": 1, "found below the threshold": 1,
                               "not found": 1, "extra": 2}
    assert result.rank_accuracy == 0.25
    assert "25.0% read right, 25.0% misread" in result.format()
    empty = evaluate([cards()], [truth])
    assert empty.outcomes["not found"] == 4 and empty.outcomes["extra"] == 0


def test_classes_are_matched_separately():
    truth = cards((0, 0, 10, 10, "T"), (0, 0, 10, 10, "J"))      # two cards, same box
    found = cards((0, 0, 10, 10, "J", 0.9), (0, 0, 10, 10, "T", 0.8))
    assert evaluate([found], [truth]).map50 == 1.0


def test_each_truth_box_is_matched_once_to_the_best_free_box():
    # Two overlapping tens; the best detection overlaps both but matches the closer one, the
    # second detection then takes the remaining truth.
    truth = cards((0, 0, 10, 10, "T"), (4, 0, 14, 10, "T"))
    found = cards((3, 0, 13, 10, "T", 0.9), (0, 0, 10, 10, "T", 0.8))
    assert evaluate([found], [truth]).map50 == 1.0


def test_exact_match_ignores_boxes_under_the_runtime_threshold():
    found = cards((0, 0, 10, 10, "T", 0.9), (20, 0, 30, 10, "T", 0.9), (40, 0, 50, 10, "5", 0.9),
                  (60, 0, 70, 10, "5", 0.1))         # a faint extra five: below conf 0.25
    result = evaluate([found], [TRUTH])
    assert result.exact_match == 1.0
    assert evaluate([found], [TRUTH], conf=0.05).exact_match == 0.0


def test_several_runtime_scores_at_once_agree_with_one_at_a_time():
    found = cards((0, 0, 10, 10, "T", 0.9), (20, 0, 30, 10, "T", 0.3), (40, 0, 50, 10, "5", 0.9),
                  (60, 0, 70, 10, "5", 0.1))
    scores = [0.05, 0.25, 0.5]
    together = evaluate_at([found], [TRUTH], scores)
    assert together == [evaluate([found], [TRUTH], conf=score) for score in scores]
    assert [e.exact_match for e in together] == [0.0, 1.0, 0.0]   # the faint five, then a ten lost
    assert len({(e.map50, e.map50_95) for e in together}) == 1   # AP knows no run-time score


@pytest.mark.parametrize(
    ("found", "exact"),
    [
        (cards((0, 0, 10, 10, "T", .9), (20, 0, 30, 10, "T", .9), (40, 0, 50, 10, "5", .9)), True),
        (cards((0, 0, 10, 10, "T", .9), (40, 0, 50, 10, "5", .9)), False),       # a ten missing
        (cards((0, 0, 10, 10, "T", .9), (20, 0, 30, 10, "5", .9), (40, 0, 50, 10, "5", .9)), False),
        # one T read as 5: same count, wrong multiset
        (cards((0, 0, 10, 10, "5", .9), (20, 0, 30, 10, "T", .9), (40, 0, 50, 10, "T", .9)), True),
        # ranks right, boxes shuffled: the play is still read right (a multiset)
    ],
)
def test_exact_match_compares_multisets_of_ranks(found, exact):
    assert evaluate([found], [TRUTH]).exact_match == float(exact)


def test_empty_images_count_for_exact_match():
    result = evaluate([Detections.empty(), cards((0, 0, 5, 5, "3", 0.9))],
                      [Detections.empty(), Detections.empty()])
    assert result.exact_match == 0.5
    assert (result.map50, result.cards) == (0.0, 0)


def test_mismatched_lengths_are_an_error():
    with pytest.raises(ValueError, match="2 predictions for 1"):
        evaluate([Detections.empty()] * 2, [Detections.empty()])


@pytest.mark.parametrize(
    ("names", "ids", "expectation"),
    [
        (["nine", "ten", "jack", "queen", "king", "ace"], [6, 7, 8, 9, 10, 11], nullcontext()),
        (["3", "10", "T", "sj", "BJ", "back"], [0, 7, 7, 13, 14, 15], nullcontext()),
        (["Two", "big_joker"], [12, 14], nullcontext()),
        (["joker"], None, pytest.raises(ValueError, match="unknown card class")),
    ],
)
def test_class_map_from_names(names, ids, expectation):
    with expectation:
        assert class_map_from_names(names).tolist() == ids


def write_image(path: Path, shape: tuple[int, int] = (100, 200)) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.zeros((*shape, 3), np.uint8))


def test_load_yolo_folder_with_its_own_class_list(tmp_path):
    write_image(tmp_path / "images" / "a.jpg")
    write_image(tmp_path / "images" / "b.png")                # no label file: no cards
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.txt").write_text("1 0.5 0.5 0.2 0.4\n\n5 0.25 0.25 0.1 0.1\n")
    (tmp_path / "classes.txt").write_text("nine\nten\njack\nqueen\nking\nace\n")
    a, b = load_yolo_folder(tmp_path)
    assert a.path.name == "a.jpg" and b.path.name == "b.png"
    truth = a.truth((100, 200, 3))
    assert truth.names() == ["T", "A"]
    assert np.allclose(truth.xyxy, [[80, 30, 120, 70], [40, 20, 60, 30]])
    assert len(b.truth((100, 200, 3))) == 0


def test_load_yolo_folder_with_splits_in_ultralytics_layout(tmp_path):
    write_image(tmp_path / "images" / "val" / "s1.png")
    (tmp_path / "labels" / "val").mkdir(parents=True)
    (tmp_path / "labels" / "val" / "s1.txt").write_text("15 0.5 0.5 0.5 0.5\n")
    (item,) = load_yolo_folder(tmp_path)
    assert item.truth((100, 200)).names() == ["back"]


@pytest.mark.parametrize(
    ("label", "message"),
    [("7 0.5 0.5 0.2\n", "expected 'class cx cy w h'"),
     ("x 0.5 0.5 0.2 0.2\n", "expected 'class cx cy w h'"),
     ("16 0.5 0.5 0.2 0.2\n", "class 16 is not one of 16")],
)
def test_load_yolo_folder_reports_bad_label_lines(tmp_path, label, message):
    write_image(tmp_path / "images" / "a.png")
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.txt").write_text(label)
    with pytest.raises(ValueError, match=message):
        load_yolo_folder(tmp_path)


def test_load_yolo_folder_needs_images(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such dataset folder"):
        load_yolo_folder(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="no images"):
        load_yolo_folder(tmp_path)


def test_evaluate_images_runs_a_detector_over_a_folder(tmp_path):
    write_image(tmp_path / "images" / "a.png", (100, 200))
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.txt").write_text("7 0.5 0.5 0.2 0.4\n")
    perfect = lambda image: cards((80, 30, 120, 70, "T", 0.9))
    result = evaluate_images(perfect, load_yolo_folder(tmp_path))
    assert (result.map50, result.exact_match, result.images) == (1.0, 1.0, 1)


def test_the_classifier_is_scored_on_the_labelled_boxes_by_size_with_its_confusions():
    truths = [cards((0, 0, 20, 40, "4"), (0, 0, 30, 60, "A"), (0, 0, 100, 140, "6")),
              cards((0, 0, 95, 130, "8"), (0, 0, 22, 30, "4"))]
    reading = read_labels(truths, [np.array([class_id(r) for r in "4A6"]),
                                   np.array([class_id("6"), class_id("A")])])
    assert (reading.boxes, reading.right, reading.accuracy) == (5, 3, 0.6)
    # short sides 20, 30, 100 | 95, 22: two under 25 px (one right), one 25-40, two 90+
    assert reading.bands == {"<25 px": (2, 1), "25-40 px": (1, 1), "90+ px": (2, 1)}
    assert reading.confusions == {"8->6": 1, "4->A": 1}
    assert reading.to_json()["bands"]["<25 px"] == {"boxes": 2, "accuracy": 0.5}
    assert reading.format() == (
        "classifier on the labelled boxes: 60.0% of 5 read right; by short side <25 px 50.0%, "
        "25-40 px 100.0%, 90+ px 50.0%; commonest misreadings 8->6 1, 4->A 1")


@pytest.mark.parametrize(("read", "message"), [
    ([np.array([class_id("4")])], "1 readings for 2 labelled images"),
    ([np.array([class_id("4")]), np.array([], np.int_)], "1 boxes read for 2 labelled boxes"),
])
def test_a_reading_must_answer_every_labelled_box(read, message):
    with pytest.raises(ValueError, match=message):
        read_labels([cards((0, 0, 20, 40, "4")), cards((0, 0, 20, 40, "5"))], read)


def test_evaluate_images_gives_the_classifier_each_images_truth_boxes(tmp_path):
    write_image(tmp_path / "images" / "a.png", (100, 200))
    write_image(tmp_path / "images" / "b.png", (100, 200))   # no label file: no boxes
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.txt").write_text("7 0.5 0.5 0.2 0.4\n1 0.25 0.25 0.1 0.2\n")
    asked = []

    def read_tens(image, xyxy):
        asked.append(np.asarray(xyxy).round().tolist())
        return np.full(len(xyxy), class_id("T")), np.ones(len(xyxy))

    found = lambda image: cards((80, 30, 120, 70, "T", 0.9))
    reading = evaluate_images(found, load_yolo_folder(tmp_path), classify=read_tens).classifier
    assert asked == [[[80, 30, 120, 70], [40, 15, 60, 35]]]
    assert (reading.boxes, reading.right, reading.confusions) == (2, 1, {"4->T": 1})
    assert evaluate_images(found, load_yolo_folder(tmp_path)).classifier is None


def test_heldout_synthetic_set_is_generated_once_and_reused(tmp_path):
    stale = tmp_path / "heldout-s999999-n3-0ld0ld00"      # from an older generator
    (stale / "images").mkdir(parents=True)
    first = heldout_synthetic_set(tmp_path, seed=999_999, count=3, workers=1)
    assert not stale.exists()
    assert first.name.startswith("heldout-s999999-n3-")
    items = load_yolo_folder(first)
    assert len(items) == 3 and sum(len(item.class_id) for item in items) > 0
    stamp = (first / "data.yaml").stat().st_mtime_ns
    assert heldout_synthetic_set(tmp_path, seed=999_999, count=3, workers=1) == first
    assert (first / "data.yaml").stat().st_mtime_ns == stamp          # cached, not rewritten


def test_heldout_synthetic_set_is_deterministic(tmp_path):
    a = heldout_synthetic_set(tmp_path / "a", count=2, workers=1)
    b = heldout_synthetic_set(tmp_path / "b", count=2, workers=1)
    for name in ("images/000000.jpg", "labels/000000.txt", "labels/000001.txt"):
        assert (a / name).read_bytes() == (b / name).read_bytes()


def random_scenes(seed: int) -> tuple[list[Detections], list[Detections], int]:
    """Random truth and predictions: jittered hits, wrong classes, duplicates, false positives."""
    rng = np.random.default_rng(seed)
    n_img, n_cls = int(rng.integers(1, 12)), int(rng.integers(1, 6))
    truths, predictions = [], []
    for _ in range(n_img):
        k = int(rng.integers(0, 8))
        xy, wh = rng.uniform(0, 500, (k, 2)), rng.uniform(10, 140, (k, 2))
        gt = np.concatenate([xy, xy + wh], 1).astype(np.float32)
        gc = rng.integers(0, n_cls, k)
        boxes, classes = [], []
        for box, c in zip(gt, gc):
            if rng.random() < 0.85:
                boxes.append(box + rng.normal(0, rng.choice([1, 5, 15]), 4))
                classes.append(c if rng.random() < 0.9 else rng.integers(0, n_cls))
                if rng.random() < 0.2:
                    boxes.append(box + rng.normal(0, 8, 4))
                    classes.append(c)
        for _ in range(int(rng.integers(0, 4))):
            xy, wh = rng.uniform(0, 500, 2), rng.uniform(10, 140, 2)
            boxes.append(np.concatenate([xy, xy + wh]))
            classes.append(rng.integers(0, n_cls))
        pb = np.array(boxes, np.float32).reshape(-1, 4)
        pb[:, 2:] = np.maximum(pb[:, 2:], pb[:, :2] + 1)
        scores = rng.random(len(pb)).astype(np.float32)
        truths.append(Detections(xyxy=gt.reshape(-1, 4), confidence=np.ones(k, np.float32),
                                 class_id=gc.astype(np.int_)))
        predictions.append(Detections(xyxy=pb, confidence=scores,
                                      class_id=np.array(classes, np.int_)))
    return predictions, truths, n_cls


@pytest.mark.parametrize(
    ("seed", "map50_95", "map50"),
    [
        # COCOeval (pycocotools 2.0.11, bbox, all areas, maxDets 100) on the same boxes
        (7, 0.34032271451084484, 0.5591462233267861),
        (11, 0.4188449349136594, 0.780461239401251),
        (23, 0.65, 0.8333333333333334),
    ],
)
def test_map_agrees_with_cocoeval(seed, map50_95, map50):
    predictions, truths, num_classes = random_scenes(seed)
    result = evaluate(predictions, truths, num_classes=num_classes)
    assert result.map50_95 == pytest.approx(map50_95, abs=1e-12)
    assert result.map50 == pytest.approx(map50, abs=1e-12)
