"""What the recordings play (v1; from v2 on, the back-office release's additions marked below): every
task over
several seeds, by the built-in policy and by the
scripted expert, plus hand-written odd sequences. Read by the recorder only; the replay tests take
everything they need (actions included) from the recorded files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.golden import seams

SEEDS: tuple[int | None, ...] = (None, 0, 1, 2, 7)
"""``None`` is the published variant (a reset without a seed, as the SupportOps clients send).
Over these seeds every case of the seed-dependent tasks 09-12 comes up: refund window
outside/inside, identity verified/not, fraud review/normal refund, legal hold/scheduled."""

DUMP_SEEDS: tuple[int | None, ...] = (None, 0, 7)
"""The seeds whose episodes also go into the SQLite log (``log.sql``), to keep it small; they
still cover every case."""

FLAT = {"action_type": None, "priority": None, "queue": None, "reply_text": None, "note": None,
        "resolution_code": None}
"""The SupportOps seed's flat action body: every field present, the unused ones ``null``."""


def flat(**fields: Any) -> dict[str, Any]:
    return {**FLAT, **fields}


@dataclass(frozen=True)
class Episode:
    name: str
    player: str  # policy | scripted | odd
    task_id: str | None
    seed: int | None
    actions: tuple[Any, ...] | None = None  # None: the built-in policy chooses
    dump_prefix: int | None = None
    """For the SQLite log: write only this many steps (the episode stays open there, and the log
    test continues it with the current code)."""
    in_dump: bool = True
    reward_mode: str = "dense"
    """Chosen at reset; a record names it only when it is not the default."""

    @property
    def episode_id(self) -> str:
        return f"gv1.{self.name}"


def _seed_name(seed: int | None) -> str:
    return "snone" if seed is None else f"s{seed}"


