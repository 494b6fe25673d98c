"""The commentary layer: voices, reports, glosses, citations, judgements, textual notes, step
labels — as functions over a block's text, and as RDF in a built store."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.build.run import build
from kg.cli import cli
from kg.eval import run
from kg.nlp.citations import find_citations
from kg.nlp.commentary_rules import load_rules
from kg.nlp.glosses import find_glosses
from kg.nlp.judgements import find_judgements
from kg.nlp.lexicon import PATTERNS
from kg.nlp.textual import find_readings
from kg.nlp.voices import split_voices, step_labels
from kg.nlp.wordlists import PatternError
from kg.queries import resolve_query, with_values
from kg.store import open_store, run_query

from conftest import FIXTURES, select

FIXTURE = FIXTURES / "commentary_pinli.txt"
LJ = "https://w3id.org/lijing/ontology#"
PERSON = "https://w3id.org/lijing/id/person/"


def voices(text: str) -> list[tuple[str, str, str | None, str]]:
    return [(v.speaker, v.kind, v.reports, text[v.start : v.end]) for v in split_voices(text)]


def glosses(text: str, passage: str) -> list[tuple[str, str, str]]:
    return [(g.term, g.definition, g.pattern) for g in find_glosses(text, passage=passage)]


# -- voices ------------------------------------------------------------------------------------


def test_a_reported_view_is_the_authors_opinion_reporting_someone() -> None:
    text = "上某主人名敖君善谓冠礼三加惟云缁布冠者谦也吾子相亲之辞"
    assert voices(text) == [
        ("caidejin", "author", None, "上某主人名"),
        ("caidejin", "report", "aojigong", "敖君善谓冠礼三加惟云缁布冠者谦也"),
        ("caidejin", "author", None, "吾子相亲之辞"),
    ]
    report = split_voices(text)[1]
    assert text[report.view[0] : report.view[1]] == "冠礼三加惟云缁布冠者谦也"


def test_the_verdict_on_a_report_stays_with_it_and_is_left_out_of_the_view() -> None:
    text = "敖君善谓祖庙即祢庙误矣士二庙祖祢各有庙也"
    v = split_voices(text)
    assert [(x.kind, text[x.start : x.end]) for x in v] == [
        ("report", "敖君善谓祖庙即祢庙误矣"),
        ("author", "士二庙祖祢各有庙也"),
    ]
    assert text[v[0].view[0] : v[0].view[1]] == "祖庙即祢庙"


def test_an_anonymous_view_ends_before_the_authors_verdict() -> None:
    assert voices("旧说以杂裳为前玄后黄亦通") == [
        ("anonymous", "anonymous", None, "旧说以杂裳为前玄后黄"),
        ("caidejin", "author", None, "亦通"),
    ]


def test_a_speaker_the_vocabulary_lacks_is_a_voice_with_his_name() -> None:
    v = split_voices("合乐谓歌与众声俱作也张炅生曰周南召南之风乡乐也")
    assert (v[1].speaker, v[1].kind, v[1].name) == ("zhangjiongsheng", "quote", "张炅生")


def test_a_work_quoted_with_yue_is_a_citation_not_a_voice() -> None:
    text = "敖君善曰母不降送尊也孟子曰女子之嫁也母命之"
    assert [k for _, k, _, _ in voices(text)] == ["quote"]
    assert [c.work for c in find_citations(text, split_voices(text))] == ["mengzi"]


def test_the_author_takes_the_floor_back_with_yu() -> None:
    text = "按不言见父与宾郑康成谓盖冠毕已先见之愚则疑其有阙文也"
    assert [(s, k, r) for s, k, r, _ in voices(text)] == [
        ("caidejin", "note", None),
        ("caidejin", "report", "zhengxuan"),
        ("caidejin", "note", None),
    ]


def test_ci_inside_a_clause_is_no_summary() -> None:
    # 于此 "here": the quote goes on to its end
    text = "贾洺州曰户牖间宾客位于此是以礼宾客皆于此尊之也"
    assert [k for _, k, _, _ in voices(text)] == ["quote"]


# -- glosses -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "passage", "expected"),
    [
        ("比合也", "司射比耦", [("比", "合", "A B也")]),
        ("御犹待也", "某御于子", [("御", "待", "A犹B也")]),
        ("筮者以蓍问吉凶也", "筮于庙门", [("筮", "以蓍问吉凶", "A者B也")]),
        ("二升曰觚", "实觚", [("觚", "二升", "B曰A")]),
        ("门侧之堂谓之塾", "西塾", [("塾", "门侧之堂", "B谓之A")]),
        ("玄端即朝服也", "玄端玄裳", [("玄端", "朝服", "A即B")]),
        ("前戒谓未射之先预戒之也", "司射前戒之", [("前戒", "未射之先预戒之", "A谓B")]),
        ("甒瓦器以盛醴", "一甒醴", [("甒", "瓦器", "A B器")]),
    ],
)
def test_each_gloss_pattern(text: str, passage: str, expected: list) -> None:
    assert glosses(text, passage) == expected


@pytest.mark.parametrize(
    ("text", "passage"),
    [
        ("少退不敢并主人也", "少退"),  # a reason, not a meaning
        ("即席坐就闑西阈外之席", "即席坐"),  # 即 "to go to"
        ("若无玄裳即用黄裳", "玄裳黄裳"),  # 即 "then"
        ("比合也", "三耦俟于堂西"),  # 比 is no word of the passage commented on
        ("升自西阶导妇入也", "升自西阶"),  # a phrase explained, not a word glossed
    ],
)
def test_no_gloss_where_the_boundaries_are_not_clear(text: str, passage: str) -> None:
    assert glosses(text, passage) == []


@pytest.mark.parametrize(
    ("text", "passage", "expected"),
    [
        # a run without 也: cut where the next word of the passage begins
        (
            "阶西阶下之西挟夹持也",
            "司射立于阶西挟弓",
            [("阶西", "阶下之西", "A B"), ("挟", "夹持", "A B也")],
        ),
        # a nominal ending closes a definition, whatever follows
        ("踧踖恭敬之貌宾拜于堂下也", "宾踧踖而拜", [("踧踖", "恭敬之貌", "A B")]),
        ("枕所以安首者也", "设枕于床", [("枕", "所以安首者", "A B也")]),  # 所以…者
        ("降阶降西阶也", "主人降阶", [("降阶", "降西阶", "A B也")]),  # a restatement
        ("奠置也", "奠于荐东", [("奠", "置", "A B也")]),  # one character, a clause of its own
        ("二尺曰墉亦曰堵", "筑墉为堵", [("墉", "二尺", "B曰A"), ("堵", "二尺", "B曰A")]),
        ("郑氏谓觚为二升之爵非也", "实觚", [("觚", "二升之爵", "A为B")]),  # a reported view
        ("工北面坐竹器之方者曰筐", "工北面坐取筐", [("筐", "竹器之方者", "B曰A")]),
        ("握手把处犹肤也", "长尺有握", [("握", "手把处", "A B")]),  # 处 ends it, 犹 "like"
        ("辔马缰犹索也", "执辔", [("辔", "马缰", "A B也")]),  # 犹 "like" ends it
    ],
)
def test_glosses_without_a_closing_ye_or_with_a_restating_definition(
    text: str, passage: str, expected: list
) -> None:
    assert glosses(text, passage) == expected


@pytest.mark.parametrize(
    ("text", "passage"),
    [
        ("不云者宾尊也", "宾入"),  # a topic, then a statement: no one-character gloss
        ("主人西面拜者以宾在西阶上也", "主人西面拜宾"),  # the passage's words go on
        ("宾拜亦于西阶也", "宾拜于西阶"),  # 亦 "also" does not end a bare definition
    ],
)
def test_no_run_where_the_passage_goes_on(text: str, passage: str) -> None:
    assert glosses(text, passage) == []


@pytest.mark.parametrize(
    ("text", "passage", "expected"),
    [
        # a short gloss closing a longer clause: the only cut that fits
        ("司马既袒乃执弓以往扱插也", "司马袒执弓扱矢于带", [("扱", "插", "A B也")]),
        # …the term just used, then glossed (扱矢腰间|扱插也)
        ("司射右手执弓左手扱矢腰间扱插也", "司射执弓扱矢", [("扱", "插", "A B也")]),
        # …a longer term restated, its last character kept
        ("宾既升乃取其矢双矢两矢也", "宾升取双矢", [("双矢", "两矢", "A B也")]),
        # a second definition of the term just glossed, a name in a clause of its own
        ("介副也宾之从者也", "宾入门介从", [("介", "副", "A B也"), ("介", "宾之从者", "A B也")]),
        ("介副也宾尊故也", "宾入门介从", [("介", "副", "A B也")]),  # …not a reason
        # a quote that another voice follows ends a clause: a name is glossed there
        ("郑康成曰祔祭名此祔祖也", "士祔于祖", [("祔", "祭名", "A B也")]),
        # in a list of names, a definition as long as the next one: the rest is the topic
        ("凡衣上曰衣下曰裳", "设衣设裳", [("衣", "上", "B曰A"), ("裳", "下", "B曰A")]),
        ("正中曰栋次曰楣", "当栋当楣", [("栋", "正中", "B曰A"), ("楣", "次", "B曰A")]),
        # a restatement holding every character of the term, whatever it opens with
        ("中堂当堂之正中也", "立于中堂", [("中堂", "当堂之正中", "A B也")]),
        ("拜辱拜使者之来辱也", "主人拜辱", [("拜辱", "拜使者之来辱", "A B也")]),
        # a run: a definition closed by a nominal ending, or before 既 opening a statement
        ("括矢末受弦处括向北为顺也", "北括", [("括", "矢末受弦处", "A B")]),
        ("疑立立不安貌敬之至也", "妇疑立于席西", [("疑立", "立不安貌", "A B")]),
        ("宾主人之友既卜得日乃戒之也", "主人戒宾", [("宾", "主人之友", "A B")]),
    ],
)
def test_glosses_with_no_mark_where_the_term_starts(
    text: str, passage: str, expected: list
) -> None:
    assert glosses(text, passage) == expected


@pytest.mark.parametrize(
    ("text", "passage"),
    [
        ("妇先拜于堂下舅尊也", "舅坐妇拜"),  # a person, and what is said of him
        ("主人揖让而后拜敬也", "主人揖宾拜"),  # an act, and why
        ("大夫坐于席祭荐祭脯也", "大夫祭荐"),  # a longer term, another object: the acts go on
        ("宾洗而主人不拜礼简也", "主人不拜洗"),  # a longer term not restated
        ("宾坐于席祭祭酒也", "宾坐祭"),  # 祭祭: the word doubled, not used then glossed
        ("主人升席坐乃卒爵酬劝也", "主人卒爵酬宾"),  # 酬 ends a longer phrase of the passage
        ("主人立于阼阶东而荐脯醢也", "主人荐脯醢"),  # the definition is the passage's
        ("郑康成曰请求见主人此请见也", "宾请见主人"),  # a paraphrase closed by a voice
        ("宰家臣之长舅既答拜宰乃彻", "舅答拜宰彻"),  # 舅 opens the statement after 既
    ],
)
def test_no_gloss_where_a_cut_is_not_clear(text: str, passage: str) -> None:
    assert glosses(text, passage) == []


def test_a_gloss_belongs_to_the_voice_that_states_it() -> None:
    text = "纳入也郑康成曰射器弓矢决拾也"
    found = find_glosses(text, passage="纳射器")
    assert [(g.term, g.voice) for g in found] == [("纳", 0), ("射器", 1)]


# -- citations, judgements, textual notes, step labels -----------------------------------------


def test_a_citation_keeps_its_quoted_words() -> None:
    text = "按说文云饩馈客之刍米也此以生牲言者"
    (c,) = find_citations(text, split_voices(text))
    assert (c.work, c.quote) == ("shuowenjiezi", "饩馈客之刍米也")


def test_judgements_name_their_target() -> None:
    text = "立谓立于门内也敖君善以为字之误是也主人之赞者"
    v = split_voices(text)
    assert [(j.voice, j.stance, j.person, j.words) for j in find_judgements(text, v)] == [
        (1, "endorses", "aojigong", "是也")
    ]
    text = "旧说以杂裳为前玄后黄亦通"
    (j,) = find_judgements(text, split_voices(text))
    assert (j.voice, j.target, j.person, j.stance) == (1, 0, "anonymous", "endorses")


def test_shi_ye_closing_an_identification_is_no_judgement() -> None:
    text = "又有固发之笄内则栉纚笄总后章栉设笄是也"
    assert find_judgements(text, split_voices(text)) == []


def test_a_quoted_commentator_rejecting_a_view_he_reports() -> None:
    text = "郝仲舆曰妇疑立于席西曰疑康成谓疑者正立自定之貌非也"
    (j,) = find_judgements(text, split_voices(text))
    assert (j.voice, j.person, j.stance, j.words) == (0, "zhengxuan", "disputes", "非也")


def test_textual_notes() -> None:
    assert [
        (n.kind, n.reading, n.variant, n.edition, n.locus)
        for n in find_readings("二耦卒射之二郑本误作三")
    ] == [("edition-error", "二", "三", "郑本", "二耦卒射")]
    assert [(n.kind, n.reading) for n in find_readings("此决字当为衍文上经云")] == [
        ("interpolation", "决")
    ]
    # 当作 needs the reading in the passage: "当为" is also "ought to be"
    assert find_readings("其位当为东面", passage="主人在阼") == []
    assert [(n.reading, n.proposed) for n in find_readings("进当作退", passage="揖进")] == [
        ("进", "退")
    ]


def test_step_labels_close_the_authors_voice() -> None:
    text = "郝仲舆曰前立司正为旅酬 此系纲倚旌也"
    assert [label for _, label, _, _ in step_labels(text, split_voices(text))] == ["系纲倚旌"]


# -- the graph ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory: pytest.TempPathFactory):
    store = tmp_path_factory.mktemp("commentary") / "store"
    report = build([FIXTURE], store)
    return open_store(store), report


def named(db, name: str, **bind: str) -> list[dict[str, str]]:
    q = resolve_query(name)
    from kg.store import rows

    names, body = rows(run_query(db, with_values(q.text, {**q.params, **bind})))
    return [{n: (c[1] if c else None) for n, c in zip(names, r, strict=True)} for r in body]


def test_every_block_is_split_into_opinions_whose_spans_are_their_text(fixture_db) -> None:
    db, report = fixture_db
    rows = select(
        db,
        f"""SELECT ?o ?t ?s ?e ?whole WHERE {{ ?o a <{LJ}Opinion> ; <{LJ}text> ?t ;
        <{LJ}charStart> ?s ; <{LJ}charEnd> ?e ; <{LJ}inUnit>/<{LJ}text> ?whole }}""",
    )
    assert len(rows) == report.counts["opinions"] > 10
    for r in rows:
        assert r["whole"][int(r["s"]) : int(r["e"])] == r["t"]
    blocks = select(
        db,
        f"""SELECT ?b WHERE {{ ?b a <{LJ}Commentary> ; <{LJ}text> ?t .
        FILTER NOT EXISTS {{ ?b <{LJ}hasOpinion> ?o }} }}""",
    )
    assert blocks == []


def test_an_unknown_speaker_is_minted_and_reported(fixture_db) -> None:
    db, report = fixture_db
    rows = select(
        db,
        f"""SELECT ?label WHERE {{ <{PERSON}guzhencang> a <{LJ}Commentator> ;
        <http://www.w3.org/2004/02/skos/core#prefLabel> ?label }}""",
    )
    assert rows == [{"label": "顾震沧"}]
    assert any(i.kind == "commentator" and "顾震沧" in i.message for _, i in report.issues)


def test_the_commentary_queries_on_a_built_store(fixture_db) -> None:
    db, _ = fixture_db
    assert {
        (r["definition"], r["commentator"]) for r in named(db, "glosses-of-term", term="图")
    } == {("谋", "蔡德晋")}
    cited = named(db, "citations-of-work", work="说文")
    assert [(r["cited"], r["quote"]) for r in cited] == [("说文解字", "币帛也")]
    disputes = named(db, "author-disputes", commentator="郑康成")
    assert [(r["target"], r["evidence"]) for r in disputes] == [("郑玄", "非也")]
    assert {r["target"] for r in named(db, "author-disputes")} == {"郑玄", "敖继公"}
    both = named(db, "disagreements", a="敖继公", b="郑玄")
    assert {r["rejected"] for r in both} == {"郑玄", "敖继公"}
    assert named(db, "disagreements", a="敖继公", b="郑玄", topic="帅") and not named(
        db, "disagreements", a="敖继公", b="郑玄", topic="璧"
    )


def test_textual_note_and_step_label_in_the_graph(fixture_db) -> None:
    db, _ = fixture_db
    rows = select(
        db,
        f"""SELECT ?r ?v ?e WHERE {{ ?n a <{LJ}TextualNote> ; <{LJ}reading> ?r ;
        <{LJ}variantReading> ?v ; <{LJ}edition> ?e }}""",
    )
    assert rows == [{"r": "币", "v": "帛", "e": "郑本"}]
    rows = select(db, f"SELECT ?l WHERE {{ ?p a <{LJ}Passage> ; <{LJ}stepLabel> ?l }}")
    assert rows == [{"l": "命使"}]


# -- the seeds and the gold sets ---------------------------------------------------------------


def test_every_seed_block_has_voices(seeds_db) -> None:
    rows = select(
        seeds_db,
        f"""SELECT (COUNT(?b) AS ?n) WHERE {{ ?b a <{LJ}Commentary> ; <{LJ}text> ?t .
        FILTER NOT EXISTS {{ ?b <{LJ}hasOpinion> ?o }} }}""",
    )
    assert rows == [{"n": "0"}]
    kinds = select(seeds_db, f"SELECT DISTINCT ?k WHERE {{ ?o <{LJ}voice> ?k }}")
    assert {r["k"] for r in kinds} == {"author", "note", "quote", "anonymous", "report"}


def test_seed_glosses_and_citations_are_queryable(seeds_db) -> None:
    # whatever the build found, the named queries must find again by the term or work's name
    glosses = select(
        seeds_db,
        f"""SELECT ?term ?def WHERE {{ ?g a <{LJ}Gloss> ; <{LJ}glossTerm> ?term ;
              <{LJ}glossDefinition> ?def }} ORDER BY ?g LIMIT 20""",
    )
    assert len(glosses) == 20
    for g in glosses:
        found = named(seeds_db, "glosses-of-term", term=g["term"])
        assert g["def"] in {r["definition"] for r in found}, g
    work = select(
        seeds_db,
        f"""SELECT ?name WHERE {{ ?c a <{LJ}Citation> ; <{LJ}cites> ?w .
              ?w <http://www.w3.org/2004/02/skos/core#prefLabel> ?name }} ORDER BY ?c LIMIT 1""",
    )
    assert work and named(seeds_db, "citations-of-work", work=work[0]["name"])


def test_eval_meets_its_floor() -> None:
    voices_report, glosses_report = run(["voices", "glosses"])
    assert voices_report.units >= 80
    assert voices_report.scores["strict"]["all"].f1 >= 0.95
    g = glosses_report.scores["strict"]["all"]
    assert g.tp + g.fn >= 100 and g.precision >= 0.9
    assert g.recall >= 0.75  # a floor under today's 0.806, so a regression fails


def test_kg_eval_prints_the_new_tasks() -> None:
    result = CliRunner().invoke(cli, ["eval", "--task", "voices", "--task", "glosses"])
    assert result.exit_code == 0, result.output
    assert "voices (strict)" in result.output and "glosses (strict)" in result.output


def test_gold_files_are_consistent() -> None:
    import json

    root = Path(__file__).parent / "gold"
    for name in ("voices.jsonl", "glosses.jsonl"):
        for line in (root / name).read_text(encoding="utf-8").splitlines():
            u = json.loads(line)
            for item in u.get("voices", []):
                assert 0 <= item[0] < item[1] <= len(u["text"]), u["id"]
            for a, b, c, d, term, definition in u.get("glosses", []):
                assert u["text"][a:b] == term and u["text"][c:d] == definition, u["id"]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("max_quote = 40", 'max_quote = "40"', r"\[citations\] max_quote: expected int, got str"),
        ('finals = "也矣焉耳乎欤哉"', "", r"\[voices\] lacks 'finals'"),
        ("min = 2", "min = 2\nmni = 3", r"\[summary\] has unknown key 'mni'"),
    ],
)
def test_a_bad_commentary_pattern_file_is_named(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    good = PATTERNS / "commentary.toml"
    bad = tmp_path / "commentary.toml"
    text = good.read_text(encoding="utf-8")
    assert old in text
    bad.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(PatternError, match=rf"commentary\.toml: {message}"):
        load_rules(bad)
