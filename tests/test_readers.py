"""Readers on texts we wrote (other chapters of the 仪礼) and on the seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.readers import parse_text, read
from kg.text.catalog import load_catalog
from kg.text.document import Document, Seg

from conftest import FIXTURES, SEED_FILES

X = Path("x.txt")


def sections(doc: Document) -> list[tuple[str | None, int, int]]:
    """(title, passages, records) of every section, in order."""
    return [
        (s.title, len(s.passages), len(s.records))
        for j in doc.juans
        for c in j.chapters
        for s in c.sections
    ]


def texts(doc: Document, kind: Seg) -> list[str]:
    return [doc.text[s.start : s.end] for s in doc.segments if s.kind is kind]


# -- one reader per layout, chosen automatically ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("paged_shixiangjian.txt", "paged"),
        ("indented_pinli.txt", "indented"),
        ("paragraphs_tesheng.txt", "paragraphs"),
        ("tagged_shisang.txt", "tagged"),
        ("plain_shaolao.txt", "plain"),
    ],
)
def test_layout_is_detected(name: str, layout: str) -> None:
    assert read(FIXTURES / name, manifest={}).layout == layout


def test_seed_layouts() -> None:
    layouts = [read(p).layout for p in SEED_FILES]
    assert layouts == ["paged", "tagged", "indented", "paragraphs", "paragraphs"]


def test_paged_reader_structure() -> None:
    doc = read(FIXTURES / "paged_shixiangjian.txt", manifest={})
    (juan,) = doc.juans
    assert juan.number == 8 and juan.placement == "marker"
    (ch,) = juan.chapters
    assert (ch.title, ch.rite, ch.category) == ("士相见礼", "shixiangjianli", "宾礼")
    assert ch.preface is not None and len(ch.preface.blocks) == 1
    assert sections(doc) == [("请见", 3, 0), ("辞挚", 3, 2), ("宾反见", 2, 0), (None, 1, 0)]
    # both page headers are noise, and a passage split by one stays two passages
    assert texts(doc, Seg.NOISE) == ["礼经本义 - 第 3 页/共 12 页", "礼经本义 - 第 4 页/共 12 页"]
    assert [i.kind for i in doc.issues].count("noise") == 2


def test_records_follow_their_heading() -> None:
    doc = read(FIXTURES / "paged_shixiangjian.txt", manifest={})
    sec = doc.juans[0].chapters[0].sections[1]
    assert sec.title == "辞挚"
    assert [r.text for r in sec.records] == ["士见于大夫终辞其挚", "于其入也一拜其辱也"]
    assert [n.text for r in sec.records for n in r.commentary] == ["终辞不受也", "拜其屈辱而来也"]


def test_source_note_on_a_heading() -> None:
    doc = read(FIXTURES / "paged_shixiangjian.txt", manifest={})
    sec = doc.juans[0].chapters[0].sections[2]
    assert sec.title == "宾反见"
    assert [(n.kind, n.text) for n in sec.notes] == [(Seg.SOURCE_NOTE, "此条旧在篇末今移于此")]


def test_indented_reader_closes_and_opens_juan() -> None:
    doc = read(FIXTURES / "indented_pinli.txt", manifest={})
    assert [(j.number, j.placement) for j in doc.juans] == [(8, "close-marker"), (9, "marker")]
    first, second = doc.juans
    assert first.chapters[0].rite == "pinli" and first.chapters[0].placement == "recognized"
    assert first.chapters[0].sections[0].starts_mid
    assert second.chapters[0].title == "聘礼"
    assert sections(doc) == [("夕币", 1, 0), ("命使", 2, 1), (None, 1, 0)]
    # full-width indentation is layout, not text
    assert all(not t.startswith("\u3000") for t in texts(doc, Seg.PASSAGE))


def test_reading_mark_inside_a_record() -> None:
    doc = read(FIXTURES / "indented_pinli.txt", manifest={})
    (rec,) = doc.juans[1].chapters[0].sections[0].records
    assert rec.text == "使者既受行日朝同位出祖释軷"
    assert rec.reading_breaks == [len("使者既受行日朝同位")]
    assert [n.text for n in rec.commentary] == ["軷谓祭道路之神也"]


def test_paragraph_reader() -> None:
    doc = read(FIXTURES / "paragraphs_tesheng.txt", manifest={})
    assert doc.juans[0].number == 15
    ch = doc.juans[0].chapters[0]
    assert (ch.title, ch.category) == ("特牲馈食礼", "吉礼")
    assert sections(doc) == [("筮日", 4, 1), (None, 1, 0)]
    assert texts(doc, Seg.NOISE) == ["<经部,礼类,仪礼之属,礼经本义>"]
    assert texts(doc, Seg.FURNITURE) == ["礼经本义", "钦定四库全书", "无锡蔡德晋撰"]


def test_tagged_reader() -> None:
    doc = read(FIXTURES / "tagged_shisang.txt", manifest={})
    assert doc.metadata["author"] == "蔡德晋" and doc.metadata["dec"] == "测试用的单行导出"
    assert doc.juans[0].number == 12
    assert doc.juans[0].chapters[0].title == "士丧礼"
    assert sections(doc) == [("复", 3, 2), ("赴", 1, 0)]
    assert texts(doc, Seg.NOISE) == ["✜✜✜✜未完待续>>>完整版请登录某网站✜✜✜✜"]
    recs = doc.juans[0].chapters[0].sections[0].records
    assert [r.text for r in recs] == ["楔齿用角柶缀足用燕几", "奠脯醢醴酒升自阼阶奠于尸东"]


def test_plain_fallback_and_recognition() -> None:
    doc = read(FIXTURES / "plain_shaolao.txt", manifest={})
    ch = doc.juans[0].chapters[0]
    assert (ch.rite, ch.placement) == ("shaolaokuishili", "recognized")
    assert doc.juans[0].number is None
    assert any("juan unknown" in i.message for i in doc.issues)


def test_fragment_recognised_by_key_terms() -> None:
    doc = read(FIXTURES / "fragment_dashe.txt", manifest={})
    assert doc.juans[0].chapters[0].rite == "dasheyi"


def test_manifest_wins_over_recognition(tmp_path: Path) -> None:
    f = tmp_path / "frag.txt"
    f.write_text((FIXTURES / "fragment_dashe.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "manifest.toml").write_text('["frag.txt"]\njuan = 6\nchapter = "燕礼"\n')
    doc = read(f)
    assert (doc.juans[0].number, doc.juans[0].placement) == (6, "manifest")
    assert (doc.juans[0].chapters[0].rite, doc.juans[0].chapters[0].placement) == (
        "yanli",
        "manifest",
    )


def test_seed_fragments_are_placed_without_the_manifest() -> None:
    placed = {}
    for p in SEED_FILES:
        doc = read(p, manifest={})
        placed[p.name[:3]] = doc.juans[0].chapters[0].rite
    assert placed == {
        "000": "xiangsheli",
        "001": "shiguanli",
        "002": "dasheyi",
        "003": "yanli",
        "004": "shihunli",
    }


# -- structural markers --------------------------------------------------------------------


@pytest.mark.parametrize("rite", sorted(load_catalog().rites))
def test_every_chapter_title_is_recognised(rite: str) -> None:
    label = load_catalog().rites[rite].label
    doc = parse_text(f"礼经本义卷三\n嘉礼\n{label}\n【题解】\n某甲升自西阶\n【注】\n右某节\n", X)
    ch = doc.juans[0].chapters[0]
    assert (ch.title, ch.rite) == (label, rite)
    assert ch.preface is not None and [b.text for b in ch.preface.blocks] == ["题解"]


def test_ordinary_you_is_text_not_a_heading() -> None:
    text = "上射于右下射于左右还而反位\n【右还回身右转也】\n右手执弓左手执弣\n右节"
    doc = parse_text(text, X)
    # 右 mid-line is text; a line opening with a long 右… run is a passage; 右节 is a heading
    assert sections(doc) == [("节", 2, 0)]
    assert doc.juans[0].chapters[0].sections[0].passages[1].text == "右手执弓左手执弣"


def test_heading_after_commentary_on_the_same_line() -> None:
    doc = parse_text("宾升自西阶【升堂也】 右宾升 宾坐【坐跪也】\n主人降", X)
    assert sections(doc) == [("宾升", 1, 1), (None, 1, 0)]


def test_glued_textual_note_stays_with_its_passage() -> None:
    doc = parse_text("二耦卒射亦如之【二耦卒射之二郑本误作三】 【上射于左降阶也】", X)
    (p,) = doc.juans[0].chapters[0].sections[0].passages
    assert p.text == "二耦卒射亦如之"
    assert [(n.kind, n.text) for n in p.notes] == [(Seg.TEXTUAL_NOTE, "二耦卒射之二郑本误作三")]
    assert [c.text for c in p.commentary] == ["上射于左降阶也"]


def test_commentary_with_voice_separators_is_one_block() -> None:
    doc = parse_text("主人答拜\n【答拜于阼阶上也○郝仲舆曰答拜不言北面　敖君善曰北面】", X)
    (p,) = doc.juans[0].chapters[0].sections[0].passages
    assert len(p.commentary) == 1 and "○" in p.commentary[0].text


def test_front_matter_preface_and_furniture() -> None:
    doc = parse_text(
        "钦定四库全书\n礼经本义卷一\n无锡蔡徳晋撰\n五礼之仪\n【总叙】\n嘉礼\n士冠礼\n", X
    )
    (juan,) = doc.juans
    assert [(p.title, [b.text for b in p.blocks]) for p in juan.prefaces] == [
        ("五礼之仪", ["总叙"])
    ]
    assert texts(doc, Seg.FURNITURE) == ["钦定四库全书", "无锡蔡徳晋撰"]


def test_orphan_close_and_unbalanced_open_are_reported() -> None:
    doc = parse_text("也不言外弥亲之也】\n主人出门【门大门也\n宾入", X)
    sec = doc.juans[0].chapters[0].sections[0]
    assert [o.text for o in sec.orphans] == ["也不言外弥亲之也"]
    assert not sec.orphans[0].opened
    (p, q) = sec.passages
    assert p.commentary[0].text == "门大门也" and not p.commentary[0].closed
    assert q.text == "宾入"
    assert sorted(i.kind for i in doc.issues) == ["unbalanced", "unbalanced"]


def test_garbled_characters_are_kept_and_reported() -> None:
    doc = parse_text("主人?拜\ue000宾", X)
    (p,) = doc.juans[0].chapters[0].sections[0].passages
    assert p.text == "主人?拜\ue000宾"
    assert [i.kind for i in doc.issues] == ["garbled", "garbled"]


# -- the seeds ---------------------------------------------------------------------------------


def test_no_commentary_inside_passages_and_no_passage_inside_commentary() -> None:
    for p in SEED_FILES:
        doc = read(p)
        for seg in doc.segments:
            body = doc.text[seg.start : seg.end]
            if seg.kind in (Seg.PASSAGE, Seg.RECORD):
                assert "【" not in body and "】" not in body, (p.name, body)
            if seg.kind is Seg.COMMENTARY:
                assert body.endswith("】") or not body.startswith("【"), (p.name, body[:20])


def test_seed_chapters_in_each_file() -> None:
    got = {
        p.name[:3]: [(j.number, c.rite) for j in read(p).juans for c in j.chapters]
        for p in SEED_FILES
    }
    assert got == {
        "000": [(4, "xiangsheli")],
        "001": [(1, "shiguanli"), (2, "shihunli"), (3, "xiangyinjiuli"), (4, "xiangsheli")],
        "002": [(6, "dasheyi"), (7, "gongshidafuli")],
        "003": [(5, "yanli")],
        "004": [(2, "shihunli"), (3, "xiangyinjiuli")],
    }
