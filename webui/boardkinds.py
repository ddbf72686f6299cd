"""What the table does differently on each kind of board a referee plays on.

The turn protocol (``webui.table``, ``webui.turns``) is the same for every game: steady frames
read, fused, compared with the game's board, shown as the play being laid, judged when the mover
says Done. What a frame is read into, and how a board read becomes the mover's move, depends on
the board: the 15x15 board of lettered tiles (:class:`SquareBoards`: tiles turned to their
seats, blanks, corrections of a misread square) or a hexhex board of coloured stones
(:class:`HexBoards`, islands: stones that appeared are the placement). The referee names its
board (``Game.board_kind``); :func:`kind_of` answers with the kind, so the table never asks
which ruleset it serves.

No Flask here. Boards are dicts from a cell to what lies on it, as the kind reads them:
``{Cell: Tile}`` on the square board, ``{HexCell: colour letter}`` on the hexhex board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from referee.boardtext import format_board_text, parse_board_text
from referee.hexboard import HexBoard, HexCell
from referee.moves import Snapshot
from webui import live, turns, wording

Seen = dict[Any, Any]
"""A board as a kind reads it (cell → what lies there)."""


class BoardKind(Protocol):
    """One kind of board at the table."""

    name: ClassVar[str]
    corrects: ClassVar[bool]
    """A player can correct what the camera read on one cell by tapping it."""
    nothing_placed: ClassVar[str]
    """Done, when no steady reading differs from the position."""
    still_judged: ClassVar[str]
    """While the camera shows exactly the board it last sent to the referee."""
    finished: ClassVar[str]
    """When the mover says Done (the play being laid is not judged until then)."""

    def position(self, game: Any) -> Seen:
        """The game's board as the camera should see it."""
        ...

    def read(self, image: Any, corners: Any, session: Any) -> Any:
        """A camera frame read (``corners``: the board's, set by hand, if the kind uses them);
        raises ``vision.VisionError``."""
        ...

    def settle(self, reading: Any, session: Any) -> tuple[Seen, tuple[Any, ...]]:
        """A reading as the board the game compares (its own frame and notation), with the
        game's doubtful cells kept as the game knows them: (board, the cells kept)."""
        ...

    def same(self, seen: Seen, position: Seen) -> bool:
        """Does the camera see the game's board (no play on it)?"""
        ...

    def provisional(self, game: Any, seen: Seen) -> turns.Provisional | None:
        """What ``seen`` shows of the mover's play so far (None when nobody is to move)."""
        ...

    def snapshot(self, game: Any, seen: Seen) -> Any:
        """``seen`` as the mover's move (the referee infers what was placed)."""
        ...

    def text(self, board: Mapping[Any, Any], game: Any) -> str:
        """A board read, as the log keeps it (board text)."""
        ...

    def parse(self, text: str, game: Any) -> Seen:
        """The board the log kept (:meth:`text`), read back."""
        ...

    def waiting_detail(self, reading: Any, session: Any) -> live.Detail:
        """What the table is told of a reading while it waits, when nothing else is said."""
        ...


class SquareBoards:
    """The 15x15 board of lettered tiles (archipelago, scrabble, colonization)."""

    name: ClassVar[str] = "square"
    corrects: ClassVar[bool] = True
    nothing_placed: ClassVar[str] = wording.NOTHING_PLACED
    still_judged: ClassVar[str] = wording.STILL_THE_JUDGED_BOARD
    finished: ClassVar[str] = wording.WORD_FINISHED

    def position(self, game: Any) -> Seen:
        return dict(game.board.tiles)

    def read(self, image: Any, corners: Any, session: Any) -> Any:
        from webui.photos import read_board

        return read_board(image, corners, session.game.tile_set.name)

    def settle(self, reading: Any, session: Any) -> tuple[Seen, tuple[Any, ...]]:
        """Settle the reading's doubts with the game's board (:func:`vision.known.settle`),
        turn it into the South view, give tiles their owners' rotations (or none, without
        seats) and hold the players' corrections."""
        from vision import Doubts, settle

        game = session.game
        # Where the camera doubts a square the game knows (a blank the colour of its square,
        # a dim Q), the game's tile stands; a sure reading still reports a tile gone or changed.
        known = {cell: tile for cell, tile in game.board.tiles.items()
                 if cell.name not in session.pending_remove}
        doubts = Doubts.of_reading(reading)
        seen, kept = settle(reading.tiles(), live.to_camera_frame(known, session.camera_side),
                            doubts)
        seen = live.to_south_frame(seen, session.camera_side)
        if not game.seated:  # without seats a tile's rotation says nothing
            seen = live.without_rotation(seen)
        elif (mover := game.to_move) is not None and mover.seat is not None:
            seen = live.blanks_as_placed(seen, game.board.tiles, mover.seat.rotation)
        seen = live.hold_corrections(seen, session.overrides, doubts, session.camera_side)
        return seen, tuple(kept)

    def same(self, seen: Seen, position: Seen) -> bool:
        return live.same_board(seen, position)

    def provisional(self, game: Any, seen: Seen) -> turns.Provisional | None:
        return turns.provisional_play(game, live.keep_designated_blanks(seen, game.board.tiles))

    def snapshot(self, game: Any, seen: Seen) -> Any:
        mover = game.to_move
        return Snapshot(mover.id, live.keep_designated_blanks(seen, game.board.tiles))

    def text(self, board: Mapping[Any, Any], game: Any) -> str:
        return format_board_text(board)

    def parse(self, text: str, game: Any) -> Seen:
        return dict(parse_board_text(text))

    def waiting_detail(self, reading: Any, session: Any) -> live.Detail:
        return live.waiting_detail(reading.warning_details, session.camera_side,
                                   _last_word(session.verdicts))


