"""Quotations traced to their source words: what the book kept, cut or changed.

An opinion of the book that quotes or reports 郑玄, 贾公彦 or 敖继公 gives words that stand,
verbatim, abridged or paraphrased, in one of the source works' blocks (``Source``). The
sources are indexed once (``SourceIndex``: n-gram seeds over their skeletons,
kg.text.parallels.Skeleton); the quoted words are searched first among the blocks on the
parallel passages (``near``), then in the rest of the chapter, and, for words the chapter
holds nothing of, last and under stricter thresholds in the rest of the work. Each search
takes the stretches of a block where most seeds fall, aligns the words against each with
rapidfuzz's Indel (LCS) opcodes, keeps the runs long enough not to be chance, and cuts them
where the source jumps or the author adds much of his own: each piece is a ``Quotation``.
What the pieces do not cover is searched again, so a quotation stitched from two separate
source sentences gives two Quotations. Below the thresholds
(``kg/nlp/patterns/quotations.toml``) there is no Quotation: never a forced match.

>>> src = [Source("s1", "主人戒賓告之以射事也出迎出門也", "zhengxuan", "zhu")]
>>> [(q.fidelity, q.source_text) for q in trace("戒賓告之以射事也", src)]
[('verbatim', '戒賓告之以射事也')]
>>> [(q.fidelity, q.source_text) for q in trace("主人戒賓告以射事出迎出門也", src)]
[('abridged', '主人戒賓告之以射事也出迎出門也')]
>>> trace("大夫不入門不拜至", src)
[]
"""

from __future__ import annotations

import copy
import tomllib
from array import array
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Indel, Levenshtein

from kg.nlp.commentary_rules import load_rules
from kg.text.normalize import normalize
from kg.text.parallels import Skeleton

CONFIG = Path(__file__).with_name("patterns") / "quotations.toml"
_SHIFT = 24  # a source's skeleton positions fit below this many bits
_MASK = (1 << _SHIFT) - 1


@dataclass(frozen=True)
class Params:
    seed: int = 3
    window_gap: int = 40
    margin: int = 6
    candidates: int = 4
    min_run: int = 2
    max_cut: int = 30
    sentence_cut: int = 10
    max_insert: int = 5
    min_matched: int = 6
    min_coverage: float = 0.55
    min_similarity: float = 0.4
    abridged_coverage: float = 0.9
    slip: int = 1
    min_quote: int = 4
    short_exact: int = 4
    far_min_matched: int = 8
    far_min_coverage: float = 0.8
    far_min_similarity: float = 0.6


@dataclass(frozen=True)
class Tier:
    """Blocks that may hold a speaker's words: of this voice ("*": any) and these kinds."""

    voice: str
    kinds: tuple[str, ...]

    def holds(self, voice: str, kind: str) -> bool:
        return self.voice in ("*", voice) and kind in self.kinds


@dataclass(frozen=True)
class Config:
    sources: dict[str, tuple[Tier, ...]]  # speaker → where his words are looked for, in order
    params: Params


@lru_cache(maxsize=1)
def load_config(path: Path = CONFIG) -> Config:
    with path.open("rb") as f:
        data = tomllib.load(f)
    sources = {
        speaker: tuple(Tier(t["voice"], tuple(t["kinds"])) for t in tiers)
        for speaker, tiers in data.get("sources", {}).items()
    }
    return Config(sources, Params(**data.get("params", {})))


@dataclass(frozen=True)
class Source:
    """A block of a source work that may hold the quoted words."""

    key: object  # the caller's handle on it (its IRI)
    text: str  # original characters
    voice: str
    kind: str


@dataclass(frozen=True)
class Quotation:
    source: Source
    quoted: tuple[int, int]  # offsets in the quoted text
    source_span: tuple[int, int]  # offsets in the source's text
    fidelity: str  # verbatim | abridged | paraphrase
    similarity: float
    cuts: tuple[tuple[int, int], ...] = ()  # source words the author left out (source offsets)

    @property
    def source_text(self) -> str:
        return self.source.text[self.source_span[0] : self.source_span[1]]


@dataclass(frozen=True)
class _Piece:
    """A run of aligned stretches: skeleton ranges in the quote and in one source."""

    source: int
    q0: int
    q1: int
    s0: int
    s1: int
    matched: int


def tiers(speaker: str) -> tuple[Tier, ...]:
    """Where ``speaker``'s words are looked for, in order (none: he is not traced)."""
    return load_config().sources.get(speaker, ())


def speakers() -> tuple[str, ...]:
    """Every speaker whose words are traced."""
    return tuple(load_config().sources)


