"""Light RDF terms for emission: IRIs are rdflib URIRefs (plain str subclasses), literals
this NamedTuple — millions of them cost little; kg.store makes Oxigraph terms of them."""

from __future__ import annotations

from typing import NamedTuple

from rdflib import URIRef
from rdflib.namespace import XSD

LZH = "lzh"


class Lit(NamedTuple):
    value: str
    lang: str | None = None
    datatype: str | None = None


Term = URIRef | Lit
Quad = tuple[URIRef, URIRef, Term, URIRef]


def zh(text: str) -> Lit:
    return Lit(text, LZH)


def en(text: str) -> Lit:
    return Lit(text, "en")


def integer(n: int) -> Lit:
    return Lit(str(n), None, str(XSD.integer))


def boolean(b: bool) -> Lit:
    return Lit("true" if b else "false", None, str(XSD.boolean))
