"""Archipelago, the word-capture game (RULES.md §1).

Every rule is written once, in the mover's own frame: the mover's seat turns (x, y) in its
frame into absolute cells (``Seat.line``, ``Seat.step``, ``run_through``), so South, West,
North and East share one algorithm. A tile's owner is the seat its rotation points to.

A play is examined in the order of RULES.md §1's precedence (geometry first, then words) and
its effects (captures, captured words, removals, new active words, eliminations) are computed
before anything changes; committing just applies them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.board import run_through, spell
from referee.boardtext import Tile
from referee.cells import Cell, Direction, Seat
from referee.errors import IllegalPlayError, SetupError
from referee.game import CapturedWord, FormedWord, Game, Player, Verdict, register_ruleset
from referee.layouts import load_layout
from referee.moves import Move, Play, Snapshot
from referee.scoring import score_play
from referee.scrabble import DEFAULT_PRESET, preset_named


def _reading_order(player: Player, cells: Iterable[Cell]) -> list[tuple[int, int]]:
    """Cells as ``player`` reads them, row by row in their own frame: a sort key that turns
    with the board, so verdicts of a turned board list things in the same order."""
    assert player.seat is not None
    return [(y, x) for x, y in (player.seat.to_frame(cell) for cell in cells)]


@dataclass(frozen=True)
class ActiveWord:
    """A word on a player's list: its letters (lowercase for blanks) and cells in reading order."""

    word: str
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "cells": [cell.name for cell in self.cells]}


