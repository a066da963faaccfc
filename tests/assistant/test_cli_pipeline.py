"""``gouji render-game`` and ``gouji process`` from the command line."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest

from assistant.cli import main
from tracker.plays import FAINT_CONF
from vision.detections import Detections


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


@pytest.mark.parametrize(("argv", "message"), [
    (["process", "missing.mp4", "--table", "t.json", "--events", "e.jsonl"], "no such table"),
    (["render-game", "--seed", "1", "--out", "x", "--frames-per-second", "0"],
     "--frames-per-second must be between 1 and 120"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err
