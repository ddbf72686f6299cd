"""A rectified board drawn directly: plain squares, rendered tile faces where a test puts them,
some pushed off their squares. No photo, no corners: the letters' stage on its own."""

from __future__ import annotations

import numpy as np

from lab.tileface import available_fonts, render_tile_face
from referee.tiles import load_tile_set
from vision.board.rectify import SIZE, RectifiedBoard

ENGLISH = load_tile_set("english")
CELL_PX, MARGIN_PX, FACE_PX = 48, 24, 44
SQUARE_BGR = (150, 170, 160)


def plain_board(faces: dict[tuple[int, int], np.ndarray],
                offsets: dict[tuple[int, int], tuple[int, int]] | None = None) -> RectifiedBoard:
    """A rectified board of plain squares with ``faces`` centred on their cells, a tile in
    ``offsets`` moved that many pixels (right, down) off its square."""
    side = SIZE * CELL_PX + 2 * MARGIN_PX
    image = np.full((side, side, 3), SQUARE_BGR, np.uint8)
    inset = (CELL_PX - FACE_PX) // 2
    for (col, row), face in faces.items():
        dx, dy = (offsets or {}).get((col, row), (0, 0))
        x0 = MARGIN_PX + col * CELL_PX + inset + dx
        y0 = MARGIN_PX + row * CELL_PX + inset + dy
        image[y0:y0 + FACE_PX, x0:x0 + FACE_PX] = face
    return RectifiedBoard(image, CELL_PX, MARGIN_PX, np.eye(3))


def tile_face(letter: str, font: int = 0, rotation: int = 0) -> np.ndarray:
    """An English tile face of ``letter`` in the ``font``-th font found, a cell's face wide."""
    fonts = available_fonts()
    return render_tile_face(letter, value=ENGLISH.values[letter], size=FACE_PX,
                            font=fonts[font % len(fonts)], rotation=rotation,
                            rng=np.random.default_rng(5))
