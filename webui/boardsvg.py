"""The board as SVG text, from plain data: as python-chess's ``chess.svg`` draws a position.

:func:`board` takes the tiles on their cells and what to show about them (premium squares, tile
values, owners' colours, marks) and returns an ``<svg>`` element; it knows nothing of games,
rulesets, Flask or the web service, so a page, a test or a script can draw a board alike. The
look is ``static/style.css``'s: every square is a ``<g class="cell ...">`` with ``data-cell``
(and ``data-tile``, the board-text token), which the pages' scripts tap to correct a square.

Marks, by name: ``placed`` (the last play's tiles), ``captured`` (tiles it took over),
``remove`` (tiles to lift off: ringed, the lifted letter shown as a ghost), ``restore`` (tiles
to put back after an undo: ringed), ``check`` (a square
to look at on the table), ``seen`` and ``missing`` (a refused camera reading drawn over the
game's board: where it differs, and what it lacks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from referee.boardtext import Tile
from referee.cells import COLUMNS, SIZE, Cell

CELL = 40
"""SVG units per square."""
MARGIN = 22
"""Room for the coordinates around the grid."""
BOARD_SIZE = 2 * MARGIN + SIZE * CELL
STAR = "H8"
"""The centre square, drawn with a star while it is empty."""
EDGE = 24
"""Room for a player's name along an edge of the board (``edges``)."""
SIDES = ("S", "W", "N", "E")
"""The board's edges by the seat sitting there: bottom, left, top, right."""


def board(tiles: Mapping[Cell, Tile], *, premiums: Mapping[Cell, str] | None = None,
          values: Mapping[Cell, int] | None = None, owners: Mapping[Cell, str] | None = None,
          marks: Mapping[str, Iterable[str]] | None = None,
          ghosts: Mapping[str, str] | None = None, interactive: bool = False,
          edges: Mapping[str, str] | None = None) -> str:
    """The board as an ``<svg>`` element.

    ``premiums``: a premium square's label (``DL``, ``TW``); ``values``: the number printed on
    a tile; ``owners``: a tile's colour, the suffix of its ``owner-`` class (a seat letter);
    ``marks``: mark name → the names of the cells it marks; ``ghosts``: cell name → the letter
    of a tile still to be lifted off there; ``interactive``: the squares can be tapped;
    ``edges``: seat letter (``S`` the bottom edge, ``W`` left, ``N`` top, ``E`` right) → the
    words along that edge, the player sitting there, in the seat's colour.
    """
    edges = {side: text for side, text in (edges or {}).items() if side in SIDES and text}
    room = {side: EDGE if side in edges else 0 for side in SIDES}
    by_cell: dict[str, list[str]] = {}
    for mark, names in (marks or {}).items():
        for name in names:
            by_cell.setdefault(name, []).append(mark)
    width = BOARD_SIZE + room["W"] + room["E"]
    height = BOARD_SIZE + room["N"] + room["S"]
    parts = [
        f'<svg class="board{" interactive" if interactive else ""}" '
        f'viewBox="{-room["W"]} {-room["N"]} {width} {height}" role="img" '
        f'aria-label="the board" xmlns="http://www.w3.org/2000/svg">',
        f'<rect class="board-bg" x="0" y="0" width="{BOARD_SIZE}" height="{BOARD_SIZE}" '
        f'rx="10"/>',
    ]
    parts += _coordinates()
    parts += [_edge(side, text) for side, text in edges.items()]
    for row in range(SIZE):
        for col in range(SIZE):
            cell = Cell(col, row)
            tile = tiles.get(cell)
            parts.append(_square(
                cell, tile, (premiums or {}).get(cell), (values or {}).get(cell, 0),
                (owners or {}).get(cell) if tile is not None else None,
                tuple(by_cell.get(cell.name, ())),
                (ghosts or {}).get(cell.name) if tile is None else None))
    parts.append("</svg>")
    return "\n".join(parts)


