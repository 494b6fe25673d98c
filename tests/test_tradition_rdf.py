"""Works of the tradition as RDF (kg/rdf/tradition.py), on WorkDocuments made by hand here:
IRIs under each work's slug, types and graphs, evidence that slices the file back to the
text, works that never merge with each other or with the book, and the book's own patterns
finding the sources' opinions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import RDF, Dataset, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS

from kg.rdf.emit import source_ids
from kg.rdf.iris import Minter
from kg.rdf.namespaces import DEFAULT_BASE, LJ
from kg.rdf.tradition import TraditionEmitter, passage_keys, unit_key
from kg.resources import ontology_dir
from kg.store import to_nquads
from kg.text.catalog import load_catalog
from kg.text.tradition import Block, TChapter, TJuan, TPassage, TSection, WorkDocument, WorkInfo
from kg.validate import load_ontology, validate_graph

D = DEFAULT_BASE
ZHUSHU = WorkInfo(
    "yilizhushu", "KR1d0028", "儀禮注疏", "zhushu", "WYG", ("zhengxuan", "jiagongyan")
)
JISHUO = WorkInfo("yilijishuo", "KR1d0035", "儀禮集說", "jishuo", "WYG", ("aojigong",))
LAYOUT = re.compile(r"<pb:[^>]*>|¶|\n|/|　")

ZHUSHU_TEXT = """#+TITLE: 儀禮注疏
#+PROPERTY: ID KR1d0028
<pb:KR1d0028_WYG_001-1a>¶
儀禮注疏卷一¶
士冠禮第一¶
士冠禮筮于廟門注筮者以蓍問日之吉凶於易¶
者音義(筮市制反)疏(釋曰自此至宗人告事畢/論將冠筮日之事注釋曰云筮者以蓍)¶
<pb:KR1d0028_WYG_001-1b>¶
主人玄冠朝服注玄冠委貌也¶
考證士冠禮筮于廟門臣按石經同¶
"""

JISHUO_TEXT = """#+TITLE: 儀禮集說
#+PROPERTY: ID KR1d0035
<pb:KR1d0035_WYG_001-1a>¶
士冠禮第一¶
士冠禮筮于廟門¶
　注曰筮者以蓍問日吉凶於易者也¶
　繼公謂筮日於廟門重其事也¶
　　　　　　右筮日¶
"""


class Cursor:
    """Finds each piece of a hand-made file after the last one found, as a reader would."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def span(self, needle: str) -> tuple[int, int]:
        start = self.text.index(needle, self.at)
        self.at = start + len(needle)
        return start, self.at

    def fill(self, unit, *parts: str):
        for part in parts:
            a, b = self.span(part)
            unit.add(part, a, b)
        return unit

    def block(self, voice: str, kind: str, label: str | None, *parts: str, **kw) -> Block:
        span = self.span(label) if label else None
        return self.fill(Block(voice, kind, label=label, label_span=span, **kw), *parts)


def zhushu_doc(path: Path = Path("KR1d0028_001.txt")) -> WorkDocument:
    c = Cursor(ZHUSHU_TEXT)
    juan_open = c.span("儀禮注疏卷一")
    title = c.span("士冠禮第一")
    p1 = c.fill(TPassage(), "士冠禮筮于廟門")
    p1.blocks = [
        c.block("zhengxuan", "zhu", "注", "筮者以蓍問日之吉凶於易", "者"),
        c.block("ludeming", "yinyi", "音義", "筮市制反"),
        c.block("jiagongyan", "shu", "釋曰", "自此至宗人告事畢", "論將冠筮日之事"),
        c.block("jiagongyan", "shu-zhu", "注釋曰", "云筮者以蓍", comments_on=0),
    ]
    p2 = c.fill(TPassage(), "主人玄冠朝服")
    p2.blocks = [c.block("zhengxuan", "zhu", "注", "玄冠委貌也")]
    kz = c.block("siku-editors", "kaozheng", "考證", "士冠禮筮于廟門臣按石經同")
    section = TSection(passages=[p1, p2])
    chapter = TChapter("士冠禮第一", "shiguanli", title, sections=[section])
    juan = TJuan(1, "卷一", juan_open, [chapter], kaozheng=[kz])
    pages = [(ZHUSHU_TEXT.index("<pb:KR1d0028_WYG_001-1a>"), "WYG 001-1a")]
    pages.append((ZHUSHU_TEXT.index("<pb:KR1d0028_WYG_001-1b>"), "WYG 001-1b"))
    return WorkDocument(path, ZHUSHU_TEXT, ZHUSHU, juans=[juan], pages=pages)


