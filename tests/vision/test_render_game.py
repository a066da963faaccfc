"""The scripted-game film: files, geometry the tracker agrees with, truth the tracker reproduces."""

from __future__ import annotations

import json

import cv2
import pytest

from assistant.pipeline import Pipeline
from tracker.score import score_plays
from tracker.table import TableLayout
from vision.capture import frames
from vision.render_game import DEAL_SECONDS, TruthDetector, render_game

# A legal opening of a qingdao round: seat 0 leads 555, seat 1 beats it with 666, the others
# pass, seat 1 leads KK and seat 3 answers AA.
SCRIPT = [
    {"type": "round", "ruleset": "qingdao", "first": 0},
    {"type": "play", "seat": 0, "cards": "555"},
    {"type": "play", "seat": 1, "cards": "666"},
    *[{"type": "pass", "seat": s} for s in (2, 3, 4, 5, 0)],
    {"type": "play", "seat": 1, "cards": "KK"},
    {"type": "play", "seat": 3, "cards": "AA"},
]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    out = tmp_path_factory.mktemp("game")
    return render_game(5, out, events=SCRIPT, boxes=True, fps=10)


def test_files_video_size_and_rate(game):
    capture = cv2.VideoCapture(str(game.video))
    assert (capture.get(cv2.CAP_PROP_FRAME_WIDTH), capture.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (
        1280, 720)
    assert capture.get(cv2.CAP_PROP_FPS) == pytest.approx(10)
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == game.frames
    capture.release()
    layout = TableLayout.load(game.table)
    assert layout.homography is not None and layout.image_size == (1280, 720)


def test_truth_is_the_script_with_times_and_gathered_tricks(game):
    truth = [json.loads(line) for line in game.truth.read_text().splitlines()]
    assert [(e["type"], e.get("seat")) for e in truth] == [
        ("round", None), ("play", 0), ("play", 1), *[("pass", s) for s in (2, 3, 4, 5, 0)],
        ("collect", None), ("play", 1), ("play", 3)]
    times = [e["t"] for e in truth if "t" in e]
    assert times == sorted(times) and 0 < times[0] < game.seconds


def test_the_tracker_on_exact_boxes_reproduces_the_truth(game):
    # Renderer geometry and the default seat zones agree, and the film's pace (hands, holds)
    # suits the segmenter: a perfect detector gives back every play and the gathered trick.
    oracle = TruthDetector(game.video.parent)
    events = []
    Pipeline(oracle.follow(frames(game.video)), TableLayout.load(game.table), oracle,
             per_zone=False).run(events.append)
    truth = [json.loads(line) for line in game.truth.read_text().splitlines()]
    score = score_plays(truth, events)
    assert score.exact == score.truth == 4 and score.phantom == 0
    assert [e["type"] for e in events] == ["play", "play", "collect", "play", "play"]


def test_different_seeds_film_different_tables(tmp_path):
    script = SCRIPT[:2]
    looks = []
    for seed in (1, 2):
        game = render_game(seed, tmp_path / str(seed), events=script, fps=5)
        ok, image = cv2.VideoCapture(str(game.video)).read()
        assert ok
        looks.append((json.loads(game.table.read_text())["homography"], image.mean()))
    assert looks[0][0] != looks[1][0] and looks[0][1] != looks[1][1]


def test_the_table_lies_empty_while_the_next_round_is_dealt(tmp_path):
    # Five seats go out one card each, ending the round; the next round's lead comes after the
    # deal: on a live table a minute and more without a play (the segmenter's ``round_gap``).
    first = [{"type": "round", "ruleset": "qingdao", "first": 0, "counts": [1] * 6},
             *[{"type": "play", "seat": seat, "cards": rank} for seat, rank in enumerate("56789")]]
    script = [*first, {"type": "round", "ruleset": "qingdao", "first": 2},
              {"type": "play", "seat": 2, "cards": "KK"}]
    game = render_game(3, tmp_path, events=script, fps=5)
    truth = [json.loads(line) for line in game.truth.read_text().splitlines()]
    assert [(e["type"], e.get("seat")) for e in truth] == [
        ("round", None), *[("play", seat) for seat in range(5)], ("collect", None),
        ("round", None), ("play", 2)]
    gathered, lead = truth[6]["t"], truth[8]["t"]
    assert DEAL_SECONDS[0] < lead - gathered < DEAL_SECONDS[1] + 5
