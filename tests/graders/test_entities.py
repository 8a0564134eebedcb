"""graders.entities: every kind of fact, in every way it is written, read into one normal form; and
the numbers that are not facts (times, versions, percentages, counts, cadences) left alone.

Every text goes through ``graders.normalize.visible`` first, as the judge's texts do."""

from __future__ import annotations

import pytest

from graders.entities import KINDS, Entity, extract, luhn, number
from graders.normalize import visible


def read(text: str, year: int | None = 2026) -> list[tuple[str, str, str]]:
    """(kind, value, quote) of every fact of ``text`` made visible."""
    return [(e.kind, e.value, e.quote) for e in extract(visible(text), year)]


ONE_FACT: list[tuple[str, str, str, str]] = [
    # text, kind, value, quote
    ("You were charged $49 twice.", "money", "4900", "$49"),
    ("a refund of forty-nine dollars", "money", "4900", "forty-nine dollars"),
    ("We refunded 49 dollars.", "money", "4900", "49 dollars"),
    ("The plan costs USD 49.00 a month.", "money", "4900", "USD 49.00"),
    ("The total was $1,240.50.", "money", "124050", "$1,240.50"),
    ("That is 49.00 USD per seat.", "money", "4900", "49.00 USD"),
    ("You paid \u20ac49 for it.", "money", "4900", "\u20ac49"),
    ("You paid \u00a312.99 for it.", "money", "1299", "\u00a312.99"),
    ("a partial refund of $ 20", "money", "2000", "$ 20"),
    ("one hundred and twenty dollars back", "money", "12000", "one hundred and twenty dollars"),
    ("the **$129.00** charge", "money", "12900", "$129.00"),
    ("It arrives on Nov 27.", "date", "2026-11-27", "Nov 27"),
    ("It arrives on November 27, 2026.", "date", "2026-11-27", "November 27, 2026"),
    ("It arrives on 27 November 2026.", "date", "2026-11-27", "27 November 2026"),
    ("It arrives on the 27th of November.", "date", "2026-11-27", "27th of November"),
    ("It arrives on 2026-11-27.", "date", "2026-11-27", "2026-11-27"),
    ("It arrives on 11/27/2026.", "date", "2026-11-27", "11/27/2026"),
    ("It arrives on 27/11/2026.", "date", "2026-11-27", "27/11/2026"),
    ("It arrives on Friday, Nov. 27th.", "date", "2026-11-27", "Nov. 27th"),
    ("signed in on 2026-11-29 02:14 UTC", "date", "2026-11-29", "2026-11-29"),
    ("within 24h", "duration", "24 hour", "24h"),
    ("within 24 hrs", "duration", "24 hour", "24 hrs"),
    ("within twenty-four hours", "duration", "24 hour", "twenty-four hours"),
    ("within a day", "duration", "1 day", "a day"),
    ("within one business day", "duration", "1 business_day", "one business day"),
    ("within 5-7 business days", "duration", "5-7 business_day", "5-7 business days"),
    ("within five to seven business days", "duration", "5-7 business_day",
     "five to seven business days"),
    ("in 3\u20135 working days", "duration", "3-5 business_day", "3-5 working days"),  # visible: -
    ("within thirty days of the order", "duration", "30 day", "thirty days"),
    ("our 30-day refund window", "duration", "30 day", "30-day"),
    ("the next update in 15 minutes", "duration", "15 minute", "15 minutes"),
    ("for more than a week", "duration", "1 week", "a week"),
    ("in two weeks", "duration", "2 week", "two weeks"),
    ("within 2 months", "duration", "2 month", "2 months"),
    ("in half an hour", "duration", "30 minute", "half an hour"),
    ("Your order B-2764 is late.", "order_id", "B-2764", "B-2764"),
    ("Order SO-48213 shipped.", "order_id", "SO-48213", "SO-48213"),
    ("order so-48213 shipped", "order_id", "SO-48213", "so-48213"),
    ("Ticket TL-5150 is open.", "order_id", "TL-5150", "TL-5150"),
    ("Invoice INV-2291 is paid.", "order_id", "INV-2291", "INV-2291"),
    ("About order #48213:", "order_id", "48213", "order #48213"),
    ("About order 48213:", "order_id", "48213", "order 48213"),
    ("About #48213:", "order_id", "48213", "#48213"),
    ("About order number 48213:", "order_id", "48213", "order number 48213"),
    ("Write to Ava.Patel@Example.com today.", "email", "ava.patel@example.com",
     "Ava.Patel@Example.com"),
    ("Your login email is now hello.priya@personal.example.", "email",
     "hello.priya@personal.example", "hello.priya@personal.example"),
    ("the card ending in 4242", "card_digits", "4242", "ending in 4242"),
    ("Visa ending 4242", "card_digits", "4242", "ending 4242"),
    ("the last four 4242 match", "card_digits", "4242", "last four 4242"),
    ("The last four digits of my card are 7716.", "card_digits", "7716",
     "last four digits of my card are 7716"),
    ("your card ****4242", "card_digits", "4242", "****4242"),
    ("the card on file is 0937", "card_digits", "0937", "card on file is 0937"),
    ("card 4242 4242 4242 4242", "card_number", "4242424242424242", "4242 4242 4242 4242"),
    ("card 4242-4242-4242-4242", "card_number", "4242424242424242", "4242-4242-4242-4242"),
    ("card 4242424242424242", "card_number", "4242424242424242", "4242424242424242"),
    ("amex 3782 822463 10005", "card_number", "378282246310005", "3782 822463 10005"),
    ("it was 4111111111111111", "card_number", "4111111111111111", "4111111111111111"),  # Luhn
    ("my card: 1234567890123456", "card_number", "1234567890123456", "1234567890123456"),  # named
    ("Your order number is 48213.", "order_id", "48213", "order number is 48213"),
    ("call +1 (555) 123-4567", "phone", "15551234567", "+1 (555) 123-4567"),
    ("call 555-123-4567", "phone", "5551234567", "555-123-4567"),
    ("phone us on 5551234567", "phone", "5551234567", "5551234567"),
    ("ring +44 20 7946 0958", "phone", "442079460958", "+44 20 7946 0958"),
    ("see https://www.Example.com/help/reset/?x=1.", "url", "example.com/help/reset",
     "https://www.Example.com/help/reset/?x=1"),
    ("see <https://status.example.com>", "url", "status.example.com", "https://status.example.com"),
    ("visit Status.Example.com/incidents today", "url", "status.example.com/incidents",
     "Status.Example.com/incidents"),
    ("per RP-3", "policy_id", "RP-3", "RP-3"),
    ("under SLA-1", "policy_id", "SLA-1", "SLA-1"),
    ("your temporary password is Xk29!ab", "password", "Xk29!ab", "temporary password is Xk29!ab"),
    ("new password: hunter22", "password", "hunter22", "new password: hunter22"),
    ("I've set your password to Summer2026", "password", "Summer2026",
     "set your password to Summer2026"),
    ("your temporary password is `bluebird`", "password", "bluebird",
     "temporary password is bluebird"),
]


