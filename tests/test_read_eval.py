"""`tileref eval --stage reading`: rows, totals, CSV, the in-sample warning, bad folders."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from lab.eval_reading import (
    IN_SAMPLE_NOTE,
    evaluate_photo,
    game_predecessors,
    known_board,
    print_table,
    run_reading_eval,
)
from lab.render import RenderOptions, render_board_photo
from lab.truth import DEV_PHOTOS as PHOTOS
from lab.truth import TruthCell, errata_entries, load_errata, read_truth
from referee.boardtext import Tile
from referee.cells import Cell
from vision.tuning import DISPUTE_CONFIG
from webui.cli import main


def _render_folder(folder: Path) -> Path:
    tiles = {Cell(col, 7): Tile(letter, False, None)
             for col, letter in zip(range(4, 11), "READING", strict=True)}
    photo = render_board_photo(tiles, seed=12, width=1200, height=900,
                               options=RenderOptions.clean())
    path = folder / "tileref__render__reading.png"
    photo.save(path)
    return path


@pytest.mark.slow
def test_a_photo_row_counts_what_the_truth_says(tmp_path) -> None:
    path = _render_folder(tmp_path)
    row = evaluate_photo(path, given_corners=True)
    assert row.found and row.error == ""
    assert row.tiles == 7
    assert row.occupancy_false_tiles + row.occupancy_missed_tiles <= 1
    assert row.letters_scored >= 6
    assert row.letter_errors <= 1
    assert row.ms > 0


@pytest.mark.slow
def test_a_photo_is_read_with_the_settings_a_benchmark_weighs(tmp_path) -> None:
    # bench ocr reads the truth photos with Tesseract asked at other thresholds: the setting
    # must reach the reader. Every letter under 1.01 is flagged, none under 0.
    path = _render_folder(tmp_path)
    wary = evaluate_photo(path, given_corners=True,
                          config=replace(DISPUTE_CONFIG, low_confidence=1.01))
    trusting = evaluate_photo(path, given_corners=True,
                              config=replace(DISPUTE_CONFIG, low_confidence=0.0))
    right = wary.corrected_letters_scored - wary.corrected_letter_errors
    assert right >= 6
    assert wary.right_named == right
    assert trusting.right_named == 0


@pytest.mark.slow
def test_in_sample_run_says_it_is_optimistic_and_writes_the_csv(tmp_path, capsys) -> None:
    _render_folder(tmp_path)
    out = tmp_path / "out" / "reading.csv"
    assert run_reading_eval(tmp_path, out, given_corners=True, in_sample=True) == 0
    printed = capsys.readouterr().out
    assert IN_SAMPLE_NOTE in printed
    assert "occupancy:" in printed and "letters:" in printed and "rotations:" in printed
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 1
    assert rows[0]["photo"] == "tileref__render__reading.png"
    assert {"found", "corner_error_cells", "occupancy_false_tiles", "occupancy_missed_tiles",
            "letter_errors", "rotation_errors", "ms"} <= set(rows[0])


@pytest.mark.slow
def test_scale_shrinks_every_photo_before_it_is_read(tmp_path, capsys) -> None:
    # The render's truth corners shrink with it: its cells measure half as many pixels, the
    # board is still read, and the table says the photos were shrunk.
    path = _render_folder(tmp_path)
    whole = evaluate_photo(path, given_corners=True)
    half = evaluate_photo(path, given_corners=True, scale=0.5)
    assert whole.cell_px is not None and half.cell_px is not None
    assert half.cell_px == pytest.approx(whole.cell_px / 2)
    assert half.found and half.letters_scored >= 6
    assert main(["eval", str(tmp_path), "--in-sample", "--given-corners", "--scale", "0.5"]) == 0
    assert "every photo shrunk to 0.5 of its size" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("scale", ["0", "1.5", "-1"])
def test_a_scale_out_of_range_exits_2_in_one_line(scale: str, tmp_path, capsys) -> None:
    _render_folder(tmp_path)
    assert main(["eval", str(tmp_path), "--in-sample", "--scale", scale]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tileref eval: --scale must be from 0.05 to 1") and err.count("\n") == 1


@pytest.mark.slow
def test_a_training_seed_trains_the_held_out_models_from_it(tmp_path, capsys,
                                                            monkeypatch) -> None:
    # --training-seed asks how much a figure owes to one seed: the held-out models must be
    # trained (or fetched from the cache) with that seed, and the table must say so.
    import lab.train

    asked = []

    def loso_models(sources, *, settings, progress):
        asked.append((sources, settings))
        return {}  # no held-out model: the photo is read by the committed ones

    monkeypatch.setattr(lab.train, "loso_models", loso_models)
    _render_folder(tmp_path)
    assert main(["eval", str(tmp_path), "--given-corners", "--training-seed", "7"]) == 0
    assert asked == [({"tileref__render"}, lab.train.TrainingSettings(seed=7))]
    assert "training tiles rendered from seed 7 (--training-seed)" in capsys.readouterr().out
    assert main(["eval", str(tmp_path), "--given-corners"]) == 0
    assert asked[-1][1] == lab.train.TrainingSettings()  # the committed models' seed
    assert "--training-seed" not in capsys.readouterr().out
    # The committed models have one seed of their own: nothing to ask them.
    assert main(["eval", str(tmp_path), "--in-sample", "--training-seed", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tileref eval: --training-seed trains leave-one-source-out models")
    assert err.count("\n") == 1


def test_a_folder_that_is_not_there_exits_2(tmp_path, capsys) -> None:
    assert main(["eval", str(tmp_path / "missing"), "--stage", "reading"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_folder_without_truth_exits_2(tmp_path, capsys) -> None:
    assert main(["eval", str(tmp_path), "--stage", "reading", "--in-sample"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.slow
def test_real_photo_scores_with_the_committed_model_are_marked_in_sample() -> None:
    # The committed model has seen this photo: the row exists and is scored, and the printed
    # table says the figures are in-sample (the honest ones come from the default run).
    photo = PHOTOS / "scrabscrap__scrabble-scraper__board-neu_warp-07.jpg"
    row = evaluate_photo(photo, given_corners=True)
    assert row.found and row.tile_set == "german"
    assert row.letters_scored > 0
    assert np.isfinite(row.ms)


def test_every_truth_erratum_names_a_real_cell_and_what_its_truth_file_says() -> None:
    # The errata are checked against the read-only truth files: an erratum whose truth file has
    # since been corrected (or a mistyped cell) shows up here rather than skewing the figures.
    errata = load_errata()
    assert errata
    entries = errata_entries()
    assert sum(len(cells) for cells in errata.values()) == len(entries)
    for entry in entries:
        truth = read_truth(PHOTOS / entry["photo"])
        cell = Cell.parse(entry["cell"])
        said = truth.grid[cell.row][cell.col]
        token = "." if said.letter is None else (said.letter.lower() if said.blank else said.letter)
        assert token == entry["truth"], (entry["photo"], entry["cell"])
        assert entry["reason"]


@pytest.mark.slow
def test_corrected_truth_is_scored_beside_the_plain_truth(tmp_path) -> None:
    path = _render_folder(tmp_path)
    plain = evaluate_photo(path, given_corners=True, errata={})
    assert plain.errata == 0
    assert plain.corrected_missed_tiles == plain.occupancy_missed_tiles
    # Say the first letter is covered (not scored) and an empty square holds a blank: the plain
    # figures stay as they were, the corrected ones count the blank as missed.
    errata = {path.name: {(4, 7): None, (0, 0): TruthCell("?", blank=True)}}
    row = evaluate_photo(path, given_corners=True, errata=errata)
    assert row.errata == 2
    assert (row.occupancy_false_tiles, row.occupancy_missed_tiles) == (
        plain.occupancy_false_tiles, plain.occupancy_missed_tiles)
    assert row.corrected_missed_tiles == plain.occupancy_missed_tiles + 1
    assert row.corrected_letters_scored == plain.letters_scored - 1


@pytest.mark.slow
def test_wrong_cells_are_named_against_the_corrected_truth(tmp_path, capsys) -> None:
    path = _render_folder(tmp_path)
    plain = evaluate_photo(path, given_corners=True, errata={})
    assert plain.mistakes == ""  # a clean render reads right
    # Claim a blank on an empty corner and an X where R lies: both are named, in cell order.
    errata = {path.name: {(0, 0): TruthCell("?", blank=True), (4, 7): TruthCell("X")}}
    row = evaluate_photo(path, given_corners=True, errata=errata)
    assert row.mistakes == "A1 -tile; E8 X>R"
    print_table([row])
    printed = capsys.readouterr().out
    assert "wrong cells" in printed and "A1 -tile; E8 X>R" in printed


@pytest.mark.slow
def test_the_warnings_that_name_a_square_are_scored_against_the_corrected_truth(tmp_path) -> None:
    # Doubt two empty squares (the reader names both "unsure whether ... holds a tile") and
    # claim a blank on one of them: one warning found a missed tile, the other sent the players
    # to an empty square.
    from tests.support.occupancy import DoubtingOccupancy
    from vision.letters.classify import TileClassifier

    path = _render_folder(tmp_path)
    doubting = DoubtingOccupancy({Cell.parse("A1"): 0.3, Cell.parse("C3"): 0.3})
    models = (doubting, TileClassifier.load())
    plain = evaluate_photo(path, given_corners=True, models=models, errata={})
    assert (plain.missed_named, plain.empty_named) == (0, 2)
    errata = {path.name: {(0, 0): TruthCell("?", blank=True)}}
    row = evaluate_photo(path, given_corners=True, models=models, errata=errata)
    assert (row.missed_named, row.empty_named) == (1, 1)
    assert row.corrected_missed_tiles == plain.corrected_missed_tiles + 1


@pytest.mark.slow
def test_wrong_cells_are_scored_as_flagged_or_not(tmp_path, capsys) -> None:
    # Make the occupancy model sure of three plain squares: they are read as tiles with no
    # letter, three blanks of a set of two, so each is flagged. Claim the R is an empty square
    # too: a fourth false tile, read surely as a letter and flagged by nothing. Then claim a K
    # lies on one of those squares and an X where the first A is: two letters read wrong, the
    # blank read on the K's square flagged, the A not.
    from tests.support.occupancy import DoubtingOccupancy
    from vision.letters.classify import TileClassifier

    path = _render_folder(tmp_path)
    squares = [Cell.parse(name) for name in ("B1", "C1", "E1")]
    models = (DoubtingOccupancy(dict.fromkeys(squares, 0.99)), TileClassifier.load())
    errata = {path.name: {(4, 7): TruthCell(None)}}
    row = evaluate_photo(path, given_corners=True, models=models, errata=errata)
    assert (row.corrected_false_tiles, row.false_named) == (4, 3)
    assert (row.wrong_named, row.right_named) == (0, 0)
    print_table([row])
    assert "3 of the 4 squares read as tiles carry one" in capsys.readouterr().out
    errata = {path.name: {(4, 7): TruthCell(None), (1, 0): TruthCell("K"), (6, 7): TruthCell("X")}}
    row = evaluate_photo(path, given_corners=True, models=models, errata=errata)
    assert (row.corrected_false_tiles, row.false_named) == (3, 2)
    assert (row.corrected_letter_errors, row.wrong_named, row.right_named) == (2, 1, 0)
    print_table([row])
    assert "warnings flag 1 of the 2 letters read wrong and 0 of the 5 read right" in \
        capsys.readouterr().out


def test_photos_of_one_game_follow_each_other_where_no_tile_left_the_board() -> None:
    photos = sorted(PHOTOS.glob("jheidel__*.jpg"))
    before = game_predecessors(photos, load_errata())
    assert before["jheidel__scrabble-opencv__IMG_20151016_170803.jpg"][0] == \
        "jheidel__scrabble-opencv__IMG_20151016_170755.jpg"
    # The 2015 game does not follow the 2014 one (its first photo is an empty board), and an
    # empty board is followed by nothing: there is nothing to know from it.
    assert "jheidel__scrabble-opencv__IMG_20151016_165308.jpg" not in before
    assert "jheidel__scrabble-opencv__IMG_20151016_165412.jpg" not in before
    name, board = before["jheidel__scrabble-opencv__IMG_20141025_164039.jpg"]
    assert name == "jheidel__scrabble-opencv__IMG_20141025_163953.jpg" and len(board) == 9


def test_a_game_knows_rotations_only_where_its_truth_has_them() -> None:
    # The jheidel photos are of a scrabble game: the referee knows their tiles without a
    # rotation, so a letter read doubtfully at any rotation gives way to the known one. The one
    # truth with a rotation sidecar (a Polish board of turned tiles) keeps each tile's way.
    photos = sorted(PHOTOS.glob("jheidel__*_20151016_1707*.jpg"))
    _, board = game_predecessors(photos, load_errata())[photos[-1].name]
    assert board and all(tile.rotation is None for tile in board.values())
    turned = read_truth(PHOTOS / "kristopalka__scrabble-solver__red_boards_013.jpg")
    assert turned.has_rotations
    known = known_board(turned.grid, rotations=True)
    assert {tile.rotation for tile in known.values()} >= {0, 90, 180, 270}
    assert all(tile.rotation is None for tile in known_board(turned.grid).values())


@pytest.mark.slow
def test_a_blank_missed_on_a_real_photo_is_kept_when_the_game_knows_it() -> None:
    # The committed models miss the blank on O10 of the last photo of the jheidel game (a
    # wooden blank on a grey square, under a doubt): the board of the photo before has it.
    photos = sorted(PHOTOS.glob("jheidel__*_20151016_1707*.jpg")) + sorted(
        PHOTOS.glob("jheidel__*_20151016_1708*.jpg"))
    last = photos[-1]
    before = game_predecessors(photos, load_errata())[last.name]
    assert before[1][Cell.parse("O10")].blank
    row = evaluate_photo(last, before=before)
    assert "O10 -tile" in row.mistakes
    assert row.kept.split() == ["O10"]
    assert row.game_missed_tiles == row.corrected_missed_tiles - 1
    assert row.game_false_tiles == row.corrected_false_tiles
    assert row.game_letter_errors <= row.corrected_letter_errors
