"""The live view: a video source runs through the pipeline into annotated JPEG frames."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest

from assistant.app import create_app
from assistant_helpers import LiveServer, make_settings
from tracker.table import TableLayout
from vision.detections import Detections


class NoCards:
    """A detector that sees an empty table (the model is not what is tested here)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __call__(self, image: np.ndarray) -> Detections:
        return Detections.empty()


def write_video(path: Path, frames: int = 18, size: tuple[int, int] = (320, 240)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), 12, size)
    for index in range(frames):
        image = np.full((size[1], size[0], 3), (40, 110, 40), np.uint8)
        cv2.circle(image, (20 + 10 * index, 120), 12, (255, 255, 255), -1)
        writer.write(image)
    writer.release()


def test_video_frames_reach_the_page_with_the_seat_zones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    write_video(video)
    TableLayout.default([(40, 20), (280, 20), (280, 220), (40, 220)], (320, 240)).save(table)
    app = create_app(make_settings(tmp_path, source=str(video), table=table, frame_rate=30))
    with LiveServer(app) as server, httpx.Client(base_url=server.url) as http:
        assert http.get("/api/info").json()["video"] is True
        deadline = time.monotonic() + 10
        while (frame := http.get("/api/frame.jpg")).status_code == 404:
            assert time.monotonic() < deadline, "no frame arrived"
            time.sleep(0.05)
        image = cv2.imdecode(np.frombuffer(frame.content, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (240, 320, 3)
        # the zones are drawn over the picture: seat 0's zone border is not table green
        assert (np.abs(image.astype(int) - (40, 110, 40)).sum(axis=2) > 120).any()
        with http.stream("GET", "/api/video.mjpg") as stream:
            assert stream.headers["content-type"].startswith("multipart/x-mixed-replace")
            received = b""
            for chunk in stream.iter_bytes():
                received += chunk
                if b"\xff\xd9" in received:
                    break
        assert received.startswith(b"--frame\r\nContent-Type: image/jpeg")
