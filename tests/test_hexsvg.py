"""The islands board's SVG from plain data (webui/hexsvg.py): every cell, named; stones in
their colours with their letters; islands outlined along their outer edges; marks."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from referee.hexboard import HexBoard, HexCell, hex_grid
from referee.islandgroups import islands
from tests.support.imports import loaded_by
from webui import hexsvg

SVG = "{http://www.w3.org/2000/svg}"


def cells(svg: str) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return {group.get("data-cell"): group for group in root.iter(f"{SVG}g")
            if group.get("data-cell")}


def island_groups(svg: str) -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return [group for group in root.iter(f"{SVG}g")
            if "island" in (group.get("class") or "").split()]


@pytest.mark.parametrize("size", [3, 7, 10])
def test_every_cell_is_drawn_once_and_named(size: int) -> None:
    grid = hex_grid(size)
    drawn = cells(hexsvg.board(grid.to_json(), {}))
    assert list(drawn) == [cell.name for cell in grid.cells]       # reading order, all of them
    assert drawn["a1"].find(f"{SVG}title").text == "a1: empty"


def test_stones_carry_their_colour_and_letter_and_say_so() -> None:
    svg = hexsvg.board(hex_grid(3).to_json(), {"a1": "R", "c5": "W", "e3": "K"})
    drawn = cells(svg)
    assert drawn["a1"].get("data-stone") == "R" and "stone-R" in drawn["a1"].get("class")
    assert drawn["a1"].find(f"{SVG}title").text == "a1: red stone"
    letters = {name: [t.text for t in group.iter(f"{SVG}text")] for name, group in drawn.items()
               if group.get("data-stone")}
    assert letters == {"a1": ["R"], "c5": ["W"], "e3": ["K"]}          # colour-blind: a letter
    fills = {name: group.find(f".//{SVG}circle").get("fill") for name, group in drawn.items()
             if group.get("data-stone")}
    assert fills == {"a1": hexsvg.STONE_FILL["R"], "c5": hexsvg.STONE_FILL["W"],
                     "e3": hexsvg.STONE_FILL["K"]}
    white = drawn["c5"].find(f".//{SVG}text").get("fill")
    black = drawn["e3"].find(f".//{SVG}text").get("fill")
    assert white != hexsvg.STONE_FILL["W"] and black != hexsvg.STONE_FILL["K"]   # readable


def test_an_island_is_outlined_along_its_outer_edges_only() -> None:
    """Two joined cells have 12 edges, one shared (counted twice): 10 are outer. Three cells
    in a triangle share three edges: 12 outer."""
    board = HexBoard.from_stones({HexCell.parse(name): colour for name, colour in
                                  {"b2": "R", "b3": "R", "d1": "B", "d2": "B", "e1": "B",
                                   "a1": "G"}.items()}, 3)
    found = {colour: [sorted(cell.name for cell in island) for island in islands(board, colour)]
             for colour in "RBG"}
    svg = hexsvg.board(hex_grid(3).to_json(), {cell.name: colour for cell, colour
                                               in board.stones.items()}, islands=found)
    outlines = {group.get("data-colour"): group for group in island_groups(svg)}
    assert set(outlines) == {"R", "B"}                      # a lone stone is no island
    edges = {colour: len(re.findall("M", group.find(f"{SVG}path").get("d")))
             for colour, group in outlines.items()}
    assert edges == {"R": 10, "B": 12}
    assert outlines["B"].get("data-cells") == "d1 d2 e1"
    assert outlines["R"].findall(f"{SVG}path")[1].get("stroke") == hexsvg.STONE_FILL["R"]


def test_an_islands_outline_follows_the_cells_it_is_drawn_around() -> None:
    """Each outer edge joins two corners of one of the island's hexagons."""
    grid = hex_grid(4).to_json()
    svg = hexsvg.board(grid, {"d4": "P", "d5": "P"}, islands={"P": [["d4", "d5"]]})
    path = island_groups(svg)[0].find(f"{SVG}path").get("d")
    centres = {cell["cell"]: (cell["x"] * hexsvg.CELL, cell["y"] * hexsvg.CELL)
               for cell in grid["cells"]}
    for x1, y1, x2, y2 in re.findall(r"M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)", path):
        ends = [(float(x1), float(y1)), (float(x2), float(y2))]
        assert any(all(abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
                           - hexsvg.RADIUS * hexsvg.CELL) < 0.2 for x, y in ends)
                   for cx, cy in (centres["d4"], centres["d5"]))


def test_marks_and_taps() -> None:
    svg = hexsvg.board(hex_grid(3).to_json(), {"a1": "R", "b1": "B"},
                       marks={"placed": ["a1"], "provisional": ["b1"], "check": ["c3"]},
                       interactive=True, label="Ann and Bo's board")
    drawn = cells(svg)
    assert drawn["a1"].get("class") == "hexcell mark-placed stone-R"
    assert drawn["a1"].find(f"{SVG}title").text == "a1: red stone (placed last turn)"
    assert drawn["b1"].get("aria-label") == "b1: blue stone (not judged yet)"
    assert drawn["b1"].find(f"{SVG}g").get("opacity") == "0.72"       # faded: not judged
    assert [p.get("class") for p in drawn["c3"].findall(f"{SVG}polygon")] == ["hex",
                                                                            "hex-check"]
    assert drawn["c3"].get("role") == "button" and drawn["c3"].get("tabindex") == "0"
    assert svg.startswith('<svg class="hexboard interactive"')
    assert 'aria-label="Ann and Bo&#x27;s board"' in svg
    still = cells(hexsvg.board(hex_grid(3).to_json(), {}))
    assert still["c3"].get("role") is None and still["c3"].get("tabindex") is None


def test_the_lines_are_lettered_on_both_sides() -> None:
    root = ElementTree.fromstring(hexsvg.board(hex_grid(4).to_json(), {}))
    letters = [text.text for text in root.iter(f"{SVG}text")
               if text.get("class") == "hex-line"]
    assert letters == [letter for letter in "abcdefg" for _ in range(2)]


def test_the_drawing_needs_nothing_but_plain_data() -> None:
    assert loaded_by("webui.hexsvg", ("flask", "cv2", "numpy", "webui.services")) == []
