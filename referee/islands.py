"""Archipelago on a hexhex board (RULES.md §5, seed 001): the ``islands`` ruleset.

Each player owns a colour; anyone may place stones of any player's colour. An island is a
connected group of 2+ stones of one colour, and it scores for the colour's owner whoever made
it. A turn places at least one stone and at most the turn's allowance (two, one on the very
first turn of a game begun on an empty board, plus one for each opponent strictly ahead in
islands at the start of the turn), or passes. The game ends when the board is full, when every
player still playing passes in a row, or when every player is frozen (frozen irrelevance,
:mod:`referee.islandrank`). Most islands wins; the bonus track breaks ties; a tie in both is a
shared first place and no winner.

The position (:class:`IslandsPosition`) is an immutable value apart from the game's history:
:meth:`IslandsGame.push` examines a move, builds the next position and keeps the last one, so
``pop`` is exact and ``check``, ``is_legal`` and :meth:`IslandsGame.preview` change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from referee.errors import IllegalPlayError, SetupError
from referee.game import Game, Player, Verdict, WordSource, register_ruleset
from referee.hexboard import (
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    PALETTE,
    HexBoard,
    HexBoardTextError,
    HexCell,
    HexGrid,
    colour_name,
)
from referee.islandgroups import fewest_islands, island_count, islands, most_islands
from referee.islandrank import BonusTrack, leaders, prospects, rank_fixed, ranks
from referee.moves import Pass

REASONS: tuple[str, ...] = (
    "bad-move",
    "game-over",
    "player-frozen",
    "not-your-turn",
    "board-mismatch",
    "unknown-colour",
    "off-board",
    "occupied",
    "no-stone-placed",
    "too-many-stones",
)
"""The reason codes of ``islands`` in the order the checks run: FORMATS.md's, with
``board-mismatch`` (a snapshot in which a stone vanished or changed) and ``no-stone-placed``
(a placement of no stones) from docs/formats.md."""

DEFAULT_COLOURS = "RBGY"
"""Colours given to players when none of them names one, in seating order."""

ENDINGS = {"board-full": "the board is full",
           "passes": "every player still playing passed in a row",
           "all-frozen": "every player is frozen"}
"""Why a game ended (``ended`` in verdicts and the final state), in words."""


def _bad(message: str) -> IllegalPlayError:
    return IllegalPlayError("bad-move", message)


def _player_name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(f"a move needs a player (a name), not {value!r}")
    return value.strip()


def _colour(value: object) -> str:
    """A colour letter from a move: one letter A-Z (the game says whether anyone has it)."""
    if not isinstance(value, str) or len(value) != 1 or not value.isascii() \
            or not value.isalpha():
        raise _bad(f"a stone's colour is one letter ({', '.join(PALETTE)}), not {value!r}")
    return value.upper()


# ------------------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class PlaceStones:
    """Put stones down: ``((HexCell.parse("d4"), "R"), ...)``, any players' colours.

    ``PlaceStones.from_notation("Ann", "d4 R, e5 B")`` and :meth:`notation` are its text.
    """

    player: str
    stones: tuple[tuple[HexCell, str], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player_name(self.player))
        stones = []
        for stone in self.stones:
            if not isinstance(stone, tuple) or len(stone) != 2 \
                    or not isinstance(stone[0], HexCell):
                raise _bad(f"a stone is a cell and a colour, not {stone!r}")
            stones.append((stone[0], _colour(stone[1])))
        object.__setattr__(self, "stones", tuple(stones))

    @classmethod
    def from_notation(cls, player: str, text: str) -> PlaceStones:
        stones = []
        for part in text.split(","):
            words = part.split()
            if len(words) != 2:
                raise _bad(f"a stone is written 'd4 R', not {part.strip()!r}")
            try:
                stones.append((HexCell.parse(words[0]), words[1]))
            except ValueError as error:
                raise _bad(str(error)) from None
        return cls(player, tuple(stones))

    def notation(self) -> str:
        return ", ".join(f"{cell.name} {colour}" for cell, colour in self.stones)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player,
                "place": [[cell.name, colour] for cell, colour in self.stones]}


@dataclass(frozen=True)
class StonesSnapshot:
    """The whole board as a camera saw it after the mover's turn: the stones that appeared
    are the placement. ``board`` is the text as given; the game reads it at its own size."""

    player: str
    board: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player_name(self.player))
        if not isinstance(self.board, str):
            raise _bad("'board' must be board text")

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "board": self.board}


IslandsMove = PlaceStones | Pass | StonesSnapshot
MOVE_KINDS = ("place", "pass", "board")


def move_from_json(data: object) -> IslandsMove:
    """An islands move from FORMATS.md's JSON; anything malformed is ``bad-move``."""
    if not isinstance(data, dict):
        raise _bad(f"a move is a JSON object, not {type(data).__name__}")
    player = _player_name(data.get("player"))
    unknown = sorted(set(data) - {"player", *MOVE_KINDS})
    if unknown:  # another ruleset's move ("word", ...) would otherwise be quietly ignored
        raise _bad(f"unknown key {unknown[0]!r} in an islands move (expected player and one of"
                   f" {', '.join(MOVE_KINDS)})")
    kinds = [key for key in MOVE_KINDS if key in data]
    if len(kinds) != 1:
        raise _bad("an islands move has exactly one of 'place', 'pass' or 'board' (got"
                   f" {', '.join(kinds) or 'none'})")
    if kinds[0] == "pass":
        if data["pass"] is not True:
            raise _bad(f"'pass' must be true, not {data['pass']!r}")
        return Pass(player)
    if kinds[0] == "board":
        return StonesSnapshot(player, data["board"])
    place = data["place"]
    if not isinstance(place, list):
        raise _bad("'place' lists stones as [cell, colour] pairs, like [[\"d4\", \"R\"]]")
    stones = []
    for entry in place:
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
            raise _bad(f"a stone is a [cell, colour] pair like [\"d4\", \"R\"], not {entry!r}")
        try:
            cell = HexCell.parse(entry[0])
        except ValueError as error:
            raise _bad(str(error)) from None
        stones.append((cell, entry[1]))
    return PlaceStones(player, tuple(stones))


