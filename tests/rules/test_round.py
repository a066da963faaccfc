"""Whole scripted rounds: who may answer, passes, 让牌, 烧牌, 开点, 无头, 乱缠, 接风, 够死级, the end."""

import pytest

from rules import Match

# ---- turn order, inferred passes, 过牌 -------------------------------------------------------------


def test_passes_are_inferred_from_who_plays_next(script):
    m = script("0 55 | 3 77")
    state = m.to_json()
    assert [s["seat"] for s in state["seats"] if s["passed"]] == [1, 2]
    assert state["to_act"] == [4, 5, 0]
    assert state["trick"]["answer"] == "any"
    assert [e["source"] for e in m.round.events if e["type"] == "pass"] == ["inferred"] * 2


def test_guopai_a_passed_player_may_not_play_again_in_the_trick(script):
    m = script("0 55 | 3 77")
    result = m.apply({"type": "play", "seat": 1, "cards": "88"}, line=9)
    assert not result.applied
    assert "过牌" in result.error.reason and result.error.line == 9


@pytest.mark.parametrize(
    ("ruleset", "to_act"),
    [
        ("qingdao", [5, 0, 1, 2]),   # seat 1 passed, but may answer his 对头 4's play
        ("irvine", [5, 0, 2]),       # seed 004 备註6: only a gouji play of the 对头 lifts 过牌
    ],
)
def test_pass_lock_duitou_exception(script, ruleset, to_act):
    m = script("0 55 | 2 66 | 4 77", ruleset)
    assert m.to_json()["to_act"] == to_act


def test_everyone_passes_and_the_last_player_leads_the_next_trick(script):
    m = script("0 55 | pass 1 | pass 2 | pass 3 | pass 4 | pass 5")
    state = m.to_json()
    assert state["to_act"] == [0] and state["trick"]["answer"] == "lead"


def test_a_lead_cannot_be_passed_and_others_cannot_lead(script):
    m = script("")
    assert not m.apply({"type": "pass", "seat": 0}).applied
    assert m.apply({"type": "play", "seat": 2, "cards": "5"}).error.reason == \
        "seat 0 leads this trick"


def test_an_answer_must_beat_the_last_play(script):
    m = script("0 55")
    assert m.apply({"type": "play", "seat": 1, "cards": "44"}).error.reason == "44 does not beat 55"
    assert "3 cards against 2" in m.apply({"type": "play", "seat": 1, "cards": "666"}).error.reason


# ---- 够级 and 开点 ----------------------------------------------------------------------------------


def test_a_gouji_play_is_answered_only_by_the_duitou_or_a_burner(script):
    m = script("0 TTTTT")
    state = m.to_json()
    assert state["trick"]["answer"] == "duitou" and state["trick"]["gouji"]
    assert state["to_act"] == [1, 2, 3, 4, 5]
    assert m.announcements == ["0号 够级"]


def test_duitou_passes_the_gouji_play_and_its_player_leads_with_kaidian(script):
    m = script("0 TTTTT | pass 3")
    state = m.to_json()
    assert state["to_act"] == [0] and state["opened"] == [0]
    assert "0号 开点" in m.announcements


def test_kaidian_is_inferred_when_the_gouji_player_plays_again(script):
    assert script("0 TTTTT | 0 66").to_json()["opened"] == [0]


def test_the_duitou_answers_and_wins_the_lead(script):
    m = script("0 TTTTT | 3 JJJJJ | pass 0")
    assert m.to_json()["opened"] == [3] and m.to_json()["to_act"] == [3]


@pytest.mark.parametrize(
    ("ruleset", "steps", "opened"),
    [
        ("qingdao", "0 BJ | 0 5", []),         # a big joker does not open (seed 000 option 0)
        ("qingdao", "0 SJ | 0 5", [0]),
        ("qingdao", "0 2 | 0 5", [0]),
        ("house196", "0 SJ | 0 5", []),        # seed 001: no joker opens
        ("house196", "0 2 | 0 5", []),         # seed 001: nor a single 2
        ("house196", "0 22 | 0 5", [0]),
        ("irvine", "0 22 | 0 5", []),          # seed 004: a 2 opens only answering gouji
        ("irvine", "0 KK | 3 22 | 3 5", [3]),
        ("irvine", "0 BJ QQ | 0 5", []),       # jokers never open in irvine
        ("qingdao", "0 TTTT | 0 5", []),       # not gouji: no 开点
    ],
)
def test_kaidian_excludes_per_preset(script, ruleset, steps, opened):
    assert script(steps, ruleset).to_json()["opened"] == opened


