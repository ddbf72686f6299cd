"""Finding the 15x15 playing grid in a photo, without markers.

Why this way: the outer frame of a board is not the grid (a finder that returns the frame is 3-7
cells off), and boards differ in colour, so we look for the one thing every board shares: two
families of 16 equally spaced straight lines. The steps:

1. Line segments (LSD) on a copy about 640 px across.
2. The two dominant families of segments and their vanishing points (RANSAC, then least squares):
   the line through the two vanishing points undoes the perspective up to an affine map, after
   which every grid line of a family is parallel and the 16 lines are *equally spaced*. Only the
   cells' aspect still depends on the focal length; when the vanishing points cannot measure it
   (a family stays parallel in the photo), every aspect a phone's focal could give is allowed.
3. In that frame, a comb of 16 equally spaced lines is fitted to the segment positions of each
   family (period and phase searched exhaustively). This counts lines, so the frame and the
   board's outer edge cannot be mistaken for the grid unless they sit exactly one cell out.
4. Refinement on the photo (shrunk to ~2.5x the measuring resolution): rectify with the current
   corners, measure where the centre of each of the 16 + 16 lines is in every row/column band,
   fit the homography to those samples (robustly re-weighted least squares, first rounds) or to
   the 256 intersections of lines fitted through them (last round), repeat until the corners
   stop moving; then slide by whole cells to where the squares look most like squares, and try
   twice the cell size when every other line is missing (a comb locked on half the period).
   The grid finally chosen is then run to convergence: the same fit (finer samples, a fixed
   window and cut-off) repeated until it reproduces itself, so the answer does not depend on
   where the shrinking-window rounds happened to stop.
5. Judging: line support x square-likeness is the confidence; a grid is refused when either
   family of lines is poorly seen, or when it is only part of a board (lines near one end
   missing, or every other line) -- then "cut off" if the board would run off the photo.
   Failures look again once, on a bigger copy and pairing a third family of lines (wood grain can
   out-weigh one family of grid lines), so only hard photos pay for it.

Steps 1-3 are :mod:`vision.board.roughgrids`, step 4 :mod:`vision.board.refine`, and every
threshold of them all :class:`vision.board.tuning.LocateConfig`; this module runs the steps and
judges (step 5).

Corners are the *outer edge* of the grid's border line (as people and the truth files put them):
the line centres found, moved out by half a border line (``border_half_width_cells``).

The corner order: TL, TR, BR, BL of the South view, where South is, by default, the board edge
nearest the bottom of the image (the premium layout is symmetric, so pixels cannot tell South).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.grid import apply_homography, clockwise, is_grid_quad, quad_cell_px
from vision.board.rectify import SIZE, grid_homography
from vision.board.refine import (
    Measured,
    converge,
    doubled_grid,
    fix_grid_shift,
    refine,
    symmetry_shift,
)
from vision.board.roughgrids import rough_grids
from vision.board.tuning import CONFIG, LocateConfig
from vision.errors import BoardNotFoundError, ImageQualityError, VisionError

NO_BOARD = "no Scrabble board found in the photo"
"""The refusal of a photo without a board, or with none that shows a board's squares."""
CUT_OFF = "board is cut off by the image edge: get all of it in the photo"
"""The refusal of a photo whose board runs off its edge."""


@dataclass(frozen=True)
class BoardLocation:
    """Where the playing grid is: ``corners`` (4x2, photo pixels) TL TR BR BL of the South view."""

    corners: np.ndarray
    confidence: float
    method: str
    quad_found_in_ms: float = 0.0
    details: dict = field(default_factory=dict, compare=False)

    def corner_list(self) -> list[list[float]]:
        """Plain data for JSON: [[x, y], ...] in TL TR BR BL order."""
        return [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]


# ----------------------------------------------------------------------------------------------
# Quality


def check_quality(gray_work: np.ndarray, config: LocateConfig = CONFIG) -> np.ndarray:
    """Refuse photos too dark to find anything in, and stretch dim ones to the full range.

    Darkness is judged on the bright end (99th percentile): a dim photo of a board still has
    usable contrast once stretched, a black frame does not. Blur is judged only when finding
    fails, so a soft but findable board is never refused.
    """
    low, high = _percentiles(gray_work, (1, 99))
    if high < config.dark_p99:
        raise ImageQualityError(
            f"photo too dark to find the board (brightest parts {high:.0f} of 255)",
            reason="too dark")
    if high - low < 255 * 0.6:
        scale = 255.0 / max(high - low, 1.0)
        gray_work = cv2.convertScaleAbs(gray_work, alpha=scale, beta=-low * scale)
    return gray_work


