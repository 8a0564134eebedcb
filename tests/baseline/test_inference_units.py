"""The baseline's pieces on their own: configuration, stdout formatting, reply parsing, pass^k."""

from __future__ import annotations

import json
import re

import pytest

from baseline import config as cfg
from baseline.chat import BadReply, extract_json, repair, to_action
from baseline.stdout import end_line, one_line, printed_score, start_line, step_line, two_decimals
from baseline.summary import EpisodeResult, summarise

STEP = re.compile(r"^\[STEP\] step=\d+ action=\{\S.*\} reward=-?\d+\.\d\d done=(true|false) error=\S.*$")


# ------------------------------------------------------------------------------ configuration
def test_defaults_without_any_variable() -> None:
    c = cfg.load([], {})
    assert c.api_base_url == cfg.DEFAULT_API_BASE_URL
    assert c.model_name == cfg.DEFAULT_MODEL_NAME
    assert c.benchmark == "ticketledger"
    assert c.llm_timeout == 15.0
    assert c.llm_max_retries <= 2
    assert c.action_schema_mode == "strict"
    assert not c.uses_llm
    assert c.agent_name() == cfg.POLICY_NAME
    assert c.seeds() == [None]


@pytest.mark.parametrize("variable", cfg.KEY_VARIABLES)
def test_any_key_variable_switches_to_the_llm(variable: str) -> None:
    c = cfg.load([], {variable: "sk-secret"})
    assert c.uses_llm and c.api_key_source == variable
    public = json.dumps(c.public())
    assert "sk-secret" not in public
    assert c.public()["api_key_set"] is True


def test_flag_beats_variable_and_agent_policy_ignores_the_key() -> None:
    env = {"API_KEY": "k", "MODEL_NAME": "from-env", "VARIANTS": "2", "SEED": "5"}
    c = cfg.load(["--model-name", "from-flag", "--agent", "policy"], env)
    assert c.model_name == "from-flag"
    assert not c.uses_llm
    assert c.seeds() == [5, 6]
    assert cfg.load([], {"VARIANTS": "3"}).seeds() == [0, 1, 2]
    assert cfg.load(["--variants", "2"], {"SEED": "7", "VARIANTS": "9"}).seeds() == [7, 8]


def test_trials_repeat_the_same_variant() -> None:
    """TRIALS=k plays each variant k times; it no longer walks through seeds (VARIANTS does)."""
    from baseline.runner import plan_jobs
    from domain.tasks import default_catalog

    c = cfg.load([], {"TRIALS": "3", "TASKS": "task_easy_password"})
    assert c.seeds() == [None] and c.trials == 3
    jobs = plan_jobs(c, default_catalog())
    assert [(j.seed, j.trial) for j in jobs] == [(None, 0), (None, 1), (None, 2)]
    c = cfg.load(["--seed", "4", "--variants", "2", "--trials", "2"], {"TASKS": "task_easy_password"})
    jobs = plan_jobs(c, default_catalog())
    assert [(j.seed, j.trial) for j in jobs] == [(4, 0), (4, 1), (5, 0), (5, 1)]


@pytest.mark.parametrize(("agent", "fallback", "uses"), [
    ("auto", None, True), ("llm", None, False), ("llm", "builtin", True), ("auto", "none", False),
])
def test_only_auto_falls_back_to_the_policy_unless_told(agent: str, fallback: str | None,
                                                        uses: bool) -> None:
    env = {"API_KEY": "k", "AGENT": agent, **({"FALLBACK": fallback} if fallback else {})}
    assert cfg.load([], env).uses_fallback is uses


def test_candidate_chain_prefers_task_then_difficulty_then_general() -> None:
    env = {"MODEL_NAME": "m0", "MODEL_CANDIDATES": "a, b,a", "MODEL_CANDIDATES_HARD": "h1,h2",
           "MODEL_CANDIDATES_TASK_TASK_HARD_DATA_BREACH_REPORT": "t1"}
    c = cfg.load(["--model-candidates-task", "task_easy_password=p1,p2"], env)
    assert c.models_for("task_hard_data_breach_report", "hard") == ("t1",)
    assert c.models_for("task_hard_gdpr_deletion", "hard") == ("h1", "h2")
    assert c.models_for("task_easy_password", "easy") == ("p1", "p2")
    assert c.models_for("task_easy_refund_tag", "easy") == ("a", "b")
    assert cfg.load([], {"MODEL_NAME": "m0"}).models_for("x", "easy") == ("m0",)


