"""Cutting the classifier's crops in several processes (no torch needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import index_crops
from vision.detector import read_image
from vision.evaluate import load_yolo_folder
from vision.rank_training import crop_set
from vision.synth import write_dataset


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("sets")
    write_dataset(root / "a", seed=5, count=3)
    write_dataset(root / "b", seed=6, count=2)
    return [root / "a", root / "b"]


def test_crops_are_the_same_whatever_the_number_of_workers(sets: list[Path]):
    one = crop_set(sets, seed=4, repeat=2, workers=1)
    two = crop_set(sets, seed=4, repeat=2, workers=2)
    assert np.array_equal(one.crops, two.crops) and np.array_equal(one.labels, two.labels)
    boxes = sum(len(item.class_id) for folder in sets for item in load_yolo_folder(folder))
    assert len(one) == 2 * boxes


def test_each_box_is_moved_by_the_seeds_draws_in_order(sets: list[Path]):
    # The disturbances are drawn image after image, repeat after repeat, from one generator:
    # the crops of a seed stay what they were before the cutting could run in processes.
    rng = np.random.default_rng(7)
    expected = []
    for item in load_yolo_folder(sets[0])[:2]:
        image = read_image(item.path)
        xyxy = item.truth(image.shape).xyxy
        size = np.repeat(xyxy[:, 2:] - xyxy[:, :2], 2, axis=0).reshape(-1, 4)
        for _ in range(2):
            expected.append(index_crops(image, xyxy + rng.uniform(-0.1, 0.1, xyxy.shape) * size))
    crops = crop_set(sets[:1], seed=7, jitter=0.1, repeat=2, limit=2, workers=2)
    assert np.array_equal(crops.crops, np.concatenate(expected))


def test_workers_must_be_at_least_one(sets: list[Path]):
    with pytest.raises(ValueError, match="workers"):
        crop_set(sets, seed=0, workers=0)
