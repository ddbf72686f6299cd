"""Snapshot inference: from the board after a move back to the play, or a precise complaint."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import (
    ArchipelagoGame,
    Cell,
    Direction,
    IllegalPlayError,
    Play,
    Player,
    Seat,
    Snapshot,
    Tile,
    format_board_text,
)
from referee.inference import compare, read_word
from referee.wordlist import WordList, load_word_list

ENABLE = load_word_list("enable")


def tiles(spec: str) -> dict[Cell, Tile]:
    return {Cell.parse(item.split(":")[0]): Tile.parse(item.split(":")[1])
            for item in spec.split()}


def game(spec: str, to_move: str = "S", seats: str = "SN") -> ArchipelagoGame:
    players = [Player(seat.lower(), Seat(seat)) for seat in seats]
    return ArchipelagoGame(players, ENABLE, {}, {"board": format_board_text(tiles(spec)),
                                                 "to_move": to_move})


WORKED = "G7:A^ H7:T^ J8:Dv I8:Ov H8:Gv I9:Nv"
AFTER_TO = "G7:A^ H7:T^ J8:Dv I8:Ov H8:O^ I9:Nv"  # before J8 is lifted off


def snap(player: str, spec: str) -> Snapshot:
    return Snapshot(player, tiles(spec))


def test_a_snapshot_gives_the_same_verdict_as_the_named_play():
    named = game(WORKED).push(Play("S", "TO", Cell.parse("H7"), Direction.DOWN))
    inferred = game(WORKED).push(snap("S", AFTER_TO))
    assert inferred.move == Play("S", "TO", Cell.parse("H7"), Direction.DOWN)
    expected = named.to_json() | {"move": {"player": "S", "word": "TO", "at": "H7",
                                           "dir": "down"}}
    assert inferred.to_json() == expected


def test_north_reads_in_its_own_frame():
    g = game("G15:C^ H15:A^ I15:T^", to_move="N")
    verdict = g.push(snap("N", "G15:C^ H15:A^ I15:T^ I1:Dv H1:Ov G1:Gv"))
    assert verdict.move == Play("N", "DOG", Cell.parse("I1"), Direction.ACROSS)
    g2 = game("G15:C^ H15:A^ I15:T^ I1:Dv H1:Ov G1:Gv", to_move="N")
    verdict = g2.push(snap("N", "G15:C^ H15:A^ I15:T^ I1:Dv H1:Ov G1:Gv G2:Ov G3:Dv"))
    assert verdict.move == Play("N", "DOG", Cell.parse("G3"), Direction.DOWN)


def test_a_single_tile_reads_along_the_direction_that_makes_a_word():
    g = game("H14:T^ H15:O^")
    verdict = g.judge(snap("S", "H14:T^ H15:O^ H13:A^"))  # the run down is ATO
    assert verdict.move == Play("S", "ATO", Cell.parse("H13"), Direction.DOWN)
    assert verdict.reason == "not-in-word-list"
    assert verdict.to_json()["move"] == {"player": "S", "word": "ATO", "at": "H13", "dir": "down"}
    g = game("H14:T^ H15:O^")
    verdict = g.judge(snap("S", "H14:T^ H15:O^ I15:N^"))
    assert verdict.move == Play("S", "ON", Cell.parse("H15"), Direction.ACROSS)
    assert verdict.legal


@pytest.mark.parametrize("after, cell, fragment", [
    ("G7:A^ H7:T^ I8:Ov H8:O^ I9:Nv", "J8", "missing"),            # a tile vanished
    ("G7:A^ H7:T^ J8:Ev I8:Ov H8:O^ I9:Nv", "J8", "became"),       # a letter changed
    (AFTER_TO + " A1:Q>", "A1", "appeared"),                        # another seat's tile
    ("G7:A^ H7:I^ J8:Dv I8:Ov H8:O^ I9:Nv", "H7", "cannot play over"),  # own tile relettered
])
def test_unexpected_changes_are_reported_cell_by_cell(after, cell, fragment):
    g = game(WORKED)
    verdict = g.judge(snap("S", after))
    assert (verdict.legal, verdict.reason) == (False, "board-mismatch")
    assert [change.cell.name for change in verdict.unexpected] == [cell]
    assert fragment in verdict.unexpected[0].message
    assert verdict.to_json()["unexpected"][0]["cell"] == cell
    assert g.board.tiles == tiles(WORKED)  # nothing changed


def test_several_changes_are_all_listed():
    verdict = game(WORKED).judge(snap("S", "G7:A^ H7:T^ I8:Ov H8:Gv I9:Nv A1:Q> O15:Z<"))
    assert sorted(change.cell.name for change in verdict.unexpected) == ["A1", "J8", "O15"]
    assert "2 more" in verdict.message


def test_a_tile_left_behind_after_removal_is_named_as_such():
    g = game(WORKED)
    g.push(snap("S", AFTER_TO))
    verdict = g.judge(snap("N", AFTER_TO + " K9:Zv J9:Iv"))
    assert verdict.reason == "board-mismatch"
    assert "should have been lifted off" in verdict.unexpected[0].message
    assert g.push(snap("N", AFTER_TO.replace("J8:Dv ", "") + " K9:Zv J9:Iv")).legal


def test_a_lifted_tile_put_back_in_a_legal_play_is_that_play():
    """Lifted and put back, or left behind? The camera cannot tell; a legal play decides."""
    g = game(WORKED)
    g.push(snap("S", AFTER_TO))                        # North's D on J8 is to be lifted off
    named = game(WORKED)
    named.push(snap("S", AFTER_TO))
    expected = named.push(Play("N", "DO", Cell.parse("J8"), Direction.ACROSS))
    inferred = g.push(snap("N", AFTER_TO))             # the same D is back on J8
    assert inferred.move == Play("N", "DO", Cell.parse("J8"), Direction.ACROSS)
    assert inferred.to_json() == expected.to_json() | {"move": inferred.to_json()["move"]}
    assert g.state() == named.state()


def test_once_the_tiles_are_seen_lifted_a_tile_there_is_a_new_one():
    g = game(WORKED)
    g.push(snap("S", AFTER_TO))
    g.lifted_off()
    verdict = g.judge(snap("N", AFTER_TO + " K9:Zv J9:Iv"))
    assert verdict.reason == "not-in-line" and not verdict.unexpected


def test_blank_offers_the_only_letter_that_works():
    g = game(WORKED)
    g.push(snap("S", AFTER_TO))
    after = AFTER_TO.replace("J8:Dv ", "") + " K9:Zv J9:?v"
    verdict = g.judge(snap("N", after))
    assert verdict.reason == "blank-undesignated"
    assert verdict.to_json()["blank_offers"] == {"J9": "I"}
    designated = g.push(snap("N", after.replace("J9:?v", "J9:iv")))
    assert designated.words[0].word == "ZiN" and designated.words[0].value == 11


def test_blank_with_many_letters_offers_none_and_placement_errors_come_first():
    g = game("G15:C^ H15:A^ I15:T^")
    verdict = g.judge(snap("S", "G15:C^ H15:A^ I15:T^ G14:?^ G13:?^"))
    assert verdict.reason == "blank-undesignated" and verdict.blank_offers == {}
    verdict = g.judge(snap("S", "G15:C^ H15:A^ I15:T^ A1:?^"))
    assert verdict.reason == "not-connected"


def test_placed_tiles_must_make_one_word():
    g = game("G15:C^ H15:A^ I15:T^")
    assert g.judge(snap("S", "G15:C^ H15:A^ I15:T^ G14:A^ F15:S^")).reason == "not-in-line"
    assert g.judge(snap("S", "G15:C^ H15:A^ I15:T^ A10:A^ C10:T^")).reason == "not-in-line"
    assert g.judge(snap("S", "G15:C^ H15:A^ I15:T^")).reason == "no-tile-placed"


def test_a_gap_in_the_placed_tiles_is_named_where_a_tile_may_be_unseen():
    g = game("G15:C^ H15:A^ I15:T^")
    verdict = g.judge(snap("S", "G15:C^ H15:A^ I15:T^ G14:A^ G12:E^"))
    assert verdict.reason == "not-in-line"
    assert verdict.gaps == [Cell.parse("G13")]
    assert verdict.to_json()["gaps"] == ["G13"]
    assert "gap on G13 between the tiles placed on G12 and G14" in verdict.message
    # North's tile between South's is seen: no gap to ask about, the word is still broken.
    g = game("G15:C^ H15:A^ I15:T^ G13:Xv")
    verdict = g.judge(snap("S", "G15:C^ H15:A^ I15:T^ G13:Xv G14:A^ G12:E^"))
    assert verdict.reason == "not-in-line" and verdict.gaps == []
    assert "there is a gap between the tiles placed on G12 and G14" in verdict.message
    # Two holes, in North's frame: named in the order North reads them.
    g = game("G1:Cv H1:Av I1:Tv", to_move="N")
    verdict = g.judge(snap("N", "G1:Cv H1:Av I1:Tv I2:Av I4:Sv I6:Ov"))
    assert [cell.name for cell in verdict.gaps] == ["I5", "I3"]
    # A line with no hole has no gaps to name, and a legal play none at all.
    assert g.judge(snap("N", "G1:Cv H1:Av I1:Tv A9:Av A10:Sv")).gaps == []
    legal = g.judge(snap("N", "G1:Cv H1:Av I1:Tv I2:Av I3:Sv"))
    assert legal.legal and "gaps" not in legal.to_json()


def test_compare_and_read_word_directly():
    before, after = tiles("H8:Gv"), tiles("H8:O^ H7:T^")
    placed, unexpected = compare(before, after, "S", lambda t: t.rotation == 0, captures=True)
    assert set(placed) == {Cell.parse("H8"), Cell.parse("H7")} and unexpected == []
    placed, unexpected = compare(before, after, "S", lambda t: t.rotation == 0, captures=False)
    assert list(placed) == [Cell.parse("H7")] and unexpected[0].cell == Cell.parse("H8")
    found = read_word(after, [Cell.parse("H8"), Cell.parse("H7")], "S", Seat.S,
                      lambda t: t.rotation == 0)
    assert (found.word, found.at.name, found.direction) == ("TO", "H7", Direction.DOWN)
    with pytest.raises(IllegalPlayError):
        read_word(after, [], "S", Seat.S, lambda t: True)


def test_without_seats_rotation_means_nothing_and_every_tile_joins_words():
    from referee import new_game

    g = new_game("scrabble", [{"name": "Ann"}, {"name": "Bo"}])
    assert g.push(snap("Ann", "G8:C H8:A I8:T")).move == Play(
        "Ann", "CAT", Cell.parse("G8"), Direction.ACROSS)
    verdict = g.push(snap("Bo", "G8:C^ H8:Av I8:T H9:Xv"))  # tiles read turned: same tiles
    assert verdict.move == Play("Bo", "AX", Cell.parse("H8"), Direction.DOWN)
    assert g.board.get(Cell.parse("H9")) == Tile("X")
    assert g.judge(snap("Ann", "G8:C H8:A I8:O H9:X")).reason == "board-mismatch"


SMALL = ("AT", "TO", "DOG", "NO", "CAT", "CATS", "TA", "ON", "GO", "GOD", "AN", "ACT", "TAN",
         "ANT", "TON", "NOT", "DOT", "COT", "COG", "GOT", "DO", "NOD", "TOG", "CODA", "SO")
WORDS = WordList("SMALL", SMALL)


@st.composite
def crowded_positions(draw):
    seats = draw(st.sampled_from(["SN", "SWN", "SWNE"]))
    near = st.builds(Cell, st.integers(4, 10), st.integers(4, 10))
    board = draw(st.dictionaries(near, st.builds(
        Tile, st.sampled_from("ACDGNOST"), st.just(False),
        st.sampled_from([Seat(seat).rotation for seat in seats])), min_size=6, max_size=16))
    return seats, board


def legal_plays_through_own_tiles(g: ArchipelagoGame) -> list[Play]:
    mover = g.to_move
    found = set()
    for cell, tile in g.board.tiles.items():
        if mover is None or tile.rotation != mover.seat.rotation:
            continue
        for word in SMALL:
            for index in (i for i, letter in enumerate(word) if letter == tile.letter):
                for direction in Direction:
                    at = mover.seat.step(cell, direction, -index)
                    if at.on_board() and g.is_legal(play := Play(mover.id, word, at, direction)):
                        found.add(play)
    return sorted(found, key=lambda p: (p.word, p.at, p.direction.value))


def essentials(verdict) -> dict:
    data = verdict.to_json()
    data.pop("move", None)
    data["words"] = sorted(data["words"], key=lambda word: word["cells"])
    return data


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=crowded_positions(), data=st.data())
def test_a_snapshot_of_any_legal_play_gets_the_same_verdict(scene, data):
    seats, board = scene
    position = {"board": format_board_text(board, spaced=True)}
    named = ArchipelagoGame([Player(s, Seat(s)) for s in seats], WORDS, {}, position)
    photographed = ArchipelagoGame([Player(s, Seat(s)) for s in seats], WORDS, {}, position)
    for _ in range(4):
        candidates = legal_plays_through_own_tiles(named)
        if not candidates:
            break
        play = data.draw(st.sampled_from(candidates))
        before = dict(named.board.tiles)
        verdict = named.push(play)
        after = before | verdict.placed  # the board before anyone lifts tiles off
        inferred = photographed.push(Snapshot(play.player, after))
        assert essentials(inferred) == essentials(verdict)
        assert sorted_state(photographed) == sorted_state(named)


def sorted_state(g: ArchipelagoGame) -> dict:
    """The state with each seat's active words in cell order (a snapshot may read a one-tile
    play across where the named play said down: same words, listed in another order)."""
    state = g.state()
    state["active"] = {seat: sorted(words, key=lambda word: word["cells"])
                       for seat, words in state["active"].items()}
    return state