def tier_of(speaker: str, voice: str, kind: str) -> int | None:
    """The first tier of ``speaker``'s that a block of this voice and kind is in."""
    return next((i for i, t in enumerate(tiers(speaker)) if t.holds(voice, kind)), None)


class SourceIndex:
    """The sources one speaker's words may stand in, their seeds indexed once; ``speaker``
    orders them in tiers (none: one tier). The index may hold a whole work (every chapter's
    blocks): a search is then scoped to one chapter (``local``) and reaches the rest of the
    work only last, under stricter thresholds (a note quoted from another chapter's 注)."""

    def __init__(
        self, sources: Sequence[Source], speaker: str | None = None, params: Params | None = None
    ) -> None:
        self.params = params or load_config().params
        self.sources = list(sources)
        self.tiers = _tiers(self.sources, speaker)
        self.skeletons = [Skeleton.of(s.text) for s in self.sources]
        self.keys: dict[object, list[int]] = defaultdict(list)
        for i, s in enumerate(self.sources):
            self.keys[s.key].append(i)
        n = self.params.seed
        # a hit packed in one machine int (source << SHIFT | position), in arrays: a whole
        # work's index stays small
        self.index: dict[str, array[int]] = defaultdict(lambda: array("q"))
        for i, sk in enumerate(self.skeletons):
            for k in range(len(sk.chars) - n + 1):
                self.index[sk.chars[k : k + n]].append(i << _SHIFT | k)

    def for_speaker(self, speaker: str) -> SourceIndex:
        """The same index (shared, not rebuilt), its sources in ``speaker``'s tiers: one
        index of every speaker's blocks serves them all."""
        other = copy.copy(self)
        other.tiers = _tiers(self.sources, speaker)
        return other

    def trace(
        self,
        text: str,
        near: Collection[object] = (),
        local: Collection[object] | None = None,
        far: bool = True,
    ) -> list[Quotation]:
        """The quotations ``text`` (the quoted words, original characters) makes of these
        sources, in the order of the text; offsets are into ``text``. Tier by tier, sources
        whose key is in ``near`` (the blocks on the parallel passages) are searched first,
        then those in ``local`` (the chapter's; None: all); the rest last, strictly (unless
        not ``far``)."""
        q = Skeleton.of(text)
        pieces: list[_Piece] = []
        todo = [(0, len(q.chars))]
        scopes = [x for x in self._scopes(near, local) if far or x[1] != "work"]
        while todo:
            a, b = todo.pop()
            if b - a < self.params.min_quote:
                continue
            # the rest of the work only for words the chapter holds nothing of: beside a
            # quotation found here, the rest is more likely the author's own
            found = next(
                (
                    got
                    for x, reach in scopes
                    if (reach != "work" or not pieces)
                    and (got := self._search(q.chars, a, b, x, reach))
                ),
                [],
            )
            if not found:
                continue
            pieces.extend(found)
            todo.extend(_gaps(a, b, found))
        pieces = _join(sorted(pieces, key=lambda p: p.q0), self.skeletons, self.params)
        return [self._quotation(q, p) for p in pieces]

    def _scopes(
        self, near: Collection[object], local: Collection[object] | None
    ) -> list[tuple[set[int], str]]:
        """The sets of sources searched in turn, each with its reach: near, chapter, work."""
        close = {i for k in near for i in self.keys.get(k, ())}
        here = set(range(len(self.sources)))
        if local is not None:
            here = {i for k in local for i in self.keys.get(k, ())}
        scopes = [(x, reach) for t in self.tiers for x, reach in _split(t, close, here) if x]
        if local is not None:
            scopes += [(t - here, "work") for t in self.tiers if t - here]
        return scopes

    def _search(self, q: str, a: int, b: int, scope: set[int], reach: str) -> list[_Piece]:
        """The best candidate's pieces for q[a:b] among the sources in ``scope`` (``reach``:
        near — the blocks on the parallel passages, chapter, or work)."""
        best: list[_Piece] = []
        for src, s0, s1 in self._candidates(q, a, b, scope):
            got = self._align(q, a, b, src, s0, s1, reach)
            if sum(p.matched for p in got) > sum(p.matched for p in best):
                best = got
        return best

    def _candidates(self, q: str, a: int, b: int, scope: set[int]) -> list[tuple[int, int, int]]:
        """Stretches of a source where seeds of q[a:b] gather, the most seeds first."""
        n, p = self.params.seed, self.params
        hits: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for k in range(a, b - n + 1):
            for hit in self.index.get(q[k : k + n], ()):
                i = hit >> _SHIFT
                if i in scope:
                    hits[i].append((hit & _MASK, k))
        found = []
        for i, hs in hits.items():
            for cluster in _clusters(sorted(hs), p.window_gap):
                qs = {k for _, k in cluster}
                s0 = max(0, cluster[0][0] - p.margin - (min(qs) - a))
                s1 = cluster[-1][0] + n + p.margin + (b - max(qs) - n)
                found.append((len(qs), i, s0, min(s1, len(self.skeletons[i].chars))))
        found.sort(key=lambda x: (-x[0], x[1], x[2]))
        return [(i, s0, s1) for _, i, s0, s1 in found[: p.candidates]]

    def _align(
        self, q: str, a: int, b: int, src: int, s0: int, s1: int, reach: str
    ) -> list[_Piece]:
        """q[a:b] against the source stretch: the runs that are no chance, cut into pieces."""
        s = self.skeletons[src].chars
        runs = [
            (qa + a, qb + a, sa + s0, sb + s0)
            for tag, qa, qb, sa, sb in Indel.opcodes(q[a:b], s[s0:s1])
            if tag == "equal"
        ]
        runs = [r for r in _extended(runs, q, s, a, b) if r[1] - r[0] >= self.params.min_run]
        return [p for p in _pieces(runs, src, s, self.params) if self._passes(q, p, reach)]

    def _passes(self, q: str, p: _Piece, reach: str) -> bool:
        par = self.params
        exact = p.matched == p.q1 - p.q0 == p.s1 - p.s0
        if reach == "near" and exact and p.matched >= par.short_exact:
            return True  # a few words copied exactly from the commentary on this 经文
        far = reach == "work"
        least = par.far_min_matched if far else par.min_matched
        share = par.far_min_coverage if far else par.min_coverage
        if p.matched < least or p.matched < share * (p.q1 - p.q0):
            return False
        s = self.skeletons[p.source].chars[p.s0 : p.s1]
        similar = par.far_min_similarity if far else par.min_similarity
        return Indel.normalized_similarity(q[p.q0 : p.q1], s) >= similar

    def _quotation(self, q: Skeleton, p: _Piece) -> Quotation:
        sk = self.skeletons[p.source]
        quoted, source = q.chars[p.q0 : p.q1], sk.chars[p.s0 : p.s1]
        ops = Indel.opcodes(quoted, source)
        cut = [(c, d) for tag, _, _, c, d in ops if tag == "insert"]  # the source's only
        added = sum(b - a for tag, a, b, _, _ in ops if tag == "delete")  # the author's only
        fidelity = _fidelity(len(quoted), sum(d - c for c, d in cut), added, self.params)
        cuts = tuple(sk.span(p.s0 + c, p.s0 + d) for c, d in cut)
        return Quotation(
            source=self.sources[p.source],
            quoted=q.span(p.q0, p.q1),
            source_span=sk.span(p.s0, p.s1),
            fidelity=fidelity,
            similarity=round(Indel.normalized_similarity(quoted, source), 3),
            cuts=cuts,
        )


