"""GCG game records (poslfit.com/scrabble/gcg): write a judged two-player game, read one back.

GCG is what Quackle, Macondo and tournament annotators exchange, so a game judged at the table
can be analysed elsewhere, and a recorded game can be replayed through the referee. The referee
never sees the racks, which shapes the choices below (each is one a GCG reader accepts):

* a play's rack field lists the tiles the play put down (``?`` for a blank): what the rack held
  at least, as annotation tools write a partly known rack;
* a pass or an exchange has no known tile, so its rack field is left out (``>Ann: - +0 14``);
  an exchange writes how many tiles went back (``-3``) since which ones is unknown;
* tiles the main word runs through are written ``.`` (``H8 .AIRNETS``), so every line says
  which tiles it placed; on reading, letters are accepted there too;
* the last racks (:class:`referee.scrabble.EndRacks`): the player who went out gets
  ``>Ann: (AEQ) +12 312`` and each other player with tiles left ``>Bo: AEQ (AEQ) -12 288``
  (seed 003 takes the sum from the others *and* gives it to the one who went out).

Reading accepts either case for positions, CRLF, ``#`` pragmata in any order (unknown ones are
ignored), a withdrawn phony (``--``: the play is taken back and the turn is lost, a pass), and
skips challenge bonuses and time penalties, which the referee does not model (listed in
:attr:`GcgRecord.ignored`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.cells import COLUMNS, Cell, Direction
from referee.game import Game
from referee.moves import Exchange, Move, Pass, Play, Snapshot
from referee.scrabble import DEFAULT_PRESET, PRESETS, EndRacks, EndVerdict


class GcgError(ValueError):
    """A GCG text that cannot be read or a game that cannot be written; one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


@dataclass(frozen=True)
class GcgEvent:
    """One move as the file recorded it: the move, and the score and total the file gave."""

    player: str
    move: Move | EndRacks
    score: int
    total: int


@dataclass(frozen=True)
class GcgRecord:
    """A GCG file read into the referee's terms."""

    players: tuple[str, ...]
    events: tuple[GcgEvent, ...]
    lexicon: str | None = None
    preset: str = DEFAULT_PRESET
    ignored: tuple[str, ...] = field(default=())
    """Event lines the referee does not model (challenge bonuses, time penalties)."""

    @property
    def moves(self) -> list[Move | EndRacks]:
        return [event.move for event in self.events]

    def to_spec(self, wordlist: str = "enable") -> dict[str, Any]:
        """The game as GAME.json (FORMATS.md), ready for ``judge_spec``."""
        return {"ruleset": "scrabble",
                "options": {"wordlist": wordlist, "preset": self.preset},
                "players": [{"name": name} for name in self.players],
                "moves": [move.to_json() for move in self.moves]}


# -- writing --------------------------------------------------------------------------------------

def nickname(name: str) -> str:
    """A GCG nickname is one token: whitespace becomes ``_``."""
    return "_".join(name.split())


def _square(cell: Cell, direction: Direction) -> str:
    column, row = COLUMNS[cell.col], str(cell.row + 1)
    return row + column if direction is Direction.ACROSS else column + row


def _direction_of(cells: tuple[Cell, ...], fallback: Direction) -> Direction:
    if len(cells) < 2:
        return fallback
    return Direction.ACROSS if cells[0].row == cells[1].row else Direction.DOWN


