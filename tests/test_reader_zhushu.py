"""The 儀禮注疏 reader (kg/readers/tradition/zhushu.py) on short invented juans in its layout,
and on the shared sample juans as a whole."""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.readers.titles import rite_for
from kg.readers.tradition.boundary import CharModel, Splitter
from kg.readers.tradition.layout import read_lines, stream
from kg.readers.tradition.zhushu import read_zhushu
from kg.text.catalog import load_catalog
from kg.text.normalize import normalize
from kg.text.tradition import WorkDocument

SAMPLE = Path("/work/shared/corpus/tradition")
for _up in Path(__file__).resolve().parents:
    if (_up / "shared" / "corpus" / "tradition").is_dir():
        SAMPLE = _up / "shared" / "corpus" / "tradition"
        break
ZHUSHU = sorted((SAMPLE / "KR1d0028").glob("KR1d0028_*.txt"))
JUANS = [p for p in ZHUSHU if not p.name.endswith("_000.txt")]
needs_sample = pytest.mark.skipif(not ZHUSHU, reason="no shared sample of 儀禮注疏")

HEAD = (
    "# -*- mode: mandoku-view; -*-\n"
    "#+TITLE: 儀禮注疏\n"
    "#+PROPERTY: ID KR1d0028\n"
    "#+PROPERTY: BASEEDITION WYG    \n"
    "#+PROPERTY: JUAN 卷三\n"
    "<pb:KR1d0028_WYG_003-1a>¶\n"
    "欽定四庫全書¶\n"
    "　儀禮注疏卷三¶\n"
    "　　漢鄭氏注　唐陸徳明音義　賈公彦疏¶\n"
)
# an invented juan in the print's layout: a 注 wrapping over a line, 音義 and a 疏 in small
# print over two lines with its 釋曰 (opening a stretch) and 注釋曰 parts, ○ before 经文, a 疏
# on its own passage, the 記, and the 考證 after its heading
JUAN = HEAD + (
    "　士相見禮第三¶\n"
    "士相見之禮摯冬用雉夏用腒注摯所執以至者君子見¶\n"
    "於所尊敬必執摯以將其厚意也音義(摯音至腒其/居反)疏(釋曰自此至主人/答再拜一節論賓見主)¶\n"
    "(人之事注釋曰云摯所執/以至者謂執之以至也)¶\n"
    "左頭奉之曰某也願見注左頭頭陽也○主人對曰某子命¶\n"
    "某見注命猶敎也疏(釋曰此主人辭/也)主人答再拜注答拜也音義(答如/字)¶\n"
    "<pb:KR1d0028_WYG_003-1b>¶\n"
    "賓出主人送于門外再拜注送之禮也疏(釋曰自此盡經末/論送賓之事)¶\n"
    "記士見於大夫終辭其摯注終猶更也¶\n"
    "　儀禮注疏卷三¶\n"
    "#+PROPERTY: JUAN 卷三考證\n"
    "　儀禮注疏卷三考證¶\n"
    "士相見之禮疏謂執之以至○監本脱之字(臣某/)按¶\n"
    "　今補之¶\n"
    "主人答再拜注答拜也○監本無也字¶\n"
)


def read(text: str, name: str = "KR1d0028_003.txt") -> WorkDocument:
    return read_zhushu(Path(name), text)


def lossless(doc: WorkDocument) -> bool:
    segs = doc.segments
    ordered = all(a.end == b.start for a, b in itertools.pairwise(segs))
    return ordered and "".join(doc.text[s.start : s.end] for s in segs) == doc.text


def test_chapter_passages_and_blocks_of_an_invented_juan() -> None:
    doc = read(JUAN)
    assert [j.number for j in doc.juans] == [3]
    (ch,) = doc.chapters()
    assert ch.title == "士相見禮第三"
    assert ch.rite is not None and ch.rite == rite_for(load_catalog(), "士相见礼")
    assert [p.text for p in ch.passages()] == [
        "士相見之禮摯冬用雉夏用腒",
        "左頭奉之曰某也願見",
        "主人對曰某子命某見",
        "主人答再拜",
        "賓出主人送于門外再拜",
        "士見於大夫終辭其摯",
    ]
    first = ch.passages()[0]
    assert [(b.kind, b.voice, b.label) for b in first.blocks] == [
        ("zhu", "zhengxuan", "注"),
        ("yinyi", "ludeming", "音義"),
        ("shu", "jiagongyan", "釋曰"),
        ("shu-zhu", "jiagongyan", "注釋曰"),
    ]
    zhu, yinyi, shu, shu_zhu = first.blocks
    assert zhu.text == "摯所執以至者君子見於所尊敬必執摯以將其厚意也"  # across the ¶ line end
    assert yinyi.text == "摯音至腒其居反"
    assert shu.text == "自此至主人答再拜一節論賓見主人之事"  # two small columns, two lines
    assert shu_zhu.text == "云摯所執以至者謂執之以至也" and shu_zhu.comments_on == 0
    assert doc.text[zhu.label_span[0] : zhu.label_span[1]] == "注"
    assert doc.text[zhu.file_offset(0) : zhu.file_offset(0) + 3] == "摯所執"
    assert [b.kind for b in ch.passages()[2].blocks] == ["zhu", "shu"]
    assert not doc.issues
    assert lossless(doc)


