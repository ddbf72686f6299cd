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


def test_a_first_draft_move_with_a_word_in_it_is_a_bad_move_not_a_crash(tmp_path, capsys):
    # A fuzzer's find: "word" beside "coaster" was ignored by First Draft, and the text output
    # then took the move for a board play and crashed looking for where the word lay.
    path = tmp_path / "game.json"
    path.write_text(json.dumps({
        "ruleset": "firstdraft", "options": {"seed": 2026},
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "moves": [{"player": "Ann", "coaster": 2, "word": "CAT"}]}), encoding="utf-8")
    assert main(["judge", str(path)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("1. Ann: illegal — bad-move: unknown key 'word' in a First Draft move")
    assert main(["judge", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"][0]["legal"] is False


@pytest.mark.slow
def test_the_real_command_in_a_fresh_process(tmp_path):
    missing = subprocess.run([sys.executable, "-m", "webui", "judge", str(tmp_path / "x.json")],
                             capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert missing.stderr.startswith("tileref judge: ") and missing.stderr.count("\n") == 1
    good = subprocess.run([sys.executable, "-m", "webui", "judge",
                           str(SAMPLES / "archipelago-worked-example.json"), "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert good.returncode == 0 and json.loads(good.stdout)["moves"][0]["score"] == 4


def test_an_unknown_move_kind_is_shown_by_its_fields():
    from webui.commands.judge import describe_move

    line = describe_move(3, {"player": "Ann", "juggle": 1},
                         {"legal": True, "player": "Ann", "words": [], "score": 0,
                          "coins": 2, "rows": None, "draws": []})
    assert line == "3. Ann juggle 1: legal (coins: 2)"


@pytest.mark.parametrize("sample, expected", [
    ("colonization-english-arrives.json", [
        "1. Ann names their language FLORBIX",
        "5. Bo does not agree: BRAK is taken back",
        "8. Bo agrees: the word stands",
        "9. Bo plays STONE at L8 down: legal, +24 (also forms BRAKS; STONE goes to English "
        "(an English word); English joins the game)",
        "12. English draws R (a tie, broken in 2 draw(s)) and claims BRAKS (Bo's, 12 points)",
        "13. Bo fails to transform ORBU (Ann's, 12 points), tile value 1 against 1",
        "15. English draws I: no word to claim",
        "16. Bo transforms ORBU (Ann's, 12 points), tile value 10 against 1: the word is "
        "theirs now",
        "  English: 50 (STONE, BRAKS, ORBU, UMPY)",
    ]),
    ("colonization-english-wins.json", [
        "7. End of game: tiles left on the racks: Ann EE (-2), Bo T (-1), Cy — (+0), Di WV (-8)",
    ]),
    ("firstdraft-seed-turns.json", [
        "1. Ann takes coaster 1 (SFT; free)",
        "2. Ann places: row 1 SFT, row 2 —, pool —; a new coaster 3 gets LMN",
        "6. Ann takes coaster 1 (OI; free, taking the 1 coin on it)",
        "12. Ann sells SOFT from row 1 for 2 coins",
        "13. Ann takes coaster 3 (PR; paying 2 coins)",
        "17. Bo turns row 2 face down (EC)",
        "  Bo: 3 — rows JIG / —, pool HK, 5 coins, 2 face down; sold BAD",
    ]),
])
def test_every_ruleset_reads_in_plain_sentences(capsys, sample, expected):
    assert main(["judge", str(SAMPLES / sample)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for line in expected:
        assert line in lines
    assert not any("{" in line for line in lines)  # no raw JSON left for a person to decode
