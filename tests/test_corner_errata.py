"""Truth corners found off are corrected in one file, beside the truth, never silently."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lab.eval_corners import (
    CORNER_NAMES,
    corrected_corners,
    evaluate_photo,
    load_corner_errata,
)
from lab.truth import DEV_PHOTOS, read_truth

SSETSER = ("ssetser1__ScrabbleDetectorProject__IMG_2687_jpeg.rf."
           "2818b69de5adfcd8464c507b85e2fe69.jpg")


def test_every_committed_erratum_matches_its_truth_file_and_moves_a_corner_a_little() -> None:
    errata = load_corner_errata()
    assert SSETSER in errata
    for photo, corners in errata.items():
        truth = read_truth(DEV_PHOTOS / photo)
        assert truth.corners is not None
        fixed = corrected_corners(photo, truth.corners, errata)  # raises when stale
        cell = np.linalg.norm(np.subtract(truth.corners[1], truth.corners[0])) / 15
        for index in corners:
            moved = np.linalg.norm(np.subtract(fixed[index], truth.corners[index])) / cell
            # Within the truth's own stated +-0.2 cell: a correction, not a different corner.
            assert 0 < moved <= 0.25, (photo, CORNER_NAMES[index], moved)


def test_a_stale_erratum_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "corner_errata.csv"
    path.write_text("photo,corner,truth,seen,reason\nx.jpg,BL,10 20,12 20,a test\n")
    errata = load_corner_errata(path)
    corners = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (10.0, 20.0)]
    assert corrected_corners("x.jpg", corners, errata)[3] == (12.0, 20.0)
    corners[3] = (0.0, 100.0)  # the truth file was annotated again
    with pytest.raises(ValueError, match="BL"):
        corrected_corners("x.jpg", corners, errata)


def test_an_unknown_corner_name_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "corner_errata.csv"
    path.write_text("photo,corner,truth,seen,reason\nx.jpg,LB,10 20,12 20,a test\n")
    with pytest.raises(ValueError, match="LB"):
        load_corner_errata(path)


@pytest.mark.slow
def test_the_eval_scores_a_corrected_photo_both_ways() -> None:
    row = evaluate_photo(DEV_PHOTOS / SSETSER)
    assert row.corner_errata == 1
    assert row.worst_error_cells is not None and row.corrected_worst_error_cells is not None
    assert row.corrected_worst_error_cells < row.worst_error_cells
    without = evaluate_photo(DEV_PHOTOS / SSETSER, errata={})
    assert without.corner_errata == 0
    assert without.corrected_worst_error_cells == without.worst_error_cells
