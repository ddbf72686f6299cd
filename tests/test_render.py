"""Rendered board photos: the truth they carry must match the pixels they show."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.render import (
    BOARD_STYLES,
    PREMIUM_LAYOUT,
    RenderError,
    RenderOptions,
    random_position,
    render_board_photo,
)
from lab.render.__main__ import main
from lab.truth import DEV_PHOTOS as PHOTOS
from lab.truth import read_truth
from lab.video import VideoError, read_y4m, write_y4m, y4m_header
from referee.boardtext import Tile, parse_board_text
from referee.cells import SIZE, Cell, Seat

POSITION = parse_board_text("""\
...............
...............
...............
...............
...............
...............
.......Q.......
.....JUMPS.....
.......A.......
.......r.......
.......K.......
...............
...............
...............
...............
""")


def grid_to_image(corners: np.ndarray) -> np.ndarray:
    grid = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
    return cv2.getPerspectiveTransform(grid, corners.astype(np.float32))


def sample(image: np.ndarray, homography: np.ndarray, x: float, y: float) -> np.ndarray:
    point = cv2.perspectiveTransform(np.float64([[[x, y]]]), homography)[0, 0]
    col, row = int(round(point[0])), int(round(point[1]))
    return image[row - 1:row + 2, col - 1:col + 2].reshape(-1, 3).mean(axis=0)


def nearest_premium(colour: np.ndarray, style_name: str) -> str:
    style = BOARD_STYLES[style_name]
    candidates = {".": style.square, "T": style.triple_word, "D": style.double_word,
                  "t": style.triple_letter, "d": style.double_letter}
    # Compare hues, not brightness: vignetting and the light gradient darken whole regions.
    def chroma(bgr: object) -> np.ndarray:
        values = np.asarray(bgr, dtype=float)
        return values / max(float(values.sum()), 1.0)

    return min(candidates, key=lambda kind: float(np.linalg.norm(
        chroma(colour) - chroma(candidates[kind]))))


def test_triple_word_squares_lie_under_the_truth_corners_straight_on() -> None:
    photo = render_board_photo({}, seed=1, width=800, height=600, options=RenderOptions.clean())
    homography = grid_to_image(photo.corners)
    style = BOARD_STYLES["classic"]
    for name in ("A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15"):
        cell = Cell.parse(name)
        # A corner of the square, clear of the printed words in its middle.
        colour = sample(photo.image, homography, cell.col + 0.15, cell.row + 0.15)
        assert np.abs(colour - np.array(style.triple_word)).max() < 40, name


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_every_premium_square_is_where_the_corners_say_in_oblique_turned_views(seed: int) -> None:
    rng = np.random.default_rng(seed)
    options = RenderOptions.random(rng, brightness=1.0, white_balance=(1.0, 1.0, 1.0), glare=0.0,
                                   shadow=0.0, hand=False, blur=0.5, light_gradient=0.1,
                                   tilt=35.0, azimuth=90.0 * seed + 10)
    photo = render_board_photo({}, seed=seed, width=960, height=720, options=options)
    homography = grid_to_image(photo.corners)
    wrong = []
    for row in range(SIZE):
        for col in range(SIZE):
            expected = PREMIUM_LAYOUT[row][col].replace("*", "D")
            colour = sample(photo.image, homography, col + 0.2, row + 0.2)
            if nearest_premium(colour, options.board_style) != expected:
                wrong.append(Cell(col, row).name)
    assert len(wrong) <= 3, wrong


@pytest.mark.slow
def test_tile_faces_are_drawn_raised_above_their_squares() -> None:
    """In a steep view the face of a tall tile lands nearer the far side than its square."""
    options = RenderOptions.clean(tilt=45.0, tile_height=0.5, tile_colour="white plastic")
    tile = {Cell.parse("H8"): Tile("?", True)}
    empty = render_board_photo({}, seed=7, width=800, height=600, options=options)
    full = render_board_photo(tile, seed=7, width=800, height=600, options=options)
    changed = np.abs(full.image.astype(int) - empty.image.astype(int)).max(axis=2) > 30
    bright = full.image.astype(int).min(axis=2) > 180
    rows, cols = np.nonzero(changed & bright)
    assert rows.size > 50
    face = np.array([cols.mean(), rows.mean()])
    top = project_cell_centre(full.corners, 0.0)
    # The face centre is off the square's centre towards the top of the image (the far side).
    cell_px = np.linalg.norm(full.corners[1] - full.corners[0]) / SIZE
    assert face[1] < top[1] - 0.15 * cell_px


def project_cell_centre(corners: np.ndarray, lift: float) -> np.ndarray:
    homography = grid_to_image(corners)
    return cv2.perspectiveTransform(np.float64([[[7.5, 7.5 - lift]]]), homography)[0, 0]


@pytest.mark.parametrize("azimuth", [0.0, 90.0, 180.0, 270.0])
def test_orientation_turns_the_photo_so_south_is_at_the_bottom(azimuth: float) -> None:
    options = RenderOptions.clean(azimuth=azimuth, tilt=20.0)
    photo = render_board_photo({}, seed=2, width=640, height=480, options=options)
    assert photo.orientation == (360 - int(azimuth)) % 360
    # Turning the image by the orientation puts A1 (the first corner) at the top left.
    height, width = photo.image.shape[:2]
    points = photo.corners.copy()
    for _ in range(photo.orientation // 90):
        points = np.column_stack([height - 1 - points[:, 1], points[:, 0]])
        height, width = width, height
    assert np.argmin(points.sum(axis=1)) == 0


@pytest.mark.slow
def test_sidecars_round_trip_through_read_truth(tmp_path: Path) -> None:
    photo = render_board_photo(POSITION, seed=9, width=640, height=480)
    path = tmp_path / "board.jpg"
    written = photo.save(path)
    assert written == [path, Path(f"{path}.txt")]
    truth = read_truth(path)
    assert truth.orientation == photo.orientation
    assert np.allclose(np.array(truth.corners), photo.corners, atol=0.06)
    for row in range(SIZE):
        for col in range(SIZE):
            tile = POSITION.get(Cell(col, row))
            cell = truth.grid[row][col]
            assert cell.letter == (tile.letter if tile else None)
            assert cell.blank == (tile.blank if tile else False)
    assert not truth.has_rotations
    assert cv2.imread(str(path)).shape == (480, 640, 3)


@pytest.mark.slow
def test_rotated_tiles_write_a_rot_sidecar(tmp_path: Path) -> None:
    tiles = random_position(np.random.default_rng(4), words=16, seats=list(Seat))
    assert {tile.rotation for tile in tiles.values()} == {0, 90, 180, 270}
    photo = render_board_photo(tiles, seed=4, width=640, height=480,
                               options=RenderOptions.clean())
    path = tmp_path / "arch.png"
    photo.save(path)
    truth = read_truth(path)
    assert truth.has_rotations
    for cell, tile in tiles.items():
        assert truth.grid[cell.row][cell.col].rotation == tile.rotation
        assert truth.grid[cell.row][cell.col].letter == ("?" if tile.letter == "?"
                                                         else tile.letter)


@pytest.mark.slow
def test_a_hand_hides_cells_and_the_truth_says_so(tmp_path: Path) -> None:
    tiles = random_position(np.random.default_rng(1), words=20)
    options = RenderOptions.clean(hand=True)
    photo = render_board_photo(tiles, seed=11, width=640, height=480, options=options)
    assert photo.covered
    path = tmp_path / "hand.jpg"
    photo.save(path)
    truth = read_truth(path)
    for cell in photo.covered:
        assert truth.grid[cell.row][cell.col].letter == "?"
    assert "hidden by a hand" in truth.notes


def test_our_sidecar_headers_match_the_real_photos() -> None:
    real = sorted(PHOTOS.glob("*.txt"))
    real_truths = [read_truth(Path(str(path)[:-4])) for path in real if ".rot." not in path.name]
    assert real_truths
    real_keys = set.intersection(*(set(truth.headers) for truth in real_truths))
    photo = render_board_photo(POSITION, seed=1, width=320, height=240)
    ours = photo.truth_text().splitlines()
    keys = {line.split(":")[0].lstrip("# ").split(" (")[0].strip() for line in ours
            if line.startswith("#")}
    assert real_keys <= keys


@pytest.mark.slow
def test_a_seed_repeats_a_render_exactly() -> None:
    first = render_board_photo(POSITION, seed=21, width=480, height=360)
    again = render_board_photo(POSITION, seed=21, width=480, height=360)
    other = render_board_photo(POSITION, seed=22, width=480, height=360)
    assert np.array_equal(first.image, again.image)
    assert np.array_equal(first.corners, again.corners)
    assert first.options == again.options
    assert not np.array_equal(first.image, other.image)


@pytest.mark.slow
def test_photo_effects_change_the_picture_in_the_expected_direction() -> None:
    base = RenderOptions.clean()
    plain = render_board_photo(POSITION, seed=5, width=480, height=360, options=base).image
    dim = render_board_photo(POSITION, seed=5, width=480, height=360,
                             options=RenderOptions.clean(brightness=0.4)).image
    glare = render_board_photo(POSITION, seed=5, width=480, height=360,
                               options=RenderOptions.clean(glare=1.0)).image
    blurred = render_board_photo(POSITION, seed=5, width=480, height=360,
                                 options=RenderOptions.clean(blur=3.0)).image
    assert dim.mean() < 0.6 * plain.mean()
    assert (glare >= 250).all(axis=2).sum() > (plain >= 250).all(axis=2).sum() + 100

    def sharpness(image: np.ndarray) -> float:
        return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())

    assert sharpness(blurred) < 0.5 * sharpness(plain)


@pytest.mark.slow
def test_a_sheen_washes_the_far_tiles_tops_and_nothing_else() -> None:
    # Tiles along the far edge (row 1 in a straight view) and the near one (row 15): the sheen
    # whitens the far tiles' tops, letters and all, and leaves the near tiles and every square
    # as they were, to the pixel.
    position = {Cell(col, row): Tile("E") for col in range(5, 10) for row in (0, 14)}
    plain = render_board_photo(position, seed=5, width=800, height=600,
                               options=RenderOptions.clean()).image.astype(int)
    shone = render_board_photo(position, seed=5, width=800, height=600,
                               options=RenderOptions.clean(sheen=1.0)).image.astype(int)
    corners = render_board_photo({}, seed=5, width=800, height=600,
                                 options=RenderOptions.clean()).corners
    homography = grid_to_image(corners)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        (left, top), (right, bottom) = cv2.perspectiveTransform(
            np.float64([[[x0, y0], [x1, y1]]]), homography)[0]
        return slice(int(top), int(bottom)), slice(int(left), int(right))

    far, near = box(5.2, 0.2, 9.8, 0.8), box(5.2, 14.2, 9.8, 14.8)
    assert shone[far].mean() > plain[far].mean() + 30
    # Letters greyed: the far tiles' darkest ink is much lighter than it was.
    assert np.percentile(shone[far], 2) > np.percentile(plain[far], 2) + 60
    changed = np.abs(shone - plain).max(axis=2) > 0
    assert not changed[near].any()
    changed[box(4.8, -0.5, 10.2, 1.2)] = False  # the far tiles, raised faces and all
    assert not changed.any()


@pytest.mark.parametrize(
    "call",
    [
        lambda: render_board_photo({Cell(15, 0): Tile("A")}, seed=1),
        lambda: render_board_photo({Cell(0, 0): "A"}, seed=1),  # type: ignore[dict-item]
        lambda: render_board_photo({}, seed=1, width=10),
        lambda: RenderOptions(tilt=80),
        lambda: RenderOptions(board_style="plaid"),
        lambda: RenderOptions(tile_set="klingon"),
        lambda: RenderOptions(sheen=1.5),
    ],
)
def test_bad_input_is_a_render_error(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RenderError):
        call()


@pytest.mark.slow
def test_command_line_writes_photos_and_sidecars(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main([str(tmp_path), "-n", "2", "--width", "320", "--height", "240", "--seats",
                 "SN"]) == 0
    photos = sorted(tmp_path.glob("*.jpg"))
    assert len(photos) == 2
    for path in photos:
        truth = read_truth(path)
        assert truth.corners is not None
    assert "2/2" in capsys.readouterr().err
    assert main([str(tmp_path), "-n", "0"]) == 2
    assert main([str(tmp_path), "--seats", "Q"]) == 2


def test_y4m_header_and_frame_sizes(tmp_path: Path) -> None:
    frames = [render_board_photo(POSITION, seed=s, width=320, height=240).image for s in (1, 2, 3)]
    path = write_y4m(tmp_path / "cam.y4m", frames, fps=5)
    data = path.read_bytes()
    header = y4m_header(320, 240, 5)
    assert data.startswith(header)
    assert header.decode().split() == ["YUV4MPEG2", "W320", "H240", "F5:1", "Ip", "A1:1",
                                       "C420jpeg"]
    frame_size = len(b"FRAME\n") + 320 * 240 * 3 // 2
    assert len(data) == len(header) + 3 * frame_size
    assert data[len(header) + frame_size:].startswith(b"FRAME\n")
    back = read_y4m(path)
    assert len(back) == 3
    # 4:2:0 loses chroma detail only: the picture comes back close.
    assert np.abs(back[1].astype(int) - frames[1].astype(int)).mean() < 8


def test_y4m_refuses_odd_or_mixed_frames(tmp_path: Path) -> None:
    with pytest.raises(VideoError):
        write_y4m(tmp_path / "a.y4m", [np.zeros((241, 320, 3), np.uint8)])
    with pytest.raises(VideoError):
        write_y4m(tmp_path / "b.y4m", [np.zeros((240, 320, 3), np.uint8),
                                       np.zeros((120, 160, 3), np.uint8)])
    with pytest.raises(VideoError):
        write_y4m(tmp_path / "c.y4m", [])
    assert not (tmp_path / "b.y4m").exists()


@pytest.mark.slow
@pytest.mark.browser
def test_chromium_plays_our_y4m_as_its_camera(tmp_path: Path, launch_browser) -> None:  # type: ignore[no-untyped-def]
    frame = np.zeros((240, 320, 3), np.uint8)
    frame[:, :160] = (0, 0, 255)  # red on the left, blue on the right (BGR)
    frame[:, 160:] = (255, 0, 0)
    video = write_y4m(tmp_path / "camera.y4m", [frame] * 3)
    page = launch_browser(fake_video=video).new_page()
    page.route("http://localhost:9/", lambda route: route.fulfill(
        content_type="text/html", body="<video id=v autoplay muted playsinline></video>"))
    page.goto("http://localhost:9/")
    width, height, left, right = page.evaluate("""async () => {
      const video = document.getElementById('v');
      video.srcObject = await navigator.mediaDevices.getUserMedia({video: true});
      await video.play();
      await new Promise(done => setTimeout(done, 500));
      const canvas = new OffscreenCanvas(320, 240), g = canvas.getContext('2d');
      g.drawImage(video, 0, 0, 320, 240);
      const at = x => Array.from(g.getImageData(x, 120, 1, 1).data.slice(0, 3));
      return [video.videoWidth, video.videoHeight, at(40), at(280)];
    }""")
    assert (width, height) == (320, 240)
    assert left[0] > 200 and left[2] < 50  # RGB: red
    assert right[2] > 200 and right[0] < 50  # blue


def test_one_seed_is_a_steady_camera_only_the_tiles_change() -> None:
    options = RenderOptions.random(np.random.default_rng(3), hand=False, jpeg_quality=None,
                                   tilt=25.0)
    before = render_board_photo(POSITION, seed=8, width=640, height=480, options=options)
    played = dict(POSITION)
    played[Cell.parse("L4")] = Tile("S")
    after = render_board_photo(played, seed=8, width=640, height=480, options=options)
    assert np.array_equal(before.corners, after.corners)
    changed = np.abs(after.image.astype(int) - before.image.astype(int)).max(axis=2) > 0
    rows, cols = np.nonzero(changed)
    assert rows.size > 20
    homography = grid_to_image(after.corners)
    centre = cv2.perspectiveTransform(np.float64([[[11.5, 3.5]]]), homography)[0, 0]
    cell_px = np.linalg.norm(after.corners[1] - after.corners[0]) / SIZE
    distance = np.hypot(cols - centre[0], rows - centre[1])
    assert distance.max() < 2.5 * cell_px


@pytest.mark.parametrize("seed", range(6))
def test_the_whole_board_stays_in_the_frame(seed: int) -> None:
    options = RenderOptions.random(np.random.default_rng(seed), tilt=50.0, fill=0.95, offset=1.0)
    photo = render_board_photo({}, seed=seed, width=400, height=300, options=options)
    frame = options.frame_width
    outer = cv2.perspectiveTransform(
        np.float64([[[-frame, -frame], [SIZE + frame, -frame], [SIZE + frame, SIZE + frame],
                     [-frame, SIZE + frame]]]), grid_to_image(photo.corners))[0]
    assert outer.min() >= -1 and outer[:, 0].max() <= 401 and outer[:, 1].max() <= 301
