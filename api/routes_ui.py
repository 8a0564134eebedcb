"""The web viewer at ``/ui``: server-rendered pages over the same audit views as REST and the CLI.

Pages: the episode list (filters: task, run, model, status, score range), an episode's timeline with
a running-score chart and a replay-verification badge, a diff of two episodes with the first
divergence highlighted, the run list and a run's per-task score table. No front-end build and
nothing from another host: HTML from here, CSS and a small script from ``/ui/static``.

Token: the viewer is part of the audit surface: off (403) without a token on a server that does not
listen on loopback only (``api.deps.audit_off_message``). When ``TICKETLEDGER_AUDIT_TOKEN`` is set the
viewer is behind it too. Open any page once with
``?token=<token>``: the server answers with a redirect to the same page without the token and sets
an HttpOnly, SameSite=Strict cookie holding a hash of the token (never the token itself), valid
for ``/ui``. An ``Authorization: Bearer`` header works as well.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from api.deps import Env, audit_off_message
from api.errors import error_body
from api.ui_html import (
    CSP,
    Markup,
    badge,
    e,
    join,
    link,
    page,
    score_chart,
    score_meter,
    signed,
    table,
    tag,
    url,
)
from graders import to_float
from service.audit_views import Auditor
from service.errors import BadRequest, ServiceError
from store.queries import EpisodeFilter

STATIC_DIR = Path(__file__).parent / "static"
COOKIE = "tl_audit"
PAGE_SIZE = 50

router = APIRouter(prefix="/ui", include_in_schema=False)


# ------------------------------------------------------------------------------------ plumbing
def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status,
                        headers={"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "same-origin", "Cache-Control": "no-store"})


def _error(title: str, message: str, status: int) -> HTMLResponse:
    return _html(page(title, tag("p", message, class_="error")), status)


def _cookie_value(token: str) -> str:
    return hashlib.sha256(f"ticketledger-ui:{token}".encode()).hexdigest()


def _gate(request: Request, token: str | None) -> Response | None:
    """None if the viewer may be shown; otherwise the response to send instead (see module doc)."""
    if not token:
        return None
    given = request.query_params.get("token")
    if given is not None:
        if not secrets.compare_digest(given.encode(), token.encode()):
            return _error("Token refused", "That token is not TICKETLEDGER_AUDIT_TOKEN.", 401)
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
        response = RedirectResponse(request.url.path + ("?" + urlencode(rest) if rest else ""), 303)
        response.set_cookie(COOKIE, _cookie_value(token), httponly=True, samesite="strict", path="/ui")
        return response
    cookie = request.cookies.get(COOKIE, "")
    if cookie and secrets.compare_digest(cookie.encode(), _cookie_value(token).encode()):
        return None
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer " and secrets.compare_digest(auth[7:].encode(), token.encode()):
        return None
    return _error("Audit token needed",
                  "This viewer is behind TICKETLEDGER_AUDIT_TOKEN. Open this page once with "
                  "?token=<the token> added to its address; a cookie keeps you signed in.", 401)


def _render(request: Request, env: Env, build: Any) -> Response:
    """Check the audit surface is on and the token, build the page, turn service errors into an
    HTML error page."""
    off = audit_off_message(env.settings, request)
    if off:
        return JSONResponse(error_body(403, off, "forbidden"), status_code=403)
    refused = _gate(request, env.settings.audit_token)
    if refused is not None:
        return refused
    try:
        return _html(build(env.auditor))
    except ServiceError as exc:
        return _error("Not available", str(exc), exc.status)


def _episode_link(episode_id: str | None) -> Markup:
    return link(f"/ui/episodes/{episode_id}", episode_id) if episode_id else e(None)


def _action_text(actions: list[dict[str, Any]] | None, raw: Any = None) -> Markup:
    if not actions:
        return tag("code", raw if raw is not None else "-")
    items = []
    for a in actions:
        kind = a.get("action_type", "?")
        rest = {k: v for k, v in a.items() if k != "action_type" and v is not None}
        items.append(tag("li", tag("code", kind) + join(
            tag("div", tag("span", f"{k}: ", class_="key") + tag("span", v, class_="val"))
            for k, v in rest.items())))
    return tag("ul", join(items), class_="actions")


def _seed(seed: int | None) -> str:
    return "published" if seed is None else str(seed)


def _float(value: str | None) -> float | None:
    if value in (None, ""):
        return None
    try:
        return float(value)
    except ValueError:
        raise BadRequest(f"{value!r} is not a number") from None


# ----------------------------------------------------------------------------------- episodes
@router.get("", response_class=HTMLResponse)
@router.get("/", response_class=HTMLResponse)
def episodes_page(request: Request, env: Env) -> Response:
    q = request.query_params

    def build(a: Auditor) -> str:
        where = EpisodeFilter(task_id=q.get("task") or None, run_id=q.get("run") or None,
                              status=q.get("status") or None, min_score=_float(q.get("min_score")),
                              max_score=_float(q.get("max_score")), model=q.get("model") or None)
        data = a.list_episodes(where, PAGE_SIZE, q.get("cursor") or None)
        form = _filter_form(a, q)
        rows = [[_episode_link(ep["episode_id"]), ep["task_id"], _seed(ep["seed"]),
                 badge(ep["status"], "open" if ep["status"] == "open" else "ended"), ep["step_count"],
                 score_meter(ep["score"]),
                 link(f"/ui/runs/{ep['run_id']}", ep["run_id"]) if ep["run_id"] else e(None),
                 (_episode_link(ep["forked_from"]["episode_id"]) + f" @ {ep['forked_from']['at']}"
                  if ep["forked_from"] else e(None)),
                 (ep["created_at"] or "")[:19].replace("T", " ")]
                for ep in data["episodes"]]
        listing = (table(["Episode", "Task", "Seed", "Status", "Steps", "Score", "Run", "Forked from",
                          "Created (UTC)"], rows, class_="grid episodes")
                   if rows else tag("p", "No episodes match.", class_="empty"))
        more = e("")
        if data["next_cursor"]:
            params = {k: v for k, v in q.items() if k != "cursor"}
            more = tag("p", link(url("/ui", **params, cursor=data["next_cursor"]), "Next page →",
                                 class_="next"))
        return page("Episodes", form + listing + more + _diff_form())

    return _render(request, env, build)


def _filter_form(a: Auditor, q: Any) -> Markup:
    def select(name: str, options: list[str], label: str) -> Markup:
        opts = tag("option", "any", value="")
        opts += join(tag("option", o, value=o, selected=(q.get(name) == o)) for o in options)
        return tag("label", label + " " + tag("select", opts, name=name))

    def text(name: str, label: str, **attrs: Any) -> Markup:
        return tag("label", label + " " + tag("input", "", name=name, value=q.get(name, ""), **attrs))

    fields = (select("task", a.catalog.task_ids, "Task") + text("run", "Run", size="18")
              + text("model", "Model", size="14") + select("status", ["open", "ended"], "Status")
              + text("min_score", "Score ≥", type="number", step="0.01", min="0", max="1")
              + text("max_score", "≤", type="number", step="0.01", min="0", max="1")
              + tag("button", "Filter", type="submit"))
    return tag("form", fields, method="get", action="/ui", class_="filters")


def _diff_form(a: str = "", b: str = "") -> Markup:
    fields = (tag("label", "Episode A " + tag("input", "", name="a", value=a, size="30"))
              + tag("label", "Episode B " + tag("input", "", name="b", value=b, size="30"))
              + tag("button", "Compare", type="submit"))
    return tag("form", tag("h2", "Compare two episodes") + fields, method="get", action="/ui/diff",
               class_="filters diff-form")


@router.get("/episodes/{episode_id}", response_class=HTMLResponse)
def episode_page(request: Request, env: Env, episode_id: str) -> Response:
    def build(a: Auditor) -> str:
        shown = a.show(episode_id)
        report = a.replay(episode_id)
        ep, task = shown["episode"], shown["task"]
        bad_steps = {d["step"] for d in report["divergences"] if d["step"] is not None}
        if report["consistent"]:
            verdict = badge("✓ replay verified", "ok", id="verify-badge")
            detail = tag("span", f"chain intact, score {report['recomputed_score']} reproduced by "
                                 f"{report['grader_version']}", class_="muted")
        else:
            first = report["first_divergence"]
            verdict = badge("✗ replay diverged", "bad", id="verify-badge")
            where = f"step {first['step']}" if first["step"] is not None else f"event {first['seq']}"
            detail = tag("span", f"first divergence at {where} ({first['kind']}): {first['message']}",
                         class_="error")
        fork = ep["forked_from"]
        closing = shown.get("closing")
        facts = [
            ("Task", f"{task['task_id']} — {task['title']} ({task['difficulty']})"),
            ("Seed / case", f"{_seed(task['seed'])} / {task['case']}"),
            ("Status", f"{ep['status']} after {ep['step_count']} of {task['max_steps']} steps"
                       + (f", closed: {closing['reason']} (ended from outside a step)"
                          if closing else "")),
            ("Score", score_meter(ep["score"])),
            ("Run", link(f"/ui/runs/{ep['run_id']}", ep["run_id"]) if ep["run_id"] else e(None)),
            ("Forked from", _episode_link(fork["episode_id"]) + f" at step {fork['at']}"
             if fork else e(None)),
            ("Chain head", tag("code", ep["head_hash"]) + f" (event {ep['last_seq']})"),
            ("Grader", shown["grader_version"]),
            ("Expected end state", tag("code", task["expected"])),
        ]
        summary = tag("dl", join(tag("dt", k) + tag("dd", v) for k, v in facts), class_="facts")
        points = [(0, 0.0)] + [(s["step"], s["score"] or 0.0) for s in shown["steps"]]
        chart = tag("figure", score_chart(points, divergent=bad_steps)
                    + tag("figcaption", "Running score by step"))
        rows, attrs = [], []
        for s in shown["steps"]:
            why = join(tag("div", tag("span", f"{m['component']} ", class_="key")
                               + signed(m["delta"]) + f" {m['detail']}")
                       for m in s["moved"])
            change = join(tag("div", c) for c in s["changes"])
            if s["error"]:
                change += tag("div", s["error"], class_="error")
            effects = [t for t in s["events"] if t not in ("ActionReceived", "StepGraded")]
            rows.append([s["step"], _action_text(s["actions"], s["action"]), change or e("no change"),
                         tag("small", ", ".join(effects) or "-"), signed(s["reward"]), s["score"],
                         why or tag("span", "nothing moved", class_="muted")])
            attrs.append({"data_step": s["step"], "class_": "diverged" if s["step"] in bad_steps else None})
        if closing:  # the closing is no step: a row of its own, after the last step, paying nothing
            rows.append([e("-"), tag("span", f"closed: {closing['reason']}", class_="muted"),
                         f"episode ended from outside a step (event {closing['seq']})",
                         tag("small", "EpisodeEnded"), e("-"), e("-"),
                         tag("span", "not graded: the score stays the last step's", class_="muted")])
            attrs.append({"data_closing": closing["reason"]})
        steps = table(["Step", "Action", "State change", "Events", "Reward", "Score", "Reason"], rows,
                      class_="grid timeline", row_attrs=attrs)
        final = shown["steps"][-1]["components"] if shown["steps"] else {}
        grade = table(["Component", "Earned", "Weight", "Detail"],
                      [[k, to_float(v["earned"]), to_float(v["weight"]), v["detail"]]
                       for k, v in final.items()], class_="grid")
        body = (tag("p", verdict + " " + detail, class_="verdict") + summary + chart
                + tag("h2", "Timeline") + steps + tag("h2", "Final grade") + grade
                + _diff_form(episode_id))
        return page(f"Episode {episode_id}", body)

    return _render(request, env, build)


# --------------------------------------------------------------------------------------- diff
@router.get("/diff", response_class=HTMLResponse)
def diff_page(request: Request, env: Env) -> Response:
    a_id, b_id = request.query_params.get("a", ""), request.query_params.get("b", "")

    def build(a: Auditor) -> str:
        if not a_id or not b_id:
            return page("Compare two episodes", _diff_form(a_id, b_id))
        data = a.diff(a_id, b_id)
        first = data["first_divergence"]
        if first is None:
            banner = badge("identical step by step", "ok", id="diff-verdict")
        else:
            what = []
            if not first["same_action"]:
                what.append("actions differ")
            if first["state_differences"]:
                what.append("state differs in " + ", ".join(first["state_differences"]))
            if first["reward_a"] != first["reward_b"]:
                what.append("rewards differ")
            banner = (badge(f"first divergence at step {first['step']}", "bad", id="diff-verdict")
                      + " " + ", ".join(what) + " " + link("#first-divergence", "jump to it"))
        note = e("") if data["same_task"] else tag(
            "p", f"These are different task variants ({data['task_a']} vs {data['task_b']}).",
            class_="error")
        heads = table(["", "Episode", "Steps", "Final score"], [
            ["A", _episode_link(a_id), data["steps_a"], score_meter(data["score_a"])],
            ["B", _episode_link(b_id), data["steps_b"], score_meter(data["score_b"])]])
        rows, attrs = [], []
        for row in data["steps"]:
            is_first = first is not None and row["step"] == first["step"]
            fields = join(tag("div", tag("span", f"{k}: ", class_="key") + tag("del", v["a"])
                                     + " → " + tag("ins", v["b"]))
                          for k, v in row["state_differences"].items())
            rows.append([row["step"], _action_text(row["action_a"]), _action_text(row["action_b"]),
                         fields or tag("span", "same", class_="muted"), signed(row["reward_a"]),
                         signed(row["reward_b"]),
                         tag("details", tag("summary", "reasons") + tag("p", "A: " + e(row["reason_a"]))
                             + tag("p", "B: " + e(row["reason_b"])))])
            classes = " ".join(c for c in ("first-divergence" if is_first else "",
                                           "" if row["same_action"] else "action-differs") if c)
            attrs.append({"id": "first-divergence" if is_first else None, "class_": classes or None})
        grid = table(["Step", "Action A", "Action B", "State differences (A → B)", "Reward A",
                      "Reward B", "Why"], rows, class_="grid diff", row_attrs=attrs)
        body = tag("p", banner, class_="verdict") + note + heads + grid + _diff_form(a_id, b_id)
        return page("Diff", body)

    return _render(request, env, build)


# --------------------------------------------------------------------------------------- runs
@router.get("/runs", response_class=HTMLResponse)
def runs_page(request: Request, env: Env) -> Response:
    def build(a: Auditor) -> str:
        data = a.list_runs(PAGE_SIZE, request.query_params.get("cursor") or None)
        rows = [[link(f"/ui/runs/{r['run_id']}", r["run_id"]), r["agent"], r["status"],
                 (r["started_at"] or "")[:19].replace("T", " "), r["episodes"],
                 score_meter(r["mean_score"]) if r["mean_score"] is not None else e(None)]
                for r in data["runs"]]
        listing = (table(["Run", "Agent", "Status", "Started (UTC)", "Episodes", "Mean score"], rows)
                   if rows else tag("p", "No runs recorded yet: python inference.py records one.",
                                    class_="empty"))
        more = (tag("p", link(url("/ui/runs", cursor=data["next_cursor"]), "Next page →"))
                if data["next_cursor"] else e(""))
        return page("Runs", listing + more)

    return _render(request, env, build)


def _acted(steps: dict[str, int]) -> str:
    """Steps per actor and their share: which model played the run, and how much the built-in
    policy or failed steps (``none``) took over."""
    total = sum(steps.values())
    return ", ".join(f"{actor}: {n} steps ({n / total:.0%})" for actor, n in steps.items()) or "-"


def _figures(figures: dict[str, Any]) -> Markup:
    """The run's figures with their 95% intervals, its flip rate and noise floor
    (``service.results``; the method is in docs/evaluation.md)."""
    if not figures.get("units"):
        return e("")
    rows = [["Mean score", *_bounds(figures["mean_score"])],
            ["Success rate", *_bounds(figures["success_rate"])]]
    rows += [[f"pass^{k}", *_bounds(v)] for k, v in figures.get("pass_hat", {}).items()]
    floor = figures.get("noise_floor") or {}
    flips = ("-" if figures.get("flip_rate") is None else
             f"{figures['flip_rate']:.2f} ({figures['flipped_units']} of {figures['repeated_units']} "
             "instances changed verdict between trials)")
    noise = (f"mean score {floor['mean_score']['this_size']:.4f}, success rate "
             f"{floor['success_rate']['this_size']:.2f} (two runs of this size differing by less "
             "mean nothing)" if floor.get("known") else f"unknown: {floor.get('reason', '-')}")
    method = figures["method"]
    facts = [("Flip rate over trials", flips), ("Noise floor", noise),
             ("Intervals", f"{method['level']:.0%} percentile bootstrap over {figures['units']} "
                           f"task instances, {method['resamples']} resamples, seed {method['seed']}")]
    return (tag("h2", "Figures") + table(["Figure", "Value", "95% interval"], rows, class_="grid figures")
            + tag("dl", join(tag("dt", k) + tag("dd", v) for k, v in facts), class_="facts"))


def _bounds(interval: dict[str, Any]) -> list[str]:
    return [f"{interval['value']:.4f}", f"[{interval['low']:.4f}, {interval['high']:.4f}]"]


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(request: Request, env: Env, run_id: str) -> Response:
    def build(a: Auditor) -> str:
        run = a.run(run_id)
        facts = [("Agent", run["agent"]), ("Status", run["status"]),
                 ("Who acted", _acted(run["actors"])),
                 ("Started", run["started_at"]), ("Ended", run["ended_at"]),
                 ("Configuration", tag("code", run["config"]))]
        summary = tag("dl", join(tag("dt", k) + tag("dd", v) for k, v in facts), class_="facts")
        tasks = table(["Task", "Episodes", "Ended", "Mean score", "Min", "Max", "Steps"],
                      [[link(url("/ui", task=t["task_id"], run=run_id), t["task_id"]), t["episodes"],
                        t["ended"], score_meter(t["mean_score"]), t["min_score"], t["max_score"],
                        t["steps"]] for t in run["tasks"]], class_="grid tasks")
        episodes = table(["Episode", "Task", "Seed", "Status", "Steps", "Score", "Chain head"],
                         [[_episode_link(ep["episode_id"]), ep["task_id"], ep["seed"], ep["status"],
                           ep["step_count"], score_meter(ep["score"]),
                           tag("code", ep["head_hash"][:16] + "…")] for ep in run["episodes"]])
        more = (tag("p", link(url("/ui", run=run_id), "All of this run's episodes →"))
                if run["episodes_next_cursor"] else e(""))
        body = (summary + _figures(run.get("figures") or {}) + tag("h2", "Per-task scores") + tasks
                + tag("h2", "Episodes") + episodes + more)
        return page(f"Run {run_id}", body, nav=[(f"/ui/runs/{run_id}", run_id)])

    return _render(request, env, build)


def install(app: FastAPI) -> None:
    app.include_router(router)
    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")
