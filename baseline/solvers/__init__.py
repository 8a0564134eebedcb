"""Family solvers (issue 18): one module per task family, ``act(observation) -> action``, each
reading only the observation and its knowledge of the family's policy."""
