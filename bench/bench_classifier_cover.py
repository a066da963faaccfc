"""The rank classifier on the held-out synthetic scenes' labelled boxes, by how much of each
card shows.

Usage::

    python bench/bench_classifier_cover.py [--classifier PATH] [--count 500] [--threads 2]

Generates the scenes of ``gouji eval``'s held-out set again (``dataset_scene``: the same
images, before their JPEG compression, and labels) to know what a label file does not say: the
visible fraction of each labelled card. Each labelled box is read as ``gouji eval`` reads it
(second look included), and the share read right is printed by band of visible fraction, with
the commonest misreadings of each band.
"""

from __future__ import annotations

import argparse
import collections

import numpy as np

from vision.classes import CLASS_NAMES
from vision.classifier import RankClassifier
from vision.evaluate import HELDOUT_COUNT, HELDOUT_SEED
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
    boxes = collections.Counter[int]()
    right = collections.Counter[int]()
    confusions: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for i in range(args.count):
        scene = dataset_scene(HELDOUT_SEED, i)
        if not len(scene.boxes):
            continue
        read, _ = classifier(scene.image, scene.boxes)
        shown = np.array([card.visible for card in scene.cards if card.readable])
        bands = np.searchsorted([high for _, high in BANDS], shown, side="right")
        for band, truth, rank in zip(bands, scene.class_ids, read):
            boxes[band] += 1
            right[band] += int(truth == rank)
            if truth != rank:
                confusions[band][f"{CLASS_NAMES[truth]}->{CLASS_NAMES[rank]}"] += 1
    print(f"classifier {classifier.model_path}, {args.count} held-out scenes "
          f"(seed {HELDOUT_SEED}), {sum(boxes.values())} labelled boxes")
    for band, (low, high) in enumerate(BANDS):
        if boxes[band]:
            common = ", ".join(f"{pair} {n}" for pair, n in confusions[band].most_common(4))
            print(f"visible {low:.2f}-{min(high, 1.0):.2f}: {right[band] / boxes[band]:6.1%} of "
                  f"{boxes[band]:5d} read right" + (f"; commonest misreadings {common}"
                                                     if common else ""))


if __name__ == "__main__":
    main()
