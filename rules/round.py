"""One round (回合) as an observer of a physical game: events in, state out.

The observer cannot see hands. It knows every seat's count, the trick, who may act, and every rule
that depends only on what reaches the table. Passes are inferred from who plays next: when seat 4
answers seat 1, seats 2 and 3 passed. Each action has three methods: ``verify_play`` raises
:class:`~rules.errors.IllegalEventError` saying which rule forbids it, ``can_play`` answers
yes or no, and ``play`` applies it (after verifying) and returns the announcements.

>>> r = Round(load_ruleset("qingdao"), first=0)
>>> r.play(0, "55")
[]
>>> r.to_act
[1, 2, 3, 4, 5]
>>> r.play(3, "77")     # seats 1 and 2 passed
[]
>>> r.can_play(1, "88")  # 过牌: seat 1 passed this trick
False
>>> r.play(0, "KK")      # 4 and 5 passed; 0 answers; KK is gouji
['0号 够级']
>>> r.to_act, r.trick.answer      # only the 对头 may answer (the others have passed)
([3], <Answer.DUITOU: 'duitou'>)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.cards import Rank
from rules.errors import IllegalEventError, IllegalPlayError
from rules.events import Declaration, RevolutionChoice
from rules.plays import Play, is_gouji, opens, verify_beats, verify_legal
from rules.ruleset import Ruleset, load_ruleset

__all__ = [
    "PLACE_NAMES",
    "Answer",
    "BurnState",
    "Round",
    "RoundResult",
    "Termination",
    "Trick",
    "TrickPlay",
    "duitou",
    "federation",
]

PLACE_NAMES = ("头科", "二科", "三科", "四科", "二落", "大落")
"""Place names 1 … 6."""


def duitou(seat: int) -> int:
    """The 对头 (seat opposite) of ``seat``.

    >>> duitou(1), duitou(4)
    (4, 1)
    """
    return (seat + 3) % 6


def federation(seat: int) -> int:
    """Federation 0 (seats 0, 2, 4) or 1 (seats 1, 3, 5)."""
    return seat % 2


def _after(seat: int) -> list[int]:
    """The other five seats in play order after ``seat``."""
    return [(seat + i) % 6 for i in range(1, 6)]


class Answer(StrEnum):
    """Who may act on the current trick."""

    LEAD = "lead"
    """``to_act`` leads a new trick."""
    ANY = "any"
    """Anyone in turn (the later seats' plays imply the earlier seats passed)."""
    DUITOU = "duitou"
    """A gouji play: only the 对头 of the last player, plus burners (and 无头 seats)."""
    FREE = "free"
    """四户乱缠: plain order, no pass lock."""


class BurnState(StrEnum):
    """The state of a seat's latest burn (烧牌)."""

    ACTIVE = "active"
    SUCCESS = "success"
    JIESHAO = "jieshao"
    FAILED = "failed"


class Termination(StrEnum):
    """Why a round ended."""

    ONE_FEDERATION = "one_federation"
    """The seats still holding cards are one federation."""
    LAST_PLAYER = "last_player"
    """One player is left (``play_out_to_last``)."""
    CHUAN = "chuan"
    """串三户 ended the round (``play_out_to_last``)."""
    VOID = "void"
    """Two revolutions voided the deal."""


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """One play in a trick."""

    seat: int
    """Who played."""
    play: Play
    """The cards."""
    gouji: bool
    """A gouji play (never in 四户乱缠)."""
    burn: bool
    """This play burned the gouji play before it (烧牌)."""
    gousiji: bool
    """够死级: nobody but a burner may answer it."""
    final: bool
    """The player went out with it (底牌)."""


@dataclass(slots=True)
class Trick:
    """The trick (一轮) in progress."""

    leader: int | None
    """Who leads it; None while anyone may lead the round's first trick."""
    luanchan: bool
    """四户乱缠 for this whole trick."""
    plays: list[TrickPlay] = field(default_factory=list)
    """Plays so far."""
    answer: Answer = Answer.LEAD
    """Who may act now."""
    queue: list[int] = field(default_factory=list)
    """Seats that may answer, in turn order (ANY, FREE) or the 对头 (DUITOU)."""
    burners: set[int] = field(default_factory=set)
    """Seats that may burn the last (gouji) play."""
    free: set[int] = field(default_factory=set)
    """无头 seats that may answer the last gouji play (not a burn)."""
    passed: set[int] = field(default_factory=set)
    """Seats locked by 过牌 in this trick."""
    yielded: set[int] = field(default_factory=set)
    """Seats that used 让牌 in this trick."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What a finished round decides: places, scores and the inputs of the tribute table."""

    termination: Termination
    """Why the round ended."""
    finish_order: tuple[int, ...]
    """Seats in the order they went out."""
    ranking: tuple[int, ...]
    """Seats by final place, 头科 first (empty for a void round)."""
    chuan: bool
    """串三户: one federation took 头科, 二科, 三科."""
    scores: tuple[int, int]
    """Round score per federation."""
    opened: tuple[bool, ...]
    """开点 per seat, after the revolution rule."""
    declared: tuple[str | None, ...]
    """Declaration per seat."""
    burns: tuple[tuple[int, int], ...]
    """烧贡 owed, (giver, receiver), in the order they arose (incl. 反燒)."""
    men: tuple[tuple[int, int], ...]
    """闷贡 owed, (giver, receiver)."""
    first_leader: int | None
    """Who led the round's first trick."""

    def place_of(self, seat: int) -> int:
        """Place 1..6 of ``seat``."""
        return self.ranking.index(seat) + 1


class Round:
    """One round of play, observed event by event.

    Args:
        ruleset: The rules in force.
        number: 1-based round number in the match.
        first: The first leader, or None when the first play decides.
        counts: Cards per seat at the start (after tribute), default the ruleset's deal.
    """

    def __init__(self, ruleset: Ruleset | str | None = None, *, number: int = 1,
                 first: int | None = None, counts: tuple[int, ...] | list[int] | None = None
                 ) -> None:
        self.ruleset = load_ruleset(ruleset)
        self.number = number
        self.counts = list(counts if counts is not None else self.ruleset.deal)
        self.played = [0] * len(self.ruleset.deck)
        self.finished: list[int] = []
        self.failed: list[int] = []
        self.revolutionary: int | None = None
        self.yaotou_left = 0
        self.opened = [False] * 6
        self.declared: list[Declaration | None] = [None] * 6
        self.burning: list[BurnState | None] = [None] * 6
        self._burned_by: dict[int, int] = {}     # active burner -> the seat he burned
        self._burn_first: dict[int, bool] = {}   # active burner -> still on his first play
        self.burns: list[tuple[int, int]] = []
        self.men: list[tuple[int, int]] = []
        self._beaten_by: list[int | None] = [None] * 6
        self.active = [True] * 6
        self.started = False
        self.first_leader: int | None = first
        self.trick = Trick(leader=first, luanchan=False)
        self.result: RoundResult | None = None
        self.events: list[dict[str, Any]] = []
        self.announcements: list[str] = []

    # ---- what the state says ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The round has ended."""
        return self.result is not None

    def outcome(self) -> RoundResult | None:
        """The result of a finished round (its ``termination`` says why), else None."""
        return self.result

    @property
    def to_act(self) -> list[int]:
        """Seats that may act now, in turn order."""
        if self.result is not None:
            return []
        t = self.trick
        if not t.plays:
            if t.leader is None:
                return [s for s in range(6) if self.active[s]]
            return [t.leader]
        if t.answer is Answer.DUITOU:
            others = t.burners | t.free | set(t.queue)
            return [s for s in _after(t.plays[-1].seat) if s in others]
        return list(t.queue)

    @property
    def luanchan(self) -> bool:
        """四户乱缠 now: after 头科 and 二科 (after 头科 with a revolutionary)."""
        return len(self.finished) >= (1 if self.revolutionary is not None else 2)

    def is_wutou(self, seat: int) -> bool:
        """无头: the seat's 对头 has finished, failed a burn or revolted (and 要头 is used up)."""
        d = duitou(seat)
        if self.active[d]:
            return False
        return not (d == self.revolutionary and self.yaotou_left > 0)

    def places(self) -> dict[int, int]:
        """Place per seat known so far (all six once the round is over)."""
        if self.result is not None:
            return {s: i + 1 for i, s in enumerate(self.result.ranking)}
        places: dict[int, int] = {}
        rev = self.revolutionary
        sanke = self._rev_is_sanke()
        rev_index = 2 if sanke else 3      # where the revolutionary sits in the ranking
        for i, s in enumerate(self.finished):
            places[s] = i + 1 if rev is None or i < rev_index else i + 2
        if rev is not None:
            places[rev] = rev_index + 1
        for i, s in enumerate(self.failed):
            places[s] = 6 - i
        return places

    def _rev_is_sanke(self) -> bool:
        rev = self.revolutionary
        return (rev is not None and len(self.finished) >= 2
                and federation(self.finished[0]) == federation(self.finished[1]) == federation(rev))

    # ---- plays --------------------------------------------------------------------------------

    def verify_play(self, seat: int, cards: str | Play) -> None:
        """Raise :class:`IllegalPlayError` (saying which rule) unless ``seat`` may play ``cards``."""
        self._plan_play(seat, cards)

    def can_play(self, seat: int, cards: str | Play) -> bool:
        """Whether ``seat`` may play ``cards`` now."""
        try:
            self._plan_play(seat, cards)
        except IllegalEventError:
            return False
        return True

    def play(self, seat: int, cards: str | Play, *, source: str | None = None) -> list[str]:
        """Apply a play; returns the announcements. Raises :class:`IllegalPlayError` if illegal."""
        kind, play = self._plan_play(seat, cards)
        self.announcements = []
        self._commit_play(seat, play, kind, source)
        return self.announcements

    def _plan_play(self, seat: int, cards: str | Play) -> tuple[str, Play]:
        rs = self.ruleset
        if self.result is not None:
            raise IllegalPlayError("the round is over")
        if not self.active[seat]:
            raise IllegalPlayError(f"seat {seat} {self._inactive_reason(seat)}")
        play = cards if isinstance(cards, Play) else Play.parse(cards)
        verify_legal(play, rs)
        if play.count > self.counts[seat]:
            raise IllegalPlayError(
                f"seat {seat} has only {self.counts[seat]} cards, not {play.count}")
        for rank, n in _rank_counts(play):
            if self.played[rank] + n > rs.deck[rank]:
                raise IllegalPlayError(
                    f"more {rank.token} than the deck holds ({rs.deck[rank]}): check the cards")
        final = play.count == self.counts[seat]
        if rs.threes_last:
            if play.is_threes and not final:
                raise IllegalPlayError("憋三: 3s only leave a hand in its final play")
            if final and not play.is_threes:
                raise IllegalPlayError("憋三: a hand's final play is its 3s")
        t = self.trick
        if not t.plays:
            if t.leader is not None and seat != t.leader:
                raise IllegalPlayError(f"seat {t.leader} leads this trick")
            return "lead", play
        last = t.plays[-1]
        if seat == last.seat:
            return "relead", play     # everyone passed: the last player leads again
        allowed = seat in t.queue or (t.answer is Answer.DUITOU and (seat in t.burners
                                                                     or seat in t.free))
        if allowed:
            try:
                verify_beats(play, last.play, rs)
            except IllegalPlayError:
                if self._jiefeng_seat() == seat:
                    return "relead", play
                raise
            return "answer", play
        if self._jiefeng_seat() == seat:
            return "relead", play     # 接风: all passed on the last play of a player who went out
        if seat in t.passed:
            raise IllegalPlayError(f"过牌: seat {seat} passed this trick and may not play again")
        if t.answer is Answer.DUITOU:
            if last.gousiji:
                raise IllegalPlayError("够死级: only a burner may answer this play")
            if self.trick.luanchan or not self.ruleset.burning:
                raise IllegalPlayError(f"only the 对头 (seat {duitou(last.seat)}) may answer "
                                       "a gouji play")
            raise IllegalPlayError(f"only the 对头 (seat {duitou(last.seat)}) or a burner may "
                                   "answer a gouji play")
        raise IllegalPlayError(f"seat {seat} is not in turn")

    def _jiefeng_seat(self) -> int | None:
        """The seat that leads if everyone passes on the last play of a seat that went out."""
        t = self.trick
        if t.plays and not self.active[t.plays[-1].seat]:
            return self.next_active(t.plays[-1].seat)
        return None

    def _commit_play(self, seat: int, play: Play, kind: str, source: str | None) -> None:
        rs = self.ruleset
        t = self.trick
        if not self.started:
            self.started = True
            if self.first_leader is None:
                self.first_leader = seat
        if kind == "relead":
            self._pass_all()
            self._end_trick()
            t = self.trick
        burn = gousiji = False
        if kind == "answer":
            last = t.plays[-1]
            if t.answer is not Answer.DUITOU:
                self._infer_passes_before(seat)
            else:
                burn = seat not in t.queue and seat not in t.free
            self._beaten_by[last.seat] = seat
            if self.burning[last.seat] is BurnState.ACTIVE:
                self._end_burn(last.seat, seat)
            # 够死级: the 对头 answers the gouji 底牌 of 头科 or 二科.
            gousiji = (seat == duitou(last.seat) and last.final and last.gouji
                       and last.seat in self.finished[:2])
        gouji = is_gouji(play, rs) and not t.luanchan
        rev = self.revolutionary
        if gouji and rev is not None and seat == duitou(rev) and self.yaotou_left > 0:
            gousiji = True    # 要头: the first gouji plays of the revolutionary's 对头
            self.yaotou_left -= 1
        self.events.append(_event("play", seat, source, cards=str(play)))
        self.counts[seat] -= play.count
        for rank, n in _rank_counts(play):
            self.played[rank] += n
        final = self.counts[seat] == 0
        t.plays.append(TrickPlay(seat, play, gouji, burn, gousiji and gouji, final))
        say = self.announcements.append
        if burn:
            self.burning[seat] = BurnState.ACTIVE
            self._burned_by[seat] = t.plays[-2].seat
            self._burn_first[seat] = True
            say(f"{seat}号 烧牌")
        elif gouji:
            say(f"{seat}号 {'够死级' if gousiji else '够级'}")
        if not burn and self.burning[seat] is BurnState.ACTIVE:
            self._burn_first[seat] = False
        out = final
        if final:
            if rs.threes_last and rs.men_tribute and self._beaten_by[seat] is not None:
                beater = self._beaten_by[seat]
                assert beater is not None
                self.men.append((seat, beater))
                say(f"{seat}号 被闷")
            self._finish(seat)
        elif self.burning[seat] is BurnState.ACTIVE and not burn and not play.jokers:
            self._fail_burn(seat)
            out = True
        self._beaten_by[seat] = None
        if rs.baohu and 0 < self.counts[seat] <= rs.report_max and self.active[seat]:
            say(f"{seat}号 报户 {self.counts[seat]} 张")
        if not (out and self._check_over()):
            self._open_answers(seat)

    def _finish(self, seat: int) -> None:
        self.active[seat] = False
        self.finished.append(seat)
        place = self.places()[seat]
        self.announcements.append(f"{seat}号 走科 {PLACE_NAMES[place - 1]}")
        if self.burning[seat] is BurnState.ACTIVE:
            self.burning[seat] = BurnState.SUCCESS
            self.burns.append((self._burned_by.pop(seat), seat))
            self._burn_first.pop(seat, None)
            self.announcements.append("烧牌成功")

    def _fail_burn(self, seat: int) -> None:
        """烧失败: a burner's play without a joker before his last; he is out, ranked from the bottom."""
        self.burning[seat] = BurnState.FAILED
        self._burned_by.pop(seat, None)
        self._burn_first.pop(seat, None)
        self.active[seat] = False
        self.failed.append(seat)
        self.announcements.append(f"{seat}号 烧失败 {PLACE_NAMES[6 - len(self.failed)]}")

    def _end_burn(self, burner: int, beater: int) -> None:
        """The burner's play was beaten: 解烧 (and 反燒 on his first play where the rules say so)."""
        self.burning[burner] = BurnState.JIESHAO
        burned = self._burned_by.pop(burner)
        if self._burn_first.pop(burner, False) and self.ruleset.fanshao:
            self.burns.append((burner, burned))
            self.announcements.append(f"{beater}号 反烧")
        else:
            self.announcements.append("解烧")

    def next_active(self, seat: int) -> int | None:
        """The first seat after ``seat`` in play order that still plays."""
        for s in _after(seat):
            if self.active[s]:
                return s
        return None

    def _open_answers(self, seat: int) -> None:
        """Set who may answer the play ``seat`` just made."""
        t = self.trick
        last = t.plays[-1]
        others = [s for s in _after(seat) if self.active[s]]
        t.burners, t.free = set(), set()
        d = duitou(seat)
        if t.luanchan:
            t.answer, t.queue = Answer.FREE, others
        elif last.gousiji or (last.gouji and self.active[d]):
            t.answer = Answer.DUITOU
            t.queue = [] if last.gousiji else [d]   # 过牌 never stops a 对头's gouji answer
            open_seats = [s for s in others if s != d and s not in t.passed]
            t.free = set() if last.gousiji else {s for s in open_seats if self.is_wutou(s)}
            if self.ruleset.burning:
                t.burners = {s for s in open_seats if s not in t.free}
        else:
            t.answer = Answer.ANY
            t.queue = [s for s in others if s not in t.passed or self._lock_lifted(s, last)]
        if not t.queue and not t.burners and not t.free:
            self._end_trick()

    def _lock_lifted(self, seat: int, last: TrickPlay) -> bool:
        """过牌 exception: a passed seat may answer his own 对头 (only gouji plays in irvine)."""
        return duitou(seat) == last.seat and (
            self.ruleset.pass_lock_exception == "duitou" or last.gouji)

    def _infer_passes_before(self, seat: int) -> None:
        t = self.trick
        while t.queue and t.queue[0] != seat:
            self._mark_pass(t.queue.pop(0), "inferred")
        if t.queue:
            t.queue.pop(0)

    def _mark_pass(self, seat: int, source: str | None) -> None:
        t = self.trick
        self.events.append(_event("pass", seat, source))
        # 接风: the seat that asks to lead after a player went out is not locked by passing.
        if not t.luanchan and seat != self._jiefeng_seat():
            t.passed.add(seat)

    def _pass_all(self) -> None:
        t = self.trick
        for s in self.to_act:
            self._mark_pass(s, "inferred")
        t.queue, t.burners, t.free = [], set(), set()

    def _end_trick(self) -> None:
        """Everyone passed: the last player leads (接风: the next active seat if he went out)."""
        t = self.trick
        last = t.plays[-1]
        rs = self.ruleset
        leader: int | None = last.seat
        if self.active[last.seat]:
            answered_gouji = len(t.plays) > 1 and t.plays[-2].gouji
            if (last.gouji and not t.luanchan and not self.opened[last.seat]
                    and len(self.finished) < rs.kaidian_until_finished
                    and opens(last.play, rs, answering_gouji=answered_gouji)):
                self.opened[last.seat] = True
                self.announcements.append(f"{last.seat}号 开点")
        else:
            leader = self.next_active(last.seat)
            self.announcements.append(f"{leader}号 接风")
        luanchan = self.luanchan
        if luanchan and not t.luanchan:
            self.announcements.append("四户乱缠")
        self.trick = Trick(leader=leader, luanchan=luanchan)

    # ---- passes, 让牌, collect ------------------------------------------------------------------

    def verify_pass(self, seat: int) -> None:
        """Raise :class:`IllegalEventError` unless ``seat`` may pass now."""
        if self.result is not None:
            raise IllegalEventError("the round is over")
        t = self.trick
        if not t.plays:
            raise IllegalEventError(f"seat {seat} cannot pass a lead"
                                    if t.leader in (None, seat) else f"seat {t.leader} leads")
        if seat not in self.to_act:
            if seat in t.passed:
                raise IllegalEventError(f"seat {seat} has already passed this trick")
            raise IllegalEventError(f"seat {seat} is not in turn")

    def can_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass now."""
        try:
            self.verify_pass(seat)
        except IllegalEventError:
            return False
        return True

    def pass_(self, seat: int, *, source: str | None = None) -> list[str]:
        """Apply a pass (过牌)."""
        self.verify_pass(seat)
        self.announcements = []
        t = self.trick
        if t.answer is Answer.DUITOU:
            if seat in t.queue:       # the 对头 declines: burners had priority, the trick ends
                self._mark_pass(seat, source)
                t.queue = []
                t.burners, t.free = set(), set()
            else:
                self._mark_pass(seat, source)
                t.burners.discard(seat)
                t.free.discard(seat)
        else:
            self._infer_passes_before(seat)
            self._mark_pass(seat, source)
        if not t.queue and not t.burners and not t.free:
            self._end_trick()
        return self.announcements

    def verify_yield(self, seat: int) -> None:
        """Raise :class:`IllegalEventError` unless ``seat`` may 让牌 now."""
        if self.result is not None:
            raise IllegalEventError("the round is over")
        t = self.trick
        if t.luanchan:
            raise IllegalEventError("四户乱缠: no 让牌")
        if not t.plays or t.answer is not Answer.ANY:
            raise IllegalEventError("让牌 answers a play that everyone may answer")
        last = t.plays[-1].seat
        if duitou(seat) != last:
            raise IllegalEventError(f"让牌: seat {seat} may only yield on his 对头's play")
        if seat in t.yielded:
            raise IllegalEventError(f"让牌: seat {seat} has already yielded this trick")
        if seat not in t.queue:
            raise IllegalEventError(f"seat {seat} is not in turn")

    def can_yield(self, seat: int) -> bool:
        """Whether ``seat`` may 让牌 now."""
        try:
            self.verify_yield(seat)
        except IllegalEventError:
            return False
        return True

    def yield_(self, seat: int, *, source: str | None = None) -> list[str]:
        """Apply 让牌: the next two seats act first; if both pass, it is ``seat``'s turn again."""
        self.verify_yield(seat)
        self.announcements = []
        t = self.trick
        self._infer_passes_before(seat)   # the two seats before him passed; he leaves the queue
        t.queue.insert(min(2, len(t.queue)), seat)
        t.yielded.add(seat)
        self.events.append(_event("yield", seat, source))
        self.announcements.append(f"{seat}号 让牌")
        return self.announcements

    def collect(self, *, source: str | None = None) -> list[str]:
        """The trick was gathered (扣牌): everyone still to act passed. Nothing to gather is a no-op."""
        self.announcements = []
        if self.result is None and self.trick.plays:
            self._pass_all()
            self._end_trick()
            self.events.append({"type": "collect", **({"source": source} if source else {})})
        return self.announcements

    # ---- before the first play: declarations and revolution -------------------------------------

    def verify_declare(self, seat: int, level: Declaration | str) -> None:
        """Raise unless ``seat`` may declare (预点/明点) now: before the first play, once."""
        Declaration(level)
        if self.started or self.result is not None:
            raise IllegalEventError("declarations come before the first play")
        if self.declared[seat] is not None:
            raise IllegalEventError(f"seat {seat} has already declared {self.declared[seat]}")

    def declare(self, seat: int, level: Declaration | str, *, source: str | None = None
                ) -> list[str]:
        """Apply a declaration against one's 对头."""
        self.verify_declare(seat, level)
        self.declared[seat] = Declaration(level)
        self.events.append(_event("declare", seat, source, level=str(level)))
        self.announcements = [f"{seat}号 {'预点' if level == 'yu' else '明点'}"]
        return self.announcements

    def verify_revolution(self, seat: int) -> None:
        """Raise unless ``seat`` may declare 革命 now (before the first play)."""
        if self.started or self.result is not None:
            raise IllegalEventError("革命 comes before the first play")
        if self.revolutionary == seat:
            raise IllegalEventError(f"seat {seat} has already revolted")
        if self.revolutionary is not None and self.ruleset.revolution_limit == "one":
            raise IllegalEventError("only one 革命 per round")

    def can_revolution(self, seat: int) -> bool:
        """Whether ``seat`` may declare 革命 now."""
        try:
            self.verify_revolution(seat)
        except IllegalEventError:
            return False
        return True

    def revolution(self, seat: int, choice: RevolutionChoice | str | None = None, *,
                   source: str | None = None) -> list[str]:
        """Apply 革命: the seat leaves the round; a second revolution voids the deal."""
        self.verify_revolution(seat)
        self.announcements = [f"{seat}号 革命"]
        self.events.append(_event("revolution", seat, source))
        if self.revolutionary is not None:
            self.announcements.append("两家革命 本局作废")
            self.result = RoundResult(Termination.VOID, (), (), False, (0, 0), (False,) * 6,
                                      tuple(self.declared), (), (), self.first_leader)
            return self.announcements
        chosen = RevolutionChoice(choice or self.ruleset.revolution_choice)
        self.revolutionary = seat
        self.active[seat] = False
        self.opened[duitou(seat)] = True   # 革命算自动认点: his 对头 counts as opened
        self.yaotou_left = self.ruleset.yaotou_plays if chosen is RevolutionChoice.YAOTOU else 0
        self.announcements.append(f"{duitou(seat)}号 {'要头' if self.yaotou_left else '无头'}")
        if self.trick.leader == seat:
            self.trick.leader = self.next_active(seat)
            self.first_leader = self.trick.leader
        return self.announcements

    # ---- the end ------------------------------------------------------------------------------

    def _check_over(self) -> bool:
        """After a seat left play: end the round if the rules say so."""
        active = [s for s in range(6) if self.active[s]]
        ranking = self._ranking()
        if len(active) <= 1:
            termination = Termination.LAST_PLAYER
        elif self.ruleset.play_out_to_last:
            # Play on until one is left, unless one federation took 头科, 二科, 三科 (seed 004).
            decided = len(self.finished) >= 3 or self._rev_is_sanke()
            if not (decided and len({federation(s) for s in ranking[:3]}) == 1):
                return False
            termination = Termination.CHUAN
        elif len({federation(s) for s in active}) == 1:
            termination = Termination.ONE_FEDERATION
        else:
            return False
        self._close(termination, ranking)
        return True

    def _ranking(self) -> list[int]:
        """Seats by place: finishers, then the rest by fewer cards, nearer after the last out."""
        ref = self.finished[-1] if self.finished else (self.first_leader or 0)
        rest = sorted((s for s in range(6) if self.active[s]),
                      key=lambda s: (self.counts[s], (s - ref) % 6))
        ranking = self.finished + rest + self.failed[::-1]
        rev = self.revolutionary
        if rev is not None:
            sanke = len(ranking) >= 2 and federation(ranking[0]) == federation(ranking[1]) \
                == federation(rev)
            ranking.insert(2 if sanke else 3, rev)
        return ranking

    def _close(self, termination: Termination, ranking: list[int]) -> None:
        rs = self.ruleset
        chuan = federation(ranking[0]) == federation(ranking[1]) == federation(ranking[2])
        scores = [0, 0]
        for place, seat in enumerate(ranking):
            scores[federation(seat)] += rs.points[place]
        if chuan:
            scores = [x * rs.chuan_multiplier for x in scores]
        opened = list(self.opened)
        if self.revolutionary is not None:   # 革命算自动认点: he did not open, his 对头 did
            opened[self.revolutionary] = False
            opened[duitou(self.revolutionary)] = True
        self.result = RoundResult(
            termination=termination, finish_order=tuple(self.finished), ranking=tuple(ranking),
            chuan=chuan, scores=(scores[0], scores[1]), opened=tuple(opened),
            declared=tuple(self.declared), burns=tuple(self.burns), men=tuple(self.men),
            first_leader=self.first_leader)
        self.trick = Trick(leader=None, luanchan=self.trick.luanchan)
        if chuan:
            self.announcements.append("串三户")
        self.announcements.append("回合结束")

    def _inactive_reason(self, seat: int) -> str:
        if seat in self.finished:
            return "has gone out"
        if seat in self.failed:
            return "failed a burn (烧失败) and plays no more"
        return "has revolted (革命)"


@functools.lru_cache(maxsize=8192)
def _rank_counts(play: Play) -> list[tuple[Rank, int]]:
    pairs = [(Rank.TWO, play.twos), (Rank.SMALL_JOKER, play.small_jokers),
             (Rank.BIG_JOKER, play.big_jokers)]
    if play.rank is not None:
        pairs.append((play.rank, play.naturals))
    return [(rank, n) for rank, n in pairs if n]


def _event(kind: str, seat: int, source: str | None, **fields: str) -> dict[str, Any]:
    event: dict[str, Any] = {"type": kind, "seat": seat, **fields}
    if source:
        event["source"] = source
    return event
