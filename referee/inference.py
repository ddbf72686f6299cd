"""From two boards to a play: which tiles the mover put down, and the word they name.

A camera (or a person typing a board) reports the whole position after a move; the referee needs
the move itself. This module compares the position before with the board after, sorts every
changed cell into "placed by the mover" or "unexpected", and reads the placed tiles as one word
in the mover's own frame. It never guesses an unexpected change away: each is reported cell by
cell so the people at the table can fix the board (or the reading) and try again.

Rules stay out of here: whether the word is legal is the game's question. The game says which
tiles face the mover and whether a tile may be put over an opponent's (archipelago captures).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from referee.board import run_through
from referee.boardtext import Tile
from referee.cells import Cell, Direction, Seat
from referee.errors import IllegalPlayError


@dataclass(frozen=True)
class Change:
    """A cell that differs between the position and the snapshot in a way no play explains."""

    cell: Cell
    before: Tile | None
    after: Tile | None
    message: str

    def to_json(self) -> dict[str, object]:
        return {"cell": self.cell.name,
                "before": self.before.token if self.before else None,
                "after": self.after.token if self.after else None,
                "message": self.message}


@dataclass(frozen=True)
class InferredWord:
    """The word the placed tiles make: ``word`` has ``?`` where a blank still needs a letter."""

    cells: tuple[Cell, ...]
    direction: Direction
    word: str

    @property
    def at(self) -> Cell:
        return self.cells[0]

    @property
    def blank_cells(self) -> tuple[Cell, ...]:
        return tuple(cell for cell, letter in zip(self.cells, self.word, strict=True)
                     if letter == "?")

    def designated(self, letters: Mapping[Cell, str]) -> str:
        """The word with each ``?`` replaced by the blank's letter (lowercase: it is a blank)."""
        return "".join(letters[cell].lower() if letter == "?" else letter
                       for cell, letter in zip(self.cells, self.word, strict=True))


def _describe(tile: Tile) -> str:
    face = "an undesignated blank" if tile.letter == "?" else f"{tile.letter}"
    if tile.rotation is None:
        return f"{face} (no rotation)"
    return f"{face} facing {Seat.from_rotation(tile.rotation).value} ({tile.token[-1]})"


def compare(before: Mapping[Cell, Tile], after: Mapping[Cell, Tile], mover: str,
            faces_mover: Callable[[Tile], bool], captures: bool,
            lifted: Mapping[Cell, Tile] | None = None) -> tuple[dict[Cell, Tile], list[Change]]:
    """Split the differences into the tiles the mover placed and the unexpected changes.

    A changed cell counts as placed when its new tile faces the mover and the cell was empty,
    or (``captures``) held a tile that did not face the mover. ``lifted`` holds the tiles the
    last play told the players to take off: one still lying there is reported as such, even
    when it faces the mover (it is theirs, left behind, not a new tile).
    """
    lifted = lifted or {}
    placed: dict[Cell, Tile] = {}
    unexpected: list[Change] = []
    for cell in sorted(set(before) | set(after), key=lambda c: (c.row, c.col)):
        old, new = before.get(cell), after.get(cell)
        if old == new:
            continue
        left_behind = old is None and new is not None and lifted.get(cell) == new
        if new is not None and faces_mover(new) and not left_behind and (
                old is None or (captures and not faces_mover(old))):
            placed[cell] = new
            continue
        if new is None:
            message = f"{cell}: the tile {_describe(old)} is missing"  # type: ignore[arg-type]
        elif left_behind:
            message = f"{cell}: {_describe(new)} should have been lifted off"
        elif old is None:
            message = f"{cell}: {_describe(new)} appeared, but it is {mover}'s move"
        elif faces_mover(new):
            message = (f"{cell}: {_describe(old)} became {_describe(new)}; "
                       f"{mover} cannot play over that tile")
        else:
            message = f"{cell}: {_describe(old)} became {_describe(new)}"
        unexpected.append(Change(cell, old, new, message))
    return placed, unexpected


def read_word(after: Mapping[Cell, Tile], placed: Collection[Cell], mover: str, seat: Seat,
              word_tile: Callable[[Tile], bool]) -> InferredWord:
    """The one word the placed cells make, read in ``seat``'s frame along the board ``after``.

    ``word_tile`` says which tiles join the mover's words (archipelago: only the mover's own;
    scrabble: every tile). Raises ``no-tile-placed`` or ``not-in-line`` when no single word fits.
    """
    if not placed:
        raise IllegalPlayError("no-tile-placed", f"the board shows no new tile of {mover}'s")

    def occupied(cell: Cell) -> bool:
        tile = after.get(cell)
        return tile is not None and word_tile(tile)

    frames = {cell: seat.to_frame(cell) for cell in placed}
    ordered = sorted(placed, key=lambda cell: (frames[cell][1], frames[cell][0]))
    first = ordered[0]
    if len(ordered) == 1:
        across = run_through(occupied, first, Direction.ACROSS, seat)
        down = run_through(occupied, first, Direction.DOWN, seat)
        direction = Direction.DOWN if len(across) < 2 <= len(down) else Direction.ACROSS
    elif len({frames[cell][1] for cell in ordered}) == 1:
        direction = Direction.ACROSS
    elif len({frames[cell][0] for cell in ordered}) == 1:
        direction = Direction.DOWN
    else:
        names = ", ".join(cell.name for cell in ordered)
        raise IllegalPlayError("not-in-line",
                               f"the tiles placed on {names} are not in one row or column")
    run = run_through(occupied, first, direction, seat)
    missing = [cell for cell in ordered if cell not in run]
    if missing:
        gaps = _gaps(after, ordered[0], ordered[-1], direction, seat)
        where = f" on {', '.join(cell.name for cell in gaps)}" if gaps else ""
        raise IllegalPlayError(
            "not-in-line", f"there is a gap{where} between the tiles placed on {first} and "
                           f"{missing[0]}, so they do not make one word", gaps=gaps)
    word = "".join(after[cell].token[0] for cell in run)
    return InferredWord(tuple(run), direction, word)


def _gaps(after: Mapping[Cell, Tile], first: Cell, last: Cell, direction: Direction,
          seat: Seat) -> list[Cell]:
    """The squares with no tile at all between ``first`` and ``last`` (placed tiles of one
    line, in reading order): where a tile is missing for them to make one word.

    Why name them: a camera can miss a tile there, most often a blank, whose face may be the
    colour of its square, and the table then asks the players to look at those squares. A
    square holding another seat's tile is no such gap: that tile was seen.
    """
    gaps = []
    cell = seat.step(first, direction)
    while cell != last:
        if cell not in after:
            gaps.append(cell)
        cell = seat.step(cell, direction)
    return gaps


__all__ = ["Change", "InferredWord", "compare", "read_word"]
