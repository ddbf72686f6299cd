"""How fast the referee judges, infers and loads its word list (``python -m bench.bench_referee``).

Figures are medians over repeats, and each speed is also given as a ratio against a baseline
measured in the same run (a bare word-list lookup loop; a read-and-split of the list file), so a
busy machine shifts both and the ratio stays comparable between runs.

* plays judged per second: ``Game.check`` over a fixed mix of legal and illegal plays (random
  words at random cells, which are nearly all illegal, plus legal plays found by search), for
  scrabble and archipelago; ``judge`` + ``pop`` of the legal ones (apply and undo);
* islands moves judged per second (a hexhex board of side 7, four players, frozen
  irrelevance on): ``check`` of random placements (legal and not) in a half-full position,
  ``judge`` + ``pop`` of the legal ones, and whole seeded random games judged move by move;
* snapshot inference: ``check`` of a whole-board snapshot against ``check`` of the same play;
* word list: cold loads in fresh interpreters (load time only, interpreter start excluded),
  in-process reloads, and memory (tracemalloc retained and peak, RSS growth).
"""

from __future__ import annotations

import bisect
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.boardtext import Tile
from referee.cells import SIZE, Cell, Direction
from referee.game import Game, new_game
from referee.islands import IslandsGame, PlaceStones
from referee.moves import Play, Snapshot
from referee.wordlist import _built_in, load_word_list

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 7
SEED = 2024


