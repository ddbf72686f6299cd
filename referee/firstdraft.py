"""First Draft (RULES.md §4, seed 004): draft coasters of letters, build two rows, sell words.

There is no shared board: each player has two word rows (up to 9 letters, order fixed once laid,
new letters only inserted), a pool (up to 4 letters) and coins. A turn is a few small moves, so
the table screen can follow the players step by step:

* ``sell`` a row that spells one word (3 to 9 letters) and nothing else, and ``discard`` a row
  (its letters go face down, -1 coin each at the end) — both before choosing a coaster;
* ``coaster``: choose the k-th coaster of the line (it costs k-1 coins, one left on each coaster
  passed over; the chosen coaster's coins go to the player);
* ``place``: every letter of the chosen coaster goes into a row or the pool, which ends the turn
  (upkeep: the line slides and a new coaster is drawn and filled). A ``place`` with no coaster in
  hand only moves pool letters into rows, which any player may do at any time.

Every draw (the coaster shuffle, the letters on each new coaster) is either entered by the players
or made by the referee's seeded generator and logged (:mod:`referee.randomness`), so a game replays
exactly from its log. Coins only ever move between the bank, the players and the coasters.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from referee.errors import IllegalPlayError, SetupError
from referee.game import Game, Player, Verdict, register_ruleset
from referee.randomness import DrawLog

COASTERS: tuple[int, ...] = (1, 2, 2, 3, 3, 3, 3, 4, 4, 5)
LINE_LENGTH = 5
ROW_COUNT = 2


@dataclass(frozen=True)
class FirstDraftRules:
    """Every number of RULES.md §4 in one place; options may override the cheap ones."""

    row_length: int = 9
    pool_size: int = 4
    starting_coins: int = 4
    bank: int = 200
    min_word: int = 3
    prices: Mapping[int, int] = field(
        default_factory=lambda: {3: 1, 4: 2, 5: 3, 6: 5, 7: 7, 8: 9, 9: 12})
    face_down_penalty: int = 1


RULES = FirstDraftRules()

REASONS: tuple[str, ...] = (
    "bad-move",
    "game-over",
    "not-your-turn",
    "must-place",
    "not-placing",
    "no-such-row",
    "row-empty",
    "not-a-word",
    "no-such-coaster",
    "cannot-afford",
    "row-reordered",
    "letters-mismatch",
    "row-full",
    "pool-full",
    "needless-discard",
    "refill-mismatch",
)
"""First Draft's reason codes, in the order the checks run (docs/formats.md explains each)."""


def _bad(message: str) -> IllegalPlayError:
    return IllegalPlayError("bad-move", message)


def _letters(text: object, what: str) -> str:
    """Upper-case letters A-Z; anything else in a move is malformed."""
    # Letter by letter: "ﬃ".upper() is "FFI", three letters for one sent.
    if not isinstance(text, str) or not all("A" <= c.upper() <= "Z" and len(c.upper()) == 1
                                            for c in text):
        raise _bad(f"{what} must be a string of letters A-Z, not {text!r}")
    return text.upper()


def _player(data: Mapping[str, Any]) -> str:
    player = data.get("player")
    if not isinstance(player, str) or not player.strip():
        raise _bad(f"a move needs a player name, not {player!r}")
    return player.strip()


def _row_number(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"a row is numbered 1 or 2, not {value!r}")
    return value


# ---------------------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Sell:
    """Sell row 1 or 2: it must spell one word and nothing else."""

    player: str
    row: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "sell": self.row}


@dataclass(frozen=True)
class DiscardRow:
    """Turn a whole row face down (each letter costs a coin at the end)."""

    player: str
    row: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "discard": self.row}


@dataclass(frozen=True)
class ChooseCoaster:
    """Take the ``position``-th coaster of the line (1 is the first, and free)."""

    player: str
    position: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "coaster": self.position}


@dataclass(frozen=True)
class Refill:
    """What the players put on the new coaster at upkeep: its number and the letters drawn.

    ``letters`` is empty when the bag could not fill the coaster (the game ends).
    """

    coaster: int
    letters: str

    def to_json(self) -> dict[str, Any]:
        return {"coaster": self.coaster, "letters": self.letters}


