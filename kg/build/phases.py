"""Wall time per build phase, for ``kg build -v`` and bench/build.py.

Phases nest (NLP runs inside emission, which runs inside loading's pull of quads): each
phase is charged only its own time, so the figures add up to the build's wall time.

>>> p = Phases()
>>> with p("outer"):
...     with p("inner"):
...         pass
>>> sorted(p.seconds)
['inner', 'outer']
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
_END = object()


class Phases:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._stack: list[list[float]] = []  # per open phase: time spent in its children

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        self._stack.append([0.0])
        try:
            yield
        finally:
            (children,) = self._stack.pop()
            total = time.perf_counter() - start
            self.seconds[name] = self.seconds.get(name, 0.0) + total - children
            if self._stack:
                self._stack[-1][0] += total

    def iterate(self, name: str, items: Iterable[T]) -> Iterator[T]:
        """``items``, the time spent producing them charged to ``name``."""
        it = iter(items)
        while True:
            with self(name):
                item = next(it, _END)
            if item is _END:
                return
            yield item  # type: ignore[misc]
