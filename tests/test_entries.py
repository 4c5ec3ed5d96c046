from datetime import date, datetime, timedelta, timezone

import pytest

from sitemapkit import Alternate, Image, Page, Report, Settings, build_entries

BASE = "https://ex.com/docs/"


def run(pages, **options):
    report = Report()
    entries = list(build_entries(pages, Settings(base_url=BASE, **options), report=report))
    return entries, report


def html(head="", body="", lang="en"):
    return f"<html lang='{lang}'><head><title>T</title>{head}</head><body><main>{body}</main></body></html>"


def test_locs_are_absolute_encoded_and_listed_once():
    entries, report = run([Page("guide/"), Page("ümlat.html"), Page("guide/")])
    assert [e.loc for e in entries] == [BASE + "guide/", BASE + "%C3%BCmlat.html"]
    assert [p.rule for p in report.warnings] == ["duplicate-url"]


def test_build_entries_is_lazy():
    def pages():
        yield Page("a/")
        raise AssertionError("read too far")

    assert next(build_entries(pages(), Settings(base_url=BASE))).loc == BASE + "a/"


def test_too_long_and_out_of_scope_urls_are_left_out_with_a_warning_naming_the_page():
    long = Page("a" * 2100 + "/", name="long.md")
    other = Page("https://other.org/x/", name="other.md")
    entries, report = run([long, other, Page("ok/")])
    assert [e.loc for e in entries] == [BASE + "ok/"]
    assert [(p.where, p.rule) for p in report.warnings] == [("long.md", "loc-length"), ("other.md", "loc-scope")]


def test_sitemap_false_exclude_globs_and_error_pages_are_left_out():
    pages = [
        Page("a/", meta={"sitemap": False}),
        Page("b/", meta={"sitemap": "no"}),
        Page("c/", meta={"sitemap": {"exclude": True}}),
        Page("blog/drafts/x/"),
        Page("404.html"),
        Page("kept/"),
    ]
    entries, report = run(pages, exclude=["blog/drafts/*"])
    assert [e.loc for e in entries] == [BASE + "kept/"]
    assert report.left_out == {"sitemap: false": 3, "exclude": 1, "error page": 1}


def test_noindex_pages_are_left_out_unless_asked():
    noindex = Page("n/", html=html('<meta name="robots" content="noindex, follow">'))
    assert run([noindex])[0] == []
    assert [e.loc for e in run([noindex], include_noindex=True)[0]] == [BASE + "n/"]


def test_a_page_whose_canonical_is_another_url_is_left_out():
    elsewhere = Page("copy/", html=html('<link rel="canonical" href="/docs/original/">'))
    itself = Page("original/", html=html(f'<link rel="canonical" href="{BASE}original/">'))
    entries, _ = run([elsewhere, itself])
    assert [e.loc for e in entries] == [BASE + "original/"]


def test_html_is_read_from_the_output_file_when_not_given(tmp_path):
    out = tmp_path / "n.html"
    out.write_text(html('<meta name="robots" content="none">'))
    assert run([Page("n.html", output=out)])[0] == []


def test_changefreq_and_priority_page_then_first_rule_then_default():
    rules = [{"match": "blog/*", "changefreq": "daily"}, {"match": "blog/*", "priority": 0.9},
             {"match": "*", "priority": 0.3}]
    pages = [
        Page("blog/a/", meta={"sitemap_priority": "0.7"}),
        Page("blog/b/", meta={"sitemap": {"changefreq": "hourly"}}),
        Page("other/"),
    ]
    entries, _ = run(pages, rules=rules, changefreq="monthly", priority=0.5)
    assert [(e.changefreq, e.priority) for e in entries] == [
        ("daily", 0.7), ("hourly", 0.5), ("monthly", 0.3),
    ]


def test_invalid_page_values_are_dropped_with_a_warning_naming_page_field_rule():
    page = Page("a/", name="a.md", meta={"sitemap_priority": "1.5", "sitemap_changefreq": "often"})
    entries, report = run([page], priority=0.4)
    assert (entries[0].priority, entries[0].changefreq) == (0.4, None)
    assert {(p.where, p.field, p.rule) for p in report.warnings} == {
        ("a.md", "sitemap_priority", "priority-range"),
        ("a.md", "sitemap_changefreq", "changefreq-value"),
    }
    assert "1.5" in str(report.warnings[0]) or "1.5" in str(report.warnings[1])