@register_ruleset("archipelago")
class ArchipelagoGame(Game):
    seated = True
    captures = True
    standing = "strength"

    # -- set-up -----------------------------------------------------------------------------

    def setup(self, position: Mapping[str, Any]) -> None:
        preset_named(self.options.get("preset", DEFAULT_PRESET))  # the logged score's layout
        seats = {self._seat(player) for player in self.players}
        for problem in self.board.status(seats=seats, centred=False):
            if problem.code in ("no-rotation", "unseated-rotation"):
                raise SetupError(f"position: {problem.message}")
        self.active: dict[str, list[ActiveWord]] = {}
        given = position.get("active")
        if given is not None and not isinstance(given, Mapping):
            raise SetupError("'position.active' must map seat letters to lists of words")
        given = dict(given or {})
        for key in given:
            try:
                self.player(str(key))
            except ValueError as error:
                raise SetupError(f"position.active: {error}") from None
        for player in self.players:
            entry = given.get(player.id, given.get(player.name))
            if entry is None:
                self.active[player.id] = self.derive_active(player)
            else:
                self.active[player.id] = self._read_active(player, entry)
        self.started: set[str] = {player.id for player in self.players
                                  if any(self._owned_by(cell, player) for cell in self.board)}
        """Seats that have played their first word (in a position: any tile on the board)."""
        self.had_words: set[str] = {pid for pid, words in self.active.items() if words}
        self.idle_turns = 0
        """Consecutive passes and exchanges (the stall ending)."""

    def derive_active(self, player: Player) -> list[ActiveWord]:
        """Every maximal run (length ≥ 2, owner's across and down) of own tiles that is a word."""
        seat = self._seat(player)
        words = []
        for cell in sorted(self.board, key=lambda c: seat.to_frame(c)[::-1]):
            if not self._owned_by(cell, player):
                continue
            for direction in Direction:
                run = run_through(lambda c: self._owned_by(c, player), cell, direction, seat)
                if len(run) >= 2 and run[0] == cell:
                    word = spell(self.board.tiles, run)
                    if word in self.word_list:
                        words.append(ActiveWord(word, tuple(run)))
        return words

    def _read_active(self, player: Player, entry: object) -> list[ActiveWord]:
        where = f"position.active.{player.id}"
        if not isinstance(entry, list):
            raise SetupError(f"{where} must be a list of {{\"word\", \"cells\"}} objects")
        seat = self._seat(player)
        words = []
        for item in entry:
            if not isinstance(item, Mapping) or not isinstance(item.get("word"), str) \
                    or not isinstance(item.get("cells"), list):
                raise SetupError(f"{where}: each word is {{\"word\": ..., \"cells\": [...]}}")
            try:
                cells = tuple(Cell.parse(str(name)) for name in item["cells"])
            except ValueError as error:
                raise SetupError(f"{where}: {error}") from None
            word = item["word"]
            if len(cells) != len(word) or len(cells) < 2:
                raise SetupError(f"{where}: {word!r} needs one cell per letter (at least 2)")
            if not any(cells == tuple(seat.line(cells[0], d, len(cells))) for d in Direction):
                raise SetupError(f"{where}: the cells of {word!r} do not run across or down "
                                 f"in {player.id}'s frame")
            for cell, letter in zip(cells, word, strict=True):
                tile = self.board.get(cell)
                if tile is None or not self._owned_by(cell, player) \
                        or tile.letter != letter.upper():
                    raise SetupError(f"{where}: {cell} does not hold {player.id}'s "
                                     f"{letter.upper()} for {word!r}")
            words.append(ActiveWord(spell(self.board.tiles, cells), cells))
        return words

    # -- examining a play -------------------------------------------------------------------

    @staticmethod
    def _seat(player: Player) -> Seat:
        assert player.seat is not None  # every archipelago player has a seat (Game.__init__)
        return player.seat

    def _owned_by(self, cell: Cell, player: Player) -> bool:
        return self.board.owner(cell) == player.seat

    def examine_play(self, player: Player, play: Play) -> Verdict:
        seat = self._seat(player)
        direction = play.direction
        cells = seat.line(play.at, direction, len(play.word))
        if not all(cell.on_board() for cell in cells):
            raise IllegalPlayError("off-board", f"{play.word} from {play.at} {direction.value} "
                                                "runs off the board")
        new_tiles = play.tiles(seat.rotation)
        own = {cell for cell in cells if self._owned_by(cell, player)}
        for cell, tile in zip(cells, new_tiles, strict=True):
            existing = self.board.get(cell)
            if cell in own and existing is not None and existing.letter != tile.letter:
                raise IllegalPlayError(
                    "letter-mismatch", f"{cell} holds {player.id}'s own {existing.letter}, "
                                       f"but {play.word} puts {tile.letter} there")
        placed = [cell for cell in cells if cell not in own]
        if not placed:
            raise IllegalPlayError("no-tile-placed", f"every cell of {play.word} already holds "
                                                     f"{player.id}'s own tile")
        for end in (seat.step(cells[0], direction, -1), seat.step(cells[-1], direction, 1)):
            if end.on_board() and self._owned_by(end, player):
                raise IllegalPlayError(
                    "word-extends", f"{player.id}'s own tile on {end} joins {play.word}, so the "
                                    "word named must include it")
        self._check_placement(player, play, cells)
        if len(play.word) < 2 or play.word not in self.word_list:
            raise IllegalPlayError("not-in-word-list", f"{play.word.upper()} is not in the word "
                                                       f"list {self.word_list.name}")
        after = dict(self.board.tiles)
        for cell, tile in zip(cells, new_tiles, strict=True):
            if cell not in own:
                after[cell] = tile

        def own_after(cell: Cell) -> bool:
            tile = after.get(cell)
            return tile is not None and tile.rotation == seat.rotation

        words = [FormedWord(spell(after, cells), tuple(cells), self._value(after, cells))]
        for cell in placed:
            run = run_through(own_after, cell, direction.other, seat)
            if len(run) >= 2:
                word = spell(after, run)
                self.check_cross_word(play.word, word, cell)
                words.append(FormedWord(word, tuple(run), self._value(after, run)))
        return self._effects(player, play, placed, after, words)

    def _check_placement(self, player: Player, play: Play, cells: list[Cell]) -> None:
        """The first-word rule, or (h4) touching the player's own tiles."""
        seat = self._seat(player)
        if player.id not in self.started:
            if play.direction is not Direction.ACROSS or not all(map(seat.is_home_row, cells)):
                raise IllegalPlayError(
                    "first-move-home-row", f"{player.id}'s first word goes across along their "
                                           f"home row (through {seat.home_centre})")
            if seat.home_centre not in cells:
                raise IllegalPlayError(
                    "first-move-centre", f"{player.id}'s first word must cover "
                                         f"{seat.home_centre}, the centre of their home row")
            return
        if not any(self._owned_by(cell, player) for cell in self.board):
            return
        if not any(self._owned_by(cell, player) or
                   any(self._owned_by(near, player) for near in cell.neighbours())
                   for cell in cells):
            raise IllegalPlayError("not-connected", f"{play.word} neither uses nor touches any "
                                                    f"of {player.id}'s own tiles")

    def _value(self, tiles: Mapping[Cell, Tile], cells: Iterable[Cell]) -> int:
        """A word's value: the sum of its letters' values, a blank 0 (what strength counts)."""
        return sum(self.tile_set.value(tiles[cell].letter, tiles[cell].blank) for cell in cells)

    def _effects(self, player: Player, play: Play, placed: list[Cell],
                 after: dict[Cell, Tile], words: list[FormedWord]) -> Verdict:
        """Captures, captured words, removals and eliminations, in RULES.md §1's order."""
        captured_tiles = [cell for cell in placed if cell in self.board]
        captured_set = set(captured_tiles)
        captured_words = []
        for opponent in self.players:
            if opponent == player:
                continue
            # In the owner's reading order, not the order the words became active: a snapshot
            # and the same play typed as a word may have made them active in another order, and
            # the verdict must not depend on that, nor on how the board is turned.
            for active in sorted(self.active[opponent.id],
                                 key=lambda word: _reading_order(opponent, word.cells)):
                if captured_set.intersection(active.cells):
                    captured_words.append(CapturedWord(opponent.id, active.word, active.cells))
        captured_keys = {(w.owner, w.cells) for w in captured_words}
        still_active = {cell for pid, actives in self.active.items() for active in actives
                        if (pid, active.cells) not in captured_keys for cell in active.cells}
        still_active.update(cell for word in words for cell in word.cells)
        remove: list[Cell] = []
        for captured in captured_words:
            for cell in captured.cells:
                if cell not in captured_set and cell not in still_active and cell not in remove:
                    remove.append(cell)
        remove.sort(key=lambda cell: _reading_order(player, [cell]))
        eliminated = []
        for opponent in self.players:
            lost = [w for w in captured_words if w.owner == opponent.id]
            if lost and len(lost) == len(self.active[opponent.id]):
                eliminated.append(opponent.id)
        return Verdict(
            legal=True, player=player.id, words=words, captured_tiles=captured_tiles,
            captured_words=captured_words, remove=remove,
            score=self._logged_score(words, after, set(placed)), eliminated=eliminated,
            placed={cell: after[cell] for cell in placed})

    def _logged_score(self, words: list[FormedWord], after: Mapping[Cell, Tile],
                      placed: set[Cell]) -> int:
        """The play's Scrabble score (RULES.md §2), logged beside the archipelago figures."""
        preset = preset_named(self.options.get("preset", DEFAULT_PRESET))
        return score_play([word.cells for word in words], after, placed,
                          load_layout(preset.layout), self.tile_set, preset.bingo)

    # -- applying it ------------------------------------------------------------------------

    def commit_play(self, player: Player, verdict: Verdict) -> None:
        for cell, tile in verdict.placed.items():
            self.board.place(cell, tile)
        captured = {(w.owner, w.cells) for w in verdict.captured_words}
        for pid in self.active:
            self.active[pid] = [w for w in self.active[pid] if (pid, w.cells) not in captured]
        self.active[player.id].extend(ActiveWord(w.word, w.cells) for w in verdict.words)
        self.lifted = {cell: self.board.remove(cell) for cell in verdict.remove}
        self.eliminated.extend(verdict.eliminated)
        self.started.add(player.id)
        self.had_words.add(player.id)

    def after_move(self, player: Player, move: Move, verdict: Verdict) -> None:
        self.idle_turns = 0 if isinstance(move, Play | Snapshot) else self.idle_turns + 1
        remaining = [p for p in self.players if p.id not in self.eliminated]
        if len(remaining) == 1:
            self.over, self.winner = True, remaining[0].id
        elif self.idle_turns >= 2 * len(remaining):
            self.over = True
            ranking = self.ranking()
            top = [pid for pid in ranking if self.strength(pid) == self.strength(ranking[0])]
            self.winner = ranking[0] if len(top) == 1 else None

    # -- figures ----------------------------------------------------------------------------

    def strength(self, player_id: str) -> int:
        """The sum of the values of a player's active words (shown live)."""
        return sum(value for _, value in self.standing_parts(player_id))

    def ranking(self) -> list[str]:
        """Players still in the game, strongest first (the stall ending's order)."""
        remaining = [p.id for p in self.players if p.id not in self.eliminated]
        return sorted(remaining, key=lambda pid: -self.strength(pid))

    def standings(self) -> dict[str, int]:
        return {pid: self.strength(pid) for pid in self.active}

    def standing_words(self, player_id: str) -> list[str]:
        return [word.word for word in self.active.get(player_id, [])]

    def standing_parts(self, player_id: str) -> list[tuple[str, int]]:
        return [(word.word, self._value(self.board.tiles, word.cells))
                for word in self.active.get(player_id, [])]

    def extra_state(self) -> dict[str, Any]:
        return {"active": {pid: [word.to_json() for word in words]
                           for pid, words in self.active.items()},
                "strength": self.standings()}


__all__ = ["ActiveWord", "ArchipelagoGame"]
