"""Variant characters from a maintained source (the ``yitizi`` package), behind a deny list.

The source lists, for a character, all its variant forms (異體字), gathered from OpenCC and
the 韵典 tables. The normalizer asks it only about characters outside the common simplified
set that ``variants.tsv`` and OpenCC t2s leave there, and takes its answer only when exactly
one of the forms folds (t2s) into the common set: a character the source ties to two common
characters (間/閑 for 閒) is ambiguous and stays. ``ontology/variants-deny.tsv`` lists the
mappings that would change a word of this text (匜 is not 铊, 脩 is not 修).

>>> is_common("丧"), is_common("䘮"), is_common("。")
(True, False, True)
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.resources import ontology_dir

ANY = "*"  # in the deny list: refuse every change of the character, OpenCC's included


def is_common(ch: str) -> bool:
    """In the common simplified set: GB 2312 (its 6,763 characters, ASCII and marks).

    The set is the codec's, so it needs no data file; a Han character outside it that
    normalization leaves alone is either a rare word of the text or a variant no table knows.
    """
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def load_deny(path: Path | None = None) -> dict[str, frozenset[str]]:
    """Read the deny list (character, refused target or ``*``, reason); '#' starts a comment."""
    path = path or ontology_dir() / "variants-deny.tsv"
    refused: dict[str, set[str]] = {}
    with path.open(encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.reader(f, delimiter="\t"), 1):
            if not row or row[0].startswith("#"):
                continue
            if len(row) < 3 or len(row[0]) != 1 or not row[2].strip():
                raise ValueError(f"{path}:{n}: want character, refused target or *, reason")
            refused.setdefault(row[0], set()).add(row[1])
    return {k: frozenset(v) for k, v in refused.items()}


@lru_cache(maxsize=1)
def source_table() -> dict[str, str]:
    """The source's variant forms of each character (a string of characters)."""
    import yitizi  # the table is inside the package: nothing is fetched

    return dict(yitizi.yitizi_data)


@dataclass(frozen=True)
class VariantSource:
    """The source's one common-set form of a character, if it has exactly one."""

    table: dict[str, str]
    deny: dict[str, frozenset[str]]

    def refuses(self, ch: str, out: str) -> bool:
        refused = self.deny.get(ch, frozenset())
        return out != ch and (ANY in refused or out in refused)

    def pick(self, ch: str, fold: Callable[[str], str]) -> str | None:
        found = {fold(v) for v in self.table.get(ch, "")}
        found = {v for v in found if is_common(v) and not self.refuses(ch, v)}
        return found.pop() if len(found) == 1 else None
