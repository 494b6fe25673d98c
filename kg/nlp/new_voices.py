"""Voices the commentator vocabulary lacks, found by repetition across the book.

A name seen once is a new voice only with strong evidence ([unknown] in commentary.toml: a
surname and two characters none of which is an ordinary word, then 曰). A commentator whose
字 is made of ordinary words (上, 大, 一 …) fails that test every time he speaks; but he
speaks often, always in the same shape: a surname and a two-character 字, 号 or 名, then
曰 / 云 / 谓, where a voice may start. The census reads every block of the book before any
is split ([census]) and keeps the names that open at least ``min_blocks`` different voices;
``split_voices(text, census.names())`` then takes them as it takes the vocabulary's names.

>>> c = VoiceCensus()
>>> for text in ["冠礼也 柯上和曰冠者成人也", "柯上和曰宾者", "醴也○柯上和云醴者"]:
...     c.add(text)
>>> c.names()
{'柯上和': 'keshanghe'}
>>> c.count("柯上和"), c.count("孔子")
(3, 0)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from kg.nlp.commentary_rules import Rules, load_rules
from kg.nlp.lexicon import load_lexicon
from kg.nlp.voices import Voice, at_boundary, person_slug, split_voices
from kg.text.document import Document, Note, TextUnit
from kg.text.normalize import normalize

__all__ = ["VoiceCensus", "commentary_blocks", "split_book"]

KEY_CHARS = 10  # the words after the verb that tell one voice from another


@lru_cache(maxsize=1)
def _candidate_re() -> re.Pattern[str]:
    """A surname (one or two characters) and a two-character given name before a verb."""
    rules = load_rules()
    c = rules.patterns.census
    one = f"[{rules.patterns.unknown.surnames}]"
    surnames = "|".join([*map(re.escape, c.compound_surnames), one])
    first = f"[^{re.escape(c.not_in_name + c.not_given_start)}\\W\\d]"
    given = f"{first}[^{re.escape(c.not_in_name)}\\W\\d]"
    verbs = "|".join(map(re.escape, c.verbs))
    # zero-width, so that candidates may overlap: which of them opens a voice is told after
    return re.compile(f"(?=(?P<name>(?:{surnames}){given})(?P<verb>{verbs}))")


@lru_cache(maxsize=1)
def _refused() -> tuple[frozenset[str], frozenset[str]]:
    """Names no census accepts (the vocabulary's, the works', the lexicon's, [census]
    not_names), and the lexicon terms no name begins with ([census] not_prefix_types)."""
    rules = load_rules()
    c = rules.patterns.census
    lexicon = load_lexicon().entries
    prefixes = {
        form
        for form, entries in lexicon.items()
        if any(e.type in c.not_prefix_types for e in entries)
    }
    names = {*rules.names, *rules.works, *lexicon, *c.not_names}
    return frozenset(names), frozenset(prefixes)


def _acceptable(name: str, rules: Rules) -> bool:
    names, prefixes = _refused()
    if name in names or name[-1] in rules.patterns.census.not_name_end:
        return False
    if any(name[:n] in prefixes for n in range(2, len(name))):
        return False
    # a known name with a character more (郑氏注, 孔氏疏) is that person citing, not a new one
    return not any(name[:n] in rules.names for n in range(2, len(name)))


class VoiceCensus:
    """How many different voices each candidate name opens, over every block added."""

    def __init__(self) -> None:
        self.seen: dict[str, set[str]] = {}  # name → the openings of the voices it starts

    def add(self, text: str) -> None:
        """Count the candidate names of one commentary block."""
        rules = load_rules()
        norm = normalize(text)
        cand = _candidate_re()
        after = rules.patterns.unknown.after
        seps = re.compile(f"[{re.escape(rules.separators)}\\s]+")
        parts: list[tuple[int, int]] = []
        pos = 0
        for sep in [*seps.finditer(norm), None]:
            stop = sep.start() if sep else len(norm)
            if stop > pos:
                parts.append((pos, stop))
            pos = sep.end() if sep else pos
        for start, stop in parts:
            for m in cand.finditer(norm, start, stop):
                name = m.group("name")
                if at_boundary(norm, m.start(), start, rules, after) and _acceptable(name, rules):
                    verb_end = m.end("verb")
                    opening = norm[verb_end : verb_end + KEY_CHARS]
                    self.seen.setdefault(name, set()).add(opening)

    def add_all(self, texts: Iterable[str]) -> None:
        for text in texts:
            self.add(text)

    def add_document(self, doc: Document) -> None:
        self.add_all(commentary_blocks(doc))

    def count(self, name: str) -> int:
        """The different voices ``name`` opens."""
        return len(self.seen.get(name, ()))

    def names(self) -> dict[str, str]:
        """The names that open enough voices → the slug each is minted as."""
        rules = load_rules()
        least = rules.patterns.census.min_blocks
        out: dict[str, str] = {}
        for name in sorted(self.seen):
            if len(self.seen[name]) >= least:
                slug = person_slug(name)
                out[name] = slug if slug not in rules.labels else f"{slug}2"
        return out


def split_book(texts: Sequence[str]) -> list[list[Voice]]:
    """The voices of every block of a book (or of a gold set read as one), the census of
    them all taken first.

    >>> book = ["柯上和曰冠者成人也", "柯上和曰醴者", "柯上和曰醮者", "柯上和曰宾者"]
    >>> [(v.speaker, v.name) for v in split_book(book)[0]]
    [('keshanghe', '柯上和')]
    >>> [(v.speaker, v.name) for v in split_voices(book[0])]
    [('caidejin', None)]
    """
    census = VoiceCensus()
    census.add_all(texts)
    names = census.names()
    return [split_voices(text, names) for text in texts]


def commentary_blocks(doc: Document) -> Iterator[str]:
    """The text of every 【…】 block of a document, in order."""
    for juan in doc.juans:
        for preface in juan.prefaces:
            yield from (b.text for b in preface.blocks)
        for chapter in juan.chapters:
            if chapter.preface:
                yield from (b.text for b in chapter.preface.blocks)
            for sec in chapter.sections:
                yield from _texts(sec.notes)
                for unit in [*sec.passages, *sec.records]:
                    yield from _unit_blocks(unit)
                yield from _texts(sec.orphans)
    if doc.abstract is not None:
        yield from _unit_blocks(doc.abstract)


def _unit_blocks(unit: TextUnit) -> Iterator[str]:
    yield from _texts(unit.notes)
    yield from _texts(unit.commentary)


def _texts(notes: list[Note]) -> Iterator[str]:
    return (n.text for n in notes)
