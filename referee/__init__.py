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

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker and a reader see; at run time, loaded when first used
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

_HOMES = {name: module for module, names in {
    "referee.archipelago": ("ArchipelagoGame",),
    "referee.board": ("Board", "Problem", "run_through"),
    "referee.boardtext": (
        "BoardTextError", "Tile", "format_board_text", "parse_board_text", "rotate_tiles",
    ),
    "referee.cells": ("CENTRE", "SIZE", "Cell", "Direction", "Seat", "cell_name", "parse_cell"),
    "referee.colonization": (
        "Agree", "ColonizationGame", "EnglishTurn", "NameLanguage", "Transform",
    ),
    "referee.errors": (
        "EXTENSION_REASONS", "PRECEDENCE", "REASONS", "IllegalPlayError", "SetupError",
    ),
    "referee.firstdraft": (
        "ChooseCoaster", "DiscardRow", "FirstDraftGame", "Place", "Refill", "Sell",
    ),
    "referee.game": (
        "RULESETS", "CapturedWord", "FormedWord", "Game", "Player", "Verdict", "find_ruleset",
        "known_rulesets", "new_game", "register_ruleset",
    ),
    "referee.gamefile": ("GameFileError", "judge_spec", "load_game_file"),
    "referee.gcg": ("GcgError", "read_gcg", "write_gcg"),
    "referee.hexboard": (
        "PALETTE", "HexBoard", "HexBoardTextError", "HexCell", "HexGrid", "hex_grid",
    ),
    "referee.islands": ("IslandsGame", "IslandsPlayer", "PlaceStones", "StonesSnapshot"),
    "referee.layouts": ("Layout", "Premium", "load_layout"),
    "referee.moves": ("Exchange", "Move", "Pass", "Play", "Snapshot", "move_from_json"),
    "referee.randomness": ("DrawLog",),
    "referee.scoring": ("score_play", "score_word"),
    "referee.scrabble": ("ScrabbleGame",),
    "referee.tiles": ("TileSet", "load_tile_set"),
    "referee.wordlist": ("WordList", "WordListError", "load_word_list"),
}.items() for name in names}
"""Where each public name lives. A name is imported from its module when first asked for
(PEP 562), so ``from referee.cells import Cell`` loads no ruleset: the reader of a photo, which
needs cells and tiles only, was paying for all five rulesets at each ``tileref read``
(``python -X importtime``: ``referee`` 247 ms of the process's imports, its cells 2 ms).
:data:`RULESETS` holds the rulesets loaded so far: :func:`find_ruleset` and
:func:`known_rulesets` load them by name."""


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


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
