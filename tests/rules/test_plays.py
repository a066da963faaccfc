"""Plays: classification, 贴钱, 挂花, 够级牌, 开点 and comparison under every preset."""

from contextlib import nullcontext

import pytest

from rules import IllegalPlayError, Play, beats, classify, load_ruleset, opens

# ---- what a play is -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "legal", "rank", "count", "raises"),
    [
        ("55555", True, "5", 5, nullcontext()),          # one natural rank
        ("22333", True, "3", 5, nullcontext()),          # 贴钱: 22333 = 33333
        ("266", True, "6", 3, nullcontext()),            # 贴钱: 266 = 666
        ("222", True, "2", 3, nullcontext()),            # twos alone are rank 2
        ("BJ SJ 225555", True, "5", 8, nullcontext()),   # 挂花 carrying 6 fives
        ("SJ SJ", True, "SJ", 2, nullcontext()),         # jokers alone
        ("BJ SJ", True, "SJ", 2, nullcontext()),         # big with small counts as small
        ("5556", False, None, 4, nullcontext()),         # mixed natural ranks are illegal
        ("", False, None, 0, nullcontext()),             # no cards
    ],
)
def test_one_play_is_one_natural_rank_plus_twos_and_jokers(cards, legal, rank, count, raises):
    with raises:
        c = classify(cards)
        assert (c.legal, c.rank, c.count) == (legal, rank, count)


def test_seed_000_big_plus_small_plus_twos_counts_as_two_small_carrying_six_fives():
    play = Play.parse("BJ SJ 22 5555")
    assert (play.jokers, play.carried, play.carried_rank.token) == (2, 6, "5")
    assert play.description == "1大花1小花带6个5"


def test_play_repr_pastes_back():
    assert eval(repr(Play.parse("BJ BJ 555"))) == Play.parse("555 BJ BJ")


@pytest.mark.parametrize(
    ("cards", "ruleset", "legal"),
    [
        ("333", "biesan", True),     # 3s all together: the final play
        ("2333", "biesan", False),   # 3s with a 2: illegal in 憋三
        ("SJ 33", "irvine", False),  # 3s with a joker: illegal in 憋三
        ("2333", "qingdao", True),   # elsewhere 3s are ordinary cards
    ],
)
def test_biesan_threes_leave_only_all_together_and_nothing_else(cards, ruleset, legal):
    assert classify(cards, ruleset).legal is legal


# ---- 够级牌 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "ruleset", "gouji"),
    [
        ("TTTTT", "qingdao", True), ("TTTT", "qingdao", False),   # 5×10
        ("TTTTTT", "qingdao", True),                              # more cards also count
        ("JJJJ", "qingdao", True), ("JJJ", "qingdao", False),     # 4×J
        ("QQQ", "qingdao", True), ("QQ", "qingdao", False),       # 3×Q
        ("KK", "qingdao", True), ("K", "qingdao", False),         # 2×K
        ("AA", "qingdao", True), ("A", "qingdao", False),         # 2×A
        ("2", "qingdao", True),                                   # 1×2
        ("SJ", "qingdao", True), ("BJ", "qingdao", True),         # 1 joker
        ("2TTTT", "qingdao", True),                               # 贴钱 counts after conversion
        ("SJ 55", "qingdao", True),                               # every 挂花 play is gouji
        ("SJ QQ", "qingdao", True),                               # seed 000: 2 Q + 1 花
        ("999999999", "qingdao", False),                          # lower ranks never …
        ("999999", "qingdao+gouji_low_ranks", True),              # … unless gouji_low_ranks: 6×9
        ("99999", "qingdao+gouji_low_ranks", False),
        ("888888", "qingdao+gouji_low_ranks", False),             # 7×8 needed …
        ("8888888", "qingdao+gouji_low_ranks", True),
        ("666666666", "qingdao+gouji_low_ranks", True),           # 9×6
        ("55555555555", "qingdao+gouji_low_ranks", False),        # 5s never
        ("SJ 55", "irvine", False),                               # irvine: jokers only stand in
        ("SJ QQ", "irvine", True),                                # … for the rank: 3 Q
        ("BJ", "irvine", True),
    ],
)
def test_gouji_minimums_5x10_4xJ_3xQ_2xK_2xA_1x2_1joker(cards, ruleset, gouji):
    assert classify(cards, ruleset).gouji is gouji


# ---- 开点 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "ruleset", "answering", "expected"),
    [
        ("TTTTT", "qingdao", False, True),
        ("TTTT", "qingdao", False, False),      # not gouji: never opens
        ("BJ TTTT", "qingdao", False, False),   # seed 000 option 0: a big joker does not open
        ("SJ TTTT", "qingdao", False, True),
        ("2", "qingdao", False, True),
        ("SJ TTTT", "house196", False, False),  # seed 001: any joker does not open
        ("2", "house196", False, False),        # seed 001: a single 2 does not open
        ("22", "house196", False, True),
        ("2TTTT", "irvine", False, False),      # seed 004: 开点牌 cannot use a 2 …
        ("2TTTT", "irvine", True, True),        # … unless the 2 answers a gouji play
        ("2", "irvine", True, True),
        ("SJ QQQ", "irvine", True, False),      # jokers never open in irvine
        ("QQQ", "irvine", False, True),
    ],
)
def test_kaidian_excludes_per_preset(cards, ruleset, answering, expected):
    assert opens(Play.parse(cards), load_ruleset(ruleset), answering_gouji=answering) is expected