def test_lastmod_override_meta_and_html_dates():
    when = datetime(2024, 5, 1, 10, 0, tzinfo=timezone.utc)
    pages = [
        Page("a/", modified=when, meta={"sitemap_lastmod": "2024-06-01"}),
        Page("b/", modified=when),
        Page("c/", html=html('<meta property="article:modified_time" content="2024-02-03T04:05:06+02:00">')),
        Page("d/", meta={"sitemap_lastmod": "yesterday"}),
    ]
    entries, report = run(pages)
    assert entries[0].lastmod == date(2024, 6, 1)
    assert entries[1].lastmod == when
    assert entries[2].lastmod == datetime(2024, 2, 3, 4, 5, 6, tzinfo=timezone(timedelta(hours=2)))
    assert entries[3].lastmod is None
    assert [p.rule for p in report.warnings] == ["date-format"]


def test_lastmod_false_omits_every_lastmod():
    entries, _ = run([Page("a/", modified=date(2024, 1, 1))], lastmod=False)
    assert entries[0].lastmod is None


def test_images_from_content_page_and_meta_absolute_and_deduplicated():
    body = '<img src="shot.png"><img src="/docs/img/logo.svg"><img src="data:image/png;base64,xx">'
    page = Page("guide/", html=html(body=body), images=("https://cdn.net/a.jpg",),
                meta={"sitemap_images": "shot.png, extra.png"})
    theme_image = "<header><img src='theme.png'></header>"
    page_with_theme = Page("x/", html=f"<html><body>{theme_image}<main><p>t</p></main></body></html>")
    entries, _ = run([page, page_with_theme])
    assert entries[0].images == (
        Image(BASE + "guide/shot.png"), Image(BASE + "img/logo.svg"),
        Image("https://cdn.net/a.jpg"), Image(BASE + "guide/extra.png"),
    )
    assert entries[1].images == ()
    assert run([page], images=False)[0][0].images == ()


def test_at_most_1000_images_per_url():
    page = Page("a/", meta={"sitemap_images": [f"i{n}.png" for n in range(1005)]})
    entries, report = run([page])
    assert len(entries[0].images) == 1000
    assert [p.rule for p in report.warnings] == ["image-count"]


VIDEO = {"thumbnail_loc": "t.jpg", "title": "Intro", "description": "A tour", "content_loc": "v.mp4"}


def test_video_from_metadata_with_optional_fields():
    fields = {**VIDEO, "duration": "120", "tags": "a, b", "family_friendly": "yes",
              "restriction": "allow US ca", "platform": {"relationship": "deny", "platforms": ["tv"]},
              "publication_date": "2024-01-02", "rating": 4.5, "uploader": "Me",
              "uploader_info": "/docs/about/"}
    entries, report = run([Page("v/", meta={"sitemap_video": fields})])
    video = entries[0].videos[0]
    assert report.warnings == []
    assert video.thumbnail_loc == BASE + "v/t.jpg" and video.content_loc == BASE + "v/v.mp4"
    assert (video.duration, video.tags, video.family_friendly) == (120, ("a", "b"), True)
    assert video.restriction == ("allow", ("US", "CA"))
    assert video.platform == ("deny", ("tv",))
    assert video.uploader_info == BASE + "about/"


