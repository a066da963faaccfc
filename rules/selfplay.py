"""Random legal bots playing whole rounds: event logs for the fuzzer, the benchmark and demos.

The bots deal real hands (four decks, 买三 in 憋三 rulesets, the previous round's tribute) and
pick random legal plays; the engine checks every event they make. By default the log holds only
``round`` and ``play`` events (what a camera sees: passes are inferred); ``extras=True`` adds
explicit passes, collects, 让牌, declarations and revolutions.

>>> events = random_match(7, "qingdao", rounds=2)
>>> events[0]["type"], sum(e["type"] == "round" for e in events)
('round', 2)
>>> from rules.record import replay
>>> m = replay(events)
>>> m.errors, len(m.history)
([], 2)
"""

from __future__ import annotations

import random
from typing import Any

from rules.cards import Rank
from rules.match import Match
from rules.plays import Play, beats
from rules.round import Answer, BurnState, Round, duitou
from rules.ruleset import Ruleset, load_ruleset

__all__ = ["deal", "random_match", "random_round_events"]

_THREE, _FOUR, _ACE = int(Rank.THREE), int(Rank.FOUR), int(Rank.ACE)
_TWO, _SJ, _BJ = int(Rank.TWO), int(Rank.SMALL_JOKER), int(Rank.BIG_JOKER)
_RANKS = {int(rank): rank for rank in Rank}
_MAX_STEPS = 20_000

Hand = list[int]
"""Cards held, as a count per ``Rank`` value."""


def deal(rng: random.Random, ruleset: Ruleset, match: Match) -> list[Hand]:
    """Deal hands for the next round of ``match``: shuffle, pay its tribute, 买三.

    The hand sizes equal the counts the match expects for the next round.
    """
    deck = [rank for rank, copies in enumerate(ruleset.deck) for _ in range(copies)]
    rng.shuffle(deck)
    hands: list[Hand] = []
    start = 0
    for size in ruleset.deal:
        hand = [0] * len(ruleset.deck)
        for rank in deck[start:start + size]:
            hand[rank] += 1
        hands.append(hand)
        start += size
    for row in match.tribute:
        _move(hands[row.giver], hands[row.receiver], row.cards, highest=True, ruleset=ruleset)
        if row.returned:
            _move(hands[row.receiver], hands[row.giver], row.cards, highest=False,
                  ruleset=ruleset)
    if ruleset.threes_last:
        _buy_threes(hands)
    return hands


def _move(giver: Hand, receiver: Hand, n: int, *, highest: bool, ruleset: Ruleset) -> None:
    ranks = range(len(giver) - 1, 2, -1) if highest else range(3, len(giver))
    for rank in ranks:
        while n and giver[rank] and not (ruleset.threes_last and rank == _THREE):
            giver[rank] -= 1
            receiver[rank] += 1
            n -= 1


def _buy_threes(hands: list[Hand]) -> None:
    """买三: a hand without 3s swaps its highest card for a 3, from its 对头 first."""
    for seat, hand in enumerate(hands):
        if hand[_THREE]:
            continue
        donors = [duitou(seat)] + [s for s in range(6) if s not in (seat, duitou(seat))]
        donor = next((d for d in donors if hands[d][_THREE] >= 2), None)
        if donor is None:
            continue
        top = max(r for r in range(len(hand)) if hand[r])
        hand[top] -= 1
        hands[donor][top] += 1
        hands[donor][_THREE] -= 1
        hand[_THREE] += 1


def _remove(hand: Hand, play: Play) -> None:
    if play.rank is not None:
        hand[play.rank] -= play.naturals
    hand[_TWO] -= play.twos
    hand[_SJ] -= play.small_jokers
    hand[_BJ] -= play.big_jokers


def _fill(rank: Rank | None, naturals: int, need: int, hand: Hand, *, jokers_first: bool
          ) -> Play | None:
    """Complete a play to ``need`` more cards with twos and jokers."""
    order = (_BJ, _SJ, _TWO) if jokers_first else (_TWO, _SJ, _BJ)
    extra = {_TWO: 0, _SJ: 0, _BJ: 0}
    for r in order:
        take = min(hand[r], need)
        extra[r] += take
        need -= take
    if need:
        return None
    return Play(rank, naturals, extra[_TWO], extra[_SJ], extra[_BJ])