def _percentiles(gray: np.ndarray, percents: tuple[float, ...]) -> tuple[float, ...]:
    """Percentiles of a uint8 image from its histogram (a sort of every pixel costs 20x more;
    OpenCV's histogram is several times faster than ``np.bincount``, and its float32 counts are
    exact up to 2**24 pixels, far more than a work copy has)."""
    if gray.dtype != np.uint8:
        return tuple(float(v) for v in np.percentile(gray, percents))
    if gray.size < 2**24:
        counts = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    else:
        counts = np.bincount(gray.ravel(), minlength=256)
    cumulative = np.cumsum(counts)
    total = cumulative[-1]
    return tuple(
        float(np.searchsorted(cumulative, p / 100 * total, side="left")) for p in percents
    )


def downscale(gray: np.ndarray, factor: float) -> np.ndarray:
    """``gray`` scaled by ``factor`` (< 1): exact halvings (pixel averages, nearly free) down to
    within a factor two, then one area resize of the smaller image (a bilinear one would alias
    away the thin grid lines)."""
    while factor <= 0.5 and min(gray.shape[:2]) >= 2:
        gray = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                          interpolation=cv2.INTER_AREA)
        factor *= 2
    if factor < 0.999:
        gray = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return gray


def _blur_measure(gray_work: np.ndarray) -> float:
    return float(cv2.Laplacian(gray_work, cv2.CV_32F).var())


SIDES = ("bottom", "left", "top", "right")


def south_at(corners: np.ndarray, side: str = "bottom") -> np.ndarray:
    """Relabel the corners TL TR BR BL so South's edge (BR-BL) is the board edge nearest the
    given image side ("bottom", "left", "top" or "right")."""
    if side not in SIDES:
        raise ValueError(f"South must be one of {', '.join(SIDES)}, not {side!r}")
    quad = clockwise(np.asarray(corners, dtype=np.float64))
    mids = np.array([(quad[i] + quad[(i + 1) % 4]) / 2 for i in range(4)])
    key = {"bottom": mids[:, 1], "top": -mids[:, 1], "right": mids[:, 0], "left": -mids[:, 0]}
    south_edge = int(np.argmax(key[side]))
    # Clockwise TL, TR, BR, BL: South's edge runs from BR (index 2) to BL (index 3).
    return np.roll(quad, -((south_edge - 2) % 4), axis=0)


def south_at_bottom(corners: np.ndarray) -> np.ndarray:
    """The default labelling: South is the board edge nearest the bottom of the image."""
    return south_at(corners, "bottom")


# ----------------------------------------------------------------------------------------------
# Public entry point


def find_board(
    image: np.ndarray, *, hint: np.ndarray | None = None, config: LocateConfig = CONFIG
) -> BoardLocation:
    """Find the playing grid in a BGR photo; raises BoardNotFoundError or ImageQualityError.

    ``hint``: approximate corners (4x2, photo pixels, e.g. from a calibration profile or the
    previous frame); the rough search is skipped and only refinement runs.
    """
    image = _as_bgr_or_gray(image)
    try:
        return _find(image, hint, config)
    except VisionError as error:
        if type(error) is not VisionError:
            raise
        # A plain VisionError from inside is a step's own corners refused (a refinement on a
        # smear crossed them): a failed search, never a word about corners the user did not give.
        raise BoardNotFoundError(NO_BOARD) from None


