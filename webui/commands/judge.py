"""``tileref judge GAME.json [--json]``: the referee's decision on every move of a game file.

Without ``--json`` the output is for people at the table: one line per move saying what
happened in words, then the final board and the standings. With ``--json`` it is FORMATS.md's
``{"moves": [...], "final": {...}}`` for programs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from typing import Any

from referee.gamefile import GameFileError, judge_spec, load_game_file


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge", help="judge every move of a game file (FORMATS.md GAME.json)",
        description="Judge every move of a game file and print the verdicts and the final state.")
    parser.add_argument("game", metavar="GAME.json", help="the game file")
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        spec, base_dir = load_game_file(args.game)
        result = judge_spec(spec, base_dir)
    except GameFileError as error:
        print(f"tileref judge: {error}", file=sys.stderr)
        return 2
    text = json.dumps(result, indent=2, ensure_ascii=False) if args.json \
        else render_text(spec, result)
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `tileref judge game.json | head`: the reader has what it wanted
        # Point stdout at /dev/null so the flush at interpreter exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _join(items: Iterable[str]) -> str:
    return ", ".join(items)


def describe_move(number: int, move: Any, verdict: dict[str, Any]) -> str:
    """One line a person reads: who did what, and the referee's answer."""
    player = str(verdict.get("player") or (move.get("player") if isinstance(move, dict) else "?"))
    if not verdict.get("legal"):
        text = f"{number}. {player}: illegal — {verdict.get('reason')}: {verdict.get('message')}"
        changes = verdict.get("unexpected", [])
        for change in changes if len(changes) > 1 else []:  # the message names only the first
            text += f"\n     {change['message']}"
        return text
    play = verdict.get("move") or (move if isinstance(move, dict) else {})
    if isinstance(move, dict) and move.get("pass"):
        return f"{number}. {player} passes"
    if isinstance(move, dict) and "exchange" in move:
        return f"{number}. {player} exchanges {move['exchange']} tiles"
    if "word" not in play:  # another ruleset's move kind: show its fields plainly
        return _describe_other(number, player, move, verdict)
    source = " (read from the board)" if isinstance(move, dict) and "board" in move else ""
    words = verdict.get("words", [])
    main = words[0]["word"] if words else play["word"]
    text = (f"{number}. {player} plays {main} at {play['at']} {play['dir']}{source}: "
            f"legal, +{verdict.get('score', 0)}")
    notes = []
    if len(words) > 1:
        notes.append("also forms " + _join(word["word"] for word in words[1:]))
    by_owner: dict[str, list[str]] = {}
    for captured in verdict.get("captured_words", []):
        by_owner.setdefault(captured["owner"], []).append(captured["word"])
    for owner, captured_words in by_owner.items():
        notes.append(f"captures {_join(captured_words)} from {owner}")
    if verdict.get("captured_tiles") and not verdict.get("captured_words"):
        notes.append("captures the tile on " + _join(verdict["captured_tiles"]))
    if verdict.get("remove"):
        notes.append("lift off " + _join(verdict["remove"]))
    if verdict.get("eliminated"):
        notes.append("eliminates " + _join(verdict["eliminated"]))
    if notes:
        text += f" ({'; '.join(notes)})"
    return text


BOARD_FIELDS = {"legal", "player", "words", "captured_tiles", "captured_words", "remove",
                "score", "eliminated"}


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _describe_other(number: int, player: str, move: Any, verdict: dict[str, Any]) -> str:
    """A move kind this command does not know (First Draft's sell, ...): its fields, plainly."""
    asked = ", ".join(f"{key} {_plain(value)}" for key, value in (move or {}).items()
                      if key != "player") if isinstance(move, dict) else _plain(move)
    effects = [f"{key}: {_plain(value)}" for key, value in verdict.items()
               if key not in BOARD_FIELDS and value not in ([], {}, None, "")]
    if verdict.get("score"):
        effects.insert(0, f"+{verdict['score']}")
    text = f"{number}. {player} {asked}: legal".replace("  ", " ")
    return text + (f" ({'; '.join(effects)})" if effects else "")


def describe_final(final: dict[str, Any]) -> str:
    """The final board and each player's standing, in words."""
    lines = ["", "Final board:"]
    lines += ["  " + row for row in str(final.get("board", "")).rstrip("\n").split("\n")]
    lines.append("")
    eliminated = set(final.get("eliminated") or [])
    if "strength" in final:
        lines.append("Standings (strength = sum of active words' values):")
        active = final.get("active", {})
        for pid, strength in sorted(final["strength"].items(), key=lambda kv: -kv[1]):
            words = _join(word["word"] for word in active.get(pid, [])) or "no active words"
            out = " — eliminated" if pid in eliminated else ""
            lines.append(f"  {pid}: {strength} ({words}){out}")
    elif "scores" in final:
        lines.append("Scores:")
        for name, score in sorted(final["scores"].items(), key=lambda kv: -kv[1]):
            lines.append(f"  {name}: {score}")
    else:
        for key, value in final.items():
            if key not in ("board", "eliminated", "to_move", "winner"):
                lines.append(f"  {key}: {json.dumps(value, ensure_ascii=False)}")
    if final.get("winner"):
        lines.append(f"Winner: {final['winner']}")
    elif final.get("to_move"):
        lines.append(f"Game in progress; {final['to_move']} to move")
    else:
        lines.append("Game over; no winner (tie)")
    return "\n".join(lines)


def render_text(spec: dict[str, Any], result: dict[str, Any]) -> str:
    moves = spec.get("moves") or []
    pairs = zip(moves, result["moves"], strict=True)
    lines = [describe_move(number, move, verdict)
             for number, (move, verdict) in enumerate(pairs, start=1)]
    if not lines:
        lines.append("(no moves)")
    return "\n".join(lines) + "\n" + describe_final(result["final"])
