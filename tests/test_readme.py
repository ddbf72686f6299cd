"""The README a newcomer reads first: short, its two commands real, its figures reproducible.

A figure whose command no longer exists is a figure nobody can check; a README that grows past
two minutes' reading buries the two commands it exists to give.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
LONGEST_README = 9000


def test_the_readme_reads_in_two_minutes() -> None:
    assert len(README) <= LONGEST_README


def test_its_two_commands_are_the_makefiles_and_ci_runs_the_test_one() -> None:
    start = README.split("## Start", 1)[1].split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in start.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]
    targets = re.findall(r"^([a-z-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert {"run", "test"} <= set(targets)
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_every_figure_names_a_command_that_exists() -> None:
    figures = README.split("## How well it reads", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in figures.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) >= 8
    benches = {path.stem.removeprefix("bench_") for path in (ROOT / "bench").glob("bench_*.py")}
    targets = set(re.findall(r"^([a-z-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    for row in rows:
        command = re.findall(r"`([^`]+)`", row.rsplit("|", 2)[-2])
        assert command, row
        words = command[0].split()
        if words[:3] == ["python", "-m", "bench"]:
            assert words[3] in benches, row
        elif words[0] == "make":
            assert words[1] in targets, row
        else:
            assert words[0] == "tileref", row
