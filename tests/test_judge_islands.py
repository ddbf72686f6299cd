"""``tileref judge`` on islands games: FORMATS.md's verdicts and final, plain words, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.gamefile import judge_file
from referee.islands import REASONS
from webui.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "games"
VERDICT_KEYS = {"legal", "player", "placed", "islands", "allowed", "bonus", "frozen", "ended"}
FINAL_KEYS = {"board", "islands", "bonus", "frozen", "to_move", "winner"}


@pytest.mark.parametrize("name", ["islands-two-players.json", "islands-four-players.json"])
def test_the_samples_judge_to_the_formats_shape_the_same_way_every_time(name):
    result = judge_file(SAMPLES / name)
    assert judge_file(SAMPLES / name) == result
    for verdict in result["moves"]:
        if verdict["legal"]:
            assert VERDICT_KEYS <= set(verdict)
            assert all(isinstance(count, int) for count in verdict["islands"].values())
        else:
            assert verdict["reason"] in REASONS and verdict["message"]
    assert FINAL_KEYS <= set(result["final"])
    assert result["final"]["to_move"] is None  # both samples are played to the end


def test_the_two_player_sample_ends_on_passes_in_a_shared_first_place():
    result = judge_file(SAMPLES / "islands-two-players.json")
    moves, final = result["moves"], result["final"]
    assert [v["legal"] for v in moves].count(False) == 3
    assert moves[6]["move"] == {"player": "Ann", "place": [["b2", "R"], ["b3", "R"]]}
    assert moves[7]["reason"] == "board-mismatch" and moves[7]["unexpected"][0]["cell"] == "c4"
    assert moves[5]["islands"] == {"R": 1, "B": 2}  # Bo's red stone joined Ann's two islands
    assert final["ended"] == "passes" and final["winner"] is None
    assert final["islands"] == {"R": 2, "B": 2} and final["bonus"] == {"R": 3, "B": 3}


def test_the_four_player_sample_freezes_a_player_who_is_then_refused_and_skipped():
    result = judge_file(SAMPLES / "islands-four-players.json")
    moves, final = result["moves"], result["final"]
    frozen_at = next(i for i, v in enumerate(moves) if v.get("legal") and v["frozen"])
    assert moves[frozen_at]["frozen"] == ["Bo"]
    assert moves[frozen_at + 1]["reason"] == "player-frozen"
    later = [v["player"] for v in moves[frozen_at + 2:]]
    assert "Bo" not in later and len(later) == 3  # the three still playing pass, and it ends
    assert final["frozen"] == ["Bo"] and final["ended"] == "passes" and final["winner"] == "Di"


def test_text_output_says_each_turn_in_words(capsys):
    assert main(["judge", str(SAMPLES / "islands-two-players.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    for line in [
        "1. Ann places red e5: legal, 1 of 1 stone (islands red 0, blue 0)",
        "4. Ann places red e6, red g2, red g3: legal, 3 of 3 stones (islands red 2, blue 1;"
        " red earns a bonus of 3)",
        "5. Bo: illegal — occupied: e5 already holds a red stone",
        "7. Ann places red b2, red b3 (read from the board): legal, 2 of 3 stones"
        " (islands red 2, blue 2)",
        "11. Bo passes (the game ends: every player still playing passed in a row)",
        "  1. Ann (red): 2 islands, bonus 3",
        "Shared first place: Ann, Bo",
    ]:
        assert line in lines
    assert "Final board:" in lines
    assert not any("{" in line for line in lines)


def test_text_output_names_the_frozen(capsys):
    assert main(["judge", str(SAMPLES / "islands-four-players.json")]) == 0
    out = capsys.readouterr().out
    assert "Bo is frozen: their rank can no longer change" in out
    assert "  4. Bo (blue): 1 island, bonus 1 — frozen" in out.splitlines()
    assert out.rstrip().endswith("Winner: Di")


def test_json_output_is_moves_and_final(capsys):
    assert main(["judge", str(SAMPLES / "islands-four-players.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"moves", "final"}
    assert data == judge_file(SAMPLES / "islands-four-players.json")


@pytest.mark.parametrize("spec, fragment", [
    ({"ruleset": "islands", "players": [{"name": "Ann", "colour": "R"},
                                        {"name": "Bo", "colour": "R"}]}, "different colour"),
    ({"ruleset": "islands", "players": [{"name": "Ann", "colour": "Z"},
                                        {"name": "Bo", "colour": "B"}]}, "a colour is one of"),
    ({"ruleset": "islands", "options": {"size": 12},
      "players": [{"name": "Ann"}, {"name": "Bo"}]}, "options.size"),
    ({"ruleset": "islands", "players": [{"name": "Ann"}, {"name": "Bo"}],
      "position": {"board": ". . .\n. . . .\n"}}, "position: board text has 2 lines"),
    ({"ruleset": "islands", "players": [{"name": "Ann"}]}, "2 to 4 players"),
    ({"ruleset": "islands", "players": "Ann, Bo"}, "\"players\""),
])
def test_a_malformed_islands_game_file_exits_2_with_one_line(tmp_path, capsys, spec, fragment):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    assert main(["judge", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and fragment in captured.err, captured.err


def test_a_malformed_move_is_a_bad_move_verdict_and_the_game_goes_on(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({
        "ruleset": "islands", "options": {"size": 3},
        "players": [{"name": "Ann", "colour": "R"}, {"name": "Bo", "colour": "B"}],
        "moves": [{"player": "Ann", "place": [["a1", "R"]], "word": "CAT"},
                  {"player": "Ann", "place": [["a1", "R"]]}]}), encoding="utf-8")
    assert main(["judge", str(path), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves[0]["reason"] == "bad-move" and moves[1]["legal"] is True


@pytest.mark.slow
def test_the_real_command_in_a_fresh_process():
    done = subprocess.run([sys.executable, "-m", "webui", "judge",
                           str(SAMPLES / "islands-four-players.json"), "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and json.loads(done.stdout)["final"]["winner"] == "Di"
