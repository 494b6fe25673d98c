"""``kg validate``: is the built graph well-formed? Four checks, each a plain function.

1. **SHACL** — ``ontology/shapes.ttl`` over the union of the named graphs, with pySHACL.
   Its SPARQL-based constraints (evidence spans, an act behind every derived relation) run
   as one query each over the whole graph, joined with the shape's targets, instead of one
   query per focus node (which takes rdflib about a minute on the seeds); results are the same.
2. **terms** — every class and property the data uses is declared in the ontology or is a
   term of a known vocabulary (rdf, rdfs, owl, xsd, skos, dcterms, prov, foaf; crm E…/P…).
3. **ontology** — every lj: term the ontology mentions is declared, labelled in 中文 and
   English and defined; every other term it points to (superclass, domain, range) is declared
   and labelled, or is a known datatype.
4. **OWL RL** — owlrl's closure of the ontology, the vocabularies and a sample of the data
   (the first ``sample`` instances of each class, by IRI) has no inconsistency. owlrl is slow
   (about 10 s for the ontology and vocabularies alone), hence the sample; the report says
   how big it was.

Violations fail the graph; warnings (sh:Warning) are reported only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import OWL, RDF, RDFS, XSD, BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, FOAF, PROV, SH, SKOS
from rdflib.term import Node

from kg.rdf.namespaces import LJ, SHAPES
from kg.resources import ontology_dir

SHAPES_FILE = "shapes.ttl"
CHECKS = Namespace(f"{SHAPES}check-")
_ERROR = URIRef("http://www.daml.org/2002/03/agents/agent-ont#error")
_CLOSED = (RDF, RDFS, OWL, XSD, SKOS, DCTERMS, PROV, FOAF)
_CRM = "http://www.cidoc-crm.org/cidoc-crm/"
_CRM_TERM = re.compile(r"^[EP]\d+i?_\w+$")
_DECLARING = {
    OWL.Class,
    RDFS.Class,
    OWL.ObjectProperty,
    OWL.DatatypeProperty,
    OWL.AnnotationProperty,
    RDF.Property,
    RDFS.Datatype,
}
VIOLATION, WARNING = "Violation", "Warning"


@dataclass
class Finding:
    message: str
    focus: str | None = None
    path: str | None = None
    value: str | None = None
    shape: str | None = None
    severity: str = VIOLATION


@dataclass
class CheckResult:
    name: str  # shacl | terms | ontology | owlrl
    summary: str
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    skipped: bool = False

    @property
    def violations(self) -> int:
        return sum(1 for f in self.findings if f.severity == VIOLATION)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == WARNING)

    @property
    def ok(self) -> bool:
        return self.violations == 0


@dataclass
class ValidationReport:
    checks: list[CheckResult]
    triples: int
    graphs: int = 0

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def violations(self) -> int:
        return sum(c.violations for c in self.checks)

    @property
    def warnings(self) -> int:
        return sum(c.warnings for c in self.checks)

    def to_graph(self) -> Graph:
        """The report as a SHACL validation report (the non-SHACL checks' findings too,
        with ``sh:sourceShape`` naming the check)."""
        g = Graph()
        g.bind("sh", SH)
        g.bind("lj", LJ._NS)
        report = BNode()
        g.add((report, RDF.type, SH.ValidationReport))
        g.add((report, SH.conforms, Literal(self.ok)))
        for check in self.checks:
            for f in check.findings:
                r = BNode()
                g.add((report, SH.result, r))
                g.add((r, RDF.type, SH.ValidationResult))
                g.add((r, SH.resultSeverity, SH[f.severity]))
                g.add((r, SH.resultMessage, Literal(f.message)))
                g.add((r, SH.sourceShape, URIRef(f.shape) if f.shape else CHECKS[check.name]))
                if f.focus:
                    g.add((r, SH.focusNode, _node(f.focus)))
                if f.path:
                    g.add((r, SH.resultPath, _node(f.path)))
                if f.value is not None:
                    g.add((r, SH.value, _node(f.value)))
        return g


def _node(text: str) -> Node:
    return URIRef(text) if re.match(r"^[a-z][a-z0-9+.-]*:", text) else Literal(text)


# -- inputs -----------------------------------------------------------------------------------


def load_shapes(path: Path | None = None) -> Graph:
    g = Graph()
    g.parse(path or ontology_dir() / SHAPES_FILE, format="turtle")
    return g


def load_ontology(path: Path | None = None) -> Graph:
    g = Graph()
    g.parse(path or ontology_dir() / "lijing.ttl", format="turtle")
    return g


def store_graphs(db: object) -> tuple[Graph, Graph | None, int]:
    """The union of the store's named graphs, its ontology graph (None if it has none) and
    the number of named graphs."""
    from kg.store import dump, store_base

    text = dump(db, "nquads").decode("utf-8")  # type: ignore[arg-type]
    onto_iri = f"<{store_base(db)}graph/ontology>"  # type: ignore[arg-type]
    union, onto = [], []
    graphs: set[str] = set()
    for line in text.splitlines():
        triple, graph, _ = line.rsplit(" ", 2)
        union.append(triple + " .")
        graphs.add(graph)
        if graph == onto_iri:
            onto.append(triple + " .")
    data = Graph()
    data.parse(data="\n".join(union) + "\n", format="nt")
    ontology = None
    if onto:
        ontology = Graph()
        ontology.parse(data="\n".join(onto) + "\n", format="nt")
    return data, ontology, len(graphs)


# -- 1. SHACL ---------------------------------------------------------------------------------


@dataclass
class SparqlConstraint:
    shape: URIRef
    message: str
    query: str  # SELECT ?this ?value … over the whole graph, targets joined in
    path: Node | None
    severity: str


def split_shapes(shapes: Graph) -> tuple[Graph, list[SparqlConstraint]]:
    """The shapes without their SPARQL constraints, and those constraints as whole-graph
    queries: ``$this`` becomes ``?this``, bound by the shape's targets."""
    core = Graph()
    for t in shapes:
        core.add(t)
    out = []
    for shape, constraint in list(shapes.subject_objects(SH.sparql)):
        core.remove((shape, SH.sparql, constraint))
        select = str(shapes.value(constraint, SH.select))
        prefixes = "".join(
            f"PREFIX {shapes.value(d, SH.prefix)}: <{shapes.value(d, SH.namespace)}>\n"
            for decl in shapes.objects(constraint, SH.prefixes)
            for d in shapes.objects(decl, SH.declare)
        )
        target = _target_pattern(shapes, shape)
        body = re.sub(r"\$this\b", "?this", select)
        body = re.sub(r"\bWHERE\s*\{", lambda m, t=target: m.group(0) + " " + t, body, count=1)
        body = re.sub(r"^\s*SELECT\s+", "SELECT DISTINCT ", body, count=1, flags=re.I)
        message = shapes.value(constraint, SH.message) or shapes.value(shape, SH.message)
        severity = shapes.value(shape, SH.severity) or SH.Violation
        out.append(
            SparqlConstraint(
                shape=URIRef(shape),
                message=str(message or f"{shape} SPARQL constraint"),
                query=prefixes + body,
                path=shapes.value(shape, SH.path),
                severity=str(severity).rsplit("#", 1)[-1],
            )
        )
    return core, sorted(out, key=lambda c: str(c.shape))