def test_sections_from_the_stretches_a_shu_names() -> None:
    ch = read(JUAN).chapters()[0]
    named = [(s.title, [p.text for p in s.passages]) for s in ch.sections]
    assert named[0] == (
        "論賓見主人之事",
        ["士相見之禮摯冬用雉夏用腒", "左頭奉之曰某也願見", "主人對曰某子命某見", "主人答再拜"],
    )
    assert ch.sections[0].covers == "自此至主人答再拜一節論賓見主人之事"
    assert named[1] == ("論送賓之事", ["賓出主人送于門外再拜", "士見於大夫終辭其摯"])
    assert sum(len(s.passages) for s in ch.sections) == len(ch.passages())


def test_record_after_its_heading_and_the_kaozheng_at_the_end() -> None:
    doc = read(JUAN)
    ch, juan = doc.chapters()[0], doc.juans[0]
    assert [p.record for p in ch.passages()] == [False] * 5 + [True]
    heading = [s for s in doc.segments if s.kind.value == "heading"]
    assert "記" in [doc.text[s.start : s.end] for s in heading]
    assert [(b.voice, b.kind) for b in juan.kaozheng] == [("siku-editors", "kaozheng")] * 2
    assert juan.kaozheng[0].text == "士相見之禮疏謂執之以至○監本脱之字臣某按今補之"
    assert not any("考證" in p.text or "儀禮注疏" in p.text for p in ch.passages())


def test_an_unknown_chapter_title_is_minted_and_reported() -> None:
    doc = read(JUAN.replace("士相見禮第三", "鄉校禮第十八"))
    ch = doc.chapters()[0]
    assert ch.title == "鄉校禮第十八" and ch.rite
    assert ch.rite not in load_catalog().rites
    assert any(i.kind == "structure" and "鄉校禮" in i.message for i in doc.issues)


def test_malformed_input_is_reported_with_its_line() -> None:
    text = HEAD + "　士冠禮第一¶\n注無經之注也疏(釋曰無/經)¶\n筮于庿門(注不/閉¶\n"
    doc = read(text)
    lines = {(i.kind, i.line) for i in doc.issues}
    assert ("structure", 11) in lines  # a 注 with no 经文 before it
    assert ("unbalanced", 12) in lines  # "(" never closed
    assert doc.chapters()[0].preface  # the orphan commentary is kept, not dropped
    assert lossless(doc)


def test_the_splitter_finds_an_unmarked_classic_after_a_note() -> None:
    classic = ["主人升自阼階", "賓升自西階", "主人拜賓答拜", "賓降主人辭", "賓升主人拜"]
    notes = ["升猶上也", "拜者謝其來也", "辭者辭其降也", "降猶下也", "答猶對也"]
    sp = Splitter(CharModel.train(notes), CharModel.train(classic))
    note = "謝其來也賓升自西階"
    assert sp.split(note, "升猶") == note.index("賓")
    assert sp.split("辭其降也謝其來", "也") is None  # 注 as a word inside a note


# -- the shared sample ---------------------------------------------------------------------

SAMPLE_RITES = {
    1: "士冠礼",
    2: "士昏礼",
    4: "乡饮酒礼",
    5: "乡射礼",
    6: "燕礼",
    7: "大射仪",
    9: "公食大夫礼",
}


@cache
def sample(path: Path) -> WorkDocument:
    return read_zhushu(path)


@cache
def jishuo_classic(number: int) -> str:
    """集说's 经文 of the same juan (indentation 0, small print left out): a second witness."""
    path = SAMPLE / "KR1d0035" / f"KR1d0035_{number:03d}.txt"
    text = path.read_text(encoding="utf-8")
    s = stream([ln for ln in read_lines(text).content() if ln.indent == 0], text)
    return _han("".join(c for c, small in zip(s.text, s.small, strict=True) if not small))


def _han(text: str) -> str:
    return re.sub(r"[^\u3400-\u9fff\U00020000-\U0003ffff]", "", normalize(text))


@needs_sample
@pytest.mark.parametrize("path", ZHUSHU, ids=lambda p: p.name)
def test_sample_is_read_losslessly(path: Path) -> None:
    doc = sample(path)
    assert lossless(doc)
    assert doc.work.text_id == "KR1d0028" and doc.work.edition == "WYG"
    assert doc.pages and doc.pages[0][1].startswith("WYG ")


