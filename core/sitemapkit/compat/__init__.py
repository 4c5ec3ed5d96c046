"""Other sitemap plugins' options, and the ways of each generator and of the plugins sitemapkit
works beside, in sitemapkit's terms: what an adapter would otherwise decide, as plain functions."""
