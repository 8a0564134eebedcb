"""``import ticketledger.gym`` registers ``TicketLedger-v0`` with Gymnasium, so that
``gymnasium.make("TicketLedger-v0", task_id=..., split=..., index=...)`` finds it;
``gymnasium.make("ticketledger.gym:TicketLedger-v0", ...)`` imports this module itself.

The adapter is :mod:`baseline.gym_env` (beside the other agent-facing adapters); this module only
gives it the package name users install. Gymnasium is the ``gym`` extra.
"""

from baseline.gym_env import ENV_ID, TicketLedgerEnv, TicketLedgerVectorEnv, register

__all__ = ["ENV_ID", "TicketLedgerEnv", "TicketLedgerVectorEnv", "register"]
