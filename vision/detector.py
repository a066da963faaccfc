"""The run-time card detector: an exported YOLO model run with ONNX Runtime, NumPy and OpenCV.

No torch and no Ultralytics at run time. Pre- and post-processing are pure functions
(:func:`letterbox`, :func:`decode`, :func:`nms`) so they are tested without a model;
:class:`Detector` only adds the ONNX Runtime session, opened once. A one-class model (``card``)
is the first stage of a cascade: :class:`~vision.classifier.RankClassifier` reads each box.

Two output layouts of Ultralytics' ONNX export are understood:

* the raw YOLOv8/11 head, shape ``(1, 4 + nc, N)``: centre boxes and per-class scores, which
  need class-aware non-maximum suppression;
* the end-to-end (NMS-free) YOLO26 head, shape ``(1, N, 6)``: ``x1, y1, x2, y2, score, class``.

>>> import numpy as np
>>> image = np.zeros((160, 320, 3), np.uint8)
>>> padded, transform = letterbox(image, (640, 640))
>>> padded.shape, transform.scale, transform.pad
((640, 640, 3), 2.0, (0.0, 160.0))
>>> transform.to_image(np.array([[0, 160, 640, 480]], np.float32)).tolist()
[[0.0, 0.0, 320.0, 160.0]]
"""

from __future__ import annotations

import ast
import copy
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.classes import CLASS_NAMES, class_id
from vision.detections import Detections

if TYPE_CHECKING:
    from vision.classifier import RankClassifier

__all__ = [
    "DEFAULT_MODEL_PATH",
    "Detector",
    "LetterboxTransform",
    "ModelError",
    "OutputLayout",
    "decode",
    "default_model_path",
    "enlarged_side",
    "letterbox",
    "nms",
    "open_session",
    "raw_boxes",
    "read_image",
    "rotate_boxes_back",
]

DEFAULT_MODEL_PATH: Path = Path(__file__).resolve().parents[1] / "models" / "gouji-cards.onnx"
"""The shipped weights, ``models/gouji-cards.onnx`` next to the package."""

OutputLayout = Literal["raw", "end2end"]
"""``"raw"``: ``(1, 4 + nc, N)`` YOLOv8/11 head; ``"end2end"``: ``(1, N, 6)`` NMS-free head."""

PAD_VALUE = 114
"""Grey used for letterbox padding, as in Ultralytics training, so the model sees what it learnt."""


class ModelError(ValueError):
    """The model file is not a usable detector (not ONNX, wrong inputs or outputs, wrong size)."""


def open_session(path: Path, threads: int) -> Any:
    """An ONNX Runtime CPU session on ``threads`` threads, as every model here runs.

    Raises:
        ModelError: ONNX Runtime cannot load the file.
    """
    import onnxruntime as ort  # type: ignore[import-untyped]  # imported here: `import vision` stays light

    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # ORT warnings about unused initialisers are noise here
    # Idle ORT threads spin-wait by default. Next to capture, tracking and the web server
    # (or any other load) that spinning steals the cores the other thread needs: measured
    # here under load, 2 threads took 100-120 ms per 640 frame spinning and 52 ms without.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT raises its own Fail/InvalidProtobuf types
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot load ONNX model {str(path)!r}: {message}") from exc


def default_model_path() -> Path:
    """``$GOUJI_MODEL`` if set, else the shipped :data:`DEFAULT_MODEL_PATH`."""
    env = os.environ.get("GOUJI_MODEL")
    return Path(env) if env else DEFAULT_MODEL_PATH


