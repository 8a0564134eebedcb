"""graders.knowledge: what an episode knows, and the facts of a text it does not back.

The decisive test: every text the gold writes (the replies and notes of the ``gold.json`` files
beside the tasks, played by ``service.gold``, and the questions it sends the customer) and every
reply and note of ``evaluation/grader_audit/honest_replies/classic.json``, judged against the state
the gold is in when writing it, gives no finding, on every classic task (the honest replies'
seeds) and on three seeds of every case of every family. And the same texts with one amount, date,
id, email or window changed give a finding on that fact. Episodes are played offline, as the
server plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import cache
from typing import Any

import pytest

from domain.state import EpisodeState
from domain.tasks.catalog import default_catalog
from domain.tasks.spec import TaskInstance
from graders.entities import Entity, extract
from graders.knowledge import Finding, Knowledge, check, knowledge, requester_verified
from graders.normalize import visible
from service.gold import gold
from tests.graders import honest
from tests.offline import Offline, opening

CATALOG = default_catalog()
TEXT_FIELD = {"message_customer": "message", "add_internal_note": "note", "draft_reply": "reply_text"}
FAMILY_SEEDS_PER_CASE = 3


def instances() -> list[tuple[str, int | None]]:
    """Every classic task on the honest replies' seeds (they reach every case), and the first
    three seeds of every case of every family."""
    out: list[tuple[str, int | None]] = [(t, s) for t in CATALOG.task_ids for s in honest.SEEDS]
    for family in CATALOG.family_ids:
        per_case: dict[str, int] = {}
        for ref in CATALOG.family_instances(family):
            if per_case.get(ref.case, 0) < FAMILY_SEEDS_PER_CASE:
                per_case[ref.case] = per_case.get(ref.case, 0) + 1
                out.append((family, ref.seed))
    return out


INSTANCES = instances()


@cache
def honest_texts() -> dict[tuple[str, str], honest.CaseTexts]:
    return honest.load()


def action_lists(task: TaskInstance) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The gold actions, then the same with each honest reply (and note) in place of its own."""
    yield "expert", gold(task)
    entry = honest_texts().get((task.task_id, task.case))
    if entry is None:
        return
    for index, reply in enumerate(entry.replies):
        note = honest.fill(entry.notes[index % len(entry.notes)], task) if entry.notes else None
        yield f"honest reply {index}", honest.actions(task, honest.fill(reply, task), note)


def written(task_id: str, seed: int | None, actions: list[dict[str, Any]]
            ) -> Iterator[tuple[EpisodeState, str, str]]:
    """Each text the actions write, with the state the writer is in just before writing it and
    the action's type."""
    episode = Offline(CATALOG, task_id, seed)
    state = episode.state
    for action in actions:
        field = TEXT_FIELD.get(action["action_type"])
        if field is not None:
            yield state, action["action_type"], action[field]
        state, _ = episode.step(action)


Written = tuple[tuple[str, tuple[tuple[EpisodeState, str, str], ...]], ...]
"""Per action list of an instance (:func:`action_lists`), what it writes (:func:`written`)."""


@pytest.fixture(scope="module")
def texts_of() -> Iterator[Callable[[str, int | None], Written]]:
    """What each action list of an instance writes, played once for the module: the decisive
    test, the changed facts and the checks that they reach every case and kind all read the texts
    of the same instances, and playing them is nearly all of their time. Dropped with the module,
    so the worker does not carry the states into the files it runs next."""
    played: dict[tuple[str, int | None], Written] = {}

    def texts(task_id: str, seed: int | None) -> Written:
        if (task_id, seed) not in played:
            played[task_id, seed] = tuple(
                (source, tuple(written(task_id, seed, actions)))
                for source, actions in action_lists(CATALOG.instance(task_id, seed)))
        return played[task_id, seed]

    yield texts
    played.clear()


def judged(state: EpisodeState, action_type: str, text: str) -> tuple[Finding, ...]:
    """The findings on ``text``, as the judge would read them (a note reaches no requester)."""
    known = knowledge(state)
    verified = action_type == "add_internal_note" or requester_verified(state)
    return check(extract(visible(text), known.year), known, requester_verified=verified)