def jishuo_doc(path: Path = Path("KR1d0035_001.txt")) -> WorkDocument:
    c = Cursor(JISHUO_TEXT)
    title = c.span("士冠禮第一")
    p1 = c.fill(TPassage(), "士冠禮筮于廟門")
    p1.blocks = [
        c.block("zhengxuan", "quote", "注曰", "筮者以蓍問日吉凶於易者也"),
        c.block("aojigong", "own", "繼公謂", "筮日於廟門重其事也"),
    ]
    heading = c.span("右筮日")
    section = TSection("右筮日", heading, passages=[p1])  # as 集说 prints it
    chapter = TChapter("士冠禮第一", "shiguanli", title, sections=[section])
    pages = [(JISHUO_TEXT.index("<pb:"), "WYG 001-1a")]
    return WorkDocument(
        path, JISHUO_TEXT, JISHUO, juans=[TJuan(1, None, None, [chapter])], pages=pages
    )


def emit(docs: list[WorkDocument]) -> tuple[Dataset, TraditionEmitter]:
    emitter = TraditionEmitter(Minter(), load_catalog(), source_ids([d.path for d in docs]))
    quads = [q for d in docs for q in emitter.document(d)]
    ds = Dataset()
    ds.parse(data=to_nquads(quads), format="nquads")
    return ds, emitter


@pytest.fixture(scope="module")
def built() -> tuple[Dataset, TraditionEmitter]:
    return emit([zhushu_doc(), jishuo_doc()])


def union(ds: Dataset) -> Graph:
    g = Graph()
    for s, p, o, _ in ds.quads((None, None, None, None)):
        g.add((s, p, o))
    return g


def test_each_work_has_its_own_iris_title_and_id(built) -> None:
    ds, _ = built
    g = union(ds)
    zs, js = URIRef(D + "yilizhushu"), URIRef(D + "yilijishuo")
    for work, info in ((zs, ZHUSHU), (js, JISHUO)):
        assert (work, RDF.type, LJ.Work) in g
        assert g.value(work, DCTERMS.title) == Literal(info.title, lang="lzh")
        assert str(g.value(work, LJ.textId)) == info.text_id
        assert str(g.value(work, LJ.baseEdition)) == "WYG"
    assert set(g.objects(zs, DCTERMS.creator)) == {
        URIRef(D + "person/zhengxuan"),
        URIRef(D + "person/jiagongyan"),
    }
    assert (zs, LJ.citedAs, URIRef(D + "work/yilizhushu")) in g  # the concept works.ttl has
    assert (URIRef(D + "yilizhushu/juan/1"), DCTERMS.isPartOf, zs) in g
    chapter = URIRef(D + "yilizhushu/shiguanli")
    assert (chapter, RDF.type, LJ.Chapter) in g
    assert (chapter, LJ.describesRite, URIRef(D + "rite/shiguanli")) in g
    key = unit_key("士冠禮筮于廟門")
    passage = URIRef(f"{chapter}/p/{key}")
    assert (passage, RDF.type, LJ.Passage) in g
    assert (URIRef(f"{passage}/c1"), LJ.blockKind, Literal("zhu")) in g
    section = URIRef(D + "yilijishuo/shiguanli/shiri")  # 右筮日: named 筮日, as the book's
    assert (section, RDF.type, LJ.Section) in g
    assert g.value(section, LJ.title) == Literal("筮日", lang="lzh")
    assert (URIRef(D + "yilizhushu/juan/1/c1"), LJ.blockKind, Literal("kaozheng")) in g


def test_text_in_the_text_graph_opinions_in_the_commentary_graph(built) -> None:
    ds, _ = built
    text, commentary = (URIRef(D + f"graph/{g}") for g in ("text", "commentary"))
    for s, _, o, g in ds.quads((None, RDF.type, None, None)):
        if o in (LJ.Passage, LJ.Commentary, LJ.Chapter, LJ.Juan, LJ.Witness):
            assert g == text, (s, o)
        if o == LJ.Opinion:
            assert g == commentary, s


