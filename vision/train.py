"""Training the card detector with Ultralytics (the ``[train]`` extra, imported lazily).

The detector is a width-reduced YOLO built from a model yaml (no pretrained weights exist for
our classes, and nothing is downloaded), trained on generated seat-zone tiles at native scale,
optionally with the real photos of ``../shared/data/real-cards-edje`` mixed in, and exported to
ONNX for the run-time :class:`vision.detector.Detector`.

Typical use (what ``gouji train`` does)::

    data = prepare_data(Path("datasets"), seeds=[1], count=12000, val_seed=2, val_count=400,
                        real=True)
    best = train(TrainConfig(data=data, name="cards"))
    export(best)                          # models/gouji-cards.onnx (+ .pt, model card)

Resuming: ``train(TrainConfig(..., resume=Path("runs/cards/weights/last.pt")))`` continues an
interrupted run with its optimizer state; ``TrainConfig(weights=DEFAULT_WEIGHTS)`` fine-tunes the
shipped model on new data (a new schedule).
"""

from __future__ import annotations

import contextlib
import csv
import datetime as _dt
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.classes import CLASS_NAMES, class_id
from vision.detector import open_session

__all__ = [
    "DEFAULT_ONNX",
    "DEFAULT_WEIGHTS",
    "REAL_CLASSES",
    "REAL_DIR",
    "TILE_SIDE",
    "ModelSpec",
    "TrainConfig",
    "export",
    "measure_speed",
    "model_yaml",
    "prepare_data",
    "prepare_real",
    "read_results_csv",
    "real_photos",
    "real_split",
    "synthetic_set",
    "train",
    "validate",
    "write_model_card",
]

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ONNX = REPO / "models" / "gouji-cards.onnx"
"""Where the run-time detector looks for its model."""
DEFAULT_WEIGHTS = REPO / "models" / "gouji-cards.pt"
"""The shipped PyTorch checkpoint (weights only) that fine-tuning starts from."""
TILE_SIDE = 320
"""Side of the generated training tiles (:class:`vision.synth.SceneConfig`), at camera scale."""
REAL_DIR = REPO.parent / "shared" / "data" / "real-cards-edje"
"""Real photos with YOLO labels (whole-card boxes, ranks 9 to A)."""
REAL_CLASSES: dict[str, str] = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K",
                                "ace": "A"}
"""Class names of the real photos' ``classes.txt`` mapped to our card notation."""
_REAL_VAL_EVERY = 3  # every third photo (sorted by name) is held out, never trained on


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """An Ultralytics detection architecture scaled down for two CPU cores."""

    family: str = "yolo26"
    """``"yolo26"`` (NMS-free end-to-end head), ``"yolov8"`` or ``"yolo11"``."""
    width: float = 0.125
    """Channel multiplier (the stock ``n`` scale is 0.25)."""
    depth: float = 0.5
    """Block-repeat multiplier."""


_FAMILY_YAML = {"yolo26": "26/yolo26.yaml", "yolov8": "v8/yolov8.yaml", "yolo11": "11/yolo11.yaml"}


def model_yaml(spec: ModelSpec, out_dir: Path, *, classes: int = len(CLASS_NAMES)) -> Path:
    """Write the model yaml of ``spec`` with ``classes`` classes (our 16 by default); returns
    its path."""
    import yaml  # a dependency of Ultralytics
    from ultralytics import __file__ as ultralytics_init

    if spec.family not in _FAMILY_YAML:
        raise ValueError(
            f"unknown model family {spec.family!r}; expected one of {tuple(_FAMILY_YAML)}")
    source = Path(ultralytics_init).parent / "cfg" / "models" / _FAMILY_YAML[spec.family]
    cfg = yaml.safe_load(source.read_text())
    cfg.pop("scales", None)
    cfg.update(nc=classes, depth_multiple=spec.depth, width_multiple=spec.width,
               max_channels=1024)
    out_dir.mkdir(parents=True, exist_ok=True)
    suffix = "" if classes == len(CLASS_NAMES) else f"-nc{classes}"
    path = out_dir / f"gouji-{spec.family}-w{spec.width:g}-d{spec.depth:g}{suffix}.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path


