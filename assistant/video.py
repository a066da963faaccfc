"""The live view: the latest annotated JPEG frame, handed from the pipeline thread to the pages."""

from __future__ import annotations

import threading

__all__ = ["FrameHub"]


class FrameHub:
    """Holds the newest encoded frame; the MJPEG endpoint sends each new one once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jpeg: bytes | None = None
        self._index = 0
        self.active = False
        """Whether a video source feeds this hub."""
        self.closed = False
        """Set when the server stops, to end the open streams."""

    def publish(self, jpeg: bytes) -> None:
        with self._lock:
            self._jpeg = jpeg
            self._index += 1

    def latest(self) -> tuple[int, bytes | None]:
        """``(number, jpeg)`` of the newest frame (number 0 and ``None`` before the first)."""
        with self._lock:
            return self._index, self._jpeg
