"""Detector figures on a labelled set: COCO-style mAP, per-class AP, per-play exact match.

Everything here is NumPy on :class:`~vision.detections.Detections`, so the metrics are tested
on hand-made boxes with known answers, independently of any model.

* **AP** per class follows COCO: detections sorted by score are matched greedily to the unmatched
  truth box of highest IoU (at least the threshold); the precision envelope is sampled at 101
  recall points. ``mAP50`` is the mean over classes present in the truth at IoU 0.50,
  ``mAP50-95`` the mean over IoU 0.50, 0.55 … 0.95. The figures equal pycocotools' ``COCOeval``
  (bbox, all areas) on the same boxes; the tests pin that on random scenes.
* **Exact match per image**: an image is right when the multiset of ranks found at the run-time
  confidence equals the truth's: every card, duplicates included, nothing extra.
* **Exact match per play**, where the set says which play each card belongs to (the generated
  sets' ``plays/``): each confident detection takes the truth card it overlaps most (IoU ≥ 0.5,
  surest first, one each); a play is right when the ranks of the detections that took its cards,
  with those of the detections that took no card and are centred within the play's extent
  (a card found twice, a phantom), are the multiset of its cards' ranks. A card in view but
  too hidden to be labelled (the generated sets' ``hidden/``) is no more needed than it is
  labelled, and a detection of it (IoU ≥ 0.5) with its rank is not extra: it is a card of the
  scene read right. Cards of piles of earlier plays and of gathered stacks belong to no play.
* **Rank accuracy**: a truth card is read right when the confident detection that took it (the
  same one-to-one matching as for the plays) has its rank: in a tight fan a neighbour's surer
  box may cover a card at IoU ≥ 0.5, but it takes its own card.

>>> import numpy as np
>>> truth = Detections(xyxy=np.array([[0, 0, 10, 10]], np.float32),
...                    confidence=np.ones(1, np.float32), class_id=np.array([7]))
>>> found = Detections(xyxy=np.array([[0, 0, 10, 9]], np.float32),
...                    confidence=np.array([0.9], np.float32), class_id=np.array([7]))
>>> result = evaluate([found], [truth])
>>> result.map50, result.map50_95, result.exact_match
(1.0, 0.9, 1.0)
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.classes import CLASS_NAMES, class_id
from vision.detections import Detections, box_iou
from vision.synth.labels import NO_PLAY

__all__ = [
    "CARD_OUTCOMES",
    "IOU_THRESHOLDS",
    "PLAY_SIZES",
    "REAL_TARGETS",
    "SYNTHETIC_TARGETS",
    "Evaluation",
    "LabelReading",
    "LabelledImage",
    "ScenePlays",
    "Target",
    "YoloBoxes",
    "average_precision",
    "box_iou",
    "cards_taken",
    "class_map_from_names",
    "evaluate",
    "evaluate_at",
    "evaluate_images",
    "heldout_synthetic_set",
    "labelled_scenes",
    "load_yolo_folder",
    "read_labels",
    "targets_line",
    "targets_met",
]

IOU_THRESHOLDS: NDArray[np.float64] = np.linspace(0.5, 0.95, 10)
"""COCO's IoU thresholds 0.50, 0.55 … 0.95."""

SIZE_BANDS = (25, 40, 60, 90)
"""Edges of the bands of a box's short side, in pixels, by which :class:`LabelReading` tells
how well small and large cards are read."""

RECALL_POINTS: NDArray[np.float64] = np.linspace(0.0, 1.0, 101)
"""COCO's 101 recall points at which the precision envelope is sampled."""

CARD_OUTCOMES = ("read right", "misread", "found below the threshold", "not found")
"""What may become of a truth card, in :attr:`Evaluation.outcomes`: the detections at the
run-time threshold take one card each (surest first, the one they overlap most, IoU >= 0.5),
and the card is read right or misread by the detection that took it; a card none took is found
below the threshold where a detection under it covers it (IoU >= 0.5), else not found."""
_OUTCOME_KEYS = (*CARD_OUTCOMES, "extra")
"""Keys of :attr:`Evaluation.outcomes`: the cards' outcomes, then the detections at the
threshold that took no card (a card found twice, or none there)."""

PLAY_SIZES: tuple[tuple[int, int], ...] = ((1, 1), (2, 3), (4, 6), (7, 12))
"""Bands of cards per play (least, most) in which :attr:`Evaluation.play_exact_by_size` counts
the plays: a fan of many cards is read exactly less often than a lone card."""

