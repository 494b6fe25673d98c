"""The registry of tradition works (``tradition.toml``): which work a Kanripo file transcribes.

>>> info = work_of("#+TITLE: 儀禮集說\\n#+PROPERTY: ID KR1d0035\\n#+PROPERTY: BASEEDITION WYG\\n")
>>> info.slug, info.layout, info.authors, info.edition
('yilijishuo', 'jishuo', ('aojigong',), 'WYG')
>>> work_of("#+TITLE: 禮經本義\\n#+PROPERTY: ID KR1d0044\\n") is None
True
>>> work_of("士冠禮第一\\n筮于廟門\\n") is None
True
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rdflib import Graph

from kg.rdf.namespaces import LJ
from kg.readers.tradition.layout import read_lines
from kg.resources import ontology_dir
from kg.text.normalize import normalize
from kg.text.slugs import slugify
from kg.text.tradition import WorkInfo
from kg.text.vocab import load_concepts

BOOK = "book"
GENERIC = "generic"
_HEAD_LINES = 40  # the header, the juan title and the author line are all in the first lines
_HAN = r"[\u3400-\u9fff\U00020000-\U0003134f]"


@dataclass(frozen=True)
class Label:
    voice: str
    kind: str


@lru_cache(maxsize=1)
def config() -> dict[str, Any]:
    path = Path(__file__).parent / "tradition.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def known_slugs() -> frozenset[str]:
    return frozenset(w["slug"] for w in config()["works"].values())


@lru_cache(maxsize=1)
def commentator_forms() -> dict[str, str]:
    """Normalized name form → person slug, for names that point at one person only."""
    out: dict[str, str] = {}
    clash: set[str] = set()
    for slug, concept in load_concepts("commentators.ttl").items():
        if concept.ambiguous:
            continue
        for form in concept.forms:
            if len(form) < 2:
                continue  # 郑, 敖: one character is a word of the text as often as a name
            if form in out and out[form] != slug:
                clash.add(form)
            out[form] = slug
    return {f: s for f, s in out.items() if f not in clash}


@lru_cache(maxsize=1)
def seniority() -> dict[str, int]:
    """Person slug → rank of his dynasty in ``[jishuo] chronology`` (later is higher)."""
    order = {normalize(d): i for i, d in enumerate(config()["jishuo"]["chronology"])}
    g = Graph()
    g.parse(ontology_dir() / "commentators.ttl", format="turtle")
    out: dict[str, int] = {}
    for person, dynasty in g.subject_objects(LJ.dynasty):
        rank = order.get(normalize(str(dynasty)))
        if rank is not None:
            out[str(person).rstrip("/").rsplit("/", 1)[-1]] = rank
    return out


def later(a: str, b: str) -> bool:
    """Whether person ``a`` lived in a later dynasty than ``b`` (False when either is unknown)."""
    rank = seniority()
    return a in rank and b in rank and rank[a] > rank[b]


def header_of(text: str) -> dict[str, str]:
    """The org header of a Kanripo file (names as ``kg/readers/kanripo.toml`` gives them)."""
    head = "\n".join(text.split("\n", _HEAD_LINES)[:_HEAD_LINES])
    return read_lines(head).header


@lru_cache(maxsize=1)
def _author_line() -> re.Pattern[str]:
    verbs = "|".join(re.escape(v) for v in config()["kanripo"]["author_verbs"])
    return re.compile(rf"^(?:{_HAN}+\u3000+)+{_HAN}*(?:{verbs})$|^{_HAN}{{2,12}}(?:{verbs})$")


def is_author_line(text: str) -> bool:
    """``元　敖繼公　撰``, ``漢鄭氏注　唐陸徳明音義　賈公彦疏``, ``無錫蔡徳晉撰``: names with a
    verb of authorship, the line a juan title prints under or beside it."""
    return _author_line().match(text.strip("\u3000 ¶")) is not None


def _names(group: str) -> str | None:
    """The person a group of the author line names: 漢鄭氏注 → zhengxuan."""
    verbs = sorted(config()["kanripo"]["author_verbs"], key=len, reverse=True)
    norm = normalize(group)
    for v in verbs:
        if norm.endswith(normalize(v)) and len(norm) > len(v):
            norm = norm[: -len(v)]
            break
    forms = commentator_forms()
    return next((forms[norm[i:]] for i in range(len(norm) - 1) if norm[i:] in forms), None)


def author_in(text: str) -> tuple[str, ...]:
    """Persons named on the author line of the juan title, if the vocabulary knows them."""
    found: list[str] = []
    for raw in text.split("\n", _HEAD_LINES)[:_HEAD_LINES]:
        line = raw.strip("\u3000 ¶\r")
        title = re.match(rf"^{_HAN}+卷\S*\u3000+", line)  # 儀禮集説卷一　　元　敖繼公　撰
        line = line[title.end() :] if title else line
        if not line or not is_author_line(line):
            continue
        for group in re.split(r"\u3000+", line):
            slug = _names(group)
            if slug and slug not in found:
                found.append(slug)
    return tuple(found)


def work_of(text: str) -> WorkInfo | None:
    """The work a Kanripo file belongs to; None for the book itself or a text with no id."""
    header = header_of(text)
    text_id = header.get("text_id", "").strip()
    if not text_id:
        return None
    entry = config()["works"].get(text_id)
    title = header.get("name", "").strip()
    edition = header.get("edition", "").strip() or None
    if entry is not None:
        if entry["layout"] == BOOK:
            return None
        return WorkInfo(
            slug=entry["slug"],
            text_id=text_id,
            title=title or entry["title"],
            layout=entry["layout"],
            edition=edition,
            authors=tuple(entry.get("authors", ())),
        )
    return WorkInfo(
        slug=mint_slug(title, text_id),
        text_id=text_id,
        title=title or text_id,
        layout=GENERIC,
        edition=edition,
        authors=author_in(text),
        known=False,
    )


def mint_slug(title: str, text_id: str) -> str:
    """Pinyin of the title; the id added where that is a known work's slug or there is none."""
    tail = slugify(text_id)
    if not normalize(title).strip():
        return tail
    slug = slugify(title)
    return f"{slug}-{tail}" if slug in known_slugs() else slug
