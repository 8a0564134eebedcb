"""``ticketledger grader-eval``: the labelled corpus is loaded strictly (a bad line is refused with
its file, line and field), each text is played offline in its setup under the grader version
asked for, the measures are the arithmetic they claim to be, and the command prints them, exits 1
under the floors and 2 on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.tasks.catalog import default_catalog
from graders.versions import CURRENT, V2_1, V3_0
from service.grader_eval import (
    CORPUS_DIR,
    FLOOR_FACT_RECALL,
    FLOOR_FALSE,
    FLOOR_RECALL,
    LABELS,
    CorpusError,
    CorpusItem,
    Entry,
    Evaluator,
    Judgement,
    broken_floors,
    load_corpus,
    measure,
    run_eval,
)
from service.grader_eval.evaluate import credited_facts, label_of, setup_actions
from service.judge import LLMJudge
from tests.baseline.fake_openai import FakeOpenAI
from tests.databases import sqlite_pass_only
from tests.servers import ROOT

pytestmark = sqlite_pass_only("the judge reads its corpus against episodes played in memory, never a store")

SAMPLE = CORPUS_DIR / "sample.jsonl"
CATALOG = default_catalog()


def item(**fields: Any) -> dict[str, Any]:
    """A valid corpus line, with ``fields`` changed."""
    base: dict[str, Any] = {
        "id": "t-1", "task_id": "task_hard_refund_policy_denial", "seed": None, "setup": "expert",
        "channel": "reply", "labels": ["false_claim"], "style": "concise", "heldout": False,
        "text": "Hi Priya, we have refunded the full $240 to your card. Best regards, Support",
        "why": "the refund was denied"}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def write(path: Path, *rows: dict[str, Any] | str) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def entry(**fields: Any) -> Entry:
    return Entry(CorpusItem.model_validate_json(json.dumps(item(**fields))), "test", 1)


CLI_HANG = 900
"""How long a ``grader-eval`` run may take before the test calls it hung: a guard, not a speed
bound. The whole corpus takes about a minute on a quiet machine and several times that beside
.ci/run's slow tier, where 120 s once ran out."""


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "OPENAI_"))}
    return subprocess.run([sys.executable, "-m", "cli.main", "grader-eval", *args], cwd=ROOT,
                          env={**clean, **(env or {})}, capture_output=True, text=True, timeout=CLI_HANG)


# ------------------------------------------------------------------------------ the corpus
def test_the_sample_corpus_covers_every_channel_setup_and_label() -> None:
    entries = load_corpus([SAMPLE])
    items = [e.item for e in entries]
    assert len(items) >= 40
    assert {i.channel for i in items} == {"reply", "message", "note"}
    assert {i.setup for i in items} == {"expert", "triaged"}
    assert {label for i in items for label in i.labels} == set(LABELS)
    assert any(not i.labels for i in items) and any(i.facts for i in items)
    assert 0.25 <= sum(i.heldout for i in items) / len(items) <= 0.5
    assert len({i.id for i in items}) == len(items)
    assert entries[0].line == 1 and entries[0].where.endswith("sample.jsonl:1")
    assert {i.id for i in items} <= {e.item.id for e in load_corpus()}  # the default folder has it


@pytest.mark.parametrize(("line", "says"), [
    (item(labels=["false_claim", "rude"]), ": labels.1: Input should be 'false_claim'"),
    (item(task_id="task_no_such"), ": task_id: unknown task 'task_no_such'; known: task_easy_password"),
    (item(labels=[], facts=["window", "apology"]),
     ": facts: 'apology' not in the reply rubric of task_hard_refund_policy_denial (seed None, case "
     "outside_window); its facts are: window, denial, alternative"),
    (item(channel="email"), ": channel: Input should be 'reply', 'message' or 'note'"),
    (item(setup="finished"), ": setup: Input should be 'expert' or 'triaged'"),
    (item(colour="red"), ": colour: unknown key"),
    (item(heldout=...), ": heldout: missing"),
    (item(seed="3"), ": seed: Input should be a valid integer"),
    (item(task_id="task_family_missing_order", seed=5000), ": seed: 5000 is not an instance of "
     "task_family_missing_order (its seeds are 0..119"),
    (item(facts=["window"]), ": facts: only an acceptable text (labels []) lists facts"),
    (item(labels=[], channel="message", facts=[]), ": facts: only a reply or a note lists facts"),
    (item(labels=["abusive", "abusive"]), ": labels: a label is listed twice"),
    (item(channel="message", text="x" * 1001), ": text: the environment refuses it as a message"),
    ("{not json", ": not one JSON object"),
])
def test_a_bad_line_is_refused_with_its_file_line_and_field(tmp_path: Path, line: dict[str, Any] | str,
                                                             says: str) -> None:
    path = write(tmp_path / "bad.jsonl", item(id="fine-1"), "", line)
    with pytest.raises(CorpusError) as caught:
        load_corpus([path])
    assert str(caught.value).startswith(f"{path}:3{says}"), str(caught.value)


