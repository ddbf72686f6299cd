"""The corner-finding harness: one row per photo, errors in cells, a committed CSV baseline.

Errors are measured in *cells* (both corner sets mapped through the truth homography to grid
units), so a far, small board and a close, big one count alike and "a quarter cell" means the
same everywhere.

Corner labels: the truth lists TL TR BR BL in the truth orientation (the photo turned
``orientation`` degrees clockwise); our finder labels South as the image bottom. For a photo with
orientation 90*k, our TL is the truth's corner (0 + k) mod 4 and so on. We compare under exactly
that relabelling ("strict"); a row also reports whether another cyclic shift would have matched
(a wrong-South labelling, which only matters for boards turned near 45 degrees).
"""

from __future__ import annotations

import csv
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.truth import DEV_PHOTOS, PHOTO_SUFFIXES, errata_entries, read_truth
from vision import VisionError, find_board, load_image
from vision.board.rectify import SIZE

CORNER_ERRATA = Path(__file__).resolve().parent / "data" / "corner_errata.csv"
"""Truth corners measured and found off: photo, corner (TL TR BR BL of the truth file), the
truth's x y, where the grid's corner is (x y, photo pixels) and how that was measured."""
CORNER_NAMES = ("TL", "TR", "BR", "BL")

CornerErrata = dict[str, dict[int, tuple[tuple[float, float], tuple[float, float]]]]
"""Photo name -> index of the corner in the truth file's order -> (the truth's x y, the x y
measured)."""


def load_corner_errata(path: Path = CORNER_ERRATA) -> CornerErrata:
    """The corner corrections of ``path`` by photo; none where the file is absent (an installed
    package)."""
    errata: CornerErrata = {}
    for entry in errata_entries(path):
        corner = entry["corner"]
        if corner not in CORNER_NAMES:
            raise ValueError(f"{path.name}: {entry['photo']}: corner must be one of "
                             f"{' '.join(CORNER_NAMES)}, not {corner!r}")
        truth_x, truth_y = (float(v) for v in entry["truth"].split())
        seen_x, seen_y = (float(v) for v in entry["seen"].split())
        errata.setdefault(entry["photo"], {})[CORNER_NAMES.index(corner)] = (
            (truth_x, truth_y), (seen_x, seen_y))
    return errata


def corrected_corners(photo: str, corners: list[tuple[float, float]], errata: CornerErrata
                      ) -> list[tuple[float, float]]:
    """A truth file's corners (its own order) with ``photo``'s errata applied.

    An erratum whose "truth" is not what the truth file says is stale (the file was re-annotated):
    that is an error, not a silent correction of a corner nobody checked.
    """
    corrected = list(corners)
    for index, (said, seen) in errata.get(photo, {}).items():
        if np.hypot(*np.subtract(corners[index], said)) > 0.5:
            raise ValueError(f"corner erratum of {photo} {CORNER_NAMES[index]}: the truth says "
                             f"{corners[index]}, the erratum {said}")
        corrected[index] = seen
    return corrected


@dataclass(frozen=True)
class CornerRow:
    photo: str
    source: str
    found: bool
    has_truth: bool
    mean_error_cells: float | None  # None when not found or no truth corners
    worst_error_cells: float | None
    labels_match: bool | None  # our South = the orientation-implied South
    confidence: float
    ms: float
    error: str = ""  # the exception class and message when not found
    corrected_worst_error_cells: float | None = None  # against the truth with its errata
    corner_errata: int = 0  # truth corners of this photo corrected


