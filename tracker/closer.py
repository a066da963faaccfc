"""A seat's zone read again from closer views, and what most of them count.

A detector finds a tight fan's narrow strips less surely at the camera's scale than enlarged.
When a play's count is in doubt (a faint card of its rank beside it, the rules refusing it, a
card of it read unsurely), the caller reads the play's zone again at a few enlargements
(:class:`CloserViews`, read only when first asked for), and :class:`CloserCount` weighs them:
what most views count is evidence, where another reading the rules would take is a guess.

Each view costs a detector run, so views are read in turn, only as far as asked for:

>>> read = []
>>> views = ViewsOnDemand(lambda index: read.append(index) or Detections.empty(), 3, [])
>>> len(views), read
(3, [])
>>> len(views[1]), read
(0, [0, 1])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from tracker.readings import Reading, described, setting_aside, taking_in_cost
from vision.classes import BACK_CLASS_ID
from vision.detections import Detections, box_iou

__all__ = ["CloserCount", "CloserLook", "CloserViews", "ViewsOnDemand", "agreed_count",
           "counted_closer", "counted_closer_change"]


class CloserViews(Protocol):
    """A zone's closer views: one :class:`Detections` per view, in image pixels, the zone's own
    boxes only, carrying the ``data`` the picture's boxes carry, each view read when it is
    first indexed (a detector run on the enlarged zone)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> Detections: ...


class ViewsOnDemand:
    """:class:`CloserViews` read by ``read_view(index)`` when first indexed, and kept in
    ``kept`` (a caller may keep them while the zone stays as it is)."""

    def __init__(self, read_view: Callable[[int], Detections], count: int,
                 kept: list[Detections]) -> None:
        self._read_view, self._count, self._kept = read_view, count, kept

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> Detections:
        if not 0 <= index < self._count:
            raise IndexError(f"view {index} of {self._count}")
        while len(self._kept) <= index:
            self._kept.append(self._read_view(len(self._kept)))
        return self._kept[index]


CloserLook = Callable[[int], CloserViews]
"""``seat`` -> its zone's cards in the picture being committed (or rehearsed, see
:meth:`~tracker.plays.PlaySegmenter.update`), read again from closer views
(:class:`CloserViews`)."""


def agreed_count(counts: NDArray[np.int_], views: int) -> NDArray[np.int_] | None:
    """Of each rank, the most cards more than the picture counts that most of ``views``
    closer views count, from ``counts`` ``(read, ranks)``, the views read so far; ``None``
    while the views not read yet could still change it. With counts of 1 and 0 (each view
    reading a card surely or not), 1 when most views do.

    Two views of three counting a card is the count; the third is read only when the first
    two disagree:

    >>> agreed_count(np.array([[1, 0], [1, 0]]), 3).tolist()
    [1, 0]
    >>> agreed_count(np.array([[0], [1]]), 3) is None
    True
    >>> agreed_count(np.array([[0], [1], [1]]), 3).tolist()
    [1]
    >>> agreed_count(np.array([[-1], [2], [1]]), 3).tolist()
    [1]
    """
    (read, ranks), most = counts.shape, views // 2 + 1
    if views <= 0:
        return np.zeros(ranks, np.int_)

    def agreed(unread_count: int) -> NDArray[np.int_]:   # the unread views all counting so
        every = np.vstack([counts, np.full((views - read, ranks), unread_count)])
        return np.asarray(np.maximum(-np.sort(-every, axis=0)[most - 1], 0), np.int_)

    least, greatest = agreed(-1), agreed(np.iinfo(np.int_).max)
    return least if (least == greatest).all() else None


