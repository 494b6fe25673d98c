"""What a work's print means: its voices' labels, headings and furniture (``tradition.toml``).

>>> c = jishuo_conventions()
>>> c.label_of("注曰筮以蓍問吉凶於易也")
('注曰', Label(voice='zhengxuan', kind='quote'))
>>> c.label_of("繼公謂此目筮日之事也")
('繼公謂', Label(voice='aojigong', kind='own'))
>>> c.label_of("朱子曰諸辭皆當以古音讀之")
('朱子曰', Label(voice='zhuxi', kind='quote'))
>>> c.label_of("此目下文所言之禮也") is None, c.label_of("鄉射禮曰") is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.readers.tradition.registry import Label, commentator_forms, config, later
from kg.text.normalize import normalize

Hit = tuple[int, str, Label]  # offset in the text, the label as printed, whose words follow


@dataclass(frozen=True)
class Conventions:
    own_voice: str  # who speaks in an unlabeled commentary line
    own_kind: str = "own"
    reading_voice: str | None = None  # the small print after 经文 (None: the own voice)
    labels: dict[str, Label] = field(default_factory=dict)  # normalized label → voice, kind
    name_verbs: tuple[str, ...] = ()  # NAME曰: a commentator's name before one of these
    inline_verbs: tuple[str, ...] = ()  # … and inside running text (曰)
    max_name_chars: int = 4
    heading_indent: int = 3
    heading_prefix: str = "右"
    record: str = "记"
    corrections: frozenset[str] = frozenset()
    furniture: tuple[str, ...] = ()
    juan_mark: str = "卷"

    def label_of(self, text: str) -> tuple[str, Label] | None:
        """The label opening a commentary line (as printed) and whose words follow it."""
        norm = normalize(text)
        for n in sorted({len(k) for k in self.labels}, reverse=True):
            if norm[:n] in self.labels:
                return text[:n], self.labels[norm[:n]]
        forms = commentator_forms() if self.name_verbs else {}
        for n in range(self.max_name_chars, 1, -1):
            if len(norm) > n and norm[n] in self.name_verbs and norm[:n] in forms:
                voice = forms[norm[:n]]
                kind = self.own_kind if voice == self.own_voice else "quote"
                return text[: n + 1], Label(voice, kind)
        return None

    def split_in(self, text: str, voice: str, start: int, anywhere: bool) -> Hit | None:
        """The first label at or after ``start`` (never at 0) inside the running text of
        ``voice``'s block that opens another voice's words: a later man's (繼公謂 inside a
        注曰), or, ``anywhere``, any other voice's (鄭本作束錦注曰…, in the 正誤)."""
        norm = normalize(text)
        hits: list[Hit] = []

        def opens(other: str) -> bool:
            return later(other, voice) or (anywhere and other != voice)

        for key, lab in self.labels.items():
            k = norm.find(key, max(start, 1))
            while k > 0 and not opens(lab.voice):
                k = norm.find(key, k + 1)
            if k > 0:
                hits.append((k, text[k : k + len(key)], lab))
        forms = commentator_forms() if self.inline_verbs else {}
        for v in range(max(start, 1), len(norm)):
            if norm[v] not in self.inline_verbs:
                continue
            for n in range(self.max_name_chars, 1, -1):
                who = forms.get(norm[v - n : v]) if v - n >= 1 else None
                if who and opens(who):
                    kind = self.own_kind if who == self.own_voice else "quote"
                    hits.append((v - n, text[v - n : v + 1], Label(who, kind)))
                    break
        return min(hits, key=lambda h: (h[0], -len(h[1]))) if hits else None

    def is_furniture(self, text: str) -> bool:
        return normalize(text).startswith(self.furniture)


def _base() -> dict:
    k = config()["kanripo"]
    return {
        "furniture": tuple(normalize(x) for x in k["furniture"]),
        "juan_mark": normalize(k["juan_mark"]),
    }


def jishuo_conventions() -> Conventions:
    j = config()["jishuo"]
    labels = {normalize(k): Label(v["voice"], v["kind"]) for k, v in j["labels"].items()}
    return Conventions(
        own_voice=j["own_voice"],
        reading_voice=j.get("reading_voice"),
        labels=labels,
        name_verbs=tuple(normalize(v) for v in j["name_verbs"]),
        inline_verbs=tuple(normalize(v) for v in j["inline_verbs"]),
        max_name_chars=j["max_name_chars"],
        heading_indent=j["heading_indent"],
        heading_prefix=normalize(j["heading_prefix"]),
        record=normalize(j["record"]),
        corrections=frozenset(normalize(x) for x in j["corrections"]),
        **_base(),
    )


def generic_conventions(authors: tuple[str, ...]) -> Conventions:
    """An unknown work: no labels; its commentary is its author's (one named on the author
    line; of several, nobody can say whose a line is), or anonymous."""
    g = config()["generic"]
    j = config()["jishuo"]  # 右X and 記 are the 仪礼's own print, whoever comments on it
    return Conventions(
        own_voice=authors[0] if len(authors) == 1 else g["voice"],
        own_kind=g["kind"],
        heading_indent=j["heading_indent"],
        heading_prefix=normalize(j["heading_prefix"]),
        record=normalize(j["record"]),
        **_base(),
    )
