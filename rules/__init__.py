"""The 够级 rules engine: standard library only.

>>> import rules
>>> rules.beats("55555", "22244", ruleset="irvine")
True
>>> rules.classify("2TTTT").gouji
True

Glossary (中文 → identifier):

========================  =====================================================
中文                       identifier
========================  =====================================================
够级 / 勾级                 gouji (the game; ``Classification.gouji``: a 够级牌)
一手牌 / 一套牌              :class:`Play`
贴钱 (钱 = 2)               ``Play.twos`` counted as ``Play.rank``
挂花 (花 = 王)              ``Play.jokers`` (``small_jokers`` 小花, ``big_jokers`` 大花)
大王 / 大花                  ``Rank.BIG_JOKER`` (``BJ``)
小王 / 小花                  ``Rank.SMALL_JOKER`` (``SJ``)
够级牌                      :func:`is_gouji`
顺牌 / 上牌 / 管              :func:`beats`
开点 / 打点                  :func:`opens`, ``seats[].opened``
联邦                        federation (0 = seats 0, 2, 4)
对头 / 对门                  duitou (seat + 3 mod 6)
上家 / 下家                  previous / next seat
发牌 (一轮的第一手)             lead (``trick.answer == "lead"``)
一轮 / 扣牌                  trick / collect
过牌                        pass
让牌                        yield
烧牌 / 捎牌                  burn (``burning``: active, success, jieshao 解烧, failed 烧失败)
反燒                        fanshao
无头                        wutou (the 对头 has finished)
要头                        yaotou
够死级                      gousiji (an answer only a burner may stop)
四户乱缠 / 四人乱缠             luanchan (``trick.answer == "free"``)
接风                        jiefeng (lead passes to the seat after one who went out)
走科                        finish
头科 二科 三科 四科 二落 大落     places 1 … 6
串三户                      chuan (one federation takes places 1, 2, 3)
报户                        reported
革命                        revolution
预点 / 明点 / 宣点             declare ``yu`` / ``ming``
进贡 / 还贡                  tribute / returned
闷贡 烧贡 点贡 落贡 串贡         kinds ``men`` ``shao`` ``dian`` ``luo`` ``chuan``
憋三                        threes_last (preset ``biesan``)
========================  =====================================================
"""

from rules import selfplay
from rules.cards import JOKERS, NATURAL_RANKS, Rank, format_cards, parse_cards
from rules.errors import (
    GoujiError,
    IllegalEventError,
    IllegalPlayError,
    InvalidCardsError,
    MalformedEventError,
    UnknownRulesetError,
)
from rules.events import (
    Declaration,
    Event,
    EventType,
    RevolutionChoice,
    apply_corrections,
    parse_event,
)
from rules.match import ApplyResult, EventError, Match
from rules.plays import Classification, Play, beats, classify, is_gouji, opens
from rules.record import dumps, loads, replay, undo
from rules.round import (
    PLACE_NAMES,
    Answer,
    BurnState,
    Round,
    RoundResult,
    Termination,
    duitou,
    federation,
)
from rules.ruleset import PRESETS, Ruleset, load_ruleset
from rules.tribute import TributeKind, TributeRow, tribute_rows

__all__ = [
    "JOKERS",
    "NATURAL_RANKS",
    "PLACE_NAMES",
    "PRESETS",
    "Answer",
    "ApplyResult",
    "BurnState",
    "Classification",
    "Declaration",
    "Event",
    "EventError",
    "EventType",
    "GoujiError",
    "IllegalEventError",
    "IllegalPlayError",
    "InvalidCardsError",
    "MalformedEventError",
    "Match",
    "Play",
    "Rank",
    "RevolutionChoice",
    "Round",
    "RoundResult",
    "Ruleset",
    "Termination",
    "TributeKind",
    "TributeRow",
    "UnknownRulesetError",
    "apply_corrections",
    "beats",
    "classify",
    "duitou",
    "dumps",
    "federation",
    "format_cards",
    "is_gouji",
    "load_ruleset",
    "loads",
    "opens",
    "parse_cards",
    "parse_event",
    "replay",
    "selfplay",
    "tribute_rows",
    "undo",
]
