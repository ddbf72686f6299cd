"""Scrabble (RULES.md §2, seed 003): placement, every reason code, scores, endings, last racks."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from referee.boardtext import Tile
from referee.cells import Cell
from referee.errors import IllegalPlayError, SetupError
from referee.game import Player, new_game
from referee.gamefile import judge_spec
from referee.layouts import load_layout
from referee.moves import Exchange, Pass, Play, Snapshot
from referee.scoring import score_play
from referee.scrabble import EndRacks, ScrabbleGame, move_from_json
from referee.tiles import load_tile_set
from referee.wordlist import WordList, load_word_list

ENABLE = load_word_list("enable")
ENGLISH = load_tile_set("english")
SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "games"


def game(preset: str = "classic", board: str | None = None, words=ENABLE,
         names: tuple[str, ...] = ("Ann", "Bo"), **position) -> ScrabbleGame:
    if board is not None:
        position["board"] = board
    return ScrabbleGame([Player(name) for name in names], words, {"preset": preset}, position)


def play(player: str, notation: str) -> Play:
    """``play("Ann", "8H HORN")``: row first is across, column first is down (FORMATS.md)."""
    return Play.from_notation(player, notation)


def reason(g: ScrabbleGame, move) -> str:
    before = (g.board.text(), dict(g.scores), g.to_move)
    with pytest.raises(IllegalPlayError) as caught:
        g.push(move)
    assert (g.board.text(), dict(g.scores), g.to_move) == before
    assert "\n" not in caught.value.message
    return caught.value.reason


def opening() -> ScrabbleGame:
    """HORN 8H, FARO I5 down, OX 9K: the first moves of the sample game."""
    g = game()
    for move in (play("Ann", "8H HORN"), play("Bo", "I5 FARO"), play("Ann", "9K OX")):
        g.push(move)
    return g


# -- placement and reason codes -----------------------------------------------------------------

def test_first_word_must_cover_the_centre_star() -> None:
    g = game()
    assert reason(g, play("Ann", "7H HORN")) == "first-move-centre"
    assert reason(g, play("Ann", "H8 Q")) == "not-in-word-list"
    assert g.push(play("Ann", "H5 HORN")).score == 14  # down through H8, DW on the centre


def test_each_reason_code_in_a_position() -> None:
    g = opening()  # Bo to move
    assert reason(g, play("Bo", "8M HORNS")) == "off-board"
    assert reason(g, play("Bo", "8H HARN")) == "letter-mismatch"
    assert reason(g, play("Bo", "8H HORN")) == "no-tile-placed"
    assert reason(g, play("Bo", "L10 QAT")) == "word-extends"
    assert reason(g, play("Bo", "1A QI")) == "not-connected"
    assert reason(g, play("Bo", "10K HORNE")) == "not-in-word-list"
    assert reason(g, play("Bo", "L7 TAX")) == "invalid-cross-word"  # HORNA across row 8
    assert reason(g, play("Ann", "H8 HAIRNETS")) == "not-your-turn"


def test_precedence_names_the_earliest_rule() -> None:
    g = opening()
    # off-board beats not-in-word-list; letter-mismatch beats word-extends.
    assert reason(g, play("Bo", "8L NXQRT")) == "off-board"
    assert reason(g, play("Bo", "I3 QXFOR")) == "letter-mismatch"
    with pytest.raises(IllegalPlayError) as caught:
        g.push(Pass("Nobody"))
    assert caught.value.reason == "bad-move"


def test_more_tiles_than_a_rack_holds_is_refused() -> None:
    words = WordList("T", ["ABCDEFGH"])
    g = game(words=words)
    assert reason(g, play("Ann", "8A ABCDEFGH")) == "bad-move"


def test_a_single_tile_names_its_word_either_way() -> None:
    g = opening()
    across = g.push(play("Bo", "9H A"))  # nothing beside it across: its word is HA down
    assert [w.word for w in across.words] == ["HA"]
    assert across.words[0].cells == (Cell.parse("H8"), Cell.parse("H9"))
    g.pop()
    down = g.push(play("Bo", "H8 HA"))
    assert down.words == across.words and down.score == across.score


def test_main_word_counts_board_letters_and_blanks_score_zero() -> None:
    g = opening()
    g.push(play("Bo", "H8 HAIRNETS"))
    g.push(Pass("Ann"))
    g.push(Pass("Bo"))
    verdict = g.push(play("Ann", "13G ZEsT"))
    assert [w.word for w in verdict.words] == ["ZEsT"]
    assert g.board.get(Cell.parse("I13")).blank
    # Z on G13 DL (20) + E old (1) + blank s on I13 DL (0) + T (1); no word premium.
    assert verdict.score == 22


def test_blank_letter_is_looked_up_case_insensitively() -> None:
    g = game()
    assert g.push(play("Ann", "8H hoRN")).score == (0 + 0 + 1 + 1) * 2


# -- scores -------------------------------------------------------------------------------------

def test_sample_scores_classic_and_seed() -> None:
    moves = [play("Ann", "8H HORN"), play("Bo", "I5 FARO"), play("Ann", "9K OX"),
             play("Bo", "H8 HAIRNETS")]
    classic, seed = game("classic"), game("seed")
    # HORN: DW centre; FARO: R on I7 DL; OX + NO; HAIRNETS: N on H12 DL, S on H15 TW, bingo 50.
    assert [classic.push(m).score for m in moves] == [14, 8, 9 + 2, (11 + 1) * 3 + 50]
    # seed: no centre premium; F on I5 DL; O on K9 DL (in OX and NO); HAIRNETS: H12 DW, no TW
    # on H15, bingo 35.
    scores = [seed.push(m).score for m in moves]
    assert scores == [7, 8 + 1 + 1 + 1, (2 + 8) + (1 + 2), 11 * 2 + 35]
    assert classic.scores == {"Ann": 14 + 11, "Bo": 8 + 86}
    assert seed.state()["scores"] == {"Ann": scores[0] + scores[2], "Bo": scores[1] + scores[3]}


def test_every_word_formed_scores_separately() -> None:
    g = opening()
    verdict = g.push(play("Bo", "10J EMU"))  # under OX: also NOM down K and XU down L
    assert [(w.word, w.value) for w in verdict.words] == [("EMU", 3 + 3 + 1), ("NOM", 1 + 1 + 3),
                                                          ("XU", 8 + 1)]
    assert verdict.score == 7 + 5 + 9  # E on J10 TL counts in EMU only
    placed = set(verdict.placed)
    assert verdict.score == score_play([w.cells for w in verdict.words], g.board.tiles, placed,
                                       load_layout("classic"), ENGLISH, 50)


def test_a_play_cannot_use_tiles_the_set_does_not_have() -> None:
    g = game()
    g.push(play("Ann", "8H ZAG"))
    assert reason(g, play("Bo", "H7 ZZ")) == "bad-move"  # the set's only Z is on H8
    g.push(play("Bo", "I7 bAa"))  # both blanks: BAA down through the A
    assert reason(g, play("Ann", "9H zA")) == "bad-move"  # a third blank


# -- snapshots ----------------------------------------------------------------------------------

def test_board_snapshot_is_inferred_and_judged() -> None:
    g = opening()
    after = dict(g.board.tiles)
    for row, letter in zip(range(9, 16), "AIRNETS", strict=True):
        after[Cell.parse(f"H{row}")] = Tile(letter)
    verdict = g.push(Snapshot("Bo", after))
    assert verdict.move == play("Bo", "H8 HAIRNETS")
    assert verdict.score == 86
    assert g.board.tiles == after


# -- endings ------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset, limit", [("classic", 6), ("seed", 3)])
def test_scoreless_turns_end_the_game(preset: str, limit: int) -> None:
    g = game(preset)
    g.push(play("Ann", "8H HORN"))
    for turn in range(limit):
        assert not g.is_over
        g.push(Pass("Bo") if turn % 2 == 0 else Exchange("Ann", 2))
    assert g.is_over and g.to_move is None and g.winner == "Ann"
    assert reason(g, Pass(g.players[0].name)) == "game-over"


def test_seed_scoreless_ending_waits_while_the_score_is_zero_zero() -> None:
    g, c = game("seed"), game("classic")
    for turn in range(6):
        name = "Ann" if turn % 2 == 0 else "Bo"
        g.push(Pass(name))
        c.push(Pass(name))
    assert not g.is_over  # 0-0: the seed's exception
    assert c.is_over and c.winner is None  # classic has no exception; a 0-0 tie


def test_a_scoring_play_resets_the_scoreless_count() -> None:
    g = game("seed")
    g.push(play("Ann", "8H HORN"))
    g.push(Pass("Bo"))
    g.push(Pass("Ann"))
    g.push(play("Bo", "I5 FARO"))
    g.push(Pass("Ann"))
    g.push(Pass("Bo"))
    assert not g.is_over
    g.push(Pass("Ann"))
    assert g.is_over


def _nearly_empty_bag() -> tuple[ScrabbleGame, str, str]:
    """86 tiles on the board (rows 1-5 and A7-K7): 14 unseen, so both racks are full, bag 0.

    Returns the game, the 7 letters Ann will play and the 7 left on Bo's rack. The word list is
    made for the position: the board is filler, only the words this test forms are looked up.
    """
    stock = Counter(ENGLISH.counts)
    stock["?"] = ENGLISH.blanks
    order = sorted(stock, key=lambda letter: (letter == "?", -stock[letter], letter))
    bag = [letter for letter in order for _ in range(stock[letter])]
    rows = ["".join(bag[i * 15:(i + 1) * 15]) for i in range(5)]
    row7 = "".join(bag[75:86])
    unseen = bag[86:]
    assert len(unseen) == 14 and "?" not in "".join(rows) + row7  # the blanks stay unseen
    lines = [row.replace("?", "") for row in rows] + ["." * 15, row7 + "." * 4] \
        + ["." * 15] * 8
    board = "\n".join(lines) + "\n"
    ann = "".join(sorted(letter for letter in unseen if letter != "?"))[:7]
    rest = Counter(unseen)
    rest.subtract(ann)
    bo = "".join(letter for letter, count in sorted(rest.items()) for _ in range(count))
    words = WordList("made", [ann, row7 + ann[0]])
    return game(board=board, words=words), ann, bo


def test_going_out_ends_the_game_and_the_last_racks_settle_it() -> None:
    g, ann, bo = _nearly_empty_bag()
    assert g.state()["bag"] == 0
    verdict = g.push(play("Ann", f"L7 {ann}"))
    assert len(verdict.placed) == 7 and verdict.score >= 50
    assert g.is_over and g.went_out == "Ann" and g.winner == "Ann"
    assert reason(g, Pass("Bo")) == "game-over"
    before = dict(g.scores)
    end = g.push(move_from_json({"player": "Bo", "end": {"racks": {"Bo": bo}}}))
    value = sum(ENGLISH.value(letter) for letter in bo)
    assert end.to_json()["adjustments"] == {"Ann": value, "Bo": -value}
    assert end.to_json()["went_out"] == "Ann"
    assert g.scores == {"Ann": before["Ann"] + value, "Bo": before["Bo"] - value}
    assert g.state()["adjustments"] == {"Ann": value, "Bo": -value}
    assert reason(g, EndRacks("Ann", {"Bo": bo})) == "game-over"
    g.pop()
    assert g.scores == before and not g.racks_entered


def test_end_racks_are_checked_against_the_unseen_tiles() -> None:
    g, ann, bo = _nearly_empty_bag()
    g.push(play("Ann", f"L7 {ann}"))
    assert reason(g, EndRacks("Bo", {"Bo": "ZZZ"})) == "bad-move"  # one Z, on the board
    assert reason(g, EndRacks("Bo", {"Ann": "?", "Bo": bo[:-1]})) == "bad-move"  # Ann is out
    assert reason(g, EndRacks("Bo", {"Cy": ""})) == "bad-move"


def test_end_racks_after_a_scoreless_ending_cost_everyone_their_own() -> None:
    g = game("seed")
    g.push(play("Ann", "8H HORN"))
    for name in ("Bo", "Ann", "Bo"):
        g.push(Pass(name))
    assert g.is_over
    end = g.push(EndRacks("Ann", {"Ann": "QE", "Bo": "?A"}))
    assert end.to_json()["adjustments"] == {"Ann": -11, "Bo": -1}
    assert end.to_json()["went_out"] is None
    assert g.scores == {"Ann": 7 - 11, "Bo": -1} and g.winner == "Bo"


def test_end_racks_refused_while_the_bag_holds_tiles() -> None:
    g = opening()
    assert reason(g, EndRacks("Ann", {"Bo": "A"})) == "bad-move"


def test_exchange_needs_tiles_in_the_bag() -> None:
    g, _, _ = _nearly_empty_bag()
    assert reason(g, Exchange("Ann", 1)) == "bad-move"
    g.push(Pass("Ann"))


def test_end_move_json_round_trip_and_errors() -> None:
    data = {"player": "Ann", "end": {"racks": {"Bo": "aeq?"}}}
    move = move_from_json(data)
    assert move == EndRacks("Ann", {"Bo": "AEQ?"})
    assert move_from_json(move.to_json()) == move
    for bad in ({"player": "Ann", "end": {"racks": {"Bo": "A1"}}},
                {"player": "Ann", "end": "AEQ"},
                {"player": "Ann", "end": {"racks": {}}, "pass": True},
                {"end": {"racks": {}}}):
        with pytest.raises(IllegalPlayError) as caught:
            move_from_json(bad)
        assert caught.value.reason == "bad-move"
    assert move_from_json({"player": "Ann", "pass": True}) == Pass("Ann")


# -- set-up, undo, state ------------------------------------------------------------------------

def test_setup_errors_are_one_line() -> None:
    with pytest.raises(SetupError, match="options.preset"):
        new_game("scrabble", [{"name": "Ann"}, {"name": "Bo"}], {"preset": "hex"})
    with pytest.raises(SetupError):
        game(board="QQQ" + "." * 12 + "\n" + "\n".join(["." * 15] * 14))
    with pytest.raises(SetupError):
        game(scores={"Cy": 3})
    with pytest.raises(SetupError):
        new_game("scrabble", [{"name": "Ann"}], {})


def test_position_scores_and_to_move() -> None:
    board = "\n".join(["." * 15] * 7 + [".......HORN...."] + ["." * 15] * 7)
    g = game(board=board, scores={"Ann": 14}, to_move="Bo")
    assert g.to_move.name == "Bo" and g.scores == {"Ann": 14, "Bo": 0}
    assert g.push(play("Bo", "I5 FARO")).score == 8
    assert g.state()["bag"] == 100 - 4 - 3 - 14


def test_pop_restores_everything_and_check_changes_nothing() -> None:
    g = opening()
    snapshot = (g.board.text(), dict(g.scores), g.bag, dict(g.rack_sizes), g.scoreless,
                g.to_move)
    assert g.is_legal(play("Bo", "H8 HAIRNETS"))
    assert (g.board.text(), dict(g.scores), g.bag) == snapshot[:3]
    g.push(play("Bo", "H8 HAIRNETS"))
    assert g.bag == snapshot[2] - 7
    g.pop()
    assert (g.board.text(), dict(g.scores), g.bag, dict(g.rack_sizes), g.scoreless,
            g.to_move) == snapshot


def test_state_names_scores_by_player_and_records_the_word_list() -> None:
    g = opening()
    state = g.state()
    assert state["scores"] == {"Ann": 25, "Bo": 8}
    assert state["word_list"] == "ENABLE" and state["preset"] == "classic"
    assert state["to_move"] == "Bo" and state["winner"] is None
    json.dumps(state)


@pytest.mark.parametrize("name", ["scrabble-classic.json", "scrabble-seed.json"])
def test_sample_games_judge_as_recorded(name: str) -> None:
    spec = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    result = judge_spec(copy.deepcopy(spec), SAMPLES)
    legal = [verdict for verdict in result["moves"] if verdict["legal"]]
    assert len(legal) >= 6
    assert any(verdict["score"] >= 50 for verdict in legal)  # a bingo
    assert any(len(verdict["words"]) > 1 for verdict in legal)  # cross-words
    totals = Counter()
    for verdict in legal:
        totals[verdict["player"]] += verdict["score"]
        for name, change in verdict.get("adjustments", {}).items():
            totals[name] += change
    assert result["final"]["scores"] == dict(totals)
