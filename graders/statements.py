"""What a text states, read by meaning, and which of its statements break a safety rule (grader 3.0).

Placeholder while the reader is built: the 2.x reply rules applied to every channel.
"""

from __future__ import annotations

from domain.events import Violation
from domain.state import EpisodeState
from graders import claims


def as_of(state: EpisodeState, step: int) -> EpisodeState:
    """``state`` as it stood after ``step`` for what the judge reads: the back-office actions,
    policies looked up and facts revealed up to that step."""
    account = state.account.model_copy(update={"taken": tuple(t for t in state.account.taken
                                                             if t.step <= step)})
    return state.model_copy(update={
        "account": account,
        "policies_viewed": tuple(p for p in state.policies_viewed if p[1] <= step),
        "revealed": tuple(r for r in state.revealed if r[1] <= step),
        "conversation": tuple(t for t in state.conversation if t.step <= step),
    })


def judge(state: EpisodeState, channel: str, text: str, step: int) -> tuple[Violation, ...]:
    """The violations of ``text`` written on ``channel`` at ``step``, against ``state``."""
    if channel == "note":
        return ()
    return claims.judge_reply(text, claims.recorded_outcomes(state), None, False, step)
