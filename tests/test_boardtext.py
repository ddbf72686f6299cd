"""Board text (FORMATS.md): both spellings in, the right one out, rotations and national letters."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.boardtext import (
    BoardTextError,
    Tile,
    format_board_text,
    is_tile_letter,
    parse_board_text,
    rotate_tiles,
)
from referee.cells import SIZE, Cell

EMPTY = "\n".join(["." * SIZE] * SIZE) + "\n"


def row_text(row: str, number: int = 8) -> str:
    lines = ["." * SIZE] * SIZE
    lines[number - 1] = row
    return "\n".join(lines) + "\n"


def test_compact_round_trip_without_rotations():
    text = row_text("....CAt?.......")
    tiles = parse_board_text(text)
    assert tiles == {Cell.parse("E8"): Tile("C"), Cell.parse("F8"): Tile("A"),
                     Cell.parse("G8"): Tile("T", blank=True), Cell.parse("H8"): Tile("?")}
    assert format_board_text(tiles) == text


def test_spaced_form_whenever_a_tile_turns():
    tiles = {Cell.parse("H8"): Tile("Q", rotation=90), Cell.parse("I8"): Tile("A")}
    text = format_board_text(tiles)
    assert text.splitlines()[7] == ". . . . . . . Q> A . . . . . ."
    assert parse_board_text(text) == tiles


def test_comments_blank_lines_and_crlf_are_tolerated():
    text = "# a photo from the Tuesday game\r\n\r\n" + EMPTY.replace("\n", "\r\n")
    assert parse_board_text(text) == {}


def test_compact_arrows_and_the_v_ambiguity():
    assert parse_board_text(row_text("Q>A^Dv" + "." * 12))[Cell.parse("C8")] == Tile(
        "D", rotation=180)
    # "av" followed by 13 dots only fills a row when v is a blank V
    tiles = parse_board_text(row_text("av" + "." * 13))
    assert tiles[Cell.parse("B8")] == Tile("V", blank=True)


@pytest.mark.parametrize("text, fragment", [
    ("", "0 rows"),
    (EMPTY + "...............\n", "16 rows"),
    (row_text("." * 14), "line 8 has 14 cells"),
    (row_text("......." + "1" + "......."), "row 8"),
    (row_text(". " * 14 + "A%"), "row 8"),
])
def test_errors_name_the_line(text, fragment):
    with pytest.raises(BoardTextError) as caught:
        parse_board_text(text)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_national_letters_read_like_any_other():
    tiles = parse_board_text(row_text(". . . . . . . Ż^ Ó> ł . . . . ."))
    assert tiles[Cell.parse("H8")] == Tile("Ż", rotation=0)
    assert tiles[Cell.parse("J8")] == Tile("Ł", blank=True)
    assert parse_board_text(format_board_text(tiles)) == tiles


def test_tile_validation():
    with pytest.raises(ValueError):
        Tile("a")
    with pytest.raises(ValueError):
        Tile("AB")
    with pytest.raises(ValueError):
        Tile("A", rotation=45)
    assert Tile("?").blank and Tile.parse("?v") == Tile("?", True, 180)


tile_positions = st.dictionaries(
    st.builds(Cell, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)),
    st.builds(Tile, st.sampled_from("ABCXYZ?"), st.booleans(),
              st.sampled_from([0, 90, 180, 270])), max_size=30)


@pytest.mark.slow
@given(tile_positions, st.integers(0, 7))
def test_rotating_a_position_round_trips(tiles, quarter_turns):
    turned = rotate_tiles(tiles, quarter_turns)
    assert rotate_tiles(turned, 4 - quarter_turns % 4) == tiles
    assert parse_board_text(format_board_text(turned)) == turned
    if quarter_turns % 4 == 1 and Cell(0, 0) in tiles:
        assert turned[Cell(SIZE - 1, 0)] == tiles[Cell(0, 0)].rotated(1)


def test_a_tile_letter_is_one_letter_whose_capital_is_one_letter() -> None:
    assert all(is_tile_letter(letter) for letter in "AzÄöŃż")
    # str.isalpha takes these, but their capitals are two letters or more (SS, FFI, ʼN, J̌).
    assert not any(is_tile_letter(letter) for letter in ("ß", "ﬃ", "ŉ", "ǰ", "1", "?", "AB", ""))
    with pytest.raises(ValueError):
        Tile.parse("ß")
