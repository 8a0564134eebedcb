"""How the family solvers write to a customer: amounts, the frame of a reply, and the sentence that
answers or acknowledges a second request the customer slipped into the ticket."""

from __future__ import annotations

from baseline.reader import Reader


def money(amount: float) -> str:
    """'$1,234.50'."""
    return f"${amount:,.2f}"


SIDE_QUESTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("invoice",), "You also asked for your latest invoice: you can download it at any time "
                   "under Settings > Billing > Invoices."),
    (("dark mode",), "On your other question, dark mode can be switched on under Settings > "
                     "Appearance."),
    (("second user", "add a user", "another user"),
     "And yes, you can invite another user to your workspace under Settings > Members."),
)
"""Second requests customers add to a ticket, and the answer a reply gives them in passing."""


def side_answer(message: str) -> str:
    """A sentence answering the customer's second request, if the message makes one."""
    lowered = message.lower()
    for cues, answer in SIDE_QUESTIONS:
        if any(c in lowered for c in cues):
            return " " + answer
    return ""


def reply(first_name: str, body: str, message: str, team: str) -> str:
    """A reply in one frame: greeting by first name, the body, the answer to a second request,
    a closing with the team's name."""
    return f"Hi {first_name},\n\n{body}{side_answer(message)}\n\nBest regards,\n{team}"


SECOND_REQUEST_CUES = ("also,", "by the way", "unrelated,", "unrelated but", "one more thing")
"""How a customer opens a second, unrelated request in the single-turn families' tickets."""
SECOND_REQUEST_REPLY = ("As for your other question, I have passed it to the right team and they "
                        "will answer it separately.")


def second_request(t: Reader) -> bool:
    """Whether the message carries a second, unrelated request the reply should acknowledge."""
    return t.mentions(*SECOND_REQUEST_CUES)


ASIDE_CUE = " also,"
"""How a customer opens a second request in the multi-turn families' tickets ("Also, ...")."""
ACKNOWLEDGE = ("As for your other question, I have passed it on to the right colleague, who will "
               "answer it separately. ")


def aside(t: Reader) -> bool:
    """Whether a multi-turn ticket carries a second, unrelated request ("Also, ...")."""
    return t.mentions(ASIDE_CUE)
