"""What the detector's suppression of overlapping boxes allows at best on the held-out set.

Usage::

    python bench/bench_nms_bound.py [--data DIR] [--iou 0.5 0.6 0.7 0.8]

A perfect detector would answer every labelled box of a scene with its rank. Its boxes still
pass the greedy NMS of a raw YOLO head (:func:`vision.detector.nms`, class-agnostic as for the
one-class detector of the cascade), which keeps no two boxes overlapping by more than the
threshold: in a fan laid at an angle, neighbouring cards' upright boxes overlap that much. The
truth boxes, scored at random, are put through that NMS at each threshold and scored by
:func:`vision.evaluate.evaluate` as ``gouji eval`` scores a model: the figures no model decoded
so can pass. ``none`` is an end-to-end head, which needs no NMS.
"""

from __future__ import annotations

import argparse

import numpy as np
from numpy.typing import NDArray

from vision.detections import Detections, box_iou
from vision.detector import nms
from vision.evaluate import evaluate, heldout_synthetic_set, load_yolo_folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=None,
                        help="YOLO folder with plays/ (default: gouji eval's held-out set)")
    parser.add_argument("--iou", type=float, nargs="+", default=[0.5, 0.6, 0.7, 0.8],
                        help="NMS thresholds to weigh")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random scores")
    args = parser.parse_args()
    items = load_yolo_folder(args.data if args.data is not None else heldout_synthetic_set())
    shape = (320, 320, 3)   # labels are normalised: any size gives the same overlaps
    truths = [item.truth(shape) for item in items]
    plays = [item.scene_plays(shape) for item in items]
    overlapping = sum(int((_largest_overlap(t.xyxy) > 0.6).sum()) for t in truths)
    cards = sum(len(t) for t in truths)
    print(f"{len(items)} scenes, {cards} labelled cards; {overlapping} "
          f"({overlapping / cards:.1%}) overlap another card's box by IoU over 0.6")
    print(f"{'NMS IoU':>8} {'mAP50':>7} {'mAP50-95':>9} {'per play':>9} {'per image':>10}")
    for iou in [*sorted(args.iou), None]:
        rng = np.random.default_rng(args.seed)
        kept = []
        for truth in truths:
            scores = rng.uniform(0.5, 1.0, len(truth)).astype(np.float32)
            keep = nms(truth.xyxy, scores, iou) if iou is not None else np.arange(len(truth))
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


if __name__ == "__main__":
    main()
