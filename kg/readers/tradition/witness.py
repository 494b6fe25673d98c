"""Where a 注 runs on into 经文, as another witness of the classic shows it.

注疏 does not mark where a 注 ends when 经文 follows it in the same large characters; the README
of the sample: "the start of 经文 known from another witness shows it". Given the 经文 of the
same chapter in another work (礼经本义, 集说: any text, normalized here), each passage is found
in it in order; what the witness has between one passage and the next (the *gap*) is 经文 that
注疏 printed inside the first passage's 注. The gap is looked for, in order, as the end of a
stretch of 注 before one of its inner ``注`` labels or before the 注's end, and cut out as a
passage of its own. Nothing is cut that the witness does not spell exactly (after
normalization), so a witness that differs only makes the reader fall back on ``boundary``.
"""

from __future__ import annotations

import re

from kg.readers.tradition.zhushu_units import Draft, cut_note
from kg.text.normalize import normalize

_NOT_HAN = re.compile(r"[^\u3400-\u9fff\U00020000-\U0003ffff]")
MAX_GAP = 200  # a passage found further on than this is a coincidence, not the next one
MIN_CLASSIC = 2  # the shortest 经文 cut out where the next passage bounds the gap
OPEN_CLASSIC = 3  # … where nothing bounds it (the last passage, or the next not found)


def classic_text(witness: str) -> str:
    return _NOT_HAN.sub("", normalize(witness))


def align_notes(text: str, passages: list[Draft], witness: str, zhu: str) -> list[Draft]:
    """``text``: the stream's text; ``witness``: the chapter's 经文 in another work."""
    w = classic_text(witness)
    norm = normalize(text)  # one code point for one: indices are the stream's
    spots = _locate(norm, passages, w)
    out: list[Draft] = []
    for i, p in enumerate(passages):
        here, nxt = spots[i], spots[i + 1] if i + 1 < len(spots) else None
        if here is None:
            out.append(p)
        elif nxt is None:  # the next passage is not in the witness: what follows, if spelt
            out.extend(_cut(norm, p, w[here[1] : here[1] + MAX_GAP], zhu, OPEN_CLASSIC))
        elif nxt[0] - here[1] < MIN_CLASSIC:
            p.witnessed = True  # the next passage follows at once: nothing hidden here
            out.append(p)
        else:
            out.extend(_cut(norm, p, w[here[1] : nxt[0]], zhu, MIN_CLASSIC))
    return out


def _passage_text(norm: str, p: Draft) -> str:
    pos, parts = p.body[0], []
    for a, b in sorted(p.holes):
        parts.append(norm[pos:a])
        pos = max(pos, b)
    parts.append(norm[pos : p.body[1]])
    return _NOT_HAN.sub("", "".join(parts))


def _locate(norm: str, passages: list[Draft], w: str) -> list[tuple[int, int] | None]:
    """Each passage's span in the witness, found in order (None: not found near)."""
    out: list[tuple[int, int] | None] = []
    cursor = 0
    for p in passages:
        t = _passage_text(norm, p)
        k = w.find(t, max(0, cursor - 5)) if t else -1
        if k < 0 or k - cursor > MAX_GAP:
            out.append(None)
            continue
        out.append((k, k + len(t)))
        cursor = k + len(t)
    return out


def _cut(norm: str, p: Draft, gap: str, zhu: str, least: int) -> list[Draft]:
    """Cut the gap's 经文 out of ``p``'s 注, piece by piece, in order; the drafts the witness
    accounts for are marked, so the character models leave them alone."""
    best: tuple[int, int, int] | None = None  # (size, block, end)
    for k, b in enumerate(p.blocks):
        if b.kind != "zhu":
            continue
        a, e = b.body
        inner = [a + 1 + m.start() for m in re.finditer(re.escape(zhu), norm[a + 1 : e])]
        for x in [*inner, e]:
            size = _longest(norm, a, x, gap, least)
            if size and (best is None or size > best[0]):
                best = (size, k, x)
        if best is not None:
            break  # the gap opens in the first 注 that holds any of it
    if best is None:
        return [p]
    size, k, x = best
    head, tail = cut_note(p, k, x - size, x, len(zhu))
    head.witnessed = True
    rest = gap[len(_NOT_HAN.sub("", norm[x - size : x])) :]
    if len(rest) < least:
        tail.witnessed = True
        return [head, tail]
    return [head, *_cut(norm, tail, rest, zhu, least)]


def _longest(norm: str, a: int, x: int, gap: str, least: int) -> int:
    """The longest stretch ending at ``x`` (after some 注 from ``a``) that opens the gap."""
    for size in range(min(len(gap), x - a - 1), least - 1, -1):
        piece = _NOT_HAN.sub("", norm[x - size : x])
        if len(piece) >= least and gap.startswith(piece):
            return size
    return 0