def write_gcg(game: Game) -> str:
    """The legal moves of a two-player scrabble game as GCG text (UTF-8, ``\\n`` lines)."""
    if game.ruleset != "scrabble":
        raise GcgError(f"GCG records scrabble games, not {game.ruleset or 'this game'}")
    if len(game.players) != 2:
        raise GcgError(f"GCG records two-player games; this game has {len(game.players)} players")
    names = {player.id: nickname(player.name) for player in game.players}
    if len(set(names.values())) != 2:
        raise GcgError("the two players need different names to be told apart in GCG")
    placed = sum(len(verdict.placed) for _, verdict in game.history)
    if placed != len(game.board):
        raise GcgError("GCG starts from an empty board; this game began from a position")
    lines = ["#character-encoding UTF-8"]
    for number, player in enumerate(game.players, start=1):
        lines.append(f"#player{number} {names[player.id]} {player.name}")
    lines.append(f"#lexicon {nickname(getattr(game.word_list, 'name', 'unknown'))}")
    preset = getattr(game, "preset", None)
    lines.append(f"#note tileref preset {preset.name if preset else DEFAULT_PRESET}")
    totals = {player.id: 0 for player in game.players}
    for move, verdict in game.history:
        nick = names[verdict.player]
        if isinstance(move, EndRacks):
            lines.extend(_end_lines(verdict, names, totals))  # type: ignore[arg-type]
            continue
        totals[verdict.player] += verdict.score
        total = totals[verdict.player]
        if isinstance(move, Pass):
            lines.append(f">{nick}: - +0 {total}")
        elif isinstance(move, Exchange):
            lines.append(f">{nick}: -{move.count} +0 {total}")
        elif isinstance(move, Play | Snapshot):
            main = verdict.words[0].cells
            direction = _direction_of(main, getattr(verdict.move or move, "direction",
                                                    Direction.ACROSS))
            rack = "".join("?" if verdict.placed[cell].blank else verdict.placed[cell].letter
                           for cell in main if cell in verdict.placed)
            word = "".join(verdict.placed[cell].token[0] if cell in verdict.placed else "."
                           for cell in main)
            lines.append(f">{nick}: {rack} {_square(main[0], direction)} {word} "
                         f"+{verdict.score} {total}")
    return "\n".join(lines) + "\n"


def _end_lines(verdict: EndVerdict, names: dict[str, str], totals: dict[str, int]) -> list[str]:
    lines = []
    out = verdict.went_out
    if out is not None:
        others = "".join(rack for pid, rack in verdict.racks.items() if pid != out)
        totals[out] += verdict.adjustments.get(out, 0)
        lines.append(f">{names[out]}: ({others}) +{verdict.adjustments.get(out, 0)} "
                     f"{totals[out]}")
    for pid, rack in verdict.racks.items():
        if pid == out or not rack:
            continue
        change = verdict.adjustments.get(pid, 0)
        totals[pid] += change
        lines.append(f">{names[pid]}: {rack} ({rack}) -{-change} {totals[pid]}")
    return lines


# -- reading --------------------------------------------------------------------------------------

_NICK = r">(?P<nick>[^:\s]+):"
_RACK = r"(?:\s+(?P<rack>[A-Za-z?\u00c0-\u024f]+))?"
_PLAY = re.compile(_NICK + _RACK + r"\s+(?P<pos>\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})\s+"
                   r"(?P<word>[A-Za-z.\u00c0-\u024f]+)\s+\+(?P<score>\d+)\s+(?P<total>-?\d+)\s*$")
_PASS = re.compile(_NICK + _RACK + r"\s+-\s+\+0\s+(?P<total>-?\d+)\s*$")
_EXCHANGE = re.compile(_NICK + _RACK + r"\s+-(?P<tiles>\d+|[A-Za-z?\u00c0-\u024f]+)\s+\+0\s+"
                       r"(?P<total>-?\d+)\s*$")
_WITHDRAWN = re.compile(_NICK + _RACK + r"\s+--\s+-(?P<lost>\d+)\s+(?P<total>-?\d+)\s*$")
_OUT = re.compile(_NICK + r"\s+\((?P<tiles>[A-Za-z?\u00c0-\u024f]*)\)\s+\+(?P<score>\d+)\s+"
                  r"(?P<total>-?\d+)\s*$")
_LEFT = re.compile(_NICK + r"\s+(?P<rack>[A-Za-z?\u00c0-\u024f]+)\s+\((?P<tiles>[A-Za-z?"
                   r"\u00c0-\u024f]+)\)\s+-(?P<score>\d+)\s+(?P<total>-?\d+)\s*$")
