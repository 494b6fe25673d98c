"""The Kanripo reader: juan files of the Mandoku org-mode view, alone and beside the seeds.

Fixtures we wrote in the layout (tests/fixtures/kanripo_*.txt: a juan of 士喪禮, the 逸禮
of juan 17) and the sample of 卷一 (../shared/corpus/kanripo/, a third witness of seed 001's
士冠礼 in traditional characters).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rdflib import RDF, RDFS, URIRef

from kg.build.run import build
from kg.cli import cli
from kg.errors import InputError
from kg.queries import resolve_query
from kg.rdf.emit import Emitter, Lit
from kg.rdf.iris import Minter
from kg.rdf.namespaces import LJ
from kg.readers import parse_text, read, source_files
from kg.store import open_store, store_base
from kg.text.align import align
from kg.text.catalog import load_catalog
from kg.text.document import Document, Seg
from kg.text.normalize import normalize, skeleton

from conftest import FIXTURES, ROOT, SEEDS, select

CAT = load_catalog()
SHISANG = FIXTURES / "kanripo_shisangli.txt"
YILI = FIXTURES / "kanripo_yili.txt"
SAMPLE_DIR = ROOT.parent / "shared" / "corpus" / "kanripo"
SAMPLE = SAMPLE_DIR / "KR1d0044_001.txt"
SEED_001 = next(SEEDS.glob("001_*.txt"))
needs_sample = pytest.mark.skipif(not SAMPLE.is_file(), reason=f"no Kanripo sample at {SAMPLE}")
X = Path("x.txt")
HEADER = "#+TITLE: 禮經本義\n#+PROPERTY: ID KR1d0044\n#+PROPERTY: BASEEDITION WYG\n"


def chapter(doc: Document, rite: str):
    return next(c for c in doc.chapters() if c.rite == rite)


def assert_partition(doc: Document) -> None:
    pos = 0
    for s in sorted(doc.segments, key=lambda s: s.start):
        assert (s.start, s.end > s.start) == (pos, True), (s, pos)
        pos = s.end
    assert pos == len(doc.text)


def quads(docs: list[Document]) -> set[tuple]:
    return set(Emitter(align(docs, CAT), CAT, Minter()).quads())


def typed(qs: set[tuple], *classes) -> set[str]:
    return {str(s) for s, p, o, _ in qs if p == RDF.type and o in classes}


def objects(qs: set[tuple], s, p) -> set:
    return {o for s_, p_, o, _ in qs if s_ == s and p_ == p}


# -- reading one juan file ---------------------------------------------------------------------


def test_kanripo_files_are_detected() -> None:
    for path in (SHISANG, YILI):
        assert read(path).layout == "kanripo"


def test_header_becomes_work_metadata() -> None:
    doc = read(SHISANG)
    assert doc.metadata["text_id"] == "KR1d0044"
    assert doc.metadata["edition"] == "WYG"  # trailing blanks of the header line dropped
    assert doc.metadata["juan"] == "卷十二" and doc.metadata["name"] == "禮經本義"
    assert doc.metadata["link"].endswith("/KR1d0044/012")
    assert {doc.text[s.start : s.end][:2] for s in doc.segments if s.kind is Seg.METADATA} == {
        "# ",
        "#+",
    }


def test_structure_of_a_juan() -> None:
    doc = read(SHISANG)
    (juan,) = doc.juans
    assert (juan.number, juan.placement) == (12, "marker")
    (ch,) = juan.chapters
    # the category stands at two full-width spaces, like the chapter title
    assert (ch.title, ch.rite, ch.category) == ("士喪禮", "shisangli", "凶禮")
    assert [s.title for s in ch.sections] == ["始死", "赴君", "即位", "飯含", "筮宅"]
    assert [(len(s.passages), len(s.records)) for s in ch.sections] == [
        (5, 2),
        (1, 0),
        (2, 0),
        (2, 0),
        (1, 0),
    ]
    assert all(len(u.commentary) == 1 for s in ch.sections for u in (*s.passages, *s.records))
    assert doc.issues == []


def test_classic_is_joined_across_column_lines_and_pages() -> None:
    doc = read(SHISANG)
    passage = chapter(doc, "shisangli").sections[0].passages[1]
    assert passage.text == (
        "復者一人以爵弁服簪裳于衣左何之扱領于帶升自前東榮中屋北面招以衣曰皋某復三降衣于前"
        "受用篋升自阼階以衣尸"
    )
    assert len(passage.pieces) == 3  # three printed lines, a page break between two
    assert doc.pages_of(passage.pieces) == ["WYG 012-1a", "WYG 012-1b"]
    assert passage.text == "".join(doc.text[a:b] for a, b in passage.pieces)


def test_a_classic_line_starting_with_you_is_not_a_heading() -> None:
    # "右三實一貝…" wraps onto a new column line: 经文 goes on, no section 三實一貝…
    ch = chapter(read(SHISANG), "shisangli")
    assert "實于右三實一貝" in ch.sections[3].passages[1].text
    assert not any(s.title.startswith("三") for s in ch.sections)


def test_a_record_line_starting_with_you_huan_runs_on() -> None:
    text = HEADER + (
        "　　士冠禮¶\n主人迎賔¶\n　(迎於門/外)¶\n"
        "　　　右迎賔　記主人升自阼階立于序端西面乃¶\n　　　右還降(還轉/身也)¶\n"
    )
    (sec,) = parse_text(text, X).chapters()[0].sections
    assert sec.title == "迎賔"
    assert [r.text for r in sec.records] == ["記主人升自阼階立于序端西面乃右還降"]


def test_note_over_several_lines_is_one_commentary_in_reading_order() -> None:
    doc = read(SHISANG)
    block = chapter(doc, "shisangli").sections[0].passages[1].commentary[0]
    # right small column before "/", then the left one, then the next printed line
    assert block.text == (
        "復者有司招魂復魄也爵弁服純衣纁裳也簪連也左何之以左臂荷之也扱插也中屋當屋"
        "之中央也皋長聲也某死者之名也三者禮成於三也以衣尸冀其生氣之復也"
    )
    assert "".join(doc.text[a:b] for a, b in block.pieces) == f"({block.text})"
    # the "/" and the ")(" joining two printed lines are layout
    layout = {doc.text[s.start : s.end].strip("\n\u3000¶") for s in doc.segments}
    assert {"/", ")", "("} <= layout


def test_note_running_over_a_page_break() -> None:
    doc = read(SHISANG)
    block = chapter(doc, "shisangli").sections[0].passages[2].commentary[0]
    assert block.text.endswith("敖君善曰此二者皆以便於斂事也")
    assert doc.pages_of(block.pieces) == ["WYG 012-1b", "WYG 012-2a"]


def test_heading_with_records_wrapped_and_noted() -> None:
    sec = chapter(read(SHISANG), "shisangli").sections[0]
    assert sec.title == "始死"
    # the heading line runs on at four full-width spaces; each note closes a record
    assert [r.text for r in sec.records] == ["記士處適寢寢東首于北墉下有疾疾者齊養者皆齊", "徹琴瑟"]
    assert [r.commentary[0].text for r in sec.records] == ["齊謂齊其心也", "去樂也"]


def test_reading_mark_and_source_note() -> None:
    ch = chapter(read(SHISANG), "shisangli")
    p = ch.sections[1].passages[0]
    assert p.text == "乃赴于君主人西階東南面命赴者拜送有賔則拜之"
    assert p.reading_breaks == [len("乃赴于君主人西階東南面命赴者拜送")]
    (note,) = ch.sections[3].notes
    assert (note.kind, note.text) == (Seg.SOURCE_NOTE, "此條朱子以記補")


def test_characters_outside_the_bmp_are_kept_and_normalized() -> None:
    ch = chapter(read(SHISANG), "shisangli")
    passage = ch.sections[3].passages[0]
    assert "握手用𤣥纁裏" in passage.text and "握手用玄纁里" in normalize(passage.text)
    note = ch.sections[4].passages[0].commentary[0]
    assert note.text.startswith("宅𦵏居") and normalize(note.text).startswith("宅葬居")


def test_lost_rites_of_juan_17() -> None:
    doc = read(YILI)
    (juan,) = doc.juans
    assert juan.number == 17
    # 逸禮 heads the juan (front matter with its note), then two lost rites as chapters
    assert [p.title for p in juan.prefaces] == ["逸禮"]
    assert juan.prefaces[0].blocks[0].text.startswith("吳氏澄曰儀禮十七篇之外逸經")
    assert [c.rite for c in juan.chapters] == ["touhuli", "bensangli"]
    assert [s.title for c in juan.chapters for s in c.sections] == ["請投", "始聞喪"]
    # a note begun on the title line runs on below it: one preface block
    (block,) = juan.chapters[1].preface.blocks
    assert block.text == "奔喪謂聞喪於他國而歸也始聞喪者身在他國也"
    assert doc.pages_of([juan.chapters[1].title_span]) == ["WYG 017-1b"]


def test_front_matter_file_is_the_abstract() -> None:
    text = (
        HEADER + "#+PROPERTY: JUAN 提要\n<pb:KR1d0044_WYG_000-1a>¶\n欽定四庫全書¶\n"
        "　提要¶\n　　(臣)等謹案禮經本義十七卷¶\n　　國朝蔡德晉撰¶\n"
    )
    doc = parse_text(text, X)
    assert doc.juans == [] and doc.abstract is not None
    assert doc.abstract.text == "欽定四庫全書提要(臣)等謹案禮經本義十七卷國朝蔡德晉撰"
    assert_partition(doc)


def test_juan_from_the_header_when_the_title_line_is_missing() -> None:
    doc = parse_text(HEADER + "#+PROPERTY: JUAN 卷三\n主人戒賔¶\n　(戒告也)¶\n", X)
    assert [(j.number, j.placement) for j in doc.juans] == [(3, "header")]


def test_juan_title_of_another_work_named_in_the_header() -> None:
    text = "#+TITLE: 儀禮集說\n#+PROPERTY: JUAN 卷二\n　儀禮集說卷二¶\n　　士昏禮¶\n納采用鴈¶\n"
    doc = parse_text(text, X)
    assert [(j.number, j.placement) for j in doc.juans] == [(2, "marker")]
    assert doc.chapters()[0].rite == "shihunli"


def test_header_and_title_line_disagreeing_is_reported() -> None:
    doc = parse_text(HEADER + "#+PROPERTY: JUAN 卷三\n　禮經本義卷四¶\n", X)
    assert [j.number for j in doc.juans] == [4]
    assert [i.kind for i in doc.issues] == ["structure"] and doc.issues[0].line == 5


# -- bad input: the file and line, never a crash ------------------------------------------------


@pytest.mark.parametrize(
    ("body", "line", "what"),
    [
        ("主人¶\n<pb:KR1d0044_WYG_001-1a¶\n", 5, "not closed"),
        ("主人¶\n賔¶\n<pb:page-two>¶\n", 6, "malformed page marker"),
        ("#+PROPERTY:\n主人¶\n", 4, "#+PROPERTY"),
    ],
)
def test_malformed_org_files_fail_with_file_and_line(
    tmp_path: Path, body: str, line: int, what: str
) -> None:
    path = tmp_path / "KR1d0044_001.txt"
    path.write_text(HEADER + body, encoding="utf-8")
    with pytest.raises(InputError) as e:
        read(path)
    assert str(e.value).startswith(f"{path}:{line}: ") and what in str(e.value)
    result = CliRunner().invoke(cli, ["build", "--source", str(path), "--store", str(tmp_path)])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert f"{path}:{line}: " in result.output


def test_unbalanced_notes_are_read_and_reported() -> None:
    text = HEADER + "<pb:KR1d0044_WYG_001-1a>¶\n主人升¶\n　(升堂/也¶\n賔升)¶\n　　冠禮記¶\n"
    doc = parse_text(text, X)
    assert_partition(doc)
    kinds = sorted((i.kind, i.line) for i in doc.issues)
    # the open "(" is read to its line's end; the stray ")" and the unknown title are reported
    assert kinds == [("structure", 8), ("unbalanced", 6), ("unbalanced", 7)]
    # a title line no vocabulary knows is a chapter whose rite is minted from its name
    last = doc.chapters()[-1]
    assert (last.title, last.rite, last.minted) == ("冠禮記", "guanliji", "冠礼记")


PIECES = st.sampled_from(
    [
        "\n",
        "¶\n",
        "¶",
        "\u3000",
        "\u3000\u3000",
        "\u3000\u3000\u3000",
        "(",
        ")",
        "/",
        "(句/)",
        ")¶\n\u3000(",
        "<pb:KR1d0044_WYG_001-1a>",
        "<pb:KR1d0044_WYG_001-1b>¶\n",
        "<pb:",
        "<md:x>",
        "#+PROPERTY: JUAN 卷一\n",
        "#+PROPERTY: ID KR1d0044\n",
        "#+TITLE: 禮經本義\n",
        "# -*- mode: mandoku-view; -*-\n",
        "* 卷一\n",
        "右筮日",
        "右",
        "　禮經本義卷一",
        "欽定四庫全書",
        "嘉禮",
        "士冠禮",
        "𤣥冠",
        "𦵏",
        "  敖君善曰",
        "筮于廟門主人",
        "\r\n",
        "?",
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=40).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS)
@example(text="¶\u3000禮經本義卷一")  # blanks after a mark that opens a line were lost
def test_lossless_on_any_kanripo_like_text(text: str) -> None:
    try:
        doc = parse_text(HEADER + text, X, "kanripo")
    except InputError as e:
        assert e.line is not None and e.line >= 1  # a malformed marker: named, not a crash
        return
    assert_partition(doc)
    for c in doc.chapters():
        for s in c.sections:
            for u in (*s.passages, *s.records):
                assert u.text == "".join(doc.text[a:b] for a, b in u.pieces)
                for n in u.commentary:
                    assert all(doc.text[a:b] for a, b in n.pieces)


# -- the graph: pages, witness metadata -------------------------------------------------------


def test_every_unit_records_the_pages_it_is_printed_on() -> None:
    qs = quads([read(SHISANG), read(YILI)])
    units = typed(qs, LJ.Passage, LJ.Record, LJ.Commentary, LJ.Section, LJ.Chapter)
    pages = {u: {o.value for o in objects(qs, URIRef(u), LJ.page)} for u in units}
    assert units and all(pages.values()), [u for u, p in pages.items() if not p]
    # 復者 … runs over a page break, and so does the note on 楔齒
    two = {u.split("/shisangli/")[1].count("/"): p for u, p in pages.items() if len(p) == 2}
    assert two == {1: {"WYG 012-1a", "WYG 012-1b"}, 2: {"WYG 012-1b", "WYG 012-2a"}}
    for w in typed(qs, LJ.Witness):
        assert objects(qs, URIRef(w), LJ.page), w
        assert objects(qs, URIRef(w), LJ.baseEdition) == {Lit("WYG")}


def test_source_document_carries_the_repository_metadata() -> None:
    qs = quads([read(SHISANG)])
    (src,) = typed(qs, LJ.SourceDocument)
    src = URIRef(src)
    assert objects(qs, src, LJ.textId) == {Lit("KR1d0044")}
    assert objects(qs, src, LJ.baseEdition) == {Lit("WYG")}
    assert objects(qs, src, LJ.juanLabel) == {Lit("卷十二", "lzh")}
    assert objects(qs, src, LJ.layout) == {Lit("kanripo")}
    (link,) = objects(qs, src, RDFS.seeAlso)
    assert str(link).endswith("/KR1d0044/012")


# -- a folder of juan files ---------------------------------------------------------------------


def juan_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "KR1d0044"
    folder.mkdir()
    shutil.copy(YILI, folder / "KR1d0044_017.txt")
    shutil.copy(SHISANG, folder / "KR1d0044_012.txt")
    if SAMPLE.is_file():
        shutil.copy(SAMPLE, folder / "KR1d0044_001.txt")
        shutil.copy(SAMPLE_DIR / "Readme.org", folder / "Readme.org")
    return folder


def test_a_folder_is_read_in_juan_order(tmp_path: Path) -> None:
    folder = juan_folder(tmp_path)
    git = folder / ".git"  # a clone of the Kanripo repository
    (git / "objects" / "ab").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/master\n")
    (git / "objects" / "ab" / "cdef").write_bytes(b"x\x9c\x00\x01binary")
    names = [p.name for p in source_files([folder])]
    assert names == sorted(n for n in names if n.startswith("KR1d0044_"))  # Readme.org is no text
    store = tmp_path / "store"
    result = CliRunner().invoke(cli, ["build", "--source", str(folder), "--store", str(store)])
    assert result.exit_code == 0, result.output
    rows = select(
        open_store(store),
        """SELECT ?j ?c (MIN(?so) AS ?first) WHERE {
             ?ch a lj:Chapter ; rdfs:label ?c ; lj:order ?co ; dcterms:isPartOf/lj:order ?j .
             ?s dcterms:isPartOf ?ch ; lj:order ?so }
           GROUP BY ?j ?c ?co ORDER BY xsd:integer(?j) ?co""",
    )
    chapters = [r["c"] for r in rows]
    expected = ["士丧礼", "投壶礼", "奔丧礼"]
    if SAMPLE.is_file():
        expected = ["士冠礼", *expected]
    assert chapters == expected


def test_a_chapter_running_on_into_the_next_juan_file_keeps_its_order(tmp_path: Path) -> None:
    four = (
        HEADER + "#+PROPERTY: JUAN 卷四\n<pb:KR1d0044_WYG_004-1a>¶\n　禮經本義卷四¶\n　　鄉射禮¶\n"
        "主人戒賔賔出迎再拜¶\n　(戒告也)¶\n　　　右戒賔¶\n　禮經本義卷四¶\n"
    )
    five = (
        HEADER
        + "#+PROPERTY: JUAN 卷五\n<pb:KR1d0044_WYG_005-1a>¶\n　禮經本義卷五¶\n"
        + "".join(
            f"司射適堂西袒決遂取弓于階西兼挾乘矢{n}¶\n　(司射主射事者/也)¶\n　　　右射{n}¶\n"
            for n in "一二三"
        )
        + "釋獲者執鹿中一人執算以從之¶\n　(鹿中以木為之/)¶\n　　　右釋獲¶\n　禮經本義卷五¶\n"
    )
    docs = []
    for name, text in (("KR1d0044_004.txt", four), ("KR1d0044_005.txt", five)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        docs.append(read(tmp_path / name, manifest={}))
    assert docs[1].chapters()[0].rite == "xiangsheli"  # recognised from its key terms
    (ch,) = align(docs, CAT).chapters()
    # the fuller part (juan 5) does not push the first part (juan 4) after it
    assert [s.title for s in ch.sections] == ["戒賔", "射一", "射二", "射三", "釋獲"]


# -- three witnesses, two scripts -------------------------------------------------------------


@needs_sample
def test_sample_alone_gives_shiguanli_in_order() -> None:
    sample, seed = read(SAMPLE), read(SEED_001)
    (ch,) = align([sample], CAT).chapters()
    assert ch.rite == "shiguanli" and ch.category == "嘉禮"
    seed_titles = [normalize(s.title) for s in chapter(seed, "shiguanli").sections]
    assert [normalize(s.title) for s in ch.sections] == seed_titles
    assert all(s.passages for s in ch.sections)
    assert_partition(sample)
    assert [i for i in sample.issues if i.kind != "garbled"] == []


@needs_sample
def test_every_shiguanli_unit_of_the_sample_aligns_with_seed_001() -> None:
    (ch,) = [
        c for c in align([read(SEED_001), read(SAMPLE)], CAT).chapters() if c.rite == "shiguanli"
    ]
    units = [u for s in ch.sections for u in (*s.passages, *s.records)]
    files = [{r.doc.path.name[:3] for r in u.readings} for u in units]
    assert files and all(f == {"001", "KR1"} for f in files), files
    blocks = [b for u in units for b in u.commentary]
    assert all(len(b.readings) == 2 for b in blocks)
    # where the readings differ only by script and variant forms, the skeletons agree
    same = sum(len({r.skeleton for r in u.readings}) == 1 for u in units)
    assert same >= len(units) - 4


@needs_sample
def test_iris_stay_the_same_whichever_sources_are_present() -> None:
    seed, sample = read(SEED_001), read(SAMPLE)
    both, alone = quads([seed, sample]), quads([sample])
    for cls in (LJ.Juan, LJ.Chapter, LJ.Section, LJ.Passage, LJ.Record, LJ.Commentary):
        assert typed(alone, cls) <= typed(both, cls), cls
    # seed 001 alone reads two Records of 冠三加 as passages of the next section: those two
    # (and their commentary) are the only IRIs of its 士冠礼 the sample's reading replaces
    seed_only = {
        i for i in typed(quads([seed]), LJ.Passage, LJ.Record) if "/shiguanli/" in i
    } - typed(both, LJ.Passage, LJ.Record)
    records = {skeleton(o.value) for s, p, o, _ in both if p == LJ.text and "/shiguanli/r/" in s}
    seed_text = {str(s): skeleton(o.value) for s, p, o, _ in quads([seed]) if p == LJ.text}
    assert len(seed_only) == 2 and {seed_text[i] for i in seed_only} <= records


@pytest.fixture(scope="module")
def three_witness_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SAMPLE.is_file():
        pytest.skip(f"no Kanripo sample at {SAMPLE}")
    store = tmp_path_factory.mktemp("kanripo") / "store"
    build([SAMPLE_DIR, SEEDS, SHISANG], store)
    return store


def test_differing_readings_are_queryable(three_witness_store: Path) -> None:
    rows = select(open_store(three_witness_store), resolve_query("witness-differences").text)
    kanripo = [r for r in rows if "KR1d0044_001.txt" in (r["file1"], r["file2"])]
    assert {r["kind"] for r in kanripo} == {"variant characters", "different text"}
    assert {r["chapter"] for r in kanripo} >= {"士冠礼"}
    # 㫖 (the Siku form) against 旨: the same text once variants are folded
    zhi = [r for r in kanripo if "㫖酒既清" in r["reading1"] + r["reading2"]]
    assert zhi and {r["kind"] for r in zhi} == {"variant characters"}
    # two ASCII spaces where seed 001 has a full-width one between voices is no difference
    spaced = [r for r in kanripo if "  " in r["reading1"] + r["reading2"]]
    assert spaced and all(_strip(r["reading1"]) != _strip(r["reading2"]) for r in spaced)


def _strip(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace())


FIND = 'WHERE {{ ?p lj:text ?t ; lj:normalizedText ?n . FILTER(CONTAINS(?t, "{}")) }}'


def test_characters_outside_the_bmp_survive_the_store(three_witness_store: Path) -> None:
    rows = select(open_store(three_witness_store), "SELECT ?t ?n " + FIND.format("𤣥纁"))
    assert rows and "握手用𤣥纁裏" in rows[0]["t"] and "握手用玄纁里" in rows[0]["n"]
    for fmt, query in [
        ("turtle", "CONSTRUCT { ?p lj:text ?t } " + FIND.format("𦵏")),
        ("ntriples", "CONSTRUCT { ?p lj:text ?t } " + FIND.format("𦵏")),
        ("json", "SELECT ?t " + FIND.format("𦵏")),
        ("csv", "SELECT ?t " + FIND.format("𦵏")),
    ]:
        args = ["query", "--store", str(three_witness_store), "-f", fmt, "-e", query]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0 and "宅𦵏居" in result.output, (fmt, result.output[:300])


def test_characters_outside_the_bmp_survive_the_html_pages(three_witness_store: Path) -> None:
    from serving import kg_serve

    db = open_store(three_witness_store)
    (row,) = select(
        db, "SELECT ?p " + FIND.format("握手用𤣥纁裏").replace("?p ", "?p a lj:Passage ; ", 1)
    )
    base = store_base(db)
    with kg_serve(three_witness_store, "--timeout", "20") as url:
        page = httpx.get(url + "/id/" + row["p"][len(base) :])
    assert page.status_code == 200 and "握手用𤣥纁裏" in page.text
    assert "WYG 012-2b" in page.text  # the page reference is shown for citation
