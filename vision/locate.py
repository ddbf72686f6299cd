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

Corners are the *outer edge* of the grid's border line (as people and the truth files put them):
the line centres found, moved out by half a border line (``border_half_width_cells``).

The corner order: TL, TR, BR, BL of the South view, where South is, by default, the board edge
nearest the bottom of the image (the premium layout is symmetric, so pixels cannot tell South).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.errors import BoardNotFoundError, ImageQualityError, VisionError
from vision.rectify import SIZE, grid_homography

LINES = SIZE + 1
GRID_CORNERS = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
PerAxis = tuple[np.ndarray, np.ndarray]  # one array for the vertical lines, one for horizontal
# Line profiles measured on one photo (photo -> rect map, both axes' raw and smoothed), by the
# corners they were measured at (as bytes): see _measure.
Measured = dict[bytes, tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]]


@dataclass(frozen=True)
class LocateConfig:
    """Every threshold of the finder in one place (see the module docstring for the steps)."""

    work_px: int = 640  # long side of the copy the rough search runs on
    retry_work_px: int = 960  # ...and of the one it looks again on when that finds nothing
    lsd_scale: float = 0.8  # LSD's own downscale of the work copy (its default)
    lsd_quant: float = 2.0  # LSD's gradient noise bound: weaker gradients start no segment
    min_segment_px: float = 6.0  # shorter LSD segments are texture, not lines
    family_inlier_deg: float = 2.0  # a segment belongs to a vanishing point within this angle
    ransac_iterations: int = 200
    ransac_scored: int = 300  # longest segments that score the hypotheses
    min_family_separation_deg: float = 25.0  # the two families' directions differ at least so
    comb_min_cells_frac: float = 0.15  # the grid spans at least this share of the segment cloud
    comb_max_cells_frac: float = 1.05
    comb_log_step: float = 0.025  # period ladder of the comb search (2.5 % steps)
    comb_bins: int = 500  # histogram bins across the segment cloud
    max_aspect: float = 1.25  # cell width / height allowed in the rectified frame
    unknown_focal_range: tuple[float, float] = (0.9, 4.0)  # phone focals, in half long sides
    vp_angle_noise_deg: float = 0.5  # direction error of a fitted vanishing point, about
    focal_max_rel_error: float = 0.3  # a focal (squared) less certain than this is not used
    default_focal: float = 1.6  # in half long sides (~65 degrees across the long side)
    min_focal: float = 0.5
    max_focal: float = 6.0
    refine_cell_px: int = 24  # cell size of the rectified image the refinement measures in
    refine_rounds: int = 3
    # The first rounds fit the homography to every line sample at once (robust, converges from
    # a third of a cell off in about two rounds); the last fits lines, then their 256
    # intersections (RANSAC), which is what places the corners best once close (dev photos:
    # 29 of 31 within a quarter cell, against 26-27 with line fits only and 27 with samples
    # only; choosing among those 7 variants leave-one-source-out gives 28 of 31).
    sample_fit_rounds: int = 2
    sample_fit_cutoffs: tuple[float, ...] = (1.0, 0.5, 0.3, 0.15, 0.15)  # Tukey, in cells
    # Corners moving less than this in a round: refinement is done. Loose, since _converge now
    # places the chosen grid; these rounds only rank the hypotheses and pull them in (0.05
    # before: the finder 1.05x faster at 1600 px, no dev photo's worst error moving > 0.005).
    settled_cells: float = 0.1
    refine_source_cells: float = 2.5  # photo shrunk to about this many refine cells per cell
    shift_search_cells: int = 7  # how many whole cells the grid may slide after the comb
    shift_cell_px: int = 16
    min_shift_gain: float = 0.5  # mean cellness gained per cell moved in, to accept a shift
    refine_search_cells: float = 0.35  # how far (cells) a line may move in one round
    line_smooth_cells: float = 0.06  # line profiles smoothed this much: a line's 2 edges -> 1 peak
    support_tolerance: float = 0.15  # cells: a line sample this close to the grid supports it
    support_strength: float = 1.5  # ...and stands out this much from its surroundings
    focus_passes: int = 1  # re-runs on the segments inside the last pass's best grid...
    focus_period_range: float = 0.2  # log-range of periods a focused pass searches
    focus_converged_cells: float = 0.5  # stop re-running once the best grid moves less
    second_pass_grow: float = 1.15  # ...grown by this factor about its centre
    comb_candidates: int = 3  # rough hypotheses refined when the first is not convincing
    # Line support that (with square-like cells) ends the search. Lower than most boards reach
    # (tiles and wood hide lines): on the dev photos and 80 random renders no grid found later
    # beat a first one this good, and the photos that reach it no longer refine every other
    # hypothesis.
    good_enough: float = 0.6
    max_hypotheses: int = 6  # (the thorough second look: two more)
    same_quad_cells: float = 0.4  # a hypothesis this close to one already refined is skipped
    hopeless_support_gap: float = 0.15  # ...as is one this far below the best after one round
    cellness_weight: float = 0.2
    parity_min_support: float = 0.5  # every other line seen this well...
    parity_ratio: float = 0.4  # ...and the others less than this share of it: period halved
    symmetry_cell_px: int = 12
    min_symmetry_gain: float = 0.15  # relative drop of asymmetry needed to move by a cell
    cellness_full: float = 1.0  # mean cellness at which the squares count as fully convincing
    min_confidence: float = 0.4  # below this we say "no board" rather than guess
    min_axis_support: float = 0.36  # ...as when either family of grid lines is this poorly seen
    dark_p99: float = 30.0  # 99th-percentile grey below which the photo is too dark
    blur_laplacian_var: float = 12.0  # variance of Laplacian (on the work copy) below: too blurry
    cut_off_margin_cells: float = 0.15  # a corner this far outside the image: board cut off
    end_block_lines: int = 4  # the lines next to the outermost one, at each end of an axis...
    min_end_support: float = 0.25  # ...seen less than this: not a whole board (photos: >= 0.35)
    end_support_ratio: float = 0.45  # ...or than this share of the axis' median (photos: 0.64)
    # The refinement finds the *centres* of the grid lines; a grid's corner is the outer edge of
    # its border line (where people, and the truth files, put it). Half a border line, in cells:
    # fitted on the dev photos (0.1 is best on every leave-one-source-out split; 29 of 31
    # within a quarter cell held out, 20 without it: `python -m bench corners`).
    border_half_width_cells: float = 0.1
    # The last stage (:func:`_converge`) repeats one fixed fit until the corners stop moving, so
    # its answer does not depend on where the rounds above left off: restarted from the found
    # corners moved by ~0.1 cell, the worst error's spread per photo fell from a median of 0.013
    # (max 0.44) to 0.001 cell. Chosen on the dev photos among 24/32 px, 1/4/8 bands, one or two
    # smoothings (30 of 31 within a quarter cell against 29 before; every leave-one-source-out
    # split picks a converging variant, the one photo none gets is ssetser IMG_2687).
    converge_rounds: int = 10  # at most (2 or 3 are typical)
    converge_cell_px: int = 32  # finer than refine_cell_px: 24 px gave 28 of 31
    converge_search_cells: float = 0.2  # fixed window, so the same peaks win every round
    converge_bands: int = 4  # samples per line per cell: a tile edge is one outlier of many
    converge_cutoffs: tuple[float, ...] = (0.5, 0.3, 0.15, 0.15)  # Tukey, cells, every round
    converged_cells: float = 0.01


CONFIG = LocateConfig()


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
            f"photo too dark to find the board (brightest parts {high:.0f} of 255)"
        )
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


# ----------------------------------------------------------------------------------------------
# Segments and vanishing points


def _segments(gray: np.ndarray, config: LocateConfig) -> np.ndarray:
    """LSD segments as an (N, 4) float array x1 y1 x2 y2, short ones dropped."""
    detector = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD, config.lsd_scale, 0.6,
                                              config.lsd_quant)
    found = detector.detect(gray)[0]
    if found is None:
        return np.zeros((0, 4), np.float64)
    segs = found.reshape(-1, 4).astype(np.float64)
    length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    return segs[length >= config.min_segment_px]


def _homogeneous_lines(segs: np.ndarray) -> np.ndarray:
    p1 = np.column_stack([segs[:, 0], segs[:, 1], np.ones(len(segs))])
    p2 = np.column_stack([segs[:, 2], segs[:, 3], np.ones(len(segs))])
    lines = np.cross(p1, p2)
    return lines / np.linalg.norm(lines[:, :2], axis=1, keepdims=True)


