"""spaCy components of the extractor, registered by name (see config.cfg).

The Doc's text is the *normalized* unit text: one character for one, so a span's character
offsets are offsets into the original text as well.

- ``lj_lexicon_matcher``: every lexicon form found (PhraseMatcher over the vocabularies),
  one span per (form, concept) in ``doc.spans[spans_key]``, label = type, kb_id = slug.
- ``lj_mention_resolver``: context rules, then longest match wins, then type priority;
  the surviving spans in ``doc.spans[spans_key]``.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from kg.nlp.lexicon import Lexicon, load_lexicon, rule_allows

if not Doc.has_extension("lj_unit"):
    # what the text is: "classic" (经文, 记) or "commentary"; some rules apply to one only
    Doc.set_extension("lj_unit", default="classic")


@Language.factory(
    "lj_lexicon_matcher",
    assigns=["doc.spans"],
    default_config={
        "spans_key": "lj_candidates",
        "types": ["role", "object", "place", "commentator", "work"],
    },
)
def make_lexicon_matcher(
    nlp: Language, name: str, spans_key: str, types: list[str]
) -> LexiconMatcher:
    return LexiconMatcher(nlp, load_lexicon(), spans_key, types)


class LexiconMatcher:
    def __init__(self, nlp: Language, lexicon: Lexicon, spans_key: str, types: list[str]) -> None:
        self.spans_key = spans_key
        self.matcher = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.entries: dict[int, list] = {}
        for form, entries in lexicon.entries.items():
            wanted = [e for e in entries if e.type in types]
            if not wanted:
                continue
            key = nlp.vocab.strings.add(f"lj:{form}")
            self.matcher.add(f"lj:{form}", [nlp.make_doc(form)])
            self.entries[key] = wanted

    def __call__(self, doc: Doc) -> Doc:
        spans = []
        for match_id, start, end in self.matcher(doc):
            for e in self.entries[match_id]:
                spans.append(Span(doc, start, end, label=e.type, kb_id=e.slug))
        doc.spans[self.spans_key] = spans
        return doc


@Language.factory(
    "lj_mention_resolver",
    requires=["doc.spans"],
    assigns=["doc.spans"],
    default_config={"candidates_key": "lj_candidates", "spans_key": "lj_mentions"},
)
def make_mention_resolver(
    nlp: Language, name: str, candidates_key: str, spans_key: str
) -> MentionResolver:
    return MentionResolver(load_lexicon(), candidates_key, spans_key)


class MentionResolver:
    def __init__(self, lexicon: Lexicon, candidates_key: str, spans_key: str) -> None:
        self.lexicon = lexicon
        self.candidates_key = candidates_key
        self.spans_key = spans_key
        self.priority = {t.name: t.priority for t in lexicon.types.values()}

    def __call__(self, doc: Doc) -> Doc:
        self.set_annotations(doc, self.resolve(doc))
        return doc

    def allowed(self, doc: Doc, text: str, span: Span) -> bool:
        """``text`` is doc.text (costly to rebuild per span)."""
        form = text[span.start_char : span.end_char]
        return rule_allows(
            self.lexicon, form, span.label_, doc._.lj_unit, text, span.start_char, span.end_char
        )

    def resolve(self, doc: Doc) -> list[Span]:
        """Longest first, then leftmost, then type priority; no two spans overlap."""
        text = doc.text
        candidates = [s for s in doc.spans[self.candidates_key] if self.allowed(doc, text, s)]
        candidates.sort(
            key=lambda s: (-(s.end - s.start), s.start, self.priority.get(s.label_, 99))
        )
        taken = [False] * len(doc)
        kept = []
        for s in candidates:
            if any(taken[s.start : s.end]):
                continue
            for i in range(s.start, s.end):
                taken[i] = True
            kept.append(s)
        return sorted(kept, key=lambda s: s.start)

    def set_annotations(self, doc: Doc, spans: list[Span]) -> None:
        doc.spans[self.spans_key] = spans
