"""What a linked-data page shows about one IRI, read from the store (runs in a worker).

The SPARQL lives in ``kg/server/queries/*.rq``. The page's IRI is bound by substitution,
lists of IRIs by a VALUES block of checked IRIs: nothing from a request is spliced into
query text. Labels are fetched once for all IRIs a page shows. The result is plain data
(``Page``) that the server renders.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from kg.nlp.quotations import marks
from kg.rdf.prefixes import PREFIXES, data_prefixes
from kg.store import (
    Cell,
    class_counts,
    dump,
    graph_counts,
    query_dataset,
    rows,
    serialize_capped,
    store_base,
)

QUERIES = Path(__file__).parent / "queries"
LJ = PREFIXES["lj"]
RDF_TYPE = PREFIXES["rdf"] + "type"
# namespaces of terms (properties, classes) rather than data: their names follow the interface
TERMS = (
    LJ,
    PREFIXES["rdf"],
    PREFIXES["rdfs"],
    PREFIXES["skos"],
    PREFIXES["dcterms"],
    PREFIXES["prov"],
)
LABEL_PROPS = (PREFIXES["rdfs"] + "label", PREFIXES["skos"] + "prefLabel")


@dataclass
class Node:
    kind: str  # iri | bnode | literal
    value: str
    label: str | None = None  # an IRI's best label
    lang: str | None = None  # a literal's language
    datatype: str | None = None  # a literal's datatype
    english: str | None = None  # an IRI's English label, where it differs from ``label``


@dataclass
class Segment:
    text: str
    concept: Node | None = None  # the concept a highlighted mention names


@dataclass
class Quote:
    """A quotation of an opinion beside its source words, cut and changed characters marked
    (kg.nlp.quotations.marks: pieces of ``same`` / ``added`` / ``cut`` / ``changed``)."""

    node: Node
    source: Node  # the source block
    fidelity: str | None
    similarity: str | None
    quoted: list[tuple[str, str]]
    words: list[tuple[str, str]]


@dataclass
class Voice:
    node: Node
    who: Node | None
    voice: str | None
    segments: list[Segment]
    quotations: list[Quote] = field(default_factory=list)


@dataclass
class ParallelBlock:
    node: Node
    kind: str | None
    who: Node | None
    text: str


@dataclass
class Parallel:
    """The same 经文 in another work, with the commentary printed under it there."""

    node: Node
    work: Node
    text: str
    blocks: list[ParallelBlock]


@dataclass
class Block:
    node: Node
    segments: list[Segment]
    voices: list[Voice]


@dataclass
class Child:
    node: Node
    order: int | None
    types: list[Node]
    text: str | None


@dataclass
class Act:
    node: Node
    order: int | None
    fields: list[tuple[Node, list[Node]]]

    def get(self, *names: str) -> list[tuple[str, Node]]:
        """The values of the named lj: properties, each with its property's name, so the
        page shows an act as a line of a script: who, does, what, where."""
        return [
            (p.value.rsplit("#", 1)[-1], v)
            for p, values in self.fields
            if p.value.rsplit("#", 1)[-1] in names and p.value.startswith(LJ)
            for v in values
        ]


@dataclass
class Page:
    iri: str
    label: str | None
    labels: list[Node]
    types: list[Node]
    breadcrumbs: list[Node] = field(default_factory=list)
    text: list[Segment] | None = None
    blocks: list[Block] = field(default_factory=list)
    children: list[Child] = field(default_factory=list)
    acts: list[Act] = field(default_factory=list)
    parallels: list[Parallel] = field(default_factory=list)
    outgoing: list[tuple[Node, list[Node]]] = field(default_factory=list)
    incoming: list[tuple[Node, list[Node]]] = field(default_factory=list)
    incoming_total: int = 0
    graph_triples: int | None = None  # the IRI names a graph of this many triples


@cache
def _query(name: str) -> str:
    return (QUERIES / f"{name}.rq").read_text(encoding="utf-8")


def _rows(db: Any, sparql: str, **kwargs: Any) -> list[list[Cell | None]]:
    return list(rows(query_dataset(db, sparql, **kwargs))[1])  # type: ignore[arg-type]


def _select(db: Any, name: str, iri: str) -> list[dict[str, Cell | None]]:
    names, body = rows(query_dataset(db, _query(name), bindings={"s": iri}))  # type: ignore[arg-type]
    return [dict(zip(names, r, strict=True)) for r in body]


def _int(cell: Cell | None) -> int | None:
    try:
        return int(cell.value) if cell else None
    except ValueError:
        return None


def rank(lang: str | None) -> int:
    """Label preference: Classical Chinese, other Chinese, English, untagged, the rest."""
    lang = (lang or "").lower()
    if lang == "lzh":
        return 0
    if lang.startswith("zh"):
        return 1
    return {"en": 2, "": 3}.get(lang, 4)


class Labels:
    """Best label of each IRI a page shows, fetched in one query per few hundred IRIs."""

    def __init__(self, db: Any, lang: str = "zh") -> None:
        self.db = db
        self.lang = lang  # the interface's: names of terms (properties, classes) follow it
        self.wanted: set[str] = set()
        self.best: dict[str, tuple[int, str]] = {}
        self.english: dict[str, str] = {}  # for a tooltip beside the Chinese

    def rank(self, iri: str, lang: str | None) -> int:
        """The data's labels prefer Chinese; a term's follows the interface's language."""
        if self.lang == "en" and iri.startswith(TERMS) and (lang or "").lower() == "en":
            return -1
        return rank(lang)

    def want(self, cell: Cell | None) -> None:
        if cell is not None and cell.kind == "iri":
            self.wanted.add(cell.value)

    def fetch(self, fallback: bool = True) -> None:
        todo = sorted(self.wanted - self.best.keys())
        for i in range(0, len(todo), 400):
            found = _rows(self.db, _query("labels"), values={"x": todo[i : i + 400]})
            for x, label in found:
                if x and label:
                    r = self.rank(
                        x.value, label.tag if label.tag and ":" not in label.tag else None
                    )
                    if x.value not in self.best or r < self.best[x.value][0]:
                        self.best[x.value] = (r, label.value)
                    if label.tag == "en":
                        self.english.setdefault(x.value, label.value)
        if fallback:
            self._fallback([i for i in todo if i not in self.best])

    def _fallback(self, missing: list[str]) -> None:
        """A name for what has no label, so no page shows a bare IRI: a term of another
        vocabulary by its local name; a node of ours (a mention, an act, an opinion …) by
        its type's label and its words, else its type and the end of its IRI."""
        base = store_base(self.db)
        ours = [i for i in missing if i.startswith(base)]
        for i in missing:
            if not i.startswith(base):
                self.best[i] = (9, re.split(r"[#/]", i.rstrip("/#"))[-1] or i)
        kinds: dict[str, str] = {}
        words: dict[str, str] = {}
        for i in range(0, len(ours), 400):
            chunk = {"x": ours[i : i + 400]}
            for x, c in _rows(self.db, _query("fallback-types"), values=chunk):
                if x and c and (c.value.startswith(LJ) or x.value not in kinds):
                    kinds[x.value] = c.value
            for x, t in _rows(self.db, _query("fallback-texts"), values=chunk):
                if x and t and len(t.value) < len(words.get(x.value, t.value + " ")):
                    words[x.value] = t.value
        names = Labels(self.db)
        names.wanted.update(kinds.values())
        names.fetch(fallback=False)
        for iri in ours:
            kind = names.best.get(kinds.get(iri, ""), (0, ""))[1]
            said = words.get(iri, "")
            said = said if len(said) <= 12 else said[:12] + "…"
            tail = said or iri[len(base) :].rsplit("/", 1)[-1]
            self.best[iri] = (9, f"{kind} {tail}".strip())

    def node(self, cell: Cell) -> Node:
        if cell.kind == "literal":
            lang = cell.tag if cell.tag and ":" not in cell.tag else None
            return Node("literal", cell.value, lang=lang, datatype=None if lang else cell.tag)
        hit = self.best.get(cell.value)
        node = Node(cell.kind, cell.value, label=hit[1] if hit else None)
        node.english = self.english.get(cell.value)
        return node

    def maybe(self, cell: Cell | None) -> Node | None:
        return None if cell is None else self.node(cell)


