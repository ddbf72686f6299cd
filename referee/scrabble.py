"""Scrabble (RULES.md §2, seed 003): placement, scoring, the scoreless ending and the last racks.

Players have no seats: every play is read in the South frame, and a play's ``at``/``dir`` name
the whole main word, board letters included (``8H FARMS`` over a FARM already there puts one S).
A play is examined in RULES.md §1's order of precedence (geometry first, then words) without
changing anything; committing it places the tiles and adds the score.

The referee never sees the racks, but it can count them: every player starts with 7 tiles, a
play draws as many as it placed while the bag lasts, and an exchange leaves both sizes as they
were. So it knows when the bag is empty and when a player has gone out. The remaining racks are
not visible to it, so the end-of-game adjustment is a move of its own (:class:`EndRacks`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee import moves
from referee.board import run_through, spell
from referee.boardtext import Tile, is_tile_letter
from referee.cells import CENTRE, Cell, Direction, Seat
from referee.errors import IllegalPlayError, SetupError
from referee.game import FormedWord, Game, Player, Verdict, register_ruleset
from referee.layouts import Layout, load_layout
from referee.moves import Exchange, Move, Play, Snapshot
from referee.scoring import RACK_SIZE, rack_value, score_word


@dataclass(frozen=True)
class Preset:
    """One way to play Scrabble on a real board: the printed layout and the end rules."""

    name: str
    layout: str
    bingo: int
    scoreless_turns: int
    """The game ends after this many successive turns that scored nothing."""
    zero_zero_continues: bool
    """The scoreless ending does not apply while every score is still 0 (seed 003)."""


PRESETS: dict[str, Preset] = {
    "classic": Preset("classic", "classic", 50, 6, False),
    "seed": Preset("seed", "seed", 35, 3, True),
}
"""``options.preset`` → its rules (RULES.md §2's table)."""

DEFAULT_PRESET = "classic"


def preset_named(name: object) -> Preset:
    """The preset ``options.preset`` names; anything else is a one-line :class:`SetupError`."""
    if not isinstance(name, str) or name not in PRESETS:
        raise SetupError(f"options.preset must be one of {', '.join(PRESETS)}, not {name!r}")
    return PRESETS[name]


def _bad(message: str) -> IllegalPlayError:
    return IllegalPlayError("bad-move", message)


@dataclass(frozen=True)
class EndRacks:
    """The tiles left on each rack when the game ends: ``{"Bo": "AEQ"}`` (``?`` is a blank).

    A player not listed (or listed with ``""``) has an empty rack. JSON:
    ``{"player": "Ann", "end": {"racks": {"Bo": "AEQ"}}}``; ``player`` is whoever enters it.
    """

    player: str
    racks: Mapping[str, str] = field(compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.player, str) or not self.player.strip():
            raise _bad(f"a move needs a player (a name), not {self.player!r}")
        if not isinstance(self.racks, Mapping):
            raise _bad("'end.racks' maps player names to the letters left on their racks")
        racks: dict[str, str] = {}
        for name, letters in self.racks.items():
            if not isinstance(name, str) or not isinstance(letters, str) or not all(
                    letter == "?" or is_tile_letter(letter) for letter in letters):
                raise _bad(f"a rack is letters and '?' for blanks, not {letters!r} for {name!r}")
            racks[name] = letters.upper()
        object.__setattr__(self, "player", self.player.strip())
        object.__setattr__(self, "racks", racks)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EndRacks):
            return NotImplemented
        return self.player == other.player and dict(self.racks) == dict(other.racks)

    def __hash__(self) -> int:
        return hash((self.player, frozenset(self.racks.items())))

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "end": {"racks": dict(self.racks)}}


def move_from_json(data: object) -> Move | EndRacks:
    """A scrabble move from JSON: the board moves, or ``{"player", "end": {"racks": {...}}}``."""
    if isinstance(data, dict) and "end" in data:
        other = [key for key in ("word", "pass", "exchange", "board") if key in data]
        if other:
            raise _bad(f"a move has exactly one of 'word', 'pass', 'exchange', 'board' or 'end'"
                       f" (got end, {', '.join(other)})")
        end = data["end"]
        if not isinstance(end, dict) or not isinstance(end.get("racks"), dict):
            raise _bad("'end' must be {\"racks\": {\"<name>\": \"<letters left>\"}}")
        return EndRacks(data.get("player"), end["racks"])  # type: ignore[arg-type]
    return moves.move_from_json(data)


