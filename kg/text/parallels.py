"""The classic across works: which passages of another work hold the same 经文 as ours.

Each work cuts the classic its own way (one passage here, two there), writes its own variant
characters, marks readings and separates units (○) differently. Both sides are reduced to
their *skeleton* (kg.text.normalize: variants folded, Han characters only) with a map back to
the original offsets. The other work's passages of a chapter are joined into one stream whose
n-grams are indexed; a passage of ours is placed on the stream by the diagonal most of its
seeds agree on (a missing or extra character only shifts it a little), aligned there with
rapidfuzz's Levenshtein edit operations, and every passage of theirs the aligned stretch
covers is an ``Overlap``, with both spans. What still differs after normalization is a
textual ``Variant``. Parameters: ``kg/text/parallels.toml``.

>>> ours = ["鄉射之禮主人戒賓賓出迎再拜", "主人答再拜乃請"]
>>> theirs = ["乡射之礼○主人戒宾宾出迎再拜主人答再拜", "乃请宾"]
>>> [(o.here, o.there, o.here_span, o.there_span) for o in find_parallels(ours, theirs)]
[(0, 0, (0, 13), (0, 14)), (1, 0, (0, 5), (14, 19)), (1, 1, (5, 7), (0, 2))]
>>> v = find_parallels(["主人荅再拜乃請"], ["主人答三拜乃请"])[0].variants
>>> [(x.here_text, x.there_text) for x in v]
[('再', '三')]
"""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from kg.text.normalize import normalize

_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
PARAMS = Path(__file__).with_name("parallels.toml")


@dataclass(frozen=True)
class Params:
    seed: int = 3
    drift: int = 3
    min_seed_share: float = 0.3
    margin: int = 3
    min_overlap: int = 2
    near_share: float = 0.8
    edge: int = 2


@lru_cache(maxsize=1)
def load_params(path: Path = PARAMS) -> Params:
    with path.open("rb") as f:
        return Params(**tomllib.load(f))


@dataclass(frozen=True)
class Variant:
    """Where the classic reads differently beyond variant characters (original characters;
    an empty text is a character one work lacks)."""

    here_span: tuple[int, int]
    there_span: tuple[int, int]
    here_text: str
    there_text: str


@dataclass(frozen=True)
class Overlap:
    """Passage ``here`` of ours and passage ``there`` of theirs share the 经文 at these spans
    (offsets into each passage's original text)."""

    here: int
    there: int
    here_span: tuple[int, int]
    there_span: tuple[int, int]
    similarity: float  # of the two overlapping stretches' skeletons, 0–1
    variants: tuple[Variant, ...] = ()


@dataclass(frozen=True)
class Skeleton:
    """A text's Han characters, normalized, each with its offset in the original."""

    chars: str
    offsets: tuple[int, ...]
    text: str  # the original

    @classmethod
    def of(cls, text: str) -> Skeleton:
        norm = normalize(text)
        offsets = tuple(m.start() for m in _HAN.finditer(norm))
        return cls("".join(norm[i] for i in offsets), offsets, text)

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Skeleton range [a, b) → original range (b > a); an empty range sits before a."""
        if b <= a:
            at = self.offsets[a] if a < len(self.offsets) else self.offsets[-1] + 1
            return at, at
        return self.offsets[a], self.offsets[b - 1] + 1


class Stream:
    """The other work's passages joined into one skeleton, its n-grams indexed."""

    def __init__(self, texts: Sequence[str], n: int) -> None:
        self.parts = [Skeleton.of(t) for t in texts]
        self.starts: list[int] = []
        acc = 0
        for p in self.parts:
            self.starts.append(acc)
            acc += len(p.chars)
        self.chars = "".join(p.chars for p in self.parts)
        self.n = n
        self.index: dict[str, list[int]] = defaultdict(list)
        for k in range(len(self.chars) - n + 1):
            self.index[self.chars[k : k + n]].append(k)

    def owner(self, pos: int) -> int:
        """The passage a stream position belongs to."""
        return bisect_left(self.starts, pos + 1) - 1

    def hits(self, s: str) -> list[tuple[int, int]]:
        """(position in s, position in the stream) of each shared seed; a string shorter
        than a seed is looked up whole."""
        if len(s) < self.n:
            out, at = [], self.chars.find(s)
            while at >= 0 and s:
                out.append((0, at))
                at = self.chars.find(s, at + 1)
            return out
        return [
            (k, pos) for k in range(len(s) - self.n + 1) for pos in self.index[s[k : k + self.n]]
        ]