def grow(weights: Path, spec: ModelSpec, out_dir: Path) -> Path:
    """A checkpoint of ``spec``'s deeper architecture that computes what ``weights`` computes.

    Every layer of ``weights`` is kept. A CSP block given more inner blocks takes the new
    blocks' outputs through input channels of its last convolution that start at zero, and a
    new attention block passes its input through (its residual branches end at zero), so
    training starts from the trained model and not from scratch. Only the depth may grow.
    Returns the grown checkpoint, written to ``out_dir``.
    """
    ultralytics = _ultralytics()
    trained = ultralytics.YOLO(str(weights))
    grown = ultralytics.YOLO(str(model_yaml(spec, out_dir, classes=len(trained.names))))
    grow_into(trained.model, grown.model)
    grown.model.names = trained.model.names
    path = out_dir / f"{Path(weights).stem}-w{spec.width:g}-d{spec.depth:g}.pt"
    grown.save(path)
    return path


def grow_into(trained: Any, grown: Any) -> None:
    """Load ``trained``'s weights into ``grown``, a deeper copy of its architecture, so that
    ``grown`` computes the same (see :func:`grow`)."""
    import torch
    from ultralytics.nn.modules.block import PSABlock

    old, state = trained.state_dict(), grown.state_dict()
    for name, value in state.items():
        if name not in old:
            continue  # a new inner block
        source = old[name]
        if source.shape == value.shape:
            state[name] = source.to(value.dtype)
        elif (name.endswith("cv2.conv.weight") and source.shape[0] == value.shape[0]
              and source.shape[2:] == value.shape[2:] and source.shape[1] < value.shape[1]):
            widened = torch.zeros_like(value)
            widened[:, :source.shape[1]] = source  # the new blocks' channels come last
            state[name] = widened
        else:
            raise ValueError(f"cannot grow {name} from {tuple(source.shape)} to "
                             f"{tuple(value.shape)}: only the depth may grow")
    grown.load_state_dict(state)
    with torch.no_grad():
        for name, module in grown.named_modules():
            if isinstance(module, PSABlock) and not any(k.startswith(f"{name}.") for k in old):
                for residual in (module.attn.proj, module.ffn[-1]):
                    norm: Any = residual.bn
                    norm.weight.zero_()
                    norm.bias.zero_()


# ---------------------------------------------------------------- data


def real_photos() -> Path:
    """Where the real photos are looked for: ``$GOUJI_REAL_CARDS``, else :data:`REAL_DIR`."""
    return Path(os.environ.get("GOUJI_REAL_CARDS") or REAL_DIR)