# ----------------------------------------------------------------------------------- players


@dataclass(frozen=True)
class IslandsPlayer(Player):
    """A player and the colour they own (a letter of :data:`referee.hexboard.PALETTE`)."""

    colour: str = "R"

    def __post_init__(self) -> None:
        if self.colour not in PALETTE:
            raise SetupError(f"player {self.name}: a colour is one of {', '.join(PALETTE)},"
                             f" not {self.colour!r}")


def read_islands_players(data: object) -> list[Player]:
    """``[{"name": "Ann", "colour": "R"}, ...]``: every player names a colour, or none does
    (then R, B, G, Y in seating order); colours are the palette's and all different."""
    if not isinstance(data, list) or not data or not all(isinstance(e, dict) for e in data):
        raise SetupError("'players' is a list like [{\"name\": \"Ann\", \"colour\": \"R\"}]")
    given = [entry.get("colour") for entry in data]
    if any(colour is not None for colour in given) and None in given:
        raise SetupError("every islands player names a colour, or none does")
    players: list[Player] = []
    for index, entry in enumerate(data):
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"player {index + 1} needs a name")
        colour = given[index] if given[index] is not None else DEFAULT_COLOURS[index % 4]
        if not isinstance(colour, str) or colour.upper() not in PALETTE:
            raise SetupError(f"player {name.strip()}: a colour is one of"
                             f" {', '.join(PALETTE)}, not {colour!r}")
        players.append(IslandsPlayer(name.strip(), colour=colour.upper()))
    colours = [player.colour for player in players if isinstance(player, IslandsPlayer)]
    if len(set(colours)) != len(colours):
        raise SetupError("every islands player needs a different colour")
    return players


# ---------------------------------------------------------------------------------- position


@dataclass(frozen=True)
class IslandsPosition:
    """Everything that changes during a game, as one value (players in seating order)."""

    board: HexBoard
    counts: tuple[int, ...]
    """Each player's islands now."""
    track: BonusTrack
    turn: int
    """The seat of the player to move."""
    passes: int = 0
    """Passes in a row since the last stones went down."""
    frozen: tuple[str, ...] = ()
    """Players frozen so far, in the order they froze."""
    ended: str | None = None
    """Why the game ended (a key of :data:`ENDINGS`), or None while it goes on."""
    opening: bool = False
    """The game's very first turn is still to come (it allows one stone, not two)."""


@dataclass
class StoneChange:
    """A cell a snapshot shows changed in a way no placement explains (``unexpected``)."""

    cell: HexCell
    before: str | None
    after: str | None

    @property
    def message(self) -> str:
        if self.after is None:
            return f"{self.cell}: the {colour_name(self.before)} stone is gone"
        return (f"{self.cell}: the {colour_name(self.before)} stone now shows"
                f" {colour_name(self.after)}")

    def to_json(self) -> dict[str, Any]:
        return {"cell": self.cell.name, "before": self.before, "after": self.after,
                "message": self.message}


