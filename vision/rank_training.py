"""Training the rank classifier of the cascade (PyTorch, the ``[train]`` extra, imported lazily).

The data are the detector's own datasets: every labelled box of the generated tiles (and of the
training split of the real photos), cut out by :func:`vision.classifier.index_crops` around a
randomly disturbed box, as a detector would find it. The network is a small all-convolution
net ending in a position-aware linear layer (which corner holds the index matters); it is
exported to ONNX for :class:`vision.classifier.RankClassifier`.

Typical use (what ``gouji train-ranks`` does)::

    def epoch_crops(epoch: int) -> CropSet:    # new box disturbances every epoch
        return crop_set([Path("datasets/synth-s1-n12000")], seed=10 * epoch, workers=8)

    train_ranks(RankTrainConfig(train=epoch_crops, val={"synthetic": heldout_crops},
                                device="cuda"))    # or the default "cpu": the same files
"""

from __future__ import annotations

import copy
import json
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from vision.classes import CLASS_NAMES
from vision.classifier import (
    CROP_HEIGHT,
    CROP_MARGIN,
    CROP_WIDTH,
    DEFAULT_CLASSIFIER,
    crops_to_blob,
    index_crops,
)
from vision.train import measure_speed

if TYPE_CHECKING:
    from vision.evaluate import LabelledImage

__all__ = ["CropSet", "RankTrainConfig", "build_network", "crop_set", "export_classifier",
           "load_weights", "train_ranks"]

BOX_JITTER = 0.08
"""Each side of a training box moves by up to this fraction of the box's size: the detector's
boxes are not exact, and the classifier must read them all the same."""


@dataclass(frozen=True, slots=True)
class CropSet:
    """Classifier crops and their class ids."""

    crops: NDArray[np.uint8]
    """BGR crops, ``(n, CROP_HEIGHT, CROP_WIDTH, 3)``."""
    labels: NDArray[np.int64]
    """Class id of each crop, ``(n,)``."""

    def __len__(self) -> int:
        return len(self.labels)

    @staticmethod
    def concatenate(parts: Sequence[CropSet]) -> CropSet:
        return CropSet(np.concatenate([p.crops for p in parts]),
                       np.concatenate([p.labels for p in parts]))


