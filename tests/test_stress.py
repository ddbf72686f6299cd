"""Stress scenes (lab.stress): their truth matches their pixels, each axis is seen in the
picture, a seed repeats, and a reading is scored against the truth as tileref eval scores one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lab.render import ALL_BOARD_STYLES, PREMIUM_LAYOUT
from lab.stress import AXES, FONT_FILES, axis_named, draw_conditions, installed_fonts, make_scene
from lab.stress.scene import FIRST_SEED
from lab.stress.score import refusal_kind, score_reading
from lab.train import training_render_seeds
from referee.cells import SIZE, Cell
from vision import BoardReading, CellReading, rectify
from vision.warning import glare_over, unsure_whether_tile

CALM = {"light": "even", "lens": "straight", "focus": "sharp", "motion": "still",
        "occlusion": "none", "size": "640 px", "jpeg": "85-95", "tilt": "0-15",
        "turn": "upright", "position": "midgame"}
"""Pinned for the tests that look at pixels: the harsh effects off, the smallest photo."""
SEED = FIRST_SEED + 11


def _cell_colours(scene) -> np.ndarray:  # type: ignore[no-untyped-def]
    """(15, 15, 3) mean colour of each cell's middle, rectified at the truth corners."""
    board = rectify(scene.photo.image, scene.photo.corners, cell_px=24, margin_cells=0.0,
                    tile_lift=0.0)
    out = np.zeros((SIZE, SIZE, 3))
    for row in range(SIZE):
        for col in range(SIZE):
            out[row, col] = board.cell_image(col, row)[6:18, 6:18].reshape(-1, 3).mean(axis=0)
    return out


def test_every_lettering_style_has_an_installed_font() -> None:
    for style in FONT_FILES:
        assert installed_fonts(style), f"no {style} font installed: make system-deps"
    assert sum(len(installed_fonts(style)) for style in FONT_FILES) >= 12


def test_the_same_seed_gives_the_same_scene() -> None:
    first, second = make_scene(SEED, **CALM), make_scene(SEED, **CALM)
    assert first.conditions == second.conditions
    assert first.jpeg == second.jpeg
    assert np.array_equal(first.photo.corners, second.photo.corners)
    assert first.photo.tiles == second.photo.tiles
    other = make_scene(SEED + 1, **CALM)
    assert other.jpeg != first.jpeg


def test_pinning_one_axis_keeps_every_other_draw() -> None:
    plain = make_scene(SEED, **CALM, font="sans")
    serif = make_scene(SEED, **CALM, font="serif")
    assert {k: v for k, v in plain.conditions.items() if k != "font"} == {
        k: v for k, v in serif.conditions.items() if k != "font"}
    assert plain.photo.tiles == serif.photo.tiles
    assert np.allclose(plain.photo.corners, serif.photo.corners)
    assert serif.details["font file"] in FONT_FILES["serif"]


def test_truth_corners_land_on_the_printed_grid_through_any_lens() -> None:
    """Rectified at the truth corners, every bare square shows its own premium colour, on a
    straight lens and a bent one (the corners move with the distortion)."""
    for lens in ("straight", "barrel", "pincushion"):
        scene = make_scene(SEED, **{**CALM, "lens": lens, "size": "1024 px"}, edition="classic",
                           labels="none", centre="plain")
        style = ALL_BOARD_STYLES["classic"]
        colours = _cell_colours(scene)
        kinds = {".": style.square, "T": style.triple_word, "D": style.double_word,
                 "t": style.triple_letter, "d": style.double_letter}

        def chroma(bgr: np.ndarray) -> np.ndarray:
            values = np.asarray(bgr, dtype=float)
            return values / max(float(values.sum()), 1.0)

        wrong = []
        for row in range(SIZE):
            for col in range(SIZE):
                if Cell(col, row) in scene.photo.tiles:
                    continue
                want = PREMIUM_LAYOUT[row][col].replace("*", "D")
                got = min(kinds, key=lambda kind: float(np.linalg.norm(
                    chroma(colours[row, col]) - chroma(np.array(kinds[kind])))))
                if got != want:
                    wrong.append(Cell(col, row).name)
        assert len(wrong) <= 3, (lens, wrong)


