"""Rulesets: every variant knob as data, read from ``presets/*.toml``.

A ruleset is found by name or alias (``qingdao``, ``憋三``, ``尔湾`` …). Boolean options can be
switched on after a ``+``: ``qingdao+joker_multi_cover+gouji_low_ranks``; ``+no_OPTION`` switches
one off. ``dian_base_2`` selects seed 000's 点贡 table (one more card in the undeclared case).

>>> rs = load_ruleset("尔湾")
>>> rs.name, rs.comparison, rs.points
('irvine', 'parts', (4, 2, 0, 0, -2, -4))
>>> load_ruleset("qingdao+joker_multi_cover").joker_multi_cover
True
>>> sum(load_ruleset("house196").deal)
196
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.cards import Rank
from rules.errors import UnknownRulesetError

__all__ = ["BOOLEAN_OPTIONS", "PRESETS", "Ruleset", "load_ruleset"]

PRESETS = ("qingdao", "biesan", "irvine", "house196", "online")
"""The shipped presets, default first."""

BOOLEAN_OPTIONS = (
    "joker_multi_cover", "gouji_low_ranks", "play_out_to_last", "threes_last", "burning",
    "fanshao", "baohu", "men_tribute", "guahua_is_gouji", "mixed_jokers_as_small", "dian_base_2",
)
"""Options that ``load_ruleset("NAME+OPTION")`` can switch on (or off with ``no_OPTION``)."""

DECLARATION_LEVELS = (None, "ming", "yu")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One variant of the game; see ``docs/rules.md`` for the source of every field."""

    key: str
    """Name plus switched options, e.g. ``qingdao+joker_multi_cover``: the ruleset's identity."""
    name: str
    """Preset name."""
    title: str
    """Human title, 中文."""
    aliases: tuple[str, ...]
    """Other names that find this preset."""
    sources: tuple[str, ...]
    """Seed texts the preset follows."""
    deck: tuple[int, ...]
    """Copies of each rank in the four decks, indexed by ``Rank`` value (0 for unused indices)."""
    deal: tuple[int, ...]
    """Cards dealt to seats 0..5."""
    threes_last: bool
    """憋三: 3s leave a hand only in its final play, all together and nothing else."""
    comparison: str
    """``positional`` (each card strictly higher, seed 000) or ``parts`` (seed 004)."""
    mixed_jokers_as_small: bool
    """A played 大花 counts as 小花 when the play also has a 小花 (the play being answered)."""
    joker_multi_cover: bool
    """Seed 000 option 1: 2 大花 beat 1 大花, 2 小花 beat 1 小花, 3 小花 beat 1 大花."""
    gouji_min: tuple[int, ...]
    """Smallest gouji count per effective rank (0: never gouji), indexed by ``Rank`` value."""
    gouji_low_ranks: bool
    """Also 9 sixes, 8 sevens, 7 eights, 6 nines are gouji."""
    gouji_low_min: tuple[int, ...]
    """The low-rank thresholds used when ``gouji_low_ranks`` is on."""
    guahua_is_gouji: bool
    """Every play with a joker is gouji; otherwise jokers only stand in for the carried rank."""
    kaidian_excludes: frozenset[str]
    """Gouji plays that do not open: ``big_joker``, ``joker``, ``single_two``, ``two``,
    ``two_unless_answer``."""
    kaidian_until_finished: int
    """Nobody opens once this many players have finished."""
    pass_lock_exception: str
    """``duitou``: after passing, a player may still answer his 对头's plays; ``duitou_gouji``:
    only his 对头's gouji plays."""
    burning: bool
    """烧牌 is allowed."""
    fanshao: bool
    """反燒: a burner whose first burning play is beaten owes the burned player one card."""
    report_max: int
    """报户 threshold."""
    baohu: bool
    """Counts at or below ``report_max`` are announced (not in 憋三)."""
    play_out_to_last: bool
    """Keep playing until one player is left (or one federation is out) instead of stopping
    when the seats left are one federation."""
    first_leader: str
    """Who leads a later round without ``first``: ``seen`` (first play), ``rotate``, ``last_daluo``."""
    revolution_limit: str
    """``void``: a second revolution voids the deal; ``one``: a second one is refused."""
    yaotou_plays: int
    """够死级 plays of a revolutionary's 对头 who chose 要头."""
    revolution_choice: str
    """Default choice of that 对头: ``yaotou`` or ``wutou``."""
    points: tuple[int, ...]
    """Place points 头科 … 大落."""
    chuan_multiplier: int
    """串三户 multiplies the round score by this."""
    rounds_per_game: int
    """Rounds per game (局); 0: no games, every later round pays tribute."""
    chuan_ends_game: bool
    """串三户 ends the game, so the next round has no tribute."""
    tribute_order: tuple[str, ...]
    """Order of the tribute kinds (``men``, ``shao``, ``dian``, ``luo``; ``chuan`` goes with luo)."""
    tribute_returned: frozenset[str]
    """Kinds that are returned (还贡)."""
    men_tribute: bool
    """闷贡 is paid."""
    luo_cards: tuple[int, int]
    """落贡: 大落 → 头科, 二落 → 二科."""
    chuan_tribute: str
    """After 串三户: ``none``, ``only`` (only 串贡) or ``replace_luo`` (串贡 instead of 落贡)."""
    dian_factor: tuple[int, int, int]
    """f(d) for no declaration, 明点, 预点."""
    dian_penalty: tuple[int, int, int]
    """p(d), the price of a failed declaration."""
    dian_table: tuple[tuple[str, int], ...]
    """Explicit 点贡 table ``("mine,his,i_opened,he_opened", cards)``; overrides the formula."""

    def __hash__(self) -> int:
        # The key names the ruleset; hashing it alone keeps the per-play caches cheap.
        return hash(self.key)

    def gouji_threshold(self, rank: Rank) -> int:
        """Smallest count of ``rank`` that is gouji (0 means never).

        >>> load_ruleset("qingdao").gouji_threshold(Rank.TEN)
        5
        >>> load_ruleset("qingdao+gouji_low_ranks").gouji_threshold(Rank.NINE)
        6
        """
        if self.gouji_low_ranks and self.gouji_low_min[rank]:
            return self.gouji_low_min[rank]
        return self.gouji_min[rank]

    def dian_cards(self, mine: str | None, his: str | None, i_opened: bool, he_opened: bool) -> int:
        """Cards of 点贡 that my 对头 gives me.

        Args:
            mine: My declaration (``None``, ``"ming"``, ``"yu"``).
            his: My 对头's declaration.
            i_opened: I opened (开点).
            he_opened: My 对头 opened.

        >>> qd = load_ruleset("qingdao")
        >>> qd.dian_cards("yu", "ming", True, False)   # 4 + 4
        8
        >>> qd.dian_cards(None, "ming", False, False), qd.dian_cards("ming", None, False, False)
        (1, 2)
        """
        if self.dian_table:
            key = ",".join(("decl" if mine else "none", "decl" if his else "none",
                            str(int(i_opened)), str(int(he_opened))))
            return dict(self.dian_table).get(key, 0)
        f_mine = self.dian_factor[DECLARATION_LEVELS.index(mine)]
        p_his = self.dian_penalty[DECLARATION_LEVELS.index(his)]
        if i_opened and not he_opened:
            return f_mine + p_his
        if not i_opened and not he_opened:
            return f_mine
        return 0

    def with_options(self, **options: bool) -> Ruleset:
        """A copy with boolean options switched; the key records them.

        >>> load_ruleset("qingdao").with_options(gouji_low_ranks=True).key
        'qingdao+gouji_low_ranks'
        """
        changes: dict[str, Any] = {}
        key = self.key
        for option, value in options.items():
            if option not in BOOLEAN_OPTIONS:
                raise UnknownRulesetError(f"unknown ruleset option {option!r}")
            if option == "dian_base_2":
                changes["dian_penalty"] = (1 if value else 0, *self.dian_penalty[1:])
            else:
                changes[option] = value
            key += f"+{option}" if value else f"+no_{option}"
        return dataclasses.replace(self, key=key, **changes)