def read_image(path: str | os.PathLike[str]) -> NDArray[np.uint8]:
    """Read an image file as BGR.

    Reads the bytes first so that non-ASCII file names work everywhere (``cv2.imread`` cannot
    open them on Windows).

    Raises:
        FileNotFoundError: ``path`` does not exist or is not a file.
        ValueError: the file is not a readable image.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such image file: {str(path)!r}")
    data = np.fromfile(path, dtype=np.uint8)
    try:
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:  # some decoders assert on truncated or corrupt data instead of failing
        decoded = None
    if decoded is None:
        raise ValueError(f"not a readable image: {str(path)!r}")
    return np.asarray(decoded, np.uint8)


@dataclass(frozen=True, slots=True)
class LetterboxTransform:
    """How an image was scaled and padded into the model input, to map boxes back."""

    scale: float
    """Factor applied to the source image (input pixels per image pixel)."""
    pad: tuple[float, float]
    """``(left, top)`` padding in input pixels."""
    image_shape: tuple[int, int]
    """``(height, width)`` of the source image, to clip boxes to it."""

    def to_image(self, xyxy: NDArray[np.floating[Any]]) -> NDArray[np.float32]:
        """Map ``(n, 4)`` boxes from model-input pixels to source-image pixels, clipped."""
        left, top = self.pad
        offset = np.array([left, top, left, top], np.float32)
        boxes = (np.asarray(xyxy, np.float32) - offset) / np.float32(self.scale)
        height, width = self.image_shape
        np.clip(boxes[:, 0::2], 0, width, out=boxes[:, 0::2])
        np.clip(boxes[:, 1::2], 0, height, out=boxes[:, 1::2])
        return boxes


def enlarged_side(side: int, factor: float) -> int:
    """The model input side, a multiple of 32, that reads an image whose longer side is
    ``side`` enlarged ``factor`` times (with ``scaleup``), as a detector trained on enlarged
    tiles (``gouji train --imgsz``) must read it.

    >>> enlarged_side(320, 1.5), enlarged_side(640, 1.5), enlarged_side(320, 1.0)
    (480, 960, 320)
    """
    if factor <= 0:
        raise ValueError(f"an enlargement must be positive, not {factor}")
    return max(32, round(side * factor / 32) * 32)


def letterbox(
    image: NDArray[np.uint8], size: tuple[int, int], *, stride: int | None = None,
    scaleup: bool = True,
) -> tuple[NDArray[np.uint8], LetterboxTransform]:
    """Resize keeping the aspect ratio, then pad with grey to the model's input size.

    Args:
        image: ``(h, w, 3)`` image.
        size: ``(height, width)`` of the model input, or the largest one when ``stride`` is given.
        stride: for models with dynamic input size: pad only up to the next multiple of
            ``stride`` instead of the full ``size`` (less padding, less work).
        scaleup: enlarge images smaller than ``size``; when false they keep their scale and
            are only padded (for a model trained on cards at native camera scale).

    Returns:
        The padded image and the transform that maps boxes back (:meth:`LetterboxTransform.to_image`).

    >>> padded, t = letterbox(np.zeros((300, 600, 3), np.uint8), (640, 640), stride=32)
    >>> padded.shape, t.pad
    ((320, 640, 3), (0.0, 0.0))
    >>> padded, t = letterbox(np.zeros((320, 320, 3), np.uint8), (640, 640), scaleup=False)
    >>> padded.shape, t.scale, t.pad
    ((640, 640, 3), 1.0, (160.0, 160.0))
    """
    height, width = image.shape[:2]
    target_h, target_w = size
    scale = min(target_h / height, target_w / width)
    if not scaleup:
        scale = min(scale, 1.0)
    new_w, new_h = round(width * scale), round(height * scale)
    if stride is not None:
        target_h = -(-new_h // stride) * stride
        target_w = -(-new_w // stride) * stride
    if (new_w, new_h) != (width, height):
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        image = np.asarray(cv2.resize(image, (new_w, new_h), interpolation=interpolation), np.uint8)
    # Split the padding evenly, the odd pixel going right/bottom (as Ultralytics does).
    dw, dh = (target_w - new_w) / 2, (target_h - new_h) / 2
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    if top or bottom or left or right:
        image = np.asarray(cv2.copyMakeBorder(image, top, bottom, left, right, cv2.BORDER_CONSTANT,
                                              value=(PAD_VALUE, PAD_VALUE, PAD_VALUE)), np.uint8)
    return image, LetterboxTransform(scale=scale, pad=(float(left), float(top)),
                                     image_shape=(height, width))


def nms(xyxy: NDArray[np.floating[Any]], scores: NDArray[np.floating[Any]],
        iou: float, class_id: NDArray[np.integer[Any]] | None = None,
        max_det: int | None = None) -> NDArray[np.intp]:
    """Greedy non-maximum suppression.

    Args:
        xyxy: ``(n, 4)`` boxes.
        scores: ``(n,)`` scores.
        iou: a box is dropped when its IoU with a kept, higher-scored box exceeds this.
        class_id: when given, only boxes of the same class suppress each other.
        max_det: stop once this many boxes are kept.

    Returns:
        Indices of the kept boxes, highest score first.

    >>> boxes = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], np.float32)
    >>> nms(boxes, np.array([0.9, 0.8, 0.7]), 0.5).tolist()
    [0, 2]
    >>> nms(boxes, np.array([0.9, 0.8, 0.7]), 0.5, class_id=np.array([0, 1, 0])).tolist()
    [0, 1, 2]
    """
    boxes = np.asarray(xyxy, np.float64)
    if class_id is not None and len(boxes):
        # Shift each class to its own region of the plane: boxes of different classes never overlap.
        offset = (boxes.max() - min(boxes.min(), 0) + 1) * np.asarray(class_id, np.float64)
        boxes = boxes + offset[:, None]
    x1, y1, x2, y2 = boxes.T
    areas = np.maximum(x2 - x1, 0) * np.maximum(y2 - y1, 0)
    order = np.argsort(-np.asarray(scores), kind="stable")
    keep: list[int] = []
    while order.size and (max_det is None or len(keep) < max_det):
        best, rest = order[0], order[1:]
        keep.append(int(best))
        inter = (np.maximum(np.minimum(x2[best], x2[rest]) - np.maximum(x1[best], x1[rest]), 0)
                 * np.maximum(np.minimum(y2[best], y2[rest]) - np.maximum(y1[best], y1[rest]), 0))
        union = areas[best] + areas[rest] - inter
        overlap = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        order = rest[overlap <= iou]
    return np.array(keep, dtype=np.intp)


def _output_layout(shape: tuple[int, ...]) -> OutputLayout:
    """Tell the head from the output shape; see the module docstring."""
    if len(shape) != 3 or shape[0] != 1:
        raise ModelError(f"expected a detector output of shape (1, 4 + nc, N) or (1, N, 6), "
                         f"got {shape}")
    if shape[2] == 6 and shape[1] != 6:
        return "end2end"
    if shape[1] <= 4:
        raise ModelError(f"raw detector output needs 4 box rows plus class scores, got {shape}")
    return "raw"


def decode(
    output: NDArray[np.floating[Any]],
    transform: LetterboxTransform,
    *,
    conf: float = 0.25,
    iou: float = 0.6,
    max_det: int = 300,
    class_map: NDArray[np.integer[Any]] | None = None,
) -> Detections:
    """Turn a raw model output into :class:`Detections` in source-image pixels.

    Args:
        output: the model's first output, ``(1, 4 + nc, N)`` (raw head: ``cx, cy, w, h`` then
            class scores) or ``(1, N, 6)`` (end-to-end head: ``x1, y1, x2, y2, score, class``),
            in model-input pixels.
        transform: the letterbox that produced the model input.
        conf: keep boxes scoring at least this.
        iou: IoU threshold of the class-aware NMS (raw head only; the end-to-end head has none).
        max_det: keep at most this many boxes, best first.
        class_map: model class index -> :data:`~vision.classes.CLASS_NAMES` id, when the model's
            class order differs from ours.

    >>> raw = np.zeros((1, 4 + 16, 2), np.float32)
    >>> raw[0, :4, 0] = [50, 50, 20, 40]; raw[0, 4 + 7, 0] = 0.9    # a ten, centre (50, 50)
    >>> t = LetterboxTransform(scale=1.0, pad=(0.0, 0.0), image_shape=(100, 100))
    >>> d = decode(raw, t)
    >>> d.names(), d.xyxy.tolist()
    (['T'], [[40.0, 30.0, 60.0, 70.0]])
    """
    output = np.asarray(output)
    layout = _output_layout(output.shape)
    if layout == "end2end":
        rows = output[0]
        scores = rows[:, 4]
        keep = scores >= conf
        xyxy, scores, classes = rows[keep, :4], scores[keep], rows[keep, 5].astype(np.int64)
        order = np.argsort(-scores, kind="stable")[:max_det]
    else:
        xyxy, scores, classes = raw_boxes(output, conf)
        order = nms(xyxy, scores, iou, class_id=classes, max_det=max_det)
    if class_map is not None:
        classes = np.asarray(class_map)[classes]
    boxes = transform.to_image(xyxy[order])
    # A box wholly in the letterbox padding clips to a line: nothing of the image is in it.
    inside = (boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])
    kept = order[inside]
    return Detections(xyxy=boxes[inside], confidence=scores[kept].astype(np.float32),
                      class_id=classes[kept].astype(np.int_))


def raw_boxes(output: NDArray[np.floating[Any]], conf: float
              ) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.intp]]:
    """A raw head's boxes scoring at least ``conf``, before any NMS: corners in model-input
    pixels, each box's best class score and that class.

    >>> raw = np.zeros((1, 4 + 1, 2), np.float32)
    >>> raw[0, :, 0] = [50, 50, 20, 40, 0.75]; raw[0, :, 1] = [10, 10, 4, 4, 0.125]
    >>> xyxy, scores, classes = raw_boxes(raw, 0.25)
    >>> xyxy.tolist(), scores.tolist(), classes.tolist()
    ([[40.0, 30.0, 60.0, 70.0]], [0.75], [0])
    """
    rows = np.asarray(output, np.float32)[0].T          # (N, 4 + nc)
    class_scores = rows[:, 4:]
    classes = class_scores.argmax(axis=1)
    scores = class_scores[np.arange(len(rows)), classes]
    keep = scores >= conf
    centre, half = rows[keep, :2], rows[keep, 2:4] / 2
    return (np.concatenate([centre - half, centre + half], axis=1), scores[keep],
            classes[keep])


def rotate_boxes_back(xyxy: NDArray[np.floating[Any]], turns: int,
                      image_shape: tuple[int, int]) -> NDArray[np.float32]:
    """Map boxes found in ``np.rot90(image, turns)`` back to ``image``.

    Args:
        xyxy: ``(n, 4)`` boxes in the rotated image.
        turns: quarter turns counter-clockwise applied to the image (``np.rot90``'s ``k``).
        image_shape: ``(height, width)`` of the original (unrotated) image.

    >>> rotate_boxes_back(np.array([[0, 0, 10, 20]], np.float32), 1, (100, 200)).tolist()
    [[180.0, 0.0, 200.0, 10.0]]
    """
    x1, y1, x2, y2 = np.asarray(xyxy, np.float32).reshape(-1, 4).T
    height, width = image_shape
    turns %= 4
    if turns == 1:      # rotated (x, y) came from (width - y, x)
        columns = (width - y2, x1, width - y1, x2)
    elif turns == 2:    # from (width - x, height - y)
        columns = (width - x2, height - y2, width - x1, height - y1)
    elif turns == 3:    # from (y, height - x)
        columns = (y1, height - x2, y2, height - x1)
    else:
        columns = (x1, y1, x2, y2)
    return np.stack(columns, axis=1).astype(np.float32)


def _names_from_metadata(metadata: dict[str, str]) -> list[str] | None:
    """Class names recorded by the Ultralytics export (``"{0: '3', 1: '4', ...}"``), if any."""
    text = metadata.get("names")
    if not text:
        return None
    try:
        names = ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise ModelError(f"cannot read the class names in the model metadata: {text!r}") from exc
    if isinstance(names, dict):
        names = [names[i] for i in sorted(names)]
    return [str(name) for name in names]


def _side_from_metadata(text: str) -> int:
    """Input side recorded at export: ``"640"`` or ``"[640, 640]"`` (largest side)."""
    try:
        value = ast.literal_eval(text)
        return int(max(value) if isinstance(value, (list, tuple)) else value)
    except (ValueError, SyntaxError, TypeError) as exc:
        raise ModelError(f"cannot read the input size in the model metadata: {text!r}") from exc


def _class_map(names: list[str]) -> NDArray[np.int_] | None:
    """Model class index -> our class id, by name; ``None`` when the orders already agree."""
    if names == [str(i) for i in range(len(names))]:
        return None  # Ultralytics' placeholder names of a model built without a data file
    try:
        mapping = np.array([class_id(name) for name in names], dtype=np.int_)
    except ValueError as exc:
        raise ModelError(f"model classes {names} are not card classes {CLASS_NAMES}") from exc
    return None if np.array_equal(mapping, np.arange(len(CLASS_NAMES))) else mapping


class Detector:
    """Card detector on an exported YOLO ONNX model.

    Args:
        model_path: the ``.onnx`` file; ``None`` means ``$GOUJI_MODEL`` or the shipped
            ``models/gouji-cards.onnx``.
        threads: CPU threads ONNX Runtime may use for one inference.
        conf: minimum score of a returned box; for a cascade, both of the box as found (only
            those are read) and of the returned score, found times read.
        iou: IoU threshold of the NMS (raw heads; also merging rotations).
        imgsz: model input side; only for models exported with a dynamic input size (default:
            the size recorded at export, else 640).
        scaleup: enlarge images smaller than the model input (see :func:`letterbox`). Off by
            default: the model learns cards at native camera scale (seat-zone tiles), so a
            small crop is padded, not magnified.
        classifier: the rank classifier of a one-class (cascade) model; ``None`` means
            ``$GOUJI_CLASSIFIER`` or the shipped ``models/gouji-ranks.onnx``. A model that
            scores the ranks itself needs none.

    A one-class model finds cards; its :class:`~vision.classifier.RankClassifier` then reads
    each box, and a box's confidence is the product of both stages' scores. Its boxes carry the
    classifier's second choice too: ``data["runner_up"]`` (class id) and
    ``data["runner_up_confidence"]`` (found times read as that).

    Raises:
        FileNotFoundError: the model file does not exist.
        ModelError: it is not an ONNX detector this class understands.

    Example:
        >>> det = Detector()                                  # doctest: +SKIP
        >>> det(read_image("play.jpg")).names()               # doctest: +SKIP
        ['T', 'T', '5']
    """

    def __init__(self, model_path: str | os.PathLike[str] | None = None, *, threads: int = 2,
                 conf: float = 0.25, iou: float = 0.6, imgsz: int | None = None,
                 scaleup: bool = False,
                 classifier: str | os.PathLike[str] | None = None) -> None:
        path = Path(model_path) if model_path is not None else default_model_path()
        if not path.is_file():
            raise FileNotFoundError(
                f"no detector model at {str(path)!r}: train one with `gouji train`, "
                "or pass --model / set $GOUJI_MODEL")
        self._session = open_session(path, threads)

        self.model_path: Path = path
        """The model file in use."""
        self.conf = conf
        """Minimum score of a returned box (and of a cascade's box as found)."""
        self.iou = iou
        """IoU threshold of the NMS."""
        self.threads = threads
        """ONNX Runtime intra-op threads."""
        self.scaleup = scaleup
        """Whether images smaller than the input are enlarged (else only padded)."""
        self.enlargement = 1.0
        """How many times each image is enlarged before it is read (see :meth:`enlarged`)."""

        inputs, outputs = self._session.get_inputs(), self._session.get_outputs()
        if len(inputs) != 1 or len(inputs[0].shape) != 4:
            raise ModelError(f"{path.name}: expected one image input (1, 3, H, W), got "
                             f"{[(i.name, i.shape) for i in inputs]}")
        self._input_name = inputs[0].name
        self._input_dtype = np.float16 if inputs[0].type == "tensor(float16)" else np.float32
        metadata = self._session.get_modelmeta().custom_metadata_map
        height, width = inputs[0].shape[2:]
        self._dynamic = not (isinstance(height, int) and isinstance(width, int))
        self._stride = int(metadata.get("stride", 32))
        if self._dynamic:
            side = imgsz or _side_from_metadata(metadata.get("imgsz", "640"))
            self.input_size: tuple[int, int] = (side, side)
            """``(height, width)`` of the model input (the largest one for dynamic models)."""
        else:
            self.input_size = (int(height), int(width))
            if imgsz is not None and imgsz != max(self.input_size):
                raise ModelError(f"{path.name} has a fixed input of {self.input_size}; "
                                 f"imgsz={imgsz} needs a model exported with dynamic=True")

        names = _names_from_metadata(metadata)
        self.classifier: RankClassifier | None = None
        """Reads the ranks of a one-class model's boxes; ``None`` when the model scores them."""
        if names is not None and len(names) == 1:
            from vision.classifier import RankClassifier

            self.classifier = RankClassifier(classifier, threads=threads)
            names = None
        self._class_map = _class_map(names) if names is not None else None
        # Dynamic exports name their batch and anchor axes; the batch is 1 and the anchor
        # count plays no part in telling the layouts apart.
        out_shape = tuple(d if isinstance(d, int) else 1 if i == 0 else -1
                          for i, d in enumerate(outputs[0].shape))
        self.layout: OutputLayout | None = None
        """Output head, when the output shape tells it at load time."""
        if len(out_shape) == 3 and out_shape[1] > 0:
            self.layout = _output_layout(out_shape)
            num_classes = 1 if self.classifier else len(names or CLASS_NAMES)
            if self.layout == "raw" and out_shape[1] - 4 != num_classes:
                raise ModelError(f"{path.name} scores {out_shape[1] - 4} classes, expected "
                                 f"{num_classes}")
        elif len(out_shape) != 3:
            raise ModelError(f"{path.name}: expected a detector output of shape (1, 4 + nc, N) "
                             f"or (1, N, 6), got {tuple(outputs[0].shape)}")

    @property
    def dynamic(self) -> bool:
        """Whether the model takes inputs of any size (multiples of its stride)."""
        return self._dynamic

    def fit_input(self, width: int, height: int) -> None:
        """Let a dynamic model see images up to ``width`` × ``height`` at their own scale.

        Images larger than the input are shrunk to it, and cards shrunk below the scale the
        model learnt them at are found less surely: a caller that knows the size of what it
        will detect (the pipeline: its seat-zone crops) widens the input to it. The input
        becomes a square of the larger side rounded up to the stride; each image is still
        padded only to its own size rounded up to the stride.

        Raises:
            ModelError: the model has a fixed input size.
        """
        if not self._dynamic:
            raise ModelError(f"{self.model_path.name} has a fixed input of {self.input_size}: "
                             "export the model with dynamic=True to fit other sizes")
        side = -(-max(width, height) // self._stride) * self._stride
        self.input_size = (side, side)

    def enlarged(self, factor: float) -> Detector:
        """This detector reading every image enlarged ``factor`` times, sharing its model
        sessions: a detector trained on enlarged tiles (``gouji train --imgsz``) must read
        images at the scale it learnt the cards at. Each image's input is its longer side
        enlarged (:func:`enlarged_side`), whatever :attr:`input_size` says. Enlarged once,
        it is this detector itself.

        >>> closer = Detector().enlarged(1.5)                 # doctest: +SKIP

        Raises:
            ModelError: the model has a fixed input size (and ``factor`` is not 1).
            ValueError: ``factor`` is not positive.
        """
        if factor == 1.0:
            return self
        if not self._dynamic:
            raise ModelError(f"{self.model_path.name} has a fixed input of {self.input_size}: "
                             "export the model with dynamic=True to read images enlarged")
        if factor <= 0:
            raise ValueError(f"an enlargement must be positive, not {factor}")
        closer = copy.copy(self)
        closer.enlargement = factor
        return closer

    def with_iou(self, iou: float) -> Detector:
        """This detector with another NMS threshold, sharing its model sessions.

        >>> loose = Detector().with_iou(0.7)                  # doctest: +SKIP
        """
        loosened = copy.copy(self)
        loosened.iou = iou
        return loosened

    def __repr__(self) -> str:
        cascade = f", classifier={str(self.classifier.model_path)!r}" if self.classifier else ""
        return (f"Detector({str(self.model_path)!r}{cascade}, threads={self.threads}, "
                f"conf={self.conf}, iou={self.iou})")

    def __call__(self, image: NDArray[np.uint8]) -> Detections:
        """Detect the cards in one BGR image of any size (grey and BGRA are accepted too)."""
        image = _as_bgr(image)
        blob, transform = self.preprocess(image)
        found = decode(self.infer(blob), transform, conf=self.conf, iou=self.iou,
                       class_map=self._class_map)
        if self.classifier is None:
            return found
        ranks, probabilities = self.classifier.choices(image, found.xyxy, count=2)
        confidence = found.confidence[:, None] * probabilities
        sure = confidence[:, 0] >= self.conf
        return Detections(xyxy=found.xyxy[sure], confidence=confidence[sure, 0],
                          class_id=ranks[sure, 0],
                          data={"runner_up": ranks[sure, 1],
                                "runner_up_confidence": confidence[sure, 1]})

    def preprocess(self, image: NDArray[np.uint8]) -> tuple[NDArray[Any], LetterboxTransform]:
        """Letterbox ``image`` into the model's ``(1, 3, H, W)`` RGB input scaled to ``[0, 1]``."""
        image = _as_bgr(image)
        size, scaleup = self.input_size, self.scaleup
        if self.enlargement != 1.0:
            side = enlarged_side(max(image.shape[:2]), self.enlargement)
            size, scaleup = (side, side), True
        padded, transform = letterbox(image, size,
                                      stride=self._stride if self._dynamic else None,
                                      scaleup=scaleup)
        blob = cv2.dnn.blobFromImage(padded, scalefactor=1 / 255, swapRB=True)
        return blob.astype(self._input_dtype, copy=False), transform

    def infer(self, blob: NDArray[Any]) -> NDArray[np.float32]:
        """Run the model on a preprocessed input; its raw first output."""
        (output, *_) = self._session.run(None, {self._input_name: blob})
        return np.asarray(output, np.float32)

    def detect_any_angle(self, image: NDArray[np.uint8]) -> Detections:
        """Detect cards at any angle: also run the 90°, 180° and 270° rotations and merge.

        The model learns roughly upright cards (a table file turns each seat's zone upright);
        a bare photo has no such help. The same card found in several rotations is merged
        class-agnostically, keeping the most confident reading of it.
        """
        image = _as_bgr(image)
        parts = []
        for turns in range(4):
            found = self(np.ascontiguousarray(np.rot90(image, turns)))
            parts.append(replace(found, xyxy=rotate_boxes_back(found.xyxy, turns,
                                                               image.shape[:2])))
        merged = Detections.merge(parts)
        return merged[nms(merged.xyxy, merged.confidence, self.iou)]


def _as_bgr(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Accept grey ``(h, w)`` / ``(h, w, 1)`` and BGRA images; the model takes 3 channels."""
    image = np.asarray(image)
    if image.dtype != np.uint8:
        raise ValueError(f"expected an 8-bit image, got dtype {image.dtype}")
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an image of shape (h, w, 3), got {image.shape}")
    return image