def find_parallels(
    ours: Sequence[str], theirs: Sequence[str], params: Params | None = None
) -> list[Overlap]:
    """Every (passage of ours, passage of theirs) whose 经文 overlaps, in our order; ``ours``
    and ``theirs`` are the passages of one chapter in reading order (original characters)."""
    params = params or load_params()
    stream = Stream(theirs, params.seed)
    out: list[Overlap] = []
    expected = 0
    for i, text in enumerate(ours):
        sk = Skeleton.of(text)
        place = _place(sk.chars, stream, expected, params)
        if place is None:
            continue
        found, expected = _overlaps(i, sk, stream, place, params)
        out.extend(found)
    return out


def _place(
    s: str, stream: Stream, expected: int, params: Params
) -> tuple[int, int, int, int] | None:
    """Where ``s`` lies on the stream: (start, end in s, start, end in the stream), from the
    seeds that agree on one diagonal; None when too few do."""
    hits = stream.hits(s)
    if not s or not hits:
        return None
    votes = Counter(pos - k for k, pos in hits)
    w = params.drift
    score = {d: sum(votes.get(d + x, 0) for x in range(-w, w + 1)) for d in votes}
    best = max(score.values())
    seeds = max(1, len(s) - stream.n + 1)
    if best < max(1.0, params.min_seed_share * seeds):
        return None
    near = [d for d, v in score.items() if v >= params.near_share * best]
    diag = min(near, key=lambda d: (abs(d - expected), -score[d], d))
    band = [(k, pos) for k, pos in hits if abs(pos - k - diag) <= w]
    n = min(stream.n, len(s))
    k0, k1 = min(k for k, _ in band), max(k for k, _ in band) + n
    x0, x1 = min(p for _, p in band), max(p for _, p in band) + n
    m = params.margin  # theirs reaches further: a stretch only they have at an end
    return (
        max(0, k0 - m),
        min(len(s), k1 + m),
        max(0, x0 - 2 * m),
        min(len(stream.chars), x1 + 2 * m),
    )


def _aligned(
    s: str, t: str, edge: int, one: Callable[[int, int], bool]
) -> list[tuple[str, int, int, int, int]]:
    """Levenshtein opcodes of s against t, with edits at either end trimmed off; but up to
    ``edge`` characters of s left over at an end, facing as many of t in the same passage
    (``one``), are a changed reading there (二耦 for 三耦 at a passage's start)."""
    ops: list[tuple[str, int, int, int, int]] = [tuple(op) for op in Levenshtein.opcodes(s, t)]  # type: ignore[misc]
    # the alignment runs from the first to the last equal stretch of two characters or more:
    # a lone equal character at an end, past an edit, is chance in the margin
    equal = [i for i, op in enumerate(ops) if op[0] == "equal"]
    solid = [i for i in equal if ops[i][2] - ops[i][1] >= 2] or equal
    if not solid:
        return []
    ops = ops[solid[0] : solid[-1] + 1]
    lead, c = ops[0][1], ops[0][3]
    if 0 < lead <= edge and c >= lead and one(c - lead, c):
        ops.insert(0, (_tag(s[:lead], t[c - lead : c]), 0, lead, c - lead, c))
    b, d = ops[-1][2], ops[-1][4]
    if 0 < len(s) - b <= edge and len(t) - d >= len(s) - b and one(d - 1, d + len(s) - b - 1):
        ops.append((_tag(s[b:], t[d : d + len(s) - b]), b, len(s), d, d + len(s) - b))
    return ops


