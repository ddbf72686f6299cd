"""Whether a crop's print is lighter than its face: white letters on black plastic tiles.

Every reader of ink in a cell or a tile crop (its letter, its blobs, its face colour) measures how
much darker than the face a pixel is. Black plastic tiles carry white letters: there the "ink"
found was the tile's whole body, and the letter was never seen (issue 33's stress set: 93 % of
the cells and 27 % of the letters right on black tiles when no model had seen them). A board
whose tiles are lettered light is read as its negative
(:func:`vision.cells.letterevidence.lettered_light` decides it from the print on its plain
squares, judged here cell by cell), so the models only ever see dark print on a light face.

The judgement: most of a crop's middle is its face, the print the rest, so light print is a middle
whose median lies nearer its dark end than its bright one (by :data:`LIGHT_PRINT_RATIO`: a big
bold letter fills nearly half of a middle). A light tile half in shadow keeps its dark letter: its
shade lies between its letter and its lit face, nearer the face. A crop without print (a plain
square, a blank) has too little spread to judge. Measured on rendered training faces (bold sans,
156 letters and 40 blanks of each tile colour): every black plastic letter is judged light, no
letter or blank of the four light colours is. A wood tile on a white board, its crop edged with
white board, can be judged light: which is why the board decides, and asks more than this.
"""

from __future__ import annotations

import numpy as np

from vision.bytestats import percentiles

LIGHT_PRINT_RATIO = 1.2
"""How many times further a middle's bright end must lie from its median than its dark end for
its print to count as light (1.0 took 5-22 % of the light colours' blanks for light print, 0.8
more; 1.2 none, and still every black plastic letter)."""

LEAST_PRINT_CONTRAST = 40.0
"""Grey levels from the dark to the bright end under which a crop has no print to judge: a blank
lit unevenly spans 20-30, white letters on black plastic 150 or more."""

ENDS = (2, 50, 98)
"""The percentiles of a crop's middle taken as its darkest print, its bulk and its brightest."""


def light_print(stack: np.ndarray, margin: int) -> np.ndarray:
    """(N,) bool: which crops of an (N, h, w) ``uint8`` grey stack show print lighter than their
    face, judged inside ``margin`` pixels of each crop's edge (where the crop is its own cell)."""
    if len(stack) == 0:
        return np.zeros(0, bool)
    h, w = stack.shape[1:3]
    middle = stack[:, margin:h - margin, margin:w - margin].reshape(len(stack), -1)
    dark, bulk, bright = (level.astype(np.float32) for level in percentiles(middle, ENDS))
    return (bright - dark >= LEAST_PRINT_CONTRAST) & (
        bright - bulk > LIGHT_PRINT_RATIO * (bulk - dark))


__all__ = ["light_print"]