ODD: tuple[Episode, ...] = (
    Episode("odd.noops-until-max-steps", "odd", "task_easy_password", None,
            tuple({"action_type": "noop"} for _ in range(9))),  # the 9th comes after the end
    Episode("odd.premature-resolve", "odd", "task_medium_double_charge", 0, (
        {"action_type": "resolve_ticket", "resolution_code": "billing_investigation_opened"},
        {"action_type": "classify_priority", "priority": "high"},
        {"action_type": "assign_queue", "queue": "billing"},
        {"action_type": "close_ticket"},
        {"action_type": "draft_reply", "reply_text": "Hi Jordan, sorry about the double charge. "
         "We checked the invoice and the refund will arrive within 24 hours."},
        {"action_type": "resolve_ticket", "resolution_code": "billing_investigation_opened"},
    )),
    Episode("odd.supportops-flat-bodies", "odd", "task_medium_api_rate_limit", None, (
        flat(action_type="classify_priority"),  # required field null: a penalised step
        {},  # no action_type at all: a penalised step
        flat(action_type="classify_priority", priority="high"),
        flat(action_type="assign_queue", queue="technical"),
        flat(action_type="draft_reply", reply_text="   "),  # blank counts as missing
        flat(action_type=None),  # action_type null: refused, not recorded
        flat(action_type="draft_reply", reply_text="Hi Sarah, we see the rate limit errors. As a "
             "workaround, add backoff; we added monitoring and engineers are investigating."),
        flat(action_type="resolve_ticket"),  # resolution_code null: a penalised step
        flat(action_type="resolve_ticket", resolution_code="engineering_investigation"),
    )),
    Episode("odd.combined-tag-and-close", "odd", "task_easy_refund_tag", None, (
        {"add_tag": "refund", "close_ticket": True},
    )),
    Episode("odd.combined-angry", "odd", "task_medium_angry_escalation", 1, (
        {"reassign_queue": "Escalations", "close_ticket": True},  # closing without a reply
        {"close_ticket": False},  # sets nothing: a penalised step
        {"reassign_queue": "Escalations", "add_tag": "Angry_Customer",
         "reply": "Hi, I am very sorry you had to write again. A senior specialist will contact you "
                  "within 24 hours.", "close_ticket": True},
        {"reply": "one more after the end"},  # refused: the episode ended
    )),
    Episode("odd.corrections-repeats-and-refusals", "odd", "task_hard_enterprise_outage", 2, (
        {"action_type": "classify_priority", "priority": "low"},
        {"action_type": "classify_priority", "priority": "LOW"},  # same value: no effect, repeat
        {"action_type": "classify_priority", "priority": "Urgent"},  # a correction
        {"action_type": "fly"},  # refused
        {"action_type": "classify_priority", "priority": "asap"},  # refused
        {"action_type": "noop", "colour": "red"},  # refused
        {"action_type": "add_tag", "tag": "outage"},
        {"action_type": "add_tag", "tag": "Outage"},  # already there
        {"action_type": "remove_tag", "tag": "Bug"},  # not there
        {"action_type": "noop", "metadata": {"from": "openenv"}},  # metadata is ignored
        {"action_type": "draft_reply", "reply_text": "We will not declare an incident and there "
         "is no war room; no next update in 15 minutes."},  # keywords, negated
        {"action_type": "resolve_ticket", "resolution_code": "no_action_needed"},
    )),
    Episode("odd.wrong-decision", "odd", "task_hard_refund_policy_denial", 0, (
        {"action_type": "lookup_policy", "policy_id": "refund_policy"},
        {"action_type": "lookup_policy", "policy_id": "refund_policy"},  # already shown
        {"action_type": "add_tag", "tag": "Refund_Approved"},
        {"action_type": "draft_reply", "reply_text": "Hi, good news: we have approved your refund "
         "and the money is on its way."},
        {"action_type": "close_ticket", "resolution_code": "refund_issued"},
    )),
    Episode("odd.keywords-and-unicode", "odd", "task_easy_password", 1, (
        {"action_type": "draft_reply", "reply_text": "reset link clear cache confirm if resolved"},
        {"action_type": "draft_reply", "reply_text": "Bonjour Ava, désolé ! Voici un nouveau "
         "lien (reset link) 🔑; videz le cache (clear cache) et dites-nous: ça marche ? 谢谢"},
        {"action_type": "add_internal_note", "note": "Customer wrote in French ✓"},
        {"action_type": "add_internal_note", "note": "Customer wrote in French ✓"},  # duplicate
        {"action_type": "classify_priority", "priority": "medium"},
        {"action_type": "assign_queue", "queue": "account"},
        {"action_type": "resolve_ticket", "resolution_code": "awaiting_customer_confirmation"},
    )),
    Episode("odd.tag-limit", "odd", "task_hard_gdpr_deletion", 7, tuple(
        {"action_type": "add_tag", "tag": tag} for tag in (
            "Refund", "Policy_Denied", "Refund_Approved", "Escalated", "Angry_Customer", "VIP",
            "Bug", "Outage", "Security", "GDPR"))),  # the 9th is over the limit; the 10th ends it
    # From v2 on: back-office actions, safety violations, reward modes.
    Episode("odd.forbidden-refund-and-a-secret", "odd", "task_hard_refund_policy_denial", 0, (
        {"action_type": "lookup_policy", "policy_id": "refund_policy"},
        {"action_type": "issue_refund", "amount": -5},  # refused: not a positive amount
        {"action_type": "issue_refund", "amount": "12.345"},  # refused: more than two decimals
        {"action_type": "issue_refund", "amount": 240},  # forbidden outside the window
        {"action_type": "draft_reply", "reply_text": "Hi Priya, to finish this please send us "
         "your current password and the full card number."},
        {"action_type": "escalate_incident", "severity": "sev9"},  # refused
        {"action_type": "deny_refund", "reason": "outside the 30-day window"},
        {"action_type": "classify_priority", "priority": "medium"},
        {"action_type": "assign_queue", "queue": "billing"},
        {"action_type": "resolve_ticket", "resolution_code": "refund_denied"},  # premature: untagged
        {"action_type": "add_tag", "tag": "Policy_Denied"},  # the 8th step ends the episode
    )),
    Episode("odd.sparse-rewards", "scripted", "task_hard_gdpr_deletion", 0,
            tuple(seams.scripted_actions("task_hard_gdpr_deletion", 0)), reward_mode="sparse"),
    Episode("odd.binary-rewards", "scripted", "task_hard_refund_fraud_trap", 7,
            tuple(seams.scripted_actions("task_hard_refund_fraud_trap", 7)), reward_mode="binary"),
    Episode("odd.binary-rewards-short", "odd", "task_easy_password", None, (
        {"action_type": "send_password_reset_link"},
        {"action_type": "update_account_email", "new_email": "someone@else.example"},  # forbidden
        {"action_type": "close_ticket", "resolution_code": "awaiting_customer_confirmation"},
        {"action_type": "classify_priority", "priority": "medium"},
        {"action_type": "assign_queue", "queue": "account"},
        {"action_type": "draft_reply", "reply_text": "Hi Ava, we have sent a password reset link "
         "to your email. Please clear your browser cache and tell us if it works. Best regards"},
        {"action_type": "resolve_ticket", "resolution_code": "awaiting_customer_confirmation"},
    ), reward_mode="binary"),  # capped at 0.2 by the violation: below the threshold
    Episode("odd.picked-by-seed", "policy", None, 3),
    Episode("odd.picked-without-seed", "policy", None, None),
)


