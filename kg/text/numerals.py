"""Chinese numerals, parsed in one place: juan numbers (礼经本义卷十七, 卷第二十三) and the
counts of running text (工四人, 三耦).

>>> [parse_numeral(x) for x in ("一", "十", "十七", "二十", "二十三", "一百", "一百〇五", "三〇")]
[1, 10, 17, 20, 23, 100, 105, 30]
>>> parse_numeral("卷") is None, parse_numeral("") is None
(True, True)
"""

from __future__ import annotations

DIGITS = {"〇": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
TEN = "十"
HUNDRED = "百"
# a count in running text, one to ten (工四人二瑟: four musicians, two with zithers)
COUNT_CHARS = frozenset("一二三四五六七八九十")


def parse_numeral(s: str) -> int | None:
    """The number a small Chinese numeral writes (up to 九百九十九): 百 and 十 with the digit
    before them (none: one) and what follows, or plain digits (三〇 = 30); None for plain
    characters that are not digits. The callers' patterns only hand it numerals."""
    if not s:
        return None
    if HUNDRED in s:
        head, _, rest = s.partition(HUNDRED)
        tail = parse_numeral(rest) if rest else 0
        return (DIGITS.get(head, 1) if head else 1) * 100 + (tail or 0)
    if TEN in s:
        head, _, rest = s.partition(TEN)
        tens = DIGITS.get(head, 1) if head else 1
        return tens * 10 + (DIGITS.get(rest, 0) if rest else 0)
    total = 0
    for ch in s:
        if ch not in DIGITS:
            return None
        total = total * 10 + DIGITS[ch]
    return total
