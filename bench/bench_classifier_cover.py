"""The rank classifier on the held-out synthetic scenes' labelled boxes, by how much of each
card shows.

Usage::

    python bench/bench_classifier_cover.py [--classifier PATH] [--count 500] [--threads 2]

Generates the scenes of ``gouji eval``'s held-out set again (``dataset_scene``: the same
images, before their JPEG compression, and labels) to know what a label file does not say: the
visible fraction of each labelled card. Each labelled box is read as ``gouji eval`` reads it
(second look included), and the share read right is printed by band of visible fraction, with
the commonest misreadings of each band (:func:`vision.evaluate.read_labels` on each band).
"""

from __future__ import annotations

import argparse

import numpy as np

from vision.classifier import RankClassifier
from vision.detections import Detections
from vision.evaluate import HELDOUT_COUNT, HELDOUT_SEED, read_labels
from vision.synth.dataset import dataset_scene

BANDS = ((0.0, 0.25), (0.25, 0.5), (0.5, 0.9), (0.9, 1.01))
"""Bands of a card's visible fraction: a fan's narrow strip, half covered, mostly seen, whole."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classifier", default=None,
                        help="ONNX rank classifier (default: the shipped one)")
    parser.add_argument("--count", type=int, default=HELDOUT_COUNT, help="scenes to read")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    classifier = RankClassifier(args.classifier, threads=args.threads)
    truths: list[list[Detections]] = [[] for _ in BANDS]   # each band's labelled boxes ...
    reads: list[list[np.ndarray]] = [[] for _ in BANDS]    # ... and how they were read
    for i in range(args.count):
        scene = dataset_scene(HELDOUT_SEED, i)
        if not len(scene.boxes):
            continue
        read, _ = classifier(scene.image, scene.boxes)
        labelled = Detections(scene.boxes, np.ones(len(scene.boxes), np.float32), scene.class_ids)
        shown = np.array([card.visible for card in scene.cards if card.readable])
        bands = np.searchsorted([high for _, high in BANDS], shown, side="right")
        for band in np.unique(bands):
            truths[band].append(labelled[bands == band])
            reads[band].append(read[bands == band])
    readings = [read_labels(t, r) for t, r in zip(truths, reads)]
    print(f"classifier {classifier.model_path}, {args.count} held-out scenes "
          f"(seed {HELDOUT_SEED}), {sum(r.boxes for r in readings)} labelled boxes")
    for (low, high), reading in zip(BANDS, readings):
        if reading.boxes:
            common = ", ".join(f"{pair} {n}" for pair, n in list(reading.confusions.items())[:4])
            print(f"visible {low:.2f}-{min(high, 1.0):.2f}: {reading.accuracy:6.1%} of "
                  f"{reading.boxes:5d} read right"
                  + (f"; commonest misreadings {common}" if common else ""))


if __name__ == "__main__":
    main()
