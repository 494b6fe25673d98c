"""Voices of a commentary block (the first cut; the commentary issue refines it)."""

from __future__ import annotations

from kg.nlp.voices import split_voices


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
