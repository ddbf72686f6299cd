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


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge", help="judge every move of a game file (FORMATS.md GAME.json)",
        description="Judge every move of a game file and print the verdicts and the final state.")
    parser.add_argument("game", metavar="GAME.json", help="the game file")
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here, as every command's own needs are (webui.cli): `tileref read` builds the
    # same parser and must not load the rules engine's games for it.
    from referee.gamefile import GameFileError, judge_spec, load_game_file

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
    if "placed" in verdict:  # islands: stones, not words
        return f"{number}. {_describe_stones(player, move, verdict)}"
    play = verdict.get("move") or (move if isinstance(move, dict) else {})
    if isinstance(move, dict) and move.get("pass"):
        return f"{number}. {player} passes"
    if isinstance(move, dict) and "exchange" in move:
        return f"{number}. {player} exchanges {move['exchange']} tiles"
    if "word" not in play or "at" not in play:  # not a board play: a ruleset's own move kind
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
    why_english = {"english-word": "an English word", "over-50": "it takes them over 50"}
    for word in verdict.get("english", []):
        why = why_english.get(word["why"], word["why"])
        notes.append(f"{word['word']} goes to English ({why})")
    if verdict.get("english_joins"):
        notes.append("English joins the game")
    if notes:
        text += f" ({'; '.join(notes)})"
    return text


def _describe_stones(player: str, move: Any, verdict: dict[str, Any]) -> str:
    """An islands turn: the stones placed (or a pass), then what it changed."""
    from referee.hexboard import colour_name
    from referee.islands import ENDINGS

    placed = verdict["placed"]
    if placed:
        stones = _join(f"{colour_name(colour)} {cell}" for cell, colour in placed)
        source = " (read from the board)" if isinstance(move, dict) and "board" in move else ""
        text = (f"{player} places {stones}{source}: legal, {len(placed)} of"
                f" {verdict['allowed']} stone{'' if verdict['allowed'] == 1 else 's'}")
        notes = ["islands " + _join(f"{colour_name(colour)} {count}"
                                    for colour, count in verdict["islands"].items())]
    else:
        text, notes = f"{player} passes", []
    notes += [f"{colour_name(colour)} earns a bonus of {gain}"
              for colour, gain in verdict.get("bonus", {}).items()]
    frozen = verdict.get("frozen", [])
    if frozen:
        notes.append(f"{_join(frozen)} {'is' if len(frozen) == 1 else 'are'} frozen: their"
                     " rank can no longer change")
    if verdict.get("ended"):
        notes.append(f"the game ends: {ENDINGS.get(verdict['ended'], verdict['ended'])}")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def _describe_islands_final(final: dict[str, Any]) -> list[str]:
    """Islands standings: rank, islands, bonus, who is frozen, and why the game ended."""
    from referee.hexboard import colour_name
    from referee.islands import ENDINGS

    lines = ["Standings (islands, then bonus):"]
    colours = final.get("colours", {})
    for name, rank in sorted(final.get("ranks", {}).items(), key=lambda item: item[1]):
        colour = colours.get(name, "")
        count, bonus = final["islands"].get(colour, 0), final["bonus"].get(colour, 0)
        frozen = " — frozen" if name in final.get("frozen", []) else ""
        lines.append(f"  {rank}. {name} ({colour_name(colour)}): {count} island"
                     f"{'' if count == 1 else 's'}, bonus {bonus}{frozen}")
    if final.get("ended"):
        lines.append(f"The game ended: {ENDINGS.get(final['ended'], final['ended'])}.")
        if not final.get("winner"):
            first = [name for name, rank in final.get("ranks", {}).items() if rank == 1]
            lines.append(f"Shared first place: {_join(first)}")
    return lines


BOARD_FIELDS = {"legal", "player", "words", "captured_tiles", "captured_words", "remove",
                "score", "eliminated", "draws", "seed"}


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _letters(text: str) -> str:
    return text or "—"


def _owned(word: dict[str, Any]) -> str:
    return f"{word['word']} ({word['owner']}'s, {word['points']} points)"


def _coins(count: int) -> str:
    return f"{count} coin{'' if count == 1 else 's'}"


