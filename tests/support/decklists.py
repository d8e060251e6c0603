"""Deck lists against the real catalogue, shared by the command, API and page tests."""

from __future__ import annotations

# 40 cards: 13 YXJQ troops × 3 + 1 tactic, general 劉備 (written in Simplified on purpose).
LEGAL_40 = (
    "武将: 刘备\n"
    + "\n".join(f"3 YXJQ-{n:03d}" for n in (3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17))
    + "\n1 南蛮入侵\n"
)

# Every kind of problem at once, with known line numbers.
ILLEGAL = """General: 劉備
General: 曹操
3 新兵
1 新兵 (YXJQ-003)
1 YJ-001
1 WJ-003
2 不存在
0 酒
2 火攻
Reinforcements:
1 火攻
"""
