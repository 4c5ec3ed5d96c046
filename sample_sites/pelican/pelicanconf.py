"""The sitemapkit sample blog: English with French translations, images, a video, news.

Build from the repository root:
    .venv/bin/pelican sample_sites/pelican/content -s sample_sites/pelican/pelicanconf.py
The site lands in sample_sites/pelican/output/.
"""

AUTHOR = "Ada Harbour"
SITENAME = "Harbour Notes"
SITEURL = "https://harbour.example.org"
PATH = "content"
OUTPUT_PATH = "output"
TIMEZONE = "Europe/Paris"
DEFAULT_LANG = "en"
DEFAULT_PAGINATION = 3
DELETE_OUTPUT_DIRECTORY = True
LOAD_CONTENT_CACHE = False

YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
YEAR_ARCHIVE_URL = "{date:%Y}/"
ARTICLE_URL = "{date:%Y}/{slug}/"
ARTICLE_SAVE_AS = "{date:%Y}/{slug}/index.html"
ARTICLE_LANG_URL = "{lang}/{date:%Y}/{slug}/"
ARTICLE_LANG_SAVE_AS = "{lang}/{date:%Y}/{slug}/index.html"

FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None

STATIC_PATHS = ["images", "extra/robots.txt"]
EXTRA_PATH_METADATA = {"extra/robots.txt": {"path": "robots.txt"}}

# fresh_news dates the articles in content/news/ relative to the build (see its docstring).
PLUGIN_PATHS = ["plugins"]
PLUGINS = ["fresh_news", "sitemapkit_pelican"]

SITEMAPKIT = {
    "x_default": "en",
    "news": {"publication": "Harbour Notes", "language": "en", "match": "*news-*"},
    "gzip": True,
    "txt": True,
    "llms_txt": True,
}

# pelican-sitemap's setting keeps its meaning: pages weigh more than articles.
SITEMAP = {
    "priorities": {"articles": 0.6, "pages": 0.8, "indexes": 0.3},
    "changefreqs": {"articles": "monthly", "pages": "yearly", "indexes": "daily"},
    "exclude": [r"^authors\.html$"],
}
