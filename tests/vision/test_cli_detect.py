"""``gouji detect`` and ``gouji eval`` end to end, on a constant stand-in model."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import main
from tests.vision.test_classifier import BLUE, RED, J, T, colour_weights
from tests.vision.test_detector import raw_output

# The stand-in model reports a ten and a 2 in the 640x640 input: x1, y1, x2, y2, score, class.
ROWS = [(80, 230, 120, 290, 0.9, 7), (580, 150, 620, 190, 0.5, 12)]


@pytest.fixture
def model(constant_model) -> Path:
    output = np.zeros((1, 300, 6), np.float32)
    output[0, :len(ROWS)] = ROWS
    return constant_model(output)


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    """A 960x480 photo: scale 2/3 into the model, 160 px bars above and below."""
    path = tmp_path / "play.jpg"
    cv2.imwrite(str(path), np.full((480, 960, 3), 200, np.uint8))
    return path


def test_detect_json_gives_rank_conf_and_pixel_box(model, photo, capsys):
    assert main(["detect", str(photo), "--json", "--model", str(model)]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["image"] == str(photo)
    assert result["detections"] == [
        {"rank": "T", "conf": 0.9, "box": [120.0, 105.0, 180.0, 195.0]},
        {"rank": "2", "conf": 0.5, "box": [870.0, 0.0, 930.0, 45.0]},
    ]


def test_detect_text_lists_each_image(model, photo, tmp_path, capsys):
    second = tmp_path / "second.png"
    cv2.imwrite(str(second), np.zeros((640, 640, 3), np.uint8))
    assert main(["detect", str(photo), str(second), "--model", str(model), "--threads", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{photo}: 2 cards  T 2"
    assert lines[1].split() == ["T", "0.900", "(120,", "105,", "180,", "195)"]
    assert lines[3] == f"{second}: 2 cards  T 2"


def test_detect_conf_option_filters(model, photo, capsys):
    assert main(["detect", str(photo), "--json", "--model", str(model), "--conf", "0.6"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert [d["rank"] for d in result["detections"]] == ["T"]


def test_detect_any_angle_merges_quarter_turns(model, photo, capsys):
    assert main(["detect", str(photo), "--json", "--any-angle", "--model", str(model)]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    # The stand-in reports the same input boxes at every turn: upright and upside down they
    # are two places each; turned sideways the photo is tall and they fall in the padding.
    assert len(result["detections"]) == 4
    assert {d["rank"] for d in result["detections"]} == {"T", "2"}


def test_detect_writes_annotated_images(model, photo, tmp_path, capsys):
    out = tmp_path / "annotated"
    assert main(["detect", str(photo), str(photo), "--annotate", str(out),
                 "--model", str(model)]) == 0
    written = sorted(p.name for p in out.iterdir())
    assert written == ["play-1.jpg", "play.jpg"]            # same name twice: numbered
    drawn = cv2.imread(str(out / "play.jpg"))
    assert drawn.shape == (480, 960, 3)
    assert np.abs(drawn.astype(int) - 200).max() > 50       # boxes were drawn
    assert cv2.imread(str(photo)).mean() == pytest.approx(200, abs=1)   # the input is untouched


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.jpg", "no such image file"),
        (lambda d: d, "no such image file"),                                  # a directory
        (lambda d: (d / "notes.jpg", (d / "notes.jpg").write_text("hi"))[0], "not a readable image"),
        (lambda d: (d / "empty.png", (d / "empty.png").write_bytes(b""))[0], "not a readable image"),
    ],
    ids=["missing", "directory", "text-file", "empty-file"],
)
def test_detect_bad_images_give_one_line_and_exit_2(model, photo, tmp_path, capsys, make, message):
    bad = make(tmp_path)
    assert main(["detect", str(photo), str(bad), "--model", str(model)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""                                # nothing printed for the good one
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("gouji detect: error: ") and message in captured.err


def test_detect_missing_model_is_a_clear_error(photo, tmp_path, capsys):
    assert main(["detect", str(photo), "--model", str(tmp_path / "none.onnx")]) == 2
    err = capsys.readouterr().err
    assert "none.onnx" in err and err.count("\n") == 1


def test_detect_broken_model_is_a_clear_error(photo, tmp_path, capsys):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"\x00garbage")
    assert main(["detect", str(photo), "--model", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "cannot load ONNX model" in err and err.count("\n") == 1


def test_detect_threads_must_be_positive(model, photo, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["detect", str(photo), "--model", str(model), "--threads", "0"])
    assert exit_info.value.code == 2


def test_eval_prints_figures_for_a_labelled_folder(model, tmp_path, capsys):
    data = tmp_path / "set"
    (data / "images").mkdir(parents=True)
    (data / "labels").mkdir()
    cv2.imwrite(str(data / "images" / "a.png"), np.full((480, 960, 3), 200, np.uint8))
    # The truth: the ten the model finds (120..180 x 105..195 of 960x480) and nothing else.
    (data / "labels" / "a.txt").write_text("7 0.15625 0.3125 0.0625 0.1875\n")
    assert main(["eval", "--data", str(data), "--real", str(data), "--model", str(model),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    synthetic = report["synthetic"]
    assert synthetic["map50"] == 1.0 and synthetic["ap50"] == {"T": 1.0}
    assert synthetic["exact_match"] == 0.0                  # the extra 2 makes the play wrong
    assert report["real"]["rank_accuracy"] == 1.0
    # no plays in this folder: the target set per play is not measured
    assert synthetic["targets_met"] == {"map50": True, "map50_95": synthetic["map50_95"] >= 0.85,
                                        "play_exact_match": None}
    assert report["real"]["targets_met"] == {"map50": True}

    assert main(["eval", "--data", str(data), "--real", str(data), "--model", str(model)]) == 0
    text = capsys.readouterr().out
    assert "mAP50 1.0000" in text and "exact match 0.00%" in text
    assert "targets: mAP50 >= 0.98 met (1.0000); mAP50-95 >= 0.85 " in text
    assert "plays exact >= 0.98 not measured" in text
    assert "targets: mAP50 >= 0.9 met (1.0000)" in text      # the real photos'


def test_eval_enlarge_reads_each_scene_enlarged(constant_model, tmp_path, capsys):
    # A model of any input size that finds a ten at (120, 150)-(180, 240) of its input: on a
    # 320 x 320 scene enlarged 1.5 times (input 480) that is the ten at (80, 100)-(120, 160).
    output = np.zeros((1, 300, 6), np.float32)
    output[0, 0] = (120, 150, 180, 240, 0.9, 7)
    model = constant_model(output, input_shape=(1, 3, "height", "width"))
    data = tmp_path / "set"
    (data / "images").mkdir(parents=True)
    (data / "labels").mkdir()
    cv2.imwrite(str(data / "images" / "a.png"), np.full((320, 320, 3), 200, np.uint8))
    (data / "labels" / "a.txt").write_text("7 0.3125 0.40625 0.125 0.1875\n")
    command = ["eval", "--data", str(data), "--real", str(data), "--model", str(model), "--json"]
    assert main([*command, "--enlarge", "1.5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["enlarge"] == 1.5 and report["synthetic"]["map50"] == 1.0
    assert main(command) == 0                                   # read as it is: no ten there
    assert json.loads(capsys.readouterr().out)["synthetic"]["map50"] == 0.0
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--enlarge", "0"])
    assert exit_info.value.code == 2 and "must be above 0" in capsys.readouterr().err


def test_eval_missing_folder_is_a_clear_error(model, tmp_path, capsys):
    assert main(["eval", "--data", str(tmp_path / "nope"), "--model", str(model)]) == 2
    assert "no such dataset folder" in capsys.readouterr().err


def labelled_folder(root: Path, names: list[str]) -> Path:
    """Photos like ``photo`` whose truth is the ten the stand-in model finds."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for name in names:
        cv2.imwrite(str(root / "images" / f"{name}.png"), np.full((480, 960, 3), 200, np.uint8))
        (root / "labels" / f"{name}.txt").write_text("7 0.15625 0.3125 0.0625 0.1875\n")
    return root


