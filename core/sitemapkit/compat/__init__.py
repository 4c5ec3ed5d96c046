"""Other sitemap plugins' options, in sitemapkit's terms."""