class HexBoards:
    """A hexhex board of coloured stones (islands): the stones that appeared since the last
    verdict are the mover's placement (a ``StonesSnapshot``).

    The reader (``vision.hexboard.read_hex_board``) names as line ``a`` the board's edge
    nearest the top of the picture, and a plain hexhex board looks the same turned by 60
    degrees: a camera set on another side of the table than the game's stones were first seen
    from (or tapped in) sees them turned. So a reading is turned back by the sixth of a turn
    that finds every stone of the game where the game has it, the reader's own way first.
    """

    name: ClassVar[str] = "hex"
    corrects: ClassVar[bool] = False
    nothing_placed: ClassVar[str] = wording.NOTHING_NEW_STONE
    still_judged: ClassVar[str] = wording.STILL_THE_JUDGED_STONES
    finished: ClassVar[str] = wording.STONES_DOWN
    TURN_MATCH_STONES: ClassVar[int] = 2
    """A turned reading is believed only when it finds at least this many of the game's stones
    in place: one stone is found in place by some turn of almost any board."""

    def position(self, game: Any) -> Seen:
        return dict(game.stones.stones)

    def read(self, image: Any, corners: Any, session: Any) -> Any:
        """The hex reader on a frame, at the game's size (corners set by hand are the square
        board's: the hex reader finds its six itself)."""
        from vision.hexboard import read_hex_board

        return read_hex_board(image, size=session.game.grid.size)

    def settle(self, reading: Any, session: Any) -> tuple[Seen, tuple[Any, ...]]:
        game = session.game
        seen = HexBoard.parse(reading.board_text(), game.grid.size).stones
        return self.turned_to(seen, game), ()

    def turned_to(self, seen: Mapping[HexCell, str], game: Any) -> Seen:
        """``seen`` turned to the game's own orientation (see the class): unturned where it
        keeps the game's stones, or where no turn keeps enough of them."""
        known = game.stones.stones
        if len(known) < self.TURN_MATCH_STONES or _keeps(seen, known):
            return dict(seen)
        grid = game.grid
        for sixths in range(1, 6):
            turned = {grid.turned(cell, sixths): colour for cell, colour in seen.items()}
            if _keeps(turned, known):
                return turned
        return dict(seen)

    def same(self, seen: Seen, position: Seen) -> bool:
        return dict(seen) == dict(position)

    def provisional(self, game: Any, seen: Seen) -> turns.Provisional | None:
        """The stones that appeared (reading order) with their colours, and the referee's
        preview of them as the mover's placement (``Game.examine``: nothing is judged)."""
        mover = game.to_move
        if mover is None:
            return None
        known = game.stones.stones
        placed = [cell for cell in game.grid.cells if cell in seen and known.get(cell) !=
                  seen[cell]]
        preview = game.examine(self.snapshot(game, seen)).to_json()
        return turns.Provisional(mover.id, tuple(cell.name for cell in placed), (),
                                 tuple(seen[cell] for cell in placed), preview)

    def snapshot(self, game: Any, seen: Seen) -> Any:
        from referee.islands import StonesSnapshot

        return StonesSnapshot(game.to_move.id, self.text(seen, game))

    def text(self, board: Mapping[Any, Any], game: Any) -> str:
        return HexBoard.from_stones(board, game.grid.size).text()

    def parse(self, text: str, game: Any) -> Seen:
        return dict(HexBoard.parse(text, game.grid.size).stones)

    def waiting_detail(self, reading: Any, session: Any) -> live.Detail:
        warnings = list(getattr(reading, "warnings", ()) or ())
        return live.Detail(str(warnings[0])) if warnings else live.Detail()


def _keeps(seen: Mapping[HexCell, str], known: Mapping[HexCell, str]) -> bool:
    return all(seen.get(cell) == colour for cell, colour in known.items())


def _last_word(verdicts: list[dict[str, Any]]) -> tuple[str, list[str]] | None:
    """The main word of the last verdict, if it was a legal play: (word, its cells)."""
    if not verdicts or not verdicts[-1].get("legal"):
        return None
    words = verdicts[-1].get("words") or []
    if not words or not words[0].get("cells"):
        return None
    return str(words[0].get("word", "")), list(words[0]["cells"])


KINDS: dict[str, BoardKind] = {"square": SquareBoards(), "hex": HexBoards()}
"""Every kind of board, by the name the referee gives it (``Game.board_kind``)."""


def kind_of(game: Any) -> BoardKind:
    """The kind of board ``game`` is played on."""
    return KINDS[getattr(type(game), "board_kind", "square")]


__all__ = ["KINDS", "BoardKind", "HexBoards", "SquareBoards", "kind_of"]
