"""What a linked-data page shows about one IRI, read from the store (runs in a worker).

The SPARQL lives in ``kg/server/queries/*.rq``. The page's IRI is bound by substitution,
lists of IRIs by a VALUES block of checked IRIs: nothing from a request is spliced into
query text. Labels are fetched once for all IRIs a page shows. The result is plain data
(``Page``) that the server renders.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from kg.store import (
    PREFIXES,
    class_counts,
    data_prefixes,
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
LABEL_PROPS = (PREFIXES["rdfs"] + "label", PREFIXES["skos"] + "prefLabel")
Cell = tuple[str, str, str | None]  # (kind, value, language or datatype), from kg.store.rows


@dataclass
class Node:
    kind: str  # iri | bnode | literal
    value: str
    label: str | None = None  # an IRI's best label
    lang: str | None = None  # a literal's language
    datatype: str | None = None  # a literal's datatype


@dataclass
class Segment:
    text: str
    concept: Node | None = None  # the concept a highlighted mention names


@dataclass
class Voice:
    node: Node
    who: Node | None
    voice: str | None
    segments: list[Segment]


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
    outgoing: list[tuple[Node, list[Node]]] = field(default_factory=list)
    incoming: list[tuple[Node, list[Node]]] = field(default_factory=list)
    incoming_total: int = 0
    graph_triples: int | None = None  # the IRI names a graph of this many triples


@cache
def _query(name: str) -> str:
    return (QUERIES / f"{name}.rq").read_text(encoding="utf-8")


def _select(db: Any, name: str, iri: str) -> list[dict[str, Cell | None]]:
    names, body = rows(query_dataset(db, _query(name), bindings={"s": iri}))
    return [dict(zip(names, r, strict=True)) for r in body]  # type: ignore[arg-type]


def _int(cell: Cell | None) -> int | None:
    try:
        return int(cell[1]) if cell else None
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

    def __init__(self, db: Any) -> None:
        self.db = db
        self.wanted: set[str] = set()
        self.best: dict[str, tuple[int, str]] = {}

    def want(self, cell: Cell | None) -> None:
        if cell is not None and cell[0] == "iri":
            self.wanted.add(cell[1])

    def fetch(self) -> None:
        todo = sorted(self.wanted - self.best.keys())
        for i in range(0, len(todo), 400):
            result = query_dataset(self.db, _query("labels"), values={"x": todo[i : i + 400]})
            for x, label in rows(result)[1]:
                if x and label:
                    r = rank(label[2] if label[2] and ":" not in label[2] else None)
                    if x[1] not in self.best or r < self.best[x[1]][0]:
                        self.best[x[1]] = (r, label[1])  # type: ignore[assignment]

    def node(self, cell: Cell | None) -> Node | None:
        if cell is None:
            return None
        kind, value, extra = cell
        if kind == "literal":
            lang = extra if extra and ":" not in extra else None
            return Node("literal", value, lang=lang, datatype=None if lang else extra)
        hit = self.best.get(value)
        return Node(kind, value, label=hit[1] if hit else None)


# -- jobs -------------------------------------------------------------------------------------


def page(db: Any, iri: str, graph_triples: int | None = None) -> Page | None:
    """Everything the HTML page of ``iri`` shows; None if the store knows nothing of it.
    ``graph_triples``: the size of the named graph ``iri`` names, if it names one."""
    out_rows = _select(db, "outgoing", iri)
    counted = _select(db, "incoming-count", iri)
    total = _int(counted[0]["n"]) if counted else 0
    if not out_rows and not total and graph_triples is None:
        return None
    in_rows = _select(db, "incoming", iri) if total else []
    labels = Labels(db)
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
            mine[r["p"][1]].append(r["o"])
    types = [c for c in mine.get(RDF_TYPE, [])]
    own = [c for p in LABEL_PROPS for c in mine.get(p, [])]
    texts = [c[1] for c in mine.get(LJ + "text", [])]

    parts = _Parts(db, labels)
    breadcrumbs = parts.breadcrumbs(iri)
    if LJ + "Commentary" in {t[1] for t in types}:
        blocks = [parts.block(iri, texts[0] if texts else "")]
        text = None
    else:
        blocks = [
            parts.block(r["c"][1], r["text"][1])  # type: ignore[index]
            for r in _select(db, "blocks", iri)
        ]
        text = highlight(texts[0], parts.spans(iri, mine)) if texts else None
    shown = {b[0][1] for b in blocks}
    children = [c for c in parts.children(iri) if c[0][1] not in shown]  # blocks shown above
    acts = parts.acts(iri)

    labels.fetch()
    best = min(own, key=lambda c: rank(c[2]), default=None)
    return Page(
        iri=iri,
        label=best[1] if best else None,
        labels=[labels.node(c) for c in own],  # type: ignore[misc]
        types=[labels.node(c) for c in types],  # type: ignore[misc]
        breadcrumbs=[labels.node(c) for c in breadcrumbs],  # type: ignore[misc]
        text=parts.resolve(text),
        blocks=[parts.resolve_block(b) for b in blocks],
        children=[parts.resolve_child(c) for c in children],
        acts=[parts.resolve_act(a) for a in acts],
        outgoing=_group([(r["p"], r["o"]) for r in out_rows], labels),
        incoming=_group([(r["p"], r["x"]) for r in in_rows], labels),
        incoming_total=total or 0,
        graph_triples=graph_triples,
    )


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
    properties = {r[0][1]: int(r[1][1]) for r in rows(query_dataset(db, _query("stats")))[1]}  # type: ignore[index]
    totals = next(iter(rows(query_dataset(db, _query("stats-totals")))[1]), [None, None])
    examples = {r[1][1]: r[0][1] for r in rows(query_dataset(db, _query("examples")))[1]}  # type: ignore[index]
    graphs = graph_counts(db)
    return {
        "base": store_base(db),
        "graphs": graphs,
        "classes": class_counts(db),
        "properties": properties,
        "triples": sum(graphs.values()),
        "subjects": _int(totals[0]) or 0,  # type: ignore[arg-type]
        "objects": _int(totals[1]) or 0,  # type: ignore[arg-type]
        "examples": examples,
    }


def _prefixes(db: Any) -> dict[str, str]:
    return {**PREFIXES, **data_prefixes(store_base(db))}


def _group(pairs: list[tuple[Cell | None, Cell | None]], labels: Labels) -> list:
    grouped: dict[str, dict[Cell, None]] = defaultdict(dict)
    for p, o in pairs:
        if p is not None and o is not None:
            grouped[p[1]][o] = None
    out = []
    for p, values in grouped.items():
        nodes = [labels.node(o) for o in values]
        nodes.sort(key=lambda n: (n.kind != "iri", n.label or n.value))  # type: ignore[union-attr]
        out.append((Node("iri", p, label=labels.node(("iri", p, None)).label), nodes))  # type: ignore[union-attr]
    return out


# -- the parts of a page: text with mentions, commentary voices, children, acts ---------------

Spans = list[tuple[int, int, Cell]]


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
            if not found or not found[0]["b"] or found[0]["b"][1] in {c[1] for c in chain}:
                break
            parent = found[0]["b"]
            self.labels.want(parent)
            chain.append(parent)
            here = parent[1]
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
                    for s, e, c in self.mentions(unit[0][1])
                    if s0 <= s and e <= e0
                ]
        return spans

    def block(self, iri: str, text: str) -> tuple:
        spans = self.mentions(iri)
        voices = []
        for r in _select(self.db, "opinions", iri):
            start, end = _int(r["start"]), _int(r["end"])
            own = self.mentions(r["o"][1])  # type: ignore[index]
            if start is not None and end is not None:  # the block's mentions inside this voice
                own += [(s - start, e - start, c) for s, e, c in spans if start <= s and e <= end]
            self.labels.want(r["who"])
            voice = r["voice"][1] if r["voice"] else None
            voices.append((r["o"], r["who"], voice, highlight(r["text"][1], own)))  # type: ignore[index]
        return (("iri", iri, None), highlight(text, spans), voices)

    def children(self, iri: str) -> list[tuple]:
        kids: dict[str, list] = {}
        for r in _select(self.db, "children", iri):
            c = r["c"]
            if c is None:
                continue
            if c[1] not in kids:
                label = r["label"][1] if r["label"] else None
                text = r["text"][1] if r["text"] else None
                kids[c[1]] = [c, _int(r["order"]), [], text, label]
            if r["type"] and r["type"] not in kids[c[1]][2]:
                self.labels.want(r["type"])
                kids[c[1]][2].append(r["type"])
        return list(kids.values())

    def acts(self, iri: str) -> list[tuple]:
        acts: dict[str, tuple] = {}
        for r in _select(self.db, "acts", iri):
            a, p, o = r["act"], r["p"], r["o"]
            if a is None or p is None or o is None:
                continue
            act = acts.setdefault(a[1], (a, _int(r["order"]), defaultdict(dict)))
            if p[1] not in (RDF_TYPE, LJ + "order"):
                self.labels.want(p)
                self.labels.want(o)
                act[2][p][o] = None
        return list(acts.values())

    # -- cells → nodes, once the labels are fetched

    def resolve(self, segments: list[tuple[str, Cell | None]] | None) -> list[Segment] | None:
        if segments is None:
            return None
        return [Segment(t, self.labels.node(c)) for t, c in segments]

    def resolve_block(self, b: tuple) -> Block:
        node, segments, voices = b
        return Block(
            node=self.labels.node(node),  # type: ignore[arg-type]
            segments=self.resolve(segments),  # type: ignore[arg-type]
            voices=[
                Voice(self.labels.node(o), self.labels.node(w), v, self.resolve(s))  # type: ignore[arg-type]
                for o, w, v, s in voices
            ],
        )

    def resolve_child(self, c: list) -> Child:
        cell, order, types, text, label = c
        node = self.labels.node(cell)
        if node and not node.label:
            node.label = label
        return Child(node, order, [self.labels.node(t) for t in types], text)  # type: ignore[misc,arg-type]

    def resolve_act(self, a: tuple) -> Act:
        cell, order, fields = a
        return Act(
            self.labels.node(cell),  # type: ignore[arg-type]
            order,
            [
                (self.labels.node(p), [self.labels.node(o) for o in values])  # type: ignore[misc]
                for p, values in fields.items()
            ],
        )


def highlight(text: str, spans: Spans) -> list[tuple[str, Cell | None]]:
    """Cut ``text`` into plain and highlighted pieces (overlaps: the earlier, longer wins).

    >>> c = ("iri", "x", None)
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
