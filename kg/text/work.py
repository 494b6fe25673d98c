"""The book this graph is of, as ``ontology/`` describes it: its title (``works.ttl``) and
its author (the commentator with ``lj:isAuthor true`` in ``commentators.ttl``).

>>> work = load_work()
>>> work.title, work.author.slug, work.author.english
('礼经本义', 'caidejin', 'Cai Dejin')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from kg.errors import KgError
from kg.text.vocab import Concept, load_concepts

SLUG = "lijingbenyi"  # the book's entry in works.ttl, and its IRI in the data (kg.rdf.iris)
# The English label the data gives the book; works.ttl's is the translation alone
# ("Original Meaning of the Ritual Classic"), and the graph states both as they are.
ENGLISH_LABEL = "Lijing benyi (The Original Meaning of the Classic of Rites)"


@dataclass(frozen=True)
class Work:
    title: str  # the preferred label, 礼经本义
    author: Concept


@lru_cache(maxsize=1)
def load_work() -> Work:
    works = load_concepts("works.ttl")
    if SLUG not in works:
        raise KgError(f"ontology/works.ttl: no work:{SLUG}, the book the graph is of")
    authors = [c for c in load_concepts("commentators.ttl").values() if c.is_author]
    if len(authors) != 1:
        raise KgError(
            f"ontology/commentators.ttl: {len(authors)} commentators have lj:isAuthor true, not one"
        )
    return Work(title=works[SLUG].pref, author=authors[0])
