"""Dates as the family solvers read them off a ticket's facts, count them, and write them to a
customer."""

from __future__ import annotations

import datetime as dt
import re

ISO_DATE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")


def first_date(text: str) -> dt.date | None:
    """The first ISO date (2026-11-27) in ``text``; None when there is none or it is no real day."""
    found = ISO_DATE.search(text)
    return _day(found.group(1)) if found else None


def all_dates(text: str) -> list[dt.date]:
    """Every ISO date in ``text`` that is a real day, in order."""
    return [day for day in map(_day, ISO_DATE.findall(text)) if day is not None]


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def business_days(start: dt.date, end: dt.date) -> int:
    """Weekdays after ``start`` up to and including ``end`` (0 when ``end`` is not later)."""
    days, day = 0, start
    while day < end:
        day += dt.timedelta(days=1)
        days += day.weekday() < 5
    return days


def day_month_year(day: dt.date) -> str:
    """'26 November 2026': how a person writes a date to a customer."""
    return f"{day.day} {day:%B %Y}"


def month_day_year(day: dt.date) -> str:
    """'November 24, 2026': the same, as the US-style letters of some families write it."""
    return f"{day.strftime('%B')} {day.day}, {day.year}"
