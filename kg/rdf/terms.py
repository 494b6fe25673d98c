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


def iri(value: str) -> URIRef:
    """A URIRef without rdflib's per-call scan for characters IRIs may not hold: the build
    mints millions, and Oxigraph's N-Quads parser (kg.store) rejects a bad one anyway."""
    return str.__new__(URIRef, value)


def zh(text: str) -> Lit:
    return Lit(text, LZH)


def en(text: str) -> Lit:
    return Lit(text, "en")


_INTEGER, _BOOLEAN = str(XSD.integer), str(XSD.boolean)
_TRUE, _FALSE = Lit("true", None, _BOOLEAN), Lit("false", None, _BOOLEAN)


def integer(n: int) -> Lit:
    return Lit(str(n), None, _INTEGER)


def boolean(b: bool) -> Lit:
    return _TRUE if b else _FALSE
