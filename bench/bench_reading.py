"""How fast and how well a photo is read, beside Tesseract per cell.

``python -m bench.bench_reading`` (or ``make bench``). Two sets, each read by both readers on the
same cells in the same run:

* renders: 1600x1200 board photos from ``lab.render`` with tiles of all four seats (seeds the
  trainer never uses), read with their exact corners;
* real photos with truth, read with their truth corners by models trained WITHOUT the photo's
  repository (leave-one-source-out, as ``tileref eval``; trained once and cached, which takes
  a few minutes the first time).

Our time is ``read_board`` from the decoded image to the reading (rectify, occupancy, classify,
warnings; board finding excluded: ``tileref eval --stage corners`` times that), the median of
repeats, on one thread (OpenCV's and BLAS's, see ``bench``). The baseline is Tesseract (``--psm
10``, one call per tile the truth has, the same crop, no rotation known). Accuracy is letters
right on the truth's tiles, the truth corrected by ``lab/data/truth_errata.csv`` as ``tileref eval``
scores it (a blank the truth left out is a tile, a covered cell is not scored).
Speed is given per photo, per tile and as a ratio: absolute milliseconds on a shared machine
are not comparable between runs, ratios are. Last, the end-to-end time the goal names: every
truth photo scaled to 1600 px, its board found and read with no corners given; and the memory
the goal names: each of those photos read by ``tileref read`` in a process of its own, its peak
resident memory and its time from start to exit (this benchmark's own process holds both
readers and every photo at once, so its peak says nothing of what reading a photo takes).
"""

from __future__ import annotations

import compileall
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench import ROOT, peak_mb
from bench.bench_corners import GOAL_LONG_SIDE, at_goal_size
from lab.truth import (
    DEV_PHOTOS,
    Errata,
    PhotoTruth,
    corrected_grid,
    load_errata,
    photos_with_truth,
    read_truth,
    tile_set_for,
)
from referee.cells import Cell, Seat
from referee.tiles import load_tile_set
from vision import DEFAULT_CONFIG, VisionError, load_image, read_board, rectify
from vision.letters.classify import BLANK
from vision.letters.tuning import CROP_PAD

PHOTOS = DEV_PHOTOS
REAL = (
    "DeclanFinerty__scrabble-vision__board_002.jpeg",
    "jheidel__scrabble-opencv__IMG_20151016_170803.jpg",
    "ssetser1__ScrabbleDetectorProject__IMG_2677_jpeg.rf.76a02bccfaec5bb2f104ff8d631956e5.jpg",
)
RENDER_SEEDS = (701, 702, 703)
REPEATS = 5


@dataclass
class Case:
    """One photo with what is truly on it, in the view its corners give (row, col of the grid)."""

    name: str
    image: np.ndarray
    corners: np.ndarray
    truth: dict[Cell, tuple[str | None, int | None]]
    """Every tile: its letter ("?" a blank, None a tile whose letter is unknown) and rotation
    (None: unknown)."""
    tiles: str
    models: Any = None  # (occupancy, classifier) or None for the committed ones
    unscored: frozenset[Cell] = frozenset()  # cells the corrected truth does not score


@dataclass
class Figures:
    photos: int = 0
    tiles: int = 0
    ours_ms: list[float] = field(default_factory=list)
    ours_letters: int = 0
    ours_rotations: int = 0
    rotations_scored: int = 0
    occupancy_errors: int = 0
    tess_ms: list[float] = field(default_factory=list)
    tess_letters: int = 0


def _median_ms(action: Callable[[], Any], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def render_cases() -> list[Case]:
    from lab.render import RenderOptions, random_position, render_board_photo

    cases = []
    for seed in RENDER_SEEDS:
        tiles = random_position(np.random.default_rng(seed), words=14, seats=list(Seat))
        options = RenderOptions.random(np.random.default_rng(seed), glare=0.0, hand=False)
        photo = render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)
        truth: dict[Cell, tuple[str | None, int | None]] = {
            cell: (BLANK if tile.blank else tile.letter, tile.rotation or 0)
            for cell, tile in tiles.items()}
        cases.append(Case(f"render seed {seed}", photo.image, photo.corners, truth, "english"))
    return cases