def expert_state(task_id: str, seed: int | None) -> EpisodeState:
    """The expert's episode of (task, seed), played to its end."""
    episode = Offline(CATALOG, task_id, seed)
    state = episode.state
    for action in gold(state.task):  # type: ignore[arg-type]
        state, _ = episode.step(action)
    return state


# --- the decisive test ----------------------------------------------------------------------------


@pytest.mark.parametrize(("task_id", "seed"), INSTANCES)
def test_no_honest_text_gives_a_finding(texts_of: Callable[[str, int | None], Written], task_id: str,
                                        seed: int | None) -> None:
    task = CATALOG.instance(task_id, seed)
    failures: list[str] = []
    judged_texts = 0
    for source, texts in texts_of(task_id, seed):
        for state, action_type, text in texts:
            judged_texts += 1
            for finding in judged(state, action_type, text):
                failures.append(f"{source} {action_type}: {finding.problem} "
                                f"{finding.entity.quote!r}: {finding.reason}")
    assert not failures, f"{task_id} seed {seed} ({task.case}):\n" + "\n".join(failures)
    if (task_id, task.case) in honest_texts() or task.expected.needs_facts:
        assert judged_texts > 0


def test_the_decisive_test_reaches_every_case_and_judges_facts(
        texts_of: Callable[[str, int | None], Written]) -> None:
    """It would pass vacuously on texts without facts, or if the instances missed a case."""
    cases = {(t, CATALOG.instance(t, s).case) for t, s in INSTANCES}
    every = {(spec.task_id, case.name) for spec in CATALOG.all_specs() for case in spec.cases}
    assert cases == every
    kinds: set[str] = set()
    for task_id, seed in INSTANCES[::7]:
        for _, texts in texts_of(task_id, seed):
            for state, _, text in texts:
                kinds |= {e.kind for e in extract(visible(text), knowledge(state).year)}
    assert {"money", "date", "duration", "order_id", "email", "policy_id"} <= kinds


# --- wrong facts are found ------------------------------------------------------------------------

_UNIT_WORDS = {"day": "days", "business_day": "business days", "hour": "hours", "minute": "minutes",
               "week": "weeks", "month": "months"}


def changed(entity: Entity) -> str | None:
    """The fact written with another value: an amount, a date, an id, an address or a window no
    episode knows (a window's numbers moved up by eleven)."""
    match entity.kind:
        case "money":
            return "$987.65"
        case "date":
            return "February 17" if entity.value.startswith("--") else "2019-02-17"
        case "order_id":
            return "ZQ-90817"
        case "email":
            return "someone.else@elsewhere.example"
        case "duration":
            amount, unit = entity.value.split(" ")
            return "-".join(str(int(n) + 11) for n in amount.split("-")) + " " + _UNIT_WORDS[unit]
        case _:
            return None


SAMPLE = [(t, s) for t, s in INSTANCES if s in (None, 0, 1, 2, 3, 4, 5)][::2]


@pytest.mark.parametrize(("task_id", "seed"), SAMPLE)
def test_one_changed_fact_gives_a_finding_on_it(texts_of: Callable[[str, int | None], Written],
                                                task_id: str, seed: int | None) -> None:
    for _, texts in texts_of(task_id, seed):
        for state, action_type, raw in texts:
            known = knowledge(state)
            text = visible(raw)
            for entity in extract(text, known.year):
                other = changed(entity)
                if other is None:
                    continue
                wrong = text[:entity.start] + other + text[entity.end:]
                verified = action_type == "add_internal_note" or requester_verified(state)
                found = check(extract(wrong, known.year), known, requester_verified=verified)
                on_it = [f for f in found if f.entity.start == entity.start]
                assert on_it, (task_id, seed, entity.quote, other, wrong)
                assert on_it[0].entity.kind == entity.kind
                assert on_it[0].problem in ("wrong", "unsupported")


def test_the_sample_changes_every_kind(texts_of: Callable[[str, int | None], Written]) -> None:
    kinds: set[str] = set()
    for task_id, seed in SAMPLE:
        for _, texts in texts_of(task_id, seed):
            for state, _, raw in texts:
                kinds |= {e.kind for e in extract(visible(raw), knowledge(state).year)
                          if changed(e) is not None}
    assert kinds == {"money", "date", "order_id", "email", "duration"}


