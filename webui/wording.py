"""Verdicts in plain words: what the table reads after every move.

The referee's verdicts are data (FORMATS.md); the table reads sentences, worded here once
(:func:`describe`) for every screen: the referee board's panel and its move log, Colonization's
and First Draft's own screens, the dispute page, and the live camera page, whose script gets the
words in the frames answer (``said``) instead of wording the verdict itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from referee.boardtext import Tile
from referee.hexboard import colour_name
from webui.live import tile_question

SEAT_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}

# -- the turn protocol (webui.turns): what the table says while a play is being laid ----------

NOTHING_PLACED = ("the camera sees no new tile on the board: lay the word, then say Done "
                  "(a typed move goes through Play)")
"""Done, when no steady reading differs from the position (409)."""
NOTHING_NEW_STONE = ("the camera sees no new stone on the board: put the stones down (or tap "
                     "their cells), then say Done")
"""Done, on a board of stones (islands), when no steady reading differs from the position."""
NO_CLEAR_VIEW = ("the camera has had no clear view of the board since it changed: take hands "
                 "off the board, then say Done again")
"""Done, when the view has not settled within ``LiveConfig.done_wait_s`` (409)."""
STILL_THE_JUDGED_BOARD = ("the board still shows the play just refused: put it right, or take "
                          "the tiles back")
"""While the board shows exactly what was last judged and refused."""
STILL_THE_JUDGED_STONES = ("the board still shows the stones last judged: take off the stones "
                           "of a move taken back, or put right what was refused")
"""The same, on a board of stones (islands)."""
NO_CORRECTIONS = ("a cell of this board is not corrected by tapping it: tap the cells of the "
                  "stones placed on the table screen, then Done")
"""A correction asked of a board whose cells are not corrected (islands: a tap places a stone)."""


def provisional_said(provisional: Mapping[str, Any], names: Mapping[str, str] | None,
                     commit: Any) -> dict[str, Any]:
    """A play being laid (FORMATS.md's ``provisional``) as the table shows it: ``{"headline",
    "details"}``: who is laying what, and that it is not judged yet."""
    who = (names or {}).get(str(provisional.get("player")), str(provisional.get("player")))
    words = [str(word).upper() for word in provisional.get("words") or []]
    placed = list(provisional.get("placed") or [])
    if words:
        headline = f"{who} is laying {words[0]}"
    elif placed:
        headline = f"{who} has put down {plural(len(placed), 'tile')}"
    else:
        headline = f"The board has changed on {who}'s turn"
    details = [sentence(not_judged_yet(commit))]
    if len(words) > 1:
        details.insert(0, "Also: " + ", ".join(words[1:]) + ".")
    return {"headline": headline + ".", "details": details, "placed": placed}


WORD_FINISHED = "the word is finished"
STONES_DOWN = "the stones are down"
"""When the mover says Done, on the square board and on a board of stones."""


def not_judged_yet(commit: Any, finished: str = WORD_FINISHED) -> str:
    """What the table adds while it shows a play being laid (``commit``: the game's
    :class:`webui.turns.Commit`; ``finished``: when the mover says Done)."""
    if commit.hands_free:
        return (f"not judged yet: judged once the board stays still for "
                f"{commit.settle_s:g} s")
    return f"not judged yet: say Done when {finished}"


def labels(players: Iterable[Any]) -> dict[str, str]:
    """How the table names each player (``referee.game.Player``), by the id verdicts use:
    ``Ann (South)`` where players have seats, ``Ann (red)`` where they own a colour (islands),
    else the name."""
    named = {}
    for player in players:
        colour = getattr(player, "colour", None)
        if player.seat is not None:
            named[player.id] = \
                f"{player.name} ({SEAT_NAMES.get(player.seat.value, player.seat.value)})"
        elif isinstance(colour, str):
            named[player.id] = f"{player.name} ({colour_name(colour)})"
        else:
            named[player.id] = player.name
    return named


def sentence(text: object) -> str:
    """The referee's messages are clauses ("there is a gap ..."); the table reads sentences: a
    capital first letter, a full stop at the end, on one line."""
    line = " ".join(str(text or "").split())
    if not line:
        return ""
    line = line[0].upper() + line[1:]
    return line if line.endswith((".", "!", "?")) else line + "."


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def describe(verdict: Mapping[str, Any], move: Mapping[str, Any] | None = None,
             names: Mapping[str, str] | None = None, figure: str = "score",
             corrects: bool = True) -> dict[str, Any]:
    """A verdict (FORMATS.md's JSON) as the sentences the table reads: ``{"legal",
    "headline", "details", "reason", "remove"}``; ``move`` is the move judged (its JSON),
    ``names`` how to name each player (:func:`labels`; an id not in it is named as it is),
    ``figure`` what the table adds up beside each name (``Game.standing``): a play is worth its
    ``score`` there, or else (archipelago's strength) its words' values, so that the numbers a
    verdict says are the ones the players' figures are the sum of; ``corrects``: the screen
    lets the players correct a misread square by tapping it (so a refusal says where).

    One wording for every ruleset: what a verdict says is told by its fields (a word played,
    a word captured, English's draw, a row sold), never by the game's ruleset.
    """
    def name(pid: object) -> str:
        return (names or {}).get(str(pid), str(pid))

    who = name(verdict.get("player") or "?")
    if not verdict.get("legal"):
        return _refusal(verdict, who, move or {}, names or {}, corrects)
    move = move or {}
    for effect in (_colonization_move, _first_draft_move):
        said = effect(verdict, move, who)
        if said is not None:
            return said
    if "placed" in verdict:
        return _stones_move(verdict, who, name)
    words = verdict.get("words") or []
    if not words:
        if "exchange" in move:
            return _legal(f"{who} exchanged {plural(int(move['exchange']), 'tile')}.", [])
        return _legal(f"{who} passed.", [])
    main = words[0]
    details = []
    by_score = figure == "score"
    if len(words) > 1:
        details.append("Also formed: " + ", ".join(
            w["word"].upper() + ("" if by_score else f" ({w.get('value', 0)})")
            for w in words[1:]) + ".")
    for captured in verdict.get("captured_words") or []:
        details.append(f"Captured {name(captured.get('owner'))}'s {captured['word'].upper()}.")
    if verdict.get("captured_tiles"):
        details.append("Tiles taken over: " + ", ".join(verdict["captured_tiles"]) + ".")
    for out in verdict.get("eliminated") or []:
        details.append(f"{name(out)} is eliminated.")
    for english in verdict.get("english") or []:
        if english.get("why") == "english-word":
            details.append(f"{english['word'].upper()} is an English word: it goes to English"
                           f" with its {english['points']} points.")
        else:
            details.append(f"{english['word'].upper()} takes {who} past 50: it goes to English"
                           f" with its {english['points']} points.")
    if verdict.get("english_joins"):
        details.append(f"English joins the game, just before {who}.")
    worth = f" for {verdict.get('score', 0)}" if by_score else f", worth {main.get('value', 0)}"
    return _legal(f"{who} played {main['word'].upper()}{worth}.", details,
                  list(verdict.get("remove") or []))


def _legal(headline: str, details: list[str], remove: list[str] | None = None
           ) -> dict[str, Any]:
    return {"legal": True, "headline": headline, "details": details, "reason": None,
            "remove": remove or []}


REASONS = {
    "not-in-word-list": "not in the word list",
    "invalid-cross-word": "it makes a word not in the list",
    "not-in-line": "the tiles are not in one line",
    "board-mismatch": "the board changed where no play explains it",
    "blank-undesignated": "a blank's letter is not named",
    "not-connected": "it touches nothing of theirs",
    "first-move-home-row": "a first word goes along the home row",
    "first-move-centre": "a first word covers the middle of the home row",
    "not-your-turn": "not their turn",
    "no-tile-placed": "no new tile",
    "off-board": "off the board",
    "letter-mismatch": "it does not fit the tiles already there",
    "word-extends": "the word goes on",
    "game-over": "the game is over",
    "player-eliminated": "they are out of the game",
    "bad-move": "not a move",
    "too-many-stones": "more stones than the turn allows",
    "occupied": "a cell already holds a stone",
    "unknown-colour": "a colour no player has",
    "player-frozen": "they are frozen",
    "no-stone-placed": "no stone placed",
}
"""Each refusal's reason in a few words, for the one line a move log gives it."""

HOME_ROWS = {"S": ("row 15", "the bottom"), "N": ("row 1", "the top"),
             "W": ("column A", "the left"), "E": ("column O", "the right")}
"""Each seat's home row: where a seated player's first word must go, and where that is as the
board is drawn."""


def _refusal(verdict: Mapping[str, Any], who: str, move: Mapping[str, Any],
             names: Mapping[str, str], corrects: bool = True) -> dict[str, Any]:
    """An illegal move: which play, why in a few words, the referee's reason in full (players
    named as the table names them), and what the players can do about a reading (name a blank,
    add a tile the camera missed, correct a misread square)."""
    word = str((verdict.get("move") or {}).get("word") or move.get("word") or "").upper()
    reason = str(verdict.get("reason") or "")
    short = f" ({REASONS[reason]})" if reason in REASONS else ""
    details = [sentence(_named(verdict.get("message") or reason, names))]
    player = str(verdict.get("player"))
    if reason in ("first-move-home-row", "first-move-centre") and player in HOME_ROWS:
        row, edge = HOME_ROWS[player]
        details.append(f"{who}'s home row is {row}: the line of squares along {edge} edge of "
                       f"the board, next to {who}'s name. A first word goes along it.")
    for cell, letters in (verdict.get("blank_offers") or {}).items():
        details.append(f"Tap {cell} to name the blank there"
                       + (f" (it could be {letters})." if letters else "."))
    gaps = verdict.get("gaps") or []
    if gaps:
        details.append(sentence(tile_question(", ".join(gaps))))
    if verdict.get("unexpected") and corrects:
        cells = ", ".join(change["cell"] for change in verdict["unexpected"][:8])
        details.append(f"Misread? Tap a square to correct it: {cells}.")
    return {"legal": False, "headline": f"Not legal: {who}'s {word or 'move'}{short}.",
            "details": details, "reason": verdict.get("reason"), "remove": []}


def _named(message: object, names: Mapping[str, str]) -> str:
    """The referee's message with each player named as the table names them: the referee
    writes a seated player by seat letter ("it is N's turn, not S's"), which a person at the
    table reads as "it is Bo (North)'s turn, not Ann (South)'s"."""
    text = str(message or "")
    seats = [pid for pid in names if len(pid) == 1 and pid in HOME_ROWS]
    if not seats:
        return text
    return re.sub(rf"(?<![\w'])({'|'.join(seats)})'s\b",
                  lambda found: f"{names[found.group(1)]}'s", text)


ENDED = {"board-full": "the board is full",
         "passes": "every player still playing passed in a row",
         "all-frozen": "no play can change anyone's rank any more"}
"""Why a game of stones ended (a verdict's ``ended``), as the table says it."""


def stones_said(stones: Iterable[Sequence[str]]) -> str:
    """Stones as a person says them, in the order given: "red d4, blue e5 and red e6"."""
    said = [f"{colour_name(colour)} {cell}" for cell, colour in stones]
    return and_list(said) if said else "no stone"


def _stones_move(verdict: Mapping[str, Any], who: str, name: Callable[[object], str]
                 ) -> dict[str, Any]:
    """Stones placed, or a pass, on a board of stones (islands): which stones, of how many
    allowed; the islands after the turn, the bonus it earned, who it froze, and the end."""
    placed = list(verdict.get("placed") or [])
    details = []
    if placed:
        allowed = verdict.get("allowed")
        headline = f"{who} placed {stones_said(placed)}" + \
            (f" ({len(placed)} of {plural(int(allowed), 'stone')} allowed)." if allowed
             else ".")
        islands = verdict.get("islands") or {}
        if islands:
            details.append("Islands: " + ", ".join(f"{colour_name(colour)} {count}"
                                                   for colour, count in islands.items()) + ".")
    else:
        headline = f"{who} passed."
    for colour, earned in (verdict.get("bonus") or {}).items():
        details.append(sentence(f"{colour_name(colour)} earns a bonus of {earned}"))
    for frozen in verdict.get("frozen") or []:
        details.append(f"{name(frozen)} is frozen: no play can change their rank now.")
    ended = verdict.get("ended")
    if ended:
        details.append(sentence(f"the game is over: {ENDED.get(str(ended), str(ended))}"))
    return _legal(headline, details)


def stones_laying_said(stones: Sequence[Sequence[str]], preview: Mapping[str, Any] | None,
                       mover: str, names: Mapping[str, str], commit: Any, tapped: bool
                       ) -> dict[str, Any]:
    """Stones laid on the mover's turn but not judged yet, as the table shows them: tapped on
    the screen (``tapped``) or seen by the camera; ``preview`` is the verdict they would get
    (``Game.examine``), worded as what would happen: the islands then, a bonus, or why the
    referee would refuse them; ``mover`` is the player to move, as ``names`` names them.
    ``{"headline", "details", "legal"}``."""
    who = names.get(mover, mover)
    if not stones:
        return {"headline": f"{who} to place stones: choose a colour, then tap the cells.",
                "details": [], "legal": True}
    verdict = preview or {}
    allowed = verdict.get("allowed")
    count = f" ({len(stones)} of {plural(int(allowed), 'stone')} allowed)" if allowed else ""
    details = []
    legal = bool(verdict.get("legal", True))
    if not legal:
        reason = str(verdict.get("reason") or "")
        short = REASONS.get(reason, reason)
        details.append(f"Not allowed{f' ({short})' if short else ''}: "
                       f"{sentence(verdict.get('message') or reason)}")
    else:
        islands = verdict.get("islands") or {}
        if islands:
            details.append("Islands then: " + ", ".join(
                f"{colour_name(colour)} {number}" for colour, number in islands.items()) + ".")
        for colour, earned in (verdict.get("bonus") or {}).items():
            details.append(sentence(f"{colour_name(colour)} would earn a bonus of {earned}"))
        for frozen in verdict.get("frozen") or []:
            details.append(f"{names.get(str(frozen), str(frozen))} would be frozen.")
    if tapped:
        details.append("Not judged yet: tap a stone to take it back, or Done when these are "
                       "the stones.")
    else:
        details.append(sentence(not_judged_yet(commit, STONES_DOWN)))
    return {"headline": f"{who} is placing {stones_said(stones)}{count}.",
            "details": details, "legal": legal}


def _colonization_move(verdict: Mapping[str, Any], move: Mapping[str, Any], who: str
                       ) -> dict[str, Any] | None:
    """A language named, an agreement, a transform, English's turn, the racks counted."""
    if "language" in verdict:
        return _legal(f"{who} speaks {verdict['language']}.", [])
    if "agree" in verdict:
        if verdict["agree"]:
            return _legal("The table agrees.", [])
        taken = ", ".join(word.upper() for word in verdict.get("taken_back") or [])
        return _legal(f"Taken back: {taken}.", ["The table did not agree; the same player"
                                                " plays again."])
    if "transform" in verdict:
        target = verdict["transform"]
        values = verdict.get("values") or {}
        duel = (f"Duel: {who}'s {move.get('actor_tile', '?')} ({values.get('actor')}) against"
                f" {target['owner']}'s {move.get('owner_tile', '?')} ({values.get('owner')}).")
        if verdict.get("transformed"):
            details = [f"{target['word'].upper()} turns English: its {target['points']} points"
                       f" go from {target['owner']} to English."]
        else:
            details = ["The actor's tile is not higher: nothing happens."]
        if verdict.get("english_joins"):
            details.append(f"English joins the game, just before {who}.")
        return _legal(duel, details)
    if "drawn" in verdict:
        return _english_turn(verdict)
    if "adjustments" in verdict:
        changes = ", ".join(f"{name} {change:+d}" for name, change in
                            (verdict.get("adjustments") or {}).items())
        return _legal("The racks left are counted.", [f"Scores change: {changes}."]
                      if changes else [])
    return None


def _english_turn(verdict: Mapping[str, Any]) -> dict[str, Any]:
    draws = verdict.get("draws") or []
    entered = bool(draws) and all(draw.get("entered") for draw in draws)
    how = "drawn at the table" if entered else f"drawn by the referee, seed {verdict.get('seed')}"
    letter = verdict.get("drawn")
    details = []
    candidates = verdict.get("candidates") or []
    if not candidates:
        details.append(f"No player's word touching English has {letter}: nothing happens.")
    elif len(candidates) > 1:
        details.append("Candidates: " + ", ".join(c["word"].upper() for c in candidates) + ".")
    for number, tiebreak in enumerate(verdict.get("tiebreaks") or [], start=1):
        drawn = ", ".join(f"{t['word'].upper()} drew {t['tile']} ({t['value']})" for t in tiebreak)
        details.append(f"Tie-break {number}: {drawn}.")
    claimed = verdict.get("claimed")
    if claimed:
        details.append(f"English claims {claimed['word'].upper()}: its {claimed['points']}"
                       f" points go from {claimed['owner']} to English.")
    return _legal(f"English drew {letter} ({how}).", details)


def _first_draft_move(verdict: Mapping[str, Any], move: Mapping[str, Any], who: str
                      ) -> dict[str, Any] | None:
    """A row sold or turned face down, a coaster taken, letters placed."""
    if "sold" in verdict:
        sold = verdict["sold"]
        return _legal(f"{who} sold {sold['word']} (row {sold['row']}) for"
                      f" {plural(sold['coins'], 'coin')}.", [])
    if "discarded" in verdict:
        gone = verdict["discarded"]
        return _legal(f"{who} turned row {gone['row']} ({gone['letters']}) face down.",
                      [f"It costs {plural(len(gone['letters']), 'coin')} at the end."])
    if "coaster" in verdict:
        taken = verdict["coaster"]
        details = []
        if taken["cost"]:
            details.append(f"Paid {plural(taken['cost'], 'coin')}, one on each coaster passed"
                           " over.")
        if taken["coins_taken"]:
            details.append(f"Picked up {plural(taken['coins_taken'], 'coin')} from it.")
        return _legal(f"{who} took coaster {taken['position']} ({taken['letters']}).", details)
    if "rows" not in verdict:
        return None
    rows = " · ".join(row or "—" for row in verdict.get("rows") or [])
    now = f"rows {rows}, pool {verdict.get('pool') or '—'}"
    details = []
    if verdict.get("face_down"):
        details.append(f"Face down: {verdict['face_down']}.")
    refill = verdict.get("refill")
    if verdict.get("game_over"):
        details.append("The bag cannot fill the next coaster: the game is over. Everyone may"
                       " still sell.")
    elif refill:
        details.append(f"New coaster {refill['coaster']} at the end of the line:"
                       f" {refill['letters']}.")
    if refill is None:
        return _legal(f"{who} moved pool letters into rows: {now}.", details)
    return _legal(f"{who} placed the letters: {now}.", details)


def and_list(items: Sequence[str]) -> str:
    """``["a", "b", "c"]`` → ``"a, b and c"``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def put_back(restore: Mapping[str, str], players: Iterable[Any]) -> str:
    """The tiles an undo asks the table to put back (cell name → board-text token, in the
    order to say them), in words,
    each tile named by its owner where players have seats: "put back Bo (North)'s G on H8 and
    Bo (North)'s D on J8"."""
    players = list(players)
    names = labels(players)
    owners = {player.seat.rotation: names[player.id] for player in players
              if player.seat is not None}
    phrases = []
    for name, token in restore.items():
        tile = Tile.parse(token)
        what = (f"a blank ({tile.letter.upper()})" if tile.letter != "?" else "a blank") \
            if tile.blank else tile.letter
        owner = owners.get(tile.rotation) if tile.rotation is not None else None
        phrases.append(f"{owner}'s {what} on {name}" if owner else f"{what} on {name}")
    return "put back " + and_list(phrases) if phrases else ""


def taken_back(undone: Mapping[str, Any], names: Mapping[str, str] | None,
               restore: str = "") -> dict[str, Any]:
    """An Undo as the table says it (``undone``: the move taken back and its verdict), with
    the tiles to put back (:func:`put_back`'s words) if any."""
    verdict = undone.get("verdict") or {}
    who = (names or {}).get(str(verdict.get("player")), str(verdict.get("player")))
    words = verdict.get("words") or []
    what = f"{who}'s {words[0]['word'].upper()}" if words else f"{who}'s move"
    details = [sentence(restore + ": the camera checks them")] if restore else []
    placed = verdict.get("placed") or []
    if placed:  # stones (islands): they come off the board again
        what = f"{who}'s {plural(len(placed), 'stone')}"
        details.append(f"Take {stones_said(placed)} off the board.")
    details.append(f"{who} plays again.")
    return {"legal": True, "withdrawn": True, "headline": f"Taken back: {what}.",
            "details": details, "reason": None, "remove": []}


def tile_words(token: str | None) -> str:
    """A square's content as a person says it: "an empty square", "a blank", "a blank standing
    for E", "an E" (board-text tokens; the arrow is not said)."""
    if not token:
        return "an empty square"
    letter = token[0]
    if letter == "?":
        return "a blank"
    if letter != letter.upper():
        return f"a blank standing for {letter.upper()}"
    return f"{'an' if letter in 'AEFHILMNORSX' else 'a'} {letter}"


def logged(entry: Mapping[str, Any], verdict: Mapping[str, Any],
           names: Mapping[str, str] | None, figure: str = "score", corrects: bool = True
           ) -> dict[str, Any]:
    """One entry of the game's log (``history``) with its verdict, in words: as
    :func:`describe` says it (``corrects`` as there), or, for a refusal the players showed was
    a misread (a correction ``withdrew`` it), what happened instead."""
    withdrawn = entry.get("withdrawn")
    if not withdrawn:
        return describe(verdict, entry.get("move"), names, figure, corrects) \
            | {"withdrawn": False}
    who = (names or {}).get(str(verdict.get("player")), str(verdict.get("player")))
    cell = withdrawn.get("cell")
    return {"legal": False, "withdrawn": True, "reason": verdict.get("reason"), "remove": [],
            "headline": f"Withdrawn: {who}'s refused play, misread on {cell}.",
            "details": [f"The camera saw {tile_words(withdrawn.get('seen'))} on {cell}; the "
                        f"players said it is {tile_words(withdrawn.get('tile'))}."]}


def recent(history: Sequence[Mapping[str, Any]], verdicts: Sequence[Mapping[str, Any]],
           names: Mapping[str, str] | None, count: int, figure: str = "score"
           ) -> list[dict[str, Any]]:
    """The last ``count`` moves in words, the latest first, each with its ``source``."""
    pairs = list(zip(history, verdicts, strict=False))[-count:]
    return [logged(entry, verdict, names, figure) | {"source": entry["source"]}
            for entry, verdict in reversed(pairs)]


def sale_checks(game: Any, rows: list[str], recorded: list[str] | None) -> list[dict[str, Any]]:
    """One sentence per row: what it sells for, or why it cannot be sold."""
    checks = []
    for number, row in enumerate(rows, start=1):
        price = game.sale_price(row) if row else None
        if not row:
            text = f"Row {number} is empty."
        elif price is None:
            text = (f"Row {number} ({row}) cannot be sold: it is not one word of"
                    f" {game.rules.min_word} to {game.rules.row_length} letters in the word list.")
        else:
            text = f"Row {number} ({row}) sells for {plural(price, 'coin')}."
        if recorded is not None and recorded[number - 1] != row:
            text += f" The referee has {recorded[number - 1] or 'nothing'} in row {number}."
        checks.append({"row": number, "word": row, "coins": price, "sentence": text})
    return checks

