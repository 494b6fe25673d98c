"""``kg eval``: precision, recall and F1 against the gold sets."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from kg.eval import TASKS, run


@click.command("eval")
@click.option(
    "--task",
    "tasks",
    multiple=True,
    type=click.Choice(list(TASKS)),
    help="Which gold set (repeatable; default: all).",
)
@click.option(
    "--gold",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="A gold file to use instead of tests/gold/.",
)
@click.option("--errors", is_flag=True, help="List every miss and spurious find.")
def eval_command(tasks: tuple[str, ...], gold: Path | None, errors: bool) -> None:
    """Score the extractors against a gold set (tests/gold/ by default)."""
    console = Console()
    for report in run(tasks or list(TASKS), gold):
        for mode, scores in report.scores.items():
            t = Table(
                "type",
                "precision",
                "recall",
                "F1",
                "gold",
                "found",
                title=f"{report.task} ({mode}) — {report.units} units",
                header_style="bold",
            )
            for name, sc in sorted(scores.items(), key=lambda kv: (kv[0] == "all", kv[0])):
                t.add_row(
                    name,
                    f"{sc.precision:.3f}",
                    f"{sc.recall:.3f}",
                    f"{sc.f1:.3f}",
                    str(sc.tp + sc.fn),
                    str(sc.tp + sc.fp),
                )
            console.print(t)
        if errors:
            for unit, kind, detail in report.errors:
                click.echo(f"{unit}\t{kind}\t{detail}")