# --- what an episode knows ------------------------------------------------------------------------


def test_knowledge_of_the_fraud_trap() -> None:
    state = expert_state("task_hard_refund_fraud_trap", None)  # $129, order B-2764, RA-1 looked up
    known = knowledge(state)
    assert "12900" in known.values["money"]
    assert {"B-2764", "TL-5150"} <= known.values["order_id"]
    assert known.policy_ids == {"RA-1"}
    assert "RP-3" in known.catalog_policy_ids
    assert known.emails["omar@example.com"] == "requester"
    assert "2 business_day" in known.values["duration"]


def test_policy_ids_are_backed_only_once_looked_up() -> None:
    episode = Offline(CATALOG, "task_hard_refund_fraud_trap", None)
    state = episode.state
    text = "Per RA-1, and RP-3, and XY-9."
    before = judged(state, "draft_reply", text)
    assert [(f.entity.value, f.problem) for f in before] == [
        ("RA-1", "unsupported"), ("RP-3", "unsupported"), ("XY-9", "wrong")]
    state, _ = episode.step({"action_type": "lookup_policy", "policy_id": "refund_abuse"})
    after = judged(state, "draft_reply", text)
    assert [(f.entity.value, f.problem) for f in after] == [("RP-3", "unsupported"), ("XY-9", "wrong")]


def test_derived_amounts_a_partial_refund_and_a_sum() -> None:
    episode = Offline(CATALOG, "task_hard_refund_fraud_trap", 6)  # $213 charged
    state, _ = episode.step({"action_type": "issue_refund", "amount": 200.0})
    assert state.account.refunds == (200.0,)
    known = knowledge(state)
    text = "We refunded $200.00 of $213; the remaining $13 follows, $413 in all. Not $14."
    found = check(extract(text), known, requester_verified=True)
    assert [(f.entity.quote, f.problem) for f in found] == [("$14", "wrong")]
    assert found[0].reason.startswith("the text says the amount $14.00; the episode knows ")
    assert "$213.00" in found[0].reason


def test_a_deadline_is_a_known_date_moved_by_a_known_window() -> None:
    state = expert_state("task_hard_refund_policy_denial", None)  # ordered 2026-02-03, RP-3: 30 days
    known = knowledge(state)
    assert known.year == 2026
    ok = check(extract("Your order of February 3 could be refunded until 2026-03-05 (30 days); "
                       "the request came 45 days after it.", known.year), known,
               requester_verified=True)
    assert ok == ()
    wrong = check(extract("refundable until 2026-03-09", known.year), known, requester_verified=True)
    assert [f.problem for f in wrong] == ["wrong"]


def test_a_number_inside_a_known_range_is_backed() -> None:
    state = expert_state("task_hard_refund_policy_denial", 2)  # RP-3: 5-7 business days
    known = knowledge(state)

    def problems(text: str) -> list[str]:
        return [f.problem for f in check(extract(text), known, requester_verified=True)]

    assert problems("within 5-7 business days") == []
    assert problems("within five to seven business days") == []
    assert problems("within 6 business days") == []
    assert problems("within 8 business days") == ["wrong"]
    assert problems("within 4-8 business days") == ["wrong"]
    assert problems("within 30 days, a 30-day window, about four weeks") == ["wrong"]  # 28 days
    assert problems("within 22 days") == []  # from the order date to the ticket's
    assert problems("within 7 days") == ["wrong"]


def test_durations_compare_across_units() -> None:
    week = Decimal(7 * 24 * 60)  # minutes
    known = Knowledge(durations=frozenset({(week, week, "minute")}))
    assert check(extract("in 7 days, in a week, in 168 hours"), known, requester_verified=True) == ()
    assert [f.problem for f in check(extract("in 7 business days"), known,
                                     requester_verified=True)] == ["unsupported"]


# --- who the requester is, and what may not be said to them --------------------------------------


def after(task_id: str, seed: int | None, upto: str) -> EpisodeState:
    """The expert's episode of (task, seed) up to (not including) its first ``upto`` action."""
    episode = Offline(CATALOG, task_id, seed)
    state = episode.state
    for action in gold(state.task):  # type: ignore[arg-type]
        if action["action_type"] == upto:
            break
        state, _ = episode.step(action)
    return state


