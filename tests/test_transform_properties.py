"""Whatever a ``transform`` callable returns, no invalid value reaches the output: the files
validate against the official XSDs and every listed URL is inside ``base_url``."""

import dataclasses
import shutil
import tempfile
from datetime import timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_checks import assert_valid_tree, locs
from sitemapkit import Image, Page, Report, Settings, build_entries, write_sitemaps

BASE = "https://example.org/site/"
ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=12))
CHANGES = st.fixed_dictionaries({}, optional={
    "loc": st.one_of(st.text(max_size=30), st.builds(lambda tail: BASE + tail, st.text(max_size=20)),
                     st.just("https://elsewhere.example/x")),
    "lastmod": st.one_of(ANYTHING, st.dates(), st.datetimes(),
                         st.datetimes(timezones=st.just(timezone.utc))),
    "changefreq": st.one_of(ANYTHING, st.sampled_from(["daily", "WEEKLY", " monthly "])),
    "priority": ANYTHING,
    "images": st.lists(st.builds(Image, st.text(max_size=20)), max_size=3),
})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CHANGES, min_size=1, max_size=5), st.booleans())
def test_any_returned_values_give_valid_files_inside_base_url(changes, sectioned):
    options = Settings(base_url=BASE, transform="given:change", lastmod=False,
                       sections=["blog/"] if sectioned else None)
    pages = [Page(url=("blog/" if n % 2 else "") + f"p{n}/", html="<html><head></head><body>x</body></html>")
             for n in range(len(changes))]
    by_loc = {BASE + page.url: change for page, change in zip(pages, changes, strict=True)}

    def change(entry):
        return dataclasses.replace(entry, **by_loc[entry.loc])

    report = Report()
    entries = list(build_entries(pages, options, report=report, transform=change))
    out = Path(tempfile.mkdtemp())
    try:
        write_sitemaps(iter(entries), out, options, report=report)
        if entries:
            files = assert_valid_tree(out, BASE)
            listed = [url for path in files[1 if sectioned else 0:] for url in locs(path)]
            assert all(url.startswith(BASE) for url in listed)
    finally:
        shutil.rmtree(out)