def test_video_string_forms_from_pelican_or_sphinx_metadata():
    as_json = '{"thumbnail_loc": "t.jpg", "title": "I", "description": "D", "player_loc": "https://yt.example/p"}'
    as_pairs = "thumbnail_loc=t.jpg; title=I; description=D; content_loc=v.mp4"
    entries, _ = run([Page("a/", meta={"sitemap_video": as_json}), Page("b/", meta={"sitemap_video": as_pairs})])
    assert entries[0].videos[0].player_loc == "https://yt.example/p"
    assert entries[1].videos[0].content_loc == BASE + "b/v.mp4"


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"title": ""}, "video-required"),
        ({"title": "x" * 101}, "video-title-length"),
        ({"description": "x" * 2049}, "video-description-length"),
        ({"content_loc": None}, "video-required"),
        ({"content_loc": "/docs/v/"}, "video-location"),
    ],
)
def test_a_video_missing_what_google_requires_is_dropped(change, rule):
    fields = {k: v for k, v in {**VIDEO, **change}.items() if v is not None}
    entries, report = run([Page("v/", name="v.md", meta={"sitemap_video": fields})])
    assert entries[0].videos == ()
    assert [(p.where, p.rule) for p in report.warnings] == [("v.md", rule)]


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [("duration", 0, "video-duration"), ("duration", 28801, "video-duration"),
     ("rating", 5.5, "video-rating"), ("view_count", -1, "video-view-count"),
     ("restriction", "allow USA", "video-restriction"), ("platform", "allow car", "video-platform"),
     ("family_friendly", "maybe", "video-yes-no"), ("publication_date", "soon", "date-format")],
)
def test_an_invalid_optional_video_field_is_dropped_and_the_video_kept(field, value, rule):
    entries, report = run([Page("v/", meta={"sitemap_video": {**VIDEO, field: value}})])
    assert getattr(entries[0].videos[0], field) is None
    assert [p.rule for p in report.warnings] == [rule]


def test_video_tags_capped_at_32():
    entries, report = run([Page("v/", meta={"sitemap_video": {**VIDEO, "tags": [str(n) for n in range(40)]}})])
    assert len(entries[0].videos[0].tags) == 32
    assert [p.rule for p in report.warnings] == ["video-tag-count"]


def test_video_element_listed_only_when_complete():
    complete = '<video poster="p.jpg" src="m.mp4" title="Demo" data-description="Shows it"></video>'
    partial = '<video src="n.mp4"></video>'
    entries, report = run([Page("a/", html=html(body=complete + partial))])
    assert [v.content_loc for v in entries[0].videos] == [BASE + "a/m.mp4"]
    assert report.warnings == []


NEWS = {"publication": "The Docs Times", "language": "en", "match": "blog/*"}


def test_news_only_inside_the_window_and_only_matching_pages(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime(2024, 5, 10, tzinfo=timezone.utc).timestamp())))
    fresh = Page("blog/fresh/", title="Fresh", published=datetime(2024, 5, 9, 12, tzinfo=timezone.utc))
    old = Page("blog/old/", title="Old", published=datetime(2024, 5, 7, tzinfo=timezone.utc))
    future = Page("blog/future/", title="F", published=datetime(2024, 5, 11, tzinfo=timezone.utc))
    elsewhere = Page("guide/", title="G", published=datetime(2024, 5, 9, tzinfo=timezone.utc))
    entries, _ = run([fresh, old, future, elsewhere], news=NEWS)
    assert [e.news.title if e.news else None for e in entries] == ["Fresh", None, None, None]
    assert entries[0].news.publication_name == "The Docs Times"
    assert entries[0].news.language == "en"
    wider, _ = run([old], news={**NEWS, "window_hours": 96})
    assert wider[0].news is not None


def test_news_fields_from_page_keys_and_bad_language(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime(2024, 5, 10, tzinfo=timezone.utc).timestamp())))
    page = Page("blog/a/", title="Page title", meta={"sitemap_news": {
        "title": "News title", "publication_date": "2024-05-09T08:00:00Z", "language": "zh_CN"}})
    bad = Page("blog/b/", title="B", published=date(2024, 5, 10), meta={"sitemap_news": "language=en-US"})
    off = Page("blog/c/", title="C", published=date(2024, 5, 10), meta={"sitemap_news": "false"})
    entries, report = run([page, bad, off], news=NEWS)
    assert (entries[0].news.title, entries[0].news.language) == ("News title", "zh-cn")
    assert entries[1].news is None and entries[2].news is None
    assert [p.rule for p in report.warnings] == ["news-language"]


def test_alternates_list_every_version_including_itself_and_x_default():
    en = Page("en/a/", lang="en", translations={"fr": "fr/a/", "pt_BR": "pt-br/a/"})
    entries, _ = run([en], x_default="en")
    assert entries[0].alternates == (
        Alternate("en", BASE + "en/a/"), Alternate("fr", BASE + "fr/a/"),
        Alternate("pt-BR", BASE + "pt-br/a/"), Alternate("x-default", BASE + "en/a/"),
    )
    assert run([Page("solo/", lang="en")])[0][0].alternates == ()
    assert run([en], alternates=False)[0][0].alternates == ()