HELDOUT_SEED = 999_999
"""Seed of the held-out synthetic set; training sets use small seeds, never this one."""

HELDOUT_COUNT = 500
"""Scenes in the held-out synthetic set."""


@dataclass(frozen=True, slots=True)
class Target:
    """A figure the card models must reach on a set."""

    figure: str
    """The figure's attribute of :class:`Evaluation` (its key in :meth:`Evaluation.to_json`)."""
    label: str
    """Its name in reports."""
    least: float
    """The least value that meets it."""

    def __str__(self) -> str:
        """``mAP50 >= 0.98``."""
        return f"{self.label} >= {self.least:g}"


SYNTHETIC_TARGETS = (Target("map50", "mAP50", 0.98), Target("map50_95", "mAP50-95", 0.85),
                     Target("play_exact_match", "plays exact", 0.98))
"""What the card models must reach on the held-out synthetic set (``models/gouji-cards.md``)."""

REAL_TARGETS = (Target("map50", "mAP50", 0.90),)
"""What the card models must reach on the held-out real photos."""

DATASETS_DIR: Path = Path(__file__).resolve().parents[1] / "datasets"
"""Where generated datasets are cached (``datasets/`` of the repository, not versioned)."""

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
"""Image files a YOLO folder may hold (matched case-insensitively)."""

_RANK_WORDS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A",
    "small joker": "SJ", "little joker": "SJ", "black joker": "SJ",
    "big joker": "BJ", "red joker": "BJ", "large joker": "BJ",
}


def average_precision(scores: NDArray[np.floating[Any]], true_positive: NDArray[np.bool_],
                      num_truth: int) -> float:
    """COCO 101-point interpolated AP of one class at one IoU threshold.

    Args:
        scores: score of each detection of the class, over all images.
        true_positive: whether each detection matched a truth box.
        num_truth: number of truth boxes of the class (> 0).

    >>> average_precision(np.array([0.9, 0.8, 0.7]), np.array([True, False, True]), 2)
    0.8349834983498351
    """
    if not len(scores):
        return 0.0
    order = np.argsort(-np.asarray(scores), kind="mergesort")
    hits = np.asarray(true_positive, bool)[order]
    tp = np.cumsum(hits)
    fp = np.cumsum(~hits)
    recall = tp / num_truth
    precision = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
    # The envelope: precision at recall r is the best precision at any recall >= r.
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    index = np.searchsorted(recall, RECALL_POINTS, side="left")
    sampled = np.where(index < len(envelope), envelope[np.minimum(index, len(envelope) - 1)], 0.0)
    return float(sampled.mean())


def _assign(ious: NDArray[np.float64], threshold: float) -> NDArray[np.int_]:
    """COCO's greedy matching: detection ``d`` (rows of ``ious``, surest first) takes the free
    truth box it overlaps most if that IoU is at least ``threshold``; the truth index each
    detection took, or -1."""
    taken = np.full(ious.shape[0], -1, np.int_)
    free = np.ones(ious.shape[1], bool)
    for d in range(ious.shape[0] if ious.shape[1] else 0):
        candidates = np.where(free, ious[d], -1.0)
        best = int(candidates.argmax())
        if candidates[best] >= threshold - 1e-12:
            free[best] = False
            taken[d] = best
    return taken


def cards_taken(predicted: Detections, truth: Detections) -> NDArray[np.int_]:
    """The truth card each detection takes, whatever the ranks, or -1: surest first, each the
    free card it overlaps most at IoU 0.5 or more (:func:`_assign`)."""
    order = np.argsort(-predicted.confidence, kind="mergesort")
    taken = np.full(len(predicted), -1, np.int_)
    if len(predicted) and len(truth):
        taken[order] = _assign(box_iou(predicted.xyxy[order], truth.xyxy), 0.5)
    return taken


def _match(predicted: Detections, truth: Detections, cid: int
           ) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    """Greedy COCO matching of one class in one image at every IoU threshold.

    Returns the scores of the class's detections and a ``(n, len(IOU_THRESHOLDS))`` hit table.
    """
    pred = predicted[predicted.class_id == cid]
    gt = truth[truth.class_id == cid]
    order = np.argsort(-pred.confidence, kind="mergesort")
    pred = pred[order]
    hits = np.zeros((len(pred), len(IOU_THRESHOLDS)), bool)
    if len(pred) and len(gt):
        ious = box_iou(pred.xyxy, gt.xyxy)
        for t, threshold in enumerate(IOU_THRESHOLDS):
            hits[:, t] = _assign(ious, threshold) >= 0
    return pred.confidence, hits


