"""Fixed-camera calibration: marker sheet, ArUco round trips (corners and South), profile files,
chessboard intrinsics, and ``tileref calibrate`` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.aruco import CORNER_IDS, detect_markers, marker_sheet, write_marker_sheet
from calibration.intrinsics import CalibrationError, calibrate_from_images
from calibration.profile import CalibrationProfile, ProfileError
from lab.eval_corners import corner_errors_cells
from referee.layouts import load_layout
from vision.board.locate import grow_corners
from vision.board.tuning import CONFIG
from webui.cli import main

CELL = 30
GRID = 15 * CELL
FRAME = 40
MARGIN = 110
SIDE = GRID + 2 * FRAME + 2 * MARGIN
GRID_TL = MARGIN + FRAME
# The grid's corners on the flat table sheet, TL TR BR BL of the South view.
PLANE_GRID = np.array([[GRID_TL, GRID_TL], [GRID_TL + GRID, GRID_TL],
                       [GRID_TL + GRID, GRID_TL + GRID], [GRID_TL, GRID_TL + GRID]], float)


def _table_sheet() -> np.ndarray:
    """A drawn board (frame, 15x15 lines, the premium squares) seen from straight above, on a
    white table with the four markers by its corners (id 0 by South's top-left, clockwise)."""
    sheet = np.full((SIDE, SIDE, 3), 235, np.uint8)
    x0 = MARGIN
    sheet[x0:SIDE - x0, x0:SIDE - x0] = (50, 50, 160)
    sheet[GRID_TL:GRID_TL + GRID, GRID_TL:GRID_TL + GRID] = (200, 225, 235)
    # The premium squares where a board prints them: the finder checks the layout, and 14
    # squares at random, as this drawing had, are no Scrabble board.
    colours = {"DL": (230, 200, 150), "TL": (200, 120, 40), "DW": (150, 150, 235),
               "TW": (50, 60, 205)}
    for square, premium in load_layout("classic").premiums.items():
        x, y = GRID_TL + square.col * CELL, GRID_TL + square.row * CELL
        sheet[y:y + CELL, x:x + CELL] = colours[premium.value]
    for k in range(16):
        p = GRID_TL + k * CELL
        cv2.line(sheet, (p, GRID_TL), (p, GRID_TL + GRID), (30, 30, 30), 2)
        cv2.line(sheet, (GRID_TL, p), (GRID_TL + GRID, p), (30, 30, 30), 2)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    size = 70
    spots = [(15, 15), (SIDE - 15 - size, 15), (SIDE - 15 - size, SIDE - 15 - size),
             (15, SIDE - 15 - size)]
    for marker_id, (x, y) in zip(CORNER_IDS, spots, strict=True):
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, size, borderBits=1)
        sheet[y:y + size, x:x + size] = marker[:, :, None]
    return sheet


def _photo(turns: int, corners_px: list[list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """The sheet turned ``turns`` quarters clockwise, then photographed so that the sheet's
    (turned) corners land on ``corners_px``; returns (photo, true South-view grid corners)."""
    sheet = np.ascontiguousarray(np.rot90(_table_sheet(), k=-turns))
    # Where the grid corners went on the turned sheet (turning clockwise: (x, y) -> (S-1-y, x)).
    grid = PLANE_GRID.copy()
    for _ in range(turns):
        grid = np.column_stack([SIDE - 1 - grid[:, 1], grid[:, 0]])
    src = np.float32([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]])
    h = cv2.getPerspectiveTransform(src, np.float32(corners_px))
    photo = cv2.warpPerspective(sheet, h, (1100, 850), borderValue=(120, 130, 140))
    truth = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h).reshape(4, 2)
    return photo, grow_corners(truth, CONFIG.border_half_width_cells)


CALIBRATION_VIEW = [[220, 90], [900, 110], [980, 800], [150, 780]]