@pytest.mark.parametrize(("env", "message"), [
    ({"TRIALS": "0"}, "TRIALS must be at least 1"),
    ({"VARIANTS": "0"}, "VARIANTS must be at least 1"),
    ({"FALLBACK": "model"}, "FALLBACK must be one of builtin, none"),
    ({"CONCURRENCY": "many"}, "CONCURRENCY must be an integer"),
    ({"ACTION_SCHEMA_MODE": "loose"}, "ACTION_SCHEMA_MODE must be one of strict, lenient"),
    ({"LLM_TIMEOUT": "-1"}, "LLM_TIMEOUT must be positive"),
    ({"AGENT": "llm"}, "needs a key"),
])
def test_unusable_settings_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(cfg.ConfigError, match=message):
        cfg.load([], env)


def test_credentials_in_urls_are_not_stored() -> None:
    c = cfg.load([], {"DATABASE_URL": "postgresql+psycopg://u:pw@db:5432/x",
                      "API_BASE_URL": "https://user:tok@llm.example/v1"})
    public = json.dumps(c.public())
    assert "pw" not in public and "tok" not in public
    assert cfg.strip_credentials("http://127.0.0.1:7860") == "http://127.0.0.1:7860"


# ------------------------------------------------------------------------------------ stdout
def test_error_text_is_always_one_line() -> None:
    nasty = "boom\nline two\r\nthree\u2028four\x0bfive\ttab"
    line = step_line(3, {"action_type": "noop"}, -0.004, False, nasty)
    assert line.splitlines() == [line]
    assert STEP.match(line)
    assert "reward=0.00" in line  # never "-0.00"
    assert one_line("a" * 1000).endswith("...")


def test_action_json_is_compact_and_escaped() -> None:
    line = step_line(1, {"action_type": "draft_reply", "reply_text": "Hi\nthere \u2028 caf\u00e9"}, 0.1,
                     True, None)
    assert line.splitlines() == [line]
    assert '"action_type":"draft_reply"' in line
    assert line.endswith("done=true error=null")


@pytest.mark.parametrize(("score", "printed"), [(0.0, "0.01"), (1.0, "0.99"), (0.8367, "0.84"),
                                                (0.004, "0.01"), (0.996, "0.99"), (0.5, "0.50")])
def test_printed_score_is_strictly_inside_zero_and_one(score: float, printed: str) -> None:
    assert printed_score(score) == printed
    assert f"score={printed} " in end_line(True, 2, score, [0.5, 0.5])


def test_start_and_end_lines() -> None:
    assert start_line("task_x", "ticketledger", "Qwen/Qwen2.5 72B") == \
        "[START] task=task_x env=ticketledger model=Qwen/Qwen2.5_72B"
    assert end_line(False, 0, 0.0, []) == "[END] success=false steps=0 score=0.01 rewards="
    assert two_decimals(-0.05) == "-0.05"


# ---------------------------------------------------------------------------- reply parsing
@pytest.mark.parametrize("text", [
    '{"action_type": "classify_priority", "priority": "high"}',
    'Sure! ```json\n{"action_type": "classify_priority", "priority": "high"}\n``` hope it helps',
    '```\n{"action_type": "classify_priority", "priority": "high"}\n```',
    'My answer: {"action_type": "classify_priority", "priority": "high"} -- because {it is}',
])
def test_json_is_found_fenced_or_not(text: str) -> None:
    assert extract_json(text) == {"action_type": "classify_priority", "priority": "high"}


def test_braces_inside_strings_do_not_confuse_the_parser() -> None:
    text = 'ok {"action_type": "draft_reply", "reply_text": "use {curly} and \\"quotes\\""} end'
    assert extract_json(text)["reply_text"] == 'use {curly} and "quotes"'


def test_prose_is_not_json() -> None:
    with pytest.raises(BadReply) as info:
        extract_json("I think the priority should be high.")
    assert info.value.kind == "not_json"


def test_strict_mode_takes_only_valid_actions() -> None:
    good = {"action_type": "assign_queue", "queue": "billing"}
    assert to_action(good, "strict") == good
    for bad in ({"action_type": "assign_queue", "queue": "finance"},
                {"action_type": "assign_queue"},  # missing field: a penalised step, not sent
                {"type": "reply", "reply": "hello there"},
                ["not", "an", "object"]):
        with pytest.raises(BadReply) as info:
            to_action(bad, "strict")
        assert info.value.kind == "invalid_action"


