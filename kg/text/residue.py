"""Characters normalization leaves outside the common simplified set, for the build report.

A Han character that neither variants.tsv, OpenCC nor the variant source brings into the
common set (GB 2312) is either a rare word of the text (韠, 纁) or a variant no table knows;
a curator tells which, so each is reported once, with its count and where it first stood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.text.document import Document, FileIssue, Issue
from kg.text.normalize import normalize
from kg.text.variant_source import is_common

_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")


@dataclass
class _Seen:
    count: int
    path: Path
    line: int
    offset: int


@dataclass
class Residue:
    """Counts the unnormalized characters of the documents it is shown, in reading order."""

    seen: dict[str, _Seen] = field(default_factory=dict)

    def add(self, doc: Document) -> None:
        # only the few rare characters are looked for, not every character of the text
        rare = sorted(ch for ch in set(doc.text) if _HAN.match(ch) and not is_common(ch))
        if not rare:
            return
        norm = normalize(doc.text)
        for m in re.finditer("[" + "".join(rare) + "]", doc.text):
            ch = m.group()
            if norm[m.start()] != ch:
                continue
            if ch in self.seen:
                self.seen[ch].count += 1
            else:
                self.seen[ch] = _Seen(1, doc.path, doc.line_of(m.start()), m.start())

    def issues(self) -> list[FileIssue]:
        """One issue a character, most frequent first."""
        ranked = sorted(self.seen.items(), key=lambda kv: (-kv[1].count, kv[0]))
        return [
            FileIssue(
                s.path,
                Issue(
                    "unnormalized",
                    s.line,
                    s.offset,
                    s.offset + len(ch),
                    f"{ch} (U+{ord(ch):04X}) outside the common simplified set, left as is: "
                    f"{s.count} time{'s' if s.count > 1 else ''}, first here",
                ),
            )
            for ch, s in ranked
        ]