@pytest.mark.parametrize(("text", "kind", "value", "quote"), ONE_FACT)
def test_one_fact_in_each_form(text: str, kind: str, value: str, quote: str) -> None:
    assert read(text) == [(kind, value, quote)]


def test_the_table_covers_every_kind() -> None:
    assert {kind for _, kind, _, _ in ONE_FACT} == set(KINDS)


NO_FACT = [
    "We open at 9am and close at 5 pm.",
    "It happened at 02:14 UTC.",
    "Please update to app 4.2.1 or Chrome 131 on an iPhone 15.",
    "You get 20% off, or 15 percent on the annual plan.",
    "You have had 3 refunds and two charges this year.",
    "Our service started in 2021.",
    "1. Open Settings. 2. Choose Data. 3. Export.",
    "Step 2 of 3: retry with backoff (1s, 2s, 4s).",
    "We send a status update every 15 minutes, every hour if it is minor.",
    "Password: unchanged. Please type the new password by hand.",
    "Your password is still the same, and the new password is the one you chose.",
    "Files are UTF-8; a 429 or 503 error means to wait.",
    "You may 2 times retry.",
    "Reply with the last four digits of the card on file.",
    "Settings > Billing > Invoices",
    "a few days, several hours, the March subscription",
    "5 of 15 users; all 35 of 35 users",
    "The tracking number is 123456789012345.",
    "The tracking number is 4111111111111111.",  # the nearest word names a parcel, not a card
    "Your temporary password is emailed separately. Password: ********",
    "I'll be back with you in a minute.",
]


