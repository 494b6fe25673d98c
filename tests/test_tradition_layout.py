"""The Kanripo line layer of the tradition readers (kg/readers/tradition/layout.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.readers.tradition.layout import partition, read_lines, stream
from kg.text.tradition import Block

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tradition"
if not SAMPLE.is_dir():
    SAMPLE = Path("/work/shared/corpus/tradition")

TEXT = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 某書 / WYG\n"
    "#+PROPERTY: ID KR9z9999\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷三\n"
    "<pb:KR9z9999_WYG_003-1a>¶\n"
    "　某書卷三¶\n"
    "甲乙丙注丁戊己疏(庚辛壬/癸子丑)¶\n"
    "(寅卯/辰巳)¶\n"
    "<pb:KR9z9999_WYG_003-1b>¶\n"
    "　　午未申¶\n"
)


def test_header_pages_and_indent() -> None:
    f = read_lines(TEXT)
    assert f.header == {
        "name": "某書",
        "text_id": "KR9z9999",
        "edition": "WYG",
        "juan": "卷三",
    }
    assert [label for _, label in f.pages] == ["WYG 003-1a", "WYG 003-1b"]
    assert TEXT[f.pages[1][0] :].startswith("<pb:KR9z9999_WYG_003-1b>")
    content = f.content()
    assert [ln.indent for ln in content] == [1, 0, 0, 2]
    assert [ln.text for ln in content][-1] == "午未申"
    assert not f.issues


def test_small_print_reads_column_by_column_across_lines() -> None:
    f = read_lines(TEXT)
    s = stream(f.content(), TEXT)
    assert s.text == "某書卷三甲乙丙注丁戊己疏庚辛壬癸子丑寅卯辰巳午未申"
    i = s.text.index("庚")
    assert s.small[i] and not s.small[i - 1] and i in s.opens
    assert s.text.index("寅") in s.opens  # the next line's "(" opens a new run
    # every character maps back to itself in the file
    assert all(TEXT[o] == c for o, c in zip(s.offsets, s.text, strict=True))
    block = Block(voice="x", kind="shu")
    s.fill(block, i, s.text.index("午"))
    assert block.text == "庚辛壬癸子丑寅卯辰巳"
    assert len(block.pieces) == 4  # split at "/" and at the line end
    assert TEXT[block.file_offset(3)] == "癸"


def test_unbalanced_small_print_is_an_issue_with_its_line() -> None:
    f = read_lines("甲(乙丙¶\n丁)戊¶\n")
    assert [(i.kind, i.line) for i in f.issues] == [("unbalanced", 1), ("unbalanced", 2)]
    assert [ln.text for ln in f.content()] == ["甲乙丙", "丁戊"]


def test_malformed_page_marker_is_reported_not_guessed() -> None:
    f = read_lines("<pb:nonsense>¶\n甲¶\n")
    assert f.pages == [] and f.issues[0].line == 1 and "page marker" in f.issues[0].message


@pytest.mark.parametrize("path", sorted(SAMPLE.glob("*/*.txt")), ids=lambda p: p.name)
def test_samples_lossless_and_balanced(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    f = read_lines(text)
    assert not f.issues
    assert f.header["text_id"] == path.parent.name
    segs = partition(len(text), f.marks)
    assert "".join(text[x.start : x.end] for x in segs) == text
    s = stream(f.content(), text)
    assert "¶" not in s.text and "(" not in s.text and "/" not in s.text


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("甲乙注疏()/¶\u3000 \n<>pb:#+_KR0-9a"), max_size=200))
def test_any_text_is_read_without_crashing(text: str) -> None:
    f = read_lines(text)
    s = stream(f.lines, text)
    assert all(text[o] == c for o, c in zip(s.offsets, s.text, strict=True))
    segs = partition(len(text), f.marks)
    assert "".join(text[x.start : x.end] for x in segs) == text