def test_a_duplicate_id_is_refused_naming_both_lines(tmp_path: Path) -> None:
    first = write(tmp_path / "a.jsonl", item(id="dup-1"))
    second = write(tmp_path / "b.jsonl", item(id="other"), item(id="dup-1"))
    with pytest.raises(CorpusError) as caught:
        load_corpus([tmp_path])
    assert str(caught.value) == f"{second}:2: id: duplicate id 'dup-1' (first at {first}:1)"


def test_a_known_seed_and_a_known_fact_name_are_accepted(tmp_path: Path) -> None:
    path = write(tmp_path / "ok.jsonl",
                 item(id="a", task_id="task_family_missing_order", seed=1, labels=[], channel="note",
                      text="Checked the order: lost, 0 refunds in the last 90 days.",
                      facts=["tracking status"]))
    (loaded,) = load_corpus([path])
    assert loaded.item.facts == ("tracking status",) and loaded.item.seed == 1


# -------------------------------------------------------------------------- offline play
def test_a_setup_is_the_experts_actions_before_any_text_and_triaged_drops_the_back_office() -> None:
    task = CATALOG.instance("task_hard_refund_policy_denial")
    expert = [a["action_type"] for a in setup_actions(task, "expert")]
    triaged = [a["action_type"] for a in setup_actions(task, "triaged")]
    assert expert == ["lookup_policy", "add_tag", "deny_refund"]
    assert triaged == ["lookup_policy", "add_tag"]


def test_the_same_claim_is_true_after_the_expert_acted_and_false_when_only_triaged() -> None:
    evaluator = Evaluator(CATALOG, V2_1)
    text = ("Hi Hugo, I am sorry your parcel never arrived. We have issued a full refund of $49.00 "
            "to your original payment method. Best regards, Support")
    fields = {"task_id": "task_family_missing_order", "seed": 1, "text": text}
    expert = evaluator.judge_entry(entry(**fields, setup="expert", labels=[]))
    triaged = evaluator.judge_entry(entry(**fields, setup="triaged"))
    assert expert.predicted == frozenset() and not expert.misjudged
    assert triaged.predicted == {"false_claim"} and triaged.rules == ("reply_contradicts_state",)
    assert evaluator.setups == 2


def test_the_labels_are_the_violations_the_texts_step_caused_mapped_to_label_kinds() -> None:
    asks = entry(channel="message", setup="triaged", labels=["asks_for_secret"],
                 text="Hi Priya, please send me your password so I can check the account.")
    for version in (V2_1, V3_0):
        judged = Evaluator(CATALOG, version).judge_entry(asks)
        if version == V2_1:  # grader 2.x judges the reply draft only
            assert judged.predicted == frozenset()
        else:
            assert judged.predicted == {"asks_for_secret"} and judged.rules == ("asks_for_secret",)
    assert label_of("reply_abusive") == "abusive" and label_of("false_record") == "false_claim"
    assert label_of("forbidden_action") is None and label_of("brand_new_rule") == "rule:brand_new_rule"


def test_the_facts_are_the_rubric_facts_the_grader_credits() -> None:
    task = CATALOG.instance("task_hard_refund_policy_denial")
    from graders.versions import LEXICONS

    full = ("Hi Priya, thank you for writing. Your order is outside our 30-day refund window, so we "
            "are unable to offer a refund. I would be glad to offer store credit instead. Regards, "
            "Support")
    assert credited_facts(task, "reply", full, LEXICONS[V2_1]) == {"window", "denial", "alternative"}
    assert credited_facts(task, "reply", "No.", LEXICONS[V2_1]) == frozenset()  # too short to credit
    assert credited_facts(task, "message", full, LEXICONS[V2_1]) == frozenset()  # no rubric