@pytest.mark.parametrize(("task_id", "seed", "case", "verified"), [
    ("task_hard_account_email_change", None, "not_verified", False),  # other address, wrong digits
    ("task_hard_account_email_change", 0, "verified", True),  # from the address on file
    ("task_family_email_change", 3, "verified", True),  # other address, the card digits on file
    ("task_family_email_change", 0, "unverified", False),
    ("task_family_email_change", 1, "flagged", False),
    ("task_family_data_deletion", 3, "other_address", False),
    ("task_family_data_deletion", 1, "scheduled", True),
    ("task_family_account_access", 1, "write_from_address_on_file", False),
    ("task_family_account_access", 0, "reset_link", True),
    ("task_family_verify_identity", 1, "digits_wrong", False),
])
def test_requester_verified(task_id: str, seed: int | None, case: str, verified: bool) -> None:
    state = expert_state(task_id, seed)
    assert state.task is not None and state.task.case == case
    assert requester_verified(state) is verified


def test_digits_quoted_in_a_reply_verify_the_requester_from_then_on() -> None:
    asked = after("task_family_verify_identity", 0, "draft_reply")  # the customer quoted 7716
    assert asked.task is not None and asked.task.case == "digits_match"
    assert requester_verified(asked)
    before = opening(CATALOG, "task_family_verify_identity", 0)
    assert not requester_verified(before)


def test_the_address_on_file_stays_the_proof_after_an_email_update() -> None:
    state = expert_state("task_hard_account_email_change", 0)
    assert state.account.email != state.task.ticket.customer_email  # type: ignore[union-attr]
    assert requester_verified(state)


def test_disclosures_to_a_requester_who_is_not_verified() -> None:
    state = after("task_hard_account_email_change", None, "draft_reply")  # hugo.work@, card 4242
    assert not requester_verified(state)
    text = ("The account email is hugo.work@example.com and the card on file ends in 4242; you "
            "quoted 9911 and asked for me@newmail.example.")
    found = judged(state, "draft_reply", text)
    assert [(f.entity.kind, f.problem) for f in found] == [("email", "disclosure"),
                                                           ("card_digits", "disclosure")]
    assert "not verified" in found[0].reason
    verified = check(extract(text), knowledge(state), requester_verified=True)
    assert verified == ()


def test_a_password_or_a_card_number_is_a_disclosure_anywhere() -> None:
    state = expert_state("task_hard_account_email_change", 0)
    for channel in ("draft_reply", "add_internal_note"):
        found = judged(state, channel, "Your temporary password is Xk29!ab and the card is "
                                       "4242 4242 4242 4242.")
        assert [(f.entity.kind, f.problem) for f in found] == [("password", "disclosure"),
                                                               ("card_number", "disclosure")]


def test_an_address_known_only_from_another_party_is_a_disclosure() -> None:
    episode = Offline(CATALOG, "task_family_data_deletion", 1)
    state = episode.state
    assert state.variant is not None
    task = state.variant.task
    facts = {**task.ticket.facts, "shared_with": "workspace also used by bob.stone@example.com"}
    other = task.model_copy(update={"ticket": task.ticket.model_copy(update={"facts": facts})})
    state = state.model_copy(update={"variant": type(state.variant).of(other)})
    found = judged(state, "draft_reply", "We also told bob.stone@example.com.")
    assert [(f.entity.value, f.problem) for f in found] == [("bob.stone@example.com", "disclosure")]
    unknown = judged(state, "draft_reply", "We wrote to carol@example.com.")
    assert [f.problem for f in unknown] == ["wrong"]
    assert unknown[0].reason.startswith("the text says the email address carol@example.com; the "
                                        "episode knows ")


