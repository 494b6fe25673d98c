"""Chapter titles as printed: the rite a known title names, the shape of one never heard of.

A printed title may add to its rite's name a half (士丧礼上), an ordinal (乡射礼第五) or a 之
(诸侯之衅庙礼); ``rite_for`` sees through them to ``ontology/rites.ttl``. ``name_of`` says
whether a line the vocabulary does not know is shaped like a title (a short name ending in
礼 / 仪, no word of 经文 in it) and gives the name to mint its rite from. Where such a line
stands (after a juan marker, a category line …) is the structure parser's to judge. The words
are in ``markers.toml`` (``[title]``, ``[preface]``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.text.catalog import Catalog
from kg.text.normalize import normalize
from kg.text.slugs import slugify

_HAN = re.compile(r"^[\u3400-\u9fff\U00020000-\U0003134f]+$")


@dataclass(frozen=True)
class TitleShape:
    endings: str
    min_chars: int
    max_chars: int
    half: re.Pattern[str]
    ordinal: re.Pattern[str]
    inserted: str
    min_without_inserted: int
    not_in_name: frozenset[str]
    front_matter: frozenset[str]  # titled front matter that is never a chapter


@lru_cache(maxsize=1)
def title_shape() -> TitleShape:
    data = tomllib.loads((Path(__file__).parent / "markers.toml").read_text(encoding="utf-8"))
    t = data["title"]
    return TitleShape(
        endings=t["endings"],
        min_chars=t["min_chars"],
        max_chars=t["max_chars"],
        half=re.compile(t["half"]),
        ordinal=re.compile(t["ordinal"]),
        inserted=t["inserted"],
        min_without_inserted=t["min_chars_without_inserted"],
        not_in_name=frozenset(t["not_in_name"]),
        front_matter=frozenset(normalize(x) for x in data["preface"]["titles"]),
    )


def _name(norm: str) -> str:
    """The title without its ordinal and inserted 之: 诸侯之衅庙礼第三 → 诸侯衅庙礼."""
    shape = title_shape()
    return shape.ordinal.sub("", norm).replace(shape.inserted, "")


def forms(norm: str) -> list[str]:
    """The names a printed title may stand for, most literal first.

    >>> forms("士丧礼下")
    ['士丧礼下', '士丧礼']
    >>> forms("诸侯之衅庙礼第三")
    ['诸侯之衅庙礼第三', '诸侯之衅庙礼', '诸侯衅庙礼']
    """
    shape = title_shape()
    bare = shape.ordinal.sub("", norm)
    out = [norm, bare, bare.replace(shape.inserted, "")]
    out += [shape.half.sub("", f) for f in out]
    return [f for f in dict.fromkeys(out) if f]


def rite_for(cat: Catalog, text: str) -> str | None:
    """The vocabulary's rite a printed title names (士丧礼下 is 既夕礼: its label says so)."""
    norm = normalize(text).strip()
    if norm in title_shape().front_matter:
        return None
    return next((cat.titles[f] for f in forms(norm) if f in cat.titles), None)


def is_front_matter(text: str) -> bool:
    return normalize(text).strip() in title_shape().front_matter


def name_of(text: str) -> str | None:
    """The name of a rite to mint if ``text`` is shaped like a chapter title, else None.

    A half is a part of its rite's chapter, not a rite of its own (``half_of`` gives it).

    >>> name_of("出军礼"), name_of("某侯之告庙礼第二"), name_of("出军礼下"), name_of("宾答拜如礼")
    ('出军礼', '某侯告庙礼', '出军礼', None)
    """
    shape = title_shape()
    norm = normalize(text).strip()
    if norm in shape.front_matter or not _HAN.match(norm):
        return None
    name = _name(norm)
    core = shape.half.sub("", name)
    if not core.endswith(tuple(shape.endings)):
        return None
    if not shape.min_chars <= len(core) <= shape.max_chars:
        return None
    if len(name) < len(shape.ordinal.sub("", norm)) and len(core) < shape.min_without_inserted:
        return None  # 大夫之礼: a phrase, not a title
    if shape.not_in_name & set(core):
        return None
    return core


def half_of(text: str) -> str | None:
    """The half a printed title names (出军礼上 → 上, 诸侯之衅庙礼下第二 → 下), else None."""
    m = title_shape().half.search(_name(normalize(text).strip()))
    return m.group(0) if m else None


def mint_slug(cat: Catalog, name: str) -> str:
    """The slug of a minted rite: pinyin of its name, never one the vocabulary uses."""
    slug = slugify(name)
    return slug if slug not in cat.rites else f"{slug}-new"