def _find(image: np.ndarray, hint: np.ndarray | None, config: LocateConfig) -> BoardLocation:
    """:func:`find_board` on a photo known to be 8-bit grey or BGR."""
    started = time.perf_counter()
    gray_full = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    height, width = gray_full.shape
    try:
        found = _search(gray_full, config.work_px, hint, config, started)
    except ImageQualityError:
        raise
    except BoardNotFoundError:
        # A small board far away has cells of a few pixels in the work copy, and wood grain can
        # out-weigh a family of grid lines: look again, once, on a bigger copy and with more
        # line families before giving up (only failures pay for it).
        if hint is not None:
            raise
        found = _search(gray_full, config.retry_work_px, hint, config, started, thorough=True)
    best, details, gray_refine, shrink = found
    _, confidence, refined, info = best
    move, gains = symmetry_shift(image, refined, config)
    dx, dy = (
        m if g >= config.min_symmetry_gain else 0 for m, g in zip(move, gains, strict=True)
    )
    move = (dx, dy)
    info["symmetry_move"], info["symmetry_gain"] = move, gains
    hits = info["line_hits"]
    if move != (0, 0):
        h = grid_homography(refined)
        grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float) + move
        refined, hits = refine(gray_refine, apply_homography(h, grid)[0] * shrink, config)
        refined = refined / shrink
    # Only the chosen grid is run to convergence (the hypotheses are ranked on refine's).
    refined = converge(gray_refine, refined * shrink, config) / shrink
    _check_whole(refined, hits, width, height, config)
    details.update(info)
    refined = grow_corners(refined, config.border_half_width_cells)
    _check_inside(refined, width, height, config)
    _check_shape(refined, width, height, gray_full, config)
    return BoardLocation(
        corners=south_at_bottom(refined),
        confidence=confidence,
        method="hint+lines" if hint is not None else "vanishing-points+comb+lines",
        quad_found_in_ms=details.get("quad_ms", 0.0),
        details=details,
    )


def _check_shape(quad: np.ndarray, width: int, height: int, gray: np.ndarray,
                 config: LocateConfig) -> None:
    """Refuse a grid that is no photographed square (crossed, folded or degenerate corners):
    the refinement of a hypothesis on a smear or on noise can end there, and the reader would
    then say the corners were malformed, though the user gave none."""
    if not is_grid_quad(quad):
        _raise_if_blurry(downscale(gray, min(1.0, config.work_px / max(width, height))), config)
        raise BoardNotFoundError(NO_BOARD)


def _as_bgr_or_gray(image: object) -> np.ndarray:
    """The photo as 8-bit grey or BGR, refusing what cannot be one (a typed, one-line error)."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise VisionError("find_board needs a non-empty image array")
    if image.dtype != np.uint8:
        raise VisionError(f"find_board needs an 8-bit image, not {image.dtype}")
    if image.ndim == 3:
        channels = image.shape[2]
        if channels == 1:
            return image[:, :, 0]
        if channels == 4:
            return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        if channels != 3:
            raise VisionError(f"find_board needs a grey, BGR or BGRA image, not {channels} "
                              "channels")
    return image


def _search(
    gray_full: np.ndarray, work_px: int, hint: np.ndarray | None, config: LocateConfig,
    started: float, thorough: bool = False,
) -> tuple[tuple[float, float, np.ndarray, dict], dict, np.ndarray, float]:
    """The best refined grid: ((rank, confidence, corners, info), details, the refinement's
    copy of the photo, its scale). Rough grids come from a copy ``work_px`` across (or the
    hint); each is refined, slid by whole cells if need be, and rated."""
    height, width = gray_full.shape
    factor = min(1.0, work_px / max(height, width))
    gray = downscale(gray_full, factor) if factor < 1 else gray_full
    factor = gray.shape[1] / width
    gray = check_quality(gray, config)
    details: dict = {"segments": 0, "work_px": max(gray.shape)}
    if hint is not None:
        roughs: Iterator[np.ndarray] = iter([np.asarray(hint, dtype=np.float64).reshape(4, 2)])
    else:
        roughs = (quad / factor for quad in rough_grids(gray, config, details, thorough))
    best: tuple[float, float, np.ndarray, dict] | None = None
    settled: list[np.ndarray] = []
    gray_refine, shrink = gray_full, 1.0
    try:
        limit = config.max_hypotheses + (2 if thorough else 0)
        for number, rough in enumerate(itertools.islice(roughs, limit)):
            details.setdefault("quad_ms", (time.perf_counter() - started) * 1000)
            if not _plausible(rough, width, height):
                continue
            # The passes often propose the same grid again; it would settle to the same place.
            if any(_same_quad(rough, other, config.same_quad_cells) for other in settled):
                continue
            if not settled:
                gray_refine, shrink = _refine_copy(gray_full, rough, config)
            memo: Measured = {}
            if best is not None and _hopeless(gray_refine, rough * shrink, best[3], config,
                                              memo):
                continue
            refined, confidence, info = _settle(gray_refine, rough * shrink, config, memo=memo)
            refined = refined / shrink
            settled += [rough, refined]
            info["rough"] = rough
            info["hypothesis"] = number
            rank = _rank(info, config)
            if best is None or rank > best[0]:
                best = (rank, confidence, refined, info)
            if info["support"] >= config.good_enough and info["cellness"] >= 1.0:
                break
    except BoardNotFoundError:
        if best is None:
            _raise_if_blurry(gray, config)
            raise
    # Both families of lines must be there: a grid whose one axis sits on wood grain or table
    # edges can still collect half its support from the other axis.
    if (best is None or best[1] < config.min_confidence
            or min(best[3]["axis_support"]) < config.min_axis_support):
        _raise_if_blurry(gray, config)
        raise BoardNotFoundError(NO_BOARD)
    return best, details, gray_refine, shrink


def _hopeless(
    gray: np.ndarray, rough: np.ndarray, best: dict, config: LocateConfig, memo: Measured
) -> bool:
    """Whether a further hypothesis can be dropped after one refinement round: its line
    support is far below the best one's (a full settle costs several times more, less the
    measurements kept in ``memo``)."""
    _, hits = refine(gray, rough, config, rounds=1, memo=memo)
    return float(hits.mean()) < best["support"] - config.hopeless_support_gap


def _refine_copy(
    gray_full: np.ndarray, rough: np.ndarray, config: LocateConfig
) -> tuple[np.ndarray, float]:
    """The photo the refinement warps from, and its scale: lines are measured at
    ``refine_cell_px`` a cell, so a photo with cells several times that big is halved first
    (the same precision, a fraction of the pixels to warp). Only exact halvings: they cost a
    fraction of a millisecond, an area resize by another factor several milliseconds."""
    small = gray_full
    cell = quad_cell_px(rough)
    while cell / 2 >= config.refine_source_cells * config.refine_cell_px:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        cell /= 2
    return small, small.shape[1] / gray_full.shape[1]


def _same_quad(a: np.ndarray, b: np.ndarray, cells: float) -> bool:
    """Whether every corner of ``a`` lies within ``cells`` cells of some corner of ``b``."""
    distances = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2).min(axis=1)
    return bool(distances.max() < cells * quad_cell_px(b))


def grow_corners(quad: np.ndarray, cells: float) -> np.ndarray:
    """The quad moved ``cells`` outwards on every side, in the grid's own perspective."""
    if cells == 0:
        return quad
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
    grown = grid + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * cells
    return apply_homography(grid_homography(quad), grown)[0]


