"""kill -9 in the middle of a game loses nothing that was acknowledged.

A real ``tileref serve`` process on a free loopback port: create a game, post moves (each one
acknowledged with its verdict), SIGKILL the server, start it again on the same instance folder,
and the state must be exactly what was acknowledged.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(instance: Path, port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "webui", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--instance", str(instance)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
        stderr=(instance.parent / "server.log").open("a"),  # the request log: never fills a pipe
    )
    line = process.stdout.readline()  # printed once the socket is listening
    assert f"http://127.0.0.1:{port}/" in line, (line, (instance.parent / "server.log").read_text())
    return process


def call(port: int, method: str, path: str, body: object = None,
         token: str | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_sigkill_mid_game_loses_nothing_acknowledged(tmp_path):
    instance = tmp_path / "instance"
    port = free_port()
    server = start_server(instance, port)
    try:
        status, created = call(port, "POST", "/api/games", {
            "ruleset": "archipelago",
            "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]})
        assert status == 201
        game, token = f"/api/games/{created['id']}", created["token"]
        moves = [
            {"player": "S", "word": "CAT", "at": "G15", "dir": "across"},
            {"player": "N", "word": "DOG", "at": "I1", "dir": "across"},
            {"player": "S", "word": "CATS", "at": "G15", "dir": "across"},
            {"player": "N", "pass": True},
            {"player": "S", "word": "XQZ", "at": "G14", "dir": "across"},  # illegal: logged too
        ]
        acknowledged = []
        for move in moves:
            status, verdict = call(port, "POST", f"{game}/moves", move, token)
            assert status == 200
            acknowledged.append(verdict)
        status, _ = call(port, "POST", f"{game}/undo", {}, token)
        assert status == 200
        status, before = call(port, "GET", game)
        assert status == 200
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
    assert server.returncode == -signal.SIGKILL

    restarted = start_server(instance, port)
    try:
        status, after = call(port, "GET", game)
        assert status == 200
        for key in ("board", "active", "strength", "eliminated", "to_move", "winner", "moves",
                    "history"):
            assert after[key] == before[key], key
        assert [v["legal"] for v in after["moves"]] == [True, True, True, False]
        # The game goes on after the restart, with the same token.
        status, verdict = call(port, "POST", f"{game}/moves",
                               {"player": "N", "pass": True}, token)
        assert status == 200 and verdict["legal"]
    finally:
        restarted.send_signal(signal.SIGTERM)
        try:
            restarted.wait(timeout=30)
        except subprocess.TimeoutExpired:
            restarted.kill()
            restarted.wait()


def test_sigkill_during_a_burst_of_writes_keeps_every_acknowledged_verdict(tmp_path):
    """The kill lands while a move is in flight: acknowledged ones all survive, in order."""
    instance = tmp_path / "instance"
    port = free_port()
    server = start_server(instance, port)
    acknowledged: list[dict] = []
    try:
        status, created = call(port, "POST", "/api/games", {
            "ruleset": "archipelago",
            "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]})
        game, token = f"/api/games/{created['id']}", created["token"]
        opening = [{"player": "S", "word": "CAT", "at": "G15", "dir": "across"},
                   {"player": "N", "word": "DOG", "at": "I1", "dir": "across"}]

        def burst() -> None:
            while True:
                move = opening[len(acknowledged)] if len(acknowledged) < len(opening) else \
                    {"player": "S", "word": "QXZ", "at": "K15", "dir": "across"}
                try:
                    status, verdict = call(port, "POST", f"{game}/moves", move, token)
                except (OSError, http.client.HTTPException, ValueError):  # the server is gone
                    return
                assert status == 200
                acknowledged.append(verdict)

        writer = threading.Thread(target=burst, daemon=True)
        writer.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
    writer.join(timeout=30)
    assert not writer.is_alive() and len(acknowledged) >= 20

    restarted = start_server(instance, port)
    try:
        status, after = call(port, "GET", game)
    finally:
        restarted.kill()
        restarted.wait()
    assert status == 200
    assert after["moves"][:len(acknowledged)] == acknowledged
    assert len(after["moves"]) - len(acknowledged) in (0, 1)  # one committed, never answered
    assert [v["legal"] for v in after["moves"][:2]] == [True, True]
