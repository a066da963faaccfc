"""The detector's pre/post-processing against known boxes, on tiny constant ONNX models."""

from __future__ import annotations

import functools
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import pytest

from vision.classes import CLASS_NAMES, class_id
from vision.detector import (
    DEFAULT_MODEL_PATH,
    Detector,
    LetterboxTransform,
    ModelError,
    decode,
    letterbox,
    nms,
    read_image,
    rotate_boxes_back,
)

T, J, TWO, BACK = class_id("T"), class_id("J"), class_id("2"), class_id("back")


def raw_output(boxes: list[tuple[float, float, float, float, int, float]], *,
               num_classes: int = len(CLASS_NAMES), anchors: int = 64) -> np.ndarray:
    """A raw-head output ``(1, 4 + nc, anchors)`` from ``(cx, cy, w, h, class, score)`` rows."""
    out = np.zeros((1, 4 + num_classes, anchors), np.float32)
    out[0, :4, :] = [[320.0], [320.0], [10.0], [10.0]]  # unused anchors: zero scores
    for anchor, (cx, cy, w, h, cid, score) in enumerate(boxes):
        out[0, :4, anchor] = [cx, cy, w, h]
        out[0, 4 + cid, anchor] = score
    return out


def end2end_output(rows: list[tuple[float, float, float, float, float, int]]) -> np.ndarray:
    """An end-to-end output ``(1, 300, 6)`` from ``(x1, y1, x2, y2, score, class)`` rows."""
    out = np.zeros((1, 300, 6), np.float32)
    out[0, :len(rows)] = rows
    return out


# A 960x480 image goes into the 640x640 input at scale 2/3 with 160 px of grey above and below.
WIDE_IMAGE = np.full((480, 960, 3), 200, np.uint8)

RAW_SCENE = raw_output([
    (100, 260, 40, 60, T, 0.9),      # a ten: input (80, 230, 120, 290)
    (102, 262, 40, 60, T, 0.8),      # the same ten again (IoU 0.85): suppressed
    (100, 260, 40, 60, J, 0.7),      # same place, another class: kept (class-aware NMS)
    (400, 300, 30, 30, 3, 0.2),      # below the score threshold
    (600, 170, 40, 40, TWO, 0.5),    # a 2 reaching into the top padding: clipped to the image
])
END2END_SCENE = end2end_output([
    (80, 230, 120, 290, 0.9, T),
    (80, 230, 120, 290, 0.7, J),     # the NMS-free head is trusted: no suppression
    (580, 150, 620, 190, 0.5, TWO),
    (400, 300, 430, 330, 0.2, 3),    # below the score threshold
])
EXPECTED_NAMES = ["T", "J", "2"]
EXPECTED_BOXES = [[120, 105, 180, 195], [120, 105, 180, 195], [870, 0, 930, 45]]
EXPECTED_SCORES = [0.9, 0.7, 0.5]


@pytest.mark.parametrize(
    ("shape", "size", "stride", "padded_shape", "scale", "pad"),
    [
        ((480, 960), (640, 640), None, (640, 640), 2 / 3, (0, 160)),     # wide: bars top and bottom
        ((960, 480), (640, 640), None, (640, 640), 2 / 3, (160, 0)),     # tall: bars left and right
        ((640, 640), (640, 640), None, (640, 640), 1.0, (0, 0)),         # exact fit: untouched
        ((100, 100), (640, 640), None, (640, 640), 6.4, (0, 0)),         # small: scaled up
        ((481, 960), (640, 640), None, (640, 640), 2 / 3, (0, 159)),     # odd padding: extra px at bottom
        ((480, 960), (640, 640), 32, (320, 640), 2 / 3, (0, 0)),         # dynamic model: stride padding
        ((500, 960), (640, 640), 32, (352, 640), 2 / 3, (0, 9)),         # 333 rows padded to 352
    ],
)
def test_letterbox_scales_and_pads(shape, size, stride, padded_shape, scale, pad):
    image = np.full((*shape, 3), 7, np.uint8)
    padded, transform = letterbox(image, size, stride=stride)
    assert padded.shape == (*padded_shape, 3)
    assert transform.scale == pytest.approx(scale)
    assert transform.pad == pad
    assert transform.image_shape == shape
    left, top = pad
    if top:
        assert (padded[:top] == 114).all()
    if left:
        assert (padded[:, :left] == 114).all()
    inner = padded[top:top + round(shape[0] * scale), left:left + round(shape[1] * scale)]
    assert (inner == 7).all()


