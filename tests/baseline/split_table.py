"""The built-in policy's table of docs/tasks.md, from real runs of ``inference.py --split``.

``python -m tests.baseline.split_table`` plays the three splits with the built-in policy (each in a
throwaway SQLite file) and prints the table's rows; paste them into docs/tasks.md after the
families or the policy change. The slow test of ``test_inference_split.py`` re-runs the test split
and checks its column.
"""

from __future__ import annotations

import re
import tempfile
from collections import defaultdict
from pathlib import Path

from tests.baseline.inference_helpers import run_inference

SPLITS = ("train", "dev", "test")


def split_scores(split: str, directory: Path) -> dict[str, list[float]]:
    """Each family's episode scores on ``split`` (the exact scores the run prints on stderr)."""
    run = run_inference({"DATABASE_URL": f"sqlite:///{directory / f'{split}.db'}"}, "--agent",
                        "policy", "--split", split, cwd=directory, timeout=900)
    if run.returncode != 0:
        raise RuntimeError(f"inference.py --split {split} failed:\n{run.stderr[-2000:]}")
    scores: dict[str, list[float]] = defaultdict(list)
    for task_id, score in re.findall(r"# (task_family_\w+) seed=\d+ score=([\d.]+)", run.stderr):
        scores[task_id.removeprefix("task_family_")].append(float(score))
    return dict(scores)


def cell(values: list[float]) -> str:
    """``mean (successes/episodes)``: as the table shows it."""
    return f"{sum(values) / len(values):.4f} ({sum(v >= 0.8 for v in values)}/{len(values)})"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        runs = {split: split_scores(split, Path(tmp)) for split in SPLITS}
    print("| family | train | dev | test |")
    print("|---|---|---|---|")
    for family in sorted(runs["test"]):
        print(f"| `{family}` | " + " | ".join(cell(runs[s][family]) for s in SPLITS) + " |")


if __name__ == "__main__":
    main()
