"""``pelican.plugins.sitemapkit``: the wheel installs this file there, so Pelican's plugin
auto-discovery (no ``PLUGINS`` line) finds sitemapkit. The source folder is not named
``pelican``, so a checkout on ``sys.path`` never shadows the real package.

Pelican imports every namespace plugin in every build, even one whose ``PLUGINS`` line leaves
it out: the adapter is imported when Pelican registers it, so a build without sitemapkit
does not load it (measured: 113 M instructions)."""


def register() -> None:
    from sitemapkit_pelican import register as connect

    connect()
