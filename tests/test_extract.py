import pytest

from sitemapkit.site.extract import read_page_html

URL = "https://ex.com/docs/page/"


def page(main: str, nav: str = "<a href='/'>Home</a>", head: str = "") -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>T</title>{head}</head>"
            f"<body><nav>{nav}<img src='/logo.png'></nav>{main}<footer><img src='f.png'></footer></body></html>")


@pytest.mark.parametrize(
    ("main", "images"),
    [
        ("<main><img src='a.png'></main>", [URL + "a.png"]),
        ("<div class='body' role=\"main\"><img src='a.png'></div>", [URL + "a.png"]),
        ("<article><img src='a.png'></article>", [URL + "a.png"]),
    ],
)
def test_images_come_from_the_main_content_only(main, images):
    assert list(read_page_html(page(main), URL).images) == images


def test_without_a_main_region_the_body_is_the_content_but_not_its_nav_and_footer():
    facts = read_page_html(page("<article><img src='a.png'></article><article><img src='b.png'></article>"), URL)
    assert list(facts.images) == [URL + "a.png", URL + "b.png"]


def test_the_fingerprint_moves_with_the_content_not_the_theme():
    first = read_page_html(page("<main><p>Hello</p></main>"), URL).digest
    new_nav = read_page_html(page("<main><p>Hello</p></main>", nav="<a href='/new/'>New page</a>"), URL).digest
    new_text = read_page_html(page("<main><p>Hello, world</p></main>"), URL).digest
    new_image = read_page_html(page("<main><p>Hello</p><img src='x.png'></main>"), URL).digest
    comment = read_page_html(page("<main><p>Hello</p><!-- built 12:00 --></main>"), URL).digest
    assert first == new_nav == comment
    assert len({first, new_text, new_image}) == 3


@pytest.mark.parametrize(
    ("meta", "noindex"),
    [("<meta name='robots' content='noindex'>", True), ("<meta name='ROBOTS' content='NONE'>", True),
     ("<meta name='googlebot' content='follow, noindex'>", True),
     ("<meta name='robots' content='index, follow'>", False), ("", False)],
)
def test_robots_noindex(meta, noindex):
    assert read_page_html(page("<main></main>", head=meta), URL).noindex is noindex


def test_head_links_and_dates():
    head = ("<link rel='canonical' href='../other/'><link rel='alternate' hreflang='fr' href='/fr/page/'>"
            "<link rel='alternate' type='application/rss+xml' href='/feed.xml'>"
            "<meta property='article:published_time' content='2024-01-01'>"
            "<meta property='article:modified_time' content='2024-02-01T10:00:00Z'>")
    facts = read_page_html(page("<main></main>", head=head), URL)
    assert facts.canonical == "https://ex.com/docs/other/"
    assert facts.alternates == (("fr", "https://ex.com/fr/page/"),)
    assert (facts.published, facts.modified, facts.title, facts.lang) == (
        "2024-01-01", "2024-02-01T10:00:00Z", "T", "en")


def test_head_words_elsewhere_do_not_hide_or_fake_the_tags_that_matter():
    """The head is read from the words that matter (robots, canonical...) back to their tag."""
    head = ("<title>Robots and canonical URLs</title><link rel='stylesheet' href='/canonical.css'>"
            "<meta name='description' content='noindex robots canonical'>"
            "<link hreflang='de' rel='alternate canonical-ish' href='/de/'>"
            "<script>var robots = '<meta name=robots content=noindex>';</script>"
            "<meta content='noindex' name='robots'><link href='/real/' rel='canonical'>")
    facts = read_page_html(page("<main></main>", head=head), URL)
    assert facts.noindex is True
    assert facts.canonical == "https://ex.com/real/"
    assert facts.alternates == (("de", "https://ex.com/de/"),)
    assert read_page_html(page("<main></main>", head=head.replace("'noindex' name", "'x' name")),
                          URL).noindex is False


def test_the_names_a_head_is_read_for_are_found_among_tags_sharing_their_words():
    """The head is looked through for a word of each name it reads (``bot``, ``_time``): tags
    that hold those words otherwise (a bottom bar's script, a timetable's description) are read
    and passed over, and each name is still found after them."""
    head = ("<script src='/js/bottom_time.js'></script><meta name='description' content='a bot timetable, up_time'>"
            "<link rel='stylesheet' href='/css/robot_time.css'><meta property='og:updated_time' "
            "content='2024-03-01T08:00:00Z'><meta name='googlebot' content='noindex'>")
    facts = read_page_html(page("<main></main>", head=head), URL)
    assert (facts.noindex, facts.modified, facts.published) == (True, "2024-03-01T08:00:00Z", None)
    quiet = read_page_html(page("<main></main>", head=head.replace("googlebot", "bottom")), URL)
    assert (quiet.noindex, quiet.modified) == (False, "2024-03-01T08:00:00Z")


