"""A small manual built with Sphinx, using every sitemapkit feature.

English:  sphinx-build -b html -j 2 . _build/html
French:   sphinx-build -b html -j 2 -D language=fr \
              -D html_baseurl=https://example.org/manual/fr/ . _build/fr
"""

project = "Lighthouse Manual"
author = "The Lighthouse team"
extensions = ["sitemapkit_sphinx"]
exclude_patterns = ["_build", "extra"]

# Sphinx's canonical link for this build (the French build overrides it with -D).
html_baseurl = "https://example.org/manual/"
html_extra_path = ["extra"]  # extra/robots.txt is kept and gets our Sitemap: line
locale_dirs = ["locales"]

# sphinx-sitemap's options keep their meaning.
sitemap_locales = ["en", "fr"]          # alternates: English at the root, French under fr/
sitemap_url_scheme = "{lang}{link}"     # no {version}: one version of this manual is online
sitemap_excludes = ["license.html"]

# sitemapkit's own options: sitemapkit_<key> for every key of the contract.
sitemapkit_base_url = "https://example.org/manual/"  # the root of every language
sitemapkit_x_default = "en"
sitemapkit_changefreq = "monthly"
sitemapkit_rules = [{"match": "news/*", "changefreq": "weekly", "priority": 0.8}]
sitemapkit_news = {"publication": "Lighthouse News", "match": "news/*"}  # language: Sphinx's
sitemapkit_txt = True
sitemapkit_gzip = True
sitemapkit_llms_txt = True  # llms.txt in the toctree's order, and a Markdown mirror of each page
sitemapkit_lastmod = ["meta", "fingerprint"]