@pytest.mark.parametrize(
    ("shape", "padded_shape", "scale", "pad"),
    [
        ((320, 320), (640, 640), 1.0, (160, 160)),    # a small tile keeps its scale: padded only
        ((960, 480), (640, 640), 2 / 3, (160, 0)),    # larger images still shrink to fit
    ],
)
def test_letterbox_without_scaleup_keeps_small_images_at_native_scale(shape, padded_shape, scale,
                                                                      pad):
    padded, transform = letterbox(np.zeros((*shape, 3), np.uint8), (640, 640), scaleup=False)
    assert padded.shape[:2] == padded_shape
    assert (transform.scale, transform.pad) == (pytest.approx(scale), pad)


def test_detector_without_scaleup_maps_boxes_of_small_images(constant_model):
    # A 320x320 image: not enlarged, it sits in 160 px of grey all round; enlarged, it fills
    # the input at scale 2. A box lying wholly in the grey is dropped, not clipped to a line.
    model = constant_model(raw_output([(320, 320, 40, 60, T, 0.9), (60, 60, 40, 40, J, 0.8)]))
    image = np.zeros((320, 320, 3), np.uint8)
    native = Detector(model)(image)                          # the default: native scale
    assert native.names() == ["T"]
    assert native.xyxy.tolist() == [[140, 130, 180, 190]]
    enlarged = Detector(model, scaleup=True)(image)
    assert enlarged.names() == ["T", "J"]
    assert enlarged.xyxy.tolist() == [[150, 145, 170, 175], [20, 20, 40, 40]]


def test_enlarged_detector_reads_each_image_at_its_own_side_enlarged(constant_model):
    # The model finds a ten at (120, 150)-(180, 240) and a jack at (600, 600)-(660, 660) of
    # any input. A 640 x 640 image enlarged 1.5 times is read at 960, where both lie within
    # it; a 320 x 320 one is read at 480, which holds only the ten.
    model = constant_model(end2end_output([(120, 150, 180, 240, 0.9, T),
                                           (600, 600, 660, 660, 0.8, J)]),
                           input_shape=(1, 3, "height", "width"))
    detector = Detector(model)
    closer = detector.enlarged(1.5)
    assert closer.enlargement == 1.5 and detector.enlargement == 1.0
    small, large = np.zeros((320, 320, 3), np.uint8), np.zeros((640, 640, 3), np.uint8)
    assert closer(small).xyxy.tolist() == [[80, 100, 120, 160]]
    assert closer(large).xyxy.tolist() == [[80, 100, 120, 160], [400, 400, 440, 440]]
    assert detector(small).xyxy.tolist() == [[120, 150, 180, 240]]     # as it is: unchanged
    with pytest.raises(ValueError, match="must be positive"):
        detector.enlarged(0)


def test_enlarging_a_model_of_fixed_input_is_a_clear_error(constant_model):
    model = constant_model(end2end_output([(120, 150, 180, 240, 0.9, T)]))
    with pytest.raises(ModelError, match="fixed input .* read images enlarged"):
        Detector(model).enlarged(1.5)


def test_letterbox_transform_maps_input_boxes_back_to_the_image():
    _, transform = letterbox(np.zeros((480, 960, 3), np.uint8), (640, 640))
    rng = np.random.default_rng(1)
    corners = np.sort(rng.uniform(0, 1, (20, 2, 2)), axis=1)      # (x1 < x2, y1 < y2) in [0, 1]
    image_boxes = np.concatenate([corners[:, 0], corners[:, 1]], axis=1) * [960, 480, 960, 480]
    input_boxes = image_boxes * transform.scale + [0, 160, 0, 160]
    assert np.allclose(transform.to_image(input_boxes), image_boxes, atol=1e-3)


