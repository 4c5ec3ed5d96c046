"""A generator's project as ``sitemapkit build`` finds it: its configuration, and the source
file each built page comes from (by each generator's layout), so that front matter
and git date the pages."""