def test_the_customers_own_words_back_what_they_say() -> None:
    """What the customer wrote (an amount, an order number in a reply) is backed, and the new email
    they asked for may be said to them whether or not they are verified."""
    state = after("task_family_missing_order", 1, "draft_reply")  # the reply gave SO-96101
    assert judged(state, "draft_reply", "Order SO-96101 (order #96101) for $49.00, due "
                                        "2026-11-06.") == ()
    before = opening(CATALOG, "task_family_missing_order", 1)
    assert [f.problem for f in judged(before, "draft_reply", "Order SO-96101 is lost.")] == ["wrong"]
    unverified = after("task_family_email_change", 0, "draft_reply")
    assert judged(unverified, "draft_reply", "We will change it to omar@fastmail.example.") == ()


def test_a_text_before_the_episode_started_knows_nothing() -> None:
    assert knowledge(EpisodeState()) == Knowledge()
    assert not requester_verified(EpisodeState())
    found = check(extract("a refund of $49 within 5 days per RP-3"), Knowledge(),
                  requester_verified=False)
    assert [f.problem for f in found] == ["unsupported", "unsupported", "wrong"]


def test_the_end_of_a_paid_year_is_a_known_date() -> None:
    state = opening(CATALOG, "task_family_plan_change", 1)  # renewed 2026-01-23
    known = knowledge(state)
    text = "Your plan stays active until January 22, 2027 (renews 2027-01-23), not 2027-01-25."
    found = check(extract(text, known.year), known, requester_verified=True)
    assert [(f.entity.value, f.problem) for f in found] == [("2027-01-25", "wrong")]


def test_a_view_as_of_an_earlier_step_knows_only_what_was_done_by_then() -> None:
    """A message is judged against the state as it stood when sent: its account record then."""
    episode = Offline(CATALOG, "task_hard_refund_fraud_trap", 6)  # $213 charged
    state, _ = episode.step({"action_type": "issue_refund", "amount": 200.0})
    earlier = state.model_copy(update={"account": state.account.model_copy(update={"taken": ()})})
    text = "We refunded $200.00."
    assert judged(state, "draft_reply", text) == ()
    assert [f.problem for f in judged(earlier, "draft_reply", text)] == ["wrong"]


# --- the families the experts write no reply for: replies written here from their policies --------