def test_truth_tiles_lie_where_the_tiles_are_drawn() -> None:
    scene = make_scene(SEED, **{**CALM, "size": "1024 px"}, tile_colour="black plastic",
                       edition="modern")
    grey = _cell_colours(scene).mean(axis=2)
    tiles = np.zeros((SIZE, SIZE), bool)
    for cell in scene.photo.tiles:
        tiles[cell.row, cell.col] = True
    assert tiles.sum() >= 5
    # Black tiles on a white board: every tile cell darker than every bare plain square.
    plain = np.array([[PREMIUM_LAYOUT[r][c] == "." for c in range(SIZE)] for r in range(SIZE)])
    assert grey[tiles].max() < grey[plain & ~tiles].min()


def _changed_pixels(first, second) -> int:  # type: ignore[no-untyped-def]
    """Pixels whose colour moved by more than JPEG's noise between two photos."""
    difference = np.abs(first.photo.image.astype(int) - second.photo.image.astype(int))
    return int((difference.max(axis=2) > 25).sum())


def test_each_axis_changes_the_picture() -> None:
    """Pinned to another value, every axis changes the photo (and the truth's axis values)."""
    base_conditions = {**CALM, "position": "empty"}  # the centre mark bare
    base = make_scene(SEED, **base_conditions)
    for axis in AXES:
        first = base.conditions[axis.name]
        other = next(value for value in axis.values if value != first)
        if axis.name == "size":
            other = "1024 px"
        if axis.name in ("font", "tile colour", "value", "position"):
            continue  # no tile on an empty board: below
        changed = make_scene(SEED, **{**base_conditions, axis.name.replace(" ", "_"): other})
        assert changed.conditions[axis.name] == other
        if changed.photo.image.shape != base.photo.image.shape:
            continue  # the size axis
        assert _changed_pixels(base, changed) >= 30, (axis.name, first, other)
    base = make_scene(SEED, **CALM)
    for name in ("font", "tile colour", "value", "position"):
        axis = axis_named(name)
        other = next(value for value in axis.values if value != base.conditions[name])
        changed = make_scene(SEED, **{**CALM, name.replace(" ", "_"): other})
        assert _changed_pixels(base, changed) >= 30, (name, other)


def test_a_hand_or_a_cup_hides_cells_and_the_truth_says_so() -> None:
    for occlusion in ("hand", "cup"):
        scene = make_scene(SEED, **{**CALM, "occlusion": occlusion})
        assert scene.photo.covered, occlusion
        assert all(cell.on_board() for cell in scene.photo.covered)


def test_conditions_are_drawn_from_their_axes_and_refuse_unknown_ones() -> None:
    rng = np.random.default_rng(1)
    conditions = draw_conditions(rng, tile_colour="wood")
    assert list(conditions) == [axis.name for axis in AXES]
    assert conditions["tile colour"] == "wood"
    for name, value in conditions.items():
        assert value in axis_named(name).values
    with pytest.raises(ValueError, match="tile colour must be one of"):
        draw_conditions(rng, tile_colour="gold")
    with pytest.raises(ValueError, match="no axis named"):
        draw_conditions(rng, colour="wood")


def test_stress_seeds_are_none_a_model_trained_on() -> None:
    trained = training_render_seeds()
    assert all(seed < FIRST_SEED for seed in trained)


def _perfect_reading(scene) -> BoardReading:  # type: ignore[no-untyped-def]
    cells = tuple(CellReading(cell.name, "?" if tile.blank else tile.letter,
                              tile.rotation or 0, blank=tile.blank)
                  for cell, tile in sorted(scene.photo.tiles.items(),
                                           key=lambda item: (item[0].row, item[0].col))
                  if cell not in scene.photo.covered)
    return BoardReading(cells, tuple(map(tuple, scene.photo.corners)))


def test_a_reading_of_the_truth_scores_perfectly_in_any_labelling() -> None:
    scene = make_scene(SEED, **CALM)
    reading = _perfect_reading(scene)
    for quarter_turns in range(4):
        # The reader may label the grid from another side: the score turns it back.
        result = score_reading(scene, reading.turned(quarter_turns))
        assert result.found
        assert result.occupancy_wrong == 0 and result.letters_wrong == 0
        assert result.rotations_wrong == 0
        assert result.letters == len(scene.photo.tiles) - len(scene.photo.covered)
        assert result.cells == SIZE * SIZE - len(scene.photo.covered)


