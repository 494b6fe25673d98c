"""Validity of the quotation gold (tests/gold/quotations.jsonl): format, spans, sources.

Checks only that the gold is well formed and points at real text; it scores nothing.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold" / "quotations.jsonl"
# the shared samples sit beside the project (../shared), as the issue says
TRADITION = ROOT.parent / "shared" / "corpus" / "tradition"

SOURCE_FIELDS = (
    "source_work",
    "source_file",
    "source_line",
    "source_kind",
    "source_text",
    "fidelity",
)
FIELDS = {
    "id",
    "split",
    "seed_file",
    "seed_line",
    "chapter",
    "passage",
    "voice",
    "opinion",
    "quoted",
    *SOURCE_FIELDS,
    "note",
}
VOICES = {"aojigong", "zhengxuan", "jiagongyan"}
KINDS = {"own", "quote", "zhu", "shu", "shu-zhu", "yinyi", "kaozheng"}
FIDELITY = {"verbatim", "abridged", "paraphrase"}
PAGE = re.compile(r"<pb:[^>]*>")


def _rows() -> list[dict]:
    with GOLD.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def delayout(line: str) -> str:
    """One Kanripo line as read: no page marker, ¶, leading full-width indent, '/', '(' ')'."""
    line = PAGE.sub("", line).replace("¶", "").lstrip("\u3000")
    return line.replace("/", "").replace("(", "").replace(")", "")


@cache
def _flat(path: Path) -> tuple[str, tuple[int, ...]]:
    """The file's text with layout removed and lines joined, and each character's line number."""
    parts, lines = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("#"):
            continue
        text = delayout(line)
        parts.append(text)
        lines.extend([number] * len(text))
    return "".join(parts), tuple(lines)


ROWS = _rows()


def test_enough_lines_and_splits() -> None:
    assert len(ROWS) >= 110
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    by_split = {s: [r for r in ROWS if r["split"] == s] for s in ("dev", "test")}
    assert set(r["split"] for r in ROWS) == {"dev", "test"}
    # the split is by chapter: no chapter in both
    assert not {r["chapter"] for r in by_split["dev"]} & {r["chapter"] for r in by_split["test"]}
    assert sum(r["source_text"] is None for r in ROWS) >= 7  # q033 was later found in juan 2


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_fields(row: dict) -> None:
    assert set(row) == FIELDS
    assert row["voice"] in VOICES
    assert isinstance(row["seed_line"], int) and row["seed_line"] >= 1
    assert row["quoted"] and row["quoted"] in row["opinion"]
    if row["source_text"] is None:
        assert all(row[k] is None for k in SOURCE_FIELDS)
        return
    assert row["source_work"] in {"KR1d0028", "KR1d0035"}
    assert row["source_file"].startswith(row["source_work"] + "_")
    assert row["source_kind"] in KINDS and row["fidelity"] in FIDELITY
    assert isinstance(row["source_line"], int)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_opinion_in_seed(row: dict) -> None:
    lines = (ROOT / row["seed_file"]).read_text(encoding="utf-8").split("\n")
    assert row["opinion"] in lines[row["seed_line"] - 1]


@pytest.mark.parametrize("row", [r for r in ROWS if r["source_text"]], ids=lambda r: r["id"])
def test_source_text_in_source(row: dict) -> None:
    path = TRADITION / row["source_work"] / row["source_file"]
    if not path.is_file():
        pytest.skip(f"{path} not present")
    flat, lines = _flat(path)
    starts = [m.start() for m in re.finditer(re.escape(row["source_text"]), flat)]
    assert starts, row["source_text"]
    # source_line is where the used words start (one of the occurrences)
    assert row["source_line"] in {lines[s] for s in starts}
