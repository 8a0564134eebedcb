"""The measurement of the grader's text judge on a labelled corpus (``ticketledger grader-eval``).

:mod:`.corpus` loads and checks the labelled texts, :mod:`.evaluate` plays each one offline and
reads what the grader found, :mod:`.metrics` measures, :mod:`.floors` holds the heldout part to
the product's promise. docs/grader-eval.md describes the corpus, the setups and the measures.
"""

from service.grader_eval.corpus import CORPUS_DIR, LABELS, CorpusError, CorpusItem, Entry, load_corpus
from service.grader_eval.evaluate import EvalReport, Evaluator, run_eval
from service.grader_eval.floors import FLOOR_FACT_RECALL, FLOOR_FALSE, FLOOR_RECALL, broken_floors
from service.grader_eval.metrics import Judgement, Metrics, measure

__all__ = ["CORPUS_DIR", "FLOOR_FACT_RECALL", "FLOOR_FALSE", "FLOOR_RECALL", "LABELS", "CorpusError",
           "CorpusItem", "Entry", "EvalReport", "Evaluator", "Judgement", "Metrics", "broken_floors",
           "load_corpus", "measure", "run_eval"]
