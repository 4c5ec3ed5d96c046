"""A built site as it lies on disk: which file serves which URL, what is a page, what a page's
head and content say, folder scans, and the record of sitemapkit's own files. Read by
the build and by ``validate`` alike."""