def _rank_table(mapping: Mapping[str, int]) -> tuple[int, ...]:
    table = [0] * (int(Rank.BIG_JOKER) + 1)
    for token, value in mapping.items():
        table[Rank.from_token(token)] = int(value)
    return tuple(table)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for k, v in over.items():
        merged[k] = _merge(merged[k], v) if isinstance(v, dict) and isinstance(merged.get(k), dict) \
            and k not in ("reduced", "dian_table", "gouji_min", "gouji_low_min") else v
    return merged


@functools.cache
def _preset_data(name: str) -> dict[str, Any]:
    path = resources.files("rules") / "presets" / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    parent = data.pop("extends", None)
    return _merge(_preset_data(parent), data) if parent else data


def _build(name: str) -> Ruleset:
    d = _preset_data(name)
    deck_d, plays, turns, scoring, tribute = d["deck"], d["plays"], d["turns"], d["scoring"], d["tribute"]
    copies = {rank: 4 * deck_d["decks"] for rank in Rank if not rank.is_joker}
    copies.update({Rank.SMALL_JOKER: deck_d["decks"], Rank.BIG_JOKER: deck_d["decks"]})
    copies.update({Rank.from_token(t): n for t, n in deck_d["reduced"].items()})
    deck = tuple(copies.get(Rank(i), 0) if i >= 3 else 0 for i in range(int(Rank.BIG_JOKER) + 1))
    deal = tuple(deck_d["deal"])
    if len(deal) != 6 or sum(deal) != sum(deck):
        raise UnknownRulesetError(f"preset {name!r}: the deal {deal} does not share out the deck")
    return Ruleset(
        key=name, name=name, title=d["title"], aliases=tuple(d.get("aliases", ())),
        sources=tuple(d.get("sources", ())), deck=deck, deal=deal,
        threes_last=plays["threes_last"], comparison=plays["comparison"],
        mixed_jokers_as_small=plays["mixed_jokers_as_small"],
        joker_multi_cover=plays["joker_multi_cover"], gouji_min=_rank_table(plays["gouji_min"]),
        gouji_low_ranks=plays["gouji_low_ranks"], gouji_low_min=_rank_table(plays["gouji_low_min"]),
        guahua_is_gouji=plays["guahua_is_gouji"],
        kaidian_excludes=frozenset(plays["kaidian_excludes"]),
        kaidian_until_finished=plays["kaidian_until_finished"],
        pass_lock_exception=turns["pass_lock_exception"], burning=turns["burning"],
        fanshao=turns["fanshao"], report_max=turns["report_max"], baohu=turns["baohu"],
        play_out_to_last=turns["play_out_to_last"], first_leader=turns["first_leader"],
        revolution_limit=turns["revolution_limit"], yaotou_plays=turns["yaotou_plays"],
        revolution_choice=turns["revolution_choice"], points=tuple(scoring["points"]),
        chuan_multiplier=scoring["chuan_multiplier"], rounds_per_game=scoring["rounds_per_game"],
        chuan_ends_game=scoring["chuan_ends_game"], tribute_order=tuple(tribute["order"]),
        tribute_returned=frozenset(tribute["returned"]), men_tribute=tribute["men"],
        luo_cards=(tribute["luo"][0], tribute["luo"][1]), chuan_tribute=tribute["chuan"],
        dian_factor=(tribute["dian_factor"][0], tribute["dian_factor"][1], tribute["dian_factor"][2]),
        dian_penalty=(tribute["dian_penalty"][0], tribute["dian_penalty"][1],
                      tribute["dian_penalty"][2]),
        dian_table=tuple(sorted((k, int(v)) for k, v in tribute["dian_table"].items())),
    )


