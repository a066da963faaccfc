"""How the run-time score and an NMS after the model change the held-out figures.

Usage::

    python bench/bench_decoding.py [--model ONNX] [--scores 0.2 0.25 ...] [--nms 0.9 0.8 ...]
                                   [--enlarge 1.5]

The cascade is run once on ``gouji eval``'s held-out set, keeping every box down to the score
mAP needs; each decoding is then scored from those boxes as ``gouji eval`` scores the model:
first as the model gives them, at each run-time score (``gouji eval`` uses 0.25), then, for
each ``--nms`` IoU, through a greedy NMS after the boxes are read, among all boxes and among
boxes of one rank. An NMS after the model matters for a one-to-one head exported without one
(``gouji train --export-only PT --end-to-end``); the raw head's NMS is already in the model's
decoding. ``--enlarge`` reads every scene enlarged so many times, as a detector trained on
enlarged tiles (``gouji train --imgsz``) must read them.
"""

from __future__ import annotations

import argparse

from assistant.commands.vision import EVAL_CONF
from vision.detections import Detections
from vision.detector import Detector, nms
from vision.evaluate import (
    CARD_OUTCOMES,
    evaluate_at,
    heldout_synthetic_set,
    labelled_scenes,
    load_yolo_folder,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=None, help="ONNX detector (default: the shipped one)")
    parser.add_argument("--data", default=None,
                        help="YOLO folder with plays/ (default: gouji eval's held-out set)")
    parser.add_argument("--scores", type=float, nargs="+", default=[0.2, 0.25, 0.3, 0.35, 0.4],
                        help="run-time scores to judge the plays at")
    parser.add_argument("--nms", type=float, nargs="*", default=[0.9, 0.8, 0.7, 0.6],
                        help="IoU thresholds of an NMS after the model (none: leave it out)")
    parser.add_argument("--enlarge", type=float, default=1.0,
                        help="read each scene enlarged so many times (default 1: as it is)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    items = load_yolo_folder(args.data if args.data is not None else heldout_synthetic_set())
    detector = Detector(args.model, threads=args.threads, conf=EVAL_CONF).enlarged(args.enlarge)
    found, truths, plays = [], [], []
    for image, truth, scene_plays in labelled_scenes(items):
        found.append(detector(image))
        truths.append(truth)
        plays.append(scene_plays)

    decodings: dict[str, list[Detections]] = {"as the model gives them": found}
    for iou in args.nms:
        decodings[f"NMS {iou}"] = [boxes[nms(boxes.xyxy, boxes.confidence, iou)]
                                   for boxes in found]
        decodings[f"NMS {iou} by rank"] = [
            boxes[nms(boxes.xyxy, boxes.confidence, iou, class_id=boxes.class_id)]
            for boxes in found]
    print(f"{len(items)} scenes, {sum(len(t) for t in truths)} cards; {detector.model_path}"
          + (f", read enlarged {args.enlarge:g} times" if args.enlarge != 1.0 else ""))
    print("plays exact at each score, with the boxes that took no card in brackets")
    print(f"{'':>24} {'mAP50':>6} {'mAP50-95':>8} "
          + " ".join(f"{f'@{s:g}':>14}" for s in args.scores))
    scored_by_decoding = {name: evaluate_at(boxes, truths, args.scores, plays=plays)
                          for name, boxes in decodings.items()}
    for name, scored in scored_by_decoding.items():
        print(f"{name:>24} {scored[0].map50:6.3f} {scored[0].map50_95:8.3f} "
              + " ".join(f"{s.play_exact_match or 0:7.1%} ({s.outcomes['extra']:4d})"
                         for s in scored))
    print("the cards as the model gives them, at each score: " + ", ".join(CARD_OUTCOMES)
          + "; scenes exact")
    for score, at_score in zip(args.scores, scored_by_decoding["as the model gives them"]):
        print(f"{f'@{score:g}':>24} " + " / ".join(str(at_score.outcomes[key])
                                                    for key in CARD_OUTCOMES)
              + f"; {at_score.exact_match:.1%}")


if __name__ == "__main__":
    main()
