"""A learned second suppression after the NMS, against the NMS alone, on the held-out set.

Usage::

    python bench/bench_learned_suppression.py [--fit-seed 4343] [--fit-count 1500]

In a fan laid at an angle the upright boxes of neighbouring cards overlap as much as two boxes
of one card (``bench/bench_nms_bound.py``). This decodes the raw head in two steps instead of
one NMS at 0.6: an NMS at 0.75, which keeps the neighbours, then each box is weighed against
the surer box it overlaps most (its rival) by a logistic model of the pair (how much they
overlap, how many edges they share, their scores, the raw boxes that stand behind each, their
areas), and its score is multiplied by the chance that it is not its rival's card found again.
The model is fitted on generated scenes of ``--fit-seed`` (never trained on), then both
decodings are scored by :func:`vision.evaluate.evaluate` as ``gouji eval`` scores the cascade.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize
from scipy.special import expit

from assistant.commands.vision import EVAL_CONF
from vision.detections import Detections, box_area, box_intersection, box_iou
from vision.detector import Detector, nms, raw_boxes, read_image
from vision.evaluate import (
    Evaluation,
    LabelledImage,
    cards_taken,
    evaluate,
    heldout_synthetic_set,
    load_yolo_folder,
)
from vision.train import synthetic_set

FIRST_IOU = 0.75      # the NMS before the model: loose enough to keep a fan's neighbours
PAIR_IOU = 0.3        # a box is weighed only against a rival it overlaps by more than this
SUPPORT_IOU = 0.8     # a raw box stands behind a box it overlaps by at least this
SUPPORT_FLOOR = 0.05  # raw boxes scoring less stand behind nothing
FIT_SCORE = 0.13      # pairs of weaker boxes are left out of the fit: few reach the run-time 0.25

Chance = Callable[[NDArray[np.float64]], NDArray[np.float64]]
"""A fitted model: each pair's chance that its box is its rival's card found again."""


def first_stage(detector: Detector, image: NDArray[np.uint8]
                ) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float64]]:
    """The boxes the loose NMS leaves, their scores and their support (the summed scores of
    the raw boxes overlapping each by :data:`SUPPORT_IOU` or more)."""
    blob, transform = detector.preprocess(image)
    corners, scores, _ = raw_boxes(detector.infer(blob), EVAL_CONF)
    xyxy = transform.to_image(corners)      # the features do not depend on the scale
    keep = nms(xyxy, scores, FIRST_IOU)
    raw = scores >= SUPPORT_FLOOR
    near = (box_iou(xyxy[keep], xyxy[raw]) >= SUPPORT_IOU).astype(np.float64)
    return xyxy[keep], scores[keep], near @ scores[raw].astype(np.float64)


def rivals(xyxy: NDArray[np.float32], scores: NDArray[np.float32]) -> NDArray[np.intp]:
    """Each box's rival: the surer box it overlaps most, if by more than :data:`PAIR_IOU`."""
    count = len(xyxy)
    rival = np.full(count, -1, np.intp)
    if count < 2:
        return rival
    order = np.argsort(-scores, kind="stable")
    ious = box_iou(xyxy[order], xyxy[order])
    ious[np.triu_indices(count)] = -1.0
    best = ious.argmax(axis=1)
    found = ious[np.arange(count), best] > PAIR_IOU
    rival[order[found]] = order[best[found]]
    return rival


def pair_features(xyxy: NDArray[np.float32], scores: NDArray[np.float32],
                  support: NDArray[np.float64], box: NDArray[np.intp],
                  rival: NDArray[np.intp]) -> NDArray[np.float64]:
    """One row per pair ``(box[k], rival[k])``; every feature is unchanged by image scale."""
    a, b = xyxy[box].astype(np.float64), xyxy[rival].astype(np.float64)
    area_a, area_b = np.maximum(box_area(a), 1e-9), np.maximum(box_area(b), 1e-9)
    inter = np.diagonal(box_intersection(a, b)) if len(box) else np.zeros(0)
    sides = np.concatenate([a[:, 2:] - a[:, :2], b[:, 2:] - b[:, :2]], axis=1)
    shared_edges = (np.abs(a - b) < 0.05 * sides.max(axis=1, initial=0.0)[:, None]).sum(axis=1)
    s = scores.astype(np.float64) + 1e-9
    return np.column_stack([
        inter / (area_a + area_b - inter), s[box], np.log(s[box] / s[rival]),
        inter / area_a, inter / area_b, shared_edges,
        np.log(support[box] + 1e-9), np.log((support[box] + 1e-9) / (support[rival] + 1e-9)),
        np.log(area_a / area_b)]).reshape(len(box), 9)