def test_every_witness_slices_its_file_back_to_the_text(built) -> None:
    ds, _ = built
    g = union(ds)
    files = {"KR1d0028_001.txt": ZHUSHU_TEXT, "KR1d0035_001.txt": JISHUO_TEXT}
    witnesses = list(g.subjects(RDF.type, LJ.Witness))
    assert len(witnesses) >= 15
    for w in witnesses:
        src = g.value(w, LJ.sourceFile)
        whole = files[str(g.value(src, URIRef("http://www.w3.org/2000/01/rdf-schema#label")))]
        a, b = int(g.value(w, LJ.charStart)), int(g.value(w, LJ.charEnd))
        text = str(g.value(w, LJ.text))
        assert LAYOUT.sub("", whole[a:b]) == text, w
        assert int(g.value(w, LJ.line)) == whole.count("\n", 0, a) + 1
        (unit,) = g.subjects(LJ.witness, w)
        unit_text = g.value(unit, LJ.text)
        if unit_text is not None and (unit, RDF.type, LJ.Work) not in g:
            assert str(unit_text) == text
    zhu = URIRef(D + f"yilizhushu/shiguanli/p/{unit_key('士冠禮筮于廟門')}/c1")
    assert set(map(str, g.objects(zhu, LJ.page))) == {"WYG 001-1a"}
    p2 = URIRef(D + f"yilizhushu/shiguanli/p/{unit_key('主人玄冠朝服')}")
    assert set(map(str, g.objects(p2, LJ.page))) == {"WYG 001-1b"}


def test_works_never_merge_with_each_other_or_the_book(built) -> None:
    ds, _ = built
    g = union(ds)
    key = unit_key("士冠禮筮于廟門")
    same = [URIRef(D + f"{w}/shiguanli/p/{key}") for w in ("yilizhushu", "yilijishuo")]
    for passage, work in zip(same, ("yilizhushu", "yilijishuo"), strict=True):
        works = set(g.transitive_objects(passage, DCTERMS.isPartOf))
        assert URIRef(D + work) in works and URIRef(D + "lijingbenyi") not in works
        assert len({w for w in works if (w, RDF.type, LJ.Work) in g}) == 1
    book = ("lijingbenyi", "juan/", "shiguanli", "xiangsheli")
    allowed = ("yilizhushu", "yilijishuo", "source/", "person/")
    for s in set(g.subjects()):
        rest = str(s)[len(D) :]
        assert rest.startswith(allowed) and not rest.startswith(book), s


def test_the_books_query_for_zheng_xuan_finds_both_works(built) -> None:
    ds, _ = built
    g = union(ds)
    g.parse(ontology_dir() / "commentators.ttl")
    rows = g.query(
        """SELECT ?o ?unit ?kind ?voice WHERE {
             ?person skos:prefLabel|skos:altLabel ?name . FILTER(STR(?name) = "郑玄")
             ?o a lj:Opinion ; lj:commentator ?person ; lj:voice ?voice ; lj:inUnit ?block .
             ?block lj:commentsOn ?unit ; lj:blockKind ?kind . ?unit a lj:Passage }""",
        initNs={"lj": LJ._NS, "skos": "http://www.w3.org/2004/02/skos/core#"},
    )
    found = {
        (str(r.unit).split("/")[len(D.split("/")) - 1], str(r.kind), str(r.voice)) for r in rows
    }
    assert ("yilizhushu", "zhu", "author") in found
    assert ("yilijishuo", "quote", "quote") in found
    quote = URIRef(D + f"yilijishuo/shiguanli/p/{unit_key('士冠禮筮于廟門')}/c1/o1")
    assert (quote, LJ.quotes, URIRef(D + "person/zhengxuan")) in g
    assert str(g.value(quote, LJ.attribution)) == "注曰"


def test_the_shu_on_the_zhu_comments_on_the_zhu(built) -> None:
    ds, _ = built
    g = union(ds)
    passage = URIRef(D + f"yilizhushu/shiguanli/p/{unit_key('士冠禮筮于廟門')}")
    zhu, shu, shu_zhu = (URIRef(f"{passage}/c{i}") for i in (1, 3, 4))
    assert (shu_zhu, LJ.commentsOn, zhu) in g
    assert (shu, LJ.commentsOn, passage) in g
    assert (shu_zhu, DCTERMS.isPartOf, passage) in g
    assert str(g.value(shu, LJ.text)) == "自此至宗人告事畢論將冠筮日之事"


def test_the_emitted_graph_meets_the_shapes(built) -> None:
    ds, _ = built
    g = union(ds)
    for name in ("commentators.ttl", "rites.ttl", "works.ttl"):
        g.parse(ontology_dir() / name)
    g += load_ontology()
    report = validate_graph(g, owl_sample_size=5)
    assert [c.violations for c in report.checks] == [0, 0, 0, 0], report.checks


