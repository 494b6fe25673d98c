"""Options that every ``kg`` command shares, declared once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from kg.resources import default_store


def store_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--store DIR`` for every command; defaults to KG_STORE or .kg/store in the project."""
    return click.option(
        "--store",
        "store",
        type=click.Path(path_type=Path, file_okay=False),
        default=default_store,  # called when the option is absent, so $KG_STORE is read then
        help="Store directory (default: $KG_STORE or .kg/store in the project).",
    )(fn)