def _answers(hand: Hand, led: Play, ruleset: Ruleset) -> list[Play]:
    """Plays from ``hand`` with ``led.count`` cards that beat ``led``."""
    size = led.count
    out: list[Play] = []
    has_extra = hand[_TWO] + hand[_SJ] + hand[_BJ] > 0
    variants = (False, True) if has_extra else (False,)
    if led.carried:
        # Plays with natural cards must carry a higher rank than the led play.
        led_rank = led.carried_rank
        assert led_rank is not None
        low = max(int(led_rank) + 1, _FOUR if ruleset.threes_last else _THREE)
        for rank in range(low, _ACE + 1):
            if hand[rank]:
                n = min(hand[rank], size)
                for jokers_first in variants if n < size else (False,):
                    play = _fill(_RANKS[rank], n, size - n, hand, jokers_first=jokers_first)
                    if play is not None and beats(play, led, ruleset):
                        out.append(play)
    if has_extra:
        for jokers_first in (False, True):
            play = _fill(None, 0, size, hand, jokers_first=jokers_first)
            if play is not None and beats(play, led, ruleset):
                out.append(play)
    if (ruleset.joker_multi_cover or ruleset.comparison == "parts") and led.big_jokers:
        for big in (2, 3):   # 2 大花 over 1 大花 and the like
            if hand[_BJ] >= big:
                play = Play(None, 0, 0, 0, big)
                if beats(play, led, ruleset):
                    out.append(play)
    return out


def _lead(hand: Hand, ruleset: Ruleset, rng: random.Random, *, burning: bool) -> Play:
    """A random lead from ``hand``."""
    total = sum(hand)
    if ruleset.threes_last and hand[_THREE] == total:
        return Play(Rank.THREE, total, 0, 0, 0)
    low = Rank.FOUR if ruleset.threes_last else Rank.THREE
    ranks = [r for r in range(low, Rank.ACE + 1) if hand[r]]
    specials = hand[_TWO] + hand[_SJ] + hand[_BJ]
    if burning and len(ranks) <= 1 and not (ruleset.threes_last and hand[_THREE]):
        # The whole hand in one play: a burner goes out (烧成功).
        rank = ranks[0] if ranks else None
        return Play(_RANKS[rank] if rank is not None else None, hand[rank] if rank else 0,
                    hand[_TWO], hand[_SJ], hand[_BJ])
    if burning and specials and hand[_SJ] + hand[_BJ]:
        # A burner carries a joker in every play but the last.
        rank = rng.choice(ranks) if ranks else None
        n = hand[rank] if rank is not None else 0
        joker = (0, 1) if hand[_BJ] else (1, 0)
        play = Play(Rank(rank) if rank is not None else None, n, 0, joker[0], joker[1])
        if play.count < total or not ruleset.threes_last:
            return play
    if not ranks or (specials and rng.random() < 0.15):
        kinds = [r for r in (_TWO, _SJ, _BJ) if hand[r]]
        r = rng.choice(kinds)
        n = rng.randint(1, hand[r])
        return Play(None, 0, n if r == _TWO else 0, n if r == _SJ else 0, n if r == _BJ else 0)
    rank = rng.choice(ranks)
    n = hand[rank] if rng.random() < 0.7 else rng.randint(1, hand[rank])
    twos = rng.randint(0, hand[_TWO]) if hand[_TWO] and rng.random() < 0.1 else 0
    return Play(Rank(rank), n, twos, 0, 0)


def _can_carry_jokers(hand: Hand, ruleset: Ruleset) -> bool:
    """Enough jokers for a burner to carry one in each play but the burning one and the last."""
    low = _FOUR if ruleset.threes_last else _THREE
    groups = sum(1 for r in range(low, _ACE + 1) if hand[r]) + bool(
        ruleset.threes_last and hand[_THREE])
    return hand[_SJ] + hand[_BJ] >= groups - 2


