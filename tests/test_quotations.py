"""Quotations traced to their source words: verbatim, abridged, paraphrased, stitched, none."""

from __future__ import annotations

from kg.nlp.quotations import Source, SourceIndex, tier_of, trace

# one block of 敖继公's own words on the passage commented on, one elsewhere in the chapter
NEAR = Source(
    "near",
    "射布而曰侯者王朝射之以威不寧侯遂以名之也諸侯以下則因其名而不改與下綱謂已繫者也其上綱亦然皆以布為之"
    "綱不及地武則下个亦然",
    "aojigong",
    "own",
)
FAR = Source(
    "far",
    "縣不近階者權移於此宜辟東縣之正位也大射東縣在阼階之東縣謂縣鐘磬與鑮於筍簴也",
    "aojigong",
    "own",
)
SOURCES = [NEAR, FAR]


def found(text: str, sources: list[Source] = SOURCES) -> list[tuple[str, str, str, str]]:
    return [
        (q.source.key, text[q.quoted[0] : q.quoted[1]], q.source_text, q.fidelity)
        for q in trace(text, sources, near={"near"})
    ]


def test_verbatim_in_other_characters() -> None:
    text = "射布而曰侯者王朝射之以威不宁侯遂以名之也"
    assert found(text) == [("near", text, "射布而曰侯者王朝射之以威不寧侯遂以名之也", "verbatim")]
    (q,) = trace(text, SOURCES)
    assert q.similarity == 1.0
    assert NEAR.text[q.source_span[0] : q.source_span[1]] == q.source_text


def test_abridged_keeps_the_source_words_in_order() -> None:
    text = "射布而曰侯者王朝射之以威不宁侯也诸侯以下因其名而不改"
    ((key, quoted, source, fidelity),) = found(text)
    assert (key, fidelity) == ("near", "abridged")
    assert quoted == text
    assert source == "射布而曰侯者王朝射之以威不寧侯遂以名之也諸侯以下則因其名而不改"


def test_paraphrase_is_similar_but_not_the_words_in_order() -> None:
    text = "王朝射布以威不宁之侯故名之曰侯诸侯以下因而不改其名"
    ((key, _, _, fidelity),) = found(text)
    assert (key, fidelity) == ("near", "paraphrase")
    (q,) = trace(text, SOURCES)
    assert 0.4 <= q.similarity < 0.9


def test_stitched_from_two_separate_source_sentences_is_two_quotations() -> None:
    first, second = "射布而曰侯者王朝射之以威不宁侯", "县不近阶者权移于此宜辟东县之正位也"
    got = found(first + second)
    assert [(k, q) for k, q, _, _ in got] == [("near", first), ("far", second)]
    assert all(f == "verbatim" for *_, f in got)


def test_two_separate_sentences_of_one_block_are_two_quotations() -> None:
    first = "射布而曰侯者王朝射之以威不宁侯"
    second = "纲不及地武则下个亦然"  # the block's last sentence, far after the first
    got = found(first + second)
    assert [(k, q) for k, q, _, _ in got] == [("near", first), ("near", second)]


def test_no_source_no_quotation() -> None:
    assert found("大夫若有遵者则入门左主人降宾及众宾皆降复初位") == []
    assert found("侯") == []
    assert trace("射布而曰侯者", []) == []


def test_the_near_sources_are_searched_first() -> None:
    same = "諸侯以下則因其名而不改"
    near = Source("n", "甲乙丙丁" + same, "aojigong", "own")
    far = Source("f", same + "戊己庚辛", "aojigong", "own")
    assert [q.source.key for q in trace("诸侯以下则因其名而不改", [far, near], {"n"})] == ["n"]
    assert [q.source.key for q in trace("诸侯以下则因其名而不改", [far, near], {"f"})] == ["f"]


def test_one_index_serves_many_quotations() -> None:
    index = SourceIndex(SOURCES)
    assert [q.source.key for q in index.trace("縣謂縣鐘磬與鑮於筍簴也")] == ["far"]
    assert [q.source.key for q in index.trace("下纲谓已系者也")] == ["near"]


def test_which_blocks_hold_whose_words_in_which_order() -> None:
    assert tier_of("zhengxuan", "zhengxuan", "zhu") == 0
    assert tier_of("zhengxuan", "jiagongyan", "shu") > tier_of("zhengxuan", "zhengxuan", "zhu")
    assert tier_of("jiagongyan", "jiagongyan", "shu-zhu") == 0
    assert tier_of("aojigong", "aojigong", "own") == 0
    assert tier_of("aojigong", "zhengxuan", "zhu") is None
    assert tier_of("haojing", "haojing", "own") is None


def test_a_later_tier_only_for_what_the_first_lacks() -> None:
    zhu = Source("zhu", "主人州長也戒猶警也", "zhengxuan", "zhu")
    shu = Source("shu", "州長將射先戒賓之事禮同鄉飲酒也主人州長也", "jiagongyan", "shu")
    index = SourceIndex([shu, zhu], "zhengxuan")
    got = index.trace("主人州长也戒犹警也州长将射先戒宾之事")
    assert [q.source.key for q in got] == ["zhu", "shu"]


def test_the_rest_of_the_work_last_and_strictly() -> None:
    """A note quoted from another chapter is found there, but only with enough words, and
    never for what is left beside a quotation the chapter holds."""
    here = Source("here", "主人州長也戒猶警也", "zhengxuan", "zhu")
    there = Source("there", "閭獸名如驢一角或曰如驢岐蹄周書曰北唐以閭", "zhengxuan", "zhu")
    index = SourceIndex([here, there], "zhengxuan")
    far = index.trace("闾兽名如驴一角或曰如驴岐蹄", local={"here"})
    assert [(q.source.key, q.fidelity) for q in far] == [("there", "verbatim")]
    assert index.trace("兽名如驴", local={"here"}) == []  # four words: chance, so far off
    beside = index.trace("主人州长也戒犹警也闾兽名如驴一角或曰如驴岐蹄", local={"here"})
    assert [q.source.key for q in beside] == ["here"]
    assert [q.source.key for q in index.trace("闾兽名如驴一角或曰如驴岐蹄")] == ["there"]


# -- the scorer (kg eval --task quotations) ---------------------------------------------------


def test_the_scorer_counts_a_right_source_and_a_wrong_one(tmp_path) -> None:
    import json

    import pytest

    from kg.eval.quotations import evaluate_quotations, tradition_dir
    from kg.resources import project_root

    if not tradition_dir().is_dir():
        pytest.skip("no tradition samples")
    gold = [
        json.loads(line)
        for line in (project_root() / "tests/gold/quotations.jsonl").open(encoding="utf-8")
    ]
    right = next(g for g in gold if g["split"] == "dev" and g["fidelity"] == "verbatim")
    wrong = {**right, "id": "x2", "source_text": "天子諸侯之射先行燕禮卿大夫士之射先行鄉飲酒之禮"}
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(right) + "\n", encoding="utf-8")
    first = evaluate_quotations(path, "dev").scores["sources"]["all"]
    assert (first.tp, first.fn) == (1, 0)
    path.write_text(json.dumps(wrong) + "\n", encoding="utf-8")
    total = evaluate_quotations(path, "dev").scores["sources"]["all"]
    assert (total.tp, total.fn) == (0, 1)
    assert total.fp == first.fp + 1  # the prediction that matched is now spurious
