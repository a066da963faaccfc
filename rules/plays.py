"""Plays (一手牌): classification, 够级牌, 开点 and comparison under a ruleset.

A play is N cards of one natural rank (3..A), plus X twos, Y small and Z big jokers. Twos played
with a natural rank count as that rank (贴钱); a play with jokers is 挂花: "Y+Z jokers carrying
N+X cards of rank r".

>>> Play.parse("22333")
Play.parse('22333')
>>> Play.parse("22333").effective_rank
<Rank.THREE: 3>
>>> beats("99999", "22888")           # 5 nines beat 2 twos + 3 eights (= 5 eights)
True
>>> beats("BJ BJ TTT", "SJ SJ 999"), beats("BJ BJ 888", "SJ SJ 999")
(True, False)
>>> classify("2TTTT").gouji, classify("TTTT").gouji
(True, False)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from rules.cards import Rank, format_cards, parse_cards
from rules.errors import GoujiError, IllegalPlayError
from rules.ruleset import Ruleset, load_ruleset

__all__ = [
    "Classification",
    "Play",
    "beats",
    "classify",
    "is_gouji",
    "opens",
    "verify_beats",
    "verify_legal",
]

_COUNT_WORDS = {Rank.TEN: "10", Rank.SMALL_JOKER: "小花", Rank.BIG_JOKER: "大花"}


@dataclass(frozen=True, slots=True)
class Play:
    """One play, reduced to what the rules look at (suits never matter)."""

    rank: Rank | None
    """The natural rank 3..A of the plain cards; ``None`` when there are none."""
    naturals: int
    """Number of cards of ``rank``."""
    twos: int
    """Number of 2s (钱)."""
    small_jokers: int
    """Number of 小王 (小花)."""
    big_jokers: int
    """Number of 大王 (大花)."""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Plays key every per-ruleset cache; hashing them once keeps replay fast.
        object.__setattr__(self, "_hash", hash((self.rank, self.naturals, self.twos,
                                                self.small_jokers, self.big_jokers)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, cards: str) -> Play:
        """Parse a play from the notation.

        Raises:
            InvalidCardsError: A token is not a card.
            IllegalPlayError: No cards, or more than one natural rank.

        >>> Play.parse("BJ 2 5 5")
        Play.parse('BJ 255')
        >>> Play.parse("5556")
        Traceback (most recent call last):
        ...
        rules.errors.IllegalPlayError: mixed ranks 6 and 5 are not one play
        """
        return _parse_play(cards)

    @property
    def count(self) -> int:
        """Number of cards."""
        return self.naturals + self.twos + self.small_jokers + self.big_jokers

    @property
    def jokers(self) -> int:
        """Number of jokers (挂花 when > 0)."""
        return self.small_jokers + self.big_jokers

    @property
    def carried(self) -> int:
        """Number of non-joker cards (naturals and twos)."""
        return self.naturals + self.twos

    @property
    def carried_rank(self) -> Rank | None:
        """Rank of the non-joker cards after 贴钱: the natural rank, else 2; None for jokers only."""
        if self.naturals:
            return self.rank
        return Rank.TWO if self.twos else None

    @property
    def effective_rank(self) -> Rank:
        """The rank the play counts as: the carried rank, else the jokers' rank (mixed → 小花)."""
        carried = self.carried_rank
        if carried is not None:
            return carried
        return Rank.SMALL_JOKER if self.small_jokers else Rank.BIG_JOKER

    @property
    def is_threes(self) -> bool:
        """Only 3s (the 憋三 final play)."""
        return self.rank is Rank.THREE and self.count == self.naturals

    @property
    def cards(self) -> tuple[Rank, ...]:
        """The cards, highest first."""
        natural = (self.rank,) * self.naturals if self.rank is not None else ()
        return ((Rank.BIG_JOKER,) * self.big_jokers + (Rank.SMALL_JOKER,) * self.small_jokers
                + (Rank.TWO,) * self.twos + natural)

    @property
    def description(self) -> str:
        """中文 name, e.g. ``5张10`` or ``2小花带6个5``.

        >>> Play.parse("BJ SJ 225555").description
        '1大花1小花带6个5'
        """
        carried = self.carried_rank
        carried_text = f"{self.carried}个{_word(carried)}" if carried is not None else ""
        if not self.jokers:
            return f"{self.carried}张{_word(carried)}" if carried is not None else ""
        parts = [f"{n}{_word(r)}" for n, r in ((self.big_jokers, Rank.BIG_JOKER),
                                               (self.small_jokers, Rank.SMALL_JOKER)) if n]
        return "".join(parts) + (f"带{carried_text}" if carried_text else "")

    def __str__(self) -> str:
        return _play_text(self)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