@dataclass(frozen=True)
class Place:
    """The player's rows (and pool) after placing letters.

    The referee checks the old letters of each row still stand in the same order (insertion
    only) and that the new letters are exactly the coaster's and the pool's. ``pool`` may be
    left out (None): every letter not put in a row then goes to the pool. ``face_down`` are the
    letters discarded because the pool would hold more than four. ``refill`` is the upkeep draw
    when the players draw it themselves; without it the referee draws.
    """

    player: str
    rows: tuple[str, ...]
    pool: str | None = None
    face_down: str = ""
    refill: Refill | None = None

    def to_json(self) -> dict[str, Any]:
        place: dict[str, Any] = {"rows": list(self.rows)}
        if self.pool is not None:
            place["pool"] = self.pool
        if self.face_down:
            place["face_down"] = self.face_down
        data: dict[str, Any] = {"player": self.player, "place": place}
        if self.refill is not None:
            data["refill"] = self.refill.to_json()
        return data


FirstDraftMove = Sell | DiscardRow | ChooseCoaster | Place
MOVE_KINDS = ("sell", "discard", "coaster", "place")
MOVE_KEYS = frozenset({"player", "refill", *MOVE_KINDS})


def _refill_from_json(value: object) -> Refill:
    if isinstance(value, str):
        letters = _letters(value, "'refill'")
        return Refill(len(letters), letters)
    if isinstance(value, dict):
        number = value.get("coaster")
        if isinstance(number, bool) or number not in COASTERS:
            raise _bad(f"a refill's coaster is one of 1 to 5, not {number!r}")
        return Refill(number, _letters(value.get("letters", ""), "a refill's letters"))
    raise _bad(f"'refill' is the letters drawn, or {{'coaster', 'letters'}}, not {value!r}")


def move_from_json(data: object) -> FirstDraftMove:
    """A First Draft move from JSON; anything malformed is ``IllegalPlayError("bad-move")``."""
    if not isinstance(data, dict):
        raise _bad(f"a move is a JSON object, not {type(data).__name__}")
    player = _player(data)
    unknown = sorted(set(data) - MOVE_KEYS)
    if unknown:  # a word from another ruleset's move would otherwise be ignored, not refused
        raise _bad(f"unknown key {unknown[0]!r} in a First Draft move (expected "
                   f"{', '.join(sorted(MOVE_KEYS))})")
    kinds = [key for key in MOVE_KINDS if key in data]
    if len(kinds) != 1:
        raise _bad("a First Draft move has exactly one of 'sell', 'discard', 'coaster' or"
                   f" 'place' (got {', '.join(kinds) or 'none'})")
    kind = kinds[0]
    if kind == "sell":
        return Sell(player, _row_number(data["sell"]))
    if kind == "discard":
        return DiscardRow(player, _row_number(data["discard"]))
    if kind == "coaster":
        position = data["coaster"]
        if isinstance(position, bool) or not isinstance(position, int):
            raise _bad(f"'coaster' is a position in the line (1 to 5), not {position!r}")
        return ChooseCoaster(player, position)
    place = data["place"]
    if not isinstance(place, dict):
        raise _bad("'place' is an object with 'rows' (and optionally 'pool', 'face_down')")
    rows = place.get("rows")
    if not isinstance(rows, list) or len(rows) != ROW_COUNT:
        raise _bad(f"'place.rows' lists both rows' letters, like [\"SOFT\", \"\"], not {rows!r}")
    pool = place.get("pool")
    refill = data.get("refill")
    return Place(
        player,
        tuple(_letters(row, "a row") for row in rows),
        None if pool is None else _letters(pool, "'place.pool'"),
        _letters(place.get("face_down", ""), "'place.face_down'"),
        None if refill is None else _refill_from_json(refill),
    )


# ---------------------------------------------------------------------------------------- state


@dataclass
class Coaster:
    number: int
    letters: str
    coins: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"coaster": self.number, "letters": self.letters, "coins": self.coins}


@dataclass
class PlayerBoard:
    """One player's side of the table."""

    rows: list[str]
    pool: str
    coins: int
    face_down: int = 0
    sold: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"rows": list(self.rows), "pool": self.pool, "coins": self.coins,
                "face_down": self.face_down, "sold": list(self.sold)}


