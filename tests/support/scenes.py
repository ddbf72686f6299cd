"""Rendered scenes a few test modules read: a word on a clean board, part of it in shadow."""

from __future__ import annotations

import cv2
import numpy as np

from lab.render import RenderOptions, render_board_photo
from referee.boardtext import Tile
from referee.cells import Cell


def house_in_shadow(box: tuple[float, float, float, float], factor: float):
    """A clean render of HOUSE across F8-J8 with the board region ``box`` (col0, row0, col1,
    row1, in cells) darkened by ``factor``: (image, corners)."""
    tiles = {Cell(col, 7): Tile(letter, False, None)
             for col, letter in zip(range(5, 10), "HOUSE", strict=True)}
    photo = render_board_photo(tiles, seed=5, width=1600, height=1200,
                               options=RenderOptions.clean())
    homography = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [15, 0], [15, 15], [0, 15]]), np.float32(photo.corners))
    col0, row0, col1, row1 = box
    outline = cv2.perspectiveTransform(
        np.float32([[[col0, row0], [col1, row0], [col1, row1], [col0, row1]]]), homography)[0]
    image = photo.image.copy()
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, outline.astype(np.int32), 1)
    image[mask > 0] = (image[mask > 0] * factor).astype(np.uint8)
    return image, photo.corners
