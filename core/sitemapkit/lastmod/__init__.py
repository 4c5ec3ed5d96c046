"""Where each page's lastmod comes from: its metadata, git, or the content-fingerprint
manifest kept between builds."""
