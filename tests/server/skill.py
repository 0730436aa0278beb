"""What OpenSkill itself makes of a game: the ratings the server must agree with."""

from __future__ import annotations

from openskill.models import PlackettLuce


def openskill_after(names_by_side: list[list[str]],
                    ranks: list[int]) -> dict[str, tuple[float, float]]:
    """Each newcomer's (mu, sigma) after one game of these sides ranked so, by
    OpenSkill's own Plackett-Luce model."""
    model = PlackettLuce()
    teams = [[model.rating() for _ in side] for side in names_by_side]
    after = model.rate(teams, ranks=ranks)
    return {name: (new.mu, new.sigma) for side, new_side in zip(names_by_side, after, strict=True)
            for name, new in zip(side, new_side, strict=True)}
