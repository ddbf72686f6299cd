"""Letters read against blur on the stress set: where refusing a soft photo starts to pay.

``max_tile_blur_px`` refuses a photo whose tiles' edges the reader measures smeared wider than it
(:func:`vision.quality.blur_px`, rectified pixels of a 48 px cell). A refusal is right only where
a person could not read the tiles either, and where the reader would go wrong if it read on. So
every stress scene with a tile in view is read with its truth corners given (board finding is
another question) and every blur refusal off, and its tiles are binned by the blur measured at
the truth corners. On the stress set as drawn, blur is mixed with every other condition (black
tiles, hands, 640 px photos) and the share right is low at any blur; so the curve is also
measured on a sweep (:data:`SWEEP`): :data:`SWEEP_SCENES` scenes each rendered sharp and at six
blurs, everything else the same, and scored on the tiles the reader reads right in the sharp one
(what blur alone costs). Both curves are drawn (``docs/blur-curve.png``, numbers in
``bench/results/stress-blur.csv``); beside them a sheet of tiles cut from each bin
(``docs/blur-tiles.png``) shows what a person would have to read.

``python -m bench stress --blur [--write]``
"""

from __future__ import annotations

import csv
import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from lab.stress.scene import FIRST_SEED, StressScene, cached_scene, make_scene
from lab.stress.score import score_reading, truth_blur_px
from referee.cells import Cell
from vision import DISPUTE_CONFIG, ReadConfig, VisionError, read_board, rectify

ROOT = Path(__file__).resolve().parents[2]
CURVE_CSV = ROOT / "bench" / "results" / "stress-blur.csv"
CURVE_PNG = ROOT / "docs" / "blur-curve.png"
TILES_PNG = ROOT / "docs" / "blur-tiles.jpg"
BINS = (0, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, 20, 25, 35)
"""Edges of the blur bins (rectified px of a 48 px cell)."""


def without_blur_refusal(config: ReadConfig = DISPUTE_CONFIG) -> ReadConfig:
    """The reader with its blur refusals off: what it would read at any blur."""
    return replace(config, max_tile_blur_px=math.inf, max_print_blur_px=math.inf)


@dataclass
class BlurPoint:
    """One scene's tiles: the blur measured and how many were read right."""

    seed: int
    blur_px: float
    tiles: int  # visible truth tiles
    right: int  # read with their right letter
    found: int  # read as tiles at all
    crops: list[np.ndarray]  # a few tiles as the reader sees them (rectified), for the sheet


def measure(scene: StressScene) -> BlurPoint | None:
    """Read one scene at its truth corners, blur refusals off; None when no tile is in view or
    the reader refuses it for another reason (a hand)."""
    blur = truth_blur_px(scene)
    if blur is None:
        return None
    try:
        reading = read_board(scene.jpeg, corners=scene.photo.corners,
                             config=without_blur_refusal())
    except VisionError:
        return None
    result = score_reading(scene, reading)
    visible = [cell for cell in scene.photo.tiles if cell not in scene.photo.covered]
    board = rectify(scene.photo.image, scene.photo.corners, cell_px=48, margin_cells=0.0,
                    tile_lift=0.0)
    crops = [board.cell_image(cell.col, cell.row).copy() for cell in visible[:4]]
    return BlurPoint(scene.seed, blur, len(visible), result.letters - result.letters_wrong,
                     result.letters, crops)


SWEEP = (("sharp", "still"), ("defocus 0.5-1.5", "still"), ("defocus 1.5-3", "still"),
         ("sharp", "motion 0.5-2"), ("sharp", "motion 2-4"), ("sharp", "motion 4-6"),
         ("defocus 1.5-3", "motion 4-6"))
"""(focus, motion) of each render of a sweep scene, the sharp one first."""
SWEEP_SIZES = ("640 px", "1024 px", "1600 px")
SWEEP_SCENES = 36
SWEEP_FIRST_SEED = FIRST_SEED + 50_000


def _right_cells(scene: StressScene) -> tuple[set[Cell], float | None]:
    """The visible tiles read with their right letter at the truth corners (no blur refusal),
    and the scene's measured blur."""
    blur = truth_blur_px(scene)
    try:
        reading = read_board(scene.jpeg, corners=scene.photo.corners,
                             config=without_blur_refusal())
    except VisionError:
        return set(), blur
    read = {Cell.parse(cell.cell): cell.letter for cell in reading.cells}
    return {cell for cell, tile in scene.photo.tiles.items()
            if cell not in scene.photo.covered
            and read.get(cell) == ("?" if tile.blank else tile.letter)}, blur