def random_round_events(rng: random.Random, match: Match, *, extras: bool = False
                        ) -> list[dict[str, Any]]:
    """Play one round of ``match`` with random legal bots; returns the events applied."""
    rs = match.ruleset
    hands = deal(rng, rs, match)
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        result = match.apply(event)
        if not result.applied:   # a bot bug, never a rules outcome
            raise AssertionError(f"selfplay made an illegal event {event}: {result.error}")
        events.append(event)

    start: dict[str, Any] = {"type": "round", "ruleset": rs.key}
    if match.round is None or rs.first_leader == "seen":
        start["first"] = rng.randrange(6)
    emit(start)
    r = match.round
    assert r is not None
    if extras:
        _extras_before_play(rng, r, hands, emit)
    for _ in range(_MAX_STEPS):
        if r.over:
            return events
        _step(rng, r, hands, emit, extras)
    raise AssertionError("selfplay round did not end")


def _extras_before_play(rng: random.Random, r: Round, hands: list[Hand], emit: Any) -> None:
    for seat in range(6):
        if rng.random() < 0.1:
            emit({"type": "declare", "seat": seat, "level": rng.choice(["ming", "yu"])})
    for seat in range(6):
        hand = hands[seat]
        if not (hand[_TWO] or hand[_SJ] or hand[_BJ]) and r.can_revolution(seat) \
                and rng.random() < 0.7:
            emit({"type": "revolution", "seat": seat,
                  "choice": rng.choice(["yaotou", "wutou"])})
            if r.over:
                return


def _step(rng: random.Random, r: Round, hands: list[Hand], emit: Any, extras: bool) -> None:
    rs = r.ruleset
    t = r.trick
    if not t.plays:
        seat = t.leader if t.leader is not None else rng.choice(r.to_act)
        play = _lead(hands[seat], rs, rng, burning=r.burning[seat] is BurnState.ACTIVE)
        _play(r, hands, emit, seat, play)
        return
    last = t.plays[-1]
    for seat in r.to_act:
        burner = t.answer is Answer.DUITOU and seat in t.burners
        # Burn when the jokers last (sometimes recklessly: 烧失败 is a legal outcome);
        # otherwise answer three times in four.
        if burner:
            jokers = hands[seat][_SJ] + hands[seat][_BJ]
            chance = 0.6 if _can_carry_jokers(hands[seat], rs) else 0.1 if jokers >= 2 else 0
        else:
            chance = 0.75
        if rng.random() < chance:
            options = [p for p in _answers(hands[seat], last.play, rs) if r.can_play(seat, p)]
            if options:
                _play(r, hands, emit, seat, rng.choice(options))
                return
        if extras and rng.random() < 0.2:
            if t.answer is Answer.ANY and r.can_yield(seat) and rng.random() < 0.3:
                emit({"type": "yield", "seat": seat})
            elif r.can_pass(seat):
                emit({"type": "pass", "seat": seat})
            return
    if extras and rng.random() < 0.3:
        emit({"type": "collect"})
        return
    # Nobody answers: the winner (or the 接风 seat) leads; the engine infers the passes.
    leader = last.seat if r.active[last.seat] else r.next_active(last.seat)
    assert leader is not None
    play = _lead(hands[leader], rs, rng, burning=r.burning[leader] is BurnState.ACTIVE)
    _play(r, hands, emit, leader, play)


def _play(r: Round, hands: list[Hand], emit: Any, seat: int, play: Play) -> None:
    emit({"type": "play", "seat": seat, "cards": str(play)})
    _remove(hands[seat], play)


def random_match(seed: int, ruleset: str = "qingdao", rounds: int = 1, *,
                 extras: bool = False) -> list[dict[str, Any]]:
    """Event dicts of ``rounds`` complete legal rounds played by random legal bots.

    Args:
        seed: Random seed; the same seed gives the same events.
        ruleset: Ruleset name, alias or spec.
        rounds: Number of rounds.
        extras: Also make explicit passes, collects, 让牌, declarations and revolutions.
    """
    rng = random.Random(seed)
    match = Match(load_ruleset(ruleset))
    events: list[dict[str, Any]] = []
    for _ in range(rounds):
        events += random_round_events(rng, match, extras=extras)
    return events
