"""What a camera does to one training crop: defocus, a shaking hand, too few pixels, JPEG.

A tile model learns from faces rendered sharp at the reader's own cell size
(:data:`vision.tuning.WORK_PX`), but the reader's crops are resampled from photos whose cells may
be 14 px across (a 640 px webcam frame, the far rows of a steep photo), smeared by a hand, and
compressed at that size before they were enlarged. The stress set (``python -m bench stress``)
read 18 % of the letters wrong on its 640 px photos, 6 % at 1024 px and 1.4 % at 1600 px, with a
model that had only seen blur and JPEG at full size; this module shows it the rest.
"""

from __future__ import annotations

import cv2
import numpy as np

from lab.render.scene import streak

PERSPECTIVE_SHARE = 0.3
"""Crops warped by a slightly wrong perspective (each corner moved 3 % of the side), as a cell
is with the grid's corners found a little off."""
BLUR_SHARE = 0.6
"""Crops blurred by a Gaussian (defocus), of 0.3 to 1.4 px at the size they are taken."""
MOTION_SHARE = 0.1
"""Crops smeared by a straight streak (a shaking hand), 1 to 5 px long at the size they are
taken, in any direction."""
LOW_RES_SHARE = 0.2
"""Crops taken from a cell 25 to 85 % as wide as the reader's, foreshortened up to half again
one way (a tilted photo), then enlarged back as rectifying enlarges them."""
JPEG_SHARE = 0.7
"""Crops saved as JPEG, quality 35 to 92, at the size they are taken."""


def photographed(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` (a rendered uint8 crop, square) as a camera would have taken it, at its own size.

    The blur, streak and JPEG act at the size the crop is taken, small or not, since a camera's
    blur is so many of its own pixels whatever the board's size in them.
    """
    side = image.shape[0]
    if rng.random() < PERSPECTIVE_SHARE:
        jitter = rng.normal(0, 0.03 * side, size=(4, 2)).astype(np.float32)
        quad = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(quad, quad + jitter)
        image = cv2.warpPerspective(image, matrix, (side, side), borderMode=cv2.BORDER_REPLICATE)
    small = rng.random() < LOW_RES_SHARE
    if small:
        across = rng.uniform(0.25, 0.85)
        sizes = [across, across * rng.uniform(0.55, 1.0)]
        rng.shuffle(sizes)
        width, height = (max(6, int(round(side * share))) for share in sizes)
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    if rng.random() < BLUR_SHARE:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.4))
    if rng.random() < MOTION_SHARE:
        image = cv2.filter2D(image, -1, streak(rng.uniform(1, 5), rng.uniform(0, 180)),
                             borderType=cv2.BORDER_REPLICATE)
    if rng.random() < JPEG_SHARE:
        quality = int(rng.integers(35, 92))
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG OpenCV has just written
        image = decoded
    if small:
        image = cv2.resize(image, (side, side), interpolation=cv2.INTER_LINEAR)
    return image
