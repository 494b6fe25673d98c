"""Where an unmarked 注 ends and the next 经文 begins, from the file's own print.

注疏 prints 郑玄's 注 in large characters running on into the next 经文: ``介亦如之注如戒賔也
賔及衆賔皆從之注從猶隨也`` holds two 经文 and two 注 with one boundary unmarked. The second
``注`` says a 经文 lies before it; where it starts is the split of the stretch between the two
labels that two character models (trained on the same file: its 经文 and its 注 whose ends
are marked) find most likely. A ``注`` that is a word of the note (``屬注也``) loses to reading
the whole stretch as note, so it is not taken for a label.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

_BOS, _EOS = "\x02", "\x03"


@dataclass
class CharModel:
    """A character n-gram model, each order interpolated with the one below (Witten–Bell),
    down to add-one unigrams."""

    order: int = 3
    grams: Counter[str] = field(default_factory=Counter)  # history + char → count
    seen: Counter[str] = field(default_factory=Counter)  # history → count
    kinds: Counter[str] = field(default_factory=Counter)  # history → distinct followers
    total: int = 0

    @classmethod
    def train(cls, texts: Iterable[str], order: int = 3) -> CharModel:
        m = cls(order)
        for t in texts:
            seq = _BOS * (order - 1) + t + _EOS
            for i in range(order - 1, len(seq)):
                for n in range(order):  # history lengths 0 … order-1
                    h = seq[i - n : i]
                    if m.grams[h + seq[i]] == 0:
                        m.kinds[h] += 1
                    m.grams[h + seq[i]] += 1
                    m.seen[h] += 1
        m.total = m.seen[""]
        return m

    def prob(self, history: str, ch: str) -> float:
        p = (self.grams[ch] + 1) / (self.total + self.kinds[""] + 1)
        for n in range(1, self.order):
            h = history[-n:] if len(history) >= n else None
            if h is None or not self.seen[h]:
                break
            lam = self.seen[h] / (self.seen[h] + self.kinds[h])
            p = lam * self.grams[h + ch] / self.seen[h] + (1 - lam) * p
        return p

    def logps(self, text: str, start: bool, end: bool) -> list[float]:
        """log P of each character of ``text`` (and of its end, last, if ``end``)."""
        pad = _BOS * (self.order - 1) if start else ""
        seq = pad + text + (_EOS if end else "")
        return [
            math.log(self.prob(seq[max(0, i - self.order + 1) : i], seq[i]))
            for i in range(len(pad), len(seq))
        ]

    def score(self, text: str, start: bool = True, end: bool = True) -> float:
        return sum(self.logps(text, start, end))


@dataclass
class Splitter:
    zhu: CharModel
    classic: CharModel
    min_classic: int = 2  # a 经文 of one character is not worth a guess
    margin: float = 0.0  # how much likelier the split must be than the note read whole

    def split(self, note: str, after: str, floor: int = 1) -> int | None:
        """``note`` runs up to an inner ``注`` followed by ``after``: the offset in ``note``
        where the 经文 begins, or None when the ``注`` is a word of the note. ``floor``: the
        note is known to run at least that far (its words are quoted as 注 by the 疏)."""
        if len(note) < max(floor, 1) + self.min_classic:
            return None
        z = self.zhu
        whole = z.score(note + "注" + after, start=True, end=False)
        fresh = z.score(after, start=True, end=False)
        head = [0.0]
        for lp in z.logps(note, start=True, end=False):
            head.append(head[-1] + lp)
        tail = self._tails(note)
        best, best_k = -math.inf, None
        for k in range(max(floor, 1), len(note) - self.min_classic + 1):
            ends = math.log(z.prob(note[max(0, k - z.order + 1) : k], _EOS))
            s = head[k] + ends + self._classic(note, k, tail) + fresh
            if s > best:
                best, best_k = s, k
        return best_k if best > whole + self.margin else None

    def _tails(self, note: str) -> list[float]:
        """tail[m]: log P of ``note[m:]`` and its end under the classic's model, each
        character after its full history inside the note (so shared by every split ≤ m)."""
        c, n = self.classic, len(note)
        tail = [0.0] * (n + 1)
        tail[n] = math.log(c.prob(note[max(0, n - c.order + 1) :], _EOS))
        for j in range(n - 1, -1, -1):
            tail[j] = tail[j + 1] + math.log(c.prob(note[max(0, j - c.order + 1) : j], note[j]))
        return tail

    def _classic(self, note: str, k: int, tail: list[float]) -> float:
        """log P of ``note[k:]`` as a whole 经文: its first characters after the start."""
        c = self.classic
        lead = min(c.order - 1, len(note) - k)
        if lead < c.order - 1:
            return c.score(note[k:])
        pad = _BOS * (c.order - 1) + note[k : k + lead]
        head = sum(math.log(c.prob(pad[i : i + c.order - 1], note[k + i])) for i in range(lead))
        return head + tail[k + lead]
