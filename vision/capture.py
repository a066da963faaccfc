"""Frames from a camera, a video file, a network stream or a folder of images.

:func:`frames` opens any of these and yields :class:`Frame` values (BGR image, timestamp in
seconds, running index). Broken input never raises out of the loop: a frame that cannot be
decoded is skipped and counted, and a live source (webcam or stream) that stops delivering is
reopened with exponential back-off, each attempt counted in :class:`CaptureStats`.

>>> import numpy as np, cv2, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> for i in range(3):
...     _ = cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((4, 6, 3), i, np.uint8))
>>> _ = (folder / "003.png").write_bytes(b"not a png")
>>> capture = frames(folder, fps=10)
>>> [(f.index, f.t, f.image.shape) for f in capture]
[(0, 0.0, (4, 6, 3)), (1, 0.1, (4, 6, 3)), (2, 0.2, (4, 6, 3))]
>>> capture.stats.frames, capture.stats.dropped
(3, 1)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["IMAGE_SUFFIXES", "Capture", "CaptureStats", "Frame", "frames"]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES: frozenset[str] = frozenset(
    {".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"})
"""File name endings read as images when the source is a folder."""

_STREAM_SCHEMES = ("rtsp://", "rtsps://", "rtmp://", "http://", "https://", "udp://", "tcp://")


@dataclass(frozen=True, slots=True)
class Frame:
    """One captured image."""

    image: NDArray[np.uint8]
    """BGR pixels, shape ``(height, width, 3)``."""
    t: float
    """Seconds since the start of the source: the video position for files and image folders,
    the wall clock since opening for live sources."""
    index: int
    """Running number of the delivered frames, from 0 (skipped frames get no number)."""


@dataclass(slots=True)
class CaptureStats:
    """Running counters of a capture, updated while it is iterated."""

    frames: int = 0
    """Frames delivered."""
    dropped: int = 0
    """Frames skipped because they could not be read or decoded."""
    reconnects: int = 0
    """Times a live source was reopened after it stopped delivering."""
    last_error: str | None = None
    """The most recent problem, in words (``None`` while all is well)."""
    events: list[str] = field(default_factory=list)
    """Every reported problem, oldest first (drops, losses, reopen attempts)."""
    lost_since: float | None = None
    """``time.monotonic()`` when a live source failed to open or stopped delivering; ``None``
    while it delivers (and for files and folders)."""
    ended: str | None = None
    """Why the capture stopped, in words (the video's end, given up, undecodable); ``None``
    while it runs."""

    def report(self, message: str) -> None:
        """Record a problem and log it as a warning."""
        self.last_error = message
        self.events.append(message)
        log.warning(message)


def _is_live(source: int | str | Path) -> bool:
    return isinstance(source, int) or str(source).lower().startswith(_STREAM_SCHEMES)


def _parse_source(source: int | str | Path) -> int | str | Path:
    """A digit string is a webcam index; everything else keeps its type."""
    if isinstance(source, str) and source.isdigit():
        return int(source)
    return source


class Capture:
    """An iterator of :class:`Frame` over one source; build it with :func:`frames`.

    Iterating it more than once continues where it stopped. :attr:`stats` is updated as frames
    are read; :meth:`close` releases the device (it is also released when iteration ends).
    """

    def __init__(self, source: int | str | Path, *, width: int | None = None,
                 height: int | None = None, fps: float | None = None,
                 max_reconnects: int | None = None, backoff: tuple[float, float] = (0.5, 8.0),
                 sleep: Callable[[float], None] = time.sleep) -> None:
        """Open ``source`` lazily.

        Args:
            source: a webcam index (``0`` or ``"0"``), a video file, an RTSP/HTTP(S) URL, or a
                folder of images read in name order.
            width: frame width wanted; webcams are asked for it, other frames are resized to it.
            height: frame height wanted, as ``width``.
            fps: frame rate wanted from a webcam; for an image folder, the rate that sets the
                timestamps (default 25); for a file, a rate lower than the file's drops frames
                evenly to reach it.
            max_reconnects: give up a lost live source after this many failed reopen attempts in a
                row (``None``: keep trying for ever, as a camera assistant should).
            backoff: first and longest wait in seconds between reopen attempts; doubled each try.
            sleep: the waiting function (tests pass a fake one).
        """
        self.source = _parse_source(source)
        self.width, self.height, self.fps = width, height, fps
        self.max_reconnects = max_reconnects
        self.backoff = backoff
        self.stats = CaptureStats()
        self._sleep = sleep
        self._iterator: Iterator[Frame] | None = None
        self._capture: cv2.VideoCapture | None = None
        if not _is_live(self.source):
            path = Path(str(self.source))
            if not path.exists():
                raise FileNotFoundError(f"no such video file or image folder: {path}")

    @property
    def live(self) -> bool:
        """Whether the source is a camera or a stream, which delivers frames at its own pace
        (a file or a folder is read as fast as it is asked)."""
        return _is_live(self.source)

    def __iter__(self) -> Iterator[Frame]:
        return self

    def __next__(self) -> Frame:
        if self._iterator is None:
            self._iterator = self._generate()
        return next(self._iterator)

    def close(self) -> None:
        """Release the device or file."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- sources ---------------------------------------------------------------------------

    def _generate(self) -> Iterator[Frame]:
        try:
            if isinstance(self.source, Path | str) and Path(self.source).is_dir():
                yield from self._from_folder(Path(self.source))
                self.stats.ended = f"end of the image folder {self.source}"
            elif _is_live(self.source):
                yield from self._from_live()
            else:
                yield from self._from_file()
                self.stats.ended = f"end of the video {self.source}"
        except ValueError as exc:
            self.stats.ended = str(exc)
            raise
        finally:
            self.close()

    def _emit(self, image: NDArray[Any], t: float) -> Frame:
        """A frame of ``image`` as decoded (8-bit grey, BGR or BGRA), made BGR at the wanted
        size."""
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        size = self._output_size(image.shape[1], image.shape[0])
        if size != (image.shape[1], image.shape[0]):
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        frame = Frame(image=np.asarray(image, np.uint8), t=round(t, 6), index=self.stats.frames)
        self.stats.frames += 1
        return frame

    def _output_size(self, w: int, h: int) -> tuple[int, int]:
        """The wanted size; a single given side keeps the aspect ratio."""
        if self.width and self.height:
            return self.width, self.height
        if self.width:
            return self.width, round(h * self.width / w)
        if self.height:
            return round(w * self.height / h), self.height
        return w, h

    def _from_folder(self, folder: Path) -> Iterator[Frame]:
        paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        period = 1.0 / (self.fps or 25.0)
        for position, path in enumerate(paths):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.stats.dropped += 1
                self.stats.report(f"skipped unreadable image {path.name}")
                continue
            yield self._emit(image, position * period)

    def _from_file(self) -> Iterator[Frame]:
        self._capture = cv2.VideoCapture(str(self.source))
        if not self._capture.isOpened():
            raise ValueError(f"cannot open video {self.source}: not a video OpenCV can decode")
        native = self._capture.get(cv2.CAP_PROP_FPS) or 25.0
        total = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        step = native / self.fps if self.fps and self.fps < native else 1.0
        position, next_kept = 0, 0.0
        while True:
            ok = self._capture.grab()
            if not ok:
                # Past the announced end: the file is done. Before it: a broken frame, skip it.
                if total <= 0 or position >= total - 1:
                    return
                self.stats.dropped += 1
                self.stats.report(f"skipped unreadable frame {position} of {self.source}")
                position += 1
                if self.stats.dropped > max(25, total // 2):
                    raise ValueError(f"video {self.source} is mostly unreadable")
                continue
            if position >= next_kept:
                ok, image = self._capture.retrieve()
                if ok and image is not None:
                    yield self._emit(image, position / native)
                else:
                    self.stats.dropped += 1
                    self.stats.report(f"skipped undecodable frame {position} of {self.source}")
                next_kept += step
            position += 1

    def _open_live(self) -> bool:
        self.close()
        # OpenCV logs each backend it tries in vain over several lines, at every attempt: the
        # capture reports the failure itself, in one line.
        log_level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            capture = cv2.VideoCapture(self.source)
        finally:
            cv2.utils.logging.setLogLevel(log_level)
        if not capture.isOpened():
            capture.release()
            return False
        if isinstance(self.source, int):
            # Only the newest picture matters: frames queued in the driver are latency.
            capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
            if self.width:
                capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            if self.height:
                capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
            if self.fps:
                capture.set(cv2.CAP_PROP_FPS, self.fps)
        self._capture = capture
        return True

    def _from_live(self) -> Iterator[Frame]:
        start = time.monotonic()
        if not self._open_live():
            self._lost(f"cannot open camera or stream {self.source}")
            if not self._reopen():
                raise ValueError(f"cannot open camera or stream {self.source}")
        failures_in_row = 0
        while True:
            assert self._capture is not None
            ok, image = self._capture.read()
            if ok and image is not None and image.size:
                failures_in_row = 0
                self.stats.lost_since = None
                yield self._emit(image, time.monotonic() - start)
                continue
            failures_in_row += 1
            self.stats.dropped += 1
            # A few bad reads happen on any network stream; several in a row mean it is gone.
            if failures_in_row < 5:
                continue
            self._lost(f"lost camera or stream {self.source}; reopening")
            if not self._reopen():
                return
            failures_in_row = 0

    def _lost(self, message: str) -> None:
        """The live source stopped delivering (or never did): from now, until a frame comes."""
        self.stats.lost_since = time.monotonic()
        self.stats.report(message)

    def _reopen(self) -> bool:
        """Reopen the live source with exponential back-off; False once the attempts run out."""
        wait, longest = self.backoff
        attempts = 0
        while self.max_reconnects is None or attempts < self.max_reconnects:
            self._sleep(wait)
            attempts += 1
            self.stats.reconnects += 1
            if self._open_live():
                self.stats.report(f"reopened {self.source} after {attempts} attempt(s)")
                return True
            wait = min(wait * 2, longest)
        self.stats.ended = f"gave up on {self.source} after {attempts} reopen attempts"
        self.stats.report(self.stats.ended)
        return False


def frames(source: int | str | Path, *, width: int | None = None, height: int | None = None,
           fps: float | None = None, **options: object) -> Capture:
    """Open a source of frames; iterate the result for :class:`Frame` values.

    Args:
        source: a webcam index (``0`` or ``"0"``), a video file, an ``rtsp://``/``http://``
            stream, or a folder of images.
        width: wanted frame width (see :class:`Capture`).
        height: wanted frame height.
        fps: wanted frame rate (see :class:`Capture`).
        **options: passed on to :class:`Capture` (``max_reconnects``, ``backoff``, ``sleep``).

    Raises:
        FileNotFoundError: a file or folder source does not exist.
        ValueError: a file cannot be decoded as video (raised on the first ``next``).
    """
    return Capture(source, width=width, height=height, fps=fps, **options)  # type: ignore[arg-type]