def _plays_read_right(predicted: Detections, truth: Detections, taken: NDArray[np.int_],
                      plays: ScenePlays) -> list[tuple[int, bool]]:
    """Each play of one scene, in play order: its count of labelled cards and whether it is
    read exactly (module docstring). ``predicted`` holds the run-time detections only, which
    took the cards ``taken`` (:func:`cards_taken`)."""
    hidden = plays.hidden
    seen_hidden = ((box_iou(predicted.xyxy, hidden.xyxy) >= 0.5)
                   & (predicted.class_id[:, None] == hidden.class_id[None, :])).any(axis=1)
    centres = (predicted.xyxy[:, :2] + predicted.xyxy[:, 2:]) / 2
    right = []
    for play in np.unique(plays.play[plays.play != NO_PLAY]):
        cards = np.flatnonzero(plays.play == play)
        low, high = truth.xyxy[cards, :2].min(axis=0), truth.xyxy[cards, 2:].max(axis=0)
        stray = ((taken < 0) & ~seen_hidden
                 & np.all((centres >= low) & (centres <= high), axis=1))
        read = predicted.class_id[np.isin(taken, cards) | stray]
        right.append((len(cards), collections.Counter(read.tolist())
                      == collections.Counter(truth.class_id[cards].tolist())))
    return right


@dataclass(frozen=True, slots=True)
class ScenePlays:
    """What a generated scene tells beyond its labels, to judge its plays by."""

    play: NDArray[np.int_]
    """The play each truth box belongs to (``NO_PLAY`` for none), shape ``(n,)``."""
    hidden: Detections
    """The cards in view but too hidden to be labelled, in pixels, with their ranks."""


