"""The round in play as the segmenter saw it, and the other readings of its plays.

A count gone wrong shows in the next trick, a rank read too often when the deck runs out of it:
:class:`RoundRecord` keeps each trick of the round with the rules' checkpoint before its lead,
so that the plays since can be replayed with some of them read otherwise (:class:`Replay`), and
finds the cheapest such :class:`Mend` that the rules take with a play they refuse as read, or
that ends a round the table has left. Each way of mending proposes its mends; one search
(:meth:`RoundRecord.cheapest`) weighs them, cheapest first.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tracker.matching import CardMatcher
from tracker.prior import Event, Prior
from tracker.readings import PlayReader, Reading, described, format_play, taking_in_cost
from tracker.table import SEAT_COUNT
from vision.classes import CLASS_NAMES
from vision.detections import Detections

__all__ = ["Mend", "Replay", "RoundRecord", "RulesAfterMend", "Trick", "TrickPlay", "laid_late",
           "nearly_out", "taken_with"]

Items = list[tuple[int, str] | None]
"""Plays as the rules replay them, ``(seat, cards)``, ``None`` where a trick was gathered."""

LONGER_READINGS = 3
"""Readings of each play weighed when a trick's plays are read longer together
(:meth:`RoundRecord.trick_read_short`)."""


@dataclass(slots=True)
class TrickPlay:
    """A play of the round in play, as the segmenter committed it."""

    seq: int
    seat: int
    t: float
    read: Detections
    """Its cards as read."""
    faint: Detections
    """The faint cards lying with it then, surest first."""
    reading: Reading
    """How it stands reported now."""
    count_in_doubt: bool = False
    """Whether a faint card of its ranks lay beside it, not taken in, or it holds cards counted
    only when its zone was read closer."""
    held: bool = False
    """Whether it is held for review as it stands reported."""
    alternatives: list[Reading] | None = None
    """Its other readings with one card changed, once a correction was weighed."""
    two_changes: list[Reading] | None = None
    """Its other readings with two cards changed, once an answer to it was refused."""


@dataclass(slots=True)
class Trick:
    """A trick of the round in play, as the segmenter saw it."""

    checkpoint: Any
    """The rules' state before its lead (:meth:`tracker.prior.Prior.checkpoint`)."""
    plays: list[TrickPlay] = field(default_factory=list)
    gathered: bool = False
    """Whether it was seen gathered (a ``collect``)."""


@dataclass(frozen=True, slots=True)
class Mend:
    """Other readings of some plays of the round, weighed together: what the rules may take
    instead of the plays as reported."""

    changes: tuple[tuple[TrickPlay, Reading], ...]
    """Each play changed with its reading, in play order."""
    trick: int = 0
    """The first trick holding one of them, among the tricks searched."""
    own: Reading | None = None
    """The refused play's own reading with them (``None``: as read)."""

    @classmethod
    def one(cls, play: TrickPlay, reading: Reading, trick: int = 0, *,
            own: Reading | None = None) -> Mend:
        """``play`` read as ``reading``, in trick ``trick`` of those searched."""
        return cls(((play, reading),), trick, own)

    @classmethod
    def together(cls, mends: Sequence[Mend]) -> Mend:
        """The changes of ``mends`` (none with an own reading) weighed as one."""
        return cls(tuple(sorted((change for mend in mends for change in mend.changes),
                                key=lambda change: change[0].seq)),
                   min(mend.trick for mend in mends))

    @property
    def cost(self) -> float:
        return (sum(reading.cost for _, reading in self.changes)
                + (self.own.cost if self.own is not None else 0.0))

    @property
    def first_seq(self) -> int:
        """The earliest play changed: earlier plays are mended first among equal costs."""
        return min(play.seq for play, _ in self.changes)


class Replay:
    """The plays of some tricks as :meth:`tracker.prior.Prior.objection_from` takes them,
    each as read (or as reported), ``None`` where a trick was gathered (a seat that went out
    leads no more, whoever took the trick); written out once, then varied by the plays a
    :class:`Mend` reads otherwise."""

    def __init__(self, tricks: Sequence[Trick], *, as_read: bool = False) -> None:
        self.items: Items = []
        self.starts: list[int] = []                  # where each trick begins in items
        self._where: dict[int, int] = {}             # id of a play -> its place in items
        for trick in tricks:
            self.starts.append(len(self.items))
            for play in trick.plays:
                self._where[id(play)] = len(self.items)
                cards = play.read if as_read else play.reading.cards
                self.items.append((play.seat, format_play(cards.class_id)))
            if trick.gathered:
                self.items.append(None)

    def with_readings(self, changes: Sequence[tuple[TrickPlay, Reading]], *,
                      from_trick: int = 0) -> Items:
        """The items from trick ``from_trick`` on, each play of ``changes`` in its reading."""
        items = self.items[self.starts[from_trick]:]
        for play, reading in changes:
            items[self._where[id(play)] - self.starts[from_trick]] = (
                play.seat, format_play(reading.cards.class_id))
        return items


