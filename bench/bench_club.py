"""A club night on one machine: fifty tables, fifty cameras, one server (issue 35).

Starts the real server as ``make run`` does (``tileref serve``, here on a loopback port and a
fresh instance folder), creates one game per table with the board's corners set once (as a
calibration profile or a drag on the live page does: the board search is skipped), and plays
every table for a minute: one camera frame a second each, posted on one kept-alive connection as
the live page posts them (the next frame once the last is answered). Most frames repeat, as a
still camera's do: the same rendered board with fresh sensor noise each time, so no two frames
are the same bytes. Every table's board changes every 4 to 8 seconds (a tile played), at its own
phase.

Printed: frames answered (of those due in the minute), answers ``skipped``, latency p50, p95
and p99 (upload to answer), the time from a board's change to the frame answer carrying its
verdict, and the server's memory (resident now and peak, every process together). Then:

- the same load with ``--idle-sse`` (300) idle event streams open, as screens left on a page;
- the saturation points: more tables (fewer, when a criterion was missed), 20 s each, until the
  frames' p95 passes 1 s (or comes under it), and until fewer than half of the board changes are
  judged (frames answered ``skipped`` are quick but read nothing: the referee falls behind
  before the answers slow down);
- the database's write rate: moves acknowledged a second, four clients per process posting as
  fast as they are answered (each move an event committed with fsync).

Goals: >= 99 % of frames answered, p95 <= 1 s, memory <= 1.5 GB. ``--processes N`` serves the
tables from N server processes on one instance folder (one SQLite WAL database; each table
talks to one of them, as docs/deploy.md says), for the multi-process figures.

``python -m bench club [--tables 50] [--seconds 60] [--processes 1] [--no-saturation]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1280, 960
VARIANTS = 3            # noisy copies of each position, cycled: no two frames the same bytes
CHANGE_EVERY = (4.0, 8.0)
SETTLE_S = 1.0
"""How long a table's board stands still before its play is judged (``options.settle_s``):
shorter than the plays' spacing, so each play can be judged before the next is laid."""
GOALS = {"answered": 0.99, "p95": 1.0, "memory_mb": 1536}

