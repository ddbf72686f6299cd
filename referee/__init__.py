"""The rules engine: cells and seats, board text, moves, games and their verdicts.

Pure Python on purpose (standard library only): the referee runs in the command line, the web
server and the tests without OpenCV or Flask, and a test checks that importing it loads neither.

    >>> from referee import new_game, Play, Cell, Direction
    >>> game = new_game("archipelago", [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}])
    >>> game.push(Play("S", "CAT", Cell.parse("G15"), Direction.ACROSS)).legal
    True
    >>> stones = new_game("islands", [{"name": "Ann"}, {"name": "Bo"}])  # red, blue
    >>> stones.push(PlaceStones.from_notation("Ann", "d4 R")).to_json()["allowed"]
    1
"""

from __future__ import annotations

from referee.archipelago import ArchipelagoGame
from referee.board import Board, Problem, run_through
from referee.boardtext import (
    BoardTextError,
    Tile,
    format_board_text,
    parse_board_text,
    rotate_tiles,
)
from referee.cells import CENTRE, SIZE, Cell, Direction, Seat, cell_name, parse_cell
from referee.colonization import Agree, ColonizationGame, EnglishTurn, NameLanguage, Transform
from referee.errors import EXTENSION_REASONS, PRECEDENCE, REASONS, IllegalPlayError, SetupError
from referee.firstdraft import ChooseCoaster, DiscardRow, FirstDraftGame, Place, Refill, Sell
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
from referee.gcg import GcgError, read_gcg, write_gcg
from referee.hexboard import PALETTE, HexBoard, HexBoardTextError, HexCell, HexGrid, hex_grid
from referee.islands import IslandsGame, IslandsPlayer, PlaceStones, StonesSnapshot
from referee.layouts import Layout, Premium, load_layout
from referee.moves import Exchange, Move, Pass, Play, Snapshot, move_from_json
from referee.randomness import DrawLog
from referee.scoring import score_play, score_word
from referee.scrabble import ScrabbleGame
from referee.tiles import TileSet, load_tile_set
from referee.wordlist import WordList, WordListError, load_word_list

__all__ = [
    "CENTRE",
    "PALETTE",
    "EXTENSION_REASONS",
    "PRECEDENCE",
    "REASONS",
    "RULESETS",
    "SIZE",
    "Agree",
    "ArchipelagoGame",
    "Board",
    "BoardTextError",
    "CapturedWord",
    "Cell",
    "ChooseCoaster",
    "ColonizationGame",
    "Direction",
    "DiscardRow",
    "DrawLog",
    "EnglishTurn",
    "Exchange",
    "FirstDraftGame",
    "FormedWord",
    "Game",
    "GameFileError",
    "GcgError",
    "HexBoard",
    "HexBoardTextError",
    "HexCell",
    "HexGrid",
    "IllegalPlayError",
    "IslandsGame",
    "IslandsPlayer",
    "Layout",
    "Move",
    "NameLanguage",
    "Pass",
    "Place",
    "PlaceStones",
    "Play",
    "Player",
    "Premium",
    "Problem",
    "Refill",
    "ScrabbleGame",
    "Seat",
    "Sell",
    "SetupError",
    "Snapshot",
    "StonesSnapshot",
    "Tile",
    "TileSet",
    "Transform",
    "Verdict",
    "WordList",
    "WordListError",
    "cell_name",
    "find_ruleset",
    "format_board_text",
    "hex_grid",
    "judge_spec",
    "known_rulesets",
    "load_game_file",
    "load_layout",
    "load_tile_set",
    "load_word_list",
    "move_from_json",
    "new_game",
    "parse_board_text",
    "parse_cell",
    "read_gcg",
    "register_ruleset",
    "rotate_tiles",
    "run_through",
    "score_play",
    "score_word",
    "write_gcg",
]
