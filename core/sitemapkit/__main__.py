import sys

from sitemapkit.cli import main

sys.exit(main())
