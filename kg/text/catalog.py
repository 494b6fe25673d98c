"""What readers need to know about the 仪礼: its chapter titles, rite categories and key terms.

Read from ``ontology/rites.ttl`` so that the titles a reader recognises and the rites the
graph describes are one list.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rdflib import RDF, Graph, Literal, URIRef
from rdflib.namespace import SKOS

from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir
from kg.text.normalize import normalize


@dataclass(frozen=True)
class Rite:
    slug: str
    iri: URIRef
    label: str
    order: int
    category: str | None  # slug of the category concept
    key_terms: tuple[str, ...]


@dataclass(frozen=True)
class Catalog:
    rites: dict[str, Rite]
    titles: dict[str, str]  # normalized title (pref or alt label) -> rite slug
    categories: dict[str, str]  # normalized label -> category slug

    def rite_for_title(self, text: str) -> str | None:
        return self.titles.get(normalize(text).strip())

    def category_for(self, text: str) -> str | None:
        return self.categories.get(normalize(text).strip())


def _slug(iri: URIRef) -> str:
    return str(iri).rstrip("/").rsplit("/", 1)[-1]


@lru_cache(maxsize=4)
def load_catalog(path: Path | None = None) -> Catalog:
    g = Graph()
    g.parse(path or ontology_dir() / "rites.ttl", format="turtle")
    rites: dict[str, Rite] = {}
    titles: dict[str, str] = {}
    for iri in g.subjects(RDF.type, LJ.Rite):
        slug = str(g.value(iri, LJ.slug) or _slug(iri))
        label = str(g.value(iri, SKOS.prefLabel))
        cat = g.value(iri, LJ.category)
        order = g.value(iri, LJ.order)
        terms = tuple(sorted(normalize(str(t)) for t in g.objects(iri, LJ.keyTerm)))
        rites[slug] = Rite(
            slug=slug,
            iri=URIRef(iri),
            label=label,
            order=int(order) if isinstance(order, Literal) else 0,
            category=_slug(cat) if cat else None,
            key_terms=terms,
        )
        for lab in (*g.objects(iri, SKOS.prefLabel), *g.objects(iri, SKOS.altLabel)):
            titles[normalize(str(lab))] = slug
    categories = {
        normalize(str(lab)): _slug(c)
        for c in g.subjects(RDF.type, LJ.RiteCategory)
        for lab in (*g.objects(c, SKOS.prefLabel), *g.objects(c, SKOS.altLabel))
    }
    return Catalog(rites=rites, titles=titles, categories=categories)