def test_no_kaidian_in_luanchan_after_two_players_finished(script):
    m = script("0 5 | 1 6 | 2 TTTTT | 2 7", counts=[1, 1, 12, 10, 10, 10])
    state = m.to_json()
    assert state["opened"] == [] and state["trick"]["luanchan"]


# ---- 让牌 ------------------------------------------------------------------------------------------


def test_rangpai_the_next_two_act_first_then_the_decision_returns(script):
    m = script("0 55 | pass 1 | pass 2 | yield 3")
    assert m.to_json()["to_act"] == [4, 5, 3]
    m = script("0 55 | yield 3 | pass 4 | pass 5")      # 1 and 2 inferred
    assert m.to_json()["to_act"] == [3]


def test_rangpai_only_the_duitou_may_answer_the_yielders_play(script):
    m = script("0 55 | yield 3 | pass 4 | pass 5 | 3 66")
    assert m.to_json()["to_act"] == [0]


@pytest.mark.parametrize(
    ("steps", "seat", "reason"),
    [
        ("0 55", 4, "his 对头"),                      # not the 对头 of the last player
        ("0 55 | yield 3 | pass 4 | pass 5", 3, "already yielded"),  # once per trick
        ("0 TTTTT", 3, "everyone may answer"),        # not on a gouji play
    ],
)
def test_rangpai_refused(script, steps, seat, reason):
    result = script(steps).apply({"type": "yield", "seat": seat})
    assert not result.applied and reason in result.error.reason


# ---- 烧牌 ------------------------------------------------------------------------------------------


def test_shaopai_success_the_burned_owes_one(script):
    m = script("0 KK | 1 AA | 1 SJ 55 | 1 7 | 2 8 | 3 9 | 4 T | 5 J",
               counts=[3, 6, 1, 1, 1, 1])
    state = m.to_json()
    assert state["seats"][1]["burning"] == "success"
    assert state["finish_order"] == [1, 2, 3, 4, 5] and state["places"]["0"] == 6
    assert state["scores"] == {"0": -1, "1": 1}
    assert state["opened"] == [1]
    assert state["tribute"] == [
        {"kind": "shao", "from": 0, "to": 1, "cards": 1, "returned": False},
        {"kind": "dian", "from": 3, "to": 0, "cards": 1, "returned": False},
        {"kind": "dian", "from": 0, "to": 3, "cards": 1, "returned": False},
        {"kind": "dian", "from": 4, "to": 1, "cards": 1, "returned": False},
        {"kind": "dian", "from": 5, "to": 2, "cards": 1, "returned": False},
        {"kind": "dian", "from": 2, "to": 5, "cards": 1, "returned": False},
        {"kind": "luo", "from": 0, "to": 1, "cards": 2, "returned": True},
        {"kind": "luo", "from": 5, "to": 2, "cards": 1, "returned": True},
    ]


def test_shaopai_state_is_active_while_the_burner_plays_on(script):
    m = script("0 KK | 1 AA")
    state = m.to_json()
    assert state["seats"][1]["burning"] == "active" and state["trick"]["plays"][-1]["burn"]
    assert state["to_act"] == [2, 3, 4, 5, 0]   # the burner's 对头 4, or burners of the burner


@pytest.mark.parametrize(
    ("ruleset", "burns", "announcement"),
    [
        ("qingdao", [], "解烧"),          # beaten by the burner's 对头: 解烧, no tribute
        ("irvine", [(1, 0)], "4号 反烧"),  # irvine 反燒: the burner owes the burned player
    ],
)
def test_jieshao_when_the_burners_play_is_beaten(script, ruleset, burns, announcement):
    m = script("0 KK | 1 AA | 4 22", ruleset)
    assert m.to_json()["seats"][1]["burning"] == "jieshao"
    assert m.round.burns == burns and announcement in m.announcements


