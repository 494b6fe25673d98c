"""Chapter titles the vocabulary lacks, printed variants of those it has, and 经文 that only
looks like a title: on texts written for these tests (no seed passage)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import RDF
from rdflib.namespace import SKOS

from kg.nlp.extract import mentions
from kg.rdf.emit import Emitter
from kg.rdf.iris import Minter
from kg.rdf.namespaces import LJ
from kg.rdf.terms import LZH, Lit
from kg.readers import parse_text
from kg.text.align import align
from kg.text.catalog import load_catalog
from kg.text.document import Document, Seg
from kg.text.normalize import normalize
from kg.text.slugs import slugify

CAT = load_catalog()
X = Path("x.txt")
KANRIPO = "#+TITLE: 禮經本義\n#+PROPERTY: ID KR1d0044\n#+PROPERTY: BASEEDITION WYG\n"

# an invented chapter (title, preface, 经文 with its note, a heading), then a second one
# standing right after the first one's 右X heading
LINES = [
    "礼经本义卷十八",
    "无锡蔡德晋撰",
    "嘉礼",
    "{title}",
    "【天子养老于学以教孝弟之礼也】",
    "主人迎宾于大门之外再拜宾答拜",
    "【迎宾于门外敬之也】",
    "右迎宾",
    "献俘礼",
    "【师还献俘于庙之礼也】",
    "司马执俘以入立于庭",
    "右献俘",
    "礼经本义卷十八",
]


def tagged(title: str) -> str:
    body = " ".join(LINES).format(title=title)
    return f"[book_name]礼经本义 [book_title]卷十八 钦定四库全书 {body}"


def paged(title: str) -> str:
    lines = [*LINES[:6], "礼经本义 - 第 3 页/共 9 页", *LINES[6:]]
    return "\n".join(lines).format(title=title) + "\n"


def indented(title: str) -> str:
    return "".join(f"\u3000\u3000{ln}\n" for ln in LINES).format(title=title)


def paragraphs(title: str) -> str:
    return "\n\n".join(LINES).format(title=title) + "\n"


def kanripo(title: str) -> str:
    return KANRIPO + (
        "#+PROPERTY: JUAN 卷十八\n<pb:KR1d0044_WYG_018-1a>¶\n　禮經本義卷十八¶\n　　嘉禮¶\n"
        f"　　{title}¶\n　　　(天子養老於學以教孝弟之禮/也)¶\n"
        "主人迎賔于大門之外再拜賔荅拜¶\n　(迎賔於門外敬之/也)¶\n　　　右迎賔¶\n"
        "　　獻俘禮¶\n　　　(師還獻俘於廟之禮/也)¶\n司馬執俘以入立于庭¶\n　　　右獻俘¶\n"
    )


LAYOUTS = [
    ("tagged", tagged, "养老礼"),
    ("paged", paged, "告朔礼"),
    ("indented", indented, "视学仪"),
    ("paragraphs", paragraphs, "乡老宾贤礼"),
    ("kanripo", kanripo, "養老禮"),
]


def passages(doc: Document) -> list[str]:
    return [p.text for c in doc.chapters() for s in c.sections for p in s.passages]


def minted_issues(doc: Document) -> list[str]:
    return [i.message for i in doc.issues if "minted as rite/" in i.message]


@pytest.mark.parametrize(("layout", "make", "title"), LAYOUTS)
def test_an_unheard_of_title_is_a_chapter_with_a_minted_rite(layout, make, title) -> None:
    doc = parse_text(make(title), X)
    assert doc.layout == layout
    first, second = doc.chapters()
    name = title.replace("養", "养").replace("禮", "礼")
    assert (first.title, first.minted, first.rite) == (title, name, slugify(name))
    assert first.category in ("嘉礼", "嘉禮")
    assert (second.minted, second.rite) == ("献俘礼", "xianfuli")  # after a 右X heading
    assert [s.title for c in doc.chapters() for s in c.sections] in (
        ["迎宾", "献俘"],
        ["迎賔", "獻俘"],
    )
    # both reported, so that `kg build -v` lists them
    said = minted_issues(doc)
    assert len(said) == 2 and f"rite/{slugify(name)}" in said[0]
    # the 经文 after the title is a passage, with the things it names
    text = passages(doc)[0]
    assert text.startswith("主人迎") and text.endswith("拜")
    assert {"role"} <= {m.type for m in mentions(text, "classic")}
    assert first.preface is not None and len(first.preface.blocks) == 1
    assert not [p for j in doc.juans for p in j.prefaces]


def test_a_minted_rite_is_emitted_as_found_in_the_text() -> None:
    doc = parse_text(paged("告朔礼").replace("嘉礼\n", "").replace("告朔礼\n", "告朔礼【吉】\n"), X)
    minter = Minter()
    quads = {(s, p, o) for s, p, o, _ in Emitter(align([doc], CAT), CAT, minter).quads()}
    rite = minter.iri("rite/gaoshuoli")
    chapter = minter.chapter("gaoshuoli")
    assert (chapter, LJ.describesRite, rite) in quads
    assert (rite, RDF.type, LJ.Rite) in quads
    assert (rite, SKOS.prefLabel, Lit("告朔礼", LZH)) in quads
    assert (rite, LJ.category, minter.iri("category/jili")) in quads  # from the mark 【吉】
    assert any(s == rite and p == SKOS.editorialNote for s, p, _ in quads)
    # 献俘礼, printed with no category, is in the one of the chapter before it; both are
    # ordered after the vocabulary's rites
    second = minter.iri("rite/xianfuli")
    assert (second, LJ.category, minter.iri("category/jili")) in quads
    orders = sorted(o.value for s, p, o in quads if s in (rite, second) and p == LJ.order)
    assert orders == ["26", "27"]
    # only the two minted rites are declared by the text; the vocabulary's are not repeated
    declared = {s for s, p, o in quads if p == RDF.type and o == LJ.Rite}
    assert declared == {rite, minter.iri("rite/xianfuli")}
    passages_of = {s for s, p, o in quads if p == RDF.type and o == LJ.Passage}
    assert any(str(s).startswith(str(chapter) + "/p/") for s in passages_of)
    # the minted chapter keeps its place between the vocabulary's chapters of its juan
    two = parse_text(paged("告朔礼").replace("献俘礼", "投壶礼"), X)
    (juan,) = align([two], CAT).juans
    assert [c.rite for c in juan.chapters] == ["gaoshuoli", "touhuli"]


@pytest.mark.parametrize(
    ("printed", "rite"),
    [
        ("诸侯之衅庙礼", "zhuhouxinmiaoli"),
        ("諸侯之釁廟禮", "zhuhouxinmiaoli"),
        ("士相见之礼", "shixiangjianli"),
        ("士丧礼上", "shisangli"),
        ("士丧礼下", "jixili"),
        ("既夕礼", "jixili"),
        ("少牢馈食礼上", "shaolaokuishili"),
        ("少牢馈食礼下", "yousiche"),
        ("乡射礼第五", "xiangsheli"),
        ("大射仪第七", "dasheyi"),
        ("祫于太庙礼", "xiayutaimiaoli"),
        ("巡守礼", "xunshouli"),
        ("出师礼", "chushili"),
        ("吊礼", "diaoli"),
    ],
)
def test_a_printed_variant_maps_to_its_rite(printed: str, rite: str) -> None:
    for mark in ("", "【凶】"):
        doc = parse_text(f"礼经本义卷九\n{printed}{mark}\n【题解】\n主人拜宾\n右拜宾\n", X)
        (ch,) = doc.chapters()
        assert (ch.title, ch.rite, ch.minted) == (printed, rite, None)
        assert [b.text for b in ch.preface.blocks] == ["题解"]
        assert not minted_issues(doc)
        assert (ch.category == "凶") == bool(mark)


def test_the_books_eight_lost_rites_with_their_categories() -> None:
    lost = sorted((r for r in CAT.rites.values() if r.order > 17), key=lambda r: r.order)
    assert [(r.label, r.category) for r in lost] == [
        ("投壶礼", "jiali"),
        ("巡守礼", "binli"),
        ("出师礼", "junli"),
        ("奔丧礼", "xiongli"),
        ("吊礼", "xiongli"),
        ("诸侯衅庙礼", "jili"),
        ("诸侯迁庙礼", "jili"),
        ("祫于太庙礼", "jili"),
    ]
    assert all(len(r.key_terms) >= 6 for r in lost)


NEAR = (
    "礼经本义卷十\n宾礼\n聘礼\n【题解】\n宾入门左\n【入门也】\n宾答拜如礼\n【如初礼也】\n"
    "主人以宾礼\n【待之以宾之礼】\n右宾入\n大夫之礼\n【大夫之礼如此】\n宾辞礼\n右宾辞\n"
)


@pytest.mark.parametrize("layout", ["paged", "paragraphs", "indented"])
def test_jingwen_shaped_almost_like_a_title_is_not_one(layout: str) -> None:
    text = {
        "paged": NEAR,
        "paragraphs": NEAR.replace("\n", "\n\n"),
        "indented": "".join(f"\u3000\u3000{ln}\n" for ln in NEAR.splitlines()),
    }[layout]
    doc = parse_text(text, X, layout=layout)
    (ch,) = doc.chapters()
    assert ch.rite == "pinli"
    assert passages(doc) == ["宾入门左", "宾答拜如礼", "主人以宾礼", "大夫之礼", "宾辞礼"]
    assert not minted_issues(doc)


def test_a_short_jingwen_line_after_a_heading_in_kanripo_stays_jingwen() -> None:
    text = KANRIPO + (
        "<pb:KR1d0044_WYG_010-1a>¶\n　禮經本義卷十¶\n　　聘禮¶\n賔入門左¶\n　　　右賔入¶\n"
        "大夫之禮¶\n　(大夫之禮如此/)¶\n公食賔禮¶\n　　　右終¶\n"
    )
    doc = parse_text(text, X)
    assert [c.rite for c in doc.chapters()] == ["pinli"]
    assert passages(doc) == ["賔入門左", "大夫之禮", "公食賔禮"]


# -- no 经文 becomes a heading ----------------------------------------------------------------


def test_jingwen_after_an_unrecognised_title_stays_a_passage() -> None:
    # 归赗篇 is no title shape the reader knows: it and the 经文 after it are passages, said
    text = (
        "礼经本义卷十一\n无锡蔡德晋撰\n凶礼\n归赗篇\n【题解】\n宾出\n【出门也】\n"
        "主人拜送\n【送之也】\n右送宾\n"
    )
    doc = parse_text(text, X)
    assert passages(doc) == ["归赗篇", "宾出", "主人拜送"]
    assert not [p for j in doc.juans for p in j.prefaces if p.title]
    assert not [s for s in doc.segments if s.kind is Seg.PREFACE_TITLE]
    assert any("before any chapter title" in i.message for i in doc.issues)
    unit = doc.chapters()[0].sections[0].passages[1]
    assert [c.text for c in unit.commentary] == ["出门也"]
    assert {m.type for m in mentions(unit.text, "classic")} == {"role"}


def test_only_the_first_line_after_the_juan_marker_may_title_front_matter() -> None:
    text = "礼经本义卷十一\n归赗篇\n【题解】\n宾出\n【出门也】\n主人拜\n【拜也】\n"
    doc = parse_text(text, X)
    (juan,) = doc.juans
    assert [p.title for p in juan.prefaces] == ["归赗篇"]  # front matter, and reported
    assert any("front matter" in i.message for i in doc.issues)
    assert passages(doc) == ["宾出", "主人拜"]  # was: 宾出 the title of a second preface


def test_kanripo_jingwen_in_the_front_matter_is_a_passage() -> None:
    text = KANRIPO + "<pb:KR1d0044_WYG_011-1a>¶\n　禮經本義卷十一¶\n賔出¶\n　(出門也)¶\n"
    doc = parse_text(text, X)
    assert passages(doc) == ["賔出"]
    assert not [p for j in doc.juans for p in j.prefaces if p.title]


def test_a_minted_rite_with_no_category_anywhere_still_validates() -> None:
    """A first chapter the vocabulary lacks, with no category line or mark before it: its rite
    has no lj:category (the text gives none, so none is guessed) and is marked found in the
    text, which the shapes accept; a vocabulary rite without a category would still fail."""
    from rdflib import Graph, Literal

    from kg.validate import load_ontology, validate_graph

    doc = parse_text(paged("告朔礼").replace("嘉礼\n", ""), X)
    minter = Minter()
    g = Graph()
    g += load_ontology()
    for s, p, o, _ in Emitter(align([doc], CAT), CAT, minter).quads():
        if isinstance(o, Lit):
            o = Literal(o.value, lang=o.lang, datatype=o.datatype)
        g.add((s, p, o))
    rite = minter.iri("rite/gaoshuoli")
    assert (rite, RDF.type, LJ.Rite) in g and not list(g.objects(rite, LJ.category))

    def rite_findings() -> list[str]:
        shacl = validate_graph(g, owl_sample_size=0).checks[0]
        return [f.message for f in shacl.findings if f.focus == str(rite) and "Rite" in f.shape]

    assert rite_findings() == []
    g.remove((rite, LJ.foundInText, None))
    assert rite_findings() == [
        "a rite is in a lj:RiteCategory, unless it was found in the text (lj:foundInText true)"
        " that names none"
    ]


@pytest.mark.parametrize(("layout", "make"), [(name, make) for name, make, _ in LAYOUTS])
def test_two_halves_of_an_unheard_of_rite_are_one_rite_with_two_chapters(layout, make) -> None:
    # a second title printed as the first one's other half, where 献俘礼 stood
    text = make("出军礼上").replace("献俘礼", "出军礼下").replace("獻俘禮", "出軍禮下")
    doc = parse_text(text, X)
    first, second = doc.chapters()
    assert (first.rite, first.part) == ("chujunli", "上")
    assert (second.rite, second.part) == ("chujunli", "下")
    assert first.minted == second.minted == "出军礼"
    minter = Minter()
    corpus = align([doc], CAT)
    assert [c.part for c in corpus.chapters()] == ["上", "下"]  # not merged as witnesses
    quads = {(s, p, o) for s, p, o, _ in Emitter(corpus, CAT, minter).quads()}
    rite = minter.iri("rite/chujunli")
    halves = [minter.chapter("chujunli-shang"), minter.chapter("chujunli-xia")]
    assert all((h, LJ.describesRite, rite) in quads for h in halves)
    assert {s for s, p, o in quads if p == RDF.type and o == LJ.Rite} == {rite}
    assert len({o for s, p, o in quads if s == rite and p == LJ.order}) == 1
    titles = {o.value for s, p, o in quads if s in halves and p == LJ.title}
    assert {normalize(t) for t in titles} == {"出军礼上", "出军礼下"}
    for half in halves:  # each half keeps its own passages
        assert any(str(s).startswith(f"{half}/p/") for s, p, o in quads if o == LJ.Passage)
