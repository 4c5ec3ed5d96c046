"""Whatever the core writes from arbitrary Unicode pages, the validator finds nothing wrong:
no false alarms on valid output (the files also pass the official XSDs in the core's own
property test, whose page strategy this reuses)."""

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from page_strategies import BASE, pages

from sitemapkit import Report, Settings, build_entries, validate, write_sitemaps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pages(), min_size=1, max_size=8, unique_by=lambda page: page.url),
       st.sampled_from([2, 50_000]))
def test_written_sitemaps_validate_clean(page_list, max_urls):
    options = Settings(base_url=BASE, max_urls=max_urls, gzip=True, txt=True,
                       news={"publication": "P", "language": "en"})
    out = Path(tempfile.mkdtemp())
    try:
        write_sitemaps(build_entries(page_list, options, report=Report()), out, options)
        problems = validate(out)
        assert problems == [], "\n".join(map(str, problems))
    finally:
        shutil.rmtree(out)