def _tag(a: str, b: str) -> str:
    return "equal" if a == b else "replace"


def _overlaps(
    i: int, sk: Skeleton, stream: Stream, place: tuple[int, int, int, int], params: Params
) -> tuple[list[Overlap], int]:
    """The overlaps of our passage ``i`` with each passage of theirs the aligned stretch
    covers, and the stream position after it (where the next passage is expected)."""
    k0, k1, x0, x1 = place
    ops = [
        (tag, a + k0, b + k0, c + x0, d + x0)
        for tag, a, b, c, d in _aligned(
            sk.chars[k0:k1],
            stream.chars[x0:x1],
            params.edge,
            lambda p, q: stream.owner(p + x0) == stream.owner(q + x0),
        )
    ]
    if not ops:
        return [], x0
    per: dict[int, list[tuple[str, int, int, int, int]]] = defaultdict(list)
    for op in ops:
        for piece in _split_at_parts(op, stream):
            per[stream.owner(piece[3] if piece[4] > piece[3] else max(piece[3] - 1, 0))].append(
                piece
            )
    out = []
    for j in sorted(per):
        found = _overlap(i, j, sk, stream, per[j], params)
        if found is not None:
            out.append(found)
    return out, ops[-1][4]


def _split_at_parts(
    op: tuple[str, int, int, int, int], stream: Stream
) -> list[tuple[str, int, int, int, int]]:
    """An opcode cut where the stream passes from one passage of theirs to the next."""
    tag, a, b, c, d = op
    out = []
    while d > c:
        j = stream.owner(c)
        end = stream.starts[j + 1] if j + 1 < len(stream.starts) else len(stream.chars)
        if d <= end:
            break
        cut = end - c
        if tag == "equal":
            out.append((tag, a, a + cut, c, end))
            a += cut
        else:  # an edit across the cut stays with the passage it starts in
            out.append((tag, a, b, c, end))
            a = b
        c = end
    out.append((tag, a, b, c, d))
    return [o for o in out if o[2] > o[1] or o[4] > o[3]]


def _overlap(
    i: int,
    j: int,
    sk: Skeleton,
    stream: Stream,
    ops: list[tuple[str, int, int, int, int]],
    params: Params,
) -> Overlap | None:
    equal = sum(b - a for tag, a, b, _, _ in ops if tag == "equal")
    part = stream.parts[j]
    if equal < min(params.min_overlap, len(part.chars), len(sk.chars)):
        return None
    while ops and ops[0][0] not in ("equal", "replace"):
        ops = ops[1:]
    while ops and ops[-1][0] not in ("equal", "replace"):
        ops = ops[:-1]
    base = stream.starts[j]
    a0, a1 = ops[0][1], ops[-1][2]
    c0, c1 = ops[0][3] - base, ops[-1][4] - base
    variants = tuple(
        _variant(sk, part, a, b, c - base, d - base) for tag, a, b, c, d in ops if tag != "equal"
    )
    here, there = sk.chars[a0:a1], part.chars[c0:c1]
    return Overlap(
        here=i,
        there=j,
        here_span=sk.span(a0, a1),
        there_span=part.span(c0, c1),
        similarity=round(Levenshtein.normalized_similarity(here, there), 3),
        variants=variants,
    )


def _variant(ours: Skeleton, theirs: Skeleton, a: int, b: int, c: int, d: int) -> Variant:
    here, there = ours.span(a, b), theirs.span(c, d)
    return Variant(
        here_span=here,
        there_span=there,
        here_text=ours.text[here[0] : here[1]],
        there_text=theirs.text[there[0] : there[1]],
    )
