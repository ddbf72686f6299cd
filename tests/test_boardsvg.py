"""The board's SVG from plain data (webui/boardsvg.py), with nothing of Flask or the services;
and the services themselves, which know nothing of HTTP."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from referee.boardtext import Tile
from referee.cells import Cell
from tests.support.imports import loaded_by
from webui import boardsvg

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def squares(svg: str) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return {group.get("data-cell"): group for group in root.iter(f"{SVG}g")
            if group.get("data-cell")}


def test_every_square_is_drawn_with_its_tile_marks_and_owner() -> None:
    tiles = {Cell.parse("H8"): Tile("Q", False, 90), Cell.parse("I8"): Tile("?", True, None)}
    svg = boardsvg.board(tiles, premiums={Cell.parse("A1"): "TW"},
                         values={Cell.parse("H8"): 10}, owners={Cell.parse("H8"): "W"},
                         marks={"placed": ["H8"], "check": ["A2"], "remove": ["J8"]},
                         ghosts={"J8": "D"}, interactive=True)
    drawn = squares(svg)                                  # well-formed XML, one group a square
    assert len(drawn) == 225
    assert drawn["H8"].get("class") == "cell mark-placed owner-W"
    assert drawn["H8"].get("data-tile") == "Q>"             # the arrow escaped, read back
    assert "rotate(90 " in ElementTree.tostring(drawn["H8"], encoding="unicode")
    assert drawn["I8"].get("data-tile") == "?"
    assert [t.text for t in drawn["A1"].iter(f"{SVG}text")] == ["TW"]
    assert [r.get("class") for r in drawn["A2"].iter(f"{SVG}rect")] == ["square ", "check"]
    assert [t.text for t in drawn["J8"].iter(f"{SVG}text")] == ["D"]   # the tile to lift
    assert re.match(r'<svg class="board interactive" viewBox="0 0 644 644"', svg)
    assert "★" not in svg                                   # the centre is covered


@pytest.mark.slow
def test_drawing_a_board_loads_no_flask_and_no_service() -> None:
    assert loaded_by("webui.boardsvg", ("flask", "cv2", "webui.services", "webui.store")) == []


@pytest.mark.slow
def test_the_services_load_no_flask() -> None:
    """The game store, the table, disputes, word lists, photos, the wording and the screens'
    contexts are plain Python: only the views (webui/views) speak HTTP."""
    assert loaded_by("webui.services, webui.screens, webui.wording", ("flask", "werkzeug")) == []
