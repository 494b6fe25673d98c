"""The 仪礼集说 reader (kg/readers/tradition/jishuo.py, body.py), the generic reader of an
unknown Kanripo work, and the registry (work_of / read_work)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import InputError
from kg.readers.tradition import read_work, work_of
from kg.readers.tradition.registry import known_slugs
from kg.text.catalog import load_catalog
from kg.text.document import Seg
from kg.text.tradition import Pieced, WorkDocument
from kg.text.vocab import load_concepts

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tradition"
if not SAMPLE.is_dir():
    SAMPLE = Path("/work/shared/corpus/tradition")
BOOK = SAMPLE.parent / "kanripo"
JUANS = sorted((SAMPLE / "KR1d0035").glob("KR1d0035_0[0-9][1-9].txt"))
LABELS = ("注曰", "繼公謂", "疏曰", "䟽曰", "繼公案")

HEAD = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 儀禮集說\n"
    "#+PROPERTY: ID {id}\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷三\n"
)
# Ten cells a column: a commentary line of nine characters after its indent is full.
BODY = (
    "<pb:KR1d0035_WYG_003-1a>¶\n"
    "欽定四庫全書¶\n"
    "　儀禮集説卷三　元　敖繼公　撰¶\n"
    "士相見禮第三¶\n"
    "　鄭注曰甲乙丙丁戊己¶\n"
    "　庚辛¶\n"
    "　繼公謂壬癸子丑¶\n"
    "摯冬用雉夏用腒左頭奉¶\n"
    "之(腒其居/反)¶\n"
    "　(奉芳/勇反)¶\n"
    "　注曰摯所執以至者君¶\n"
    "<pb:KR1d0035_WYG_003-1b>¶\n"
    "　子見於所尊敬必執摯¶\n"
    "　以將其厚意也¶\n"
    "　左頭頭陽也¶\n"
    "主人對曰¶\n"
    "　注曰對荅也某子之繼¶\n"
    "　公謂對者荅其辭也¶\n"
    "　　　　右士相見¶\n"
    "　　　　　言其大略¶\n"
    "記凡燕見于君¶\n"
    "　朱子曰燕見私見也¶\n"
    "　儀禮集説卷三¶\n"
    "正誤¶\n"
    "主人對¶\n"
    "　鄭本對作荅注曰今文¶\n"
    "　對為荅也繼公案從之¶\n"
    "　是¶\n"
)
TEXT = HEAD.format(id="KR1d0035") + BODY


def read(text: str, name: str = "KR1d0035_003.txt") -> WorkDocument:
    return read_work(Path(name), text)


def blocks(p) -> list[tuple[str, str, str | None, str]]:
    return [(b.kind, b.voice, b.label, b.text) for b in p.blocks]


def test_a_juan_in_the_jishuo_layout() -> None:
    doc = read(TEXT)
    assert doc.work.slug == "yilijishuo" and doc.work.layout == "jishuo"
    [juan] = doc.juans
    assert (juan.number, juan.label) == (3, "卷三")
    [chapter] = juan.chapters
    assert (chapter.title, chapter.rite) == ("士相見禮第三", "shixiangjianli")
    assert [(b.voice, b.kind, b.label, b.text) for b in chapter.preface] == [
        ("zhengxuan", "quote", "鄭注曰", "甲乙丙丁戊己庚辛"),  # ran on: the first line is full
        ("aojigong", "own", "繼公謂", "壬癸子丑"),
    ]
    first, second, record, corrected = chapter.passages()
    assert first.text == "摯冬用雉夏用腒左頭奉之"  # a full 经文 line runs on
    assert blocks(first) == [
        ("reading", "aojigong", None, "腒其居反奉芳勇反"),  # the gloss runs on to its own line
        ("quote", "zhengxuan", "注曰", "摯所執以至者君子見於所尊敬必執摯以將其厚意也"),
        ("own", "aojigong", None, "左頭頭陽也"),  # after a short line, unlabeled: his own
    ]
    assert second.text == "主人對曰"
    assert blocks(second) == [
        ("quote", "zhengxuan", "注曰", "對荅也某子之"),  # 繼公謂 inside the quote ends it
        ("own", "aojigong", "繼公謂", "對者荅其辭也"),
        ("own", "aojigong", None, "言其大略"),  # the note under 右X, on its section
    ]
    assert [s.title for s in chapter.sections] == ["右士相見", None, "正誤"]
    assert (record.text, record.record, corrected.record) == ("凡燕見于君", True, False)
    assert blocks(record) == [("quote", "zhuxi", "朱子曰", "燕見私見也")]
    assert blocks(corrected) == [
        ("own", "aojigong", None, "鄭本對作荅"),
        ("quote", "zhengxuan", "注曰", "今文對為荅也"),
        ("own", "aojigong", "繼公案", "從之是"),
    ]
    assert [label for _, label in doc.pages] == ["WYG 003-1a", "WYG 003-1b"]
    assert not doc.issues


def test_labels_and_texts_map_back_to_the_file() -> None:
    doc = read(TEXT)
    split = doc.chapters()[0].passages()[1].blocks[1]
    a, b = split.label_span
    assert TEXT[a:b].replace("¶\n　", "") == "繼公謂"  # the label runs across a line end
    for unit in units(doc):
        assert_pieced(unit, TEXT)
    kinds = {s.kind for s in doc.segments}
    assert {Seg.JUAN_MARKER, Seg.CHAPTER_TITLE, Seg.HEADING, Seg.FURNITURE} <= kinds
    heading = next(s for s in doc.segments if TEXT[s.start : s.end] == "右士相見")
    assert heading.kind is Seg.HEADING


def test_a_juan_in_two_parts_and_the_front_matter() -> None:
    second = BODY.replace("卷三", "卷三下").replace("士相見禮第三¶\n", "士相見禮第三¶\n", 1)
    doc = read(TEXT.replace("卷三", "卷三上") + "#+PROPERTY: JUAN 卷三下\n" + second)
    assert [(j.number, j.label) for j in doc.juans] == [(3, "卷三上"), (3, "卷三下")]
    assert [[c.rite for c in j.chapters] for j in doc.juans] == [["shixiangjianli"]] * 2
    front = HEAD.format(id="KR1d0035").replace("卷三", "提要") + (
        "欽定四庫全書　經部四¶\n　儀禮集説　禮類二(儀禮之屬/)¶\n　　提要¶\n"
        "　　　　(臣/)等謹按儀禮集説十七卷¶\n　　　　總纂官(臣/)紀昀¶\n"
        "#+PROPERTY: JUAN 原序\n儀禮集説原序¶\n儀禮何代之書也¶\n"
    )
    doc = read(front, "KR1d0035_000.txt")
    assert [(b.label, b.voice, b.text) for b in doc.abstract] == [
        ("提要", "siku-editors", "臣等謹按儀禮集説十七卷"),
        ("原序", "aojigong", "儀禮何代之書也"),
    ]
    assert doc.juans == []


# -- the registry --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "slug", "layout"),
    [
        (SAMPLE / "KR1d0028" / "KR1d0028_001.txt", "yilizhushu", "zhushu"),
        (SAMPLE / "KR1d0035" / "KR1d0035_000.txt", "yilijishuo", "jishuo"),
    ],
)
def test_work_of_the_known_works(path: Path, slug: str, layout: str) -> None:
    info = work_of(path.read_text(encoding="utf-8"))
    assert info is not None and info.known
    assert (info.slug, info.layout, info.text_id, info.edition) == (
        slug,
        layout,
        path.name[:8],
        "WYG",
    )
    assert info.authors and info.title.startswith("儀禮")


def test_the_book_and_texts_without_an_id_are_no_work_of_the_tradition() -> None:
    book = next(BOOK.glob("KR1d0044_*.txt"))
    assert work_of(book.read_text(encoding="utf-8")) is None
    assert work_of("士冠禮第一\n筮于廟門\n") is None
    with pytest.raises(InputError, match="not a tradition work"):
        read_work(book)


def test_an_unknown_work_is_its_own_never_the_book() -> None:
    text = HEAD.format(id="KR9z0123").replace("儀禮集說", "儀禮某解") + BODY
    info = work_of(text)
    assert info is not None and not info.known and info.layout == "generic"
    assert info.slug == "yilimoujie" and info.slug not in known_slugs()
    assert info.authors == ("aojigong",)  # named on the juan title's author line
    doc = read(text.replace("儀禮集説卷三", "儀禮某解卷三"), "KR9z0123_003.txt")
    assert doc.work is not None and doc.work.slug == "yilimoujie"
    assert [c.rite for c in doc.chapters()] == ["shixiangjianli"]
    voices = {b.voice for p in doc.chapters()[0].passages() for b in p.blocks}
    assert voices == {"aojigong"}  # no labels read: every line is the named author's
    assert "unknown Kanripo work KR9z0123" in doc.issues[0].message
    minted = read(text.replace("士相見禮第三", "某侯告廟禮第三"), "KR9z0123_003.txt")
    assert [c.rite for c in minted.chapters()] == ["mouhougaomiaoli"]  # a rite never heard of
    same_title = work_of(HEAD.format(id="KR9z0124") + BODY)
    assert same_title is not None and same_title.slug == "yilijishuo-kr9z0124"


def test_generic_reader_without_an_author_is_anonymous() -> None:
    text = HEAD.format(id="KR9z0200").replace("儀禮集說", "某書") + BODY.replace(
        "儀禮集説", "某書"
    ).replace("　元　敖繼公　撰", "")
    doc = read(text, "KR9z0200_003.txt")
    assert doc.work.authors == ()
    assert {b.voice for c in doc.chapters() for p in c.passages() for b in p.blocks} == {
        "anonymous"
    }


# -- the whole samples ---------------------------------------------------------------------


def units(doc: WorkDocument) -> list[Pieced]:
    out: list[Pieced] = list(doc.abstract)
    for c in doc.chapters():
        out.extend(c.preface)
        for p in c.passages():
            out.append(p)
            out.extend(p.blocks)
    return out


def assert_pieced(unit: Pieced, text: str) -> None:
    assert unit.text == "".join(text[a:b] for a, b in unit.pieces)


def assert_lossless(doc: WorkDocument) -> None:
    text, pos = doc.text, 0
    for seg in doc.segments:
        assert seg.start == pos and seg.end > seg.start
        pos = seg.end
    assert pos == len(text)


@pytest.fixture(scope="module")
def people() -> set[str]:
    return set(load_concepts("commentators.ttl")) | {"siku-editors"}


@pytest.mark.parametrize("path", JUANS, ids=lambda p: p.name)
def test_sample_juans(path: Path, people: set[str]) -> None:
    text = path.read_text(encoding="utf-8")
    doc = read_work(path)
    assert doc.work.slug == "yilijishuo" and doc.juans and not doc.issues
    rites = load_catalog().rites
    headings = re.findall(r"^\u3000{3,}右", text, flags=re.M)
    titled = 0
    for juan in doc.juans:
        [chapter] = juan.chapters  # one chapter a juan, of the rite the juan's number says
        assert juan.number == int(path.stem[-3:])
        assert rites[chapter.rite].order == juan.number
        titled += sum(1 for s in chapter.sections if s.title and s.title.startswith("右"))
        for p in chapter.passages():
            assert p.text and not any(label in p.text for label in LABELS)
            for b in p.blocks:
                assert b.voice in people and b.text
                if b.kind == "quote":
                    assert "繼公謂" not in b.text and "繼公案" not in b.text
    assert titled == len(headings)
    assert_lossless(doc)
    for unit in units(doc):
        assert_pieced(unit, text)


@pytest.mark.parametrize("path", JUANS, ids=lambda p: p.name)
def test_sample_text_is_all_claimed(path: Path) -> None:
    """Every character of the book's lines is in a unit's segment, not thrown to layout."""
    doc = read_work(path)
    layout = [s for s in doc.segments if s.kind is Seg.LAYOUT]
    stray = "".join(doc.text[s.start : s.end] for s in layout)
    assert not re.sub(r"[\s\u3000¶()/]", "", stray)


def test_front_matter_sample() -> None:
    doc = read_work(SAMPLE / "KR1d0035" / "KR1d0035_000.txt")
    assert [(b.label, b.voice) for b in doc.abstract] == [
        ("提要", "siku-editors"),
        ("原序", "aojigong"),
    ]
    assert doc.abstract[0].text.startswith("臣等謹按儀禮集説十七卷")
    assert "總纂官" not in doc.abstract[0].text and doc.abstract[1].text.endswith("敖繼公謹序")
    assert_lossless(doc)


# -- malformed input -----------------------------------------------------------------------

FRAGMENTS = [
    "\u3000", "\u3000\u3000\u3000\u3000", "(", ")", "/", "¶", "\n", "¶\n", "右", "記", "注曰",
    "繼公謂", "疏曰", "朱子曰", "正誤", "士冠禮第一", "儀禮集説卷一", "儀禮集說卷五上",
    "　元　敖繼公　撰", "<pb:KR1d0035_WYG_001-1a>", "<pb:bad>", "#+PROPERTY: JUAN 提要\n",
    "#+PROPERTY: JUAN 卷二\n", "筮于廟門", "甲乙丙丁戊己庚辛壬癸", "&KR0879;", "欽定四庫全書",
]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["KR1d0035", "KR9z0001"]),
    st.lists(st.sampled_from(FRAGMENTS), max_size=60),
)
def test_malformed_input_never_crashes(text_id: str, parts: list[str]) -> None:
    text = HEAD.format(id=text_id) + "".join(parts)
    doc = read(text)
    assert_lossless(doc)
    for unit in units(doc):
        assert_pieced(unit, text)
        assert getattr(unit, "voice", "x")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_any_text_after_the_header_never_crashes(body: str) -> None:
    text = HEAD.format(id="KR1d0035") + body
    doc = read(text)
    assert_lossless(doc)
    for unit in units(doc):
        assert_pieced(unit, text)


@pytest.mark.parametrize("work", ["KR1d0028", "KR1d0035"])
def test_read_work_dispatches_by_layout(work: str) -> None:
    path = sorted((SAMPLE / work).glob(f"{work}_00[1-9].txt"))[0]
    doc = read_work(path)
    info = work_of(path.read_text(encoding="utf-8"))
    assert doc.work == info and doc.juans and doc.chapters()[0].rite == "shiguanli"
    voices = {b.voice for c in doc.chapters() for p in c.passages() for b in p.blocks}
    assert "zhengxuan" in voices and "anonymous" not in voices
    assert_lossless(doc)
