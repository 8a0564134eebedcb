"""Plumbing every layer may use: standard library only, no product import.

:mod:`support.deadline` gives up on a call (an LLM's) after a wall-clock deadline; it serves the
service's reply judge and simulated customer and the agents' LLM calls alike.
:mod:`support.terminal` is output for people (tables, colour, a closed pipe); it serves the
command line and the agents' runner, which prints the run's summary table.
:mod:`support.schemas` makes a JSON schema stand alone (its references inlined); it serves the
HTTP API's documents and MCP's tool list, and the tools' declaration.
"""
