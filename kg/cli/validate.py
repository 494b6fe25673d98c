"""``kg validate``: SHACL shapes, declared terms, the ontology's own terms, OWL RL consistency.

Exit code 0 when nothing is violated (warnings are listed), 1 otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.options import store_option
from kg.rdf.namespaces import DATA, SHAPES
from kg.rdf.prefixes import PREFIXES, data_prefixes, sparql_term

SHOWN = 5  # focus nodes listed per group of findings
_SHORT = {
    **PREFIXES,
    "ljsh": str(SHAPES),
    **data_prefixes(str(DATA)),
}
_TITLES = {
    "shacl": "SHACL",
    "terms": "terms",
    "ontology": "ontology",
    "owlrl": "OWL RL",
}


def short(iri: str | None) -> str:
    """An IRI as a prefixed name where a usual prefix fits and SPARQL can read it back."""
    return sparql_term(iri, _SHORT) if iri else ""


def render_text(report: object, where: str) -> str:
    """The report for a person: one line per check, then its findings grouped by shape,
    path and message, with the first few focus nodes of each group."""
    lines = [f"kg validate {where}: {report.triples:,} triples in {report.graphs} named graphs"]  # type: ignore[attr-defined]
    for c in report.checks:  # type: ignore[attr-defined]
        mark = "-" if c.skipped else ("✓" if c.ok else "✗")
        lines.append(f"{mark} {_TITLES.get(c.name, c.name):9} {c.summary}  [{c.seconds:.1f} s]")
        groups: dict[tuple, list] = {}
        for f in c.findings:
            groups.setdefault((f.severity, f.shape, f.path, f.message), []).append(f)
        for (severity, shape, path, message), found in groups.items():
            head = " · ".join(x for x in (short(shape), short(path)) if x)
            tag = "" if severity == "Violation" else f"{severity.lower()}: "
            n = len(found)
            nodes = f"{n} node" if n == 1 else f"{n} nodes"
            lines.append(f"    {tag}{head + ': ' if head else ''}{message}  ({nodes})")
            for f in found[:SHOWN]:
                value = f"  value: {f.value}" if f.value and f.value != f.focus else ""
                if f.focus or value:
                    lines.append(f"        {short(f.focus)}{value}")
            if n > SHOWN:
                lines.append(f"        … and {n - SHOWN} more (--format turtle lists every one)")
    verdict = "valid" if report.ok else "NOT valid"  # type: ignore[attr-defined]
    lines.append(
        f"{verdict}: {report.violations:,} violations, {report.warnings:,} warnings"  # type: ignore[attr-defined]
    )
    return "\n".join(lines)


@click.command("validate")
@store_option
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["text", "turtle"]),
    default="text",
    show_default=True,
    help="text: grouped for reading; turtle: a SHACL validation report.",
)
@click.option(
    "--owl-sample",
    type=click.IntRange(min=0),
    default=25,
    show_default=True,
    help="Instances per class in the OWL RL closure (0 skips it; owlrl is slow).",
)
def validate_command(store: Path, fmt: str, owl_sample: int) -> None:
    """Check the built graph: SHACL shapes, declared terms, the ontology, OWL RL consistency."""
    from kg.cli.output import step_progress
    from kg.store import open_store
    from kg.validate import validate_store

    path = store
    with step_progress("kg validate") as progress:
        report = validate_store(open_store(path), owl_sample_size=owl_sample, progress=progress)
    if fmt == "turtle":
        sys.stdout.buffer.write(report.to_graph().serialize(format="turtle", encoding="utf-8"))
        sys.stdout.flush()
    else:
        click.echo(render_text(report, str(path)))
    if not report.ok:
        sys.exit(1)
