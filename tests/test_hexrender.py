"""The hex board renderer (lab.hexrender): seeded, and its truth follows FORMATS.md's reading.

The reader is measured against this truth, so the truth's own conventions are checked here
against what the picture shows: the stone named a1 lies by the corner named first, and line a
runs along the edge nearest the photo's top.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from lab.hexrender import HexRenderError, HexRenderOptions, random_position, render_scene
from referee.hexboard import HexBoard, HexCell

# Which corner of the playing area (clockwise from the top left: TL, TR, R, BR, BL, L) each
# corner cell of a side-7 board lies by.
CORNER_CELLS = {"a1": 0, "a7": 1, "g13": 2, "m7": 3, "m1": 4, "g1": 5}
CLEAN = HexRenderOptions.clean(material="oak", cell_style="printed", stone_style="matte",
                               table="wood", margin=0.8, tilt=20.0, fill=0.8, blur=0.0)


def _red_blob(image: np.ndarray) -> np.ndarray:
    """The centre of the red pixels in a BGR image."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] < 8) | (hsv[..., 0] > 172)) & (hsv[..., 1] > 120) & (hsv[..., 2] > 60)
    ys, xs = np.nonzero(red)
    assert len(xs) > 50, "no red stone in the render"
    return np.array([xs.mean(), ys.mean()])


@pytest.mark.parametrize("turn", [0.0, 40.0, 95.0, 170.0, 250.0, 320.0])
def test_the_truth_reads_line_a_along_the_edge_nearest_the_top(turn: float) -> None:
    position = HexBoard.from_stones({HexCell.parse("a1"): "R"}, 7)
    options = replace(CLEAN, turn=turn)
    image, truth = render_scene(5, 7, options=options, position=position, width=640,
                                height=480)
    corners = truth.corners
    assert corners.shape == (6, 2)
    # Line a's edge (corners 0 and 1) is the one nearest the top of the photo.
    middles = [(corners[i, 1] + corners[(i + 1) % 6, 1]) / 2 for i in range(6)]
    assert int(np.argmin(middles)) == 0
    # Clockwise on the photo (y down): the shoelace sum is positive.
    x, y = corners[:, 0], corners[:, 1]
    assert float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0
    # The one stone is named by where it is: beside the corner its name says.
    (cell, colour), = truth.board.stones.items()
    assert colour == "R"
    blob = _red_blob(image)
    nearest = int(np.argmin(np.linalg.norm(corners - blob, axis=1)))
    assert CORNER_CELLS[cell.name] == nearest


def test_the_same_seed_gives_the_same_pixels_and_truth() -> None:
    first, truth = render_scene(10_003, width=400, height=300)
    again, truth_again = render_scene(10_003, width=400, height=300)
    other, _ = render_scene(10_004, width=400, height=300)
    assert np.array_equal(first, again)
    assert truth.board == truth_again.board
    assert np.array_equal(truth.corners, truth_again.corners)
    assert not np.array_equal(first, other)


def test_the_sidecar_is_board_text_with_a_header() -> None:
    _, truth = render_scene(10_005, width=400, height=300)
    text = truth.sidecar("x.jpg")
    assert text.startswith("# source: tileref lab.hexrender (seed 10005)")
    assert HexBoard.parse(text) == truth.board
    corners_line = next(line for line in text.splitlines() if line.startswith("# corners_px"))
    numbers = [float(v) for pair in corners_line.split(": ", 1)[1].split() for v in
               pair.split(",")]
    assert np.allclose(np.array(numbers).reshape(6, 2), truth.corners, atol=0.06)


def test_positions_grow_islands_of_few_colours() -> None:
    board = random_position(np.random.default_rng(1), 7, colours="RB", fill=0.4)
    assert set(board.stones.values()) <= {"R", "B"}
    assert len(board) == round(0.4 * 127)
    # Most stones touch one of their own colour (islands, not scatter).
    grid = board.grid
    joined = sum(any(board.get(n) == colour for n in grid.neighbours(cell))
                 for cell, colour in board.stones.items())
    assert joined > 0.6 * len(board)


@pytest.mark.parametrize("changes, word", [
    ({"tilt": 80.0}, "tilt"), ({"material": "glass"}, "material"),
    ({"stone_size": 1.5}, "stone_size"), ({"jpeg_quality": 2}, "jpeg_quality"),
])
def test_impossible_options_are_refused(changes: dict, word: str) -> None:
    with pytest.raises(HexRenderError, match=word):
        HexRenderOptions(**changes)


def test_a_position_of_another_size_is_refused() -> None:
    with pytest.raises(HexRenderError, match="side 5"):
        render_scene(1, 7, position=HexBoard.empty(5), width=200, height=150)
