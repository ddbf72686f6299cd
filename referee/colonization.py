"""Colonization Mode (RULES.md §3, seed 002): Scrabble where every word has an owner.

Placement and scoring are Scrabble's (:class:`ScrabbleGame` does them); this module adds what
the seed adds on top. Each player is a language (a 7-letter name, recorded). Words need no
dictionary, only the table's agreement: after a play the referee asks "agreed?", and
``{"player", "agree": false}`` takes the play back. Every word a play forms belongs to the
player and scores for them, until "English", a non-player, takes it over: when a play's main
word is in the English list, when a play takes a player past 50 points, when a player
transforms an opponent's word (their one white meeple), and on English's own turns, where it
draws a tile and claims a touching word containing that letter.

Every random thing (English's letter, the tie-break draws) is either entered by the players or
drawn by the referee from the unseen tiles with the game's seeded generator, and logged in the
verdict (:mod:`referee.randomness`), so a game replays exactly from its log.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, cast

from referee import moves, scrabble
from referee.boardtext import is_tile_letter
from referee.cells import Cell, Direction
from referee.errors import IllegalPlayError, SetupError
from referee.game import Player, Verdict, register_ruleset
from referee.moves import Move, Play, Snapshot
from referee.randomness import DrawLog
from referee.scrabble import ScrabbleGame

ENGLISH = "English"
"""English's name in moves, verdicts, scores and the turn order."""

LANGUAGE_LENGTH = 7
SCORE_LIMIT = 50
"""A play that takes a player from this or less to more passes its main word to English."""

REASONS: tuple[str, ...] = (
    "no-language",
    "bad-language",
    "word-too-short",
    "nothing-to-agree",
    "not-an-opponents-word",
    "transform-used",
    "not-unseen",
    "draws-mismatch",
)
"""Colonization's own reason codes (docs/formats.md); the Scrabble codes apply as well."""


def _bad(message: str) -> IllegalPlayError:
    return IllegalPlayError("bad-move", message)


def min_word_length(player_count: int) -> int:
    """4 letters, or 3 with four players (seed 002)."""
    return 3 if player_count >= 4 else 4


class AnyWord:
    """The "word list" placement runs with: any spelling the table agrees on is a word."""

    name = "table agreement"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str)


# ------------------------------------------------------------------------------------- moves


def _player(data: Mapping[str, Any]) -> str:
    player = data.get("player")
    if not isinstance(player, str) or not player.strip():
        raise _bad(f"a move needs a player (a name), not {player!r}")
    return player.strip()


def _tile_letter(value: object, what: str) -> str:
    if not isinstance(value, str) or not (value == "?" or is_tile_letter(value)):
        raise _bad(f"{what} is one tile: a letter, or '?' for a blank, not {value!r}")
    return value.upper()


@dataclass(frozen=True)
class NameLanguage:
    """A player's language name: 7 letters (lowercase where a blank stood in)."""

    player: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "language": self.name}


@dataclass(frozen=True)
class Agree:
    """The table's answer to "agreed?" about the play just made; ``False`` takes it back."""

    player: str
    agreed: bool

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "agree": self.agreed}


@dataclass(frozen=True)
class Transform:
    """Try to turn the opponent's word starting at ``at`` along ``direction`` English.

    ``actor_tile`` and ``owner_tile`` are the rack tiles the two players reveal (``?`` a blank).
    """

    player: str
    at: Cell
    direction: Direction
    actor_tile: str
    owner_tile: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player,
                "transform": {"at": self.at.name, "dir": self.direction.value},
                "actor_tile": self.actor_tile, "owner_tile": self.owner_tile}


@dataclass(frozen=True)
class EnglishTurn:
    """English's turn. ``draws`` are the tiles the players drew, in order (English's letter,
    then the tie-break tiles); ``None`` asks the referee to draw them all from the unseen tiles.
    """

    draws: tuple[str, ...] | None = None
    player: str = ENGLISH

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": ENGLISH}
        if self.draws is not None:
            data["draws"] = list(self.draws)
        return data