def laid_late(play: TrickPlay, cards: Detections) -> Reading:
    """``play`` as reported with ``cards``, seen only after it was committed."""
    return Reading(Detections.merge([play.reading.cards, cards]), taken=cards, late=True,
                   change=f"took in {described(cards)}, laid late",
                   cost=taking_in_cost(cards))


def taken_with(corrections: list[Event]) -> str:
    """``"taken with seat 4's play 5 corrected to Q"``: the corrections a play was taken on."""
    return "taken with " + ", ".join(f"seat {e['seat']}'s play {e['fixes']} corrected to "
                                     f"{e['cards']}" for e in corrections)


def nearly_out(prior: Prior, *, but: int) -> dict[int, int]:
    """The seats other than ``but`` that the rules hold to one or two cards left, with that
    count: a seat the table plays on without went out, and at most two cards changed
    (:meth:`RoundRecord.two_changes`) reach its last play; a seat holding more is not out."""
    left = {seat: prior.cards_left(seat) for seat in range(SEAT_COUNT) if seat != but}
    return {seat: count for seat, count in left.items() if count is not None and 0 < count <= 2}


def _rules_take(prior: Prior, seat: int, cards: str) -> Callable[[Any, Items, Mend], bool]:
    """Whether the rules take the plays replayed from a checkpoint, then the new play ``cards``
    from ``seat``, or the mend's own reading of it (:attr:`Mend.own`)."""
    def taken(checkpoint: Any, items: Items, mend: Mend) -> bool:
        own = cards if mend.own is None else format_play(mend.own.cards.class_id)
        return prior.objection_from(checkpoint, [*items, (seat, own)]) is None
    return taken


def _rules_see_over(prior: Prior) -> Callable[[Any, Items, Mend], bool]:
    """Whether the rules take the plays replayed from a checkpoint and see the round over."""
    return lambda checkpoint, items, _: prior.round_over_after(checkpoint, items)


