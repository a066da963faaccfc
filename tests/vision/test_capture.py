"""Capture: files, folders, and live sources that fail and come back."""

from __future__ import annotations

from typing import ClassVar

import cv2
import numpy as np
import pytest

from vision import capture as capture_module
from vision.capture import frames


def _write_video(path, count, size=(64, 48), fps=20.0):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
    for i in range(count):
        writer.write(np.full((size[1], size[0], 3), i * 10 % 256, np.uint8))
    writer.release()
    return path


def test_video_file_frames_are_timestamped_by_position(tmp_path):
    capture = frames(_write_video(tmp_path / "clip.avi", 10))
    got = list(capture)
    assert [f.index for f in got] == list(range(10))
    assert [f.t for f in got] == pytest.approx([i / 20 for i in range(10)])
    assert capture.stats.frames == 10 and capture.stats.dropped == 0


def test_video_file_is_resized_and_thinned_to_the_wanted_rate(tmp_path):
    got = list(frames(_write_video(tmp_path / "clip.avi", 10), width=32, fps=10))
    assert [f.image.shape for f in got] == [(24, 32, 3)] * 5
    assert [f.t for f in got] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])


def test_folder_of_images_skips_and_counts_unreadable_files(tmp_path):
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.jpg"), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "2.jpg").write_bytes(b"\xff\xd8 truncated")
    (tmp_path / "notes.txt").write_text("not an image")
    capture = frames(tmp_path, fps=5, width=16, height=10)
    got = list(capture)
    assert [(f.index, f.t, f.image.shape) for f in got] == [
        (0, 0.0, (10, 16, 3)), (1, 0.2, (10, 16, 3)), (2, 0.6, (10, 16, 3))]
    assert capture.stats.dropped == 1 and "2.jpg" in capture.stats.last_error


@pytest.mark.parametrize(("content", "error"), [
    (None, FileNotFoundError),  # no such file
    ("garbage", ValueError),    # a file that is no video
])
def test_bad_files_give_clear_errors(tmp_path, content, error):
    path = tmp_path / "clip.mp4"
    if content is not None:
        path.write_text(content)
    with pytest.raises(error, match="clip.mp4"):
        list(frames(path))


class FakeCamera:
    """A cv2.VideoCapture stand-in following a script of reads; shared across reopenings."""

    script: ClassVar[list[bool]] = []
    opens: ClassVar[list[bool]] = []

    def __init__(self, source):
        self.ok = FakeCamera.opens.pop(0) if FakeCamera.opens else True

    def isOpened(self):
        return self.ok

    def set(self, prop, value):
        return True

    def read(self):
        if not FakeCamera.script:
            raise KeyboardInterrupt  # end of the test's script
        good = FakeCamera.script.pop(0)
        return (True, np.zeros((4, 4, 3), np.uint8)) if good else (False, None)

    def release(self):
        pass


@pytest.fixture
def camera(monkeypatch):
    monkeypatch.setattr(capture_module.cv2, "VideoCapture", FakeCamera)
    return FakeCamera


def test_a_lost_camera_is_reopened_with_back_off_and_reported(camera):
    # 2 frames, a lost camera (5 failed reads), 2 failed reopen attempts, then 3 frames.
    camera.script = [True, True] + [False] * 5 + [True] * 3
    camera.opens = [True, False, False, True]
    waits = []
    capture = frames(0, sleep=waits.append, backoff=(0.5, 8.0))
    got = []
    with pytest.raises(KeyboardInterrupt):
        for frame in capture:
            got.append(frame.index)
    assert got == [0, 1, 2, 3, 4]
    assert waits == [0.5, 1.0, 2.0]
    assert capture.stats.reconnects == 3 and capture.stats.dropped == 5
    assert any("lost camera" in e for e in capture.stats.events)
    assert "reopened 0 after 3 attempt(s)" in capture.stats.last_error


def test_a_few_bad_reads_do_not_count_as_a_lost_camera(camera):
    camera.script = [True, False, False, True]
    camera.opens = [True]
    capture = frames("0", sleep=lambda s: None)
    with pytest.raises(KeyboardInterrupt):
        list(capture)
    assert capture.stats.reconnects == 0 and capture.stats.dropped == 2 and capture.stats.frames == 2


def test_a_stream_that_never_comes_back_ends_after_max_reconnects(camera):
    camera.script = [True] + [False] * 5
    camera.opens = [True, False, False]
    capture = frames("rtsp://table.local/stream", sleep=lambda s: None, max_reconnects=2)
    assert [f.index for f in capture] == [0]
    assert "gave up" in capture.stats.last_error


def test_a_capture_says_while_a_camera_is_lost_and_why_it_ended(camera):
    # 1 frame, lost (5 bad reads), one failed reopen, 1 frame, lost again for good.
    camera.script = [True] + [False] * 5 + [True] + [False] * 5
    camera.opens = [True, False, True, False, False]
    lost_while_waiting = []
    capture = frames(0, max_reconnects=2,
                     sleep=lambda s: lost_while_waiting.append(capture.stats.lost_since))
    delivered = []
    for frame in capture:
        delivered.append((frame.index, capture.stats.lost_since))
    assert delivered == [(0, None), (1, None)]  # frames flow again: no longer lost
    assert len(lost_while_waiting) == 4 and None not in lost_while_waiting
    assert capture.stats.ended == "gave up on 0 after 2 reopen attempts"


def test_a_file_that_ends_says_so(tmp_path):
    path = _write_video(tmp_path / "clip.avi", 3)
    capture = frames(path)
    assert capture.stats.ended is None
    assert len(list(capture)) == 3
    assert capture.stats.ended == f"end of the video {path}" and capture.stats.lost_since is None


def test_a_camera_that_never_opens_is_not_left_trying_when_asked_not_to(camera):
    camera.opens = [False] * 3
    capture = frames("rtsp://table.local/stream", sleep=lambda s: None, max_reconnects=2)
    with pytest.raises(ValueError, match="cannot open camera or stream rtsp://table.local"):
        next(capture)
    assert capture.stats.ended == "cannot open camera or stream rtsp://table.local/stream"
    assert capture.stats.lost_since is not None
