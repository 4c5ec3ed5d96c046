"""The sitemap protocol in one place: namespaces, limits and every rule id, for the build and
for ``sitemapkit validate`` alike (the same problem has the same id at both times).

Each constant names where it comes from (the section of SPEC.md, shipped in the docs, that
quotes the source). Pure data: importing it costs nothing.
"""

from datetime import timedelta
from typing import NamedTuple

from sitemapkit.patterns import lazy_pattern

# A language code as hreflang takes it (BCP 47: language, optional script and region).
hreflang_pattern = lazy_pattern(r"x-default|[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?")


# A robots.txt "Sitemap:" record, one line without its end (RFC 9309 2.2; sitemaps.org 1.6):
# the field name in any case (only it: a pattern all in any case costs twice as much to
# compile), blanks around the value, a "#" comment after it; group 1 the value. The build finds
# its own lines by it, the validator the sitemaps a robots.txt names.
sitemap_record_pattern = lazy_pattern(r"(?i:\ufeff?\s*sitemap)\s*:\s*([^#]*?)\s*(?:#.*)?")


# -- namespaces -------------------------------------------------------------------------------

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"  # sitemaps.org protocol (SPEC 1.1)
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"  # Google image sitemaps (SPEC 2)
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"  # Google video sitemaps (SPEC 3)
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"  # Google News sitemaps (SPEC 4)
XHTML_NS = "http://www.w3.org/1999/xhtml"  # Google hreflang in sitemaps (SPEC 5)
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"  # XML Schema (schemaLocation attributes)
ATOM_NS = "http://www.w3.org/2005/Atom"  # sitemaps.org "Other formats": Atom 1.0 (SPEC 1.7)

# -- limits -----------------------------------------------------------------------------------

CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")  # sitemaps.org (SPEC 1.3)
VIDEO_PLATFORMS = ("web", "mobile", "tv")  # <video:platform>: Google video sitemaps (SPEC 3)
VIDEO_RELATIONSHIPS = ("allow", "deny")  # of <video:restriction> and <video:platform> (SPEC 3)
VIDEO_TYPES = frozenset({"full", "preview", "clip", "interview", "news", "other"})  # <video:tvshow>'s (SPEC 3)
VIDEO_ID_TYPES = frozenset({"tms:series", "tms:program", "rovi:series", "rovi:program", "freebase", "url"})  # (SPEC 3)
NEWS_GENRES = ("PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated")  # Google News (SPEC 4)
MAX_URLS = 50_000  # URLs per sitemap, text sitemap or feed: sitemaps.org protocol (SPEC 1.1)
MAX_SITEMAPS = 50_000  # sitemaps per index: sitemaps.org protocol (SPEC 1.5)
MAX_BYTES = 52_428_800  # bytes per file, uncompressed: sitemaps.org protocol (SPEC 1.1)
MAX_LOC_LENGTH = 2048  # a loc is shorter than this: sitemaps.org protocol (SPEC 1.2)
MIN_LOC_LENGTH = 12  # sitemap.xsd minLength of <loc> (SPEC 1.2)
MAX_IMAGES = 1_000  # <image:image> per <url>: Google image sitemaps (SPEC 2)
OTHER_VERSION = "canonical in another version"  # the reason a version's page is left out (build summary)
MAX_NEWS = 1_000  # <news:news> per sitemap: Google News sitemaps (SPEC 4)
NEWS_WINDOW_HOURS = 48  # articles of the last two days: Google News sitemaps (SPEC 4)
FUTURE_SLACK = timedelta(days=1)  # a date-only lastmod in a zone ahead of UTC is not "future" yet
VIDEO_MAX_TITLE = 100  # characters: sitemap-video.xsd (SPEC 3)
VIDEO_MAX_DESCRIPTION = 2048  # characters: Google video sitemaps (SPEC 3)
VIDEO_MIN_DURATION = 1  # seconds: Google video sitemaps (SPEC 3; the XSD allows 0)
VIDEO_MAX_DURATION = 28_800  # seconds: Google video sitemaps (SPEC 3)
VIDEO_MAX_RATING = 5.0  # from 0.0: Google video sitemaps (SPEC 3)
VIDEO_MAX_TAGS = 32  # <video:tag> per video: Google video sitemaps (SPEC 3)
VIDEO_MAX_UPLOADER = 255  # characters: Google video sitemaps (SPEC 3)
VIDEO_MAX_CATEGORY = 256  # characters: sitemap-video.xsd (a tag Google dropped in 2022)
HTML_READ_BYTES = 2 * 1024 * 1024  # of an HTML page, the first 2 MB are what Googlebot reads
PAGE_READ_BYTES = 8 << 20
"""Of a built page, the first 8 MiB are read (head, images, videos, links): what lies beyond is
past anything a crawler reads, and reading a page whole would take memory in proportion to
it. Its fingerprint still covers the whole file, read in blocks."""
ROBOTS_READ_BYTES = 500 * 1024
"""Of a robots.txt, the first 500 KiB are what Google reads (its robots.txt documentation;
RFC 9309 2.5: crawlers parse at least 500 KiB). The validator's crawler reads that much; a
build leaves a larger robots.txt as it is (``robots-too-large``): a ``Sitemap:`` line added
at its end would lie past what is read."""

