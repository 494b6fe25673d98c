"""Where a fragment that starts mid-chapter belongs: a manifest entry, else its content.

A source folder may hold ``manifest.toml`` naming, for a file, the juan and chapter it
starts in::

    ["003_00bafcbefff1366c.txt"]
    juan = 5
    chapter = "燕礼"

Without an entry, the chapter is recognised from the 经文 by the key terms each rite lists
in ``ontology/rites.ttl``; a weak or tied score leaves it unknown and says so.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

from kg.errors import InputError
from kg.text.catalog import Catalog
from kg.text.document import Chapter, Document
from kg.text.normalize import normalize

MANIFEST = "manifest.toml"


def load_manifest(folder: Path) -> dict[str, dict]:
    path = folder / MANIFEST
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise InputError(path, e.lineno, f"manifest is not valid TOML: {e.msg}") from None


def place(doc: Document, catalog: Catalog, entry: dict | None) -> None:
    """Fill in the juan and chapter a fragment starts in, and say how they were found."""
    if not doc.juans:
        return
    juan = doc.juans[0]
    chapter = juan.chapters[0] if juan.chapters else None
    manifest_path = doc.path.parent / MANIFEST
    if entry:
        if juan.number is None and "juan" in entry:
            juan.number, juan.placement = int(entry["juan"]), "manifest"
        if chapter is not None and chapter.rite is None and "chapter" in entry:
            rite = catalog.rite_for_title(str(entry["chapter"]))
            if rite is None:
                raise InputError(
                    manifest_path, None, f"unknown chapter {entry['chapter']!r} for {doc.path.name}"
                )
            chapter.rite, chapter.placement = rite, "manifest"
    if chapter is not None and chapter.rite is None:
        rite, why = recognise(chapter, catalog)
        if rite:
            chapter.rite, chapter.placement = rite, "recognized"
        _note(doc, chapter, why)
    if juan.number is None:
        _note(
            doc, chapter, "juan unknown: the file starts inside a juan and no manifest says which"
        )


def _note(doc: Document, chapter: Chapter | None, message: str) -> None:
    from kg.text.document import Issue

    at = 0
    if chapter and chapter.sections and chapter.sections[0].passages:
        at = chapter.sections[0].passages[0].start
    doc.issues.append(Issue("placement", doc.line_of(at), at, at, message))


NAME_WEIGHT = 12.0
MIN_SCORE = 10.0
MARGIN = 1.3


def _stem(label: str) -> str:
    """乡射礼 → 乡射, 大射仪 → 大射, 丧服 → 丧服."""
    stem = label[:-1] if label.endswith(("礼", "仪")) and len(label) > 2 else label
    return normalize(stem)


def _longest_matches(text: str, terms: dict[str, int]) -> dict[str, int]:
    """Occurrences of each term where no longer term covers it (小臣 is not in 小臣正)."""
    pattern = re.compile("|".join(sorted(map(re.escape, terms), key=len, reverse=True)))
    counts: dict[str, int] = {}
    for m in pattern.finditer(text):
        counts[m.group()] = counts.get(m.group(), 0) + 1
    return counts


def recognise(chapter: Chapter, catalog: Catalog) -> tuple[str | None, str]:
    """Best rite by key terms in the chapter's 经文, weighted by how few rites share a term."""
    text = normalize("".join(u.text for s in chapter.sections for u in (*s.passages, *s.records)))
    if not text:
        return None, "chapter unknown: no 经文 to recognise it by"
    df: dict[str, int] = {}
    for r in catalog.rites.values():
        for t in r.key_terms:
            df[t] = df.get(t, 0) + 1
    n = len(catalog.rites)
    found = _longest_matches(text, df)
    scores = {
        # a term few rites share counts for much more than a common one
        r.slug: sum(math.log1p(found.get(t, 0)) * math.log(n / df[t]) ** 2 for t in r.key_terms)
        # the classic often names its own rite: 少牢馈食之礼, 士相见之礼
        + NAME_WEIGHT * min(text.count(_stem(r.label)), 2)
        for r in catalog.rites.values()
    }
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, s1), (_, s2) = ranked[0], ranked[1]
    label = catalog.rites[best].label
    if s1 >= MIN_SCORE and s1 >= MARGIN * s2:
        return (
            best,
            f"chapter recognised as {label} from its key terms (score {s1:.1f} vs {s2:.1f})",
        )
    return None, f"chapter unknown: key terms do not decide (best {label} {s1:.1f} vs {s2:.1f})"
