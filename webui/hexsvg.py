"""The hexhex board of ``islands`` as SVG text, from plain data (as ``webui.boardsvg`` draws the
square board, and python-chess's ``chess.svg`` a position).

:func:`board` takes the grid as :meth:`referee.hexboard.HexGrid.to_json` gives it (each cell's
name, centre in cell widths and neighbours), the stones by cell name, each colour's islands and
what to mark, and returns an ``<svg>`` element. It knows nothing of games, rules, Flask or the
web service. Cells are pointy-topped hexagons laid out as FORMATS.md draws them; every cell is a
``<g class="hexcell">`` with ``data-cell`` (and ``data-stone``, the colour letter), named in its
``<title>`` for a pointer's hover and a screen reader, which a page's script taps to place a
stone.

A stone is drawn in its colour and carries its colour's letter, so players who do not tell red
from green tell R from G. An island (two or more stones of a colour, joined) is outlined along
its outer edges in that colour over a white halo, visible on every cell colour.

Marks, by name: ``placed`` (the last turn's stones: a white ring on a dark one),
``provisional`` (stones laid but not judged: drawn faded in a dashed ring), ``check`` (a cell to
look at on the table: a dashed orange hexagon).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from referee.hexboard import colour_name

CELL = 40.0
"""SVG units per cell width."""
LETTER_ROOM = 20.0
"""Room for the line letters left and right of the board."""
RADIUS = 1 / math.sqrt(3)
"""A pointy-topped hexagon's corner distance from its centre, in cell widths."""
STONE = 0.36
"""A stone's radius, in cell widths (inside the hexagon's inner circle of 0.5)."""

STONE_FILL = {"R": "#d32f2f", "B": "#1f5fbf", "G": "#2e8b3e", "Y": "#f4c20d",
              "W": "#fbfbf6", "K": "#222222", "O": "#f57c00", "P": "#7b3fa0"}
"""Each palette colour as drawn (the camera reads real stones; these are for the screen)."""
LETTER_FILL = {"Y": "#222222", "W": "#222222", "O": "#222222"}
"""The letter on a light stone is dark; on every other stone it is white."""
OUTLINE = {"W": "#9e9e9e"}
"""An island's outline where its stones' own colour would not show over the white halo."""
UNKNOWN_FILL = "#9e9e9e"


def stone_look(colour: str) -> dict[str, str]:
    """How a stone of ``colour`` is drawn, for a page's own chips and banners: ``{"fill",
    "ink"}`` (the letter's colour on it)."""
    return {"fill": STONE_FILL.get(colour, UNKNOWN_FILL), "ink": LETTER_FILL.get(colour, "#ffffff")}


def _corner(cx: float, cy: float, k: int) -> tuple[float, float]:
    """Corner ``k`` of a pointy-topped hexagon (0 is the top one, then clockwise), in units."""
    angle = math.radians(-90 + 60 * k)
    return cx + RADIUS * CELL * math.cos(angle), cy + RADIUS * CELL * math.sin(angle)


def _hexagon(cx: float, cy: float, shrink: float = 0.0) -> str:
    """The hexagon's corners as a ``points`` attribute, ``shrink`` units inside its edge."""
    scale = (RADIUS * CELL - shrink) / (RADIUS * CELL)
    points = []
    for k in range(6):
        x, y = _corner(cx, cy, k)
        points.append(f"{cx + (x - cx) * scale:.1f},{cy + (y - cy) * scale:.1f}")
    return " ".join(points)


