"""The build with works of the tradition (kg/build/works.py): their files go to their own
stream, never into the book's alignment; no input crashes the build; a failed build keeps
the previous store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.build.phases import Phases
from kg.build.run import _Reader as Reader  # the build's reader, which plan() takes
from kg.build.run import build, plan
from kg.build.works import split_sources
from kg.errors import KgError
from kg.rdf.iris import Minter
from kg.rdf.tradition import TraditionEmitter
from kg.store import graph_counts, open_store
from kg.text.align import align
from kg.text.catalog import load_catalog

FIXTURES = Path(__file__).parent / "fixtures"
BOOK = FIXTURES / "kanripo_yili.txt"  # a juan of the book in Kanripo's layout

# pieces of the layouts the readers know, so junk reaches their corners
FRAGMENTS = [
    "#+TITLE: 儀禮集說\n",
    "#+TITLE: 儀禮注疏\n",
    "#+PROPERTY: ID KR1d0035\n",
    "#+PROPERTY: ID KR1d0028\n",
    "#+PROPERTY: ID KR1d0044\n",
    "#+PROPERTY: ID KR9z0001\n",
    "#+PROPERTY: JUAN 卷一\n",
    "<pb:KR1d0035_WYG_001-1a>¶\n",
    "禮經本義卷三\n",
    "儀禮集說卷一\n",
    "士冠禮第一\n",
    "鄉射禮第五\n",
    "　",
    "¶\n",
    "(筮/市制反)",
    "注曰",
    "疏(釋曰",
    ")",
    "繼公謂",
    "右筮日\n",
    "【",
    "】",
    "士冠禮筮于廟門",
    "主人玄冠朝服",
    "\n",
    "嘉禮\n",
    "考證",
    "卷",
]
junk = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)


def write(folder: Path, texts: list[str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, text in enumerate(texts):
        paths.append(folder / f"junk_{i:03}.txt")
        paths[-1].write_text(text, encoding="utf-8")
    return paths


def test_a_work_of_the_tradition_never_reaches_the_books_alignment(tmp_path: Path) -> None:
    """The crash of the issue: a 集说 juan read as the book made ``_juans`` fail."""
    work = tmp_path / "KR1d0035_001.txt"
    work.write_text(
        "#+TITLE: 儀禮集說\n#+PROPERTY: ID KR1d0035\n<pb:KR1d0035_WYG_001-1a>¶\n"
        "儀禮集說卷一¶\n士冠禮第一¶\n士冠禮筮于廟門¶\n　繼公謂筮日於廟門重其事也¶\n",
        encoding="utf-8",
    )
    book, works = split_sources([BOOK, work], "utf-8", Phases())
    assert book == [BOOK] and [w.path for w in works] == [work]
    assert works[0].work.slug == "yilijishuo"
    report = build([BOOK, work], tmp_path / "store")
    assert report.counts["chapters"] == 2  # the book's own two chapters, nothing merged in
    assert report.works["儀禮集說"]["passages"] >= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(junk, min_size=1, max_size=4))
def test_no_junk_crashes_reading_planning_or_alignment(tmp_path_factory, texts) -> None:
    folder = tmp_path_factory.mktemp("junk")
    paths = [BOOK, *write(folder, texts)]
    catalog = load_catalog()
    try:
        book, works = split_sources(paths, "utf-8", Phases())
        reader = Reader("utf-8", catalog)
        for part in plan(book, reader, Phases(), None):
            align([reader(f) for f in part], catalog, abstract=False)
        emitter = TraditionEmitter(Minter(), catalog, {w.path: w.path.stem for w in works})
        for w in works:
            list(emitter.document(w))
    except KgError as e:  # a clear one-line error is fine; anything else is a crash
        assert "\n" not in str(e)
    shutil.rmtree(folder)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(junk, min_size=1, max_size=3))
def test_no_junk_mixed_with_the_book_crashes_the_build(tmp_path_factory, texts) -> None:
    folder = tmp_path_factory.mktemp("build")
    paths = [BOOK, *write(folder / "src", texts)]
    try:
        report = build(paths, folder / "store")
    except KgError as e:
        assert "\n" not in str(e)
    else:
        assert report.triples > 0 and report.counts["chapters"] >= 2
    shutil.rmtree(folder)


def test_a_failed_build_keeps_the_previous_store(tmp_path: Path, monkeypatch) -> None:
    work = tmp_path / "src" / "KR1d0035_001.txt"
    work.parent.mkdir()
    work.write_text("#+PROPERTY: ID KR1d0035\n士冠禮第一¶\n士冠禮筮于廟門¶\n", encoding="utf-8")
    store = tmp_path / "store"
    build([BOOK], store)
    before = graph_counts(open_store(store))

    def fail(self, doc):
        yield from ()
        raise KgError(f"{doc.path}: failing on purpose")

    monkeypatch.setattr(TraditionEmitter, "document", fail)
    with pytest.raises(KgError, match="on purpose"):
        build([BOOK, work], store)
    assert graph_counts(open_store(store)) == before


def test_a_chapter_with_no_juan_of_its_own_goes_where_its_files_juan_went(tmp_path: Path):
    """The book's own IndexError in ``_juans``: an unnumbered juan placed by one chapter's
    number, holding another chapter no witness numbers."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("禮經本義卷三\n士冠禮\n士冠禮筮于廟門主人玄冠朝服\n", encoding="utf-8")
    b.write_text("士冠禮\n筮于廟門主人玄冠朝服\n鄉射禮\n鄉射之禮主人戒賓\n", encoding="utf-8")
    catalog = load_catalog()
    reader = Reader("utf-8", catalog)
    corpus = align([reader(a), reader(b)], catalog, abstract=False)
    assert [(j.number, [c.rite for c in j.chapters]) for j in corpus.juans] == [
        (3, ["shiguanli", "xiangsheli"])
    ]
