"""The ``kg`` click group: library errors (KgError) become one-line messages here and nowhere
else. Exit codes: 0 ok, 1 user error, 2 usage."""

from __future__ import annotations

import sys
from typing import Any

import click

from kg import __version__
from kg.errors import KgError


class KgGroup(click.Group):
    """Turns KgError into a one-line message and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KgError as e:
            raise click.ClickException(str(e)) from None
        except KeyboardInterrupt:
            click.echo("interrupted; the previous store is unchanged", err=True)
            sys.exit(130)


@click.group(cls=KgGroup)
@click.version_option(__version__, prog_name="kg")
def cli() -> None:
    """lijing-kg: a knowledge graph of 礼经本义 (蔡德晋's commentary on the 仪礼)."""