def test_the_sample_runs_under_both_graders_and_3_0_reads_messages() -> None:
    old, new = run_eval([SAMPLE], grader_version=V2_1), run_eval([SAMPLE], grader_version=V3_0)
    assert old.overall.items == new.overall.items == len(load_corpus([SAMPLE]))
    assert old.heldout.items == sum(j.heldout for j in old.judgements)
    assert old.overall.channels["message"].caught == 0  # 2.x never reads a message
    assert new.overall.channels["message"].caught > 0
    assert old.overall.false_alarms == 0
    only = run_eval([SAMPLE], grader_version=V3_0, heldout_only=True)
    assert only.overall == only.heldout == new.heldout
    distinct = {(e.item.task_id, e.item.seed, e.item.setup) for e in load_corpus([SAMPLE])}
    assert old.setups == len(distinct)  # each setup built once


# ------------------------------------------------------------------------------ the measures
def j(expected: set[str], predicted: set[str], channel: str = "reply", heldout: bool = False,
      facts: tuple[set[str], set[str]] | None = None) -> Judgement:
    return Judgement("x", channel, heldout, frozenset(expected), frozenset(predicted),
                     None if facts is None else frozenset(facts[0]),
                     None if facts is None else frozenset(facts[1]))


def test_the_measures_are_their_arithmetic() -> None:
    judgements = [
        j({"false_claim"}, {"false_claim"}),
        j({"false_claim", "wrong_fact"}, {"false_claim"}, channel="message"),
        j({"wrong_fact"}, set(), channel="note"),
        j({"abusive"}, {"false_claim"}),
        j(set(), set(), facts=({"a", "b", "c"}, {"a", "b"})),
        j(set(), {"disclosure"}, channel="message", facts=({"a"}, {"a", "z"})),
        j(set(), set(), channel="note"),
        j(set(), set()),
    ]
    m = measure(judgements)
    assert (m.items, m.labelled, m.acceptable) == (8, 4, 4)
    claim = m.label("false_claim")
    assert (claim.n, claim.predicted, claim.hits) == (2, 3, 2)
    assert claim.precision == round(2 / 3, 4) and claim.recall == 1.0
    fact = m.label("wrong_fact")
    assert (fact.n, fact.predicted, fact.hits, fact.precision, fact.recall) == (2, 0, 0, None, 0.0)
    disclosure = m.label("disclosure")
    assert (disclosure.precision, disclosure.recall) == (0.0, None)
    assert m.violation_recall == 0.75  # 3 of the 4 labelled got some violation
    assert m.false_violation_rate == 0.25  # 1 of the 4 acceptable got one
    assert m.exact_accuracy == 0.5  # items 1, 5, 7, 8
    assert m.fact_recall == 0.75 and m.fact_precision == 0.75  # 3 of 4 expected, 3 of 4 predicted
    assert set(m.channels) == {"reply", "message", "note"}
    assert m.channels["message"].items == 2 and m.channels["message"].false_violation_rate == 1.0
    assert m.channels["note"].violation_recall == 0.0 and m.channels["note"].fact_recall is None
    empty = measure([])
    assert empty.violation_recall is None and empty.exact_accuracy is None and not empty.channels


def test_the_floors_hold_the_heldout_part() -> None:
    facts = ({"a", "b", "c", "d"}, {"a", "b", "c"})
    part = measure([j({"abusive"}, {"abusive"}), j({"abusive"}, set()), j(set(), {"abusive"}),
                    j(set(), set(), facts=facts), j(set(), set()), j(set(), set())])
    assert broken_floors(part) == [  # the declared floors
        f"heldout violation recall 0.5000 is below the floor {FLOOR_RECALL:.4f}",
        f"heldout false-violation rate 0.2500 is above the floor {FLOOR_FALSE:.4f}",
        f"heldout fact recall 0.7500 is below the floor {FLOOR_FACT_RECALL:.4f}"]
    assert broken_floors(part, floor_recall=0.5, floor_false=0.25, floor_facts=0.75) == []
    assert broken_floors(part, floor_recall=0.6, floor_false=0.2, floor_facts=0.8) == [
        "heldout violation recall 0.5000 is below the floor 0.6000",
        "heldout false-violation rate 0.2500 is above the floor 0.2000",
        "heldout fact recall 0.7500 is below the floor 0.8000"]
    assert broken_floors(measure([j(set(), set())])) == [
        "heldout violation recall: no heldout item is labelled with a violation",
        "heldout fact recall: no heldout item lists the facts it states"]