def fit_logistic(x: NDArray[np.float64], y: NDArray[np.bool_], l2: float = 1e-3) -> Chance:
    """Logistic regression on standardised features (mean log loss plus ``l2`` on the
    weights), minimised by SciPy's L-BFGS; returns ``p(x)``."""
    mean, scale = x.mean(axis=0), np.maximum(x.std(axis=0), 1e-9)
    z = np.column_stack([(x - mean) / scale, np.ones(len(x))])   # the last weight: the bias
    sign = np.where(y, -1.0, 1.0)      # log loss = logaddexp(0, sign * logit)

    def loss(w: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        margin = sign * (z @ w)
        penalty = l2 * np.append(w[:-1], 0.0)
        gradient = z.T @ (sign * expit(margin)) / len(y) + penalty
        return float(np.logaddexp(0.0, margin).mean() + 0.5 * penalty @ w), gradient

    w = minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B").x
    return lambda f: expit(((f - mean) / scale) @ w[:-1] + w[-1])


def fit(detector: Detector, items: list[LabelledImage]) -> Chance:
    """Pairs of the fitting scenes, a duplicate when the box takes no labelled card."""
    rows, labels = [], []
    for item in items:
        image = read_image(item.path)
        xyxy, scores, support = first_stage(detector, image)
        rival = rivals(xyxy, scores)
        box = np.flatnonzero((rival >= 0) & (scores >= FIT_SCORE))
        found = Detections(xyxy=xyxy, confidence=scores, class_id=np.zeros(len(xyxy), np.int_))
        rows.append(pair_features(xyxy, scores, support, box, rival[box]))
        labels.append(cards_taken(found, item.truth(image.shape))[box] < 0)
    x, y = np.concatenate(rows), np.concatenate(labels)
    print(f"fitted on {len(y)} pairs ({int(y.sum())} duplicates) of {len(items)} scenes")
    return fit_logistic(x, y)


def score(detector: Detector, items: list[LabelledImage], duplicate: Chance
          ) -> tuple[Evaluation, Evaluation]:
    """The cascade on ``items`` decoded as ``gouji eval`` does (NMS at 0.6), and with the
    loose NMS and the learned rescoring, each image read once for both."""
    assert detector.classifier is not None
    plain, learned, truths, plays = [], [], [], []
    for item in items:
        image = read_image(item.path)
        plain.append(detector(image))
        xyxy, scores, support = first_stage(detector, image)
        rival = rivals(xyxy, scores)
        box = np.flatnonzero(rival >= 0)
        scores = scores.copy()
        scores[box] *= 1 - duplicate(pair_features(xyxy, scores, support, box, rival[box]))
        ranks, chances = detector.classifier.choices(image, xyxy, count=1)
        confidence = scores * chances[:, 0]
        sure = confidence >= EVAL_CONF
        learned.append(Detections(xyxy=xyxy[sure], confidence=confidence[sure],
                                  class_id=ranks[sure, 0]))
        truths.append(item.truth(image.shape))
        plays.append(item.scene_plays(image.shape))
    return (evaluate(plain, truths, plays=plays), evaluate(learned, truths, plays=plays))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit-seed", type=int, default=4343)
    parser.add_argument("--fit-count", type=int, default=1500)
    parser.add_argument("--datasets", type=Path, default=Path("datasets"))
    args = parser.parse_args()
    detector = Detector(threads=2, conf=EVAL_CONF)
    duplicate = fit(detector, load_yolo_folder(
        synthetic_set(args.datasets, seed=args.fit_seed, count=args.fit_count)))
    heldout = load_yolo_folder(heldout_synthetic_set())
    print(f"{'decoding':>22} {'mAP50':>6} {'mAP50-95':>8} {'per play':>8} {'per image':>9} "
          f"{'ranks':>6}  extra boxes")
    for name, found in zip(("NMS 0.6", "NMS 0.75 + learned"),
                           score(detector, heldout, duplicate)):
        print(f"{name:>22} {found.map50:6.3f} {found.map50_95:8.3f} "
              f"{found.play_exact_match or 0:8.1%} {found.exact_match:9.1%} "
              f"{found.outcomes['read right'] / found.cards:6.1%}  {found.outcomes['extra']}")


if __name__ == "__main__":
    main()
