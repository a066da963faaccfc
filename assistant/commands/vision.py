"""``gouji detect`` and ``gouji eval``: the card detector from the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.commands import positive_float, positive_int

if TYPE_CHECKING:
    from vision.detections import Detections

__all__ = ["register"]

EVAL_CONF = 0.001
"""Score threshold for mAP: COCO-style AP needs the low-scored boxes too."""


def register(subparsers: Any) -> None:
    detect = subparsers.add_parser(
        "detect", help="recognise the cards in images",
        description="Detect the cards in each image: rank, confidence and box (x1, y1, x2, y2 "
                    "pixels) per card.")
    detect.add_argument("images", nargs="+", metavar="IMAGE", type=Path, help="image files")
    detect.add_argument("--json", action="store_true",
                        help="print JSON: a list of {image, detections: [{rank, conf, box}]}")
    detect.add_argument("--annotate", metavar="OUT_DIR", type=Path,
                        help="also write each image with its boxes drawn into OUT_DIR")
    detect.add_argument("--any-angle", action="store_true",
                        help="also try the image turned by 90, 180 and 270 degrees (bare photos "
                             "of cards at any angle)")
    _model_options(detect)
    detect.add_argument("--conf", type=float, default=0.25, help="minimum score (default 0.25)")
    detect.set_defaults(func=run_detect)

    evaluate = subparsers.add_parser(
        "eval", help="detector figures on a labelled set",
        description="Print mAP50, mAP50-95, per-class AP and per-play exact match on a held-out "
                    "synthetic set, and the figures on real photos.")
    evaluate.add_argument("--data", type=Path, metavar="DIR",
                          help="YOLO-format labelled folder (default: the held-out synthetic set, "
                               "generated once and cached under datasets/)")
    evaluate.add_argument("--real", type=Path, metavar="DIR",
                          help="real card photos in YOLO format (default: $GOUJI_REAL_CARDS or "
                               "../shared/data/real-cards-edje next to the repository)")
    evaluate.add_argument("--real-split", choices=("heldout", "all"), default="heldout",
                          help="real photos to score: the held-out third never trained on "
                               "(vision.train.real_split, the default) or all of them")
    evaluate.add_argument("--any-angle", action="store_true",
                          help="detect at all four quarter turns on the real photos")
    evaluate.add_argument("--json", action="store_true", help="print the figures as JSON")
    evaluate.add_argument("--enlarge", type=positive_float, default=1.0, metavar="F",
                          help="read the synthetic scenes enlarged F times, as a detector "
                               "trained with a larger gouji train --imgsz than its tiles must "
                               "(default 1: as the camera sees them; the real photos, whose "
                               "cards are larger already, are read as they are)")
    _model_options(evaluate)
    evaluate.set_defaults(func=run_eval)


def _model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, metavar="PATH",
                        help="ONNX model (default: $GOUJI_MODEL or models/gouji-cards.onnx)")
    parser.add_argument("--classifier", type=Path, metavar="PATH",
                        help="rank classifier of a one-class model (default: $GOUJI_CLASSIFIER "
                             "or models/gouji-ranks.onnx)")
    parser.add_argument("--threads", type=positive_int, default=2, metavar="N",
                        help="CPU threads for ONNX Runtime (default 2)")


def run_detect(args: argparse.Namespace) -> int:
    from vision.annotate import annotate
    from vision.detector import Detector, read_image

    # Read every image before loading the model: a bad path fails fast, before any output.
    images = [read_image(path) for path in args.images]
    detector = Detector(args.model, classifier=args.classifier, threads=args.threads,
                        conf=args.conf)
    detect = detector.detect_any_angle if args.any_angle else detector
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    found_per_image = [detect(image) for image in images]
    if args.annotate:
        written: set[str] = set()
        for path, image, found in zip(args.images, images, found_per_image):
            _write_image(_unique_name(args.annotate, path, written), annotate(image, found))
    if args.json:
        results = [{"image": str(path), "detections": _cards_json(found)}
                   for path, found in zip(args.images, found_per_image)]
        print(json.dumps(results, ensure_ascii=False))
        return 0
    for path, found in zip(args.images, found_per_image):
        count = f"{len(found)} card{'' if len(found) == 1 else 's'}"
        print(f"{path}: {count}  {' '.join(found.names())}".rstrip())
        for card in _cards_json(found):
            x1, y1, x2, y2 = card["box"]
            print(f"  {card['rank']:<4} {card['conf']:.3f}  ({x1:g}, {y1:g}, {x2:g}, {y2:g})")
    return 0


def _cards_json(found: Detections) -> list[dict[str, Any]]:
    """``[{rank, conf, box}]``: the contract of ``gouji detect --json``."""
    return [{"rank": name, "conf": round(conf, 3), "box": [round(float(v), 1) for v in box]}
            for name, (box, conf, _) in zip(found.names(), found)]


def _unique_name(folder: Path, source: Path, taken: set[str]) -> Path:
    """``folder/<name>``, numbered when two inputs share a file name."""
    name, number = source.name, 1
    while name in taken:
        name = f"{source.stem}-{number}{source.suffix}"
        number += 1
    taken.add(name)
    return folder / name


def _write_image(path: Path, image: Any) -> None:
    import cv2

    # imencode + tofile, like read_image, so that non-ASCII paths work everywhere.
    ok, encoded = cv2.imencode(path.suffix or ".png", image)
    if not ok:
        ok, encoded = cv2.imencode(".png", image)
        path = path.with_suffix(".png")
    encoded.tofile(path)


def run_eval(args: argparse.Namespace) -> int:
    from vision.detector import Detector
    from vision.evaluate import (
        REAL_TARGETS,
        SYNTHETIC_TARGETS,
        evaluate_images,
        heldout_synthetic_set,
        load_yolo_folder,
        targets_line,
        targets_met,
    )
    from vision.train import real_photos

    detector = Detector(args.model, classifier=args.classifier, threads=args.threads,
                        conf=EVAL_CONF)
    data = args.data if args.data is not None else heldout_synthetic_set()
    scenes = load_yolo_folder(data)
    reading = detector.enlarged(args.enlarge)
    report: dict[str, Any] = {"model": str(detector.model_path), "enlarge": args.enlarge}
    synthetic = evaluate_images(reading, scenes, classify=reading.classifier)
    report["synthetic"] = {"data": str(data), **synthetic.to_json(),
                           "targets_met": targets_met(synthetic, SYNTHETIC_TARGETS)}

    real_folder = args.real if args.real is not None else real_photos()
    real = None
    if args.real is not None or real_folder.is_dir():
        items = load_yolo_folder(real_folder)
        if args.real_split == "heldout":
            held_out = set(_real_heldout(real_folder))
            items = [item for item in items if item.path in held_out]
        real = evaluate_images(detector.detect_any_angle if args.any_angle else detector, items,
                               classify=detector.classifier)
        report["real"] = {"data": str(real_folder), "split": args.real_split, **real.to_json(),
                          "targets_met": targets_met(real, REAL_TARGETS)}
    else:
        report["real"] = None

    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"model: {report['model']}"
          + (f", the scenes read enlarged {args.enlarge:g} times" if args.enlarge != 1 else ""))
    print(f"held-out synthetic set: {data}")
    print(synthetic.format())
    print(targets_line(synthetic, SYNTHETIC_TARGETS))
    if real is None:
        print(f"real photos: skipped (no folder at {real_folder}; pass --real DIR)")
    else:
        print(f"real photos ({args.real_split}): {real_folder}")
        print(real.format())
        print(targets_line(real, REAL_TARGETS))
    return 0


def _real_heldout(folder: Path) -> list[Path]:
    """The real photos never trained on (the split is defined once, by the training code)."""
    from vision.train import real_split

    _, held_out = real_split(folder)
    return held_out