def test_another_burner_may_burn_the_burner(script):
    m = script("0 KK | 1 AA | 2 22")
    seats = m.to_json()["seats"]
    assert (seats[1]["burning"], seats[2]["burning"]) == ("jieshao", "active")


def test_shao_failure_a_play_without_a_joker_ranks_the_burner_daluo(script):
    m = script("0 KK | 1 AA | 1 55")
    state = m.to_json()
    assert state["seats"][1]["burning"] == "failed" and state["places"] == {"1": 6}
    assert "1号 烧失败 大落" in m.announcements
    assert m.apply({"type": "play", "seat": 1, "cards": "66"}).error.reason.startswith("seat 1")


def test_no_burning_option_leaves_only_the_duitou(script):
    m = script("0 KK", "qingdao+no_burning")
    assert m.to_json()["to_act"] == [3]
    assert "对头" in m.apply({"type": "play", "seat": 1, "cards": "AA"}).error.reason


# ---- 无头, 四户乱缠, 接风, 够死级 ------------------------------------------------------------------------


def test_wutou_anyone_answers_the_player_whose_duitou_finished(script):
    m = script("0 55 | 1 66 | 3 KK", counts=[2, 10, 10, 10, 10, 10])
    state = m.to_json()
    assert state["trick"]["answer"] == "any" and state["to_act"] == [4, 5, 1]


def test_wutou_player_answers_another_gouji_play_without_burning(script):
    m = script("0 5 | 1 KK | 3 AA", counts=[1, 10, 10, 10, 10, 10])
    assert not m.to_json()["trick"]["plays"][-1]["burn"]
    assert m.to_json()["seats"][3]["burning"] is None


def test_luanchan_after_toukе_and_erke_plain_order_without_gouji_or_pass_lock(script):
    m = script("0 5 | 1 6 | 2 TTTTT | 4 JJJJJ | 3 QQQQQ", counts=[1, 1, 10, 10, 10, 10])
    state = m.to_json()
    assert state["trick"]["luanchan"] and state["trick"]["answer"] == "free"
    assert not state["trick"]["gouji"]            # no gouji in 四户乱缠
    assert state["to_act"] == [4, 5, 2]           # 3 passed before and played: no lock
    assert not m.can_apply({"type": "yield", "seat": 3})


def test_jiefeng_the_next_seat_leads_after_the_last_play_of_a_player_who_went_out(script):
    m = script("0 5 | pass 1 | pass 2 | pass 3 | pass 4 | pass 5", counts=[1, 10, 10, 10, 10, 10])
    assert m.to_json()["to_act"] == [1] and "1号 接风" in m.announcements
    m = script("0 5 | 1 33", counts=[1, 10, 10, 10, 10, 10])   # inferred: 1 leads
    assert m.to_json()["trick"]["leader"] == 1


def test_jiefeng_asking_seat_is_not_locked_by_passing(script):
    script("0 5 | pass 1 | 2 6 | 1 7", counts=[1, 10, 10, 10, 10, 10])


def test_gousiji_the_duitou_answers_toukes_gouji_last_play_only_burners_may_stop_it(script):
    m = script("0 KK | 3 AA", counts=[2, 10, 10, 10, 10, 10])
    state = m.to_json()
    assert "3号 够死级" in m.announcements
    assert state["to_act"] == [4, 5, 1, 2] and state["trick"]["answer"] == "duitou"
    m.apply({"type": "play", "seat": 3, "cards": "5"})
    assert m.to_json()["opened"] == [3]


def test_gousiji_declined_the_next_seat_leads(script):
    m = script("0 KK | pass 3", counts=[2, 10, 10, 10, 10, 10])
    assert m.to_json()["to_act"] == [1]


# ---- the end of the round --------------------------------------------------------------------


