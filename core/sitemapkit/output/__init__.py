"""Entries out to files: the streaming writer, the XML it writes, robots.txt, the change
feed, ``sitemap.html`` and IndexNow."""
