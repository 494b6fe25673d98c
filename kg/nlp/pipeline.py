"""Build the extractor's spaCy pipeline from ``config.cfg`` (or another config file)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import spacy
from spacy.language import Language

import kg.nlp.components  # noqa: F401  (registers the factories)

CONFIG = Path(__file__).parent / "config.cfg"


@lru_cache(maxsize=2)
def build_nlp(config: Path = CONFIG) -> Language:
    cfg = spacy.util.load_config(config)
    return spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)
