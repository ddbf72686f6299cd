"""The table: what a game's camera sees, turned into the plays the referee judges.

A camera frame is decoded and checked for a steady view (``webui.live``), read (``vision``),
settled with what the game already holds (:func:`vision.known.settle`), fused with the
frames before it, and only then compared with the game: tiles still to be lifted off, the same
board again, or a new board, which becomes the mover's snapshot, recorded through the game store.
How a frame is read and made a move depends on the game's board (``webui.boardkinds``: lettered
tiles on the square board, stones on the hexhex one); the protocol does not.
The players' corrections of a misread square and the board corners dragged by hand are the
table's too. The live state of a camera (its steadiness, its last frames, what the table waits
for) is kept in memory: frames are not history.

No Flask here; the views call :class:`Table` and turn its answers into responses.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.boardtext import Tile
from referee.cells import Cell
from referee.errors import IllegalPlayError
from referee.game import Verdict
from referee.moves import Snapshot
from webui import events, live, turns, wording
from webui.boardkinds import kind_of
from webui.errors import Conflict, ServiceError, one_line
from webui.events import GameSession
from webui.framegate import FrameGate, Pass
from webui.photos import Photos, parse_corners
from webui.store import GameStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FrameAnswer:
    """What a camera frame came to: what the table waits for and why, the reading (a
    ``vision.reading.BoardReading``, None when the frame was not read), the verdict on the play
    it showed (None until one is judged), and the cells where the game's own tile overruled a
    doubtful reading (named in the camera's view). JSON only at the edge: :meth:`to_json`."""

    waiting_for: str
    detail: str = ""
    reading: Any = None
    verdict: Verdict | None = None
    kept: tuple[Cell, ...] = ()
    skipped: bool = False
    """The frame came while the one before it was still being read, and was dropped."""
    provisional: turns.Provisional | None = None
    """The play being laid, as the camera sees it so far: not judged, not recorded."""
    settling: bool = False
    """The same picture must still come to the table: the readings have not yet agreed on it
    (this frame's outvoted by the ones before), or a hands-free play waits for the board to stay
    still ``settle_s``, which the table's own clock judges. The frame gate does not answer for
    such an answer."""

    def to_json(self) -> dict[str, Any]:
        """FORMATS.md's frames answer (``provisional`` where a play is being laid), with
        docs/formats.md's ``detail``, ``kept``, ``skipped``."""
        data: dict[str, Any] = {
            "reading": self.reading.to_json() if self.reading is not None else None,
            "verdict": self.verdict.to_json() if self.verdict is not None else None,
            "waiting_for": self.waiting_for, "detail": self.detail,
            "kept": [cell.name for cell in self.kept]}
        if self.provisional is not None:
            data["provisional"] = self.provisional.to_json()
        if self.skipped:
            data["skipped"] = True
        return data


class Table:
    """The tables of every game of one app: their cameras and the corrections made there."""

    def __init__(self, store: GameStore, photos: Photos, config: live.LiveConfig,
                 calibration_dir: Path | None = None) -> None:
        self.store = store
        self.photos = photos
        self.config = config
        self.calibration_dir = calibration_dir
        self._live: dict[str, live.LiveTable] = {}
        self._live_lock = threading.Lock()
        self._active_game: str | None = None
        self.gate = FrameGate(store.changes.version)
        store.subscribe(self._after_event)

    def _after_event(self, game_id: str, kind: str, payload: dict[str, Any]) -> None:
        table = self._live.get(game_id)
        if table is not None and payload.get("source") != "camera":
            # A player acted (typed, corrected, undid): the camera's last remark, such as
            # "the last reading was judged", no longer describes the table, nor do the
            # frames read before: a blank put in by a tap (which the camera did not see)
            # was outvoted by them, and the next frame judged it gone.
            table.set_status(live.WAIT_PLAY, "")
            table.fusion.clear()

    # -- what the table shows ------------------------------------------------------------------

    def state(self, game_id: str) -> dict[str, Any]:
        """GET /api/games/<id>: the store's state plus what the table waits for."""
        with self.store.lock(game_id):
            state = self.store.state(game_id)
            session = self.store.session(game_id)
            table = self._live.get(game_id)
            state["waiting_for"] = self._waiting_for(session, table)
            state["live"] = table.status.to_json() if table else None
            state["commit"] = session.commit.to_json()
            return state

    def _waiting_for(self, session: GameSession, table: live.LiveTable | None) -> str:
        if session.game.is_over:
            return live.WAIT_GAME_OVER
        if session.pending_remove:
            return live.WAIT_REMOVAL
        if session.restore:
            return live.WAIT_RESTORE
        if table is not None and table.status.waiting_for in (live.WAIT_STEADY, live.WAIT_BOARD) \
                and time.time() - table.status.updated_at < 10:
            return table.status.waiting_for
        return live.WAIT_PLAY

    def live_table(self, game_id: str) -> live.LiveTable:
        with self._live_lock:
            table = self._live.get(game_id)
            if table is None:
                table = self._live[game_id] = live.LiveTable(self.config)
            return table

    def last_frame_jpeg(self, game_id: str) -> bytes | None:
        """The camera's last frame of a game, if one came: asking makes no live table (a GET
        changes no state, the live camera's included)."""
        self.store.session(game_id)
        with self._live_lock:
            table = self._live.get(game_id)
        return None if table is None else table.last_frame_jpeg

    def calibration_profiles(self) -> list[str]:
        """Profiles in the instance folder (``tileref calibrate`` writes them), by name."""
        if self.calibration_dir is None or not self.calibration_dir.is_dir():
            return []
        return sorted(path.stem for path in self.calibration_dir.glob("*.json"))

    def mark_active(self, game_id: str) -> None:
        """The game last opened on a screen: the server's own camera feeds that one."""
        self._active_game = game_id

    def feed_active_game(self, data: bytes) -> None:
        game_id = self._active_game
        if game_id is not None:
            self.frame(game_id, data)

    # -- the players' hand on the table ----------------------------------------------------

    def undo(self, game_id: str, source: str = "player") -> None:
        """Take back the last legal move; the camera, which still sees its tiles until the
        players take them back, does not play them again."""
        with self.store.lock(game_id):
            session = self.store.session(game_id)
            index = session.last_legal_index()
            if index is None:
                raise Conflict("there is no move to undo")
            # What the camera sees until the players take the tiles back: not a new play.
            seen = kind_of(session.game).position(session.game)
            if session.last_reading is not None \
                    and session.last_reading_seq == session.history[index]["seq"]:
                seen = dict(session.last_reading)
            self.store.record(game_id, events.UNDO, {"source": source})
            table = self._live.get(game_id)
            if table is not None:
                table.last_judged = seen
                if table.set_status(self._waiting_for(self.store.session(game_id), table), ""):
                    self.store.changes.notify(game_id)

    def set_corners(self, game_id: str, body: object) -> None:
        """The board's corners in the camera's frames, dragged by hand (or None: find them)."""
        if not isinstance(body, dict) or "corners" not in body:
            raise ServiceError("send {'corners': four [x, y] points, or null to find the board}")
        corners = body["corners"]
        if corners is not None:
            corners = parse_corners(corners)
        self.store.record(game_id, events.CORNERS, {"corners": corners})
        table = self._live.get(game_id)
        if table is not None:
            table.forget_seen()
            table.last_judged = None

    def correct(self, game_id: str, body: object, source: str = "player") -> Verdict | None:
        """Fix one square as the players say it is (letter, rotation, blank, or empty).

        Where a play is being laid (the camera's latest board differs from the game's and was
        not judged), the play being laid is corrected and nothing is judged: its player says
        Done. Otherwise the reading last judged is corrected and judged again as the same
        player's play: a legal play judged from it is taken back first; a refused one is
        withdrawn (the log says so), since the players have shown it was misread. Without a
        camera reading the game's own board is corrected and judged as the mover's play.
        Returns the verdict, if a play was judged.
        """
        if not kind_of(self.store.session(game_id).game).corrects:
            raise ServiceError(wording.NO_CORRECTIONS)
        cell, token = _correction(body)
        with self.store.lock(game_id):
            session = self.store.session(game_id)
            if session.game.is_over:
                raise Conflict("the game is over")
            refused = _board_play_refused(session)
            if refused:
                raise ServiceError(refused)
            table = self._live.get(game_id)
            laying = self._laying(session, table)
            reading = dict(laying if laying is not None else session.last_reading
                           if session.last_reading is not None else session.game.board.tiles)
            seen = reading.get(cell)
            seen_token = seen.token if seen else None
            previous = session.overrides.get(cell)
            if previous is not None and previous[1] == seen_token:
                seen_token = previous[0]  # keep what the camera itself sees there
            payload: dict[str, Any] = {"cell": cell.name, "tile": token, "source": source,
                                       "seen": seen_token, "judged": laying is None}
            judged = _judged_entry(session)
            if laying is None and judged is not None and not judged["legal"]:
                payload["withdraws"] = judged["seq"]
            self.store.record(game_id, events.CORRECTION, payload)
            if table is not None and table.seen is not None:
                table.seen = _corrected(table.seen, cell, token)  # what Done would judge now
            if laying is not None and table is not None:
                self._show_laying(game_id, table)
                return None
            verdict = self._rejudge_reading(game_id, source)
            if table is not None:
                corrected = self.store.session(game_id).last_reading
                table.last_judged = dict(corrected) if verdict is not None and corrected else None
            return verdict

    @staticmethod
    def _laying(session: GameSession, table: live.LiveTable | None) -> live.Board | None:
        """The play being laid, as the camera last saw it steadily; None when there is none
        (the camera sees the game's board, or the board it last judged)."""
        if table is None or table.seen is None:
            return None
        if live.same_board(table.seen, session.game.board.tiles) \
                or table.seen == table.last_judged:
            return None
        return table.seen

    def _show_laying(self, game_id: str, table: live.LiveTable) -> None:
        """A square of the play being laid was corrected: the table shows the play again."""
        seen = table.seen or {}
        session = self.store.session(game_id)
        board = session.game.board.tiles
        provisional = None if live.same_board(seen, board) else turns.provisional_play(
            session.game, live.keep_designated_blanks(seen, board))
        detail = wording.not_judged_yet(session.commit) if provisional else ""
        if table.set_status(live.WAIT_PLAY, detail, (), provisional):
            self.store.changes.notify(game_id)

    def _rejudge_reading(self, game_id: str, source: str) -> Verdict | None:
        session = self.store.session(game_id)
        reading = dict(session.last_reading or {})
        last_legal = session.last_legal_index()
        if session.last_reading_seq is not None and last_legal is not None \
                and session.history[last_legal]["seq"] == session.last_reading_seq:
            self.store.record(game_id, events.UNDO, {"source": source, "rejudge": True})
            session = self.store.session(game_id)
        board = dict(session.game.board.tiles)
        if live.same_board(reading, board):
            return None
        mover = session.game.to_move
        if mover is None:
            return None
        snapshot = Snapshot(mover.id, live.keep_designated_blanks(reading, board))
        return self.store.record_move(game_id, snapshot, source, reading=reading)

    # -- the camera ------------------------------------------------------------------------

    def frame(self, game_id: str, data: bytes) -> FrameAnswer:
        """POST /api/games/<id>/frames: one camera frame → reading, verdict, what we wait for.

        Through the gate first (``webui.framegate``): the same still picture again is answered
        at once, and a table's frames wait their turn to be read, the latest one winning.
        """
        refused = _board_play_refused(self.store.session(game_id))
        if refused:
            raise ServiceError(refused)
        with self.gate.admit(game_id, data) as admitted:
            live_table = self._live.get(game_id)
            if admitted.way is Pass.UNCHANGED:
                if live_table is not None:  # what it waits for is still news, not 10 s old
                    live_table.status.updated_at = time.time()
                return admitted.answer
            if admitted.way is Pass.SKIPPED:
                return FrameAnswer(live_table.status.waiting_for if live_table else
                                   live.WAIT_STEADY, "busy reading the frames before it",
                                   skipped=True)
            answer = self._read_frame(game_id, data)
            if answer.waiting_for != live.WAIT_STEADY and not answer.settling:
                admitted.settled(answer)  # settled: the same picture, the same answer
            return answer

    def _read_frame(self, game_id: str, data: bytes) -> FrameAnswer:
        """A frame the gate let through: decoded, checked for a steady view, read, judged."""
        from vision import VisionError

        # Decoded before the live table is touched: a frame that is no image changes nothing
        # (a few milliseconds, against the tenth of a second a frame takes to read).
        image = self.photos.frame(data)
        table = self.live_table(game_id)
        if not table.lock.acquire(blocking=False):
            # The previous frame of this game is still being read: drop this one (the camera
            # sends another shortly), rather than queueing work on two shared cores.
            return FrameAnswer(table.status.waiting_for, "busy reading the previous frame",
                               skipped=True)
        try:
            table.last_frame_jpeg = data if data[:3] == b"\xff\xd8\xff" else None
            table.last_frame_size = (int(image.shape[1]), int(image.shape[0]))
            check = table.check_view(image)
            if not check.steady:
                return self._frame_answer(game_id, table, None, None, live.WAIT_STEADY,
                                          check.state.waiting_message)
            session = self.store.session(game_id)
            corners = session.corners or self._profile_corners(session, image)
            try:
                reading = kind_of(session.game).read(image, corners, session)
            except VisionError as error:
                table.view_lost()
                return self._frame_answer(game_id, table, None, None, live.WAIT_BOARD,
                                          live.Detail(one_line(error),
                                                      tuple(cell.name for cell in error.cells)))
            except Exception:  # a reader bug must not stop the game: log it, try the next
                log.exception("game %s: the board reader failed on a frame", game_id)
                table.view_lost()
                return self._frame_answer(game_id, table, None, None, live.WAIT_BOARD,
                                          "the board reader failed on this frame")
            return self.judge_reading(game_id, table, reading)
        finally:
            table.lock.release()

    def _profile_corners(self, session: GameSession, image: Any) -> Any:
        name = session.spec.get("table", {}).get("calibration")
        if not name or self.calibration_dir is None:
            return None
        from calibration.profile import CalibrationProfile

        try:
            return CalibrationProfile.load(self.calibration_dir / f"{name}.json"
                                           ).corners_for(image)
        except (ValueError, OSError):  # no such, or a broken profile: find the board instead
            return None

    def judge_reading(self, game_id: str, table: live.LiveTable, reading: Any) -> FrameAnswer:
        """What a steady reading (``vision.reading.BoardReading``, or on a hexhex board
        ``vision.hexboard.HexReading``) means for the game: settled with the game's board as
        its kind of board says (``webui.boardkinds``), fused, then waited on, confirmed or
        judged.

        The part of frame handling after the reader (the tests drive it with truth readings).
        """
        session = self.store.session(game_id)
        seen, kept = kind_of(session.game).settle(reading, session)
        fused = table.fusion.add(seen)
        if fused is None:
            answer = self._frame_answer(game_id, table, reading, None, live.WAIT_STEADY,
                                        "checking the reading against the next frames")
        else:
            table.saw(fused)
            with self.store.lock(game_id):
                answer = self._weigh(game_id, table, reading, fused)
            if fused != seen:
                # This frame's own reading outvoted by the ones before it (a tile just put
                # down): the same picture must come to the table again until they agree on it.
                answer = replace(answer, settling=True)
        return replace(answer, kept=kept)

    def _weigh(self, game_id: str, table: live.LiveTable, reading: Any,
               fused: live.Board) -> FrameAnswer:
        """What a steady reading means for the game now (the game's lock held): tiles lifted
        off, no play, the play being laid (provisional), or, hands-free and settled, the play
        judged."""
        session = self.store.session(game_id)
        game = session.game
        if game.is_over:
            return self._frame_answer(game_id, table, reading, None, live.WAIT_GAME_OVER, "")
        if session.pending_remove:
            still = [name for name in session.pending_remove if Cell.parse(name) in fused]
            if still:
                return self._frame_answer(game_id, table, reading, None, live.WAIT_REMOVAL,
                                          "lift off " + ", ".join(still))
            self.store.record(game_id, events.REMOVED,
                              {"cells": list(session.pending_remove), "source": "camera"})
            session = self.store.session(game_id)
        if session.restore:
            missing = {name: token for name, token in session.restore.items()
                       if not live.shows(fused, Cell.parse(name), Tile.parse(token))}
            if missing:
                return self._frame_answer(
                    game_id, table, reading, None, live.WAIT_RESTORE,
                    live.Detail(wording.put_back(missing, game.players), tuple(missing)))
            self.store.record(game_id, events.RESTORED, {"source": "camera"})
            session = self.store.session(game_id)
        kind = kind_of(game)
        if kind.same(fused, kind.position(game)):
            table.last_judged = None
            return self._frame_answer(game_id, table, reading, None, live.WAIT_PLAY, "")
        if table.last_judged is not None and table.last_judged == fused:
            return self._frame_answer(game_id, table, reading, None, live.WAIT_PLAY,
                                      kind.still_judged)
        commit = session.commit
        provisional = kind.provisional(game, fused)
        if commit.hands_free and table.steady_for() >= commit.settle_s:
            verdict = self._commit_play(game_id, table, fused)
            return self._frame_answer(game_id, table, reading, verdict, self._waiting(game_id),
                                      "")
        return self._frame_answer(game_id, table, reading, None, live.WAIT_PLAY,
                                  wording.not_judged_yet(commit, kind.finished),
                                  provisional=provisional,
                                  settling=commit.hands_free)

    def _commit_play(self, game_id: str, table: live.LiveTable, seen: live.Board) -> Verdict:
        """Judge ``seen`` as the mover's play and record it (the game's lock held)."""
        game = self.store.session(game_id).game
        assert game.to_move is not None
        snapshot = kind_of(game).snapshot(game, seen)
        table.last_judged = dict(seen)
        return self.store.record_move(game_id, snapshot, "camera", reading=seen)

    def _waiting(self, game_id: str) -> str:
        return live.WAIT_REMOVAL if self.store.session(game_id).pending_remove else live.WAIT_PLAY

    # -- the mover says Done -------------------------------------------------------------------

    def done(self, game_id: str, body: object) -> FrameAnswer:
        """POST /api/games/<id>/done: the mover's play is finished; judge the latest steady
        reading against the position (FORMATS.md's turn protocol).

        Said while the view is changing (a hand just left the board), it waits up to
        ``LiveConfig.done_wait_s`` for the camera's next steady reading, so the last tile laid
        is not left out. Refused (409) when no steady reading differs from the position.
        """
        if not isinstance(body, dict):
            raise ServiceError("Done is {} or {'player': the mover's seat or name}")
        session = self.store.session(game_id)
        refused = _board_play_refused(session)
        if refused:
            raise ServiceError(refused)
        if session.game.is_over:
            raise Conflict("the game is over")
        self._check_mover(session, body.get("player"))
        with self._live_lock:
            table = self._live.get(game_id)
        kind = kind_of(session.game)
        if table is None:
            raise Conflict(kind.nothing_placed)
        settled = table.wait_settled(self.config.done_wait_s)
        with self.store.lock(game_id):
            session = self.store.session(game_id)
            if session.game.is_over:
                raise Conflict("the game is over")
            seen = table.seen
            if not settled:
                raise Conflict(wording.NO_CLEAR_VIEW)
            if seen is None or kind.same(seen, kind.position(session.game)):
                raise Conflict(kind.nothing_placed)
            if session.restore:
                raise Conflict(f"{wording.put_back(session.restore, session.game.players)} "
                               "first: the last move was taken back")
            if session.pending_remove:
                still = [name for name in session.pending_remove if Cell.parse(name) in seen]
                if still:
                    raise Conflict(f"lift off {', '.join(still)} first: the last play took "
                                   f"{'them' if len(still) > 1 else 'it'}")
                self.store.record(game_id, events.REMOVED,
                                  {"cells": list(session.pending_remove), "source": "camera"})
            verdict = self._commit_play(game_id, table, seen)
            waiting = self._waiting(game_id)
            if table.set_status(waiting, ""):
                self.store.changes.notify(game_id)
            return FrameAnswer(waiting, "", None, verdict)

    @staticmethod
    def _check_mover(session: GameSession, named: object) -> None:
        """Done names the mover, if it names anyone: another player cannot end their turn."""
        if named is None:
            return
        if not isinstance(named, str):
            raise ServiceError("'player' is the mover's seat or name")
        game = session.game
        try:
            player = game.player(named)
        except ValueError as error:
            raise ServiceError(one_line(error)) from None
        mover = game.to_move
        if mover is not None and player.id != mover.id:
            names = wording.labels(game.players)
            raise Conflict(f"it is {names[mover.id]}'s turn, not {names[player.id]}'s")

    def _frame_answer(self, game_id: str, table: live.LiveTable, reading: Any,
                      verdict: Verdict | None, waiting_for: str,
                      detail: str | live.Detail,
                      provisional: turns.Provisional | None = None,
                      settling: bool = False) -> FrameAnswer:
        told = live.Detail(detail) if isinstance(detail, str) else detail
        if not told.text and reading is not None:
            # Nothing else to say: what the players can still put right is worth saying (a
            # camera too far from the board, a tile the last word may have that went unseen,
            # a tile half off its square).
            session = self.store.session(game_id)
            told = kind_of(session.game).waiting_detail(reading, session)
        if table.set_status(waiting_for, told.text, told.cells, provisional):
            self.store.changes.notify(game_id)
        return FrameAnswer(waiting_for, told.text, reading, verdict, provisional=provisional,
                           settling=settling)


def _board_play_refused(session: GameSession) -> str | None:
    """Why the board as read now could not be judged as the mover's play, or None.

    A frame or a correction ends in such a play; where the ruleset parses none (a game played
    on each player's own board, as First Draft, and colonization's English only takes its
    turn), it is refused before anything is recorded or remembered: a correction had been
    logged, and kept after a restart, though its play was then refused.
    """
    mover = session.game.to_move
    if mover is None:
        return None
    try:
        type(session.game).move_from_json(Snapshot(mover.id, {}).to_json())
    except IllegalPlayError as error:
        if not session.game.table_board:
            return "this game is played on the players' own boards: there is no table " \
                   "board to read or correct"
        return (f"{mover.name} is to move and makes no play on the board: take that turn "
                f"first ({error.message})")
    return None


def _correction(body: object) -> tuple[Cell, str | None]:
    """A correction's square and tile (a board-text token, None for an empty square)."""
    if not isinstance(body, dict) or not isinstance(body.get("cell"), str):
        raise ServiceError("a correction is {'cell': 'H8', 'tile': 'E^' or null}")
    try:
        cell = Cell.parse(body["cell"])
    except ValueError as error:
        raise ServiceError(str(error)) from None
    token = body.get("tile")
    if token in ("", "."):
        token = None
    if token is not None:
        if not isinstance(token, str):
            raise ServiceError("'tile' must be a board-text token like 'E^', 'e>' or '?'")
        try:
            token = Tile.parse(token.strip()).token
        except ValueError as error:
            raise ServiceError(str(error)) from None
    return cell, token


def _corrected(board: live.Board, cell: Cell, token: str | None) -> live.Board:
    fixed = dict(board)
    if token:
        fixed[cell] = Tile.parse(token)
    else:
        fixed.pop(cell, None)
    return fixed


def _judged_entry(session: GameSession) -> dict[str, Any] | None:
    """The log's last entry when it was judged from the camera's last reading (the reading a
    correction now corrects), else None."""
    if not session.history or session.last_reading is None:
        return None
    last = session.history[-1]
    return last if last["seq"] == session.last_reading_seq and not last.get("withdrawn") \
        else None
