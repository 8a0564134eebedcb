"""graders.prefilter: one look for a list of expressions must never say "none can match" where one
does, on any text or any part of it, and must be in effect on every list that carries it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graders import conduct, courtesy, disdain, harms, implied, reproach, scorn, statements
from graders.normalize import SENTENCE_END
from graders.prefilter import Expressions, loosened

ROOT = Path(__file__).resolve().parents[2]

LISTS: dict[str, Expressions] = {
    "statements.CONTEMPT": statements.CONTEMPT,
    "statements.CONTEMPT_3_1": statements.CONTEMPT_3_1,
    "statements.CONTEMPT_3_2": statements.CONTEMPT_3_2,
    "conduct.CONTEMPT": conduct.CONTEMPT,
    "conduct.GUARDED": conduct._GUARDED_EXPRESSIONS,
    "harms.CONTEMPT": harms.CONTEMPT,
    "implied.FRAMES": implied.FRAMES.expressions,
    "reproach.FRAMES": reproach.FRAMES.expressions,
    "disdain.FRAMES": disdain.FRAMES.expressions,
    "courtesy.FRAMES": courtesy.FRAMES.expressions,
    "scorn.FRAMES": scorn.FRAMES.expressions,
}


def _texts() -> list[str]:
    """Every sentence of the sweep's rounds and every text of the labelled corpus, in lower case
    (as every list here is read)."""
    out: list[str] = []
    for path in sorted((ROOT / "evaluation" / "sweeps").glob("round*.json")):
        out += [entry["text"] for entry in json.loads(path.read_text())]
    for path in sorted((ROOT / "service" / "grader_eval" / "corpus").glob("*.jsonl")):
        out += [json.loads(line)["text"] for line in path.read_text().splitlines() if line.strip()]
    return sorted({text.lower() for text in out})


TEXTS = _texts()


def test_every_list_that_carries_the_look_is_read_by_re2_as_a_whole() -> None:
    """A list whose union RE2 cannot take falls back to reading every expression: correct, but
    the look is lost without a word. Every list that carries it must keep it."""
    lost = [name for name, patterns in LISTS.items() if patterns._union is None]
    unloosened = [p.pattern[:80] for n in lost for p in LISTS[n] if loosened(p) is None]
    assert not lost, f"no union for {lost}: {unloosened}"


@pytest.mark.parametrize("name", sorted(LISTS))
def test_the_look_never_says_none_where_an_expression_matches_a_text_or_a_sentence_of_it(name: str) -> None:
    patterns = LISTS[name]
    missed: list[tuple[str, str]] = []
    matched = 0
    for text in TEXTS:
        for part in {text, *SENTENCE_END.split(text)}:
            hit = next((p for p in patterns if p.search(part)), None)
            if hit is None:
                continue
            matched += 1
            if not patterns.may_match(part):
                missed.append((hit.pattern[:80], part[:120]))
    assert matched > 0, f"no text of the sweep or the corpus matches {name}: the check would prove nothing"
    assert not missed, missed[:5]


def test_most_honest_texts_are_let_through_in_one_look() -> None:
    """The look earns its place only if it answers "none" for most texts: the sweep's honest
    sentences should mostly pass every contempt list without being read expression by expression."""
    honest = [entry["text"].lower() for path in sorted((ROOT / "evaluation" / "sweeps").glob("round*.json"))
              for entry in json.loads(path.read_text()) if entry["class"] == "honest"]
    skipped = sum(not statements.CONTEMPT_3_2.may_match(text) for text in honest)
    assert skipped / len(honest) > 0.8, (skipped, len(honest))


@pytest.mark.parametrize(("source", "flags", "loose"), [
    (r"\bfoo\b", 0, "foo"),
    (r"^foo$", 0, "foo"),
    (r"foo(?! bar)", 0, "foo"),
    (r"(?<!not )foo(?=[.!?])", 0, "foo"),
    (r"(?P<word>\w+) (?P=word)", 0, r"(?:\w+) (?s:.*)"),
    (r"(\w+) \1", 0, r"(\w+) (?s:.*)"),
    (r"['\u2018]x", 0, r"['\x{2018}]x"),
    (r"a{,3}", 0, "a{0,3}"),
    (r"[^.!?]{0,40}", 0, "[^.!?]{0,40}"),
    (r"foo", re.IGNORECASE, "(?i:foo)"),
    (r"(?# a comment)foo", 0, "foo"),
])
def test_an_expression_is_loosened_to_one_that_matches_wherever_it_does(source: str, flags: int,
                                                                        loose: str) -> None:
    assert loosened(re.compile(source, flags)) == loose


@pytest.mark.parametrize("source", [r"(a)?b(?(1)c|d)", r"\101", r"(?x) foo", r"[\[a]", r"\N{EM DASH}"])
def test_what_cannot_be_loosened_for_sure_is_not_loosened(source: str) -> None:
    flags = re.VERBOSE if source.startswith("(?x)") else 0
    assert loosened(re.compile(source.removeprefix("(?x)"), flags)) is None


def test_a_list_that_cannot_be_loosened_reads_every_text() -> None:
    patterns = Expressions([re.compile(r"(a)?b(?(1)c)"), re.compile("x")])
    assert patterns._union is None
    assert patterns.may_match("nothing here")


def test_text_the_engines_could_read_otherwise_is_always_read() -> None:
    """Outside printable ASCII (an accented letter, a non-breaking space, a vertical tab) Python's
    classes and RE2's may differ: such a text always goes to the list."""
    patterns = Expressions([re.compile(r"\bcaf\w\b"), re.compile(r"a\sb")])
    assert not patterns.may_match("nothing to see")
    assert patterns.may_match("café")
    assert patterns.may_match("a\u00a0b")
    assert patterns.may_match("a\x0bb")
    assert patterns.may_match("a b")


def test_a_list_pickles_as_its_expressions() -> None:
    import pickle

    said = "your team broke the integration"
    assert statements.CONTEMPT.may_match(said) and not statements.CONTEMPT.may_match("thank you")
    again = pickle.loads(pickle.dumps(statements.CONTEMPT))
    assert isinstance(again, Expressions) and again == statements.CONTEMPT
    assert again.may_match(said) and not again.may_match("thank you")