def real_cases() -> list[Case]:
    from lab.train import loso_models

    photos = [PHOTOS / name for name in REAL if (PHOTOS / name).exists()]
    truths = [read_truth(photo) for photo in photos]
    models = loso_models({truth.source for truth in truths}) if truths else {}
    errata = load_errata()
    cases = []
    for photo, truth in zip(photos, truths, strict=True):
        cells, unscored = truth_cells(truth, errata)
        cases.append(Case(photo.name[:40], load_image(photo), np.array(truth.corners, float),
                          cells, tile_set_for(truth), models[truth.source], unscored))
    return cases


def truth_cells(truth: PhotoTruth, errata: Errata
                ) -> tuple[dict[Cell, tuple[str | None, int | None]], frozenset[Cell]]:
    """A truth photo's tiles as :attr:`Case.truth`, and the cells not scored, after its errata
    (a blank the truth left out is a tile; a cell under a sticky note is not scored)."""
    cells: dict[Cell, tuple[str | None, int | None]] = {}
    unscored = set()
    for row, wants in enumerate(corrected_grid(truth, errata.get(truth.photo.name, {}))):
        for col, want in enumerate(wants):
            if want is None:
                unscored.add(Cell(col, row))
            elif want.letter is not None:
                unknown = want.letter == "?" and not want.blank
                letter = None if unknown else BLANK if want.blank else want.letter
                cells[Cell(col, row)] = (letter, want.rotation if truth.has_rotations else None)
    return cells, frozenset(unscored)


def measure(cases: list[Case]) -> Figures:
    from vision.letters.ocr import read_letter

    figures = Figures()
    for case in cases:
        occupancy, classifier = case.models or (None, None)

        def ours(case: Case = case, occupancy: Any = occupancy, classifier: Any = classifier):
            return read_board(case.image, corners=case.corners, tiles=case.tiles,
                              occupancy=occupancy, classifier=classifier)

        reading = ours()
        figures.ours_ms.append(_median_ms(ours))
        read = {Cell.parse(r.cell): r for r in reading.cells}
        figures.photos += 1
        known = {cell: want for cell, want in case.truth.items() if want[0] is not None}
        figures.tiles += len(known)
        figures.occupancy_errors += len((set(read) ^ set(case.truth)) - case.unscored)
        for cell, (letter, rotation) in known.items():
            got = read.get(cell)
            if got is None:
                continue
            figures.ours_letters += got.letter == letter
            if rotation is not None and letter != BLANK:
                figures.rotations_scored += 1
                figures.ours_rotations += got.rotation == rotation
        board = rectify(case.image, case.corners, cell_px=DEFAULT_CONFIG.cell_px,
                        margin_cells=DEFAULT_CONFIG.margin_cells,
                        tile_lift=DEFAULT_CONFIG.tile_lift)
        letters = load_tile_set(case.tiles).letters
        for cell, (letter, _) in known.items():
            crop = board.cell_image(cell.col, cell.row, pad=CROP_PAD)
            started = time.perf_counter()
            answer = read_letter(crop, letters)
            figures.tess_ms.append((time.perf_counter() - started) * 1000)
            figures.tess_letters += (answer or BLANK) == letter
    return figures


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def print_row(name: str, f: Figures) -> None:
    ours_photo = statistics.median(f.ours_ms)
    ours_tile = sum(f.ours_ms) / max(f.tiles, 1)
    tess_tile = statistics.median(f.tess_ms) if f.tess_ms else float("nan")
    tess_photo = tess_tile * f.tiles / max(f.photos, 1)
    rotations = _pct(f.ours_rotations, f.rotations_scored) if f.rotations_scored else "    -"
    print(f"{name:12} {f.photos:6d} {f.tiles:5d} | {ours_photo:8.0f} {ours_tile:7.2f} "
          f"{_pct(f.ours_letters, f.tiles)} {rotations} {f.occupancy_errors:4d} | "
          f"{tess_photo:8.0f} {tess_tile:7.1f} {_pct(f.tess_letters, f.tiles)} | "
          f"{tess_tile / max(ours_tile, 1e-9):6.0f}x")


BEFORE = {"find and read": "issue 33 measured 155-167 ms",
          "process": "issue 33 measured 1.1 s", "memory": "102-108 MB before issue 33"}
