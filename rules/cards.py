"""Cards and the card notation.

Ranks are ``3 4 5 6 7 8 9 T J Q K A 2`` plus ``SJ`` (小王/小花) and ``BJ`` (大王/大花); ``10`` is ``T``.
Tokens may be separated by spaces or commas, or run together. Suits never matter.

>>> format_cards(parse_cards("BJ BJ 555"))
'BJ BJ 555'
>>> format_cards(parse_cards("5 2 10 10 大王"))
'BJ 2TT5'
>>> parse_cards("22333") == parse_cards("3 3 2 3 2")
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from enum import IntEnum

from rules.errors import InvalidCardsError

__all__ = ["JOKERS", "NATURAL_RANKS", "Rank", "canonical_cards", "format_cards", "parse_cards"]


class Rank(IntEnum):
    """A card rank; the integer order is the play order 3 < … < A < 2 < 小王 < 大王."""

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    SMALL_JOKER = 16
    BIG_JOKER = 17

    @property
    def token(self) -> str:
        """The notation of the rank: ``'T'`` for ten, ``'SJ'``/``'BJ'`` for the jokers.

        >>> Rank.TEN.token, Rank.BIG_JOKER.token
        ('T', 'BJ')
        """
        return _TOKENS[self]

    @property
    def is_joker(self) -> bool:
        """True for 小王 and 大王."""
        return self >= Rank.SMALL_JOKER

    @classmethod
    def from_token(cls, token: str) -> Rank:
        """The rank of one token (``'10'``, ``'t'``, ``'大王'`` …).

        >>> Rank.from_token("10")
        <Rank.TEN: 10>
        """
        try:
            return _BY_TOKEN[token.upper()]
        except KeyError:
            raise InvalidCardsError(token) from None

    def __repr__(self) -> str:
        return f"<Rank.{self.name}: {self.value}>"


_TOKENS = {
    **{Rank(v): str(v) for v in range(3, 10)},
    Rank.TEN: "T", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
    Rank.TWO: "2", Rank.SMALL_JOKER: "SJ", Rank.BIG_JOKER: "BJ",
}
_BY_TOKEN: dict[str, Rank] = {
    **{token: rank for rank, token in _TOKENS.items()},
    "10": Rank.TEN,
    "小王": Rank.SMALL_JOKER, "小花": Rank.SMALL_JOKER, "小鬼": Rank.SMALL_JOKER,
    "大王": Rank.BIG_JOKER, "大花": Rank.BIG_JOKER, "大鬼": Rank.BIG_JOKER,
}
# Longest tokens first so that run-together text such as "10SJ大王" splits unambiguously.
_SCAN_TOKENS = sorted(_BY_TOKEN, key=len, reverse=True)

NATURAL_RANKS = tuple(Rank(v) for v in range(3, 15))
"""The ranks 3..A that 贴钱 and 挂花 can carry."""
JOKERS = (Rank.SMALL_JOKER, Rank.BIG_JOKER)
"""小王 and 大王."""


def _scan(chunk: str) -> list[Rank]:
    ranks: list[Rank] = []
    upper = chunk.upper()
    i = 0
    while i < len(upper):
        for token in _SCAN_TOKENS:
            if upper.startswith(token, i):
                ranks.append(_BY_TOKEN[token])
                i += len(token)
                break
        else:
            # Name the smallest bad piece: one character, or "1" not followed by "0".
            raise InvalidCardsError(chunk[i])
    return ranks


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> tuple[Rank, ...]:
    ranks: list[Rank] = []
    for chunk in text.replace(",", " ").split():
        ranks.extend(_scan(chunk))
    return tuple(sorted(ranks, reverse=True))


def parse_cards(cards: str | Iterable[str | Rank]) -> tuple[Rank, ...]:
    """Parse cards in the notation; the result is sorted high to low.

    Args:
        cards: Text such as ``"BJ BJ 555"`` or ``"22333"``, or an iterable of tokens or ranks.

    Returns:
        The ranks, highest first.

    Raises:
        InvalidCardsError: A token is not a card; the error names it.

    >>> parse_cards("T 10 J")
    (<Rank.JACK: 11>, <Rank.TEN: 10>, <Rank.TEN: 10>)
    >>> parse_cards("55X")
    Traceback (most recent call last):
    ...
    rules.errors.InvalidCardsError: invalid card token 'X'
    """
    if isinstance(cards, str):
        return _parse_text(cards)
    ranks = [c if isinstance(c, Rank) else Rank.from_token(c) for c in cards]
    return tuple(sorted(ranks, reverse=True))


def format_cards(cards: Iterable[Rank]) -> str:
    """Canonical notation: jokers as separate tokens, then the other ranks run together.

    >>> format_cards([Rank.FIVE, Rank.BIG_JOKER, Rank.TWO, Rank.SMALL_JOKER])
    'BJ SJ 25'
    >>> format_cards([])
    ''
    """
    ranks = sorted(cards, reverse=True)
    jokers = [r.token for r in ranks if r.is_joker]
    rest = "".join(r.token for r in ranks if not r.is_joker)
    return " ".join(jokers + ([rest] if rest else []))


@functools.lru_cache(maxsize=8192)
def canonical_cards(text: str) -> str:
    """The canonical notation of ``text`` (cached: event logs repeat the same plays).

    >>> canonical_cards("10 10 2 bj")
    'BJ 2TT'
    """
    return format_cards(parse_cards(text))
