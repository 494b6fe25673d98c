"""The RDF graph as a property graph for Gephi, Cytoscape and Neo4j: typed, labelled nodes
and typed edges, chosen by ``graph.toml`` (which classes are nodes, which properties edges).

Nodes carry their class (with its 中文 and English label and a colour), labels in 中文 and
English, and the attributes the config names (order, title, text …); edges carry their
relation (with labels) and, for acts, the act's order. Nodes and edges come sorted, so the
files written from them are stable between builds.

>>> cfg = load_config()
>>> cfg.classes[0].name, "acts" in cfg.layers
('RitualAct', True)
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.errors import KgError
from kg.export.select import chapter_members, expand, resolve_chapter
from kg.store import Cell, rows, run_query, store_base

CONFIG = Path(__file__).with_name("graph.toml")
_LABEL_EN = "en"
_XSD = "http://www.w3.org/2001/XMLSchema#"
Value = str | int | float | bool
Triple = tuple[str, str, str]  # subject, property, object IRIs


@dataclass(frozen=True)
class NodeClass:
    name: str
    iri: str
    colour: str
    attributes: dict[str, str]  # attribute name -> property IRI
    edge_attributes: dict[str, str] = field(default_factory=dict)  # edge attr -> node attr


@dataclass(frozen=True)
class Layer:
    name: str
    description: str
    edges: tuple[str, ...]  # property IRIs
    default: bool = True  # exported when no --layer is given


@dataclass(frozen=True)
class GraphConfig:
    classes: list[NodeClass]
    layers: dict[str, Layer]
    labels_zh: tuple[str, ...]
    labels_en: tuple[str, ...]
    chapter_links: tuple[str, ...]
    path: Path


@lru_cache(maxsize=4)
def load_config(path: Path = CONFIG) -> GraphConfig:
    """Read ``graph.toml``; a bad entry is reported with the file and the key."""
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise KgError(f"{where}: {e}") from None
    try:
        classes = [
            NodeClass(
                name=name,
                iri=expand(spec["iri"], where),
                colour=_colour(spec.get("colour", "#999999"), f"{where}: classes.{name}"),
                attributes={k: expand(v, where) for k, v in spec.get("attributes", {}).items()},
                edge_attributes=dict(spec.get("edge_attributes", {})),
            )
            for name, spec in data.get("classes", {}).items()
        ]
        layers = {
            name: Layer(
                name,
                spec.get("description", ""),
                tuple(expand(e, where) for e in spec["edges"]),
                bool(spec.get("default", True)),
            )
            for name, spec in data.get("layers", {}).items()
        }
        labels = data.get("labels", {})
        cfg = GraphConfig(
            classes=classes,
            layers=layers,
            labels_zh=tuple(expand(p, where) for p in labels.get("zh", ["rdfs:label"])),
            labels_en=tuple(expand(p, where) for p in labels.get("en", ["rdfs:label"])),
            chapter_links=tuple(data.get("chapter", {}).get("links", ["dcterms:isPartOf"])),
            path=path,
        )
    except KeyError as e:
        raise KgError(f"{where}: missing key {e}") from None
    for c in cfg.classes:
        missing = [a for a in c.edge_attributes.values() if a not in c.attributes]
        if missing:
            raise KgError(
                f"{where}: classes.{c.name}: edge_attributes {missing} are not attributes"
            )
    return cfg


def _colour(value: str, where: str) -> str:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise KgError(f"{where}: colour {value!r} is not #rrggbb")
    return value.lower()


# -- the property graph -------------------------------------------------------------------------


@dataclass
class Node:
    id: str
    cls: NodeClass
    attrs: dict[str, Value] = field(default_factory=dict)


@dataclass
class Edge:
    id: str
    source: str
    target: str
    relation: str  # the property's local name
    attrs: dict[str, Value] = field(default_factory=dict)


@dataclass
class PropertyGraph:
    nodes: list[Node]
    edges: list[Edge]
    layers: list[str]
    chapter: str | None = None

    def counts(self) -> dict[str, int]:
        return {"nodes": len(self.nodes), "edges": len(self.edges)}

    def by_class(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for n in self.nodes:
            out[n.cls.name] = out.get(n.cls.name, 0) + 1
        return out

    def by_relation(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.edges:
            out[e.relation] = out.get(e.relation, 0) + 1
        return out


def local_name(iri: str) -> str:
    """``https://…/ontology#agent`` → ``agent``; ``http://purl.org/dc/terms/isPartOf`` →
    ``isPartOf``."""
    return re.split(r"[#/]", iri.rstrip("/#"))[-1]


def natural_key(text: str) -> tuple:
    """Sort c2 before c10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def _select(db: object, sparql: str) -> list[list[Cell]]:
    """Rows of cells; the queries here bind every variable."""
    _, body = rows(run_query(db, sparql))  # type: ignore[arg-type]
    return list(body)  # type: ignore[arg-type]