@dataclass
class IslandsVerdict(Verdict):
    """A legal islands verdict (FORMATS.md "islands"); an illegal one is a plain Verdict."""

    stones: list[tuple[HexCell, str]] = field(default_factory=list)
    islands: dict[str, int] = field(default_factory=dict)
    allowed: int = 0
    bonus: dict[str, int] = field(default_factory=dict)
    frozen: list[str] = field(default_factory=list)
    ended: str | None = None
    read: PlaceStones | None = None
    """For a snapshot: the placement the referee read from the board (JSON: ``move``)."""
    after: IslandsPosition | None = None
    """The position the move leads to (not part of the JSON)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "legal": True, "player": self.player,
            "placed": [[cell.name, colour] for cell, colour in self.stones],
            "islands": dict(self.islands), "allowed": self.allowed, "bonus": dict(self.bonus),
            "frozen": list(self.frozen), "ended": self.ended,
        }
        if self.read is not None:
            data["move"] = self.read.to_json()
        return data


# -------------------------------------------------------------------------------------- game


@register_ruleset("islands")
class IslandsGame(Game):
    """The islands referee: ``push`` validates and applies, ``pop`` undoes exactly.

    Players are :class:`IslandsPlayer` (a name and a colour), named by name in moves.
    ``options``: ``size`` (the board's side, 3-10, default 7, or the position's), ``frozen``
    (frozen irrelevance; default on with 3-4 players, off with 2). ``position``: ``board``
    (board text), ``to_move`` (a name), ``bonus`` (``{"R": 5}``: bonus totals already won).

    For a table page: :attr:`grid` (cells, neighbours, where to draw them), :meth:`island_cells`
    (each colour's islands, to outline), :meth:`standings`, :meth:`ranking`, :attr:`to_move`,
    :attr:`allowed` (stones the mover may place) and :meth:`preview` (a move's verdict,
    nothing changed); :meth:`state` says it all as JSON.
    """

    seated: ClassVar[bool] = False
    uses_word_list: ClassVar[bool] = False
    board_kind: ClassVar[str] = "hex"
    coloured: ClassVar[bool] = True
    standing = "islands"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, players: list[Player], word_list: WordSource,
                 options: Mapping[str, Any] | None = None,
                 position: Mapping[str, Any] | None = None) -> None:
        if position is not None and not isinstance(position, Mapping):
            raise SetupError("'position' must be an object with 'board', 'to_move', 'bonus'")
        position = dict(position or {})
        unknown = sorted(set(position) - {"board", "to_move", "bonus"})
        if unknown:
            raise SetupError(f"unknown key {unknown[0]!r} in an islands position (expected"
                             " board, to_move, bonus)")
        self._board_text = position.pop("board", None)  # hex text, read by setup, not Game
        if not all(isinstance(player, IslandsPlayer) for player in players):
            raise SetupError("islands players carry a colour: IslandsPlayer(name, colour=...)")
        super().__init__(players, word_list, options, position)

    @classmethod
    def read_players(cls, data: object) -> list[Player]:
        return read_islands_players(data)

    # -- set-up -----------------------------------------------------------------------------

    def setup(self, position: Mapping[str, Any]) -> None:
        self.colours: dict[str, str] = {p.id: p.colour for p in self._players}
        size = self.options.get("size")
        if size is not None and (isinstance(size, bool) or not isinstance(size, int)
                                 or not MIN_SIZE <= size <= MAX_SIZE):
            raise SetupError(f"options.size is a board's side, {MIN_SIZE} to {MAX_SIZE}, not"
                             f" {size!r}")
        freezing = self.options.get("frozen", len(self.players) >= 3)
        if not isinstance(freezing, bool):
            raise SetupError(f"options.frozen is true or false, not {freezing!r}")
        self.freezing: bool = freezing
        board = self._read_position_board(size)
        bonus = self._read_bonus(position.get("bonus"))
        counts = self._counts(board)
        start = IslandsPosition(board, counts, BonusTrack.start(len(self.players), counts, bonus),
                                turn=self._turn, opening=len(board) == 0)
        self._positions: list[IslandsPosition] = []
        self._enter(self._settle(start))

    def _read_position_board(self, size: int | None) -> HexBoard:
        text = self._board_text
        if text is None:
            return HexBoard.empty(size or DEFAULT_SIZE)
        if not isinstance(text, str):
            raise SetupError("'position.board' must be board text")
        try:
            board = HexBoard.parse(text, size)
        except HexBoardTextError as error:
            raise SetupError(f"position: {error}") from None
        strangers = sorted({colour for colour in board.stones.values()
                            if colour not in self.colours.values()})
        if strangers:
            raise SetupError(f"position: a stone of colour {strangers[0]}, which no player has")
        return board

    def _read_bonus(self, given: object) -> list[int]:
        bonus = [0] * len(self.players)
        if given is None:
            return bonus
        if not isinstance(given, Mapping):
            raise SetupError("'position.bonus' maps colours to bonus totals, like {\"R\": 5}")
        seat = {colour: index for index, colour in enumerate(self._colour_order)}
        for colour, total in given.items():
            if colour not in seat:
                raise SetupError(f"position.bonus: no player has colour {colour!r}")
            if isinstance(total, bool) or not isinstance(total, int) or total < 0:
                raise SetupError(f"position.bonus: {colour} needs a whole number >= 0")
            bonus[seat[colour]] = total
        return bonus

    # -- figures ----------------------------------------------------------------------------

    @property
    def _players(self) -> list[IslandsPlayer]:
        return [player for player in self.players if isinstance(player, IslandsPlayer)]

    @property
    def _colour_order(self) -> list[str]:
        return [player.colour for player in self._players]

    @property
    def grid(self) -> HexGrid:
        return self.position.board.grid

    @property
    def stones(self) -> HexBoard:
        """The board with its stones (the base class's square ``board`` is not used here)."""
        return self.position.board

    def _counts(self, board: HexBoard) -> tuple[int, ...]:
        return tuple(island_count(board, colour) for colour in self._colour_order)

    def counts(self) -> dict[str, int]:
        """Each colour's islands now."""
        return dict(zip(self._colour_order, self.position.counts, strict=True))

    def bonus(self) -> dict[str, int]:
        """Each colour's bonus total."""
        return dict(zip(self._colour_order, self.position.track.bonus, strict=True))

    def island_cells(self, board: HexBoard | None = None) -> dict[str, list[frozenset[HexCell]]]:
        """Each colour's islands with their cells (to outline them on a drawn board): on the
        game's board, or on ``board`` (stones laid and not judged yet, drawn as they would
        stand)."""
        board = self.position.board if board is None else board
        return {colour: islands(board, colour) for colour in self._colour_order}

    def ranks(self) -> dict[str, int]:
        position = self.position
        return {player.id: rank for player, rank
                in zip(self.players, ranks(position.counts, position.track.bonus), strict=True)}

    def standings(self) -> dict[str, int]:
        """Each player's islands by name, as the table shows them (:attr:`standing`)."""
        return {player.id: count for player, count in zip(self._players, self.position.counts,
                                                          strict=True)}

    def ranking(self) -> list[dict[str, Any]]:
        """One row a player, in seating order: name, colour, islands, bonus, rank, frozen."""
        ranked = self.ranks()
        position = self.position
        return [{"name": player.id, "colour": player.colour, "islands": count, "bonus": bonus,
                 "rank": ranked[player.id], "frozen": player.id in position.frozen}
                for player, count, bonus in zip(self._players, position.counts,
                                                position.track.bonus, strict=True)]

    @property
    def to_move(self) -> Player | None:
        position = self.position
        return None if position.ended else self.players[position.turn]

    @property
    def is_over(self) -> bool:
        return self.position.ended is not None

    @property
    def allowed(self) -> int | None:
        """Stones the player to move may place this turn (None once the game is over)."""
        return None if self.position.ended else self._allowance(self.position)

    def _allowance(self, position: IslandsPosition) -> int:
        """Two (one on a fresh game's very first turn), plus one per opponent, frozen or
        not, strictly ahead in islands at the start of the turn."""
        mine = position.counts[position.turn]
        return (1 if position.opening else 2) + sum(count > mine for count in position.counts)

    def state(self) -> dict[str, Any]:
        """FORMATS.md's ``final`` for islands, and what a table page shows besides."""
        position = self.position
        mover = self.to_move
        return {
            "board": position.board.text(),
            "size": position.board.size,
            "colours": dict(self.colours),
            "islands": self.counts(),
            "bonus": self.bonus(),
            "ranks": self.ranks(),
            "frozen": list(position.frozen),
            "to_move": mover.id if mover else None,
            "allowed": self.allowed,
            "ended": position.ended,
            "winner": self.winner,
            "island_cells": {colour: [[cell.name for cell in sorted(island)]
                                      for island in found]
                             for colour, found in self.island_cells().items()},
        }

    # -- examining moves --------------------------------------------------------------------

    def _resolve(self, name: str) -> IslandsPlayer:
        try:
            player = self.player(name)
        except ValueError as error:
            raise _bad(str(error)) from None
        assert isinstance(player, IslandsPlayer)
        return player

    def _validate(self, move: Any) -> tuple[IslandsPlayer, PlaceStones | None, int]:
        """The mover, the placement (None for a pass; a snapshot's as read) and the turn's
        allowance, once every check has passed; raises IllegalPlayError otherwise."""
        if not isinstance(move, PlaceStones | Pass | StonesSnapshot):
            raise _bad(f"islands has no move like {move!r}")
        player = self._resolve(move.player)
        position = self.position
        if position.ended:
            winner = f"; {self.winner} won" if self.winner else ""
            raise IllegalPlayError("game-over", f"the game is over ({ENDINGS[position.ended]})"
                                   + winner)
        if player.id in position.frozen:
            raise IllegalPlayError("player-frozen", f"{player.id} is frozen: their rank can no"
                                   " longer change, so they take no further part")
        if player != self.to_move:
            raise IllegalPlayError("not-your-turn", f"it is {self.players[position.turn].id}'s"
                                   f" turn, not {player.id}'s")
        allowed = self._allowance(position)
        if isinstance(move, Pass):
            return player, None, allowed
        placement = PlaceStones(player.id, self._read_snapshot(move)) \
            if isinstance(move, StonesSnapshot) else move
        self._check_stones(placement.stones, allowed)
        return player, placement, allowed

    def _consider(self, move: Any) -> IslandsVerdict:
        """The verdict ``move`` gets, with the position it leads to; raises IllegalPlayError."""
        player, placement, allowed = self._validate(move)
        if placement is None:
            return self._after_pass(player, allowed)
        verdict = self._after_stones(player, placement.stones, allowed)
        if placement is not move:
            verdict.read = placement
        return verdict

    def _read_snapshot(self, snapshot: StonesSnapshot) -> tuple[tuple[HexCell, str], ...]:
        """The stones that appeared, in reading order; a stone gone or changed is refused."""
        board = self.position.board
        try:
            seen = HexBoard.parse(snapshot.board, board.size)
        except HexBoardTextError as error:
            raise _bad(f"the board snapshot cannot be read: {error}") from None
        changes = [StoneChange(cell, before, after) for cell, before, after
                   in zip(board.grid.cells, board.colours, seen.colours, strict=True)
                   if before is not None and after != before]
        if changes:
            more = f" (and {len(changes) - 1} more changes)" if len(changes) > 1 else ""
            raise IllegalPlayError("board-mismatch", "stones are never moved or taken off, but"
                                   f" {changes[0].message}{more}", unexpected=changes)
        return tuple((cell, after) for cell, before, after
                     in zip(board.grid.cells, board.colours, seen.colours, strict=True)
                     if before is None and after is not None)

    def _check_stones(self, stones: Sequence[tuple[HexCell, str]], allowed: int) -> None:
        """The placement's checks, in :data:`REASONS` order."""
        board = self.position.board
        for cell, colour in stones:
            if colour not in self.colours.values():
                known = "the palette's, but no player's" if colour in PALETTE else "not a colour"
                raise IllegalPlayError("unknown-colour", f"{colour} ({known}) on {cell}: the"
                                       f" colours in this game are"
                                       f" {', '.join(self._colour_order)}")
        for cell, _ in stones:
            if cell not in board.grid:
                raise IllegalPlayError("off-board", f"{cell} is not on a board of side"
                                       f" {board.size}")
        named: set[HexCell] = set()
        for cell, _ in stones:
            if board[cell] is not None:
                raise IllegalPlayError("occupied", f"{cell} already holds a"
                                       f" {colour_name(board[cell])} stone")
            if cell in named:
                raise IllegalPlayError("occupied", f"{cell} is named twice: one stone a cell")
            named.add(cell)
        if not stones:
            raise IllegalPlayError("no-stone-placed", "a turn places at least one stone; a turn"
                                   " with none is a pass")
        if len(stones) > allowed:
            raise IllegalPlayError("too-many-stones", f"{len(stones)} stones, but this turn"
                                   f" allows {allowed}")

    def _after_pass(self, player: IslandsPlayer, allowed: int) -> IslandsVerdict:
        position = self.position
        passes = position.passes + 1
        playing = len(self.players) - len(position.frozen)
        after = replace(position, passes=passes, opening=False,
                        ended="passes" if passes >= playing else None)
        after = replace(after, turn=self._next_turn(after))
        return IslandsVerdict(legal=True, player=player.id, islands=self.counts(),
                              allowed=allowed, ended=after.ended, after=after)

    def _after_stones(self, player: IslandsPlayer, stones: Sequence[tuple[HexCell, str]],
                      allowed: int) -> IslandsVerdict:
        position = self.position
        board = position.board.with_stones(stones)
        counts = self._counts(board)
        track, earned = position.track.advance(counts)
        after = self._settle(replace(position, board=board, counts=counts, track=track,
                                     passes=0, opening=False))
        after = replace(after, turn=self._next_turn(after))
        colours = self._colour_order
        return IslandsVerdict(
            legal=True, player=player.id, stones=list(stones),
            islands=dict(zip(colours, counts, strict=True)), allowed=allowed,
            bonus={colour: gain for colour, gain in zip(colours, earned, strict=True) if gain},
            frozen=[name for name in after.frozen if name not in position.frozen],
            ended=after.ended, after=after)

    def _settle(self, position: IslandsPosition) -> IslandsPosition:
        """Freeze every player whose rank is now proved fixed; end a full or frozen game."""
        frozen = list(position.frozen)
        if self.freezing:
            ranges = [(fewest_islands(position.board, colour), most_islands(position.board,
                                                                             colour))
                      for colour in self._colour_order]
            outlook = prospects(position.track, ranges)
            frozen += [player.id for index, player in enumerate(self.players)
                       if player.id not in frozen and rank_fixed(index, outlook)]
        ended = position.ended
        if position.board.is_full():
            ended = "board-full"
        elif len(frozen) == len(self.players):
            ended = "all-frozen"
        return replace(position, frozen=tuple(frozen), ended=ended)

    def _next_turn(self, position: IslandsPosition) -> int:
        """The next seat after the mover's whose player is not frozen."""
        if position.ended:
            return position.turn
        for step in range(1, len(self.players) + 1):
            seat = (position.turn + step) % len(self.players)
            if self.players[seat].id not in position.frozen:
                return seat
        return position.turn

    # -- the public moves -------------------------------------------------------------------

    def check(self, move: Any) -> None:
        """Raise :class:`IllegalPlayError` if ``move`` is illegal now; changes nothing (and
        works out nothing of what it would lead to: islands, bonus, who freezes)."""
        self._validate(move)

    def is_legal(self, move: Any) -> bool:
        try:
            self._validate(move)
        except IllegalPlayError:
            return False
        return True

    def preview(self, move: Any) -> Verdict:
        """The verdict ``move`` would get now, legal or not, with nothing changed (a table page
        asking about stones on the board before the mover says they are done)."""
        try:
            return self._consider(move)
        except IllegalPlayError as error:
            return Verdict.illegal(getattr(move, "player", "?"), error)

    def examine(self, move: Any) -> Verdict:
        """:meth:`preview` under the name every ruleset answers to (``Game.examine``)."""
        return self.preview(move)

    def judge(self, move: Any) -> Verdict:
        """Like :meth:`push`, but an illegal move comes back as a ``legal: false`` verdict."""
        return super().judge(move)

    def push(self, move: Any) -> Verdict:
        """Validate and apply ``move``; raises :class:`IllegalPlayError` and changes nothing."""
        verdict = self._consider(move)
        assert verdict.after is not None
        self._positions.append(self.position)
        self._enter(verdict.after)
        self.history.append((move, verdict))
        return verdict

    def pop(self) -> Any:
        """Undo the last move exactly."""
        if not self.history:
            raise ValueError("no move to undo")
        move, _ = self.history.pop()
        self._enter(self._positions.pop())
        return move

    def _enter(self, position: IslandsPosition) -> None:
        """Make ``position`` current, and keep the base class's figures in step with it."""
        self.position = position
        self._turn = position.turn
        self.over = position.ended is not None
        self.winner = None
        if self.over:
            best = leaders(position.counts, position.track.bonus)
            self.winner = self.players[best[0]].id if len(best) == 1 else None


__all__ = [
    "ENDINGS",
    "REASONS",
    "IslandsGame",
    "IslandsMove",
    "IslandsPlayer",
    "IslandsPosition",
    "IslandsVerdict",
    "PlaceStones",
    "StoneChange",
    "StonesSnapshot",
    "move_from_json",
    "read_islands_players",
]
