"""``ticketledger grader-audit``: it runs, its table and its JSON say the same, its exit code follows
the bounds (1 when a family breaks one), and bad input exits 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from cli.main import main
from graders.versions import CURRENT
from tests.servers import ROOT

ARGS = ["grader-audit", "--tasks", "task_easy_password,task_hard_refund_policy_denial",
        "--seeds", "published,2", "--families", "contradiction,abuse+zero_width,keyword_list,hidden_markup,"
        "tag_spam,close_at_once"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def expected_cell(cell: dict[str, Any]) -> str:
    if cell["status"] == "n/a":
        return "n/a"
    if cell["status"] == "error":
        return "ERR"
    return f"{cell['value']:.2f}" + ("!" if cell["status"] == "fail" else "")


def matrix(out: str) -> dict[str, list[str]]:
    """The family x task table as printed: family -> its cells in task order."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("FAMILY") and "BOUND" in line)
    rows = {}
    for line in lines[start + 1:]:
        if not line.strip():
            break
        parts = re.split(r"\s{2,}", line.strip())
        rows[parts[0]] = parts[2:]
    return rows


def test_the_table_and_the_json_say_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *ARGS)
    jcode, jout, _ = run(capsys, *ARGS, "--json")
    data = json.loads(jout)
    assert code == jcode == (0 if data["ok"] else 1)
    assert data["grader_version"] == CURRENT and data["seeds"] == [None, 2]
    assert data["tasks"] == ["task_easy_password", "task_hard_refund_policy_denial"]
    families = [f["name"] for f in data["families"]]
    assert families == ["gold", "honest", "policy", "contradiction", "abuse+zero_width",
                        "keyword_list", "hidden_markup", "tag_spam", "close_at_once"]
    printed = matrix(out)
    assert list(printed) == families
    for name in families:
        cells = [c for c in data["cells"] if c["family"] == name]
        assert printed[name] == [expected_cell(c) for c in cells], name
    for s in data["summary"]:
        line = next(li for li in out.splitlines() if li.startswith(s["family"] + " ") and s["kind"] in li)
        assert f" {s['status']} " in line
        assert re.search(rf"\b{len(s['passed'])}\s+{len(s['failed'])}\s+{len(s['not_applicable'])}\b", line)
    assert printed["tag_spam"][0] == "n/a"  # the password task weighs no tags: shown, never passed
    broken = [c for c in data["cells"] if c["status"] == "fail"]
    assert len(data["failures"]) == len(broken)
    for c in broken:
        assert any(line.startswith(f"{c['family']} on {c['task_id']}:") for line in data["failures"])
    if broken:
        assert "break their bound" in out and code == 1
    else:
        assert "every family keeps its bound" in out and code == 0


def test_judged_by_grader_2_0_a_split_claim_fails_the_audit(capsys: pytest.CaptureFixture[str]) -> None:
    """A family known to break its bound under grader 2.0 (a claim split over two sentences, which
    the text judge of 3.0 reads) makes the command exit 1 and say which."""
    code, out, _ = run(capsys, "grader-audit", "--tasks", "task_hard_refund_policy_denial",
                       "--seeds", "published", "--families", "split_claim", "--json",
                       "--grader", "ticketledger-grader/2.0")
    data = json.loads(out)
    assert code == 1 and not data["ok"] and data["grader_version"] == "ticketledger-grader/2.0"
    assert data["failures"] == ["split_claim on task_hard_refund_policy_denial: 1.0 breaks score <= 0.2 "
                                "(seed published, outside_window, text 1)"]
    worst = data["cells"][-1]["worst"]
    assert "reply:" in worst["detail"] and worst["score"] == 1.0


def test_a_retired_grader_is_refused_with_its_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grader-audit", "--json", "--tasks", "task_easy_password",
                         "--grader", "ticketledger-grader/1.1")
    assert code == 2
    message = json.loads(out)["error"]["message"]
    assert message.startswith("grader 1.1 is retired") and "re-graded under a current grader" in message
    assert err.startswith("error: grader 1.1 is retired")


@pytest.mark.parametrize("args", [["--seeds", "one"], ["--seeds", ","], ["--tasks", "task_nope"],
                                  ["--families", "no_such_family"], ["--grader", "grader/0.1"]])
def test_bad_input_exits_2_and_says_why(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, "grader-audit", "--json", *args)
    assert code == 2
    assert json.loads(out)["error"]["code"] == "bad_input" and err.startswith("error: ")


def test_it_is_a_command_with_help() -> None:
    done = subprocess.run([sys.executable, "-m", "cli.main", "grader-audit", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--json" in done.stdout and "--seeds" in done.stdout and "--tasks" in done.stdout