# Positions one after another: tiles added on South's and North's home rows.
PLAYS: list[dict[str, str]] = [
    {"G15": "C^", "H15": "A^", "I15": "T^"},
    {"I1": "Dv", "H1": "Ov", "G1": "Gv"},
    {"J15": "S^"},
    {"F1": "Sv"},
    {"F15": "B^"},
    {"J1": "Av"},
    {"K15": "H^"},
    {"E1": "Av"},
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def render_positions() -> tuple[list[list[bytes]], list[list[float]]]:
    """Each position as VARIANTS JPEGs (fresh sensor noise each), and the board's corners."""
    import cv2
    import numpy as np

    from lab.render import RenderOptions, render_board_photo
    from referee.boardtext import Tile
    from referee.cells import Cell

    rng = np.random.default_rng(7)
    positions, tiles = [], {}
    photo = None
    empty: dict[str, str] = {}
    for play in [empty, *PLAYS]:
        tiles.update({Cell.parse(c): Tile.parse(t) for c, t in play.items()})
        photo = render_board_photo(dict(tiles), seed=11, width=WIDTH, height=HEIGHT,
                                   options=RenderOptions(tilt=15.0, noise=0.8,
                                                         board_style="modern"))
        variants = []
        for _ in range(VARIANTS):
            noisy = np.clip(photo.image + rng.normal(0, 3, photo.image.shape), 0, 255)
            ok, data = cv2.imencode(".jpg", noisy.astype(np.uint8),
                                    [cv2.IMWRITE_JPEG_QUALITY, 88])
            variants.append(data.tobytes())
        positions.append(variants)
    assert photo is not None
    return positions, [[float(x), float(y)] for x, y in photo.corners]


class Servers:
    """``tileref serve`` processes on one instance folder, as ``make run`` starts one."""

    def __init__(self, count: int, instance: str) -> None:
        from bench.bench_webui import start_server

        self.ports = [free_port() for _ in range(count)]
        self.processes = [start_server(instance, port) for port in self.ports]

    def memory_mb(self) -> tuple[float, float]:
        """Resident memory now and at its peak, every process together (MB)."""
        now = peak = 0
        for process in self.processes:
            fields = dict(line.split(":", 1) for line in
                          Path(f"/proc/{process.pid}/status").read_text().splitlines())
            now += int(fields["VmRSS"].split()[0])
            peak += int(fields["VmHWM"].split()[0])
        return now / 1024, peak / 1024

    def stop(self) -> None:
        from bench.bench_webui import stop

        for process in self.processes:
            stop(process)


def device_address(table: int) -> str:
    """The loopback address table ``table``'s devices speak from: each table of a club is its
    own phone or laptop, so the server's per-address quotas (120 new games, for one) count
    each table apart, as they would on the club's wifi (all of 127/8 is this machine)."""
    return f"127.0.{1 + table // 250}.{2 + table % 250}"


def call(port: int, method: str, path: str, body: Any = None, token: str | None = None,
         source: str = "127.0.0.1") -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                            source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = json.loads(response.read())
    connection.close()
    if response.status >= 400:
        raise RuntimeError(f"{method} {path}: {response.status} {data}")
    return data


@dataclass
class TableResult:
    due: int = 0
    answered: int = 0
    skipped: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    to_verdict: list[float] = field(default_factory=list)
    changes: int = 0


class Table(threading.Thread):
    """One table's camera: a frame a second, on one connection, the next once answered."""

    def __init__(self, port: int, game: dict[str, str], positions: list[list[bytes]],
                 start: float, seconds: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.port, self.game, self.positions = port, game, positions
        self.start_at, self.seconds = start, seconds
        self.source = (device_address(seed), 0)   # the table's phone
        rng = random.Random(seed)
        self.phase = rng.uniform(0, 1.0)
        self.changes: list[float] = []       # when the board changes, seconds into the run
        at = rng.uniform(*CHANGE_EVERY)
        while at < seconds:
            self.changes.append(at)
            at += rng.uniform(*CHANGE_EVERY)
        self.result = TableResult()

    def position_at(self, t: float) -> int:
        return min(sum(1 for change in self.changes if change <= t), len(self.positions) - 1)

    def run(self) -> None:
        path = f"/api/games/{self.game['id']}/frames"
        headers = {"Content-Type": "image/jpeg", "Authorization": f"Bearer {self.game['token']}"}
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                source_address=self.source)
        result = self.result
        result.due = int(self.seconds)
        waiting_verdict: float | None = None   # when the board changed, if not yet judged
        seen_position = 0
        for index in range(int(self.seconds)):
            due = self.start_at + self.phase + index
            now = time.perf_counter()
            if now < due:
                time.sleep(due - now)
            t = time.perf_counter() - self.start_at
            if t > self.seconds + 5:   # far behind: the minute is over for this table
                break
            position = self.position_at(t)
            if position != seen_position:
                seen_position = position
                result.changes += 1
                waiting_verdict = self.start_at + self.changes[position - 1]
            body = self.positions[position][index % VARIANTS]
            sent = time.perf_counter()
            try:
                connection.request("POST", path, body, headers)
                response = connection.getresponse()
                data = json.loads(response.read())
            except (OSError, http.client.HTTPException, ValueError):
                result.errors += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                source_address=self.source)
                continue
            answered = time.perf_counter()
            if response.status != 200:
                result.errors += 1
                continue
            result.answered += 1
            result.latencies.append(answered - sent)
            if data.get("skipped"):
                result.skipped += 1
            if data.get("verdict") is not None and waiting_verdict is not None:
                result.to_verdict.append(answered - waiting_verdict)
                waiting_verdict = None
        connection.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def open_idle_streams(ports: list[int], games: list[dict[str, str]],
                      count: int) -> list[socket.socket]:
    """``count`` screens left open on a game's page: event streams nobody reads."""
    streams = []
    for number in range(count):
        game = games[number % len(games)]
        port = ports[number % len(ports)] if game.get("port") is None else int(game["port"])
        # Each screen its own tablet, apart from the tables' phones.
        sock = socket.create_connection(("127.0.0.1", port), timeout=30,
                                        source_address=(device_address(len(games) + number), 0))
        sock.sendall(f"GET /api/games/{game['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        streams.append(sock)
    return streams


def play(servers: Servers, positions: list[list[bytes]], corners: list[list[float]],
         tables: int, seconds: float, idle_sse: int = 0) -> dict[str, Any]:
    """Create ``tables`` games (spread over the servers) and play them for ``seconds``."""
    games = []
    for number in range(tables):
        port = servers.ports[number % len(servers.ports)]
        # Hands-free tables (no one presses Done between the bench's plays): a play is judged
        # once the board has stood still SETTLE_S seconds, as a club's webcam tables would.
        game = call(port, "POST", "/api/games", {
            "ruleset": "archipelago", "players": [{"name": f"S{number}", "seat": "S"},
                                                  {"name": f"N{number}", "seat": "N"}],
            "options": {"commit": "auto", "settle_s": SETTLE_S}}, source=device_address(number))
        call(port, "POST", f"/api/games/{game['id']}/corners", {"corners": corners},
             game["token"])
        games.append(dict(game, port=str(port)))
    streams = open_idle_streams(servers.ports, games, idle_sse)
    start = time.perf_counter() + 1.0
    players = [Table(int(game["port"]), game, positions, start, seconds, seed)
               for seed, game in enumerate(games)]
    for player in players:
        player.start()
    for player in players:
        player.join(seconds + 120)
    memory_now, memory_peak = servers.memory_mb()
    for sock in streams:
        sock.close()
    latencies = [value for player in players for value in player.result.latencies]
    to_verdict = [value for player in players for value in player.result.to_verdict]
    due = sum(player.result.due for player in players)
    answered = sum(player.result.answered for player in players)
    return {
        "tables": tables, "idle_sse": idle_sse, "due": due, "answered": answered,
        "answered_share": answered / max(1, due),
        "skipped": sum(player.result.skipped for player in players),
        "errors": sum(player.result.errors for player in players),
        "p50": percentile(latencies, 0.50), "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "changes": sum(player.result.changes for player in players),
        "verdicts": len(to_verdict),
        "verdict_p50": percentile(to_verdict, 0.50),
        "verdict_p95": percentile(to_verdict, 0.95),
        "memory_mb": memory_now, "memory_peak_mb": memory_peak,
    }


def write_rate(servers: Servers, seconds: float = 10.0, writers: int = 4) -> float:
    """Moves acknowledged a second (each one an event committed with fsync), with ``writers``
    clients per server process posting moves as fast as they are answered, each into a game of
    its own: what the one SQLite WAL database takes with every process writing at once."""
    counts: list[int] = []
    start = time.perf_counter()

    def writer(port: int) -> None:
        game = call(port, "POST", "/api/games", {
            "ruleset": "archipelago", "players": [{"name": "Ann", "seat": "S"},
                                                  {"name": "Bo", "seat": "N"}]})
        move = {"player": "S", "word": "QXZ", "at": "K15", "dir": "across"}  # judged illegal
        done = 0
        while time.perf_counter() - start < seconds:
            call(port, "POST", f"/api/games/{game['id']}/moves", move, game["token"])
            done += 1
        counts.append(done)

    threads = [threading.Thread(target=writer, args=(port,)) for port in servers.ports
               for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - start)


def show(label: str, figures: dict[str, Any]) -> None:
    idle = f" + {figures['idle_sse']} idle screens" if figures["idle_sse"] else ""
    print(f"{label}: {figures['tables']} tables{idle}: "
          f"{figures['answered']}/{figures['due']} frames answered ("
          f"{100 * figures['answered_share']:.1f} %), {figures['skipped']} skipped, "
          f"{figures['errors']} errors; latency p50 {figures['p50']:.3f} s, "
          f"p95 {figures['p95']:.3f} s, p99 {figures['p99']:.3f} s; "
          f"{figures['verdicts']} of {figures['changes']} board changes judged, change to "
          f"verdict p50 {figures['verdict_p50']:.1f} s, p95 {figures['verdict_p95']:.1f} s; "
          f"server memory {figures['memory_mb']:.0f} MB (peak {figures['memory_peak_mb']:.0f})",
          flush=True)


def meets_goals(figures: dict[str, Any]) -> bool:
    return (figures["answered_share"] >= GOALS["answered"] and figures["p95"] <= GOALS["p95"]
            and figures["memory_peak_mb"] <= GOALS["memory_mb"])


def run_once(processes: int, positions: list[list[bytes]], corners: list[list[float]],
             tables: int, seconds: float, idle_sse: int = 0,
             writes: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as instance:
        servers = Servers(processes, instance)
        try:
            figures = play(servers, positions, corners, tables, seconds, idle_sse)
            if writes:
                figures["moves_per_s"] = write_rate(servers)
            return figures
        finally:
            servers.stop()


LADDER = (5, 10, 20, 35, 50, 75, 100, 150, 200, 300)

SATURATION: dict[str, Callable[[dict[str, Any]], bool]] = {
    # The server keeps answering: frames come back within the goals.
    "frames answered (p95 <= 1 s, >= 99 %)":
        lambda figures: figures["p95"] <= GOALS["p95"]
        and figures["answered_share"] >= GOALS["answered"],
    # The referee keeps up: a frame answered ``skipped`` is fast but reads nothing, so past
    # some load the answers stay quick while the plays wait. A 20 s step judges about 80 % of
    # its board changes at light load (the last change of a run has no time to settle).
    "plays judged (>= half of the board changes)":
        lambda figures: figures["verdicts"] >= 0.5 * figures["changes"],
}
"""What "still keeping up" means, each criterion's own saturation point."""


def saturation(processes: int, positions: list[list[bytes]], corners: list[list[float]],
               tables: int, first: dict[str, Any]) -> None:
    """Tables at which each :data:`SATURATION` criterion turns: up the ladder from ``tables``
    for those ``first`` (the run at ``tables``) met, down it for those it missed; 20 s a step,
    each step run once and judged on every criterion."""
    runs: dict[int, dict[str, Any]] = {tables: first}

    def run(count: int) -> dict[str, Any]:
        if count not in runs:
            runs[count] = run_once(processes, positions, corners, count, 20.0)
            show("saturation", runs[count])
        return runs[count]

    for name, holds in SATURATION.items():
        met = holds(first)
        steps = [n for n in LADDER if n > tables] if met else \
            [n for n in reversed(LADDER) if n < tables]
        last, found = tables, False
        for count in steps:
            if holds(run(count)) != met:
                low, high = (last, count) if met else (count, last)
                print(f"saturation point, {name}: between {low} and {high} tables",
                      flush=True)
                found = True
                break
            last = count
        if not found:
            print(f"saturation point, {name}: not between {LADDER[0]} and {LADDER[-1]} tables",
                  flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench club")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--idle-sse", type=int, default=300)
    parser.add_argument("--no-saturation", action="store_true")
    args = parser.parse_args(sys.argv[2:] if argv is None and sys.argv[1:2] == ["club"]
                             else argv if argv is not None else sys.argv[1:])
    print(f"load before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores", flush=True)
    positions, corners = render_positions()
    main_run = run_once(args.processes, positions, corners, args.tables, args.seconds,
                        writes=True)
    show(f"club night ({args.processes} process{'es' if args.processes > 1 else ''})",
         main_run)
    print(f"the database: {main_run['moves_per_s']:.0f} moves acknowledged a second, "
          f"{4 * args.processes} clients writing through {args.processes} process"
          f"{'es' if args.processes > 1 else ''}", flush=True)
    print(f"goals (>= 99 % answered, p95 <= 1 s, <= 1.5 GB): "
          f"{'met' if meets_goals(main_run) else 'NOT met'}", flush=True)
    if args.idle_sse:
        show("with idle screens", run_once(args.processes, positions, corners, args.tables,
                                           min(args.seconds, 30.0), args.idle_sse))
    if not args.no_saturation:
        saturation(args.processes, positions, corners, args.tables, main_run)
    print(f"load after: {os.getloadavg()[0]:.2f} (1 min)", flush=True)
    return 0 if meets_goals(main_run) else 1


if __name__ == "__main__":
    sys.exit(main())