@dataclass
class EndVerdict(Verdict):
    """The verdict on :class:`EndRacks`: each player's rack sum and the change to their score."""

    racks: dict[str, str] = field(default_factory=dict)
    adjustments: dict[str, int] = field(default_factory=dict)
    went_out: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.legal:
            data.update({"racks": dict(self.racks), "adjustments": dict(self.adjustments),
                         "went_out": self.went_out})
        return data


@register_ruleset("scrabble")
class ScrabbleGame(Game):
    """Scrabble for 2-4 players named by name; ``options.preset`` is ``classic`` or ``seed``."""

    seated = False
    captures = False
    shared_attributes: ClassVar[frozenset[str]] = Game.shared_attributes | {"preset"}

    # -- set-up -----------------------------------------------------------------------------

    def setup(self, position: Mapping[str, Any]) -> None:
        self.preset: Preset = preset_named(self.options.get("preset", DEFAULT_PRESET))
        self.layout: Layout = load_layout(self.preset.layout)
        for problem in self.board.status(self.tile_set, centred=True):
            if problem.code in ("too-many-letter", "too-many-blanks", "too-many-tiles",
                                "unknown-letter", "blank-undesignated"):
                raise SetupError(f"position: {problem.message}")
        if any(tile.rotation not in (None, 0) for tile in self.board.tiles.values()):
            raise SetupError("position: scrabble tiles carry no rotation arrows")
        self.scores: dict[str, int] = {player.id: 0 for player in self.players}
        given = position.get("scores")
        if given is not None:
            if not isinstance(given, Mapping):
                raise SetupError("'position.scores' must map player names to scores")
            for name, score in given.items():
                if isinstance(score, bool) or not isinstance(score, int):
                    raise SetupError(f"position.scores: {name!r} needs a whole number")
                try:
                    self.scores[self.player(str(name)).id] = score
                except ValueError as error:
                    raise SetupError(f"position.scores: {error}") from None
        unseen = self.tile_set.total - len(self.board)
        self.racks_known = unseen >= RACK_SIZE * len(self.players)
        """False when a position leaves too few tiles to know every rack's size."""
        self.bag = max(0, unseen - RACK_SIZE * len(self.players))
        self.rack_sizes: dict[str, int] = {player.id: RACK_SIZE for player in self.players}
        self.scoreless = 0
        """Successive turns that scored nothing (passes, exchanges, plays worth 0)."""
        self.went_out: str | None = None
        self.racks_entered = False
        self.adjustments: dict[str, int] = {}

    # -- examining a play -------------------------------------------------------------------

    def examine_play(self, player: Player, play: Play) -> Verdict:
        board = self.board.tiles
        cells = Seat.S.line(play.at, play.direction, len(play.word))
        if not all(cell.on_board() for cell in cells):
            raise IllegalPlayError("off-board", f"{play.word} from {play.at} "
                                                f"{play.direction.value} runs off the board")
        new_tiles = play.tiles()
        for cell, tile in zip(cells, new_tiles, strict=True):
            existing = board.get(cell)
            if existing is not None and existing.letter != tile.letter:
                raise IllegalPlayError("letter-mismatch", f"{cell} holds {existing.letter}, but "
                                                          f"{play.word} puts {tile.letter} there")
        placed = [cell for cell in cells if cell not in board]
        if not placed:
            raise IllegalPlayError("no-tile-placed", f"every cell of {play.word} already holds "
                                                     "a tile")
        self._check_rack(player, len(placed))
        self._check_tile_counts([tile for cell, tile in zip(cells, new_tiles, strict=True)
                                 if cell in placed])
        for end in (cells[0].offset(*_back(play.direction)),
                    cells[-1].offset(*play.direction.step)):
            if end.on_board() and end in board:
                raise IllegalPlayError("word-extends", f"the tile on {end} joins {play.word}, "
                                                       "so the word named must include it")
        if not board:
            if CENTRE not in cells:
                raise IllegalPlayError("first-move-centre", f"the first word must cover the "
                                                            f"centre star {CENTRE}")
        elif len(placed) == len(cells) and not any(
                near in board for cell in cells for near in cell.neighbours()):
            raise IllegalPlayError("not-connected", f"{play.word} neither uses nor touches a "
                                                    "tile already on the board")
        after = dict(board)
        for cell, tile in zip(cells, new_tiles, strict=True):
            if cell in placed:
                after[cell] = tile
        return self._words_and_score(player, play, cells, placed, after)

    def _check_rack(self, player: Player, count: int) -> None:
        """No play puts down more tiles than the rack can hold (a misread board often does)."""
        limit = self.rack_sizes[player.id] if self.racks_known else RACK_SIZE
        if count > limit:
            raise _bad(f"{player.id} has only {limit} tiles on the rack, not {count}")

    def _check_tile_counts(self, new_tiles: list[Tile]) -> None:
        """A play cannot use a tile the set does not have left (a Z when the only Z is down)."""
        used = Counter("?" if tile.blank else tile.letter for tile in self.board.tiles.values())
        wanted = Counter("?" if tile.blank else tile.letter for tile in new_tiles)
        for letter, count in sorted(wanted.items()):
            have = self.tile_set.blanks if letter == "?" else self.tile_set.counts.get(letter, 0)
            if used[letter] + count > have:
                name = "blank" if letter == "?" else letter
                raise _bad(f"the {self.tile_set.name} set has {have} {name} tile(s) and "
                           f"{used[letter]} already lie on the board")

    def _words_and_score(self, player: Player, play: Play, cells: list[Cell],
                         placed: list[Cell], after: dict[Cell, Tile]) -> Verdict:
        """Every word formed must be in the list; each scores on its own (RULES.md §2)."""

        def occupied(cell: Cell) -> bool:
            return cell in after

        direction = play.direction
        main = cells
        if len(cells) == 1:
            # One tile with nothing beside it along ``dir``: its word runs the other way.
            main = run_through(occupied, cells[0], direction.other)
            direction = direction.other
        main_word = spell(after, main)
        if len(main) < 2 or main_word not in self.word_list:
            raise IllegalPlayError("not-in-word-list", f"{main_word.upper()} is not in the word "
                                                       f"list {self.word_list.name}")
        runs = [main]
        for cell in placed:
            run = run_through(occupied, cell, direction.other)
            if len(run) >= 2 and run != main:
                self.check_cross_word(main_word, spell(after, run), cell)
                runs.append(run)
        placed_set = set(placed)
        words = [FormedWord(spell(after, run), tuple(run),
                            score_word(run, after, placed_set, self.layout, self.tile_set))
                 for run in runs]
        # The same sum score_play makes, without scoring every word twice.
        score = sum(word.value for word in words) + (
            self.preset.bingo if len(placed_set) == RACK_SIZE else 0)
        return Verdict(legal=True, player=player.id, words=words, score=score,
                       placed={cell: after[cell] for cell in placed})

    # -- applying it ------------------------------------------------------------------------

    def commit_play(self, player: Player, verdict: Verdict) -> None:
        for cell, tile in verdict.placed.items():
            self.board.place(cell, tile)
        self.scores[player.id] += verdict.score
        drawn = min(len(verdict.placed), self.bag)
        self.bag -= drawn
        self.rack_sizes[player.id] += drawn - len(verdict.placed)

    def after_move(self, player: Player, move: Move, verdict: Verdict) -> None:
        if isinstance(move, EndRacks):
            self._apply_end(verdict)  # type: ignore[arg-type]
            return
        self.scoreless = self.scoreless + 1 if verdict.score == 0 else 0
        if isinstance(move, Play | Snapshot) and self.racks_known and self.bag == 0 \
                and self.rack_sizes[player.id] == 0:
            self.went_out = player.id
            self._finish()
        elif self.scoreless >= self.preset.scoreless_turns and not (
                self.preset.zero_zero_continues and not any(self.scores.values())):
            self._finish()

    def _finish(self) -> None:
        """End the game; the leader wins for now (the last racks may still change it)."""
        self.over = True
        best = max(self.scores.values())
        leaders = [pid for pid, score in self.scores.items() if score == best]
        self.winner = leaders[0] if len(leaders) == 1 else None

    # -- the end of the game ----------------------------------------------------------------

    def _examine(self, move: Any) -> tuple[Player, Verdict]:
        if isinstance(move, Exchange):
            player, verdict = super()._examine(move)
            if self.racks_known and move.count > min(self.bag, self.rack_sizes[player.id]):
                raise _bad(f"{player.id} cannot exchange {move.count} tiles: the bag holds "
                           f"{self.bag} and the rack {self.rack_sizes[player.id]}")
            return player, verdict
        if not isinstance(move, EndRacks):
            return super()._examine(move)
        try:
            player = self.player(move.player)
        except ValueError as error:
            raise IllegalPlayError("bad-move", str(error)) from None
        if self.racks_entered:
            raise IllegalPlayError("game-over", "the remaining racks have already been entered")
        if not self.over and self.racks_known and self.bag > 0:
            raise _bad(f"the bag still holds {self.bag} tiles, so the game has not ended")
        return player, self._end_verdict(player, move)

    def _end_verdict(self, player: Player, move: EndRacks) -> EndVerdict:
        racks: dict[str, str] = {}
        for name, letters in move.racks.items():
            try:
                racks[self.player(name).id] = letters
            except ValueError as error:
                raise _bad(f"end.racks: {error}") from None
        unseen = Counter({letter: count for letter, count in self.tile_set.counts.items()})
        unseen["?"] = self.tile_set.blanks
        for tile in self.board.tiles.values():
            unseen["?" if tile.blank else tile.letter] -= 1
        left = Counter("".join(racks.values()))
        for letter, count in sorted(left.items()):
            if count > unseen[letter]:
                raise _bad(f"the racks hold {count} {letter} but only {max(unseen[letter], 0)} "
                           f"{letter} tile(s) are not on the board")
        if self.racks_known:
            for pid, letters in racks.items():
                if len(letters) > self.rack_sizes[pid]:
                    raise _bad(f"{pid} has only {self.rack_sizes[pid]} tiles left, "
                               f"not {len(letters)}")
        went_out = self.went_out
        if went_out is None and not self._ended_scoreless():
            last = self._last_player_to_play()
            if last is not None and not racks.get(last):
                went_out = last
        if went_out is not None and racks.get(went_out):
            raise _bad(f"{went_out} went out, so their rack is empty")
        sums = {p.id: rack_value(racks.get(p.id, ""), self.tile_set) for p in self.players}
        adjustments = {pid: -value for pid, value in sums.items()}
        if went_out is not None:
            adjustments[went_out] = sum(value for pid, value in sums.items() if pid != went_out)
        return EndVerdict(legal=True, player=player.id, score=0,
                          racks={p.id: racks.get(p.id, "") for p in self.players},
                          adjustments=adjustments, went_out=went_out)

    def _ended_scoreless(self) -> bool:
        return self.over and self.went_out is None

    def _last_player_to_play(self) -> str | None:
        for move, verdict in reversed(self.history):
            if isinstance(move, Play | Snapshot):
                return verdict.player
        return None

    def _apply_end(self, verdict: EndVerdict) -> None:
        for pid, change in verdict.adjustments.items():
            self.scores[pid] += change
        self.adjustments = dict(verdict.adjustments)
        self.went_out = verdict.went_out
        self.racks_entered = True
        self._finish()

    # -- figures ----------------------------------------------------------------------------

    def standings(self) -> dict[str, int]:
        return dict(self.scores)

    def extra_state(self) -> dict[str, Any]:
        data: dict[str, Any] = {"scores": dict(self.scores), "preset": self.preset.name,
                                "word_list": self.word_list.name,
                                "bag": self.bag if self.racks_known else None}
        if self.racks_entered:
            data["adjustments"] = dict(self.adjustments)
        return data


def _back(direction: Direction) -> tuple[int, int]:
    dx, dy = direction.step
    return -dx, -dy


__all__ = ["DEFAULT_PRESET", "EndRacks", "EndVerdict", "PRESETS", "Preset", "ScrabbleGame",
           "move_from_json", "preset_named"]
