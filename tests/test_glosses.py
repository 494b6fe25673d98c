"""Glosses on commentary the seeds never showed (issue 15): long descriptive definitions,
paraphrases of negated phrases, terms of two to four characters of the passage, and the
fragments that must not be read as glosses. Every block here was written for the test in the
book's manner (passages of 士丧礼, 既夕礼, 特牲 / 少牢馈食礼, 有司彻, 聘礼, 觐礼); none is seed
text."""

from __future__ import annotations

import pytest

from kg.nlp.glosses import find_glosses


def pairs(text: str, passage: str) -> list[tuple[str, str]]:
    return [(g.term, g.definition) for g in find_glosses(text, passage=passage)]


@pytest.mark.parametrize(
    ("passage", "text", "expected"),
    [
        # a description longer than the usual limit, in a clause of its own closed by 也
        (
            "设重于中庭",
            "重者木之所以依神而未有主时所设者也",
            [("重", "木之所以依神而未有主时所设者")],
        ),
        # …closed by ○, and by a new speaker, the next voice glossing again
        (
            "设重于中庭",
            "重木之所以依神而未有主时所设者也○郑康成曰重主道也",
            [("重", "木之所以依神而未有主时所设者"), ("重", "主道")],
        ),
        (
            "设重于中庭",
            "重木之所以依神而未有主时所设者郝仲舆曰重主道也",
            [("重", "木之所以依神而未有主时所设者"), ("重", "主道")],
        ),
    ],
)
def test_long_descriptive_definitions(
    passage: str, text: str, expected: list[tuple[str, str]]
) -> None:
    assert pairs(text, passage) == expected


def test_a_long_definition_must_describe() -> None:
    # as long, but a narrative of the passage's acts (升, 立), no noun phrase: no gloss
    assert pairs("升者主人自阼阶升而立于阶上东面也", "主人升自阼阶立于阶上") == []


@pytest.mark.parametrize(
    ("passage", "text", "expected"),
    [
        ("宿尸不宿戒", "不宿戒者不前期而戒之也", [("不宿戒", "不前期而戒之")]),
        ("宾兄弟交错其酬无算爵", "无算爵者不以数为限醉而止也", [("无算爵", "不以数为限醉而止")]),
        ("大功布衰裳牡麻绖无受者", "无受者不以轻服受之也", [("无受", "不以轻服受之")]),
        ("主人不拜洗", "不拜洗谓不拜而受其洗也", [("不拜洗", "不拜而受其洗")]),
    ],
)
def test_negated_paraphrases(passage: str, text: str, expected: list[tuple[str, str]]) -> None:
    assert pairs(text, passage) == expected


def test_a_negated_definition_needs_a_negated_term() -> None:
    # 降立 is no negated phrase: 不敢… is a reason, not its meaning
    assert pairs("降立者不敢久立于堂上也", "公侧授宰玉裼降立") == []


def test_a_negated_paraphrase_naming_other_acts_is_no_gloss() -> None:
    # 不执弓 names the passage's own act: what follows explains the rite, no gloss
    assert pairs("不决遂者不执弓变于大射也", "司马适堂西不决遂袒执弓") == []


@pytest.mark.parametrize(
    ("passage", "text", "expected"),
    [
        (
            "乃奠燕养馈羞汤沐之馔如他日",
            "燕养馈羞者平日所以养亲之饮食也",
            [("燕养馈羞", "平日所以养亲之饮食")],
        ),
        ("公降一等辞", "降一等者下阶之一级也", [("降一等", "下阶之一级")]),
        ("大功布衰裳牡麻绖无受者", "大功布之用功粗大者也", [("大功", "布之用功粗大者")]),
    ],
)
def test_terms_of_several_characters(
    passage: str, text: str, expected: list[tuple[str, str]]
) -> None:
    assert pairs(text, passage) == expected