@pytest.mark.slow
def test_marker_sheet_shows_the_four_markers_and_writes_png_and_pdf(tmp_path: Path) -> None:
    page = marker_sheet()
    assert sorted(detect_markers(page)) == list(CORNER_IDS)
    png = write_marker_sheet(tmp_path / "sheet.png")
    pdf = write_marker_sheet(tmp_path / "sub" / "sheet.pdf")
    assert sorted(detect_markers(cv2.imread(str(png), cv2.IMREAD_GRAYSCALE))) == [0, 1, 2, 3]
    assert pdf.read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError, match=r"\.png or \.pdf"):
        write_marker_sheet(tmp_path / "sheet.txt")


def test_markerless_profile_keeps_the_corners_for_every_frame() -> None:
    photo, truth = _photo(0, CALIBRATION_VIEW)
    profile = CalibrationProfile.from_image(photo)
    assert profile.south == "bottom" and not profile.marker_positions
    assert corner_errors_cells(profile.corners, truth).max() < 0.15
    # Same camera at half the resolution: the stored corners scale with the frame.
    small = cv2.resize(photo, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    assert corner_errors_cells(profile.corners_for(small), truth / 2).max() < 0.15


def test_south_option_relabels_the_corners() -> None:
    photo, truth = _photo(0, CALIBRATION_VIEW)
    left = CalibrationProfile.from_image(photo, south="left")
    # South at the image's left: the South view's TL is the board corner at the image's top-right
    # ... i.e. the truth's TR when South is at the bottom.
    assert corner_errors_cells(left.corners, np.roll(truth, -1, axis=0)).max() < 0.15
    with pytest.raises(ProfileError, match="South must be one of"):
        CalibrationProfile.from_image(photo, south="north")


@pytest.mark.slow
def test_markers_follow_a_moved_camera_and_fix_south_on_a_turned_board() -> None:
    photo, truth = _photo(0, CALIBRATION_VIEW)
    profile = CalibrationProfile.from_image(photo, use_markers=True)
    assert profile.south == "markers" and sorted(profile.marker_positions) == [0, 1, 2, 3]
    assert corner_errors_cells(profile.corners, truth).max() < 0.15
    # The camera moved: the markers give the new corners without any search.
    moved, moved_truth = _photo(0, [[260, 60], [960, 140], [930, 820], [120, 740]])
    assert corner_errors_cells(profile.corners_for(moved), moved_truth).max() < 0.1
    # The board (with its markers) turned half round: South is still the markers' South, so the
    # South-view top-left is now near the image's bottom-right.
    turned, turned_truth = _photo(2, CALIBRATION_VIEW)
    corners = profile.corners_for(turned)
    assert corner_errors_cells(corners, turned_truth).max() < 0.1
    assert corners[0][0] > 550 and corners[0][1] > 425


def test_markers_are_required_when_asked_for() -> None:
    photo, _ = _photo(0, CALIBRATION_VIEW)
    covered = photo.copy()
    covered[:, :330] = 235  # hide the left-hand markers...
    covered[:, 800:] = 235  # ...and the right-hand ones
    with pytest.raises(ProfileError, match="markers seen"):
        CalibrationProfile.from_image(covered, use_markers=True)


def test_profile_file_round_trip_and_refusals(tmp_path: Path) -> None:
    photo, _ = _photo(0, CALIBRATION_VIEW)
    profile = CalibrationProfile.from_image(photo, use_markers=True)
    path = profile.save(tmp_path / "instance" / "calibration" / "default.json")
    loaded = CalibrationProfile.load(path)
    assert np.allclose(loaded.corners, profile.corners, atol=0.01)
    assert loaded.south == "markers" and sorted(loaded.marker_positions) == [0, 1, 2, 3]
    data = json.loads(path.read_text())
    assert data["format"] == "tileref-calibration" and data["version"] == 1
    with pytest.raises(ProfileError, match="no such calibration profile"):
        CalibrationProfile.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ProfileError, match="not a readable"):
        CalibrationProfile.load(tmp_path / "bad.json")
    (tmp_path / "future.json").write_text(json.dumps({**data, "version": 99}))
    with pytest.raises(ProfileError, match="version 99"):
        CalibrationProfile.load(tmp_path / "future.json")
    (tmp_path / "broken.json").write_text(json.dumps({**data, "corners": [[0, 0], [1, 1]]}))
    with pytest.raises(ValueError):
        CalibrationProfile.load(tmp_path / "broken.json")


