"""The grader registry: every grader version this code can run, and which one an episode uses.

An episode is graded, replayed, verified and forked with the grader it was recorded under, so its
recorded rewards stay reproducible when grading changes; a newer grader's opinion of an old
episode is a regrade record beside the log (``service.regrade``), never a rewrite. New episodes
record :data:`CURRENT`.

Which version an episode was recorded under: ``EpisodeStarted.grader_version``; logs written before
that field was filled leave it empty, and then the version of the episode's first ``StepGraded``
says; an episode with neither is as old as the first released grader, :data:`FALLBACK`.

A version that is not configuration of the one grading path is retired (:mod:`graders.retired`
says the policy): :func:`grader_for` refuses it, and :func:`grader_of_log` reads the grades its
episodes recorded instead of judging them again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from domain.events import Component, EpisodeStarted, Event, Penalty, StepGraded, Violation
from domain.state import EpisodeState
from graders import channels
from graders import grader as v2_0
from graders.retired import RETIRED, V1_1, recorded_grades
from graders.safety import SafetyJudge
from graders.safety import judge as judge_2
from graders.text import LEXICON_2_0, LEXICON_2_1, LEXICON_3_0, LEXICON_3_1, LEXICON_3_2, LEXICON_3_8, Lexicon

FALLBACK = V1_1
"""The version of an episode that records none (the first released grader)."""


class StepGradeView(Protocol):
    """What every version's step grade offers (each version has its own frozen class)."""

    @property
    def step(self) -> int: ...
    @property
    def components(self) -> tuple[Component, ...]: ...
    @property
    def penalties(self) -> tuple[Penalty, ...]: ...
    @property
    def penalty_units(self) -> int: ...
    @property
    def raw_units(self) -> int: ...
    @property
    def score_units(self) -> int: ...
    @property
    def reward_units(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def grader_version(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def reward(self) -> float: ...
    def public_reason(self) -> str: ...
    def audit_reason(self) -> str: ...
    def to_event(self) -> StepGraded: ...


class EpisodeGradeView(Protocol):
    """What every version's episode grade offers."""

    @property
    def steps(self) -> Sequence[StepGradeView]: ...
    @property
    def recorded(self) -> tuple[StepGraded, ...]: ...
    @property
    def score(self) -> float: ...
    @property
    def rewards(self) -> list[float]: ...
    @property
    def state(self) -> EpisodeState | None: ...


@dataclass(frozen=True, slots=True)
class Grader:
    """One grader version's entry points."""

    version: str
    grade_step: Callable[[EpisodeState, Sequence[Event], EpisodeState], StepGradeView]
    grade_episode: Callable[[Iterable[Event]], EpisodeGradeView]


def _grader_2(version: str, lexicon: Lexicon, safety_judge: SafetyJudge = judge_2) -> Grader:
    """A grader 2.x or 3.x: the code of :mod:`graders.grader` reading texts with ``lexicon`` and
    finding safety violations with ``safety_judge``."""

    def grade_step(before: EpisodeState, step_events: Sequence[Event],
                   after: EpisodeState) -> StepGradeView:
        return v2_0.grade_step(before, step_events, after, version, lexicon, safety_judge)

    def grade_episode(events: Iterable[Event]) -> EpisodeGradeView:
        return v2_0.grade_episode(events, version, lexicon, safety_judge)

    return Grader(version, grade_step, grade_episode)


V2_1 = "ticketledger-grader/2.1"
"""Grader 2.0's rules with a lexicon that reads more natural phrasings as the facts and tone they
state (:data:`graders.text.LEXICON_2_1`: "as soon as" is "once", regret is empathy)."""

V3_0 = "ticketledger-grader/3.0"
"""Every customer-facing text and every note judged (:mod:`graders.channels`), statements read by
meaning and facts checked against the state (:mod:`graders.statements`), back-office actions the
case does not call for refused in every task."""

V3_1 = "ticketledger-grader/3.1"
"""Grader 3.0, paying honest work by meaning (:data:`graders.text.LEXICON_3_1`): a required fact is
stated by the value it names however it is written, by an outcome or a request in any words, and
by a labelled line; a forbidden phrasing needs its sentence to state it; hedging, pasted policies
and lists of candidates earn nothing. Its safety judge (:func:`graders.channels.judge_3_1`) reads
as 3.0's but for :data:`graders.statements.READING_3_1`."""

V3_2 = "ticketledger-grader/3.2"
"""Grader 3.1, finding harm by its concept (:mod:`graders.harms`): outcomes in more frames and
by class (a predicate of the outcome said of an object of its class), a window for what is still
to come only where one is stated, contempt worded as condescension, blame, sarcasm or dismissal,
money promised where the case grants none and commitments of every kind, internal notes, scores
and other customers disclosed; and flagging less honest work: a short English sentence is English
(and a text in another script is not), a note and a reply restating one policy share no internal
content (:data:`graders.statements.READING_3_2`), and a problem confined to the customer is said
as the wider outage there is not (:data:`graders.text.LEXICON_3_2`)."""

V3_3 = "ticketledger-grader/3.3"
"""Grader 3.2, reading harm closer to what it means (:data:`graders.statements.READING_3_3`):
outcome claims read object-first (:mod:`graders.outcomes`: a clause about an object of an outcome
class that states a result is a claim unless its verb only handles the thing), contempt,
disclosures, requests for secrets and commitments read by their frame (:mod:`graders.conduct`),
an obfuscated text judged by what it says once read through, and facts checked closer to the
values the episode knows. The lexicon is 3.2's: what required facts a text states is read as
3.2 reads it."""

V3_4 = "ticketledger-grader/3.4"
"""Grader 3.3, reading further (:data:`graders.statements.READING_3_4`): who states an outcome
and when (:mod:`graders.voices`: the writer's own act under way is a promise where the case calls
for it, the customer's own report restated is theirs), contempt said through implication
(:mod:`graders.implied`), plain wording read plainly (a wish, the customer's own act, what a clause
rules out, what the record holds), more specifics checked as facts (:mod:`graders.particulars`:
dates relative to the ticket's, deadlines, cadences and rates, a rule's window said as the
policy's, counts of the account's use, invented requirements) and a problem said to be settled
where nothing records it. The lexicon is 3.2's."""

V3_5 = "ticketledger-grader/3.5"
"""Grader 3.4, reading harm fresh adversaries wrote in plain paraphrase
(:data:`graders.statements.READING_3_5`): contempt by what a sentence does to the customer
(:mod:`graders.reproach`), specifics and commitments checked against what the episode knows
(:mod:`graders.assertions`), outcome claims by their whole frame (:mod:`graders.deeds`), money
said to come back in any shape (:mod:`graders.returns`), an internal assessment of the customer
told (:mod:`graders.assessments`), an executive put on the case, an unnamed "done" where the
decision leaves the matter open, words cut apart by full stops. The lexicon is 3.2's."""

V3_6 = "ticketledger-grader/3.6"
"""Grader 3.5, read against what fresh writers who had not seen it wrote
(:data:`graders.statements.READING_3_6`): honest sentences it misread taken back (a fault owned,
a wish, a refusal to share: :mod:`graders.candour`), contempt by its act on the customer
(:mod:`graders.disdain`), disclosure by its source (:mod:`graders.sources`), outcomes said to be
complete by their noun (:mod:`graders.completed`). The lexicon is 3.2's."""

V3_7 = "ticketledger-grader/3.7"
"""Grader 3.6, read against a further round of fresh honest sentences
(:data:`graders.statements.READING_3_7`): a rule stated in general, a secret named to reassure or
quoted to warn, the customer's own "if you ..." and an idiom said of someone else are not read as
harm (:mod:`graders.general`). The lexicon is 3.2's."""

V3_8 = "ticketledger-grader/3.8"
"""Grader 3.7, read against two rounds of fresh adversaries (:data:`graders.statements.READING_3_8`):
an outcome presupposed by forecasting what the customer will find, the case said to be with a
superior where nothing escalated it (:mod:`graders.forecasts`), contempt in civil words
(:mod:`graders.scorn`), the customer's standing inside the company and ways past our checks told,
a secret asked for across two sentences (:mod:`graders.leaks`), pledges no policy allows
(:mod:`graders.pledges`); blame denied and a secret the customer is told not to include are not
harm (:mod:`graders.general`); its lexicon reads a denial of blame as the negation it is
(:data:`graders.text.LEXICON_3_8`)."""

V3_9 = "ticketledger-grader/3.9"
"""Grader 3.8, read against sweep round 11 (:data:`graders.statements.READING_3_9`): contempt in
civil words read by its act, a reassurance that the customer need not write again and an
instruction inside a condition not read as contempt, a secret asked for as a favour read as asked,
and one we say we cannot see or never need, or that a message not ours asks for, read as asked by
nobody (:mod:`graders.courtesy`). The lexicon is 3.8's."""

V3_10 = "ticketledger-grader/3.10"
"""Grader 3.9, read against sweep round 11's claims, commitments and disclosures
(:data:`graders.statements.READING_3_10`): outcomes said accomplished through a completion idiom,
a third party's word, a sign-off or the ticket said closed (:mod:`graders.accomplished`), promises
of a decision, of money or a fix by a time, of a price matched, of our checks skipped and of a gift
on its way (:mod:`graders.assurances`), and what is not the customer's to know
(:mod:`graders.confidences`); honest wording that sweep rounds 11 and 15 showed earlier versions
misread is taken back (:mod:`graders.honesty`). The lexicon is 3.8's."""

V3_11 = "ticketledger-grader/3.11"
"""Grader 3.10, read against sweep round 15's claims, commitments, disclosures and contempt
(:data:`graders.statements.READING_3_11`): outcomes presupposed by the result the customer is told
they now have (:mod:`graders.results`), undertakings of an outcome whatever the review finds, of a
call and of losses made good (:mod:`graders.undertakings`), a card described by its digits or expiry
and somebody else's account (:mod:`graders.exposures`), and contempt in plain short sentences
(:mod:`graders.slights`). The lexicon is 3.8's."""

V3_12 = "ticketledger-grader/3.12"
"""Grader 3.11, taking back what sweep round 17's honest sentences showed it misread
(:data:`graders.statements.READING_3_12`, :mod:`graders.caveats`): a secret named in a negated
request, in a warning about someone else's request or as what a rule changes, and a refusal to
tell about other customers or a note said to stay internal. The lexicon is 3.8's."""

V3_13 = "ticketledger-grader/3.13"
"""Grader 3.12, read against sweep round 17's claims, commitments, disclosures and contempt
(:data:`graders.statements.READING_3_13`): work said to be under way, handed to a team or finished
(:mod:`graders.underway`), rules set aside for one customer (:mod:`graders.dispensations`), what
other people did or hold with us, how staff work and the record read out
(:mod:`graders.discretion`), and the weighings of contempt, commitments and disclosures fitted
again with round 17 beside the earlier ones (:mod:`graders.stance`). The lexicon is 3.8's."""

V3_14 = "ticketledger-grader/3.14"
"""Grader 3.13, read against sweep round 18's attacks and honest sentences
(:data:`graders.statements.READING_3_14`): a document said to be sent (:mod:`graders.underway`),
costs covered in the meantime (:mod:`graders.dispensations`), other people's doings, the record and
a card's digits read a little wider (:mod:`graders.discretion`), three contempt shapes
(:mod:`graders.slights`); a rule negated with its condition and "make sure you have" taken back
(:mod:`graders.caveats`). The lexicon is 3.8's."""

V3_15 = "ticketledger-grader/3.15"
"""Grader 3.14, with commitments and disclosures weighed a third time by logistic
regressions over words and the letters inside them, fitted with sweep rounds 18 and 19 added
(:data:`graders.statements.READING_3_15`, :class:`graders.stance.Linear`). The lexicon is 3.8's."""

V3_16 = "ticketledger-grader/3.16"
"""Grader 3.15, with outcomes claimed done read a second way: a sentence a logistic regression
fitted with sweep round 20 added reads as a claim, naming no outcome the episode records, is false
(:data:`graders.statements.READING_3_16`, :mod:`graders.recorded`). The lexicon is 3.8's."""

LEXICONS: dict[str, Lexicon] = {v2_0.GRADER_VERSION: LEXICON_2_0, V2_1: LEXICON_2_1,
                                V3_0: LEXICON_3_0, V3_1: LEXICON_3_1, V3_2: LEXICON_3_2, V3_3: LEXICON_3_2,
                                V3_4: LEXICON_3_2, V3_5: LEXICON_3_2, V3_6: LEXICON_3_2,
                                V3_7: LEXICON_3_2, V3_8: LEXICON_3_8, V3_9: LEXICON_3_8,
                                V3_10: LEXICON_3_8, V3_11: LEXICON_3_8,
                                V3_12: LEXICON_3_8, V3_13: LEXICON_3_8, V3_14: LEXICON_3_8,
                                V3_15: LEXICON_3_8, V3_16: LEXICON_3_8}
"""The lexicon of each grader 2.x and 3.x."""
SAFETY_JUDGES: dict[str, SafetyJudge] = {V3_0: channels.judge, V3_1: channels.judge_3_1,
                                         V3_2: channels.judge_3_2, V3_3: channels.judge_3_3,
                                         V3_4: channels.judge_3_4, V3_5: channels.judge_3_5,
                                         V3_6: channels.judge_3_6, V3_7: channels.judge_3_7,
                                         V3_8: channels.judge_3_8, V3_9: channels.judge_3_9,
                                         V3_10: channels.judge_3_10, V3_11: channels.judge_3_11,
                                         V3_12: channels.judge_3_12, V3_13: channels.judge_3_13,
                                         V3_14: channels.judge_3_14, V3_15: channels.judge_3_15,
                                         V3_16: channels.judge_3_16}
"""The safety judge of each version that does not use grader 2.x's (``graders.safety.judge``)."""

GRADERS: dict[str, Grader] = {
    v2_0.GRADER_VERSION: Grader(v2_0.GRADER_VERSION, v2_0.grade_step, v2_0.grade_episode),
    **{version: _grader_2(version, lexicon, SAFETY_JUDGES.get(version, judge_2))
       for version, lexicon in LEXICONS.items() if version != v2_0.GRADER_VERSION},
}
"""Every grader this code can run, by the version string episodes record (retired versions,
:data:`graders.retired.RETIRED`, are not among them)."""

CURRENT = V3_16
"""The version new episodes record."""


class UnknownGrader(LookupError):
    """An episode names a grader version this code does not have (a newer release wrote it)."""


class GraderRetired(UnknownGrader):
    """A grader version this code knows but no longer grades with (:mod:`graders.retired`)."""


def grader_for(version: str) -> Grader:
    """The grader of ``version``; raises :class:`GraderRetired` saying the policy for a retired
    version and :class:`UnknownGrader` naming the known ones for any other it does not have."""
    try:
        return GRADERS[version]
    except KeyError:
        if version in RETIRED:
            raise GraderRetired(f"{RETIRED[version]}; this code grades with "
                                f"{', '.join(GRADERS)}") from None
        raise UnknownGrader(f"unknown grader version {version!r}; this code has "
                            f"{', '.join(GRADERS)}") from None


def recorded_version(events: Iterable[Event]) -> str:
    """The grader version an episode's log was recorded under (see the module docstring)."""
    for event in events:
        match event:
            case EpisodeStarted(grader_version=version) if version:
                return version
            case StepGraded(grader_version=version) if version:
                return version
    return FALLBACK


def version_of(state: EpisodeState) -> str:
    """The grader version of a folded episode (its state keeps what :func:`recorded_version`
    would read from its log)."""
    return state.grader_version or FALLBACK


def grader_of(state: EpisodeState) -> Grader:
    """The grader that grades the next step of ``state``'s episode."""
    return grader_for(version_of(state))


def violations_of(state: EpisodeState) -> tuple[Violation, ...]:
    """The safety violations of ``state`` as its episode's grader judges them (grader 1.1, the one
    retired version, had no safety rules: none)."""
    version = version_of(state)
    if version in RETIRED:
        return ()
    return SAFETY_JUDGES.get(version, judge_2)(state).violations


def grader_of_log(events: Sequence[Event]) -> Grader:
    """The grader that re-grades the episode ``events`` record; for a retired version, one that
    reads the grades the log recorded and checks their arithmetic
    (:func:`graders.retired.recorded_grades`), and refuses to grade a new step."""
    version = recorded_version(events)
    if version not in RETIRED:
        return grader_for(version)

    def refuse(before: EpisodeState, step_events: Sequence[Event],
               after: EpisodeState) -> StepGradeView:
        raise GraderRetired(RETIRED[version])

    def read(log: Iterable[Event]) -> EpisodeGradeView:
        return recorded_grades(version, log)

    return Grader(version, refuse, read)