@pytest.mark.parametrize(("sloppy", "fixed"), [
    ({"type": "Reply", "reply": "Hello", "confidence": 0.9},
     {"action_type": "draft_reply", "reply_text": "Hello"}),
    ({"action": {"action_type": "Set Priority", "priority": "HIGH"}},
     {"action_type": "classify_priority", "priority": "high"}),
    ({"Action_Type": "route", "queue": "Trust & Safety", "reason": None},
     {"action_type": "assign_queue", "queue": "trust_and_safety"}),
    ([{"action_type": "resolve", "resolution": "Refund Denied"}],
     {"action_type": "resolve_ticket", "resolution_code": "refund_denied"}),
    ({"action_type": "add_internal_note", "text": "4 refunds"},
     {"action_type": "add_internal_note", "note": "4 refunds"}),
    ({"action_type": "lookup_policy", "policy": "Refund Policy"},
     {"action_type": "lookup_policy", "policy_id": "refund_policy"}),
])
def test_lenient_mode_repairs_common_slips(sloppy: object, fixed: dict[str, str]) -> None:
    assert repair(sloppy) == fixed
    assert to_action(sloppy, "lenient") == fixed


def test_lenient_mode_still_refuses_nonsense() -> None:
    with pytest.raises(BadReply):
        to_action({"action_type": "dance"}, "lenient")
    with pytest.raises(BadReply):
        to_action({"action_type": "classify_priority", "priority": "whenever"}, "lenient")


# ------------------------------------------------------------------------------------ pass^k
def _result(task: str, trial: int, score: float, seed: int | None = None) -> EpisodeResult:
    r = EpisodeResult(task, "easy", seed, trial, 0.8, "m", episode_id=f"ep{task}{seed}{trial}", steps=3)
    r.score, r.success = score, score >= 0.8
    return r


def test_pass_hat_is_the_unbiased_estimator() -> None:
    """C(c,k)/C(n,k): of 4 trials with 3 successes, 3 of the 6 pairs and 1 of the 4 triples
    are all successes."""
    from baseline.summary import pass_hat

    assert [pass_hat(4, 3, k) for k in (1, 2, 3, 4)] == [0.75, 0.5, 0.25, 0.0]
    assert pass_hat(5, 5, 5) == 1.0 and pass_hat(3, 0, 1) == 0.0
    with pytest.raises(ValueError):
        pass_hat(2, 1, 3)


def test_pass_k_per_task_is_over_trials_of_one_variant_averaged_over_variants() -> None:
    results = [_result("a", t, s, seed=0) for t, s in enumerate((0.9, 0.85, 0.8))]  # 3 of 3
    results += [_result("a", t, s, seed=1) for t, s in enumerate((0.9, 0.5, 0.95))]  # 2 of 3
    results += [_result("b", t, s, seed=0) for t, s in enumerate((0.1, 0.5, 0.95))]  # 1 of 3
    results += [_result("b", t, s, seed=1) for t, s in enumerate((0.1, 0.5, 0.2))]  # 0 of 3
    summary = summarise(results, 3, variants=2)
    by_task = {t["task_id"]: t for t in summary["tasks"]}
    a, b = by_task["a"], by_task["b"]
    assert (a["variants"], a["trials"], a["episodes"], a["successes"]) == (2, 3, 6, 5)
    assert a["pass_hat"] == {"1": round((1 + 2 / 3) / 2, 4), "2": round((1 + 1 / 3) / 2, 4), "3": 0.5}
    assert b["pass_hat"] == {"1": round(1 / 6, 4), "2": 0.0, "3": 0.0}
    assert a["pass_k"] == 0.5 and b["pass_k"] == 0.0
    assert summary["pass_k"] == {"k": 3, "variants": 2, "overall": 0.25, "by_k": {
        "1": round((a["pass_hat"]["1"] + b["pass_hat"]["1"]) / 2, 4),
        "2": round(a["pass_hat"]["2"] / 2, 4), "3": 0.25}}
    assert summary["success_rate"] == round(6 / 12, 4)


def test_the_summary_keeps_intervals_flip_rates_and_the_noise_floor() -> None:
    """The same four variants as above: a@1, b@0 and b@1 flip verdict between trials, a@0 does not."""
    results = [_result("a", t, s, seed=0) for t, s in enumerate((0.9, 0.85, 0.8))]
    results += [_result("a", t, s, seed=1) for t, s in enumerate((0.9, 0.5, 0.95))]
    results += [_result("b", t, s, seed=0) for t, s in enumerate((0.1, 0.5, 0.95))]
    results += [_result("b", t, s, seed=1) for t, s in enumerate((0.1, 0.5, 0.2))]
    summary = summarise(results, 3, variants=2)
    u = summary["uncertainty"]
    assert (u["units"], u["flipped_units"], u["repeated_units"], u["flip_rate"]) == (4, 2, 4, 0.5)
    assert {t["task_id"]: t["flip_rate"] for t in summary["tasks"]} == {"a": 0.5, "b": 0.5}
    # every estimate is the summary's own figure, inside its interval
    assert u["mean_score"]["value"] == summary["mean_score"]
    assert u["success_rate"]["value"] == summary["success_rate"]
    for k, value in summary["pass_k"]["by_k"].items():
        interval = u["pass_hat"][k]
        assert interval["value"] == value and interval["low"] <= value <= interval["high"]
    assert u["success_rate"]["low"] < u["success_rate"]["high"]
    assert u["noise_floor"]["known"] and u["noise_floor"]["mean_score"]["this_size"] > 0
    assert summarise(results, 3, variants=2)["uncertainty"] == u  # seeded