def _values(var: str, iris: Iterable[str]) -> str:
    return f"VALUES ?{var} {{ {' '.join(f'<{i}>' for i in sorted(set(iris)))} }}"


def _literal(cell: tuple[str, str, str | None]) -> Value:
    kind, value, extra = cell
    if kind != "literal":
        return value
    if extra in (_XSD + "integer", _XSD + "int", _XSD + "long"):
        try:
            return int(value)
        except ValueError:
            return value
    if extra == _XSD + "boolean":
        return value in ("true", "1")
    if extra in (_XSD + "decimal", _XSD + "double", _XSD + "float"):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def build_graph(
    db: object,
    layers: Iterable[str] = (),
    chapter: str | None = None,
    config: GraphConfig | None = None,
) -> PropertyGraph:
    """The property graph of the chosen layers (the default ones when none), optionally of
    one chapter (its slug, title or IRI)."""
    cfg = config or load_config()
    chosen = _chosen_layers(cfg, layers)
    typed = _node_classes(db, cfg)
    triples = _edges_of(db, typed, [p for name in chosen for p in cfg.layers[name].edges])
    if chapter is not None:
        chapter = resolve_chapter(db, chapter)  # a slug, a title or the IRI
        triples = _of_chapter(db, cfg, chapter, typed, triples)
    ids = sorted({x for s, _, o in triples for x in (s, o)})
    nodes = {i: Node(i, cfg.classes[typed[i]]) for i in ids}
    _describe(db, cfg, nodes)
    labels = _term_labels(db, {n.cls.iri for n in nodes.values()} | {p for _, p, _ in triples})
    _node_attributes(nodes, labels, store_base(db))
    edges = _edges(triples, nodes, labels)
    order = sorted(nodes.values(), key=lambda n: (typed[n.id], natural_key(n.id)))
    _one_type_per_attribute([n.attrs for n in order])
    _one_type_per_attribute([e.attrs for e in edges])
    return PropertyGraph(order, edges, chosen, chapter)


def _chosen_layers(cfg: GraphConfig, layers: Iterable[str]) -> list[str]:
    chosen = list(layers) or [name for name, layer in cfg.layers.items() if layer.default]
    unknown = [n for n in chosen if n not in cfg.layers]
    if unknown:
        raise KgError(
            f"no graph layer {', '.join(map(repr, unknown))} "
            f"(graph exports have: {', '.join(cfg.layers)}; see {cfg.path.name})"
        )
    return chosen


def _node_classes(db: object, cfg: GraphConfig) -> dict[str, int]:
    """Each resource's node class (its index in the config): the first listed class it has."""
    rank = {c.iri: i for i, c in enumerate(cfg.classes)}
    typed: dict[str, int] = {}
    for s, c in _select(db, f"SELECT DISTINCT ?s ?c WHERE {{ {_values('c', rank)} ?s a ?c }}"):
        if s.kind == "iri":
            i = rank[c.value]
            if s.value not in typed or i < typed[s.value]:
                typed[s.value] = i
    return typed


def _edges_of(db: object, typed: dict[str, int], props: Iterable[str]) -> list[Triple]:
    """The triples of these properties between two resources that are nodes."""
    props = list(props)
    if not props:
        return []
    q = f"SELECT DISTINCT ?s ?p ?o WHERE {{ {_values('p', props)} ?s ?p ?o FILTER(isIRI(?o)) }}"
    return [
        (s.value, p.value, o.value)
        for s, p, o in _select(db, q)
        if s.value in typed and o.value in typed
    ]


def _of_chapter(
    db: object, cfg: GraphConfig, chapter: str, typed: dict[str, int], triples: list[Triple]
) -> list[Triple]:
    """The triples that touch the chapter's members, or join two nodes next to them."""
    members = chapter_members(db, chapter, cfg.chapter_links)
    every = _edges_of(db, typed, {p for layer in cfg.layers.values() for p in layer.edges})
    touched = members | {x for s, _, o in every if s in members or o in members for x in (s, o)}
    return [
        t
        for t in triples
        if t[0] in members or t[2] in members or (t[0] in touched and t[2] in touched)
    ]


def _node_attributes(nodes: dict[str, Node], labels: dict[str, tuple[str, str]], base: str) -> None:
    """Every node's label, class (with its labels) and colour, before what _describe found."""
    for n in nodes.values():
        zh_cls, en_cls = labels.get(n.cls.iri, (n.cls.name, n.cls.name))
        n.attrs = {
            "iri": n.id,
            "label": str(n.attrs.get("label_zh") or n.attrs.get("label_en") or local_name(n.id)),
            "label_zh": n.attrs.get("label_zh", ""),
            "label_en": n.attrs.get("label_en") or f"{en_cls} {n.id.removeprefix(base)}",
            "class": n.cls.name,
            "class_zh": zh_cls,
            "class_en": en_cls,
            "colour": n.cls.colour,
            **{k: v for k, v in n.attrs.items() if k not in ("label_zh", "label_en")},
        }


