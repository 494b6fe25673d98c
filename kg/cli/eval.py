"""``kg eval``: precision, recall and F1 against the gold sets, dev and test side by side."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from kg.eval import SPLIT_CHOICES, TASKS, SplitReports, run_splits

TABLE_WIDTH = 100


@click.command("eval")
@click.option(
    "--task",
    "tasks",
    multiple=True,
    type=click.Choice(list(TASKS)),
    help="Which gold set (repeatable; default: all).",
)
@click.option(
    "--split",
    type=click.Choice(SPLIT_CHOICES),
    default="all",
    show_default=True,
    help="dev (tests/gold/), test (tests/gold/test/, frozen, never tuned on) or both.",
)
@click.option(
    "--gold",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="A gold file to use instead of tests/gold/ (overrides --split).",
)
@click.option(
    "--errors",
    is_flag=True,
    help="List every miss and spurious find (of the test split only with --split test).",
)
def eval_command(tasks: tuple[str, ...], split: str, gold: Path | None, errors: bool) -> None:
    """Score the extractors against the gold sets, dev and test side by side."""
    console = Console()
    if not console.is_terminal:
        # piped or captured output: wide enough for dev and test columns on one line
        console = Console(width=max(console.width, TABLE_WIDTH))
    for result in run_splits(tasks or list(TASKS), split, gold):
        for mode in result.modes():
            console.print(split_table(result, mode))
        if errors:
            print_errors(result, split)


def split_table(result: SplitReports, mode: str) -> Table:
    """One table per task and mode: the type, then P / R / F1 / gold count for each split."""
    units = " · ".join(f"{s} {r.units} units" for s, r in result.reports.items())
    t = Table("type", title=f"{result.task} ({mode}) — {units}", header_style="bold")
    for s in result.reports:
        for col in ("P", "R", "F1", "gold"):
            t.add_column(f"{s} {col}", justify="right")
    for name, by_split in result.rows(mode):
        cells = [name]
        for sc in by_split.values():
            if sc is None:
                cells += ["—"] * 4
            else:
                cells += [f"{sc.precision:.3f}", f"{sc.recall:.3f}", f"{sc.f1:.3f}"]
                cells.append(str(sc.tp + sc.fn))
        t.add_row(*cells)
    return t


def print_errors(result: SplitReports, split: str) -> None:
    """The errors of the dev (or given) gold; the test split's only when asked by name, so
    that nobody tunes on them in passing."""
    for name, report in result.reports.items():
        if name == "test" and split != "test":
            continue
        for unit, kind, detail in report.errors:
            click.echo(f"{unit}\t{kind}\t{detail}")