# ---- comparison ------------------------------------------------------------------------------

SEED_000_EXAMPLES = [
    # (answer, led, beats): seed 000/001 and RULES.md
    ("99999", "22888", True),         # 2 twos + 3 eights (= 5 eights) loses to 5 nines
    ("88888", "22888", False),        # equal is not higher
    ("BJ BJ TTT", "SJ SJ 999", True),  # 2 big + 3 tens beat 2 small + 3 nines
    ("BJ BJ SJ TT", "SJ SJ 999", True),  # 3 jokers (2 big) + 2 tens also beat it
    ("BJ BJ 888", "SJ SJ 999", False),   # not 2 big + 3 eights
    ("BJ BJ 999", "SJ SJ 999", False),   # not 2 big + 3 nines
    ("999", "SJ SJ 9", False),           # 3 nines: no
    ("SJ SJ TTT", "SJ SJ 999", False),   # the joker part must be higher too
    ("TTTT", "999", False),              # same number of cards
    ("AAA", "KKK", True),
    ("222", "AAA", True),                # twos alone are rank 2
    ("SJ", "2", True), ("BJ", "SJ", True), ("SJ", "SJ", False),
    ("BJ", "BJ", False), ("BJ BJ", "BJ", False),   # nothing beats a lone big joker by default
    ("SJ 666", "5555", True),            # a joker covers the top position
    ("BJ BJ 666666", "BJ SJ 225555", True),  # big + small count as 2 small carrying 6 fives
    ("BJ SJ 666666", "BJ SJ 225555", False),
]


@pytest.mark.parametrize(("answer", "led", "expected"), SEED_000_EXAMPLES)
def test_qingdao_each_card_strictly_higher_at_its_position(answer, led, expected):
    assert beats(answer, led, "qingdao") is expected


@pytest.mark.parametrize("ruleset", ["qingdao", "biesan", "house196", "online"])
@pytest.mark.parametrize(("answer", "led", "expected"), SEED_000_EXAMPLES)
def test_seed_000_examples_hold_in_every_positional_preset(ruleset, answer, led, expected):
    assert beats(answer, led, ruleset) is expected


@pytest.mark.parametrize(
    ("answer", "led", "expected"),
    [
        ("25555", "22244", True),            # 25555 可管 22244
        ("BJ 5555", "SJ 2444", True),        # 大王5555 可管 小王2444
        ("BJ 5555", "SJ 444", False),        # 大王5555 不可管 小王444 (count)
        ("BJ 4444", "SJ 2444", False),       # 大王4444 不可管 小王2444
        ("BJ BJ 555", "BJ 2224", True),      # 大王大王555 可管 大王2224
        ("SJ SJ 555", "SJ 2224", False),     # 小王小王555 不可管 小王2224
        ("BJ BJ BJ 55", "BJ SJ 444", True),  # 大王大王大王55 可管 大王小王444
    ],
)
def test_irvine_seed_004_seven_examples(answer, led, expected):
    assert beats(answer, led, "irvine") is expected


def test_irvine_25555_beats_22244():
    assert beats("25555", "22244", ruleset="irvine")


@pytest.mark.parametrize(
    ("answer", "led", "expected"),
    [
        ("BJ BJ", "BJ", True),        # a lone 大王 is answered only by 大王大王
        ("BJ BJ BJ", "BJ", False),
        ("BJ BJ BJ", "BJ SJ", True),  # 大王小王 only by 大王大王大王
        ("BJ BJ", "BJ SJ", False),
        ("BJ BJ", "BJ 5", True),      # 两個大王可管一個大王帶任意非王牌
        ("SJ SJ", "SJ 5", False),     # 两個小王不可管一個小王
        ("BJ", "SJ", True),
        ("SJ 666", "5555", True),     # a joker can stand in for any card
    ],
)
def test_irvine_joker_special_answers(answer, led, expected):
    assert beats(answer, led, "irvine") is expected


@pytest.mark.parametrize(
    ("answer", "led", "default", "multi"),
    [
        ("BJ BJ", "BJ", False, True),           # 2 big beat 1 big
        ("SJ SJ", "SJ", False, True),           # 2 small beat 1 small
        ("SJ SJ SJ", "BJ", False, True),        # 3 small beat 1 big
        ("SJ SJ", "BJ", False, False),
        ("BJ BJ 66", "BJ 55", False, True),     # counts may then differ; the rest still higher
        ("BJ BJ 55", "BJ 55", False, False),
        ("BJ TTT", "SJ 999", True, True),       # the usual cover still works
    ],
)
def test_joker_multi_cover_option(answer, led, default, multi):
    assert beats(answer, led, "qingdao") is default
    assert beats(answer, led, "qingdao+joker_multi_cover") is multi


@pytest.mark.parametrize(
    ("answer", "led", "ruleset", "expected"),
    [
        ("2333", "2222", "biesan", False),   # an illegal play beats nothing
        ("5556", "444", "qingdao", False),
        ("444", "333", "biesan", True),      # a 3s lead can be answered
    ],
)
def test_illegal_plays_beat_nothing(answer, led, ruleset, expected):
    assert beats(answer, led, ruleset) is expected


def test_mixed_ranks_raise_when_parsed_directly():
    with pytest.raises(IllegalPlayError, match="mixed ranks"):
        Play.parse("5556")