_IGNORED = re.compile(_NICK + r".*\((?:challenge|time)\)")


def _decode(data: bytes) -> str:
    """UTF-8 when the file says so (or a BOM does), else ISO 8859-1 as the format defines."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    first = data.split(b"\n", 1)[0].strip().lower()
    if first.startswith(b"#character-encoding"):
        encoding = first.split()[-1].decode("ascii", "replace")
        if encoding not in ("utf-8", "utf8"):
            raise GcgError(f"GCG character encoding {encoding!r} is not supported (UTF-8 is)")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise GcgError("the GCG file says UTF-8 but is not") from None
    return data.decode("iso-8859-1")


def read_gcg(text: str | bytes) -> GcgRecord:
    """Read GCG text into moves; anything unreadable is a :class:`GcgError` naming the line."""
    if isinstance(text, bytes):
        text = _decode(text)
    reader = _Reader()
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if line.strip():
            try:
                reader.line(line.strip())
            except GcgError as error:
                raise GcgError(f"GCG line {number}: {error}") from None
    return reader.record()


def read_gcg_file(path: str | Path) -> GcgRecord:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise GcgError(f"{path}: cannot be read ({error.strerror})") from None
    return read_gcg(data)


class _Reader:
    """Line-by-line state: the players, the board so far (to fill in ``.``), the events."""

    def __init__(self) -> None:
        self.nicks: dict[str, str] = {}
        self.order: list[str] = []
        self.lexicon: str | None = None
        self.preset = DEFAULT_PRESET
        self.events: list[GcgEvent] = []
        self.ignored: list[str] = []
        self.board: dict[Cell, str] = {}
        self.placed: list[list[Cell]] = []
        """The cells each play event put down (to take a withdrawn phony back off)."""
        self.end: dict[str, str] | None = None
        self.end_player = ""
        self.end_events: list[tuple[str, int, int]] = []

    def line(self, line: str) -> None:
        if line.startswith("#"):
            self.pragma(line)
        elif line.startswith(">"):
            self.event(line)
        else:
            raise GcgError(f"{line[:40]!r} is neither a #pragma nor a >player: event")

    def pragma(self, line: str) -> None:
        keyword, _, rest = line[1:].partition(" ")
        rest = rest.strip()
        match = re.fullmatch(r"player([12])", keyword)
        if match:
            if self.events:
                raise GcgError("#player lines come before the first move")
            nick, _, real = rest.partition(" ")
            if not nick:
                raise GcgError("#player needs a nickname")
            if nick in self.nicks:
                raise GcgError(f"two players are called {nick!r}")
            self.nicks[nick] = real.strip() or nick
            self.order.append(nick)
        elif keyword == "lexicon":
            self.lexicon = rest or None
        elif keyword == "note" and rest.startswith("tileref preset "):
            preset = rest.split()[-1]
            if preset not in PRESETS:
                raise GcgError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
            self.preset = preset

    def _player(self, nick: str) -> str:
        if len(self.order) != 2:
            raise GcgError("a GCG game needs #player1 and #player2 before its moves")
        if nick not in self.nicks:
            raise GcgError(f"no player nicknamed {nick!r} (players: {', '.join(self.order)})")
        return self.nicks[nick]

    def event(self, line: str) -> None:
        if _IGNORED.match(line):
            self._player(_IGNORED.match(line)["nick"])  # type: ignore[index]
            self.ignored.append(line)
            return
        for pattern, handler in ((_PLAY, self.play), (_PASS, self.pass_), (_WITHDRAWN,
                                 self.withdrawn), (_EXCHANGE, self.exchange), (_OUT, self.out),
                                 (_LEFT, self.left)):
            match = pattern.match(line)
            if match:
                player = self._player(match["nick"])
                if self.end is not None and handler not in (self.out, self.left):
                    raise GcgError("a move after the final racks")
                handler(player, match)
                return
        raise GcgError(f"{line[:60]!r} is not a GCG move line")

    def add(self, player: str, move: Move | EndRacks, score: int, total: int) -> None:
        self.events.append(GcgEvent(player, move, score, total))

    def play(self, player: str, match: re.Match[str]) -> None:
        square, word = match["pos"].upper(), match["word"]
        try:
            if square[0].isdigit():
                at = Cell.parse(square[-1] + square[:-1])
                direction = Direction.ACROSS
            else:
                at = Cell.parse(square)
                direction = Direction.DOWN
        except ValueError as error:
            raise GcgError(str(error)) from None
        dx, dy = direction.step
        cells = [at.offset(dx * i, dy * i) for i in range(len(word))]
        if not cells[-1].on_board():
            raise GcgError(f"{word} from {square} runs off the board")
        letters = []
        placed = []
        for cell, letter in zip(cells, word, strict=True):
            if letter == ".":
                if cell not in self.board:
                    raise GcgError(f"{word} plays through {cell}, which is empty")
                letters.append(self.board[cell])
            else:
                letters.append(letter)
                if cell not in self.board:
                    placed.append(cell)
        for cell, letter in zip(cells, letters, strict=True):
            self.board.setdefault(cell, letter)
        self.placed.append(placed)
        self.add(player, Play(player, "".join(letters), at, direction), int(match["score"]),
                 int(match["total"]))

    def pass_(self, player: str, match: re.Match[str]) -> None:
        self.add(player, Pass(player), 0, int(match["total"]))

    def exchange(self, player: str, match: re.Match[str]) -> None:
        tiles = match["tiles"]
        count = int(tiles) if tiles.isdigit() else len(tiles)
        try:
            move = Exchange(player, count)
        except ValueError as error:
            raise GcgError(str(error)) from None
        self.add(player, move, 0, int(match["total"]))

    def withdrawn(self, player: str, match: re.Match[str]) -> None:
        """A phony taken back: the play never happened and the turn was lost (a pass)."""
        last = next((i for i in range(len(self.events) - 1, -1, -1)
                     if isinstance(self.events[i].move, Play)), None)
        if last is None or self.events[last].player != player:
            raise GcgError("a withdrawn play with no play of that player before it")
        for cell in self.placed.pop():
            self.board.pop(cell, None)
        self.events[last] = GcgEvent(player, Pass(player), 0, int(match["total"]))

    def _end(self, player: str) -> dict[str, str]:
        if self.end is None:
            self.end = {}
            self.end_player = player
        return self.end

    def out(self, player: str, match: re.Match[str]) -> None:
        end = self._end(player)
        others = [self.nicks[nick] for nick in self.order if self.nicks[nick] != player]
        end.setdefault(others[0], match["tiles"].upper())
        self.end_events.append((player, int(match["score"]), int(match["total"])))

    def left(self, player: str, match: re.Match[str]) -> None:
        if match["rack"].upper() != match["tiles"].upper():
            raise GcgError(f"the rack {match['rack']} and the tiles left ({match['tiles']}) "
                           "differ")
        self._end(player)[player] = match["tiles"].upper()
        self.end_events.append((player, -int(match["score"]), int(match["total"])))

    def record(self) -> GcgRecord:
        if len(self.order) != 2:
            raise GcgError("a GCG game needs #player1 and #player2")
        events = list(self.events)
        if self.end is not None:
            player, score, total = self.end_events[0]
            events.append(GcgEvent(self.end_player, EndRacks(self.end_player, self.end),
                                   score, total))
        return GcgRecord(tuple(self.nicks[nick] for nick in self.order), tuple(events),
                         self.lexicon, self.preset, tuple(self.ignored))


__all__ = ["GcgError", "GcgEvent", "GcgRecord", "nickname", "read_gcg",
           "read_gcg_file", "write_gcg"]
