"""The evaluation layer: the environment checked by playing it, above the service and the agents.

It plays episodes through the service with the agents (``baseline``: the built-in policy, the task
families' solvers) and with adversaries, and judges what the graders and the tasks do with them:
the grader audit (:mod:`evaluation.grader_audit`, ``ticketledger grader-audit``), the offline
verification of the task families (:mod:`evaluation.task_families`, ``ticketledger tasks
verify``) and the in-memory play of an agent both build on (:mod:`evaluation.play`). It lives
above the agents so that the service never imports them; only the command line imports it.
"""
