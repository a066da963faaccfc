"""Event logs: replay collects errors with line numbers, never crashes; undo; corrections."""

import json
import random

import pytest

from rules import GoujiError, MalformedEventError, Match, dumps, loads, replay, undo
from rules.events import apply_corrections
from rules.selfplay import random_match

LINES = [
    '{"type":"round","ruleset":"qingdao","first":0}',
    '{"type":"play","seat":0,"cards":"55"}',
    '{"type":"play","seat":3,"cards":"77"}',
    '{"type":"play","seat":1,"cards":"88"}',          # 过牌: illegal
    "this is not json",
    '{"type":"play","seat":4,"cards":"X5"}',          # bad token: malformed
    '{"type":"teleport","seat":4}',                   # unknown type
    '{"type":"play","seat":9,"cards":"5"}',           # no such seat
    "[1, 2]",                                         # not an object
    '{"type":"play","seat":0,"cards":"KK"}',
]
LOG = "\n".join(LINES)


def test_replay_reports_each_bad_line_and_keeps_going():
    m = replay(LOG)
    assert [(e.line, e.reason.split(":")[0]) for e in m.errors] == [
        (4, "过牌"), (5, "not JSON"), (6, "invalid card token 'X'"),
        (7, "unknown event type 'teleport'"), (8, "seat must be a seat 0..5, not 9"),
        (9, "an event is a JSON object, not list")]
    state = m.to_json()
    assert state["counts"]["0"] == 32 and state["to_act"] == [3]
    assert state["events"] == 4
    assert state["errors"][0] == {"line": 4, "event": {"type": "play", "seat": 1, "cards": "88"},
                                  "reason": state["errors"][0]["reason"]}


def test_apply_raises_for_a_malformed_event_after_recording_it():
    m = Match()
    with pytest.raises(MalformedEventError):
        m.apply({"type": "play", "seat": "two", "cards": "5"}, line=1)
    assert m.errors[0].line == 1
    with pytest.raises(GoujiError):
        m.apply({"type": "declare", "seat": 1, "level": "loud"})


def test_undo_is_a_replay_without_the_last_event():
    events = [json.loads(line) for line in LOG.splitlines()[:3]]
    assert undo(events).to_json()["counts"]["3"] == 36
    assert undo(events).to_json() == replay(events[:-1]).to_json()


def test_a_correction_takes_the_place_of_the_event_it_fixes():
    events = [
        {"type": "round", "first": 0},
        {"type": "play", "seat": 0, "cards": "55"},
        {"type": "play", "seat": 1, "cards": "66"},
        {"type": "play", "seat": 2, "cards": "99"},
        {"type": "play", "seat": 1, "cards": "QQ", "fixes": 3, "source": "operator"},
    ]
    m = replay(events)
    assert m.to_json()["trick"]["plays"][1]["cards"] == "QQ"
    # The play after the corrected one is judged again: 99 no longer beats QQ.
    assert [(e.line, e.reason) for e in m.errors] == [(4, "99 does not beat QQ")]


def test_a_void_correction_deletes_the_event():
    events = [{"type": "round", "first": 0, "seq": 1}, {"type": "play", "seat": 0, "cards": "55"},
              {"type": "void", "fixes": 2}]
    assert replay(events).to_json()["counts"]["0"] == 36


def test_a_match_takes_a_correction_as_it_comes_as_a_replay_would():
    events = [
        {"type": "round", "first": 0, "seq": 1},
        {"type": "play", "seat": 0, "cards": "555", "seq": 2},     # truly 55
        {"type": "play", "seat": 1, "cards": "66", "seq": 3},      # refused: 2 cards against 3
        {"type": "play", "seat": 0, "cards": "55", "fixes": 2, "seq": 4},
        {"type": "play", "seat": 2, "cards": "99", "seq": 5},
    ]
    m = Match()
    results = [m.apply(e, line=n) for n, e in enumerate(events, start=1)]
    assert not results[2].applied and results[3].applied and results[4].applied
    # 66 is judged again after the 55 that now stands before it, and taken.
    assert m.errors == []
    assert [p["cards"] for p in m.to_json()["trick"]["plays"]] == ["55", "66", "99"]
    assert m.to_json()["counts"] == replay(events).to_json()["counts"]
    assert m.to_json()["counts"]["0"] == 34