def test_letterbox_transform_clips_to_the_image():
    transform = LetterboxTransform(scale=0.5, pad=(10.0, 0.0), image_shape=(100, 200))
    boxes = transform.to_image(np.array([[0, -5, 200, 60]], np.float32))
    assert boxes.tolist() == [[0, 0, 200, 100]]


@pytest.mark.parametrize(
    ("boxes", "scores", "classes", "iou", "kept"),
    [
        # two near-identical boxes: the better one stays
        ([[0, 0, 10, 10], [0, 0, 10, 11]], [0.5, 0.9], None, 0.6, [1]),
        # IoU 0.5 is not above 0.6: both stay, best first
        ([[0, 0, 10, 10], [0, 5, 10, 15]], [0.9, 0.8], None, 0.6, [0, 1]),
        # ...but above 0.3
        ([[0, 0, 10, 10], [0, 5, 10, 15]], [0.9, 0.8], None, 0.3, [0]),
        # different classes never suppress each other
        ([[0, 0, 10, 10], [0, 0, 10, 10]], [0.9, 0.8], [T, J], 0.6, [0, 1]),
        # the same class does
        ([[0, 0, 10, 10], [0, 0, 10, 10], [50, 50, 60, 60]], [0.9, 0.8, 0.1], [T, T, T], 0.6, [0, 2]),
        # a chain: 0 suppresses 1, so 2 (overlapping only 1) survives
        ([[0, 0, 10, 10], [4, 0, 14, 10], [8, 0, 18, 10]], [0.9, 0.8, 0.7], None, 0.4, [0, 2]),
        # degenerate zero-area boxes do not divide by zero
        ([[5, 5, 5, 5], [5, 5, 5, 5]], [0.9, 0.8], None, 0.6, [0, 1]),
        # nothing in, nothing out
        (np.zeros((0, 4)), [], None, 0.6, []),
    ],
)
def test_nms(boxes, scores, classes, iou, kept):
    class_ids = None if classes is None else np.array(classes)
    assert nms(np.array(boxes, np.float32), np.array(scores), iou, class_id=class_ids).tolist() == kept


def test_nms_stops_at_max_det():
    boxes = np.array([[20 * i, 0, 20 * i + 10, 10] for i in range(10)], np.float32)
    assert nms(boxes, np.linspace(0.9, 0.1, 10), 0.5, max_det=3).tolist() == [0, 1, 2]


@pytest.mark.parametrize("output", [RAW_SCENE, END2END_SCENE], ids=["raw", "end2end"])
def test_decode_maps_known_boxes_back_to_the_image(output):
    _, transform = letterbox(WIDE_IMAGE, (640, 640))
    found = decode(output, transform, conf=0.25, iou=0.6)
    assert found.names() == EXPECTED_NAMES
    assert np.allclose(found.xyxy, EXPECTED_BOXES, atol=1e-3)
    assert np.allclose(found.confidence, EXPECTED_SCORES)


def test_decode_keeps_the_best_max_det_boxes():
    output = raw_output([(20 * i + 10, 10, 8, 8, T, 0.3 + 0.01 * i) for i in range(30)])
    transform = LetterboxTransform(scale=1.0, pad=(0.0, 0.0), image_shape=(640, 640))
    found = decode(output, transform, max_det=5)
    assert len(found) == 5
    assert np.allclose(found.confidence, [0.59, 0.58, 0.57, 0.56, 0.55])


def test_decode_applies_a_class_map():
    transform = LetterboxTransform(scale=1.0, pad=(0.0, 0.0), image_shape=(640, 640))
    output = raw_output([(50, 50, 20, 20, 0, 0.9)], num_classes=2)
    found = decode(output, transform, class_map=np.array([BACK, T]))
    assert found.names() == ["back"]


@pytest.mark.parametrize(
    ("shape", "expectation"),
    [
        ((1, 20, 8400), nullcontext()),                 # raw head, 16 classes
        ((1, 300, 6), nullcontext()),                   # end-to-end head
        ((1, 6, 8400), nullcontext()),                  # raw head, 2 classes
        ((1, 4, 8400), pytest.raises(ModelError)),      # boxes without class scores
        ((20, 8400), pytest.raises(ModelError)),        # no batch axis
        ((2, 20, 8400), pytest.raises(ModelError)),     # batched output
    ],
)
def test_decode_knows_the_output_layouts(shape, expectation):
    transform = LetterboxTransform(scale=1.0, pad=(0.0, 0.0), image_shape=(640, 640))
    with expectation:
        assert len(decode(np.zeros(shape, np.float32), transform)) == 0