def marks(quoted: str, source: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The quoted words and the source words cut into pieces for display, each marked
    ``same``, ``added`` / ``cut`` (only in the quotation / only in the source) or ``changed``
    (rapidfuzz Levenshtein opcodes on the normalized texts: variant characters count as the
    same; the pieces keep the original characters).

    >>> quoted, source = marks("主人戒宾告以射事", "主人戒賓告之以射事也")
    >>> quoted
    [('主人戒宾告', 'same'), ('以射事', 'same')]
    >>> source
    [('主人戒賓告', 'same'), ('之', 'cut'), ('以射事', 'same'), ('也', 'cut')]
    """
    ours: list[tuple[str, str]] = []
    theirs: list[tuple[str, str]] = []
    for tag, a, b, c, d in Levenshtein.opcodes(normalize(quoted), normalize(source)):
        kind = {"equal": ("same", "same"), "replace": ("changed", "changed")}.get(
            tag, ("added", "cut")
        )
        if b > a:
            ours.append((quoted[a:b], kind[0]))
        if d > c:
            theirs.append((source[c:d], kind[1]))
    return ours, theirs


def _fidelity(length: int, cut: int, added: int, p: Params) -> str:
    """verbatim: the same words, a slipped or swapped character aside; abridged: the source's
    words in order with cuts, the author adding little; else paraphrase."""
    if cut <= p.slip and added <= p.slip:
        return "verbatim"
    if added <= (1 - p.abridged_coverage) * length:
        return "abridged"
    return "paraphrase"


def trace(
    text: str,
    sources: Sequence[Source],
    near: Collection[object] = (),
    params: Params | None = None,
) -> list[Quotation]:
    """``SourceIndex(sources).trace(text, near)``: for one quotation and a few sources (all
    in one tier)."""
    return SourceIndex(sources, params=params).trace(text, near)


def _tiers(sources: Sequence[Source], speaker: str | None) -> list[set[int]]:
    """The sources in ``speaker``'s tiers, in order (no speaker: all in one tier)."""
    ranks = [tier_of(speaker, s.voice, s.kind) if speaker else 0 for s in sources]
    return [
        {i for i, r in enumerate(ranks) if r == t}
        for t in sorted({r for r in ranks if r is not None})
    ]


def _split(tier: set[int], close: set[int], here: set[int]) -> list[tuple[set[int], str]]:
    """One tier's sources in the order they are searched: near, then the chapter's."""
    return [(tier & close & here, "near"), (tier & here, "chapter")]


def _extended(
    runs: list[tuple[int, int, int, int]], q: str, s: str, start: int, end: int
) -> list[tuple[int, int, int, int]]:
    """Runs grown over the equal characters on either side: among equally long LCS
    alignments Indel may give a run's edge character to a chance match elsewhere (也, 之)."""
    out: list[tuple[int, int, int, int]] = []
    for qa, qb, sa, sb in runs:
        if out:  # what the run before grew over is not this run's
            cut = max(out[-1][1] - qa, out[-1][3] - sa, 0)
            qa, sa = qa + cut, sa + cut
            if qa >= qb:
                continue
        q0, s0 = (out[-1][1], out[-1][3]) if out else (start, 0)
        while qa > q0 and sa > s0 and q[qa - 1] == s[sa - 1]:
            qa, sa = qa - 1, sa - 1
        while qb < end and sb < len(s) and q[qb] == s[sb]:
            qb, sb = qb + 1, sb + 1
        out.append((qa, qb, sa, sb))
    return out


def _clusters(hits: list[tuple[int, int]], gap: int) -> Iterable[list[tuple[int, int]]]:
    """Seed hits (source position, quote position) split where the source jumps by > gap."""
    cluster: list[tuple[int, int]] = []
    for h in hits:
        if cluster and h[0] - cluster[-1][0] > gap:
            yield cluster
            cluster = []
        cluster.append(h)
    if cluster:
        yield cluster


def _pieces(runs: list[tuple[int, int, int, int]], src: int, s: str, p: Params) -> list[_Piece]:
    """Consecutive runs while the source cuts little and the author adds little."""
    out: list[_Piece] = []
    for qa, qb, sa, sb in runs:
        last = out[-1] if out else None
        if last and _continues(s, last.s1, sa, qa - last.q1, p):
            out[-1] = _Piece(src, last.q0, qb, last.s0, sb, last.matched + qb - qa)
        else:
            out.append(_Piece(src, qa, qb, sa, sb, qb - qa))
    return out


def _continues(s: str, end: int, start: int, added: int, p: Params) -> bool:
    """Whether source words from ``start`` on continue a quotation that used them up to
    ``end``: the author cut little (no whole sentence: a long cut after or up to a final
    particle) and added little of his own."""
    cut = start - end
    if cut < 0 or cut > p.max_cut or not 0 <= added <= p.max_insert:
        return False
    finals = _finals()
    return cut < p.sentence_cut or (s[end - 1] not in finals and s[start - 1] not in finals)


@lru_cache(maxsize=1)
def _finals() -> str:
    return load_rules().finals


def _join(pieces: list[_Piece], skeletons: Sequence[Skeleton], p: Params) -> list[_Piece]:
    """Pieces found in separate searches that continue one source stretch are one."""
    out: list[_Piece] = []
    for x in pieces:
        last = out[-1] if out else None
        if (
            last
            and last.source == x.source
            and _continues(skeletons[x.source].chars, last.s1, x.s0, x.q0 - last.q1, p)
        ):
            out[-1] = _Piece(x.source, last.q0, x.q1, last.s0, x.s1, last.matched + x.matched)
        else:
            out.append(x)
    return out


def _gaps(a: int, b: int, pieces: list[_Piece]) -> list[tuple[int, int]]:
    """What of [a, b) the pieces leave uncovered."""
    out, at = [], a
    for p in sorted(pieces, key=lambda p: p.q0):
        if p.q0 > at:
            out.append((at, p.q0))
        at = max(at, p.q1)
    if at < b:
        out.append((at, b))
    return out
