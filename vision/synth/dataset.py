"""Write generated scenes as a YOLO dataset, reproducibly from a seed.

Scene ``i`` of seed ``s`` depends only on ``(s, i)`` (and its chunk's deck styles, drawn from
``(s, chunk)``), so a dataset is the same whatever the number of worker processes, and a
prefix of a larger dataset equals the smaller one.

Layout written under ``out``::

    images/000000.jpg ...  labels/000000.txt ...  plays/000000.txt ...  hidden/000000.txt ...
    data.yaml

``plays/`` gives, line by line with ``labels/``, the play of the scene each card belongs to
(0, 1, ... in the order they were laid; ``NO_PLAY`` for a card of a pile or a gathered stack);
``hidden/`` holds YOLO lines of the cards in view but too hidden to be labelled. ``gouji eval``
judges each play apart by them. ``data.yaml`` points both ``train`` and ``val`` at
``images`` and lists the class names; train and held-out sets are separate directories written
from different seeds.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASS_NAMES
from vision.synth.cards import DECK_STYLES, DeckStyle, random_deck_style
from vision.synth.labels import hidden_lines, yolo_lines
from vision.synth.scene import Scene, SceneConfig, generate_scene

__all__ = ["CHUNK", "DatasetSummary", "chunk_styles", "dataset_scene", "write_dataset"]

CHUNK = 250
"""Scenes per chunk: each chunk draws its own deck styles (bounded face cache, many designs)."""
_STYLES_PER_CHUNK = 6
_STYLE_STREAM = 1_000_003  # keeps the style streams apart from the per-scene streams


@dataclass(frozen=True, slots=True)
class DatasetSummary:
    """What :func:`write_dataset` wrote."""

    path: Path
    """Dataset root (holds ``data.yaml``)."""
    images: int
    """Number of images."""
    boxes: int
    """Number of labelled cards."""
    per_class: tuple[int, ...]
    """Labelled cards per class, in :data:`vision.classes.CLASS_NAMES` order."""


def chunk_styles(seed: int, chunk: int) -> list[DeckStyle]:
    """Deck styles of one chunk of a dataset: fresh random ones, sometimes a named one."""
    rng = np.random.default_rng([seed, _STYLE_STREAM, chunk])
    styles = [random_deck_style(rng, name=f"s{seed}-c{chunk}-{k}")
              for k in range(_STYLES_PER_CHUNK)]
    styles.append(DECK_STYLES[int(rng.integers(0, len(DECK_STYLES)))])
    return styles


def dataset_scene(seed: int, index: int, config: SceneConfig | None = None,
                  styles: Sequence[DeckStyle] | None = None) -> Scene:
    """Scene ``index`` of the dataset of ``seed``, as :func:`write_dataset` writes it (before
    JPEG), with all it knows beyond the label files; ``styles``: its chunk's, when known."""
    return generate_scene(np.random.default_rng([seed, index]), config,
                          styles if styles is not None else chunk_styles(seed, index // CHUNK))


def _write_chunk(out: Path, seed: int, chunk: int, start: int, stop: int, config: SceneConfig,
                 quality: int) -> list[int]:
    styles = chunk_styles(seed, chunk)
    counts = [0] * len(CLASS_NAMES)
    for i in range(start, stop):
        scene = dataset_scene(seed, i, config, styles)
        name = f"{i:06d}"
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), scene.image,
                    [cv2.IMWRITE_JPEG_QUALITY, quality])
        lines = yolo_lines(scene.cards, scene.image.shape[:2])
        (out / "labels" / f"{name}.txt").write_text("".join(f"{line}\n" for line in lines))
        (out / "plays" / f"{name}.txt").write_text("".join(f"{play}\n" for play in scene.plays))
        hidden = hidden_lines(scene.cards, scene.image.shape[:2])
        (out / "hidden" / f"{name}.txt").write_text("".join(f"{line}\n" for line in hidden))
        for class_id in scene.class_ids:
            counts[int(class_id)] += 1
    return counts


def write_dataset(out: str | os.PathLike[str], *, seed: int, count: int,
                  config: SceneConfig | None = None, workers: int = 1,
                  quality: int = 92) -> DatasetSummary:
    """Generate ``count`` scenes from ``seed`` and write them as a YOLO dataset under ``out``.

    Args:
        out: dataset directory (created; existing files of the same names are overwritten).
        seed: dataset seed; scene ``i`` uses ``(seed, i)``.
        count: number of images.
        config: scene distribution (default :class:`SceneConfig`).
        workers: processes to generate with (the result does not depend on it).
        quality: JPEG quality of the written images.

    Raises:
        ValueError: for a negative count or fewer than one worker.
    """
    if count < 0 or workers < 1:
        raise ValueError(
            f"count must be >= 0 and workers >= 1, got count={count}, workers={workers}")
    root = Path(out)
    (root / "images").mkdir(parents=True, exist_ok=True)
    (root / "labels").mkdir(parents=True, exist_ok=True)
    (root / "plays").mkdir(parents=True, exist_ok=True)
    (root / "hidden").mkdir(parents=True, exist_ok=True)
    config = config or SceneConfig()
    jobs = [(root, seed, c, c * CHUNK, min((c + 1) * CHUNK, count), config, quality)
            for c in range((count + CHUNK - 1) // CHUNK)]
    if workers == 1 or len(jobs) <= 1:
        results = [_write_chunk(*job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_write_chunk, *zip(*jobs)))
    per_class = tuple(int(sum(r[k] for r in results)) for k in range(len(CLASS_NAMES)))
    names = "\n".join(f"  {k}: '{name}'" for k, name in enumerate(CLASS_NAMES))
    (root / "data.yaml").write_text(
        f"# gouji synthetic cards: seed {seed}, {count} images\n"
        f"path: {root.resolve()}\ntrain: images\nval: images\nnames:\n{names}\n")
    return DatasetSummary(root, count, sum(per_class), per_class)
