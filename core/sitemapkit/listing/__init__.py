"""Pages in, entries out: which pages are listed, and with which fields, images, videos,
news and alternates."""
