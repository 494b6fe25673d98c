"""Voices of a commentary block (the first cut; the commentary issue refines it)."""

from __future__ import annotations

from pathlib import Path

from kg.build.run import build
from kg.nlp.commentary_rules import load_rules
from kg.nlp.new_voices import VoiceCensus
from kg.nlp.voices import split_voices
from kg.rdf.namespaces import LJ, PERSON
from kg.store import open_store


def voices(text: str) -> list[tuple[str, str, str]]:
    return [(v.speaker, v.kind, text[v.start : v.end]) for v in split_voices(text)]


def test_unattributed_text_is_the_authors() -> None:
    assert voices("挚雉也冬用雉") == [("caidejin", "author", "挚雉也冬用雉")]


def test_quotes_by_any_known_name() -> None:
    text = "纳入也郑康成曰射器弓矢决拾也敖君善曰纳之于堂西髙紫超曰倚弓矢各有其地"
    assert [(s, k) for s, k, _ in voices(text)] == [
        ("caidejin", "author"),
        ("zhengxuan", "quote"),
        ("aojigong", "quote"),
        ("gaoyu", "quote"),
    ]


def test_separator_returns_the_floor_to_the_author() -> None:
    text = "郝仲舆曰献以爵　按献用爵其他用觯○旧说乡饮有四"
    assert voices(text) == [
        ("haojing", "quote", "郝仲舆曰献以爵"),
        ("caidejin", "note", "按献用爵其他用觯"),
        ("anonymous", "anonymous", "旧说乡饮有四"),
    ]


def test_closing_summary_is_the_authors() -> None:
    text = "郝仲与曰前立司正为旅酬此系纲倚旌也"
    assert voices(text) == [
        ("haojing", "quote", "郝仲与曰前立司正为旅酬"),
        ("caidejin", "author", "此系纲倚旌也"),
    ]


def test_gloss_with_yue_is_not_a_voice() -> None:
    # 推手曰揖 is a gloss (B曰A), not a person speaking
    assert voices("推手曰揖引手曰厌") == [("caidejin", "author", "推手曰揖引手曰厌")]


# -- voices the vocabulary lacks: a census of the book ----------------------------------------
# 柯上和 is an invented commentator: his 字 上和 holds 上, an ordinary word the rule for a name
# seen once refuses; 柯 is a surname.

REPEATED = [
    "冠者成人也 柯上和曰冠者将责成人之礼焉",
    "醴之也○柯上和曰醴者尊之也",
    "宾东面答拜也柯上和云答拜者敬也",
    "柯上和曰醮用酒不用醴",
]


def census_of(texts: list[str]) -> VoiceCensus:
    c = VoiceCensus()
    c.add_all(texts)
    return c


def test_a_name_that_opens_many_voices_is_a_voice() -> None:
    names = census_of(REPEATED).names()
    assert names == {"柯上和": "keshanghe"}
    quoted = split_voices(REPEATED[1], names)
    assert [(v.speaker, v.kind, v.name) for v in quoted] == [
        ("caidejin", "author", None),
        ("keshanghe", "quote", "柯上和"),
    ]
    # 云 is his view reported, as with any name of the vocabulary
    reported = split_voices(REPEATED[2], names)
    assert [(v.kind, v.reports) for v in reported][-1] == ("report", "keshanghe")


def test_the_same_name_once_is_not_a_voice() -> None:
    once = census_of(REPEATED[:1])
    assert once.names() == {}
    assert [v.kind for v in split_voices(REPEATED[0], once.names())] == ["author"]


def test_two_witnesses_of_one_block_count_once() -> None:
    c = census_of([REPEATED[0], REPEATED[0], REPEATED[1]])
    assert c.count("柯上和") == 2 and c.names() == {}


def test_only_at_a_voice_boundary() -> None:
    # inside a clause 柯上和曰 is no voice opening (…之柯上和曰 would be 之's object)
    c = census_of([f"冠礼之{t}柯上和曰{t}" for t in ("冠者", "醴者", "醮者", "宾者")])
    assert c.count("柯上和") == 0


CITATIONS = [
    "子曰{}",
    "孔子曰{}",
    "礼记曰{}",
    "经曰{}",
    "注曰{}",
    "传曰{}",
    "或曰{}",
    "又曰{}",
    "周礼曰{}",
    "曾子问曰{}",
    "公羊传曰{}",
    "孟献子曰{}",
    "燕之礼曰{}",
    "郑氏注曰{}",
    "郑康成曰{}",
]


