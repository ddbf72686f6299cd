"""Reading one First Draft player's board from a photo (vision/playerboard.py).

There are no real photos of a player's board (two rows of tiles and a pool on a table) among the
shared photos, so the photos here are rendered: tile faces from ``lab.tileface`` (random
fonts, colours, bevels) laid in lines on a textured table, some pushed together, then a turn,
blur, noise and JPEG; and real tile faces cut from ``../shared/photos`` (with their truth
corners) laid out the same way. Measured by ``python tests/test_playerboard.py --measure N
[--degrees D]`` and ``--real``; the tests keep a floor under both.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lab.truth import DEV_PHOTOS as PHOTOS
from tests.support.playerboard import TABLES_BGR, render_player_board  # noqa: E402
from vision.playerboard import (  # noqa: E402
    PlayerBoardConfig,
    assign_parts,
    find_tiles,
    group_lines,
    read_player_board,
    skew_degrees,
)


def random_board(rng: np.random.Generator) -> tuple[tuple[str, str], str]:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def letters(low: int, high: int) -> str:
        return "".join(rng.choice(list(alphabet), int(rng.integers(low, high + 1))))

    return (letters(2, 9), letters(1, 9)), letters(1, 4)


@pytest.mark.slow
def test_a_rendered_board_is_read_row_by_row() -> None:
    rows, pool = ("FLINTY", "SOAP"), "QEZ"
    image = render_player_board(rows, pool, seed=1)
    reading = read_player_board(image)
    assert [len(row) for row in reading.rows] == [6, 4]
    assert len(reading.pool) == 3
    letters = "".join(reading.row_letters) + reading.pool_letters
    right = sum(a == b for a, b in zip(letters, "FLINTYSOAPQEZ", strict=True))
    assert right >= 12, reading.to_json()["letters"]
    for tile in reading.rows[0] + reading.rows[1] + reading.pool:
        assert 0.0 <= tile.confidence <= 1.0
        assert tile.unsure == (tile.letter == "?" or tile.confidence < 0.6)


@pytest.mark.slow
def test_the_lab_tool_prints_what_a_photo_of_a_player_board_says(tmp_path, capsys) -> None:
    from lab.playerboard import main

    image = render_player_board(("FLINTY", "SOAP"), "QEZ", seed=1)
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image)
    reading = read_player_board(image)
    assert main([str(photo)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [f"row 1: {reading.row_letters[0]}", f"row 2: {reading.row_letters[1]}",
                         f"pool:  {reading.pool_letters}"]
    assert main([str(tmp_path / "missing.png")]) == 2
    assert capsys.readouterr().err.startswith("error: ")


@pytest.mark.slow
def test_accuracy_over_varied_renders_stays_high() -> None:
    """Six random boards on random tables: (nearly) every tile found, nearly every letter
    right. One board may lose a tile: an orange wooden tile at the end of a line on a light
    oak table is hardly lighter than the table. (The full measurement, 100 renders, is
    ``python tests/test_playerboard.py --measure 100``.)"""
    rng = np.random.default_rng(7)
    right = total = laid_out = 0
    for seed in range(6):
        rows, pool = random_board(rng)
        reading = read_player_board(render_player_board(rows, pool, seed=100 + seed))
        if [len(row) for row in reading.row_letters] != [len(row) for row in rows] or len(
                reading.pool_letters) != len(pool):
            continue
        laid_out += 1
        truth = rows[0] + rows[1] + pool
        read = "".join(reading.row_letters) + reading.pool_letters
        total += len(truth)
        right += sum(a == b for a, b in zip(read, truth, strict=True))
    assert laid_out >= 5
    assert right / total >= 0.9, (right, total)


def test_touching_tiles_are_cut_apart_by_squareness() -> None:
    image = render_player_board(("ABCDEFGHI", "JK"), "LM", seed=3, turn_degrees=0.0)
    boxes = find_tiles(image)
    assert len(boxes) == 13
    sides = [w for _, _, w, _ in boxes] + [h for _, _, _, h in boxes]
    assert max(sides) < 1.3 * min(sides)


def test_pool_beside_row_two_is_its_own_group() -> None:
    image = render_player_board(("CAT", "DOG"), "XY", seed=4, pool_beside=True, turn_degrees=0)
    groups = group_lines(find_tiles(image))
    assert [len(group) for group in groups] == [3, 3, 2]


@pytest.mark.slow
@pytest.mark.parametrize("quarter_turns", [1, 2, 3])
def test_a_photo_from_another_side_is_turned_upright(quarter_turns: int) -> None:
    image = render_player_board(("HOUSE", "MAT"), "EW", seed=5, quarter_turns=quarter_turns,
                                turn_degrees=0)
    reading = read_player_board(image)
    assert reading.quarter_turns == quarter_turns
    assert reading.row_letters == ("HOUSE", "MAT")
    assert reading.pool_letters == "EW"


@pytest.mark.slow
@pytest.mark.parametrize("degrees", [-12.0, 12.0])
def test_a_leaning_photo_is_levelled_before_tiles_are_cut(degrees: float) -> None:
    image = render_player_board(("FLINTY", "SOAP"), "QEZ", seed=2, turn_degrees=degrees)
    assert abs(abs(skew_degrees(image)) - abs(degrees)) < 1.5
    reading = read_player_board(image)
    assert [len(row) for row in reading.rows] == [6, 4] and len(reading.pool) == 3


def test_an_empty_row_is_placed_by_what_the_referee_expects() -> None:
    groups = [["a", "b"], ["c"]]
    row1, row2, pool, warnings = assign_parts(groups, expected=(0, 2, 1))
    assert (row1, row2, pool) == ([], ["a", "b"], ["c"])
    assert warnings == []
    row1, row2, pool, _ = assign_parts(groups, expected=None)
    assert (row1, row2, pool) == (["a", "b"], ["c"], [])


def test_an_empty_table_reads_as_an_empty_board_with_a_warning() -> None:
    table = np.full((400, 900, 3), (40, 60, 95), np.uint8)
    reading = read_player_board(table)
    assert reading.row_letters == ("", "") and reading.pool_letters == ""
    assert any("no tiles" in warning for warning in reading.warnings)


@pytest.mark.parametrize("config", [PlayerBoardConfig(group_gap=5.0, missing_gap=5.0)])
def test_the_config_decides_what_a_wide_gap_is(config: PlayerBoardConfig) -> None:
    image = render_player_board(("CAT", "DOG"), "XY", seed=4, pool_beside=True, turn_degrees=0)
    groups = group_lines(find_tiles(image, config), config)
    assert [len(group) for group in groups] == [3, 5]


def real_faces(photo: Path) -> list[tuple[str, np.ndarray]]:
    """(letter, face) of every plain A-Z tile in a real photo, cut from its board with the
    truth corners (upright, as the truth grid reads)."""
    from lab.truth import read_truth
    from vision.board.rectify import rectify
    from vision.image import load_image

    truth = read_truth(photo)
    assert truth.corners is not None
    board = rectify(load_image(photo), np.array(truth.corners), cell_px=64, tile_lift=0.15)
    faces = []
    for col, row in truth.occupied():
        cell = truth.grid[row][col]
        if cell.letter and len(cell.letter) == 1 and "A" <= cell.letter <= "Z" \
                and not cell.blank:
            faces.append((cell.letter, cv2.resize(board.cell_image(col, row), (72, 72))))
    return faces


def compose_board(faces: list[tuple[str, np.ndarray]], seed: int
                  ) -> tuple[np.ndarray, tuple[str, str], str]:
    """Real faces laid as a player's board (6, 5, 2) on a table half as light as the tiles
    (a darker cloth under the same light as the photo the faces came from)."""
    rng = np.random.default_rng(seed)
    lines = [faces[:6], faces[6:11], faces[11:13]]
    light = float(np.mean([face.mean() for _, face in faces[:13]]))
    table = np.empty((72 * 5, 72 * 9, 3), np.float32)
    table[:] = np.array(TABLES_BGR[0], np.float32) * (0.5 * light / np.mean(TABLES_BGR[0]))
    table += cv2.GaussianBlur(rng.normal(0, 12, table.shape[:2]).astype(np.float32),
                              (0, 0), 3)[:, :, None]
    for index, line in enumerate(lines):
        for position, (_, face) in enumerate(line):
            x, y = 40 + position * 78, 30 + index * 100
            table[y:y + 72, x:x + 72] = face
    image = np.clip(table, 0, 255).astype(np.uint8)
    words = ["".join(letter for letter, _ in line) for line in lines]
    return image, (words[0], words[1]), words[2]


@pytest.mark.slow
def test_real_tile_faces_laid_out_as_a_players_board_are_read() -> None:
    """Faces cut from a real photo (jheidel, MIT) rather than rendered ones. The tile classifier
    has seen these photos' cells in training, so this checks the finding and the layout on real
    faces more than it measures the letters."""
    photo = PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170755.jpg"
    faces = real_faces(photo)
    assert len(faces) >= 26
    right = total = 0
    for start in (0, 13):
        image, rows, pool = compose_board(faces[start:start + 13], seed=start)
        reading = read_player_board(image)
        assert [len(row) for row in reading.row_letters] == [len(row) for row in rows]
        assert len(reading.pool_letters) == len(pool)
        read = "".join(reading.row_letters) + reading.pool_letters
        total += len(read)
        right += sum(a == b for a, b in zip(read, rows[0] + rows[1] + pool, strict=True))
    assert right / total >= 0.85, (right, total)


def measure_real() -> None:
    """The real-face composition over every photo with truth corners (printed)."""
    from lab.truth import photos_with_truth, read_truth

    boards = laid_out = right = total = 0
    for photo in photos_with_truth(PHOTOS):
        truth = read_truth(photo)
        if truth.corners is None or truth.has_rotations:
            continue
        faces = real_faces(photo)
        for start in range(0, len(faces) - 12, 13):
            image, rows, pool = compose_board(faces[start:start + 13], seed=start)
            reading = read_player_board(image)
            boards += 1
            total += 13
            if [len(row) for row in reading.row_letters] == [len(row) for row in rows] \
                    and len(reading.pool_letters) == len(pool):
                laid_out += 1
                read = "".join(reading.row_letters) + reading.pool_letters
                right += sum(a == b for a, b in zip(read, rows[0] + rows[1] + pool,
                                                     strict=True))
    print(f"real-face boards: {boards}, layout right: {laid_out}/{boards}, letters right:"
          f" {right}/{total} ({right / total:.1%})")


def measure(count: int, degrees: float | None = None) -> None:
    """Letter accuracy and layout accuracy over ``count`` random renders (printed); the photos
    lean by ``degrees`` (default: a random lean within 3 degrees)."""
    rng = np.random.default_rng(2026)
    right = total = layout_ok = unsure = unsure_wrong = wrong_sure = 0
    for seed in range(count):
        rows, pool = random_board(rng)
        beside = bool(seed % 2)
        reading = read_player_board(render_player_board(rows, pool, seed=seed,
                                                        pool_beside=beside,
                                                        turn_degrees=degrees))
        ok = [len(r) for r in reading.row_letters] == [len(r) for r in rows] and \
            len(reading.pool) == len(pool)
        layout_ok += ok
        truth = rows[0] + rows[1] + pool
        tiles = reading.rows[0] + reading.rows[1] + reading.pool
        total += len(truth)
        if ok:
            for tile, letter in zip(tiles, truth, strict=True):
                right += tile.letter == letter
                unsure += tile.unsure
                unsure_wrong += tile.unsure and tile.letter != letter
                wrong_sure += (not tile.unsure) and tile.letter != letter
    print(f"renders: {count}, layout right: {layout_ok}/{count}, letters right: {right}/{total}"
          f" ({right / total:.1%}), flagged unsure: {unsure} (of which wrong: {unsure_wrong}),"
          f" wrong but not flagged: {wrong_sure}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=measure.__doc__)
    parser.add_argument("--measure", type=int, default=50)
    parser.add_argument("--degrees", type=float, default=None)
    parser.add_argument("--real", action="store_true", help="real faces from ../shared/photos")
    arguments = parser.parse_args()
    if arguments.real:
        measure_real()
    else:
        measure(arguments.measure, arguments.degrees)
