"""The prefixes queries, dumps and pages use, and IRIs written with them.

>>> curie("https://w3id.org/lijing/ontology#RitualAct")
'lj:RitualAct'
>>> curie("https://w3id.org/lijing/id/role/sishe", data_prefixes("https://w3id.org/lijing/id/"))
'role:sishe'
>>> curie("http://example.org/x")
'http://example.org/x'
>>> sparql_term("https://w3id.org/lijing/id/xiangsheli/s1", data_prefixes("https://w3id.org/lijing/id/"))
'<https://w3id.org/lijing/id/xiangsheli/s1>'
>>> sparql_term("https://w3id.org/lijing/id/role/sishe", data_prefixes("https://w3id.org/lijing/id/"))
'role:sishe'
"""

from __future__ import annotations

import re

from kg.rdf.namespaces import LJ

PREFIXES = {
    "lj": str(LJ),
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "crm": "http://www.cidoc-crm.org/cidoc-crm/",
}
DATA_PREFIXES = ("rite", "person", "role", "object", "place", "action", "work", "graph", "source")


def data_prefixes(base: str) -> dict[str, str]:
    """Prefixes for data IRIs under a base (ljd: for text units, one per vocabulary)."""
    return {"ljd": base, **{name: f"{base}{name}/" for name in DATA_PREFIXES}}


def curie(iri: str, prefixes: dict[str, str] | None = None, bare: bool = True) -> str:
    """``iri`` as prefix:name with the longest namespace that fits (``PREFIXES`` unless
    given), or as it is. ``bare=False``: a namespace alone stays a full IRI."""
    table = PREFIXES if prefixes is None else prefixes
    fits = [(ns, p) for p, ns in table.items() if iri.startswith(ns) and (bare or iri != ns)]
    if not fits:
        return iri
    ns, prefix = max(fits, key=lambda f: len(f[0]))
    return f"{prefix}:{iri[len(ns) :]}"


# a local name SPARQL reads without escapes (PN_LOCAL, less its \-escapes and %-codes)
_CHARS = "A-Za-z0-9_\u00b7\u00c0-\ufffd"
_LOCAL = re.compile(rf"(?:[{_CHARS}:](?:[{_CHARS}:.-]*[{_CHARS}:-])?)?")


def sparql_term(iri: str, prefixes: dict[str, str] | None = None) -> str:
    """``iri`` as a prefixed name where that is valid SPARQL and Turtle, else ``<iri>``:
    what a person can paste back into a query (``ljd:a/b`` is neither)."""
    short = curie(iri, prefixes)
    if short != iri and _LOCAL.fullmatch(short.partition(":")[2]):
        return short
    return f"<{iri}>"
