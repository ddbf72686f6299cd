"""What the web layer asks a ruleset about the table: the figure beside each player's name, the
words behind it, whether players have seats, whether the game is played on the table's board.

The referee answers (``referee.game.Game``'s hooks); the web layer never names a ruleset to
decide these.
"""

from __future__ import annotations

from referee import Cell, Direction, Play, find_ruleset, known_rulesets, new_game


def test_archipelago_shows_each_seats_strength_and_its_active_words() -> None:
    game = new_game("archipelago", [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}])
    game.push(Play("S", "CAT", Cell.parse("G15"), Direction.ACROSS))
    assert game.standing == "strength"
    assert game.standings() == game.state()["strength"] == {"S": 5, "N": 0}
    assert game.standing_words("S") == ["CAT"] and game.standing_words("N") == []
    game.push(Play("N", "DOG", Cell.parse("I1"), Direction.ACROSS))
    game.push(Play("S", "CATeR", Cell.parse("G15"), Direction.ACROSS))   # a blank E: worth 0
    assert game.standing_parts("S") == [("CAT", 5), ("CATeR", 6)]
    assert sum(value for _, value in game.standing_parts("S")) == game.standings()["S"] == 11


def test_scrabble_shows_each_players_score_and_no_words() -> None:
    game = new_game("scrabble", [{"name": "Ann"}, {"name": "Bo"}])
    verdict = game.push(Play("Ann", "CAT", Cell.parse("G8"), Direction.ACROSS))
    assert game.standing == "score"
    assert game.standings() == game.state()["scores"] == {"Ann": verdict.score, "Bo": 0}
    assert game.standing_words("Ann") == [] and game.standing_parts("Ann") == []


def test_only_first_draft_is_played_off_the_table_board() -> None:
    off_the_board = [name for name in known_rulesets() if not find_ruleset(name).table_board]
    assert off_the_board == ["firstdraft"]
    assert find_ruleset("archipelago").seated and not find_ruleset("scrabble").seated


def test_examine_gives_the_verdict_a_move_would_get_and_changes_nothing() -> None:
    """The table shows a play being laid (the words so far) before it is judged for the record."""
    from referee import Snapshot, Tile

    game = new_game("archipelago", [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}])
    laid = {Cell.parse(name): Tile.parse(token)
            for name, token in {"G15": "C^", "H15": "A^", "I15": "T^"}.items()}
    before = game.state()
    verdict = game.examine(Snapshot("S", laid))
    assert verdict.legal and [word.word for word in verdict.words] == ["CAT"]
    assert game.state() == before and game.history == []
    refused = game.examine(Snapshot("N", laid))
    assert not refused.legal and refused.reason == "not-your-turn"
    assert game.state() == before