def test_a_wrong_reading_is_scored_wrong() -> None:
    scene = make_scene(SEED, **CALM)
    reading = _perfect_reading(scene)
    changed = next(cell for cell in reading.cells[1:] if not cell.blank)
    wrong_letter = "Q" if changed.letter != "Q" else "Z"
    empty = next(Cell(col, row).name for row in range(SIZE) for col in range(SIZE)
                 if Cell(col, row) not in scene.photo.tiles
                 and Cell(col, row) not in scene.photo.covered)
    cells = (CellReading(changed.cell, wrong_letter, (changed.rotation + 90) % 360),
             *(cell for cell in reading.cells[1:] if cell is not changed),
             CellReading(empty, "E", warning_details=(glare_over(Cell.parse(empty)),)))
    # The first tile dropped, one misread and turned, an empty square read as a tile.
    result = score_reading(scene, BoardReading(cells, reading.corners))
    assert result.missed_tiles == 1 and result.false_tiles == 1 and result.occupancy_wrong == 2
    assert result.false_named == 1 and result.missed_named == 0
    assert result.letters_wrong == 1 and result.rotations_wrong == 1
    far = np.asarray(reading.corners) + 40.0
    assert not score_reading(scene, BoardReading(reading.cells, tuple(map(tuple, far)))).found


def test_mistakes_count_as_named_only_where_a_warning_names_them() -> None:
    scene = make_scene(SEED, **CALM)
    reading = _perfect_reading(scene)
    first, second = (Cell.parse(cell.cell) for cell in reading.cells[:2])
    empty = next(Cell(col, row) for row in range(SIZE) for col in range(SIZE)
                 if Cell(col, row) not in scene.photo.tiles
                 and Cell(col, row) not in scene.photo.covered)
    # Two tiles dropped: one named as a doubt, one not; an empty square named too, and a glare
    # over the second that says nothing of a tile hiding there.
    warnings = (unsure_whether_tile(first), unsure_whether_tile(empty), glare_over(second))
    # And two letters misread, the one under glare named.
    third, fourth = [cell for cell in reading.cells[2:] if not cell.blank][:2]
    misread = [replace(third, letter="Q" if third.letter != "Q" else "Z",
                       warning_details=(glare_over(Cell.parse(third.cell)),)),
               replace(fourth, letter="Q" if fourth.letter != "Q" else "Z")]
    cells = (*misread, *(cell for cell in reading.cells[2:] if cell not in (third, fourth)))
    result = score_reading(scene, BoardReading(cells, reading.corners, warnings))
    assert result.missed_tiles == 2 and result.missed_named == 1 and result.empty_named == 1
    assert f"{first.name} -tile" in result.mistakes
    assert f"{second.name} -tile silent" in result.mistakes
    assert result.letters_wrong == 2 and result.letters_wrong_named == 1


def test_a_refusal_is_counted_by_the_reason_the_reader_gives_as_data() -> None:
    from lab.stress.score import score_refusal
    from vision import BoardNotFoundError, ImageQualityError, VisionError

    scene = make_scene(FIRST_SEED, **CALM)
    cut = score_refusal(scene, BoardNotFoundError("board is cut off by  the image edge",
                                                  reason="cut off"))
    assert (cut.reason, cut.refusal, cut.found) == ("cut off",
                                                    "board is cut off by the image edge", False)
    assert score_refusal(scene, ImageQualityError("photo too dark", reason="too dark")).reason \
        == "too dark"
    assert score_refusal(scene, VisionError("not an image")).reason == "VisionError"


def test_refusals_group_by_kind() -> None:
    assert refusal_kind("photo too blurry around M8 (12.3 px)") == \
        refusal_kind("photo too blurry around C13 (9 px)")
    assert refusal_kind("no Scrabble board found") != refusal_kind("photo too blurry")