def test_rotate_boxes_back_inverts_np_rot90():
    rng = np.random.default_rng(0)
    for turns in range(4):
        for _ in range(20):
            height, width = rng.integers(5, 40, 2)
            mask = np.zeros((height, width), bool)
            x1, x2 = np.sort(rng.integers(0, width, 2)) + [0, 1]
            y1, y2 = np.sort(rng.integers(0, height, 2)) + [0, 1]
            mask[y1:y2, x1:x2] = True
            ys, xs = np.nonzero(np.rot90(mask, turns))
            rotated = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32)
            back = rotate_boxes_back(rotated, turns, (int(height), int(width)))
            assert back.tolist() == [[x1, y1, x2, y2]], turns


@pytest.mark.parametrize("output", [RAW_SCENE, END2END_SCENE], ids=["raw", "end2end"])
def test_detector_runs_the_model_and_maps_boxes(constant_model, output):
    detector = Detector(constant_model(output), threads=1)
    assert detector.input_size == (640, 640)
    assert detector.layout == ("raw" if output.shape[2] != 6 else "end2end")
    found = detector(WIDE_IMAGE)
    assert found.names() == EXPECTED_NAMES
    assert np.allclose(found.xyxy, EXPECTED_BOXES, atol=1e-3)
    assert np.allclose(found.confidence, EXPECTED_SCORES)


def test_detector_conf_threshold_is_configurable(constant_model):
    detector = Detector(constant_model(RAW_SCENE), conf=0.6)
    assert detector(WIDE_IMAGE).names() == ["T", "J"]


def test_a_detector_with_a_looser_nms_keeps_boxes_the_strict_one_drops(constant_model):
    # Two strips of a tight fan, turned: their boxes overlap at IoU 0.67.
    strips = raw_output([(100, 260, 40, 60, T, 0.9), (105, 265, 40, 60, T, 0.8)])
    strict = Detector(constant_model(strips), iou=0.6)
    loose = strict.with_iou(0.7)
    assert len(strict(WIDE_IMAGE)) == 1 and strict.iou == 0.6
    assert len(loose(WIDE_IMAGE)) == 2 and loose.iou == 0.7
    assert loose.input_size == strict.input_size and loose.model_path == strict.model_path


@pytest.mark.parametrize(
    "image",
    [np.full((480, 960), 200, np.uint8), np.full((480, 960, 4), 200, np.uint8)],
    ids=["grey", "bgra"],
)
def test_detector_accepts_grey_and_bgra_images(constant_model, image):
    assert Detector(constant_model(RAW_SCENE))(image).names() == EXPECTED_NAMES


def test_detector_rejects_non_uint8_images(constant_model):
    with pytest.raises(ValueError, match="8-bit"):
        Detector(constant_model(RAW_SCENE))(WIDE_IMAGE.astype(np.float32))


@pytest.mark.parametrize(
    ("output", "output_shape", "layout"),
    [
        (RAW_SCENE, ("batch", 20, "anchors"), "raw"),
        (END2END_SCENE, ("batch", 300, 6), "end2end"),
    ],
)
def test_dynamic_output_axes(constant_model, output, output_shape, layout):
    detector = Detector(constant_model(output, input_shape=("batch", 3, "height", "width"),
                                       output_shape=output_shape))
    assert detector.layout == layout
    assert detector(WIDE_IMAGE).names() == EXPECTED_NAMES


def test_dynamic_model_pads_only_to_the_stride(constant_model):
    # The 960x480 image becomes a 640x320 input with no padding, so input boxes map straight back.
    path = constant_model(RAW_SCENE, input_shape=("batch", 3, "height", "width"),
                          metadata={"stride": "32", "imgsz": "[640, 640]"})
    found = Detector(path)(WIDE_IMAGE)
    assert np.allclose(found.xyxy[0], np.array([80, 230, 120, 290]) * 1.5)


