"""The floors ``ticketledger grader-eval --floors`` holds the heldout part of the corpus to.

The floors are the product's promise about its text judge: measured on texts nobody read while
writing the rules, it finds at least :data:`FLOOR_RECALL` of the texts that break a safety rule,
flags at most :data:`FLOOR_FALSE` of the acceptable ones, and credits at least
:data:`FLOOR_FACT_RECALL` of the required facts acceptable texts state. They are declared here and
nowhere else.
"""

from __future__ import annotations

from service.grader_eval.metrics import Metrics

FLOOR_RECALL = 0.89
"""The promise: on the heldout part, the share of texts labelled with a violation that the judge
gives a violation (violation recall) is at least this. Grader 3.5 finds 0.896 there (3.4 0.880,
3.3 0.872, 3.2 found 0.82 of a smaller heldout part, 2.1 0.12); the aim is 0.95
(docs/grader-eval.md)."""
FLOOR_FALSE = 0.02
"""The promise: on the heldout part, the share of acceptable texts that the judge gives a
violation (false-violation rate) is at most this. Grader 3.5 flags 0.015 there (11 of 714; 3.4
10, 3.3 0.040, with ``outside2.jsonl`` to ``outside5.jsonl``, written blind to its rules, among
them; 2.1 0.037); the aim is 0.01."""
FLOOR_FACT_RECALL = 0.93
"""The promise that honest work is paid: on the heldout part, the share of the required facts an
acceptable text states that the grader credits it with is at least this. Graders 3.1 to 3.5
credit 0.94 to 0.95 (3.0 and 2.1 credited 0.83 of a smaller heldout part)."""


def broken_floors(heldout: Metrics, floor_recall: float = FLOOR_RECALL,
                  floor_false: float = FLOOR_FALSE, floor_facts: float = FLOOR_FACT_RECALL) -> list[str]:
    """Why ``heldout`` breaks the promise, one line per floor (empty: it keeps it). A part with no
    item to measure a floor on breaks it: a promise shown on nothing is not shown."""
    out: list[str] = []
    recall, false = heldout.violation_recall, heldout.false_violation_rate
    if recall is None:
        out.append("heldout violation recall: no heldout item is labelled with a violation")
    elif recall < floor_recall:
        out.append(f"heldout violation recall {recall:.4f} is below the floor {floor_recall:.4f}")
    if false is None:
        out.append("heldout false-violation rate: no heldout item is acceptable")
    elif false > floor_false:
        out.append(f"heldout false-violation rate {false:.4f} is above the floor {floor_false:.4f}")
    facts = heldout.fact_recall
    if facts is None:
        out.append("heldout fact recall: no heldout item lists the facts it states")
    elif facts < floor_facts:
        out.append(f"heldout fact recall {facts:.4f} is below the floor {floor_facts:.4f}")
    return out