# -- jobs -------------------------------------------------------------------------------------


def page(db: Any, iri: str, graph_triples: int | None = None, lang: str = "zh") -> Page | None:
    """Everything the HTML page of ``iri`` shows; None if the store knows nothing of it.
    ``graph_triples``: the size of the named graph ``iri`` names, if it names one."""
    out_rows = _select(db, "outgoing", iri)
    counted = _select(db, "incoming-count", iri)
    total = _int(counted[0]["n"]) if counted else 0
    if not out_rows and not total and graph_triples is None:
        return None
    in_rows = _select(db, "incoming", iri) if total else []
    labels = Labels(db, lang)
    labels.wanted.add(iri)
    for r in out_rows:
        labels.want(r["p"])
        labels.want(r["o"])
    for r in in_rows:
        labels.want(r["x"])
        labels.want(r["p"])

    mine: dict[str, list[Cell]] = defaultdict(list)
    for r in out_rows:
        if r["p"] and r["o"]:
            mine[r["p"].value].append(r["o"])
    types = [c for c in mine.get(RDF_TYPE, [])]
    own = [c for p in LABEL_PROPS for c in mine.get(p, [])]

    parts = _Parts(db, labels)
    breadcrumbs = parts.breadcrumbs(iri)
    blocks, text = parts.commentary(iri, LJ + "Commentary" in {t.value for t in types}, mine)
    parallels = [] if text is None else parts.parallels(iri)
    shown = {b.unit.value for b in blocks}
    children = [c for c in parts.children(iri) if c.cell.value not in shown]  # blocks shown
    acts = parts.acts(iri)

    labels.fetch()
    return Page(
        iri=iri,
        label=_heading(iri, own, labels, graph_triples),
        labels=[labels.node(c) for c in own],
        types=[labels.node(c) for c in types],
        breadcrumbs=[labels.node(c) for c in breadcrumbs],
        text=parts.resolve(text),
        blocks=[parts.resolve_block(b) for b in blocks],
        children=[parts.resolve_child(c) for c in children],
        acts=[parts.resolve_act(a) for a in acts],
        parallels=[parts.resolve_parallel(p) for p in parallels],
        outgoing=_group([(r["p"], r["o"]) for r in out_rows], labels),
        incoming=_group([(r["p"], r["x"]) for r in in_rows], labels),
        incoming_total=total or 0,
        graph_triples=graph_triples,
    )