def _target_pattern(shapes: Graph, shape: Node) -> str:
    parts = []
    classes = sorted(shapes.objects(shape, SH.targetClass))
    if classes or (shape, RDF.type, RDFS.Class) in shapes:
        classes = classes or [shape]
        values = " ".join(f"<{c}>" for c in classes)
        parts.append(
            f"{{ VALUES ?targetClass__ {{ {values} }} "
            f"?this a/<{RDFS.subClassOf}>* ?targetClass__ }}"
        )
    for p in sorted(shapes.objects(shape, SH.targetSubjectsOf)):
        parts.append(f"{{ SELECT DISTINCT ?this WHERE {{ ?this <{p}> ?any__ }} }}")
    for p in sorted(shapes.objects(shape, SH.targetObjectsOf)):
        parts.append(f"{{ SELECT DISTINCT ?this WHERE {{ ?any__ <{p}> ?this }} }}")
    for n in sorted(shapes.objects(shape, SH.targetNode)):
        parts.append(f"{{ VALUES ?this {{ {n.n3()} }} }}")
    if not parts:
        return "FILTER(false) "
    return " UNION ".join(parts) + " "


Query = Callable[[str], Iterable[tuple[str | None, str | None]]]
Progress = Callable[[str, int, int], None]  # (what now, steps done, steps)


def rdflib_query(data: Graph) -> Query:
    def run(sparql: str) -> Iterable[tuple[str | None, str | None]]:
        for row in data.query(sparql):
            yield (
                str(row[0]) if row[0] is not None else None,  # type: ignore[index]
                str(row[1]) if row[1] is not None else None,
            )  # type: ignore[index]

    return run


def store_query(db: object) -> Query:
    """Run the constraint queries in Oxigraph (much faster than rdflib on a large graph)."""
    from kg.store import rows, run_query

    def run(sparql: str) -> Iterable[tuple[str | None, str | None]]:
        _, body = rows(run_query(db, sparql))  # type: ignore[arg-type]
        for r in body:
            first, second = r[0], r[1] if len(r) > 1 else None
            yield (first.value if first else None, second.value if second else None)

    return run


