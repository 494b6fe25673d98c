"""Where the project's data lives: ontology/, queries/, seeds/ and the default store.

In a checkout (editable install) these are the folders beside ``kg/``; in a wheel they are
packaged under ``kg/_data``. ``KG_HOME`` overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def project_root() -> Path:
    """The folder holding ontology/ and queries/ (a checkout, ``KG_HOME`` or the wheel's data)."""
    env = os.environ.get("KG_HOME")
    if env:
        return Path(env)
    checkout = _PACKAGE.parent
    if (checkout / "ontology").is_dir():
        return checkout
    return _PACKAGE / "_data"


def ontology_dir() -> Path:
    return project_root() / "ontology"


def queries_dir() -> Path:
    return project_root() / "queries"


def default_sources() -> list[Path]:
    """``seeds/`` of the working directory if it has one, else the project's own."""
    here = Path.cwd() / "seeds"
    return [here if here.is_dir() else project_root() / "seeds"]


def default_store() -> Path:
    """``KG_STORE``, else ``.kg/store`` in the project root (the checkout), else in the cwd."""
    env = os.environ.get("KG_STORE")
    if env:
        return Path(env)
    root = project_root()
    base = root if (root / "pyproject.toml").exists() else Path.cwd()
    return base / ".kg" / "store"