def test_a_run_cut_short_reports_only_the_k_its_variants_reached() -> None:
    results = [_result("a", 0, 0.9, seed=0), _result("a", 1, 0.9, seed=0), _result("a", 0, 0.9, seed=1)]
    summary = summarise(results, 3, variants=2)
    assert summary["tasks"][0]["pass_hat"] == {"1": 1.0, "2": 1.0}  # pass^2 from seed 0 alone
    assert summary["pass_k"]["overall"] is None and summary["tasks"][0]["trials"] == 1


def test_who_acted_is_counted_per_step() -> None:
    from baseline.agent import NO_ACTOR

    r1, r2 = _result("a", 0, 0.9), _result("a", 1, 0.2)
    r1.actors = ["m1", "m1", "builtin-policy", "m2"]
    r2.actors = [NO_ACTOR, NO_ACTOR]
    summary = summarise([r1, r2], 2, models=["m1", "m2"])
    assert summary["actors"] == {
        "steps": 6, "by_actor": {"m1": 2, NO_ACTOR: 2, "builtin-policy": 1, "m2": 1},
        "share": {"m1": 0.3333, NO_ACTOR: 0.3333, "builtin-policy": 0.1667, "m2": 0.1667},
        "model_steps": 3, "policy_steps": 1, "failed_steps": 2}
    assert summary["episodes"][0]["actors"] == r1.actors
    assert summary["episodes"][0]["chosen_by"] == {"m1": 2, "builtin-policy": 1, "m2": 1}


# ------------------------------------------------------------------ the tests' contract checker
GOOD_BLOCK = ("[START] task=t env=ticketledger model=m\n"
              '[STEP] step=1 action={"action_type":"noop"} reward=-0.02 done=false error=null\n'
              '[STEP] step=2 action={"action_type":"noop"} reward=0.50 done=true error=bad thing\n'
              "[END] success=false steps=2 score=0.48 rewards=-0.02,0.50\n")


@pytest.mark.parametrize("broken", [
    GOOD_BLOCK.replace("[END]", "[START] task=u env=ticketledger model=m\n[END]"),  # interleaved
    GOOD_BLOCK.replace("error=bad thing", "error=bad\nthing"),  # newline inside a line
    GOOD_BLOCK.rsplit("[END]", 1)[0],  # no [END]
    GOOD_BLOCK.replace("steps=2", "steps=3"),
    GOOD_BLOCK.replace("score=0.48", "score=1.00"),
    GOOD_BLOCK.replace("rewards=-0.02,0.50", "rewards=0.50"),
    "progress: 50%\n" + GOOD_BLOCK,
])
def test_the_contract_checker_rejects_broken_output(broken: str) -> None:
    from tests.baseline.inference_helpers import parse

    assert len(parse(GOOD_BLOCK)) == 1
    with pytest.raises(AssertionError):
        parse(broken)


def test_the_agent_name_lists_the_models_a_run_may_use() -> None:
    assert cfg.load([], {"API_KEY": "k", "MODEL_NAME": "m0"}).agent_name() == "llm:m0"
    c = cfg.load([], {"API_KEY": "k", "MODEL_NAME": "m0", "MODEL_CANDIDATES": "a,b",
                      "MODEL_CANDIDATES_HARD": "h", "MODEL_CANDIDATES_TASK_TASK_X": "a,t"})
    assert c.agent_name() == "llm:a,b,h,t"


def test_the_settings_table_in_the_docs_lists_every_variable_and_flag() -> None:
    from pathlib import Path

    table = (Path(__file__).resolve().parents[2] / "docs" / "inference.md").read_text()
    table = table.split("## Settings", 1)[1].split("\n\n**", 1)[0]
    for flag, variable, _ in cfg.VARIABLES:
        if variable.startswith("MODEL_CANDIDATES_"):  # one row for the three difficulties
            variable, flag = "MODEL_CANDIDATES_EASY", "--model-candidates-easy"
        assert f"| `{variable}`" in table and f"| `{flag}`" in table, variable
