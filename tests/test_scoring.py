"""Scoring as seed 003 reads: premiums only for this turn's tiles, stacking, every word, bingo."""

from __future__ import annotations

import pytest

from referee.boardtext import Tile
from referee.cells import Cell, Direction, Seat
from referee.layouts import Layout, Premium, load_layout
from referee.scoring import BINGO, rack_value, score_play, score_word
from referee.tiles import load_tile_set

ENGLISH = load_tile_set("english")


def c(name: str) -> Cell:
    return Cell.parse(name)


def lay(word: str, start: str, direction: Direction = Direction.ACROSS) -> dict[Cell, Tile]:
    """Tiles spelling ``word`` from ``start``; lowercase letters are blanks."""
    cells = Seat.S.line(c(start), direction, len(word))
    return {cell: Tile(letter.upper(), letter.islower())
            for cell, letter in zip(cells, word, strict=True)}


def layout(**premiums: str) -> Layout:
    return Layout("test", {c(name): Premium(value) for name, value in premiums.items()})


def test_letter_premium_counts_only_for_a_tile_placed_this_turn() -> None:
    tiles = lay("CAT", "A1")  # C3 A1 T1
    board = layout(A1="TL")
    cells = list(tiles)
    assert score_word(cells, tiles, {c("A1")}, board, ENGLISH) == 3 * 3 + 1 + 1
    assert score_word(cells, tiles, {c("B1"), c("C1")}, board, ENGLISH) == 3 + 1 + 1


def test_word_premium_counts_only_when_covered_this_turn() -> None:
    tiles = lay("CATS", "A1")
    board = layout(A1="DW")
    cells = list(tiles)
    assert score_word(cells, tiles, set(cells), board, ENGLISH) == 6 * 2
    assert score_word(cells, tiles, {c("D1")}, board, ENGLISH) == 6


@pytest.mark.parametrize("premiums, factor", [
    ({"A1": "DW", "E1": "DW"}, 4),
    ({"A1": "TW", "E1": "TW"}, 9),
    ({"A1": "DW", "E1": "TW"}, 6),
])
def test_word_premiums_stack(premiums: dict[str, str], factor: int) -> None:
    tiles = lay("QUOTE", "A1")  # 10+1+1+1+1 = 14
    cells = list(tiles)
    assert score_word(cells, tiles, set(cells), layout(**premiums), ENGLISH) == 14 * factor


def test_blank_scores_zero_even_on_a_letter_premium_but_still_takes_the_word_premium() -> None:
    tiles = lay("qUIZ", "A1")  # blank Q 0, U1 I1 Z10
    cells = list(tiles)
    board = layout(A1="TL", B1="DW")
    assert score_word(cells, tiles, set(cells), board, ENGLISH) == (0 + 1 + 1 + 10) * 2


def test_every_word_formed_scores_separately_and_a_shared_premium_counts_in_each() -> None:
    # AT lies across at H8; OX goes under it, forming OX, AO and TX. Scoring does not judge
    # words (TX is no word), it only adds up the words it is given.
    before = lay("AT", "H8")
    placed_tiles = lay("OX", "H9")
    tiles = {**before, **placed_tiles}
    placed = set(placed_tiles)
    main = [c("H9"), c("I9")]
    cross = [[c("H8"), c("H9")], [c("I8"), c("I9")]]
    board = layout(I9="TL", H8="TW")  # TW under an old tile must not count
    words = [main, *cross]
    expected = (1 + 8 * 3) + (1 + 1) + (1 + 8 * 3)
    assert score_play(words, tiles, placed, board, ENGLISH, bingo=50) == expected


def test_bingo_only_for_exactly_seven_placed_tiles() -> None:
    seven = lay("QUIXOTE", "A1")
    cells = list(seven)
    none = Layout("none", {})
    base = 10 + 1 + 1 + 8 + 1 + 1 + 1
    assert score_play([cells], seven, set(cells), none, ENGLISH, bingo=35) == base + 35
    eight = {**lay("S", "H1"), **seven}
    eight_cells = sorted(eight, key=lambda cell: cell.col)
    assert score_play([eight_cells], eight, set(cells), none, ENGLISH, bingo=50) == base + 1 + 50
    assert score_play([eight_cells], eight, set(cells[1:]), none, ENGLISH, bingo=50) == base + 1


def test_real_layouts_first_moves() -> None:
    classic, seed = load_layout("classic"), load_layout("seed")
    farm = lay("FARM", "H8")  # H8 centre, L8 not covered
    assert score_play([list(farm)], farm, set(farm), classic, ENGLISH, BINGO["classic"]) == 18
    assert score_play([list(farm)], farm, set(farm), seed, ENGLISH, BINGO["seed"]) == 9
    farmers = lay("FARMERS", "H8")  # reaches L8: classic DL (E doubled), seed DW
    cells = list(farmers)
    assert score_play([cells], farmers, set(cells), classic, ENGLISH, 50) == (12 + 1) * 2 + 50
    assert score_play([cells], farmers, set(cells), seed, ENGLISH, 35) == 12 * 2 + 35


def test_rack_value_counts_blanks_as_zero() -> None:
    assert rack_value("AEQ?", ENGLISH) == 12
    assert rack_value("", ENGLISH) == 0