def test_round_ends_when_the_seats_left_are_one_federation_fewer_cards_rank_higher(script):
    m = script("0 5 | 1 6 | 3 7 | 5 8", counts=[1, 1, 10, 1, 8, 1])
    state = m.to_json()
    assert state["round_over"] and state["to_act"] == []
    assert state["finish_order"] == [0, 1, 3, 5]
    assert state["places"] == {"0": 1, "1": 2, "2": 6, "3": 3, "4": 5, "5": 4}
    assert state["scores"] == {"0": -1, "1": 1}
    assert [r["kind"] for r in state["tribute"]] == ["dian"] * 6 + ["luo", "luo"]
    assert state["tribute"][-2:] == [
        {"kind": "luo", "from": 2, "to": 0, "cards": 2, "returned": True},
        {"kind": "luo", "from": 4, "to": 1, "cards": 1, "returned": True}]


def test_equal_counts_the_seat_nearer_after_the_last_out_ranks_higher(script):
    m = script("0 5 | 1 6 | 3 7 | 5 8", counts=[1, 1, 10, 1, 10, 1])
    assert m.to_json()["places"]["2"] == 5 and m.to_json()["places"]["4"] == 6


def test_play_out_to_last_keeps_playing(script):
    m = script("0 5 | 1 6 | 3 7 | 5 8", "qingdao+play_out_to_last", counts=[1, 1, 10, 1, 8, 1])
    assert not m.to_json()["round_over"] and m.to_json()["to_act"]


@pytest.mark.parametrize(
    ("ruleset", "scores", "tribute_kinds"),
    [
        ("qingdao", {"0": 6, "1": -6}, []),                  # doubled; no tribute, new game
        ("online", {"0": 6, "1": -6}, []),                   # 4+2+0, not doubled
        ("house196", {"0": 6, "1": -6}, ["chuan"] * 3),      # seed 001: each winner takes one
        # irvine: 串贡 instead of 落贡 (3s made ordinary to keep the script short)
        ("irvine+no_threes_last", {"0": 6, "1": -6}, ["dian"] * 6 + ["chuan"] * 3),
    ],
)
def test_chuansanhu_one_federation_takes_touke_erke_sanke(script, ruleset, scores, tribute_kinds):
    m = script("0 5 | 2 6 | 4 7", ruleset, counts=[1, 10, 1, 10, 1, 10])
    state = m.to_json()
    assert state["round_over"] and state["history"][0]["chuan"]
    assert state["scores"] == scores
    assert [r["kind"] for r in state["tribute"]] == tribute_kinds


def test_chuan_rows_each_loser_gives_his_duitou(script):
    m = script("0 5 | 2 6 | 4 7", "house196", counts=[1, 10, 1, 10, 1, 10])
    assert [(r["from"], r["to"]) for r in m.to_json()["tribute"]] == [(5, 2), (1, 4), (3, 0)]


# ---- 革命 ------------------------------------------------------------------------------------------


def test_revolution_partners_take_touke_erke_revolutionary_is_sanke_chuan(script):
    m = script("revolution 2 | 0 5 | 4 6", counts=[1, 10, 36, 10, 1, 10])
    state = m.to_json()
    assert state["places"] == {"0": 1, "4": 2, "2": 3, "5": 4, "1": 5, "3": 6}
    assert state["history"][0]["chuan"] and state["scores"] == {"0": 6, "1": -6}
    assert state["opened"] == [5]       # 革命算自动认点: his 对头 opened


def test_revolutionary_is_sike_otherwise(script):
    m = script("revolution 2 | 0 5 | 1 6 | 5 7 | 3 8", counts=[1, 1, 36, 1, 10, 1])
    assert m.to_json()["places"]["2"] == 4


def test_revolution_luanchan_after_touke(script):
    m = script("revolution 2 | 0 5 | pass 1 | pass 3 | pass 4 | pass 5", counts=[1] + [10] * 5)
    assert m.to_json()["trick"]["luanchan"]


def test_revolution_yaotou_three_gousiji_plays_for_the_duitou(script):
    m = script("revolution 2 yaotou | 0 55 | 5 KK")
    assert m.to_json()["to_act"] == [0] and "5号 够死级" in m.announcements
    assert m.round.yaotou_left == 2


def test_revolution_wutou_anyone_answers_the_duitou(script):
    m = script("revolution 2 wutou | 0 55 | 5 KK")
    assert m.to_json()["trick"]["answer"] == "any"


