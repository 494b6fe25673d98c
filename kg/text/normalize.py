"""Normalized form of the text for matching: variant table, then traditional → simplified.

Three tables, in this order: ``ontology/variants.tsv`` (the exceptions: it always wins), OpenCC
t2s, and for a character t2s leaves outside the common simplified set, the variant source
(kg/text/variant_source.py, yitizi's table); ``ontology/variants-deny.tsv`` refuses the
mappings that would change a word of this text (脩 stays 脩).

The mapping is one code point to one code point, so an offset in the normalized text is the
same offset in the original: spans found on normalized text cite the original directly.

>>> normalize("賔升自西階")
'宾升自西阶'
>>> normalize("𤣥冠") == "玄冠"
True
>>> len(normalize("髙紫超曰")) == len("髙紫超曰")
True
>>> normalize("䘮服朞年"), normalize("束脩")
('丧服期年', '束脩')
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

import opencc

from kg.resources import ontology_dir
from kg.text.variant_source import VariantSource, is_common, load_deny, source_table

# Unicode private-use areas: glyphs the source font lacked; kept, but reported as garbled.
PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")
GARBLED = re.compile("[?\ufffd\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


def load_variants(path: Path | None = None) -> dict[str, str]:
    """Read ``ontology/variants.tsv`` (variant, normalized, note); '#' starts a comment line."""
    path = path or ontology_dir() / "variants.tsv"
    table: dict[str, str] = {}
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0].startswith("#") or len(row) < 2:
                continue
            src, dst = row[0], row[1]
            # src == dst is allowed: it keeps a character OpenCC would change
            if len(src) != 1 or len(dst) != 1:
                raise ValueError(f"{path}: variant entries map one character to one: {row!r}")
            table[src] = dst
    return table


class _CharMap(dict):
    """str.translate table that fills itself: variants first, then OpenCC t2s per character,
    then the variant source for what t2s leaves outside the common set."""

    def __init__(self, variants: dict[str, str], source: VariantSource) -> None:
        super().__init__({ord(k): v for k, v in variants.items()})
        self._t2s = opencc.OpenCC("t2s")
        self._variants = variants
        self._source = source

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        value = ch if code < 0x3400 else self._resolve(ch)
        self[code] = value
        return value

    def _resolve(self, ch: str) -> str:
        out = self._simplified(ch)
        if self._source.refuses(ch, out):
            out = ch
        if is_common(out) or self._source.deny.get(ch):
            return out
        for form in dict.fromkeys((ch, out)):
            found = self._source.pick(form, self._fold)
            if found is not None and not self._source.refuses(ch, found):
                return found
        return out

    def _fold(self, ch: str) -> str:
        return self._variants.get(ch) or self._simplified(ch)

    def _simplified(self, ch: str) -> str:
        out = self._t2s.convert(ch)
        # one character for one; and not into CJK Extension A or beyond the BMP when the
        # original is an ordinary character (OpenCC maps 纚 to 𫄥, which few fonts have)
        rare = 0x3400 <= ord(out[0]) <= 0x4DBF or ord(out[0]) > 0xFFFF
        return out if len(out) == 1 and not (rare and 0x4E00 <= ord(ch) <= 0x9FFF) else ch


@lru_cache(maxsize=1)
def _table() -> _CharMap:
    return _CharMap(load_variants(), VariantSource(source_table(), load_deny()))


def normalize(text: str) -> str:
    """Normalized (simplified, variant-folded) form; same length as ``text``."""
    return text.translate(_table())


_NOT_HANZI = re.compile("[^\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]+")


def skeleton(text: str) -> str:
    """Normalized text reduced to the characters that identify it: no marks, spaces, garbles."""
    return _NOT_HANZI.sub("", normalize(text))