def board(grid: Mapping[str, Any], stones: Mapping[str, str], *,
          islands: Mapping[str, Sequence[Sequence[str]]] | None = None,
          marks: Mapping[str, Iterable[str]] | None = None,
          interactive: bool = False, label: str = "the board") -> str:
    """The board as an ``<svg>`` element.

    ``grid``: :meth:`referee.hexboard.HexGrid.to_json`; ``stones``: cell name → colour letter;
    ``islands``: colour letter → its islands, each a list of cell names, to outline; ``marks``:
    mark name → the names of the cells it marks; ``interactive``: the cells can be tapped (and
    reached with the keyboard); ``label``: what a screen reader calls the drawing.
    """
    cells = list(grid["cells"])
    by_cell: dict[str, list[str]] = {}
    for mark, names in (marks or {}).items():
        for name in names:
            by_cell.setdefault(name, []).append(mark)
    outline = _Outline.around(cells)
    left, right = outline.cx - outline.reach - LETTER_ROOM, outline.cx + outline.reach \
        + LETTER_ROOM
    top, bottom = outline.cy - outline.half_height - 2, outline.cy + outline.half_height + 2
    parts = [
        f'<svg class="hexboard{" interactive" if interactive else ""}" '
        f'viewBox="{left:.1f} {top:.1f} {right - left:.1f} {bottom - top:.1f}" role="group" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        outline.polygon(),
    ]
    parts += _line_letters(cells, outline)
    for cell in cells:
        name = cell["cell"]
        parts.append(_cell(name, cell["x"] * CELL, cell["y"] * CELL, stones.get(name),
                           tuple(by_cell.get(name, ())), interactive))
    parts += _islands(cells, islands or {})
    parts.append("</svg>")
    return "\n".join(parts)


