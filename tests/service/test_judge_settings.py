"""The judge's settings: read in the one settings class, the key from JUDGE_API_KEY or else
OPENAI_API_KEY, never shown; a model without a key, or a bad timeout, stops the program."""

from __future__ import annotations

import pytest

from api.app import create_app
from domain.tasks.catalog import default_catalog
from service.judge import LLMJudge
from service.settings import SettingsError, read


def test_the_deterministic_judge_is_the_default() -> None:
    settings = read({})
    assert settings.judge == "deterministic" and settings.judge_model is None
    assert LLMJudge.from_settings(settings, default_catalog()) is None


def test_judge_variables_and_the_key_fallback() -> None:
    settings = read({"JUDGE_MODEL": "m", "JUDGE_BASE_URL": "http://127.0.0.1:9/v1",
                     "OPENAI_API_KEY": "sk-fallback", "JUDGE_TIMEOUT": "2.5"})
    assert (settings.judge, settings.judge_model, settings.judge_base_url, settings.judge_timeout_s) == (
        "llm", "m", "http://127.0.0.1:9/v1", 2.5)
    assert settings.judge_api_key == "sk-fallback" and "sk-fallback" not in repr(settings)
    assert read({"JUDGE_MODEL": "m", "JUDGE_API_KEY": "own", "OPENAI_API_KEY": "x"}).judge_api_key == "own"
    judge = LLMJudge.from_settings(settings, default_catalog())
    assert judge is not None and (judge.model, judge.timeout_s) == ("m", 2.5)


@pytest.mark.parametrize(("environ", "message"), [
    ({"JUDGE_MODEL": "m"}, "^JUDGE_MODEL='m' cannot be used: the judge needs a key"),
    ({"JUDGE_TIMEOUT": "0"}, "^JUDGE_TIMEOUT='0' cannot be used: "),
    ({"JUDGE_TIMEOUT": "soon"}, "^JUDGE_TIMEOUT='soon' cannot be used: "),
])
def test_unusable_judge_settings_stop_the_program(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        read(environ)


def test_the_app_judges_when_a_model_is_set_and_never_steps_on_the_event_loop(
        sqlite_url: str) -> None:
    settings = read({"DATABASE_URL": sqlite_url, "JUDGE_MODEL": "m", "JUDGE_API_KEY": "k",
                     "TICKETLEDGER_BLOCKING_CALLS": "inline"})
    env = create_app(settings).state.environment
    assert env.service.judge is not None and env.service.judge.model == "m"
    assert env.inline is False  # a judge call is network I/O: the thread pool, whatever was asked
    plain = create_app(read({"DATABASE_URL": sqlite_url, "TICKETLEDGER_BLOCKING_CALLS": "inline"}))
    assert plain.state.environment.service.judge is None and plain.state.environment.inline is True
