"""Rough grids: where in a photo a 15x15 grid may lie, from its straight line segments alone.

Steps 1-3 of :mod:`vision.board.locate`: line segments (LSD) on a small copy of the photo; the two
dominant families of segments and their vanishing points, which undo the perspective up to an
affine map (the cells' aspect aside, when the focal length cannot be measured); then, in that
frame, a comb of 16 equally spaced lines fitted to each family. The candidates come best first,
a few of them, since logos, score charts and clutter can out-score the grid and only the
refinement (:mod:`vision.board.refine`) tells them apart well.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from vision.board.grid import LINES, apply_homography, clockwise
from vision.board.outline import outline_quads
from vision.board.rectify import SIZE
from vision.board.tuning import LocateConfig
from vision.errors import BoardNotFoundError

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
    count: int = 3,
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
        if len(candidates) >= count or not np.isfinite(pair_total[i]):
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


def rough_grids(
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
        return clockwise(quad * scale + centre)

    rng = np.random.default_rng(12345)
    # The second look pairs more combs: on a plank table the seams and grain can out-score the
    # grid's own lines in one family's best few combs.
    count = config.thorough_comb_candidates if thorough else config.comb_candidates
    first = _grids_from_segments(norm_segs, rng, config, count=count)
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
            focused = _grids_from_segments(norm_segs[inside], rng, config, focus, count)
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
    # The board's outline, ahead of the lines' runners-up: where a table's own lattice took the
    # passes above, no runner-up lies on the board either (vision.board.outline).
    for quad in outline_quads(gray, config):
        yield clockwise(quad)
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
    count: int = 3,
) -> list[np.ndarray]:
    """Vanishing points, metric frame and the ``count`` best pairs of combs for one set of
    segments (normalised coords), from the two strongest families of segments."""
    families = _families(norm_segs, rng, config, 2)
    if len(families) < 2:
        raise BoardNotFoundError("no Scrabble board found in the photo (one family of lines only)")
    return _pair_grids(norm_segs, families[0], families[1], config, previous, count)


def _pair_grids(
    norm_segs: np.ndarray,
    family_a: tuple[np.ndarray, np.ndarray],
    family_b: tuple[np.ndarray, np.ndarray],
    config: LocateConfig,
    previous: np.ndarray | None = None,
    count: int = 3,
) -> list[np.ndarray]:
    """Rough grids (normalised coords) whose lines are the two given families: the ``count``
    best pairs of combs."""
    (vp_a, in_a), (vp_b, in_b) = family_a, family_b
    to_rect, focal_measured = _metric_rectification(vp_a, vp_b, config)
    aspect = _aspect_range(vp_a, vp_b, to_rect, focal_measured, config)

    def family_positions(mask: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
        p1, w1 = apply_homography(to_rect, norm_segs[mask, :2])
        p2, w2 = apply_homography(to_rect, norm_segs[mask, 2:])
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
        rect_prev, w = apply_homography(to_rect, previous)
        if np.all(w > 0):
            expected = float(np.mean(np.linalg.norm(
                rect_prev - np.roll(rect_prev, 1, axis=0), axis=1))) / SIZE
    quads = []
    for (ox, px, _), (oy, py, _) in _comb_candidates(
        (x_pos, x_w / x_w.sum()), (y_pos, y_w / y_w.sum()), config, expected, aspect, count
    ):
        rect_corners = np.array(
            [[ox, oy], [ox + SIZE * px, oy], [ox + SIZE * px, oy + SIZE * py],
             [ox, oy + SIZE * py]]
        )
        pts, _ = apply_homography(back, rect_corners)
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


__all__ = ["rough_grids"]
