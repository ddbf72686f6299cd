"""Reading hexhex boards with stones: vision.hexboard and ``tileref read --islands``.

The renders are of held-out seeds (10000 and up; the stone model was fitted on 0-299) under
ordinary conditions (a 20 degree tilt, no glare, no cast shadow); ``python -m bench islands``
measures the reader over all conditions.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.hexrender import HexRenderOptions, render_scene
from referee.hexboard import PALETTE, HexBoard, HexCell
from vision.errors import BoardNotFoundError, ImageQualityError
from vision.hexboard import HexReading, read_hex_board
from vision.hexboard.geometry import playing_radius
from webui.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "photos"


def ordinary(seed: int) -> tuple[np.ndarray, object]:
    options = HexRenderOptions.random(np.random.default_rng([seed, 0]), glare=0.0, shadow=0.0,
                                      blur=0.4, brightness=1.0, tilt=20.0)
    return render_scene(seed, options=options)


@pytest.fixture(scope="module")
def render(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    image, truth = ordinary(10_010)
    path = tmp_path_factory.mktemp("hex") / "board.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path, truth


def _cell_px(truth) -> float:
    return float(np.linalg.norm(truth.corners[0] - truth.corners[1])) / playing_radius(
        truth.size)


@pytest.mark.parametrize("seed", [10_010, 10_011])
def test_an_ordinary_render_is_read_right(seed: int) -> None:
    image, truth = ordinary(seed)
    reading = read_hex_board(image, 7)
    assert reading.board() == truth.board
    # The six corners land within a fraction of a cell of the truth, in the same order.
    off = np.linalg.norm(np.array(reading.corners) - truth.corners, axis=1)
    assert off.max() < 0.3 * _cell_px(truth)
    for stone in reading.stones:
        assert stone.colour in PALETTE and 0 < stone.confidence <= 1


def test_a_board_turned_in_the_photo_is_read_from_its_top_edge() -> None:
    """The same position photographed turned by 120 degrees reads as the same board text
    turned by two sixths: line a is always the edge nearest the top."""
    position = HexBoard.parse("""\
      R R . . . . .
     . . . . . . . B
    . . . . . . . . .
   . . . . . . . . . .
  . . . . . . . . . . .
 . . . . . . . . . . . .
. . . . . . . . . . . . .
 . . . . . . . . . . . .
  . . . . . . . . . . .
   . . . . . . . . . .
    . . . . . . . . .
     . . . . . . . .
      . . . . . . Y