def check_shacl(data: Graph, shapes: Graph, query: Query | None = None) -> CheckResult:
    """pySHACL over ``data`` (which should hold the ontology: targets follow subClassOf)."""
    from pyshacl import validate

    started = time.perf_counter()
    core, sparql = split_shapes(shapes)
    _, results, _ = validate(
        data, shacl_graph=core, inference="none", allow_warnings=True, advanced=False
    )
    findings = [
        _finding(results, shapes, r) for r in results.subjects(RDF.type, SH.ValidationResult)
    ]
    run = query or rdflib_query(data)
    for c in sparql:
        for focus, value in run(c.query):
            findings.append(
                Finding(
                    c.message,
                    focus,
                    str(c.path) if c.path else None,
                    value,
                    str(c.shape),
                    c.severity,
                )
            )
    findings.sort(
        key=lambda f: (f.severity != VIOLATION, f.shape or "", f.path or "", f.focus or "")
    )
    n_shapes = len(set(shapes.subjects(RDF.type, SH.NodeShape)))
    v = sum(1 for f in findings if f.severity == VIOLATION)
    w = len(findings) - v
    summary = f"{n_shapes} node shapes over {len(data):,} triples: {v:,} violations, {w:,} warnings"
    return CheckResult("shacl", summary, findings, time.perf_counter() - started)


def _finding(results: Graph, shapes: Graph, r: Node) -> Finding:
    def text(p: URIRef) -> str | None:
        v = results.value(r, p)
        return str(v) if v is not None and not isinstance(v, BNode) else None

    shape = results.value(r, SH.sourceShape)
    if isinstance(shape, BNode):  # an inline property shape: name the node shape holding it
        shape = shapes.value(None, SH.property, shape) or shape
    path = results.value(r, SH.resultPath)
    return Finding(
        message=text(SH.resultMessage) or "constraint not met",
        focus=text(SH.focusNode),
        path=_path_text(results, path),
        value=text(SH.value),
        shape=str(shape) if isinstance(shape, URIRef) else None,
        severity=str(results.value(r, SH.resultSeverity) or SH.Violation).rsplit("#", 1)[-1],
    )


def _path_text(g: Graph, path: Node | None) -> str | None:
    if path is None:
        return None
    if isinstance(path, BNode):
        inv = g.value(path, SH.inversePath)
        return f"^{inv}" if inv is not None else None
    return str(path)


# -- 2. terms the data uses -------------------------------------------------------------------


def declared(ontology: Graph) -> set[URIRef]:
    return {
        s
        for s, _, t in ontology.triples((None, RDF.type, None))
        if isinstance(s, URIRef) and t in _DECLARING
    }


def known_term(term: URIRef) -> bool:
    """A term of a known external vocabulary (closed rdflib namespaces, or a CRM E/P term)."""
    if str(term).startswith(_CRM):
        return bool(_CRM_TERM.match(str(term)[len(_CRM) :]))
    return any(str(term).startswith(str(ns._NS)) and term in ns for ns in _CLOSED)


def check_terms(data: Graph, ontology: Graph) -> CheckResult:
    started = time.perf_counter()
    decl = declared(ontology)
    onto_triples = set(ontology)
    classes: set[URIRef] = set()
    props: set[URIRef] = set()
    for t in data:
        if t in onto_triples:
            continue  # the ontology's own terms are the next check's business
        _, p, o = t
        props.add(p)  # type: ignore[arg-type]
        if p == RDF.type and isinstance(o, URIRef):
            classes.add(o)
    findings = []
    for kind, terms in (("class", classes), ("property", props)):
        for term in sorted(terms):
            if term in decl:
                continue
            if str(term).startswith(str(LJ._NS)) or not known_term(term):
                where = "the lj: ontology" if str(term).startswith(str(LJ._NS)) else "the ontology"
                findings.append(
                    Finding(
                        f"{kind} used in the data but not declared in {where} "
                        "nor a term of a known vocabulary",
                        focus=str(term),
                    )
                )
    summary = f"{len(classes)} classes and {len(props)} properties used in the data: " + (
        "all declared" if not findings else f"{len(findings)} undeclared"
    )
    return CheckResult("terms", summary, findings, time.perf_counter() - started)


# -- 3. the ontology's own terms --------------------------------------------------------------

_POINTERS = (
    RDFS.subClassOf,
    RDFS.subPropertyOf,
    RDFS.domain,
    RDFS.range,
    OWL.inverseOf,
    OWL.disjointWith,
    OWL.equivalentClass,
    OWL.equivalentProperty,
)


