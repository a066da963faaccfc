"""Rulesets are data: presets by name or alias, options after '+'."""

import pytest

from rules import PRESETS, Rank, UnknownRulesetError, load_ruleset


@pytest.mark.parametrize(
    ("spec", "name"),
    [("qingdao", "qingdao"), (None, "qingdao"), ("青岛", "qingdao"), ("憋三", "biesan"),
     ("尔湾", "irvine"), ("爾灣", "irvine"), ("196", "house196"), ("online", "online"),
     ("IRVINE", "irvine")],
)
def test_preset_lookup_by_name_or_alias(spec, name):
    assert load_ruleset(spec).name == name


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_deals_out_its_whole_deck(name):
    rs = load_ruleset(name)
    assert sum(rs.deal) == sum(rs.deck)
    assert rs.deck[Rank.SMALL_JOKER] == rs.deck[Rank.BIG_JOKER] == 4


def test_four_decks_216_cards_36_each():
    rs = load_ruleset("qingdao")
    assert sum(rs.deck) == 216 and rs.deal == (36,) * 6 and rs.deck[Rank.FIVE] == 16


def test_house196_reduces_threes_and_fours_to_six():
    rs = load_ruleset("house196")
    assert (rs.deck[Rank.THREE], rs.deck[Rank.FOUR], sum(rs.deck)) == (6, 6, 196)
    assert rs.deal == (33, 33, 33, 33, 32, 32)


@pytest.mark.parametrize(
    ("name", "points"),
    [("qingdao", (2, 1, 0, 0, -1, -2)), ("biesan", (2, 1, 0, 0, -1, -2)),
     ("house196", (2, 1, 0, 0, -1, -2)), ("online", (4, 2, 0, 0, -2, -4)),
     ("irvine", (4, 2, 0, 0, -2, -4))],
)
def test_place_points_per_preset(name, points):
    assert load_ruleset(name).points == points


def test_options_switch_on_and_off():
    rs = load_ruleset("irvine+no_play_out_to_last+joker_multi_cover")
    assert not rs.play_out_to_last and rs.joker_multi_cover
    assert rs.key == "irvine+no_play_out_to_last+joker_multi_cover"


def test_dian_base_2_is_seed_000s_table():
    assert load_ruleset("qingdao+dian_base_2").dian_cards(None, None, True, False) == 2


@pytest.mark.parametrize("spec", ["nope", "qingdao+nope"])
def test_unknown_ruleset_or_option_is_an_error(spec):
    with pytest.raises(UnknownRulesetError):
        load_ruleset(spec)