@functools.lru_cache(maxsize=8192)
def _play_text(play: Play) -> str:
    return format_cards(play.cards)


def _word(rank: Rank | None) -> str:
    return _COUNT_WORDS.get(rank, rank.token) if rank is not None else ""


@functools.lru_cache(maxsize=8192)
def _parse_play(text: str) -> Play:
    ranks = parse_cards(text)
    if not ranks:
        raise IllegalPlayError("a play needs at least one card")
    natural: Rank | None = None
    naturals = twos = small = big = 0
    for rank in ranks:
        if rank is Rank.BIG_JOKER:
            big += 1
        elif rank is Rank.SMALL_JOKER:
            small += 1
        elif rank is Rank.TWO:
            twos += 1
        elif natural is None or rank is natural:
            natural = rank
            naturals += 1
        else:
            raise IllegalPlayError(f"mixed ranks {natural.token} and {rank.token} are not one play")
    return Play(natural, naturals, twos, small, big)


def _as_play(cards: str | Play) -> Play:
    return cards if isinstance(cards, Play) else _parse_play(cards)


def verify_legal(play: Play, ruleset: Ruleset) -> None:
    """Raise :class:`IllegalPlayError` if ``play`` can never be played under ``ruleset``."""
    if ruleset.threes_last and play.rank is Rank.THREE and not play.is_threes:
        raise IllegalPlayError("憋三: 3s leave a hand only all together, with nothing else")


@functools.lru_cache(maxsize=65536)
def is_gouji(play: Play, ruleset: Ruleset) -> bool:
    """Whether ``play`` is a 够级牌 under ``ruleset``.

    >>> qd = load_ruleset("qingdao")
    >>> [is_gouji(Play.parse(c), qd) for c in ("TTTTT", "JJJ", "2", "SJ 55", "99999999")]
    [True, False, True, True, False]
    """
    if play.jokers and (ruleset.guahua_is_gouji or play.carried == 0):
        return True
    need = ruleset.gouji_threshold(play.effective_rank)
    return need > 0 and play.count >= need


def opens(play: Play, ruleset: Ruleset, *, answering_gouji: bool = False) -> bool:
    """Whether winning the lead with ``play`` is 开点 (the play must be gouji).

    Args:
        play: The play that won the lead.
        ruleset: The ruleset (its ``kaidian_excludes``).
        answering_gouji: The play answered a gouji play (irvine: then a 2 opens).

    >>> qd, h = load_ruleset("qingdao"), load_ruleset("house196")
    >>> opens(Play.parse("BJ"), qd), opens(Play.parse("SJ"), qd), opens(Play.parse("SJ"), h)
    (False, True, False)
    """
    if not is_gouji(play, ruleset):
        return False
    excludes = ruleset.kaidian_excludes
    if play.big_jokers and "big_joker" in excludes:
        return False
    if play.jokers and "joker" in excludes:
        return False
    if play.twos and play.count == 1 and "single_two" in excludes:
        return False
    if play.twos and "two" in excludes:
        return False
    return not (play.twos and "two_unless_answer" in excludes and not answering_gouji)


def _rest_covers(spare_jokers: int, answer: Play, led_rest: int, led_rank: Rank | None) -> bool:
    """Spare answer jokers plus the answer's carried cards cover the led carried cards 1:1."""
    if spare_jokers + answer.carried != led_rest:
        return False
    if answer.carried == 0:
        return True
    assert answer.carried_rank is not None and led_rank is not None
    return answer.carried_rank > led_rank


def _positional(answer: Play, led: Play, ruleset: Ruleset) -> bool:
    led_big, led_small = led.big_jokers, led.small_jokers
    if ruleset.mixed_jokers_as_small and led_big and led_small:
        led_big, led_small = 0, led_big + led_small
    led_rank = led.carried_rank
    if not ruleset.joker_multi_cover:
        # Sorted high to low, each led 小花 needs a 大花 above it; a led 大花 has nothing above it.
        if led_big or answer.big_jokers < led_small:
            return False
        spare = answer.big_jokers - led_small + answer.small_jokers
        return _rest_covers(spare, answer, led.carried, led_rank)
    # joker_multi_cover: a led 大花 is covered by 2 大花 or 3 小花, a led 小花 by 1 大花 or 2 小花.
    for by_two_big in range(led_big + 1):
        for by_one_big in range(led_small + 1):
            big_used = 2 * by_two_big + by_one_big
            small_used = 3 * (led_big - by_two_big) + 2 * (led_small - by_one_big)
            if big_used > answer.big_jokers or small_used > answer.small_jokers:
                continue
            spare = answer.jokers - big_used - small_used
            if _rest_covers(spare, answer, led.carried, led_rank):
                return True
    return False


