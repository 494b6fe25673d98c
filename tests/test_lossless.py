"""Segmentation is lossless: every character is in exactly one segment, for any text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.readers import READERS, parse_text, read
from kg.text.document import Document, Seg

from conftest import FIXTURES, SEED_FILES

X = Path("x.txt")

# pieces that exercise every marker the readers know, mixed with arbitrary characters
PIECES = st.sampled_from(
    [
        "【",
        "】",
        "【句】",
        "右",
        "右请射",
        "\n",
        "\n\n",
        "\r\n",
        " ",
        "\u3000",
        "\u3000\u3000",
        "○",
        "礼经本义卷四",
        "礼经本义卷",
        "钦定四库全书",
        "无锡蔡德晋撰",
        "嘉礼",
        "乡射礼",
        "士冠禮",
        "[book_title]",
        "[book_name]",
        "[book_title]提要",
        "卷一",
        "礼经本义 - 第 7 页/共 40 页",
        "<经部,礼类>",
        "✜✜未完待续>>>完整版请登录某网✜✜",
        "?",
        "\ue000",
        "𤣥",
        "郝仲舆曰",
        "按",
        "司射适堂西",
        "【二耦卒射之二郑本误作三】",
        "【此条朱子以戴记补】",
        "\t",
        "\ufeff",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=40).map("".join)


def assert_partition(doc: Document) -> None:
    segs = sorted(doc.segments, key=lambda s: s.start)
    pos = 0
    for s in segs:
        assert s.start == pos, (s, pos)
        assert s.end > s.start
        pos = s.end
    assert pos == len(doc.text)
    assert "".join(doc.text[s.start : s.end] for s in segs) == doc.text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, layout=st.sampled_from(sorted(READERS)))
def test_every_reader_is_lossless_on_any_text(text: str, layout: str) -> None:
    assert_partition(parse_text(text, X, layout))


@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
def test_detected_reader_is_lossless(text: str) -> None:
    assert_partition(parse_text(text, X))


@pytest.mark.parametrize(
    "path", [*SEED_FILES, *sorted(FIXTURES.glob("*.txt"))], ids=lambda p: p.name
)
def test_files_are_lossless(path: Path) -> None:
    doc = read(path)
    assert_partition(doc)
    # every character outside noise and layout belongs to the book's units
    kinds = {s.kind for s in doc.segments}
    assert Seg.PASSAGE in kinds and Seg.COMMENTARY in kinds


def test_unit_texts_are_what_the_segments_hold() -> None:
    for path in SEED_FILES:
        doc = read(path)
        for j in doc.juans:
            for c in j.chapters:
                for s in c.sections:
                    for u in (*s.passages, *s.records):
                        assert u.text == "".join(doc.text[a:b] for a, b in u.pieces)
                        for n in u.commentary:
                            assert doc.text[n.start : n.end].strip("【】") == n.text