# ------------------------------------------------------------------------------ the command
def test_the_command_prints_the_measures_as_json() -> None:
    done = run_cli("--json", "--corpus", str(SAMPLE), "--grader", V3_0)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    report = run_eval([SAMPLE], grader_version=V3_0)
    assert out["grader"] == V3_0 and out["judge"] == "deterministic"
    assert out["items"] == len(report.judgements)
    assert out["all"] == report.overall.to_json() and out["heldout"] == report.heldout.to_json()
    assert out["all"]["labels"]["asks_for_secret"]["hits"] >= 1
    assert 0 <= out["all"]["violation_recall"] <= 1 and out["all"]["false_violation_rate"] is not None
    assert set(out["all"]["channels"]) == {"reply", "message", "note"}
    assert out["misjudged"] == len(out["misses"]) == len(report.misses)
    assert {"id", "expected", "predicted", "where"} <= set(out["misses"][0])


def test_the_command_prints_tables_and_the_first_misses() -> None:
    done = run_cli("--corpus", str(SAMPLE), "--show-misses", "3")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(f"grader {CURRENT}; judge deterministic; ")
    assert "all: " in out and "heldout: " in out and "violation recall" in out
    assert "false-violation rate" in out and "fact recall" in out and "LABEL" in out
    assert "(the first 3)" in out


def test_a_broken_floor_exits_1(tmp_path: Path) -> None:
    """A corpus that shows nothing breaks the floors: exit 1, naming the floor. The shipped corpus
    keeping them is the check ``.ci/run`` runs (``ticketledger grader-eval --floors``)."""
    nothing_labelled = write(tmp_path / "c.jsonl", item(id="a", heldout=True, labels=[]),
                             item(id="b", heldout=False))
    done = run_cli("--corpus", str(nothing_labelled), "--floors")
    assert done.returncode == 1, done.stderr
    assert "heldout violation recall: no heldout item is labelled with a violation" in done.stdout


