"""The web viewer in a real headless Chromium against a live server with real episodes: what each
page shows (rows, the verification badge, the score chart, the highlighted divergence), that agent
text is escaped (an XSS reply stays text), the audit token flow, and a screenshot of every page."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from service import EnvironmentService
from store import open_database
from store.runs import RunStore
from tests.audit_helpers import live_server, play_weak, scratch_database
from tests.databases import sqlite_pass_only
from tests.play import play

pytestmark = sqlite_pass_only("the viewer is the same over either backend, and the queries "
                              "behind it run on PostgreSQL in test_audit_queries and test_audit_rest")

TOKEN = "ui-token-123"
XSS = ("<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\"> "
       "Hello, we are looking into this for you. Best regards, Support")
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> str:
    if BROWSER is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (.ci/run installs Debian's chromium)")
        pytest.skip("chromium is not installed: apt-get install chromium")
    return BROWSER


def _chromium(binary: str, profile: Path, url: str, *extra: str) -> str:
    args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,1000",
            *extra, url]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class Page(HTMLParser):
    """The parts of a rendered page the tests look at."""

    def __init__(self, dom: str):
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.title = ""
        self._in_title = False
        self.feed(dom)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_title:
            self.title += data

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        def matches(found: dict[str, str | None]) -> bool:
            for k, v in attrs.items():
                value = found.get(k.rstrip("_").replace("_", "-")) or ""
                if v not in value.split() and v != value:
                    return False
            return True

        return [a for t, a in self.elements if t == tag and matches(a)]

    @property
    def all_text(self) -> str:
        return " ".join(" ".join(self.text).split())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A live server over real episodes: an expert and a weak one of the same task, an XSS reply,
    and one tampered episode whose replay must fail."""
    with scratch_database(tmp_path_factory.mktemp("ui-db")) as url:
        db = open_database(url)
        service = EnvironmentService(db)
        RunStore(db).start("run_ui", "policy:weak-vs-expert", {"note": "<b>not bold</b>"})
        made = {
            "expert": play(service, "task_easy_password", run_id="run_ui")[0].episode_id,
            "weak": play_weak(service, "task_easy_password", run_id="run_ui")[0].episode_id,
            "xss": play(service, "task_easy_password", [
                {"action_type": "classify_priority", "priority": "low"},
                {"action_type": "draft_reply", "reply_text": XSS}], run_id="run_ui")[0].episode_id,
            "other": play(service, "task_medium_double_charge", run_id="run_ui")[0].episode_id,
            "tampered": play(service, "task_easy_password")[0].episode_id,
        }
        RunStore(db).finish("run_ui", {})
        with db.write() as conn:  # an attacker edits a stored event (one byte), trigger dropped
            if db.dialect == "sqlite":
                conn.execute(text("DROP TRIGGER events_no_update"))
            else:
                conn.execute(text("DROP TRIGGER events_no_update_delete ON events"))
            conn.execute(text("UPDATE events SET data = REPLACE(data, '\"medium\"', '\"mediuM\"') "
                              "WHERE episode_id = :e AND type = 'PriorityClassified'"),
                         {"e": made["tampered"]})
        db.dispose()
        log_dir = tmp_path_factory.mktemp("ui-log")
        with live_server(url, log_dir / "server.log") as base:
            made["base"] = base
            made["url"] = url
            yield made


