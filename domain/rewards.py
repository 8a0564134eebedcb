"""Reward modes: how a step's grade becomes the reward handed to the agent.

The grader's bookkeeping gives every step a dense reward (the change of the raw score) and the
task score after it. Trainers want different signals from the same episode: ``dense`` (default)
hands out that reward; ``sparse`` 0 until the episode ends, then the task score; ``binary`` 0 until
the end, then 1.0 when the score reaches the task's success threshold, else 0.0. The mode is chosen
at reset and recorded in ``EpisodeStarted``, and this function is pure, so folding or replaying the
log gives the agent's rewards again; the task score and the recorded grade are the same in every
mode.
"""

from __future__ import annotations

from typing import Literal, get_args

RewardMode = Literal["dense", "sparse", "binary"]
REWARD_MODES: tuple[str, ...] = get_args(RewardMode)
DEFAULT_REWARD_MODE: RewardMode = "dense"


class UnknownRewardMode(ValueError):
    """A reward mode other than :data:`REWARD_MODES`; the message names the allowed ones."""


def check_reward_mode(mode: object) -> RewardMode:
    """``mode`` as a :data:`RewardMode`, or :class:`UnknownRewardMode` naming the allowed values."""
    for allowed in get_args(RewardMode):
        if mode == allowed:
            return allowed  # type: ignore[no-any-return]
    raise UnknownRewardMode(f"reward_mode must be one of {', '.join(REWARD_MODES)}, not {mode!r}")


def mode_reward(mode: str, dense: float, score: float, done: bool, threshold: float) -> float:
    """The reward the agent gets in ``mode`` for a step graded ``dense`` with ``score`` after it."""
    match mode:
        case "dense":
            return dense
        case "sparse":
            return score if done else 0.0
        case "binary":
            return (1.0 if score >= threshold else 0.0) if done else 0.0
        case _:  # a log from a newer release: better unreadable than silently dense
            raise UnknownRewardMode(f"unknown reward_mode {mode!r}; this code knows "
                                    f"{', '.join(REWARD_MODES)}")