def test_citations_and_known_names_are_not_new_voices() -> None:
    bodies = ["冠者成人也", "醴者尊之也", "醮者用酒也", "宾者客也"]
    c = census_of([shape.format(b) for shape in CITATIONS for b in bodies])
    assert c.names() == {}
    for shape in CITATIONS:
        for v in split_voices(shape.format(bodies[0]), c.names()):
            assert v.name is None, shape


def test_a_census_voice_is_minted_and_reported_once(tmp_path: Path) -> None:
    passages = ["士冠礼筮于庙门", "主人玄冠朝服", "宾如主人服", "乃醴宾以一献之礼"]
    lines = ["礼经本义卷一", "", "无锡蔡德晋撰", "", "嘉礼", "", "士冠礼", ""]
    for p, b in zip(passages, REPEATED, strict=True):
        lines += [p, f"【{b}】", ""]
    lines += ["右筮日", ""]
    src = tmp_path / "guan.txt"
    src.write_text("\n".join(lines), encoding="utf-8")
    report = build([src], tmp_path / "store")
    assert report.counts["new commentators"] == 1
    [issue] = [r.issue for r in report.issues if r.issue.kind == "commentator"]
    assert "柯上和" in issue.message and "person/keshanghe" in issue.message
    assert "4 voices" in issue.message
    store = open_store(tmp_path / "store")
    who = f"<{PERSON['keshanghe']}>"
    assert store.query(f"ASK {{ GRAPH ?g {{ {who} a <{LJ.Commentator}> }} }}")
    for prop, n in ((LJ.commentator, 3), (LJ.reports, 1)):
        q = f"SELECT (COUNT(?o) AS ?n) {{ GRAPH ?g {{ ?o <{prop}> {who} }} }}"
        assert int(next(iter(store.query(q)))[0].value) == n


def test_every_name_of_the_vocabulary_opens_a_voice() -> None:
    rules = load_rules()
    for name, slug in rules.names.items():  # forms of two characters or more
        got = split_voices(f"冠者成人也 {name}曰冠者将责成人之礼焉")
        assert [(v.speaker, v.kind) for v in got][-1] == (slug, "quote"), name


def test_the_vocabulary_knows_the_scholars_a_qing_ritualist_quotes() -> None:
    names = load_rules().names
    expected = {
        "魏华父": "weiliaoweng",
        "陈可大": "chenhao",
        "刘原父": "liuchang",
        "吕与叔": "lvdalin",
        "姜上均": "jiangzhaoxi",
        "徐原一": "xuqianxue",
        "程伊川": "chengyi",
        "朱仲晦": "zhuxi",
        # 字 made of ordinary words, which the rule for unknown names refuses (三, 平)
        "盛庸三": "shengshizuo",
        "江慎修": "jiangyong",
        "王平仲": "wangzhichang",
        "任翼圣": "renqiyun",
        "吴中林": "wutinghua",
    }
    assert {n: names.get(n) for n in expected} == expected
    assert [v.speaker for v in split_voices("羞进也○盛庸三曰羞者所以尽欢也")] == [
        "caidejin",
        "shengshizuo",
    ]
    # 云 / 谓 after one of them is the author reporting him (his 字 holds 上, a word)
    got = split_voices("冠者成人也姜上均谓冠者责成人之礼也")
    assert [(v.kind, v.reports) for v in got][-1] == ("report", "jiangzhaoxi")


def test_an_officer_quoted_from_the_classic_is_not_a_voice() -> None:
    # 宗人 is an office of the lexicon: 宗人摈曰 in four blocks is still no person, nor is
    # 宗人告曰 (告 ends no name)
    for said in ("宗人摈", "宗人告"):
        c = census_of([f"{b}也 {said}曰{b}" for b in ("冠者", "醴者", "醮者", "宾者")])
        assert c.count(said) == 0 and c.names() == {}, said


def test_a_two_character_surname() -> None:
    # 欧阳 + the invented 字 大一 (大 and 一 are ordinary words)
    c = census_of([t.replace("柯上和", "欧阳大一") for t in REPEATED])
    assert c.names() == {"欧阳大一": "ouyangdayi"}


# -- reports and notes in commentary the seeds never show (blocks written for these tests) ----