""")
    base = HexRenderOptions.clean(material="walnut", cell_style="engraved",
                                  stone_style="matte", table="cloth", tilt=15.0, fill=0.8)
    readings = []
    for turn in (0.0, 120.0):
        options = HexRenderOptions.clean(**{**base.__dict__, "turn": turn})
        image, truth = render_scene(7, options=options, position=position)
        reading = read_hex_board(image, 7)
        assert reading.board() == truth.board
        readings.append(reading.board())
    assert readings[0] == position
    assert readings[1] != position  # the same stones, named from another edge
    assert sorted(readings[1].stones.values()) == sorted(position.stones.values())


def test_read_islands_json_has_the_formats_shape(render, capsys) -> None:
    path, truth = render
    assert main(["read", str(path), "--islands", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"board", "stones", "corners", "warnings"}
    board = HexBoard.parse(data["board"])
    assert board == truth.board
    assert len(data["corners"]) == 6 and all(len(point) == 2 for point in data["corners"])
    assert np.abs(np.array(data["corners"]) - truth.corners).max() < 0.3 * _cell_px(truth)
    assert {(s["cell"], s["colour"]) for s in data["stones"]} == {
        (cell.name, colour) for cell, colour in board.stones.items()}
    for stone in data["stones"]:
        assert set(stone) == {"cell", "colour", "confidence"}
        assert 0.0 < stone["confidence"] <= 1.0
    assert all(isinstance(warning, str) for warning in data["warnings"])


def test_read_islands_text_is_board_text_then_warnings(render, capsys) -> None:
    path, truth = render
    assert main(["read", str(path), "--islands", "--size", "7"]) == 0
    out = capsys.readouterr().out
    assert HexBoard.parse(out) == truth.board  # '#' warning lines are comments
    assert all(line.startswith("# warning: ") for line in out.splitlines()
               if line.startswith("#"))


def test_the_overlay_is_written(render, tmp_path, capsys) -> None:
    path, _ = render
    out = tmp_path / "overlay.png"
    assert main(["read", str(path), "--islands", "--overlay", str(out)]) == 0
    drawn = cv2.imread(str(out))
    photo = cv2.imread(str(path))
    assert drawn is not None and drawn.shape == photo.shape
    changed = np.abs(drawn.astype(int) - photo.astype(int)).max(axis=2) > 40
    assert changed.mean() > 0.01  # the hexagon, the cells and the stones drawn over it


def _one_line_refusal(capsys, argv: list[str], words: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("tileref read: ")
    assert words in lines[0]


def test_a_photo_without_a_board_is_refused_in_one_line(tmp_path, capsys) -> None:
    rng = np.random.default_rng(3)
    table = np.full((600, 800, 3), 140, np.uint8)  # a sharp, busy table: cards and a mug
    for _ in range(40):
        x, y = (int(v) for v in rng.integers(0, 760, 2))
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        cv2.rectangle(table, (x, y % 560), (x + int(rng.integers(20, 120)),
                                            y % 560 + int(rng.integers(20, 120))), colour, -1)
    table = np.clip(table + rng.normal(0, 6, table.shape), 0, 255).astype(np.uint8)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), table)
    _one_line_refusal(capsys, ["read", str(path), "--islands"], "no hexagonal board")


def test_a_scrabble_board_is_no_hex_board(capsys) -> None:
    _one_line_refusal(capsys, ["read", str(SAMPLES / "scrabble-midgame.jpg"), "--islands"],
                      "no hexagonal board")


def test_a_corrupt_file_is_refused_in_one_line(render, tmp_path, capsys) -> None:
    path, _ = render
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(path.read_bytes()[:5000])
    _one_line_refusal(capsys, ["read", str(broken), "--islands"], "broken.jpg")


def test_a_dark_photo_is_refused_as_dark(render, tmp_path) -> None:
    path, _ = render
    dark = (cv2.imread(str(path)).astype(np.float32) * 0.06).astype(np.uint8)
    with pytest.raises(ImageQualityError, match="too dark"):
        read_hex_board(dark, 7)


def test_a_blurred_photo_is_refused_as_blurry(render) -> None:
    path, _ = render
    blurred = cv2.GaussianBlur(cv2.imread(str(path)), (0, 0), 30)
    with pytest.raises(ImageQualityError, match="too blurry"):
        read_hex_board(blurred, 7)


def test_a_board_cut_off_by_the_photo_edge_says_so(render) -> None:
    path, truth = render
    image = cv2.imread(str(path))
    # Cut the photo through the board, a third of the way across it.
    cut = int(truth.corners[:, 0].min() + 0.3 * np.ptp(truth.corners[:, 0]))
    with pytest.raises(BoardNotFoundError, match="cut off by the photo's left edge"):
        read_hex_board(np.ascontiguousarray(image[:, cut:]), 7)


@pytest.mark.parametrize("argv, words", [
    (["--islands", "--size", "12"], "3 to 10"),
    (["--size", "7"], "--size is the side of an islands board"),
    (["--islands", "--corners", "1,1 2,2 3,3 4,4"], "--corners is for a Scrabble board"),
])
def test_bad_options_are_refused_in_one_line(render, capsys, argv, words) -> None:
    path, _ = render
    _one_line_refusal(capsys, ["read", str(path), *argv], words)


def test_the_reading_is_plain_data() -> None:
    reading = HexReading(3, (), tuple((float(i), float(i)) for i in range(6)))
    assert reading.board() == HexBoard.empty(3)
    assert reading.to_json()["board"] == HexBoard.empty(3).text()
    assert HexCell.parse("a1") not in reading.board().stones