def real_split(real_dir: Path = REAL_DIR) -> tuple[list[Path], list[Path]]:
    """The fixed train / held-out split of the real photos: every third one by name is held out."""
    images = sorted(p for p in (real_dir / "images").iterdir()
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if not images:
        raise FileNotFoundError(f"no images under {real_dir / 'images'}")
    held_out = [p for k, p in enumerate(images) if k % _REAL_VAL_EVERY == 0]
    trained = [p for k, p in enumerate(images) if k % _REAL_VAL_EVERY != 0]
    return trained, held_out


def _real_class_map(real_dir: Path) -> dict[int, int]:
    names = (real_dir / "classes.txt").read_text().split()
    return {k: class_id(REAL_CLASSES[name]) for k, name in enumerate(names)}


def prepare_real(out: Path, real_dir: Path = REAL_DIR, repeat: int = 3) -> tuple[Path, Path]:
    """Copy the real photos with labels remapped to our classes.

    Args:
        out: directory to write ``train/`` and ``val/`` (each ``images/`` + ``labels/``) into.
        real_dir: the real dataset (``images/``, ``labels/``, ``classes.txt``).
        repeat: copies of each training photo (they are few next to the synthetic tiles).

    Returns:
        ``(train_images_dir, data_yaml_of_the_held_out_split)``.
    """
    mapping = _real_class_map(real_dir)
    trained, held_out = real_split(real_dir)
    for split, files, copies in (("train", trained, repeat), ("val", held_out, 1)):
        (out / split / "images").mkdir(parents=True, exist_ok=True)
        (out / split / "labels").mkdir(parents=True, exist_ok=True)
        for image in files:
            source = real_dir / "labels" / f"{image.stem}.txt"
            lines = []
            for line in source.read_text().splitlines() if source.exists() else []:
                parts = line.split()
                if len(parts) == 5:
                    lines.append(" ".join([str(mapping[int(parts[0])]), *parts[1:]]))
            for k in range(copies):
                name = f"{image.stem}-{k}" if copies > 1 else image.stem
                shutil.copyfile(image, out / split / "images" / f"{name}{image.suffix.lower()}")
                label = out / split / "labels" / f"{name}.txt"
                label.write_text("".join(f"{x}\n" for x in lines))
    val_yaml = _write_data_yaml(out / "val.yaml", [out / "val" / "images"], out / "val" / "images")
    return out / "train" / "images", val_yaml


def _write_data_yaml(path: Path, train_dirs: Sequence[Path], val_dir: Path) -> Path:
    names = "\n".join(f"  {k}: '{name}'" for k, name in enumerate(CLASS_NAMES))
    train = "\n".join(f"  - {p.resolve()}" for p in train_dirs)
    path.write_text(f"train:\n{train}\nval: {val_dir.resolve()}\nnames:\n{names}\n")
    return path


def prepare_data(root: Path, *, seeds: Sequence[int], count: int, val_seed: int, val_count: int,
                 real: bool = False, real_dir: Path = REAL_DIR, workers: int = 2) -> Path:
    """Write (or reuse) the synthetic sets and return a training ``data.yaml``.

    Args:
        root: where the sets live (``synth-s<seed>-n<count>`` each).
        seeds: one training set of ``count`` tiles per seed.
        count: tiles per training set.
        val_seed: seed of the held-out set validated on during training.
        val_count: tiles of the held-out set.
        real: also train on the training split of the real photos.
        real_dir: the real photos.
        workers: processes writing a missing set.

    A set already written with the same seed and count is reused as is.
    """
    if val_seed in seeds:
        raise ValueError(f"the held-out seed {val_seed} is also a training seed")
    sets = [synthetic_set(root, seed=s, count=n, workers=workers)
            for s, n in [*((seed, count) for seed in seeds), (val_seed, val_count)]]
    train_dirs = [path / "images" for path in sets[:-1]]
    if real:
        real_train, _ = prepare_real(root / "real-cards-edje", real_dir)
        train_dirs.append(real_train)
    name = f"train-s{'-'.join(map(str, seeds))}-n{count}{'-real' if real else ''}.yaml"
    return _write_data_yaml(root / name, train_dirs, sets[-1] / "images")


def synthetic_set(root: Path, *, seed: int, count: int, workers: int = 2) -> Path:
    """The generated set ``root/synth-s<seed>-n<count>``, written unless it is already there."""
    from vision.synth.dataset import write_dataset

    path = root / f"synth-s{seed}-n{count}"
    if not (path / "data.yaml").exists() or len(list((path / "images").iterdir())) != count:
        write_dataset(path, seed=seed, count=count, workers=workers)
    return path


# ---------------------------------------------------------------- training


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """One training run."""

    data: Path
    """Ultralytics ``data.yaml`` (see :func:`prepare_data`)."""
    model: ModelSpec = ModelSpec()
    """Architecture of a run from scratch."""
    weights: Path | None = None
    """Checkpoint to fine-tune from (e.g. :data:`DEFAULT_WEIGHTS`) instead of a run from scratch."""
    resume: Path | None = None
    """``last.pt`` of an interrupted run to continue (all other fields then come from that run)."""
    epochs: int = 20
    """Epochs of the learning-rate schedule."""
    hours: float | None = None
    """Train for this long instead: Ultralytics fits the epochs and the schedule to the time."""
    imgsz: int = TILE_SIDE
    """Side the tiles are read at: :data:`TILE_SIDE` keeps the cards at camera scale, a larger
    side enlarges them (the exported model's input is dynamic, nominally 640)."""
    batch: int = 16
    """Images per step."""
    lr0: float = 0.002
    """Initial AdamW learning rate."""
    workers: int = 2
    """Data loader processes (Ultralytics loads in the main process on a CPU)."""
    threads: int | None = None
    """Torch threads on a CPU; ``None`` keeps Ultralytics' choice (all cores but one). More
    threads than free cores make OpenMP spin, and training many times slower."""
    device: str = "cpu"
    """``"cpu"`` or a CUDA device such as ``"0"``."""
    project: Path = REPO / "runs"
    """Directory of runs."""
    name: str = "cards"
    """Run name (``project/name``)."""
    seed: int = 0
    """Training seed."""
    export_every: int = 1
    """Export the best checkpoint to ``models/`` every this many epochs (0: only at the end)."""
    export_to: Path = DEFAULT_ONNX
    """Where exports go."""
    real_val: Path | None = None
    """Data yaml of the held-out real photos, validated at each export (for the model card)."""
    one_class: bool = False
    """Train a one-class ``card`` detector (every rank is one class) for the cascade, where a
    rank classifier reads each box; fine-tuning a rank detector keeps all but its class layer."""
    grow: bool = False
    """Train ``model``'s deeper architecture, started from ``weights`` by :func:`grow`."""
    one_to_one_features: bool = False
    """Let YOLO26's one-to-one head (the head that needs no NMS) train the features it reads
    too. Ultralytics trains that head on detached features, so that only the raw head's loss
    shapes them (``models/README.md``, the runs of 4 Dec, evening, measure what it changes)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Further Ultralytics training arguments."""


def _ultralytics() -> Any:
    os.environ.setdefault("YOLO_OFFLINE", "1")  # never download weights or fonts
    import ultralytics

    return ultralytics


def train(config: TrainConfig, *, command: str = "") -> Path:
    """Train (or resume, or fine-tune) and return the best checkpoint's path.

    Every ``config.export_every`` epochs the best checkpoint so far is exported to
    ``config.export_to`` with its model card, so an interrupted run still leaves a usable model.
    """
    ultralytics = _ultralytics()
    with one_to_one_trains_features() if config.one_to_one_features else contextlib.nullcontext():
        return _train(ultralytics, config, command)


def _train(ultralytics: Any, config: TrainConfig, command: str) -> Path:
    if config.resume is not None:
        model = ultralytics.YOLO(str(config.resume))
        _add_export_callback(model, config, command)
        _add_threads_callback(model, config.threads)
        model.train(resume=True, trainer=_trainer_class())
        return Path(model.trainer.best)
    if config.grow:
        if config.weights is None:
            raise ValueError("growing a model needs the weights it grows from")
        source = grow(config.weights, config.model, config.project / "models")
    else:
        source = config.weights or model_yaml(config.model, config.project / "models")
    model = ultralytics.YOLO(str(source))
    _add_export_callback(model, config, command)
    _add_threads_callback(model, config.threads)
    args: dict[str, Any] = {
        "data": str(config.data), "epochs": config.epochs, "imgsz": config.imgsz,
        "batch": config.batch, "workers": config.workers, "device": config.device,
        "project": str(config.project), "name": config.name, "exist_ok": True, "seed": config.seed,
        "deterministic": False, "plots": False, "optimizer": "AdamW",
        # full precision on a GPU too: Ultralytics' mixed-precision check first downloads a
        # model, which an offline training machine cannot
        "amp": False,
        "lr0": config.lr0, "lrf": 0.05, "cos_lr": False,
        "warmup_epochs": 0.0 if config.weights else 1.0,  # fine-tuning starts from trained weights
        # the generator already varies pose, scale, light and occlusion; mirrored cards and
        # mosaics of tiles would show what no camera sees
        "mosaic": 0.0, "close_mosaic": 0, "fliplr": 0.0, "flipud": 0.0, "degrees": 0.0,
        "translate": 0.1, "scale": 0.3, "hsv_h": 0.01, "hsv_s": 0.5, "hsv_v": 0.3, "erasing": 0.0,
        "patience": 1000, "val": True, "cache": False, "time": config.hours,
        "nbs": config.batch,  # one optimizer step per batch: CPU training runs only a few epochs
        "single_cls": config.one_class,
    }
    args.update(config.extra)
    model.train(trainer=_trainer_class(), **args)
    return Path(model.trainer.best)


@contextlib.contextmanager
def one_to_one_trains_features() -> Iterator[None]:
    """Within it, the detection head's one-to-one branch reads the features attached in
    training, so its loss reaches the backbone as the raw branch's does. Inference is the same
    either way, and checkpoints keep no trace of it."""
    from ultralytics.nn.modules.head import Detect

    detached_forward = Detect.forward

    def forward(self: Any, x: list[Any]) -> Any:
        if self.training and getattr(self, "one2one_cv2", None) is not None:
            return {"one2many": self.forward_head(x, **self.one2many),
                    "one2one": self.forward_head(x, **self.one2one)}
        return detached_forward(self, x)

    Detect.forward = forward  # type: ignore[method-assign]
    try:
        yield
    finally:
        Detect.forward = detached_forward  # type: ignore[method-assign]


def _trainer_class() -> Any:
    """Ultralytics' detection trainer, reading its ``results.csv`` with :func:`read_results_csv`:
    that is Ultralytics' only use of polars (a 55 MB wheel) from training to export, so a
    machine without polars (an offline GPU machine given the wheels it lacks) trains all the
    same."""
    from ultralytics.models.yolo.detect import DetectionTrainer

    class Trainer(DetectionTrainer):
        def read_results_csv(self) -> dict[str, list[int] | list[float]]:
            return read_results_csv(Path(self.csv))

    return Trainer


def read_results_csv(path: Path) -> dict[str, list[int] | list[float]]:
    """The columns of an Ultralytics ``results.csv``, as it records them in each checkpoint
    (``train_results``): whole numbers where a column holds only those; ``{}`` when unreadable."""
    try:
        with path.open(newline="", encoding="utf-8") as file:
            rows = list(csv.reader(file))
        return {name.strip(): _numbers(values) for name, *values in zip(*rows, strict=True)}
    except (OSError, ValueError):
        return {}


def _numbers(texts: Sequence[str]) -> list[int] | list[float]:
    try:
        return [int(text) for text in texts]
    except ValueError:
        return [float(text) for text in texts]


def _add_threads_callback(model: Any, threads: int | None) -> None:
    import torch

    def on_pretrain_routine_end(trainer: Any) -> None:
        if threads and trainer.device.type == "cpu":
            torch.set_num_threads(threads)

    model.add_callback("on_pretrain_routine_end", on_pretrain_routine_end)


def _add_export_callback(model: Any, config: TrainConfig, command: str) -> None:
    state = {"mtime": 0.0}

    def on_fit_epoch_end(trainer: Any) -> None:
        best = Path(trainer.best)
        due = config.export_every and (trainer.epoch + 1) % config.export_every == 0
        last_epoch = trainer.epoch + 1 >= trainer.epochs
        if not best.exists() or not (due or last_epoch) or best.stat().st_mtime == state["mtime"]:
            return
        state["mtime"] = best.stat().st_mtime
        try:
            export(best, config.export_to, command=command, real_val=config.real_val)
        except Exception as exc:  # noqa: BLE001 -- an export failure must not end a long run
            print(f"export of {best} failed: {exc}")

    model.add_callback("on_fit_epoch_end", on_fit_epoch_end)


def checkpoint_record(checkpoint: dict[str, Any]) -> dict[str, Any]:
    """What Ultralytics recorded in a checkpoint when it saved it: ``epochs`` trained up to
    then, the validation ``metrics`` of those weights and the training ``args``.

    >>> checkpoint_record({"train_results": {"epoch": [1, 2]}, "train_metrics": {"fitness": 0.5}})
    {'epochs': 2, 'metrics': {'fitness': 0.5}, 'args': {}}
    """
    epochs = (checkpoint.get("train_results") or {}).get("epoch") or []
    return {"epochs": int(epochs[-1]) if epochs else None,
            "metrics": checkpoint.get("train_metrics") or {},
            "args": checkpoint.get("train_args") or {}}


# ---------------------------------------------------------------- export and figures


def validate(weights: Path, data: Path, imgsz: int, batch: int = 16) -> dict[str, Any]:
    """Ultralytics validation of a checkpoint: mAP50, mAP50-95 and per-class AP50-95."""
    ultralytics = _ultralytics()
    model = ultralytics.YOLO(str(weights))
    one_class = len(model.names) == 1  # a cascade's detector: every rank counts as a card
    box = model.val(data=str(data), imgsz=imgsz, batch=batch, device="cpu", plots=False,
                    verbose=False, workers=0, single_cls=one_class).box
    figures: dict[str, Any] = {"mAP50": round(float(box.map50), 4),
                               "mAP50-95": round(float(box.map), 4)}
    if not one_class:
        figures["per_class_mAP50-95"] = {CLASS_NAMES[int(c)]: round(float(box.maps[c]), 4)
                                         for c in box.ap_class_index}
    return figures


def measure_speed(onnx_path: Path, threads: int = 2, runs: int = 50,
                  shape: tuple[int, ...] = (1, 3, 640, 640)) -> float:
    """Median milliseconds of one ONNX Runtime inference on a random input of ``shape``."""
    session = open_session(onnx_path, threads)
    image = np.random.default_rng(0).random(shape, np.float32)
    feed = {session.get_inputs()[0].name: image}
    for _ in range(5):
        session.run(None, feed)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, feed)
        times.append((time.perf_counter() - start) * 1000)
    return float(np.median(times))