@dataclass(frozen=True, slots=True)
class LabelReading:
    """How a rank classifier reads the labelled boxes themselves: the cascade's misreadings
    that are the classifier's own, told apart from those of the detector's boxes."""

    boxes: int
    """Labelled boxes read."""
    right: int
    """Boxes read as their labelled rank."""
    bands: dict[str, tuple[int, int]]
    """Boxes and boxes read right by band of the short side (:data:`SIZE_BANDS`), by the
    band's name (``"<25 px"``, ``"25-40 px"`` … ``"90+ px"``); empty bands left out."""
    confusions: dict[str, int]
    """Misreadings by ``"true->read"`` rank names, commonest first."""

    @property
    def accuracy(self) -> float:
        """Share of the boxes read as their labelled rank."""
        return self.right / self.boxes if self.boxes else 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able dict."""
        return {"boxes": self.boxes, "accuracy": round(self.accuracy, 4),
                "bands": {name: {"boxes": n, "accuracy": round(right / n, 4)}
                          for name, (n, right) in self.bands.items()},
                "confusions": dict(self.confusions)}

    def format(self, most: int = 6) -> str:
        """One line for people, with the ``most`` commonest misreadings."""
        bands = ", ".join(f"{name} {right / n:.1%}" for name, (n, right) in self.bands.items())
        confusions = ", ".join(f"{pair} {n}" for pair, n in list(self.confusions.items())[:most])
        return (f"classifier on the labelled boxes: {self.accuracy:.1%} of {self.boxes} read "
                f"right; by short side {bands}"
                + (f"; commonest misreadings {confusions}" if confusions else ""))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Figures of a detector on a labelled set."""

    map50: float
    """Mean over classes present in the truth of AP at IoU 0.50."""
    map50_95: float
    """Mean over those classes of AP averaged over IoU 0.50:0.95."""
    ap50: dict[str, float]
    """AP at IoU 0.50 per class present in the truth, by class name."""
    ap50_95: dict[str, float]
    """AP over IoU 0.50:0.95 per class present in the truth, by class name."""
    exact_match: float
    """Fraction of images whose multiset of ranks found equals the truth's (exact match per
    image)."""
    images: int
    """Images evaluated."""
    cards: int
    """Truth boxes."""
    outcomes: dict[str, int] = field(default_factory=dict)
    """What became of the truth cards at the run-time threshold (:data:`CARD_OUTCOMES`: read
    right, misread, found only below the threshold, not found), and ``extra``: run-time
    detections that took no truth card."""
    classifier: LabelReading | None = None
    """How a cascade's rank classifier reads the truth boxes themselves, where it was asked
    (:func:`evaluate_images` with ``classify``)."""
    plays: int = 0
    """Plays judged for :attr:`play_exact_match` (0 where the set does not say which play each
    card belongs to)."""
    play_exact_match: float | None = None
    """Fraction of those plays read exactly right (module docstring); ``None`` without plays."""
    play_exact_by_size: dict[str, tuple[int, float]] = field(default_factory=dict)
    """The plays of each band of :data:`PLAY_SIZES` that holds any, by band (``"1"``,
    ``"2-3"``, ...): how many, and the fraction read exactly right."""

    @property
    def rank_accuracy(self) -> float:
        """Fraction of truth cards read right (:data:`CARD_OUTCOMES`)."""
        return self.outcomes.get(CARD_OUTCOMES[0], 0) / self.cards if self.cards else 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able dict (figures rounded to 4 places)."""
        return {
            "images": self.images, "cards": self.cards,
            "map50": round(self.map50, 4), "map50_95": round(self.map50_95, 4),
            "exact_match": round(self.exact_match, 4),
            "plays": self.plays,
            "play_exact_match": (None if self.play_exact_match is None
                                 else round(self.play_exact_match, 4)),
            "play_exact_by_size": {band: {"plays": count, "exact": round(right, 4)}
                                   for band, (count, right) in self.play_exact_by_size.items()},
            "rank_accuracy": round(self.rank_accuracy, 4),
            "outcomes": dict(self.outcomes),
            "ap50": {k: round(v, 4) for k, v in self.ap50.items()},
            "ap50_95": {k: round(v, 4) for k, v in self.ap50_95.items()},
            "classifier_on_labels": self.classifier.to_json() if self.classifier else None,
        }

    def format(self) -> str:
        """A short human-readable report, one line per class."""
        lines = [
            f"images {self.images}, cards {self.cards}"
            + (f", plays {self.plays}" if self.play_exact_match is not None else ""),
            (f"mAP50 {self.map50:.4f}   mAP50-95 {self.map50_95:.4f}   "
             f"exact match {self.exact_match:.2%}"
             + (f" of images, {self.play_exact_match:.2%} of plays"
                if self.play_exact_match is not None else "")
             + f"   rank accuracy {self.rank_accuracy:.2%}"),
        ]
        if self.play_exact_by_size:
            lines.append("plays exact by cards in the play: " + ", ".join(
                f"{band}: {right:.1%} of {count}"
                for band, (count, right) in self.play_exact_by_size.items()))
        if self.cards:
            lines.append("cards: " + ", ".join(
                f"{self.outcomes.get(key, 0) / self.cards:.1%} {key}" for key in CARD_OUTCOMES)
                + f"; {self.outcomes.get('extra', 0)} extra boxes")
        lines.append("class   AP50    AP50-95")
        lines += [f"{name:<6} {self.ap50[name]:.4f}  {self.ap50_95[name]:.4f}" for name in self.ap50]
        if self.classifier is not None:
            lines.append(self.classifier.format())
        return "\n".join(lines)


def targets_met(evaluation: Evaluation, targets: Sequence[Target]) -> dict[str, bool | None]:
    """Whether ``evaluation`` meets each of ``targets``, by figure (``None``: not measured)."""
    met: dict[str, bool | None] = {}
    for target in targets:
        value = getattr(evaluation, target.figure)
        met[target.figure] = None if value is None else bool(value >= target.least)
    return met


def targets_line(evaluation: Evaluation, targets: Sequence[Target]) -> str:
    """One line saying which ``targets`` the ``evaluation`` meets.

    >>> found = Evaluation(map50=0.99, map50_95=0.8, ap50={}, ap50_95={}, exact_match=0.5,
    ...                    images=1, cards=1)
    >>> targets_line(found, SYNTHETIC_TARGETS[1:])
    'targets: mAP50-95 >= 0.85 not met (0.8000); plays exact >= 0.98 not measured'
    """
    met = targets_met(evaluation, targets)
    return "targets: " + "; ".join(
        f"{target} "
        + ("not measured" if met[target.figure] is None else
           f"{'met' if met[target.figure] else 'not met'} "
           f"({getattr(evaluation, target.figure):.4f})")
        for target in targets)


def read_labels(truths: Sequence[Detections], read: Sequence[NDArray[np.int_]]) -> LabelReading:
    """Score the class ids ``read`` for each image's truth boxes against their labels.

    >>> truth = Detections(xyxy=np.array([[0, 0, 20, 30], [0, 0, 50, 70]], np.float32),
    ...                    confidence=np.ones(2, np.float32), class_id=np.array([1, 11]))
    >>> reading = read_labels([truth], [np.array([1, 1])])
    >>> reading.accuracy, reading.bands, reading.confusions
    (0.5, {'<25 px': (1, 1), '40-60 px': (1, 0)}, {'A->4': 1})
    """
    if len(truths) != len(read):
        raise ValueError(f"{len(read)} readings for {len(truths)} labelled images")
    if not truths:
        return LabelReading(boxes=0, right=0, bands={}, confusions={})
    labels = np.concatenate([t.class_id for t in truths]).astype(np.int_)
    ids = np.concatenate([np.asarray(r, np.int_) for r in read])
    if len(ids) != len(labels):
        raise ValueError(f"{len(ids)} boxes read for {len(labels)} labelled boxes")
    xyxy = np.concatenate([t.xyxy for t in truths])
    short = np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])
    band = np.searchsorted(SIZE_BANDS, short, side="right")
    names = [f"<{SIZE_BANDS[0]} px",
             *(f"{lo}-{hi} px" for lo, hi in itertools.pairwise(SIZE_BANDS)),
             f"{SIZE_BANDS[-1]}+ px"]
    right = ids == labels
    confusions = collections.Counter(f"{CLASS_NAMES[t]}->{CLASS_NAMES[r]}"
                                     for t, r in zip(labels[~right], ids[~right]))
    return LabelReading(
        boxes=len(labels), right=int(right.sum()),
        bands={name: (int((band == k).sum()), int(right[band == k].sum()))
               for k, name in enumerate(names) if (band == k).any()},
        confusions=dict(confusions.most_common()))


def evaluate(predictions: Sequence[Detections], truths: Sequence[Detections], *,
             conf: float = 0.25, num_classes: int = len(CLASS_NAMES),
             plays: Sequence[ScenePlays | None] | None = None) -> Evaluation:
    """Compare detections with truth, image by image.

    Args:
        predictions: detections per image; for a meaningful AP, found with a low score
            threshold (e.g. 0.001), as COCO does.
        truths: truth boxes per image (confidence ignored).
        conf: the run-time score threshold, applied for exact match and rank accuracy.
        num_classes: class ids range over ``0 .. num_classes - 1``.
        plays: per image, its plays and hidden cards, or ``None`` for an image that does not
            say; images that do are judged play by play too.
    """
    return evaluate_at(predictions, truths, [conf], num_classes=num_classes, plays=plays)[0]


def evaluate_at(predictions: Sequence[Detections], truths: Sequence[Detections],
                confs: Sequence[float], *, num_classes: int = len(CLASS_NAMES),
                plays: Sequence[ScenePlays | None] | None = None) -> list[Evaluation]:
    """:func:`evaluate` at each run-time score of ``confs``, in that order; AP, which does
    not depend on the run-time score, is computed once."""
    if len(predictions) != len(truths):
        raise ValueError(f"{len(predictions)} predictions for {len(truths)} labelled images")
    plays = plays if plays is not None else [None] * len(truths)
    if len(plays) != len(truths):
        raise ValueError(f"plays for {len(plays)} of {len(truths)} labelled images")
    ap = np.full((num_classes, len(IOU_THRESHOLDS)), np.nan)
    for cid in range(num_classes):
        num_truth = sum(int((t.class_id == cid).sum()) for t in truths)
        if not num_truth:
            continue  # COCO leaves classes absent from the truth out of the mean
        matched = [_match(p, t, cid) for p, t in zip(predictions, truths)]
        scores = np.concatenate([s for s, _ in matched])
        hits = np.concatenate([h for _, h in matched])
        ap[cid] = [average_precision(scores, hits[:, t], num_truth)
                   for t in range(len(IOU_THRESHOLDS))]
    present = ~np.isnan(ap[:, 0])
    precision = Evaluation(
        map50=float(ap[present, 0].mean()) if present.any() else 0.0,
        map50_95=float(ap[present].mean()) if present.any() else 0.0,
        ap50={CLASS_NAMES[c]: float(ap[c, 0]) for c in np.flatnonzero(present)},
        ap50_95={CLASS_NAMES[c]: float(ap[c].mean()) for c in np.flatnonzero(present)},
        exact_match=0.0, images=len(truths), cards=sum(len(t) for t in truths))
    return [_at_score(precision, predictions, truths, plays, conf) for conf in confs]


def _at_score(precision: Evaluation, predictions: Sequence[Detections],
              truths: Sequence[Detections], plays: Sequence[ScenePlays | None], conf: float
              ) -> Evaluation:
    """``precision`` (the AP figures) completed with the figures at the run-time score
    ``conf``."""
    confident = [p[p.confidence >= conf] for p in predictions]
    taken = [cards_taken(p, t) for p, t in zip(confident, truths)]
    exact = [collections.Counter(p.class_id.tolist()) == collections.Counter(t.class_id.tolist())
             for p, t in zip(confident, truths)]
    judged = [play for p, t, took, of in zip(confident, truths, taken, plays)
              if of is not None for play in _plays_read_right(p, t, took, of)]
    play_right = [right for _, right in judged]
    outcomes: collections.Counter[str] = collections.Counter()
    for p, found, t, took in zip(predictions, confident, truths, taken):
        outcomes.update(_card_outcomes(found, took, p[p.confidence < conf], t))
    return replace(
        precision,
        exact_match=float(np.mean(exact)) if exact else 0.0,
        outcomes={key: outcomes[key] for key in _OUTCOME_KEYS},
        plays=len(play_right),
        play_exact_match=float(np.mean(play_right)) if play_right else None,
        play_exact_by_size=_by_size(judged),
    )


def _by_size(judged: Sequence[tuple[int, bool]]) -> dict[str, tuple[int, float]]:
    """:attr:`Evaluation.play_exact_by_size` of the plays ``(cards, read right)``."""
    bands = {}
    for least, most in PLAY_SIZES:
        right = [ok for size, ok in judged if least <= size <= most]
        if right:
            bands[f"{least}" if least == most else f"{least}-{most}"] = (
                len(right), float(np.mean(right)))
    return bands


def _card_outcomes(confident: Detections, taken: NDArray[np.int_], unsure: Detections,
                   truth: Detections) -> dict[str, int]:
    """:data:`CARD_OUTCOMES` of one image's truth cards and its ``extra`` detections: the
    ``confident`` detections (at the run-time threshold) took one card each, ``taken``
    (:func:`cards_taken`); the ``unsure`` ones, below it, took none."""
    reader = np.full(len(truth), -1, np.int_)   # the detection that took each card
    reader[taken[taken >= 0]] = np.flatnonzero(taken >= 0)
    found = reader >= 0
    right = found.copy()
    right[found] = confident.class_id[reader[found]] == truth.class_id[found]
    below = ((box_iou(unsure.xyxy, truth.xyxy) >= 0.5).any(axis=0) if len(unsure) and len(truth)
             else np.zeros(len(truth), bool))
    counts = (right, found & ~right, ~found & below, ~found & ~below, taken < 0)
    return {key: int(np.sum(mask)) for key, mask in zip(_OUTCOME_KEYS, counts, strict=True)}


@dataclass(frozen=True, slots=True)
class YoloBoxes:
    """The boxes of one image as a YOLO txt file gives them: a class and a normalised box each."""

    class_id: NDArray[np.int_]
    """Our class id of each box, shape ``(n,)``."""
    xywhn: NDArray[np.float32]
    """Boxes as normalised ``cx, cy, w, h``, shape ``(n, 4)``."""

    def in_pixels(self, image_shape: tuple[int, ...]) -> Detections:
        """The boxes in pixels of an image of shape ``(height, width, ...)``, confidence 1."""
        height, width = image_shape[:2]
        cx, cy, w, h = self.xywhn.T
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        xyxy = (xyxy * np.array([width, height, width, height], np.float32)).astype(np.float32)
        return Detections(xyxy=xyxy.reshape(-1, 4), confidence=np.ones(len(xyxy), np.float32),
                          class_id=self.class_id)


@dataclass(frozen=True, slots=True)
class LabelledImage:
    """One image of a YOLO-format folder and its truth boxes."""

    path: Path
    """The image file."""
    labels: YoloBoxes
    """Its truth boxes, from its ``labels/`` file."""
    play: NDArray[np.int_] | None = None
    """The play of its scene each truth box belongs to (``NO_PLAY`` for none), from the
    ``plays/`` file of a generated set; ``None`` where the folder has none."""
    hidden: YoloBoxes | None = None
    """The cards in view but too hidden to be labelled, from the ``hidden/`` file beside the
    ``plays/`` one."""

    @property
    def class_id(self) -> NDArray[np.int_]:
        """Our class id of each truth box, shape ``(n,)``."""
        return self.labels.class_id

    def truth(self, image_shape: tuple[int, ...]) -> Detections:
        """Truth boxes in pixels of an image of shape ``(height, width, ...)``."""
        return self.labels.in_pixels(image_shape)

    def scene_plays(self, image_shape: tuple[int, ...]) -> ScenePlays | None:
        """Its scene's plays and hidden cards in pixels, where the folder says them."""
        if self.play is None:
            return None
        hidden = self.hidden.in_pixels(image_shape) if self.hidden is not None \
            else Detections.empty()
        return ScenePlays(self.play, hidden)


