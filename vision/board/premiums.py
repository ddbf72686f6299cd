"""Rough grids from the premium squares: where a board is, found by its coloured squares alone.

Why: the line search (:mod:`vision.board.roughgrids`) needs the grid's thin lines to out-weigh
everything else in the photo, and on a grained table, a washed-out or shadowed board or a steep
view they do not: on the stress set's scenes refused as "no board" that were traced (a clean,
red-framed board top-down on fine wood among them), no line hypothesis lay within four cells of
the board, while a person sees the board at once by its few dozen coloured squares. Those
squares are what this module looks for; it is a second, independent way to a rough grid, asked
only on the finder's second look at a photo (:func:`vision.board.locate.find_board`), and its
grids are refined and judged like every other hypothesis.

It knows no colours: a premium square is a patch of one colour on a board of another, whatever
the two are (red and blue on cream, on green, on grey). The steps:

1. Colour blobs: maximally stable regions (MSER) of the a* and b* channels of a lightly smoothed
   Lab copy, both signs, kept when compact, nearly convex and about square under perspective.
2. Groups: blobs linked while within ``premium_link_sizes`` of their own size of each other; the
   biggest groups are the candidates (a board's premium squares lie at most three cells apart,
   so a sheet of paper or a cloth's pattern off the board forms a group of its own). Where the
   plain squares are blobs too (the lines round them), they have the colour most of the group's
   hull has, the board's own: those are dropped.
3. The enclosing quad: the smallest four-sided polygon round the group (:func:`enclosing_quad`).
   In every known layout the outermost premium squares lie on the edge rows and columns, so it
   runs through the centres of the outer cells, half a cell in from the grid's edge.
4. Fitted to the layout: each blob paired with the nearest premium square of the grid the quad
   gives, the homography refitted to the pairs (RANSAC), a few times, per known layout; the
   layout that pairs the most blobs gives the grid. It is offered only if most blobs inside it
   lie on premium squares (``premium_on_squares``): on ruled paper every square is a blob alike,
   and the layout's squares are hit only by chance.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.grid import GRID_CORNERS, clockwise
from vision.board.layout import premium_kinds
from vision.board.rectify import SIZE
from vision.board.tuning import LocateConfig

_GRID = GRID_CORNERS.astype(np.float32)
_OUTER_CELL_CENTRES = np.array([[0.5, 0.5], [SIZE - 0.5, 0.5], [SIZE - 0.5, SIZE - 0.5],
                                [0.5, SIZE - 0.5]], np.float32)


def premium_quads(bgr: np.ndarray, config: LocateConfig) -> list[np.ndarray]:
    """Rough grids (4x2 corners in ``bgr``'s pixels, clockwise) where groups of colour blobs
    lie like a board's premium squares, biggest group first; ``bgr`` is a copy of the photo
    about ``config.premium_px`` across."""
    lab = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab), (3, 3), 0)
    centres, sizes, colours = _colour_blobs(lab, config)
    if len(centres) < config.premium_min_blobs:
        return []
    groups = _groups(centres, config.premium_link_sizes * float(np.median(sizes)), lab.shape)
    quads = []
    for label in np.argsort(-np.bincount(groups))[:config.premium_groups]:
        members = groups == label
        if members.sum() < config.premium_min_blobs:
            break
        # Where the plain squares show as blobs too (lines round them), they are the board's
        # own colour, the colour most of the group's hull has: premium squares are not.
        members &= _unlike_the_hull(lab, centres[members], colours, config)
        if members.sum() < config.premium_min_blobs:
            continue
        outer = enclosing_quad(centres[members])
        if outer is None:
            continue
        to_photo = cv2.getPerspectiveTransform(_OUTER_CELL_CENTRES,
                                               clockwise(outer).astype(np.float32))
        quad = cv2.perspectiveTransform(_GRID.reshape(-1, 1, 2), to_photo).reshape(4, 2)
        fitted, share = _fitted_to_layout(quad.astype(np.float64), centres[members], config)
        if share >= config.premium_on_squares:
            quads.append(fitted)
    return quads


def _unlike_the_hull(lab: np.ndarray, members: np.ndarray, colours: np.ndarray,
                     config: LocateConfig) -> np.ndarray:
    """Which blobs' colours (a*, b*) lie over ``premium_unlike_board`` from the median colour
    inside the convex hull of ``members`` (a group's blob centres)."""
    mask = np.zeros(lab.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(members.astype(np.int32)), 1)
    inside = lab[mask.astype(bool)][:, 1:].astype(np.float64)
    board = np.median(inside, axis=0) if len(inside) else np.zeros(2)
    return np.linalg.norm(colours - board, axis=1) > config.premium_unlike_board


def _colour_blobs(lab: np.ndarray, config: LocateConfig
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centres (N x 2), sizes (square roots of their hulls' areas) and mean colours (a*, b*) of
    the patches of one colour in a Lab image that could be premium squares (step 1); a patch
    found in two channels counts once."""
    max_area = int(config.premium_max_area * lab.shape[0] * lab.shape[1])
    mser = cv2.MSER_create(  # type: ignore[attr-defined]
        delta=config.premium_mser_delta, min_area=config.premium_min_area,
        max_area=max(max_area, config.premium_min_area + 1), max_variation=0.5)
    regions = [region for channel in (lab[:, :, 1], lab[:, :, 2])
               for image in (channel, 255 - channel) for region in mser.detectRegions(image)[0]]
    if len(regions) > config.premium_max_regions:
        # Texture or noise, not a board's few dozen squares (and each region costs Python time).
        return np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2))
    found: list[tuple[np.ndarray, float, np.ndarray]] = []
    for region in regions:
        hull = cv2.convexHull(region.reshape(-1, 1, 2))
        area = float(cv2.contourArea(hull))
        if area <= 0 or len(region) / area < config.premium_solidity:
            continue
        _, (width, height), _ = cv2.minAreaRect(hull)
        if (width * height <= 0 or area / (width * height) < config.premium_squareness
                or max(width, height) > 3 * min(width, height)):
            continue
        colour = lab[region[:, 1], region[:, 0], 1:].mean(axis=0)
        found.append((region.mean(axis=0), area, colour))
    if not found:
        return np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2))
    found.sort(key=lambda blob: -blob[1])
    centres = np.array([blob[0] for blob in found], np.float64)
    sizes = np.sqrt(np.array([blob[1] for blob in found], np.float64))
    # MSER nests regions (a square's inside within the square): the biggest stands for all.
    kept = np.zeros(len(found), bool)
    for i in range(len(found)):
        near = np.hypot(*(centres[kept] - centres[i]).T) < 0.3 * sizes[kept]
        kept[i] = not near.any()
    return (centres[kept], sizes[kept],
            np.array([blob[2] for blob in found], np.float64)[kept])


def _groups(points: np.ndarray, link: float, shape: tuple[int, ...]) -> np.ndarray:
    """A group number for each point of an image of ``shape``: points closer than ``link``
    share one (single linkage), found as the connected parts of discs of radius ``link`` / 2
    drawn round them (linear in the pixels, where pairing the points is quadratic in them)."""
    discs = np.zeros(shape[:2], np.uint8)
    radius = max(1, int(round(link / 2)))
    for x, y in np.round(points).astype(int):
        cv2.circle(discs, (int(x), int(y)), radius, 255, -1)
    _, labels = cv2.connectedComponents(discs, connectivity=8)
    rows = np.clip(np.round(points[:, 1]).astype(int), 0, shape[0] - 1)
    cols = np.clip(np.round(points[:, 0]).astype(int), 0, shape[1] - 1)
    return np.unique(labels[rows, cols], return_inverse=True)[1]


def enclosing_quad(points: np.ndarray) -> np.ndarray | None:
    """The smallest (near enough) four-sided polygon round ``points``: their convex hull, with
    one edge at a time dropped (its neighbours extended to meet) where that adds least area.
    None when the hull cannot be closed with four sides (fewer than four points in general
    position). A corner square under a tile only cuts a corner off the hull: its two edges,
    extended, still meet where the corner is."""
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    polygon = list(hull)
    if len(polygon) < 4:
        return None
    while len(polygon) > 4:
        count = len(polygon)
        best: tuple[float, int, np.ndarray] | None = None
        for i in range(count):
            before, start = polygon[i - 1], polygon[i]
            end, after = polygon[(i + 1) % count], polygon[(i + 2) % count]
            meet = _meeting(before, start, after, end)
            if meet is None:
                continue
            added = abs(_cross(end - start, meet - start)) / 2
            if best is None or added < best[0]:
                best = (float(added), i, meet)
        if best is None:
            return None
        _, i, meet = best
        polygon[i] = meet
        del polygon[(i + 1) % count]
    return np.array(polygon)


def _meeting(a: np.ndarray, b: np.ndarray, d: np.ndarray, c: np.ndarray) -> np.ndarray | None:
    """Where the ray from ``a`` through ``b`` meets the ray from ``d`` through ``c``, beyond
    ``b`` and ``c``; None if they do not (the edge b-c cannot be dropped)."""
    ray, other = b - a, c - d
    denominator = _cross(ray, other)
    if abs(denominator) < 1e-9:
        return None
    along = _cross(d - a, other) / denominator
    other_along = _cross(d - a, ray) / denominator
    if along < 1 or other_along < 1:
        return None
    return a + along * ray


def _cross(u: np.ndarray, v: np.ndarray) -> float:
    """The z of the cross product of two plane vectors (twice the signed triangle area)."""
    return float(u[0] * v[1] - u[1] * v[0])


def _fitted_to_layout(quad: np.ndarray, centres: np.ndarray, config: LocateConfig
                      ) -> tuple[np.ndarray, float]:
    """``quad`` refitted to the blobs that lie on premium squares (step 4), for the layout that
    pairs the most blobs, and the share of the blobs inside that grid that lie on its premium
    squares: 0.9 and more where the quad is on a board, under 0.25 on a plain lattice (every
    square a blob alike) or colour noise, where the squares are only hit by chance."""
    best_pairs, best, best_share = -1, quad, 0.0
    points = centres.reshape(-1, 1, 2).astype(np.float32)
    for kinds in premium_kinds():
        rows, cols = np.nonzero(kinds)
        premium = np.column_stack([cols + 0.5, rows + 0.5]).astype(np.float32)
        current = quad
        for fits in range(config.premium_refits + 1):
            to_grid = cv2.getPerspectiveTransform(current.astype(np.float32), _GRID)
            on_grid = cv2.perspectiveTransform(points, to_grid).reshape(-1, 2)
            distance = np.linalg.norm(on_grid[:, None] - premium[None], axis=2)
            nearest = distance.argmin(axis=1)
            paired = distance[np.arange(len(on_grid)), nearest] < config.premium_pair_cells
            inside = np.all((on_grid >= 0) & (on_grid <= SIZE), axis=1)
            pairs, share = int(paired.sum()), float(paired[inside].mean()) if inside.any() else 0.0
            if fits == config.premium_refits or pairs < config.premium_min_blobs:
                break
            homography, _ = cv2.findHomography(premium[nearest[paired]],
                                                   centres[paired].astype(np.float32),
                                                   cv2.RANSAC, config.premium_ransac_px)
            if homography is None:
                break
            current = cv2.perspectiveTransform(_GRID.reshape(-1, 1, 2),
                                               homography).reshape(4, 2).astype(np.float64)
        if pairs > best_pairs:
            best_pairs, best, best_share = pairs, current, share
    return clockwise(best), best_share


__all__ = ["enclosing_quad", "premium_quads"]