@functools.cache
def _alias_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for name in PRESETS:
        table[name] = name
        for alias in _preset_data(name).get("aliases", ()):
            table[alias.lower()] = name
    return table


@functools.lru_cache(maxsize=64)
def _load(spec: str) -> Ruleset:
    base, *options = [part.strip() for part in spec.split("+")]
    name = _alias_table().get(base.lower())
    if name is None:
        raise UnknownRulesetError(
            f"unknown ruleset {base!r}; presets: {', '.join(PRESETS)}")
    ruleset = _build(name)
    switches: dict[str, bool] = {}
    for option in options:
        value = not option.startswith("no_")
        switches[option.removeprefix("no_")] = value
    return ruleset.with_options(**switches) if switches else ruleset


def load_ruleset(ruleset: str | Ruleset | None = None) -> Ruleset:
    """Find a ruleset by name or alias, with optional ``+option`` switches.

    Args:
        ruleset: A name (``"qingdao"``), an alias (``"憋三"``), a spec with options, a
            :class:`Ruleset` (returned as is) or ``None`` for the default ``qingdao``.

    Raises:
        UnknownRulesetError: No preset or option of that name.

    >>> load_ruleset("憋三").name
    'biesan'
    """
    if isinstance(ruleset, Ruleset):
        return ruleset
    return _load(ruleset or "qingdao")