class CloserCount:
    """What most closer views of a zone count, against the picture's cards in it.

    Args:
        counts: which of a view's boxes count on their own (the segmenter's
            :meth:`~tracker.plays.PlaySegmenter.counts`).
        sure_conf: a card read from this up is read surely.
        memory_iou: IoU from which a view's box lies on a card.
    """

    def __init__(self, counts: Callable[[Detections], NDArray[np.bool_]], *, sure_conf: float,
                 memory_iou: float) -> None:
        self.counts = counts
        self.sure_conf = sure_conf
        self.memory_iou = memory_iou

    def counted(self, closer: CloserLook, current: Detections, seat: int,
                ranks: NDArray[np.int_], alike: Detections) -> Detections:
        """The cards of ``ranks`` that most closer views of ``seat``'s zone count: of each
        rank, as many as most views count more cards of it than ``current`` (the picture's
        cards that count) holds in the zone (:func:`agreed_count`). They are the faint cards
        of ``alike`` (surest first), then, past those, the boxes of the rank that overlap the
        zone's cards least, in the first view that counts them. The views are read until most
        of them agree: of three, the third only when the first two disagree.

        A tight fan's strip that the detector finds faintly at the camera's scale, or not at
        all, is most often found surely when the zone is enlarged, while a second box on one
        card, or a piece of an earlier play, is not. On 70 rendered rounds, of the plays held
        with faint cards of their rank beside them, views at 1.3 and 1.4 times both counted more
        cards of the rank for 25 of the 35 plays short of a card, and for none of the 613 others
        (each alone: 27 and 8 of 613, 29 and 5). Reading only the part of the zone around the
        play, with half its size more on each side, was about twice as fast and knew less (21
        and 1 of 613). Read with the pipeline's looser NMS and taking in past the faint cards,
        the views took cards into 32 plays of those rounds, all of them right. On 66 other
        games, of 113 looks at a play short of cards of a rank, two of three views at 1.3,
        1.4 and 1.6 times counted them for 99, both views at 1.3 and 1.4 for 87, and neither
        took in a card too many (docs/vision-pipeline.md, step 32)."""
        in_zone = _zone_cards(current, seat)
        agreed, read = self.agreed(closer(seat), in_zone, ranks, lambda seen, more: more)
        if agreed is None or not agreed.any():
            return Detections.empty()
        return _cards_counted(ranks, agreed, read, in_zone, alike)

    def seen(self, closer: CloserLook, current: Detections, seat: int,
             taken: Detections) -> bool:
        """Whether most closer views of ``seat``'s zone count the faint cards ``taken`` into
        a refused play (:meth:`counted`): then the rules' refusal is explained by the
        play as read short of them, not by another play read wrong (JJ answering TT, read as
        one J and the second J's strip faintly, is not a reason to read a lead 99 as 9)."""
        ranks = np.unique(taken.class_id)
        counted = self.counted(closer, current, seat, ranks, taken)
        return bool((_rank_counts(counted, ranks) >= _rank_counts(taken, ranks)).all())

    def recounted(self, reported: Detections, seat: int, faint: Detections,
                  current: Detections, closer: CloserLook, *, below: float,
                  also: tuple[int, ...] = ()) -> Reading | None:
        """``reported``, a play of ``seat``, with as many cards of each of its ranks, of the
        second choices of its cards read below ``below``, and of the ranks ``also``, as most
        closer views of its zone count, where that differs from the count reported: cards the
        views count more taken in (as :meth:`counted` takes them, ``faint`` ones of those
        ranks first), its least sure cards of a rank the views count fewer of set aside (each
        read below ``below``: with 0, none); ``None`` when the views agree with the report, or
        count fewer of a rank whose cards were read surely, or none of a rank without
        counting as many cards more of others (a card read as another rank is still a card).
        Only while the picture's ``current`` cards in the zone are the play as reported, the
        count the views are weighed against."""
        ranks = _recount_ranks(reported, below, also)
        in_zone = _zone_cards(current, seat)
        if (_rank_counts(in_zone, ranks) != _rank_counts(reported, ranks)).any():
            return None
        agreed, read = self.agreed(closer(seat), in_zone, ranks,
                                   lambda seen, more: np.concatenate([more, -more]))
        if agreed is None or not agreed.any():
            return None
        more, fewer = np.split(agreed, 2)
        aside: list[int] = []
        for rank, count in zip(ranks, fewer):
            of_rank = np.flatnonzero(reported.class_id == rank)
            least_sure = of_rank[np.argsort(reported.confidence[of_rank], kind="stable")[:count]]
            if count and reported.confidence[least_sure].max() >= below:
                return None   # a card read surely: no count to trust
            if count and count == len(of_rank) and more.sum() < fewer.sum():
                return None   # a rank no view finds, and no card read as another rank
            aside += least_sure.tolist()
        taken = _cards_counted(ranks, more, read, in_zone, faint[np.isin(faint.class_id, ranks)])
        kept = setting_aside(reported, aside) if aside else Reading(reported)
        changes = [kept.change] if aside else []
        if len(taken):
            changes.append(f"took in {described(taken)}")
        return counted_closer(Reading(
            Detections.merge([kept.cards, taken]), taken=taken,
            cost=kept.cost + (taking_in_cost(taken) if len(taken) else 0.0),
            change=" and ".join(changes)))

    def confirms(self, closer: CloserLook, current: Detections, seat: int, cards: Detections,
                 *, also: tuple[int, ...] = ()) -> bool:
        """Whether most closer views of ``seat``'s zone bear out ``cards``, a play lying there:
        they count, of its ranks and of the ranks ``also``, as many cards as ``current`` (the
        picture's cards that count) holds in the zone, and read each of its cards below
        ``sure_conf`` surely as its rank (:meth:`read_surely`)."""
        return self._read_by_most(closer, current, seat, cards, also) is not None

    def read_surely(self, closer: CloserLook, current: Detections, seat: int,
                    cards: Detections) -> NDArray[np.float32]:
        """The confidence of each of ``cards``, its unsure ones (below ``sure_conf``) read
        again from the closer views of ``seat``'s zone: the least that the views reading them
        surely give the box surest on each card (IoU at least ``memory_iou``), if most views
        read each of them surely as its rank and count as many cards of the play's ranks as
        ``current`` holds in the zone; else ``cards.confidence``. The views are read until
        most of them agree. A card the detector was unsure of at the camera's scale is most
        often read surely when enlarged, as a stray box is not read at all."""
        read = self._read_by_most(closer, current, seat, cards, ())
        return cards.confidence if read is None else read

    def _read_by_most(self, closer: CloserLook, current: Detections, seat: int,
                      cards: Detections, also: tuple[int, ...]) -> NDArray[np.float32] | None:
        """``cards``' confidences, its unsure ones as the closer views of ``seat``'s zone read
        them (:meth:`read_surely`), if most views count, of its ranks and of ``also``, as many
        cards as ``current`` holds in the zone and read each unsure card surely; else
        ``None``. The views are read until most of them agree."""
        unsure = cards.confidence < self.sure_conf
        sure: list[NDArray[np.float32]] = []

        def reads_surely(seen: Detections, more: NDArray[np.int_]) -> NDArray[np.int_]:
            read = self._read_surely(seen, more, cards[unsure])
            if read is not None:
                sure.append(read)
            return np.array([read is not None], np.int_)

        ranks = np.union1d(cards.class_id, np.asarray(also, np.int_))
        agreed, _ = self.agreed(closer(seat), _zone_cards(current, seat), ranks, reads_surely)
        if agreed is None or not agreed.any():
            return None
        confidence = cards.confidence.copy()
        confidence[unsure] = np.min(sure, axis=0)
        return confidence

    def _read_surely(self, seen: Detections, more: NDArray[np.int_], unsure: Detections
                     ) -> NDArray[np.float32] | None:
        """How surely the closer view ``seen`` reads each of the ``unsure`` cards as its rank
        (its surest box on the card), if it counts ``more`` of none of their ranks and reads
        each of them so from ``sure_conf``; else ``None``."""
        on = box_iou(unsure.xyxy, seen.xyxy) >= self.memory_iou
        if more.any() or not on.any(axis=1).all():
            return None
        if not len(unsure):
            return np.empty(0, np.float32)
        best = np.where(on, seen.confidence[None, :], -1.0).argmax(axis=1)
        read = seen.confidence[best]
        if (seen.class_id[best] != unsure.class_id).any() or read.min() < self.sure_conf:
            return None
        return np.asarray(read, np.float32)

    def agreed(self, views: CloserViews, in_zone: Detections, ranks: NDArray[np.int_],
               vote: Callable[[Detections, NDArray[np.int_]], NDArray[np.int_]]
               ) -> tuple[NDArray[np.int_] | None, list[tuple[Detections, NDArray[np.int_]]]]:
        """A zone's ``views`` read in turn, each as its boxes that count and ``more``, of each
        of ``ranks`` how many more of them it counts than ``in_zone`` (the picture's cards that
        count in the zone) holds, until most views agree on what ``vote(seen, more)`` counts:
        that count (:func:`agreed_count`; ``None`` when there is no view), and the views read,
        each with its ``more``."""
        held = _rank_counts(in_zone, ranks)
        read, votes = [], []
        for i in range(len(views)):
            seen = views[i][self.counts(views[i])]
            more = _rank_counts(seen, ranks) - held
            read.append((seen, more))
            votes.append(vote(seen, more))
            agreed = agreed_count(np.array(votes, np.int_), len(views))
            if agreed is not None:
                return agreed, read
        return None, read


