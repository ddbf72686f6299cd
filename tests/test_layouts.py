"""Premium layouts: the classic board's known shape and seed 003's drawing, both as data."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from referee.cells import CENTRE, SIZE, Cell
from referee.layouts import Layout, LayoutError, Premium, load_layout, parse_layout

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def _symmetries(cell: Cell) -> list[Cell]:
    """The 8 images of a cell under the square's rotations and reflections."""
    last = SIZE - 1
    images = []
    col, row = cell.col, cell.row
    for _ in range(4):
        col, row = last - row, col
        images.append(Cell(col, row))
        images.append(Cell(row, col))
    return images


def _drawn_seed_layout() -> dict[Cell, Premium]:
    """Parse seed 003's ASCII board: rows +7 (top, row 1) to -7, columns -7 (A) to +7 (O)."""
    text = next(SEEDS.glob("003_*.txt")).read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.strip().startswith("in|"))
    columns = [int(label) for label in header.strip().split("|")[1:]]
    premiums: dict[Cell, Premium] = {}
    rows = [line for line in text.splitlines() if re.match(r"\s*[+-]\d+\|", line)]
    assert len(rows) == SIZE
    for line in rows:
        label, *squares = line.strip().split("|")
        row = 7 - int(label)
        for offset, square in zip(columns, squares, strict=False):
            if square.strip() in {"DL", "TL", "DW", "TW"}:
                premiums[Cell(offset + 7, row)] = Premium(square.strip())
            else:
                assert square.strip() in {"", "ST"}, square
    return premiums


def test_classic_has_the_official_counts_and_centre_double_word() -> None:
    layout = load_layout("classic")
    counts = Counter(premium for premium in layout.premiums.values())
    assert counts == {Premium.TW: 8, Premium.DW: 17, Premium.TL: 12, Premium.DL: 24}
    assert layout.get(CENTRE) is Premium.DW
    assert layout.get(Cell.parse("A1")) is Premium.TW
    assert layout.get(Cell.parse("D1")) is Premium.DL
    assert layout.get(Cell.parse("F2")) is Premium.TL


@pytest.mark.parametrize("name", ["classic", "seed"])
def test_layouts_have_eightfold_symmetry(name: str) -> None:
    layout = load_layout(name)
    for cell, premium in layout.premiums.items():
        assert all(layout.get(image) is premium for image in _symmetries(cell)), cell


def test_seed_data_file_matches_the_seed_drawing() -> None:
    layout = load_layout("seed")
    assert dict(layout.premiums) == _drawn_seed_layout()
    assert layout.get(CENTRE) is None


def test_layout_text_round_trips_and_factors() -> None:
    layout = load_layout("seed")
    assert parse_layout("seed", layout.text()) == layout
    letter_factors = (Premium.DL.letter_factor, Premium.TL.letter_factor, Premium.DW.letter_factor)
    assert letter_factors == (2, 3, 1)
    assert (Premium.DW.word_factor, Premium.TW.word_factor, Premium.TL.word_factor) == (2, 3, 1)
    assert isinstance(layout, Layout) and load_layout("seed") is layout


@pytest.mark.parametrize("text, fragment", [
    (".. " * 15 + "\n", "1 rows"),
    ("\n".join([".. " * 15] * 14 + [".. " * 14]), "row 15 has 14"),
    ("\n".join([".. " * 15] * 14 + [".. " * 14 + "QW"]), "'QW' is not a premium"),
])
def test_malformed_layouts_are_one_line_errors(text: str, fragment: str) -> None:
    with pytest.raises(LayoutError) as caught:
        parse_layout("bad", text)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_unknown_layout_names_the_known_ones() -> None:
    with pytest.raises(LayoutError, match="classic, seed"):
        load_layout("hexagonal")