@pytest.mark.parametrize(("ruleset", "applied"), [("qingdao", True), ("irvine", False)])
def test_two_revolutions_void_the_deal_or_are_refused(script, ruleset, applied):
    m = script("revolution 2", ruleset)
    assert m.apply({"type": "revolution", "seat": 3}).applied is applied
    if applied:
        assert m.to_json()["round_over"] and m.to_json()["history"][0]["termination"] == "void"
        assert m.apply({"type": "round", "first": 0}).applied


def test_revolution_after_the_first_play_is_refused(script):
    assert not script("0 5").apply({"type": "revolution", "seat": 2}).applied


# ---- declarations and 点贡 ---------------------------------------------------------------------------


def test_dian_yu_against_ming_costs_the_duitou_eight(script):
    m = script("declare 0 yu | declare 3 ming | 0 TTTTT | pass 3 | 0 5 | 1 6 | 2 7 | 4 8",
               counts=[6, 1, 1, 10, 1, 10])
    state = m.to_json()
    assert state["places"] == {"0": 1, "1": 2, "2": 3, "4": 4, "5": 5, "3": 6}
    assert state["tribute"] == [
        {"kind": "dian", "from": 3, "to": 0, "cards": 8, "returned": False},
        {"kind": "dian", "from": 4, "to": 1, "cards": 1, "returned": False},
        {"kind": "dian", "from": 1, "to": 4, "cards": 1, "returned": False},
        {"kind": "dian", "from": 5, "to": 2, "cards": 1, "returned": False},
        {"kind": "dian", "from": 2, "to": 5, "cards": 1, "returned": False},
        {"kind": "luo", "from": 3, "to": 0, "cards": 2, "returned": True},
        {"kind": "luo", "from": 5, "to": 1, "cards": 1, "returned": True},
    ]
    assert state["seats"][0]["declared"] == "yu"


@pytest.mark.parametrize(
    ("steps", "reason"),
    [("0 5 | declare 1 ming", "before the first play"),
     ("declare 1 yu | declare 1 ming", "already declared")],
)
def test_declarations_refused(script, steps, reason):
    m = script(steps, strict=False)
    assert reason in m.errors[-1].reason


@pytest.mark.parametrize(
    ("mine", "his", "i_open", "he_open", "qingdao", "house196"),
    [
        (None, None, True, False, 1, 1),      # no declarations, I opened: he gives 1
        (None, None, False, False, 1, 1),     # neither opened: each gives 1
        (None, None, True, True, 0, 0),       # both opened: nothing
        ("yu", "ming", True, False, 8, 4),    # 4 + 4; seed 001: both 宣点 → 4
        (None, "ming", False, False, 1, 1),   # he declared 明点, neither opened: he gives me 1 …
        ("ming", None, False, False, 2, 2),   # … and I give him 2
        ("ming", None, True, False, 2, 3),    # seed 001: 宣点 and opened → 3
        ("ming", "ming", True, True, 0, 2),   # seed 001: both 宣点, both opened → 互进 2
        ("ming", "ming", False, False, 2, 2),
    ],
)
def test_dian_cards_formula_and_house196_table(mine, his, i_open, he_open, qingdao, house196):
    from rules import load_ruleset

    assert load_ruleset("qingdao").dian_cards(mine, his, i_open, he_open) == qingdao
    assert load_ruleset("house196").dian_cards(mine, his, i_open, he_open) == house196


# ---- 憋三: 闷贡 and the 3s ----------------------------------------------------------------------------


def test_biesan_men_the_play_before_the_threes_was_beaten(script):
    m = script("0 55 | 1 66 | 5 77 | 5 33 | 0 333", "biesan", counts=[5, 10, 10, 10, 10, 4])
    assert m.round.men == [(0, 1)] and "0号 被闷" in m.announcements


@pytest.mark.parametrize(
    ("steps", "counts", "reason"),
    [("0 33", [10] * 6, "only leave a hand in its final play"),
     ("0 55", [2] * 6, "final play is its 3s"),
     ("0 2 333", [10] * 6, "all together")],
)
def test_biesan_threes_only_as_the_final_play(script, steps, counts, reason):
    m = script(steps, "biesan", counts=counts, strict=False)
    assert reason in m.errors[-1].reason


