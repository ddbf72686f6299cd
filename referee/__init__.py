"""The rules engine: cells and seats, board text, moves, games and their verdicts.

Pure Python on purpose (standard library only): the referee runs in the command line, the web
server and the tests without OpenCV or Flask, and a test checks that importing it loads neither.

    >>> from referee import new_game, Play, Cell, Direction
    >>> game = new_game("archipelago", [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}])
    >>> game.push(Play("S", "CAT", Cell.parse("G15"), Direction.ACROSS)).legal
    True
"""

from __future__ import annotations

from referee.archipelago import ArchipelagoGame  # noqa: E402,I001  (registers "archipelago")
from referee.board import Board, Problem, run_through
from referee.boardtext import (
    BoardTextError,
    Tile,
    format_board_text,
    parse_board_text,
    rotate_tiles,
)
from referee.cells import CENTRE, SIZE, Cell, Direction, Seat, cell_name, parse_cell
from referee.errors import EXTENSION_REASONS, PRECEDENCE, REASONS, IllegalPlayError, SetupError
from referee.game import (
    RULESETS,
    CapturedWord,
    FormedWord,
    Game,
    Player,
    Verdict,
    find_ruleset,
    known_rulesets,
    new_game,
    register_ruleset,
)
from referee.gamefile import GameFileError, judge_spec, load_game_file
from referee.moves import Exchange, Move, Pass, Play, Snapshot, move_from_json
from referee.tiles import TileSet, load_tile_set

__all__ = [
    "CENTRE",
    "EXTENSION_REASONS",
    "PRECEDENCE",
    "REASONS",
    "RULESETS",
    "SIZE",
    "ArchipelagoGame",
    "Board",
    "BoardTextError",
    "CapturedWord",
    "Cell",
    "Direction",
    "Exchange",
    "FormedWord",
    "GameFileError",
    "Game",
    "IllegalPlayError",
    "Move",
    "Pass",
    "Play",
    "Player",
    "Problem",
    "Seat",
    "SetupError",
    "Snapshot",
    "Tile",
    "TileSet",
    "Verdict",
    "cell_name",
    "find_ruleset",
    "format_board_text",
    "judge_spec",
    "known_rulesets",
    "load_game_file",
    "load_tile_set",
    "move_from_json",
    "new_game",
    "parse_board_text",
    "parse_cell",
    "register_ruleset",
    "rotate_tiles",
    "run_through",
]

# The scrabble helper's modules (word lists, layouts, scoring, the scrabble ruleset) join the
# public API as they land; until then the names above are the whole referee.
try:
    from referee.wordlist import WordList, WordListError, load_word_list  # noqa: F401

    __all__ += ["WordList", "WordListError", "load_word_list"]
except ModuleNotFoundError as _missing:  # pragma: no cover - transitional
    if _missing.name != "referee.wordlist":
        raise
try:
    from referee.layouts import Layout, Premium, load_layout  # noqa: F401

    __all__ += ["Layout", "Premium", "load_layout"]
except ModuleNotFoundError as _missing:  # pragma: no cover - transitional
    if _missing.name != "referee.layouts":
        raise
try:
    from referee.scoring import score_play, score_word  # noqa: F401

    __all__ += ["score_play", "score_word"]
except ModuleNotFoundError as _missing:  # pragma: no cover - transitional
    if _missing.name != "referee.scoring":
        raise
try:
    from referee.scrabble import ScrabbleGame  # noqa: F401

    __all__ += ["ScrabbleGame"]
except ModuleNotFoundError as _missing:  # pragma: no cover - transitional
    if _missing.name != "referee.scrabble":
        raise