def test_a_report_ends_where_the_next_report_begins() -> None:
    text = "旅序也郑氏谓旅酬者众宾以次相酬敖氏则以为旅犹众也"
    assert voices(text) == [
        ("caidejin", "author", "旅序也"),
        ("caidejin", "report", "郑氏谓旅酬者众宾以次相酬"),
        ("caidejin", "report", "敖氏则以为旅犹众也"),
    ]
    assert [v.reports for v in split_voices(text)[1:]] == ["zhengxuan", "aojigong"]


def test_a_verdict_a_clause_on_closes_the_report() -> None:
    text = "郝氏则云媵送也送爵于公今从之其辞则略"
    assert voices(text) == [
        ("caidejin", "report", "郝氏则云媵送也送爵于公今从之"),
        ("caidejin", "author", "其辞则略"),
    ]


def test_verdicts_led_by_a_name_or_by_its_sense() -> None:
    text = "郑氏谓藉所以承玉也敖氏谓藉缫也郑说是也○贾氏疏云裼者见美也其义亦通"
    assert [t for _, _, t in voices(text)] == [
        "郑氏谓藉所以承玉也",
        "敖氏谓藉缫也郑说是也",
        "贾氏疏云裼者见美也其义亦通",
    ]


def test_without_a_verdict_the_report_is_one_clause() -> None:
    # the next clauses are the author's even when a verdict comes later, past 然 or too far
    assert voices("郑氏谓藉所以承玉也经言藉者重玉也") == [
        ("caidejin", "report", "郑氏谓藉所以承玉也"),
        ("caidejin", "author", "经言藉者重玉也"),
    ]
    assert voices("敖氏谓垂缫也然屈缫亦可是也")[0] == ("caidejin", "report", "敖氏谓垂缫也")


def test_note_openers_and_the_jing_set_against_an_old_view() -> None:
    text = "旧说绋即引经不言引者文省也○又按绋以举柩窃谓引亦绋之属"
    assert voices(text) == [
        ("anonymous", "anonymous", "旧说绋即引"),
        ("caidejin", "author", "经不言引者文省也"),
        ("caidejin", "note", "又按绋以举柩"),
        ("caidejin", "note", "窃谓引亦绋之属"),
    ]


def test_a_report_after_a_separator_leaves_it_out() -> None:
    text = "缫藉也○郑氏谓缫以韦衣木○其色则异"
    assert voices(text) == [
        ("caidejin", "author", "缫藉也"),
        ("caidejin", "report", "郑氏谓缫以韦衣木"),
        ("caidejin", "author", "其色则异"),
    ]


def test_an_note_ends_a_quote_with_or_without_a_final() -> None:
    # 按 is the author's attribution: the quote ends there, final or not; after 曰 it is the
    # quoted scholar's own note
    text = "郝仲舆曰宾主之礼按此主人之辞"
    assert voices(text) == [
        ("haojing", "quote", "郝仲舆曰宾主之礼"),
        ("caidejin", "note", "按此主人之辞"),
    ]
    assert [k for _, k, _ in voices("杨信斋曰按乡射之礼如此")] == ["quote"]
    # 案 alone is a table unless a final stands before it
    assert [k for _, k, _ in voices("郝仲舆曰设几案于席前")] == ["quote"]


def test_a_note_runs_on_over_the_authors_parts_after_it() -> None:
    text = "按此大夫之礼也○士则降于大夫"
    assert voices(text) == [("caidejin", "note", text)]


def test_a_note_may_open_right_after_the_verdict_on_a_report() -> None:
    text = "敖氏谓宾主皆北面得之又按宾北面者听命也"
    assert [(s, k) for s, k, _ in voices(text)] == [("caidejin", "report"), ("caidejin", "note")]
    assert voices(text)[1][2] == "又按宾北面者听命也"


def test_a_reported_view_of_parallel_clauses_runs_over_all_of_them() -> None:
    text = "郑氏谓袭衣者加衣于尸也袭带者加带于尸也按此袭之礼"
    got = voices(text)
    assert got[0] == ("caidejin", "report", "郑氏谓袭衣者加衣于尸也袭带者加带于尸也")
    assert got[1][1] == "note"


def test_a_verdict_may_close_the_last_clause_of_a_view() -> None:
    text = "贾氏谓荐进也将以进之于尸亦通○此荐豆之节也"
    assert voices(text)[0] == ("caidejin", "report", "贾氏谓荐进也将以进之于尸亦通")
