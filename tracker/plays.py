"""From detections over time to committed plays and gathered tricks.

No object tracking is needed: cards on a table do not move once laid. The segmenter waits
until the face-up cards it sees have stayed the same (same ranks, same places, no motion) for a
stability window, then compares that stable picture with what it remembers of the trick:

- a face-up card that matches no remembered card (same rank, same place, or the visible part
  of a remembered card that something now covers) is **new**; new cards lying together form a
  play, given to the seat whose zone holds them (a play across a border goes to the nearer
  seat, or to the one the rules take it from, or else to the one they let act); several plays
  seen at once are taken in play order, each judged by the rules after those before it;
- a remembered card that is no longer seen is covered, not removed;
- when (almost) no remembered card is seen any more, the trick was gathered: a ``collect``;
  new cards first seen in that picture that are all unsure and that the rules refuse are the
  swept trick's own cards read anew in the pile, not a play; so are unsure new cards the
  rules refuse (after the picture's plays before them) that lie where faint cards lay beside
  an earlier play of the trick, and such cards among the cards of a play the rules refuse
  (that earlier play may take its faint card in).

Anything seen for less than the window never counts. Each play carries ``conf`` (its least
sure card) and ``review`` (true when a card reads below 0.4, when the rules object, when a
card's second choice makes a play the rules would take as well (a close call: a 2 read for a
T joins the play all the same), or when a faint card of its rank lies beside a play the rules
would take with it as well as without: a lead missing a tight fan's strip looks legal; then an
answer of the count it was read with is held too), with ``reason``. A play held only for an
unsure card is let through when most closer views of its zone read that card surely as its
rank and count the play's ranks as the picture does (its ``conf`` is then the card's least sure
closer reading). A faint card is taken into the play when the caller can read the zone again
from closer views and most of them count it (see :meth:`PlaySegmenter.update`): enlarged, a
strip is most often read surely; so are the strips the views count past the faint cards, which
the detector had not found at all.
The rules may pick between two seats of a border play, and when they refuse a play they may
set aside its unsure cards (a second box on one card, a stray reading) if what is left is a
play they take, or take in faint cards the detector found beside it (read too faintly to
count on their own: the narrow strip of a tight fan's bottom card) if those make a play they
take, or else read one unsure card as a faint card of another rank found on it, or as the rank
the classifier found next likeliest (or take one faint card in as that), or read a play of
mixed ranks all as the rank of its surest card (a tight fan's strips misread), or, with nothing
of that to mend it, take in the cards of its ranks that most closer views of its zone count
more of (a tight fan of seven 6s found as five); that play is still held for review. They
never invent a card, nor give one a rank vision did not see in its play.

The plays of a trick are evidence about each other (an answer must have the lead's count), and
a seat's count links its plays across tricks. When the rules refuse a play as read, and one
earlier play of this trick or the one before, read in one of those other ways (the others as
read), makes all of them plays the rules take, more cheaply than mending the new play, the
segmenter corrects that play: an event carrying ``fixes``, the ``seq`` every event carries (a
lead read with a tight fan's strip too many is mended by the plays answering it, instead of
each answer losing a card; the play a refused play answers may have two cards changed, a tight
fan losing two strips at once). A refused play whose zone, read closer, shows the cards it
lacks is not weighed so: what most views count is evidence, a lead mended to fit is a guess
(22777777 led with a 7 read at 0.52, and SJ SJ 22KKKK answering it read a K short, a K its zone
read closer counts); nor is the play it answers, when most closer views of that play's zone
count more or fewer of its cards than it was reported with: that play is corrected to their
count (7777 led, read 77777 with a box on no card, every view counting four 7s). Nor is a
refused play whose zone's views count each of its ranks, and of its unsure cards' second
choices, so that the rules take it (BJ SJ SJ 9 read BJ BJ SJ 9, a fifth BJ of the deck). A play
the rules take with a card read below ``recount_conf`` has its zone read closer too, and takes in
the cards of its ranks that most views count more (a tight fan's strip found by no box). The
plays after a play are firmer evidence about it than the rules alone are about the play they
refuse, so an earlier play's cards read below ``mend_conf``, a little surer than unsure, may be
set aside or read again as well (a lead of three jacks read with a fourth at 0.52 is mended by
answers of three cards). A round deals each rank a fixed number of times, so a play refused for
a rank the deck has no more of may correct a play of any earlier trick of the round that holds
that rank (a queen read as a 2 shows when the seventeenth 2 is laid), a play of more cards than
its seat has left may correct one of the seat's earlier plays, and a refused play may correct a
play of the round by a seat the rules hold to a card or two, read so that the seat is out (JJ
read J, the seat out some tricks later and the table playing on without it). When nothing else
explains a refused play, the play it answers, whose cards lie there still, is read again from
closer views of its zone: a card read there as another rank may correct it (an 8 led, read
surely as a 9, shows when a 9 answers it). New cards in the zone of a seat that played in the
trick, seen in one picture with the next play, may be the last cards of the seat's play, laid
late: that play is corrected to take them when the rules then take the next play. When the
stream ends, the round filmed should be over: a play of the round read with one card changed
that ends it is corrected then (a lead read a card short, its seat left holding a card it never
had); a live table's stream does not end, so the same is done once the table has seen no play
for a minute (``round_gap``: the next deal is being made). When no such reading ends the round
and the rules refuse the first play after that minute as read, on a table cleared of the
trick's cards, the table has dealt anew while the rules still hold the old round: that play
opens a new round (a ``round`` event the rules refuse until the old round is corrected; the
play is held for review), and the new deal is judged by rules of its own instead of being bent
to a round the table has left, so that correcting the old round is all it takes to set the game
right. A play sooner than ``round_gap`` after the last one, when the rules saw that one end the
round, is of that round (no table deals in seconds): the cheapest reading of one of its plays,
one card changed, after which the rules take every play and the new one is corrected (a play
read with a card too many let a seat go out early). Corrections are held for review too, and so
is the play that called for them: the rules took it only on that guess about another play. An
answer the rules still refuse, read with another count than the play it answers, when no
earlier play was corrected for it, casts doubt on that play's count as well: the play answered,
and the plays of the trick before it read with its count, back to the lead, are held as they
stand where they went in unheld (a correction with its own cards: 6666 read 666 unheld, the
answer SJ AAA refused; 25 led read 5 and JJ answering it read J, both unheld, then a 2-card
answer refused).

>>> import numpy as np
>>> from vision.detections import Detections
>>> from tracker.table import TableLayout
>>> from tracker.zones import SeatZones
>>> zones = SeatZones(TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)],
...                                       (1280, 720)))
>>> fives = Detections(xyxy=np.array([[600, 560, 640, 620], [620, 560, 660, 620]], np.float32),
...                    confidence=np.array([0.9, 0.8], np.float32), class_id=np.array([2, 2]))
>>> segmenter = PlaySegmenter(zones, window=0.5)
>>> [segmenter.update(fives, t / 10) for t in range(6)][-1]
[{'type': 'play', 'seat': 0, 'cards': '55', 't': 0.5, 'source': 'vision', 'conf': 0.8, 'review': False, 'seq': 1}]
>>> [segmenter.update(Detections.empty(), 1 + t / 10) for t in range(6)][-1]
[{'type': 'collect', 't': 1.5, 'source': 'vision', 'conf': 1.0, 'seq': 2}]
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from tracker.closer import CloserCount, CloserLook, counted_closer, counted_closer_change
from tracker.gather import GatherRule
from tracker.history import Mend, RoundRecord, Trick, TrickPlay, nearly_out, taken_with
from tracker.matching import CardMatcher, groups, grown, inside_alike, match_boxes, over_alike
from tracker.prior import Event, Prior, Verdict, round_open
from tracker.readings import (
    PlayReader,
    Reading,
    described,
    format_play,
    not_found_twice,
    read_as,
    second_choices,
)
from tracker.table import SEAT_COUNT
from tracker.zones import SeatZones
from vision.classes import BACK_CLASS_ID, CLASS_NAMES, class_id
from vision.detections import Detections, box_inside, box_intersection, box_iou

__all__ = ["FAINT_CONF", "LOOK_AHEAD", "MAX_REVISIONS", "MIN_CONF", "REVIEW_CONF", "ROUND_GAP",
           "SURE_CONF", "PlaySegmenter"]


WILD_CLASS_IDS = tuple(class_id(name) for name in ("2", "SJ", "BJ"))
"""The ranks that may join a play of any rank: a refused play's closer views may count them
too."""
MIN_CONF = 0.2
"""Default confidence a detection needs to count as a card on its own."""
FAINT_CONF = 0.1
"""Default confidence from which a detection is a faint card (see :class:`PlaySegmenter`): a
detector feeding the segmenter should report boxes down to it."""
REVIEW_CONF = 0.3
"""Default confidence under which a play's least sure card holds it for review (see
:class:`PlaySegmenter`)."""
SURE_CONF = 0.4
"""Default confidence from which a card is read surely (see :class:`PlaySegmenter`)."""
ROUND_GAP = 60.0
"""Default seconds without a play after which an open round is judged as the end of the stream
judges it (see :class:`PlaySegmenter`)."""
LOOK_AHEAD = 0.5
"""Default share of the stability window after which a picture's commit is rehearsed, for the
closer views it needs to be read before the window ends (see :class:`PlaySegmenter`)."""
MERGED_AREA = 2.2
"""Times a card's area from which a new box holding a card of its rank (``memory_cover``
inside it) is no card but the detector's box over several (BJ SJ 8888 read BJ SJ 88888, one
8's box 2.5 times the top card's, holding it). The box of a card turned 45° holds the box
of one lying square beneath it at 2.06 times its area."""
MAX_REVISIONS = 32
"""Default count of other readings of recent plays weighed when the rules refuse a play; it
bounds the time a refused play may cost (each is judged by replaying the recent plays)."""


class PlaySegmenter:
    """Turns per-frame detections into ``play`` and ``collect`` events, numbered by ``seq``
    (and, with a prior, the ``round`` event a play opens when no round is in play).

    Args:
        zones: the seat zones of the table.
        window: seconds the face-up cards must stay unchanged before they count.
        min_conf: detections below this confidence do not count on their own.
        faint_conf: detections from this confidence up to ``min_conf``, and second readings
            (``data["second_reading"]`` true: most often one card found twice) from it up, are
            faint: they count only when the rules refuse a play without them and take it with
            them (the detector must report that low; below it detections are ignored). A
            faint card of a play's rank beside it holds the play for review, and an answer of
            its count that its own zone read closer does not bear out, unless it is a card's
            second box from the card's own corner (``data["found_twice"]``).
        review_conf: a play whose least sure card is below this is held for review, unless
            nothing else holds it and most closer views read its cards below ``sure_conf``
            from ``sure_conf`` up (:meth:`CloserCount.read_surely`). Of the plays that
            nothing else held, on 137 rendered rounds, none of the 192 whose least sure card
            read 0.3-0.4 was wrong (nor any of 49 more, filmed smaller, larger or from twice
            as far); 2 of the 135 below 0.3 were (AAAA read AAAAA at 0.209, 222 read 2222 at
            0.254). Below 0.4, as before, 1354 plays of the 137 rounds were held, not 1162.
            On 32 rounds measured since, 1 of the 38 plays 0.3-0.4 let through was wrong
            (22QQQ read 2QQQQ at 0.331): some 230 fewer plays to look at for each one missed.
        sure_conf: a card read from this up is read surely: the sure cards alone say which
            zone a play lying across two is in, and a closer view must read a card below this
            from it up to let the card's play through.
        repair_conf: cards read below this are unsure: when the rules refuse a play, its
            unsure cards may be set aside or read as their second choice.
        mend_conf: the plays after an earlier play may set aside or read again (second choice)
            its cards read below this, surer than ``repair_conf``: answers of three cards
            outweigh a lead's fourth card read at 0.52 (41 rendered games at 0.6: that lead
            and a play it misled mended, no play broken; mending the refused play itself from
            cards below 0.6 as well broke two right plays, so that stays at ``repair_conf``).
        recount_conf: a play the rules take with a card read below this has its zone read
            closer for the count of each of its ranks, and takes in the cards most views count
            more of, a strip found by no box (:meth:`_gained_closer`; held). From
            ``mend_conf`` up to 0.7, on 97 rendered rounds: two leads the rules took unheld, a
            card short, gained it (SJ TTTTT read SJ TTTT at 0.614; 33333, a seat's last cards,
            read 3333 at 0.695, its game then right), and one right lead of TTT, read at 0.644,
            a fourth T that the round's later plays corrected.
        second_choice_ratio: a card's second choice (``data["runner_up_confidence"]``)
            counts from this share of the card's own score; a faint card's, from
            ``faint_conf``. Counted from 0.05 whatever the card's score, a T read as a 2 at
            0.54, T next at 0.048, was not mended when the seventeenth 2 was laid; from a
            twentieth of it, it was, and no other play of 57 rendered rounds changed. Weighed
            in the other direction too, for a close call (``close_call_conf``).
        close_call_conf: a play the rules take is held for review when a card of it read
            below this has a second choice that counts (``second_choice_ratio``) and the rules
            would take the play with the card read so too (:meth:`_close_call`). 47 rendered
            rounds: 27 more plays held (590 of 4609), among them the 4 wrong plays the rules
            took unheld before (a T, an A and a joker read as 2s, a J read as a Q); at a
            ratio of 0.06 one of them goes unheld again.
        prior: the rules' view of who may act and what they may play (optional).
        gather: when a stable table counts as a gathered trick (default :class:`GatherRule`).
        still_iou: IoU for "the same card as in the previous frame" (stability).
        memory_iou: IoU for "a card remembered from earlier in the trick".
        memory_cover: fraction of a visible box inside a remembered box for "the same card,
            now partly covered".
        reread_iou: IoU with a remembered card above which a box is that card whatever rank
            the detector reads now (cards lying still do not change).
        group_gap: new cards closer than this × their short side belong to one play.
        max_set_aside: at most this many unsure cards (below ``repair_conf``; ``mend_conf``
            for an earlier play) are set aside from a play the rules refuse, to find the play
            they would take (0: never).
        max_take_in: at most this many faint cards are taken into a play the rules refuse
            (0: never).
        second_choice: when the rules refuse a play and neither setting aside nor taking in
            helps, read one unsure card as the classifier's second choice, or take in one faint
            card as its second choice, if that makes a play they take (detections carrying
            ``data["runner_up"]`` and
            ``data["runner_up_confidence"]``, as :class:`vision.detector.Detector` gives).
        max_revisions: when the rules refuse a play, at most this many other readings of
            recent plays, one card changed each (two for the play it answers), are weighed,
            cheapest first, to correct one of them instead if that explains the play more
            cheaply; as many again of the round's earlier plays holding one of its ranks
            (module docstring; needs a prior that gives checkpoints; 0: never).
        round_gap: seconds without a play after which a round the rules still hold open is
            judged as :meth:`finish` judges it when the stream ends (once per such spell;
            ``None``: never). Between two rounds a table gathers, shuffles and deals four
            decks, which takes minutes; a turn seldom takes a minute, and the correction needs
            a play that, read with one card changed, ends the round.
        look_ahead: share of the window after which, when :meth:`update` is given closer
            views, the picture's commit is rehearsed on a copy of the segmenter, for the views
            it will ask for to be read within the window (:meth:`_rehearse`; ``None``: never).
    """

    def __init__(self, zones: SeatZones, *, window: float = 0.5, min_conf: float = MIN_CONF,
                 faint_conf: float = FAINT_CONF, review_conf: float = REVIEW_CONF,
                 sure_conf: float = SURE_CONF, repair_conf: float = 0.5, mend_conf: float = 0.6,
                 recount_conf: float = 0.7,
                 second_choice_ratio: float = 0.05, close_call_conf: float = 0.7,
                 prior: Prior | None = None, gather: GatherRule | None = None,
                 still_iou: float = 0.6, memory_iou: float = 0.5, memory_cover: float = 0.8,
                 reread_iou: float = 0.85, group_gap: float = 0.6,
                 max_set_aside: int = 2, max_take_in: int = 2,
                 second_choice: bool = True, max_revisions: int = MAX_REVISIONS,
                 round_gap: float | None = ROUND_GAP,
                 look_ahead: float | None = LOOK_AHEAD) -> None:
        if not window > 0:   # cards seen for no time at all would count: noise as plays
            raise ValueError(f"window must be above 0 seconds, got {window}")
        self.zones = zones
        self.window = window
        self.look_ahead = look_ahead
        self.min_conf = min_conf
        self.faint_conf = faint_conf
        self.review_conf = review_conf
        self.sure_conf = sure_conf
        self.repair_conf = repair_conf
        self.mend_conf = mend_conf
        self.recount_conf = recount_conf
        self.close_call_conf = close_call_conf
        self.prior = prior
        self.gather = gather or GatherRule()
        self.still_iou = still_iou
        self.group_gap = group_gap
        self.matcher = CardMatcher(iou=memory_iou, cover=memory_cover, same_place=reread_iou)
        """When a card of a picture is a card remembered, or taken into a play already."""
        self.reader = PlayReader(memory_iou=memory_iou, faint_conf=faint_conf,
                                 second_choice_ratio=second_choice_ratio,
                                 max_set_aside=max_set_aside, max_take_in=max_take_in,
                                 second_choice=second_choice)
        """The other readings of a play that the rules may weigh, within these settings."""
        self.closer_count = CloserCount(self.counts, sure_conf=sure_conf,
                                        memory_iou=memory_iou)
        """What the closer views of a zone count, that a play's own reading may give way to."""
        self.max_revisions = max_revisions
        self.round_gap = round_gap
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new table or a new video)."""
        self._previous = Detections.empty()
        self._stable_since: float | None = None
        self._settled = False
        self._looked_ahead = False   # the picture's commit was rehearsed (see ``look_ahead``)
        self._memory = Detections.empty()      # face-up cards of the current trick
        self._leftovers = Detections.empty()   # stragglers seen after a gather: never new
        # The tricks of the round in play, and the other readings of their plays.
        self._round = RoundRecord(self.reader, self.matcher, repair_conf=self.repair_conf,
                                  mend_conf=self.mend_conf, max_revisions=self.max_revisions)
        self._made = 0                           # events made: the last one's seq
        self._last_play_t: float | None = None   # when the last play was committed
        self._gap_judged = False                 # the round was judged in this spell without plays
        # The round the rules held open after a spell without plays (``_suspect_round``) is
        # taken as over when they refuse the next play as read (``_stale_round``): a new deal,
        # judged by a prior of its own (``_deal``) until the rules leave that round.
        self._suspect_round: int | None = None
        self._stale_round: int | None = None
        self._deal: Prior | None = None
        self.last_seat: int | None = None
        """Seat of the last committed play."""

    @property
    def remembered(self) -> Detections:
        """The face-up cards of the current trick, as last seen (covered ones included)."""
        return self._memory

    @property
    def holds_trick(self) -> bool:
        """Whether cards of a trick in play are remembered (none from a gather to the next
        play)."""
        return bool(len(self._memory))

    def resized(self, factors: tuple[float, float]) -> None:
        """The zones are now worked on in pictures scaled by ``factors`` (across, down): the
        cards remembered between two tricks (the stragglers of the last gather, and the last
        picture's) are scaled with them. Only between two tricks (:attr:`holds_trick`): a
        trick's plays are weighed against each other in the pixels they were read in.

        Raises:
            ValueError: a trick's cards are remembered.
        """
        if self.holds_trick:
            raise ValueError("the zones may change size only between two tricks")
        scale = np.array(factors * 2, np.float32)
        self._leftovers = replace(self._leftovers, xyxy=self._leftovers.xyxy * scale)
        self._previous = replace(self._previous, xyxy=self._previous.xyxy * scale)

    @property
    def stable_since(self) -> float | None:
        """When the current picture started (``None`` before the first frame)."""
        return self._stable_since

    def counts(self, detections: Detections) -> NDArray[np.bool_]:
        """Which detections count on their own: read at least ``min_conf`` and not marked as a
        second reading (``data["second_reading"]``)."""
        sure = detections.confidence >= self.min_conf
        second = detections.data.get("second_reading")
        return np.asarray(sure if second is None else sure & ~second)

    def face_up(self, detections: Detections, *, faint: bool = False) -> Detections:
        """The face-up detections inside the play area that count (or, with ``faint``, the
        faint ones: read at least ``faint_conf`` but not counting), with ``data["seat"]`` added
        to what they carry."""
        counts = self.counts(detections)
        chosen = ~counts & (detections.confidence >= self.faint_conf) if faint else counts
        found = detections[chosen & (detections.class_id != BACK_CLASS_ID)]
        seats = self.zones.trigger(found)
        inside = seats >= 0
        return found[inside].with_data(seat=seats[inside])

    def update(self, detections: Detections, t: float, *, moving: bool = False,
               closer: CloserLook | None = None) -> list[Event]:
        """Feed one frame's detections (image pixels) taken at ``t`` seconds.

        Args:
            detections: the frame's boxes.
            t: the frame's time in seconds (non-decreasing).
            moving: something moves over the table (a hand), so nothing is stable yet.
            closer: reads a seat's zone of this frame again, closer (the views are read
                until most of them agree: of three, the third only when the first two
                disagree). Asked when a play the rules take is committed with faint cards of
                its ranks beside it that the rules would take as well as not: as many cards as
                most views count more of a rank than the frame's detections count in the zone
                are taken into the play, faint ones first; failing those, when a card of the
                play was read below ``recount_conf``, the cards of its ranks most views count
                more of are taken in if the rules take the play so. Asked when the rules
                refuse a play: a reading taking in faint cards beside it stands if most views
                count them; else the count of each of its ranks that most views give is the
                play's (cards read below ``mend_conf`` set aside, cards taken in) if the rules
                then take it; else the zone of the play it answers is read for that play's
                count. And for a play held only for an unsure card: it is not held if most
                views read the card surely. Asked as well, for the same zones, once the
                picture has stood ``look_ahead`` of the window: the caller that keeps each
                zone's views until the zone is detected again reads them once, before the
                commit needs them.

        Returns:
            The events committed by this frame, in order (usually none).
        """
        events: list[Event] = []
        if self._spell_without_plays(t):
            events = self._end_of_round(f"the table saw no play for {self.round_gap:.0f} s")
            if not events and self._stale_round is None and round_open(self.prior):
                self._suspect_round = self.prior.round_number()
        current = self.face_up(detections)
        unchanged = (len(current) == len(self._previous)
                     and bool((match_boxes(current, self._previous, iou=self.still_iou) >= 0)
                              .all()))
        self._previous = current
        if moving or not unchanged or self._stable_since is None:
            self._stable_since = t
            self._settled = self._looked_ahead = False
        if self._settled:
            return events
        if t - self._stable_since < self.window:
            if (closer is not None and self.look_ahead is not None and not self._looked_ahead
                    and t - self._stable_since >= self.look_ahead * self.window):
                self._looked_ahead = True
                self._rehearse(self._sort(current), self.face_up(detections, faint=True), t,
                               closer=closer)
            return events
        self._settled = True
        return events + self._commit(self._sort(current), self.face_up(detections, faint=True),
                                     t, closer=closer)

    def _rehearse(self, picture: _Sorted, faint: Detections, t: float, *,
                  closer: CloserLook) -> None:
        """Commit the picture on a copy of the segmenter, its events thrown away, so that
        ``closer`` reads now the views the commit will ask for: a caller that keeps each
        zone's views until the zone changes has them at hand when the window ends (each view
        costs a detector run on an enlarged zone, too long to wait for after it). A picture
        with no new card asks for no view: it is not rehearsed (a hand that passed without
        laying cards, a gathered trick)."""
        if not len(picture.new):
            return
        # A commit reads these and never changes them (a trick's checkpoint is replaced, not
        # changed): shared, they make the copy twice as fast.
        unchanged_by_a_commit = {id(self.zones): self.zones, id(self.prior): self.prior,
                                 id(self.closer_count): self.closer_count,
                                 **{id(trick.checkpoint): trick.checkpoint
                                    for trick in self._round.tricks}}
        copy.deepcopy(self, unchanged_by_a_commit)._commit(picture, faint, t, closer=closer)

    def finish(self) -> list[Event]:
        """The events the end of the stream calls for (once, when the source has ended).

        A filmed round ends with its last play. When the rules still hold some seat to cards
        it never laid, and one play of the round read with one or two cards changed (see
        :meth:`PlayReader.readings` and :meth:`RoundRecord.two_changes`), gaining the seat
        exactly those cards, makes every play one the rules take and the round over, that play
        is corrected (held for review); failing that, two plays of two seats so
        (:meth:`RoundRecord.ending_the_round`). A play read a card short with the missing card
        faint beside it often shows only here: a lead of any count is taken, and what a seat
        keeps is asked of nobody until the round should end (its last two jacks led as J, a
        faint J beside them; seven 4s led as five, two faint 4s beside them)."""
        return self._end_of_round("the stream ended")

    def _spell_without_plays(self, t: float) -> bool:
        """Whether ``t`` ends the first ``round_gap`` seconds without a play since the last
        one (true once per such spell)."""
        if (self.round_gap is None or self._last_play_t is None or self._gap_judged
                or t - self._last_play_t < self.round_gap):
            return False
        self._gap_judged = True
        return True

    def _end_of_round(self, why: str) -> list[Event]:
        """The corrections that end the round in play, judged because ``why`` says it should
        be over (see :meth:`finish`)."""
        prior = self._rules()
        if prior is None or not self._round.tricks or self._round.tricks[0].checkpoint is None:
            return []   # nothing to weigh: the rules' counts are not asked
        left = {seat: prior.cards_left(seat) for seat in range(SEAT_COUNT)}
        if None in left.values():   # no round in play, or it is over
            return []
        candidates = self._round.readings_going_out({seat: count for seat, count in left.items()
                                                     if count})
        changes = self._round.ending_the_round(prior, candidates)
        if not changes:
            return []
        events, _ = self._revise(changes, after=f"{why} with " + " and ".join(
            f"seat {seat} holding {left[seat]} card(s)"
            for seat in sorted({play.seat for play, _ in changes})))
        for play, reading in changes:
            if not any(trick.gathered for trick in self._round.tricks[self._round.trick_of(play):]):
                # its cards lie there still
                self._memory = Detections.merge([self._memory, reading.taken])
        self._feed_deal(events)
        return events

    # -- committing a stable picture -------------------------------------------------------

    def _sort(self, current: Detections) -> _Sorted:
        """The stable picture's face-up cards ``current`` sorted against what the segmenter
        remembers (nothing changed: :meth:`_commit` acts on it, and so does a rehearsal's
        copy, which remembers the same)."""
        known = self.matcher.match(current, self._memory)
        seen_before = known >= 0
        gathered = self.gather.gathered(remembered=len(self._memory),
                                        still_visible=int(seen_before.sum()))
        if gathered:   # what is still seen of the gathered trick is stragglers from now on
            leftovers, seen_before = current[seen_before], np.zeros(len(current), bool)
        else:
            leftovers = self._leftovers
            # A remembered card found twice, its whole box and a piece of it inside that box,
            # is one card: the piece is no new card.
            seen_before |= inside_alike(current, current[seen_before], self.matcher.cover)
        stray = (self.matcher.match(current, leftovers) >= 0
                 if len(leftovers) else np.zeros(len(current), bool))
        over_several = over_alike(current, self.matcher.cover, MERGED_AREA) & ~seen_before
        return _Sorted(current=current, known=known, gathered=gathered,
                       stragglers=current[stray],
                       new=current[~(seen_before | stray | over_several)])

    def _commit(self, picture: _Sorted, faint: Detections, t: float, *,
                closer: CloserLook | None) -> list[Event]:
        events: list[Event] = []
        current = picture.current
        if picture.gathered:
            events.append(self._numbered({
                "type": "collect", "t": round(t, 3), "source": "vision",
                "conf": self.gather.confidence(remembered=len(self._memory),
                                               still_visible=picture.still_visible)}))
            self._memory = Detections.empty()
            if self._round.tricks:
                self._round.tricks[-1].gathered = True
        else:
            # What is seen of a remembered card replaces its old box: a card later laid on
            # top of it is then told apart by place, not confused with the covered one.
            seen = picture.known >= 0
            xyxy = self._memory.xyxy.copy()
            xyxy[picture.known[seen]] = current.xyxy[seen]
            self._memory = replace(self._memory, xyxy=xyxy)
        self._leftovers = picture.stragglers
        if len(picture.new):
            plays = self._set_aside_strays(self._plays(picture.new), swept=picture.gathered)
            faint = self._faint_candidates(faint)
            taken = Detections.empty()
            opening = self._new_deal(*plays[0]) if plays else None
            if opening is not None:
                events.append(self._numbered({**opening, "t": round(t, 3)}))
                self._round.tricks = []
                self._feed_deal(events[-1:])
            prior = self._rules()
            for i, (seat, members) in enumerate(plays):
                # Cards taken into an earlier play of the picture (laid late, or found faintly
                # before) are its cards, not a play.
                members = self.matcher.not_among(members, taken)
                if not len(members):
                    continue
                anew = self._seen_anew(prior, seat, members, swept=picture.gathered)
                if i and anew.all():   # a stray, to the rules after the plays before it
                    self._leftovers = Detections.merge([self._leftovers, members])
                    continue
                if anew.any() and not anew.all():   # earlier plays' cards among its own
                    self._leftovers = Detections.merge([self._leftovers, members[anew]])
                    members = members[~anew]
                later = {other: rest for other, cards in plays[i + 1:]
                         if len(rest := self.matcher.not_among(cards, taken))}
                made, taken_in = self._play_event(seat, members, t, prior=prior,
                                                  together=len(plays) > 1, faint=faint,
                                                  first=i == 0, later=later, current=current,
                                                  closer=closer, stale=self._stale_round
                                                  if opening is not None and i == 0 else None)
                events += made
                taken = Detections.merge([taken, taken_in])
                self._memory = Detections.merge([self._memory, members, taken_in])
                self._feed_deal(made)
                if self._deal is None and prior is not None and i + 1 < len(plays):
                    prior = prior.after(made)
        return events

    def _new_deal(self, seat: int, cards: Detections) -> Event | None:
        """The ``round`` event of a new deal that the first play of a picture, ``cards`` from
        ``seat``, opens, or ``None``.

        After a spell without plays that left the rules' round open, that play decides:
        refused as read on a table cleared of the trick's cards, it opens a new deal (the round
        left open turned on a play nobody corrected, and the rules would bend every play of the
        new round to it), judged by a round of its own (:meth:`Prior.new_deal`, see
        :meth:`_rules`). With the trick's cards still lying there, the spell was a long turn.
        A new deal is held for review: the guess that the table dealt anew is the operator's to
        confirm.
        """
        suspect, self._suspect_round = self._suspect_round, None
        prior = self.prior
        if (suspect is None or len(self._memory) or not round_open(prior)
                or prior.round_number() != suspect
                or not prior.objection(seat, format_play(cards.class_id))):
            return None
        self._stale_round = suspect
        opening, self._deal = prior.new_deal(seat)
        return opening

    def _too_soon_for_a_deal(self, t: float) -> float | None:
        """The seconds since the last play when a play at ``t`` comes too soon after it (less
        than ``round_gap``) to open a round of a new deal, else ``None``."""
        if self.round_gap is None or self._last_play_t is None:
            return None
        since_last = t - self._last_play_t
        return since_last if since_last < self.round_gap else None

    def _feed_deal(self, events: list[Event]) -> None:
        """Let a new deal's rules hear of ``events`` (plays, corrections, rounds: no caller keeps
        them). Collects are not passed on: on the rendered games of two rounds that cost a
        play."""
        if self._deal is not None:
            self._deal.take(events)

    def _rules(self) -> Prior | None:
        """The prior that judges plays now: the rules', or that of a new deal while they hold
        open a round the table has left (:meth:`_new_deal`). The rules are heard again once the
        round they held is over or another begun (an operator's correction)."""
        prior = self.prior
        if (prior is not None and self._stale_round is not None
                and (not round_open(prior) or prior.round_number() != self._stale_round)):
            self._stale_round = self._deal = None
        return self._deal if self._stale_round is not None else prior

    def _set_aside_strays(self, plays: list[tuple[int, Detections]], *, swept: bool
                          ) -> list[tuple[int, Detections]]:
        """``plays`` less the strays (every card :meth:`_seen_anew`) to the rules as they
        stand before the picture, which become stragglers: the first play left may open a new
        deal. The commit judges each later play again, by the rules after the plays before
        it."""
        prior = self._rules()
        kept = []
        for seat, cards in plays:
            if self._seen_anew(prior, seat, cards, swept=swept).all():
                self._leftovers = Detections.merge([self._leftovers, cards])
            else:
                kept.append((seat, cards))
        return kept

    def _seen_anew(self, prior: Prior | None, seat: int, cards: Detections, *, swept: bool
                   ) -> NDArray[np.bool_]:
        """Which of a play's ``cards`` from ``seat`` are cards already there, read anew, when
        ``prior`` refuses the play: every card, all of them unsure, when the trick was
        ``swept`` together in this picture (its own cards, moved and read anew: a small joker
        read in the pile when four were played already); else its unsure cards that lie where
        a faint card lay beside an earlier play of the trick, not taken in. All of them make a
        stray, no play (a faint 9 beside a lead of 99, read at 0.291 when AA landed in the next
        zone; a faint A beside a lead of 4s, read at 0.21 when the answer landed, refused only
        once the answer is made: to rules that have not seen it, a lead of its own, every other
        seat passing). Some are set aside from the play, for the earlier play to take in if
        the rules then take both (the 6 of a lead of 6666 read 666 beside it, read at 0.205
        when the 8888 answering it landed by it: 88886, refused)."""
        unsure = cards.confidence < self.repair_conf
        if (prior is None or not unsure.any()
                or prior.objection(seat, format_play(cards.class_id)) is None):
            return np.zeros(len(cards), bool)
        if swept and unsure.all():
            return unsure
        return unsure & self._where_faint_cards_lay(cards)

    def _where_faint_cards_lay(self, cards: Detections) -> NDArray[np.bool_]:
        """Which of ``cards`` lie where a faint card lay beside a play of the trick."""
        faint = Detections.merge([play.faint for play in self._round.tricks[-1].plays]
                                 if self._round.tricks else [])
        if not len(faint):
            return np.zeros(len(cards), bool)
        return self.matcher.match(cards, faint) >= 0

    def _faint_candidates(self, faint: Detections) -> Detections:
        """The faint cards that may be cards of a new play: neither remembered nor a
        straggler of the last trick, and each faint card once (one lying mostly inside a
        surer faint box, or on it, is that card again).

        A faint box inside a card that counts is kept: on a tight fan the bottom card's
        strip is often found as part of the box above it, and only the rules can tell."""
        if not len(faint):
            return faint
        ignored = Detections.merge([self._memory, self._leftovers])
        remembered = self.matcher.match(faint, ignored) >= 0
        surer = faint.confidence[:, None] < faint.confidence[None, :]
        on_it = ((box_inside(faint.xyxy, faint.xyxy) >= self.matcher.cover)
                 | (box_iou(faint.xyxy, faint.xyxy) >= self.matcher.iou))
        again = (surer & on_it).any(axis=1)
        return faint[~(remembered | again)]

    def _plays(self, new: Detections) -> list[tuple[int, Detections]]:
        """Split new cards into plays (one per seat), ordered as play order goes on."""
        by_seat: dict[int, list[int]] = {}
        for members in groups(new.xyxy, self.group_gap):
            seat = self._seat_of(new[np.array(members)])
            by_seat.setdefault(seat, []).extend(members)
        start = 0 if self.last_seat is None else self.last_seat + 1
        prior = self._rules()
        order = sorted(by_seat, key=lambda s: (
            not (prior is not None and prior.may_act(s)), (s - start) % SEAT_COUNT))
        return [(seat, new[np.array(sorted(by_seat[seat]))]) for seat in order]

    def _seat_of(self, group: Detections) -> int:
        """The seat of one group of new cards: the zone of its middle, i.e. the nearer seat;
        if its sure cards lie across zones the rules may choose among those zones: the one
        seat from which they take the play, else the one seat they let act. A seat's last
        cards may be a play out of turn (3333 laid across two zones by the seat going out with
        them, whose neighbour, to act, may not play them there)."""
        middle = group.center.mean(axis=0)
        seat = int(self.zones.seat_of_points(middle[None])[0])
        # An unsure card says little of where the play lies (a card of the play before, read
        # anew beside it), and the rules would take the play from that play's seat as a lead
        # after all passed: they choose among the zones of its sure cards only.
        sure = group.confidence >= self.sure_conf
        lying_in = group.data["seat"][sure] if sure.any() else group.data["seat"]
        touched = sorted(({int(s) for s in lying_in} | {seat}) - {-1})
        prior = self._rules()
        if prior is not None and len(touched) > 1:
            cards = format_play(group.class_id)
            for allows in (lambda s: prior.objection(s, cards) is None, prior.may_act):
                allowed = [s for s in touched if allows(s)]
                if len(allowed) == 1:
                    return allowed[0]
        if seat < 0:
            seat = self.zones.nearest_seat((float(middle[0]), float(middle[1])))
        return seat

    def _play_event(self, seat: int, cards: Detections, t: float, *, prior: Prior | None,
                    together: bool, faint: Detections, first: bool,
                    later: dict[int, Detections], current: Detections,
                    closer: CloserLook | None = None, stale: int | None = None
                    ) -> tuple[list[Event], Detections]:
        """The events of one play judged by ``prior`` (a ``round`` it opens, or corrections
        of earlier plays, first), and the cards taken into plays: faint ones, and those of the
        ``later`` plays of the picture (by seat) taken into an earlier play of their seat as
        laid late. Only the ``first`` play of a picture may open a round: a prior that cannot
        tell what follows the picture's events would open one for each play. A play the
        rules take may gain cards that the ``closer`` views of its zone count, against the
        picture's ``current`` cards (:meth:`_gained_closer`); one they refuse is mended
        (:meth:`_mend_refused`). A play that opens a new deal while the rules hold open round
        ``stale`` is held for review."""
        nearby = faint[np.array(self._faint_beside(seat, cards, faint), np.int_)]
        events: list[Event] = []
        opening = prior.opening(seat) if prior is not None and first else None
        text = format_play(cards.class_id)
        unended: list[Event] = []
        revised_taken = Detections.empty()
        since_last = self._too_soon_for_a_deal(t) if opening is not None else None
        if prior is not None and since_last is not None:
            ended_early = self._round.round_not_over(prior, seat, text)
            if ended_early is not None:
                opening = None
                # brought up to date by _revise
                self._round.tricks.append(Trick(prior.checkpoint()))
                unended, revised_taken = self._revise(
                    [ended_early], after=f"seat {seat} played {text} {since_last:.0f} s after "
                                         f"the round's last play")
                events += unended
        if opening is not None:
            events.append(self._numbered({**opening, "t": round(t, 3)}))
            self._round.tricks = []   # a new deal: the plays before say nothing of this round's
        if prior is not None and not unended and (not self._round.tricks or prior.leads(seat)):
            self._round.tricks.append(Trick(prior.checkpoint()))
        read, reading = cards, Reading(cards)
        # The rules, not having heard the corrections yet, see the round over: not asked.
        objection = prior.objection(seat, text) if prior and not unended else None
        revision: list[tuple[TrickPlay, Reading]] = []
        repair: Reading | None = None
        if prior is not None and objection:
            repair, revision = self._mend_refused(prior, seat, cards, nearby=nearby,
                                                  current=current, closer=closer, later=later)
            if revision:
                corrections, revised_taken = self._revise(revision,
                                                          after=f"seat {seat} played {text}")
                events += corrections
                if corrections:  # taken only on a guess about another play: show both
                    objection += f"; {taken_with(corrections)}"
            if repair is not None:
                reading = repair
                objection += f"; {repair.change}"
        cards = reading.cards
        # Cards are counted as the rules would take them: a play they refuse stands as read,
        # unless they refuse it only out of turn, then as the table shows it.
        verdict: Verdict | None = prior
        if objection:
            verdict = (self._out_of_turn(prior, seat)
                       if prior is not None and not revision and repair is None else None)
        counting = not objection or verdict is not None
        alike = (self._faint_alike(verdict, seat, cards, nearby) if counting
                 else Detections.empty())
        counted = (self._gained_closer(verdict, seat, cards, alike=alike, nearby=nearby,
                                       current=current, closer=closer)
                   if closer is not None and counting else Detections.empty())
        if len(counted):
            cards = Detections.merge([cards, counted])
            reading = Reading(cards, taken=counted, counted=True)
            nearby = self.matcher.not_among(nearby, counted)
        reasons = []
        if together:
            reasons.append("several plays landed at once")
        doubtful = Detections.empty() if len(counted) else not_found_twice(alike)
        if len(counted):
            reasons.append(counted_closer_change(f"took in {described(counted)}"))
        elif len(doubtful):
            reasons.append(f"faint {described(doubtful)} beside it")
        if not objection and (answered := self._answered_in_doubt(
                seat, cards, closer=closer, current=current)) is not None:
            reasons.append(f"answers seat {answered.seat}'s {len(cards)} cards, a count in doubt")
        if unended:
            reasons.append(f"the round was over: {taken_with(unended)}")
        if objection:
            reasons.append(objection)
        if stale is not None:
            reasons.append(f"rules: round {stale} is still in play, though the table dealt "
                           f"anew: this play opens a new round")
        confidence = cards.confidence
        # Read closer from sure_conf down, not review_conf: how surely the views read a card
        # is the play's conf, and weighs the card's second choice (a close call) too.
        if confidence.min() < self.sure_conf and not reasons and closer is not None:
            confidence = self.closer_count.read_surely(closer, current, seat, cards)
        conf = round(float(confidence.min()), 3)
        if conf < self.review_conf:
            reasons.insert(0, f"unsure card (conf {conf})")
        if prior is not None and not objection \
                and (close_call := self._close_call(prior, seat, cards, confidence)):
            reasons.append(close_call)
        self.last_seat = seat
        self._last_play_t, self._gap_judged = t, False
        event: Event = {"type": "play", "seat": seat, "cards": format_play(cards.class_id),
                        "t": round(t, 3), "source": "vision", "conf": conf,
                        "review": bool(reasons)}
        if reasons:
            event["reason"] = "; ".join(reasons)
        if objection and not revision and prior is not None:
            events += self._doubted_by_refusal(prior, seat, cards)
        events.append(self._numbered(event))
        if prior is not None:
            # What its closer views counted is the play as read: later plays mend that.
            read = reading.cards if reading.counted else read
            self._round.tricks[-1].plays.append(TrickPlay(
                event["seq"], seat, round(t, 3), read=read, faint=nearby, reading=reading,
                count_in_doubt=bool(len(doubtful) or len(counted)), held=event["review"]))
        return events, Detections.merge([reading.taken, revised_taken])

    def _out_of_turn(self, prior: Prior, seat: int) -> Verdict | None:
        """The rules' verdict on a play from ``seat`` as the table shows it (a lead on the bare
        table, or an answer to the play lying there), when the rules hold another seat to act,
        or ``None``.

        Rules a play behind the table (a play refused and held, its cards no reading gives)
        refuse every play after it for its turn, and a play refused is read as it came: 44
        with a faint 4 beside it that every closer view counted, led, read 4, three times in
        one rendered round. Whose turn it is the rules cannot tell then, but the table shows
        whether a play leads and what it answers: the last play laid since it was bare, by
        another seat. (The tricks kept follow the rules, which may have put that play in a
        trick gathered before it.)"""
        if prior.may_act(seat):
            return None
        last = self._round.last_play if self.holds_trick else None
        return prior.in_turn(None if last is None or last.seat == seat
                             else format_play(last.reading.cards.class_id))

    def _close_call(self, prior: Prior, seat: int, cards: Detections,
                    confidence: NDArray[np.float32]) -> str | None:
        """Why a play the rules take must be looked at all the same, or ``None``: a card of it
        read below ``close_call_conf`` (``confidence``, as the closer views may have read it
        surely) has a second choice scored at least ``second_choice_ratio`` times its own,
        and the rules would take the play with the card read so as well. The rules weigh
        nothing then: a 2 or a joker joins any rank, and a lone card may be any rank."""
        for i in second_choices(cards, relative=self.reader.second_choice_ratio):
            if confidence[i] >= self.close_call_conf:
                continue
            rank = int(cards.data["runner_up"][i])
            if prior.objection(seat, format_play(read_as(cards, [i], rank).class_id)) is None:
                return (f"{CLASS_NAMES[cards.class_id[i]]} (conf {confidence[i]:.3f}) may be "
                        f"{CLASS_NAMES[rank]} (conf "
                        f"{cards.data['runner_up_confidence'][i]:.3f}): the rules take either")
        return None

    def _gained_closer(self, verdict: Verdict | None, seat: int, cards: Detections, *,
                       alike: Detections, nearby: Detections, current: Detections,
                       closer: CloserLook) -> Detections:
        """The cards that a play of ``seat`` the rules take (by the ``verdict`` of
        :meth:`_out_of_turn`, one they refuse out of turn) gains from the closer views of its
        zone: of the faint cards ``alike`` (of its ranks, beside it, that the rules would take
        with it), those most views count (:meth:`CloserCount.counted`), if the rules take them
        all together; failing those, with a card read below :attr:`recount_conf`, the cards
        of its ranks most views count more of (:meth:`_recounted_for_rules`, taking in only)."""
        counted = (self.closer_count.counted(closer, current, seat, np.unique(alike.class_id),
                                             alike)
                   if len(alike) else Detections.empty())
        if len(counted) > 1 and verdict is not None and verdict.objection(
                seat, format_play([*cards.class_id, *counted.class_id])):   # each was taken alone
            counted = Detections.empty()
        if (not len(counted) and verdict is not None
                and cards.confidence.min() < self.recount_conf
                and (recounted := self._recounted_for_rules(verdict, seat, cards, nearby, current,
                                                            closer, below=0.0)) is not None):
            counted = recounted.taken   # a strip found by no box, no faint card beside it
        return counted

    def _mend_refused(self, prior: Prior, seat: int, cards: Detections, *, nearby: Detections,
                      current: Detections, closer: CloserLook | None,
                      later: dict[int, Detections]
                      ) -> tuple[Reading | None, list[tuple[TrickPlay, Reading]]]:
        """How a play of ``seat`` the rules refuse is mended: its own reading (``None``: it
        stands as read) and earlier plays read otherwise (empty: none). Evidence comes before
        guesses. First, the cheapest reading of its own cards and the faint ones ``nearby``
        that the rules take stands alone when most closer views of its zone count the faint
        cards it takes in (:meth:`CloserCount.seen`). Else its zone is read closer for the
        count of each of its ranks (:meth:`_recounted_for_rules`): a faint card the views do
        not count is a guess, and gives way to what they do count. Next, the zone of the play
        it answers is read closer for that play's count, with this play's own count if need be
        (:meth:`_answered_counted_closer`). Then guesses are weighed by cost: that reading of
        its own, or the play it answers mended with it
        (:meth:`RoundRecord.mended_with_answered`), against one earlier play read otherwise
        (:meth:`RoundRecord.revision`, :meth:`RoundRecord.earlier_revision`,
        :meth:`RoundRecord.gone_out_revision`). With neither, the play it answers is read again
        from the ``closer`` views (:meth:`_answered_read_closer`) before the pair is taken.
        Failing all, the trick's plays may all have been read short
        (:meth:`RoundRecord.trick_read_short`)."""
        text = format_play(cards.class_id)
        revision: list[tuple[TrickPlay, Reading]] = []
        pair: Mend | None = None
        repair = next((r for r in self.reader.readings(cards, nearby, below=self.repair_conf)
                       if prior.objection(seat, format_play(r.cards.class_id)) is None), None)
        if (repair is not None and closer is not None and len(repair.taken)
                and self.closer_count.seen(closer, current, seat, repair.taken)):
            # Evidence, not a guess: no other play's reading is weighed against it.
            repair = counted_closer(repair)
        elif closer is not None and (recounted := self._recounted_for_rules(
                prior, seat, cards, nearby, current, closer, below=self.mend_conf)) is not None:
            repair = recounted   # evidence as well: weighed before any other play's reading
        elif closer is not None and (counted := self._answered_counted_closer(
                prior, seat, cards, nearby, current, closer)) is not None:
            # Evidence about the play answered; this one stands as read, or as its own zone
            # read closer counts it.
            revision, repair = counted
        else:
            pair = None if repair else self._round.mended_with_answered(prior, seat, cards, nearby)
            than = repair.cost if repair else pair.cost if pair else np.inf
            revision = (self._round.revision(prior, seat, text, later=later, than=sum(
                p.reading.cost for p in self._round.recent) + than)
                or self._round.earlier_revision(prior, seat, cards.class_id, than=than)
                or self._round.gone_out_revision(prior, seat, text, than=than))
            if revision:   # an earlier play mended, this one stands as read
                repair = None
        if not revision and repair is None and closer is not None:
            revision = self._answered_read_closer(prior, seat, text, closer)
        if not revision and repair is None and pair is not None:
            revision, repair = list(pair.changes), pair.own
        if not revision and repair is None:   # the last guess: the trick's count read short
            revision = self._round.trick_read_short(prior, seat, text, len(cards))
        return repair, revision

    def _correction(self, play: TrickPlay, cards: Detections, reason: str) -> Event:
        """The event (``fixes``) putting ``play`` as ``cards``, held for review for ``reason``
        (its own cards: held as it stands)."""
        play.held = True
        return self._numbered({"type": "play", "seat": play.seat,
                               "cards": format_play(cards.class_id),
                               "t": play.t, "source": "vision",
                               "conf": round(float(cards.confidence.min()), 3), "review": True,
                               "reason": reason, "fixes": play.seq})

    def _recounted_for_rules(self, verdict: Verdict, seat: int, cards: Detections,
                             nearby: Detections, current: Detections, closer: CloserLook, *,
                             below: float) -> Reading | None:
        """``cards`` with the count of each of their ranks that most closer views of their
        zone give (:meth:`CloserCount.recounted`, with the faint cards ``nearby``, setting
        aside only cards read below ``below``), if the rules take the play so.

        A play the rules refuse sets aside below ``mend_conf``, as later plays mend a fairly
        sure card: a tight fan read short of strips (6666666 read 66666 answering 4444444,
        the strips' boxes overlapping as one card's), a joker read as the other one (BJ SJ SJ
        9 read BJ BJ SJ 9, refused as a fifth BJ, every view counting one BJ and two SJ), a
        play cards short of two ranks (BJ SJ SJ QQQQQ read BJ SJ QQQ), a strip's second box
        read as a card (JJJ answering 999 read JJJJ, the fourth J at 0.505: the rules and the
        views both against it). A play
        they take as read, with a card read below ``recount_conf``, only takes in (``below``
        0): 44444 read 4444, a 4 at 0.54, the fifth found by no box. On 164 rendered rounds,
        of such plays whose views counted otherwise, the views counting more were right 68
        times and wrong 5, counting fewer right 16 times and wrong 25 (a strip no view
        finds).

        Failing that, the views may count a 2 or a joker besides, which joins a play of any
        rank (SJ KKK answering QQQQ read KKK, the joker's bare strip found by no box at the
        camera's scale, two of three views counting it at 0.20 and 0.24), unless a faint card
        of the play's ranks, other than a second box of one of its cards, lies apart from
        the cards so taken in: that card, seen faintly as its rank, is the likelier one, and a
        2 the views count may be a strip of the play beneath (AAA answering 2KK read AA beside
        a faint A, every view counting a 2 on the Js under it). A faint card on which the
        views count a 2 or a joker is that card, read otherwise."""
        own_faint = not_found_twice(nearby[np.isin(nearby.class_id, cards.class_id)])
        for also in ((), WILD_CLASS_IDS):
            recounted = self.closer_count.recounted(cards, seat, nearby, current, closer,
                                                    below=below, also=also)
            if recounted is None or verdict.objection(seat,
                                                    format_play(recounted.cards.class_id)):
                continue
            if also and not (box_iou(own_faint.xyxy, recounted.taken.xyxy)
                             >= self.closer_count.memory_iou).any(axis=1).all():
                continue   # a faint card of its own ranks lies apart from those taken in
            return recounted
        return None

    def _doubted_by_refusal(self, prior: Prior, seat: int, cards: Detections) -> list[Event]:
        """The corrections holding for review the earlier plays that ``cards`` from ``seat``
        cast doubt on, refused and mended by nothing (each held once).

        An answer of another count than the play it answers: either may be read short or long
        (6666 read 666, the answer SJ AAA refused), and so may each play of the trick of that
        count just before it, since every answer's count was read against the play before it
        (25 led read 5, then JJ read J).

        A lead while the rules hold another seat to lead with one or two cards left: the table
        played on without that seat, so it went out, and one of its plays was read short. No
        reading of one with the cards missing was found (a strip no box finds), so each stands
        as read, and its last is where the operator starts: 33333, a seat's last cards led,
        read 3333 at 0.695, then every later lead refused ("seat 0 leads this trick") while
        that play showed nothing amiss. On 67 rendered rounds this holds three plays: that
        one, and two right ones in games gone astray before, by plays held already."""
        answered = self._round.answered(seat)
        if answered is not None:
            if len(cards) == len(answered.reading.cards):
                return []
            corrections = []
            for play in self._round.last_plays_of_one_count():
                if not play.held:
                    which = ("it" if play is answered
                             else f"seat {answered.seat}'s play of this trick")
                    corrections.append(self._correction(
                        play, play.reading.cards, f"seat {seat} answered {which} with "
                        f"{len(cards)} cards, refused: either count may be off"))
            return corrections
        if not prior.leads(seat):
            return []
        for other, left in nearly_out(prior, but=seat).items():
            if not (prior.may_act(other) and prior.leads(other)):
                continue
            last = self._round.last_play_of(other)
            if last is not None and not last.held:
                return [self._correction(
                    last, last.reading.cards, f"seat {seat} led while the rules hold seat "
                    f"{other} to lead with {left} card(s) left: this play, seat {other}'s "
                    f"last, or one before it was read short")]
        return []

    def _answered_in_doubt(self, seat: int, cards: Detections, *, closer: CloserLook | None,
                           current: Detections) -> TrickPlay | None:
        """The play that ``cards`` from ``seat`` answer, if its count is in doubt (a faint card
        of its ranks beside it, or cards counted only when its zone was read closer) and
        ``cards`` have that count: an answer's count is read against the lead's, so a fan
        missing a strip goes unremarked after a lead missing one (33333 read 3333 with a faint
        3 beside it, then 77777 answering it read 7777 at 0.54: on 90 rendered games, 135
        answers held so, one of them wrong: none wrong is left unheld; 6666666 read 666666, two
        of its sixes counted closer, then 2888888 answering it read 288888 at 0.50).

        Not when the answer's own zone, read closer, bears its count out
        (:meth:`CloserCount.confirms`): most views count as many cards of its ranks, and of 2s
        and jokers, as the picture shows there, and read each of its unsure cards surely. Each
        view reads the answer's fan enlarged, where a strip the picture missed is most often
        found; the lead's count stands on the answer's then, as the rules take the two together.
        On 37 rendered rounds and 6 games of two rounds, 85 of the 93 answers held so were
        borne out, all of them right; the 8 still held include the one wrong (docs: step 57)."""
        answered = self._round.answered(seat)
        if (answered is None or not answered.count_in_doubt
                or len(answered.reading.cards) != len(cards)):
            return None
        if closer is not None and self.closer_count.confirms(closer, current, seat, cards,
                                                             also=WILD_CLASS_IDS):
            return None
        return answered

    def _numbered(self, event: Event) -> Event:
        """``event`` with the next ``seq``: what a correction names in ``fixes``."""
        self._made += 1
        event["seq"] = self._made
        return event

    def _answered_read_closer(self, prior: Prior, seat: int, cards: str, closer: CloserLook
                              ) -> list[tuple[TrickPlay, Reading]]:
        """The play that ``cards`` from ``seat`` answers (the trick's last), read again from
        closer views of its zone, each view in turn (:meth:`_closer_readings`): the first view's
        cheapest reading after which the rules take every recent play and the new one (see
        :meth:`RoundRecord.recent_revised`), or none.

        A card read surely as another rank leaves no other reading to weigh, and the rules
        refuse only the play after it (an 8 led, read as a 9 at 0.77 with a ten its second
        choice, then answered by a 9, the seventeenth of the round). Its cards lie there still,
        and enlarged they are most often read otherwise (the 8 at 1.3 times, 0.39)."""
        answered = self._round.replayable_answered(seat)
        if answered is None:
            return []
        views = closer(answered.seat)
        for i in range(len(views)):
            revision = self._round.recent_revised(
                prior, seat, cards,
                [Mend.one(answered, r) for r in self._closer_readings(answered, views[i])],
                than=np.inf)
            if revision:
                return revision
        return []

    def _answered_counted_closer(self, prior: Prior, seat: int, cards: Detections,
                                 nearby: Detections, current: Detections, closer: CloserLook
                                 ) -> tuple[list[tuple[TrickPlay, Reading]], Reading | None] | None:
        """The play that ``cards`` from ``seat`` answers (the trick's last), with the count
        of each of its ranks that most closer views of its zone give
        (:meth:`CloserCount.recounted`, setting aside only cards read below ``mend_conf``); if
        the rules then take every recent play and ``cards``, as read or as most closer views
        of their own zone count them (:meth:`_recounted_for_rules`, with the faint cards
        ``nearby``): each recent play with its reading (see
        :meth:`RoundRecord.recent_revised`), and ``cards``' new reading (``None``: as read);
        else ``None``.

        What most views count is evidence, as a refused answer's own zone read closer is,
        where the cheapest other reading is a guess: 7777 led, read 77777 with a box on no card
        at 0.36, and JJJJ answering it, refused, were taken with a faint J beside the answer,
        while all three views count four 7s. Both counts may be needed: 3333 led, read 33333
        with a 3 at 0.261, and 4444 answering it read 444, refused; views of each zone count
        four cards, and neither count alone makes a play the rules take. The answer was taken
        with two faint 4s beside it (44444), and the 6666 answering that with a faint 6."""
        answered = self._round.replayable_answered(seat)
        if answered is None:
            return None
        reading = self.closer_count.recounted(answered.reading.cards, answered.seat,
                                              answered.faint, current, closer,
                                              below=self.mend_conf)
        if reading is None:
            return None
        after = self._round.after(prior, Mend.one(answered, reading))
        if revision := after.revised(seat, format_play(cards.class_id)):
            return revision, None
        own = self._recounted_for_rules(after, seat, cards, nearby, current, closer,
                                        below=self.mend_conf)
        if own is None:
            return None
        return after.revised(seat, format_play(own.cards.class_id)), own   # taken by ``after``

    def _closer_readings(self, play: TrickPlay, view: Detections) -> list[Reading]:
        """``play`` as read with one card read as ``view`` reads it: a box of another rank that
        counts, lying on the card (:meth:`PlayReader.found_on`), scored as the view scored it."""
        cards = play.read
        seen = view[self.counts(view) & (view.class_id != BACK_CLASS_ID)]
        readings = []
        for i, j in self.reader.found_on(cards, seen, below=np.inf):
            rank, score = int(seen.class_id[j]), float(seen.confidence[j])
            readings.append(Reading(
                read_as(cards, [i], rank, score=score),
                change=(f"read {described(cards[np.array([i])])} as {CLASS_NAMES[rank]} "
                        f"(conf {score:.3f}), as its zone read closer does"),
                cost=1 + float(cards.confidence[i]) - score))
        return readings

    def _revise(self, changes: list[tuple[TrickPlay, Reading]], *, after: str
                ) -> tuple[list[Event], Detections]:
        """Corrections (``fixes``) putting each earlier play in its new reading, and the faint
        cards they take in; what changes is held for review."""
        events, taken, changed = [], [], []
        for play, new in changes:
            unchanged = format_play(new.cards.class_id) == format_play(play.reading.cards.class_id)
            play.reading = new
            if new.late:   # now read with them: its other readings keep them
                play.read, play.alternatives, play.two_changes = new.cards, None, None
            taken.append(new.taken)
            if unchanged:
                continue
            changed.append(play)
            events.append(self._correction(play, new.cards,
                                           f"revised when {after}: {new.change or 'as read'}"))
        if changed:
            assert self.prior is not None   # corrections are weighed by the rules alone
            self._round.refresh_checkpoints(self.prior, after=changed)
        return events, Detections.merge(taken)

    def _faint_beside(self, seat: int, cards: Detections, faint: Detections) -> list[int]:
        """The faint cards lying with the play in its seat's zone, or on one of its cards
        (IoU at least ``memory_iou``: that card read again, whatever zone its middle falls
        in), surest first."""
        if not len(faint):
            return []
        wide = grown(Detections.merge([cards, faint]).xyxy, self.group_gap)
        beside = (box_intersection(wide[len(cards):], wide[:len(cards)]) > 0).any(1)
        on_a_card = (box_iou(faint.xyxy, cards.xyxy) >= self.matcher.iou).any(1)
        here = (beside & (faint.data["seat"] == seat)) | on_a_card
        return [int(i) for i in np.argsort(-faint.confidence, kind="stable") if here[i]]

    def _faint_alike(self, verdict: Verdict | None, seat: int, cards: Detections,
                     nearby: Detections) -> Detections:
        """The faint cards of the play's rank lying with it that the rules would take in it
        as well as not (a lead's count is free): maybe its cards, a tight fan's strips, that
        no rule asked for."""
        def also_taken(i: int) -> bool:
            with_it = format_play([*cards.class_id, nearby.class_id[i]])
            return verdict is None or verdict.objection(seat, with_it) is None

        alike = [i for i in range(len(nearby))
                 if nearby.class_id[i] in cards.class_id and also_taken(i)]
        return nearby[np.array(alike, np.int_)]

@dataclass(frozen=True, slots=True)
class _Sorted:
    """A stable picture's face-up cards sorted against the trick's remembered cards."""

    current: Detections
    """The picture's face-up cards that count."""
    known: NDArray[np.int_]
    """For each of them, the remembered card it is (an index), or -1."""
    gathered: bool
    """Whether the trick was gathered: (almost) none of its cards is seen any more."""
    stragglers: Detections
    """Cards of a gathered trick seen still, never new (from now on, if it is gathered now)."""
    new: Detections
    """The cards seen for the first time: the picture's plays."""

    @property
    def still_visible(self) -> int:
        """Remembered cards seen in the picture."""
        return int(np.sum(self.known >= 0))