def test_alternates_from_hreflang_links_in_the_html():
    head = ('<link rel="alternate" hreflang="en" href="/docs/a/">'
            '<link rel="alternate" hreflang="de" href="/docs/de/a/">'
            '<link rel="alternate" hreflang="not a code" href="/docs/x/">')
    entries, report = run([Page("a/", html=html(head=head, lang="en"))])
    assert entries[0].alternates == (Alternate("de", BASE + "de/a/"), Alternate("en", BASE + "a/"))
    assert [p.rule for p in report.warnings] == ["hreflang-code"]


def test_a_canonical_outside_the_site_warns_that_base_url_may_be_wrong():
    page = Page("a/", name="a.md", html=html('<link rel="canonical" href="http://ex.com/docs/a/">'))
    entries, report = run([page])
    assert entries == []
    assert [(p.where, p.rule) for p in report.warnings] == [("a.md", "canonical-outside")]


def test_page_keys_continued_on_indented_lines():
    """Python-Markdown's meta extension gives a list of lines for a continued value."""
    video = ["thumbnail_loc=t.jpg", "title=Tour", "description=A tour", "content_loc=v.mp4"]
    entries, report = run([Page("v/", meta={"sitemap_video": video})])
    assert report.warnings == []
    assert entries[0].videos[0].title == "Tour"


def test_a_listing_page_is_dated_by_the_newest_page_it_lists():
    from sitemapkit import Page, Settings, build_entries

    settings = Settings(base_url="https://example.com/", lastmod=["meta"])
    listing = Page(url="tag/boats/", html="<html><head></head><body></body></html>",
                   listed=(date(2026, 3, 1), None, datetime(2026, 4, 2, 9, 30, tzinfo=timezone.utc)))
    dated = Page(url="tag/ships/", html="<html><head></head><body></body></html>",
                 modified=date(2026, 1, 1), listed=(date(2026, 5, 1),))
    (first, second) = build_entries([listing, dated], settings)
    assert first.lastmod == datetime(2026, 4, 2, 9, 30, tzinfo=timezone.utc)
    assert second.lastmod == date(2026, 1, 1)  # the generator's own date wins


def test_entries_only_the_writer_reads_are_tuples_and_write_the_same_bytes(tmp_path):
    """A build hands its entries to the writer alone: a page with no video, news nor alternates
    gets a ``PlainEntry`` (cheap to make), one with alternates an ``Entry``; ``build_entries``,
    whose caller reads them, gives ``Entry`` only; the sitemaps written from each are the same."""
    from sitemapkit.lastmod.sources import LastmodResolver
    from sitemapkit.listing.entries import list_entries
    from sitemapkit.model import Entry, PlainEntry
    from sitemapkit.output.write import write_sitemaps

    settings = Settings(base_url=BASE, lastmod=["meta"], changefreq="weekly")
    pages = [Page("a/", modified=date(2025, 1, 2), html=html(body="<img src='/x.png'>")),
             Page("b/", translations={"fr": "fr/b/"}, lang="en")]
    report = Report()
    resolver = LastmodResolver(settings, tmp_path, report, datetime(2026, 1, 1, tzinfo=timezone.utc))
    written = list(list_entries(pages, settings, report, resolver, written_only=True).entries)
    public = list(build_entries(pages, settings))
    assert [type(entry) for entry in written] == [PlainEntry, Entry]
    assert [type(entry) for entry in public] == [Entry, Entry]
    assert [tuple(getattr(e, f) for f in ("loc", "lastmod", "images", "alternates")) for e in written] == [
        tuple(getattr(e, f) for f in ("loc", "lastmod", "images", "alternates")) for e in public]
    for name, entries in (("written", written), ("public", public)):
        write_sitemaps(entries, tmp_path / name, settings)
    assert (tmp_path / "written" / "sitemap.xml").read_bytes() == (tmp_path / "public" / "sitemap.xml").read_bytes()