class RoundRecord:
    """The tricks of the round in play, and the other readings of their plays that the rules
    may take instead of a play as read.

    Args:
        reader: the other readings of a play (:meth:`PlayReader.readings`).
        matcher: when a faint card is a card already taken into a reading.
        repair_conf: a refused play's cards read below this may be read otherwise.
        mend_conf: an earlier play's cards read below this may be read otherwise.
        max_revisions: most readings weighed in one search, cheapest first.
    """

    def __init__(self, reader: PlayReader, matcher: CardMatcher, *, repair_conf: float,
                 mend_conf: float, max_revisions: int) -> None:
        self.reader = reader
        self.matcher = matcher
        self.repair_conf = repair_conf
        self.mend_conf = mend_conf
        self.max_revisions = max_revisions
        self.tricks: list[Trick] = []
        """The round's tricks, in order: the rules' checkpoint before each lead, and its
        plays (none before the first play of a round)."""

    @property
    def recent(self) -> list[TrickPlay]:
        """The plays of the current trick and the one before, in order."""
        return [play for trick in self.tricks[-2:] for play in trick.plays]

    def answered(self, seat: int) -> TrickPlay | None:
        """The play a play from ``seat`` answers: the last of the trick in play, if another
        seat made it and its cards lie there still (the trick is not gathered)."""
        trick = self.tricks[-1] if self.tricks else None
        if trick is None or not trick.plays or trick.gathered:
            return None
        answered = trick.plays[-1]
        return None if answered.seat == seat else answered

    def trick_of(self, play: TrickPlay) -> int:
        """The index of the round's trick holding ``play``."""
        return next(k for k, trick in enumerate(self.tricks)
                    if any(other is play for other in trick.plays))

    @property
    def last_play(self) -> TrickPlay | None:
        """The round's last play (``None``: none)."""
        return next(self._latest_first(), None)

    def last_play_of(self, seat: int) -> TrickPlay | None:
        """The last play of the round from ``seat`` (``None``: none)."""
        return next((play for play in self._latest_first() if play.seat == seat), None)

    def _latest_first(self) -> Iterator[TrickPlay]:
        return (play for trick in reversed(self.tricks) for play in reversed(trick.plays))

    def replayable_answered(self, seat: int) -> TrickPlay | None:
        """:meth:`answered`, if the rules can replay the recent tricks from their first
        checkpoint, for a reading of it to be weighed."""
        answered = self.answered(seat)
        replayable = answered is not None and self.tricks[-2:][0].checkpoint is not None
        return answered if replayable else None

    def last_plays_of_one_count(self) -> list[TrickPlay]:
        """The last play of the trick in play and the plays before it read with its count,
        without a break, in play order."""
        plays = self.tricks[-1].plays
        count = len(plays[-1].reading.cards)
        same = itertools.takewhile(lambda play: len(play.reading.cards) == count, reversed(plays))
        return list(same)[::-1]

    def alternatives(self, play: TrickPlay) -> list[Reading]:
        """``play``'s other readings with one card changed (read and faint cards never change:
        worked out once)."""
        if play.alternatives is None:
            # A faint reading found on a card does not rewrite an earlier play: on the rendered
            # games (seeds 101-170) it mended two right earlier plays and no wrong one.
            play.alternatives = list(self.reader.readings(
                play.read, play.faint, below=self.mend_conf, most=1, found_on=False))
        return play.alternatives

    def two_changes(self, play: TrickPlay) -> list[Reading]:
        """``play``'s other readings with two cards changed: each of :meth:`alternatives`
        with one card more changed, the cheapest way to each play (worked out once).

        A lead laid as a tight fan may lose two strips at once, one missed, one misread
        (4444444 read 44444 and an A): its answer's count tells, and only with both mended
        does the lead take that answer."""
        if play.two_changes is None:
            cheapest: dict[str, Reading] = {}
            for first in self.alternatives(play):
                left = self.matcher.not_among(play.faint, first.taken)
                for then in self.reader.readings(first.cards, left, below=self.mend_conf,
                                                 most=1, found_on=False):
                    key = format_play(then.cards.class_id)
                    cost = first.cost + then.cost
                    if key not in cheapest or cost < cheapest[key].cost:
                        cheapest[key] = Reading(
                            then.cards, taken=Detections.merge([first.taken, then.taken]),
                            change=f"{first.change}; {then.change}", cost=cost)
            play.two_changes = list(cheapest.values())
        return play.two_changes

    def round_readings(self, of_seats: Container[int] = range(SEAT_COUNT), *,
                       two_changes: bool = False) -> list[Mend]:
        """The other readings, one card changed (and two, :meth:`two_changes`, with
        ``two_changes``), of the round's plays from ``of_seats``, each a mend of its own (none
        when the round's tricks have no checkpoints)."""
        if not self.tricks or self.tricks[0].checkpoint is None:
            return []
        return [Mend.one(play, reading, k) for k, trick in enumerate(self.tricks)
                if trick.checkpoint is not None for play in trick.plays if play.seat in of_seats
                for reading in [*self.alternatives(play),
                                *(self.two_changes(play) if two_changes else ())]]

    def readings_going_out(self, left: dict[int, int]) -> list[Mend]:
        """The other readings (:meth:`round_readings`, one or two cards changed) of the
        round's plays by the seats of ``left``, each with as many cards more as the rules hold
        its seat to have ``left``, or, for a play they refused as read (which laid none), with
        as many cards as that: the seat out (its last two 5s read 555 beside the three it
        laid before, one box lying over both, refused: "seat 5 has only 2 cards")."""
        going_out = []
        for mend in self.round_readings(of_seats=left, two_changes=True):
            (play, reading), = mend.changes
            if left[play.seat] in (len(reading.cards) - len(play.reading.cards),
                                   len(reading.cards)):
                going_out.append(mend)
        return going_out

    def revision(self, prior: Prior, seat: int, cards: str, *, later: dict[int, Detections],
                 than: float) -> list[tuple[TrickPlay, Reading]]:
        """The cheapest other reading of one recent play (:attr:`recent`; the others as read)
        after which the rules take every recent play and ``cards`` from ``seat`` as read, if
        it costs less than ``than``: each recent play with its reading then (none if there is
        no such reading). A seat's last play of the trick may also be read with the cards of
        its seat among the ``later`` plays of the picture: laid late, seen only with the next
        play (888 read as 88, its last 8 seen with the KKK answering it).

        A play answering the lead must have the lead's count, so the plays after an unsure
        lead are evidence about it: a lead read with one card too many or too few (or two
        cards changed, :meth:`two_changes`) is mended by the plays that answer it, instead of
        each answer losing or gaining cards. A seat's count is evidence too: a play read with a
        card too many leaves the seat short for its next play, often in the next trick."""
        tricks = self.tricks[-2:]
        if not tricks or tricks[0].checkpoint is None:
            return []
        candidates = [Mend.one(p, r) for trick in tricks for p in trick.plays
                      for r in self.alternatives(p)]
        last_of_seat = {p.seat: p for p in tricks[-1].plays}
        candidates += [Mend.one(last_of_seat[s], laid_late(last_of_seat[s], cards_of_s))
                       for s, cards_of_s in later.items() if s in last_of_seat and s != seat]
        answered = self.answered(seat)
        if answered is not None:
            candidates += [Mend.one(answered, r) for r in self.two_changes(answered)]
        return self.recent_revised(prior, seat, cards, candidates, than=than)

    def recent_revised(self, prior: Prior, seat: int, cards: str, candidates: list[Mend], *,
                       than: float) -> list[tuple[TrickPlay, Reading]]:
        """Of the candidate mends of recent plays, costing less than ``than``, the cheapest
        after which the rules take every recent play (the others as read) and ``cards`` from
        ``seat``: each recent play with its reading then (none if there is no such mend)."""
        tricks = self.tricks[-2:]
        found = self.cheapest(tricks, Replay(tricks, as_read=True), candidates, than=than,
                              good=_rules_take(prior, seat, cards))
        if found is None:
            return []
        readings = {id(play): reading for play, reading in found.changes}
        return [(play, readings.get(id(play), Reading(play.read))) for play in self.recent]

    def after(self, prior: Prior, mend: Mend) -> RulesAfterMend:
        """The rules' verdict on a play once the recent plays are read as ``mend`` reads them
        (the others as read)."""
        return RulesAfterMend(self, prior, mend)

    def trick_read_short(self, prior: Prior, seat: int, cards: str, count: int
                         ) -> list[tuple[TrickPlay, Reading]]:
        """Each play of the trick in play read with ``count`` cards, one or two more than
        all of them were read with (faint cards beside it taken in), after which the rules
        take them and ``cards`` from ``seat``: each play with its reading then, the cheapest
        together of each one's :data:`LONGER_READINGS` cheapest (empty: none such).

        Every answer's count is read against the play before it, so a lead read a card
        short takes its answers with it when they are read short alike: 25 led read 5 beside
        a faint 2, JJ answering it read J beside a faint J, and 22 answering that refused.
        Neither play mended alone is taken; both mended, all three are."""
        trick = self.tricks[-1] if self.tricks else None
        if trick is None or trick.gathered or trick.checkpoint is None or len(trick.plays) < 2:
            return []
        counts = {len(play.reading.cards) for play in trick.plays}
        more = count - min(counts)
        if len(counts) > 1 or more not in (1, 2):
            return []
        longer = []
        for play in trick.plays:
            others = self.alternatives(play) if more == 1 else self.two_changes(play)
            longer.append(sorted((r for r in others if len(r.cards) == count),
                                 key=lambda r: r.cost)[:LONGER_READINGS])
            if not longer[-1]:   # this play cannot be read longer: the trick cannot
                return []
        # Up to LONGER_READINGS ** plays ways: only the cheapest few become mends to weigh.
        together = sorted(itertools.product(*longer),
                          key=lambda readings: sum(r.cost for r in readings))
        found = self.cheapest([trick], Replay([trick]),
                              [Mend(tuple(zip(trick.plays, readings, strict=True)))
                               for readings in together[:self.max_revisions]],
                              good=_rules_take(prior, seat, cards))
        return list(found.changes) if found is not None else []

    def mended_with_answered(self, prior: Prior, seat: int, cards: Detections,
                             nearby: Detections) -> Mend | None:
        """The cheapest other reading of the play that ``cards`` from ``seat`` answer with
        one of ``cards`` (with the faint cards ``nearby``, :attr:`Mend.own`), after which the
        rules take the recent plays as reported, the answered one so read, and then the new
        play so read (``None`` if no such pair does): of each one's :attr:`max_revisions`
        cheapest readings.

        A lead read a card long and its answer a card short keep the right count apart from
        each other, and neither mended alone is taken: 555 read 5555, answered by SJ 77 read
        SJ 7 beside a faint 7. Refused, the answer leaves the rules a trick behind the table,
        refusing each play after it as out of turn (eleven plays of a rendered game)."""
        answered = self.replayable_answered(seat)
        if answered is None:
            return None
        own = sorted(self.reader.readings(cards, nearby, below=self.repair_conf),
                     key=lambda r: r.cost)[:self.max_revisions]
        theirs = sorted(self.alternatives(answered), key=lambda r: r.cost)[:self.max_revisions]
        tricks = self.tricks[-2:]
        return self.cheapest(tricks, Replay(tricks),
                             [Mend.one(answered, r, own=o) for o in own for r in theirs],
                             most=self.max_revisions ** 2,
                             good=_rules_take(prior, seat, format_play(cards.class_id)))

    def earlier_revision(self, prior: Prior, seat: int, class_ids: NDArray[np.int_], *,
                         than: float) -> list[tuple[TrickPlay, Reading]]:
        """The cheapest other reading of one play of an earlier trick of the round, with one
        card fewer of a rank the new play holds (or one card fewer in all, when ``seat`` made
        it and has fewer cards left than the new play holds), after which the rules take every
        play since (as reported) and the new play ``class_ids`` from ``seat``, if it costs less
        than ``than``: that play with its reading (none if there is no such reading).

        A round deals each rank a fixed number of times, so a play refused for a rank the
        deck has no more of shows that an earlier play of that rank was read with one too
        many (a queen read as a 2 in 22QQ shows when the seventeenth 2 is laid). A seat is
        dealt a fixed number of cards too, so a play of more cards than the rules hold its
        seat to have left shows that one of the seat's earlier plays was read with one too
        many (six 3s for five shows when the seat lays its last pair)."""
        if len(self.tricks) < 3:
            return []
        ranks = set(class_ids.tolist())
        left = prior.cards_left(seat)
        short = left is not None and len(class_ids) > left
        candidates = []
        for k, trick in enumerate(self.tricks[:-2]):
            for play in trick.plays if trick.checkpoint is not None else ():
                held = np.bincount(play.reading.cards.class_id, minlength=len(CLASS_NAMES))
                candidates += [Mend.one(play, r, k) for r in self.alternatives(play)
                               if any(np.sum(r.cards.class_id == rank) < held[rank]
                                      for rank in ranks)
                               or (short and play.seat == seat
                                   and len(r.cards) < len(play.reading.cards))]
        found = self.cheapest(self.tricks, Replay(self.tricks), candidates, than=than,
                              good=_rules_take(prior, seat, format_play(class_ids)))
        return list(found.changes) if found is not None else []

    def gone_out_revision(self, prior: Prior, seat: int, cards: str, *, than: float
                          ) -> list[tuple[TrickPlay, Reading]]:
        """The cheapest other reading of one play of the round by another seat that the rules
        hold to one or two cards left, with those cards more (one or two cards changed: the
        seat out), after which the rules take every play since (as reported) and ``cards``
        from ``seat``, if it costs less than ``than``: that play with its reading (none if
        there is no such reading).

        A seat that went out with its last play read a card short is held by the rules to
        that card, and to lead the trick it won, while the table plays on without it: each
        play after refused (seat 4 went out with JJ read J beside a faint J, and the next 13
        plays were held for "seat 4 leads this trick" until the end of the round)."""
        short = nearly_out(prior, but=seat)
        if not short:
            return []
        found = self.cheapest(self.tricks, Replay(self.tricks), self.readings_going_out(short),
                              than=than, good=_rules_take(prior, seat, cards))
        return list(found.changes) if found is not None else []

    def round_not_over(self, prior: Prior, seat: int, cards: str
                       ) -> tuple[TrickPlay, Reading] | None:
        """The reading of a play of the round the rules saw end with the last play after which
        they take every play of it and ``cards`` from ``seat`` in it (``None``: none does).

        The table deals no new round seconds after the last play: that play is of the round
        the rules saw over, so one of its plays was read with a card too many (a seat went out
        early). Its cheapest reading, one card changed (see :meth:`PlayReader.readings`), that
        does so is the one to correct."""
        found = self.cheapest(self.tricks, Replay(self.tricks), self.round_readings(),
                              good=_rules_take(prior, seat, cards))
        return found.changes[0] if found is not None else None

    def ending_the_round(self, prior: Prior, candidates: list[Mend]
                         ) -> list[tuple[TrickPlay, Reading]]:
        """The cheapest of ``candidates`` (one play each) after which the rules take every
        play of the round and see it over, or failing that two of them, plays of two seats:
        of the pairs of each seat's :attr:`max_revisions` cheapest readings, the
        ``max_revisions ** 2`` cheapest are tried in turn (none does: empty). A lead read a
        card short and its answer read so too leave two seats holding a card each (seven 4s
        read as six, 222TTTT answering them as 222TTT): that pair cost more than 40 pairs
        that do not end the round, and a replay of the round takes well under a
        millisecond."""
        replay = Replay(self.tricks)
        found = self.cheapest(self.tricks, replay, candidates, good=_rules_see_over(prior))
        if found is not None:
            return list(found.changes)
        by_seat: dict[int, list[Mend]] = {}
        for candidate in sorted(candidates, key=lambda c: (c.cost, c.first_seq)):
            by_seat.setdefault(candidate.changes[0][0].seat, []).append(candidate)
        cheapest = [c for of_seat in by_seat.values() for c in of_seat[:self.max_revisions]]
        pairs = [Mend.together(ab) for ab in itertools.combinations(cheapest, 2)
                 if ab[0].changes[0][0].seat != ab[1].changes[0][0].seat]
        found = self.cheapest(self.tricks, replay, pairs, most=self.max_revisions ** 2,
                              good=_rules_see_over(prior))
        return list(found.changes) if found is not None else []

    def cheapest(self, tricks: Sequence[Trick], replay: Replay, mends: Iterable[Mend], *,
                 good: Callable[[Any, Items, Mend], bool], than: float = np.inf,
                 most: int | None = None) -> Mend | None:
        """Of ``mends`` costing less than ``than``, the ``most`` cheapest (by default
        :attr:`max_revisions`; earlier plays first among equals) are tried in turn: the first
        for which ``good`` holds of the checkpoint of its first trick among ``tricks`` and the
        plays of ``replay`` from there on, its plays in their readings."""
        tried = sorted((mend for mend in mends if mend.cost < than),
                       key=lambda mend: (mend.cost, mend.first_seq))
        for mend in tried[:self.max_revisions if most is None else most]:
            if good(tricks[mend.trick].checkpoint,
                    replay.with_readings(mend.changes, from_trick=mend.trick), mend):
                return mend
        return None

    def refresh_checkpoints(self, prior: Prior, *, after: list[TrickPlay]) -> None:
        """Take the checkpoints of the tricks after the first of ``after``'s again, from its
        trick's, by ``prior``, now that those plays read otherwise: they were taken with the
        plays as reported then."""
        first = min(self.trick_of(play) for play in after)
        for k in range(first + 1, len(self.tricks)):
            before = self.tricks[k - 1]
            if before.checkpoint is not None:
                self.tricks[k].checkpoint = prior.advanced(before.checkpoint,
                                                           Replay([before]).items)


@dataclass(frozen=True, slots=True)
class RulesAfterMend:
    """The rules' verdict (a :class:`~tracker.prior.Verdict`) on a play once the recent plays
    are read as :attr:`mend` reads them, the others as read."""

    record: RoundRecord
    prior: Prior
    mend: Mend
    _revised: dict[tuple[int, str], list[tuple[TrickPlay, Reading]]] = field(
        default_factory=dict, repr=False)

    def revised(self, seat: int, cards: str) -> list[tuple[TrickPlay, Reading]]:
        """Each recent play with its reading, if the rules take them so and then ``cards``
        from ``seat`` (:meth:`RoundRecord.recent_revised`); else none. Each play is replayed
        once: a verdict asked of it is asked for its revision next."""
        if (seat, cards) not in self._revised:
            self._revised[seat, cards] = self.record.recent_revised(
                self.prior, seat, cards, [self.mend], than=np.inf)
        return self._revised[seat, cards]

    def objection(self, seat: int, cards: str) -> str | None:
        """Why the rules would refuse ``cards`` from ``seat`` after the mend, or ``None``."""
        if self.revised(seat, cards):
            return None
        return f"rules: {cards} refused, the recent plays read as mended"
