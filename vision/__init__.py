"""The camera's half of tileref: from a photo of a board to what lies on it, as plain data.

Everything the rest of the product uses is imported from here::

    from vision import load_image, read_board

    reading = read_board(load_image("photo.jpg"), tiles="english")
    print(reading.board_text(), reading.warnings)

The stages, in the order a photo goes through them, are subpackages:

- :mod:`vision.board`: finding the 15x15 grid in the photo and rectifying it (``locate``,
  ``roughgrids``, ``premiums``, ``refine``, ``rectify``);
- :mod:`vision.cells`: the board cut into cells (``cellgrid``), its light evened out where a
  shadow dims part of it (``relight``), which hold a tile
  (``occupancy``, by ``letterevidence`` and ``facecolour``) and which lie under something
  (``cover``);
- :mod:`vision.letters`: each tile's letter and rotation (``classify``, ``cnn``), the marks of
  national letters (``diacritics``), where a letter lies on its square (``tilecentre``), which
  way a blank faces (``blankfacing``) and Tesseract's second opinion (``ocr``).

Beside them: :mod:`vision.read` chains the stages; :mod:`vision.reading` is what comes out and
:mod:`vision.warning` what it doubts, as data; :mod:`vision.quality` judges the photo (glare,
shadow, blur, size); :mod:`vision.known` settles a reading with the tiles a game already knows;
:mod:`vision.steady` tells a steady camera view from a hand over the board;
:mod:`vision.overlay` draws a reading over its photo; :mod:`vision.playerboard` reads a First
Draft player's own board; :mod:`vision.image` loads photos, :mod:`vision.warmup` builds
OpenCV's colour tables early for a one-photo process, and :mod:`vision.errors` is every
failure a user can cause. Every tuned number lives in one place per stage: :mod:`vision.tuning`
(reading as a whole), :mod:`vision.board.tuning`, :mod:`vision.cells.tuning` and
:mod:`vision.letters.tuning`; ``docs/tuning.md`` keeps what each was measured by. Training,
rendering and evaluation are offline tools in :mod:`lab`, which this package never imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker and a reader see; at run time, loaded when first used
    from vision.board.locate import SIDES, BoardLocation, find_board, south_at
    from vision.board.rectify import RectifiedBoard, check_corners, photo_cell_px, rectify
    from vision.errors import BoardNotFoundError, ImageError, ImageQualityError, VisionError
    from vision.image import load_image, load_thumbnail
    from vision.known import Doubts, settle
    from vision.overlay import draw_overlay, save_overlay
    from vision.playerboard import PlayerBoardConfig, PlayerBoardReading, read_player_board
    from vision.read import SOUTH_OPTIONS, read_board, read_rectified
    from vision.reading import BoardReading, CellReading
    from vision.steady import SteadyConfig, SteadyTracker, ViewCheck, ViewState
    from vision.tuning import DEFAULT_CONFIG, DISPUTE_CONFIG, KNOWN_TILE_SURE, ReadConfig
    from vision.warmup import warm_colour_tables
    from vision.warning import (
        ReadingWarning,
        WarningCode,
        maybe_tile_cells,
        off_square_cells,
        other_tile_sets,
        reading_warnings,
        said_once,
        warned_cells,
    )

_HOMES = {name: module for module, names in {
    "vision.board.locate": ("SIDES", "BoardLocation", "find_board", "south_at"),
    "vision.board.rectify": ("RectifiedBoard", "check_corners", "photo_cell_px", "rectify"),
    "vision.errors": ("BoardNotFoundError", "ImageError", "ImageQualityError", "VisionError"),
    "vision.image": ("load_image", "load_thumbnail"),
    "vision.known": ("Doubts", "settle"),
    "vision.overlay": ("draw_overlay", "save_overlay"),
    "vision.playerboard": ("PlayerBoardConfig", "PlayerBoardReading", "read_player_board"),
    "vision.read": ("SOUTH_OPTIONS", "read_board", "read_rectified"),
    "vision.reading": ("BoardReading", "CellReading"),
    "vision.steady": ("SteadyConfig", "SteadyTracker", "ViewCheck", "ViewState"),
    "vision.tuning": ("DEFAULT_CONFIG", "DISPUTE_CONFIG", "KNOWN_TILE_SURE", "ReadConfig"),
    "vision.warmup": ("warm_colour_tables",),
    "vision.warning": (
        "ReadingWarning", "WarningCode", "maybe_tile_cells", "off_square_cells", "other_tile_sets",
        "reading_warnings", "said_once", "warned_cells",
    ),
}.items() for name in names}
"""Where each public name lives, imported when first asked for (PEP 562): ``tileref read``
needs the reader, not the player-board reader, the steady-view tracker or the overlay."""


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = [
    "DEFAULT_CONFIG",
    "DISPUTE_CONFIG",
    "KNOWN_TILE_SURE",
    "SIDES",
    "SOUTH_OPTIONS",
    "BoardLocation",
    "BoardNotFoundError",
    "BoardReading",
    "CellReading",
    "Doubts",
    "ImageError",
    "ImageQualityError",
    "PlayerBoardConfig",
    "PlayerBoardReading",
    "ReadConfig",
    "ReadingWarning",
    "RectifiedBoard",
    "SteadyConfig",
    "SteadyTracker",
    "ViewCheck",
    "ViewState",
    "VisionError",
    "WarningCode",
    "check_corners",
    "draw_overlay",
    "find_board",
    "load_image",
    "load_thumbnail",
    "maybe_tile_cells",
    "off_square_cells",
    "other_tile_sets",
    "photo_cell_px",
    "read_board",
    "read_player_board",
    "read_rectified",
    "reading_warnings",
    "rectify",
    "said_once",
    "save_overlay",
    "settle",
    "south_at",
    "warm_colour_tables",
    "warned_cells",
]
