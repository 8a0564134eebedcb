"""The baseline agent behind ``inference.py``: a built-in deterministic policy, LLM agents with a
model fallback chain, the stdout contract, and the runner that persists every run.

Modules import lazily so ``python inference.py`` starts fast: nothing here imports ``openai`` unless
an LLM key is set, and nothing imports FastAPI or openenv.
"""
