"""Reading a photo of a hexhex board with coloured stones (``islands``, RULES.md section 5).

    from vision.hexboard import read_hex_board, draw_hex_overlay
    from vision.image import load_image

    reading = read_hex_board(load_image("board.jpg"), size=7)
    print(reading.board_text(), reading.warnings)

The stages, in the order a photo goes through them: :mod:`~vision.hexboard.outline` (where the
plate might be), :mod:`~vision.hexboard.lattice` (the cells inside it, which confirm it),
:mod:`~vision.hexboard.locate` (the board found, turned so line ``a`` is on top, or why not),
:mod:`~vision.hexboard.cells` (each cell measured against the board's own light),
:mod:`~vision.hexboard.stones` (empty or which colour), :mod:`~vision.hexboard.read` (the chain
and its doubts). :mod:`~vision.hexboard.reading` is what comes out, as plain data, and
:mod:`~vision.hexboard.overlay` draws it over the photo. The board's cells and colour letters
are :mod:`referee.hexboard`'s plain types; nothing here knows the game's rules.
"""

from vision.hexboard.locate import BoardPose, locate_board
from vision.hexboard.overlay import draw_hex_overlay
from vision.hexboard.read import read_hex_board
from vision.hexboard.reading import HexReading, StoneReading

__all__ = [
    "BoardPose",
    "HexReading",
    "StoneReading",
    "draw_hex_overlay",
    "locate_board",
    "read_hex_board",
]