def test_eval_scores_only_the_held_out_real_photos_by_default(model, tmp_path, capsys):
    real = labelled_folder(tmp_path / "real", ["p0", "p1", "p2", "p3", "p4", "p5"])
    data = labelled_folder(tmp_path / "data", ["s0"])
    assert main(["eval", "--data", str(data), "--real", str(real), "--model", str(model),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["real"]["images"] == 2                     # every third photo: p0 and p3
    assert report["real"]["split"] == "heldout"
    assert main(["eval", "--data", str(data), "--real", str(real), "--real-split", "all",
                 "--model", str(model), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["real"]["images"] == 6


def test_eval_defaults_to_the_generated_held_out_set(model, tmp_path, capsys, monkeypatch):
    import vision.evaluate

    data = labelled_folder(tmp_path / "heldout", ["s0", "s1"])
    monkeypatch.setattr(vision.evaluate, "heldout_synthetic_set", lambda: data)
    monkeypatch.setenv("GOUJI_REAL_CARDS", str(tmp_path / "no-real-photos-here"))
    assert main(["eval", "--model", str(model)]) == 0
    out = capsys.readouterr().out
    assert f"held-out synthetic set: {data}" in out
    assert "images 2, cards 2" in out
    assert "real photos: skipped" in out


def test_eval_of_a_cascade_scores_its_classifier_on_the_labelled_boxes(constant_model,
                                                                      colour_classifier,
                                                                      tmp_path, capsys):
    boxes = raw_output([(50, 50, 60, 80, 0, 0.9), (150, 50, 60, 80, 0, 0.9)], num_classes=1)
    model = constant_model(boxes, metadata={"names": "{0: 'card'}"})
    classifier = colour_classifier(colour_weights(red=T, blue=J))
    data = tmp_path / "set"
    (data / "images").mkdir(parents=True)
    (data / "labels").mkdir()
    image = np.zeros((640, 640, 3), np.uint8)
    image[:, :100], image[:, 100:] = RED, BLUE
    cv2.imwrite(str(data / "images" / "a.png"), image)
    # Both cards labelled tens: the second lies on blue, which the classifier reads as a jack.
    (data / "labels" / "a.txt").write_text("7 0.078125 0.078125 0.09375 0.125\n"
                                           "7 0.234375 0.078125 0.09375 0.125\n")
    options = ["--data", str(data), "--real", str(data), "--model", str(model),
               "--classifier", str(classifier)]
    assert main(["eval", *options, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for figures in (report["synthetic"], report["real"]):
        assert figures["classifier_on_labels"]["accuracy"] == 0.5
        assert figures["classifier_on_labels"]["confusions"] == {"T->J": 1}
    assert main(["eval", *options]) == 0
    assert "classifier on the labelled boxes: 50.0% of 2 read right" in capsys.readouterr().out


def test_eval_of_a_model_without_classifier_has_no_classifier_figures(model, tmp_path, capsys):
    data = labelled_folder(tmp_path / "data", ["s0"])
    assert main(["eval", "--data", str(data), "--real", str(data), "--model", str(model),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["synthetic"]["classifier_on_labels"] is None