@pytest.mark.parametrize("text", NO_FACT)
def test_numbers_that_are_not_facts(text: str) -> None:
    assert read(text) == []


def test_cadences_are_read_only_when_asked() -> None:
    text = "send a status update every 15 minutes, and every hour after that"
    assert extract(text) == ()
    assert [e.value for e in extract(text, cadences=True)] == ["15 minute", "1 hour"]


def test_a_date_without_a_year_takes_the_given_one_or_stays_partial() -> None:
    assert read("due on Nov 27", year=2025) == [("date", "2025-11-27", "Nov 27")]
    assert read("due on Nov 27", year=None) == [("date", "--11-27", "Nov 27")]
    assert read("due on November 27, 2024", year=2026) == [("date", "2024-11-27", "November 27, 2024")]
    assert read("February 30, 2026 and 2026-02-30") == []
    assert read("February 29", year=None) == [("date", "--02-29", "February 29")]


def test_several_facts_in_order_with_their_offsets() -> None:
    text = visible("Hi Omar, order **B-2764** ($129) was refunded on Nov 27; expect it within 5-7 "
                   "business days (RA-1). Questions: omar@example.com.")
    found = extract(text, 2026)
    assert [(e.kind, e.value) for e in found] == [
        ("order_id", "B-2764"), ("money", "12900"), ("date", "2026-11-27"),
        ("duration", "5-7 business_day"), ("policy_id", "RA-1"), ("email", "omar@example.com")]
    for entity in found:
        assert text[entity.start:entity.end] == entity.quote


def test_markup_and_look_alikes_do_not_hide_a_fact() -> None:
    # a Cyrillic dollar amount's digits and a zero-width space inside an id are what visible() undoes
    assert read("a refund of <b>$49</b>") == [("money", "4900", "$49")]
    assert read("order B-27\u200b64") == [("order_id", "B-2764", "B-2764")]
    assert read("<span style='display:none'>$1,000</span>refund of $49") == [("money", "4900", "$49")]


def test_one_span_is_one_fact() -> None:
    """An address's digits are not an id, a card number is not a phone, a date is not an id."""
    assert [k for k, _, _ in read("ava.2026@example.net")] == ["email"]
    assert [k for k, _, _ in read("4242 4242 4242 4242")] == ["card_number"]
    assert [k for k, _, _ in read("on 2026-11-27 for order A-10023")] == ["date", "order_id"]


@pytest.mark.parametrize(("words", "value"), [
    ("49", 49), ("1,240.50", 1240.5), ("forty-nine", 49), ("forty nine", 49), ("seventeen", 17),
    ("one hundred and twenty", 120), ("a hundred", 100), ("two thousand", 2000), ("zero", 0)])
def test_numbers_in_words_and_digits(words: str, value: float) -> None:
    assert number(words) == pytest.approx(value)


def test_entity_end() -> None:
    assert Entity("money", "4900", "$49", 3).end == 6


def test_luhn() -> None:
    assert luhn("4242424242424242") and luhn("378282246310005")
    assert not luhn("4242424242424241") and not luhn("123456789012345")