def test_a_juan_two_files_hold_is_emitted_once_and_reported() -> None:
    ds, emitter = emit([zhushu_doc(), zhushu_doc(Path("copy/KR1d0028_001.txt"))])
    g = union(ds)
    juan = URIRef(D + "yilizhushu/juan/1")
    assert len(list(g.objects(juan, LJ.witness))) == 1
    assert len(list(g.subjects(RDF.type, LJ.Work))) == 1
    (issue,) = emitter.take_issues()
    assert issue.path == Path("copy/KR1d0028_001.txt") and "already" in issue.issue.message
    assert emitter.stats["儀禮注疏"]["juan"] == 1


def test_the_books_iris_are_unchanged() -> None:
    m = Minter()
    assert m.work() == URIRef(D + "lijingbenyi")
    assert m.juan(4, "x") == URIRef(D + "juan/4")
    assert m.chapter("xiangsheli") == URIRef(D + "xiangsheli")
    assert m.unit(m.chapter("xiangsheli"), "p", "1a2b3c4d") == URIRef(D + "xiangsheli/p/1a2b3c4d")
    assert m.work_juan(m.work_of("yilizhushu"), 4, "x") == URIRef(D + "yilizhushu/juan/4")


def test_repeated_passages_get_distinct_keys() -> None:
    ch = TChapter(sections=[TSection(passages=[TPassage(text="拜送"), TPassage(text="拜送")])])
    keys = passage_keys(ch)
    assert len(set(keys.values())) == 2


texts = st.text(alphabet="士冠禮筮于廟門注疏¶\n　/()", max_size=6)


@st.composite
def junk_documents(draw) -> WorkDocument:
    """Structures no reader should make, with pieces anywhere in the text: emission copes."""
    text = draw(st.text(alphabet="士冠禮筮注疏¶\n", min_size=1, max_size=40))
    n = len(text)

    def pieced(unit):
        for _ in range(draw(st.integers(0, 2))):
            a = draw(st.integers(0, n - 1))
            b = draw(st.integers(a, n))
            unit.add(text[a:b], a, b)
        return unit

    def block() -> Block:
        on = draw(st.none() | st.integers(-2, 4))
        kind = draw(st.sampled_from(["zhu", "shu", "shu-zhu", "quote", "own", "kaozheng"]))
        voice = draw(st.sampled_from(["zhengxuan", "someone-new", "anonymous"]))
        return pieced(Block(voice, kind, comments_on=on))

    def passage() -> TPassage:
        p = pieced(TPassage(record=draw(st.booleans())))
        p.blocks = [block() for _ in range(draw(st.integers(0, 3)))]
        return p

    def chapter() -> TChapter:
        sections = [
            TSection(draw(st.none() | texts), passages=[passage() for _ in range(2)])
            for _ in range(draw(st.integers(0, 2)))
        ]
        rite = draw(st.none() | st.sampled_from(["shiguanli", "no-such-rite"]))
        return TChapter(draw(st.none() | texts), rite, None, [block()], sections)

    juans = [
        TJuan(draw(st.none() | st.integers(0, 3)), None, None, [chapter(), chapter()], [block()])
        for _ in range(draw(st.integers(0, 2)))
    ]
    info = WorkInfo("somework", "KR9z9999", "某書", "generic", known=False)
    return WorkDocument(Path("x.txt"), text, info, abstract=[block()], juans=juans)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk_documents())
def test_emission_never_fails_on_any_structure(doc: WorkDocument) -> None:
    emitter = TraditionEmitter(Minter(), load_catalog(), {doc.path: "x"})
    quads = list(emitter.document(doc))
    assert all(len(q) == 4 and all(t is not None for t in q) for q in quads)
    subjects = {str(q[0]) for q in quads}
    assert all(s.startswith((D + "somework", D + "source/", D + "person/")) for s in subjects)


def test_a_juan_a_file_prints_in_two_halves_is_two_juans() -> None:
    """集说 prints 卷五上 and 卷五下 in one file: both are kept, the second as ``juan/1-2``."""
    doc, again = zhushu_doc(), zhushu_doc()
    doc.juans[0].label = "卷一上"
    again.juans[0].label = "卷一下"
    doc.juans.append(again.juans[0])
    ds, emitter = emit([doc])
    g = union(ds)
    halves = [URIRef(D + "yilizhushu/juan/1"), URIRef(D + "yilizhushu/juan/1-2")]
    assert all((j, RDF.type, LJ.Juan) in g for j in halves)
    label = URIRef("http://www.w3.org/2000/01/rdf-schema#label")
    assert Literal("仪礼注疏卷一下", lang="lzh") in set(g.objects(halves[1], label))
    second = URIRef(D + "yilizhushu/shiguanli-2")
    assert (second, DCTERMS.isPartOf, halves[1]) in g
    assert not emitter.take_issues()
