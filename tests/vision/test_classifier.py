"""The cascade's rank classifier: its crops, and a one-class detector wired to it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_detector import raw_output
from vision.classes import CLASS_NAMES, class_id
from vision.classifier import CROP_HEIGHT, CROP_WIDTH, PAD_GREY, RankClassifier, index_crops
from vision.detector import Detector, ModelError

RED, BLUE = (0, 0, 255), (255, 0, 0)  # BGR
T, J = class_id("T"), class_id("J")


def colour_weights(*, red: int, blue: int, strength: float = 20.0) -> np.ndarray:
    """Classifier weights reading a red crop as ``red`` and a blue one as ``blue``."""
    weights = np.zeros((3, len(CLASS_NAMES)), np.float32)
    weights[0, red] = strength   # the classifier's input is RGB: channel 0 is red
    weights[2, blue] = strength
    return weights


def test_a_portrait_box_fills_the_crop_height_and_is_centred_on_grey():
    image = np.zeros((200, 200, 3), np.uint8)
    image[10:90, 10:40] = RED
    (crop,) = index_crops(image, np.array([[10, 10, 40, 90]]), margin=0.0)
    assert crop.shape == (CROP_HEIGHT, CROP_WIDTH, 3)
    # 80 px tall -> 96 px: scale 1.2, so the 30 px width becomes 36 px, columns 14-49 of 64
    assert (crop[1:-1, 15:49] == RED).all()   # the outermost rows and columns blend at the edge
    assert (crop[:, :14] == PAD_GREY).all() and (crop[:, 50:] == PAD_GREY).all()


def test_a_landscape_box_is_turned_a_quarter_clockwise():
    image = np.zeros((100, 200, 3), np.uint8)
    image[20:50, 20:70] = RED      # left half of the box
    image[20:50, 70:120] = BLUE    # right half
    (crop,) = index_crops(image, np.array([[20, 20, 120, 50]]), margin=0.0)
    # clockwise: the box's left edge goes to the top of the crop
    assert (crop[5:40, 25:39] == RED).all()
    assert (crop[56:91, 25:39] == BLUE).all()


def test_the_margin_adds_context_and_outside_the_image_reads_grey():
    image = np.full((100, 100, 3), 50, np.uint8)
    (crop,) = index_crops(image, np.array([[0, 0, 40, 60]]), margin=0.25)
    assert (crop[0, 32] == PAD_GREY).all()       # above the image
    assert (crop[48, 32] == 50).all()            # the box itself


def test_no_boxes_give_no_crops():
    assert index_crops(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4))).shape == (0, 96, 64, 3)


def test_classifier_reads_each_crop(colour_classifier):
    classifier = RankClassifier(colour_classifier(colour_weights(red=T, blue=J)), threads=1)
    image = np.zeros((100, 200, 3), np.uint8)
    image[:, :100], image[:, 100:] = RED, BLUE
    ranks, probabilities = classifier(image, np.array([[10, 10, 60, 90], [120, 10, 190, 90]]))
    assert [CLASS_NAMES[c] for c in ranks] == ["T", "J"]
    assert (probabilities > 0.99).all()


PURPLE = (255, 0, 255)  # BGR: red and blue alike


def ten_else_jack():
    """Weights reading red as a ten, blue as a jack, and purple as a ten, else a jack."""
    weights = colour_weights(red=T, blue=J)
    weights[2, J] = 15.0
    return weights


def test_choices_are_the_likeliest_ranks_first(colour_classifier):
    classifier = RankClassifier(colour_classifier(ten_else_jack()), threads=1)
    image = np.full((100, 100, 3), PURPLE, np.uint8)
    ranks, probabilities = classifier.choices(image, np.array([[20, 10, 60, 90]]), count=2)
    assert [CLASS_NAMES[c] for c in ranks[0]] == ["T", "J"]
    # the ten is likelier, the jack all but the rest
    assert probabilities[0, 0] > 0.9 and probabilities[0, 1] > 0.001
    assert probabilities[0].sum() == pytest.approx(1.0, abs=1e-4)
    assert classifier.choices(image, np.zeros((0, 4)), count=3)[0].shape == (0, 3)


def test_classifier_of_no_boxes_reads_nothing(colour_classifier):
    classifier = RankClassifier(colour_classifier(colour_weights(red=T, blue=J)))
    ranks, probabilities = classifier(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4)))
    assert len(ranks) == len(probabilities) == 0


def test_missing_classifier_says_where_it_looked(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.onnx"):
        RankClassifier(tmp_path / "nothing.onnx")


def test_a_detector_is_not_a_rank_classifier(constant_model):
    with pytest.raises(ModelError, match="not a rank classifier"):
        RankClassifier(constant_model(raw_output([])))


def test_one_class_detector_reads_ranks_with_its_classifier(constant_model, colour_classifier):
    boxes = raw_output([(50, 50, 60, 80, 0, 0.9), (150, 50, 60, 80, 0, 0.5)], num_classes=1)
    detector = Detector(constant_model(boxes, metadata={"names": "{0: 'card'}"}),
                        classifier=colour_classifier(colour_weights(red=T, blue=J)))
    image = np.zeros((640, 640, 3), np.uint8)
    image[:, :100], image[:, 100:] = RED, BLUE
    found = detector(image)
    assert found.names() == ["T", "J"]
    assert np.allclose(found.xyxy, [[20, 10, 80, 90], [120, 10, 180, 90]])
    # a box's score is both stages': the card is found (0.9, 0.5) and read (about 1.0)
    assert np.allclose(found.confidence, [0.9, 0.5], atol=1e-3)
    assert "classifier=" in repr(detector)


def test_a_cascade_keeps_the_classifiers_second_choice(constant_model, colour_classifier):
    boxes = raw_output([(50, 50, 60, 80, 0, 0.8)], num_classes=1)
    detector = Detector(constant_model(boxes, metadata={"names": "{0: 'card'}"}), conf=0.1,
                        classifier=colour_classifier(ten_else_jack()))
    found = detector(np.full((640, 640, 3), PURPLE, np.uint8))
    assert found.names() == ["T"] and found.data["runner_up"].tolist() == [J]
    # found at 0.8, and read as a ten or else, less likely, a jack
    ten, jack = found.confidence[0], found.data["runner_up_confidence"][0]
    assert 0 < jack < ten and ten + jack == pytest.approx(0.8, abs=1e-4)


def test_a_cascade_drops_boxes_whose_combined_score_is_below_conf(constant_model,
                                                                   colour_classifier):
    # The third box lies on black, where the classifier reads every rank alike (1/16 each).
    boxes = raw_output([(50, 50, 60, 80, 0, 0.9), (150, 50, 60, 80, 0, 0.5),
                        (350, 50, 60, 80, 0, 0.9)], num_classes=1)
    detector = Detector(constant_model(boxes, metadata={"names": "{0: 'card'}"}), conf=0.25,
                        classifier=colour_classifier(colour_weights(red=T, blue=J)))
    image = np.zeros((640, 640, 3), np.uint8)
    image[:, :100], image[:, 100:300] = RED, BLUE
    found = detector(image)
    assert found.names() == ["T", "J"] and (found.confidence >= 0.25).all()


def test_one_class_detector_without_its_classifier_says_so(constant_model, tmp_path):
    path = constant_model(raw_output([], num_classes=1), metadata={"names": "{0: 'card'}"})
    with pytest.raises(FileNotFoundError, match="no rank classifier"):
        Detector(path, classifier=tmp_path / "missing.onnx")


def test_an_unsure_box_is_read_again_from_more_views(colour_classifier):
    # A red box (a ten) in a blue ring (a jack): the crop's margin shows the ring, so one
    # look reads an unsure jack; the box without margin is all ten, and the three looks
    # together read the ten.
    weights = colour_weights(red=T, blue=J, strength=5.0)
    weights[2, J] = 21.0
    image = np.full((120, 100, 3), BLUE, np.uint8)
    image[30:90, 30:70] = RED
    box = np.array([[30, 30, 70, 90]])
    one_look = RankClassifier(colour_classifier(weights), threads=1, second_look=0.0)
    ranks, probabilities = one_look(image, box)
    assert CLASS_NAMES[ranks[0]] == "J" and probabilities[0] < 0.8
    ranks, probabilities = RankClassifier(colour_classifier(weights), threads=1)(image, box)
    assert CLASS_NAMES[ranks[0]] == "T"


def test_a_sure_box_is_read_once(colour_classifier):
    classifier = RankClassifier(colour_classifier(colour_weights(red=T, blue=J)), threads=1)
    image = np.full((120, 100, 3), BLUE, np.uint8)
    image[30:90, 30:70] = RED
    box = np.array([[30, 30, 70, 90]])
    # a second look (the box without its blue margin) would change the score: a sure ten
    # keeps the one look's
    (_, sure), (_, again) = classifier(image, box), classifier.classify(index_crops(image, box))
    assert sure[0] == pytest.approx(again[0]) and sure[0] > 0.8
