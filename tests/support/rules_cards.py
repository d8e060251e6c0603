"""A small hand-made catalogue for testing `rules_check` alone, without Django or a database.

The name keys are what the catalogue's adapter computes (Simplified, no spaces): written out here
so that these tests need nothing but the standard library.
"""

from __future__ import annotations

from rules_check import CardFacts, Deck, Entry, normalize_code

CARDS = [
    CardFacts("YXJQ-003", "新兵", "troop", "新兵", cost=2),
    CardFacts("YXJQ-004", "羽林內醫", "troop", "羽林内医", cost=2),
    CardFacts("YXJQ-005", "要塞守軍", "troop", "要塞守军", cost=4),
    CardFacts("YXJQ-006", "步兵十夫長", "troop", "步兵十夫长", cost=4),
    CardFacts("YXJQ-008", "沙場鬥士", "troop", "沙场斗士", cost=3),
    CardFacts("YXJQ-009", "校場監軍", "troop", "校场监军", cost=6),
    CardFacts("YXJQ-012", "少年獵人", "troop", "少年猎人", cost=2),
    CardFacts("YXJQ-013", "狼牙獵手", "troop", "狼牙猎手", cost=3),
    CardFacts("YXJQ-014", "弓箭軍需官", "troop", "弓箭军需官", cost=3),
    CardFacts("YXJQ-015", "巨盾護衛", "troop", "巨盾护卫", cost=3),
    CardFacts("YXJQ-016", "戰影", "troop", "战影", cost=5),
    CardFacts("YXJQ-017", "弓兵指揮官", "troop", "弓兵指挥官", cost=4),
    CardFacts("YXJQ-018", "重裝騎士", "troop", "重装骑士", cost=6),
    CardFacts("YXJQ-001", "南蠻入侵", "tactic", "南蛮入侵", cost=3, speed="slow"),
    CardFacts("YXJQ-002", "酒", "tactic", "酒", cost=1, speed="fast"),
    CardFacts("YXJQ-010", "火攻", "tactic", "火攻", cost=3, speed="slow"),
    CardFacts("YXJQ-011", "過河拆橋", "tactic", "过河拆桥", cost=2, speed="fast"),
    CardFacts("YXJQ-007", "迅影", "troop", "迅影", cost=4),
    CardFacts("LSHJ-001", "江湖流寇", "troop", "江湖流寇", cost=1),
    CardFacts("LSHJ-002", "流民義士", "troop", "流民义士", cost=4),
    CardFacts("五道·001", "鄉勇", "troop", "乡勇"),
    # A reprint under another code with the same name, to count copies by name across codes.
    CardFacts("五道·006", "新兵", "troop", "新兵"),
    CardFacts("WJ-001", "劉備", "general", "刘备"),
    CardFacts("WJ-002", "曹操", "general", "曹操"),
    CardFacts("YCWJ-001", "張寶", "awakened_general", "张宝"),
    CardFacts("FJ-001", "曹昂", "vice_general", "曹昂"),
    CardFacts("YJ-001", "黃巾義軍", "reinforcement", "黄巾义军"),
]
BY_CODE = {c.code: c for c in CARDS}
BY_KEY: dict[str, CardFacts] = {}
for _card in CARDS:
    BY_KEY.setdefault(_card.name_key, _card)
    BY_KEY.setdefault("".join(_card.name.split()), _card)


def lookup(text: str) -> CardFacts | None:
    code = normalize_code(text)
    if code:
        return BY_CODE.get(code)
    return BY_KEY.get("".join(text.split()))


def card(code: str) -> CardFacts:
    return BY_CODE[code]


def deck_of(
    counts: dict[str, int], general: str | None = "WJ-001", reinforcements: dict[str, int] | None = None
) -> Deck:
    return Deck(
        generals=[Entry(card(general))] if general else [],
        main=[Entry(card(code), n) for code, n in counts.items()],
        reinforcements=[Entry(card(code), n) for code, n in (reinforcements or {}).items()],
    )


def legal_counts(total: int) -> dict[str, int]:
    """`total` main-deck cards, at most 3 of each name, from distinct troops and tactics."""
    names = [c.code for c in CARDS if c.kind in ("troop", "tactic") and c.code != "五道·006"]
    counts: dict[str, int] = {}
    for i in range(total):
        code = names[i // 3]
        counts[code] = counts.get(code, 0) + 1
    return counts