def sweep_points(scenes: int = SWEEP_SCENES) -> list[BlurPoint]:
    """The sweep: each scene sharp and at every blur of :data:`SWEEP`; a blurred render's point
    counts the tiles read right sharp (``tiles``) and still right blurred (``right``)."""
    points = []
    for number in range(scenes):
        seed = SWEEP_FIRST_SEED + number
        pinned = {"size": SWEEP_SIZES[number % len(SWEEP_SIZES)], "occlusion": "none",
                  "position": "midgame"}
        sharp_right: set[Cell] = set()
        for index, (focus, motion) in enumerate(SWEEP):
            print(f"\rsweep scene {number + 1}/{scenes}, render {index + 1}/{len(SWEEP)}",
                  end="", file=sys.stderr, flush=True)
            scene = make_scene(seed, focus=focus, motion=motion, **pinned)
            right, blur = _right_cells(scene)
            if index == 0:
                sharp_right = right
            if not sharp_right or blur is None:
                break
            board = rectify(scene.photo.image, scene.photo.corners, cell_px=48,
                            margin_cells=0.0, tile_lift=0.0)
            crops = [board.cell_image(cell.col, cell.row).copy()
                     for cell in sorted(sharp_right)[:3]]
            points.append(BlurPoint(seed, blur, len(sharp_right), len(right & sharp_right),
                                    len(right), crops))
    print(file=sys.stderr)
    return points


def binned(points: list[BlurPoint]) -> list[dict[str, float]]:
    rows = []
    for low, high in zip(BINS, BINS[1:], strict=False):
        inside = [p for p in points if low <= p.blur_px < high]
        tiles = sum(p.tiles for p in inside)
        right = sum(p.right for p in inside)
        found = sum(p.found for p in inside)
        rows.append({"blur_from": low, "blur_to": high, "scenes": len(inside), "tiles": tiles,
                     "letters_right": right, "tiles_found": found,
                     "share_right": right / tiles if tiles else float("nan")})
    return rows


def draw_curve(series: list[tuple[list[dict[str, float]], list[BlurPoint], str]],
               threshold: float, old_threshold: float, path: Path) -> None:
    """The curves as a PNG: each series' scenes as faint dots, its bins' shares as points (sized
    by the bin's tiles) joined by a line, the chosen threshold and the old one as vertical lines.
    ``series`` are (bins, points, label); the first is drawn red, the second blue."""
    width, height, left, bottom, top, right = 900, 540, 70, 60, 60, 30
    image = np.full((height, width, 3), 255, np.uint8)
    x_max = BINS[-1]

    def at(x: float, y: float) -> tuple[int, int]:
        return (int(left + x / x_max * (width - left - right)),
                int(height - bottom - y * (height - bottom - top)))

    font = cv2.FONT_HERSHEY_SIMPLEX
    for y in np.linspace(0, 1, 11):
        cv2.line(image, at(0, y), at(x_max, y), (230, 230, 230), 1)
        cv2.putText(image, f"{y:.0%}", (8, at(0, y)[1] + 5), font, 0.45, (80, 80, 80), 1,
                    cv2.LINE_AA)
    for x in range(0, x_max + 1, 5):
        cv2.line(image, at(x, 0), at(x, 1), (230, 230, 230), 1)
        cv2.putText(image, str(x), (at(x, 0)[0] - 8, height - bottom + 20), font, 0.45,
                    (80, 80, 80), 1, cv2.LINE_AA)
    cv2.rectangle(image, at(0, 0), at(x_max, 1), (0, 0, 0), 1)
    colours = ((40, 40, 200), (200, 120, 40))
    for index, ((rows, points, label), colour) in enumerate(zip(series, colours, strict=False)):
        faint = tuple(int(255 - (255 - c) * 0.35) for c in colour)
        for point in points:
            if point.tiles:
                cv2.circle(image, at(min(point.blur_px, x_max), point.right / point.tiles), 2,
                           faint, -1, cv2.LINE_AA)
        curve = [(r["blur_from"] / 2 + r["blur_to"] / 2, r["share_right"], r["tiles"])
                 for r in rows if r["tiles"]]
        for (x0, y0, _), (x1, y1, _) in zip(curve, curve[1:], strict=False):
            cv2.line(image, at(x0, y0), at(x1, y1), colour, 2, cv2.LINE_AA)
        for middle, share, tiles in curve:
            cv2.circle(image, at(middle, share), int(3 + min(tiles, 2000) ** 0.5 / 5), colour, -1,
                       cv2.LINE_AA)
        cv2.putText(image, label, (left + 5, 20 + 18 * index), font, 0.48, colour, 1,
                    cv2.LINE_AA)
    # The limit before it was measured here, where it differs (drawn on top of the limit, the
    # two labels were one smudge).
    lines = [(old_threshold, (160, 160, 160), "before")] if old_threshold != threshold else []
    for value, colour, label in [*lines, (threshold, (40, 140, 40), "max_tile_blur_px")]:
        cv2.line(image, at(value, 0), at(value, 1), colour, 2)
        cv2.putText(image, f"{label} {value:g}", (at(value, 1)[0] + 4, top + 14), font, 0.45,
                    colour, 1, cv2.LINE_AA)
    cv2.putText(image, "blur of the tiles' edges (vision.quality.blur_px, px of a 48 px cell)",
                (left + 120, height - 15), font, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def draw_tiles(points: list[BlurPoint], path: Path, per_bin: int = 12) -> None:
    """A sheet of tiles as the reader sees them, one row per blur bin (its range on the left):
    what a person would have to read at each blur."""
    rows = []
    for low, high in zip(BINS, BINS[1:], strict=False):
        crops = [crop for p in points if low <= p.blur_px < high for crop in p.crops][:per_bin]
        row = np.full((52, 110 + per_bin * 52, 3), 255, np.uint8)
        cv2.putText(row, f"{low}-{high} px", (4, 32), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1,
                    cv2.LINE_AA)
        for i, crop in enumerate(crops):
            row[2:50, 110 + i * 52:158 + i * 52] = cv2.resize(crop, (48, 48))
        rows.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.vstack(rows))