def _heading(iri: str, own: list[Cell], labels: Labels, graph_triples: int | None) -> str | None:
    """The page's own best label; else what Labels names it (never the bare IRI)."""
    best = min(own, key=lambda c: rank(c.tag), default=None)
    if best:
        return best.value
    if graph_triples is not None:
        return f"named graph {iri.rstrip('/').rsplit('/', 1)[-1]}"
    return labels.best.get(iri, (0, None))[1]


def rdf(db: Any, iri: str, fmt: str, cap: int | None) -> bytes | None:
    """The description of ``iri`` (its statements and those pointing to it) as RDF."""
    if not bool(query_dataset(db, _query("exists"), bindings={"s": iri})):
        return None
    results = query_dataset(db, _query("describe"), bindings={"s": iri})
    return serialize_capped(results, fmt, cap, _prefixes(db))[0]


def graph(db: Any, iri: str, fmt: str) -> bytes | None:
    """The triples of one named graph (a read-only Graph Store GET); None if no such graph."""
    if iri not in graph_counts(db):
        return None
    return dump(db, fmt, graph=iri)


def stats(db: Any) -> dict[str, Any]:
    """Counts for the home page and VoID: per graph, class and property; totals; examples."""
    properties = {p.value: int(n.value) for p, n in _rows(db, _query("stats")) if p and n}
    totals = next(iter(_rows(db, _query("stats-totals"))), [None, None])
    examples = {c.value: x.value for x, c in _rows(db, _query("examples")) if x and c}
    graphs = graph_counts(db)
    return {
        "base": store_base(db),
        "graphs": graphs,
        "classes": class_counts(db),
        "properties": properties,
        "triples": sum(graphs.values()),
        "subjects": _int(totals[0]) or 0,
        "objects": _int(totals[1]) or 0,
        "examples": examples,
    }


def _prefixes(db: Any) -> dict[str, str]:
    return {**PREFIXES, **data_prefixes(store_base(db))}


def _group(pairs: list[tuple[Cell | None, Cell | None]], labels: Labels) -> list:
    grouped: dict[str, dict[Cell, None]] = defaultdict(dict)
    for p, o in pairs:
        if p is not None and o is not None:
            grouped[p.value][o] = None
    out = []
    for p, values in grouped.items():
        nodes = [labels.node(o) for o in values]
        nodes.sort(key=lambda n: (n.kind != "iri", n.label or n.value))
        out.append((labels.node(Cell("iri", p)), nodes))
    return out


# -- the parts of a page: text with mentions, commentary voices, children, acts ---------------

Spans = list[tuple[int, int, Cell]]
Pieces = list[tuple[str, Cell | None]]  # text cut at mentions, each with its concept


@dataclass
class RawQuote:
    quotation: Cell
    source: Cell
    fidelity: str | None
    similarity: str | None
    words: str
    source_text: str


@dataclass
class RawVoice:
    opinion: Cell
    who: Cell | None
    voice: str | None
    segments: Pieces
    quotations: list[RawQuote] = field(default_factory=list)


