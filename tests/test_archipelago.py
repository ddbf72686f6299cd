"""Archipelago (RULES.md §1): the worked example, every reason code, effects, endings, undo."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import (
    SIZE,
    ArchipelagoGame,
    Cell,
    Direction,
    Exchange,
    IllegalPlayError,
    Pass,
    Play,
    Player,
    Seat,
    SetupError,
    Tile,
    format_board_text,
    new_game,
    rotate_tiles,
)
from referee.wordlist import WordList

WORDS = WordList("TEST", ["AT", "TO", "DOG", "NO", "CAT", "CATS", "TA", "ON", "GO", "GOD", "AN",
                          "ACT", "TAN", "ANT", "TON", "NOT", "DOT", "COT", "COG", "GOT", "DO",
                          "NOD", "TOG", "CODA", "SO"])


def tiles(spec: str) -> dict[Cell, Tile]:
    """``tiles("G7:A^ H7:T^")``: cell names and board-text tokens."""
    result = {}
    for item in spec.split():
        name, token = item.split(":")
        result[Cell.parse(name)] = Tile.parse(token)
    return result


def game(spec: str = "", seats: str = "SN", active: dict | None = None,
         to_move: str | None = None, **options) -> ArchipelagoGame:
    position = {"board": format_board_text(tiles(spec), spaced=True)}
    if active is not None:
        position["active"] = active
    if to_move is not None:
        position["to_move"] = to_move
    players = [Player(f"p{seat}", Seat(seat)) for seat in seats]
    return ArchipelagoGame(players, WORDS, options, position)


def play(player: str, word: str, at: str, direction: str = "across") -> Play:
    return Play(player, word, Cell.parse(at), Direction(direction))


def reason(g: ArchipelagoGame, move) -> str:
    with pytest.raises(IllegalPlayError) as caught:
        g.check(move)
    message = caught.value.message
    assert message and "\n" not in message
    return caught.value.reason


def names(cells) -> list[str]:
    return [cell.name for cell in cells]


WORKED = "G7:A^ H7:T^ J8:Dv I8:Ov H8:Gv I9:Nv"
CAT = "G15:C^ H15:A^ I15:T^"


# -- the worked example -------------------------------------------------------------------------

def test_worked_example_exact_figures():
    g = game(WORKED)
    verdict = g.push(play("S", "TO", "H7", "down"))
    assert verdict.to_json() == {
        "legal": True, "player": "S",
        "words": [{"word": "TO", "cells": ["H7", "H8"], "value": 2}],
        "captured_tiles": ["H8"],
        "captured_words": [{"owner": "N", "word": "DOG", "cells": ["J8", "I8", "H8"]}],
        "remove": ["J8"], "score": 4, "eliminated": []}
    state = g.state()
    assert sorted(w["word"] for w in state["active"]["S"]) == ["AT", "TO"]
    assert [w["word"] for w in state["active"]["N"]] == ["NO"]
    assert state["strength"] == {"S": 4, "N": 2}
    assert state["to_move"] == "N" and state["winner"] is None and state["eliminated"] == []
    assert g.board.get(Cell.parse("J8")) is None
    assert g.board.get(Cell.parse("H8")) == Tile("O", rotation=0)
    assert g.board.get(Cell.parse("I8")) == Tile("O", rotation=180)


def test_worked_example_active_words_derived_from_the_board():
    g = game(WORKED)
    assert {(w.word, tuple(names(w.cells))) for w in g.active["N"]} == {
        ("DOG", ("J8", "I8", "H8")), ("NO", ("I9", "I8"))}
    assert [(w.word, names(w.cells)) for w in g.active["S"]] == [("AT", ["G7", "H7"])]


def test_worked_example_with_only_dog_eliminates_north_and_south_wins():
    g = game(WORKED, active={"N": [{"word": "DOG", "cells": ["J8", "I8", "H8"]}]})
    verdict = g.push(play("S", "TO", "H7", "down"))
    assert verdict.eliminated == ["N"]
    assert set(names(verdict.remove)) == {"J8", "I8"}  # NO is not active, so I8 goes too
    assert g.is_over and g.winner == "S" and g.to_move is None
    assert reason(g, Pass("N")) == "game-over"
    assert reason(g, Pass("S")) == "game-over"


def test_logged_score_uses_the_seed_layout_when_asked():
    g = game(WORKED, preset="seed")  # the seed board's centre carries no premium
    assert g.push(play("S", "TO", "H7", "down")).score == 2


# -- reason codes -------------------------------------------------------------------------------

def test_off_board():
    g = game(CAT)
    assert reason(g, play("S", "CATS", "M15")) == "off-board"
    assert reason(g, play("S", "CAT", "H14", "down")) == "off-board"


def test_letter_mismatch_counts_only_own_tiles():
    g = game(CAT + " I14:Xv")
    assert reason(g, play("S", "GO", "H14", "down")) == "letter-mismatch"  # own A at H15
    verdict = g.push(play("S", "AT", "I14", "down"))  # North's X imposes nothing
    assert names(verdict.captured_tiles) == ["I14"] and verdict.captured_words == []
    assert g.board.get(Cell.parse("I14")) == Tile("A", rotation=0)


def test_no_tile_placed():
    assert reason(game(CAT), play("S", "CAT", "G15")) == "no-tile-placed"


def test_word_extends():
    g = game(CAT)
    assert reason(g, play("S", "TA", "I15")) == "word-extends"  # own A on H15 joins it
    assert reason(g, play("S", "TO", "G13", "down")) == "word-extends"  # own C below


def test_first_move_home_row_and_centre():
    g = game("")
    assert reason(g, play("S", "CAT", "H13", "down")) == "first-move-home-row"
    assert reason(g, play("S", "CAT", "H14")) == "first-move-home-row"
    assert reason(g, play("S", "CAT", "A15")) == "first-move-centre"
    g.push(play("S", "CAT", "G15"))
    # North's home row is row 1, read from O to A; its home centre is H1
    assert reason(g, play("N", "DOG", "H2")) == "first-move-home-row"
    assert reason(g, play("N", "DOG", "O1")) == "first-move-centre"
    verdict = g.push(play("N", "DOG", "I1"))
    assert names(verdict.words[0].cells) == ["I1", "H1", "G1"]
    assert g.board.get(Cell.parse("I1")) == Tile("D", rotation=180)


def test_every_seat_reads_its_own_frame():
    g = new_game("archipelago", [{"name": "a", "seat": "S"}, {"name": "b", "seat": "W"},
                                 {"name": "c", "seat": "N"}, {"name": "d", "seat": "E"}])
    assert names(g.push(play("S", "CAT", "G15")).words[0].cells) == ["G15", "H15", "I15"]
    assert names(g.push(play("W", "CAT", "A7")).words[0].cells) == ["A7", "A8", "A9"]
    assert names(g.push(play("N", "CAT", "I1")).words[0].cells) == ["I1", "H1", "G1"]
    assert names(g.push(play("E", "CAT", "O9")).words[0].cells) == ["O9", "O8", "O7"]
    assert {t.rotation for c, t in g.board.tiles.items() if c.col == 14} == {270}
    assert {t.rotation for c, t in g.board.tiles.items() if c.col == 0} == {90}


def test_a_seat_with_tiles_in_a_position_has_played_its_first_word():
    g = game("H10:C^ H11:A^ H12:T^")
    assert g.is_legal(play("S", "AT", "G12"))  # far from the home row: no first-word rule
    fresh = game("H10:C^ H11:A^ H12:T^", to_move="N")
    assert reason(fresh, play("N", "AT", "G12")) == "first-move-home-row"


def test_touching_counts_as_connected_and_cross_words_are_checked():
    g = game("H14:T^ H15:O^")  # TO, down
    assert reason(g, play("S", "TO", "A3")) == "not-connected"
    assert reason(g, play("S", "AT", "I14", "down")) == "invalid-cross-word"  # makes OT
    verdict = g.push(play("S", "AN", "I14", "down"))
    assert [w.word for w in verdict.words] == ["AN", "TA", "ON"]
    assert names(verdict.words[1].cells) == ["H14", "I14"]


def test_not_in_word_list_and_one_letter_words():
    g = game("H14:T^ H15:O^")
    assert reason(g, play("S", "TN", "I14", "down")) == "not-in-word-list"
    assert reason(g, play("S", "A", "I15", "down")) == "not-in-word-list"
    with pytest.raises(IllegalPlayError) as caught:
        g.check(play("S", "TN", "I14", "down"))
    assert "TEST" in caught.value.message


def test_precedence_names_the_first_broken_rule():
    g = game(CAT, to_move="N")
    bad = play("S", "XQZW", "M15")  # not S's turn, off board, not a word
    assert reason(g, bad) == "not-your-turn"
    assert reason(g, Pass("E")) == "bad-move"  # nobody sits East
    g = game(CAT)
    assert reason(g, bad) == "off-board"
    assert reason(g, play("S", "XQ", "A3")) == "not-connected"  # before not-in-word-list


# -- effects ------------------------------------------------------------------------------------

def test_an_extended_word_stays_active_and_keeps_its_tiles():
    g = game(CAT + " J13:Dv")
    g.push(play("S", "CATS", "G15"))
    assert sorted(w.word for w in g.active["S"]) == ["CAT", "CATS"]
    verdict = g.push(play("N", "GOD", "J15", "down"))  # North's down runs up the board
    assert names(verdict.words[0].cells) == ["J15", "J14", "J13"]
    assert [(w.owner, w.word) for w in verdict.captured_words] == [("S", "CATS")]
    assert verdict.remove == [] and verdict.eliminated == []
    assert [w.word for w in g.active["S"]] == ["CAT"]
    assert g.state()["strength"]["S"] == 5


def test_blank_counts_zero_in_values():
    g = game("")
    verdict = g.push(play("S", "cAT", "G15"))
    assert verdict.words[0].word == "cAT" and verdict.words[0].value == 2
    assert g.board.get(Cell.parse("G15")) == Tile("C", blank=True, rotation=0)


def test_eliminated_player_is_skipped_and_cannot_move():
    g = game(WORKED + " A8:T>", seats="SWN",
             active={"N": [{"word": "DOG", "cells": ["J8", "I8", "H8"]}]})
    g.push(play("S", "TO", "H7", "down"))
    assert g.eliminated == ["N"] and not g.is_over
    assert g.to_move.id == "W"
    g.push(Pass("W"))
    assert g.to_move.id == "S"
    assert reason(g, Pass("N")) == "player-eliminated"


def test_stall_ends_with_the_strongest_player_winning():
    g = game(CAT + " H1:Nv I1:Ov")  # S: CAT (5), N: ON (2)
    g.push(Pass("S"))
    g.push(Exchange("N", 3))
    assert g.judge(play("S", "XQ", "A1")).legal is False  # neither counts nor resets
    g.push(Pass("S"))
    assert not g.is_over
    g.push(Pass("N"))
    assert g.is_over and g.winner == "S" and g.state()["to_move"] is None


def test_stall_with_a_tie_for_first_has_no_winner_and_a_play_resets_the_count():
    g = game("G15:A^ H15:T^ H1:Av I1:Tv")  # AT (2) against TA (2)
    g.push(Pass("S"))
    g.push(Pass("N"))
    g.push(Pass("S"))
    g.push(play("N", "TAN", "I1"))
    for mover in "SNS":
        g.push(Pass(mover))
    assert not g.is_over
    g.push(Pass("N"))
    assert g.is_over and g.winner == "N"  # TA 2 + TAN 3 against AT 2
    g2 = game("G15:A^ H15:T^ H1:Av I1:Tv")
    for mover in "SNSN":
        g2.push(Pass(mover))
    assert g2.is_over and g2.winner is None


# -- history ------------------------------------------------------------------------------------

def snapshot_state(g: ArchipelagoGame) -> dict:
    return copy.deepcopy({key: value for key, value in vars(g).items()
                          if key not in g.shared_attributes})


def test_pop_restores_exactly_and_check_changes_nothing():
    g = game(WORKED + " A8:T>", seats="SWN")
    before = snapshot_state(g)
    moves = [play("S", "TO", "H7", "down"), Pass("W"), play("N", "DO", "J8", "down")]
    for move in moves:
        for probe in (play("S", "ZZ", "A1"), move):
            g.is_legal(probe)
            assert snapshot_state(g) == snapshot_state(g)
        frozen = snapshot_state(g)
        g.check(move)
        assert snapshot_state(g) == frozen
        g.push(move)
    for move in reversed(moves):
        assert g.pop() == move
    assert snapshot_state(g) == before
    with pytest.raises(ValueError):
        g.pop()


def test_judge_leaves_an_illegal_position_unchanged():
    g = game(WORKED)
    frozen = snapshot_state(g)
    verdict = g.judge(play("S", "ZZ", "H7", "down"))
    assert verdict.to_json() == {"legal": False, "player": "S", "reason": "letter-mismatch",
                                 "message": verdict.message}
    assert snapshot_state(g) == frozen and g.to_move.id == "S"


# -- set-up -------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, active, fragment", [
    ("H8:A", None, "no rotation"),
    ("H8:A<", None, "seat E"),
    ("G7:A^ H7:T^", {"S": [{"word": "TA", "cells": ["G7", "H7"]}]}, "G7"),
    ("G7:A^ H7:T^", {"S": [{"word": "AT", "cells": ["G7", "H8"]}]}, "across or down"),
    ("G7:A^ H7:T^", {"E": []}, "no player"),
])
def test_bad_positions_are_one_line_setup_errors(spec, active, fragment):
    with pytest.raises(SetupError) as caught:
        game(spec, active=active)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_bad_preset_is_a_setup_error():
    with pytest.raises(SetupError, match="preset"):
        game("", preset="tournament")


# -- rotating a whole game changes nothing but names -------------------------------------------

def turn_cell(cell: Cell, quarter_turns: int) -> Cell:
    col, row = cell.col, cell.row
    for _ in range(quarter_turns % 4):
        col, row = SIZE - 1 - row, col
    return Cell(col, row)


def turn_seat(seat: Seat, quarter_turns: int) -> Seat:
    return Seat.from_rotation(seat.rotation + 90 * quarter_turns)


def turn_json(data, quarter_turns: int):
    """Rename every cell and seat letter in a verdict's or state's JSON."""
    if isinstance(data, dict):
        return {turn_json(k, quarter_turns): turn_json(v, quarter_turns) for k, v in data.items()}
    if isinstance(data, list):
        return [turn_json(item, quarter_turns) for item in data]
    if isinstance(data, str) and data in "SWNE" and len(data) == 1:
        return turn_seat(Seat(data), quarter_turns).value
    if isinstance(data, str) and 2 <= len(data) <= 3:
        try:
            return turn_cell(Cell.parse(data), quarter_turns).name
        except ValueError:
            return data
    return data


def turned_game(spec: str, seats: str, quarter_turns: int) -> ArchipelagoGame:
    board = rotate_tiles(tiles(spec), quarter_turns)
    players = [Player(f"p{seat}", turn_seat(Seat(seat), quarter_turns)) for seat in seats]
    return ArchipelagoGame(players, WORDS, {},
                           {"board": format_board_text(board, spaced=True)})


SCENES = [
    (WORKED, "SN", [("S", "TO", "H7", "down"), ("N", "DO", "J8", "down")]),
    (WORKED + " A8:T>", "SWN", [("S", "TO", "H7", "down"), ("W", "TO", "A8", "across"),
                                ("N", "NOD", "I9", "down"), ("S", "AT", "G7", "across")]),
    ("", "SWNE", [("S", "CAT", "G15", "across"), ("W", "DOG", "A7", "across"),
                  ("N", "COT", "I1", "across"), ("E", "TON", "O9", "across"),
                  ("S", "TO", "I15", "down"), ("W", "GOT", "A9", "down")]),
]

random_moves = st.lists(st.tuples(
    st.sampled_from("SWNE"), st.sampled_from(sorted(WORDS)),
    st.builds(Cell, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)),
    st.sampled_from(list(Direction))), max_size=12)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=st.sampled_from(SCENES), quarter_turns=st.integers(1, 3), noise=random_moves)
def test_rotating_a_whole_game_gives_identical_verdicts(scene, quarter_turns, noise):
    spec, seats, scripted = scene
    plain, turned = turned_game(spec, seats, 0), turned_game(spec, seats, quarter_turns)
    moves = [(p, w, Cell.parse(at), Direction(d)) for p, w, at, d in scripted]
    moves += [(p, w, at, d) for p, w, at, d in noise]
    for player, word, at, direction in moves:
        if player not in seats:
            continue
        here = plain.judge(Play(player, word, at, direction))
        there = turned.judge(Play(turn_seat(Seat(player), quarter_turns).value, word,
                                  turn_cell(at, quarter_turns), direction))
        if here.legal:
            assert there.to_json() == turn_json(here.to_json(), quarter_turns)
        else:
            assert (there.legal, there.reason) == (False, here.reason)
    expected = turn_json({k: v for k, v in plain.state().items() if k != "board"}, quarter_turns)
    assert {k: v for k, v in turned.state().items() if k != "board"} == expected
    assert turned.board.tiles == rotate_tiles(dict(plain.board.tiles), quarter_turns)


def anchored_plays(g: ArchipelagoGame) -> list[Play]:
    """Legal plays of the player to move that use one of their own tiles (most legal plays)."""
    mover = g.to_move
    if mover is None:
        return []
    seat = mover.seat
    found = set()
    for cell, tile in g.board.tiles.items():
        if tile.rotation != seat.rotation:
            continue
        for word in sorted(WORDS):
            for index, letter in enumerate(word):
                if letter != tile.letter:
                    continue
                for direction in Direction:
                    at = seat.step(cell, direction, -index)
                    if at.on_board():
                        play = Play(mover.id, word, at, direction)
                        if g.is_legal(play):
                            found.add(play)
    return sorted(found, key=lambda p: (p.word, p.at, p.direction.value))


@st.composite
def random_positions(draw):
    seats = draw(st.sampled_from(["SN", "SWN", "SWNE", "WE"]))
    near = st.builds(Cell, st.integers(4, 10), st.integers(4, 10))  # crowded: words meet
    board = draw(st.dictionaries(near, st.builds(
        Tile, st.sampled_from("ACDGNOST"), st.just(False),
        st.sampled_from([Seat(seat).rotation for seat in seats])), min_size=6, max_size=16))
    return seats, board


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=random_positions(), quarter_turns=st.integers(1, 3), data=st.data())
def test_rotating_a_random_position_gives_identical_verdicts(scene, quarter_turns, data):
    seats, board = scene
    position = {"board": format_board_text(board, spaced=True)}
    turned_position = {"board": format_board_text(rotate_tiles(board, quarter_turns),
                                                  spaced=True)}
    plain = ArchipelagoGame([Player(s, Seat(s)) for s in seats], WORDS, {}, position)
    turned = ArchipelagoGame([Player(s, turn_seat(Seat(s), quarter_turns)) for s in seats],
                             WORDS, {}, turned_position)
    assert turned.state()["active"] == turn_json(plain.state()["active"], quarter_turns)
    for _ in range(4):
        candidates = anchored_plays(plain)
        move = data.draw(st.sampled_from(candidates)) if candidates else \
            Pass(plain.to_move.id) if plain.to_move else None
        if move is None:
            break
        here = plain.judge(move)
        assert here.legal
        turned_player = turn_seat(Seat(move.player), quarter_turns).value
        there = turned.judge(Play(turned_player, move.word, turn_cell(move.at, quarter_turns),
                                  move.direction) if isinstance(move, Play)
                             else Pass(turned_player))
        assert there.to_json() == turn_json(here.to_json(), quarter_turns)
    expected = turn_json({k: v for k, v in plain.state().items() if k != "board"}, quarter_turns)
    assert {k: v for k, v in turned.state().items() if k != "board"} == expected
    assert turned.board.tiles == rotate_tiles(dict(plain.board.tiles), quarter_turns)


def test_national_tile_sets_and_word_lists(tmp_path):
    (tmp_path / "woerter.txt").write_text("öl\nÖLE\n", encoding="utf-8")
    g = new_game("archipelago", [{"name": "a", "seat": "S"}, {"name": "b", "seat": "N"}],
                 {"wordlist": "woerter.txt", "tiles": "german"}, base_dir=tmp_path)
    verdict = g.push(play("S", "ÖL", "H15"))
    assert verdict.words[0].value == 10  # Ö 8 + L 2 in the German set
    assert g.board.get(Cell.parse("H15")) == Tile("Ö", rotation=0)
    assert "Ö^" in g.state()["board"]
    with pytest.raises(SetupError, match="tile set"):
        new_game("archipelago", [{"name": "a"}, {"name": "b"}], {"tiles": "klingon"})


def test_game_status_reports_camera_problems_without_centre_rules():
    g = game(CAT + " H1:Nv I1:Ov")
    assert g.status() == []
    g.board.place(Cell.parse("A1"), Tile("?", rotation=0))
    assert [problem.code for problem in g.status()] == ["blank-undesignated"]
