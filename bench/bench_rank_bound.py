"""What a perfect rank reader, or a set that asks nothing of its hidden cards, would make of
the detector's boxes on the held-out set.

Usage::

    python bench/bench_rank_bound.py [--data DIR]

The cascade finds each card with the one-class detector, then the classifier reads its rank.
This scores the shipped cascade as ``gouji eval`` does, then the same boxes with each rank
replaced by that of the labelled card the box overlaps most (IoU >= 0.5), first keeping the
classifier's confidence, then reading every box as sure (confidence = the detector's score):
how far better reading alone could take the figures, and so where training time is best spent.
Last, the cascade's own readings with every box that lies on a card in view but too hidden to
be labelled (IoU >= 0.5, and on no labelled card) left out, as COCO leaves out boxes on a
region marked to ignore: what the labelling threshold (a corner index 80 % in view) costs.
"""

from __future__ import annotations

import argparse

import numpy as np

from assistant.commands.vision import EVAL_CONF
from vision.detections import Detections, box_iou
from vision.detector import Detector, decode
from vision.evaluate import evaluate, heldout_synthetic_set, labelled_scenes, load_yolo_folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=None,
                        help="YOLO folder with plays/ (default: gouji eval's held-out set)")
    args = parser.parse_args()
    items = load_yolo_folder(args.data if args.data is not None else heldout_synthetic_set())
    detector = Detector(threads=2, conf=EVAL_CONF)
    assert detector.classifier is not None, "the shipped detector is a cascade"
    readings: dict[str, list[Detections]] = {"classifier": [], "true ranks": [],
                                             "true ranks, read surely": [],
                                             "hidden cards left out": []}
    truths, plays = [], []
    for image, truth, scene_plays in labelled_scenes(items):
        blob, transform = detector.preprocess(image)   # the detector stage alone
        boxes = decode(detector.infer(blob), transform, conf=EVAL_CONF, iou=detector.iou)
        ranks, chances = detector.classifier.choices(image, boxes.xyxy, count=1)
        true_ranks = ranks[:, 0].copy()
        if len(truth) and len(boxes):
            overlap = box_iou(boxes.xyxy, truth.xyxy)
            labelled = overlap.max(axis=1) >= 0.5
            true_ranks[labelled] = truth.class_id[overlap.argmax(axis=1)[labelled]]
        read = boxes.confidence * chances[:, 0]
        for name, class_id, confidence in (("classifier", ranks[:, 0], read),
                                           ("true ranks", true_ranks, read),
                                           ("true ranks, read surely", true_ranks,
                                            boxes.confidence)):
            sure = confidence >= EVAL_CONF
            readings[name].append(Detections(xyxy=boxes.xyxy[sure],
                                             confidence=confidence[sure].astype(np.float32),
                                             class_id=class_id[sure].astype(np.int_)))
        hidden = scene_plays.hidden if scene_plays is not None else Detections.empty()
        readings["hidden cards left out"].append(
            _off_hidden(readings["classifier"][-1], truth, hidden))
        truths.append(truth)
        plays.append(scene_plays)
    print(f"{len(items)} scenes; boxes of the shipped detector read by")
    print(f"{'':>24} {'mAP50':>6} {'mAP50-95':>8} {'per play':>8} {'per image':>9}")
    for name, predictions in readings.items():
        scored = evaluate(predictions, truths, plays=plays)
        print(f"{name:>24} {scored.map50:6.3f} {scored.map50_95:8.3f} "
              f"{scored.play_exact_match or 0:8.1%} {scored.exact_match:9.1%}")


def _off_hidden(found: Detections, truth: Detections, hidden: Detections) -> Detections:
    """``found`` less the boxes on a hidden card (IoU >= 0.5) that lie on no labelled one."""
    if not len(found) or not len(hidden):
        return found
    on_hidden = box_iou(found.xyxy, hidden.xyxy).max(axis=1) >= 0.5
    if len(truth):
        on_hidden &= box_iou(found.xyxy, truth.xyxy).max(axis=1) < 0.5
    return found[~on_hidden]


if __name__ == "__main__":
    main()
