"""Baseline inference for TicketLedger: ``python inference.py`` (see ``--help`` and the README).

Without an LLM key a built-in deterministic policy plays every task; with ``API_KEY``, ``HF_TOKEN``
or ``OPENAI_API_KEY`` set, LLM agents do, through ``openai.OpenAI``. Stdout carries only the
``[START]``/``[STEP]``/``[END]`` lines; the logic lives in the ``baseline`` package.
"""

import sys

from baseline.runner import main

if __name__ == "__main__":
    sys.exit(main())
