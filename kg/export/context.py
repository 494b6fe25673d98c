"""The published JSON-LD ``@context`` (``ontology/context.jsonld``), derived from the ontology.

Every lj: class and property gets its local name as a term; object properties are coerced to
IRIs, datatype properties whose range is an XSD type to that type; a few terms of other
vocabularies get short names too (``kg/export/context.toml``). A test keeps the file equal to
what this module derives, so the context cannot lag the ontology. Regenerate it with
``python -m kg.export.context``.

>>> ctx = derive_context()["@context"]
>>> ctx["Passage"], ctx["commentsOn"]
('lj:Passage', {'@id': 'lj:commentsOn', '@type': '@id'})
>>> ctx["order"]
{'@id': 'lj:order', '@type': 'xsd:integer'}
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from rdflib import OWL, RDF, RDFS, XSD, Graph, URIRef

from kg.rdf.namespaces import DEFAULT_BASE, LJ
from kg.rdf.prefixes import PREFIXES, curie
from kg.resources import ontology_dir

CONTEXT_FILE = "context.jsonld"
_EXTERNAL = Path(__file__).with_name("context.toml")


def context_path() -> Path:
    return ontology_dir() / CONTEXT_FILE


def load_context() -> dict[str, Any]:
    """The published context document (``{"@context": {...}}``)."""
    return json.loads(context_path().read_text(encoding="utf-8"))


def derive_context(ontology: Graph | None = None) -> dict[str, Any]:
    """The context document the ontology implies (see the module docstring)."""
    if ontology is None:
        ontology = Graph()
        ontology.parse(ontology_dir() / "lijing.ttl", format="turtle")
    ns = str(LJ._NS)
    terms: dict[str, Any] = {}
    for s in set(ontology.subjects(RDF.type, None)):
        if not isinstance(s, URIRef) or not str(s).startswith(ns):
            continue
        name = str(s)[len(ns) :]
        types = set(ontology.objects(s, RDF.type))
        if OWL.ObjectProperty in types:
            terms[name] = {"@id": curie(str(s)), "@type": "@id"}
        elif OWL.DatatypeProperty in types:
            rng = ontology.value(s, RDFS.range)
            if rng is not None and str(rng).startswith(str(XSD)) and rng != XSD.string:
                terms[name] = {"@id": curie(str(s)), "@type": curie(str(rng))}
            else:
                terms[name] = curie(str(s))
        else:
            terms[name] = curie(str(s))
    external = tomllib.loads(_EXTERNAL.read_text(encoding="utf-8"))["terms"]
    for name, spec in external.items():
        if name in terms:
            raise ValueError(f"{_EXTERNAL}: term {name!r} clashes with lj:{name}")
        terms[name] = spec if isinstance(spec, str) else {"@id": spec["id"], "@type": spec["type"]}
    ctx: dict[str, Any] = {"@version": 1.1, **PREFIXES, "ljd": DEFAULT_BASE}
    for name in sorted(terms, key=lambda n: (n.lower(), n)):
        ctx[name] = terms[name]
    return {"@context": ctx}


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def main() -> None:  # pragma: no cover - a maintainer's tool
    """Write the derived context to ontology/context.jsonld (or stdout with ``-``)."""
    text = render(derive_context())
    if sys.argv[1:] == ["-"]:
        sys.stdout.write(text)
    else:
        context_path().write_text(text, encoding="utf-8")
        print(f"wrote {context_path()}")


if __name__ == "__main__":  # pragma: no cover
    main()
