"""What the ontology reference shows, gathered from the ontology, the vocabularies, the
shapes and (when a store is given) the data: counts and a few instances of every class,
example triples of every property.

Everything is sorted, so the same store gives the same page.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rdflib import OWL, RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import DCTERMS, SH, SKOS
from rdflib.term import Node

from kg.rdf.namespaces import LJ
from kg.rdf.prefixes import PREFIXES, curie

LAYOUT = Path(__file__).with_name("layout.toml")
NS = str(LJ._NS)
EXAMPLES = 3  # instances shown per class
PROPERTY_EXAMPLES = 2
SCAN = 200  # examples are the first in IRI order among this many


@dataclass
class Ref:
    iri: str
    text: str  # a local name (ours) or a prefixed name
    href: str  # #Name for ours, the IRI for others
    zh: str = ""


@dataclass
class Constraint:
    path: str
    cardinality: str
    detail: str
    message: str
    severity: str = "Violation"


@dataclass
class Example:
    subject: Ref
    value: Ref | None = None  # for a property: the object


@dataclass
class Term:
    iri: str
    name: str
    kind: str  # class | object | datatype | annotation
    zh: str
    en: str
    definition: str = ""
    scope_note: str = ""
    parents: list[Ref] = field(default_factory=list)
    children: list[Ref] = field(default_factory=list)
    disjoint: list[Ref] = field(default_factory=list)
    domain: list[Ref] = field(default_factory=list)
    range: list[Ref] = field(default_factory=list)
    inverse: list[Ref] = field(default_factory=list)
    functional: bool = False
    domain_of: list[Ref] = field(default_factory=list)
    range_of: list[Ref] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    count: int | None = None
    examples: list[Example] = field(default_factory=list)


@dataclass
class Concept:
    iri: str
    anchor: str
    slug: str
    pref: str
    en: str
    alt: list[str]
    definition: str
    broader: list[Ref]
    kind: str


@dataclass
class Scheme:
    iri: str
    slug: str
    zh: str
    en: str
    definition: str
    concepts: list[Concept]


@dataclass
class Docs:
    meta: dict[str, Any]
    groups: list[tuple[str, list[Term]]]
    object_properties: list[Term]
    datatype_properties: list[Term]
    alignment: list[tuple[Ref, str, Ref]]
    schemes: list[Scheme]
    namespaces: list[tuple[str, str]]
    stats: dict[str, Any]


def load_layout(path: Path = LAYOUT) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _lit(g: Graph, s: Node, p: URIRef, lang: str | None = None) -> str:
    values = sorted(
        str(o)
        for o in g.objects(s, p)
        if isinstance(o, Literal) and (lang is None or o.language == lang)
    )
    return values[0] if values else ""


def ref(g: Graph, iri: Node) -> Ref:
    s = str(iri)
    if s.startswith(NS):
        return Ref(s, s[len(NS) :], "#" + s[len(NS) :], _lit(g, iri, RDFS.label, "lzh"))
    return Ref(s, curie(s), s, _lit(g, iri, RDFS.label, "lzh") or _lit(g, iri, RDFS.label, "en"))


def _refs(g: Graph, nodes: Any) -> list[Ref]:
    return sorted((ref(g, n) for n in nodes if isinstance(n, URIRef)), key=lambda r: r.text)


def gather(ontology: Graph, vocabularies: Graph, shapes: Graph, db: object | None) -> Docs:
    layout = load_layout()
    terms = _terms(ontology)
    for c in terms.values():
        if c.kind == "class":
            c.constraints = _constraints(shapes, URIRef(c.iri))
    stats: dict[str, Any] = {}
    if db is not None:
        _data(db, terms, stats)
    classes = {t.name: t for t in terms.values() if t.kind == "class"}
    groups, seen = [], set()
    for grp in layout.get("groups", []):
        members = [classes[n] for n in grp["classes"] if n in classes]
        seen.update(t.name for t in members)
        groups.append((grp["title"], members))
    rest = sorted((t for n, t in classes.items() if n not in seen), key=lambda t: t.name)
    if rest:
        groups.append(("Other classes", rest))
    props = sorted((t for t in terms.values() if t.kind != "class"), key=lambda t: t.name)
    return Docs(
        meta=_meta(ontology),
        groups=groups,
        object_properties=[t for t in props if t.kind == "object"],
        datatype_properties=[t for t in props if t.kind == "datatype"],
        alignment=_alignment(ontology),
        schemes=_schemes(vocabularies),
        namespaces=sorted(PREFIXES.items()),
        stats=stats,
    )


def _meta(g: Graph) -> dict[str, Any]:
    onto = next(g.subjects(RDF.type, OWL.Ontology), None)
    if onto is None:
        return {"iri": NS.rstrip("#"), "title_zh": "", "title_en": "lijing ontology"}
    return {
        "iri": str(onto),
        "title_zh": _lit(g, onto, DCTERMS.title, "lzh"),
        "title_en": _lit(g, onto, DCTERMS.title, "en") or "lijing ontology",
        "description": _lit(g, onto, DCTERMS.description),
        "version_iri": str(g.value(onto, OWL.versionIRI) or ""),
        "version": _lit(g, onto, OWL.versionInfo),
        "license": str(g.value(onto, DCTERMS.license) or ""),
        "creator": _lit(g, onto, DCTERMS.creator),
        "created": _lit(g, onto, DCTERMS.created),
        "namespace": NS,
        "prefix": "lj",
        "see_also": sorted(str(o) for o in g.objects(onto, RDFS.seeAlso)),
    }


def _terms(g: Graph) -> dict[str, Term]:
    kinds = {
        OWL.Class: "class",
        OWL.ObjectProperty: "object",
        OWL.DatatypeProperty: "datatype",
        OWL.AnnotationProperty: "annotation",
    }
    out: dict[str, Term] = {}
    for s, _, k in g.triples((None, RDF.type, None)):
        if k not in kinds or not isinstance(s, URIRef) or not str(s).startswith(NS):
            continue
        name = str(s)[len(NS) :]
        out[str(s)] = Term(
            iri=str(s),
            name=name,
            kind=kinds[k],
            zh=_lit(g, s, RDFS.label, "lzh"),
            en=_lit(g, s, RDFS.label, "en"),
            definition=_lit(g, s, SKOS.definition),
            scope_note=_lit(g, s, SKOS.scopeNote),
            parents=_refs(g, [*g.objects(s, RDFS.subClassOf), *g.objects(s, RDFS.subPropertyOf)]),
            children=_refs(
                g, [*g.subjects(RDFS.subClassOf, s), *g.subjects(RDFS.subPropertyOf, s)]
            ),
            disjoint=_refs(g, [*g.objects(s, OWL.disjointWith), *g.subjects(OWL.disjointWith, s)]),
            domain=_refs(g, g.objects(s, RDFS.domain)),
            range=_refs(g, g.objects(s, RDFS.range)),
            inverse=_refs(g, [*g.objects(s, OWL.inverseOf), *g.subjects(OWL.inverseOf, s)]),
            functional=(s, RDF.type, OWL.FunctionalProperty) in g,
        )
    for t in out.values():
        if t.kind in ("object", "datatype"):
            for d in t.domain:
                if d.iri in out:
                    out[d.iri].domain_of.append(ref(g, URIRef(t.iri)))
            for r in t.range:
                if r.iri in out:
                    out[r.iri].range_of.append(ref(g, URIRef(t.iri)))
    return out


def _alignment(g: Graph) -> list[tuple[Ref, str, Ref]]:
    rows = []
    for p, sign in ((RDFS.subClassOf, "⊑"), (RDFS.subPropertyOf, "⊑"), (OWL.equivalentClass, "≡")):
        for s, o in g.subject_objects(p):
            if str(s).startswith(NS) and isinstance(o, URIRef) and not str(o).startswith(NS):
                rows.append((ref(g, s), sign, ref(g, o)))
    return sorted(rows, key=lambda r: (r[0].text, r[2].text))


def _constraints(shapes: Graph, cls: URIRef) -> list[Constraint]:
    out = []
    for shape in sorted(shapes.subjects(SH.targetClass, cls)):
        for ps in shapes.objects(shape, SH.property):
            path = shapes.value(ps, SH.path)
            if path is None:
                continue
            inv = shapes.value(path, SH.inversePath) if isinstance(path, BNode) else None
            path_text = f"^{curie(str(inv))}" if inv is not None else curie(str(path))
            lo, hi = shapes.value(ps, SH.minCount), shapes.value(ps, SH.maxCount)
            card = _cardinality(
                int(lo) if lo is not None else 0, int(hi) if hi is not None else None
            )
            detail = []
            for p, fmt in ((SH.datatype, "{}"), (SH["class"], "a {}"), (SH.nodeKind, "{}")):
                v = shapes.value(ps, p)
                if v is not None:
                    detail.append(fmt.format(curie(str(v))))
            langs = shapes.value(ps, SH.languageIn)
            if langs is not None:
                detail.append(" ".join("@" + str(x) for x in Collection(shapes, langs)))
            values = shapes.value(ps, SH["in"])
            if values is not None:
                detail.append("one of " + ", ".join(str(x) for x in Collection(shapes, values)))
            pattern = shapes.value(ps, SH.pattern)
            if pattern is not None:
                detail.append(f"matches {pattern}")
            severity = str(shapes.value(ps, SH.severity) or SH.Violation).rsplit("#", 1)[-1]
            out.append(
                Constraint(
                    path_text,
                    card,
                    "; ".join(detail),
                    str(shapes.value(ps, SH.message) or ""),
                    severity,
                )
            )
        message = shapes.value(shape, SH.message)
        if message is not None:
            out.append(Constraint("", "", "", str(message)))
        for c in shapes.objects(shape, SH.sparql):
            out.append(Constraint("", "", "SPARQL", str(shapes.value(c, SH.message) or "")))
    return sorted(out, key=lambda c: (c.path == "", c.path, c.message))


def _cardinality(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"≥ {lo}" if lo else "any"
    if lo == hi:
        return f"exactly {lo}"
    return f"{lo}…{hi}"


def _schemes(g: Graph) -> list[Scheme]:
    schemes = []
    for s in sorted(g.subjects(RDF.type, SKOS.ConceptScheme)):
        concepts = []
        for c in sorted(g.subjects(SKOS.inScheme, s), key=str):
            kinds = [curie(str(k)) for k in g.objects(c, RDF.type) if k != SKOS.Concept]
            concepts.append(
                Concept(
                    iri=str(c),
                    anchor=_anchor(str(c)),
                    slug=str(c).rstrip("/").rsplit("/", 1)[-1],
                    pref=_lit(g, c, SKOS.prefLabel, "lzh"),
                    en=_lit(g, c, RDFS.label, "en") or _lit(g, c, SKOS.prefLabel, "en"),
                    alt=sorted({str(a) for a in g.objects(c, SKOS.altLabel)}),
                    definition=_lit(g, c, SKOS.definition),
                    broader=[
                        Ref(
                            str(b),
                            _lit(g, b, SKOS.prefLabel, "lzh") or curie(str(b)),
                            f"#{_anchor(str(b))}",
                        )
                        for b in sorted(g.objects(c, SKOS.broader), key=str)
                    ],
                    kind=", ".join(sorted(kinds)),
                )
            )
        slug = str(s).rstrip("/").rsplit("/", 1)[-1]
        schemes.append(
            Scheme(
                str(s),
                slug,
                _lit(g, s, SKOS.prefLabel, "lzh"),
                _lit(g, s, SKOS.prefLabel, "en"),
                _lit(g, s, SKOS.definition),
                concepts,
            )
        )
    return schemes


def _anchor(iri: str) -> str:
    """The page anchor of a concept: its last two path segments (role-zhuren)."""
    return "-".join(iri.rstrip("/").rsplit("/", 2)[-2:])


# -- from the data --------------------------------------------------------------------------------


def _data(db: object, terms: dict[str, Term], stats: dict[str, Any]) -> None:
    """Counts, and a few instances and triples: the first in IRI order among the first
    ``SCAN`` the store yields (sorting a large class in the store is slow)."""
    from kg.store import class_counts, graph_counts, rows, run_query

    def select(q: str) -> list[list]:
        _, body = rows(run_query(db, q))  # type: ignore[arg-type]
        return list(body)

    classes = class_counts(db)  # type: ignore[arg-type]
    graphs = graph_counts(db)  # type: ignore[arg-type]
    stats["triples"] = sum(graphs.values())
    stats["graphs"] = len(graphs)
    props = {
        r[0][1]: int(r[1][1])
        for r in select("SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p")
    }
    wanted: dict[str, list] = {}
    for t in terms.values():
        if t.kind == "class":  # with its subclasses' instances (a Passage is a TextUnit)
            pattern = f"?s a{'/rdfs:subClassOf*' if t.children else ''} <{t.iri}>"
            if t.children:
                q = f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ {pattern} }}"
                t.count = int(select(q)[0][0][1])
            else:
                t.count = classes.get(t.iri, 0)
            if t.count:
                q = f"SELECT DISTINCT ?s WHERE {{ {pattern} FILTER(isIRI(?s)) }} LIMIT {SCAN}"
                found = sorted({r[0][1] for r in select(q)})[:EXAMPLES]
                wanted[t.iri] = [(s, None) for s in found]
        else:
            t.count = props.get(t.iri, 0)
            if t.count:
                q = f"SELECT ?s ?o WHERE {{ ?s <{t.iri}> ?o FILTER(isIRI(?s)) }} LIMIT {SCAN}"
                pairs = sorted(((r[0][1], r[1]) for r in select(q)), key=lambda x: (x[0], x[1][1]))
                wanted[t.iri] = pairs[:PROPERTY_EXAMPLES]
    iris = {s for pairs in wanted.values() for s, _ in pairs}
    iris |= {o[1] for pairs in wanted.values() for _, o in pairs if o and o[0] == "iri"}
    labels = _labels(select, iris)

    def data_ref(iri: str) -> Ref:
        return Ref(iri, labels.get(iri) or curie(iri), iri, "")

    for iri, pairs in wanted.items():
        for s, o in pairs:
            value = None
            if o is not None:
                value = (
                    data_ref(o[1])
                    if o[0] == "iri"
                    else Ref(
                        "", _short(o[1]) + (f"@{o[2]}" if o[2] and ":" not in o[2] else ""), ""
                    )
                )
            terms[iri].examples.append(Example(data_ref(s), value))


def _labels(select: Any, iris: set[str]) -> dict[str, str]:
    """A short label for each IRI: rdfs:label or skos:prefLabel, 中文 first."""
    if not iris:
        return {}
    values = " ".join(f"<{i}>" for i in sorted(iris))
    q = f"SELECT ?s ?l WHERE {{ VALUES ?s {{ {values} }} ?s rdfs:label|skos:prefLabel ?l }}"
    best: dict[str, tuple[int, str]] = {}
    for s, lab in select(q):
        rank = (0 if lab[2] == "lzh" else 1, lab[1])
        if s[1] not in best or rank < best[s[1]]:
            best[s[1]] = rank
    return {s: _short(r[1], 24) for s, r in best.items()}


def _short(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n] + "…"