def _describe_effects(player: str, verdict: dict[str, Any]) -> str | None:
    """The sentence for a colonization, First Draft or end-of-game move; None if unknown."""
    if verdict.get("language") is not None:
        return f"{player} names their language {verdict['language']}"
    if verdict.get("agree") is not None:
        if verdict["agree"]:
            return f"{player} agrees: the word stands"
        return f"{player} does not agree: {_join(verdict.get('taken_back', []))} is taken back"
    if "drawn" in verdict:  # English's turn
        if verdict["drawn"] is None:
            return f"{player} draws nothing: every tile is on the board"
        text = f"{player} draws {verdict['drawn']}"
        if verdict.get("tiebreaks"):
            text += f" (a tie, broken in {len(verdict['tiebreaks'])} draw(s))"
        if verdict.get("unbroken_tie"):
            return text + (f": {_join(verdict['unbroken_tie'])} tie, and every tile off the"
                           " board has the same value, so no draw can part them: nothing is"
                           " claimed")
        claimed = verdict.get("claimed")
        return text + (f" and claims {_owned(claimed)}" if claimed else ": no word to claim")
    if verdict.get("transformed") is not None:
        word, values = verdict["transform"], verdict.get("values", {})
        duel = f"tile value {values.get('actor')} against {values.get('owner')}"
        if verdict["transformed"]:
            joins = "; English joins the game" if verdict.get("english_joins") else ""
            return f"{player} transforms {_owned(word)}, {duel}: the word is theirs now{joins}"
        return f"{player} fails to transform {_owned(word)}, {duel}"
    if verdict.get("adjustments") is not None:
        left = _join(f"{name} {_letters(rack)} ({verdict['adjustments'].get(name, 0):+d})"
                     for name, rack in verdict.get("racks", {}).items())
        return f"End of game: tiles left on the racks: {left}"
    if verdict.get("coaster") is not None:
        coaster = verdict["coaster"]
        paid = f"paying {_coins(coaster['cost'])}" if coaster["cost"] else "free"
        taken = f", taking the {_coins(coaster['coins_taken'])} on it" \
            if coaster["coins_taken"] else ""
        return (f"{player} takes coaster {coaster['position']} ({coaster['letters']}; "
                f"{paid}{taken})")
    if verdict.get("rows") is not None:
        text = (f"{player} places: row 1 {_letters(verdict['rows'][0])}, row 2 "
                f"{_letters(verdict['rows'][1])}, pool {_letters(verdict.get('pool', ''))}")
        if verdict.get("face_down"):
            text += f", face down {verdict['face_down']}"
        refill = verdict.get("refill")
        if refill and refill.get("letters"):
            text += f"; a new coaster {refill['coaster']} gets {refill['letters']}"
        if verdict.get("game_over"):
            text += "; the bag is empty and the game ends"
        return text
    if verdict.get("sold") is not None:
        sold = verdict["sold"]
        return f"{player} sells {sold['word']} from row {sold['row']} for {_coins(sold['coins'])}"
    if verdict.get("discarded") is not None:
        discarded = verdict["discarded"]
        return (f"{player} turns row {discarded['row']} face down "
                f"({_letters(discarded['letters'])})")
    return None


def _describe_other(number: int, player: str, move: Any, verdict: dict[str, Any]) -> str:
    """A move that is not a board play: its sentence, or its fields plainly if unknown."""
    sentence = _describe_effects(player, verdict)
    if sentence is not None:
        return f"{number}. {sentence}"
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
    lines = [""]
    if final.get("board"):
        lines.append("Final board:")
        lines += ["  " + row for row in str(final["board"]).rstrip("\n").split("\n")]
        lines.append("")
    eliminated = set(final.get("eliminated") or [])
    if "islands" in final:
        lines += _describe_islands_final(final)
    elif "boards" in final:  # First Draft: each player's rows, pool, coins and sales
        lines.append("Players (score = coins less one per face-down letter):")
        for name, table in final["boards"].items():
            rows = " / ".join(_letters(row) for row in table["rows"])
            sold = _join(table["sold"]) or "nothing"
            lines.append(f"  {name}: {final.get('scores', {}).get(name, 0)} — rows {rows}, "
                         f"pool {_letters(table['pool'])}, {_coins(table['coins'])}, "
                         f"{table['face_down']} face down; sold {sold}")
    elif "strength" in final:
        lines.append("Standings (strength = sum of active words' values):")
        active = final.get("active", {})
        for pid, strength in sorted(final["strength"].items(), key=lambda kv: -kv[1]):
            words = _join(word["word"] for word in active.get(pid, [])) or "no active words"
            out = " — eliminated" if pid in eliminated else ""
            lines.append(f"  {pid}: {strength} ({words}){out}")
    elif "scores" in final:
        lines.append("Scores:")
        owned: dict[str, list[str]] = {}
        for word in final.get("words", []):  # colonization: who owns which word
            owned.setdefault(word["owner"], []).append(word["word"])
        for name, score in sorted(final["scores"].items(), key=lambda kv: -kv[1]):
            words = f" ({_join(owned[name])})" if name in owned else ""
            lines.append(f"  {name}: {score}{words}")
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
