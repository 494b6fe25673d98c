"""``kg docs``: an HTML reference of the ontology and its vocabularies.

``render_docs(store, out_dir)`` writes ``ontology.html`` — one self-contained page (styles
and the diagram inline, so it can be served as is at the ontology IRI, where ``#Passage``
jumps to the class) — with the files it links to beside it: ``core.svg`` (the diagram),
``ontology.ttl``, ``shapes.ttl`` and ``context.jsonld``. The page has every class and
property (labels in 中文 and English, definition, domain and range, super- and subclasses,
the SHACL constraints on a class), the alignment axioms to CIDOC-CRM, PROV-O, SKOS and FOAF,
every vocabulary concept, and from the store (when given) instance counts and a few
instances of each class and triples of each property.

pyLODE was tried first (3.3.4; 3.4.1 does not import): it renders the ontology offline, but
runs each 中文/English label pair together (“文本单位Text unit”), lists the aligned external
classes as if they were ours, and has no place for the SKOS vocabularies, data examples or a
diagram; hence these templates.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from rdflib import Graph

from kg.docs.diagram import core_svg
from kg.docs.reference import gather, load_layout
from kg.errors import KgError
from kg.resources import ontology_dir

TEMPLATES = Path(__file__).with_name("templates")
PAGE = "ontology.html"


def default_docs_dir(store: Path) -> Path:
    """``docs/`` beside the store (``.kg/docs`` for the default store), where ``kg serve``
    looks for it."""
    return Path(store).parent / "docs"


def _graphs(db: object | None) -> tuple[Graph, Graph]:
    """The ontology and the vocabularies: the store's own graphs, else ontology/ files."""
    onto, vocab = Graph(), Graph()
    if db is not None:
        from kg.store import dump, graph_counts, store_base

        base = store_base(db)  # type: ignore[arg-type]
        graphs = graph_counts(db)  # type: ignore[arg-type]
        for g, name in ((onto, "ontology"), (vocab, "vocabularies")):
            iri = f"{base}graph/{name}"
            if iri in graphs:
                g.parse(data=dump(db, "nquads", iri), format="nt")  # type: ignore[arg-type]
    if not len(onto):
        onto.parse(ontology_dir() / "lijing.ttl", format="turtle")
    if not len(vocab):
        from kg.text.vocab import vocabulary_files

        for f in vocabulary_files():
            vocab.parse(f, format="turtle")
    return onto, vocab


def render_docs(store: object | Path | None, out_dir: Path) -> Path:
    """Write the reference into ``out_dir``; return the path of ``ontology.html``.

    ``store`` is an open store, a store path, or None (the ontology files only: no counts
    or examples)."""
    db = store
    if isinstance(store, str | Path):
        from kg.store import open_store

        db = open_store(Path(store))
    onto, vocab = _graphs(db)
    shapes = Graph().parse(ontology_dir() / "shapes.ttl", format="turtle")
    docs = gather(onto, vocab, shapes, db)
    svg = core_svg(onto, load_layout()["diagram"])
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    html = env.get_template("ontology.html.j2").render(
        docs=docs,
        svg=svg,
        css=(TEMPLATES / "style.css").read_text(encoding="utf-8"),
        generated=datetime.now(UTC).strftime("%Y-%m-%d"),
    )
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "core.svg").write_text(svg, encoding="utf-8")
        for source, name in (
            ("lijing.ttl", "ontology.ttl"),
            ("shapes.ttl", "shapes.ttl"),
            ("context.jsonld", "context.jsonld"),
        ):
            shutil.copyfile(ontology_dir() / source, out_dir / name)
        page = out_dir / PAGE
        tmp = out_dir / f".{PAGE}.part"
        tmp.write_text(html, encoding="utf-8")
        tmp.replace(page)
    except OSError as e:
        raise KgError(f"{out_dir}: cannot write the documentation: {e.strerror or e}") from None
    return page