def class_map_from_names(names: Sequence[str]) -> NDArray[np.int_]:
    """Map a dataset's class list (by position) to our class ids, by name.

    Accepts our own names (``T``, ``10``, ``SJ``…) and English words (``nine``, ``queen``…).

    >>> class_map_from_names(["nine", "ten", "jack", "queen", "king", "ace"]).tolist()
    [6, 7, 8, 9, 10, 11]
    """
    ids = []
    for name in names:
        key = name.strip().lower().replace("_", " ")
        ids.append(class_id(_RANK_WORDS.get(key, name.strip())))
    return np.array(ids, dtype=np.int_)


def load_yolo_folder(root: str | os.PathLike[str]) -> list[LabelledImage]:
    """Read a YOLO-format labelled folder.

    Images lie anywhere under ``root`` in a directory named ``images``; each one's labels are
    the ``.txt`` of the same name under the parallel ``labels`` directory (Ultralytics'
    convention); an image without a label file has no cards. A ``classes.txt`` next to
    ``images/`` (or in ``root``) gives the dataset's class names, mapped to ours by name;
    without one the ids are ours.

    Raises:
        FileNotFoundError: ``root`` does not exist or holds no images.
        ValueError: a label line is malformed or names an unknown class.
    """
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"no such dataset folder: {str(root)!r}")
    paths = sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES
                   and "images" in (root.name, *p.relative_to(root).parts[:-1]))
    if not paths:
        raise FileNotFoundError(f"no images under an images/ folder in {str(root)!r}")
    maps: dict[Path, NDArray[np.int_] | None] = {}
    items = []
    for path in paths:
        parts = list(path.parts)
        at = len(parts) - 1 - parts[::-1].index("images")
        base = Path(*parts[:at])
        if base not in maps:
            maps[base] = _read_class_map(base, root)
        label_path = Path(*parts[:at], "labels", *parts[at + 1:]).with_suffix(".txt")
        item = LabelledImage(path, _read_labels(label_path, maps[base]))
        play_path = Path(*parts[:at], "plays", *parts[at + 1:]).with_suffix(".txt")
        if play_path.is_file():
            hidden_path = Path(*parts[:at], "hidden", *parts[at + 1:]).with_suffix(".txt")
            item = replace(item, play=_read_plays(play_path, len(item.class_id)),
                           hidden=_read_labels(hidden_path, maps[base]))
        items.append(item)
    return items


