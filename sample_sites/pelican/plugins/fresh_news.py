"""Sample-site helper: dates articles that carry ``News_age: 3h`` that long before the build.

News sitemaps list only articles of the last two days, so a sample blog with fixed dates
would show an empty news sitemap a few days after it was written. Articles in
content/news/ say how old they are instead of when they were written; this plugin turns
that into a real ``date`` when Pelican reads them, using sitemapkit's build time (which
honours SOURCE_DATE_EPOCH, so a reproducible build stays reproducible).
"""

from datetime import timedelta

from pelican import signals

from sitemapkit.dates import build_time

_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def date_fresh_news(content):
    age = content.metadata.get("news_age")
    if not age:
        return
    amount, unit = float(age[:-1]), _UNITS[age[-1]]
    tz = content.date.tzinfo
    content.date = (build_time() - timedelta(**{unit: amount})).astimezone(tz).replace(microsecond=0)
    content.metadata["date"] = content.date
    content.locale_date = content.date.strftime(content.date_format)


def register():
    signals.content_object_init.connect(date_fresh_news)
