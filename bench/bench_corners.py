"""How fast and how well the board is found (``python -m bench corners``).

For every photo with truth corners in ``../shared/photos`` (or, without that folder, a few
rendered boards): the time of :func:`vision.board.locate.find_board` on the decoded photo (the best
of a few runs, so other work on a shared machine inflates it less), and the worst corner error in
cells. The same figures for a baseline measured in the same process, taking turns with ours on
each photo: the classic "largest four-sided contour" finder most public readers use. Times are
given as a ratio to the baseline, because these machines are noisy and ratios are what stay
comparable between runs.

Also: the same timing with every photo scaled to a long side of 1600 px (the goal is stated for
1600x1200); the one setting fitted on the photos (``border_half_width_cells``) chosen
leave-one-source-out; a sweep of rendered boards with random options (found / wrong / refused);
and the peak resident memory of a fresh process that loads the largest photo and finds the board
(this process holds every decoded photo, so its own peak says little).
"""

from __future__ import annotations

import dataclasses
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from bench import peak_mb
from lab.eval_corners import (
    corner_errors_cells,
    corrected_corners,
    expected_corners,
    load_corner_errata,
)
from lab.truth import DEV_PHOTOS, PHOTO_SUFFIXES, read_truth
from referee.boardtext import parse_board_text
from vision import VisionError, find_board, load_image
from vision.board.locate import grow_corners, south_at_bottom
from vision.board.tuning import CONFIG

PHOTOS = DEV_PHOTOS
REPEATS = 3
GOAL_LONG_SIDE = 1600  # the goal's 1600x1200, keeping each photo's own aspect


def at_goal_size(image: np.ndarray) -> tuple[np.ndarray, float]:
    """``image`` scaled to the goals' 1600-px long side, and the factor it was scaled by."""
    factor = GOAL_LONG_SIDE / max(image.shape[:2])
    scaled = cv2.resize(image, None, fx=factor, fy=factor,
                        interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)
    return scaled, factor

Finder = Callable[[np.ndarray], np.ndarray]
# A few words in the middle (as tests/test_locate.py renders them).
POSITION = parse_board_text("\n".join(
    ["." * 15] * 4
    + [".....QUIZ......", ".......E.......", ".......B.......", "....JUMPS......",
       ".......A.......", ".......r.......", ".......K......."]
    + ["." * 15] * 4
) + "\n")


