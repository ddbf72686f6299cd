"""The tiles already on the table when a game starts: its ``position`` (FORMATS.md).

A game joined in progress has tiles on the board before its first play here. Judged as a play,
that board is nine changes nobody could have made in one turn; it is the game's starting
position instead. The new-game form reads it from a camera frame or a photo (turned from the
camera's side into the South view, as every frame is), shows it drawn, lets the players fix a
misread square, and starts the game with it. Each step is one call here: :func:`read_position`
for a picture, :func:`check_position` for board text as the players fixed it; both say what is
wrong with the position in sentences (``Board.status``), and name the squares a reading doubts.

No Flask here; the API view (``POST /api/position``) draws the board and answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.board import Board
from referee.boardtext import BoardTextError, Tile, format_board_text, parse_board_text
from referee.cells import Cell, Seat
from referee.errors import SetupError
from referee.game import find_ruleset
from referee.tiles import load_tile_set
from webui import live
from webui.errors import ServiceError, Unreadable, one_line
from webui.photos import Photos, read_board, tile_set_option

START_BLOCKERS = frozenset({"blank-undesignated"})
"""Problems a game is not started with from the new-game form: a blank whose letter is not
named would be a tile with no letter in every word through it."""


@dataclass(frozen=True)
class TablePosition:
    """A starting position: the tiles (South view), what is wrong with it (sentences, by
    ``Board.status`` code), what the reading doubts, and the squares those name (South view)."""

    tiles: dict[Cell, Tile]
    problems: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    check: tuple[str, ...] = ()

    def board_text(self) -> str:
        return format_board_text(self.tiles, spaced=True)

    def blockers(self) -> list[str]:
        """The problems a game is not started with (:data:`START_BLOCKERS`), in sentences."""
        return [message for code, message in self.problems if code in START_BLOCKERS]

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board_text(), "tiles": len(self.tiles),
                "problems": [message for _, message in self.problems],
                "blockers": self.blockers(), "warnings": list(self.warnings),
                "check": list(self.check)}


def _seats(value: object) -> list[Seat] | None:
    """``"SN"`` (the seats of the players, as the form has them) → seats; None when not given."""
    if not value:
        return None
    try:
        return [Seat.parse(letter) for letter in str(value) if not letter.isspace()]
    except ValueError as error:
        raise ServiceError(f"seats: {error}") from None


def _rules(ruleset: str) -> Any:
    """The ruleset's class (its ``seated`` and ``captures`` say how a position is checked)."""
    try:
        return find_ruleset(str(ruleset))
    except SetupError as error:
        raise ServiceError(one_line(error)) from None


def _settled(tiles: dict[Cell, Tile], ruleset: str, tile_set: str, seats: Iterable[Seat] | None,
             warnings: tuple[str, ...] = (), check: tuple[str, ...] = ()) -> TablePosition:
    """The position of ``tiles`` (South view) for ``ruleset``, with its problems: where players
    have no seats, the rotations a camera reads mean nothing and are dropped."""
    rules = _rules(ruleset)
    if not rules.seated:
        tiles = live.without_rotation(tiles)
    problems = Board(tiles).status(load_tile_set(tile_set),
                                   (list(seats) if seats is not None else None)
                                   if rules.seated else None, centred=not rules.captures)
    return TablePosition(tiles, tuple((problem.code, problem.message) for problem in problems),
                         warnings, check)


def check_position(board: object, ruleset: str = "archipelago", tiles: object = None,
                   seats: object = None, check: object = None) -> TablePosition:
    """Board text as the players fixed it → the position and its problems; ``check``: squares
    to ring (the ones a reading's warnings named, which a page keeps)."""
    if not isinstance(board, str):
        raise ServiceError("'board' must be board text (15 lines)")
    if check is None:
        check = []
    if not isinstance(check, list) or not all(isinstance(name, str) for name in check):
        raise ServiceError("'check' must be a list of squares such as ['K3']")
    try:
        parsed = parse_board_text(board)
    except BoardTextError as error:
        raise ServiceError(str(error)) from None
    try:
        ringed = tuple(Cell.parse(name).name for name in check)
    except ValueError as error:
        raise ServiceError(f"'check': {error}") from None
    return _settled(parsed, ruleset, tile_set_option(tiles), _seats(seats), check=ringed)


def read_position(photos: Photos, data: bytes, ruleset: str = "archipelago",
                  tiles: object = None, camera_side: object = "S",
                  seats: object = None) -> TablePosition:
    """A camera frame or a photo of the table → the position it shows, in the South view.

    Read with the surer settings of a photo read on request (it is read once, not voted on by
    frames); no board found is a 422 in one sentence.
    """
    from vision import VisionError, said_once, warned_cells

    tile_set = tile_set_option(tiles)
    try:
        side = Seat.parse(str(camera_side or "S")).value
    except ValueError as error:
        raise ServiceError(f"camera side: {error}") from None
    image = photos.photo(data)
    try:
        reading = read_board(image, None, tile_set, single=True)
    except VisionError as error:
        raise Unreadable(one_line(error)) from None
    turns = Seat.parse(side).quarter_turns
    warnings = [warning.turned(turns) for warning in reading.warning_details]
    return _settled(live.to_south_frame(reading.tiles(), side), ruleset, tile_set,
                    _seats(seats), tuple(warning.message for warning in said_once(warnings)),
                    tuple(warned_cells(warnings)))