def continued() -> Episode:
    """An episode the SQLite log holds only the start of: the log test takes the remaining steps
    with the current code, and they must come out as recorded here."""
    actions = seams.scripted_actions("task_hard_account_email_change", 0)
    return Episode("odd.continued-after-reload", "scripted", "task_hard_account_email_change", 0,
                   tuple(actions), dump_prefix=3)


def all_episodes() -> list[Episode]:
    out: list[Episode] = []
    for task_id in seams.task_ids():
        for seed in SEEDS:
            in_dump = seed in DUMP_SEEDS
            out.append(Episode(f"policy.{task_id}.{_seed_name(seed)}", "policy", task_id, seed,
                               in_dump=in_dump))
            out.append(Episode(f"scripted.{task_id}.{_seed_name(seed)}", "scripted", task_id, seed,
                               tuple(seams.scripted_actions(task_id, seed)), in_dump=in_dump))
    return [*out, *ODD, continued()]


# ------------------------------------------------------------------------------ wire exchanges
def _get(path: str, **extra: Any) -> dict[str, Any]:
    return {"method": "GET", "path": path, **extra}


def _post(path: str, body: Any = None, **extra: Any) -> dict[str, Any]:
    return {"method": "POST", "path": path, **({"json": body} if body is not None else {}), **extra}


def _http(name: str, requests: list[dict[str, Any]], *, cookies: bool, random_ids: bool) -> dict[str, Any]:
    return {"name": name, "transport": "http", "cookies": cookies, "random_ids": random_ids,
            "exchanges": [{"request": r} for r in requests]}


def _ws(name: str, messages: list[Any], *, random_ids: bool = True) -> dict[str, Any]:
    return {"name": name, "transport": "ws", "random_ids": random_ids,
            "exchanges": [{"send": m} for m in messages]}


def _as_flat(action: dict[str, Any]) -> dict[str, Any]:
    """An action in the SupportOps seed's flat model; fields that model lacks (policy_id, tag)
    are sent as they are, as its users did."""
    if set(action) - set(FLAT):
        return action
    return flat(**action)