"""The figures before issue 33's work on speed, printed beside today's (same machine, other days:
compare with care, the machine's speed moves with its load)."""


def end_to_end_ms() -> list[float]:
    """For every truth photo scaled to a 1600-px long side: the median time of ``read_board``
    from the decoded image with no corners given (board found, rectified, read), with the
    committed models. Photos whose board is refused are timed all the same (a refusal is an
    answer too)."""
    times = []
    for path in photos_with_truth(PHOTOS) if PHOTOS.is_dir() else []:
        image, _ = at_goal_size(load_image(path))

        def read(image: np.ndarray = image) -> None:
            try:
                read_board(image)
            except VisionError:
                pass

        read()  # models loaded, caches warm
        times.append(_median_ms(read))
    return times


READ = """
import contextlib, io, sys
from webui.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["read", sys.argv[1]])
"""
"""``tileref read`` of one photo in a fresh process (:func:`bench.peak_mb`), its board text held
back so that the peak is all it prints."""


def read_processes() -> tuple[list[float], list[float]]:
    """For every truth photo scaled to a 1600-px long side (saved losslessly): the peak resident
    memory of a ``tileref read`` process reading it, in MB, and the process's whole time from
    start to exit, in ms (the interpreter, imports, models and all: what a user waits for).

    The project's modules are compiled to bytecode first, as a user's first ``tileref read``
    leaves them (Python writes ``__pycache__`` as it imports): where ``PYTHONDONTWRITEBYTECODE``
    is set, as on this project's build machines, every process would compile them from source
    again, about 80 ms that no user's second photo pays."""
    for package in ("referee", "vision", "calibration", "webui"):
        compileall.compile_dir(str(ROOT / package), quiet=1)
    peaks, times = [], []
    with tempfile.TemporaryDirectory() as folder:
        for path in photos_with_truth(PHOTOS) if PHOTOS.is_dir() else []:
            scaled = Path(folder) / f"{path.stem}.png"
            cv2.imwrite(str(scaled), at_goal_size(load_image(path))[0])
            started = time.perf_counter()
            peaks.append(peak_mb(READ, str(scaled)))
            times.append(1000 * (time.perf_counter() - started))
    return peaks, times


def main() -> int:
    from vision.letters.ocr import ocr_available

    if not ocr_available():
        print("tesseract is not installed: the baseline cannot run", file=sys.stderr)
        return 1
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        print("reading with given corners; ours on one thread; medians\n")
        print(f"{'set':12} {'photos':>6} {'tiles':>5} | {'ours ms':>8} {'ms/tile':>7} "
              f"{'letter':>6} {'rot':>6} {'occ':>4} | {'tess ms':>8} {'ms/tile':>7} "
              f"{'letter':>6} | {'ratio':>7}")
        print(f"{'':12} {'':6} {'':5} | {'/photo':>8} {'':7} {'':6} {'':6} {'err':>4} | "
              f"{'/photo':>8} {'':7} {'':6} | {'per tile':>7}")
        print_row("renders", measure(render_cases()))
        print_row("real (LOSO)", measure(real_cases()))
        times = end_to_end_ms()
        if times:
            print(f"\nend to end (find the board, then read), {len(times)} photos scaled to a "
                  f"{GOAL_LONG_SIDE}-px long side: median {statistics.median(times):.0f} ms, "
                  f"max {max(times):.0f} ms (goal: median <= 100 ms; {BEFORE['find and read']})")
        peaks, process_ms = read_processes()
        if peaks:
            print(f"peak memory of `tileref read` on each of them, a process each: median "
                  f"{statistics.median(peaks):.0f} MB, max {max(peaks):.0f} MB (goal: <= 300 MB; "
                  f"{BEFORE['memory']})")
            print(f"the whole `tileref read` process, start to exit: median "
                  f"{statistics.median(process_ms):.0f} ms, max {max(process_ms):.0f} ms "
                  f"(goal: median <= 600 ms; {BEFORE['process']})")
    finally:
        cv2.setNumThreads(threads)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this benchmark's process: {peak:.0f} MB (both readers, every photo "
          "decoded at once)")
    print("tess ms/photo = Tesseract per tile x tiles per photo (it would read only the tiles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
