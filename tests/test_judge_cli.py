"""``tileref judge``: what a person reads, what a program reads, and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webui.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "games"


def test_text_output_reads_like_the_worked_example(capsys):
    assert main(["judge", str(SAMPLES / "archipelago-worked-example.json")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("1. S plays TO at H7 down: legal, +4 "
                                   "(captures DOG from N; lift off J8)")
    assert "Final board:" in out and "  S: 4 (AT, TO)" in out and "  N: 2 (NO)" in out
    assert "N to move" in out


def test_text_output_names_illegal_moves_and_the_winner(capsys):
    assert main(["judge", str(SAMPLES / "archipelago-three-seats.json")]) == 0
    out = capsys.readouterr().out
    assert ("5. N: illegal — not-in-word-list: XYZZY is not in the word list ENABLE"
            in out.splitlines())
    assert "eliminates W" in out and "Winner: S" in out
    assert "6. N exchanges 4 tiles" in out and "7. S passes" in out


def test_json_output_is_the_formats_shape(capsys):
    assert main(["judge", str(SAMPLES / "archipelago-snapshots.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"moves", "final"} and len(data["moves"]) == 7


@pytest.mark.parametrize("content, fragment", [
    ("{", "not valid JSON"),
    ('{"ruleset": "go", "players": []}', "unknown ruleset 'go'; known: archipelago"),
])
def test_bad_files_exit_2_with_one_line(tmp_path, capsys, content, fragment):
    path = tmp_path / "game.json"
    path.write_text(content, encoding="utf-8")
    assert main(["judge", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and fragment in captured.err


def test_the_real_command_in_a_fresh_process(tmp_path):
    missing = subprocess.run([sys.executable, "-m", "webui", "judge", str(tmp_path / "x.json")],
                             capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert missing.stderr.startswith("tileref judge: ") and missing.stderr.count("\n") == 1
    good = subprocess.run([sys.executable, "-m", "webui", "judge",
                           str(SAMPLES / "archipelago-worked-example.json"), "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert good.returncode == 0 and json.loads(good.stdout)["moves"][0]["score"] == 4


def test_other_rulesets_move_kinds_are_described_plainly():
    from webui.commands.judge import describe_move

    line = describe_move(3, {"player": "Ann", "sell": 1},
                         {"legal": True, "player": "Ann", "words": [], "score": 0,
                          "coins": 2, "rows": ["", "CAT"], "draws": []})
    assert line == '3. Ann sell 1: legal (coins: 2; rows: ["", "CAT"])'