def _edges(
    triples: list[Triple], nodes: dict[str, Node], labels: dict[str, tuple[str, str]]
) -> list[Edge]:
    """The edges, with their relation's labels and the source's edge attributes, sorted."""
    edges = []
    for s, p, o in triples:
        rel = local_name(p)
        zh_rel, en_rel = labels.get(p, (rel, rel))
        attrs: dict[str, Value] = {
            "relation": rel,
            "relation_zh": zh_rel,
            "relation_en": en_rel,
            "property": p,
        }
        src = nodes[s]
        for name, a in src.cls.edge_attributes.items():
            if a in src.attrs:
                attrs[name] = src.attrs[a]
        eid = "e" + hashlib.sha1(f"{s} {p} {o}".encode()).hexdigest()[:12]
        edges.append(Edge(eid, s, o, rel, attrs))
    edges.sort(key=lambda e: (natural_key(e.source), e.relation, natural_key(e.target)))
    return edges


def _one_type_per_attribute(records: list[dict[str, Value]]) -> None:
    """GraphML and GEXF declare one type per attribute: where values of one name differ in
    type (an integer here, two values joined as text there), make them all text.

    >>> recs = [{"order": 1}, {"order": "1; 2"}, {"title": "请射"}]
    >>> _one_type_per_attribute(recs); recs
    [{'order': '1'}, {'order': '1; 2'}, {'title': '请射'}]
    """
    kinds: dict[str, set[type]] = {}
    for rec in records:
        for k, v in rec.items():
            kinds.setdefault(k, set()).add(type(v))
    mixed = {k for k, types in kinds.items() if len(types) > 1}
    for rec in records:
        for k in mixed & rec.keys():
            rec[k] = str(rec[k])


def _describe(db: object, cfg: GraphConfig, nodes: dict[str, Node]) -> None:
    """Labels (中文 and English) and configured attributes of the nodes."""
    props = set(cfg.labels_zh) | set(cfg.labels_en)
    for c in cfg.classes:
        props |= set(c.attributes.values())
    found: dict[tuple[str, str], list[tuple[str, str, str | None]]] = {}
    for s, p, o in _select(db, f"SELECT ?s ?p ?o WHERE {{ {_values('p', props)} ?s ?p ?o }}"):
        if s.value in nodes:
            found.setdefault((s.value, p.value), []).append(o)
    for n in nodes.values():
        for lang_key, props_in_turn in (("label_zh", cfg.labels_zh), ("label_en", cfg.labels_en)):
            for p in props_in_turn:
                vals = [
                    c.value
                    for c in found.get((n.id, p), [])
                    if c.kind == "literal" and _is_lang(c.tag, lang_key == "label_en")
                ]
                if vals:
                    n.attrs[lang_key] = sorted(vals)[0]
                    break
        for name, p in n.cls.attributes.items():
            cells = found.get((n.id, p), [])
            if not cells:
                continue
            values = sorted({_literal(c) for c in cells}, key=str)
            n.attrs[name] = values[0] if len(values) == 1 else "; ".join(map(str, values))


def _is_lang(tag: str | None, english: bool) -> bool:
    """English labels are @en; 中文 labels are @lzh, @zh… or untagged strings."""
    if tag and ":" in tag:  # a datatype: a plain string counts as 中文 (titles, names)
        return not english and tag.endswith("#string")
    tag = (tag or "").lower()
    if english:
        return tag == _LABEL_EN or tag.startswith("en-")
    return tag in ("", "lzh", "zh") or tag.startswith(("zh-", "lzh-"))


def _term_labels(db: object, terms: set[str]) -> dict[str, tuple[str, str]]:
    """中文 and English labels of classes and properties, from the ontology."""
    if not terms:
        return {}
    q = f"SELECT ?t ?l WHERE {{ {_values('t', terms)} ?t rdfs:label ?l }}"
    zh: dict[str, str] = {}
    en: dict[str, str] = {}
    for t, lab in _select(db, q):
        into = en if _is_lang(lab.tag, True) else zh if _is_lang(lab.tag, False) else None
        if into is not None and (t.value not in into or lab.value < into[t.value]):
            into[t.value] = lab.value  # the smallest, whatever order the store answers in
    return {t: (zh.get(t, en.get(t, local_name(t))), en.get(t, local_name(t))) for t in terms}
