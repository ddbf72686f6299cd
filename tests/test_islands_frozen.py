"""Frozen irrelevance is sound: every player the referee freezes really cannot change rank.

RULES.md §5 asks for bounds checked against exhaustive search on small boards. Here the search
is written afresh from the rules, sharing nothing with the referee but the board type: the
neighbours come from the drawing (tests/test_hexboard.py), islands are counted by a plain flood
fill, and the bonus track follows RULES.md's words. From a position it visits every board that
adds stones to it, reached in turns of any number of stones of any colours (more freedom than
the real game gives, so a rank that survives it survives the game), and every bonus the track
can give on the way, and collects each player's rank everywhere.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from referee.game import new_game
from referee.hexboard import HexBoard, hex_grid
from referee.islands import IslandsGame, PlaceStones
from referee.moves import Pass
from tests.support.hexboard import drawn_neighbours

pytestmark = pytest.mark.slow

COLOURS = "RBGY"


@cache
def adjacency(size: int) -> tuple[tuple[int, ...], ...]:
    names = [cell.name for cell in hex_grid(size)]
    drawn = drawn_neighbours(size)
    return tuple(tuple(names.index(other) for other in drawn[name]) for name in names)


def count_islands(colours: tuple[str | None, ...], colour: str, size: int) -> int:
    neighbours = adjacency(size)
    seen: set[int] = set()
    islands = 0
    for start, stone in enumerate(colours):
        if stone != colour or start in seen:
            continue
        seen.add(start)
        group, frontier = 1, [start]
        while frontier:
            for other in neighbours[frontier.pop()]:
                if colours[other] == colour and other not in seen:
                    seen.add(other)
                    group += 1
                    frontier.append(other)
        islands += group >= 2
    return islands


def after_turn(reached, bonus, counts):
    """RULES.md §5's track: whoever first reaches a count k earns (players) at k, the next one
    less; arriving on the same turn shares the place; a count is earned once."""
    players = len(counts)
    bonus = list(bonus)
    for player in range(players):
        for k in range(reached[player] + 1, counts[player] + 1):
            before = sum(reached[other] >= k for other in range(players) if other != player)
            bonus[player] += players - before
    return tuple(max(pair) for pair in zip(reached, counts, strict=True)), tuple(bonus)


def rank_of(player, counts, bonus):
    mine = (counts[player], bonus[player])
    return 1 + sum((counts[other], bonus[other]) > mine for other in range(len(counts)))


def future_ranks(board: HexBoard, colours: str, reached, bonus) -> list[set[int]]:
    """Every rank each player holds on the way to any future of ``board``."""
    size = board.size

    @cache
    def counts_of(stones: tuple[str | None, ...]) -> tuple[int, ...]:
        return tuple(count_islands(stones, colour, size) for colour in colours)

    start = (board.colours, tuple(reached), tuple(bonus))
    seen = {start}
    frontier = [start]
    ranks: list[set[int]] = [set() for _ in colours]
    while frontier:
        stones, reached_now, bonus_now = frontier.pop()
        counts = counts_of(stones)
        for player in range(len(colours)):
            ranks[player].add(rank_of(player, counts, bonus_now))
        empty = [index for index, stone in enumerate(stones) if stone is None]
        for choice in itertools.product((None, *colours), repeat=len(empty)):
            if not any(choice):
                continue
            after = list(stones)
            for index, colour in zip(empty, choice, strict=True):
                after[index] = colour
            following = tuple(after)
            state = (following, *after_turn(reached_now, bonus_now, counts_of(following)))
            if state not in seen:
                seen.add(state)
                frontier.append(state)
    return ranks


def random_position(rng: random.Random, players: int, empty: int) -> tuple[str, dict]:
    grid = hex_grid(3)
    cells = list(range(len(grid)))
    rng.shuffle(cells)
    colours = [None] * len(grid)
    for index in cells[empty:]:
        colours[index] = rng.choice(COLOURS[:players])
    board = HexBoard(grid, tuple(colours))
    bonus = {colour: rng.randint(0, 6) for colour in COLOURS[:players]}
    return board.text(), bonus


def islands_game(players: int, position: dict | None = None) -> IslandsGame:
    game = new_game("islands", [{"name": f"P{colour}", "colour": colour}
                                for colour in COLOURS[:players]], {"size": 3}, position)
    assert isinstance(game, IslandsGame)
    return game


def test_every_player_frozen_in_a_random_position_has_one_possible_rank():
    frozen = fixed = 0
    rng = random.Random(5)
    for trial in range(160):
        players = 3 + trial % 2
        text, bonus = random_position(rng, players, rng.randint(0, 5 if players == 3 else 4))
        game = islands_game(players, {"board": text, "bonus": bonus})
        track = game.position.track
        possible = future_ranks(game.position.board, COLOURS[:players], track.reached,
                                track.bonus)
        now = game.ranks()
        for index, player in enumerate(game.players):
            if player.id in game.position.frozen:
                frozen += 1
                assert possible[index] == {now[player.id]}, (text, bonus, player.id, possible)
            fixed += len(possible[index]) == 1
    assert frozen > 0  # the bounds do freeze players, not only never wrongly
    assert frozen >= fixed // 2, (frozen, fixed)  # and not only a few of those they could


def random_turn(game: IslandsGame, rng: random.Random):
    mover = game.to_move
    assert mover is not None
    empty = game.stones.empty_cells()
    if rng.random() < 0.08:
        return Pass(mover.id)
    count = rng.randint(1, min(game.allowed or 1, len(empty)))
    colours = list(game.colours.values())
    return PlaceStones(mover.id, tuple((cell, rng.choice(colours))
                                       for cell in rng.sample(empty, count)))


def test_players_frozen_during_random_games_keep_their_rank_in_every_future():
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = islands_game(3 + seed % 2)
        frozen_rank: dict[str, int] = {}
        while not game.is_over:
            verdict = game.push(random_turn(game, rng))
            position = game.position
            colours = "".join(game.colours.values())
            if verdict.to_json()["frozen"] and len(position.board.empty_cells()) <= 5:
                possible = future_ranks(position.board, colours,
                                        position.track.reached, position.track.bonus)
                now = game.ranks()
                for index, player in enumerate(game.players):
                    if player.id in position.frozen:
                        assert possible[index] == {now[player.id]}, (seed, player.id)
                        checked += 1
            for name in position.frozen:
                frozen_rank.setdefault(name, game.ranks()[name])
        final = game.ranks()
        assert all(final[name] == rank for name, rank in frozen_rank.items()), seed
    assert checked > 0
