"""The cascade's second stage: read each found card's rank from its box.

A one-class detector finds every physical card (its visible region); :class:`RankClassifier`
then reads the rank of each box from a crop at a fixed size. Telling where a card is and what
it is apart trains far faster than one many-class detector, and the classifier sees the corner
index large enough to read (a glyph of about 12 px in the crop even for a strip of a fan).

:func:`index_crops` is the one crop both training and run time use: the box with a small margin,
turned upright when it is wider than tall, scaled to fit ``CROP_HEIGHT x CROP_WIDTH`` without
squashing, centred on grey (what lies beside the box is not shown).

>>> import numpy as np
>>> image = np.zeros((100, 200, 3), np.uint8)
>>> index_crops(image, np.array([[10, 10, 40, 90], [0, 0, 200, 50]], np.float32)).shape
(2, 96, 64, 3)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.classes import CLASS_NAMES
from vision.detector import ModelError, open_session

__all__ = [
    "CROP_HEIGHT",
    "CROP_MARGIN",
    "CROP_WIDTH",
    "DEFAULT_CLASSIFIER",
    "SECOND_LOOK",
    "RankClassifier",
    "crops_to_blob",
    "index_crops",
]

CROP_HEIGHT = 96
"""Height of a classifier crop in pixels."""
CROP_WIDTH = 64
"""Width of a classifier crop in pixels (cards are portrait: 2.5 x 3.5 in)."""
CROP_MARGIN = 0.06
"""Context added around a box on each side, as a fraction of its width and height."""
PAD_GREY = 114
"""Grey of the padding (the detector's letterbox grey)."""

SECOND_LOOK = 0.8
"""A box read less surely than this is read again from two more views, and the three readings
averaged: the crop turned half round (a card's other corner index then stands where the first
stood) and the box without margin. On the held-out synthetic boxes this reads 93.4 % right
against 91.9 % for one look, at the cost of a second run for about one box in six."""

DEFAULT_CLASSIFIER = Path(__file__).resolve().parents[1] / "models" / "gouji-ranks.onnx"
"""Where the shipped rank classifier lives, beside the detector."""


def index_crops(image: NDArray[np.uint8], xyxy: NDArray[np.floating[Any]], *,
                margin: float = CROP_MARGIN) -> NDArray[np.uint8]:
    """Crops of ``image`` (BGR) at the boxes ``xyxy``, shape ``(n, CROP_HEIGHT, CROP_WIDTH, 3)``.

    A box wider than tall is turned a quarter clockwise first, so the long side of a card (and
    of a fan's strip) runs down the crop. Parts of a box outside the image read as grey.
    """
    boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
    crops = np.empty((len(boxes), CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        width = max(x2 - x1, 1.0) * (1 + 2 * margin)
        height = max(y2 - y1, 1.0) * (1 + 2 * margin)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        turn = width > height
        long_side, short_side = (width, height) if turn else (height, width)
        scale = min(CROP_HEIGHT / long_side, CROP_WIDTH / short_side)
        # Pixel i covers [i, i + 1): map centres (i + 0.5) so the box's edges land on the crop's.
        if turn:  # x' = -s (y - cy) + W/2, y' = s (x - cx) + H/2: a quarter turn clockwise
            matrix = np.array([[0.0, -scale, scale * (cy - 0.5) + CROP_WIDTH / 2 - 0.5],
                               [scale, 0.0, scale * (0.5 - cx) + CROP_HEIGHT / 2 - 0.5]])
        else:
            matrix = np.array([[scale, 0.0, scale * (0.5 - cx) + CROP_WIDTH / 2 - 0.5],
                               [0.0, scale, scale * (0.5 - cy) + CROP_HEIGHT / 2 - 0.5]])
        crop = cv2.warpAffine(image, matrix, (CROP_WIDTH, CROP_HEIGHT),
                              flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT,
                              borderValue=(PAD_GREY, PAD_GREY, PAD_GREY))
        # Only the box is shown: beside a fan's strip lie its neighbours, which are other cards.
        left = round((CROP_WIDTH - short_side * scale) / 2)
        top = round((CROP_HEIGHT - long_side * scale) / 2)
        crop[:top], crop[CROP_HEIGHT - top:] = PAD_GREY, PAD_GREY
        crop[:, :left], crop[:, CROP_WIDTH - left:] = PAD_GREY, PAD_GREY
        crops[i] = crop
    return crops


def crops_to_blob(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """BGR uint8 crops ``(n, H, W, 3)`` -> the classifier input ``(n, 3, H, W)``, RGB in [0, 1]."""
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), np.float32) / 255.0


class RankClassifier:
    """Reads the rank of card boxes with an ONNX classifier (input ``(n, 3, 96, 64)``).

    Args:
        model_path: the ``.onnx`` file; ``None`` means ``$GOUJI_CLASSIFIER`` or the shipped
            ``models/gouji-ranks.onnx``.
        threads: CPU threads ONNX Runtime may use.
        second_look: boxes whose likeliest rank scores below this are read from two more
            views (:data:`SECOND_LOOK`; 0: one look only).

    Raises:
        FileNotFoundError: the model file does not exist.
        vision.detector.ModelError: it is not a rank classifier.
    """

    def __init__(self, model_path: str | os.PathLike[str] | None = None, *,
                 threads: int = 2, second_look: float = SECOND_LOOK) -> None:
        path = Path(model_path or os.environ.get("GOUJI_CLASSIFIER") or DEFAULT_CLASSIFIER)
        if not path.is_file():
            raise FileNotFoundError(
                f"no rank classifier at {str(path)!r}: train one with `gouji train-ranks`, "
                "or set $GOUJI_CLASSIFIER")
        self._session = open_session(path, threads)
        inputs, outputs = self._session.get_inputs(), self._session.get_outputs()
        if len(inputs) != 1 or list(inputs[0].shape[1:]) != [3, CROP_HEIGHT, CROP_WIDTH] \
                or outputs[0].shape[-1] != len(CLASS_NAMES):
            raise ModelError(f"{path.name} is not a rank classifier: expected input "
                             f"(n, 3, {CROP_HEIGHT}, {CROP_WIDTH}) and {len(CLASS_NAMES)} "
                             f"outputs, got {inputs[0].shape} -> {outputs[0].shape}")
        self.model_path = path
        """The model file in use."""
        self.second_look = second_look
        """Likeliest-rank score under which a box is read again from two more views."""
        self._input_name = inputs[0].name

    def __repr__(self) -> str:
        return f"RankClassifier({str(self.model_path)!r})"

    def __call__(self, image: NDArray[np.uint8], xyxy: NDArray[np.floating[Any]]
                 ) -> tuple[NDArray[np.int_], NDArray[np.float32]]:
        """Class id and its probability for each box of ``image`` (BGR)."""
        ranks, probabilities = self.choices(image, xyxy, count=1)
        return ranks[:, 0], probabilities[:, 0]

    def choices(self, image: NDArray[np.uint8], xyxy: NDArray[np.floating[Any]], *,
                count: int = 2) -> tuple[NDArray[np.int_], NDArray[np.float32]]:
        """The ``count`` likeliest class ids of each box of ``image`` (BGR), likeliest first,
        and their probabilities: two ``(n, count)`` arrays. A box read less surely than
        :attr:`second_look` is read from two more views and the readings averaged."""
        if not len(xyxy):
            return np.zeros((0, count), np.int_), np.zeros((0, count), np.float32)
        crops = index_crops(image, xyxy)
        probabilities = self._probabilities(crops)
        unsure = np.flatnonzero(probabilities.max(axis=1) < self.second_look)
        if len(unsure):
            turned = crops[unsure, ::-1, ::-1]
            tight = index_crops(image, np.asarray(xyxy)[unsure], margin=0.0)
            more = self._probabilities(np.concatenate([turned, tight]))
            probabilities[unsure] = (probabilities[unsure] + more[:len(unsure)]
                                     + more[len(unsure):]) / 3
        return _likeliest(probabilities, count)

    def classify(self, crops: NDArray[np.uint8]) -> tuple[NDArray[np.int_], NDArray[np.float32]]:
        """Class id and probability of each crop made by :func:`index_crops`, from that crop
        alone (no second look: it needs the image)."""
        ranks, probabilities = _likeliest(self._probabilities(crops), 1)
        return ranks[:, 0], probabilities[:, 0]

    def _probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float64]:
        """``(n, classes)`` softmax of the network's logits for each crop."""
        (logits,) = self._session.run(None, {self._input_name: crops_to_blob(crops)})
        logits = np.asarray(logits, np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        probabilities: NDArray[np.float64] = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        return probabilities


def _likeliest(probabilities: NDArray[np.float64], count: int
               ) -> tuple[NDArray[np.int_], NDArray[np.float32]]:
    """The ``count`` likeliest class ids of each row and their probabilities."""
    likeliest = np.argsort(-probabilities, axis=1, kind="stable")[:, :count]
    return (likeliest.astype(np.int_),
            np.take_along_axis(probabilities, likeliest, axis=1).astype(np.float32))
