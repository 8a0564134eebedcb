"""How far to trust a run's figures: intervals, trial flips, noise floors and paired comparisons.

Pure computation over episode outcomes (:mod:`results.stats` for the statistics,
:mod:`results.figures` for a run's figures and the comparison of two runs), with no I/O: the
runner (``baseline``), the audit views and bundles (``service``), the HTTP routes (``api``) and the
CLI all report the same numbers from the same code. The method is described in
docs/evaluation.md.
"""