# -- rules ------------------------------------------------------------------------------------

ERROR, WARNING, INFO = "error", "warning", "info"

SO = "sitemaps.org protocol"
XSD = "sitemaps.org XSDs"
G_IMAGE = "Google image sitemaps"
G_VIDEO = "Google video sitemaps"
G_NEWS = "Google News sitemaps"
G_HREFLANG = "Google hreflang"
G_2022 = "Google, 2022 deprecations"
FEEDS = "RSS 2.0 / Atom 1.0"
ROBOTS = "robots.txt (RFC 9309)"
INDEXNOW = "IndexNow"
HTTP = "HTTP (RFC 9110), as crawlers read it"
LLMS = "llms.txt (llmstxt.org)"
TOOL = "sitemapkit"
"""What the rule protects is sitemapkit's own contract (its manifest, its options, git)."""


class RuleEntry(NamedTuple):
    severity: str
    """In a sitemap file given to ``validate``; a build drops what breaks it and warns."""
    summary: str
    source: str


RULES: dict[str, RuleEntry] = {
    # file level
    "unreadable": RuleEntry(ERROR, "the file cannot be opened, decompressed or decoded", TOOL),
    "xml-syntax": RuleEntry(ERROR, "the file is not well-formed XML", SO),
    "doctype": RuleEntry(ERROR, "a DOCTYPE (entities are never expanded, nothing is fetched)", XSD),
    "encoding": RuleEntry(ERROR, "the file is not UTF-8", SO),
    "root-element": RuleEntry(ERROR, "the root is neither <urlset> nor <sitemapindex>", SO),
    "namespace": RuleEntry(ERROR, f"the root is not in {SITEMAP_NS}", SO),
    "size-limit": RuleEntry(ERROR, f"more than {MAX_BYTES:,} bytes uncompressed", SO),
    "url-count": RuleEntry(ERROR, f"more than {MAX_URLS:,} URLs in one sitemap", SO),
    "index-count": RuleEntry(ERROR, f"more than {MAX_SITEMAPS:,} sitemaps in one index", SO),
    "entry-size": RuleEntry(ERROR, "one <url> (or junk between entries) over 2 MiB: reading stops", TOOL),
    "sitemap-empty": RuleEntry(ERROR, "a <urlset> or <sitemapindex> with no entries", XSD),
    "not-a-sitemap": RuleEntry(ERROR, "a file given that is no sitemap, feed or robots.txt (not checked)",
                               TOOL),
    "folder-no-sitemap": RuleEntry(WARNING, "a folder to check that holds no sitemap file", TOOL),
    "outside-targets": RuleEntry(WARNING, "a file named by robots.txt or an index that resolves "
                                          "outside the folders given (never opened)", TOOL),
    "not-regular-file": RuleEntry(WARNING, "a pipe, socket or device found in a folder or named by "
                                           "a file (skipped; given as a target: unreadable)", TOOL),
    # structure
    "unknown-element": RuleEntry(ERROR, "an element the protocol and its extensions do not define here",
                                 XSD),
    "unknown-attribute": RuleEntry(ERROR, "an attribute the element does not have", XSD),
    "stray-text": RuleEntry(ERROR, "text where only elements may be", XSD),
    "element-order": RuleEntry(ERROR, "children out of the order the XSDs require", XSD),
    "duplicate-element": RuleEntry(ERROR, "an element given twice where one is allowed", XSD),
    "required-element": RuleEntry(ERROR, "a required child is missing", XSD),
    # <loc> and other URLs
    "loc-missing": RuleEntry(ERROR, "a <url> or <sitemap> without <loc>", SO),
    "loc-relative": RuleEntry(ERROR, "a URL that is not absolute", SO),
    "loc-scheme": RuleEntry(ERROR, "a URL that is not http or https", SO),
    "loc-length": RuleEntry(ERROR, f"a loc of {MAX_LOC_LENGTH:,} characters or more (or under "
                                   f"{MIN_LOC_LENGTH})", SO),
    "loc-escaping": RuleEntry(ERROR, "characters that must be percent-encoded", SO),
    "loc-invalid": RuleEntry(ERROR, "a page URL that cannot be made an absolute, escaped http(s) URL "
                                    "(build: the page is left out)", SO),
    "loc-host": RuleEntry(WARNING, "a URL on another host than the sitemap's: valid through robots.txt "
                                   "cross-submission or a verified Search Console property; an error "
                                   "where --site-dir or the robots.txt given shows it is not", SO),
    "loc-scope": RuleEntry(ERROR, "a URL outside the folder the sitemap sits in", SO),
    "loc-fragment": RuleEntry(WARNING, "a #fragment, which crawlers drop", SO),
    "duplicate-url": RuleEntry(WARNING, "the same URL listed twice", SO),
    "canonical-outside": RuleEntry(WARNING, "a page whose canonical URL is outside base_url "
                                            "(build: left out)", SO),
    # url fields
    "lastmod-format": RuleEntry(ERROR, "a lastmod that is not YYYY-MM-DD or a full date-time", XSD),
    "lastmod-future": RuleEntry(WARNING, "a lastmod after now", SO),
    "date-format": RuleEntry(ERROR, "a date (video, news, or a page's date at build time) that is not "
                                    "YYYY-MM-DD or a full date-time", XSD),
    "date-timezone": RuleEntry(WARNING, "a date-time without a time zone", SO),
    "changefreq-value": RuleEntry(ERROR, "a changefreq outside always..never", SO),
    "priority-format": RuleEntry(ERROR, "a priority that is not a decimal number", SO),
    "priority-range": RuleEntry(ERROR, "a priority outside 0.0-1.0", SO),
    "page-key": RuleEntry(WARNING, "a page's sitemap key that cannot be read (build)", TOOL),
    # index
    "index-nested": RuleEntry(ERROR, "an index listed by an index", SO),
    "sitemap-not-found": RuleEntry(WARNING, "a sitemap named by an index or robots.txt, not at hand",
                                   TOOL),
    "sitemap-missing": RuleEntry(ERROR, "a sitemap named by an index or robots.txt, absent from --site-dir "
                                 "(a 404 to be)", TOOL),
    "sitemap-elsewhere": RuleEntry(INFO, "a sitemap another tool writes (extra_sitemaps, as the build "
                                   "recorded), named but not in the folder: not checked", TOOL),
    "version-not-indexed": RuleEntry(ERROR, "a version of versions.json with a sitemap of its own that the "
                                     "root index does not name (the root step was not run after a deploy)",
                                     TOOL),
    # images
    "image-count": RuleEntry(ERROR, f"more than {MAX_IMAGES:,} images in one <url>", G_IMAGE),
    "image-loc-missing": RuleEntry(ERROR, "an <image:image> without <image:loc>", G_IMAGE),
    "image-loc": RuleEntry(ERROR, "an image URL that cannot be made an absolute, escaped http(s) URL "
                                  "(build: the image is dropped)", G_IMAGE),
    "image-deprecated": RuleEntry(WARNING, "image tags Google dropped in 2022", G_2022),
    # videos
    "video-required": RuleEntry(ERROR, "a video without thumbnail_loc, title or description", G_VIDEO),
    "video-location": RuleEntry(ERROR, "a video without content_loc or player_loc, or one equal to loc",
                                G_VIDEO),
    "video-url": RuleEntry(ERROR, "a video URL that cannot be made an absolute, escaped http(s) URL "
                                  "(build: dropped)", G_VIDEO),
    "video-unknown-field": RuleEntry(WARNING, "a video field Google does not read (build: dropped)",
                                     G_VIDEO),
    "video-title-length": RuleEntry(ERROR, f"a video title over {VIDEO_MAX_TITLE} characters", XSD),
    "video-description-length": RuleEntry(ERROR, f"a video description over "
                                                 f"{VIDEO_MAX_DESCRIPTION:,} characters", G_VIDEO),
    "video-duration": RuleEntry(ERROR, f"a duration outside {VIDEO_MIN_DURATION}-"
                                       f"{VIDEO_MAX_DURATION:,} seconds", G_VIDEO),
    "video-rating": RuleEntry(ERROR, f"a rating outside 0.0-{VIDEO_MAX_RATING}", G_VIDEO),
    "video-view-count": RuleEntry(ERROR, "a view_count that is not a whole number", G_VIDEO),
    "video-yes-no": RuleEntry(ERROR, "a yes/no field with another value", G_VIDEO),
    "video-restriction": RuleEntry(ERROR, "a restriction that is not allow/deny with ISO 3166 codes",
                                   G_VIDEO),
    "video-platform": RuleEntry(ERROR, "a platform that is not allow/deny with web, mobile, tv", G_VIDEO),
    "video-tag-count": RuleEntry(ERROR, f"more than {VIDEO_MAX_TAGS} video tags", G_VIDEO),
    "video-uploader": RuleEntry(ERROR, f"an uploader over {VIDEO_MAX_UPLOADER} characters or with info "
                                       "on another host", G_VIDEO),
    "video-deprecated": RuleEntry(WARNING, "video tags Google dropped in 2022", G_2022),
    "video-value": RuleEntry(ERROR, "a bad value in a dropped video tag (still checked by the XSD)", XSD),
    # news
    "news-required": RuleEntry(ERROR, "news without publication name, language, date or title", G_NEWS),
    "news-language": RuleEntry(ERROR, "a news language that is not ISO 639 (zh-cn, zh-tw)", G_NEWS),
    "news-too-old": RuleEntry(ERROR, "a news article published more than two days ago", G_NEWS),
    "news-future": RuleEntry(WARNING, "a news article published after now", G_NEWS),
    "news-count": RuleEntry(ERROR, f"more than {MAX_NEWS:,} news articles in one sitemap", G_NEWS),
    "news-deprecated": RuleEntry(WARNING, "news tags Google no longer documents", G_NEWS),
    "news-value": RuleEntry(ERROR, "a bad value in a dropped news tag (still checked by the XSD)", XSD),
    # hreflang
    "hreflang-code": RuleEntry(ERROR, "an hreflang that is not language[-Script][-REGION] or x-default",
                               G_HREFLANG),
    "hreflang-rel": RuleEntry(ERROR, "an xhtml:link whose rel is not alternate", G_HREFLANG),
    "hreflang-href": RuleEntry(ERROR, "an xhtml:link without href or hreflang (and no media)",
                               G_HREFLANG),
    "mobile-media": RuleEntry(ERROR, "a mobile alternate (xhtml:link with media) whose media is empty",
                              G_HREFLANG),
    "hreflang-self": RuleEntry(ERROR, "alternates that do not include the page itself", G_HREFLANG),
    "hreflang-duplicate": RuleEntry(ERROR, "one hreflang code for two URLs in one <url>", G_HREFLANG),
    "hreflang-no-return": RuleEntry(ERROR, "an alternate whose page does not link back", G_HREFLANG),
    # RSS 2.0 and Atom 1.0 feeds read as sitemaps
    "feed-version": RuleEntry(ERROR, "a feed that is not RSS 2.0 or Atom 1.0", FEEDS),
    "feed-link": RuleEntry(ERROR, "an RSS <item> without <link> or an Atom <entry> without link href",
                           FEEDS),
    "feed-date": RuleEntry(ERROR, "an RSS pubDate that is not RFC 822, an Atom updated not RFC 3339",
                           FEEDS),
    "feed-empty": RuleEntry(WARNING, "a feed with no item or entry", FEEDS),
    # text sitemaps and robots.txt
    "txt-line": RuleEntry(ERROR, "a text-sitemap line that is not one URL", SO),
    "robots-sitemap-relative": RuleEntry(ERROR, "a robots.txt Sitemap: line with a relative URL", SO),
    "robots-sitemap-field": RuleEntry(WARNING, "a misspelt Sitemap field (Site-map:, Sitemaps:), which "
                                               "crawlers ignore", ROBOTS),
    "robots-no-sitemap": RuleEntry(WARNING, "a robots.txt without any Sitemap: line", SO),
    "gzip-twin-differs": RuleEntry(WARNING, "a .gz twin whose content differs from the plain file", TOOL),
    # against the built site (--site-dir)
    "page-missing": RuleEntry(ERROR, "a listed URL with no built page (a 404 to be)", TOOL),
    "image-missing": RuleEntry(ERROR, "a listed image under the site's root with no file in the built site "
                                      "(build: the image is dropped)", G_IMAGE),
    "page-not-listed": RuleEntry(WARNING, "an indexable built page missing from the sitemap", TOOL),
    "page-noindex": RuleEntry(ERROR, "a listed page whose HTML (or, live, X-Robots-Tag) says noindex", TOOL),
    "page-blocked": RuleEntry(WARNING, "a listed page that the site's robots.txt disallows crawling",
                              ROBOTS),
    "page-canonical": RuleEntry(WARNING, "a listed page whose canonical names another URL", TOOL),
    "page-not-a-page": RuleEntry(WARNING, "a listed file that is no page: redirect stub, generated "
                                 "index, 404, draft, fragment", TOOL),
    # fetched by URL, and the live pages (--check-pages)
    "sitemap-fetch": RuleEntry(ERROR, "a sitemap named by a fetched index or robots.txt that cannot be "
                                      "fetched: no 200 answer, a timeout, a redirect loop or more than 5 "
                                      "redirects", HTTP),
    "sitemap-content-type": RuleEntry(WARNING, "a fetched sitemap, feed or robots.txt served with a "
                                               "Content-Type other than its kind's", HTTP),
    "robots-unreachable": RuleEntry(WARNING, "a host whose robots.txt answers 5xx or not at all: crawlers "
                                             "keep out, so its pages are not requested", ROBOTS),
    "page-status": RuleEntry(ERROR, "a listed URL that answers other than 200 (404, 410, 500...)", HTTP),
    "page-redirect": RuleEntry(WARNING, "a listed URL that redirects (an error for a loop or more than 5 "
                                        "redirects)", HTTP),
    "page-unreachable": RuleEntry(ERROR, "a listed URL that gives no answer: timeout, refused connection, "
                                         "TLS or transfer fault", HTTP),
    "fetch-refused": RuleEntry(WARNING, "a URL a fetched file, redirect or sitemap names on a host the "
                                        "user did not name (--allow-host), or at a loopback, private, "
                                        "link-local or other special address: not requested", HTTP),
    "max-time": RuleEntry(ERROR, "validate reached --max-time (default 30 minutes): the sitemaps and "
                                 "pages left were not fetched, nor checked", TOOL),
    "wait-capped": RuleEntry(WARNING, "a robots.txt Crawl-delay or a Retry-After longer than sitemapkit "
                                      "waits: requests go at the cap, an answer is not asked again", HTTP),
    "page-hreflang-return": RuleEntry(ERROR, "a listed page whose hreflang alternate (in its HTML head) "
                                             "does not link back", G_HREFLANG),
    # the build only: what it could not write, and its own sources
    "no-pages": RuleEntry(WARNING, "no page to list, so no sitemap was written (build)", XSD),
    "max-bytes": RuleEntry(WARNING, "one URL larger than max_bytes allows in a file (build: left out)",
                           SO),
    "page-unreadable": RuleEntry(WARNING, "a page file that is a pipe, socket or device, or cannot be "
                                          "read (build: left out)", TOOL),
    "page-too-large": RuleEntry(WARNING, f"a built page larger than {PAGE_READ_BYTES >> 20} MiB (build: "
                                         "its images and videos read from its start only)", TOOL),
    "url-too-long": RuleEntry(WARNING, "a page's attribute value too long to be a URL (build: left "
                                       "unread)", SO),
    "record-unreadable": RuleEntry(WARNING, "the record of sitemapkit's own files cannot be read "
                                            "(build: nothing removed, rewritten)", TOOL),
    "record-altered": RuleEntry(WARNING, "the record of sitemapkit's own files names a file these "
                                         "settings never write (build: ignored, never removed or "
                                         "replaced)", TOOL),
    "record-unsigned": RuleEntry(WARNING, "the record of sitemapkit's own files is not signed with this "
                                          "project's key (build: the record is ignored, no file replaced or "
                                          "removed on its word)", TOOL),
    "record-unsigned-moot": RuleEntry(INFO, "the record of sitemapkit's own files is not signed with this "
                                             "project's key, and the only files it names that are there are "
                                             "ones the build writes again (nothing at stake)", TOOL),
    "record-key": RuleEntry(INFO, "no key can be kept beside the manifest to sign the record of "
                                  "sitemapkit's own files (build: the record is written unsigned)", TOOL),
    "record-option-off": RuleEntry(INFO, "a recorded file of an option now off (build: left in place, "
                                         "kept in the record for the option turned on again)", TOOL),
    "output-locked": RuleEntry(INFO, "another build is writing into the output folder (build: waits "
                                     "for it)", TOOL),
    "robots-too-large": RuleEntry(WARNING, "a robots.txt over 500 KiB (build: left as it is, without "
                                           "the Sitemap: lines)", ROBOTS),
    "front-matter": RuleEntry(WARNING, "a page source's front matter that is not valid YAML or TOML "
                                        "(sitemapkit build --source-dir: ignored, the page dated by git)",
                              TOOL),
    "lastmod-git": RuleEntry(WARNING, "git dates cannot be read; lastmod falls back", TOOL),
    "lastmod-git-shallow": RuleEntry(INFO, "a shallow clone cuts pages' history; lastmod falls back",
                                     TOOL),
    "lastmod-git-submodule": RuleEntry(INFO, "pages in a git submodule; lastmod falls back", TOOL),
    "lastmod-git-untracked": RuleEntry(INFO, "pages with no commit yet; lastmod falls back", TOOL),
    "source-dir-missing": RuleEntry(WARNING, "a source folder given (--source-dir) that does not exist: no page "
                                             "is dated by its sources", TOOL),
    "lastmod-no-source": RuleEntry(INFO, "listed pages whose URL matches no file in the source folder "
                                         "(sitemapkit build --source-dir)", TOOL),
    "generator-sitemap": RuleEntry(INFO, "the project's generator (Zensical, MkDocs run without the plugin) "
                                   "wrote its own sitemap at sitemapkit's name, as it does on every build "
                                   "(build: replaced)", TOOL),
    "sitemap-other": RuleEntry(WARNING, "sitemap files another tool left in the site's folder (build: "
                                        "named, never removed)", TOOL),
    "noindex-most": RuleEntry(WARNING, "most pages say noindex and are left out (a theme or a "
                                       "development setting)", TOOL),
    "state-corrupt": RuleEntry(WARNING, "the manifest of the last build cannot be read (rebuilt)", TOOL),
    "state-write": RuleEntry(WARNING, "the manifest cannot be saved", TOOL),
    "state-in-site": RuleEntry(WARNING, "an earlier build's state (manifests, record key) lies in a folder "
                                        "served with the site, and is deployed with it (build: the site's own "
                                        "part taken to where builds keep it now; the folder never removed)", TOOL),
    "state-facts-rebuilt": RuleEntry(INFO, "the kept page facts are another version of sitemapkit's "
                                           "(started again: every page read once)", TOOL),
    "base-url-missing": RuleEntry(WARNING, "the site's absolute URL is not configured (build: no "
                                  "sitemap written)", TOOL),
    "plugin-conflict": RuleEntry(WARNING, "another sitemap plugin is enabled too and writes the same "
                                 "file", TOOL),
    "option-invalid": RuleEntry(WARNING, "an option's value sitemapkit cannot use (Sphinx: warned and no "
                                "sitemap written, as Sphinx does for its own values; elsewhere an error at "
                                "start-up)", TOOL),
    "option-ignored": RuleEntry(WARNING, "another plugin's option sitemapkit takes but cannot follow "
                                "here", TOOL),
    "canonical-clash": RuleEntry(WARNING, "every page's canonical link points elsewhere than the URLs "
                                 "the settings give (build: no sitemap written)", TOOL),
    "state-path": RuleEntry(WARNING, "state_file names a folder, a pipe or another thing that cannot "
                            "hold a manifest (none kept)", TOOL),
    "lang-unnamed": RuleEntry(INFO, "Sphinx: sitemap_url_scheme's {lang} is empty for English, as "
                              "conf.py names no language (in every language's build)", TOOL),
    "theme-sitemap-name": RuleEntry(WARNING, "filename is not sitemap.xml, which the site's theme reads "
                                    "(Material's instant navigation, previews, version and language "
                                    "selectors)", TOOL),
    "canonical-other-version": RuleEntry(INFO, "a page of one version whose canonical URL is another "
                                         "version's (build: left out of this version's sitemap; under mike, "
                                         "listed there for Material's version selector only, and that sitemap "
                                         "left out of the root index)", TOOL),
    "canonical-unversioned": RuleEntry(WARNING, "sphinx-multiversion: one html_baseurl for every ref gives "
                                       "each page a canonical link without its version's folder (build: "
                                       "pages listed under the version's folder)", TOOL),
    "no-pages-other-version": RuleEntry(INFO, "a version's build whose every page has its canonical URL in "
                                        "another version (build: no sitemap written)", TOOL),
    "version-home-left-out": RuleEntry(WARNING, "a version's home page left out of its sitemap (Material's "
                                       "version selector cannot match its pages)", TOOL),
    "version-home-unmatched": RuleEntry(INFO, "a version's home page listed at another URL than the "
                                        "version's own (index.html): Material's version selector matches none "
                                        "of its pages", TOOL),
    "version-left-out": RuleEntry(INFO, "a folder of a versioned deployment that is no version with a "
                                  "sitemap of its own pages (an alias, a copy, a version whose pages are "
                                  "canonical in another; build: not in the root index)",
                                  TOOL),
    "version-canonical-alias": RuleEntry(INFO, "a version whose pages are canonical at one of its aliases "
                                         "(mike's canonical_version; build: listed there, in a sitemap of the "
                                         "root index)", TOOL),
    "version-none": RuleEntry(WARNING, "a versioned deployment with no version that has a sitemap of its "
                              "own pages (build: no root index)", TOOL),
    "version-root-options": RuleEntry(INFO, "extra_urls or extra_sitemaps in one version's build under mike: "
                                      "left to the root step, which writes them once", TOOL),
    "robots-version-off": RuleEntry(INFO, "one version's build (mike, Read the Docs, sphinx-multiversion) "
                                    "writes no robots.txt unless robots_txt is set", TOOL),
    "robots-below-root": RuleEntry(INFO, "a site below its host's root (base_url with a path): crawlers "
                                   "read robots.txt only at the host's root (build: not written; the "
                                   "line to add there is named)", TOOL),
    "exclude-unmatched": RuleEntry(WARNING, "an exclude pattern that matched no page", TOOL),
    "include-unmatched": RuleEntry(WARNING, "an include pattern that matched no file", TOOL),
    "transform-error": RuleEntry(WARNING, "the transform callable returned neither an Entry nor None (build: "
                                 "the page is left out), or raised an exception or SystemExit at a page (build: "
                                 "stops, no sitemap written; Sphinx: a warning, no sitemap)", TOOL),
    "html-sitemap-size": RuleEntry(WARNING, f"more than {MAX_URLS:,} URLs for sitemap.html (build: the "
                                            "first are linked)", TOOL),
    "html-sitemap-theme": RuleEntry(WARNING, "the site's theme cannot render sitemap.html (an error, or a "
                                             "page without the map): sitemapkit's plain page is written", TOOL),
    "llms-format": RuleEntry(ERROR, "llms.txt: no H1 first, a second H1, no `##` section, a link line "
                                     "outside the sections, or too large to read", LLMS),
    "llms-line": RuleEntry(ERROR, "llms.txt: a line in a section that is no link line (`- [title](url): "
                                  "notes`): the reference parser stops on it", LLMS),
    "llms-link": RuleEntry(ERROR, "llms.txt: a link that is neither an http(s) URL nor a path", LLMS),
    "llms-link-missing": RuleEntry(ERROR, "llms.txt links a file the built site does not have (--site-dir)",
                                   LLMS),
    "llms-link-index": RuleEntry(WARNING, "llms.txt links an llms.txt that is not one of the site's own (an "
                                          "alias's copy of a version's; --site-dir)", LLMS),
    "llms-duplicate": RuleEntry(WARNING, "llms.txt links a page a second time (--site-dir)", LLMS),
    "llms-not-listed": RuleEntry(WARNING, "llms.txt links a page no checked sitemap lists (--site-dir)", TOOL),
    "llms-page-missing": RuleEntry(WARNING, "a page the sitemap lists that no llms.txt links (--site-dir)", TOOL),
    "llms-mirror-foreign": RuleEntry(WARNING, "a page's Markdown mirror (URL.md) is not written: a file of "
                                              "that name is not sitemapkit's (llms.txt links the page)", TOOL),
    "llms-root-foreign": RuleEntry(WARNING, "the root llms.txt of a versioned deployment, linking each "
                                            "version's, is not written: a file of that name is not sitemapkit's",
                                   TOOL),
    "llms-mirror-missing": RuleEntry(INFO, "pages linked as HTML in llms.txt: no file of the site serves them "
                                           "(extra_urls), or they are too long or too deeply nested to convert",
                                     TOOL),
    "indexnow-network": RuleEntry(WARNING, "the IndexNow endpoint cannot be reached (URLs kept)",
                                  INDEXNOW),
    "indexnow-<status>": RuleEntry(WARNING, "the IndexNow endpoint answered HTTP <status> (400, 403, "
                                            "422, 429, ...; URLs kept)", INDEXNOW),
}
"""Every rule id sitemapkit reports, with its severity, what it means and where it comes from.
An id with ``<...>`` stands for a family (``indexnow-403``); ``rule_entry()`` finds it."""


def rule_entry(rule_id: str) -> RuleEntry:
    """The registry entry of ``rule_id``, a family's (``indexnow-403``) included."""
    found = RULES.get(rule_id)
    if found is None:
        stem, _, tail = rule_id.rpartition("-")
        if tail.isdigit():
            found = RULES.get(f"{stem}-<status>")
    if found is None:
        raise KeyError(rule_id)
    return found
