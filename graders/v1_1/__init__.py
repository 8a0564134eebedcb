"""Grader "ticketledger-grader/1.1", FROZEN: a copy kept only to replay, verify and re-grade
episodes recorded under 1.1. Never edit it.

An episode's rewards and score are part of its record; re-grading it under a newer grader makes a
regrade record beside it, never a rewrite. For that, the grader an episode was recorded with must
stay runnable exactly as it was: this package is the 1.1 modules (``grader``, ``components``,
``rubric``, ``text``, ``penalties``, ``lexicon``) as they stood when 2.0 work began, with imports
pointing inside the package, and the one input 1.1 read from outside the episode (the other tasks'
key phrasings, from the live catalog) frozen in ``foreign_groups.json``. Everything else it reads
comes from the episode's own events (the task is recorded in ``EpisodeStarted``).

New grading work goes into the top-level ``graders`` modules (grader 2.0). A fix to 1.1 would
change recorded history; if one is ever needed, it is a new version beside this one.
"""

from graders.v1_1.grader import GRADER_VERSION, EpisodeGrade, StepGrade, grade_episode, grade_step

__all__ = ["GRADER_VERSION", "EpisodeGrade", "StepGrade", "grade_episode", "grade_step"]