def _cards_counted(ranks: NDArray[np.int_], counts: NDArray[np.int_],
                   read: list[tuple[Detections, NDArray[np.int_]]], in_zone: Detections,
                   alike: Detections) -> Detections:
    """``counts`` cards of each of ``ranks`` that closer views counted more than ``in_zone``
    holds: the faint cards of ``alike`` (surest first), then, past those, the boxes of the
    rank that overlap the zone's cards least, in the first of the views ``read`` (each with
    how many more of each rank it counts) that counts them."""
    taken = []
    for r, (rank, count) in enumerate(zip(ranks, counts)):
        faint = alike[alike.class_id == rank][:count]
        if len(faint) < count:
            boxes = next(seen for seen, more in read if more[r] >= count)
            boxes = boxes[boxes.class_id == rank]
            covered = box_iou(boxes.xyxy, np.concatenate([in_zone.xyxy, faint.xyxy]))
            overlap = covered.max(axis=1) if covered.shape[1] else np.zeros(len(boxes))
            least = np.argsort(overlap, kind="stable")[:count - len(faint)]
            faint = Detections.merge([faint, boxes[least]])
        taken.append(faint)
    return Detections.merge(taken)


def _recount_ranks(cards: Detections, below: float, also: tuple[int, ...]) -> NDArray[np.int_]:
    """The ranks that closer views may count anew in a play: those of its ``cards``, the
    second choices (``data["runner_up"]``) of those read below ``below``, and ``also``."""
    runner_up = cards.data.get("runner_up", np.full(len(cards), BACK_CLASS_ID))
    ranks = np.unique(np.concatenate([cards.class_id, runner_up[cards.confidence < below],
                                      np.asarray(also, np.int_)]))
    return np.asarray(ranks[ranks != BACK_CLASS_ID], np.int_)


def _zone_cards(cards: Detections, seat: int) -> Detections:
    """Those of ``cards`` (carrying ``data["seat"]``) that lie in ``seat``'s zone."""
    return cards[cards.data["seat"] == seat]


def _rank_counts(cards: Detections, ranks: NDArray[np.int_]) -> NDArray[np.int_]:
    """How many of ``cards`` are of each of ``ranks``."""
    return np.array([np.sum(cards.class_id == rank) for rank in ranks], np.int_)


def counted_closer_change(change: str) -> str:
    """``change`` to a play's cards, for people, as the closer views of its zone told it."""
    return f"{change}, counted when its zone was read closer"


def counted_closer(reading: Reading) -> Reading:
    """``reading`` as the closer views of its play's zone count it (:attr:`Reading.counted`),
    told so."""
    return replace(reading, change=counted_closer_change(reading.change), counted=True)