@dataclass
class Table:
    """Everything a First Draft position is; deep-copied to undo a move."""

    boards: dict[str, PlayerBoard]
    line: list[Coaster]
    pile: list[int]
    discards: list[int]
    bag: Counter[str]
    bank: int
    turn: int = 0
    in_hand: Coaster | None = None
    over: bool = False


def _is_subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(letter in letters for letter in short)


def _sorted(letters: str | Counter[str]) -> str:
    counter = letters if isinstance(letters, Counter) else Counter(letters)
    return "".join(sorted(counter.elements()))


class DraftVerdict(Verdict):
    """A First Draft verdict: what the move did (sold, discarded, coaster, rows) and its draws.

    The board rulesets' fields (words, captures) mean nothing here, so a legal verdict is
    ``{"legal": true, "player": ...}`` plus the move's effects (docs/formats.md).
    """

    def __init__(self, player: str, effects: dict[str, Any]) -> None:
        super().__init__(legal=True, player=player)
        self.effects = effects

    def to_json(self) -> dict[str, Any]:
        return {"legal": True, "player": self.player, **self.effects}


@register_ruleset("firstdraft")
class FirstDraftGame(Game):
    """The First Draft referee: ``push`` validates and applies, ``pop`` undoes exactly.

    Players have no seats and are named by name. ``options``: ``seed`` (the draws' seed, logged
    in verdicts), ``wordlist`` (loaded by :func:`new_game`), ``line`` (the five opening coasters'
    letters when the table drew them, e.g. ``["E", "TA", ...]``), ``coins``, ``bank``.
    """

    seated: ClassVar[bool] = False
    table_board: ClassVar[bool] = False
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    rules: ClassVar[FirstDraftRules] = RULES

    def setup(self, position: Mapping[str, Any]) -> None:
        if position:
            raise SetupError("First Draft starts from the opening coasters: no 'position'")
        options = self.options
        try:
            self.draws = DrawLog(options.get("seed"))
        except ValueError as error:
            raise SetupError(f"options.seed: {error}") from None
        coins = options.get("coins", self.rules.starting_coins)
        bank = options.get("bank", self.rules.bank)
        for name, value in (("coins", coins), ("bank", bank)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SetupError(f"options.{name} is a whole number >= 0, not {value!r}")
        self.table = Table(
            boards={player.id: PlayerBoard(["", ""], "", coins) for player in self.players},
            line=[], pile=[], discards=[],
            bag=Counter({letter: count for letter, count in self.tile_set.counts.items()
                         if count}),
            bank=bank - coins * len(self.players),
        )
        self._setup(options.get("line"))
        self.draft_history: list[tuple[FirstDraftMove, Table, int, DraftVerdict]] = []

    # -------------------------------------------------------------------------- set-up, upkeep

    def _setup(self, entered_line: object) -> None:
        table = self.table
        if entered_line is None:
            table.pile = self.draws.shuffle(COASTERS, "coaster-shuffle")
            for _ in range(LINE_LENGTH):
                number = table.pile.pop(0)
                table.line.append(Coaster(number, self._draw_letters(number, "fill")))
            return
        if not isinstance(entered_line, list) or len(entered_line) != LINE_LENGTH:
            raise SetupError("options.line lists the five opening coasters' letters")
        left = list(COASTERS)
        for letters in entered_line:
            try:
                text = _letters(letters, "a coaster's letters")
                self._take_entered(text, "fill")
            except IllegalPlayError as error:
                raise SetupError(f"options.line: {error.message}") from None
            if len(text) not in left:
                raise SetupError(f"options.line: no coaster of {len(text)} is left")
            left.remove(len(text))
            table.line.append(Coaster(len(text), text))
        table.pile = self.draws.shuffle(left, "coaster-shuffle")

    def _draw_letters(self, count: int, purpose: str) -> str:
        drawn = self.draws.sample(list(self.table.bag.elements()), count, purpose)
        self.table.bag -= Counter(drawn)
        return "".join(drawn)

    def _take_entered(self, letters: str, purpose: str) -> None:
        missing = Counter(letters) - self.table.bag
        if missing:
            raise IllegalPlayError("refill-mismatch", f"{letters} cannot have been drawn: the"
                                   f" bag has no {_sorted(missing)} left.")
        self.table.bag -= Counter(letters)
        self.draws.enter(purpose, list(letters))

    def _upkeep(self, refill: Refill | None) -> Refill:
        """Discard the chosen coaster, draw and fill a new one, or end the game.

        Returns what went on the new coaster (no letters when the bag could not fill it), so
        the verdict tells a table playing along with real tiles what to lay out.
        """
        table = self.table
        assert table.in_hand is not None
        table.discards.append(table.in_hand.number)
        table.in_hand = None
        if not table.pile:
            table.pile = self.draws.shuffle(sorted(table.discards), "coaster-shuffle")
            table.discards = []
        if refill is None:
            number = table.pile.pop(0)
        else:
            if refill.coaster not in table.pile:
                raise IllegalPlayError("refill-mismatch", f"no coaster {refill.coaster} is left"
                                       " in the pile to draw.")
            table.pile.remove(refill.coaster)
            number = refill.coaster
        bag_size = sum(table.bag.values())
        if bag_size < number:
            if refill is not None and refill.letters:
                raise IllegalPlayError("refill-mismatch", f"the bag holds only {bag_size}"
                                       f" letters, too few to fill coaster {number}.")
            table.over = True
            return Refill(number, "")
        if refill is None:
            letters = self._draw_letters(number, "fill")
        else:
            if len(refill.letters) != number:
                raise IllegalPlayError("refill-mismatch", f"coaster {number} holds {number}"
                                       f" letters, not {len(refill.letters)}.")
            self._take_entered(refill.letters, "fill")
            letters = refill.letters
        table.line.append(Coaster(number, letters))
        table.turn = (table.turn + 1) % len(self.players)
        return Refill(number, letters)

    # ---------------------------------------------------------------------------------- queries

    @property
    def to_move(self) -> Player | None:
        return None if self.table.over else self.players[self.table.turn]

    @property
    def is_over(self) -> bool:
        return self.table.over

    @property
    def over(self) -> bool:
        return self.table.over

    @over.setter
    def over(self, value: bool) -> None:
        """The base class sets ``over`` at start; First Draft keeps it in its table."""

    @property
    def _mover(self) -> str | None:
        player = self.to_move
        return player.id if player else None

    def sale_price(self, row: str) -> int | None:
        """Coins a row sells for, or None when it is not one word of 3 to 9 letters."""
        if len(row) < self.rules.min_word or row not in self.word_list:
            return None
        return self.rules.prices.get(len(row))

    def scores(self) -> dict[str, int]:
        """Coins minus face-down letters; at the end, every row still sellable counts as sold.

        (Everyone may sell at the end and selling only ever gains, so the referee need not wait
        for the sell moves to rank the players; sells it is given still show in the verdicts.)
        """
        scores = {}
        for name, board in self.table.boards.items():
            unsold = 0
            if self.table.over:
                unsold = sum(self.sale_price(row) or 0 for row in board.rows)
            scores[name] = board.coins + unsold - board.face_down * self.rules.face_down_penalty
        return scores

    def coins_in_play(self) -> int:
        """Bank + players + coasters (+ the coaster in hand): never changes during a game."""
        table = self.table
        coasters = sum(coaster.coins for coaster in table.line)
        coasters += table.in_hand.coins if table.in_hand else 0
        return table.bank + coasters + sum(board.coins for board in table.boards.values())

    @property
    def winner(self) -> str | None:
        if not self.table.over:
            return None
        scores = self.scores()
        best = max(scores.values())
        leaders = [name for name, score in scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 else None

    @winner.setter
    def winner(self, value: str | None) -> None:
        """The base class sets ``winner`` at start; First Draft derives it from the scores."""

    def state(self) -> dict[str, Any]:
        table = self.table
        return {
            "boards": {p.id: table.boards[p.id].to_json() for p in self.players},
            "line": [coaster.to_json() for coaster in table.line],
            "in_hand": table.in_hand.to_json() if table.in_hand else None,
            "pile": len(table.pile),
            "discarded_coasters": len(table.discards),
            "bag": sum(table.bag.values()),
            "bank": table.bank,
            "scores": self.scores(),
            "eliminated": [],
            "to_move": self._mover,
            "winner": self.winner,
            "draws": self.draws.to_json(),
        }

    # ----------------------------------------------------------------------------------- moves

    def check(self, move: Any) -> None:
        """Raise :class:`IllegalPlayError` if ``move`` is illegal; nothing changes either way."""
        self.push(move)
        self.pop()

    def is_legal(self, move: Any) -> bool:
        try:
            self.check(move)
        except IllegalPlayError:
            return False
        return True

    def push(self, move: Any) -> DraftVerdict:
        """Validate and apply ``move``; raises :class:`IllegalPlayError` and changes nothing."""
        if not isinstance(move, Sell | DiscardRow | ChooseCoaster | Place):
            raise IllegalPlayError("bad-move", f"First Draft has no move like {move!r}.")
        try:
            move = replace(move, player=self.player(move.player).id)
        except ValueError as error:
            raise IllegalPlayError("bad-move", str(error)) from None
        before, draw_mark = copy.deepcopy(self.table), self.draws.mark()
        try:
            effects = self._apply(move)
        except BaseException:
            self.table = before
            self.draws.rewind(draw_mark)
            raise
        drawn = self.draws.since(draw_mark)
        if drawn:
            effects["draws"] = [draw.to_json() for draw in drawn]
            effects["seed"] = self.draws.seed
        verdict = DraftVerdict(move.player, effects)
        self.draft_history.append((move, before, draw_mark, verdict))
        self.history.append((move, verdict))
        return verdict

    def judge(self, move: Any) -> Verdict:
        """Like :meth:`push`, but an illegal move gives a ``legal: false`` verdict."""
        try:
            return self.push(move)
        except IllegalPlayError as error:
            return Verdict.illegal(getattr(move, "player", "?"), error)

    def pop(self) -> Any:
        """Undo the last move exactly, draws included."""
        if not self.draft_history:
            raise ValueError("no move to undo")
        move, before, draw_mark, _ = self.draft_history.pop()
        self.history.pop()
        self.table = before
        self.draws.rewind(draw_mark)
        return move

    def _own_turn(self, move: FirstDraftMove) -> None:
        if self.table.over:
            raise IllegalPlayError("game-over", "the game is over: only selling and moving pool"
                                   " letters into rows remain.")
        if move.player != self._mover:
            raise IllegalPlayError("not-your-turn", f"it is {self._mover}'s turn,"
                                   f" not {move.player}'s.")

    def _row(self, board: PlayerBoard, number: int) -> str:
        if not 1 <= number <= ROW_COUNT:
            raise IllegalPlayError("no-such-row", f"rows are numbered 1 and 2, not {number}.")
        return board.rows[number - 1]

    def _apply(self, move: FirstDraftMove) -> dict[str, Any]:
        board = self.table.boards[move.player]
        if isinstance(move, Sell):
            return self._sell(move, board)
        if isinstance(move, DiscardRow):
            return self._discard(move, board)
        if isinstance(move, ChooseCoaster):
            return self._choose(move, board)
        if isinstance(move, Place):
            return self._place(move, board)
        raise IllegalPlayError("bad-move", f"First Draft has no move like {move!r}.")

    def _before_coaster(self, move: FirstDraftMove) -> None:
        """Selling and discarding happen on one's own turn before choosing (or after the end)."""
        if self.table.over and isinstance(move, Sell):
            return
        self._own_turn(move)
        if self.table.in_hand is not None:
            raise IllegalPlayError("must-place", "a coaster has been chosen: its letters must be"
                                   " placed first.")

    def _sell(self, move: Sell, board: PlayerBoard) -> dict[str, Any]:
        self._before_coaster(move)
        row = self._row(board, move.row)
        if not row:
            raise IllegalPlayError("row-empty", f"row {move.row} is empty.")
        price = self.sale_price(row)
        if price is None:
            raise IllegalPlayError("not-a-word", f"row {move.row} ({row}) is not one word of"
                                   f" {self.rules.min_word} to {self.rules.row_length} letters.")
        board.rows[move.row - 1] = ""
        board.sold.append(row)
        board.coins += price
        self.table.bank -= price
        return {"sold": {"row": move.row, "word": row, "coins": price}}

    def _discard(self, move: DiscardRow, board: PlayerBoard) -> dict[str, Any]:
        self._before_coaster(move)
        row = self._row(board, move.row)
        if not row:
            raise IllegalPlayError("row-empty", f"row {move.row} is empty: nothing to discard.")
        board.rows[move.row - 1] = ""
        board.face_down += len(row)
        return {"discarded": {"row": move.row, "letters": row}}

    def _choose(self, move: ChooseCoaster, board: PlayerBoard) -> dict[str, Any]:
        self._before_coaster(move)
        line = self.table.line
        if not 1 <= move.position <= len(line):
            raise IllegalPlayError("no-such-coaster", f"the line has coasters 1 to {len(line)},"
                                   f" not {move.position}.")
        cost = move.position - 1
        if cost > board.coins:
            raise IllegalPlayError("cannot-afford", f"coaster {move.position} costs {cost}"
                                   f" coins and {move.player} has {board.coins}.")
        for passed in line[:cost]:
            passed.coins += 1
        board.coins -= cost
        chosen = line.pop(cost)
        board.coins += chosen.coins
        gained, chosen.coins = chosen.coins, 0
        self.table.in_hand = chosen
        return {"coaster": {"position": move.position, "number": chosen.number,
                            "letters": chosen.letters, "cost": cost, "coins_taken": gained}}

    def _place(self, move: Place, board: PlayerBoard) -> dict[str, Any]:
        table = self.table
        placing = table.in_hand is not None and move.player == self._mover
        if move.refill is not None and not placing:
            raise IllegalPlayError("not-placing", "a refill comes only with the placing that"
                                   " ends a turn.")
        available = Counter(board.pool)
        if placing:
            assert table.in_hand is not None
            available += Counter(table.in_hand.letters)
        added: Counter[str] = Counter()
        for number, (old, new) in enumerate(zip(board.rows, move.rows, strict=True), start=1):
            if not _is_subsequence(old, new):
                shown = new or "an empty row"
                raise IllegalPlayError("row-reordered", f"row {number} was {old}: letters in a"
                                       " row stay in order and are never removed, so"
                                       f" {shown} cannot follow it.")
            added += Counter(new) - Counter(old)
        from_nowhere = added - available
        if from_nowhere:
            source = "the pool or the chosen coaster" if placing else "the pool"
            raise IllegalPlayError("letters-mismatch", f"{_sorted(from_nowhere)} did not come"
                                   f" from {source}.")
        left = available - added
        face_down = Counter(move.face_down)
        if move.pool is None:
            if face_down - left:
                raise IllegalPlayError("letters-mismatch", f"{_sorted(face_down - left)} cannot"
                                       " be discarded: no such letter is left to place.")
            pool = left - face_down
        else:
            pool = Counter(move.pool)
            if pool + face_down != left:
                raise IllegalPlayError("letters-mismatch", "every letter must go into a row or"
                                       f" the pool: {_sorted(left)} are left, but the pool and"
                                       f" the discards hold {_sorted(pool + face_down)}.")
        if not placing:
            new_to_pool = pool - Counter(board.pool)
            if new_to_pool or face_down:
                raise IllegalPlayError("letters-mismatch", "outside placing a coaster, letters"
                                       " only move from the pool into rows.")
        for number, row in enumerate(move.rows, start=1):
            if len(row) > self.rules.row_length:
                raise IllegalPlayError("row-full", f"row {number} would hold {len(row)} letters;"
                                       f" a row holds at most {self.rules.row_length}.")
        pool_size = sum(pool.values())
        if pool_size > self.rules.pool_size:
            raise IllegalPlayError("pool-full", f"the pool would hold {pool_size} letters; discard"
                                   f" down to {self.rules.pool_size}.")
        if face_down and pool_size < self.rules.pool_size:
            raise IllegalPlayError("needless-discard", "letters are discarded from the pool only"
                                   f" to bring it down to {self.rules.pool_size}.")
        board.rows = list(move.rows)
        board.pool = _sorted(pool)
        board.face_down += len(move.face_down)
        effects: dict[str, Any] = {"rows": list(board.rows), "pool": board.pool,
                                   "face_down": _sorted(face_down)}
        if placing:
            effects["refill"] = self._upkeep(move.refill).to_json()
            effects["game_over"] = table.over
        return effects


__all__ = [
    "COASTERS",
    "REASONS",
    "ChooseCoaster",
    "DiscardRow",
    "FirstDraftGame",
    "DraftVerdict",
    "FirstDraftMove",
    "FirstDraftRules",
    "Place",
    "Refill",
    "Sell",
    "move_from_json",
]
