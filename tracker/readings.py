"""Other ways of reading a play's cards, for the rules to weigh when they refuse it as read.

A play's cards are read by the detector with a confidence each, a second choice of rank
(``data["runner_up"]``) and faint boxes beside it, read too faintly to count on their own. When
the rules refuse the play, :meth:`PlayReader.readings` gives the other readings that evidence
allows, each with what it changes (for the operator) and its cost (cards changed, plus how sure
the evidence against the change was): unsure cards set aside, faint cards taken in, a card read
as a faint box of another rank lying on it or as its second choice, a mixed play read as the
rank of its surest card. Nothing here invents a card or gives one a rank vision did not see.

>>> import numpy as np
>>> fives = Detections(xyxy=np.array([[0, 0, 40, 60], [20, 0, 60, 60]], np.float32),
...                    confidence=np.array([0.9, 0.3], np.float32), class_id=np.array([2, 2]))
>>> reader = PlayReader(memory_iou=0.5, faint_conf=0.1, second_choice_ratio=0.05,
...                     max_set_aside=2, max_take_in=2, second_choice=True)
>>> [(format_play(r.cards.class_id), r.change)
...  for r in reader.readings(fives, Detections.empty(), below=0.5)]
[('5', 'set aside unsure 5 (conf 0.300)')]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from rules import format_cards, parse_cards
from tracker.table import SEAT_COUNT
from vision.classes import BACK_CLASS_ID, CLASS_NAMES
from vision.detections import Detections, box_iou

__all__ = ["FOUND_TWICE_WEIGHT", "SET_ASIDE_WEIGHT", "PlayReader", "Reading", "described",
           "format_play", "found_twice", "not_found_twice", "of_one_rank", "read_as",
           "second_choices", "setting_aside", "taking_in_cost"]

SET_ASIDE_WEIGHT = 2.5
"""How much a set-aside card's score weighs against the change: a card read at 0.35 is more
often a card than a faint one at 0.16 beside a play the rules want completed (41 rendered
games: set aside at 0.35–0.47 wrong twice against taking such a faint card in; at 1.0 those two
were chosen, at 2.5 neither, and no other game's figures changed)."""

FOUND_TWICE_WEIGHT = 0.5
"""What more a card's second box from its own corner (``data["found_twice"]``) costs to take
in: most often it is that card again, though now and then it stands for a card the detector
missed beside it (a wide box over two cards of a rank read as one). 70 rendered rounds: two
refused answers (BJ 77 to 666 read 6666, TT to 88 read TTT) had a second box taken into a
play, BJ BJ 77 and 888, rather than their unsure card set aside; at 0.5 and at 1.0 both were
set aside instead, and no other play changed (20 games of two rounds: the same totals)."""

_TWO = CLASS_NAMES.index("2")
"""Class ids below it are the natural ranks, 3 to A (a play holds one, and twos and jokers)."""


def format_play(class_ids: Sequence[int] | NDArray[np.int_]) -> str:
    """A play's classes in the rules' canonical notation.

    >>> format_play([2, 14, 2, 12])
    'BJ 255'
    """
    return format_cards(parse_cards(CLASS_NAMES[int(c)] for c in class_ids))


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of reading a play's cards."""

    cards: Detections
    taken: Detections = field(default_factory=Detections.empty)
    """Faint cards taken into it."""
    change: str = ""
    """What differs from the cards as read, for people (empty: read as seen)."""
    cost: float = 0.0
    """Cards changed, plus how sure the evidence against the change was."""
    late: bool = False
    """Whether ``taken`` are cards laid after the play was committed (part of it now)."""
    counted: bool = False
    """Whether most closer views of the play's zone count its cards so: evidence, not a guess
    (a play committed so is read so when later plays weigh other readings of it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayReader:
    """The ways a play's cards may be read otherwise, and how far each may go: the settings
    of :class:`~tracker.plays.PlaySegmenter` of the same names, which has their defaults."""

    memory_iou: float
    """IoU from which a faint box lies on a card (:meth:`found_on`)."""
    faint_conf: float
    """Score from which a faint card's second choice counts."""
    second_choice_ratio: float
    """Share of a card's own score from which its second choice
    (``data["runner_up_confidence"]``) counts."""
    max_set_aside: int
    """Most unsure cards set aside from a play (0: never)."""
    max_take_in: int
    """Most faint cards taken into a play (0: never)."""
    second_choice: bool
    """Whether a card may be read as its second choice, or a faint card taken in as its own."""

    def readings(self, cards: Detections, nearby: Detections, *, below: float,
                 most: int = SEAT_COUNT, found_on: bool = True) -> Iterator[Reading]:
        """Other ways of reading a play's cards, in the order they are tried: one card read
        below ``below`` read as the rank the classifier found next likeliest
        (``data["runner_up"]``, scored at least ``second_choice_ratio`` times the card's own
        score), surest such reading first; the fewest, least sure cards read below ``below``
        set aside; the fewest, surest faint cards lying with it taken in; with ``found_on``,
        one card read below ``below`` read as a faint card of another rank lying on it
        (:meth:`found_on`); one faint card taken in as its second choice (a fan's strip
        misread, scored at least ``faint_conf``); a play of mixed ranks read all as the rank
        of its surest card (:func:`of_one_rank`); at most ``most`` cards changed. The rules
        never add or change a card beyond these.

        A card read as its second choice is still the card the detector found, where one set
        aside is taken for no card at all: a 6 read as an 8 at 0.45, a 6 its second choice at
        0.22, in a lead of five 6s is the fifth 6, not a stray."""
        if self.second_choice:
            yield from self._read_as_second_choices(cards, below=below)
        unsure = [int(i) for i in np.argsort(cards.confidence, kind="stable")
                  if cards.confidence[i] < below]
        for count in range(1, min(self.max_set_aside, most, len(unsure), len(cards) - 1) + 1):
            for aside in itertools.combinations(unsure, count):
                yield setting_aside(cards, aside)
        for count in range(1, min(self.max_take_in, most, len(nearby)) + 1):
            for chosen in itertools.combinations(range(len(nearby)), count):
                taken = nearby[np.array(chosen)]
                yield Reading(Detections.merge([cards, taken]), taken=taken,
                              change=f"took in faint {described(taken)}",
                              cost=taking_in_cost(taken))
        for i, j in self.found_on(cards, nearby, below=below) if found_on else ():
            card, other = cards[np.array([i])], nearby[np.array([j])]
            yield Reading(Detections.merge([cards[np.arange(len(cards)) != i], other]),
                          taken=other, change=(f"read unsure {described(card)} as faint "
                                               f"{described(other)} found on it"),
                          cost=1 + max(0.0, float(card.confidence[0] - other.confidence[0])))
        if self.second_choice:
            yield from self._faint_second_choices(cards, nearby, most=most)
        one_rank = of_one_rank(cards, most=most)
        if one_rank is not None:
            yield one_rank

    def _faint_second_choices(self, cards: Detections, nearby: Detections, *, most: int
                              ) -> Iterator[Reading]:
        """With ``most`` and ``max_take_in`` at least 1, one faint card taken in as its second
        choice (see :meth:`readings`)."""
        if most < 1 or self.max_take_in < 1:
            return
        for i in second_choices(nearby, scored=self.faint_conf):
            taken = read_as(nearby, [i], int(nearby.data["runner_up"][i]))[i]
            # Two changes: taking the faint card in (1 + 1 - its score as taken) and reading
            # it as its second choice (1 + how much surer the first choice was).
            yield Reading(Detections.merge([cards, taken]), taken=taken,
                          change=(f"took in faint {described(nearby[i])} as "
                                  f"{CLASS_NAMES[int(taken.class_id[0])]} "
                                  f"(conf {taken.confidence[0]:.3f})"),
                          cost=3 - 2 * float(taken.confidence[0]) + float(nearby.confidence[i]))

    def _read_as_second_choices(self, cards: Detections, *, below: float) -> Iterator[Reading]:
        """One card read below ``below`` read as its second choice (see :meth:`readings`)."""
        for i in second_choices(cards, below=below, relative=self.second_choice_ratio):
            yield Reading(read_as(cards, [i], int(cards.data["runner_up"][i])),
                          change=(f"read unsure {described(cards[i])} as "
                                  f"{CLASS_NAMES[int(cards.data['runner_up'][i])]} "
                                  f"(conf {cards.data['runner_up_confidence'][i]:.3f})"),
                          cost=1 + float(cards.confidence[i]
                                         - cards.data["runner_up_confidence"][i]))

    def found_on(self, cards: Detections, nearby: Detections, *, below: float
                 ) -> list[tuple[int, int]]:
        """Pairs ``(i, j)``: card ``i``, read below ``below``, and box ``j`` of ``nearby`` (a
        faint card, or a closer view's box) of another rank lying on it (IoU at least
        ``memory_iou``): one card read two ways, most often by two views of a zone. Surest
        ``j`` first."""
        if not len(cards) or not len(nearby):
            return []
        on = ((box_iou(cards.xyxy, nearby.xyxy) >= self.memory_iou)
              & (cards.class_id[:, None] != nearby.class_id[None, :])
              & (cards.confidence < below)[:, None])
        pairs = [(int(i), int(j)) for i, j in np.argwhere(on)]
        return sorted(pairs, key=lambda pair: -float(nearby.confidence[pair[1]]))


def second_choices(cards: Detections, *, scored: float = 0.0, below: float = np.inf,
                   relative: float = 0.0) -> list[int]:
    """The cards read below ``below`` whose second choice (``data["runner_up"]``) is a
    rank (a card back is none) scored at least ``scored``, and at least ``relative`` times
    the card's own score, surest second choice first."""
    runner_up_confidence = cards.data.get("runner_up_confidence")
    runner_up = cards.data.get("runner_up")
    if runner_up_confidence is None or runner_up is None:
        return []
    return [int(i) for i in np.argsort(-runner_up_confidence, kind="stable")
            if cards.confidence[i] < below
            and runner_up_confidence[i] >= max(scored, relative * cards.confidence[i])
            and runner_up[i] != BACK_CLASS_ID]


def not_found_twice(faint: Detections) -> Detections:
    """``faint`` less the second boxes of cards found twice from their own corner
    (``data["found_twice"]``): beside a play they cast no doubt on its count. On 70 rendered
    rounds, 352 of the 1076 held plays were held for them alone, and every one was right.
    The zone is still read closer for them, and a card most views count is taken in (a fan's
    strip missed, its neighbour found twice)."""
    return faint[~found_twice(faint)]


def found_twice(cards: Detections) -> NDArray[np.bool_]:
    """Which of ``cards`` are a card's second box (``data["found_twice"]``; none unmarked)."""
    twice = cards.data.get("found_twice")
    return np.zeros(len(cards), bool) if twice is None else np.asarray(twice, bool)


def setting_aside(cards: Detections, aside: Sequence[int]) -> Reading:
    """``cards`` read without the unsure cards ``aside`` (indices): the change costs one per
    card, and :data:`SET_ASIDE_WEIGHT` times how sure they were on average."""
    gone = cards[np.array(aside, np.int_)]
    return Reading(cards[np.setdiff1d(np.arange(len(cards)), aside)],
                   change=f"set aside unsure {described(gone)}",
                   cost=len(gone) + SET_ASIDE_WEIGHT * float(gone.confidence.mean()))


def taking_in_cost(cards: Detections) -> float:
    """What taking ``cards`` into a play costs: one per card, more the less sure they are
    cards at all, and :data:`FOUND_TWICE_WEIGHT` more for each that is a card's second box
    (``data["found_twice"]``)."""
    return (len(cards) + 1 - float(cards.confidence.mean())
            + FOUND_TWICE_WEIGHT * int(np.count_nonzero(found_twice(cards))))


def read_as(cards: Detections, which: Sequence[int] | NDArray[np.int_], rank: int, *,
            score: float | None = None) -> Detections:
    """``cards`` with the cards ``which`` read as ``rank``, scored ``score`` (by default as
    the classifier scored it: their second choice, ``data["runner_up"]``, or else 0); their
    first reading becomes their second, where the cards carry second choices."""
    class_id, confidence = cards.class_id.copy(), cards.confidence.copy()
    runner_up, runner_up_confidence = (cards.data.get("runner_up"),
                                       cards.data.get("runner_up_confidence"))
    if runner_up is None or runner_up_confidence is None:
        class_id[which] = rank
        confidence[which] = 0.0 if score is None else score
        return replace(cards, confidence=confidence, class_id=class_id)
    second, second_confidence = runner_up.copy(), runner_up_confidence.copy()
    for i in which:
        scored = (score if score is not None
                  else second_confidence[i] if second[i] == rank else 0.0)
        second[i], second_confidence[i] = class_id[i], confidence[i]
        class_id[i], confidence[i] = rank, scored
    return replace(cards, confidence=confidence, class_id=class_id).with_data(
        runner_up=second, runner_up_confidence=second_confidence)


def of_one_rank(cards: Detections, *, most: int) -> Reading | None:
    """A play of mixed natural ranks (3 to A) read all as the rank of its surest natural
    card, when at most ``most`` cards change (else ``None``).

    A play is of one natural rank. Laid as a tight fan, its top card shows whole and is
    read surely, the others only as strips, which some deck styles make look alike (a 6's
    strip read as an 8, even at 0.64). Tried last: the rules refuse the play as read, and
    no card set aside or read as its second choice made one they take."""
    natural = np.flatnonzero(cards.class_id < _TWO)
    if not len(natural):
        return None
    rank = int(cards.class_id[natural[np.argmax(cards.confidence[natural])]])
    others = natural[cards.class_id[natural] != rank]
    if not 0 < len(others) <= most:
        return None
    read = read_as(cards, others, rank)
    return Reading(read, change=(f"read {described(cards[others])} as {CLASS_NAMES[rank]}, the "
                                  f"rank of its surest card"),
                    cost=float(np.sum(1 + cards.confidence[others] - read.confidence[others])))


def described(cards: Detections) -> str:
    """Cards for a review reason, each confidence in the place of its rank as written.

    >>> described(Detections(xyxy=np.zeros((2, 4), np.float32),
    ...                      confidence=np.array([0.2, 0.12], np.float32), class_id=np.array([5, 6])))
    '98 (conf 0.120, 0.200)'
    """
    as_written = np.argsort(-cards.class_id, kind="stable")   # format_play's order
    return (f"{format_play(cards.class_id)} (conf "
            f"{', '.join(f'{c:.3f}' for c in cards.confidence[as_written])})")