def _parts(answer: Play, led: Play) -> bool:
    # Seed 004 备註8: a lone 大王 only by 大王大王; 大王小王 only by 大王大王大王.
    if led.count == 1 and led.big_jokers == 1:
        return answer.count == 2 and answer.big_jokers == 2
    if led.count == 2 and led.big_jokers == 1 and led.small_jokers == 1:
        return answer.count == 3 and answer.big_jokers == 3
    if answer.count != led.count:
        return False
    # The joker part must dominate: each led 小王 needs a 大王, each led 大王 two 大王.
    if led.jokers and answer.big_jokers < 2 * led.big_jokers + led.small_jokers:
        return False
    if answer.carried == 0 or led.carried == 0:
        return True
    assert answer.carried_rank is not None and led.carried_rank is not None
    return answer.carried_rank > led.carried_rank


@functools.lru_cache(maxsize=65536)
def _beats(answer: Play, led: Play, ruleset: Ruleset) -> bool:
    if ruleset.threes_last and (answer.rank is Rank.THREE and not answer.is_threes):
        return False
    if ruleset.comparison == "parts":
        return _parts(answer, led)
    return _positional(answer, led, ruleset)


def verify_beats(answer: Play, led: Play, ruleset: Ruleset) -> None:
    """Raise :class:`IllegalPlayError` unless ``answer`` beats ``led``."""
    if not _beats(answer, led, ruleset):
        if ruleset.comparison == "positional" and not ruleset.joker_multi_cover \
                and answer.count != led.count:
            raise IllegalPlayError(
                f"{answer} does not beat {led}: {answer.count} cards against {led.count}")
        raise IllegalPlayError(f"{answer} does not beat {led}")


def beats(answer: str | Play, led: str | Play, ruleset: str | Ruleset = "qingdao") -> bool:
    """Whether play ``answer`` beats play ``led`` (A 可管 B).

    Illegal plays (mixed ranks; 3s with other cards in 憋三) beat nothing.

    Raises:
        InvalidCardsError: A bad card token (named in the message).

    >>> beats("25555", "22244", "irvine"), beats("BJ 5555", "SJ 444", "irvine")
    (True, False)
    >>> beats("BJ BJ", "BJ"), beats("BJ BJ", "BJ", "qingdao+joker_multi_cover")
    (False, True)
    """
    rs = load_ruleset(ruleset)
    try:
        a, b = _as_play(answer), _as_play(led)
    except IllegalPlayError:
        return False
    return _beats(a, b, rs)


@dataclass(frozen=True, slots=True)
class Classification:
    """What the rules say about one play on its own."""

    cards: str
    """The play in canonical notation."""
    legal: bool
    """The cards form one play under the ruleset."""
    reason: str | None
    """Why not, when illegal."""
    rank: str | None
    """Effective rank token after 贴钱 (the carried rank; the jokers' for a play of jokers)."""
    count: int
    """Number of cards."""
    jokers: int
    """Number of jokers (挂花 when > 0)."""
    gouji: bool
    """A 够级牌."""
    opens: bool
    """Winning the lead with it is 开点 (as a lead, not as an answer)."""
    threes: bool
    """Only 3s: in 憋三 rulesets allowed only as the player's final play."""
    description: str
    """中文 description, e.g. ``2小花带3个9``."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the ``gouji rules classify`` output)."""
        return {name: getattr(self, name) for name in self.__slots__}


def classify(cards: str | Play, ruleset: str | Ruleset = "qingdao") -> Classification:
    """Classify a play under a ruleset.

    Raises:
        InvalidCardsError: A bad card token.

    >>> c = classify("22333", "qingdao")
    >>> c.legal, c.rank, c.count, c.gouji, c.opens
    (True, '3', 5, False, False)
    >>> classify("2333", "biesan").reason
    '憋三: 3s leave a hand only all together, with nothing else'
    """
    rs = load_ruleset(ruleset)
    try:
        play = _as_play(cards)
        verify_legal(play, rs)
    except IllegalPlayError as exc:
        text = cards if isinstance(cards, str) else str(cards)
        ranks = parse_cards(text) if isinstance(cards, str) else ()
        return Classification(format_cards(ranks) if ranks else str(text), False, str(exc), None,
                              len(ranks), sum(r.is_joker for r in ranks), False, False, False, "")
    except GoujiError:
        raise
    return Classification(
        cards=str(play), legal=True, reason=None, rank=play.effective_rank.token,
        count=play.count, jokers=play.jokers, gouji=is_gouji(play, rs), opens=opens(play, rs),
        threes=play.is_threes, description=play.description)