def expected_corners(truth_corners: list[tuple[float, float]], orientation: int) -> np.ndarray:
    """Truth corners relabelled so South is the image bottom (our default convention)."""
    k = (orientation // 90) % 4
    return np.array([truth_corners[(i + k) % 4] for i in range(4)], dtype=np.float64)


def corner_errors_cells(found: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Per-corner distance in cells, measured in the truth grid's own units."""
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=np.float32)
    photo_to_grid = cv2.getPerspectiveTransform(truth.astype(np.float32), grid)
    a = cv2.perspectiveTransform(found.reshape(-1, 1, 2).astype(np.float64), photo_to_grid)
    return np.linalg.norm(a.reshape(-1, 2) - grid, axis=1)


def _photos(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in Path(folder).iterdir()
        if path.suffix.lower() in PHOTO_SUFFIXES and Path(f"{path}.txt").exists()
    )


def evaluate_photo(photo: Path, errata: CornerErrata | None = None) -> CornerRow:
    """Find the board in one truth photo and score its corners, against the truth file and
    against the truth with ``errata`` (:func:`load_corner_errata` if None) applied."""
    truth = read_truth(photo)
    started = time.perf_counter()
    try:
        image = load_image(photo)
        location = find_board(image)
    except VisionError as error:
        ms = (time.perf_counter() - started) * 1000
        return CornerRow(
            photo.name, truth.source, False, truth.corners is not None, None, None, None, 0.0,
            ms, f"{type(error).__name__}: {error}",
        )
    ms = (time.perf_counter() - started) * 1000
    if truth.corners is None:
        return CornerRow(
            photo.name, truth.source, True, False, None, None, None, location.confidence, ms
        )
    expected = expected_corners(truth.corners, truth.orientation)
    errors = corner_errors_cells(location.corners, expected)
    best_shift = min(
        range(4),
        key=lambda s: corner_errors_cells(np.roll(location.corners, s, axis=0), expected).max(),
    )
    errata = load_corner_errata() if errata is None else errata
    corrected = expected_corners(corrected_corners(photo.name, truth.corners, errata),
                                 truth.orientation)
    return CornerRow(
        photo.name, truth.source, True, True, float(errors.mean()), float(errors.max()),
        best_shift == 0, location.confidence, ms,
        corrected_worst_error_cells=float(corner_errors_cells(location.corners, corrected).max()),
        corner_errata=len(errata.get(photo.name, {})),
    )


def evaluate_corners(folder: Path | str, *, progress: bool = True) -> list[CornerRow]:
    """Run the finder on every photo with a truth file in ``folder``."""
    photos = _photos(Path(folder))
    errata = load_corner_errata()
    rows = []
    for number, photo in enumerate(photos, 1):
        if progress:
            print(f"\r[{number}/{len(photos)}] {photo.name[:60]:60}", end="", file=sys.stderr)
        rows.append(evaluate_photo(photo, errata))
    if progress:
        print(file=sys.stderr)
    return rows


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_table(rows: list[CornerRow], out=sys.stdout) -> None:
    print(f"{'photo':62} {'found':>5} {'mean':>6} {'worst':>6} {'south':>5} {'conf':>5} "
          f"{'ms':>6}", file=out)
    for row in rows:
        south = "-" if row.labels_match is None else ("ok" if row.labels_match else "WRONG")
        print(
            f"{row.photo[:62]:62} {'yes' if row.found else 'NO':>5} "
            f"{_fmt(row.mean_error_cells):>6} {_fmt(row.worst_error_cells):>6} {south:>5} "
            f"{row.confidence:5.2f} {row.ms:6.0f}",
            file=out,
        )
        if row.error:
            print(f"    {row.error}", file=out)
    with_truth = [row for row in rows if row.has_truth]
    measured = [row for row in with_truth if row.found]
    means = [row.mean_error_cells for row in measured if row.mean_error_cells is not None]
    worsts = [row.worst_error_cells for row in measured if row.worst_error_cells is not None]
    print(f"photos: {len(rows)}, found: {sum(row.found for row in rows)}", file=out)
    print(
        f"with truth corners: {len(with_truth)}, found: {len(measured)}, "
        f"worst <= 0.25 cell: {sum(w <= 0.25 for w in worsts)}, "
        f"worst <= 0.5 cell: {sum(w <= 0.5 for w in worsts)}",
        file=out,
    )
    corrected = [row.corrected_worst_error_cells for row in measured
                 if row.corrected_worst_error_cells is not None]
    fixed = sum(row.corner_errata for row in measured)
    if fixed:
        print(f"against the truth with {fixed} corner(s) of "
              f"{sum(row.corner_errata > 0 for row in measured)} photo(s) corrected "
              f"({CORNER_ERRATA.name}): worst <= 0.25 cell: "
              f"{sum(w <= 0.25 for w in corrected)}, max worst {max(corrected):.3f}", file=out)
    if worsts:
        print(
            f"median mean error {statistics.median(means):.3f} cell, "
            f"median worst {statistics.median(worsts):.3f}, max worst {max(worsts):.3f}",
            file=out,
        )
    print(f"median time {statistics.median(row.ms for row in rows):.0f} ms "
          f"(load + find, per photo as stored)", file=out)


def write_csv(rows: list[CornerRow], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["photo", "source", "found", "has_truth", "mean_error_cells", "worst_error_cells",
             "south_ok", "confidence", "ms", "error", "corrected_worst_error_cells",
             "corner_errata"]
        )
        for row in rows:
            writer.writerow(
                [row.photo, row.source, int(row.found), int(row.has_truth),
                 _fmt(row.mean_error_cells, 3), _fmt(row.worst_error_cells, 3),
                 "" if row.labels_match is None else int(row.labels_match),
                 f"{row.confidence:.2f}", f"{row.ms:.0f}", row.error,
                 _fmt(row.corrected_worst_error_cells, 3), row.corner_errata]
            )


def run_corner_eval(folder: Path, csv_path: Path | None = None) -> int:
    """Print the table for ``folder`` (and write ``csv_path``); exit code 0, or 2 on bad input."""
    folder = Path(folder)
    if not folder.is_dir():
        print(f"not a folder: {folder}", file=sys.stderr)
        return 2
    rows = evaluate_corners(folder)
    if not rows:
        print(f"no photos with truth files in {folder}", file=sys.stderr)
        return 2
    print_table(rows)
    if csv_path is not None:
        write_csv(rows, Path(csv_path))
    return 0


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DEV_PHOTOS
    out_csv = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.exit(run_corner_eval(target, out_csv))
