"""The live view: the latest annotated JPEG frame, handed from the pipeline thread to the pages,
and how the camera behind it is doing."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from assistant.schemas import CameraOut, CameraStatus
from vision.capture import CaptureStats
from vision.stabilize import StabilizerStats

if TYPE_CHECKING:   # the pipeline loads ONNX Runtime: only when a source is given
    from assistant.pipeline import PipelineStats

__all__ = ["FrameHub"]


class FrameHub:
    """Holds the newest encoded frame; the MJPEG endpoint sends each new one once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jpeg: bytes | None = None
        self._index = 0
        self.source: str | None = None
        """The video source feeding this hub (``None``: none, events come from the operator)."""
        self.capture: CaptureStats | None = None
        """The counters of that source's capture, updated by the pipeline thread."""
        self.pipeline: PipelineStats | None = None
        """The pipeline's figures, updated by its thread: how the camera moved, whether the
        zones are too small to read well."""
        self.view: NDArray[np.uint8] | None = None
        """The newest frame shown, as the pipeline saw it (in the table file's pixels, held to
        its view) and without the zones drawn: kept with the zones when they are saved."""
        self.closed = False
        """Set when the server stops, to end the open streams."""

    @property
    def active(self) -> bool:
        """Whether a video source feeds this hub."""
        return self.source is not None

    def publish(self, jpeg: bytes) -> None:
        with self._lock:
            self._jpeg = jpeg
            self._index += 1

    def latest(self) -> tuple[int, bytes | None]:
        """``(number, jpeg)`` of the newest frame (number 0 and ``None`` before the first)."""
        with self._lock:
            return self._index, self._jpeg

    def camera(self) -> CameraOut:
        """How the source is doing, for the pages: delivering, lost (since when), or ended;
        how often the camera was bumped; and whether the zones are too small to read well."""
        stats = self.capture
        if self.source is None or stats is None:
            return CameraOut(source=self.source, status="none" if self.source is None else "opening")
        lost_for = None if stats.lost_since is None else time.monotonic() - stats.lost_since
        status: CameraStatus = "live" if stats.frames else "opening"
        motion = (self.pipeline and self.pipeline.camera_motion) or StabilizerStats()
        message = motion.message
        if stats.ended is not None:
            status, message = "ended", stats.ended
        elif lost_for is not None:
            status, message = "lost", stats.last_error
        return CameraOut(source=self.source, status=status, frames=stats.frames,
                         dropped=stats.dropped, reconnects=stats.reconnects,
                         lost_for=None if lost_for is None else round(lost_for, 1),
                         moves=motion.moves, shift=round(motion.pose.shift, 1),
                         turn=motion.pose.turn, unfollowed=motion.unfollowed, message=message,
                         zones_warning=self.pipeline.zones_warning if self.pipeline else None)
