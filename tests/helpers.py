"""Builders shared by the tests of several packages."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray


def checked_cloth(size: tuple[int, int], *, square: int = 20) -> NDArray[np.uint8]:
    """A green checked table cloth of ``size`` (width, height), its pattern repeating every
    ``2 * square`` pixels (a camera moved by that much looks unmoved to one picture), lit
    brighter towards the upper left: no pure red or blue anywhere (the test detectors' cards)."""
    width, height = size
    y, x = np.mgrid[0:height, 0:width]
    checks = (((x // square) + (y // square)) % 2).astype(np.float32)
    image = np.stack([60 + 50 * checks, 120 + 40 * checks, 70 + 30 * checks], axis=-1)
    image *= (1 + 0.25 * np.exp(-((x - 0.4 * width) ** 2 + (y - 0.4 * height) ** 2)
                                / (0.15 * width * width)))[..., None]
    return np.clip(image, 0, 255).astype(np.uint8)


def camera_pose(size: tuple[int, int], dx: float, dy: float, turn: float = 0.0
                ) -> NDArray[np.float64]:
    """The pose (3×3: calibrated view → camera frame) of a camera whose picture moved by
    ``dx, dy`` pixels and turned by ``turn`` degrees (clockwise on screen) about its centre."""
    matrix = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), -turn, 1.0)
    matrix[:, 2] += (dx, dy)
    return np.vstack([matrix, [0, 0, 1]])


def filmed(image: NDArray[np.uint8], pose: NDArray[np.float64]) -> NDArray[np.uint8]:
    """``image`` as a camera at ``pose`` films it (the uncovered edge repeats the border)."""
    height, width = image.shape[:2]
    return np.asarray(cv2.warpAffine(image, pose[:2], (width, height),
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def write_bumped_video(path: Path, *, size: tuple[int, int] = (640, 480), frames: int = 60,
                       fps: float = 12, bump_at: int = 15, shift: tuple[float, float] = (14, 8),
                       cloth: NDArray[np.uint8] | None = None) -> None:
    """A video of an empty table (``cloth``, by default a checked one) whose camera is bumped
    by ``shift`` over the three frames from ``bump_at`` on, and stays there."""
    if cloth is None:
        cloth = checked_cloth(size, square=max(8, size[0] // 32))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
    for index in range(frames):
        done = min(max(index - bump_at + 1, 0) / 3, 1.0)
        writer.write(filmed(cloth, camera_pose(size, shift[0] * done, shift[1] * done)))
    writer.release()
