"""From four grid corners in a photo to a canonical top-down image of the 15x15 grid.

The rectified image is the contract between finding the board and reading it: cell (col, row)
always sits in the same pixel box, whatever the camera did. A margin of half a cell is kept around
the grid so that a tile overhanging its square, or a corner found a little short, still shows.

Tiles are not flat: their letter faces stand about 0.2 cell above the board, so in an oblique view
the faces are displaced towards the far side of the board relative to the squares under them.
``tile_lift`` warps the plane of the tile faces instead of the board plane; the camera needed for
that is recovered from the homography itself (focal length from the two orthogonality constraints
of a planar square, principal point at the image centre).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.cells import SIZE
from vision.errors import VisionError


@dataclass(frozen=True)
class RectifiedBoard:
    """A top-down view of the grid: cell (col, row) fills ``cell_box(col, row)``.

    ``homography`` maps photo pixels to rectified pixels (for a lifted rectification it is the
    homography of the lifted plane).
    """

    image: np.ndarray
    cell_px: int
    margin_px: int
    homography: np.ndarray

    @property
    def size(self) -> int:
        return SIZE * self.cell_px + 2 * self.margin_px

    def cell_box(self, col: int, row: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of a cell, x1 and y1 exclusive; col A..O left to right, row 1 on top."""
        if not (0 <= col < SIZE and 0 <= row < SIZE):
            raise ValueError(f"cell ({col}, {row}) is off the 15x15 grid")
        x0 = self.margin_px + col * self.cell_px
        y0 = self.margin_px + row * self.cell_px
        return x0, y0, x0 + self.cell_px, y0 + self.cell_px

    def cell_image(self, col: int, row: int, pad: float = 0.0,
                   shift: tuple[int, int] = (0, 0)) -> np.ndarray:
        """The pixels of one cell, grown by ``pad`` cells on every side and moved ``shift``
        pixels (right, down), clipped to the image."""
        x0, y0, x1, y1 = self.cell_box(col, row)
        grow = int(round(pad * self.cell_px))
        dx, dy = shift
        size = self.image.shape[0]
        x0, y0 = max(0, x0 - grow + dx), max(0, y0 - grow + dy)
        x1, y1 = min(size, x1 + grow + dx), min(size, y1 + grow + dy)
        return self.image[y0:y1, x0:x1]

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """Map rectified pixel coordinates (N x 2) back to photo pixels."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)


MAX_CORNER_PX = 1_000_000
"""No photo is a million pixels across: a corner further out is no pixel position (and its
arithmetic would overflow)."""


def check_corners(corners: np.ndarray | list) -> np.ndarray:
    """Corners as a 4x2 float array, refusing shapes that cannot be a photographed square."""
    try:
        quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    except (ValueError, TypeError):
        raise VisionError("corners must be four (x, y) points") from None
    if not np.all(np.isfinite(quad)):
        raise VisionError("corners must be finite numbers")
    if np.abs(quad).max() > MAX_CORNER_PX:
        raise VisionError(f"corners must be pixel positions in the photo, not "
                          f"{np.abs(quad).max():.3g}")
    # A convex quadrilateral in clockwise order (image y points down) has all cross products > 0.
    crosses = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        ab, bc = b - a, c - b
        crosses.append(ab[0] * bc[1] - ab[1] * bc[0])
    if all(value < 0 for value in crosses):
        # The same square, gone round the other way: read so, the board would come out mirrored
        # (every word backwards), so it is refused rather than turned round silently.
        raise VisionError("corners go round the board anticlockwise: give them clockwise from "
                          "the top left (TL, TR, BR, BL)")
    if not all(value > 0 for value in crosses):
        raise VisionError("corners must form a convex quadrilateral (TL, TR, BR, BL)")
    if cv2.contourArea(quad.astype(np.float32)) < 15 * 15:
        raise VisionError("corners enclose less than a pixel per cell")
    return quad


def grid_homography(corners: np.ndarray | list) -> np.ndarray:
    """The homography from grid units (0..15 on each axis, (0, 0) = TL corner) to photo pixels."""
    quad = check_corners(corners)
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=np.float64)
    return cv2.getPerspectiveTransform(grid.astype(np.float32), quad.astype(np.float32)).astype(
        np.float64
    )


def photo_cell_px(corners: np.ndarray | list) -> float:
    """The median cell's shorter side in photo pixels: how much of the photo each tile gets.

    The median, not the smallest: a steep photo's far row is always smaller than its near one,
    and what limits a reading as a whole is how big the typical square is.
    """
    lattice = np.stack(np.meshgrid(np.arange(SIZE + 1), np.arange(SIZE + 1)), axis=-1)
    points = cv2.perspectiveTransform(lattice.reshape(-1, 1, 2).astype(np.float64),
                                      grid_homography(corners)).reshape(SIZE + 1, SIZE + 1, 2)
    across = np.linalg.norm(points[:-1, 1:] - points[:-1, :-1], axis=2)
    down = np.linalg.norm(points[1:, :-1] - points[:-1, :-1], axis=2)
    return float(np.median(np.minimum(across, down)))


def estimate_focal(homography: np.ndarray, image_shape: tuple[int, ...]) -> float:
    """A plausible focal length (pixels) for the camera that saw the board plane.

    With square pixels and the principal point at the centre, the columns h1, h2 of the centred
    homography satisfy h1'W h2 = 0 and h1'W h1 = h2'W h2 for W = diag(1, 1, f^2). Near a
    fronto-parallel view both equations degenerate; then (and for absurd answers) a typical phone
    field of view (~65 degrees across the long side) is assumed, where the lift hardly matters.
    """
    height, width = image_shape[:2]
    centre = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]], dtype=np.float64)
    h = centre @ homography
    h1, h2 = h[:, 0], h[:, 1]
    # Rows: coefficient of (1/f^2) and constant term, from the two constraints.
    a = np.array(
        [h1[0] * h2[0] + h1[1] * h2[1], (h1[0] ** 2 + h1[1] ** 2) - (h2[0] ** 2 + h2[1] ** 2)]
    )
    b = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    long_side = float(max(width, height))
    fallback = 0.8 * long_side
    denom = float(a @ a)
    if denom <= 0:
        return fallback
    inv_f2 = float(a @ b) / denom  # least squares for x = 1/f^2 in a*x = b
    if inv_f2 <= 0:
        return fallback
    focal = 1.0 / np.sqrt(inv_f2)
    if not 0.4 * long_side <= focal <= 4.0 * long_side:
        return fallback
    return float(focal)


def lifted_homography(
    homography: np.ndarray, image_shape: tuple[int, ...], lift: float
) -> np.ndarray:
    """The homography (grid units -> photo) of the plane ``lift`` cells above the board."""
    if lift == 0:
        return homography
    height, width = image_shape[:2]
    focal = estimate_focal(homography, image_shape)
    k = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]], dtype=np.float64)
    m = np.linalg.inv(k) @ homography
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    if t[2] < 0:  # the board must lie in front of the camera
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    r3 /= np.linalg.norm(r3)
    if float(r3 @ -t) < 0:  # "up" is the side of the board the camera is on
        r3 = -r3
    lifted = np.column_stack([r1, r2, t + lift * r3])
    result = k @ lifted
    return result / result[2, 2]


def rectify(
    image: np.ndarray,
    corners: np.ndarray | list,
    *,
    cell_px: int = 64,
    margin_cells: float = 0.5,
    tile_lift: float = 0.0,
) -> RectifiedBoard:
    """Warp the photo so the grid fills a square of ``15 * cell_px`` plus a margin on each side.

    ``corners`` are the playing-grid corners in photo pixels: TL, TR, BR, BL of the South view.
    ``tile_lift`` (cells) rectifies the plane that far above the board (letter faces: ~0.2).
    """
    if image is None or image.ndim not in (2, 3) or image.size == 0:
        raise VisionError("rectify needs a non-empty image")
    if cell_px < 4 or cell_px > 512:
        raise VisionError(f"cell_px must be 4..512, not {cell_px}")
    if not 0 <= margin_cells <= 3:
        raise VisionError(f"margin_cells must be 0..3, not {margin_cells}")
    grid_to_photo = lifted_homography(grid_homography(corners), image.shape, tile_lift)
    margin_px = int(round(margin_cells * cell_px))
    size = SIZE * cell_px + 2 * margin_px
    grid_to_rectified = np.array(
        [[cell_px, 0, margin_px], [0, cell_px, margin_px], [0, 0, 1]], dtype=np.float64
    )
    photo_to_rectified = grid_to_rectified @ np.linalg.inv(grid_to_photo)
    photo_to_rectified /= photo_to_rectified[2, 2]
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    # Halve the photo while its cells are over twice the output's: warping samples single pixels,
    # so without this a 12-megapixel photo would alias (moire on the grid lines).
    source, to_source = image, np.eye(3)
    while _photo_cell_px(grid_to_photo, to_source) > 2 * cell_px and min(source.shape[:2]) > 64:
        source = cv2.pyrDown(source)
        to_source = np.diag([0.5, 0.5, 1.0]) @ to_source
    warped = cv2.warpPerspective(
        source,
        photo_to_rectified @ np.linalg.inv(to_source),
        (size, size),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )
    return RectifiedBoard(
        image=warped, cell_px=cell_px, margin_px=margin_px, homography=photo_to_rectified
    )


def _photo_cell_px(grid_to_photo: np.ndarray, photo_to_source: np.ndarray) -> float:
    """The mean side of a cell, in pixels of the (possibly halved) source image."""
    pts = np.array([[[0, 0]], [[SIZE, 0]], [[SIZE, SIZE]], [[0, SIZE]]], dtype=np.float64)
    quad = cv2.perspectiveTransform(pts, photo_to_source @ grid_to_photo).reshape(4, 2)
    return float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]) / SIZE)
