"""Card notation (DESIGN.md): ranks 3..A 2 SJ BJ, 10 = T, tokens spaced or run together."""

from contextlib import nullcontext

import pytest

from rules import InvalidCardsError, Rank, format_cards, parse_cards


@pytest.mark.parametrize(
    ("text", "expected", "raises"),
    [
        ("TTTTT", "TTTTT", nullcontext()),                 # run together
        ("10 10 10", "TTT", nullcontext()),                # 10 is T
        ("1010", "TT", nullcontext()),                     # 10 run together
        ("BJ BJ 555", "BJ BJ 555", nullcontext()),         # jokers as separate tokens
        ("bj sj 2 5", "BJ SJ 25", nullcontext()),          # case-insensitive
        ("大王 小王 大花 小花", "BJ BJ SJ SJ", nullcontext()),  # 中文 names
        ("5,5,5", "555", nullcontext()),                   # commas
        ("", "", nullcontext()),                           # no cards
        ("55X", None, pytest.raises(InvalidCardsError, match="'X'")),   # names the bad token
        ("1", None, pytest.raises(InvalidCardsError, match="'1'")),     # a lone 1 is not 10
        ("5 Z 5", None, pytest.raises(InvalidCardsError, match="'Z'")),
    ],
)
def test_notation_round_trip(text, expected, raises):
    with raises:
        assert format_cards(parse_cards(text)) == expected


def test_rank_order_three_lowest_big_joker_highest():
    order = parse_cards("BJ SJ 2 A K Q J T 9 8 7 6 5 4 3")
    assert list(order) == sorted(order, reverse=True)
    assert order[0] is Rank.BIG_JOKER and order[-1] is Rank.THREE


def test_parse_accepts_token_lists():
    assert parse_cards(["BJ", "5", Rank.FIVE]) == (Rank.BIG_JOKER, Rank.FIVE, Rank.FIVE)


def test_invalid_token_is_a_value_error_for_the_cli():
    with pytest.raises(ValueError, match="invalid card token 'Q1'|invalid card token '1'"):
        parse_cards("Q1")