# ---- counts, 报户, conservation ----------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "reported"), [("qingdao", {"0": 10}), ("biesan", {})])
def test_baohu_counts_at_ten_or_fewer(script, ruleset, reported):
    m = script("0 5", ruleset, counts=[11, 10, 10, 10, 10, 10])
    assert {k: v for k, v in m.to_json()["reported"].items() if k == "0"} == reported


def test_conservation_a_seventeenth_five_is_refused(script):
    m = script("0 5555555555555555")
    assert "deck holds (16)" in m.apply({"type": "play", "seat": 0, "cards": "5"}).error.reason


def test_a_seat_cannot_play_more_cards_than_it_holds(script):
    m = script("", counts=[2, 10, 10, 10, 10, 10])
    assert "only 2 cards" in m.apply({"type": "play", "seat": 0, "cards": "555"}).error.reason


def test_an_illegal_event_leaves_the_state_unchanged(script):
    m = script("0 55 | 3 77 | 0 KK")
    before = m.to_json()
    for event in ({"type": "play", "seat": 1, "cards": "AA"}, {"type": "pass", "seat": 4},
                  {"type": "yield", "seat": 2}, {"type": "play", "seat": 3, "cards": "55 66"},
                  {"type": "declare", "seat": 1, "level": "ming"}):
        assert not m.apply(event).applied
    after = m.to_json()
    assert len(after.pop("errors")) == 5
    before.pop("errors")
    assert after == before


def test_first_play_without_a_round_event_starts_round_one():
    m = Match()
    assert m.apply({"type": "play", "seat": 2, "cards": "55"}).applied
    assert m.to_json()["round"] == 1 and m.round.first_leader == 2


def test_revolution_yaotou_after_three_gousiji_plays_the_duitou_is_wutou(script):
    m = script("revolution 2 yaotou | 5 KK", first=5)
    assert m.to_json()["trick"]["answer"] == "duitou" and m.to_json()["to_act"] == [0, 1, 3, 4]
    m = script("revolution 2 yaotou | 5 KK | 5 AA | 5 22 | 5 QQQ", first=5)
    assert m.round.yaotou_left == 0
    assert m.to_json()["trick"]["answer"] == "any" and m.to_json()["to_act"] == [0, 1, 3, 4]


def test_a_teammate_may_burn_too(script):
    m = script("0 KK | 2 AA")
    assert m.to_json()["seats"][2]["burning"] == "active"


def test_irvine_fanshao_first_burning_play_beaten_by_another_burner(script):
    m = script("0 KK | 1 AA | 2 22", "irvine")
    assert m.round.burns == [(1, 0)]
    assert m.to_json()["seats"][2]["burning"] == "active"


def test_jieshao_after_the_first_play_is_not_fanshao_in_irvine(script):
    m = script("0 KK | 1 AA | 1 SJ 55 | 4 BJ 66", "irvine")
    assert m.to_json()["seats"][1]["burning"] == "jieshao" and m.round.burns == []


# ---- options and preset differences inside a round ---------------------------------------------


@pytest.mark.parametrize(("ruleset", "answer"), [("qingdao", "any"),
                                                 ("qingdao+gouji_low_ranks", "duitou")])
def test_gouji_low_ranks_six_nines_are_gouji_only_with_the_option(script, ruleset, answer):
    assert script("0 999999", ruleset).to_json()["trick"]["answer"] == answer


@pytest.mark.parametrize(("ruleset", "applied"), [("qingdao", False),
                                                  ("qingdao+joker_multi_cover", True)])
def test_joker_multi_cover_lets_two_big_jokers_answer_one(script, ruleset, applied):
    assert script("0 BJ", ruleset).apply({"type": "play", "seat": 3, "cards": "BJ BJ"}).applied \
        is applied


def test_house196_deals_33_33_33_33_32_32(script):
    counts = Match("house196")
    counts.apply({"type": "round", "first": 0})
    assert list(counts.to_json()["counts"].values()) == [33, 33, 33, 33, 32, 32]
