"""The classic across works: overlaps of 经文 where the works cut, write and mark it differently."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kg.text.parallels import Skeleton, find_parallels

# three passages of our work, and the same 经文 as another work cuts it
OURS = [
    "鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請",
    "賓禮辭許主人再拜賓答再拜主人退賓送再拜",
    "無介",
]
THEIRS = [
    "鄉射之禮○主人戒賔賔岀迎再拜",  # variants 賔, 岀 and a ○
    "主人荅再拜乃請賔禮辭許",  # runs over our first cut
    "主人再拜賔荅再拜主人退賔送再拜無介",  # and over our second
]


def pairs(ours: list[str], theirs: list[str]) -> list[tuple[int, int]]:
    return [(o.here, o.there) for o in find_parallels(ours, theirs)]


def test_one_passage_here_two_there() -> None:
    assert pairs(OURS, THEIRS) == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]


def test_spans_cover_the_shared_words_in_both_texts() -> None:
    found = {(o.here, o.there): o for o in find_parallels(OURS, THEIRS)}
    o = found[(0, 1)]
    assert OURS[0][o.here_span[0] : o.here_span[1]] == "主人答再拜乃請"
    assert THEIRS[1][o.there_span[0] : o.there_span[1]] == "主人荅再拜乃請"
    o = found[(2, 2)]
    assert THEIRS[2][o.there_span[0] : o.there_span[1]] == "無介"


def test_variant_characters_and_marks_are_no_textual_variant() -> None:
    assert all(not o.variants for o in find_parallels(OURS, THEIRS))
    assert all(o.similarity == 1.0 for o in find_parallels(OURS, THEIRS))


def test_missing_and_extra_character() -> None:
    ours = ["司射適堂西袒決遂取弓于階西兼挾乘矢升自西階"]
    theirs = ["司射適堂西袒決取弓於階西兼挾乘矢遂升自西階"]  # 遂 moved
    (o,) = find_parallels(ours, theirs)
    assert [(v.here_text, v.there_text) for v in o.variants] == [("遂", ""), ("", "遂")]
    assert 0.9 < o.similarity < 1.0


def test_a_changed_character_is_a_textual_variant_with_its_offsets() -> None:
    ours = ["二耦卒射亦如之"]
    theirs = ["上射於左三耦卒射亦如之"]
    (o,) = find_parallels(ours, theirs)
    (v,) = o.variants
    assert (v.here_text, v.there_text) == ("二", "三")
    assert ours[0][v.here_span[0] : v.here_span[1]] == "二"
    assert theirs[0][v.there_span[0] : v.there_span[1]] == "三"


def test_a_repeated_formula_goes_where_the_order_expects_it() -> None:
    theirs = ["主人答再拜", "賓升", "主人答再拜", "乃請"]
    ours = ["賓升", "主人答再拜乃請"]
    assert pairs(ours, theirs) == [(0, 1), (1, 2), (1, 3)]


def test_text_found_nowhere_has_no_parallel() -> None:
    assert find_parallels(["君國中射則皮樹中"], THEIRS) == []
    assert find_parallels([""], THEIRS) == []
    assert find_parallels(OURS, []) == []


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("主人賓再拜升降西階東面北上答"), min_size=8, max_size=40))
def test_a_text_against_itself_cut_anywhere(chars: list[str]) -> None:
    text = "".join(chars)
    cut = len(text) // 3
    found = find_parallels([text], [text[:cut], text[cut:]])
    assert [o.there for o in found] == [0, 1]
    assert all(not o.variants for o in found)
    assert found[0].here_span == (0, cut) and found[1].here_span == (cut, len(text))


def test_skeleton_maps_back_to_the_original() -> None:
    sk = Skeleton.of("鄉射之禮○主人")
    assert sk.chars == "乡射之礼主人"
    assert sk.span(4, 6) == (5, 7)
