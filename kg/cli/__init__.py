"""``kg``: build, query and inspect the lijing knowledge graph.

Each command is a module of this package that parses its options and calls a plain function;
``COMMANDS`` registers them on the group (``group.py``), which turns library errors into
one-line messages. Shared options are in ``options.py``, terminal output in ``output.py``.
"""

from __future__ import annotations

import click

from kg.cli.build import build
from kg.cli.docs import docs_command
from kg.cli.eval import eval_command
from kg.cli.export import export_command
from kg.cli.group import cli
from kg.cli.lexicon import lexicon
from kg.cli.plan import plan_command
from kg.cli.publish import publish
from kg.cli.query import query
from kg.cli.serve import serve
from kg.cli.stats import stats
from kg.cli.validate import validate_command

COMMANDS: list[click.Command] = [
    build,
    query,
    stats,
    serve,
    publish,
    export_command,
    validate_command,
    docs_command,
    eval_command,
    lexicon,
    plan_command,
]
for command in COMMANDS:
    cli.add_command(command)


def main() -> None:  # pragma: no cover
    cli()


__all__ = ["COMMANDS", "cli", "main"]