def _coordinates() -> list[str]:
    """Column letters above and below the grid, row numbers left and right of it."""
    lines = []
    for i in range(SIZE):
        across = MARGIN + i * CELL + CELL / 2
        lines += [
            f'<text class="coord" x="{across}" y="{MARGIN - 7}">{COLUMNS[i]}</text>',
            f'<text class="coord" x="{across}" y="{MARGIN + SIZE * CELL + 16}">{COLUMNS[i]}'
            f'</text>',
            f'<text class="coord" x="{MARGIN / 2}" y="{across + 4}">{i + 1}</text>',
            f'<text class="coord" x="{BOARD_SIZE - MARGIN / 2}" y="{across + 4}">{i + 1}</text>',
        ]
    return lines


def _edge(side: str, text: str) -> str:
    """The words along one edge of the board, outside it, read from South's side (the left and
    right ones turned to run along their edge)."""
    middle, far = BOARD_SIZE / 2, BOARD_SIZE + EDGE * 0.7
    place = {"S": f'x="{middle}" y="{far}"', "N": f'x="{middle}" y="{-EDGE * 0.3}"',
             "W": f'x="{middle}" y="{-EDGE * 0.3}" transform="rotate(-90 {middle} {middle})"',
             "E": f'x="{middle}" y="{-EDGE * 0.3}" transform="rotate(90 {middle} {middle})"'}
    return (f'<text class="edge-label seat-{side}" data-side="{side}" {place[side]}>'
            f'{escape(text)}</text>')


def _square(cell: Cell, tile: Tile | None, premium: str | None, value: int, owner: str | None,
            marks: tuple[str, ...], ghost: str | None) -> str:
    x, y = MARGIN + cell.col * CELL, MARGIN + cell.row * CELL
    cx, cy = x + CELL / 2, y + CELL / 2
    classes = " ".join(["cell", *(f"mark-{mark}" for mark in marks),
                        *([f"owner-{escape(owner)}"] if owner else [])])
    token = escape(tile.token) if tile is not None else ""
    parts = [f'<g class="{classes}" data-cell="{cell.name}"'
             + (f' data-tile="{token}"' if tile is not None else "") + ">",
             f"<title>{cell.name}" + (f": {token}" if tile is not None else "") + "</title>",
             f'<rect class="square {f"premium-{escape(premium)}" if premium else ""}" x="{x}" '
             f'y="{y}" width="{CELL}" height="{CELL}"/>']
    if tile is None:
        if premium and cell.name != STAR:
            parts.append(f'<text class="premium-label" x="{cx}" y="{cy + 4}">{escape(premium)}'
                         f'</text>')
        if cell.name == STAR:
            parts.append(f'<text class="star" x="{cx}" y="{cy + 7}">★</text>')
    else:
        parts.append(_tile(tile, x, y, value))
    if ghost and "remove" in marks:
        parts.append(f'<text class="ghost" x="{cx}" y="{cy + 8}">{escape(ghost)}</text>')
    if "check" in marks:
        parts.append(f'<rect class="check" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                     f'height="{CELL - 4}" rx="4"/>')
    if "remove" in marks:
        parts.append(f'<rect class="lift" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" '
                     f'height="{CELL - 2}" rx="4"/>')
    if "restore" in marks:
        parts.append(f'<rect class="put-back" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" '
                     f'height="{CELL - 2}" rx="4"/>')
    parts.append("</g>")
    return "".join(parts)


def _tile(tile: Tile, x: int, y: int, value: int) -> str:
    """A tile turned as it lies; a bar along its top where it has a top (a rotation)."""
    cx, cy = x + CELL / 2, y + CELL / 2
    parts = [f'<g transform="rotate({tile.rotation or 0} {cx} {cy})">',
             f'<rect class="tile" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" '
             f'height="{CELL - 6}" rx="5"/>']
    if tile.rotation is not None:
        parts.append(f'<rect class="tile-top" x="{x + 8}" y="{y + 4}" width="{CELL - 16}" '
                     f'height="3" rx="1.5"/>')
    parts.append(f'<text class="letter{" blank" if tile.blank else ""}" x="{cx - 1}" '
                 f'y="{cy + 8}">{escape(tile.letter)}</text>')
    if value:
        parts.append(f'<text class="value" x="{x + CELL - 7}" y="{y + CELL - 6}">{value}</text>')
    parts.append("</g>")
    return "".join(parts)