def check_ontology(ontology: Graph) -> CheckResult:
    started = time.perf_counter()
    decl = declared(ontology)
    ns = str(LJ._NS)
    findings: list[Finding] = []
    mentioned = {
        t for triple in ontology for t in triple if isinstance(t, URIRef) and str(t).startswith(ns)
    }
    for term in sorted(mentioned):
        if term not in decl:
            findings.append(Finding("lj: term used in the ontology but not declared", str(term)))
            continue
        langs = {
            lab.language for lab in ontology.objects(term, RDFS.label) if isinstance(lab, Literal)
        }
        for lang in ("lzh", "en"):
            if lang not in langs:
                findings.append(Finding(f"no rdfs:label @{lang}", str(term), str(RDFS.label)))
        if ontology.value(term, SKOS.definition) is None:
            findings.append(Finding("no skos:definition", str(term), str(SKOS.definition)))
    external = {
        o
        for p in _POINTERS
        for o in ontology.objects(None, p)
        if isinstance(o, URIRef) and not str(o).startswith(ns)
    }
    for term in sorted(external):
        if term in decl:
            if ontology.value(term, RDFS.label) is None:
                findings.append(Finding("external term without an rdfs:label", str(term)))
        elif not (known_term(term) and (str(term).startswith(str(XSD)) or term == RDF.langString)):
            findings.append(
                Finding("external term the ontology points to is not declared", str(term))
            )
    summary = f"{len(mentioned & decl)} lj: terms and {len(external)} external terms: " + (
        "all declared, labelled and defined" if not findings else f"{len(findings)} problems"
    )
    return CheckResult("ontology", summary, findings, time.perf_counter() - started)


# -- 4. OWL RL --------------------------------------------------------------------------------


def owl_sample(data: Graph, ontology: Graph, per_class: int) -> Graph:
    """The ontology, the vocabularies (concepts, schemes) and the triples of the first
    ``per_class`` instances (by IRI) of every other class."""
    g = Graph()
    g += ontology
    vocab = {SKOS.Concept, SKOS.ConceptScheme}
    onto_triples = set(ontology)
    by_class: dict[Node, list[Node]] = {}
    keep: set[Node] = set()
    for s, _, c in data.triples((None, RDF.type, None)):
        if (s, RDF.type, c) in onto_triples:
            continue
        if c in vocab:
            keep.add(s)
        else:
            by_class.setdefault(c, []).append(s)
    for members in by_class.values():
        keep.update(sorted(set(members), key=str)[:per_class])
    for s in keep:
        for p, o in data.predicate_objects(s):
            g.add((s, p, o))
    return g


def check_owlrl(data: Graph, ontology: Graph, per_class: int = 25) -> CheckResult:
    if per_class <= 0:
        return CheckResult("owlrl", "skipped (--owl-sample 0)", skipped=True)
    import owlrl

    started = time.perf_counter()
    g = owl_sample(data, ontology, per_class)
    before = len(g)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(g)
    errors = sorted(str(m) for m in g.objects(None, _ERROR))
    findings = [Finding(f"OWL RL inconsistency: {' '.join(e.split())}") for e in errors]
    summary = (
        f"closure of the ontology, the vocabularies and up to {per_class} instances per class "
        f"({before:,} triples; {len(g):,} after closure): "
        + ("consistent" if not errors else f"{len(errors)} inconsistencies found")
    )
    return CheckResult("owlrl", summary, findings, time.perf_counter() - started)


# -- all of it --------------------------------------------------------------------------------


def validate_graph(
    data: Graph,
    ontology: Graph | None = None,
    shapes: Graph | None = None,
    *,
    owl_sample_size: int = 25,
    query: Query | None = None,
    graphs: int = 0,
    progress: Progress | None = None,
) -> ValidationReport:
    """Run the four checks over an rdflib graph (the union of the named graphs);
    ``progress(step, done, total)`` is told before each one (they take seconds each)."""
    ontology = ontology if ontology is not None else load_ontology()
    shapes = shapes if shapes is not None else load_shapes()
    steps: list[tuple[str, Callable[[], CheckResult]]] = [
        ("SHACL shapes", lambda: check_shacl(data, shapes, query)),
        ("declared terms", lambda: check_terms(data, ontology)),
        ("the ontology", lambda: check_ontology(ontology)),
        ("OWL RL", lambda: check_owlrl(data, ontology, owl_sample_size)),
    ]
    checks = []
    for i, (what, run) in enumerate(steps):
        if progress:
            progress(f"checking {what}", i, len(steps))
        checks.append(run())
    if progress:
        progress("done", len(steps), len(steps))
    return ValidationReport(checks, len(data), graphs)


def validate_store(
    db: object, *, owl_sample_size: int = 25, progress: Progress | None = None
) -> ValidationReport:
    """Run the four checks over a built store (its own ontology graph, if it has one)."""
    if progress:
        progress("reading the store", 0, 4)
    data, ontology, graphs = store_graphs(db)
    return validate_graph(
        data,
        ontology,
        owl_sample_size=owl_sample_size,
        query=store_query(db),
        graphs=graphs,
        progress=progress,
    )