def largest_quad(image: np.ndarray) -> np.ndarray:
    """The baseline: the largest contour that simplifies to four corners (edges, closed)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = 800 / max(gray.shape)
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 50, 150)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:20]:
        poly = cv2.approxPolyDP(contour, 0.02 * cv2.arcLength(contour, True), True)
        if len(poly) == 4 and cv2.isContourConvex(poly):
            return south_at_bottom(poly.reshape(4, 2).astype(np.float64) / scale)
    raise VisionError("no four-sided contour")


def ours(image: np.ndarray) -> np.ndarray:
    return find_board(image).corners


def _dataset() -> list[tuple[str, np.ndarray, np.ndarray | None]]:
    """(name, image, expected corners or None) for the real photos, else for renders."""
    rows: list[tuple[str, np.ndarray, np.ndarray | None]] = []
    if PHOTOS.is_dir():
        for path in sorted(PHOTOS.iterdir()):
            if path.suffix.lower() not in PHOTO_SUFFIXES or not Path(f"{path}.txt").exists():
                continue
            truth = read_truth(path)
            if truth.corners is None:
                continue
            rows.append((path.name, load_image(path),
                         expected_corners(truth.corners, truth.orientation)))
        return rows
    from lab.render import RenderOptions, render_board_photo

    for seed in range(6):
        photo = render_board_photo({}, seed=seed, width=1600, height=1200,
                                   options=RenderOptions.clean(tilt=10 + 6 * seed,
                                                               azimuth=37 * seed))
        expected = expected_corners([tuple(c) for c in photo.corners], photo.orientation)
        rows.append((f"render-{seed}", photo.image,
                     grow_corners(expected, CONFIG.border_half_width_cells)))
    return rows


def _measure(finders: list[Finder], image: np.ndarray
             ) -> list[tuple[float, np.ndarray | None]]:
    """Per finder: (best time in ms, the corners found or None).

    The finders take turns on the photo, so a burst of other work on a shared machine slows
    them alike and the ratio of their times stays fair.
    """
    times: list[list[float]] = [[] for _ in finders]
    corners: list[np.ndarray | None] = [None for _ in finders]
    for _ in range(REPEATS):
        for number, finder in enumerate(finders):
            started = time.perf_counter()
            try:
                corners[number] = finder(image)
            except VisionError:
                corners[number] = None
            times[number].append((time.perf_counter() - started) * 1000)
    return [(min(spent), found) for spent, found in zip(times, corners, strict=True)]


def _worst(found: np.ndarray | None, expected: np.ndarray | None) -> float | None:
    """The worst corner error in cells; None when not found or nothing to compare with."""
    if found is None or expected is None:
        return None
    return float(corner_errors_cells(found, expected).max())


def _corrected(data: list[tuple[str, np.ndarray, np.ndarray | None]]
               ) -> list[np.ndarray | None]:
    """Each photo's expected corners from the truth with ``lab/data/corner_errata.csv`` applied."""
    errata = load_corner_errata()
    out: list[np.ndarray | None] = []
    for name, _, expected in data:
        if expected is None or name not in errata:
            out.append(expected)
            continue
        truth = read_truth(PHOTOS / name)
        assert truth.corners is not None
        out.append(expected_corners(corrected_corners(name, truth.corners, errata),
                                    truth.orientation))
    return out


def _summary(name: str, results: list[tuple[float, float | None]], base_ms: float | None
             ) -> tuple[str, ...]:
    errors = [error for _, error in results if error is not None]
    ms = statistics.median(time_ms for time_ms, _ in results)
    ratio = "1.00x" if base_ms is None else f"{ms / base_ms:.2f}x"
    return (
        name,
        f"{len(errors)}/{len(results)}",
        str(sum(error <= 0.25 for error in errors)),
        str(sum(error <= 0.5 for error in errors)),
        f"{statistics.median(errors):.3f}" if errors else "-",
        f"{ms:.0f}",
        ratio,
    )


def leave_one_source_out(data: list[tuple[str, np.ndarray, np.ndarray | None]]) -> str:
    """The border offset chosen on the other sources, scored on each held-out source."""
    unshifted = dataclasses.replace(CONFIG, border_half_width_cells=0.0)
    offsets = np.round(np.arange(0.0, 0.201, 0.025), 3)
    rows = []  # (source, worst error per offset)
    for name, image, expected in data:
        if expected is None:
            continue
        try:
            corners = find_board(image, config=unshifted).corners
        except VisionError:
            continue
        errors = [corner_errors_cells(grow_corners(corners, e), expected).max() for e in offsets]
        rows.append(("__".join(name.split("__")[:2]), np.array(errors)))
    held_out, chosen = 0, []
    for source in sorted({source for source, _ in rows}):
        others = np.array([errors for s, errors in rows if s != source])
        best = int(np.argmax((others <= 0.25).sum(axis=0)))
        chosen.append(float(offsets[best]))
        held_out += sum(int(errors[best] <= 0.25) for s, errors in rows if s == source)
    without = sum(int(errors[0] <= 0.25) for _, errors in rows)
    return (f"border offset chosen per held-out source: {sorted(set(chosen))} cell; "
            f"held out within 0.25 cell: {held_out}/{len(rows)} (no offset: {without}/{len(rows)};"
            f" config uses {CONFIG.border_half_width_cells})")