def _read_class_map(base: Path, root: Path) -> NDArray[np.int_] | None:
    for folder in (base, root):
        names_file = folder / "classes.txt"
        if names_file.is_file():
            names = [line for line in names_file.read_text().splitlines() if line.strip()]
            return class_map_from_names(names)
    return None


def _read_labels(label_path: Path, class_map: NDArray[np.int_] | None) -> YoloBoxes:
    """A YOLO txt file's boxes (none where there is no file), its ids mapped by ``class_map``."""
    rows: list[list[float]] = []
    if label_path.is_file():
        for number, line in enumerate(label_path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            fields = line.split()
            try:
                values = [float(v) for v in fields]
            except ValueError:
                values = []
            if len(values) != 5 or not values[0].is_integer():
                raise ValueError(f"{label_path}:{number}: expected 'class cx cy w h', got {line!r}")
            rows.append(values)
    table = np.array(rows, np.float64).reshape(-1, 5)
    ids = table[:, 0].astype(np.int_)
    if class_map is not None:
        if len(ids) and ids.max() >= len(class_map):
            raise ValueError(f"{label_path}: class {ids.max()} is not in its classes.txt")
        ids = class_map[ids]
    elif len(ids) and ids.max() >= len(CLASS_NAMES):
        raise ValueError(f"{label_path}: class {ids.max()} is not one of {len(CLASS_NAMES)}")
    return YoloBoxes(class_id=ids, xywhn=table[:, 1:].astype(np.float32))


def _read_plays(path: Path, boxes: int) -> NDArray[np.int_]:
    """A ``plays/`` file: the play of each label line, one integer per line."""
    try:
        plays = np.array([int(line) for line in path.read_text().split()], np.int_)
    except ValueError:
        raise ValueError(f"{path}: expected one play number per line") from None
    if len(plays) != boxes:
        raise ValueError(f"{path}: {len(plays)} plays for {boxes} labelled cards")
    return plays


def evaluate_images(detect: Callable[[NDArray[np.uint8]], Detections],
                    items: Iterable[LabelledImage], *, conf: float = 0.25,
                    classify: Callable[[NDArray[np.uint8], NDArray[np.float32]],
                                       tuple[NDArray[np.int_], Any]] | None = None
                    ) -> Evaluation:
    """Run ``detect`` on every labelled image and :func:`evaluate` the result.

    ``detect`` should report low-scored boxes too (e.g. a :class:`~vision.detector.Detector`
    with ``conf=0.001``); ``conf`` is the run-time threshold for exact match and rank accuracy.
    With ``classify`` (a cascade's :class:`~vision.classifier.RankClassifier`: image and boxes
    -> class ids, scores), each image's truth boxes are read with it too
    (:attr:`Evaluation.classifier`, :func:`read_labels`).
    """
    predictions, truths, plays, read = [], [], [], []
    for image, truth, scene_plays in labelled_scenes(items):
        predictions.append(detect(image))
        truths.append(truth)
        plays.append(scene_plays)
        if classify is not None:
            read.append(classify(image, truth.xyxy)[0] if len(truth) else np.zeros(0, np.int_))
    found = evaluate(predictions, truths, conf=conf, plays=plays)
    return found if classify is None else replace(found, classifier=read_labels(truths, read))


def labelled_scenes(items: Iterable[LabelledImage]
                    ) -> Iterator[tuple[NDArray[np.uint8], Detections, ScenePlays | None]]:
    """Each labelled image read: the image, its truth boxes in pixels and, where its set says
    them, its plays and hidden cards (:meth:`LabelledImage.scene_plays`)."""
    from vision.detector import read_image

    for item in items:
        image = read_image(item.path)
        yield image, item.truth(image.shape), item.scene_plays(image.shape)


def heldout_synthetic_set(root: str | os.PathLike[str] | None = None, *, seed: int = HELDOUT_SEED,
                          count: int = HELDOUT_COUNT, workers: int = 2) -> Path:
    """The held-out synthetic set: generated once, deterministically, then reused.

    The cache folder's name carries the seed, the count and a digest of the generator's source,
    so a changed generator gets a fresh set instead of stale images (the stale set is removed).

    Args:
        root: folder of cached datasets (default :data:`DATASETS_DIR`).
        seed: scene seed, one the training sets never use.
        count: number of scenes.
        workers: processes to generate with (the images do not depend on it).

    Returns:
        The dataset folder (``images/``, ``labels/``, ``plays/``, ``hidden/``, ``data.yaml``).
    """
    from vision import synth
    from vision.synth import write_dataset

    sources = sorted(Path(synth.__file__).parent.glob("*.py"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()[:8]
    folder = Path(root if root is not None else DATASETS_DIR) / f"heldout-s{seed}-n{count}-{digest}"
    images = folder / "images"
    complete = (folder / "data.yaml").is_file() and images.is_dir() \
        and sum(1 for _ in images.iterdir()) == count
    if not complete:
        write_dataset(folder, seed=seed, count=count, workers=workers)
        for stale in folder.parent.glob(f"heldout-s{seed}-n{count}-*"):
            if stale != folder and stale.is_dir():  # made by an older generator: never read again
                shutil.rmtree(stale)
    return folder