def export(weights: Path, out: Path = DEFAULT_ONNX, *, imgsz: int = 640, command: str = "",
           synth_val: Path | None = None, real_val: Path | None = None,
           end_to_end: bool = False) -> Path:
    """Export a checkpoint to ONNX at ``out`` (+ a weights-only ``.pt`` beside it + model card).

    The raw head is exported, output ``(1, 4 + nc, N)`` (run-time decode + NMS), also for
    YOLO26; with ``end_to_end``, YOLO26's one-to-one head, output ``(1, N, 6)``, which needs no
    NMS (:class:`~vision.detector.Detector` reads either).

    Args:
        weights: Ultralytics checkpoint (``best.pt``).
        out: ONNX path; the stripped checkpoint goes to ``out.with_suffix(".pt")``.
        imgsz: nominal input side (recorded in the metadata; the input size is dynamic, so a
            1280 x 720 frame can also run at native scale, padded to a multiple of 32).
        command: the command that trained it (for the model card; the checkpoint's own record
            gives its epochs, validation figures and training arguments).
        synth_val: data yaml of a held-out synthetic set to validate on (for the model card).
        real_val: data yaml of the held-out real photos to validate on (for the model card).
        end_to_end: export the one-to-one head instead of the raw one.
    """
    ultralytics = _ultralytics()
    from ultralytics.utils.torch_utils import strip_optimizer

    out.parent.mkdir(parents=True, exist_ok=True)
    # the raw head (external NMS) is what Ultralytics validates by default, so the figures below
    # describe exactly the exported raw model (an end-to-end export: the checkpoint's own
    # figures are its raw twin's; `gouji eval` scores the head exported)
    with tempfile.TemporaryDirectory() as scratch:
        # Ultralytics writes the ONNX beside the checkpoint it loaded: from a copy, so that a
        # model lying there (models/gouji-cards.onnx beside models/gouji-cards.pt) stays
        source = Path(scratch) / Path(weights).name
        shutil.copyfile(weights, source)
        model = ultralytics.YOLO(str(source))
        if len(model.names) == 1:  # a one-class run is named "item" by Ultralytics
            model.model.names = {0: "card"}
        exported = Path(model.export(
            format="onnx", imgsz=imgsz, opset=17, simplify=True, dynamic=True, device="cpu",
            end2end=end_to_end, verbose=False))
        shutil.move(str(exported), out)
    pt = out.with_suffix(".pt")
    strip_optimizer(weights, s=str(pt))
    record = checkpoint_record(model.ckpt or {})
    figures: dict[str, Any] = {}
    if record["epochs"] is not None:
        figures["epochs_trained"] = record["epochs"]
    for name in ("mAP50", "mAP50-95"):
        if f"metrics/{name}(B)" in record["metrics"]:
            figures[f"synthetic_val_{name}"] = round(record["metrics"][f"metrics/{name}(B)"], 4)
    trained_at = int((record["args"] or {}).get("imgsz", TILE_SIDE))
    if synth_val is not None:
        figures["synthetic_heldout"] = validate(pt, synth_val, imgsz=trained_at)
    if real_val is not None:
        figures["real_heldout"] = validate(pt, real_val, imgsz=imgsz)
    figures["ms_per_640_frame_2_threads"] = round(measure_speed(out), 1)
    figures["onnx_mb"] = round(out.stat().st_size / 1e6, 2)
    figures["pt_mb"] = round(pt.stat().st_size / 1e6, 2)
    write_model_card(out.with_suffix(".md"), onnx=out, weights=Path(weights), imgsz=imgsz,
                     command=command, figures=figures, train_args=record["args"],
                     one_class=len(model.names) == 1, end_to_end=end_to_end,
                     trained_at=trained_at)
    return out