@pytest.mark.parametrize(
    ("metadata", "imgsz", "input_size"),
    [
        (None, None, (640, 640)),                       # nothing recorded: 640
        ({"imgsz": "[480, 480]"}, None, (480, 480)),    # the export's size
        ({"imgsz": "512"}, None, (512, 512)),
        ({"imgsz": "[480, 480]"}, 320, (320, 320)),     # the caller's choice wins
    ],
)
def test_dynamic_model_input_size(constant_model, metadata, imgsz, input_size):
    path = constant_model(RAW_SCENE, input_shape=("batch", 3, "height", "width"),
                          metadata=metadata)
    assert Detector(path, imgsz=imgsz).input_size == input_size


def test_fixed_model_refuses_another_imgsz(constant_model):
    with pytest.raises(ModelError, match="fixed input"):
        Detector(constant_model(RAW_SCENE), imgsz=320)


def test_a_fitted_dynamic_model_sees_larger_images_at_their_own_scale(constant_model):
    path = constant_model(RAW_SCENE, input_shape=("batch", 3, "height", "width"),
                          metadata={"stride": "32", "imgsz": "[640, 640]"})
    detector = Detector(path)
    assert detector.dynamic
    detector.fit_input(950, 470)
    assert detector.input_size == (960, 960)
    blob, transform = detector.preprocess(WIDE_IMAGE)
    assert blob.shape == (1, 3, 480, 960) and transform.scale == 1.0
    # Not shrunk: the input box (80, 230, 120, 290) is the image box.
    assert np.allclose(detector(WIDE_IMAGE).xyxy[0], [80, 230, 120, 290])


def test_a_fixed_model_cannot_be_fitted(constant_model):
    detector = Detector(constant_model(RAW_SCENE))
    assert not detector.dynamic
    with pytest.raises(ModelError, match="fixed input"):
        detector.fit_input(960, 480)


def test_class_names_in_the_metadata_are_mapped_to_ours(constant_model):
    # An export whose classes are in reverse order, spelling ten "10".
    names = {i: ("10" if name == "T" else name) for i, name in enumerate(reversed(CLASS_NAMES))}
    path = constant_model(raw_output([(320, 320, 40, 60, 0, 0.9)]), metadata={"names": str(names)})
    assert Detector(path)(np.zeros((640, 640, 3), np.uint8)).names() == ["back"]


def test_placeholder_class_names_mean_our_order(constant_model):
    # A model built without a data file is exported with names "0", "1", ...: ids, not ranks.
    names = {i: str(i) for i in range(len(CLASS_NAMES))}
    path = constant_model(raw_output([(320, 320, 40, 60, 3, 0.9)]), metadata={"names": str(names)})
    assert Detector(path)(np.zeros((640, 640, 3), np.uint8)).names() == ["6"]


@pytest.mark.parametrize(
    ("output", "metadata", "message"),
    [
        (raw_output([], num_classes=5), None, "scores 5 classes, expected 16"),
        (raw_output([], num_classes=2), {"names": "{0: 'cat', 1: 'dog'}"}, "not card classes"),
        (raw_output([]), {"names": "{0: '3', 1: '4'}"}, "scores 16 classes, expected 2"),
        (np.zeros((1, 5), np.float32), None, "expected a detector output"),
    ],
)
def test_models_that_are_not_card_detectors_are_refused(constant_model, output, metadata, message):
    with pytest.raises(ModelError, match=message):
        Detector(constant_model(output, metadata=metadata))


def test_missing_model_file_says_where_it_looked(tmp_path):
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(FileNotFoundError, match="nowhere.onnx"):
        Detector(missing)


def test_a_file_that_is_not_onnx_is_refused(tmp_path):
    bogus = tmp_path / "bogus.onnx"
    bogus.write_bytes(b"this is not a model")
    with pytest.raises(ModelError, match="cannot load ONNX model"):
        Detector(bogus)


def test_default_model_path_comes_from_gouji_model(constant_model, monkeypatch):
    path = constant_model(RAW_SCENE)
    monkeypatch.setenv("GOUJI_MODEL", str(path))
    assert Detector().model_path == path
    monkeypatch.delenv("GOUJI_MODEL")
    if not DEFAULT_MODEL_PATH.is_file():
        with pytest.raises(FileNotFoundError, match="gouji-cards.onnx"):
            Detector()


