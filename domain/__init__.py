"""Pure domain: vocabulary, tasks, actions, events, state folding and decisions.

Nothing in this package performs I/O or reads a clock; everything is a function of its inputs,
which is what makes an episode replayable from its event log.
"""