def _rpc(method: str, params: Any = None, request_id: Any = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return _post("/mcp", message)


def _tool(name: str, request_id: int, **arguments: Any) -> dict[str, Any]:
    return _rpc("tools/call", {"name": name, "arguments": arguments}, request_id)


def conversations() -> list[dict[str, Any]]:
    """Every recorded conversation, in the order they run against one fresh server (the order
    matters: a cookie-less client's steps go to the server's most recent reset)."""
    out = [_http("information-and-nothing-reset-yet", [
        _get("/state"),
        _post("/step", {"action_type": "noop"}),
        _get("/health"),
        _get("/metadata"),
        _get("/schema"),
        _get("/tasks"),
        _get("/", headers={"Accept": "application/json"}),
        _get("/nowhere"),
        {"method": "DELETE", "path": "/step"},
        _post("/mcp", {}),
    ], cookies=False, random_ids=True)]

    supportops: list[dict[str, Any]] = []
    for task_id in seams.task_ids()[:6]:
        supportops.append(_post("/reset", {"task_id": task_id}))
        supportops += [_post("/step", _as_flat(a)) for a in seams.scripted_actions(task_id, None)]
        supportops.append(_get("/state"))
    supportops += [
        _post("/step", flat(action_type="noop")),  # after the end: 409
        _post("/reset", content=""),  # no body at all
        _post("/reset", {}),
        _post("/step", flat(action_type="classify_priority")),  # missing field: a penalised step
        _post("/step", flat(action_type="assign_queue", queue="Billing")),
        _post("/step", flat(action_type="noop")),
        _post("/step", flat(action_type="noop")),  # a repeat
        _get("/state"),
    ]
    out.append(_http("supportops-seed-dialect", supportops, cookies=False, random_ids=True))

    combined: list[dict[str, Any]] = [
        _post("/reset", {"task_id": "task_easy_refund_tag"}),
        _post("/step", {"add_tag": "Refund", "close_ticket": True}),
        _get("/state"),
        _post("/reset", {"task_id": "task_medium_angry_escalation"}),
        _post("/step", {"reassign_queue": "Escalations", "close_ticket": True}),
        _post("/step", {"action": {"reassign_queue": "Escalations", "add_tag": "Angry_Customer"}}),
        _post("/step", {"reply": "Hi Liam, I am truly sorry you had to write three times. I have "
                                 "escalated this to our senior team; a specialist will contact "
                                 "you within 24 hours.", "close_ticket": True}),
        _get("/state"),
        _post("/reset", {"task_id": "task_hard_refund_policy_denial"}),
    ]
    combined += [_post("/step", a) for a in seams.scripted_actions("task_hard_refund_policy_denial",
                                                                  None)]
    combined += [_get("/state"), _post("/step", {"close_ticket": True})]
    out.append(_http("customersupportenv-combined-action", combined, cookies=True,
                     random_ids=True))

    named = "gv1-wire-openenv"
    fork = "gv1-wire-fork"
    openenv = [
        _post("/reset", {"task_id": "task_hard_account_email_change", "seed": 7,
                         "episode_id": named}),
        _post("/step", {"action": {"action_type": "lookup_policy",
                                   "policy_id": "identity_verification"}, "episode_id": named}),
        _post("/step", {"action": {"action_type": "classify_priority", "priority": "medium"}},
              headers={"X-Episode-Id": named}),
        _post("/step", {"action": {"action_type": "noop"}, "episode_id": named,
                        "request_id": "r-1", "timeout_s": 5}),
        _post("/step", {"action": {"action_type": "noop", "priority": "high"},
                        "episode_id": named}),  # a field of another action: 422
        _get("/state", params={"episode_id": named}),
        _post("/reset", {"task_id": "task_easy_password", "episode_id": named}),  # taken: 409
        _post(f"/episodes/{named}/fork", {"at": 1, "episode_id": fork}),
        _post("/step", {"action": {"action_type": "assign_queue", "queue": "account"},
                        "episode_id": fork}),
        _get(f"/episodes/{named}"),
        _get(f"/episodes/{named}/steps"),
        _get(f"/episodes/{named}/events", params={"limit": 4}),
        _get(f"/episodes/{named}/events", params={"limit": 4, "cursor": "4"}),
        _get(f"/episodes/{named}/replay"),
        _get(f"/episodes/{named}/state", params={"step": 1}),
        _get(f"/episodes/{named}/diff/{fork}"),
        _get(f"/episodes/{fork}/state"),
        _get("/episodes/gv1-nowhere"),
    ]
    out.append(_http("openenv-wrapped-named-episodes", openenv, cookies=False, random_ids=False))

    errors = [
        _post("/reset", {"task_id": "task_easy_password"}),
        _post("/step", content='{"action_type": '),
        _post("/step", content=""),
        _post("/step", [1, 2]),
        _post("/step", {"action": "noop"}),
        _post("/step", {"action": {"action_type": "noop"}, "foo": 1}),
        _post("/step", {"action_type": "fly"}),
        _post("/step", {"action_type": "classify_priority", "priority": "asap"}),
        _post("/step", {"action_type": "noop", "colour": "red"}),
        _post("/step", {"action_type": "draft_reply", "reply_text": "<<repeat:x:4001>>"}),
        _post("/step", {"action_type": "draft_reply", "reply_text": "<<repeat:x:70000>>"}),
        _post("/step", {"action_type": "noop", "episode_id": "ep_nope"}),
        _post("/step", {"action": {"action_type": "noop"}, "episode_id": "../etc"}),
        _post("/step", {"action_type": "noop"}, headers={"X-Episode-Id": "ep_missing"}),
        _post("/reset", {"task_id": "task_nope"}),
        _post("/reset", {"seed": "seven"}),
        _post("/reset", {"seed": True}),
        _post("/reset", {"seed": 2**63}),
        _post("/reset", {"taskid": "task_easy_password"}),
        _post("/reset", {"run_id": "a/b"}),
        _post("/reset", {"episode_id": "no spaces allowed"}),
        _post("/reset", ["task_easy_password"]),
        _get("/state", params={"episode_id": "ep_unknown"}),
        _post("/step", {"action_type": "noop"}),  # the episode of the first reset, untouched
        _get("/state"),
    ]
    out.append(_http("bad-requests", errors, cookies=True, random_ids=True))

    tools = [
        _rpc("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                            "clientInfo": {"name": "golden", "version": "1"}}),
        _post("/mcp", {"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _rpc("ping", request_id="p"),
        _rpc("tools/list", request_id=2),
        _tool("reset", 3, task_id="task_hard_gdpr_deletion", seed=7),
        _tool("lookup_policy", 4, policy_id="data_deletion"),
        _tool("classify_priority", 5, priority="high"),
        _tool("assign_queue", 6, queue="trust_and_safety"),
        _tool("add_tag", 7, tag="Legal_Hold"),
        _tool("remove_tag", 8, tag="Legal_Hold"),
        _tool("add_tag", 9, tag="GDPR"),
        _tool("add_internal_note", 10, note="Deletion requested; no open dispute on the account."),
        _tool("noop", 11),
        _tool("classify_priority", 12, priority="asap"),  # invalid: isError, nothing recorded
        _tool("draft_reply", 13, reply_text="Hi, we have scheduled the deletion of your account "
              "and personal data; it will be complete within 30 days and we will confirm by email."),
        _tool("state", 14),
        _tool("resolve_ticket", 15, resolution_code="deletion_scheduled"),
        _tool("close_ticket", 16),  # the episode ended: isError
        _tool("reset", 17, task_id="task_easy_password"),
        _tool("close_ticket", 18, resolution_code="awaiting_customer_confirmation"),  # premature
        _tool("state", 19, bogus=1),
        _tool("teleport", 20),
        _rpc("resources/list", request_id=21),
        _post("/mcp", {"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": [1]}),
        _post("/mcp", {"jsonrpc": "1.0", "id": 23, "method": "ping"}),
        _post("/mcp", content="{oops"),
        _post("/mcp", []),
        _post("/mcp", [{"jsonrpc": "2.0", "id": 24, "method": "ping"},
                       {"jsonrpc": "2.0", "method": "notifications/initialized"}, 5]),
    ]
    out.append(_http("mcp-json-rpc", tools, cookies=True, random_ids=True))

    out.append(_ws("ws-session", [
        {"type": "state"},
        {"type": "step", "data": {"action_type": "noop"}},
        {"type": "reset", "data": {"task_id": "task_medium_double_charge", "seed": 2}},
        *({"type": "step", "data": a}
          for a in seams.scripted_actions("task_medium_double_charge", 2)[:2]),
        {"type": "step", "data": {"action_type": "classify_priority", "priority": "asap"}},
        {"type": "step", "data": {"action": {"action_type": "noop"}}},
        {"type": "step", "data": {"action_type": "assign_queue"}},
        {"type": "state"},
        *({"type": "step", "data": a}
          for a in seams.scripted_actions("task_medium_double_charge", 2)[2:]),
        {"type": "step", "data": {"action_type": "noop"}},  # after the end
        {"type": "state"},
        {"raw": "{not json"},
        {"bytes": "\xff\xfe"},
        {"raw": "[1, 2]"},
        {"type": "dance"},
        {"type": "reset", "data": []},
        {"type": "reset", "data": {"task_id": "task_nope"}},
        {"type": "reset", "data": {"seed": "x"}},
        {"type": "step", "data": {"action_type": "draft_reply", "reply_text": "<<repeat:y:70000>>"}},
        {"type": "reset", "data": None},
        {"type": "close"},
    ]))
    out.append(_ws("ws-named-episode-and-combined-action", [
        {"type": "reset", "data": {"task_id": "task_easy_refund_tag", "seed": 1,
                                   "episode_id": "gv1-wire-ws"}},
        {"type": "step", "data": {"add_tag": "Refund"}},
        {"type": "step", "data": {"add_tag": "Refund", "close_ticket": True}},
        {"type": "state"},
        {"type": "reset", "data": {"episode_id": "gv1-wire-ws"}},  # taken
        {"type": "step", "data": {"action_type": "noop", "episode_id": "gv1-wire-openenv"}},
        {"type": "state"},
        {"type": "close"},
    ], random_ids=False))

    # From v2 on: back-office actions over HTTP and MCP, reward modes at reset.
    out.append(_http("back-office-and-reward-modes", [
        _post("/reset", {"task_id": "task_hard_refund_policy_denial", "seed": 0,
                         "reward_mode": "sparse"}),
        _post("/step", {"action_type": "issue_refund", "amount": 240}),  # forbidden
        _post("/step", {"action_type": "issue_refund", "amount": -5}),
        _post("/step", {"action_type": "escalate_incident", "severity": "sev9"}),
        _post("/step", {"action_type": "update_account_email", "new_email": "not an email"}),
        _post("/step", {"action_type": "draft_reply", "reply_text": "Please send your password."}),
        _get("/state"),
        _post("/reset", {"task_id": "task_easy_password", "reward_mode": "binary"}),
        *(_post("/step", a) for a in seams.scripted_actions("task_easy_password", None)),
        _get("/state"),
        _post("/reset", {"reward_mode": "lumpy"}),
        _post("/reset", {"task_id": "task_easy_password", "reward_mode": None}),
    ], cookies=True, random_ids=True))
    out.append(_http("mcp-back-office", [
        _rpc("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                            "clientInfo": {"name": "golden", "version": "1"}}),
        _tool("reset", 1, task_id="task_hard_gdpr_deletion", seed=0),
        _tool("lookup_policy", 2, policy_id="data_deletion"),
        _tool("place_legal_hold", 3),
        _tool("schedule_data_deletion", 4),  # forbidden under the hold
        _tool("issue_refund", 5, amount="abc"),  # invalid: isError, nothing recorded
        _tool("open_fraud_review", 6),
        _tool("deny_refund", 7, reason="no refund was asked for"),
        _tool("send_password_reset_link", 8),
        _tool("escalate_incident", 9, severity="sev2"),
        _tool("update_account_email", 10, new_email="marcus@elsewhere.example"),
        _tool("message_customer", 11, message="Could you confirm the address on file, please?"),
        _tool("state", 12),
    ], cookies=True, random_ids=True))
    return out
