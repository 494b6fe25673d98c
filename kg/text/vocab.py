"""SKOS vocabularies in ``ontology/*.ttl`` as plain lookups for the extractors.

>>> people = load_concepts("commentators.ttl")
>>> people["zhengxuan"].pref
'郑玄'
>>> "郑康成" in people["zhengxuan"].forms
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rdflib import RDF, Graph, Literal, URIRef
from rdflib.namespace import RDFS, SKOS

from kg.resources import ontology_dir
from kg.text.catalog import LJ
from kg.text.normalize import normalize

# ontology/ files that are not vocabularies (loaded into their own graphs)
NOT_VOCABULARIES = {"lijing.ttl", "shapes.ttl"}


@dataclass(frozen=True)
class Concept:
    iri: URIRef
    slug: str
    kind: URIRef  # lj:Role, lj:Commentator …
    pref: str  # normalized prefLabel
    forms: frozenset[str]  # normalized pref + alt labels
    english: str | None
    is_author: bool = False
    ambiguous: bool = False


def vocabulary_files() -> list:
    return sorted(p for p in ontology_dir().glob("*.ttl") if p.name not in NOT_VOCABULARIES)


@lru_cache(maxsize=16)
def load_concepts(filename: str) -> dict[str, Concept]:
    """Concepts of one vocabulary file, by slug (the last path segment of the IRI)."""
    g = Graph()
    g.parse(ontology_dir() / filename, format="turtle")
    out: dict[str, Concept] = {}
    for iri in set(g.subjects(SKOS.prefLabel, None)):
        if (iri, RDF.type, SKOS.ConceptScheme) in g:
            continue
        pref = g.value(iri, SKOS.prefLabel)
        forms = {normalize(str(x)) for x in g.objects(iri, SKOS.altLabel)}
        forms.add(normalize(str(pref)))
        english = next(
            (
                str(x)
                for x in g.objects(iri, RDFS.label)
                if isinstance(x, Literal) and x.language == "en"
            ),
            None,
        )
        # a compound place is also an lj:Position (户东: 户 + 东); its kind is still lj:Place
        kinds = sorted(k for k in g.objects(iri, RDF.type) if k not in (SKOS.Concept, LJ.Position))
        slug = str(iri).rstrip("/").rsplit("/", 1)[-1]
        out[slug] = Concept(
            iri=URIRef(iri),
            slug=slug,
            kind=URIRef(kinds[0]) if kinds else SKOS.Concept,
            pref=normalize(str(pref)),
            forms=frozenset(forms),
            english=english,
            is_author=(iri, LJ.isAuthor, Literal(True)) in g,
            ambiguous=(iri, LJ.ambiguous, Literal(True)) in g,
        )
    return out
