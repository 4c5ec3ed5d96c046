"""changefreq and priority are checked once (``values``): the option, a page's own key and a
``transform``'s returned entry accept the same values and say the same thing of the others."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemapkit import Page, Report, Settings, build_entries
from sitemapkit.settings import SettingsError

BASE = "https://example.org/"
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
                   st.sampled_from(["0.5", "1", "1.5", "nan", "weekly", "WEEKLY", "often", ""]),
                   st.text(max_size=8))


def option(name, value):
    """The value the option keeps, or the reason it is refused."""
    try:
        return getattr(Settings(base_url=BASE, **{name: value}), name), None
    except SettingsError as error:
        return None, error.reason.rpartition(", got ")[0]


def page_key(name, value):
    """The value a page's own key gives its entry, or the message of the warning."""
    report = Report()
    (entry,) = build_entries([Page("a/", meta={f"sitemap_{name}": value})], Settings(base_url=BASE),
                             report=report)
    messages = [p.message for p in report.warnings]
    return getattr(entry, name), (messages[0].split(" dropped: ")[1] if messages else None)


def transformed(name, value):
    """The value a transform's returned entry keeps, or the message of the warning."""
    report = Report()
    entries = list(build_entries([Page("a/")], Settings(base_url=BASE, transform="given:change"), report=report,
                                 transform=lambda entry: dataclasses.replace(entry, **{name: value})))
    messages = [p.message for p in report.warnings]
    return getattr(entries[0], name), (messages[0].split(" dropped: ")[1] if messages else None)


@pytest.mark.parametrize(("name", "value"), [("priority", 1.5), ("priority", True), ("changefreq", "often")])
def test_one_message_for_a_refused_value_wherever_it_is_given(name, value):
    _, refused = option(name, value)
    assert page_key(name, value) == (None, f"{name} {refused}")
    assert transformed(name, value) == (None, f"{name} {refused}")


@given(VALUES)
def test_a_page_key_takes_a_priority_exactly_when_the_option_does(value):
    kept, refused = option("priority", value)
    listed, message = page_key("priority", value)
    if value is None:
        assert (listed, message) == (None, None)
    elif refused is None:
        assert (listed, message) == (kept, None)
    else:
        assert (listed, message) == (None, f"priority {refused}")


@given(VALUES)
def test_a_page_key_takes_a_changefreq_exactly_when_the_option_does_its_text_trimmed(value):
    text = str(value).strip() if value is not None else None
    kept, refused = option("changefreq", text)
    listed, message = page_key("changefreq", value)
    if value is None:
        assert (listed, message) == (None, None)
    elif refused is None:
        assert (listed, message) == (kept, None)
    else:
        assert (listed, message) == (None, f"changefreq {refused}")


@given(st.one_of(st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True)))
def test_a_transformed_priority_is_checked_as_the_option_checks_it(value):
    kept, refused = option("priority", value)
    assert transformed("priority", value) == ((kept, None) if refused is None else (None, f"priority {refused}"))