@pytest.fixture
def shoot(browser: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Render a page: returns the parsed DOM after scripts ran; saves a screenshot when named."""

    def run(url: str, screenshot: str | None = None) -> Page:
        dom = _chromium(browser, tmp_path / "profile", url, "--dump-dom")
        if screenshot is not None:
            shot = tmp_path / f"{screenshot}.png"
            _chromium(browser, tmp_path / "profile", url, f"--screenshot={shot}", "--hide-scrollbars")
            assert shot.stat().st_size > 10_000, "the screenshot is (nearly) empty"
        return Page(dom)

    return run


def test_episode_list(site: dict[str, str], shoot) -> None:  # type: ignore[no-untyped-def]
    page = shoot(site["base"] + "/ui", "episodes")
    links = {a["href"] for a in page.find("a") if (a["href"] or "").startswith("/ui/episodes/")}
    assert {f"/ui/episodes/{site[k]}" for k in ("expert", "weak", "xss", "other", "tampered")} <= links
    assert len(page.find("tr")) == 1 + 5
    assert len(page.find("meter")) == 5
    filtered = shoot(site["base"] + "/ui?task=task_medium_double_charge&status=ended")
    rows = [a["href"] for a in filtered.find("a") if (a["href"] or "").startswith("/ui/episodes/")]
    assert rows == [f"/ui/episodes/{site['other']}"]
    by_model = shoot(site["base"] + "/ui?model=weak-vs")
    assert site["tampered"] not in by_model.all_text and site["expert"] in by_model.all_text


@pytest.mark.slow
def test_episode_page_badge_chart_and_timeline(site: dict[str, str], shoot) -> None:  # type: ignore[no-untyped-def]
    page = shoot(site["base"] + f"/ui/episodes/{site['expert']}", "episode")
    (badge,) = page.find("span", id="verify-badge")
    assert "badge-ok" in (badge["class"] or "") and "replay verified" in page.all_text
    assert len(page.find("svg", id="score-chart")) == 1
    steps = page.find("tr", data_step="1")
    points = page.find("circle")
    timeline_rows = [a for t, a in page.elements if t == "tr" and "data-step" in a]
    assert len(points) == len(timeline_rows) + 1 and len(steps) == 1  # step 0 plus one per step
    assert page.find("polyline", class_="score-line")
    assert "priority set to medium" in page.all_text


def test_tampered_episode_fails_its_badge(site: dict[str, str], shoot) -> None:  # type: ignore[no-untyped-def]
    page = shoot(site["base"] + f"/ui/episodes/{site['tampered']}", "tampered")
    (badge,) = page.find("span", id="verify-badge")
    assert "badge-bad" in (badge["class"] or "")
    assert re.search(r"first divergence at step 1 \(chain\)", page.all_text)
    assert page.find("tr", class_="diverged") and page.find("circle", class_="bad")


def test_agent_text_is_escaped(site: dict[str, str], shoot) -> None:  # type: ignore[no-untyped-def]
    for path in (f"/ui/episodes/{site['xss']}", f"/ui/diff?a={site['expert']}&b={site['xss']}"):
        page = shoot(site["base"] + path)
        assert page.title != "pwned" and "pwned" not in page.title
        assert "<script>document.title='pwned'</script>" in page.all_text  # shown as text
        scripts = page.find("script")
        assert [s["src"] for s in scripts] == ["/ui/static/app.js"]
        assert not page.find("img")
    raw = httpx.get(site["base"] + f"/ui/episodes/{site['xss']}", timeout=30)
    assert "default-src 'none'" in raw.headers["content-security-policy"]
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in raw.text


@pytest.mark.slow
def test_diff_page_highlights_the_first_divergence(site: dict[str, str], shoot) -> None:  # type: ignore[no-untyped-def]
    page = shoot(site["base"] + f"/ui/diff?a={site['expert']}&b={site['weak']}", "diff")
    expected = httpx.get(site["base"] + f"/episodes/{site['expert']}/diff/{site['weak']}",
                         timeout=30).json()["first_divergence"]["step"]
    (row,) = page.find("tr", id="first-divergence")
    assert "first-divergence" in (row["class"] or "")
    assert f"first divergence at step {expected}" in page.all_text
    rows = [a for t, a in page.elements if t == "tr"]
    # after the summary table (header, A, B) and the steps table's header: step k is row k + 3
    assert rows.index(row) == expected + 3


@pytest.mark.slow
def test_run_page_shows_the_task_table(site: dict[str, str], shoot) -> None:  # type: ignore[no-untyped-def]
    page = shoot(site["base"] + "/ui/runs/run_ui", "run")
    assert "Per-task scores" in page.all_text
    task_links = [a["href"] for a in page.find("a") if "task=" in (a["href"] or "")]
    assert len(task_links) == 2  # task_easy_password and task_medium_double_charge
    assert "<b>not bold</b>" in page.all_text and not page.find("b")
    runs = shoot(site["base"] + "/ui/runs")
    assert "run_ui" in runs.all_text


def test_unknown_episode_is_a_404_page(site: dict[str, str]) -> None:
    response = httpx.get(site["base"] + "/ui/episodes/ep_nope", timeout=30)
    assert response.status_code == 404 and "no episode" in response.text
    assert httpx.get(site["base"] + "/ui/static/style.css", timeout=30).status_code == 200


def test_viewer_behind_the_audit_token(site: dict[str, str], browser: str, tmp_path: Path) -> None:
    with live_server(site["url"], tmp_path / "server.log", TICKETLEDGER_AUDIT_TOKEN=TOKEN) as base:
        refused = httpx.get(base + "/ui", timeout=30)
        assert refused.status_code == 401 and "?token=" in refused.text
        assert httpx.get(base + "/ui?token=wrong", timeout=30).status_code == 401
        # a browser opens the link with the token once; the cookie keeps it signed in
        profile = tmp_path / "profile"
        first = Page(_chromium(browser, profile, base + f"/ui?token={TOKEN}", "--dump-dom"))
        assert site["expert"] in first.all_text
        with httpx.Client(base_url=base, timeout=30) as client:
            hop = client.get(f"/ui/runs?token={TOKEN}")
            assert hop.status_code == 303 and "token" not in hop.headers["location"]
            assert "httponly" in hop.headers["set-cookie"].lower() and TOKEN not in hop.headers["set-cookie"]
            assert client.get(f"/ui/episodes/{site['expert']}").status_code == 200