def render_sweep(count: int = 16, seed: int = 1) -> str:
    """Rendered boards with random style, tilt, turn, clutter, light and size in the frame."""
    from lab.render import RenderOptions, render_board_photo

    rng = np.random.default_rng(seed)
    good = wrong = refused = 0
    for number in range(count):
        options = RenderOptions.clean(
            board_style=str(rng.choice(["classic", "modern", "green"])),
            tilt=float(rng.uniform(0, 55)), azimuth=float(rng.uniform(0, 360)),
            clutter=int(rng.integers(0, 8)), brightness=float(rng.uniform(0.5, 1.1)),
            fill=float(rng.uniform(0.5, 0.9)))
        photo = render_board_photo(POSITION, seed=number, width=1600, height=1200,
                                   options=options)
        expected = grow_corners(
            expected_corners([tuple(c) for c in photo.corners], photo.orientation),
            CONFIG.border_half_width_cells)
        try:
            error = corner_errors_cells(find_board(photo.image).corners, expected).max()
        except VisionError:
            refused += 1
            continue
        good += error <= 0.25
        wrong += error > 0.5
    return (f"{count} random renders (seed {seed}): within 0.25 cell {good}, wrong (> 0.5) "
            f"{wrong}, refused {refused}")


FIND_BOARD = """
import sys
from vision.image import load_image
from vision.board.locate import find_board
find_board(load_image(sys.argv[1]))
"""
"""A fresh process loading a photo and finding the board (:func:`bench.peak_mb`)."""


def main() -> int:
    cv2.setNumThreads(1)  # the goal is per photo on one core
    data = _dataset()
    print(f"{len(data)} photos with truth corners ({'real' if PHOTOS.is_dir() else 'rendered'}),"
          f" best of {REPEATS} runs each, one OpenCV thread")
    header = ("finder", "found", "<=0.25", "<=0.5", "med worst", "med ms", "time vs base")
    rows = []
    corrected = _corrected(data) if PHOTOS.is_dir() else [expected for *_, expected in data]
    within_corrected = []
    for label, at_goal in (("as stored", False), (f"long side {GOAL_LONG_SIDE}", True)):
        images = []
        for (_, image, expected), fixed in zip(data, corrected, strict=True):
            if not at_goal:
                images.append((image, expected, fixed))
                continue
            scaled, factor = at_goal_size(image)
            images.append((scaled, None if expected is None else expected * factor,
                           None if fixed is None else fixed * factor))
        both = [_measure([largest_quad, ours], image) for image, _, _ in images]
        base = [(pair[0][0], _worst(pair[0][1], expected))
                for pair, (_, expected, _) in zip(both, images, strict=True)]
        mine = [(pair[1][0], _worst(pair[1][1], expected))
                for pair, (_, expected, _) in zip(both, images, strict=True)]
        base_row = _summary(f"largest-quad ({label})", base, None)
        rows.append(base_row)
        rows.append(_summary(f"find_board ({label})", mine, float(base_row[5])))
        worst_fixed = [_worst(pair[1][1], fixed) for pair, (_, _, fixed) in zip(both, images,
                                                                               strict=True)]
        within_corrected.append(f"{label} {sum(w is not None and w <= 0.25 for w in worst_fixed)}"
                                f"/{len(worst_fixed)}")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).rjust(width) for cell, width in zip(row, widths, strict=True)))
    if PHOTOS.is_dir():
        count = sum(len(corners) for corners in load_corner_errata().values())
        print(f"find_board within 0.25 cell against the truth with {count} corner(s) corrected "
              f"(lab/data/corner_errata.csv): {', '.join(within_corrected)}")
        print(leave_one_source_out(data))
    print(render_sweep())
    print(f"peak RSS of this process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    if PHOTOS.is_dir():
        largest = max((p for p in PHOTOS.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES),
                      key=lambda p: p.stat().st_size)
        print(f"peak RSS, fresh process, load + find on {largest.name}: "
              f"{peak_mb(FIND_BOARD, str(largest)):.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