Geometry = tuple[np.ndarray, np.ndarray, np.ndarray]  # segments' midpoints, directions, lengths


def _geometry(segs: np.ndarray) -> Geometry:
    """What :func:`_angle_to_vp` needs of each segment, worked out once for the several
    vanishing points each set of segments is measured against."""
    direction = segs[:, 2:] - segs[:, :2]
    return (segs[:, :2] + segs[:, 2:]) / 2, direction, np.linalg.norm(direction, axis=1)


def _angle_to_vp(geometry: Geometry, vp: np.ndarray) -> np.ndarray:
    """|sin| of the angle between each segment and the line from its midpoint to ``vp``."""
    mid, direction, length = geometry
    toward = vp[:2][None, :] - mid * vp[2]
    cross = direction[:, 0] * toward[:, 1] - direction[:, 1] * toward[:, 0]
    norm = length * np.linalg.norm(toward, axis=1) + 1e-12
    return np.abs(cross) / norm


def _fit_vp(lines: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Least-squares vanishing point: the point closest to all lines (homogeneous, unit norm)."""
    m = (lines * weights[:, None]).T @ lines
    _, vectors = np.linalg.eigh(m)
    return vectors[:, 0]


def _ransac_vp(
    segs: np.ndarray, lines: np.ndarray, lengths: np.ndarray, rng: np.random.Generator,
    config: LocateConfig, geometry: Geometry | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The vanishing point supported by the most segment length, and its inlier mask
    (``geometry``: :func:`_geometry` of ``segs``, if the caller has it)."""
    tol = np.sin(np.radians(config.family_inlier_deg))
    prob = lengths / lengths.sum()
    n = len(segs)
    # Hypotheses come from pairs of long segments; they are scored on the longest few hundred
    # (short ones add cost, not evidence).
    scored = np.argsort(-lengths)[: config.ransac_scored]
    picks = rng.choice(n, size=(config.ransac_iterations, 2), p=prob)
    picks = picks[picks[:, 0] != picks[:, 1]]
    candidates = np.cross(lines[picks[:, 0]], lines[picks[:, 1]])
    norms = np.linalg.norm(candidates, axis=1)
    candidates = candidates[norms > 1e-12] / norms[norms > 1e-12, None]
    if len(candidates) == 0:
        raise BoardNotFoundError("no Scrabble board found in the photo (no straight lines)")
    # All hypotheses against all segments at once: a segment (midpoint m, unit direction d) is
    # an inlier of v when |d x t| < tol |t| for t = v_xy - m v_z, the way from m to v. Both
    # sides squared are products with the hypotheses (d x t is v . (-d_y, d_x, d_y m_x - d_x m_y)
    # and |t|^2 is |v_xy|^2 - 2 v_z v_xy . m + v_z^2 |m|^2): a few matrix operations instead of a
    # dozen passes over hypotheses x segments (the same inliers on every dev photo, 5x faster).
    sub = segs[scored]
    mid = (sub[:, :2] + sub[:, 2:]) / 2
    direction = sub[:, 2:] - sub[:, :2]
    direction = direction / (np.linalg.norm(direction, axis=1, keepdims=True) + 1e-12)
    seg_lines = np.column_stack([-direction[:, 1], direction[:, 0],
                                 direction[:, 1] * mid[:, 0] - direction[:, 0] * mid[:, 1]])
    cross = candidates @ seg_lines.T
    v_z = candidates[:, 2:]
    toward_sq = ((candidates[:, :2] ** 2).sum(axis=1)[:, None]
                 - 2 * v_z * (candidates[:, :2] @ mid.T) + v_z**2 * (mid**2).sum(axis=1)[None, :])
    inlier_matrix = cross * cross < tol * tol * toward_sq
    best_vp = candidates[int(np.argmax(inlier_matrix.astype(np.float32) @ lengths[scored]))]
    # Least squares on the inliers, tightening the tolerance: texture lines (wood grain, the
    # table edge) that pass within 2 degrees would otherwise pull the point a few degrees off.
    if geometry is None:
        geometry = _geometry(segs)
    vp = best_vp
    for shrink in (1.0, 0.5, 0.25):
        close = _angle_to_vp(geometry, vp) < tol * shrink
        if close.sum() < 8:
            break
        vp = _fit_vp(lines[close], lengths[close])
    return vp, _angle_to_vp(geometry, vp) < tol


# ----------------------------------------------------------------------------------------------
# Comb of 16 equally spaced lines


def _comb_scores(
    positions: np.ndarray, weights: np.ndarray, periods: np.ndarray, bins_across: int,
    extent: tuple[float, float],
) -> tuple[np.ndarray, np.ndarray]:
    """For each period, the best comb offset and its score (teeth minus gaps, sqrt weights).
    ``extent``: the 1st and 99th percentiles of ``positions`` (the caller has them already)."""
    lo, hi = extent
    span = max(hi - lo, 1e-6)
    resolution = span / bins_across
    bins = np.arange(lo - 0.1 * span, hi + 0.1 * span + resolution, resolution)
    hist, _ = np.histogram(positions, bins=bins, weights=weights)
    hist32 = hist.reshape(1, -1).astype(np.float32)
    offsets = np.full(len(periods), np.nan)
    scores = np.full(len(periods), -np.inf)
    half_steps = np.concatenate([np.arange(LINES), np.arange(SIZE) + 0.5])  # teeth, then gaps
    tooth_weights = np.concatenate([np.ones(LINES), np.full(SIZE, -LINES / SIZE)])
    sigmas = np.maximum(0.7, 0.08 * periods / resolution)
    keys = np.round(sigmas * 4).astype(int)
    n = hist32.shape[1]
    steps = periods / resolution
    # Per period: the last start that keeps the comb inside, and the columns (bins after the
    # start) of its 16 teeth, then of the 15 gaps between them.
    lasts = n - np.ceil(SIZE * steps).astype(int) - 1
    columns = np.round(half_steps[None, :] * steps[:, None]).astype(int)
    # Periods sharing a smoothing width share one smoothed profile.
    for key in np.unique(keys):
        group = np.flatnonzero(keys == key)
        sigma_bins = float(sigmas[group[0]])
        ksize = int(6 * sigma_bins) | 1
        profile = cv2.GaussianBlur(hist32, (ksize, 1), sigma_bins).ravel()
        # Scale so a tooth collects the weight within about a tenth of a cell, whatever the
        # period: an area-normalised kernel would favour narrow teeth, i.e. tiny combs.
        profile = np.sqrt(np.maximum(profile * (sigma_bins * np.sqrt(2 * np.pi)), 0))
        # In float64 once, not per period (the product with the float64 weights converts it).
        padded = np.concatenate([profile, np.zeros(n + 2, profile.dtype)]).astype(np.float64)
        # Every start of a comb at once: row s of ``windows`` is the profile from bin s on, so a
        # comb's teeth and gaps are a few columns of it (a view, nothing is copied).
        # (``as_strided``: the same view as ``sliding_window_view``, without its checks.)
        windows = np.lib.stride_tricks.as_strided(
            padded, (n + 1, n + 2), (padded.strides[0], padded.strides[0]), writeable=False)
        for index in group:
            last = lasts[index]
            if last <= 0:
                continue
            # Teeth minus the gaps between them: a comb of the wrong period also collects
            # lines in its gaps, a comb on the grid does not (cell middles hold no long lines).
            sums = windows[:last, columns[index]] @ tooth_weights
            best = int(np.argmax(sums))
            offsets[index] = bins[best] + resolution / 2
            scores[index] = sums[best]
    return offsets, scores


def _comb_candidates(
    x_family: tuple[np.ndarray, np.ndarray],
    y_family: tuple[np.ndarray, np.ndarray],
    config: LocateConfig,
    expected_period: float | None = None,
    aspect_range: tuple[float, float] | None = None,
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """Pairs of combs whose periods agree (the metric frame makes cells nearly square), best
    first; each (offset, period, score) per axis. Several are kept because logos, score charts
    and clutter can out-score the grid, and the refinement tells them apart much better."""
    extents = [tuple(np.percentile(pos, [1, 99])) for pos, _ in (x_family, y_family)]
    span = max(max(hi - lo for lo, hi in extents), 1e-6)
    log_lo = np.log(config.comb_min_cells_frac * span / SIZE)
    log_hi = np.log(config.comb_max_cells_frac * span / SIZE)
    if expected_period is not None and np.isfinite(expected_period) and expected_period > 0:
        # A focused pass: the previous grid already tells the cell size to within a few percent.
        log_lo = max(log_lo, np.log(expected_period) - config.focus_period_range)
        log_hi = min(log_hi, np.log(expected_period) + config.focus_period_range)
        if log_hi <= log_lo:
            return []
    log_step = config.comb_log_step
    periods = np.exp(np.arange(log_lo, log_hi, log_step))
    # One resolution for all: offsets to ~1/16 cell and periods to 2.5 % (at most 0.1 cell off at
    # either end of a comb centred on the grid) are inside what the line-by-line refinement pulls
    # in (a third of a cell).
    x_off, x_score = _comb_scores(*x_family, periods, config.comb_bins, extents[0])
    y_off, y_score = _comb_scores(*y_family, periods, config.comb_bins, extents[1])
    # y periods paired with x period i: log(py / px) within the aspect range.
    if aspect_range is None:
        aspect_range = (-np.log(config.max_aspect), np.log(config.max_aspect))
    below = int(np.floor(aspect_range[0] / log_step))
    above = int(np.ceil(aspect_range[1] / log_step))
    # For every x period at once, its window of y periods (out-of-range ones ruled out): the
    # first best of each window, as np.argmax over the window would pick it.
    count = len(periods)
    window = np.arange(count)[:, None] + np.arange(below, above + 1)[None, :]
    inside = (window >= 0) & (window < count)
    candidates_y = np.where(inside, y_score[np.clip(window, 0, count - 1)], -np.inf)
    # A window of only unusable periods (all -inf) picks its first period inside, as before.
    first_inside = np.argmax(inside, axis=1)
    best_in_window = np.where(np.isfinite(candidates_y).any(axis=1),
                              np.argmax(candidates_y, axis=1), first_inside)
    pair_j = window[np.arange(count), best_in_window]
    pair_total = np.where(inside.any(axis=1), x_score + y_score[np.clip(pair_j, 0, count - 1)],
                          -np.inf)
    suppress = int(round(np.log(1.15) / log_step))
    candidates: list[tuple[tuple[float, float, float], tuple[float, float, float]]] = []
    taken: list[int] = []
    for i in np.argsort(-pair_total):
        if len(candidates) >= config.comb_candidates or not np.isfinite(pair_total[i]):
            break
        if any(abs(int(i) - t) <= suppress for t in taken):
            continue
        taken.append(int(i))
        j = pair_j[i]
        candidates.append(
            ((float(x_off[i]), float(periods[i]), float(x_score[i])),
             (float(y_off[j]), float(periods[j]), float(y_score[j])))
        )
    return candidates


def _metric_rectification(
    vp_a: np.ndarray, vp_b: np.ndarray, config: LocateConfig, focal: float | None = None
) -> tuple[np.ndarray, bool]:
    """A homography (normalised image coords -> board frame) making family A vertical, B
    horizontal and, as far as the focal length estimate allows, cells square; and whether the
    focal length was measured (False: a typical one was assumed, so cells may come out oblong:
    over 2:1 in a steep view whose other family of lines stays parallel). ``focal`` forces one.

    The camera is rotated (virtually) to face the board: the plane normal is K' times the
    vanishing line. The focal length comes from the two vanishing points (orthogonal directions),
    falling back to a typical phone's when they are too close to infinity to tell.
    """
    horizon = np.cross(vp_a, vp_b)
    measured = focal is not None
    focal = config.default_focal if focal is None else focal
    if not measured and abs(vp_a[2]) > 1e-9 and abs(vp_b[2]) > 1e-9:
        a = vp_a[:2] / vp_a[2]
        b = vp_b[:2] / vp_b[2]
        f2 = -float(a @ b)
        # f^2 = -a.b is only as good as the directions of a and b: a vanishing point far out
        # (lines nearly parallel in the photo) turns a fraction of a degree into a wild focal.
        error = np.linalg.norm(a) * np.linalg.norm(b) * 2 * np.sin(
            np.radians(config.vp_angle_noise_deg)
        )
        if config.min_focal**2 < f2 < config.max_focal**2:
            focal = float(np.sqrt(f2))
            measured = error < config.focal_max_rel_error * f2
    k = np.diag([focal, focal, 1.0])
    normal = k.T @ horizon
    normal = normal / np.linalg.norm(normal)
    if normal[2] < 0:
        normal = -normal
    axis = np.cross(normal, [0.0, 0.0, 1.0])
    sin_angle = np.linalg.norm(axis)
    if sin_angle > 1e-9:
        angle = np.arctan2(sin_angle, normal[2])
        rotation, _ = cv2.Rodrigues((axis / sin_angle * angle).reshape(3, 1))
    else:
        rotation = np.eye(3)
    to_front = k @ rotation @ np.linalg.inv(k)
    dir_a = to_front @ vp_a
    dir_b = to_front @ vp_b
    dir_a = dir_a[:2] / np.linalg.norm(dir_a[:2])
    dir_b = dir_b[:2] / np.linalg.norm(dir_b[:2])
    # Family A lines become vertical (direction (0, 1)), family B horizontal (direction (1, 0)).
    basis = np.column_stack([dir_b, dir_a])
    if abs(np.linalg.det(basis)) < 1e-6:
        raise BoardNotFoundError("no Scrabble board found in the photo (parallel line families)")
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    return affine @ to_front, measured


def _aspect_range(
    vp_a: np.ndarray, vp_b: np.ndarray, to_rect: np.ndarray, measured: bool,
    config: LocateConfig,
) -> tuple[float, float]:
    """The range of log(cell height / cell width) a square cell may show in ``to_rect``'s frame.

    Only the cells' aspect depends on the focal length (the frames of two focal lengths differ
    by a scaling of each axis), so an unmeasured focal widens the comb pairing to every aspect
    a plausible phone focal length would give, instead of guessing one.
    """
    tolerance = np.log(config.max_aspect)
    if measured:
        return -tolerance, tolerance
    logs = [0.0]
    for focal in config.unknown_focal_range:
        other, _ = _metric_rectification(vp_a, vp_b, config, focal)
        change = other @ np.linalg.inv(to_rect)
        change = change / change[2, 2]
        # A square in the true frame (focal f) shows sx/sy in ours: x scaled sx, y sy there.
        logs.append(float(np.log(abs(change[0, 0]) / max(abs(change[1, 1]), 1e-12))))
    return min(logs) - tolerance, max(logs) + tolerance


def _rough_grids(
    gray: np.ndarray, config: LocateConfig, details: dict, thorough: bool = False
) -> Iterator[np.ndarray]:
    """Candidate grid corners (4x2, work-copy pixels, clockwise from any corner), best first.

    Two passes: the first uses every segment in the photo; the second only those inside the
    first pass's best grid, so that wood grain, table edges and clutter no longer pull the
    vanishing points (a slightly wrong perspective makes the comb take the frame for a line).
    Lazily: when the first pass's best grid settles convincingly, the second never runs.
    ``thorough`` (the second look at a photo) also pairs a third family of lines with each of
    the first two.
    """
    segs = _segments(gray, config)
    details["segments"] = int(len(segs))
    if len(segs) < 30:
        raise BoardNotFoundError("no Scrabble board found in the photo (too few straight lines)")
    height, width = gray.shape
    scale = max(height, width) / 2.0
    centre = np.array([width / 2.0, height / 2.0])
    norm_segs = np.column_stack(
        [(segs[:, :2] - centre) / scale, (segs[:, 2:] - centre) / scale]
    )

    def photo(quad: np.ndarray) -> np.ndarray:
        return _clockwise(quad * scale + centre)

    rng = np.random.default_rng(12345)
    first = _grids_from_segments(norm_segs, rng, config)
    if not first:
        return
    yield photo(first[0])
    later = list(first[1:])
    focus = first[0]
    for _pass in range(config.focus_passes):
        grown = focus.mean(axis=0) + (focus - focus.mean(axis=0)) * config.second_pass_grow
        inside = _inside_quad(norm_segs[:, :2], grown) & _inside_quad(norm_segs[:, 2:], grown)
        if inside.sum() < 30:
            break
        try:
            focused = _grids_from_segments(norm_segs[inside], rng, config, focus)
        except BoardNotFoundError:
            break
        if not focused:
            break
        yield photo(focused[0])
        later += focused[1:]
        moved = np.max(np.linalg.norm(focused[0] - focus, axis=1)) / (
            np.mean(np.linalg.norm(focus - np.roll(focus, 1, axis=0), axis=1)) / SIZE
        )
        focus = focused[0]
        if moved < config.focus_converged_cells:
            break
    for quad in later:
        yield photo(quad)
    if thorough:
        for quad in _third_family_grids(norm_segs, np.random.default_rng(54321), config):
            yield photo(quad)


def _inside_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Which points lie inside a convex quadrilateral (either winding)."""
    signs = np.array([
        (b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0])
        for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True)
    ])
    return np.all(signs >= 0, axis=0) | np.all(signs <= 0, axis=0)


def _families(
    norm_segs: np.ndarray, rng: np.random.Generator, config: LocateConfig, count: int = 2
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Up to ``count`` families of segments, strongest first: (vanishing point, member mask).

    Each next family is found among the segments no earlier family claims and that point well
    away from every earlier family's direction.
    """
    lines = _homogeneous_lines(norm_segs)
    lengths = np.hypot(norm_segs[:, 2] - norm_segs[:, 0], norm_segs[:, 3] - norm_segs[:, 1])
    geometry = _geometry(norm_segs)
    families: list[tuple[np.ndarray, np.ndarray]] = []
    free = np.ones(len(norm_segs), bool)
    separation = np.sin(np.radians(config.min_family_separation_deg))
    for _ in range(count):
        if families and free.sum() < 10:
            break
        vp, members_free = _ransac_vp(norm_segs[free], lines[free], lengths[free], rng, config,
                                      (geometry[0][free], geometry[1][free], geometry[2][free]))
        members = np.zeros(len(norm_segs), bool)
        members[np.flatnonzero(free)[members_free]] = True
        families.append((vp, members))
        free &= ~members & (_angle_to_vp(geometry, vp) > separation)
    return families


def _grids_from_segments(
    norm_segs: np.ndarray,
    rng: np.random.Generator,
    config: LocateConfig,
    previous: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Vanishing points, metric frame and combs for one set of segments (normalised coords),
    from the two strongest families of segments."""
    families = _families(norm_segs, rng, config, 2)
    if len(families) < 2:
        raise BoardNotFoundError("no Scrabble board found in the photo (one family of lines only)")
    return _pair_grids(norm_segs, families[0], families[1], config, previous)


def _pair_grids(
    norm_segs: np.ndarray,
    family_a: tuple[np.ndarray, np.ndarray],
    family_b: tuple[np.ndarray, np.ndarray],
    config: LocateConfig,
    previous: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Rough grids (normalised coords) whose lines are the two given families."""
    (vp_a, in_a), (vp_b, in_b) = family_a, family_b
    to_rect, focal_measured = _metric_rectification(vp_a, vp_b, config)
    aspect = _aspect_range(vp_a, vp_b, to_rect, focal_measured, config)

    def family_positions(mask: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
        p1, w1 = _apply(to_rect, norm_segs[mask, :2])
        p2, w2 = _apply(to_rect, norm_segs[mask, 2:])
        ok = (w1 > 0) & (w2 > 0)
        position = (p1[ok, axis] + p2[ok, axis]) / 2
        weight = np.linalg.norm(p2[ok] - p1[ok], axis=1)
        return position, weight

    x_pos, x_w = family_positions(in_a, 0)
    y_pos, y_w = family_positions(in_b, 1)
    if len(x_pos) < 8 or len(y_pos) < 8:
        raise BoardNotFoundError("no Scrabble board found in the photo (too few grid lines)")
    back = np.linalg.inv(to_rect)
    expected = None
    if previous is not None:
        rect_prev, w = _apply(to_rect, previous)
        if np.all(w > 0):
            expected = float(np.mean(np.linalg.norm(
                rect_prev - np.roll(rect_prev, 1, axis=0), axis=1))) / SIZE
    quads = []
    for (ox, px, _), (oy, py, _) in _comb_candidates(
        (x_pos, x_w / x_w.sum()), (y_pos, y_w / y_w.sum()), config, expected, aspect
    ):
        rect_corners = np.array(
            [[ox, oy], [ox + SIZE * px, oy], [ox + SIZE * px, oy + SIZE * py],
             [ox, oy + SIZE * py]]
        )
        pts, _ = _apply(back, rect_corners)
        if np.all(np.isfinite(pts)):
            quads.append(pts)
    return quads


def _third_family_grids(
    norm_segs: np.ndarray, rng: np.random.Generator, config: LocateConfig
) -> list[np.ndarray]:
    """Rough grids that pair a third family with each of the two strongest: wood grain, floor
    boards or a table edge can out-weigh one family of grid lines."""
    families = _families(norm_segs, rng, config, 3)
    quads: list[np.ndarray] = []
    if len(families) < 3:
        return quads
    for first, second in ((0, 2), (1, 2)):
        try:
            best = _pair_grids(norm_segs, families[first], families[second], config)
        except BoardNotFoundError:
            continue
        quads += best[:1]
    return quads


def _apply(h: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Apply a homography to N x 2 points: (points, homogeneous w before division)."""
    ph = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    w = ph[:, 2]
    safe = np.where(np.abs(w) < 1e-12, 1e-12, w)
    return ph[:, :2] / safe[:, None], w


def _clockwise(corners: np.ndarray) -> np.ndarray:
    """The same four points ordered clockwise on screen (y down), starting anywhere."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return corners[np.argsort(angles)]


SIDES = ("bottom", "left", "top", "right")


def south_at(corners: np.ndarray, side: str = "bottom") -> np.ndarray:
    """Relabel the corners TL TR BR BL so South's edge (BR-BL) is the board edge nearest the
    given image side ("bottom", "left", "top" or "right")."""
    if side not in SIDES:
        raise ValueError(f"South must be one of {', '.join(SIDES)}, not {side!r}")
    quad = _clockwise(np.asarray(corners, dtype=np.float64))
    mids = np.array([(quad[i] + quad[(i + 1) % 4]) / 2 for i in range(4)])
    key = {"bottom": mids[:, 1], "top": -mids[:, 1], "right": mids[:, 0], "left": -mids[:, 0]}
    south_edge = int(np.argmax(key[side]))
    # Clockwise TL, TR, BR, BL: South's edge runs from BR (index 2) to BL (index 3).
    return np.roll(quad, -((south_edge - 2) % 4), axis=0)


def south_at_bottom(corners: np.ndarray) -> np.ndarray:
    """The default labelling: South is the board edge nearest the bottom of the image."""
    return south_at(corners, "bottom")


# ----------------------------------------------------------------------------------------------
# Refinement against the grid lines


def _cellness(gray: np.ndarray, quad: np.ndarray, extra: int, cell: int) -> np.ndarray:
    """How much each cell of an extended (15 + 2*extra)^2 grid looks like a square of the board.

    A board square is bounded by edges on its four sides (grid lines, premium-square borders,
    tile edges) and is calmer in its middle; the frame, the table and the carpet are not. The
    result (rows x cols) is a log ratio of edge strength on the cell sides to that at mid-cell.
    """
    n = SIZE + 2 * extra
    size = n * cell
    grid_to_photo = grid_homography(quad)
    grid_to_rect = np.array(
        [[cell, 0, extra * cell], [0, cell, extra * cell], [0, 0, 1]], np.float64
    )
    photo_to_rect = grid_to_rect @ np.linalg.inv(grid_to_photo)
    rect = cv2.warpPerspective(gray, photo_to_rect, (size, size), flags=cv2.INTER_AREA)
    rect = cv2.GaussianBlur(rect, (3, 3), 0)
    # Gradients in 16-bit integers: of an 8-bit image they are exact there, as in float, at a
    # fraction of the cost; every sum below stays an exact integer in float32. The gradient
    # across the columns is taken on the transposed image (the same numbers: Sobel's kernel
    # and border are symmetric), so that both are read along contiguous rows.
    gy = cv2.Sobel(rect, cv2.CV_16S, 0, 1, ksize=3)
    gx_t = cv2.Sobel(cv2.transpose(rect), cv2.CV_16S, 0, 1, ksize=3)
    half = (max(3, cell // 6) | 1) // 2
    reach = np.arange(-half, half + 1)
    inset = max(1, cell // 5)

    def along_rows(grad: np.ndarray, ys: np.ndarray) -> np.ndarray:
        # |grad| along row y, spread over the rows ``reach`` away (a dilation, so a line a pixel
        # off still counts, worked out only at the rows used), then its mean over each cell's
        # inner x range -> (len(ys), n)
        near = np.clip(np.clip(ys, 0, size - 1)[:, None] + reach, 0, size - 1)
        rows = np.abs(grad[near]).max(axis=1).astype(np.float32)
        inner = rows.reshape(len(ys), n, cell)[:, :, inset:cell - inset]
        return inner.mean(axis=2)

    lines = np.arange(n + 1) * cell
    mids = np.arange(n) * cell + cell // 2
    h_edge = along_rows(gy, lines)  # (n+1, n): horizontal line j, column c
    h_mid = along_rows(gy, mids)  # (n, n)
    v_edge = along_rows(gx_t, lines)  # (n+1, n): vertical line i, row r
    v_mid = along_rows(gx_t, mids)
    middle = (h_mid + v_mid.T) / 2
    sides = (h_edge[:-1], h_edge[1:], v_edge[:-1].T, v_edge[1:].T)
    eps = max(2.0, 0.1 * float(np.median(h_edge)))
    # Every side must show an edge: the mean of logs punishes a cell with one strong side (the
    # frame cell next to the outermost grid line) far more than a ratio of sums would.
    score = sum(np.log((side + eps) / (middle + eps)) for side in sides) / 4
    # Cells off the photo cannot be board squares (the photo edge itself looks like a line).
    centres = (np.stack(np.meshgrid(np.arange(n), np.arange(n)), axis=-1).reshape(-1, 2)
               - extra + 0.5)
    photo_pts, w = _apply(grid_to_photo, centres.astype(np.float64))
    height, width = gray.shape[:2]
    inside = (
        (w > 0) & (photo_pts[:, 0] >= 0) & (photo_pts[:, 1] >= 0)
        & (photo_pts[:, 0] < width) & (photo_pts[:, 1] < height)
    ).reshape(n, n)
    score[~inside] = -1.0
    return score


@dataclass(frozen=True)
class ShiftResult:
    corners: np.ndarray
    shift: tuple[int, int]
    gain: float  # mean cellness gained per cell row/column moved in
    cellness: float  # mean cellness of the 15x15 window finally chosen
    ring: float  # mean cellness of the cells just around it (inside the photo), -1 if none
    ring_cut: bool  # some of those cells fall off the photo


def fix_grid_shift(
    gray: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG
) -> ShiftResult:
    """Slide the 15x15 window by whole cells to where the squares look most like squares.

    The comb can lock onto the frame edge one or more cells outside the grid; the four edges of
    every board square are what the frame lacks. A move must gain clearly (``min_shift_gain``)
    over staying put, since sticky notes and tiles beside the board also have edges.
    """
    extra = config.shift_search_cells
    cell = config.shift_cell_px
    score = _cellness(gray, quad, extra, cell)
    integral = cv2.integral(score.astype(np.float64))

    def window(dx: int, dy: int) -> float:
        y0, x0 = extra + dy, extra + dx
        return float(
            integral[y0 + SIZE, x0 + SIZE] - integral[y0, x0 + SIZE]
            - integral[y0 + SIZE, x0] + integral[y0, x0]
        )

    # Every window's total at once (the same sums as ``window``), then the first clearly best
    # in row order, as one window at a time would find it.
    span = 2 * extra + 1
    totals = (integral[SIZE:SIZE + span, SIZE:SIZE + span] - integral[:span, SIZE:SIZE + span]
              - integral[SIZE:SIZE + span, :span] + integral[:span, :span]).tolist()
    stay = window(0, 0)
    best, best_shift = stay, (0, 0)
    for dy in range(-extra, extra + 1):
        for dx, total in zip(range(-extra, extra + 1), totals[dy + extra], strict=True):
            if total > best + 1e-9:
                best, best_shift = total, (dx, dy)
    dx, dy = best_shift
    gain = (best - stay) / (SIZE * max(1, abs(dx) + abs(dy)))
    if (dx, dy) == (0, 0) or gain < config.min_shift_gain:
        dx, dy = 0, 0
    # The ring of cells around the chosen window: frame and table on a whole board, more
    # squares when the window is a piece of a bigger grid (or the board runs off the photo).
    padded = np.pad(score, 1, constant_values=-1.0)
    y0, x0 = extra + dy + 1, extra + dx + 1
    ring_cells = np.concatenate([
        padded[y0 - 1, x0 - 1:x0 + SIZE + 1], padded[y0 + SIZE, x0 - 1:x0 + SIZE + 1],
        padded[y0:y0 + SIZE, x0 - 1], padded[y0:y0 + SIZE, x0 + SIZE],
    ])
    inside = ring_cells > -1.0
    ring = float(ring_cells[inside].mean()) if inside.any() else -1.0
    ring_cut = bool((~inside).any())
    chosen = window(dx, dy) / SIZE**2
    if (dx, dy) == (0, 0):
        return ShiftResult(quad, (0, 0), gain, chosen, ring, ring_cut)
    h = grid_homography(quad)
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float) + [dx, dy]
    moved, _ = _apply(h, grid)
    return ShiftResult(moved, (dx, dy), gain, chosen, ring, ring_cut)


def _rectify_gray(gray: np.ndarray, quad: np.ndarray, cell: int, margin: int) -> tuple:
    grid_to_photo = grid_homography(quad)
    grid_to_rect = np.array([[cell, 0, margin], [0, cell, margin], [0, 0, 1]], np.float64)
    photo_to_rect = grid_to_rect @ np.linalg.inv(grid_to_photo)
    size = SIZE * cell + 2 * margin
    rect = cv2.warpPerspective(gray, photo_to_rect, (size, size), flags=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(rect, (3, 3), 0), photo_to_rect


def line_support(gray: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG) -> float:
    """The share of the 2 x 16 x 15 line samples that sit where the grid says, and stand out.

    A grid of the wrong size or place still finds *some* line near each expected one (its
    search window reaches a real line); counting only samples within a tenth of a cell of the
    expected position is what tells the true grid from a lucky one.
    """
    return float(_line_hits(gray, quad, config).mean())


def _line_hits(
    gray: np.ndarray, quad: np.ndarray, config: LocateConfig, memo: Measured | None = None
) -> np.ndarray:
    """Per axis (vertical lines, horizontal lines) and line, the share of its 15 samples that
    support it (see :func:`line_support`): a 2 x 16 array."""
    cell = config.refine_cell_px
    return _hits_from_profiles(_measure(gray, quad, config, memo)[1], cell, config)


def _measure(
    gray: np.ndarray, quad: np.ndarray, config: LocateConfig, memo: Measured | None = None
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """The photo -> rect map and both axes' :func:`_line_profiles` of ``gray`` rectified at
    ``refine_cell_px`` a cell (one cell of margin) with the corners ``quad``.

    ``memo`` keeps them by the exact corners: a hypothesis' quick look (:func:`_hopeless`) and
    its full refinement start from the same corners, so without it the first two warps of the
    refinement would repeat that look's, bit for bit.
    """
    key = np.ascontiguousarray(quad, dtype=np.float64).tobytes()
    if memo is not None and key in memo:
        return memo[key]
    cell = config.refine_cell_px
    rect, photo_to_rect = _rectify_gray(gray, quad, cell, cell)
    measured = (photo_to_rect, [_line_profiles(rect, axis, cell, cell, config)
                                for axis in (0, 1)])
    if memo is not None:
        memo[key] = measured
    return measured


def _hits_from_profiles(
    profiles: list[tuple[np.ndarray, np.ndarray]], cell: int, config: LocateConfig
) -> np.ndarray:
    """:func:`_line_hits` from the two axes' :func:`_line_profiles` of a rectified image."""
    margin = cell
    radius = int(round(0.35 * cell))
    expected = margin + np.arange(LINES)[:, None] * cell
    hits = []
    for raw, smooth in profiles:
        found, strength = _line_peaks(raw, smooth, margin, cell, radius)
        near = np.abs(np.nan_to_num(found - expected, nan=cell)) < config.support_tolerance * cell
        hits.append((near & (strength > config.support_strength)).mean(axis=1))
    return np.array(hits)


def _doubled(quad: np.ndarray, hits: np.ndarray, config: LocateConfig) -> np.ndarray | None:
    """The grid of twice the cell size, when every other line of this one is missing.

    A comb can lock onto half the true period (printed words and tile letters sit in the cell
    middles); such a grid still lies on half its lines, so it is found and refined happily.
    Its tell: along that axis the even lines are supported and the odd ones not (or the other
    way round). The doubled grid keeps the supported lines and is centred where this one was.
    """
    lows, highs = [0.0, 0.0], [float(SIZE), float(SIZE)]
    doubled = False
    for axis in (0, 1):
        even, odd = hits[axis, ::2].mean(), hits[axis, 1::2].mean()
        strong, weak = max(even, odd), min(even, odd)
        if strong >= config.parity_min_support and weak < config.parity_ratio * strong:
            parity = 0 if even >= odd else 1
            start = parity + 2 * round((SIZE / 2 - SIZE - parity) / 2)
            lows[axis], highs[axis] = start, start + 2 * SIZE
            doubled = True
    if not doubled:
        return None
    grid = np.array([[lows[0], lows[1]], [highs[0], lows[1]], [highs[0], highs[1]],
                     [lows[0], highs[1]]], float)
    return _apply(grid_homography(quad), grid)[0]


def symmetry_shift(
    image: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG
) -> tuple[tuple[int, int], tuple[float, float]]:
    """The whole-cell move (-1..1 each way) that makes the 15x15 colours most mirror-symmetric.

    The premium squares are laid out symmetrically about both middle lines, the frame and table
    are not: a window one cell off mirrors a frame column onto a board column. Returns the move
    and its gain per axis (relative drop of the asymmetry; 0 when staying is best).
    """
    if image.ndim == 2:
        return (0, 0), (0.0, 0.0)
    cell = config.symmetry_cell_px
    n = SIZE + 2
    grid_to_photo = grid_homography(quad)
    grid_to_rect = np.array([[cell, 0, cell], [0, cell, cell], [0, 0, 1]], np.float64)
    photo_to_rect = grid_to_rect @ np.linalg.inv(grid_to_photo)
    rect = cv2.warpPerspective(image, photo_to_rect, (n * cell, n * cell), flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2LAB).astype(np.float32)
    inset = cell // 5
    cells = lab.reshape(n, cell, n, cell, 3)[:, inset:cell - inset, :, inset:cell - inset]
    means = cells.mean(axis=(1, 3))  # (n, n, 3) rows, cols
    scale = float(means[1:-1, 1:-1].std(axis=(0, 1)).mean()) + 1e-6

    def asymmetry(dx: int, dy: int, axis: int) -> float:
        block = means[1 + dy:1 + dy + SIZE, 1 + dx:1 + dx + SIZE]
        mirrored = block[:, ::-1] if axis == 0 else block[::-1, :]
        return float(np.abs(block - mirrored).mean()) / scale

    # Columns are judged by the left-right mirror, rows by the up-down one.
    move, gains = [0, 0], [0.0, 0.0]
    for axis in (0, 1):
        stay = asymmetry(0, 0, axis)
        for step in (-1, 1):
            value = asymmetry(step if axis == 0 else 0, step if axis == 1 else 0, axis)
            gain = (stay - value) / max(stay, 1e-6)
            if gain > gains[axis]:
                move[axis], gains[axis] = step, gain
    return (move[0], move[1]), (gains[0], gains[1])


def _refine(
    gray: np.ndarray, corners: np.ndarray, config: LocateConfig, rounds: int | None = None,
    memo: Measured | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Pull corners onto the grid lines of ``gray``: the corners, and the per-line support
    (:func:`_line_hits`) at them (``memo``: see :func:`_measure`)."""
    cell = config.refine_cell_px
    margin = cell  # one cell around the grid, so lines can be found a little outside
    quad = np.asarray(corners, dtype=np.float64)
    search = config.refine_search_cells
    for _round in range(config.refine_rounds if rounds is None else rounds):
        photo_to_rect, profiles = _measure(gray, quad, config, memo)
        radius = int(round(search * cell))
        found_x, strength_x = _line_peaks(*profiles[0], margin, cell, radius)
        found_y, strength_y = _line_peaks(*profiles[1], margin, cell, radius)
        founds, strengths = (found_x, found_y), (strength_x, strength_y)
        if _round < config.sample_fit_rounds:
            new_quad = _quad_from_samples(founds, strengths, photo_to_rect, cell,
                                          config.sample_fit_cutoffs)
        else:
            new_quad = _quad_from_lines(founds, strengths, photo_to_rect, cell,
                                        0.15 * _cell_px(quad))
        if new_quad is None:
            break
        shift = np.max(np.linalg.norm(new_quad - quad, axis=1)) / _cell_px(quad)
        quad = new_quad
        search = max(0.15, search * 0.6)
        if shift < config.settled_cells:
            # Settled: the lines sit within ``settled_cells`` of where this round measured
            # them, so its profiles tell the support as well as a fresh warp would.
            return quad, _hits_from_profiles(profiles, cell, config)
    return quad, _line_hits(gray, quad, config, memo)


def _converge(gray: np.ndarray, quad: np.ndarray, config: LocateConfig) -> np.ndarray:
    """The corners where one fixed fit of the homography to the line samples reproduces itself.

    :func:`_refine` shrinks its search window every round and stops after a few, so it locks in
    whichever peak was near when it started: restarted a tenth of a cell away, it ended up to
    0.4 cell elsewhere on some photos. Here every round is the same map from corners to corners
    (window, cut-offs, resolution and ``converge_bands`` samples per line per cell all fixed),
    repeated until the corners move less than ``converged_cells``: its fixed point depends on
    the photo, not on the start. The finer bands make a tile edge beside a line a few outliers
    among many samples instead of the whole sample of a cell.
    """
    cell = config.converge_cell_px
    margin = cell
    radius = int(round(config.converge_search_cells * cell))
    bands = config.converge_bands
    for _round in range(config.converge_rounds):
        rect, photo_to_rect = _rectify_gray(gray, quad, cell, margin)
        (found_x, strength_x), (found_y, strength_y) = (
            _line_peaks(*_line_profiles(rect, axis, margin, cell, config, bands),
                        margin, cell, radius)
            for axis in (0, 1)
        )
        new_quad = _quad_from_samples((found_x, found_y), (strength_x, strength_y),
                                      photo_to_rect, cell, config.converge_cutoffs, bands)
        if new_quad is None:
            break
        shift = np.max(np.linalg.norm(new_quad - quad, axis=1)) / _cell_px(quad)
        quad = new_quad
        if shift < config.converged_cells:
            break
    return quad


def _quad_from_samples(
    founds: PerAxis, strengths: PerAxis, photo_to_rect: np.ndarray, cell: int,
    cutoffs: tuple[float, ...], bands_per_cell: int = 1,
) -> np.ndarray | None:
    """Corners from the homography that best puts every line sample on its line.

    A sample of vertical line k at rect point p asks m[0].p = k m[2].p (horizontal: m[1]), for
    the unknown m taking the rect's grid units to the true ones: linear in m, so a weighted least
    squares, re-weighted (Tukey, one round per cut-off in ``cutoffs``, in cells) so that tile
    edges and printed words beside a line drop out. Every sample counts, not only lines seen in
    four bands or more, which is why it pulls a rough grid in faster than
    :func:`_quad_from_lines`. None when too few samples stand out.
    """
    margin = cell
    rows, targets = [], []
    along_all = _band_centres(cell, bands_per_cell)[None, :].repeat(LINES, 0)
    line_all = np.arange(LINES, dtype=np.float64)[:, None].repeat(along_all.shape[1], 1)
    for axis, (found, strength) in enumerate(zip(founds, strengths, strict=True)):
        use = np.isfinite(found) & (strength > 1.3)
        if use.sum() < 3 * LINES * bands_per_cell:
            return None
        across = (found[use] - margin) / cell
        along, target = along_all[use], line_all[use]
        x, y = (across, along) if axis == 0 else (along, across)
        zero, one = np.zeros_like(x), np.ones_like(x)
        own, blank = [x, y, one], [zero, zero, zero]
        rows.append(np.column_stack([*(own if axis == 0 else blank),
                                     *(blank if axis == 0 else own), -target * x, -target * y]))
        targets.append(target)
    a, b = np.concatenate(rows), np.concatenate(targets)
    weight = np.ones(len(b))
    solution = np.zeros(8)
    for cutoff in cutoffs:
        # Normal equations: 8 unknowns, a few hundred well-spread samples (an SVD per round
        # costs three times more and buys nothing here).
        weighted = a.T * weight
        try:
            solution = np.linalg.solve(weighted @ a, weighted @ b)
        except np.linalg.LinAlgError:  # every sample on one line, say
            return None
        residual = np.abs(a @ solution - b) / cutoff
        weight = np.where(residual < 1, (1 - residual**2) ** 2, 0.0)
        if weight.sum() < 4 * LINES * bands_per_cell:
            return None
    m = np.append(solution, 1.0).reshape(3, 3)
    to_units = np.array([[1 / cell, 0, -margin / cell], [0, 1 / cell, -margin / cell], [0, 0, 1]])
    return _apply(np.linalg.inv(m @ to_units @ photo_to_rect), GRID_CORNERS)[0]


def _quad_from_lines(
    founds: PerAxis, strengths: PerAxis, photo_to_rect: np.ndarray, cell: int, ransac_px: float,
) -> np.ndarray | None:
    """Corners from a straight line fitted through each line's samples (:func:`_fit_lines`) and
    the homography fitted (RANSAC, inliers within ``ransac_px`` photo pixels) to those lines' 256
    intersections; None if either fails."""
    margin = cell
    xs = _fit_lines(founds[0], strengths[0], margin, cell)
    ys = _fit_lines(founds[1], strengths[1], margin, cell)
    if xs is None or ys is None:
        return None
    # Intersections of the fitted lines, in rect px, against the ideal grid.
    ax, bx = np.array(xs).T  # vertical line i: x = ax + bx * y
    ay, by = np.array(ys).T  # horizontal line j: y = ay + by * x
    axm, bxm = ax[:, None], bx[:, None]
    aym, bym = ay[None, :], by[None, :]
    x = (axm + bxm * aym) / (1 - bxm * bym)
    y = aym + bym * x
    rect_pts = np.column_stack([x.ravel(), y.ravel()])
    gi, gj = np.meshgrid(np.arange(LINES), np.arange(LINES), indexing="ij")
    grid_pts = np.column_stack([gi.ravel(), gj.ravel()]).astype(np.float64)
    photo_pts, _ = _apply(np.linalg.inv(photo_to_rect), rect_pts)
    h, _ = cv2.findHomography(grid_pts, photo_pts, cv2.RANSAC, ransac_px)
    if h is None:
        return None
    return _apply(h, GRID_CORNERS)[0]


def _band_centres(cell: int, bands_per_cell: int) -> np.ndarray:
    """Where (in cells along the lines) the samples of :func:`_line_profiles` are taken."""
    inset = cell // 6
    rows = (cell - 2 * inset) // bands_per_cell
    inner = inset + (np.arange(bands_per_cell) + 0.5) * rows
    return (np.arange(SIZE)[:, None] + inner[None, :] / cell).ravel()


def _line_profiles(
    rect: np.ndarray, axis: int, margin: int, cell: int, config: LocateConfig,
    bands_per_cell: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Per band (15 x ``bands_per_cell``), the absolute gradient across the lines summed along
    the band: raw, and smoothed so a printed line's two edges make one peak (bands x rect size
    each). Each cell's band leaves out the rows next to the crossing lines."""
    # In 16-bit integers: the gradient of an 8-bit image is exact there, and so are the sums
    # below in float32 (integers far below 2**24), at a fraction of the cost of float.
    # Horizontal lines: the transposed image's vertical ones (the same gradients: Sobel's
    # kernel and border are symmetric), so both axes sum contiguous rows, which is 20x faster
    # than summing the columns of a transposed view.
    source = rect if axis == 0 else cv2.transpose(rect)
    grad = np.abs(cv2.Sobel(source, cv2.CV_16S, 1, 0, ksize=3))
    size = grad.shape[1]
    inset = cell // 6
    # Sum over each band's inner rows: (15 * bands_per_cell, size), on views (nothing copied)
    rows = (cell - 2 * inset) // bands_per_cell
    inner = grad[margin: margin + SIZE * cell].reshape(SIZE, cell, size)[
        :, inset: inset + rows * bands_per_cell].reshape(SIZE, bands_per_cell, rows, size)
    raw = inner.sum(axis=2, dtype=np.float32).reshape(SIZE * bands_per_cell, size)
    # A printed line has two edges: smooth across it so they merge into one peak at its centre
    # (otherwise each band picks either edge, and a 2-pixel line jitters the fit by a pixel).
    # The strength is still judged on the raw profile, where a thin line stands out most.
    sigma = max(1.0, config.line_smooth_cells * cell)
    return raw, cv2.GaussianBlur(raw, (int(6 * sigma) | 1, 1), sigma)


@functools.lru_cache(maxsize=64)
def _window_layout(bands: int, size: int, margin: int, cell: int, radius: int) -> tuple:
    """What :func:`_line_peaks` indexes with, for one shape of profile and window (the same
    few shapes recur hundreds of times a photo): the profile columns of each line's window
    (16 x W), each window's first element in the flattened (bands * 16, W) windows, and each
    window's line centre minus ``radius`` (so that centre + offset is that plus the column).
    Read-only: the cache hands out the same arrays."""
    centres = margin + np.arange(LINES) * cell
    index = np.clip(centres[:, None] + np.arange(-radius, radius + 1)[None, :], 0, size - 1)
    starts = np.arange(bands * LINES) * (2 * radius + 1)
    first = np.tile(centres, bands) - radius
    for array in (index, starts, first):
        array.flags.writeable = False
    return index, starts, first


def _line_peaks(
    raw: np.ndarray, profiles: np.ndarray, margin: int, cell: int, radius: int
) -> tuple[np.ndarray, np.ndarray]:
    """Where each of the 16 lines crosses each of the 15 bands: (positions, strengths), 16x15,
    from one axis' :func:`_line_profiles` (axis 0: vertical lines, positions are x).

    A position is the sub-pixel peak of the smoothed profile within ``radius`` of the line's
    expected place; the strength is the raw peak over the median of that window (how much it
    stands out).
    """
    bands, size = raw.shape
    index, starts, first = _window_layout(bands, size, margin, cell, radius)
    width = 2 * radius + 1
    windows = profiles[:, index].reshape(-1, width)  # (15 * 16, W)
    raw_windows = raw[:, index].reshape(-1, width)
    j = np.argmax(windows, axis=1)
    jc = np.minimum(np.maximum(j, 1), width - 2)
    # Flat indices into the windows (one gather each, not take_along_axis).
    flat = starts + jc
    values = windows.ravel()
    a, b, c = values[flat - 1], values[flat], values[flat + 1]
    denom = a - 2 * b + c
    delta = np.where(denom < 0, 0.5 * (a - c) / np.where(denom < 0, denom, -1), 0.0)
    interior = (j > 0) & (j < width - 1)
    positions = np.where(interior, first + jc + delta, np.nan)
    # The raw peak: the largest raw value within two columns of the smoothed one (inside the
    # window), from five gathers rather than a (bands * 16, 5) index array.
    raw_flat = raw_windows.ravel()
    peak = np.maximum(np.maximum(raw_flat[flat - 1], raw_flat[flat]), raw_flat[flat + 1])
    peak = np.maximum(peak, raw_flat[starts + np.maximum(jc - 2, 0)])
    peak = np.maximum(peak, raw_flat[starts + np.minimum(jc + 2, width - 1)])
    # The window's median: its middle value (W is odd), without sorting it all.
    middle = np.partition(raw_windows, width // 2, axis=1)[:, width // 2]
    strengths = np.where(interior, peak / (middle + 1e-6), 0.0)
    return positions.reshape(bands, LINES).T, strengths.reshape(bands, LINES).T


def _cell_px(quad: np.ndarray) -> float:
    return float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]) / SIZE)


def _line_fits(t: np.ndarray, found: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, ...]:
    """Least-squares found = a + b * t per row over the ``use`` mask: (a, b, count)."""
    w = use.astype(np.float64)
    f = np.where(use, found, 0.0)
    n = w.sum(axis=1)
    st, sf = (w * t).sum(axis=1), f.sum(axis=1)
    stt, stf = (w * t * t).sum(axis=1), (f * t).sum(axis=1)
    denom = n * stt - st * st
    safe = np.where(np.abs(denom) < 1e-9, 1.0, denom)
    b = np.where(np.abs(denom) < 1e-9, 0.0, (n * stf - st * sf) / safe)
    a = np.where(n > 0, (sf - b * st) / np.maximum(n, 1), np.nan)
    return a, b, n


def _trend(known: np.ndarray, values: np.ndarray, degree: int) -> np.ndarray:
    """A polynomial in the line number fitted to the ``known`` lines' values, at all 16 lines
    (``np.polyfit`` + ``np.polyval``, without their checks: this runs for every line fit)."""
    coefficients = np.linalg.lstsq(np.vander(known, degree + 1).astype(np.float64), values,
                                   rcond=None)[0]
    return np.vander(np.arange(LINES), degree + 1) @ coefficients


def _masked_median(values: np.ndarray, use: np.ndarray) -> np.ndarray:
    """Row medians of ``values`` over the ``use`` mask (0 for empty rows), without a loop."""
    ordered = np.sort(np.where(use, values, np.inf), axis=1)
    count = use.sum(axis=1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None] // 2, 1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None], 1)[:, 0]
    return np.where(count > 0, (low + high) / 2, 0.0)


def _fit_lines(
    found: np.ndarray, strength: np.ndarray, margin: int, cell: int
) -> list[tuple[float, float]] | None:
    """Per line k, a robust fit position = a + b * t along the bands (t in rect px).

    Lines seen in fewer than four bands are filled in from their neighbours (a smooth function
    of k), as are fits that stray more than a third of a cell from that trend.
    """
    t = (margin + (np.arange(SIZE) + 0.5) * cell)[None, :]
    use = np.isfinite(found) & (strength > 1.3)
    found0 = np.nan_to_num(found)
    a, b, n = _line_fits(t, found0, use)
    resid = np.abs(found0 - (a[:, None] + b[:, None] * t))
    med = _masked_median(resid, use)
    keep = use & (resid < np.maximum(1.0, 2.5 * med)[:, None])
    a2, b2, n2 = _line_fits(t, found0, keep)
    a = np.where(n2 >= 4, a2, a)
    b = np.where(n2 >= 4, b2, b)
    known = np.flatnonzero(n >= 4)
    if len(known) < 6:
        return None
    trend_a = _trend(known, a[known], 2 if len(known) >= 8 else 1)
    trend_b = _trend(known, b[known], 1)
    bad = (n < 4) | (np.abs(a - trend_a) > 0.35 * cell)
    a = np.where(bad, trend_a, a)
    b = np.where(bad, trend_b, b)
    return [(float(x), float(y)) for x, y in zip(a, b, strict=True)]


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
        refined, hits = _refine(gray_refine, _apply(h, grid)[0] * shrink, config)
        refined = refined / shrink
    # Only the chosen grid is run to convergence (the hypotheses are ranked on _refine's).
    refined = _converge(gray_refine, refined * shrink, config) / shrink
    _check_whole(refined, hits, width, height, config)
    details.update(info)
    refined = grow_corners(refined, config.border_half_width_cells)
    _check_inside(refined, width, height, config)
    return BoardLocation(
        corners=south_at_bottom(refined),
        confidence=confidence,
        method="hint+lines" if hint is not None else "vanishing-points+comb+lines",
        quad_found_in_ms=details.get("quad_ms", 0.0),
        details=details,
    )


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
        roughs = (quad / factor for quad in _rough_grids(gray, config, details, thorough))
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
        raise BoardNotFoundError("no Scrabble board found in the photo")
    return best, details, gray_refine, shrink


def _hopeless(
    gray: np.ndarray, rough: np.ndarray, best: dict, config: LocateConfig, memo: Measured
) -> bool:
    """Whether a further hypothesis can be dropped after one refinement round: its line
    support is far below the best one's (a full settle costs several times more, less the
    measurements kept in ``memo``)."""
    _, hits = _refine(gray, rough, config, rounds=1, memo=memo)
    return float(hits.mean()) < best["support"] - config.hopeless_support_gap


def _refine_copy(
    gray_full: np.ndarray, rough: np.ndarray, config: LocateConfig
) -> tuple[np.ndarray, float]:
    """The photo the refinement warps from, and its scale: lines are measured at
    ``refine_cell_px`` a cell, so a photo with cells several times that big is halved first
    (the same precision, a fraction of the pixels to warp). Only exact halvings: they cost a
    fraction of a millisecond, an area resize by another factor several milliseconds."""
    small = gray_full
    cell = _cell_px(rough)
    while cell / 2 >= config.refine_source_cells * config.refine_cell_px:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        cell /= 2
    return small, small.shape[1] / gray_full.shape[1]


def _same_quad(a: np.ndarray, b: np.ndarray, cells: float) -> bool:
    """Whether every corner of ``a`` lies within ``cells`` cells of some corner of ``b``."""
    distances = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2).min(axis=1)
    return bool(distances.max() < cells * _cell_px(b))


def grow_corners(quad: np.ndarray, cells: float) -> np.ndarray:
    """The quad moved ``cells`` outwards on every side, in the grid's own perspective."""
    if cells == 0:
        return quad
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
    grown = grid + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * cells
    return _apply(grid_homography(quad), grown)[0]


def _settle(
    gray_full: np.ndarray, rough: np.ndarray, config: LocateConfig, check_period: bool = True,
    memo: Measured | None = None,
) -> tuple[np.ndarray, float, dict]:
    """Refine a rough quad onto the lines, slide it by whole cells if the squares say so, and
    rate it: confidence = share of grid lines seen x how much the 225 squares look like squares.
    A grid on every other line is also tried at twice the cell size (see :func:`_doubled`).
    ``memo``: line profiles already measured from ``rough`` (see :func:`_measure`).
    """
    refined, hits = _refine(gray_full, rough, config, memo=memo)
    moved = fix_grid_shift(gray_full, refined, config)
    if moved.shift != (0, 0):
        refined, hits = _refine(gray_full, moved.corners, config)
    support = float(hits.mean())
    squares = float(np.clip(moved.cellness / config.cellness_full, 0.0, 1.0))
    confidence = float(np.clip(support, 0.0, 1.0)) * squares
    info = {"support": support, "shift": moved.shift, "shift_gain": moved.gain,
            "cellness": moved.cellness, "ring": moved.ring, "ring_cut": moved.ring_cut,
            "axis_support": tuple(float(v) for v in hits.mean(axis=1)), "line_hits": hits}
    if check_period and support < config.good_enough:
        bigger = _doubled(refined, hits, config)
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
    measure = _blur_measure(gray_work)
    if measure < config.blur_laplacian_var and float(gray_work.std()) > 8:
        raise ImageQualityError(f"photo too blurry to find the board (sharpness {measure:.0f})")


def _plausible(quad: np.ndarray, width: int, height: int) -> bool:
    """A rough quad worth refining: finite, not tiny, not absurdly bigger than the photo."""
    if not np.all(np.isfinite(quad)):
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
    margin = config.cut_off_margin_cells * _cell_px(quad)

    def beyond(points: np.ndarray) -> bool:
        return bool(((points[:, 0] < margin) | (points[:, 1] < margin)
                     | (points[:, 0] > width - 1 - margin)
                     | (points[:, 1] > height - 1 - margin)).any())

    # Every other line missing: the squares are twice this size, so this is part of a board.
    bigger = _doubled(quad, hits, config)
    if bigger is not None:
        if beyond(bigger):
            raise BoardNotFoundError(
                "board is cut off by the image edge: get all of it in the photo")
        raise BoardNotFoundError("no Scrabble board found in the photo")
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
            if beyond(_apply(to_photo, far)[0]):
                raise BoardNotFoundError(
                    "board is cut off by the image edge: get all of it in the photo")
            raise BoardNotFoundError("no Scrabble board found in the photo")


def _check_inside(quad: np.ndarray, width: int, height: int, config: LocateConfig) -> None:
    tolerance = config.cut_off_margin_cells * _cell_px(quad)
    outside = (
        (quad[:, 0] < -tolerance)
        | (quad[:, 1] < -tolerance)
        | (quad[:, 0] > width - 1 + tolerance)
        | (quad[:, 1] > height - 1 + tolerance)
    )
    if outside.any():
        raise BoardNotFoundError("board is cut off by the image edge: get all of it in the photo")