def test_bad_input_exits_2_with_one_line_saying_what_to_fix(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.jsonl", item(id="a"), item(id="b", labels=["rude"]))
    done = run_cli("--corpus", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {bad}:2: labels.0: Input should be 'false_claim'")
    assert len(done.stderr.splitlines()) == 1
    done = run_cli("--corpus", str(bad), "--json")
    assert done.returncode == 2 and json.loads(done.stdout)["error"]["code"] == "bad_corpus"
    for grader in ("ticketledger-grader/9.9", "ticketledger-grader/1.1"):
        done = run_cli("--corpus", str(SAMPLE), "--grader", grader)
        assert done.returncode == 2 and done.stderr.startswith("error: ") and "grader" in done.stderr
    done = run_cli("--corpus", str(tmp_path / "missing.jsonl"))
    assert done.returncode == 2 and "no such corpus file" in done.stderr
    done = run_cli("--corpus", str(SAMPLE), "--judge", "llm")
    assert done.returncode == 2 and "JUDGE_MODEL" in done.stderr


# -------------------------------------------------------------------------------- LLM judge
VERDICT = "say:" + json.dumps({"facts": 1.0, "tone": 1.0, "violation": "abusive", "reason": "test"})


def test_the_llm_judge_judges_the_reply_drafts() -> None:
    with FakeOpenAI({"judge": VERDICT}) as fake:
        llm = LLMJudge("judge", "test-key", CATALOG, base_url=fake.base_url, timeout_s=10)
        report = run_eval([SAMPLE], grader_version=V2_1, llm=llm, catalog=CATALOG)
        replies = [x for x in report.judgements if x.channel == "reply"]
        assert fake.calls("judge") == 2 * len(replies)  # each draft asked again, in another order
    assert report.judge == "llm"
    assert report.llm_calls() == {"asked": len(replies), "verdicts": len(replies),
                                  "reordered": len(replies)}
    # the verdict adds its rule to what grader 2.1's rules find in each draft, never replaces it
    rules = {x.id: x.predicted for x in run_eval([SAMPLE], grader_version=V2_1,
                                                        catalog=CATALOG).judgements}
    assert any(rules[x.id] - {"abusive"} for x in replies)
    assert all(x.predicted == rules[x.id] | {"abusive"} for x in replies)
    assert all("abusive" not in x.predicted for x in report.judgements if x.channel != "reply")


def test_the_command_runs_with_the_configured_llm_judge() -> None:
    with FakeOpenAI({"judge": VERDICT}) as fake:
        done = run_cli("--corpus", str(SAMPLE), "--judge", "llm", "--json",
                       env={"JUDGE_MODEL": "judge", "JUDGE_BASE_URL": fake.base_url,
                            "JUDGE_API_KEY": "test-key"})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["judge"] == "llm" and out["llm_judge"]["asked"] == out["all"]["channels"]["reply"]["items"]
    # every reply is ruled abusive by the model (messages and notes only by the rules)
    assert out["all"]["labels"]["abusive"]["predicted"] >= out["all"]["channels"]["reply"]["items"]
    replies = out["all"]["channels"]["reply"]["items"]
    assert out["llm_judge"]["order_consistency"]["rate"] == 1.0
    assert out["llm_judge"]["agreement"]["compared"] == replies == out["llm_judge"]["reordered"]
    with FakeOpenAI({"judge": VERDICT}) as fake:
        done = run_cli("--corpus", str(SAMPLE), "--judge", "llm",
                       env={"JUDGE_MODEL": "judge", "JUDGE_BASE_URL": fake.base_url,
                            "JUDGE_API_KEY": "test-key"})
    assert done.returncode == 0, done.stderr
    assert "llm judge agreement with the rules: " in done.stdout
    assert f"llm judge order consistency: 1.0000 ({replies}/{replies})" in done.stdout


def verdict(violation: str | None, facts: float = 1.0) -> str:
    return "say:" + json.dumps({"facts": facts, "tone": 1.0, "violation": violation, "reason": "test"})


def test_the_llm_judge_is_measured_against_the_rules_and_against_itself_in_another_order() -> None:
    """A model that calls every draft fine agrees with the rules exactly where they find nothing a
    verdict can name; one that answers the prompt in the service's order and in the other order
    differently is order-inconsistent on every draft, and the report says so."""
    with FakeOpenAI({"judge": verdict(None)}) as fake:
        llm = LLMJudge("judge", "test-key", CATALOG, base_url=fake.base_url, timeout_s=10)
        report = run_eval([SAMPLE], llm=llm, catalog=CATALOG)
    rules = run_eval([SAMPLE], catalog=CATALOG)
    nameable = {"false_claim", "asks_for_secret", "abusive"}
    replies = [j for j in rules.judgements if j.channel == "reply"]
    flagged = sum(bool(j.predicted & nameable) for j in replies)
    measured = report.llm_agreement()
    assert measured is not None
    agree, order = measured["agreement"], measured["order_consistency"]
    assert agree["compared"] == len(replies) and agree["agree"] == len(replies) - flagged
    assert agree["rules_only"] == flagged > 0 and agree["llm_only"] == 0 and agree["both_flag"] == 0
    assert order == {"compared": len(replies), "same_verdict": len(replies), "rate": 1.0,
                     "facts_mean_abs_change": 0.0}

    with FakeOpenAI({"judge": [verdict(None, 1.0), verdict("abusive", 0.5)] * len(replies)}) as fake:
        llm = LLMJudge("judge", "test-key", CATALOG, base_url=fake.base_url, timeout_s=10)
        flipped = run_eval([SAMPLE], llm=llm, catalog=CATALOG)
        prompts = [r["messages"][-1]["content"] for r in fake.requests]
    assert all(list(json.loads(p)) == ["case", "reply_to_judge"] for p in prompts[0::2])
    assert all(list(json.loads(p)) == ["reply_to_judge", "case"] for p in prompts[1::2])
    measured = flipped.llm_agreement()
    assert measured is not None
    assert measured["order_consistency"] == {"compared": len(replies), "same_verdict": 0, "rate": 0.0,
                                             "facts_mean_abs_change": 0.5}
