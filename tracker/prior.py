"""The rules engine as a prior for vision: who may act now, and would it accept a play.

The segmenter never lets the rules add or change a card. It asks them two things: which
of two zones a border play belongs to (the seat that may act), and whether a play it saw is
one the rules would take (same count as the play it answers, the 对头 answering a 够级 play,
beating it). A play the rules refuse is still reported, held for the operator's review with
the rules' reason; if setting aside one or two of its unsure cards gives a play the rules take,
that play is reported instead (still held, the set-aside cards named in the reason). Rules
a play behind the table (a play refused, its cards no reading gives) refuse every later play
as out of turn; such a play is read as one in turn as the table shows it
(:meth:`MatchPrior.in_turn`, a :class:`TableVerdict`).

With a match that offers copies (a :class:`rules.Match`, or the live game's view of one), the
prior also gives checkpoints, copies of the match before a trick (:meth:`MatchPrior.checkpoint`),
so that the segmenter can ask whether the plays since would all be taken with one of them read
otherwise (:meth:`MatchPrior.objection_from`), bring the checkpoints after a corrected play
up to date (:meth:`MatchPrior.advanced`), judge the next of several plays seen at once
after the events of those before it (:meth:`MatchPrior.after`), and tell whether other
versions of the round's plays would end it (:meth:`MatchPrior.round_over_after`). When the
table deals anew while the match still holds a round open, the new deal is judged by a match of
its own (:meth:`MatchPrior.new_deal`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

from rules import Match, beats, classify, parse_cards

__all__ = ["Event", "MatchPrior", "Prior", "TableVerdict", "Verdict", "round_open"]

Event = dict[str, Any]
"""An event of the log (DESIGN.md), as the segmenter makes it."""


class Verdict(Protocol):
    """Whether the rules would take a candidate play."""

    def objection(self, seat: int, cards: str) -> str | None:
        """Why the rules would refuse ``cards`` from ``seat``, or ``None``."""


class Prior(Verdict, Protocol):
    """What the rules say about a candidate play (see :class:`MatchPrior`)."""

    def opening(self, seat: int) -> dict[str, Any] | None:
        """The ``round`` event a play from ``seat`` would open now (none in a round)."""

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may play now."""

    def objection(self, seat: int, cards: str) -> str | None:
        """Why the rules would refuse ``cards`` from ``seat`` now, or ``None``."""

    def leads(self, seat: int) -> bool:
        """Whether a play from ``seat`` now leads a new trick."""

    def in_turn(self, answered: str | None) -> Verdict:
        """The rules' verdict on a play made in turn as the table shows it, whoever they hold
        to act: a lead (``answered`` ``None``), or an answer to the cards ``answered``."""

    def cards_left(self, seat: int) -> int | None:
        """How many cards the rules hold ``seat`` to have left (``None``: unknown)."""

    def round_number(self) -> int:
        """The number of the round in play or last played (0 before the first)."""

    def new_deal(self, seat: int) -> tuple[Event, Prior]:
        """The ``round`` event of a deal that ``seat`` opens while the match still holds an
        earlier round open, and a prior of that round alone, kept by its holder (:meth:`take`)."""

    def take(self, events: Sequence[Event]) -> None:
        """Apply ``events`` (numbered by ``seq``) to a prior of :meth:`new_deal`."""

    def checkpoint(self) -> Any:
        """The rules' state now, to judge later other versions of the plays that follow
        (``None``: the prior cannot)."""

    def objection_from(self, checkpoint: Any, plays: Sequence[tuple[int, str] | None]
                       ) -> str | None:
        """Why the rules, from ``checkpoint``, would refuse these ``(seat, cards)`` plays made
        one after another (``None``: the trick was gathered there), or ``None``."""

    def round_over_after(self, checkpoint: Any, plays: Sequence[tuple[int, str] | None]
                         ) -> bool:
        """Whether the rules, from ``checkpoint``, take each of these plays and see the round
        over after them."""

    def advanced(self, checkpoint: Any, plays: Sequence[tuple[int, str] | None]) -> Any:
        """The rules' state after these plays from ``checkpoint`` (refused ones left out)."""

    def after(self, events: Sequence[Event]) -> Prior:
        """The prior once ``events``, just made and not yet applied by the caller, are
        (itself when it cannot tell): the next play of a picture is judged after them."""


