"""`tileref read` end to end: FORMATS.md's JSON, rotations on renders, warnings, errors, overlay."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, random_position, render_board_photo
from lab.truth import DEV_PHOTOS as PHOTOS
from lab.truth import UNLABELLED_PHOTOS, photo_corners, read_truth
from referee.boardtext import parse_board_text
from referee.cells import Cell, Seat
from tests.support.scenes import house_in_shadow
from vision.errors import ImageQualityError
from vision.image import load_image
from vision.read import read_board
from vision.tuning import DISPUTE_CONFIG, ReadConfig
from vision.warning import ReadingWarning, WarningCode
from webui.cli import main

REAL = PHOTOS / "DeclanFinerty__scrabble-vision__eval_board.jpeg"


def _corner_arg(corners: np.ndarray) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def _check_reading_json(data: dict, image_shape: tuple[int, ...]) -> None:
    """The shape FORMATS.md promises for ``tileref read --json``."""
    assert set(data) >= {"board", "cells", "corners", "warnings"}
    assert isinstance(data["board"], str)
    assert len(data["corners"]) == 4
    height, width = image_shape[:2]
    for x, y in data["corners"]:
        assert -width <= x <= 2 * width and -height <= y <= 2 * height
    assert all(isinstance(w, str) for w in data["warnings"])
    # The same warnings as data (docs/formats.md): one per sentence, in the same order.
    details = [ReadingWarning.from_json(detail) for detail in data["warning_details"]]
    assert [detail.message for detail in details] == data["warnings"]
    assert all(detail.code in set(WarningCode) for detail in details)
    tiles = parse_board_text(data["board"])
    assert len(tiles) == len(data["cells"])
    for cell in data["cells"]:
        assert set(cell) >= {"cell", "letter", "rotation", "confidence"}
        assert cell["rotation"] in (0, 90, 180, 270)
        assert 0.0 <= cell["confidence"] <= 1.0
        assert len(cell["letter"]) == 1
        tile = tiles[Cell.parse(cell["cell"])]
        assert (tile.letter == cell["letter"]) or (tile.blank and cell["letter"] == "?")
    # Every cell has a confidence: the occupied ones in "cells", the rest in "empty".
    empty = {entry["cell"]: entry["confidence"] for entry in data["empty"]}
    assert len(empty) == len(data["empty"])
    assert set(empty) | {cell["cell"] for cell in data["cells"]} == {
        Cell(col, row).name for row in range(15) for col in range(15)}
    assert not set(empty) & {cell["cell"] for cell in data["cells"]}
    assert all(0.0 <= confidence <= 1.0 for confidence in empty.values())


@pytest.mark.slow
def test_read_json_gives_each_warning_as_data(capsys) -> None:
    # A rendered board under glare: some of its tiles are named, in words and as data.
    photo = Path(__file__).resolve().parents[1] / "samples" / "photos" / "glare.jpg"
    assert main(["read", "--json", str(photo)]) == 0
    data = json.loads(capsys.readouterr().out)
    _check_reading_json(data, cv2.imread(str(photo)).shape)
    glare = [detail for detail in data["warning_details"] if detail["code"] == "glare"]
    assert glare and all(detail["message"] == f"glare over {detail['cells'][0]}"
                         for detail in glare)
    read = {cell["cell"] for cell in data["cells"]}
    assert all(len(detail["cells"]) == 1 and detail["cells"][0] in read for detail in glare)


@pytest.mark.slow
def test_read_json_on_a_real_photo(capsys) -> None:
    truth = read_truth(REAL)
    corners = photo_corners(truth)
    code = main(["read", str(REAL), "--json", "--corners", _corner_arg(corners)])
    out = capsys.readouterr()
    assert code == 0, out.err
    data = json.loads(out.out)
    _check_reading_json(data, load_image(REAL).shape)
    assert np.allclose(np.array(data["corners"]), corners, atol=0.1)
    # The photo's repository is in the committed model's training set, so this is a smoke test of
    # the whole chain, not an accuracy figure (those are leave-one-source-out: tileref eval).
    read = {c["cell"] for c in data["cells"]}
    want = set()
    for col, row in truth.occupied():
        c, r = col, row
        for _ in range((4 - truth.orientation // 90) % 4):
            c, r = 14 - r, c
        want.add(Cell(c, r).name)
    assert len(read ^ want) <= 3


@pytest.mark.slow
def test_read_text_output_is_board_text_then_warnings(capsys) -> None:
    corners = photo_corners(read_truth(REAL))
    assert main(["read", str(REAL), "--corners", _corner_arg(corners)]) == 0
    text = capsys.readouterr().out
    assert len(parse_board_text(text)) > 20
    lines = text.splitlines()
    assert all(line.startswith("# warning: ") for line in lines[15:])


def _seated_render(seed: int, orientation_quarter: int = 0):
    tiles = random_position(np.random.default_rng(seed), words=14, seats=list(Seat))
    options = RenderOptions.clean(azimuth=90.0 * orientation_quarter)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)


@pytest.mark.slow
def test_read_json_on_a_render(tmp_path, capsys) -> None:
    photo = _seated_render(31)
    path = tmp_path / "render.png"
    photo.save(path)
    assert main(["read", str(path), "--json", "--corners",
                 _corner_arg(photo_corners(read_truth(path)))]) == 0
    _check_reading_json(json.loads(capsys.readouterr().out), photo.image.shape)


def _score(photo, path: Path) -> tuple[int, int, int, int]:
    """(tiles, letters right, rotations right, occupancy errors) of one render, read from disk."""
    photo.save(path)
    truth = read_truth(path)
    reading = read_board(cv2.imread(str(path)), corners=photo_corners(truth))
    reading = reading.turned(truth.orientation // 90)
    got = {Cell.parse(r.cell): r for r in reading.cells}
    letters = rotations = 0
    for cell, tile in photo.tiles.items():
        read = got.get(cell)
        if read is None:
            continue
        letters += read.letter == ("?" if tile.blank else tile.letter)
        rotations += tile.blank or read.rotation == (tile.rotation or 0)
    occupancy = len(set(got) ^ set(photo.tiles))
    return len(photo.tiles), letters, rotations, occupancy


@pytest.mark.slow
def test_rotations_of_all_four_seats_on_renders(tmp_path) -> None:
    totals = np.zeros(4, int)
    for seed, quarter in ((41, 0), (42, 1), (43, 2), (44, 3)):
        totals += _score(_seated_render(seed, quarter), tmp_path / f"seat{seed}.png")
    tiles, letters, rotations, occupancy = totals
    seen = {tile.rotation for seed in (41,) for tile in _seated_render(seed).tiles.values()}
    assert seen == {0, 90, 180, 270}
    # Measured on these four renders (one per camera side): 109/110 letters, 109/110
    # rotations, 2 occupancy errors.
    assert occupancy <= 3
    assert rotations / tiles >= 0.97, f"{rotations}/{tiles}"
    assert letters / tiles >= 0.96, f"{letters}/{tiles}"


@pytest.mark.slow
def test_south_auto_turns_a_sideways_photo_upright() -> None:
    tiles = {Cell(col, 7): _tile(letter) for col, letter in zip(range(5, 10), "HOUSE", strict=True)}
    photo = render_board_photo(tiles, seed=3, width=1600, height=1200,
                               options=RenderOptions.clean(azimuth=90.0))
    upright = read_board(photo.image, corners=photo.corners, south="auto")
    assert "".join(r.letter for r in upright.cells) == "HOUSE"
    assert all(r.rotation == 0 for r in upright.cells)


def _tile(letter: str):
    from referee.boardtext import Tile

    return Tile(letter, False, None)


@pytest.mark.slow
@pytest.mark.parametrize("style", ["classic", "modern", "green"])
def test_coloured_premium_squares_are_neither_shadow_nor_glare(style: str) -> None:
    """Red, dark blue and pale blue squares are the board's print, not the light: a clean,
    evenly lit render gets no light warning at all (it used to name every triple square)."""
    photo = render_board_photo({}, seed=8, width=1600, height=1200,
                               options=RenderOptions.clean(board_style=style))
    reading = read_board(photo.image, corners=photo.corners)
    assert not [w for w in reading.warnings if "shadow" in w or "glare" in w]


@pytest.mark.slow
def test_glare_and_shadow_are_warned_per_cell_and_glare_never_hides_a_tile() -> None:
    tiles = {Cell(col, 7): _tile(letter) for col, letter in zip(range(5, 10), "HOUSE", strict=True)}
    photo = render_board_photo(tiles, seed=5, width=1600, height=1200,
                               options=RenderOptions.clean())
    image = photo.image.copy()
    corners = photo.corners
    homography = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [15, 0], [15, 15], [0, 15]]), np.float32(corners))

    def centre(col: float, row: float) -> tuple[int, int]:
        x, y = cv2.perspectiveTransform(np.float32([[[col + 0.5, row + 0.5]]]), homography)[0, 0]
        return int(x), int(y)

    cell_px = int(np.linalg.norm(corners[1] - corners[0]) / 15)
    cv2.circle(image, centre(7, 7), int(cell_px * 0.6), (255, 255, 255), -1)  # glare on H8's tile
    cv2.circle(image, centre(2, 12), int(cell_px * 0.6), (255, 255, 255), -1)  # on an empty C13
    x, y = centre(12, 2)
    cv2.rectangle(image, (x - cell_px, y - cell_px), (x + cell_px, y + cell_px), (8, 8, 8), -1)
    reading = read_board(image, corners=corners)
    text = " | ".join(reading.warnings)
    assert "glare over H8" in text
    assert "glare over C13" in text
    assert "shadow over M3" in text
    read_cells = {r.cell for r in reading.cells}
    # The glared tile is read as a tile (with a warning on it) or reported as possibly hidden.
    assert "H8" in read_cells or "glare over H8 (may hide a tile)" in text
    if "H8" in read_cells:
        h8 = next(r for r in reading.cells if r.cell == "H8")
        assert any(w.startswith("glare over H8") for w in h8.warnings)


@pytest.mark.slow
def test_dark_premium_squares_of_a_real_board_are_not_in_shadow() -> None:
    # DeclanFinerty board_003's triple-letter squares are dark teal and its triple-word squares
    # dark red: judged against the whole board (light tiles, beige squares) nine of them were
    # "in shadow". Each is now judged against its own kind of square.
    reading = read_board(load_image(PHOTOS / "DeclanFinerty__scrabble-vision__board_003.jpeg"))
    assert not [w for w in reading.warnings if w.startswith("shadow")]


@pytest.mark.slow
def test_a_tile_in_shadow_is_named_and_its_neighbours_are_not() -> None:
    # A shadow over I8's tile only: whether occupancy still sees the tile or not, the players
    # are sent to I8, and to no other square.
    image, corners = house_in_shadow((7.8, 6.8, 9.2, 8.2), 0.45)
    reading = read_board(image, corners=corners)
    shadows = [w for w in reading.warnings if w.startswith("shadow")]
    assert shadows in (["shadow over I8"], ["shadow over I8 (may hide a tile)"])
    read = {r.cell: r for r in reading.cells}
    assert "I8" in read or shadows == ["shadow over I8 (may hide a tile)"]
    assert not [r for r in reading.cells if r.cell in ("I7", "I9", "H7", "H9", "J7", "J9")]


def test_a_file_that_is_not_an_image_exits_2_with_one_line(tmp_path, capsys) -> None:
    bogus = tmp_path / "notes.jpg"
    bogus.write_text("not a photo")
    assert main(["read", str(bogus)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tileref read: ") and err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_photo_without_a_board_exits_2_with_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "wall.png"
    rng = np.random.default_rng(0)
    wall = cv2.GaussianBlur(rng.integers(90, 110, (600, 800, 3), dtype=np.uint8), (0, 0), 3)
    cv2.imwrite(str(path), wall)
    assert main(["read", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tileref read: ") and err.count("\n") == 1


@pytest.mark.parametrize("corners", ["1,2 3,4", "a,b c,d e,f g,h", "0,0 10,0 10,10", ""])
def test_malformed_corners_exit_2(corners: str, capsys) -> None:
    assert main(["read", str(REAL), "--corners", corners]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.slow
def test_corners_anticlockwise_off_the_photo_or_absurd_exit_2_saying_which(capsys) -> None:
    # Each was read before, silently wrong: anticlockwise corners gave the board mirrored, and
    # corners off the photo an empty board with no warning (a fuzzing helper's finds).
    corners = photo_corners(read_truth(REAL))
    height, width = load_image(REAL).shape[:2]
    for given, said in (
            (corners[::-1], "anticlockwise: give them clockwise from the top left"),
            (corners + [width, 0], "corners lie off the photo"),
            (corners * 1e300, "corners must be pixel positions in the photo")):
        assert main(["read", str(REAL), "--corners", _corner_arg(given)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    # A corner dragged onto the frame's border, a little off the photo, is still read.
    nudged = corners.copy()
    nudged[0] = [-0.02 * max(width, height), -0.02 * max(width, height)]
    assert main(["read", str(REAL), "--corners", _corner_arg(nudged)]) == 0
    capsys.readouterr()


def test_an_unknown_tile_set_exits_2(capsys) -> None:
    corners = photo_corners(read_truth(REAL))
    assert main(["read", str(REAL), "--tiles", "klingon", "--corners", _corner_arg(corners)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.slow
def test_overlay_is_written_the_size_of_the_photo(tmp_path, capsys) -> None:
    out = tmp_path / "overlay.png"
    corners = photo_corners(read_truth(REAL))
    assert main(["read", str(REAL), "--overlay", str(out), "--corners", _corner_arg(corners)]) == 0
    capsys.readouterr()
    overlay = cv2.imread(str(out))
    photo = load_image(REAL)
    assert overlay is not None and overlay.shape == photo.shape
    assert np.abs(overlay.astype(int) - photo.astype(int)).sum() > 0


@pytest.mark.slow
def test_overlay_to_an_unwritable_place_exits_2(tmp_path, capsys) -> None:
    corners = photo_corners(read_truth(REAL))
    code = main(["read", str(REAL), "--overlay", str(tmp_path / "overlay.txt"), "--corners",
                 _corner_arg(corners)])
    assert code == 2
    assert capsys.readouterr().err.count("\n") == 1


BLURRED = UNLABELLED_PHOTOS / "jheidel__scrabble-opencv__IMG_20141025_164048.jpg"


@pytest.mark.slow
def test_a_motion_blurred_photo_is_refused_in_one_line_and_writes_nothing(tmp_path,
                                                                          capsys) -> None:
    """Shaken sideways: read as sharp, it gave dozens of phantom tiles (B, M on blue squares)."""
    overlay = tmp_path / "overlay.png"
    assert main(["read", str(BLURRED), "--overlay", str(overlay)]) == 2
    out = capsys.readouterr()
    assert out.err.startswith("tileref read: photo too blurry to read the tiles")
    assert out.err.count("\n") == 1 and out.out == ""
    assert not overlay.exists()


def _motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    """A camera moved ``length`` pixels along ``angle`` degrees during the exposure."""
    side = int(np.ceil(length)) | 1
    kernel = np.zeros((side, side), np.float32)
    half = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))]) * (side - 1) / 2
    centre = np.array([(side - 1) / 2] * 2)
    start, end = (centre - half).round().astype(int), (centre + half).round().astype(int)
    cv2.line(kernel, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0)
    return cv2.filter2D(image, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)


def _wrong_share(reading, tiles) -> float:
    """Tiles read wrong (a false or missed tile, or a wrong letter) per tile on the board."""
    got = {Cell.parse(r.cell): r.letter for r in reading.cells}
    wrong = len(got.keys() ^ tiles.keys())
    wrong += sum(got[cell] != tile.letter for cell, tile in tiles.items() if cell in got)
    return wrong / len(tiles)


@pytest.mark.slow
@pytest.mark.parametrize("angle", [0.0, 35.0])
def test_motion_blur_that_breaks_reading_is_refused(angle: float) -> None:
    """Half a cell of smear: read anyway, most tiles come out wrong; so the reader refuses."""
    tiles = random_position(np.random.default_rng(33), words=14)
    photo = render_board_photo(tiles, seed=33, width=1600, height=1200,
                               options=RenderOptions.clean())
    cell_px = float(np.linalg.norm(photo.corners[1] - photo.corners[0])) / 15
    blurred = _motion_blur(photo.image, 0.5 * cell_px, angle)
    with pytest.raises(ImageQualityError, match="too blurry to read the tiles"):
        read_board(blurred, corners=photo.corners)
    regardless = read_board(blurred, corners=photo.corners,
                            config=ReadConfig(max_tile_blur_px=float("inf")))
    assert _wrong_share(regardless, tiles) > 0.4


@pytest.mark.slow
def test_slight_motion_blur_is_still_read() -> None:
    """A tenth of a cell of smear costs next to nothing: it must not be refused."""
    tiles = random_position(np.random.default_rng(33), words=14)
    photo = render_board_photo(tiles, seed=33, width=1600, height=1200,
                               options=RenderOptions.clean())
    cell_px = float(np.linalg.norm(photo.corners[1] - photo.corners[0])) / 15
    reading = read_board(_motion_blur(photo.image, 0.1 * cell_px, 0.0), corners=photo.corners)
    assert _wrong_share(reading, tiles) < 0.15


@pytest.mark.slow
def test_a_smear_that_hides_every_tile_is_refused_not_read_as_an_empty_board() -> None:
    """Defocused by a cell, the occupancy model sees no tile at all: the empty reading that
    would follow is a guess, so the board's own print is judged and the photo refused."""
    tiles = random_position(np.random.default_rng(33), words=14)
    photo = render_board_photo(tiles, seed=33, width=1600, height=1200,
                               options=RenderOptions.clean())
    cell_px = float(np.linalg.norm(photo.corners[1] - photo.corners[0])) / 15
    blurred = cv2.GaussianBlur(photo.image, (0, 0), cell_px / 4)
    unchecked = ReadConfig(max_tile_blur_px=float("inf"), max_print_blur_px=float("inf"),
                           max_covered_squares=float("inf"))
    assert read_board(blurred, corners=photo.corners, config=unchecked).cells == ()
    with pytest.raises(ImageQualityError, match="too blurry to tell whether tiles are on"):
        read_board(blurred, corners=photo.corners)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["jheidel__scrabble-opencv__IMG_20141025_164039.jpg",
                                  "jheidel__scrabble-opencv__IMG_20151016_170755.jpg",
                                  "kristopalka__scrabble-solver__red_boards_013.jpg",
                                  "jhaaditya-tech__Scrabble-OpenCV-DepthAI__image060.jpg"])