@needs_sample
@pytest.mark.parametrize("path", JUANS, ids=lambda p: p.name)
def test_sample_juan_structure(path: Path) -> None:
    doc = sample(path)
    (juan,) = doc.juans
    (ch,) = juan.chapters
    assert ch.rite == rite_for(load_catalog(), SAMPLE_RITES[juan.number])
    passages = ch.passages()
    assert 100 <= len(passages) <= 600
    assert sum(bool(p.blocks) for p in passages) >= 0.9 * len(passages)
    for p in passages:
        assert "釋曰" not in p.text and "音義" not in p.text and p.text.strip()
        for b in p.blocks:
            assert b.voice and b.text
            if b.kind == "shu-zhu" and b.comments_on is not None:
                assert p.blocks[b.comments_on].kind == "zhu"
    orphans = sum(b.comments_on is None for p in passages for b in p.blocks if b.kind == "shu-zhu")
    reported = sum("注釋曰 explaining" in i.message for i in doc.issues)
    assert orphans == reported
    named = [s for s in ch.sections if s.title]
    assert len(named) >= 5 and all(s.title.startswith("論") for s in named)
    assert juan.kaozheng and {b.voice for b in juan.kaozheng} == {"siku-editors"}


@needs_sample
@pytest.mark.parametrize("path", JUANS, ids=lambda p: p.name)
def test_sample_classic_boundaries_agree_with_jishuo(path: Path) -> None:
    """The 经文 cut out of 注疏 is found verbatim (after normalization) in 集说's 经文: a
    passage holding 注 words, or a 注 swallowing 经文 would not be."""
    doc = sample(path)
    witness = jishuo_classic(doc.juans[0].number)
    passages = doc.chapters()[0].passages()
    found = sum(_han(p.text) in witness for p in passages)
    assert found >= 0.8 * len(passages)


@needs_sample
def test_front_matter_is_the_abstract() -> None:
    doc = sample(SAMPLE / "KR1d0028" / "KR1d0028_000.txt")
    assert not doc.juans
    kinds = {b.kind: b for b in doc.abstract}
    assert {"preface", "abstract", "contents", "kaozheng"} <= set(kinds)
    assert kinds["abstract"].voice == "siku-editors" and len(kinds["abstract"].text) > 200


# -- malformed input never crashes ------------------------------------------------------------

ALPHABET = "注疏音義釋曰自此至論記○()/¶\u3000\n士冠禮第一卷<>pb:#+儀"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=300))
def test_random_text_never_crashes(body: str) -> None:
    doc = read(HEAD + "　士冠禮第一¶\n" + body)
    assert lossless(doc)


@needs_sample
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_cut_and_garbled_sample_never_crashes(data: st.DataObject) -> None:
    text = (SAMPLE / "KR1d0028" / "KR1d0028_009.txt").read_text(encoding="utf-8")[:20000]
    cut = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.binary(max_size=40)).decode("latin-1")
    at = data.draw(st.integers(0, cut))
    doc = read(text[:at] + junk + text[at:cut])
    assert lossless(doc)


def test_a_witness_shows_where_a_note_runs_on_into_the_classic() -> None:
    text = HEAD + (
        "　士相見禮第三¶\n"
        "主人退賓拜辱注退猶去也去又拜辱者以送謝之介亦如之注如戒賓也疏(釋曰此/主人退)¶\n"
    )
    alone = read(text).chapters()[0]
    assert [p.text for p in alone.passages()] == ["主人退賓拜辱"]  # too little to learn from
    rite = alone.rite
    assert rite is not None
    witnessed = read_zhushu(Path("x.txt"), text, witness={rite: "主人退，賓拜辱。介亦如之。"})
    passages = witnessed.chapters()[0].passages()
    assert [p.text for p in passages] == ["主人退賓拜辱", "介亦如之"]
    assert [b.text for b in passages[0].blocks] == ["退猶去也去又拜辱者以送謝之"]
    assert [b.kind for b in passages[1].blocks] == ["zhu", "shu"]
    assert passages[1].blocks[0].text == "如戒賓也"
    # a witness that does not spell the hidden 经文 cuts nothing
    other = read_zhushu(Path("x.txt"), text, witness={rite: "主人退賓拜辱賓出"})
    assert len(other.chapters()[0].passages()) == 1
    assert lossless(witnessed)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400), st.sampled_from(["", HEAD, HEAD.replace("卷三", "提要")]))
def test_any_text_with_or_without_a_header_never_crashes(body: str, head: str) -> None:
    doc = read(head + body)
    assert lossless(doc)
    for p in [p for ch in doc.chapters() for p in ch.passages()]:
        assert p.text and all(doc.text[a:b] for a, b in p.pieces)