def median_seconds(action: Callable[[], Any], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# -- positions --------------------------------------------------------------------------------

def scrabble_position() -> Game:
    game = new_game("scrabble", [{"name": "Ann"}, {"name": "Bo"}])
    for notation, player in (("8H HORN", "Ann"), ("I5 FARO", "Bo"), ("9K OX", "Ann")):
        game.push(Play.from_notation(player, notation))
    return game  # Bo to move


def archipelago_position() -> Game:
    spec = json.loads((ROOT / "samples" / "games" / "archipelago-three-seats.json")
                      .read_text(encoding="utf-8"))
    return new_game("archipelago", spec["players"], spec.get("options"), spec.get("position"))


def candidate_plays(game: Game, count: int, legal_wanted: int) -> tuple[list[Play], int]:
    """A seeded mix: random plays (mostly illegal, every reason) plus legal ones found by search."""
    rng = random.Random(SEED)
    mover = game.to_move
    assert mover is not None
    words = [w for w in load_word_list("enable") if 2 <= len(w) <= 6]
    words.sort()
    plays = [Play(mover.id, rng.choice(words), Cell(rng.randrange(SIZE), rng.randrange(SIZE)),
                  rng.choice(list(Direction))) for _ in range(count)]
    legal: list[Play] = []
    short = [w for w in words if len(w) <= 3]
    rng.shuffle(short)
    cells = [Cell(c, r) for c in range(SIZE) for r in range(SIZE)]
    for word in short:
        for cell in cells:
            for direction in Direction:
                play = Play(mover.id, word, cell, direction)
                if game.is_legal(play):
                    legal.append(play)
                    break
            if len(legal) >= legal_wanted or legal and legal[-1].word == word:
                break
        if len(legal) >= legal_wanted:
            break
    mix = plays + legal
    legal_count = sum(game.is_legal(play) for play in mix)
    return mix, legal_count


# -- measurements -----------------------------------------------------------------------------

def lookup_rate(words: list[str]) -> float:
    enable = load_word_list("enable")

    def loop() -> None:
        for word in words:
            _ = word in enable

    return len(words) / median_seconds(loop)


def judging_rows(name: str, game: Game, baseline_rate: float) -> list[tuple[str, str, str]]:
    plays, legal = candidate_plays(game, 2000, 40)

    def check_all() -> None:
        for play in plays:
            game.is_legal(play)

    rate = len(plays) / median_seconds(check_all)
    legal_plays = [play for play in plays if game.is_legal(play)]

    def apply_and_undo() -> None:
        for play in legal_plays:
            game.judge(play)
            game.pop()

    apply_rate = len(legal_plays) / median_seconds(apply_and_undo)
    return [
        (f"{name}: plays checked ({legal} legal of {len(plays)})", f"{rate:,.0f} /s",
         f"1 check = {baseline_rate / rate:.0f} lookups"),
        (f"{name}: legal plays judged + undone", f"{apply_rate:,.0f} /s",
         f"1 judge+pop = {baseline_rate / apply_rate:.0f} lookups"),
    ]


ISLANDS_PLAYERS = [{"name": name} for name in ("Ann", "Bo", "Cy", "Di")]  # red .. yellow


def random_islands_move(game: IslandsGame, rng: random.Random, legal: bool) -> PlaceStones:
    """Stones of random colours on random empty cells; ``legal=False`` may break any rule."""
    mover = game.to_move
    assert mover is not None and game.allowed is not None
    cells = game.stones.empty_cells() if legal else list(game.grid)
    count = rng.randint(1, min(game.allowed if legal else game.allowed + 2, len(cells)))
    colours = "RBGY" if legal else "RBGYW"
    return PlaceStones(mover.id, tuple((cell, rng.choice(colours))
                                       for cell in rng.sample(cells, count)))


def islands_game_played(turns: int, seed: int = SEED) -> IslandsGame:
    game = new_game("islands", ISLANDS_PLAYERS, {"size": 7})
    assert isinstance(game, IslandsGame)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            break
        game.push(random_islands_move(game, rng, legal=True))
    return game


def islands_rows(baseline_rate: float) -> list[tuple[str, str, str]]:
    game = islands_game_played(30)
    rng = random.Random(SEED)
    moves = [random_islands_move(game, rng, legal=index % 2 == 0) for index in range(400)]
    legal = [move for move in moves if game.is_legal(move)]

    def check_all() -> None:
        for move in moves:
            game.is_legal(move)

    def judge_and_pop() -> None:
        for move in legal:
            game.judge(move)
            game.pop()

    check_rate = len(moves) / median_seconds(check_all)
    apply_rate = len(legal) / median_seconds(judge_and_pop)
    started = time.perf_counter()
    judged = sum(len(islands_game_played(10_000, seed).history) for seed in range(5))
    whole_rate = judged / (time.perf_counter() - started)
    return [
        (f"islands: moves checked ({len(legal)} legal of {len(moves)}, "
         f"{len(game.stones)} stones down)", f"{check_rate:,.0f} /s",
         f"1 check = {baseline_rate / check_rate:.0f} lookups"),
        ("islands: legal moves judged + undone", f"{apply_rate:,.0f} /s",
         f"1 judge+pop = {baseline_rate / apply_rate:.0f} lookups"),
        (f"islands: 5 random games judged whole ({judged} moves)", f"{whole_rate:,.0f} /s",
         "side 7, four players, frozen irrelevance on"),
    ]


def snapshot_rows() -> list[tuple[str, str, str]]:
    game = scrabble_position()
    play = Play.from_notation("Bo", "H8 HAIRNETS")
    after = dict(game.board.tiles)
    for row, letter in zip(range(9, 16), "AIRNETS", strict=True):
        after[Cell.parse(f"H{row}")] = Tile(letter)
    snapshot = Snapshot("Bo", after)
    assert game.is_legal(snapshot) and game.is_legal(play)

    def check_many(move: Snapshot | Play, times: int = 200) -> None:
        for _ in range(times):
            game.check(move)

    per_snapshot = median_seconds(lambda: check_many(snapshot)) / 200
    per_play = median_seconds(lambda: check_many(play)) / 200
    blank = dict(after)
    blank[Cell.parse("H15")] = Tile("?")  # an undesignated blank: every letter is tried

    def with_blank() -> None:
        try:
            game.check(Snapshot("Bo", blank))
        except ValueError:
            pass

    def blank_many(times: int = 20) -> None:
        for _ in range(times):
            with_blank()

    per_blank = median_seconds(blank_many) / 20
    return [
        ("scrabble: snapshot inferred + checked", f"{per_snapshot * 1e6:,.0f} µs",
         f"{per_snapshot / per_play:.1f}x the same play"),
        ("scrabble: snapshot with an undesignated blank", f"{per_blank * 1e3:,.1f} ms",
         f"{per_blank / per_play:.0f}x the same play"),
    ]


COLD_LOAD = """
import time
started = time.perf_counter()
from referee.wordlist import load_word_list
imported = time.perf_counter()
words = load_word_list("enable")
loaded = time.perf_counter()
statm = open("/proc/self/statm").read().split()
print(loaded - imported, len(words), statm[1], imported - started)
"""

BARE_INTERPRETER = """
import referee.wordlist
print(open("/proc/self/statm").read().split()[1])
"""


def word_list_rows() -> list[tuple[str, str, str]]:
    import resource

    page = resource.getpagesize()
    cold, rss_loaded, imports = [], [], []
    for _ in range(REPEATS):
        out = subprocess.run([sys.executable, "-c", COLD_LOAD], capture_output=True, text=True,
                             cwd=ROOT, check=True).stdout.split()
        cold.append(float(out[0]))
        rss_loaded.append(int(out[2]) * page)
        imports.append(float(out[3]))
    rss_bare = [int(subprocess.run([sys.executable, "-c", BARE_INTERPRETER], capture_output=True,
                                   text=True, cwd=ROOT, check=True).stdout) * page
                for _ in range(3)]
    path = ROOT / "referee" / "data" / "enable.txt"
    read_split = median_seconds(lambda: path.read_text(encoding="ascii").split())

    reloads = []
    for _ in range(REPEATS):
        _built_in.cache_clear()  # the old list is freed here, outside the timing
        started = time.perf_counter()
        load_word_list("enable")
        reloads.append(time.perf_counter() - started)
    warm = statistics.median(reloads)
    _built_in.cache_clear()
    tracemalloc.start()
    load_word_list("enable")
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    cached = median_seconds(lambda: load_word_list("enable"), 101)
    # The alternative considered: ENABLE's file is sorted, so a sorted list with bisect needs
    # no set building at load time, at the price of slower lookups.
    sorted_words: list[str] = []

    def load_sorted() -> None:
        sorted_words[:] = path.read_text(encoding="ascii").upper().split()

    sorted_load = median_seconds(load_sorted)
    probes = sorted(load_word_list("enable"))[::50] * 5

    def bisect_loop() -> None:
        for word in probes:
            index = bisect.bisect_left(sorted_words, word)
            _ = index < len(sorted_words) and sorted_words[index] == word

    enable = load_word_list("enable")
    set_lookup = median_seconds(lambda: [word in enable for word in probes])
    bisect_lookup = median_seconds(bisect_loop)
    mib = 1024 * 1024
    return [
        ("word list: cold load (fresh interpreter)", f"{statistics.median(cold) * 1e3:.0f} ms",
         f"{statistics.median(cold) / read_split:.1f}x read+split; budget 150 ms"),
        ("  (importing the referee package first)", f"{statistics.median(imports) * 1e3:.0f} ms",
         "not part of the load: every referee user pays it"),
        ("word list: reload in process", f"{warm * 1e3:.0f} ms",
         f"{warm / read_split:.1f}x read+split ({read_split * 1e3:.0f} ms)"),
        ("word list: cached load_word_list()", f"{cached * 1e6:.1f} µs", ""),
        ("  alternative: sorted list + bisect, load", f"{sorted_load * 1e3:.0f} ms",
         f"lookups {bisect_lookup / set_lookup:.1f}x slower than the frozenset"),
        ("word list: memory (tracemalloc)", f"{retained / mib:.1f} MiB",
         f"peak {peak / mib:.1f} MiB while loading"),
        ("word list: RSS growth in a fresh interpreter",
         f"{(statistics.median(rss_loaded) - statistics.median(rss_bare)) / mib:.1f} MiB", ""),
    ]


def print_table(rows: list[tuple[str, str, str]]) -> None:
    width = max(len(row[0]) for row in rows)
    value_width = max(len(row[1]) for row in rows)
    print(f"{'measure':<{width}}  {'median':>{value_width}}  ratio / note")
    print("-" * (width + value_width + 40))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>{value_width}}  {note}")


def main() -> int:
    words = sorted(load_word_list("enable"))[::50]
    baseline = lookup_rate(words * 5)
    rows = [("baseline: bare word-list lookups", f"{baseline:,.0f} /s", "")]
    rows += judging_rows("scrabble", scrabble_position(), baseline)
    rows += judging_rows("archipelago", archipelago_position(), baseline)
    rows += islands_rows(baseline)
    rows += snapshot_rows()
    rows += word_list_rows()
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
