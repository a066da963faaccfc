"""End to end on games no part of the system saw: film them, process them, compare with the truth.

A short clip runs by default; the full round is slow (about 70-100 plays, a few minutes of
video): run it with ``-m slow``.
"""

from __future__ import annotations

import json

import pytest

import rules
from assistant.cli import main
from assistant.pipeline import Pipeline
from tracker.score import game_outcome, score_plays
from tracker.table import TableLayout
from vision.capture import frames
from vision.detector import default_model_path
from vision.render_game import TruthDetector, render_game

UNSEEN_SEED = 90_417
"""A seed used nowhere else: its deck style, light, camera and game are new to the model."""
UNSEEN_CLIP_SEED = 90_418
"""The same for the short clip."""
CLIP_PLAYS = 12


shipped_model = pytest.mark.skipif(not default_model_path().is_file(),
                                   reason="no trained model shipped yet")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return render_game(UNSEEN_SEED, tmp_path_factory.mktemp("unseen"), boxes=True)


def truth_of(game):
    return [json.loads(line) for line in game.truth.read_text().splitlines()]


@pytest.mark.slow
def test_with_exact_boxes_every_play_and_the_outcome_come_back(game):
    oracle = TruthDetector(game.video.parent)
    match, events = rules.Match(), []

    def on_event(event):
        events.append(event)
        match.apply(event, line=len(events))

    Pipeline(oracle.follow(frames(game.video)), TableLayout.load(game.table), oracle,
             match=match, per_zone=False).run(on_event)
    score = score_plays(truth_of(game), events)
    assert (score.exact, score.phantom, score.held) == (score.truth, 0, 0), score.summary()
    assert game_outcome(events) == game_outcome(truth_of(game))


def processed(game, tmp_path):
    log = tmp_path / "events.jsonl"
    assert main(["process", str(game.video), "--table", str(game.table),
                 "--events", str(log)]) == 0
    return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.slow
@shipped_model
def test_gouji_process_with_the_shipped_model(game, tmp_path):
    events = processed(game, tmp_path)
    score = score_plays(truth_of(game), events)
    assert score.accuracy >= 0.99 and score.phantom == 0, score.summary()
    assert game_outcome(events) == game_outcome(truth_of(game))


@shipped_model
def test_a_short_clip_with_the_shipped_model_comes_back_play_for_play(tmp_path):
    clip = render_game(UNSEEN_CLIP_SEED, tmp_path / "clip", max_plays=CLIP_PLAYS)
    truth = truth_of(clip)
    events = processed(clip, tmp_path)
    score = score_plays(truth, events)
    assert (score.exact, score.truth, score.phantom) == (CLIP_PLAYS, CLIP_PLAYS, 0), \
        score.summary()
    assert rules.replay(events).to_json()["counts"] == rules.replay(truth).to_json()["counts"]