def _settle(
    gray_full: np.ndarray, rough: np.ndarray, config: LocateConfig, check_period: bool = True,
    memo: Measured | None = None,
) -> tuple[np.ndarray, float, dict]:
    """Refine a rough quad onto the lines, slide it by whole cells if the squares say so, and
    rate it: confidence = share of grid lines seen x how much the 225 squares look like squares.
    A grid on every other line is also tried at twice the cell size
    (:func:`vision.board.refine.doubled_grid`). ``memo``: line profiles already measured from
    ``rough`` (see :func:`vision.board.refine._measure`).
    """
    refined, hits = refine(gray_full, rough, config, memo=memo)
    moved = fix_grid_shift(gray_full, refined, config)
    if moved.shift != (0, 0):
        refined, hits = refine(gray_full, moved.corners, config)
    support = float(hits.mean())
    squares = float(np.clip(moved.cellness / config.cellness_full, 0.0, 1.0))
    confidence = float(np.clip(support, 0.0, 1.0)) * squares
    info = {"support": support, "shift": moved.shift, "shift_gain": moved.gain,
            "cellness": moved.cellness, "ring": moved.ring, "ring_cut": moved.ring_cut,
            "axis_support": tuple(float(v) for v in hits.mean(axis=1)), "line_hits": hits}
    if check_period and support < config.good_enough:
        bigger = doubled_grid(refined, hits, config)
        if bigger is not None and _plausible(bigger, gray_full.shape[1], gray_full.shape[0]):
            other = _settle(gray_full, bigger, config, check_period=False)
            # Only squares that convincingly look like squares may replace a grid that fits.
            convincing = other[2]["cellness"] >= config.cellness_full
            if convincing and _rank(other[2], config) > _rank(info, config):
                other[2]["doubled"] = True
                return other
    return refined, confidence, info


def _rank(info: dict, config: LocateConfig) -> float:
    """How good a settled grid is: how well the lattice fits, then how much the 225 windows
    look like squares (support cannot tell a grid shifted by whole cells, cellness can)."""
    return info["support"] + config.cellness_weight * min(info["cellness"], 2.5)