ColonizationMove = Move | scrabble.EndRacks | NameLanguage | Agree | Transform | EnglishTurn
OWN_MOVES = (NameLanguage, Agree, Transform, EnglishTurn)
OWN_KEYS = ("language", "agree", "transform")


def move_from_json(data: object) -> ColonizationMove:
    """A colonization move: the Scrabble moves (the end racks included), or a language, an
    agreement, a transform, or English's turn (``{"player": "English"}``); malformed →
    ``IllegalPlayError("bad-move")``."""
    if not isinstance(data, dict):
        raise _bad(f"a move is a JSON object, not {type(data).__name__}")
    player = _player(data)
    kinds = [key for key in OWN_KEYS if key in data]
    board_kinds = [key for key in ("word", "pass", "exchange", "board") if key in data]
    if player.lower() == ENGLISH.lower():
        if kinds or board_kinds:
            raise _bad("English only takes its turn: {\"player\": \"English\"} with optional"
                       " \"draws\"")
        draws = data.get("draws")
        if draws is None:
            return EnglishTurn()
        if not isinstance(draws, list) or not draws:
            raise _bad(f"'draws' lists the tiles drawn, like [\"E\"], not {draws!r}")
        return EnglishTurn(tuple(_tile_letter(tile, "a drawn tile") for tile in draws))
    if not kinds:
        return scrabble.move_from_json(data)
    if len(kinds) + len(board_kinds) != 1:
        raise _bad(f"a move has exactly one kind (got {', '.join(kinds + board_kinds)})")
    kind = kinds[0]
    if kind == "language":
        name = data["language"]
        if not isinstance(name, str):
            raise _bad(f"'language' is the language's name, not {name!r}")
        return NameLanguage(player, name.strip())
    if kind == "agree":
        if not isinstance(data["agree"], bool):
            raise _bad(f"'agree' is true or false, not {data['agree']!r}")
        return Agree(player, data["agree"])
    target = data["transform"]
    if not isinstance(target, dict):
        raise _bad("'transform' names the word: {\"at\": \"H8\", \"dir\": \"across\"}")
    try:
        at = Cell.parse(str(target.get("at")))
        direction = Direction.parse(str(target.get("dir")))
    except ValueError as error:
        raise _bad(f"transform: {error}") from None
    return Transform(player, at, direction, _tile_letter(data.get("actor_tile"), "'actor_tile'"),
                     _tile_letter(data.get("owner_tile"), "'owner_tile'"))


# -------------------------------------------------------------------------------- the ledger


@dataclass(frozen=True)
class OwnedWord:
    """A word on the board, who owns it (a player's name or English) and what it scored."""

    word: str
    cells: tuple[Cell, ...]
    owner: str
    points: int

    @property
    def direction(self) -> Direction | None:
        if len(self.cells) < 2:
            return None
        return Direction.ACROSS if self.cells[0].row == self.cells[1].row else Direction.DOWN

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "cells": [cell.name for cell in self.cells],
                "owner": self.owner, "points": self.points}

    def touches(self, other: OwnedWord) -> bool:
        """Shares a cell with ``other`` or lies orthogonally next to one of its tiles."""
        near = set(other.cells)
        near.update(n for cell in other.cells for n in cell.neighbours())
        return any(cell in near for cell in self.cells)


@dataclass
class ColonyVerdict(Verdict):
    """A verdict with colonization's additions (JSON: ``extra``), and what committing needs."""

    extra: dict[str, Any] = field(default_factory=dict)
    owned: list[OwnedWord] = field(default_factory=list)
    """Words the move adds to the ledger (a play's words, owned by the player)."""
    to_english: list[OwnedWord] = field(default_factory=list)
    """Ledger words that pass to English (as they stood before the move)."""
    log: DrawLog | None = None
    """The draw log after the move's draws (English's turn)."""

    @classmethod
    def of(cls, verdict: Verdict) -> ColonyVerdict:
        return cls(**{f.name: getattr(verdict, f.name) for f in fields(Verdict)})

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.legal:
            data.update(self.extra)
        return data


# ---------------------------------------------------------------------------------- the game


