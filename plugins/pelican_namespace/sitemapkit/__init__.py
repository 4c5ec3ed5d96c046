"""``pelican.plugins.sitemapkit``: the wheel installs this file there, so Pelican's plugin
auto-discovery (no ``PLUGINS`` line) finds sitemapkit. The source folder is not named
``pelican``, so a checkout on ``sys.path`` never shadows the real package."""

from sitemapkit_pelican import register

__all__ = ["register"]
