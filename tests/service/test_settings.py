"""One settings object: read from the environment once, flags override it; read-only commands never
create a database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from service.settings import Settings, SettingsError, read
from store import DEFAULT_DATABASE_URL
from tests.servers import ROOT


def test_defaults_when_nothing_is_set() -> None:
    settings = read({})
    assert settings.database_url == DEFAULT_DATABASE_URL == "sqlite:///data/ticketledger.db"
    assert (settings.max_body_bytes, settings.max_sessions, settings.session_idle_timeout_s) == (
        65_536, 256, 300)
    assert (settings.host, settings.port, settings.workers) == (None, 7860, 1)  # host: the entry's
    assert settings.audit_token is None and settings.blocking_calls == "auto"


def test_every_variable_is_read_by_its_documented_name() -> None:
    settings = read({"DATABASE_URL": "sqlite:///elsewhere.db", "TICKETLEDGER_AUDIT_TOKEN": "t",
                     "TICKETLEDGER_MAX_BODY_BYTES": "1000", "TICKETLEDGER_MAX_SESSIONS": "3",
                     "TICKETLEDGER_SESSION_IDLE_TIMEOUT": "9", "TICKETLEDGER_BLOCKING_CALLS": "Thread",
                     "HOST": "127.0.0.1", "PORT": "8000", "WEB_CONCURRENCY": "4", "UNRELATED": "x"})
    assert settings == Settings(database_url="sqlite:///elsewhere.db", audit_token="t",
                                max_body_bytes=1000, max_sessions=3, session_idle_timeout_s=9,
                                blocking_calls="thread", host="127.0.0.1", port=8000, workers=4)
    documented = (ROOT / "docs" / "operations.md").read_text()
    for field in Settings.model_fields.values():
        assert f"`{field.alias}`" in documented or f"${field.alias}" in documented, field.alias


@pytest.mark.parametrize(("command", "environ", "expected"), [
    (["serve"], {}, "127.0.0.1"),  # ticketledger serve: this machine unless told otherwise
    (["serve"], {"HOST": "0.0.0.0"}, "0.0.0.0"),
    (["serve", "--host", "::1"], {"HOST": "0.0.0.0"}, "::1"),  # the flag wins
    ([], {}, "0.0.0.0"),  # the server entry point (OpenEnv's, the Space's): every interface
    ([], {"HOST": "127.0.0.1"}, "127.0.0.1"),
])
def test_each_entry_point_has_its_own_default_interface(command: list[str], environ: dict[str, str],
                                                        expected: str) -> None:
    import argparse

    from cli.main import build_parser
    from server.app import CONTAINER_HOST, add_arguments, with_flags

    if command:
        args = build_parser().parse_args(command)
    else:
        parser = argparse.ArgumentParser()
        add_arguments(parser, CONTAINER_HOST)
        args = parser.parse_args([])
    assert with_flags(read(environ), args).host == expected


def test_host_and_origin_lists_are_comma_separated() -> None:
    assert read({}).allowed_hosts == ("localhost", "127.0.0.1", "::1", "*.hf.space")
    assert read({}).allowed_origins == ()
    settings = read({"TICKETLEDGER_ALLOWED_HOSTS": "Tickets.Example.org, *.internal ,",
                     "TICKETLEDGER_ALLOWED_ORIGINS": "https://app.example.org"})
    assert settings.allowed_hosts == ("tickets.example.org", "*.internal")
    assert settings.allowed_origins == ("https://app.example.org",)


def test_an_empty_variable_counts_as_unset() -> None:
    assert read({"DATABASE_URL": "", "TICKETLEDGER_AUDIT_TOKEN": "", "PORT": ""}) == read({})


@pytest.mark.parametrize(("name", "value"), [("TICKETLEDGER_MAX_BODY_BYTES", "64k"),
                                             ("PORT", "http"),
                                             ("TICKETLEDGER_BLOCKING_CALLS", "sometimes")])
def test_an_unusable_value_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=f"^{name}='{value}' cannot be used: "):
        read({name: value})


def test_flags_that_were_given_override_the_environment() -> None:
    settings = read({"PORT": "8000", "DATABASE_URL": "sqlite:///env.db"})
    assert settings.override(port=None, database_url=None) == settings
    flagged = settings.override(port=9000, database_url="sqlite:///flag.db")
    assert (flagged.port, flagged.database_url, flagged.host) == (9000, "sqlite:///flag.db", None)


@pytest.mark.parametrize("command", [["runs"], ["runs", "show", "r1"], ["episodes"], ["show", "ep_x"],
                                     ["replay", "ep_x"], ["verify"], ["heads"], ["diff", "a", "b"],
                                     ["export"], ["regrade", "--dry-run"], ["fork", "ep_x", "--at", "0"]])
def test_reading_commands_never_create_a_database(command: list[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "no database at data/ticketledger.db" in err
    assert str(tmp_path / "data" / "ticketledger.db") in err, "says which file it looked for"
    assert "--database-url" in err and "DATABASE_URL" in err, "says how to point at another"
    assert list(tmp_path.iterdir()) == [], "nothing created, not even data/"


def test_a_missing_database_named_by_flag_is_reported_as_json_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'nowhere' / 'log.db'}"
    assert main(["--database-url", url, "episodes", "--json"]) == 2
    out = capsys.readouterr().out
    assert '"code": "no_database"' in out and str(tmp_path / "nowhere" / "log.db") in out
    assert not (tmp_path / "nowhere").exists()


def test_db_upgrade_still_creates_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["db", "upgrade"]) == 0
    assert (tmp_path / "data" / "ticketledger.db").is_file()
    assert main(["episodes"]) == 0  # and then the reading commands find it


def test_the_server_refuses_an_unusable_setting_by_name(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "server.app", "--port", "0"], cwd=ROOT,
                            env={**os.environ, "TICKETLEDGER_MAX_SESSIONS": "many",
                                 "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "TICKETLEDGER_MAX_SESSIONS='many' cannot be used" in result.stderr
    assert not (tmp_path / "x.db").exists()


def test_slow_client_limits_are_read_and_checked() -> None:
    settings = read({"TICKETLEDGER_BODY_TIMEOUT": "2.5", "TICKETLEDGER_MAX_CONNECTIONS": "64"})
    assert (settings.body_timeout_s, settings.max_connections) == (2.5, 64)
    assert (read({}).body_timeout_s, read({}).max_connections) == (10.0, 1024)
    for name in ("TICKETLEDGER_BODY_TIMEOUT", "TICKETLEDGER_MAX_CONNECTIONS"):
        with pytest.raises(SettingsError, match=f"^{name}='0' cannot be used: "):
            read({name: "0"})