@register_ruleset("colonization")
class ColonizationGame(ScrabbleGame):
    """Colonization Mode for 2-4 players named by name.

    ``options``: ``preset`` (``classic``/``seed``, as Scrabble), ``wordlist`` (the English list),
    ``seed`` (the referee's draws), ``languages`` (``{"Ann": "FLORBIX"}``, or name them by move).
    """

    shared_attributes: ClassVar[frozenset[str]] = ScrabbleGame.shared_attributes | {"english"}

    def __init__(self, players: list[Player], word_list: Any,
                 options: Mapping[str, Any] | None = None,
                 position: Mapping[str, Any] | None = None) -> None:
        if any(player.name.lower() == ENGLISH.lower() for player in players):
            raise SetupError(f"{ENGLISH!r} is the non-player; pick another name")
        self.english = word_list
        """The English word list: a main word in it makes the word English's."""
        super().__init__(players, AnyWord(), options, position)

    def setup(self, position: Mapping[str, Any]) -> None:
        if position.get("board") or position.get("scores"):
            raise SetupError("a colonization game starts from an empty board: word owners "
                             "cannot be read from a position")
        super().setup(position)
        try:
            self.draws = DrawLog(self.options.get("seed"))
        except ValueError as error:
            raise SetupError(f"options.seed: {error}") from None
        self.words: list[OwnedWord] = []
        self.order: list[str] = [player.id for player in self.players]
        self._at = self._turn
        self.used_transform: set[str] = set()
        self.awaiting_agreement = False
        self.languages: dict[str, str] = {}
        given = self.options.get("languages") or {}
        if not isinstance(given, Mapping):
            raise SetupError("options.languages maps player names to language names")
        for name, language in given.items():
            try:
                pid = self.player(str(name)).id
                self.languages[pid] = self._check_language(pid, language)
            except (ValueError, IllegalPlayError) as error:
                message = getattr(error, "message", str(error))
                raise SetupError(f"options.languages: {message}") from None

    # -- turn order (English sits in it once it has appeared) ------------------------------

    @property
    def to_move(self) -> Player | None:
        if self.over:
            return None
        pid = self.order[self._at]
        return Player(ENGLISH) if pid == ENGLISH else self.player(pid)

    def _advance(self) -> None:
        if not self.over:
            self._at = (self._at + 1) % len(self.order)

    def _join_english(self, before: str) -> None:
        """English enters the order just before ``before`` (it acts before their next turn)."""
        if ENGLISH in self.order:
            return
        index = self.order.index(before)
        self.order.insert(index, ENGLISH)
        if self._at >= index:
            self._at += 1

    @property
    def english_present(self) -> bool:
        return ENGLISH in self.order

    # -- figures ----------------------------------------------------------------------------

    def owned_by(self, owner: str) -> list[OwnedWord]:
        return [word for word in self.words if word.owner == owner]

    def unseen(self) -> Counter[str]:
        """Tiles not on the board, by letter (``?`` blanks): the referee's bag."""
        unseen = Counter({letter: count for letter, count in self.tile_set.counts.items()
                          if count})
        unseen["?"] = self.tile_set.blanks
        for tile in self.board.tiles.values():
            unseen["?" if tile.blank else tile.letter] -= 1
        return +unseen

    def _tile_value(self, letter: str) -> int:
        return self.tile_set.value(letter, letter == "?")

    def extra_state(self) -> dict[str, Any]:
        data = super().extra_state()
        data.update({
            "word_list": getattr(self.english, "name", None),
            "languages": dict(self.languages),
            "words": [word.to_json() for word in self.words],
            "order": list(self.order),
            "transforms_used": sorted(self.used_transform),
            "awaiting_agreement": self.awaiting_agreement,
            "draws": self.draws.to_json(),
        })
        return data

    # -- languages --------------------------------------------------------------------------

    def _check_language(self, pid: str, name: object) -> str:
        if pid in self.languages:
            raise IllegalPlayError("bad-language", f"{pid} already speaks"
                                   f" {self.languages[pid]}")
        if not isinstance(name, str) or len(name) != LANGUAGE_LENGTH or not all(
                is_tile_letter(letter) for letter in name):
            raise IllegalPlayError("bad-language", f"a language's name uses all {LANGUAGE_LENGTH}"
                                   f" tiles drawn: 7 letters, not {name!r}")
        counts = Counter(letter for letter in name if letter.isupper())
        blanks = sum(letter.islower() for letter in name)
        too_many = [letter for letter, count in counts.items()
                    if count > self.tile_set.counts.get(letter, 0)]
        if too_many or blanks > self.tile_set.blanks:
            what = ", ".join(too_many) if too_many else "blanks"
            raise IllegalPlayError("bad-language", f"{name} cannot be spelt from one tile set"
                                   f" (too many {what})")
        return name

    def _require_languages(self) -> None:
        missing = [player.id for player in self.players if player.id not in self.languages]
        if missing:
            raise IllegalPlayError("no-language", "every player names a language before play"
                                   f" starts; still to name one: {', '.join(missing)}")

    # -- examining moves --------------------------------------------------------------------

    def _examine(self, move: Any) -> tuple[Player, Verdict]:
        if isinstance(move, NameLanguage):
            return self._examine_language(move)
        if isinstance(move, Agree):
            return self._examine_agree(move)
        if isinstance(move, EnglishTurn):
            return self._examine_english_turn(move)
        if isinstance(move, Transform):
            return self._examine_transform(move)
        examined = super()._examine(move)
        if isinstance(move, moves.Pass | moves.Exchange):
            self._require_languages()
        return examined

    def _examine_language(self, move: NameLanguage) -> tuple[Player, Verdict]:
        player = self._resolve(move.player)
        if self.history and any(not isinstance(m, NameLanguage) for m, _ in self.history):
            raise IllegalPlayError("bad-language", "languages are named before play starts")
        name = self._check_language(player.id, move.name)
        return player, ColonyVerdict(legal=True, player=player.id,
                                     extra={"language": name})

    def _examine_agree(self, move: Agree) -> tuple[Player, Verdict]:
        player = self._resolve(move.player)
        if not self.awaiting_agreement:
            raise IllegalPlayError("nothing-to-agree", "there is no play waiting for the"
                                   " table's agreement")
        last = self.history[-1][1]
        extra: dict[str, Any] = {"agree": move.agreed}
        if not move.agreed:
            extra["taken_back"] = [word.word for word in last.words]
        return player, ColonyVerdict(legal=True, player=player.id, extra=extra)

    def _resolve(self, pid: str) -> Player:
        try:
            return self.player(pid)
        except ValueError as error:
            raise IllegalPlayError("bad-move", str(error)) from None

    def _check_turn(self, pid: str) -> None:
        if self.over:
            raise IllegalPlayError("game-over", "the game is over"
                                   + (f"; {self.winner} won" if self.winner else ""))
        mover = self.to_move
        if mover is None or mover.id != pid:
            raise IllegalPlayError("not-your-turn", f"it is {mover.id if mover else 'nobody'}'s"
                                   f" turn, not {pid}'s")

    def examine_play(self, player: Player, play: Play) -> Verdict:
        self._require_languages()
        verdict = ColonyVerdict.of(super().examine_play(player, play))
        main = verdict.words[0]
        shortest = min_word_length(len(self.players))
        if len(main.word) < shortest:
            raise IllegalPlayError("word-too-short", f"{main.word.upper()} is shorter than"
                                   f" {shortest} letters, the least a main word may have with"
                                   f" {len(self.players)} players")
        verdict.owned = [OwnedWord(word.word, word.cells, player.id, word.value)
                         for word in verdict.words]
        english_main = main.word in self.english
        before = self.scores[player.id]
        after = before + verdict.score
        reasons = []
        if english_main:
            reasons.append("english-word")
            after -= main.value
        if before <= SCORE_LIMIT < after:
            reasons.append("over-50")
        if reasons:
            verdict.to_english = [verdict.owned[0]]
        verdict.extra = {
            "owner": player.id,
            "english": [{"word": main.word, "cells": [c.name for c in main.cells],
                         "points": main.value, "why": reasons[0]}] if reasons else [],
            "english_joins": bool(reasons) and not self.english_present,
        }
        return verdict

    def _examine_transform(self, move: Transform) -> tuple[Player, Verdict]:
        player = self._resolve(move.player)
        self._check_turn(player.id)
        self._require_languages()
        if player.id in self.used_transform:
            raise IllegalPlayError("transform-used", f"{player.id} has already transformed a"
                                   " word: each player succeeds once")
        target = next((word for word in self.words if word.cells[0] == move.at
                       and word.direction in (move.direction, None)), None)
        if target is None or target.owner in (player.id, ENGLISH):
            what = "no word starts" if target is None else f"{target.word} is not an opponent's"
            raise IllegalPlayError("not-an-opponents-word", f"{what} at {move.at}"
                                   f" {move.direction.value}: only an opponent's word can be"
                                   " transformed")
        unseen = self.unseen()
        revealed = Counter([move.actor_tile, move.owner_tile])
        short = [letter for letter, count in revealed.items() if count > unseen[letter]]
        if short:
            raise IllegalPlayError("not-unseen", f"no {short[0]} tile is left off the board to"
                                   " be on a rack")
        actor_value = self._tile_value(move.actor_tile)
        owner_value = self._tile_value(move.owner_tile)
        success = actor_value > owner_value
        verdict = ColonyVerdict(legal=True, player=player.id, extra={
            "transform": {"word": target.word, "cells": [c.name for c in target.cells],
                          "owner": target.owner, "points": target.points},
            "values": {"actor": actor_value, "owner": owner_value},
            "transformed": success,
            "english_joins": success and not self.english_present,
        })
        if success:
            verdict.to_english = [target]
        return player, verdict

    def _examine_english_turn(self, move: EnglishTurn) -> tuple[Player, Verdict]:
        """English draws a letter and claims a touching word that holds it (RULES.md §3).

        Tiles are drawn one per candidate, in the candidates' order, from the tiles off the
        board; drawn tiles stay out until the turn ends, except that whenever the bag is empty
        every tile drawn this turn goes back and drawing goes on, so a round can always give
        each candidate a tile however many there are. A tie that no draw can break, because
        every tile off the board has the same value, stands: English claims none of the tied
        words (docs/formats.md).
        """
        self._check_turn(ENGLISH)
        log = copy.deepcopy(self.draws)
        entered = list(move.draws) if move.draws is not None else None
        unseen = self.unseen()
        bag = unseen.copy()

        def draw_from_bag(purpose: str, count: int) -> list[str]:
            if entered is None:
                return log.sample(list(bag.elements()), count, purpose)
            if len(entered) < count:
                raise IllegalPlayError("draws-mismatch", f"{purpose} needs {count} more"
                                       f" tile(s) drawn (the turn has used"
                                       f" {len(move.draws or ()) - len(entered)} so far)")
            tiles = [entered.pop(0) for _ in range(count)]
            short = Counter(tiles) - bag
            if short:
                raise IllegalPlayError("not-unseen", f"no {min(short)} tile is left in the"
                                       " bag to be drawn")
            return log.enter(purpose, tiles)

        def draw(purpose: str, count: int) -> list[str]:
            nonlocal bag
            tiles: list[str] = []
            while len(tiles) < count:
                if not bag:
                    bag = unseen.copy()  # every tile drawn this turn goes back: draw on
                lot = draw_from_bag(purpose, min(count - len(tiles), bag.total()))
                bag -= Counter(lot)
                tiles += lot
            return tiles

        letter = draw("english-letter", 1)[0] if unseen else None
        english_words = self.owned_by(ENGLISH)
        candidates = [word for word in self.words if word.owner != ENGLISH
                      and letter not in (None, "?") and letter in word.word.upper()
                      and any(word.touches(other) for other in english_words)]
        rounds: list[list[dict[str, Any]]] = []
        contenders = list(candidates)
        unbroken: list[OwnedWord] = []
        if len(contenders) > 1 and len({self._tile_value(tile) for tile in unseen}) < 2:
            unbroken, contenders = contenders, []  # every draw would tie again: none is chosen
        while len(contenders) > 1:
            tiles = draw("tiebreak", len(contenders))
            values = [self._tile_value(tile) for tile in tiles]
            rounds.append([{"word": word.word, "cells": [c.name for c in word.cells],
                            "tile": tile, "value": value}
                           for word, tile, value in zip(contenders, tiles, values, strict=True)])
            lowest = min(values)
            contenders = [word for word, value in zip(contenders, values, strict=True)
                          if value == lowest]
        if entered:
            given = len(move.draws or ())
            raise IllegalPlayError("draws-mismatch", f"the turn needed {given - len(entered)}"
                                   f" tile(s) drawn, not {given}")
        claimed = contenders[0] if contenders else None
        verdict = ColonyVerdict(legal=True, player=ENGLISH, log=log, extra={
            "drawn": letter,
            "candidates": [word.to_json() for word in candidates],
            "tiebreaks": rounds,
            "unbroken_tie": [word.word for word in unbroken],
            "claimed": claimed.to_json() if claimed else None,
            "draws": [d.to_json() for d in log.since(self.draws.mark())],
            "seed": log.seed,
        })
        if claimed is not None:
            verdict.to_english = [claimed]
        return Player(ENGLISH), verdict

    # -- applying moves ---------------------------------------------------------------------

    def push(self, move: Any) -> Verdict:
        if not isinstance(move, OWN_MOVES):
            return super().push(move)
        player, verdict = self._examine(move)
        assert isinstance(verdict, ColonyVerdict)
        self._undo.append(self._save())
        try:
            self._apply(player, move, verdict)
        except BaseException:
            self._restore(self._undo.pop())
            raise
        self.history.append((cast(Move, move), verdict))  # the base types its own kinds
        return verdict

    def _apply(self, player: Player, move: Any, verdict: ColonyVerdict) -> None:
        if isinstance(move, NameLanguage):
            self.languages[player.id] = move.name
            return
        if isinstance(move, Agree):
            if not move.agreed:
                # Back to the position before the play: its undo record is one below ours.
                self._restore(copy.deepcopy(self._undo[-2]))
            self.awaiting_agreement = False
            return
        self.awaiting_agreement = False
        if verdict.log is not None:
            self.draws = verdict.log
        self._pass_to_english(player.id, verdict.to_english)
        if isinstance(move, Transform):
            if verdict.extra["transformed"]:
                self.used_transform.add(player.id)
            ScrabbleGame.after_move(self, player, cast(Move, move), verdict)  # scoreless
        self._end_if_all_english()
        self._advance()

    def _end_if_all_english(self) -> None:
        """RULES.md §3: the game ends at once when every word on the board is English's,
        whichever move made it so: English's turn, a transform, or a play whose words all
        pass to English (a first word that is English ends the game, unless the table takes
        it back with ``agree: false``)."""
        if not self.over and self.words and all(word.owner == ENGLISH for word in self.words):
            self._finish()

    def _pass_to_english(self, actor: str, words: list[OwnedWord]) -> None:
        for word in words:
            index = next(i for i, known in enumerate(self.words) if known.cells == word.cells)
            owner = self.words[index].owner
            self.words[index] = OwnedWord(word.word, word.cells, ENGLISH, word.points)
            self.scores[owner] -= word.points
            self.scores[ENGLISH] = self.scores.get(ENGLISH, 0) + word.points
        if words:
            self._join_english(actor)

    def commit_play(self, player: Player, verdict: Verdict) -> None:
        assert isinstance(verdict, ColonyVerdict)
        super().commit_play(player, verdict)
        self.words.extend(verdict.owned)
        self._pass_to_english(player.id, verdict.to_english)

    def after_move(self, player: Player, move: Move, verdict: Verdict) -> None:
        self.awaiting_agreement = isinstance(move, Play | Snapshot)
        super().after_move(player, move, verdict)
        self._end_if_all_english()


__all__ = [
    "ENGLISH",
    "REASONS",
    "Agree",
    "ColonizationGame",
    "ColonyVerdict",
    "EnglishTurn",
    "NameLanguage",
    "OwnedWord",
    "Transform",
    "min_word_length",
    "move_from_json",
]