def test_the_softest_and_smallest_dev_photos_are_not_refused(name: str) -> None:
    """The two softest truth photos with tiles (7.2 and 6.9 px of smear; they read 18/19 and
    86/92 letters), a board only 67 px a cell, and the softest empty board (a dark photo, 14 px)
    are read, not refused, and their tiles (none for the empty one) are found."""
    truth = read_truth(PHOTOS / name)
    reading = read_board(PHOTOS / name, corners=photo_corners(truth))
    assert abs(len(reading.cells) - len(truth.occupied())) <= 3


class _BrightestCell:
    """An occupancy model that calls a tile (``tile``) wherever the board's brightest pixel
    falls, and every other cell empty with the probability left over."""

    def __init__(self, tile: float = 1.0) -> None:
        self.tile = tile

    def tile_probability(self, board, *, print_cells=None) -> np.ndarray:
        gray = board.image.max(axis=2)
        y, x = np.unravel_index(int(np.argmax(gray)), gray.shape)
        probability = np.full((15, 15), 1 - self.tile)
        cell = board.cell_px
        probability[(y - board.margin_px) // cell, (x - board.margin_px) // cell] = self.tile
        return probability


@pytest.mark.slow
def test_occupancy_is_averaged_over_the_grid_moved_an_eighth_of_a_cell_each_way() -> None:
    from vision.board.rectify import RectifiedBoard
    from vision.read import tile_probability
    from vision.tuning import DISPUTE_CONFIG

    size = 15 * 48 + 2 * 24
    image = np.zeros((size, size, 3), np.uint8)
    # A bright point 2 px inside the right edge of H8: only the look that moves the grid's
    # content 6 px right carries it into I8.
    image[24 + 7 * 48 + 20, 24 + 8 * 48 - 3] = 255
    board = RectifiedBoard(image, 48, 24, np.eye(3))
    doubting = _BrightestCell(0.9)
    one = tile_probability(board, doubting, 0.0)       # type: ignore[arg-type]
    assert one[7, 7] == pytest.approx(0.9) and one[7, 8] == pytest.approx(0.1)
    shift, sure = DISPUTE_CONFIG.occupancy_shift, DISPUTE_CONFIG.occupancy_shift_sure
    five = tile_probability(board, doubting, shift, sure)  # type: ignore[arg-type]
    assert five[7, 7] == pytest.approx((4 * 0.9 + 0.1) / 5)
    assert five[7, 8] == pytest.approx((4 * 0.1 + 0.9) / 5)
    assert five[0, 0] == pytest.approx(0.1)
    # A tile the grid as found is sure of, the moved looks leave alone: they are for the cells
    # the model doubts (on a steep photo one of them read a whole row of plain tiles empty).
    # An empty square is still averaged: a look that sees a tile there raises a doubt.
    certain = tile_probability(board, _BrightestCell(1.0), shift, sure)  # type: ignore[arg-type]
    assert certain[7, 7] == 1 and certain[7, 8] == pytest.approx(0.2)


@pytest.mark.slow
@pytest.mark.photos
def test_an_empty_cell_a_warning_doubts_is_never_read_surely_empty() -> None:
    # jheidel 170755 is dim and soft: read as `tileref read` reads it, it names an empty square
    # that may hold a tile. That one is no surer than a doubt (0.85); the plain empty squares
    # of the board mostly are.
    photo = PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170755.jpg"
    reading = read_board(photo, config=DISPUTE_CONFIG)
    doubted = reading.warned_empty_cells()
    assert doubted
    assert all(reading.empty[name] <= 1 - ReadConfig().unsure_empty_above for name in doubted)
    plain = [confidence for name, confidence in reading.empty.items() if name not in doubted]
    assert np.median(plain) > 0.95
    # Turned with the board, the confidences follow their squares.
    turned = reading.turned(1)
    for name, confidence in reading.empty.items():
        assert turned.empty[Cell.parse(name).turned(1).name] == confidence


def test_read_text_output_says_a_warning_over_many_squares_once(capsys, monkeypatch) -> None:
    """Fifty squares under glare are one line, as the dispute page says them; --json keeps
    one warning a square."""
    import vision
    from vision import BoardReading, CellReading
    from vision.warning import glare_over, may_hide_a_tile

    glare = tuple(may_hide_a_tile(glare_over(Cell(col, row)))
                  for row in range(5) for col in range(10))
    reading = BoardReading((CellReading("H8", "A", 0, 0.99),), ((0, 0), (1, 0), (1, 1), (0, 1)),
                           glare)
    monkeypatch.setattr(vision, "read_board", lambda *args, **kwargs: reading)
    assert main(["read", str(REAL)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("#")]
    assert len(lines) == 1
    assert lines[0].startswith("# warning: glare over A1, B1, C1") and \
        lines[0].endswith("I5 and J5 (may hide a tile)")
    assert main(["read", str(REAL), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["warnings"]) == 50