def _raise_if_blurry(gray_work: np.ndarray, config: LocateConfig) -> None:
    """Refuse as too blurry a photo whose board could not be found, if it is soft
    (``blur_laplacian_var``) and yet shows the straight edges of something (a board's frame and
    squares stay straight lines on a small copy, where the blur is below a pixel): a smooth
    image of nothing, noise blurred or a wall, has no board to find, and hears so."""
    measure = _blur_measure(gray_work)
    if (measure < config.blur_laplacian_var and float(gray_work.std()) > 8
            and _straight_edges(gray_work) >= config.blurred_min_straight):
        raise ImageQualityError(f"photo too blurry to find the board (sharpness {measure:.0f})",
                                reason="too blurry")


def _straight_edges(gray: np.ndarray) -> float:
    """The length of the long straight edges (over a tenth of the side) in copies 160 and 320
    px across, in those sides, averaged: 4-10 for a board blurred by 5-16 px at 1600 px, under
    2.5 for smooth noise of any grain (``tests/test_refusals.py``)."""
    lengths = []
    for side in (160, 320):
        small = downscale(gray, min(1.0, side / max(gray.shape)))
        found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD).detect(small)[0]
        if found is None:
            lengths.append(0.0)
            continue
        segs = found.reshape(-1, 4)
        length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
        lengths.append(float(length[length > max(small.shape) / 10].sum()) / max(small.shape))
    return float(np.mean(lengths))


def _plausible(quad: np.ndarray, width: int, height: int) -> bool:
    """A rough quad worth refining: a convex quad going round clockwise
    (:func:`vision.board.grid.is_grid_quad`), not tiny, not absurdly bigger than the photo."""
    if not is_grid_quad(quad):
        return False
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    return 0.005 * width * height <= area <= 50 * width * height


def _check_whole(
    quad: np.ndarray, hits: np.ndarray, width: int, height: int, config: LocateConfig
) -> None:
    """Refuse a grid that is only part of a board: every other line missing, or the lines
    near one end hardly seen.

    Such a lattice was extrapolated from part of a board: either the board runs off the photo
    (its visible part fits 15 cells only by reaching over the table), or it is no board. The
    outermost line is left out of the judgement: on many boards it is a band, not a line.
    """
    margin = config.cut_off_margin_cells * quad_cell_px(quad)

    def beyond(points: np.ndarray) -> bool:
        return bool(((points[:, 0] < margin) | (points[:, 1] < margin)
                     | (points[:, 0] > width - 1 - margin)
                     | (points[:, 1] > height - 1 - margin)).any())

    # Every other line missing: the squares are twice this size, so this is part of a board.
    bigger = doubled_grid(quad, hits, config)
    if bigger is not None:
        if beyond(bigger):
            raise BoardNotFoundError(CUT_OFF, reason="cut off")
        raise BoardNotFoundError(NO_BOARD)
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
    to_photo = grid_homography(quad)
    block = slice(1, 1 + config.end_block_lines)
    for axis in (0, 1):
        for end in (0, 1):
            line = hits[axis] if end == 0 else hits[axis][::-1]
            seen = line[block].mean()
            if seen >= max(config.min_end_support, config.end_support_ratio * np.median(line)):
                continue
            # The far side of the grid (opposite the missing lines): at or beyond the photo's
            # edge means the board goes on out of the picture.
            far = grid.copy()
            far[:, axis] = SIZE * (1 - end) + (1 if end == 0 else -1)
            if beyond(apply_homography(to_photo, far)[0]):
                raise BoardNotFoundError(CUT_OFF, reason="cut off")
            raise BoardNotFoundError(NO_BOARD)


def _check_inside(quad: np.ndarray, width: int, height: int, config: LocateConfig) -> None:
    tolerance = config.cut_off_margin_cells * quad_cell_px(quad)
    outside = (
        (quad[:, 0] < -tolerance)
        | (quad[:, 1] < -tolerance)
        | (quad[:, 0] > width - 1 + tolerance)
        | (quad[:, 1] > height - 1 + tolerance)
    )
    if outside.any():
        raise BoardNotFoundError(CUT_OFF, reason="cut off")


__all__ = ["SIDES", "BoardLocation", "check_quality", "downscale", "find_board", "grow_corners",
           "south_at", "south_at_bottom"]
