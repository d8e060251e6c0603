"""The game's vocabulary: glossary slugs with their printed (Traditional) and English labels.

The slugs are the game glossary's: what the database, the API and the tests use. The printed
label is game data, shown as the card prints it; Simplified is derived with opencc when shown.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy

from rules_check import model as rules


class Kind(models.TextChoices):
    # The slugs are the rules' own (rules_check.model): defined there, labelled here.
    GENERAL = rules.GENERAL, "武將"
    AWAKENED_GENERAL = rules.AWAKENED_GENERAL, "覺醒武將"
    VICE_GENERAL = rules.VICE_GENERAL, "副將"
    TROOP = rules.TROOP, "部隊"
    TACTIC = rules.TACTIC, "錦囊"
    REINFORCEMENT = rules.REINFORCEMENT, "援軍"


class TroopClass(models.TextChoices):
    INFANTRY = "infantry", "步兵"
    CAVALRY = "cavalry", "騎兵"
    ARCHER = "archer", "弓兵"
    MYSTIC = "mystic", "方士"
    STRATEGIST = "strategist", "謀士"
    HALBERDIER = "halberdier", "戟兵"


class Faction(models.TextChoices):
    SHU = "shu", "蜀"
    WEI = "wei", "魏"
    WU = "wu", "吳"
    QUN = "qun", "群"
    YUAN = "yuan", "袁"


class Speed(models.TextChoices):
    SLOW = "slow", "緩速"
    FAST = "fast", "快速"


class Element(models.TextChoices):
    FIRE = "fire", "火"
    WATER = "water", "水"
    EARTH = "earth", "土"
    METAL = "metal", "金"
    WOOD = "wood", "木"


class Tier(models.TextChoices):
    IRON = "iron", "鐵"
    BRONZE = "bronze", "銅"
    SILVER = "silver", "銀"
    GOLD = "gold", "金"
    JADE = "jade", "玉"


# The sets, as the glossary names them (the data file holds the same four).
SETS: dict[str, str] = {"YXJQ": "英雄崛起", "LSHJ": "亂世黃巾", "GMGD": "詭謀官渡", "WD": "補充系列（五道）"}

# What each set is, in the reader's language (the data file's description is the Chinese one).
SET_DESCRIPTIONS: dict[str, Any] = {
    "YXJQ": gettext_lazy("Base set"),
    "LSHJ": gettext_lazy("Core set"),
    "WD": gettext_lazy("Supplementary series"),
}

# Sort order of the metals: iron < bronze < silver < gold < jade.
TIER_RANK: dict[str, int] = {tier.value: rank for rank, tier in enumerate(Tier, start=1)}

ENGLISH: dict[str, str] = {
    "general": "General",
    "awakened_general": "Awakened general",
    "vice_general": "Vice general",
    "troop": "Troop",
    "tactic": "Tactic",
    "reinforcement": "Reinforcement",
    "infantry": "Infantry",
    "cavalry": "Cavalry",
    "archer": "Archer",
    "mystic": "Mystic",
    "strategist": "Strategist",
    "halberdier": "Halberdier",
    "shu": "Shu",
    "wei": "Wei",
    "wu": "Wu",
    "qun": "Qun",
    "yuan": "Yuan",
    "slow": "Slow",
    "fast": "Fast",
    "fire": "Fire",
    "water": "Water",
    "earth": "Earth",
    "metal": "Metal",
    "wood": "Wood",
    "iron": "Iron",
    "bronze": "Bronze",
    "silver": "Silver",
    "gold": "Gold",
    "jade": "Jade",
}


def value_words(choices: Any) -> dict[str, str]:
    """slug, printed Chinese (both scripts) and English label, all lower case, to the slug: what
    the query language and a contributed fact accept."""
    from catalog import textkeys  # opencc loads once, when a word list is first made

    words: dict[str, str] = {}
    for slug, printed in choices:
        for word in (slug, printed, textkeys.to_simplified(printed), ENGLISH.get(slug, slug)):
            words[word.lower().replace(" ", "")] = slug
            words[word.lower().replace(" ", "_")] = slug
    return words