def crop_set(folders: Sequence[Path], *, seed: int, jitter: float = BOX_JITTER,
             repeat: int = 1, limit: int | None = None, workers: int = 1) -> CropSet:
    """Crops of every labelled box in YOLO folders, each box disturbed by up to ``jitter``.

    Args:
        folders: YOLO-format datasets (``images/`` + ``labels/``).
        seed: seed of the box disturbance.
        jitter: largest move of a box side, as a fraction of the box size (0: exact boxes).
        repeat: crops per box (each with its own disturbance).
        limit: read at most this many images per folder.
        workers: processes cutting the crops (the crops do not depend on it: every box's
            disturbance is drawn here, in order, from the label files alone).
    """
    from vision.evaluate import load_yolo_folder

    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    rng = np.random.default_rng(seed)
    items, moves = [], []
    for folder in folders:
        for item in load_yolo_folder(folder)[:limit]:
            if len(item.class_id):
                items.append(item)
                moves.append(rng.uniform(-jitter, jitter, (repeat, len(item.class_id), 4)))
    if not items:
        raise ValueError(f"no labelled boxes in {[str(f) for f in folders]}")
    if workers == 1:
        crops = list(map(_cut, items, moves))
    else:
        with ProcessPoolExecutor(workers) as pool:
            crops = list(pool.map(_cut, items, moves,
                                  chunksize=max(1, len(items) // (8 * workers))))
    labels = [np.tile(item.class_id.astype(np.int64), repeat) for item in items]
    return CropSet(np.concatenate(crops), np.concatenate(labels))


def _cut(item: LabelledImage, moves: NDArray[np.float64]) -> NDArray[np.uint8]:
    """The crops of one image's boxes, each repeat's boxes moved by ``moves[k]`` times the box
    size, ``(repeat * n, CROP_HEIGHT, CROP_WIDTH, 3)``."""
    from vision.detector import read_image

    image = read_image(item.path)
    xyxy = item.truth(image.shape).xyxy
    size = np.repeat(xyxy[:, 2:] - xyxy[:, :2], 2, axis=0).reshape(-1, 4)
    return np.concatenate([index_crops(image, xyxy + move * size) for move in moves])


def build_network() -> Any:
    """The classifier: 7 convolutions (4 of stride 2), a residual refinement block at 12 x 8
    and at 6 x 4 (where a crop holding several cards' indices is sorted out), and a linear
    layer over the 6 x 4 map."""
    from torch import nn

    def block(c_in: int, c_out: int, stride: int) -> list[nn.Module]:
        return [nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out),
                nn.ReLU(inplace=True)]

    class Refine(nn.Module):
        """``relu(x + f(x))``; ``f`` starts at zero, so an added block changes nothing yet."""

        def __init__(self, channels: int) -> None:
            super().__init__()
            last = nn.BatchNorm2d(channels)
            self.body = nn.Sequential(*block(channels, channels, 1),
                                      nn.Conv2d(channels, channels, 3, 1, 1, bias=False), last)
            nn.init.zeros_(last.weight)

        def forward(self, x: Any) -> Any:
            return nn.functional.relu(x + self.body(x))

    return nn.Sequential(
        *block(3, 16, 2), *block(16, 32, 1),           # 48 x 32
        *block(32, 48, 2), *block(48, 48, 1),          # 24 x 16
        *block(48, 96, 2), *block(96, 96, 1),          # 12 x 8
        Refine(96),
        *block(96, 128, 2),                            # 6 x 4
        Refine(128),
        nn.Flatten(), nn.Dropout(0.2),
        nn.Linear(128 * (CROP_HEIGHT // 16) * (CROP_WIDTH // 16), len(CLASS_NAMES)),
    )


def load_weights(model: Any, state: dict[str, Any]) -> None:
    """Load a checkpoint's weights into :func:`build_network`'s model.

    A checkpoint of the earlier network without the refinement blocks loads too: its layers
    keep their order, and the blocks start as the identity, so the grown model reads exactly
    as the checkpoint did until training goes on.
    """
    refines = {int(key.split(".")[0]) for key in model.state_dict() if ".body." in key}
    if not any(".body." in key for key in state):  # the earlier network: renumber its layers
        plain = [i for i in range(len(model)) if i not in refines]
        renumbered = {}
        for key, value in state.items():
            index, rest = key.split(".", 1)
            if int(index) >= len(plain):
                raise ValueError(f"not a rank classifier checkpoint: no layer {index}")
            renumbered[f"{plain[int(index)]}.{rest}"] = value
        state = renumbered
    try:
        missing, unexpected = model.load_state_dict(state, strict=False)
    except RuntimeError as exc:  # a layer of another shape
        raise ValueError(f"not a rank classifier checkpoint: {exc}") from exc
    if unexpected or any(int(key.split(".")[0]) not in refines for key in missing):
        raise ValueError(f"not a rank classifier checkpoint: missing {missing}, "
                         f"unexpected {unexpected}")


@dataclass(frozen=True, slots=True)
class RankTrainConfig:
    """One classifier training run."""

    train: CropSet | Callable[[int], CropSet]
    """Training crops, or a function cutting each epoch's crops afresh from its number (new
    box disturbances every epoch: the boxes are seen as many different detectors' boxes)."""
    val: dict[str, CropSet] = field(default_factory=dict)
    """Held-out crops by name, scored after every epoch."""
    epochs: int = 6
    """Passes over the training crops (one-cycle learning-rate schedule)."""
    batch: int = 128
    """Crops per step."""
    lr: float = 0.003
    """Peak AdamW learning rate."""
    threads: int = 1
    """Torch threads."""
    device: str = "cpu"
    """Torch device the network trains and is scored on (``"cpu"``, ``"cuda"``, ``"cuda:1"``);
    the crops are cut, batched and disturbed on the CPU, and the checkpoints and the export are
    written from a CPU copy, the same files wherever it trained."""
    weights: Path | None = None
    """A classifier checkpoint to fine-tune from."""
    out: Path = Path("runs/ranks")
    """Run folder: ``last.pt``, ``history.json``."""
    export_to: Path = DEFAULT_CLASSIFIER
    """Where the ONNX model is written after training."""
    seed: int = 0
    """Shuffling and augmentation seed."""
    command: str = ""
    """The command that started the run (for the model card)."""


def _augment(batch: Any, generator: Any) -> Any:
    """Light photometric noise and a shift of up to 4 px: the crops already vary in geometry."""
    import torch

    n = batch.shape[0]
    gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 2
    bias = 0.1 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 2
    tint = 1 + 0.08 * (torch.rand(n, 3, 1, 1, generator=generator) - 0.5) * 2
    batch = (batch * gain * tint + bias).clamp(0, 1)
    dy, dx = (int(v) for v in torch.randint(-4, 5, (2,), generator=generator))
    return torch.roll(batch, shifts=(dy, dx), dims=(2, 3))


def _to_tensor(crops: NDArray[np.uint8]) -> Any:
    import torch

    return torch.from_numpy(crops_to_blob(crops))


def _accuracy(model: Any, crops: CropSet, *, device: str = "cpu", batch: int = 512) -> float:
    import torch

    model.eval()
    right = 0
    with torch.no_grad():
        for start in range(0, len(crops), batch):
            logits = model(_to_tensor(crops.crops[start:start + batch]).to(device))
            right += int((logits.argmax(1).cpu().numpy()
                          == crops.labels[start:start + batch]).sum())
    return right / max(len(crops), 1)


def _cpu_copy(model: Any) -> Any:
    """A copy of ``model`` on the CPU: checkpoints and exports are written from it, so they are
    the same files whatever device trained the model."""
    return copy.deepcopy(model).cpu()


def train_ranks(config: RankTrainConfig) -> Path:
    """Train, write ``last.pt`` and ``history.json`` to ``config.out``, export ONNX; its path."""
    import torch
    from torch import nn

    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    model = build_network()
    if config.weights is not None:
        load_weights(model, torch.load(config.weights, map_location="cpu")["model"])
    model.to(config.device)
    train = config.train
    draw: Callable[[int], CropSet] = train if callable(train) else lambda _: train
    crops = draw(0)
    steps_per_epoch = -(-len(crops) // config.batch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=config.lr, total_steps=config.epochs * steps_per_epoch,
        pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    config.out.mkdir(parents=True, exist_ok=True)
    history: list[dict[str, Any]] = []
    for epoch in range(config.epochs):
        started, total_loss = time.perf_counter(), 0.0
        if epoch:
            crops = draw(epoch)
        labels = torch.from_numpy(crops.labels)
        model.train()
        order = torch.randperm(len(crops), generator=generator).numpy()
        # The schedule counts the first epoch's steps; a later draw must not outrun it.
        for step in range(min(steps_per_epoch, -(-len(crops) // config.batch))):
            index = np.sort(order[step * config.batch:(step + 1) * config.batch])
            inputs = _augment(_to_tensor(crops.crops[index]), generator).to(config.device)
            loss = loss_fn(model(inputs), labels[index].to(config.device))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            schedule.step()
            total_loss += float(loss.detach())
        row = {"epoch": epoch + 1, "loss": round(total_loss / steps_per_epoch, 4),
               "seconds": round(time.perf_counter() - started, 1),
               **{f"{name}_accuracy": round(_accuracy(model, held_out, device=config.device), 4)
                  for name, held_out in config.val.items()}}
        history.append(row)
        print(json.dumps(row), flush=True)
        torch.save({"model": _cpu_copy(model).state_dict(), "history": history},
                   config.out / "last.pt")
        (config.out / "history.json").write_text(json.dumps(history, indent=1))
    out = export_classifier(_cpu_copy(model), config.export_to)
    write_classifier_card(out, command=config.command, history=history,
                          sizes={"training crops per epoch": len(crops),
                                 **{f"{k} held-out crops": len(v) for k, v in config.val.items()}})
    return out


def export_classifier(model: Any, out: Path) -> Path:
    """Write ``model`` as ONNX (dynamic batch) at ``out`` and its weights beside it (``.pt``)."""
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict()}, out.with_suffix(".pt"))
    example = torch.zeros(1, 3, CROP_HEIGHT, CROP_WIDTH)
    with warnings.catch_warnings():  # the TorchScript exporter announces its own retirement
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (example,), str(out), input_names=["crops"],
                          output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                          opset_version=17, dynamo=False)
    return out


def write_classifier_card(onnx: Path, *, command: str, history: list[dict[str, Any]],
                          sizes: dict[str, int]) -> Path:
    """Write ``<onnx>.md``: what the classifier is, its data, command, figures and date."""
    import datetime as dt

    card = onnx.with_suffix(".md")
    figures = {"per_epoch": history, "crops": sizes,
               "ms_per_32_crops_2_threads": round(
                   measure_speed(onnx, shape=(32, 3, CROP_HEIGHT, CROP_WIDTH)), 2),
               "onnx_mb": round(onnx.stat().st_size / 1e6, 2)}
    card.write_text(f"""# gouji rank classifier

`{onnx.name}`: the second stage of the cascade. Input `(n, 3, {CROP_HEIGHT}, {CROP_WIDTH})` float32
RGB in [0, 1]: each box of the one-class detector cut out by `vision.classifier.index_crops`
(the box plus {round(100 * CROP_MARGIN)} % on each side, turned upright when wider than tall, scaled to
fit without squashing, grey around). Output `(n, {len(CLASS_NAMES)})` logits over
{", ".join(CLASS_NAMES)}. `{onnx.with_suffix(".pt").name}`: the same weights for PyTorch
(`vision.rank_training.build_network`), the starting point for fine-tuning.

Exported {dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}.

## Data
Crops of every labelled box of the generated tiles (`gouji synth`), each box disturbed by up to
{round(100 * BOX_JITTER)} % of its size per side as a detector's box would be, plus the training
split of the real photos when `--real` is given. Held out: the synthetic set of `gouji eval`
(seed 999999, never trained on) and the held-out third of the real photos.

## Command
```
{command or "(not recorded)"}
```

## Figures
`*_accuracy`: share of held-out crops read right after each epoch.
```json
{json.dumps(figures, indent=1)}
```
""")
    return card