def _print_bins(rows: list[dict[str, float]], found_label: str) -> None:
    print(f"{'blur px':>9} {'scenes':>6} {'tiles':>6} {found_label:>6} {'right':>6} {'share':>7}")
    for row in rows:
        share = "-" if not row["tiles"] else f"{100 * row['share_right']:.1f}%"
        print(f"{row['blur_from']:>4g}-{row['blur_to']:<4g} {row['scenes']:6d} {row['tiles']:6d} "
              f"{row['tiles_found']:6d} {row['letters_right']:6d} {share:>7}")


def blur_curve(seeds: Iterable[int], *, write: bool = False,
               sweep_scenes: int = SWEEP_SCENES) -> int:
    """Measure the curves over the stress scenes of ``seeds`` and the sweep, print them, and with
    ``write`` save their numbers and pictures."""
    seeds = list(seeds)
    points = []
    for number, seed in enumerate(seeds, 1):
        print(f"\rscene {number}/{len(seeds)}", end="", file=sys.stderr, flush=True)
        point = measure(cached_scene(seed))
        if point is not None:
            points.append(point)
    print(file=sys.stderr)
    swept = sweep_points(sweep_scenes)
    rows, sweep_rows = binned(points), binned(swept)
    print(f"{len(points)} stress scenes with tiles in view, read at their truth corners with no "
          "blur refusal: letters right of the tiles in view, by the tiles' blur\n")
    _print_bins(rows, "found")
    print(f"\nthe sweep: {sweep_scenes} scenes (640, 1024, 1600 px, no occlusion) each sharp and "
          "at six blurs; of the tiles read right sharp, those still right\n")
    _print_bins(sweep_rows, "read")
    current = DISPUTE_CONFIG.max_tile_blur_px
    print(f"\nmax_tile_blur_px is {current:g}: stress scenes over it "
          f"{sum(p.blur_px > current for p in points)} of {len(points)}")
    if write:
        CURVE_CSV.parent.mkdir(parents=True, exist_ok=True)
        with CURVE_CSV.open("w", newline="") as file:
            bins = csv.DictWriter(file, fieldnames=["set", *rows[0]])
            bins.writeheader()
            for name, table in (("stress", rows), ("sweep", sweep_rows)):
                for row in table:
                    bins.writerow({"set": name, **{key: (f"{value:.4f}" if isinstance(
                        value, float) else value) for key, value in row.items()}})
        # Every scene too, for whoever wants another binning.
        with CURVE_CSV.with_name("stress-blur-scenes.csv").open("w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(["set", "seed", "blur_px", "tiles", "tiles_found", "letters_right"])
            for name, chosen in (("stress", points), ("sweep", swept)):
                for p in chosen:
                    writer.writerow([name, p.seed, f"{p.blur_px:.2f}", p.tiles, p.found,
                                     p.right])
        draw_curve([(sweep_rows, swept, "sweep: of the tiles read right sharp, still right"),
                    (rows, points, "stress set: of the tiles in view, read right")],
                   current, BLUR_BEFORE, CURVE_PNG)
        draw_tiles(points + swept, TILES_PNG)
        print(f"written: {CURVE_CSV.relative_to(ROOT)}, {CURVE_PNG.relative_to(ROOT)}, "
              f"{TILES_PNG.relative_to(ROOT)}")
    return 0


BLUR_BEFORE = 10.0
"""``max_tile_blur_px`` before it was set from this curve (on 7 blurred truth photos)."""

__all__ = ["BINS", "SWEEP", "BlurPoint", "binned", "blur_curve", "draw_curve", "draw_tiles",
           "measure", "sweep_points", "without_blur_refusal"]
