"""The bonus track, the standings and frozen irrelevance of ``islands`` (RULES.md §5).

Players rank by islands, then by bonus total; equal in both, they share the rank (1 + the
number of players strictly better). The bonus track: the first player whose island count
reaches k earns (number of players) at k, the next one less, and so on; players reaching k on
the same turn share that place, and a player earns for k once, the first time their count
reaches k. Counts can fall (an opponent may join two of your islands into one), so the track
remembers the highest count each player has reached.

**Frozen irrelevance.** A player is frozen when no sequence of legal plays can change their
rank. The referee freezes only what it proves, with bounds that hold over every board that
adds stones to this one, whoever places them and in whatever turns (a superset of the legal
continuations, so the proof is sound): for each player, the fewest and most islands they can
have (:mod:`referee.islandgroups`) and their bonus, which never falls and can grow only by
reaching counts above their highest so far, each at best the place after those who have
reached it already. A player's rank is proved fixed when their standing against every other
player is: always better (their fewest islands above the other's most, or equal to it with a
bonus already above the other's highest possible), always worse, or always tied (both counts
fixed and equal, bonuses fixed and equal). ``tests/test_islands_frozen.py`` checks every
freeze on small boards against an exhaustive search of the futures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BonusTrack:
    """Per player (in seating order): the highest island count reached and the bonus total."""

    reached: tuple[int, ...]
    bonus: tuple[int, ...]

    @classmethod
    def start(cls, players: int, counts: Sequence[int] = (),
              bonus: Sequence[int] = ()) -> BonusTrack:
        """A track at the start: counts reached so far (a position's) and bonuses already won."""
        return cls(tuple(counts) or (0,) * players, tuple(bonus) or (0,) * players)

    def arrivals_at(self, k: int) -> int:
        """How many players have reached a count of ``k``."""
        return sum(reached >= k for reached in self.reached)

    def advance(self, counts: Sequence[int]) -> tuple[BonusTrack, tuple[int, ...]]:
        """The track after a turn that left these island counts, and the bonus each earned.

        A player whose count passes their highest reaches every count on the way (1 to 3 is
        reaching 2 and 3); each earns (players) less the players who reached it on an earlier
        turn, so those reaching it together share the place.
        """
        players = len(self.reached)
        earned = tuple(sum(players - self.arrivals_at(k) for k in range(highest + 1, count + 1))
                       for highest, count in zip(self.reached, counts, strict=True))
        reached = tuple(max(old, new) for old, new in zip(self.reached, counts, strict=True))
        bonus = tuple(total + gain for total, gain in zip(self.bonus, earned, strict=True))
        return BonusTrack(reached, bonus), earned

    def most_bonus(self, player: int, most_islands: int) -> int:
        """The highest bonus total ``player`` can reach if their count never exceeds
        ``most_islands``: every new count reached at the best place still open."""
        players = len(self.reached)
        return self.bonus[player] + sum(players - self.arrivals_at(k) for k in range(
            self.reached[player] + 1, most_islands + 1))


def ranks(counts: Sequence[int], bonus: Sequence[int]) -> tuple[int, ...]:
    """Each player's rank: 1 + the players with more islands, or as many and more bonus."""
    keys = list(zip(counts, bonus, strict=True))
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def leaders(counts: Sequence[int], bonus: Sequence[int]) -> list[int]:
    """The players ranked first (several: a shared first place)."""
    return [player for player, rank in enumerate(ranks(counts, bonus)) if rank == 1]


@dataclass(frozen=True)
class Prospect:
    """What one player's standing can still become, over every future of the board."""

    fewest: int
    most: int
    bonus: int
    most_bonus: int

    def always_better_than(self, other: Prospect) -> bool:
        return self.fewest > other.most or (self.fewest >= other.most
                                            and self.bonus > other.most_bonus)

    def always_tied_with(self, other: Prospect) -> bool:
        return (self.fewest == self.most == other.fewest == other.most
                and self.bonus == self.most_bonus == other.bonus == other.most_bonus)


def prospects(track: BonusTrack, ranges: Sequence[tuple[int, int]]) -> list[Prospect]:
    """Each player's :class:`Prospect` from their (fewest, most) islands and the track."""
    return [Prospect(fewest, most, track.bonus[player], track.most_bonus(player, most))
            for player, (fewest, most) in enumerate(ranges)]


def rank_fixed(player: int, outlook: Sequence[Prospect]) -> bool:
    """Whether ``player``'s rank is proved unable to change: their standing against every
    other player is settled (always better, always worse or always tied)."""
    mine = outlook[player]
    return all(mine.always_better_than(theirs) or theirs.always_better_than(mine)
               or mine.always_tied_with(theirs)
               for other, theirs in enumerate(outlook) if other != player)


__all__ = ["BonusTrack", "Prospect", "leaders", "prospects", "rank_fixed", "ranks"]