@dataclass(frozen=True)
class _Outline:
    """The board itself under the cells: the big flat-topped hexagon around them (pointy-topped
    cells make a board with a flat top line), in SVG units."""

    cx: float
    cy: float
    reach: float
    """From the centre to a corner (and so along the top edge's half length)."""

    @classmethod
    def around(cls, cells: list[Mapping[str, Any]]) -> _Outline:
        middle = cells[len(cells) // 2]
        side = max(abs(cell["x"] - middle["x"]) for cell in cells)  # n - 1 cell widths
        # The top cells' points stand RADIUS over their centres: 0.8 more than the corner cells'
        # distance clears them (0.667 would touch).
        return cls(middle["x"] * CELL, middle["y"] * CELL, (side + 0.8) * CELL)

    @property
    def half_height(self) -> float:
        return self.reach * math.sqrt(3) / 2

    def left_edge(self, y: float) -> float:
        """Where the board's left side is at height ``y`` (the right side mirrors it)."""
        return self.cx - self.reach + abs(y - self.cy) / math.sqrt(3)

    def polygon(self) -> str:
        points = " ".join(f"{self.cx + self.reach * math.cos(math.radians(60 * k)):.1f},"
                          f"{self.cy + self.reach * math.sin(math.radians(60 * k)):.1f}"
                          for k in range(6))
        return f'<polygon class="hexboard-bg" points="{points}" fill="#6b4f2a"/>'


def _line_letters(cells: list[Mapping[str, Any]], outline: _Outline) -> list[str]:
    """Each line's letter outside the board at both its ends, as cell names start (``d`` of
    d4)."""
    lines: dict[str, float] = {}
    for cell in cells:
        lines.setdefault(cell["cell"][0], cell["y"] * CELL)
    texts = []
    for letter, y in lines.items():
        left = outline.left_edge(y) - LETTER_ROOM / 2
        right = 2 * outline.cx - left
        for x in (left, right):
            texts.append(f'<text class="hex-line" x="{x:.1f}" y="{y + 5:.1f}" '
                         f'aria-hidden="true">{letter}</text>')
    return texts


def _cell(name: str, cx: float, cy: float, stone: str | None, marks: tuple[str, ...],
          interactive: bool) -> str:
    classes = " ".join(["hexcell", *(f"mark-{mark}" for mark in marks),
                        *([f"stone-{escape(stone)}"] if stone else [])])
    said = f"{name}: {colour_name(stone)} stone" if stone else f"{name}: empty"
    if "provisional" in marks and stone:
        said += " (not judged yet)"
    elif "placed" in marks and stone:
        said += " (placed last turn)"
    attributes = f' class="{classes}" data-cell="{name}"'
    if stone:
        attributes += f' data-stone="{escape(stone)}"'
    if interactive:
        attributes += f' role="button" tabindex="0" aria-label="{escape(said)}"'
    parts = [f"<g{attributes}>", f"<title>{escape(said)}</title>",
             f'<polygon class="hex" points="{_hexagon(cx, cy, 1.0)}" fill="#efe3c8" '
             f'stroke="#6b4f2a"/>']
    if stone:
        parts.append(_stone(stone, cx, cy, "provisional" in marks))
    if "placed" in marks:  # dark under white: seen around a stone of any colour
        for ring in ("ring-placed-under", "ring-placed"):
            parts.append(f'<circle class="{ring}" cx="{cx:.1f}" cy="{cy:.1f}" '
                         f'r="{STONE * CELL + 5:.1f}" fill="none"/>')
    if "provisional" in marks:
        parts.append(f'<circle class="ring-provisional" cx="{cx:.1f}" cy="{cy:.1f}" '
                     f'r="{STONE * CELL + 3.5:.1f}" fill="none"/>')
    if "check" in marks:
        parts.append(f'<polygon class="hex-check" points="{_hexagon(cx, cy, 3.5)}" '
                     f'fill="none"/>')
    parts.append("</g>")
    return "".join(parts)


def _stone(colour: str, cx: float, cy: float, faded: bool) -> str:
    look = stone_look(colour)
    fill, ink = look["fill"], look["ink"]
    opacity = ' opacity="0.72"' if faded else ""
    return (f'<g class="stone"{opacity}>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{STONE * CELL:.1f}" fill="{fill}" '
            f'stroke="#1b1b1b" stroke-width="1.5"/>'
            f'<text class="stone-letter" x="{cx:.1f}" y="{cy + 5.5:.1f}" fill="{ink}" '
            f'aria-hidden="true">{escape(colour)}</text></g>')


def _islands(cells: list[Mapping[str, Any]],
             islands: Mapping[str, Sequence[Sequence[str]]]) -> list[str]:
    """Each island's outer edges: an edge of one of its cells is outer where the cell across it
    is not in the island (or is off the board). Drawn over the cells, deaf to taps."""
    centres = {cell["cell"]: (cell["x"], cell["y"]) for cell in cells}
    neighbours = {cell["cell"]: cell["neighbours"] for cell in cells}
    paths = []
    for colour, found in islands.items():
        for island in found:
            members = set(island)
            segments = []
            for name in island:
                if name not in centres:
                    continue
                x, y = centres[name]
                for k in range(6):
                    if _across(x, y, k, neighbours[name], centres) in members:
                        continue
                    (x1, y1), (x2, y2) = _corner(x * CELL, y * CELL, k), \
                        _corner(x * CELL, y * CELL, (k + 1) % 6)
                    segments.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
            if not segments:
                continue
            stroke = OUTLINE.get(colour, STONE_FILL.get(colour, UNKNOWN_FILL))
            path = "".join(segments)
            paths.append(f'<g class="island island-{escape(colour)}" data-colour='
                         f'"{escape(colour)}" data-cells="{escape(" ".join(sorted(members)))}">'
                         f'<path class="island-halo" d="{path}" fill="none" stroke="#ffffff"/>'
                         f'<path class="island-edge" d="{path}" fill="none" '
                         f'stroke="{stroke}"/></g>')
    return paths


def _across(x: float, y: float, k: int, names: Iterable[str],
            centres: Mapping[str, tuple[float, float]]) -> str | None:
    """The neighbour across edge ``k`` (between corners k and k+1) of the cell centred at
    (x, y), in cell widths: the one whose centre lies one cell width that way."""
    angle = math.radians(-60 + 60 * k)
    want = (x + math.cos(angle), y + math.sin(angle))
    for name in names:
        cx, cy = centres[name]
        if abs(cx - want[0]) < 0.05 and abs(cy - want[1]) < 0.05:
            return str(name)
    return None