def test_a_cached_scene_is_the_scene(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from lab.stress import cached_scene

    made = make_scene(SEED + 2)
    first = cached_scene(SEED + 2, cache_dir=tmp_path)  # renders and stores
    again = cached_scene(SEED + 2, cache_dir=tmp_path)  # reads back
    for scene in (first, again):
        assert scene.jpeg == made.jpeg and scene.conditions == made.conditions
        assert scene.photo.tiles == made.photo.tiles
        assert scene.photo.covered == made.photo.covered
        assert np.array_equal(scene.photo.image, made.photo.image)
    assert len(list(tmp_path.rglob("*.pickle"))) == 1


@pytest.mark.parametrize("change", [
    {"premium_labels": "emoji"}, {"centre_mark": "moon"}, {"value_place": "top"},
    {"shadow_shape": "cat"}, {"defocus": -1.0}, {"distortion": 0.9},
    {"tile_font": "NoSuchFont-Bold.ttf"}, {"table": "lava"}, {"board_style": "golden"},
])
def test_bad_stress_options_are_render_errors(change) -> None:  # type: ignore[no-untyped-def]
    from lab.render import RenderError, RenderOptions

    with pytest.raises(RenderError):
        RenderOptions(**change)


def test_the_held_out_pool_draws_every_style_and_colour() -> None:
    from lab.stress.heldout import face_pool

    pool = face_pool(per_letter=30, seed=1)
    assert set(pool.styles) == set(FONT_FILES)
    assert set(pool.colours) == set(axis_named("tile colour").values)
    assert len(pool.labels) == len(pool.x) == len(pool.styles)
    # A model held out from "serif" trains on the rest: every letter is still there.
    letters = {label[0] for label, style in zip(pool.labels, pool.styles, strict=True)
               if style != "serif"}
    assert letters == {label[0] for label in pool.labels}


def test_the_blur_curve_bins_tiles_and_draws_its_pictures(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import cv2

    from lab.stress.blurcurve import BlurPoint, binned, draw_curve, draw_tiles

    crop = np.full((48, 48, 3), 200, np.uint8)
    points = [BlurPoint(1, 3.5, 10, 10, 10, [crop]), BlurPoint(2, 3.9, 10, 8, 10, [crop]),
              BlurPoint(3, 15.0, 20, 5, 12, [crop])]
    rows = binned(points)
    first = next(row for row in rows if row["blur_from"] <= 3.5 < row["blur_to"])
    assert first["tiles"] == 20 and first["letters_right"] == 18
    assert sum(row["tiles"] for row in rows) == 40
    draw_curve([(rows, points, "one"), (rows[:3], points[:1], "two")], 12.0, 10.0,
               tmp_path / "curve.png")
    draw_tiles(points, tmp_path / "tiles.png")
    curve = cv2.imread(str(tmp_path / "curve.png"))
    assert curve is not None and curve.shape[1] == 900
    assert (curve[:, :, 2].astype(int) - curve[:, :, 0] > 100).any()  # the red curve is drawn
    assert cv2.imread(str(tmp_path / "tiles.png")) is not None


def test_an_enlarged_render_keeps_its_corners_on_the_grid() -> None:
    """48 MP scenes are rendered at 12 MP and enlarged: the corners must move with the pixels."""
    from lab.stress.scene import _enlarged

    scene = make_scene(SEED, **CALM)
    big = _enlarged(scene.photo, 2)
    assert big.image.shape[:2] == (2 * scene.photo.image.shape[0], 2 * scene.photo.image.shape[1])
    small = rectify(scene.photo.image, scene.photo.corners, cell_px=24, margin_cells=0.0,
                    tile_lift=0.0).image.astype(int)
    large = rectify(big.image, big.corners, cell_px=24, margin_cells=0.0,
                    tile_lift=0.0).image.astype(int)
    assert np.abs(small - large).mean() < 6


def test_an_edition_held_out_of_the_occupancy_model_is_not_learnt(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import lab.train as train
    from lab.render import BOARD_STYLES

    boards = train.rendered_occupancy_boards(3)
    assert boards and {board.edition for board in boards} <= set(BOARD_STYLES)
    first = boards[0].edition

    class Learnt(Exception):
        """What train_mlp was given, in place of training."""

    def learn(x, labels, **_):  # type: ignore[no-untyped-def]
        raise Learnt(len(x), len(labels))

    monkeypatch.setattr(train, "train_mlp", learn)
    for editions, kept in (([first], [b for b in boards if b.edition == first]),
                           ([e for e in BOARD_STYLES if e != first],
                            [b for b in boards if b.edition != first]), (None, list(boards))):
        if not kept:
            continue
        with pytest.raises(Learnt) as learnt:
            train.train_occupancy([], renders=3, editions=editions)
        cells = sum(len(board.occupied) for board in kept)
        assert learnt.value.args == (cells, cells)
