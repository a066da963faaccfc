"""What the detector's suppression of overlapping boxes allows at best on the held-out set.

Usage::

    python bench/bench_nms_bound.py [--data DIR] [--iou 0.5 0.6 0.7 0.8] [--rotated | --by-rank]

A perfect detector would answer every labelled box of a scene with its rank. Its boxes still
pass the greedy NMS of a raw YOLO head (:func:`vision.detector.nms`, class-agnostic as for the
one-class detector of the cascade), which keeps no two boxes overlapping by more than the
threshold: in a fan laid at an angle, neighbouring cards' upright boxes overlap that much. The
truth boxes, scored at random, are put through that NMS at each threshold and scored by
:func:`vision.evaluate.evaluate` as ``gouji eval`` scores a model: the figures no model decoded
so can pass. ``none`` is an end-to-end head, which needs no NMS.

``--rotated`` judges the overlaps instead by each card's smallest rectangle at any angle around
its visible part (:attr:`vision.synth.labels.VisibleCard.rotated`), as an oriented-box head
would find it, through OpenCV's rotated NMS: what such a head would allow. The held-out scenes
are generated again for those rectangles (about 30 s). ``--by-rank`` keeps the upright boxes but
lets only cards of one rank suppress each other, as NMS after the ranks are read would.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detections import Detections, box_iou
from vision.detector import nms
from vision.evaluate import (
    HELDOUT_SEED,
    evaluate,
    heldout_synthetic_set,
    load_yolo_folder,
)
from vision.synth.dataset import dataset_scene

RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=None,
                        help="YOLO folder with plays/ (default: gouji eval's held-out set)")
    parser.add_argument("--iou", type=float, nargs="+", default=[0.5, 0.6, 0.7, 0.8],
                        help="NMS thresholds to weigh")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random scores")
    parser.add_argument("--rotated", action="store_true",
                        help="judge overlaps by the cards' rotated rectangles (default held-out "
                             "set only)")
    parser.add_argument("--by-rank", action="store_true",
                        help="only boxes of the same rank suppress each other")
    args = parser.parse_args()
    if args.rotated and (args.data is not None or args.by_rank):
        parser.error("--rotated generates the default held-out set's scenes again, and "
                     "suppresses across ranks: no --data, no --by-rank")
    items = load_yolo_folder(args.data if args.data is not None else heldout_synthetic_set())
    shape = (320, 320, 3)   # labels are normalised: any size gives the same overlaps
    truths = [item.truth(shape) for item in items]
    plays = [item.scene_plays(shape) for item in items]
    if args.rotated:
        rects = [_rotated_rects(i) for i in range(len(truths))]
        if [len(r) for r in rects] != [len(t) for t in truths]:
            raise SystemExit("the scenes generated again do not match the held-out labels")
        overlaps = [_largest_rotated_overlap(r) for r in rects]

        def suppress(i: int, scores: NDArray[np.float32], iou: float) -> NDArray[np.intp]:
            kept = cv2.dnn.NMSBoxesRotated(rects[i], scores.tolist(), 0.0, iou) \
                if rects[i] else []
            return np.asarray(kept, np.intp).reshape(-1)
    else:
        overlaps = [_largest_overlap(t.xyxy) for t in truths]

        def suppress(i: int, scores: NDArray[np.float32], iou: float) -> NDArray[np.intp]:
            return nms(truths[i].xyxy, scores, iou,
                       class_id=truths[i].class_id if args.by_rank else None)
    overlapping = sum(int((o > 0.6).sum()) for o in overlaps)
    cards = sum(len(t) for t in truths)
    print(f"{len(items)} scenes, {cards} labelled cards; {overlapping} "
          f"({overlapping / cards:.1%}) overlap another card's "
          f"{'rotated rectangle' if args.rotated else 'box'} by IoU over 0.6")
    print(f"{'NMS IoU':>8} {'mAP50':>7} {'mAP50-95':>9} {'per play':>9} {'per image':>10}")
    for iou in [*sorted(args.iou), None]:
        rng = np.random.default_rng(args.seed)
        kept = []
        for i, truth in enumerate(truths):
            scores = rng.uniform(0.5, 1.0, len(truth)).astype(np.float32)
            keep = suppress(i, scores, iou) if iou is not None else np.arange(len(truth))
            kept.append(Detections(xyxy=truth.xyxy[keep], confidence=scores[keep],
                                   class_id=truth.class_id[keep]))
        found = evaluate(kept, truths, plays=plays)
        per_play = found.play_exact_match if found.play_exact_match is not None else float("nan")
        print(f"{'none' if iou is None else f'{iou:.2f}':>8} {found.map50:7.3f} "
              f"{found.map50_95:9.3f} {per_play:9.1%} {found.exact_match:10.1%}")


def _largest_overlap(xyxy: NDArray[np.float32]) -> NDArray[np.float64]:
    """Each box's largest IoU with another box of the same image."""
    if len(xyxy) < 2:
        return np.zeros(len(xyxy))
    overlaps = box_iou(xyxy, xyxy)
    np.fill_diagonal(overlaps, 0.0)
    return np.asarray(overlaps.max(axis=1), np.float64)


def _rotated_rects(index: int) -> list[RotatedRect]:
    """The rotated rectangles of the labelled cards of held-out scene ``index``, in the order
    of its label file."""
    scene = dataset_scene(HELDOUT_SEED, index)
    return [((cx, cy), (w, h), angle)
            for cx, cy, w, h, angle in (card.rotated for card in scene.cards if card.readable)]


def _largest_rotated_overlap(rects: Sequence[RotatedRect]) -> NDArray[np.float64]:
    """Each rotated rectangle's largest IoU with another of the same scene."""
    largest = np.zeros(len(rects))
    for i, a in enumerate(rects):
        for j in range(i + 1, len(rects)):
            b = rects[j]
            kind, region = cv2.rotatedRectangleIntersection(a, b)
            if kind == cv2.INTERSECT_NONE or region is None:
                continue
            inter = cv2.contourArea(region)
            iou = inter / (a[1][0] * a[1][1] + b[1][0] * b[1][1] - inter)
            largest[i], largest[j] = max(largest[i], iou), max(largest[j], iou)
    return largest


if __name__ == "__main__":
    main()
