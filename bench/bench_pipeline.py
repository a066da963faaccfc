"""End-to-end benchmark of the video pipeline on rendered games it never saw.

For each seed: film a scripted legal game (``vision.render_game``, cached under
``cache/bench-games``), run :class:`assistant.pipeline.Pipeline` on the video as ``gouji process``
does, and compare with the truth:

- plays with the right seat and exactly the right cards, phantom and missed plays, plays held
  for review (:func:`tracker.score.score_plays`);
- the rules engine fed by the recognised events against the truth: finishing order, counts,
  tribute table;
- with ``--show-wrong``, the plays that differ from the truth, as a diff;
- where the misread plays lie: the share of true plays not read exactly in the far zones of a
  camera at a slant (less than :data:`FAR_ZONE_SHARE` of the largest zone's area in the
  picture), and elsewhere;
- the recognised events are kept next to the game as ``events-model.jsonl`` (or
  ``events-oracle.jsonl``, ``events-operator.jsonl``) for a closer look;
- speed: frames per second end to end (decoding the 1280×720 video included), and latency:
  the wall time from the arrival of the frame that completes a play's stability window to its
  event (``PipelineStats.latencies``), the slowest frame (``PipelineStats.slowest_frame``:
  most often one where every zone is detected afresh), plus how late in video time each play
  was committed after its cards came to rest (window included).

Run:  python bench/bench_pipeline.py --seeds 101 102 [--oracle | --model PATH] [--max-plays N]
      [--rounds N] [--show-wrong]

``--oracle`` replaces the detector by the renderer's exact boxes: it measures the tracker and
the pipeline alone. With the ONNX model it measures everything, detector included.

``--operator`` adds the operator of a live table: every play held for review is looked at as it
comes; a wrong one is corrected at once (the rules then go on from the right game), one that
nobody made is withdrawn, a right one is let in. The figures are then those of the corrected
log (its held plays are those let in as they were), and the corrections are counted: what a
referee would have had to fix by hand.

``--camera-noise SIGMA`` and ``--flicker AMPLITUDE`` film the game as a webcam would: fresh
sensor noise on every frame (Gaussian, SIGMA grey levels per channel) and the picture's
brightness swaying (the beat of mains-powered lights against the frame rate, and an automatic
exposure hunting: a gain of 1 ± AMPLITUDE), so that the change detector, which decides when a
zone is at rest, and the models are measured on frames that are never twice the same. The
noise is drawn from the seed: reruns see the same frames. (Speed figures then include drawing
it.)

``--moved PIXELS`` films the game with a camera moved, by up to PIXELS, from where the table was
calibrated (its view kept beside ``table.json``, as ``gouji render-game`` and a calibration in
the dashboard keep it), as between two evenings at the table.

``--shake PIXELS`` bumps the camera now and then (about every ``--shake-every`` seconds, 30 by
default): over a fifth of a second it moves to a new pose, up to PIXELS from where the table
was calibrated and turned by up to as much at the picture's corners, and stays there, as a
webcam clamped to a table does when someone leans on it. ``--no-steady`` turns off following
the camera (:mod:`vision.stabilize`), to measure what it saves.

``--frame-scale S`` films the game with a camera of another resolution: each frame scaled by S
(1.5: 1920×1080; 0.5: 640×360) and the table file with it (``TableLayout.resized``), as a
table calibrated on that camera's pictures; the pipeline scales them to
``assistant.pipeline.WORKING_SIDE`` pixels on their shorter side. Upscaled frames are softer
than a sharper camera's would be; the speed figures include the scaling.

``--far S`` films the game from further away, or through a wider lens: each frame shrunk by S
and set in the middle of a frame of its own size, the room around it a flat grey, and the table
file with it (``TableLayout.transformed``). The cards are then S times as long as rendered; the
pipeline enlarges pictures whose play area is small (``assistant.pipeline.PLAY_AREA_SIDE``).

``--cache-detections`` keeps the detector's answers per image in the game's folder, so that a
rerun after a tracker change reads only the views it has not seen (its speed figures then say
nothing).

Set the CPU count with ``taskset -c 0,1`` to reproduce the two-core figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import pickle
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

import rules
from assistant.commands import seconds
from assistant.pipeline import (
    CLOSER_IOU,
    CLOSER_SCALES,
    FAN_STEP,
    NESTED_BELOW,
    NESTED_CORNER,
    NESTED_INSIDE,
    Pipeline,
    card_detector,
)
from tracker.plays import FAINT_CONF, LOOK_AHEAD, MAX_REVISIONS, MIN_CONF, REVIEW_CONF, ROUND_GAP
from tracker.score import PlayScore, game_outcome, play_key, score_plays
from tracker.table import TableLayout, load_view, save_view
from vision.capture import Frame, frames
from vision.detections import Detections
from vision.detector import Detector
from vision.render_game import TruthDetector, render_game

ROOT = Path(__file__).resolve().parents[1]
ROOM = 60
"""The grey level about a table filmed from afar (``--far``)."""


class NoisyTruth(TruthDetector):
    """The exact boxes, but each card is missed with chance ``miss`` and read as another rank
    (at confidence 0.4) with chance ``confuse``, drawn anew at every detector run."""

    def __init__(self, folder: Path, *, miss: float, confuse: float, seed: int) -> None:
        super().__init__(folder)
        self.miss, self.confuse = miss, confuse
        self.rng = np.random.default_rng(seed)

    def __call__(self, image: Any) -> Detections:
        found = super().__call__(image)
        kept = found[self.rng.random(len(found)) >= self.miss]
        classes = kept.class_id.copy()
        wrong = self.rng.random(len(kept)) < self.confuse
        classes[wrong] = (classes[wrong] + self.rng.integers(1, 15, int(wrong.sum()))) % 15
        confidence = np.where(wrong, 0.4, 0.95).astype(np.float32)
        return Detections(xyxy=kept.xyxy, confidence=confidence, class_id=classes)


class CachedDetector:
    """A :class:`~vision.detector.Detector` whose answers are kept by image content, NMS
    threshold and input size in ``answers``, stored at ``path`` by :meth:`save`."""

    def __init__(self, detector: Detector, path: Path,
                 answers: dict[bytes, Detections] | None = None) -> None:
        self.detector, self.path = detector, path
        if answers is None:
            answers = pickle.loads(path.read_bytes()) if path.is_file() else {}
        self.answers: dict[bytes, Detections] = answers

    @classmethod
    def in_folder(cls, detector: Detector, folder: Path) -> CachedDetector:
        """The cache of ``detector`` in a game's folder, named after its models' files."""
        models = hashlib.blake2b(digest_size=8)
        for model in (detector.model_path,
                      *([detector.classifier.model_path] if detector.classifier else [])):
            models.update(model.read_bytes())
        models.update(str(detector.conf).encode())
        return cls(detector, folder / f"detections-{models.hexdigest()}.pickle")

    @property
    def dynamic(self) -> bool:
        return self.detector.dynamic

    def fit_input(self, width: int, height: int) -> None:
        self.detector.fit_input(width, height)

    def with_iou(self, iou: float) -> CachedDetector:
        return CachedDetector(self.detector.with_iou(iou), self.path, self.answers)

    def __call__(self, image: Any) -> Detections:
        key = hashlib.blake2b(image.tobytes(), digest_size=16, person=b"gouji-bench")
        key.update(repr((image.shape, self.detector.iou, self.detector.input_size)).encode())
        digest = key.digest()
        if digest not in self.answers:
            self.answers[digest] = self.detector(image)
        return self.answers[digest]

    def save(self) -> None:
        # Written aside and moved into place: a run beside another of the same game never
        # leaves a torn file.
        part = self.path.with_name(f"{self.path.name}.{os.getpid()}.part")
        part.write_bytes(pickle.dumps(self.answers))
        os.replace(part, self.path)


class Operator:
    """The operator of a live table, who knows what was played: looks at each play held for
    review as it comes, corrects a wrong one, withdraws one nobody made, lets a right one in.

    A committed play stands for the earliest true play not yet accounted for whose cards came
    to rest at most ``lag`` seconds before it was committed; there is none for a phantom play.
    """

    def __init__(self, truth: list[dict[str, Any]], *, lag: float = 2.0) -> None:
        self.pending = [e for e in truth if e["type"] == "play"]
        self.lag = lag
        self.corrections = 0
        self.stood_for: dict[int, dict[str, Any] | None] = {}  # seq -> the true play, if any
        self.reviewed: set[int] = set()  # plays the operator has seen to

    def review(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The play as it goes into the game; ``None`` when the operator withdraws it."""
        if "fixes" in event:
            return self.review_correction(event)
        made = [i for i, play in enumerate(self.pending)
                if event["t"] - self.lag <= play["t"] <= event["t"]]
        true_play = self.pending.pop(made[0]) if made else None
        self.stood_for[event["seq"]] = true_play
        if not event.get("review"):
            return event
        self.reviewed.add(event["seq"])
        if true_play is None:
            self.corrections += 1
            return None
        if play_key(true_play) == play_key(event):
            return event
        self.corrections += 1
        return {**event, "seat": true_play["seat"], "cards": true_play["cards"],
                "source": "operator", "review": False}

    def review_correction(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The pipeline correcting one of its earlier plays: dropped when the operator has seen
        to that play (as the live game does), else let in when right; when wrong the operator
        puts the play right (a correction for the operator): undoing a wrong revision of a
        right play, mending a wrong play held as it stands, deleting a play nobody made."""
        if event["fixes"] in self.reviewed:
            return None
        self.reviewed.add(event["fixes"])
        true_play = self.stood_for.get(event["fixes"])
        if true_play is not None and play_key(true_play) == play_key(event):
            return event
        self.corrections += 1
        if true_play is None:   # a play nobody made: the operator deletes it
            return {"type": "void", "fixes": event["fixes"], "t": event["t"],
                    "source": "operator", "seq": event["seq"]}
        return {**event, "seat": true_play["seat"], "cards": true_play["cards"],
                "source": "operator", "review": False}


def as_a_webcam(source: Iterable[Frame], *, noise: float, flicker: float, seed: int
                ) -> Iterator[Frame]:
    """``source``'s frames with a webcam's sensor noise and swaying brightness (see the
    module's docstring)."""
    rng = np.random.default_rng(seed)
    for frame in source:
        grain = np.empty(frame.image.shape, np.int16)
        gain = 1 + flicker * (0.6 * np.sin(2 * np.pi * 1.3 * frame.t)       # lights' beat
                              + 0.4 * np.sin(2 * np.pi * 0.07 * frame.t)    # exposure hunting
                              ) * rng.uniform(0.8, 1.0)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(grain, np.zeros(3), np.full(3, noise))  # each channel its own noise
        image = cv2.add(cv2.convertScaleAbs(frame.image, alpha=gain), grain, dtype=cv2.CV_8U)
        yield dataclasses.replace(frame, image=np.asarray(image, np.uint8))


def filmed_at(source: Iterable[Frame], size: tuple[int, int]) -> Iterator[Frame]:
    """``source``'s frames scaled to ``size`` (width, height), as a camera of that
    resolution would film them."""
    for frame in source:
        shrinking = size[0] < frame.image.shape[1]
        image = cv2.resize(frame.image, size,
                           interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
        yield dataclasses.replace(frame, image=np.asarray(image, np.uint8))


def afar(size: tuple[int, int], scale: float) -> NDArray[np.float64]:
    """The move (3×3) of a picture of ``size`` shrunk by ``scale`` into the middle of a picture
    of its own size, by whole pixels."""
    width, height = size
    small = (round(width * scale), round(height * scale))
    return np.array([[small[0] / width, 0, (width - small[0]) // 2],
                     [0, small[1] / height, (height - small[1]) // 2], [0, 0, 1]])


def shrunk_into_room(image: NDArray[np.uint8], move: NDArray[np.float64]) -> NDArray[np.uint8]:
    """``image`` moved by ``move`` (:func:`afar`) into a grey picture of its own size."""
    height, width = image.shape[:2]
    small = (round(width * move[0, 0]), round(height * move[1, 1]))
    left, top = int(move[0, 2]), int(move[1, 2])
    filmed = np.full_like(image, ROOM)
    cv2.resize(image, small, dst=filmed[top:top + small[1], left:left + small[0]],
               interpolation=cv2.INTER_AREA)
    return filmed


def camera_bumped(source: Iterable[Frame], *, shift: float, every: float, seed: int,
                  moved: float = 0.0) -> Iterator[Frame]:
    """``source``'s frames filmed by a camera that someone bumps now and then, by up to
    ``shift`` pixels (see the module's docstring), and that was moved by up to ``moved`` pixels
    before the first frame. The moved-in edge repeats the picture's border."""
    rng = np.random.default_rng(seed + 1)

    def new_pose(frame: Frame, most: float) -> NDArray[np.float64]:
        height, width = frame.image.shape[:2]
        radius, angle = most * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
        return np.array([radius * np.cos(angle), radius * np.sin(angle),
                         np.degrees(rng.uniform(-1, 1) * most / (np.hypot(width, height) / 2))])

    pose: NDArray[np.float64] | None = None    # dx, dy in pixels; turn in degrees
    end = 0.0
    bump_at = rng.exponential(every) if shift else np.inf
    for frame in source:
        if pose is None:
            pose = start = target = new_pose(frame, moved) if moved else np.zeros(3)
        if frame.t >= bump_at:
            start, target = pose, new_pose(frame, shift)
            end, bump_at = frame.t + 0.2, frame.t + 0.2 + rng.exponential(every)
        if frame.t < end:                # on the way: a wobble past the new pose
            done = 1 - (end - frame.t) / 0.2
            pose = start + (target - start) * (done + 0.3 * np.sin(np.pi * done))
        else:
            pose = target
        if np.any(pose):
            height, width = frame.image.shape[:2]
            matrix = np.asarray(cv2.getRotationMatrix2D((width / 2, height / 2), pose[2], 1.0),
                                np.float64)
            matrix[:, 2] += pose[:2]
            frame = dataclasses.replace(frame, image=np.asarray(cv2.warpAffine(
                frame.image, matrix, (width, height), borderMode=cv2.BORDER_REPLICATE), np.uint8))
        yield frame


FAR_ZONE_SHARE = 0.7
"""A seat zone with less than this share of the largest zone's area in the picture is a far
one: a camera at a slant shows its cards smaller."""


def far_seats(table: TableLayout) -> set[int]:
    """The seats whose zones lie far from a camera at a slant (:data:`FAR_ZONE_SHARE`)."""
    largest = max(seat.area for seat in table.seats)
    return {seat.index for seat in table.seats if seat.area < FAR_ZONE_SHARE * largest}


def misread_by_zone(truth: list[dict[str, Any]], score: PlayScore, far: set[int]
                    ) -> dict[str, tuple[int, int]]:
    """Of the true plays in the ``far`` seats' zones and in the others, how many were not read
    exactly, and how many there were: ``{"far": (misread, plays), "near": (...)}``."""
    misread = Counter(play["seat"] in far for difference in score.differences
                      for play in difference.truth)
    plays = Counter(e["seat"] in far for e in truth if e["type"] == "play")
    return {"far": (misread[True], plays[True]), "near": (misread[False], plays[False])}


def bench_one(seed: int, args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(args.cache) / "-".join(
        [f"seed-{seed}", *([f"r{args.rounds}"] if args.rounds > 1 else []),
         *([str(args.max_plays)] if args.max_plays is not None else [])])
    if not (folder / "truth.jsonl").is_file() or (args.oracle and not (folder / "boxes.jsonl")
                                                  .is_file()):
        started = time.perf_counter()
        game = render_game(seed, folder, ruleset=args.ruleset, rounds=args.rounds, boxes=True,
                           max_plays=args.max_plays)
        save_view(game.table, game.view)
        print(f"seed {seed}: rendered {game.plays} plays, {game.seconds:.0f} s of video in "
              f"{time.perf_counter() - started:.0f} s")
    truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines()]
    table = TableLayout.load(folder / "table.json")
    view = load_view(folder / "table.json", table.image_size)
    source: Any = frames(folder / "game.mp4")
    if args.frame_scale != 1:
        width, height = table.image_size
        table = table.resized((round(width * args.frame_scale), round(height * args.frame_scale)))
        source = filmed_at(source, table.image_size)
        if view is not None:
            view = np.asarray(cv2.resize(view, table.image_size), np.uint8)
    if args.far != 1:
        move = afar(table.image_size, args.far)
        table = table.transformed(move, table.image_size)
        source = (dataclasses.replace(frame, image=shrunk_into_room(frame.image, move))
                  for frame in source)
        if view is not None:
            view = shrunk_into_room(view, move)
    if args.camera_noise or args.flicker:
        source = as_a_webcam(source, noise=args.camera_noise, flicker=args.flicker, seed=seed)
    if args.shake or args.moved:
        source = camera_bumped(source, shift=args.shake, every=args.shake_every, seed=seed,
                               moved=args.moved)
    detector: Any
    if args.oracle:
        oracle = (NoisyTruth(folder, miss=args.miss, confuse=args.confuse, seed=seed)
                  if args.miss or args.confuse else TruthDetector(folder))
        detector, source, per_zone = oracle, oracle.follow(source), False
    else:
        detector = card_detector(args.model, classifier=args.classifier, threads=args.threads,
                                 faint_conf=min(args.faint_conf, args.conf))
        if args.cache_detections:
            detector = CachedDetector.in_folder(detector, folder)
        per_zone = not args.whole_frame
    match = rules.Match(ruleset=args.ruleset)
    events: list[dict[str, Any]] = []
    operator = Operator(truth) if args.operator else None

    def on_event(event: dict[str, Any]) -> None:
        if operator is not None and event["type"] == "play":
            reviewed = operator.review(event)
            if reviewed is None:
                return
            event = reviewed
        events.append(event)
        match.apply(event, line=len(events))

    stats = Pipeline(source, table, detector, match=match, ruleset=args.ruleset,
                     window=args.window, per_zone=per_zone, min_conf=args.conf,
                     faint_conf=args.faint_conf, nested_inside=args.nested_inside,
                     nested_below=args.nested_below,
                     nested_corner=args.nested_corner,
                     fan_step=FAN_STEP if args.fan_step else None, turned_look=args.turned_look,
                     closer_scales=tuple(args.closer_scales), closer_iou=args.closer_iou,
                     max_revisions=args.max_revisions, look_ahead=args.look_ahead,
                     review_conf=args.review_conf, round_gap=args.round_gap,
                     steady=args.steady,
                     view=view).run(on_event)
    if isinstance(detector, CachedDetector):
        detector.save()
    name = ("events-oracle.jsonl" if args.oracle else "events-operator.jsonl" if args.operator
            else "events-model.jsonl")
    (folder / name).write_text("".join(json.dumps(e) + "\n" for e in events))
    score = score_plays(truth, events)
    same_game = game_outcome(truth, args.ruleset) == game_outcome(events, args.ruleset)
    true_still = [e["t"] for e in truth if e["type"] == "play"]
    seen_at = [e["t"] for _, e in rules.apply_corrections(list(enumerate(events)))
               if e["type"] == "play"]
    lag = [s - t for t, s in zip(true_still, seen_at)] if score.exact == score.truth else []
    return {"seed": seed, "score": score, "same_game": same_game, "stats": stats, "lag": lag,
            "corrections": operator.corrections if operator else 0,
            "by_zone": misread_by_zone(truth, score, far_seats(table))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[101, 102])
    parser.add_argument("--cache", default=str(ROOT / "cache" / "bench-games"))
    parser.add_argument("--oracle", action="store_true", help="exact boxes instead of the model")
    parser.add_argument("--miss", type=float, default=0.0,
                        help="with --oracle: chance that a card is not detected")
    parser.add_argument("--confuse", type=float, default=0.0,
                        help="with --oracle: chance that a card is read as another rank "
                             "(at confidence 0.4)")
    parser.add_argument("--model", default=None, help="ONNX model (default: the shipped one)")
    parser.add_argument("--classifier", default=None,
                        help="rank classifier of a one-class model (default: the shipped one)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cache-detections", action="store_true",
                        help="keep the detector's answers in each game's folder and reuse them "
                             "(for accuracy only: the speed figures then mean nothing)")
    parser.add_argument("--conf", type=float, default=MIN_CONF,
                        help=f"confidence a card needs to count (default {MIN_CONF})")
    parser.add_argument("--faint-conf", type=float, default=FAINT_CONF,
                        help="confidence from which the rules may take a faint card into a "
                             f"play (default {FAINT_CONF}; equal to --conf: never)")
    parser.add_argument("--review-conf", type=float, default=REVIEW_CONF,
                        help="confidence under which a play's least sure card holds it for "
                             f"review (default {REVIEW_CONF})")
    parser.add_argument("--nested-inside", type=float, default=NESTED_INSIDE,
                        help="share of an unsure box within a surer box of its rank that makes "
                             f"it a second reading (default {NESTED_INSIDE})")
    parser.add_argument("--nested-below", type=float, default=NESTED_BELOW,
                        help="score under which a box may be a second reading "
                             f"(default {NESTED_BELOW}; 0: never)")
    parser.add_argument("--nested-corner", type=float, default=NESTED_CORNER,
                        help="tolerance, as a share of card length, for a box sharing a corner "
                             "with a surer box of its rank: a second reading whatever its score "
                             f"(default {NESTED_CORNER}; 0: never)")
    parser.add_argument("--no-revise", dest="max_revisions", action="store_const", const=0,
                        default=MAX_REVISIONS,
                        help="never correct an earlier play when a later one contradicts it")
    parser.add_argument("--no-look-ahead", dest="look_ahead", action="store_const", const=None,
                        default=LOOK_AHEAD,
                        help="read a play's closer views when its window ends, not while its "
                             "picture stands")
    parser.add_argument("--no-fan-step", dest="fan_step", action="store_false",
                        help="count no box nested in a surer one of its rank as a fan's next "
                             "card (assistant.pipeline.FAN_STEP)")
    parser.add_argument("--no-turned-look", dest="turned_look", action="store_false",
                        help="detect each zone crop upright only, not also turned half round")
    parser.add_argument("--closer-scales", type=float, nargs="*", default=list(CLOSER_SCALES),
                        metavar="SCALE",
                        help="factors by which a zone is read again, enlarged, when a play has "
                             "faint cards of its ranks beside it (default "
                             f"{' '.join(map(str, CLOSER_SCALES))}; none: never)")
    parser.add_argument("--closer-iou", type=float, default=CLOSER_IOU, metavar="IOU",
                        help=f"NMS threshold (IoU) of the closer views (default {CLOSER_IOU})")
    parser.add_argument("--whole-frame", action="store_true",
                        help="detect on whole frames instead of each seat's upright crop")
    parser.add_argument("--ruleset", default="qingdao")
    parser.add_argument("--window", type=float, default=0.5)
    parser.add_argument("--max-plays", type=int, default=None, help="short clips of N plays")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds per game, the table empty between them while dealing")
    parser.add_argument("--round-gap", type=seconds, default=ROUND_GAP, metavar="SECONDS",
                        help="seconds without a play after which an open round is judged "
                             "(0: only when the video ends)")
    parser.add_argument("--operator", action="store_true",
                        help="an operator corrects each wrong play held for review at once")
    parser.add_argument("--camera-noise", type=float, default=0.0, metavar="SIGMA",
                        help="sensor noise on every frame, SIGMA grey levels (default 0)")
    parser.add_argument("--flicker", type=float, default=0.0, metavar="AMPLITUDE",
                        help="brightness swaying by up to this share (default 0)")
    parser.add_argument("--shake", type=float, default=0.0, metavar="PIXELS",
                        help="bump the camera now and then, by up to PIXELS (default 0: never)")
    parser.add_argument("--shake-every", type=float, default=30.0, metavar="SECONDS",
                        help="mean seconds between two bumps (default 30)")
    parser.add_argument("--moved", type=float, default=0.0, metavar="PIXELS",
                        help="the camera moved by up to PIXELS since the table was calibrated "
                             "(default 0)")
    parser.add_argument("--frame-scale", type=float, default=1.0, metavar="S",
                        help="film at S times the video's resolution, the table file scaled "
                             "with it (default 1; 1.5: 1920x1080)")
    parser.add_argument("--far", type=float, default=1.0, metavar="S",
                        help="film from further away: each frame shrunk by S into the middle "
                             "of its own size, the table file with it (default 1)")
    parser.add_argument("--no-steady", dest="steady", action="store_false",
                        help="do not follow the camera's moves (frames are taken as they come)")
    parser.add_argument("--show-wrong", action="store_true",
                        help="list each game's plays that differ from the truth")
    args = parser.parse_args()
    results = [bench_one(seed, args) for seed in args.seeds]
    exact = sum(r["score"].exact for r in results)
    total = sum(r["score"].truth for r in results)
    for r in results:
        s = r["stats"]
        lat = sorted(s.latencies)
        operator = f"; operator corrections {r['corrections']}" if args.operator else ""
        print(f"seed {r['seed']}: {r['score'].summary()}{operator}; same finish/counts/tribute: "
              f"{r['same_game']}; {s.frames} frames at {s.fps:.1f} frames/s, "
              f"{s.detector_calls} detector runs in {s.detector_seconds:.1f} s; event latency median "
              f"{1000 * statistics.median(lat) if lat else 0:.1f} ms, 95th percentile "
              f"{1000 * lat[int(0.95 * (len(lat) - 1))] if lat else 0:.1f} ms, max "
              f"{1000 * max(lat) if lat else 0:.1f} ms, slowest frame "
              f"{1000 * s.slowest_frame:.1f} ms"
              + (f"; committed {statistics.median(r['lag']):.2f} s (median) after the cards "
                 f"came to rest" if r["lag"] else "")
              + (f"; camera moves followed {s.camera_motion.moves}, pictures past following "
                 f"{s.camera_motion.unfollowed}" if s.camera_motion is not None else ""))
        if args.show_wrong:
            for difference in r["score"].differences:
                print("\n".join(f"    {line}" for line in difference.lines()))
    frames_total = sum(r["stats"].frames for r in results)
    seconds_total = sum(r["stats"].seconds for r in results)
    print(f"ALL: {exact}/{total} plays exact ({100 * exact / max(total, 1):.2f} %), "
          f"phantom {sum(r['score'].phantom for r in results)}, "
          f"held {sum(r['score'].held for r in results)}, "
          f"same game {sum(r['same_game'] for r in results)}/{len(results)}, "
          + (f"operator corrections {sum(r['corrections'] for r in results)}, "
             if args.operator else "")
          + f"{frames_total / seconds_total:.1f} frames/s; machine load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    far, near = ([sum(r["by_zone"][zones][k] for r in results) for k in (0, 1)]
                 for zones in ("far", "near"))
    print(f"misread: in far zones (under {FAR_ZONE_SHARE} of the largest zone's area) "
          f"{far[0]}/{far[1]} plays ({100 * far[0] / max(far[1], 1):.2f} %), elsewhere "
          f"{near[0]}/{near[1]} ({100 * near[0] / max(near[1], 1):.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