@pytest.mark.parametrize(
    ("passage", "text"),
    [
        # a one-character term cut from the end of a longer phrase of the passage (之朝)
        ("前期三日之朝筮尸", "前期三日之朝犹言祭前三日之旦也"),
        # the predicate of a topic X者 that glossed nothing (宾不辞者|受君赐)
        ("宾不辞而受", "宾不辞者受君赐也"),
        # phrases of the passage, not words: an adverb first, a clause, a person and his act
        ("宾又拜送", "又拜送者重其礼也"),
        ("使者再拜稽首辞君不许乃退", "君不许者重其选也"),
        ("乃升自西阶东面", "乃升者升而就位也"),
        ("尸入门左北面盥", "尸入门左者由宾道也"),
        ("祭于豆间", "祭于豆间者以菹祭于两豆之间也"),
        # A者B explaining the act: restating it, a manner, a purpose, a statement with a subject
        ("主人拜宾于门外", "拜宾者拜其来助祭也"),
        ("楔齿用角柶缀足用燕几", "用燕几者以几之足夹之也"),
        ("宰书币命宰夫官具", "具者具于使者之庙以待命也"),
        ("于其入也一拜其辱也", "一拜者士于大夫礼杀也"),
        ("祝出迎尸于门外", "出迎者敬尸也"),
        # a term right after a negation is a fragment of the negated phrase (无|物)
        ("为铭各以其物亡则以缁长半幅", "无物谓士之不命者也"),
        # a verb after an auxiliary closing a clause (将|行变)
        ("主人袒乃行踊无算", "袒者为将行变也"),
        # a definition opening with the passage's next act or its people
        ("司马刲羊司士击豕", "刲羊击豕各用其所宜也"),
    ],
)
def test_fragments_are_no_glosses(passage: str, text: str) -> None:
    assert pairs(text, passage) == []


def test_a_second_definition_names_none_of_the_passage() -> None:
    # 媵送也女从者也 defines again; here the next clause is a statement about the passage's men
    got = pairs("刲刺也击杀也司马司士主杀牲者也", "司马刲羊司士击豕")
    assert got == [("刲", "刺"), ("击", "杀")]


def test_ear_is_no_final() -> None:
    # 耳 closes a sentence ("only"), but 耳之 is "of the ear"
    assert pairs("瑱塞耳之纩也", "瑱用白纩") == [("瑱", "塞耳之纩")]


def test_a_one_character_verb_and_its_object_may_be_glossed() -> None:
    assert pairs("抚之抚众矢而数之也", "兼诸弣顺羽且左还毋周反面揖抚之") == [
        ("抚之", "抚众矢而数之")
    ]
    # …but A者B of a phrase sharing no character with its definition explains it: no gloss
    assert pairs("左何之者扱领于带也", "簪裳于衣左何之") == []


@pytest.mark.parametrize(
    ("passage", "text", "absent"),
    [
        # a one-character term with a two-character 者 definition: the end of a longer phrase
        ("谒关人", "关人司关之属守关门者也", ("关", "门者")),
        # a definition past the 者 a clause was split at goes on (…者|横于圹上也)
        ("折横覆之抗木横三", "郝氏则谓折横覆之者以折之长者横于圹上也", ("折横覆之", "以折之长者")),
        # the term's act restated with its object: what was done, not what the word means
        ("及竟张旃誓", "郑氏谓誓者誓于其众使无干犯是也", ("誓", "誓于其众使无干犯")),
        # a term no lexicon word runs out of, when a shorter one will do
        ("雍人摡鼎于雍爨雍爨在门东", "雍爨雍人之灶也", ("雍爨雍", "人之灶")),
        # a view cut by its verdict says what the term does (用 …), it names nothing
        ("主人髻发袒", "敖氏则以为髻发用麻其说是也", ("髻发", "用麻")),
        # a nominal ending closes a run only after two characters: 容貌 is a noun going on
        ("容弥蹙以为仪", "容弥蹙容貌愈加敬谨也", ("容弥蹙", "容貌")),
    ],
)
def test_more_fragments_are_no_glosses(passage: str, text: str, absent: tuple[str, str]) -> None:
    assert absent not in pairs(text, passage)


@pytest.mark.parametrize(
    ("passage", "text", "expected"),
    [
        ("天子使大夫戒曰伯父", "伯父天子称同姓大国之辞也", ("伯父", "天子称同姓大国之辞")),
        ("始虞曰夙兴夜处不宁", "夙兴夜处早起夜卧也", ("夙兴夜处", "早起夜卧")),
        ("筮旬有一日", "旬有一日十一日也", ("旬有一日", "十一日")),
        ("朝夕哭不辟子卯", "不辟子卯不避忌日也", ("不辟子卯", "不避忌日")),
        ("雍人摡鼎于雍爨雍爨在门东", "雍爨雍人之灶也", ("雍爨", "雍人之灶")),
    ],
)
def test_phrases_of_the_passage_restated_and_names(
    passage: str, text: str, expected: tuple[str, str]
) -> None:
    assert expected in pairs(text, passage)