def write_model_card(path: Path, *, onnx: Path, weights: Path, imgsz: int, command: str,
                     figures: dict[str, Any], train_args: dict[str, Any] | None = None,
                     one_class: bool = False, end_to_end: bool = False,
                     trained_at: int = TILE_SIDE) -> None:
    """Write the model card: what the model is, its data, command, figures and date;
    ``trained_at`` is the side the training tiles were read at (enlarged from
    :data:`TILE_SIDE` when larger), which is how the model should see the camera's cards."""
    from vision.evaluate import REAL_TARGETS, SYNTHETIC_TARGETS  # brings the scene generator

    classes = 1 if one_class else len(CLASS_NAMES)
    head = ("YOLO26's one-to-one head: output `(1, N, 6)` = `x1, y1, x2, y2, score, class` in "
            "input pixels, one box per card, no NMS at run time (the validation figures below "
            "are the checkpoint's raw head's; `gouji eval` scores this one)" if end_to_end else
            f"raw YOLOv8-style head: output `(1, {4 + classes}, N)` = `cx, cy, w, h` in "
            "input pixels and per-class scores; decode and NMS at run time")
    what = ("class = `card` (any rank or a back): the first stage of the cascade;\nthe rank "
            "classifier `gouji-ranks.onnx` (its card: `gouji-ranks.md`) reads each box"
            if one_class else f"class = rank ({', '.join(CLASS_NAMES)})")
    scale = ("Cards are learnt at native scale, 56-250 px tall: run it on the play area or "
             "seat-zone crops at\ncamera resolution rather than shrinking a whole 1280 x 720 "
             "frame to 640." if trained_at == TILE_SIDE else
             f"Cards are learnt enlarged {trained_at / TILE_SIDE:g} times from the camera's "
             f"scale, at which they are 56-250 px\ntall: run it on the play area or seat-zone "
             f"crops enlarged as much.")
    pt_name = onnx.with_suffix(".pt").name
    fine_tune = f"gouji train {'--one-class ' if one_class else ''}--weights models/{pt_name}"
    path.write_text(f"""# gouji card detector

`{onnx.name}`: one detection per physical card, box = the card's visible region,
{what}.
Input `(1, 3, H, W)` float32 RGB in [0, 1], H and W dynamic multiples of 32 (nominal
{imgsz} x {imgsz}), letterboxed with grey 114 padding;
{head}.
{scale}
`{pt_name}`: the same weights as an Ultralytics checkpoint (no optimizer state), the
starting point for fine-tuning (`{fine_tune}`).

Exported {_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")} from `{weights}`.

## Data
Synthetic seat-zone tiles ({TILE_SIDE} x {TILE_SIDE}) written by `gouji synth` / `vision.synth`: cards rendered
from scratch in random deck styles (Hershey-font and drawn indices, Western and Chinese jokers,
backs), fanned and overlapping plays of 1-12 cards with duplicates, piles, hands, clutter, on
felt/wood/cloth/tile/carpet/plain tables, perspective, shadows, glare, blur, noise, JPEG. The
held-out synthetic set comes from a different seed (different deck styles). Real photos
(`../shared/data/real-cards-edje`, ranks 9-A) are split by `vision.train.real_split`: every
third photo by name is held out and never trained on; the rest are mixed in when `--real` is given.

## Command
```
{command or "(not recorded)"}
```

## Figures
```json
{json.dumps(figures, indent=2)}
```
`synthetic_val_*`: Ultralytics validation of these weights on the held-out synthetic tiles when
the checkpoint was saved (at {trained_at}); `epochs_trained`: epochs behind them.
`real_heldout`: Ultralytics validation on the held-out real photos at {imgsz} (only 9-A occur).
{"These are figures of finding cards, every rank one class; `gouji eval` measures the cascade." if one_class else ""}
Speed: ONNX Runtime, {imgsz} x {imgsz}, 2 threads, median of 50 (on the machine that trained it).

Targets of the whole detector (`gouji eval`): held-out synthetic {", ".join(map(str, SYNTHETIC_TARGETS))};
real {", ".join(map(str, REAL_TARGETS))}; <= 25 ms per 640 x 640 frame on 2 CPU cores; <= 10 MB.

## Training arguments
```json
{json.dumps(train_args or {}, indent=1, ensure_ascii=False, default=str)}
```
""")

