"""``gouji render-game`` and ``gouji process`` from the command line."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest

from assistant.cli import main
from tests.helpers import write_bumped_video
from tracker.plays import FAINT_CONF, REVIEW_CONF, ROUND_GAP, PlaySegmenter
from tracker.table import TableLayout, save_view, view_path
from vision.detections import Detections
from vision.synth.scene import make_table_texture


class NothingDetector:
    """Stands in for the ONNX model: sees no card."""

    made_with_conf: ClassVar[list[float]] = []

    def __init__(self, model_path=None, *, classifier=None, threads=2, conf=0.25):
        self.model_path = model_path
        self.made_with_conf.append(conf)

    def __call__(self, image):
        return Detections.empty()


def test_render_game_then_process(tmp_path, monkeypatch, capsys):
    out = tmp_path / "game"
    assert main(["render-game", "--seed", "3", "--out", str(out), "--max-plays", "1",
                 "--frames-per-second", "5"]) == 0
    printed = capsys.readouterr().out
    assert "1 plays" in printed and (out / "game.mp4").is_file()
    view = cv2.imread(str(view_path(out / "table.json")))   # the empty table, as calibrated
    assert view is not None and view.shape == (720, 1280, 3)
    truth = [json.loads(line) for line in (out / "truth.jsonl").read_text().splitlines()]
    assert [e["type"] for e in truth] == ["round", "play"]

    monkeypatch.setattr("vision.detector.Detector", NothingDetector)
    events = tmp_path / "events.jsonl"
    assert main(["process", str(out / "game.mp4"), "--table", str(out / "table.json"),
                 "--events", str(events)]) == 0
    printed = capsys.readouterr().out
    assert "frames/s" in printed and "plays committed: 0, held for review: 0" in printed
    assert events.read_text() == ""
    assert NothingDetector.made_with_conf[-1] == FAINT_CONF  # boxes down to faint cards


class RedFivesDetector(NothingDetector):
    """Stands in for the ONNX model: sees each pure red rectangle as a 5."""

    def __call__(self, image):
        _, _, stats, _ = cv2.connectedComponentsWithStats(
            cv2.inRange(image, (0, 0, 200), (60, 60, 255)))
        boxes = [[x, y, x + w, y + h] for x, y, w, h, area in stats[1:] if area > 100]
        if not boxes:
            return Detections.empty()
        return Detections(xyxy=np.array(boxes, np.float32),
                          confidence=np.full(len(boxes), 0.9, np.float32),
                          class_id=np.full(len(boxes), 2))


def test_process_writes_a_picture_of_each_play_it_asked_for(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("vision.detector.Detector", RedFivesDetector)
    clip = tmp_path / "clip"
    clip.mkdir()
    for index in range(60):   # 2.4 s at 25 a second: a pair of 5s laid at 0.8 s
        image = np.full((480, 640, 3), 90, np.uint8)
        for x in (300, 345) if index >= 20 else ():
            cv2.rectangle(image, (x - 20, 370), (x + 20, 430), (0, 0, 255), -1)
        cv2.imwrite(str(clip / f"{index:04d}.png"), image)
    table, events, pictures = tmp_path / "table.json", tmp_path / "e.jsonl", tmp_path / "pics"
    TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480)).save(table)
    truth = tmp_path / "truth.jsonl"   # three 5s were laid, one of them under the others
    truth.write_text('{"type": "round", "ruleset": "qingdao", "first": 0}\n'
                     '{"type": "play", "seat": 0, "cards": "555", "t": 0.8}\n')
    assert main(["process", str(clip), "--table", str(table), "--events", str(events),
                 "--pictures", str(pictures), "--truth", str(truth)]) == 0
    printed = capsys.readouterr().out
    assert f"pictures of the plays written to {pictures}" in printed
    plays = [e for e in map(json.loads, events.read_text().splitlines()) if e["type"] == "play"]
    assert [(e["seat"], e["cards"]) for e in plays] == [(0, "55")]
    written = pictures / f"play-{plays[0]['seq']}.jpg"
    assert sorted(pictures.iterdir()) == [written]
    picture = cv2.imread(str(written))
    assert picture is not None and (cv2.inRange(picture, (0, 0, 200), (60, 60, 255)) > 0).sum() > 3000
    # The play that differs from the truth is shown with its picture.
    assert printed.splitlines()[-3:] == [
        "- seat 0 plays 555 at 0.80 s", f"+ seat 0 plays 55 at {plays[0]['t']:.2f} s",
        f"  picture: {written}"]


@pytest.mark.parametrize("steady", [True, False])
def test_process_tells_how_often_the_camera_was_bumped(tmp_path, monkeypatch, capsys, steady):
    monkeypatch.setattr("vision.detector.Detector", NothingDetector)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    write_bumped_video(video, shift=(14, 8))
    TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480)).save(table)
    assert main(["process", str(video), "--table", str(table),
                 "--events", str(tmp_path / "events.jsonl"),
                 *([] if steady else ["--no-steady"])]) == 0
    printed = capsys.readouterr().out
    assert "pictures of 640x480 read at 960x720, the cards as large as the models learnt" in printed
    told = re.search(r"camera moved 1 times, its frames held to the table's view \(at last "
                     r"([\d.]+) px", printed)
    assert (told is not None) is steady
    if told is not None:   # in the camera's pixels, though its 640x480 frames were enlarged
        assert float(told[1]) == pytest.approx(math.hypot(14, 8), abs=0.15)


@pytest.mark.parametrize("view_kept", [True, False])
def test_process_finds_a_camera_moved_since_the_table_was_calibrated(tmp_path, monkeypatch,
                                                                       capsys, view_kept):
    monkeypatch.setattr("vision.detector.Detector", NothingDetector)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    cloth = make_table_texture(640, 480, np.random.default_rng(5), kind="cloth")   # woven
    write_bumped_video(video, shift=(14, 8), bump_at=-3, cloth=cloth)   # moved before it starts
    TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480)).save(table)
    if view_kept:
        save_view(table, cloth)   # as the camera saw it at calibration
    assert main(["process", str(video), "--table", str(table),
                 "--events", str(tmp_path / "events.jsonl")]) == 0
    printed = capsys.readouterr().out
    told = "camera moved 1 times, its frames held to the table's view (at last 16."  # √(14²+8²)
    assert (told in printed) is view_kept


@pytest.mark.parametrize(("argv", "round_gap", "review_conf"), [
    ([], ROUND_GAP, REVIEW_CONF), (["--round-gap", "0"], None, REVIEW_CONF),
    (["--round-gap", "90", "--review-conf", "0.5"], 90.0, 0.5)])
def test_process_judges_rounds_and_holds_plays_as_asked(tmp_path, monkeypatch, argv, round_gap,
                                                        review_conf):
    asked = []
    real_init = PlaySegmenter.__init__

    def init(self, *args, **options):
        real_init(self, *args, **options)
        asked.append((self.round_gap, self.review_conf))

    monkeypatch.setattr(PlaySegmenter, "__init__", init)
    monkeypatch.setattr("vision.detector.Detector", NothingDetector)
    clip = tmp_path / "clip"
    clip.mkdir()
    cv2.imwrite(str(clip / "0001.png"), np.zeros((72, 128, 3), np.uint8))
    table = TableLayout.default([(20, 10), (108, 10), (108, 62), (20, 62)], (128, 72))
    table.save(tmp_path / "table.json")
    assert main(["process", str(clip), "--table", str(tmp_path / "table.json"),
                 "--events", str(tmp_path / "events.jsonl"), *argv]) == 0
    assert asked == [(round_gap, review_conf)]


def test_process_asks_the_source_for_the_size_and_rate_given(tmp_path, monkeypatch, capsys):
    from vision import capture

    asked, shapes = [], []
    real_frames = capture.frames

    def frames(source, **options):
        asked.append(options)
        return (shapes.append(frame.image.shape) or frame for frame in real_frames(source, **options))

    monkeypatch.setattr(capture, "frames", frames)
    monkeypatch.setattr("vision.detector.Detector", NothingDetector)
    clip = tmp_path / "clip"
    clip.mkdir()
    for index in range(4):
        cv2.imwrite(str(clip / f"{index:04d}.png"), np.zeros((72, 128, 3), np.uint8))
    TableLayout.default([(20, 10), (108, 10), (108, 62), (20, 62)], (128, 72)).save(
        tmp_path / "table.json")
    assert main(["process", str(clip), "--table", str(tmp_path / "table.json"),
                 "--events", str(tmp_path / "events.jsonl"), "--size", "64x36", "--fps", "5"]) == 0
    assert asked == [{"width": 64, "height": 36, "fps": 5.0}]
    assert shapes == [(36, 64, 3)] * 4
    assert "4 frames" in capsys.readouterr().out


def test_ctrl_c_ends_a_run_with_its_log_and_figures(tmp_path, monkeypatch, capsys):
    import os
    import signal

    class InterruptedOnThirdFrame(NothingDetector):
        calls = 0

        def __call__(self, image):
            InterruptedOnThirdFrame.calls += 1
            if InterruptedOnThirdFrame.calls == 3:
                os.kill(os.getpid(), signal.SIGINT)
            return super().__call__(image)

    monkeypatch.setattr("vision.detector.Detector", InterruptedOnThirdFrame)
    clip = tmp_path / "clip"
    clip.mkdir()
    for index in range(20):  # every image differs: each frame is detected
        cv2.imwrite(str(clip / f"{index:04d}.png"), np.full((72, 128, 3), 10 * index, np.uint8))
    TableLayout.default([(20, 10), (108, 10), (108, 62), (20, 62)], (128, 72)).save(
        tmp_path / "table.json")
    handler = signal.getsignal(signal.SIGINT)
    assert main(["process", str(clip), "--table", str(tmp_path / "table.json"),
                 "--events", str(tmp_path / "events.jsonl"), "--whole-frame"]) == 0
    printed = capsys.readouterr()
    assert "frames/s" in printed.out and "events written to" in printed.out
    frames_run = int(printed.err.split("stopped (Ctrl-C) after ")[1].split()[0])
    assert 1 <= frames_run < 20
    assert signal.getsignal(signal.SIGINT) is handler  # Ctrl-C is Python's again


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--size", "1280", "expected WIDTHxHEIGHT such as 1280x720, got '1280'"),
    ("--size", "1280x0", "each side must lie within 16-8192 pixels"),
    ("--fps", "0", "must be above 0")])
def test_a_frame_size_or_rate_that_cannot_be_is_a_usage_error(capsys, option, value, message):
    with pytest.raises(SystemExit) as exit_:
        main(["process", "game.mp4", "--table", "t.json", "--events", "e.jsonl", option, value])
    assert exit_.value.code == 2
    assert f"argument {option}: {message}" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["process", "missing.mp4", "--table", "t.json", "--events", "e.jsonl"], "no such table"),
    (["render-game", "--seed", "1", "--out", "x", "--frames-per-second", "0"],
     "--frames-per-second must be between 1 and 120"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("option", "value"), [("--window", "0"), ("--window", "-1"),
                                               ("--threads", "0")])
def test_a_window_of_no_time_or_no_detector_thread_is_a_usage_error(capsys, option, value):
    with pytest.raises(SystemExit) as exit_:
        main(["process", "game.mp4", "--table", "t.json", "--events", "e.jsonl", option, value])
    assert exit_.value.code == 2
    assert f"argument {option}: must be" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["process", "render-game"])
def test_an_output_path_under_a_file_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys,
                                                             command):
    # The events log (or the game's folder) cannot be made where a file already lies: said
    # before the model loads or the game is filmed, and the file is left as it was.
    monkeypatch.chdir(tmp_path)
    Path("taken").write_text("kept")
    if command == "process":
        Path("clip").mkdir()
        cv2.imwrite("clip/0001.png", np.zeros((72, 128, 3), np.uint8))
        TableLayout.default([(20, 10), (108, 10), (108, 62), (20, 62)], (128, 72)).save(
            "table.json")
        argv = ["process", "clip", "--table", "table.json", "--events", "taken/events.jsonl"]
    else:
        argv = ["render-game", "--seed", "1", "--out", "taken/game"]
    monkeypatch.setattr("vision.detector.Detector", None)   # never reached
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"gouji {command}: error: ") and "taken" in error
    assert len(error.splitlines()) == 1
    assert Path("taken").read_text() == "kept"


def test_process_against_the_truth_prints_the_score_and_the_plays_that_differ(tmp_path,
                                                                              monkeypatch, capsys):
    out = tmp_path / "game"
    main(["render-game", "--seed", "3", "--out", str(out), "--max-plays", "1",
          "--frames-per-second", "5"])
    played = json.loads((out / "truth.jsonl").read_text().splitlines()[1])
    capsys.readouterr()
    monkeypatch.setattr("vision.detector.Detector", NothingDetector)
    assert main(["process", str(out / "game.mp4"), "--table", str(out / "table.json"),
                 "--events", str(tmp_path / "events.jsonl"),
                 "--truth", str(out / "truth.jsonl")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert f"against {out / 'truth.jsonl'}: 0/1 plays exact (0.0 %)" in printed[-3]
    assert "missed 1" in printed[-3]
    assert printed[-2] == "finishing order, counts and tribute as the truth's: no"
    assert printed[-1] == f"- seat {played['seat']} plays {played['cards']} at {played['t']:.2f} s"


@pytest.mark.parametrize(("line", "message"), [
    ("not json", "line 2: not JSON"),
    ('{"type": "play", "seat": 1, "cards": "5X"}', "line 2: invalid card token 'X'"),
    ("\udc9f\udc92", "not a text file (not UTF-8)"),   # bytes no UTF-8 text holds
], ids=["not-json", "bad-card", "not-utf8"])
def test_a_bad_truth_fails_before_the_video_is_read(tmp_path, monkeypatch, capsys, line, message):
    monkeypatch.chdir(tmp_path)
    TableLayout.default([(20, 10), (108, 10), (108, 62), (20, 62)], (128, 72)).save("t.json")
    Path("truth.jsonl").write_bytes(('{"type": "round", "first": 0}\n' + line + "\n").encode(
        "utf-8", "surrogateescape"))
    assert main(["process", "missing.mp4", "--table", "t.json", "--events", "e.jsonl",
                 "--truth", "truth.jsonl"]) == 2
    assert f"truth.jsonl: {message}" in capsys.readouterr().err
    assert not Path("e.jsonl").exists()