@dataclass(frozen=True, slots=True)
class TableVerdict:
    """The rules' verdict on a play made in turn as the table shows it: a lead of any legal
    shape, an answer that beats the play ``answered``. For a play the rules refuse out of
    turn, a play behind the table (a play before refused, its cards no reading gives): the
    table shows whom a play answers, not how many cards each seat holds."""

    ruleset: str
    answered: str | None = None
    """The cards the play answers (``None``: it leads)."""

    def objection(self, seat: int, cards: str) -> str | None:
        """Why the rules would refuse ``cards`` so (``seat`` is not asked), or ``None``."""
        shape = classify(cards, ruleset=self.ruleset)
        if not shape.legal:  # mixed ranks, 3s outside a final play: never a play, whoever leads
            return f"rules: {shape.reason}"
        if self.answered is not None and not beats(cards, self.answered, self.ruleset):
            return f"rules: {cards} does not beat {self.answered}"
        return None


def round_open(prior: Prior | None) -> TypeGuard[Prior]:
    """Whether ``prior``'s rules have a round in play (they hold seats to counts)."""
    return prior is not None and prior.cards_left(0) is not None


class MatchPrior:
    """A :class:`Prior` reading a match kept current by its owner.

    Args:
        match: a :class:`rules.Match` (its ``verify`` gives the full rules' verdict), or any
            object whose ``to_json()`` returns the match state (then only the turn and the
            count of the play on the table are checked) and whose ``copy()``, if it has one,
            returns a :class:`rules.Match` of that state (for checkpoints).
    """

    def __init__(self, match: Any, *, ruleset: str | None = None) -> None:
        self.match = match
        self.ruleset = ruleset
        """Ruleset named in the ``round`` events of :meth:`opening` (default: the match's)."""

    @staticmethod
    def _in_round(state: dict[str, Any]) -> bool:
        # Before the first play of a round anyone may lead.
        return state.get("round", 0) >= 1 and not state.get("round_over", False)

    def opening(self, seat: int) -> dict[str, Any] | None:
        """The ``round`` event a play from ``seat`` opens now that no round is in play (the
        first play of a round the match has not begun), or ``None`` in a round."""
        state: dict[str, Any] = self.match.to_json()
        if self._in_round(state):
            return None
        return self._round_event(seat, state)

    def _round_event(self, seat: int, state: dict[str, Any]) -> dict[str, Any]:
        """The inferred ``round`` event of a round ``seat`` opens (the match in ``state``)."""
        return {"type": "round", "ruleset": self.ruleset or state.get("ruleset") or "qingdao",
                "first": seat, "source": "inferred"}

    def may_act(self, seat: int) -> bool:
        """Whether the rules let ``seat`` play now (always, before a round has begun)."""
        state: dict[str, Any] = self.match.to_json()
        return not self._in_round(state) or seat in state.get("to_act", ())

    def objection(self, seat: int, cards: str) -> str | None:
        """The rules' reason to refuse ``cards`` from ``seat`` now, or ``None``."""
        state: dict[str, Any] = self.match.to_json()
        if (refused := self._table_verdict(state).objection(seat, cards)) is not None:
            return refused
        if not self._in_round(state):
            return None
        verify = getattr(self.match, "verify", None)
        if verify is not None:
            try:
                verify({"type": "play", "seat": seat, "cards": cards, "source": "vision"})
            except ValueError as exc:  # GoujiError: illegal or malformed
                return f"rules: {exc}"
            return None
        if seat not in state.get("to_act", ()):
            return f"rules: seat {seat} is not to act (to act: {state.get('to_act')})"
        trick = state.get("trick") or {}
        led = trick.get("last_cards")
        if led and trick.get("answer") != "lead" and len(parse_cards(cards)) != len(
                parse_cards(led)):
            return f"rules: {len(parse_cards(cards))} cards against {len(parse_cards(led))}"
        return None

    def in_turn(self, answered: str | None) -> TableVerdict:
        """The rules' verdict on a play in turn as the table shows it (a lead, or an answer to
        ``answered``), in the match's ruleset."""
        return self._table_verdict(self.match.to_json(), answered)

    def _table_verdict(self, state: dict[str, Any], answered: str | None = None) -> TableVerdict:
        return TableVerdict(state.get("ruleset") or "qingdao", answered)

    def leads(self, seat: int) -> bool:
        """Whether a play from ``seat`` now leads a new trick (or a new round): nothing is on
        the table, or every other seat passed on ``seat``'s play."""
        state: dict[str, Any] = self.match.to_json()
        trick = state.get("trick") or {}
        return (not self._in_round(state) or trick.get("answer") == "lead"
                or trick.get("last_seat") == seat)

    def cards_left(self, seat: int) -> int | None:
        """How many cards the match holds ``seat`` to have left in the round in play
        (``None`` between rounds)."""
        state: dict[str, Any] = self.match.to_json()
        if not self._in_round(state):
            return None
        return int(state["counts"][str(seat)])

    def round_number(self) -> int:
        """The number of the round in play or last played (0 before the first)."""
        return int(self.match.to_json().get("round", 0))

    def new_deal(self, seat: int) -> tuple[dict[str, Any], MatchPrior]:
        """The ``round`` event of a deal ``seat`` opens while the match still holds an earlier
        round open (its owner will refuse it until that round is corrected), and a prior of a
        match of its own that plays that round, for its holder to keep current (:meth:`take`).
        That match starts a game: the tribute after the round left open, which no one can tell
        yet, is not paid in it."""
        opening = self._round_event(seat, self.match.to_json())
        return opening, MatchPrior(Match(ruleset=opening["ruleset"]), ruleset=opening["ruleset"])

    def take(self, events: Sequence[dict[str, Any]]) -> None:
        """Apply ``events`` to the match, numbered by their ``seq`` (for a prior of
        :meth:`new_deal`, whose match nobody else keeps)."""
        for event in events:
            with contextlib.suppress(ValueError):  # GoujiError: malformed, the owner's to hear
                self.match.apply(event, line=event.get("seq"))

    def checkpoint(self) -> Any:
        """A copy of the match now (a :class:`rules.Match`, from the match's ``copy()``);
        ``None`` when the match offers no copy."""
        make_copy = getattr(self.match, "copy", None)
        return make_copy() if callable(make_copy) else None

    def objection_from(self, checkpoint: Any, plays: Sequence[tuple[int, str] | None]
                       ) -> str | None:
        """The rules' reason to refuse one of ``plays`` made in turn from ``checkpoint``
        (``None``: the trick was gathered there, everyone still to act passed)."""
        return self._replayed(checkpoint, plays, stop=True)[1]

    def round_over_after(self, checkpoint: Any, plays: Sequence[tuple[int, str] | None]
                         ) -> bool:
        """Whether the rules, from ``checkpoint``, take every one of ``plays`` made in turn and
        see the round over after them."""
        match, objection = self._replayed(checkpoint, plays, stop=True)
        return objection is None and bool(match.to_json()["round_over"])

    def advanced(self, checkpoint: Any, plays: Sequence[tuple[int, str] | None]) -> Any:
        """The checkpoint after ``plays`` made in turn from ``checkpoint``, each one the rules
        refuse left out (as the match leaves out a refused event)."""
        return self._replayed(checkpoint, plays, stop=False)[0]

    def after(self, events: Sequence[dict[str, Any]]) -> MatchPrior:
        """The prior once ``events`` are applied (a copy of the match plays them; itself when
        the match offers no copy). Corrections are left out: they name earlier events by the
        sender's numbers, which need not be the match's (the live game numbers what it stores)."""
        match = self.checkpoint()
        if match is None:
            return self
        following = MatchPrior(match, ruleset=self.ruleset)
        following.take([event for event in events if "fixes" not in event])
        return following

    @staticmethod
    def _replayed(checkpoint: Any, plays: Sequence[tuple[int, str] | None], *, stop: bool
                  ) -> tuple[Any, str | None]:
        """A copy of ``checkpoint`` with ``plays`` applied, and the first refusal's reason
        (with ``stop``, the plays after it are not applied)."""
        match, objection = checkpoint.copy(), None
        for play in plays:
            event = ({"type": "collect"} if play is None else
                     {"type": "play", "seat": play[0], "cards": play[1], "source": "vision"})
            try:
                result = match.apply(event)
                reason = None if result.error is None else result.error.reason
            except ValueError as exc:  # GoujiError: malformed
                reason = str(exc)
            if reason is not None and objection is None:
                objection = f"rules: {reason}"
                if stop:
                    break
        return match, objection
