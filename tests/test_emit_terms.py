"""The emitter's fast paths (issue 19) give the terms and text the slow ones gave."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rdflib import RDF, RDFS, URIRef
from rdflib.namespace import DCTERMS, SKOS, XSD

from kg.rdf.iris import Minter
from kg.rdf.namespaces import LJ
from kg.rdf.terms import Lit, boolean, integer, iri
from kg.store import to_nquads


def test_namespace_terms_are_the_urirefs_rdflib_makes() -> None:
    for ns, name in [(LJ, "Passage"), (RDF, "type"), (RDFS, "label"), (DCTERMS, "isPartOf")]:
        term = getattr(ns, name)
        assert type(term) is URIRef
        assert term == ns[name] and str(term) == str(ns._NS) + name
    assert SKOS.prefLabel == URIRef("http://www.w3.org/2004/02/skos/core#prefLabel")
    with pytest.raises(AttributeError):
        LJ.NoSuchTerm  # noqa: B018 — the closed namespace still refuses a typo


def test_minted_iris_are_urirefs_under_the_base() -> None:
    m = Minter("https://example.org/id")
    assert iri("https://example.org/x") == URIRef("https://example.org/x")
    assert type(m.iri("a/b")) is URIRef and str(m.iri("a/b")) == "https://example.org/id/a/b"
    moved = m.vocab("https://w3id.org/lijing/id/role/zhuren")
    assert str(moved) == "https://example.org/id/role/zhuren" and type(moved) is URIRef
    assert m.vocab("https://w3id.org/lijing/id/role/zhuren") is moved  # cached
    assert str(m.vocab("http://other.org/x")) == "http://other.org/x"


def test_typed_literals() -> None:
    assert integer(3) == Lit("3", None, str(XSD.integer))
    assert boolean(True) == Lit("true", None, str(XSD.boolean))
    assert boolean(False) == Lit("false", None, str(XSD.boolean))


@given(st.text(), st.sampled_from([None, "lzh", "en"]), st.booleans())
def test_nquads_text_parses_back_to_the_same_literal(
    value: str, lang: str | None, typed: bool
) -> None:
    value = "".join(c for c in value if not 0xD800 <= ord(c) <= 0xDFFF)
    datatype = str(XSD.integer) if typed and lang is None else None
    lit = Lit(value, lang, datatype)
    quads = [
        ("http://s", "http://p", lit, "http://g"),
        ("http://s", "http://p", "http://o", "http://g"),
    ]
    parsed = list(ox.parse(to_nquads(quads), format=ox.RdfFormat.N_QUADS))
    assert parsed[1].object == ox.NamedNode("http://o")
    obj = parsed[0].object
    assert obj.value == value and obj.language == lang
    if datatype:
        assert obj.datatype == ox.NamedNode(datatype)
