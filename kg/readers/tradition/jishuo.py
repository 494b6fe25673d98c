"""仪礼集说 (KR1d0035, 敖继公) in Kanripo's layout → ``WorkDocument``.

The layout (``../shared/corpus/tradition/README.md``): 经文 at indentation 0, with its reading
gloss in small print; commentary at indentation 1 under the 经文 it follows, each block on
its own lines and opened by a label when it is not 敖继公's own: ``注曰`` (郑玄's 注 quoted),
``疏曰`` (贾公彦's 疏), ``朱子曰`` … ; ``繼公謂`` and unlabeled lines are his own words.
``右X`` at deep indentation closes a section; ``記`` opens the record; the juan's ``正誤``
lists his corrections of the text. The labels and marks are data: ``tradition.toml``
(``[jishuo]``); the reading itself is ``body.py``'s.
"""

from __future__ import annotations

from pathlib import Path

from kg.readers.tradition.assemble import read_document
from kg.readers.tradition.conventions import jishuo_conventions
from kg.text.tradition import WorkDocument, WorkInfo


def read(path: Path, text: str, info: WorkInfo) -> WorkDocument:
    return read_document(path, text, info, jishuo_conventions())
