"""Spoken announcements: espeak-ng's Mandarin voice, rendered once per text into cached WAVs.

The server renders the files (pages only fetch them), so the browser needs no speech engine.
Without espeak-ng :attr:`Speaker.available` is false and the pages stay silent.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["MAX_TEXT", "Speaker"]

MAX_TEXT = 120
"""Longest text accepted for speech, in characters."""


class Speaker:
    """Turns short Chinese texts into WAV files under ``cache_dir``.

    Args:
        cache_dir: Folder of the WAV files, named by a hash of voice and text.
        voice: espeak-ng voice (``cmn`` is Mandarin).
        speed: Words per minute.
    """

    def __init__(self, cache_dir: Path, *, voice: str = "cmn", speed: int = 150) -> None:
        self.cache_dir = cache_dir
        self.voice = voice
        self.speed = speed
        self._program = shutil.which("espeak-ng")
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="speech")

    @property
    def available(self) -> bool:
        """Whether espeak-ng is installed."""
        return self._program is not None

    def path_for(self, text: str) -> Path:
        """Where the WAV of ``text`` is (or will be) cached."""
        key = hashlib.sha1(f"{self.voice}|{self.speed}|{text}".encode()).hexdigest()[:20]
        return self.cache_dir / f"{key}.wav"

    def render(self, text: str) -> Path:
        """The WAV of ``text``, rendered now unless cached.

        Raises:
            RuntimeError: espeak-ng is missing or failed.
            ValueError: the text is empty or too long.
        """
        text = text.strip()
        if not text or len(text) > MAX_TEXT:
            raise ValueError(f"speech text must have 1 to {MAX_TEXT} characters, got {len(text)}")
        if self._program is None:
            raise RuntimeError("espeak-ng is not installed")
        path = self.path_for(text)
        with self._lock:
            if path.exists():
                return path
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".part")
            # The text goes in as an argument after "--", never through a shell.
            subprocess.run([self._program, "-v", self.voice, "-s", str(self.speed),
                            "-w", str(partial), "--", text],
                           check=True, capture_output=True, timeout=20)
            partial.replace(path)  # readers never see a half-written file
        return path

    def prepare(self, text: str) -> None:
        """Render ``text`` in the background so the page's request finds it ready."""
        if self.available:
            self._worker.submit(self._render_quietly, text)

    def _render_quietly(self, text: str) -> None:
        try:
            self.render(text)
        except (RuntimeError, ValueError, OSError, subprocess.SubprocessError):
            pass  # the page's own request will report the failure

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)
