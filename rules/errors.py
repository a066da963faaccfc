"""Typed errors of the rules engine.

Every error is a :class:`GoujiError`, itself a :class:`ValueError`, so a command line handler
can report any of them as one line of bad input.

>>> issubclass(InvalidCardsError, GoujiError) and issubclass(GoujiError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "GoujiError",
    "IllegalEventError",
    "IllegalPlayError",
    "InvalidCardsError",
    "MalformedEventError",
    "UnknownRulesetError",
]


class GoujiError(ValueError):
    """Base class of every error raised by :mod:`rules`."""


class InvalidCardsError(GoujiError):
    """A card token that is not in the notation.

    Args:
        token: The offending token, exactly as written.
    """

    def __init__(self, token: str) -> None:
        super().__init__(f"invalid card token {token!r}")
        self.token = token


class UnknownRulesetError(GoujiError):
    """A ruleset name, alias or option that no preset defines."""


class MalformedEventError(GoujiError):
    """An event that is not an event: not an object, unknown type, missing or bad fields."""


class IllegalEventError(GoujiError):
    """A well-formed event that the rules do not allow in the current state.

    Args:
        reason: Which rule forbids it, in words.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalPlayError(IllegalEventError):
    """A play that is not a legal 一手牌, or that the current trick does not allow."""