def test_a_correction_of_a_correction_and_unreadable_lines_survive_the_replay():
    lines = [
        '{"type":"round","first":0}',
        '{"type":"play","seat":0,"cards":"555"}',
        "not json",
        '{"type":"play","seat":0,"cards":"55","fixes":2}',
        '{"type":"play","seat":0,"cards":"5","fixes":4}',
        '{"type":"play","seat":3,"cards":"77","fixes":99}',   # names nothing: judged where it is
    ]
    m = replay("\n".join(lines))
    assert m.to_json()["counts"]["0"] == 35
    assert [(e.line, e.reason.split(":")[0]) for e in m.errors] == [
        (3, "not JSON"), (6, "77 does not beat 5")]
    assert m.log[1]["cards"] == "5"


def test_a_copy_of_a_match_before_any_round_goes_on_alone():
    match = Match("qingdao")
    twin = match.copy()
    twin.apply({"type": "round", "first": 0})
    assert match.rounds == [] and match.to_json()["round"] == 0


def test_a_copy_goes_on_alone_and_ends_where_the_whole_log_does():
    events = random_match(3, rounds=3)
    half = len(events) * 2 // 3                    # in the third round
    match = Match("qingdao")
    for event in events[:half]:
        match.apply(event)
    before = json.dumps(match.to_json(), sort_keys=True)
    twin = match.copy()
    for event in events[half:]:
        twin.apply(event)
    assert json.dumps(match.to_json(), sort_keys=True) == before
    assert twin.to_json() == replay(events, ruleset="qingdao").to_json()
    assert twin.round is not match.round and twin.rounds[0] is match.rounds[0]


def test_dumps_loads_round_trip():
    events = [{"type": "play", "seat": 1, "cards": "BJ 55", "t": 1.5}]
    assert [e for _, e in loads(dumps(events))] == events


def test_replay_takes_the_ruleset_from_the_log_unless_given():
    log = '{"type":"round","ruleset":"irvine","first":0}\n'
    assert replay(log).to_json()["ruleset"] == "irvine"
    assert replay(log, ruleset="biesan").to_json()["ruleset"] == "biesan"


def test_state_json_has_the_contract_keys():
    state = replay(LOG).to_json()
    for key in ("finish_order", "scores", "counts", "to_act", "reported", "opened", "tribute",
                "errors", "ruleset", "round", "round_over", "round_scores", "history", "places",
                "seats", "trick", "events", "announcements"):
        assert key in state
    assert set(state["seats"][0]) == {"seat", "federation", "duitou", "count", "reported",
                                      "opened", "place", "burning", "revolution", "declared",
                                      "passed"}
    assert set(state["trick"]) == {"leader", "plays", "last_seat", "last_cards", "gouji",
                                   "answer", "luanchan"}
    json.dumps(state)   # JSON-ready


def test_a_byte_order_mark_and_windows_line_ends_are_fine():
    m = replay('\ufeff{"type":"round","first":0}\r\n{"type":"play","seat":0,"cards":"55"}\r\n')
    assert m.errors == [] and m.to_json()["counts"]["0"] == 34


@pytest.mark.parametrize("seed", [3, 8])
def test_corrections_as_they_come_leave_the_match_a_whole_replay_gives(seed):
    # Three random rounds (hundreds of events; the state is copied as each begins), corrected
    # now and then: a recent play deleted or given one card fewer, any play marked as checked
    # (the same cards: the game goes on, but the log must show the correction).
    rng = random.Random(seed)
    m, given = Match(), []
    for event in random_match(seed, rounds=3):
        given.append({**event, "seq": len(given) + 1})
        m.apply(given[-1], line=len(given))
        if rng.random() < 0.08:
            target = rng.choice([e for e in given if e["type"] == "play" and "fixes" not in e])
            change = rng.choice([{"type": "void"}, {"cards": target["cards"][1:].strip()}]
                                if target["seq"] > len(given) - 20 else [{"checked": True}])
            given.append({**target, **change, "fixes": target["seq"], "seq": len(given) + 1})
            m.apply(given[-1], line=len(given))
    # some reach back to an earlier round, before the state copy its own round began with
    starts = [e["seq"] for e in given if e["type"] == "round"]
    assert any("fixes" in e and e["fixes"] < starts[1] < e["seq"] for e in given)
    fresh = Match()
    for line, event in apply_corrections(list(enumerate(given, start=1))):
        fresh.apply({k: v for k, v in event.items() if k != "fixes"}, line=line)
    state, expected = m.to_json(), fresh.to_json()
    assert [(e["line"], e["reason"]) for e in state.pop("errors")] == [
        (e["line"], e["reason"]) for e in expected.pop("errors")]
    assert state == expected
    assert [{k: v for k, v in e.items() if k != "fixes"} for e in m.log] == fresh.log