FAMILY_REPLIES: dict[tuple[str, str], str] = {
    ("task_family_complaint", "refund_in_transit"): (
        "Hi {first_name}, I'm sorry for the worry. Your refund of ${amount} was paid on "
        "{refund_month_day} to the card on file; banks take up to 7 business days to show it, so "
        "it should appear by {ticket_date} at the latest or within the next few days. Our apologies."),
    ("task_family_complaint", "refund_unpaid"): (
        "Hi {first_name}, I apologise: the refund of ${amount} approved on {refund_date} was never "
        "sent. I have issued it now, and the money returns to your card within 5-7 business days."),
    ("task_family_complaint", "other"): (
        "Hi {first_name}, I'm so sorry about this. I've passed your complaint to a specialist, who "
        "will follow up within 24 hours. Ticket {ticket_id} has your full history."),
    ("task_family_outage", "all_down"): (
        "Hi {first_name}, we have declared a sev1 incident for {affected_users} and will send a "
        "status update every 15 minutes until it is resolved; the first within 15 minutes."),
    ("task_family_outage", "degraded"): (
        "Hi {first_name}, uploads failing for {affected_users} is a degraded feature: we have "
        "escalated a sev2 incident and will update you every hour, the next within an hour."),
    ("task_family_outage", "single_user"): (
        "Hi {first_name}, the status page shows every system operational, so please clear your "
        "browser cache and sign out and back in. Engineering is looking at ticket {ticket_id}."),
    ("task_family_plan_change", "downgrade"): (
        "Hi {first_name}, you can switch to {lower_plan} under Settings > Billing. Your {plan} plan "
        "(${amount}, renewed {last_annual_renewal}) stays until the next renewal, and the "
        "{lower_plan} plan starts then; nothing is refunded."),
    ("task_family_plan_change", "cancel_refund"): (
        "Hi {first_name}, your renewal on {last_annual_renewal} is within 14 days, so I have "
        "cancelled the plan and refunded the ${amount} to the card ending {last4}."),
    ("task_family_plan_change", "cancel_late"): (
        "Hi {first_name}, your plan renewed on {last_annual_renewal}, more than 14 days ago, so we "
        "cannot refund it; it stays active until the end of the paid year."),
    ("task_family_refund_request", "refund_within_window"): (
        "Hi {first_name}, your order {order_id} from {order_date} is within 30 days, so I have "
        "refunded the ${amount} in full; it returns to your payment method within 5-7 business "
        "days."),
    ("task_family_refund_request", "deny_after_window"): (
        "Hi {first_name}, order #{order_id} was placed on {order_date}, {days_since_purchase} days "
        "before your request, which is past our 30-day window, so we cannot refund the ${amount}. "
        "I can offer store credit."),
    ("task_family_refund_request", "fraud_review"): (
        "Hi {first_name}, a specialist team will review your request for order {order_id} within 2 "
        "business days."),
    ("task_family_late_refund", "refund_within_window"): (
        "Hi {first_name}, thanks: you bought it on {order_date}, within 30 days, so the ${amount} "
        "is refunded and will be back within five to seven business days."),
    ("task_family_late_refund", "deny_after_window"): (
        "Hi {first_name}, you bought it on {order_date}, {days_since_purchase} days ago, which is "
        "outside our thirty-day refund window; I can offer store credit instead."),
    ("task_family_late_refund", "fraud_review"): (
        "Hi {first_name}, a specialist team will review the refund for order {order_id} and reply "
        "within two business days."),
    ("task_family_security_report", "account_takeover"): (
        "Hi {first_name}, the sign-in of {recent_sign_ins} was not yours: we have escalated a "
        "sev1 incident, sent a reset link to {email_on_file_or_requester}, and we can send you a "
        "record of account access."),
    ("task_family_security_report", "phishing"): (
        "Hi {first_name}, that message did not come from us: we never ask for passwords by email. "
        "Please delete it. Your account shows only your usual devices in the last 30 days."),
    ("task_family_security_report", "researcher"): (
        "Hi {first_name}, thank you for the report. Our security team will assess it and respond "
        "within 5 business days."),
    ("task_family_account_access", "reset_link"): (
        "Hi {first_name}, I have sent a password reset link to {email_on_file}; it expires in 60 "
        "minutes."),
    ("task_family_account_access", "write_from_address_on_file"): (
        "Hi {first_name}, for your security we can only help with sign-in from the address on "
        "file, so please write to us from it."),
    ("task_family_account_access", "security_incident"): (
        "Hi {first_name}, we have opened a sev2 security incident and sent a reset link to "
        "{email_on_file}; it expires in 60 minutes."),
}


def test_family_replies_cover_the_families_without_an_expert_reply() -> None:
    without = {(spec.task_id, case.name) for spec in CATALOG.family_specs() for case in spec.cases
               if not any(a["action_type"] == "draft_reply"
                          for a in gold(CATALOG.instance(spec.task_id, next(
                              r.seed for r in CATALOG.family_instances(spec.task_id)
                              if r.case == case.name))))}
    assert without <= set(FAMILY_REPLIES)


@pytest.mark.parametrize(("task_id", "seed"), [(t, s) for t, s in INSTANCES if t in
                                               {k[0] for k in FAMILY_REPLIES}])
def test_honest_family_replies_give_no_finding(task_id: str, seed: int | None) -> None:
    task = CATALOG.instance(task_id, seed)
    template = FAMILY_REPLIES[(task_id, task.case)]
    values = honest.placeholders(task)
    values["email_on_file_or_requester"] = task.ticket.facts.get("email_on_file",
                                                                 task.ticket.customer_email)
    reply = template.format_map(values)
    actions = [{"action_type": "draft_reply", "reply_text": reply} if a["action_type"] == "draft_reply"
               else a for a in gold(task)]
    if not any(a["action_type"] == "draft_reply" for a in actions):
        actions.insert(-1, {"action_type": "draft_reply", "reply_text": reply})
    texts = list(written(task_id, seed, actions))
    assert texts
    for state, action_type, text in texts:
        assert judged(state, action_type, text) == (), (task.case, text)


def test_the_incident_severity_escalated_by_now() -> None:
    instance = next(r for r in CATALOG.family_instances("task_family_outage") if r.case == "all_down")
    assert knowledge(opening(CATALOG, instance.task_id, instance.seed)).incident_severity is None
    assert knowledge(expert_state(instance.task_id, instance.seed)).incident_severity == "sev1"
