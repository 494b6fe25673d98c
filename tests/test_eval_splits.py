"""``kg eval`` scores each task on the dev and the test split and shows them side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import cli
from kg.eval import tasks
from kg.eval.score import Report, Score, read_gold, read_jsonl


def fake_score(path: Path) -> Report:
    """A scorer that needs no extractor: each unit's ``hit`` counts as found, ``miss`` not."""
    units = read_gold(path, ("id", "hit"))
    sc = Score(tp=sum(u["hit"] for u in units), fn=sum(not u["hit"] for u in units))
    errors = [(u["id"], "missed", "x") for u in units if not u["hit"]]
    return Report("entities", len(units), {"strict": {"role": sc, "all": sc}}, errors)


def write(path: Path, hits: list[bool], prefix: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"id": f"{prefix}-{n}", "hit": h}) for n, h in enumerate(hits)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def gold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Dev gold: 4 units, all found; test gold: 3 units, 1 found."""
    monkeypatch.setattr(tasks, "GOLD_DIR", tmp_path)
    monkeypatch.setattr(tasks, "TEST_DIR", tmp_path / "test")
    monkeypatch.setitem(tasks.TASKS, "entities", tasks.Task("entities.jsonl", fake_score))
    write(tmp_path / "entities.jsonl", [True] * 4, "dev")
    write(tmp_path / "test" / "entities.jsonl", [True, False, False], "test")
    return tmp_path


def test_each_split_is_scored_on_its_own_file(gold: Path) -> None:
    (result,) = tasks.run_splits(["entities"])
    assert list(result.reports) == ["dev", "test"]
    assert result.reports["dev"].units == 4 and result.reports["test"].units == 3
    rows = dict(result.rows("strict"))
    assert list(rows) == ["role", "all"]
    assert rows["all"]["dev"].recall == 1.0
    assert rows["all"]["test"].recall == pytest.approx(1 / 3)


def test_one_split_or_a_given_file(gold: Path) -> None:
    (dev,) = tasks.run_splits(["entities"], "dev")
    (test,) = tasks.run_splits(["entities"], "test")
    (given,) = tasks.run_splits(["entities"], "test", gold / "test" / "entities.jsonl")
    assert list(dev.reports) == ["dev"] and list(test.reports) == ["test"]
    assert list(given.reports) == ["gold"] and given.reports["gold"].units == 3
    # the old entry point still scores the dev file alone
    (report,) = tasks.run(["entities"])
    assert report.units == 4


def test_a_missing_test_file_is_skipped_for_all_but_named_for_test(gold: Path) -> None:
    (gold / "test" / "entities.jsonl").unlink()
    (result,) = tasks.run_splits(["entities"])
    assert list(result.reports) == ["dev"]
    out = CliRunner().invoke(cli, ["eval", "--task", "entities", "--split", "test"])
    assert out.exit_code == 1 and "test/entities.jsonl" in out.output


def test_the_table_shows_dev_and_test_side_by_side(gold: Path) -> None:
    out = CliRunner().invoke(cli, ["eval", "--task", "entities"], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "dev 4 units" in out.output and "test 3 units" in out.output
    assert "dev F1" in out.output and "test F1" in out.output
    all_row = next(line for line in out.output.splitlines() if " all " in line)
    assert "1.000" in all_row and "0.333" in all_row and "0.500" in all_row


def test_split_dev_shows_no_test_column(gold: Path) -> None:
    out = CliRunner().invoke(cli, ["eval", "--task", "entities", "--split", "dev"])
    assert out.exit_code == 0, out.output
    assert "dev 4 units" in out.output and "test" not in out.output


def test_test_errors_only_when_the_test_split_is_named(gold: Path) -> None:
    args = ["eval", "--task", "entities", "--errors"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0 and "test-1\tmissed" not in out.output
    out = CliRunner().invoke(cli, [*args, "--split", "test"])
    assert "test-1\tmissed" in out.output and "test-2\tmissed" in out.output


def test_the_real_test_split_exists_for_every_task() -> None:
    for name, task in tasks.TASKS.items():
        assert task.path("test").is_file(), name
        if task.split_field:  # one file, each line saying its split
            rows = read_jsonl(task.path("dev"))
            assert {r["split"] for r in rows} == {"dev", "test"}, name
        else:
            assert task.path("test").parent == task.path("dev").parent / "test"