def test_declared_charset_and_utf8_default():
    latin = page("<main><img src='é.png'></main>").replace("utf-8", "iso-8859-1").encode("latin-1")
    assert read_page_html(latin, URL).images == (URL + "é.png",)
    plain = "<html><head><title>Ünïcode</title></head><body><main></main></body></html>".encode()
    assert read_page_html(plain, URL).title == "Ünïcode"


def test_empty_or_broken_html_gives_no_facts():
    assert read_page_html(b"", URL).digest is None
    assert read_page_html(b"\x00\xff<<<", URL).noindex is False


def test_markup_case_does_not_matter():
    upper = ("<HTML LANG='en'><HEAD><TITLE>T</TITLE><META NAME='Robots' CONTENT='NOINDEX'></HEAD><BODY>"
             "<NAV><IMG SRC='/logo.png'></NAV><DIV CLASS='body' ROLE='Main'><IMG SRC='Shot.PNG'></DIV></BODY></HTML>")
    facts = read_page_html(upper, URL)
    assert facts.noindex and facts.title == "T"
    assert facts.images == (URL + "Shot.PNG",)


def test_given_content_replaces_the_main_region_and_the_file_serves_for_its_head(tmp_path):
    """What an adapter that holds the rendered body (Pelican) gets: images and fingerprint from
    that body, robots and canonical still from the written page's head."""
    from sitemapkit.site.extract import read_page_file

    written = tmp_path / "post.html"
    written.write_text(page("<main><img src='theme-only.png'></main>",
                            head="<meta name='robots' content='noindex'>"), encoding="utf-8")
    facts = read_page_file(written, URL, content="<p>Body</p><img src='in-body.png'>")
    assert facts.noindex is True
    assert facts.images == (URL + "in-body.png",)
    written.write_text(page("<main>another theme, same body</main>"), encoding="utf-8")
    again = read_page_file(written, URL, content="<p>Body</p><img src='in-body.png'>")
    assert again.digest == facts.digest and again.noindex is False
    edited = read_page_file(written, URL, content="<p>Body, edited</p><img src='in-body.png'>")
    assert edited.digest != facts.digest
    assert read_page_file(tmp_path / "missing.html", URL, content="<p>x</p>").digest is not None


def test_a_long_head_is_read_whole_when_only_the_head_is_wanted(tmp_path):
    from sitemapkit.site.extract import read_page_file

    styles = "".join(f"<link rel='stylesheet' href='/assets/s{n}.css'>" for n in range(400))
    written = tmp_path / "page.html"
    written.write_text(page("<main>x</main>", head=styles + "<link rel='canonical' href='/else/'>"),
                       encoding="utf-8")
    assert written.stat().st_size > 16384
    assert read_page_file(written, URL, content="<p>x</p>").canonical == "https://ex.com/else/"


@pytest.mark.parametrize("page", [
    "<!DOCTYPE html><html><head><link rel='canonical' href='/c/'></head><body><p>x</p></body></html>",
    "<HTML><HEAD><META NAME='ROBOTS' CONTENT='NOINDEX'></HEAD><BODY><p>x</p></BODY></HTML>",
    "<html><head><meta name=robots content=noindex><body><p>x</p></body></html>",
    "<html><head><link rel=canonical href=/c/><BODY><script>let end = '</head>'</script></BODY></html>",
    "<html><head><link rel=canonical href=/c/></HEAD><body><meta name=robots content=noindex></head>",
])
def test_a_head_kept_alone_reads_as_the_whole_page(page):
    """``head_of`` keeps a page through its head, found with a plain find where the page writes
    ``</head`` in lower case (most do): it may keep more than the head then, never less, and
    the page's facts read from it are those read from the whole page."""
    from sitemapkit.site.extract import head_of

    kept = head_of(page)
    assert page.startswith(kept) and "<p>x</p>" not in kept
    whole = read_page_html(page, "https://ex.com/a/", content="<p>x</p>")
    assert read_page_html(kept, "https://ex.com/a/", content="<p>x</p>") == whole
    assert whole.canonical == "https://ex.com/c/" or whole.noindex
