"""The one list of detector classes.

Class ids are positions in :data:`CLASS_NAMES`; the names are the card notation of
``rules`` (``T`` for ten, ``SJ``/``BJ`` for the jokers) plus ``back`` for a face-down card.

>>> CLASS_NAMES[0], CLASS_NAMES[7], CLASS_NAMES[-1]
('3', 'T', 'back')
>>> class_id("BJ")
14
"""

from __future__ import annotations

CLASS_NAMES: tuple[str, ...] = (
    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ", "back",
)
"""Detector classes in id order: 13 ranks low to high, the two jokers, then ``back``."""

BACK_CLASS_ID: int = CLASS_NAMES.index("back")
"""Class id of a face-down card."""

_IDS = {name: index for index, name in enumerate(CLASS_NAMES)}


def class_id(name: str) -> int:
    """Return the class id of a card name (``"10"`` is accepted for ``"T"``)."""
    key = "T" if name == "10" else name if name in _IDS else name.upper()
    try:
        return _IDS[key]
    except KeyError:
        raise ValueError(f"unknown card class {name!r}; expected one of {CLASS_NAMES}") from None
