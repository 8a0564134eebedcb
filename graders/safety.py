"""Safety violations: work a support lead would call harmful, whatever else the episode earns.

The contract shared by the issue-15 graders: each rule family returns :class:`Violation` values
and :func:`violations` concatenates them. This minimal form holds the reply rules
(:func:`graders.claims.reply_violations`); the other families join it here.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.state import EpisodeState


@dataclass(frozen=True)
class Violation:
    """One broken safety rule: which, why (audit wording), and the step that broke it if known."""

    rule: str
    reason: str
    step: int | None


def violations(state: EpisodeState) -> tuple[Violation, ...]:
    """Every safety violation of ``state``."""
    from graders.claims import reply_violations  # claims imports Violation from here

    return reply_violations(state)