@dataclass
class RawParallel:
    passage: Cell
    work: Cell
    text: str
    blocks: list[tuple[Cell, str | None, Cell | None, str]]


@dataclass
class RawBlock:
    """A commentary block as gathered, before its labels are fetched."""

    unit: Cell
    segments: Pieces
    voices: list[RawVoice]


@dataclass
class RawChild:
    cell: Cell
    order: int | None
    types: list[Cell]
    text: str | None
    label: str | None


@dataclass
class RawAct:
    cell: Cell
    order: int | None
    fields: dict[Cell, dict[Cell, None]]  # property → values, in order


class _Parts:
    """Gathers a page's parts as cells, wanting their labels; ``resolve_*`` makes Nodes."""

    def __init__(self, db: Any, labels: Labels) -> None:
        self.db = db
        self.labels = labels

    def breadcrumbs(self, iri: str) -> list[Cell]:
        chain: list[Cell] = []
        here = iri
        while len(chain) < 20:
            found = _select(self.db, "parent", here)
            parent = found[0]["b"] if found else None
            if parent is None or parent.value in {c.value for c in chain}:
                break
            self.labels.want(parent)
            chain.append(parent)
            here = parent.value
        return chain[::-1]

    def mentions(self, unit: str) -> Spans:
        spans = []
        for r in _select(self.db, "mentions", unit):
            start, end = _int(r["start"]), _int(r["end"])
            if start is not None and end is not None and r["c"]:
                self.labels.want(r["c"])
                spans.append((start, end, r["c"]))
        return spans

    def spans(self, iri: str, mine: dict[str, list[Cell]]) -> Spans:
        """Mentions in the text of ``iri``; for a span of a larger unit (an opinion within
        its block) also the unit's mentions that fall inside it, moved to its offsets."""
        spans = self.mentions(iri)
        unit, start, end = (mine.get(LJ + p) for p in ("inUnit", "charStart", "charEnd"))
        if unit and start and end:
            s0, e0 = _int(start[0]), _int(end[0])
            if s0 is not None and e0 is not None:
                spans += [
                    (s - s0, e - s0, c)
                    for s, e, c in self.mentions(unit[0].value)
                    if s0 <= s and e <= e0
                ]
        return spans

    def commentary(
        self, iri: str, is_block: bool, mine: dict[str, list[Cell]]
    ) -> tuple[list[RawBlock], Pieces | None]:
        """A block's own voices; or a unit's blocks and its text with its mentions."""
        texts = [c.value for c in mine.get(LJ + "text", [])]
        if is_block:
            return [self.block(iri, texts[0] if texts else "")], None
        blocks = [
            self.block(r["c"].value, r["text"].value)
            for r in _select(self.db, "blocks", iri)
            if r["c"] and r["text"]
        ]
        return blocks, highlight(texts[0], self.spans(iri, mine)) if texts else None

    def block(self, iri: str, text: str) -> RawBlock:
        spans = self.mentions(iri)
        voices = []
        for r in _select(self.db, "opinions", iri):
            opinion, said = r["o"], r["text"]
            if opinion is None or said is None:
                continue
            start, end = _int(r["start"]), _int(r["end"])
            own = self.mentions(opinion.value)
            if start is not None and end is not None:  # the block's mentions inside this voice
                own += [(s - start, e - start, c) for s, e, c in spans if start <= s and e <= end]
            self.labels.want(r["who"])
            voice = r["voice"].value if r["voice"] else None
            voices.append(RawVoice(opinion, r["who"], voice, highlight(said.value, own)))
        quotes = self.quotations(iri)
        for v in voices:
            v.quotations = quotes.get(v.opinion.value, [])
        return RawBlock(Cell("iri", iri), highlight(text, spans), voices)

    def quotations(self, block: str) -> dict[str, list[RawQuote]]:
        """The quotations of the block's opinions, by opinion."""
        out: dict[str, list[RawQuote]] = defaultdict(list)
        for r in _select(self.db, "quotations", block):
            o, q, src, words, source = r["o"], r["q"], r["from"], r["words"], r["source"]
            if o is None or q is None or src is None or words is None or source is None:
                continue
            if any(x.quotation.value == q.value for x in out[o.value]):
                continue
            self.labels.want(src)
            fidelity, sim = r["fidelity"], r["similarity"]
            out[o.value].append(
                RawQuote(
                    q,
                    src,
                    fidelity.value if fidelity else None,
                    sim.value if sim else None,
                    words.value,
                    source.value,
                )
            )
        return out

    def parallels(self, iri: str) -> list[RawParallel]:
        """The passages of other works parallel to ``iri``, each with its blocks."""
        found: dict[str, RawParallel] = {}
        for r in _select(self.db, "parallels", iri):
            x, text, work = r["x"], r["text"], r["work"]
            if x is None or text is None or work is None or x.value in found:
                continue
            self.labels.want(work)
            found[x.value] = par = RawParallel(x, work, text.value, [])
            rows = _select(self.db, "parallel-blocks", x.value)
            for row in rows or _select(self.db, "blocks", x.value):  # the book's: no kind
                b, said = row.get("b") or row.get("c"), row.get("said") or row.get("text")
                if b is None or said is None or any(k.value == b.value for k, *_ in par.blocks):
                    continue
                who, kind = row.get("who"), row.get("kind")
                self.labels.want(who)
                par.blocks.append((b, kind.value if kind else None, who, said.value))
        return list(found.values())

    def children(self, iri: str) -> list[RawChild]:
        kids: dict[str, RawChild] = {}
        for r in _select(self.db, "children", iri):
            child = r["c"]
            if child is None:
                continue
            if child.value not in kids:
                label = r["label"].value if r["label"] else None
                text = r["text"].value if r["text"] else None
                kids[child.value] = RawChild(child, _int(r["order"]), [], text, label)
            kind = r["type"]
            if kind and kind not in kids[child.value].types:
                self.labels.want(kind)
                kids[child.value].types.append(kind)
        return list(kids.values())

    def acts(self, iri: str) -> list[RawAct]:
        acts: dict[str, RawAct] = {}
        for r in _select(self.db, "acts", iri):
            act, prop, value = r["act"], r["p"], r["o"]
            if act is None or prop is None or value is None:
                continue
            raw = acts.setdefault(act.value, RawAct(act, _int(r["order"]), defaultdict(dict)))
            if prop.value not in (RDF_TYPE, LJ + "order"):
                self.labels.want(prop)
                self.labels.want(value)
                raw.fields[prop][value] = None
        return list(acts.values())

    # -- cells → nodes, once the labels are fetched

    def resolve(self, segments: list[tuple[str, Cell | None]] | None) -> list[Segment] | None:
        if segments is None:
            return None
        return [Segment(t, self.labels.maybe(c)) for t, c in segments]

    def resolve_block(self, b: RawBlock) -> Block:
        return Block(
            node=self.labels.node(b.unit),
            segments=self.resolve(b.segments) or [],
            voices=[
                Voice(
                    self.labels.node(v.opinion),
                    self.labels.maybe(v.who),
                    v.voice,
                    self.resolve(v.segments) or [],
                    [self.resolve_quote(q) for q in v.quotations],
                )
                for v in b.voices
            ],
        )

    def resolve_quote(self, q: RawQuote) -> Quote:
        quoted, words = marks(q.words, q.source_text)
        node, source = self.labels.node(q.quotation), self.labels.node(q.source)
        return Quote(node, source, q.fidelity, q.similarity, quoted, words)

    def resolve_parallel(self, p: RawParallel) -> Parallel:
        blocks = [
            ParallelBlock(self.labels.node(b), kind, self.labels.maybe(who), text)
            for b, kind, who, text in p.blocks
        ]
        return Parallel(self.labels.node(p.passage), self.labels.node(p.work), p.text, blocks)

    def resolve_child(self, c: RawChild) -> Child:
        node = self.labels.node(c.cell)
        if not node.label:
            node.label = c.label
        return Child(node, c.order, [self.labels.node(t) for t in c.types], c.text)

    def resolve_act(self, a: RawAct) -> Act:
        return Act(
            self.labels.node(a.cell),
            a.order,
            [
                (self.labels.node(p), [self.labels.node(o) for o in values])
                for p, values in a.fields.items()
            ],
        )


def highlight(text: str, spans: Spans) -> list[tuple[str, Cell | None]]:
    """Cut ``text`` into plain and highlighted pieces (overlaps: the earlier, longer wins).

    >>> c = Cell("iri", "x")
    >>> [t for t, _ in highlight("主人献宾", [(2, 3, c), (0, 2, c)])]
    ['主人', '献', '宾']
    """
    out: list[tuple[str, Cell | None]] = []
    pos = 0
    for start, end, concept in sorted(spans, key=lambda s: (s[0], s[0] - s[1])):
        if start < pos or end > len(text) or start >= end:
            continue
        if start > pos:
            out.append((text[pos:start], None))
        out.append((text[start:end], concept))
        pos = end
    if pos < len(text):
        out.append((text[pos:], None))
    return out