def _chessboard_views() -> list[np.ndarray]:
    """A printed 10x7-square chessboard (9x6 inner corners) seen from five directions."""
    square = 40
    board = np.full((7 * square + 80, 10 * square + 80), 255, np.uint8)
    for row in range(7):
        for col in range(10):
            if (row + col) % 2 == 0:
                y, x = 40 + row * square, 40 + col * square
                board[y:y + square, x:x + square] = 0
    h, w = board.shape
    views = []
    for dx, dy, skew in ((0, 0, 0), (60, 20, 40), (-50, 30, -40), (30, -40, 60), (-20, -30, -60)):
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = np.float32([[150 + dx - skew, 100 + dy], [650 + dx + skew, 110 + dy],
                          [640 + dx, 470 + dy + skew // 2], [160 + dx, 460 + dy - skew // 2]])
        warp = cv2.getPerspectiveTransform(src, dst)
        views.append(cv2.warpPerspective(board, warp, (800, 600), borderValue=200))
    return views


@pytest.mark.slow
def test_chessboard_intrinsics_fit_and_refuse_too_few_views() -> None:
    intrinsics = calibrate_from_images(_chessboard_views())
    assert intrinsics.rms < 1.0
    assert intrinsics.image_size == (800, 600)
    assert np.all(np.isfinite(intrinsics.camera_matrix))
    # Points survive a distort/undistort round trip.
    points = np.array([[100.0, 100.0], [400.0, 300.0], [700.0, 500.0]])
    back = intrinsics.undistort_points(intrinsics.distort_points(points))
    assert np.allclose(back, points, atol=0.5)
    with pytest.raises(CalibrationError, match="at least 3"):
        calibrate_from_images(_chessboard_views()[:2])


@pytest.mark.slow
def test_calibrate_command_writes_a_profile(tmp_path: Path, capsys) -> None:
    photo, truth = _photo(0, CALIBRATION_VIEW)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), photo)
    out = tmp_path / "profile.json"
    assert main(["calibrate", str(path), "--out", str(out), "--markers"]) == 0
    printed = capsys.readouterr().out
    assert "profile written to" in printed and "markers recorded: 0, 1, 2, 3" in printed
    profile = CalibrationProfile.load(out)
    assert corner_errors_cells(profile.corners, truth).max() < 0.15


def test_calibrate_command_writes_the_default_profile_in_the_instance_folder(
    tmp_path: Path, monkeypatch
) -> None:
    photo, _ = _photo(0, CALIBRATION_VIEW)
    cv2.imwrite(str(tmp_path / "frame.png"), photo)
    monkeypatch.chdir(tmp_path)
    assert main(["calibrate", "frame.png"]) == 0
    assert CalibrationProfile.load(tmp_path / "instance" / "calibration" / "default.json")


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "give a PHOTO"),
        (["nothing-here.jpg"], "nothing-here.jpg"),
        (["--marker-sheet", "sheet.txt"], ".png or .pdf"),
        (["BLANK"], "no Scrabble board found"),
        (["DARK"], "too dark"),
        (["FRAME", "--markers", "--out", "p.json", "--chessboard", "no-such-dir"],
         "not a folder"),
    ],
)
def test_calibrate_command_refuses_bad_input_in_one_line(
    argv: list[str], message: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    cv2.imwrite("BLANK.png", np.full((600, 800, 3), 200, np.uint8))
    cv2.imwrite("DARK.png", np.full((600, 800, 3), 4, np.uint8))
    cv2.imwrite("FRAME.png", _photo(0, CALIBRATION_VIEW)[0])
    argv = [a + ".png" if a in ("BLANK", "DARK", "FRAME") else a for a in argv]
    assert main(["calibrate", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "instance").exists() and not (tmp_path / "p.json").exists()
