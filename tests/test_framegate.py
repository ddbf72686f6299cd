"""Read only what changed (``webui.framegate``): the same still picture is answered from the last
reading, a changed one is read, and one table's backlog never delays another's."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, render_board_photo
from referee.boardtext import Tile
from referee.cells import Cell
from webui.framegate import FrameGate, GateConfig, Pass


def jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 88])[1].tobytes()


@pytest.fixture(scope="module")
def board() -> np.ndarray:
    tiles = {Cell.parse("H8"): Tile.parse("C^"), Cell.parse("I8"): Tile.parse("A^")}
    return render_board_photo(tiles, seed=3, width=640, height=480,
                              options=RenderOptions(tilt=10.0, noise=0.8)).image


def noisy(image: np.ndarray, seed: int) -> bytes:
    """The same still picture again, as a camera sends it: its sensor noise differs."""
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return jpeg(np.clip(image + noise, 0, 255).astype(np.uint8))


@dataclass
class Answer:
    waiting_for: str
    verdict: object = None


class Versions:
    def __init__(self) -> None:
        self.value = 0

    def __call__(self, game_id: str) -> int:
        return self.value


def read_once(gate: FrameGate, game_id: str, data: bytes, answer: Answer | None) -> Pass:
    with gate.admit(game_id, data) as admitted:
        if admitted.way is Pass.READ and answer is not None:
            admitted.settled(answer)
        return admitted.way


def test_the_same_picture_is_answered_without_its_verdict(board):
    gate = FrameGate(Versions())
    assert read_once(gate, "g", noisy(board, 1), Answer("a play", verdict={"legal": True})) \
        is Pass.READ
    with gate.admit("g", noisy(board, 2)) as admitted:
        assert admitted.way is Pass.UNCHANGED
        assert admitted.answer == Answer("a play", None)


def test_a_tile_put_down_is_a_changed_picture(board):
    gate = FrameGate(Versions())
    read_once(gate, "g", noisy(board, 1), Answer("a play"))
    tiles = {Cell.parse("H8"): Tile.parse("C^"), Cell.parse("I8"): Tile.parse("A^"),
             Cell.parse("J8"): Tile.parse("T^")}
    more = render_board_photo(tiles, seed=3, width=640, height=480,
                              options=RenderOptions(tilt=10.0, noise=0.8)).image
    assert read_once(gate, "g", noisy(more, 2), None) is Pass.READ


def test_a_change_to_the_game_has_the_picture_read_again(board):
    versions = Versions()
    gate = FrameGate(versions)
    read_once(gate, "g", noisy(board, 1), Answer("a play"))
    versions.value += 1  # a player typed a move or corrected a square
    assert read_once(gate, "g", noisy(board, 2), Answer("a play")) is Pass.READ
    assert read_once(gate, "g", noisy(board, 3), None) is Pass.UNCHANGED


def test_a_view_not_yet_settled_is_read_again(board):
    gate = FrameGate(Versions())
    assert read_once(gate, "g", noisy(board, 1), None) is Pass.READ   # asked for more frames
    assert read_once(gate, "g", noisy(board, 2), None) is Pass.READ


def test_no_image_goes_on_to_the_table_which_refuses_it():
    gate = FrameGate(Versions())
    assert read_once(gate, "g", b"not an image", None) is Pass.READ


class Reader(threading.Thread):
    """Admits one frame and, when let through, holds its read slot until ``release`` is set."""

    def __init__(self, gate: FrameGate, game_id: str, data: bytes) -> None:
        super().__init__(daemon=True)
        self.gate, self.game_id, self.data = gate, game_id, data
        self.release = threading.Event()
        self.admitted = threading.Event()
        self.way: Pass | None = None
        self.started_reading = 0.0

    def run(self) -> None:
        with self.gate.admit(self.game_id, self.data) as admitted:
            self.way = admitted.way
            self.started_reading = time.monotonic()
            self.admitted.set()
            if admitted.way is Pass.READ:
                self.release.wait(30)


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.005)


def test_the_latest_frame_of_a_table_wins_and_others_go_first(board):
    gate = FrameGate(Versions(), GateConfig(read_slots=2))
    frame = noisy(board, 1)
    first = Reader(gate, "x", frame)
    first.start()
    assert first.admitted.wait(10) and first.way is Pass.READ
    second = Reader(gate, "x", frame)   # x is being read: waits its turn
    second.start()
    wait_until(lambda: len(gate._queue) == 1)
    third = Reader(gate, "x", frame)    # a newer frame of x: the waiting one is dropped
    third.start()
    assert second.admitted.wait(10) and second.way is Pass.SKIPPED
    other = Reader(gate, "y", frame)    # another table is not held up by x's backlog
    other.start()
    assert other.admitted.wait(10) and other.way is Pass.READ
    assert not third.admitted.is_set()
    first.release.set()
    assert third.admitted.wait(10) and third.way is Pass.READ
    for reader in (other, third):
        reader.release.set()
        reader.join(10)


@pytest.mark.slow
def test_waiting_frames_are_bounded_and_go_stale(board):
    gate = FrameGate(Versions(), GateConfig(read_slots=1, waiting=1, stale_seconds=0.3))
    frame = noisy(board, 1)
    holder = Reader(gate, "a", frame)
    holder.start()
    assert holder.admitted.wait(10) and holder.way is Pass.READ
    waiter = Reader(gate, "b", frame)
    waiter.start()
    wait_until(lambda: len(gate._queue) == 1)
    crowded = Reader(gate, "c", frame)
    crowded.start()
    assert crowded.admitted.wait(10) and crowded.way is Pass.SKIPPED   # no room to wait
    assert waiter.admitted.wait(10) and waiter.way is Pass.SKIPPED     # waited 0.3 s: stale
    holder.release.set()
    holder.join(10)


@pytest.mark.slow
def test_a_still_camera_is_read_until_its_readings_agree_then_answered_at_once(
        client, make_game, board, monkeypatch):
    """Through the app: the table's steadiness check and its readings' vote need a few
    frames; after that the same still board costs no reading at all."""
    from webui import photos as table_module  # the square board's reader (webui.boardkinds)

    reads = []
    real = table_module.read_board

    def counted(*args, **kwargs):
        reads.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(table_module, "read_board", counted)
    game_id, auth = make_game()
    answers = []
    for seed in range(8):
        response = client.post(f"/api/games/{game_id}/frames", data=noisy(board, seed),
                               headers=auth, content_type="image/jpeg")
        assert response.status_code == 200
        answers.append(response.json)
    assert answers[-1]["waiting_for"] != "a steady view"
    assert 1 <= len(reads) <= 3
    assert all(answer.get("skipped") is None for answer in answers)
    assert answers[-1]["verdict"] is None


@pytest.mark.slow
def test_a_hands_free_play_still_reaches_the_table_until_it_is_judged(
        client, make_game, board, monkeypatch):
    """Hands-free (``commit: "auto"``), the table's own clock judges a play once the board has
    stood still ``settle_s``: the same picture must keep reaching it, not be answered by the
    gate with the provisional answer for ever."""
    from webui import live

    clock = [1000.0]
    monkeypatch.setattr(live.time, "time", lambda: clock[0])
    game_id, auth = make_game({"ruleset": "archipelago",
                               "players": [{"name": "Ann", "seat": "S"},
                                           {"name": "Bo", "seat": "N"}],
                               "options": {"commit": "auto", "settle_s": 4}})

    def send(seed: int) -> dict:
        response = client.post(f"/api/games/{game_id}/frames", data=noisy(board, seed),
                               headers=auth, content_type="image/jpeg")
        assert response.status_code == 200
        return response.json

    laid = [send(seed) for seed in range(8)]
    assert laid[-1]["verdict"] is None and laid[-1]["provisional"]["placed"]
    clock[0] += 5
    later = [send(seed) for seed in range(8, 11)]
    assert any(answer["verdict"] is not None for answer in later)


@pytest.mark.slow
def test_a_tile_put_down_is_read_until_the_readings_agree_on_it(client, make_game, board):
    """Tiles put down on a still board: the first readings of the new picture are outvoted by
    the earlier ones (the empty board), so the same picture keeps reaching the table until its
    readings agree, and the play being laid is shown; the gate does not answer for it with the
    empty board's answer."""
    empty = render_board_photo({}, seed=3, width=640, height=480,
                               options=RenderOptions(tilt=10.0, noise=0.8)).image
    game_id, auth = make_game()

    def send(image: np.ndarray, seed: int) -> dict:
        response = client.post(f"/api/games/{game_id}/frames", data=noisy(image, seed),
                               headers=auth, content_type="image/jpeg")
        assert response.status_code == 200
        return response.json

    assert [send(empty, seed) for seed in range(6)][-1]["waiting_for"] == "a play"
    laid = [send(board, seed) for seed in range(6, 14)]
    assert laid[-1]["provisional"]["placed"] == ["H8", "I8"]


def test_the_gate_remembers_a_bounded_number_of_tables(board):
    """A server up for weeks of games keeps the last picture of the most recent tables only:
    the least recent are forgotten, and their next frame is simply read again."""
    gate = FrameGate(Versions(), GateConfig(remembered=3))
    frame = noisy(board, 1)
    for game in "abcd":
        assert read_once(gate, game, frame, Answer("a play")) is Pass.READ
    assert read_once(gate, "d", frame, None) is Pass.UNCHANGED
    assert read_once(gate, "a", frame, None) is Pass.READ      # forgotten: read again
    assert read_once(gate, "c", frame, None) is Pass.UNCHANGED
