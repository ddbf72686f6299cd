"""GCG: judged games written as golden files, read back into the same moves, foreign styles read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.game import new_game
from referee.gamefile import judge_spec
from referee.gcg import GcgError, read_gcg, read_gcg_file, write_gcg
from referee.moves import Exchange, Pass, Play
from referee.scrabble import EndRacks, ScrabbleGame, move_from_json

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
SAMPLES = ROOT / "samples" / "games"


def judged(spec: dict) -> ScrabbleGame:
    game = new_game("scrabble", spec["players"], spec.get("options"))
    for data in spec["moves"]:
        game.judge(move_from_json(data))
    return game  # type: ignore[return-value]


def replay(text: str | bytes) -> ScrabbleGame:
    """Judge a GCG record's moves; every one of them must be legal."""
    record = read_gcg(text)
    game = new_game("scrabble", [{"name": name} for name in record.players],
                    {"preset": record.preset})
    for event in record.events:
        verdict = game.judge(event.move)  # type: ignore[arg-type]
        assert verdict.legal, verdict.to_json()
        if not isinstance(event.move, EndRacks):
            assert verdict.score == event.score, event
    return game  # type: ignore[return-value]


@pytest.mark.parametrize("sample, golden", [
    ("scrabble-classic.json", GOLDEN / "scrabble-classic.gcg"),
    ("scrabble-seed.json", SAMPLES / "scrabble-seed.gcg"),
])
def test_judged_sample_writes_its_golden_file_and_reads_back(sample: str, golden: Path) -> None:
    spec = json.loads((SAMPLES / sample).read_text(encoding="utf-8"))
    game = judged(spec)
    expected = golden.read_text(encoding="utf-8")
    assert write_gcg(game) == expected
    again = replay(expected)
    assert write_gcg(again) == expected
    assert again.state() == game.state()


def test_seed_golden_carries_the_preset_and_the_last_racks() -> None:
    record = read_gcg_file(SAMPLES / "scrabble-seed.gcg")
    assert record.preset == "seed" and record.lexicon == "ENABLE"
    assert record.moves[-1] == EndRacks("Ann", {"Ann": "QV", "Bo": "E?"})
    assert Exchange("Bo", 2) in record.moves and Pass("Ann") in record.moves
    assert record.events[-1].total == 18


def test_quackle_style_record_reads_into_the_same_game() -> None:
    data = (GOLDEN / "quackle-style.gcg").read_bytes()
    record = read_gcg(data)
    assert record.players == ("Ann Lee", "Bö Berg")
    assert record.ignored == (">Bö: (challenge) +5 120",)
    moves = record.moves
    assert moves[1] == Play.from_notation("Bö Berg", "I5 FARO")  # letters played through
    assert moves[4] == Pass("Ann Lee")  # the withdrawn phony OXYZ: a lost turn
    assert moves[6] == Exchange("Ann Lee", 4)
    assert moves[9].word == "ZEsT"
    game = replay(data)
    assert write_gcg(game) == (GOLDEN / "quackle-style.canonical.gcg").read_text("utf-8")
    assert read_gcg((GOLDEN / "quackle-style.canonical.gcg").read_bytes()).moves == moves


def test_latin1_crlf_and_lowercase_are_read_alike() -> None:
    text = (GOLDEN / "quackle-style.gcg").read_text("utf-8")
    body = text.replace("#character-encoding UTF-8\n", "")
    latin = body.replace("\n", "\r\n").encode("iso-8859-1")
    assert read_gcg(latin).moves == read_gcg(text).moves
    assert read_gcg(latin).players == ("Ann Lee", "Bö Berg")


def test_to_spec_judges_to_the_same_scores() -> None:
    record = read_gcg_file(SAMPLES / "scrabble-seed.gcg")
    result = judge_spec(record.to_spec())
    assert result["final"]["scores"] == {"Ann": 18, "Bo": 106}
    assert all(verdict["legal"] for verdict in result["moves"])


HEADER = "#player1 Ann Ann\n#player2 Bo Bo\n"


@pytest.mark.parametrize("text, fragment", [
    (">Ann: HORN 8H HORN +14 14\n", "line 1"),
    (HEADER + ">Cy: HORN 8H HORN +14 14\n", "no player nicknamed 'Cy'"),
    (HEADER + "HORN 8H\n", "line 3"),
    (HEADER + ">Ann: HORN 8H HORN fourteen\n", "not a GCG move line"),
    (HEADER + ">Ann: HORN 8H .ORN +14 14\n", "which is empty"),
    (HEADER + ">Ann: HORN 8M HORNS +14 14\n", "runs off the board"),
    (HEADER + ">Ann: HORN 8H HORN +14 14\n>Ann: HORN -- -14 0\n>Bo: -- -0 0\n", "withdrawn"),
    ("#player1 Ann Ann\n#player2 Ann Bo\n", "two players"),
    ("#player1 Ann Ann\n", "#player1 and #player2"),
    ("#character-encoding KOI8-R\n" + HEADER, "not supported"),
    (HEADER + ">Ann: A (A) -1 -1\n>Bo: - +0 0\n", "after the final racks"),
])
def test_unreadable_records_are_one_line_errors(text: str, fragment: str) -> None:
    with pytest.raises(GcgError) as caught:
        read_gcg(text.encode("utf-8") if text.startswith("#character") else text)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_games_gcg_cannot_hold_are_refused() -> None:
    three = new_game("scrabble", [{"name": n} for n in ("Ann", "Bo", "Cy")])
    with pytest.raises(GcgError, match="two-player"):
        write_gcg(three)
    archipelago = new_game("archipelago", [{"name": "Ann", "seat": "S"},
                                           {"name": "Bo", "seat": "N"}])
    with pytest.raises(GcgError, match="scrabble"):
        write_gcg(archipelago)
    board = "\n".join(["." * 15] * 7 + [".......HORN...."] + ["." * 15] * 7)
    positioned = new_game("scrabble", [{"name": "Ann"}, {"name": "Bo"}], {},
                          {"board": board})
    with pytest.raises(GcgError, match="position"):
        write_gcg(positioned)
    with pytest.raises(GcgError):
        read_gcg_file(ROOT / "no-such-file.gcg")