def test_detect_any_angle_finds_the_box_in_every_quarter_turn(constant_model):
    # The constant model "sees" the same input box at each turn; mapped back, that is four
    # different places of the original image, one per quarter turn.
    detector = Detector(constant_model(raw_output([(130, 90, 60, 80, T, 0.9)])))
    found = detector.detect_any_angle(np.zeros((640, 640, 3), np.uint8))
    expected = {(100, 50, 160, 130), (510, 100, 590, 160), (480, 510, 540, 590), (50, 480, 130, 540)}
    assert {tuple(round(v) for v in box) for box in found.xyxy} == expected
    assert found.names() == ["T"] * 4


def test_detect_any_angle_merges_the_same_card_seen_in_several_turns(constant_model):
    # A centred square looks the same at every turn: one card, read once.
    detector = Detector(constant_model(raw_output([(320, 320, 40, 40, T, 0.9)])))
    found = detector.detect_any_angle(np.zeros((640, 640, 3), np.uint8))
    assert len(found) == 1
    assert found.xyxy.tolist() == [[300, 300, 340, 340]]


def test_read_image_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such image file"):
        read_image(tmp_path / "missing.jpg")
    with pytest.raises(FileNotFoundError):
        read_image(tmp_path)                                  # a directory
    text = tmp_path / "notes.jpg"
    text.write_text("not an image")
    with pytest.raises(ValueError, match="not a readable image"):
        read_image(text)


def test_read_image_handles_non_ascii_names(tmp_path):
    import cv2

    path = tmp_path / "够级.png"
    _ok, encoded = cv2.imencode(".png", np.full((4, 6, 3), 9, np.uint8))
    encoded.tofile(path)
    assert read_image(path).shape == (4, 6, 3)


def test_the_default_model_lives_in_models():
    assert DEFAULT_MODEL_PATH.parent.name == "models"
    assert DEFAULT_MODEL_PATH.name == "gouji-cards.onnx"
    assert isinstance(DEFAULT_MODEL_PATH, Path)


# ---------------------------------------------------------------- the shipped model

shipped = pytest.mark.skipif(not DEFAULT_MODEL_PATH.is_file(),
                             reason="no shipped model at models/gouji-cards.onnx")
# The shipped model is still in training and below the accuracy it must reach (models/README.md).
# Strict: once it reads these scenes, the xfail turns into a failure and must be removed.
below_target = pytest.mark.xfail(
    strict=True, reason="shipped model below its accuracy target; see models/README.md")

# Seat-zone tiles with plays of 1-12 cards (fans, duplicates, overlaps) and nothing else on the
# table; generate_scene(int) draws from a stream no training set uses.
CLEAN_SCENE_SEEDS = range(424_242, 424_242 + 12)


@functools.cache
def clean_scenes() -> tuple:
    from vision.synth import SceneConfig, generate_scene

    config = SceneConfig(pile=0.0, gathered=0.0, hand=0.0, clutter=0.0, face_down=0.0)
    return tuple(generate_scene(seed, config) for seed in CLEAN_SCENE_SEEDS)


def ranks(names) -> list[str]:
    return sorted(names)


@shipped
@below_target
def test_shipped_model_reads_the_ranks_and_counts_of_generated_plays():
    detector = Detector()
    wrong = []
    for seed, scene in zip(CLEAN_SCENE_SEEDS, clean_scenes()):
        truth = ranks(CLASS_NAMES[c] for c in scene.class_ids)
        found = ranks(detector(scene.image).names())
        if found != truth:
            wrong.append((seed, truth, found))
    assert not wrong


@shipped
@below_target
def test_shipped_model_reads_sideways_plays_with_any_angle():
    detector = Detector()
    wrong = []
    for seed, scene in zip(CLEAN_SCENE_SEEDS, clean_scenes()[:4]):
        truth = ranks(CLASS_NAMES[c] for c in scene.class_ids)
        found = ranks(detector.detect_any_angle(np.rot90(scene.image, 1).copy()).names())
        if found != truth:
            wrong.append((seed, truth, found))
    assert not wrong
