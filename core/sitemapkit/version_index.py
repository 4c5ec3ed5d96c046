"""The root entry point of a versioned deployment that holds several versions: a sitemap
index over the versions' own sitemaps, the robots.txt line that names it, and an
``llms.txt`` linking the versions' own (the default version's first)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from sitemapkit.dates import DateError, Moment, newest, parse_moment
from sitemapkit.listing.entries import build_entries
from sitemapkit.model import Page
from sitemapkit.output.names import LLMS_NAME, own_names, section_file, sections_index, stem_of
from sitemapkit.output.robots import RobotsTooLarge, sync_robots_txt
from sitemapkit.output.write import write_index, write_urlsets
from sitemapkit.protocol import MAX_BYTES, ROBOTS_READ_BYTES, SITEMAP_NS
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.site.extract import read_head_html
from sitemapkit.site.files import NotRegularFile, Sink, read_regular
from sitemapkit.site.owned import (
    RECORD,
    ForeignFileError,
    Owned,
    RecordKey,
    elsewhere_keys,
    named_extras,
    record_key,
    url_key,
)
from sitemapkit.site.pages import HTML_SUFFIXES, NotPages, not_a_page, serving_file
from sitemapkit.site.scan import pages_in
from sitemapkit.urls import URLError, encode_url, in_scope, normalise_base_url, site_path
from sitemapkit.values import section_name
from sitemapkit.versions import (
    MIKE_VERSIONS,
    Deployment,
    default_version,
    folder_name,
    mike_alias_pairs,
    mike_aliases,
    mike_hidden,
    mike_titles,
    mike_versions,
)

_HEAD_BYTES = 1 << 16  # enough of a root page to see whether it is a redirect

ROOT_OPTIONS = frozenset({"base_url", "filename", "robots_txt", "strict", "gzip", "stylesheet",
                          "extra_sitemaps", "extra_urls", "exclude_versions"})
"""The options the root step reads; every other one belongs to each version's own build."""


class Versions(NamedTuple):
    """What the root of a versioned deployment holds: the real versions' folder names, each
    with its own sitemap listing its own pages, each page its own canonical, and what was left
    out, with why (an alias; a version whose pages are canonical in another, whose sitemap is
    Material's version selector's data only). Handed along: a named tuple."""

    listed: tuple[str, ...]
    left: tuple[tuple[str, str], ...]
    source: str
    """``versions.json`` (mike), or ``version folders``."""
    chosen_out: tuple[str, ...] = ()
    """Versions left out by choice: mike's hidden ones, and those ``exclude_versions`` names
    (recorded, so that ``validate`` does not ask for them)."""
    aliases: tuple[tuple[str, str], ...] = ()
    """``(alias, version)`` for mike's aliases of the versions not listed: where the pages of
    such a version may be canonical (``canonical_version: latest``)."""


def find_versions(root: Path, filename: str, base_url: str, exclude: tuple[str, ...] = ()) -> Versions | None:
    """The versions below ``root``, a deployment served at ``base_url``; None when ``root``
    is no versioned deployment: no mike ``versions.json``, and no folder holding its own
    ``filename`` written by a sitemapkit build (Hugo's per-language sitemaps are not versions').
    Aliases (mike's symbolic links, copies and redirect pages) are never
    listed: a version's sitemap must list URLs below its own folder, at least one, and none
    whose page names another version's URL as canonical. A version mike marks hidden, or
    whose name matches a glob of ``exclude``, is left out."""
    base_url = normalise_base_url(base_url)
    named = mike_versions(root / MIKE_VERSIONS)
    if named is not None:
        names, source = named, MIKE_VERSIONS
    else:
        names = sorted(child.name for child in _folders(root) if _regular(child / filename))
        if not names or _has_pages(root):  # a site with a sub-site (a language) of its own
            return None
        if not any(_regular(root / name / RECORD) for name in names):
            return None  # no sitemapkit build wrote them: another generator's (Hugo's per-language ones)
        source = "version folders"
    listed: list[str] = []
    left: list[tuple[str, str]] = []
    hidden = mike_hidden(root / MIKE_VERSIONS)
    for name in names:
        pattern = next((glob for glob in exclude if fnmatchcase(name, glob)), None)
        why = ("hidden in versions.json (mike's hidden property)" if name in hidden
               else f"exclude_versions {pattern!r} matches it" if pattern is not None
               else _not_own(root, name, filename, base_url, mike=source == MIKE_VERSIONS))
        if why is None:
            listed.append(name)
        else:
            left.append((name, why))
    aliases = tuple((alias, version) for alias, version in mike_alias_pairs(root / MIKE_VERSIONS)
                    if version not in listed and version in names and _inside(root / alias, root)
                    and _inside(root / version, root) and not (root / version).is_symlink())
    chosen = tuple(name for name in names if name in hidden or any(fnmatchcase(name, glob) for glob in exclude))
    return Versions(tuple(listed), tuple(left), source, chosen, aliases)


def version_keys(base_url: str, names: Iterable[str]) -> list[str]:
    """The record's keys of versions left out by choice: each version's home URL's."""
    return [url_key(f"{base_url}{quote(name)}/") for name in names]


def _inside(path: Path, root: Path) -> bool:
    """Whether ``path`` is a folder that, links followed, is below ``root``."""
    try:
        return path.is_dir() and path.resolve().is_relative_to(root.resolve())
    except OSError:
        return False


def _folders(root: Path) -> list[Path]:
    try:
        return [child for child in root.iterdir() if child.is_dir() and not child.is_symlink()]
    except OSError:
        return []


def _has_pages(root: Path) -> bool:
    """Whether ``root`` holds pages of its own, not only redirects (mike's root
    ``index.html``) and error pages."""
    try:
        files = [child for child in root.iterdir() if child.name.endswith(HTML_SUFFIXES) and _regular(child)]
    except OSError:
        return False
    guessed = NotPages(root).of("", [file.name for file in files])  # (the root's error pages among them)
    for file in files:
        if file.name in guessed:
            continue
        try:
            head = read_regular(file, _HEAD_BYTES)
        except OSError:
            continue
        if not_a_page(head) is None:
            return True
    return False


def _regular(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _not_own(root: Path, name: str, filename: str, base_url: str, *, mike: bool) -> str | None:
    """Why folder ``name`` is not a version with its own sitemap, or None when it is (``mike``:
    the deployment is mike's, whose ``canonical_version`` makes such a sitemap the version
    selector's data)."""
    if not folder_name(name):
        return "not a plain folder name"
    folder = root / name
    if folder.is_symlink() or not folder.is_dir():
        return "a link to another folder (an alias) or no folder"
    sitemap = folder / filename
    if sitemap.is_symlink():
        return f"its {filename} is a link"
    scope = base_url + quote(name) + "/"
    try:
        locs = _locs(read_regular(sitemap, MAX_BYTES + 1))
    except NotRegularFile:
        return f"its {filename} is no regular file"
    except OSError:
        return f"no {filename} in it"
    if locs is None:
        return f"its {filename} is not XML"
    if not locs:
        return f"its {filename} lists no URL (its pages are canonical elsewhere, or it has none)"
    outside = next((loc for loc in locs if not in_scope(loc, scope)), None)
    if outside is not None:
        return f"its {filename} lists {outside[:120]}, outside {scope} (a copy of another version)"
    version = Deployment(scope, base_url)
    elsewhere = [found for loc in locs if (found := _other_version(folder, version, loc))]
    if elsewhere:
        page, canonical = elsewhere[0]
        return (f"{len(elsewhere)} of its {len(locs)} pages name a canonical URL outside {name}/ "
                f"({name}/{page[:120]} names {canonical[:120]}): its {filename} is not for search engines"
                + (" (under mike's canonical_version, it is Material's version selector's data only)" if mike
                   else " (its pages' canonical links, from html_baseurl or the site URL, name another version)"))
    return None


def _other_version(folder: Path, version: Deployment, loc: str) -> tuple[str, str] | None:
    """``(file, canonical URL)`` when the page the version in ``folder`` serves at ``loc``
    names a URL outside the version's folder, in the deployment, as its canonical (mike's
    ``canonical_version``: its build lists it only for the version selector); else None. Only the head of a regular file
    inside ``folder`` is read."""
    relative = serving_file(folder, site_path(loc, version.url))
    if relative is None or not relative.endswith(HTML_SUFFIXES):
        return None
    path = folder / relative
    try:
        if not path.resolve().is_relative_to(folder.resolve()):
            return None
        canonical = read_head_html(read_regular(path, _HEAD_BYTES), loc).canonical
    except (OSError, RuntimeError):  # unreadable, not a regular file, a link loop
        return None
    try:
        canonical = encode_url(canonical) if canonical else None
    except URLError:
        return None
    return (relative, canonical) if canonical is not None and version.other_version(canonical) else None


def _locs(data: bytes) -> list[str] | None:
    """The ``<loc>`` values of a sitemap or sitemap index (None: not XML)."""
    read = _items(data)
    return None if read is None else [loc for loc, _ in read[1]]


def _items(data: bytes) -> tuple[str, list[tuple[str, Moment | None]]] | None:
    """``(root element's local name, [(loc, lastmod)])`` of a sitemap or sitemap index (None:
    not XML); a lastmod that is no date counts as none. No entity, DTD or network is read."""
    from lxml import etree  # heavy: loaded only on the root of a versioned deployment

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        tree = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return None
    found = []
    for item in tree:
        loc = item.find(f"{{{SITEMAP_NS}}}loc")
        if loc is None:
            continue
        lastmod = item.findtext(f"{{{SITEMAP_NS}}}lastmod")
        try:
            moment = parse_moment(lastmod) if lastmod else None
        except DateError:
            moment = None
        found.append(((loc.text or "").strip(), moment))
    return etree.QName(tree).localname, found


def _version_children(root: Path, name: str, filename: str, base_url: str) -> list[tuple[str, Moment | None]]:
    """The root index's children for version ``name``: its entry point with the lastmod of its
    newest page; where that is an index (a version split in parts, or its sections'
    ``sitemap-index.xml`` beside a urlset Material reads), the sitemaps it names below the
    version's folder, each with its own lastmod: an index never names another index."""
    scope = f"{base_url}{quote(name)}/"
    for entry in (sections_index(filename), filename):
        try:
            read = _items(read_regular(root / name / entry, MAX_BYTES + 1))
        except OSError:
            continue
        if read is None:
            continue
        kind, items = read
        if kind == "sitemapindex":
            return [(loc, lastmod) for loc, lastmod in items if in_scope(loc, scope)]
        if entry == filename:
            return [(scope + quote(filename), newest(lastmod for _, lastmod in items))]
    return [(scope + quote(filename), None)]


def _alias_pages(root: Path, alias: str, version: str, dates: dict[str, Moment]) -> Iterator[Page]:
    """The pages of ``version``, read where the alias serves them: each whose file is there
    (a link to the version's folder, or mike's copy; a redirect page there is no page), dated
    as the version's own build dated it (``dates``: by URL path below the version's folder)."""
    for page in pages_in(root / version):
        output = root / alias / page.name
        if output.is_file() and output.resolve().is_relative_to(root.resolve()):
            yield Page(url=page.url, output=output, name=f"{alias}/{page.name}", not_page=page.not_page,
                       modified=dates.get(page.url))


def _own_dates(root: Path, version: str, filename: str, base_url: str) -> dict[str, Moment]:
    """The lastmods the version's own sitemap gives its pages (git dates its build read), by
    URL path below the version's folder: the root has no history of them."""
    scope = f"{base_url}{quote(version)}/"
    try:
        read = _items(read_regular(root / version / filename, MAX_BYTES + 1))
    except OSError:
        return {}
    if read is None or read[0] != "urlset":
        return {}
    return {loc[len(scope):]: lastmod for loc, lastmod in read[1] if lastmod is not None and in_scope(loc, scope)}


def _alias_sitemaps(root: Path, versions: Versions, settings: Settings, report: Report, sink: Sink) -> list[Any]:
    """For each alias of a version with no sitemap of its own (mike's ``canonical_version``):
    the urlsets (not yet committed) of that version's pages at the alias's URLs, those whose
    canonical URL is there; only pages of the alias's folder, dated as the version's own build
    dated them (its sitemap's lastmods), else by what they say themselves."""
    base_url = normalise_base_url(settings.base_url or "")
    made = []
    names = {section_file(stem_of(settings.filename), EXTRA_SECTION)} if settings.extra_urls else set()
    for alias, version in versions.aliases:
        name = section_file(stem_of(settings.filename), section_name(alias + "/"))
        if name in names or name == settings.filename:
            continue
        names.add(name)
        url = base_url + quote(alias) + "/"
        own = settings.replace(base_url=url, lastmod=("meta",), news=None, extra_urls=(), extra_sitemaps=())
        dates = _own_dates(root, version, settings.filename, base_url)
        entries = build_entries(_alias_pages(root, alias, version, dates), own, report=report, site_dir=root / alias,
                                deployment=Deployment(url, base_url), project_dir=root)
        series = write_urlsets(entries, root, name, settings, report, sink)
        if series.targets:
            report.info(str(root / alias), "version", "version-canonical-alias",
                        f"{version}'s pages are canonical at {url} (the alias {alias}): listed there, in {name}")
            made.append(series)
    return made


def _root_llms(root: Path, versions: Versions, base_url: str) -> bytes | None:
    """The root ``llms.txt``: a link to each listed version's own ``llms.txt`` (a regular
    file), the default version's first (``versions.default_version``), under the heading and
    summary of the default version's file (the project's name); None when no version has one."""
    from sitemapkit.output.llms import VersionFile, heading, versions_llms  # a root that writes one

    found = [name for name in versions.listed if _regular(root / name / LLMS_NAME)]
    default = default_version(root, found, base_url)
    if default is None:
        return None
    titles = mike_titles(root / MIKE_VERSIONS)
    files = {name: VersionFile(name, titles.get(name) or name, f"{base_url}{quote(name)}/{LLMS_NAME}")
             for name in found}
    try:
        name, summary = heading(read_regular(root / default / LLMS_NAME, _HEAD_BYTES))
    except OSError:
        name, summary = None, None
    return versions_llms(name or base_url, summary, files.pop(default), files.values())


EXTRA_SECTION = "extra"
"""``sitemap-extra.xml``: the root's sitemap of ``extra_urls``, pages no version builds."""


def _extra_urls_sitemap(root: Path, settings: Settings, report: Report, sink: Sink) -> list[Any]:
    """The urlset (not yet committed) of ``extra_urls`` at the root, each URL written once,
    where the user said (below the root URL, not in every version); none without them."""
    if not settings.extra_urls:
        return []
    own = settings.replace(lastmod=("meta",), news=None, extra_sitemaps=())
    entries = build_entries(iter(()), own, report=report, site_dir=root, project_dir=root)
    series = write_urlsets(entries, root, section_file(stem_of(settings.filename), EXTRA_SECTION), settings, report,
                           sink)
    return [series] if series.targets else []


def write_version_index(root: Path, versions: Versions, settings: Settings, report: Report,
                        key: RecordKey | None = None, sink: Sink | None = None) -> Report:
    """Write ``settings.filename`` at ``root``: an index whose children are the listed
    versions' own sitemaps and, for an alias the pages of a version name as canonical
    (mike's ``canonical_version``), a sitemap of those pages at the alias's URLs; the
    robots.txt line naming it (``settings.robots_txt``); and, when a listed version has its
    own ``llms.txt``, the root ``llms.txt`` linking them (never over a file not sitemapkit's).
    Every file goes through ``sink``: a dry run's (``Sink(dry_run=True)``) writes and removes
    nothing, and counts what would be written (``sink.sizes``)."""
    sink = sink if sink is not None else Sink()
    base_url = normalise_base_url(settings.base_url or "")
    for name, why in versions.left:
        report.info(str(root / name), "version", "version-left-out", f"not listed in the root index: {why}")
    path = root / settings.filename
    key = key if key is not None else record_key(Path(settings.state_file))
    named_before = named_extras(root, base_url, key)  # before this step's record replaces it
    aliases = _alias_sitemaps(root, versions, settings, report, sink)
    if not versions.listed and not aliases:
        report.warn(str(root), "version", "version-none",
                    f"no version below {root} has a sitemap of its own pages: no root index written")
        return report
    aliases += _extra_urls_sitemap(root, settings, report, sink)
    # alias sitemaps and extra_urls' sitemap, this build's or stale
    sections = (*(f"{alias}/" for alias in sorted(mike_aliases(root)) if alias != EXTRA_SECTION), f"{EXTRA_SECTION}/")
    owned = Owned(root, report, base_url, own_names(settings.replace(sections=sections, llms_txt=True)), key,
                  dry_run=sink.dry_run)
    llms = _root_llms(root, versions, base_url)
    if llms is not None:
        try:
            owned.check([LLMS_NAME])
        except ForeignFileError as error:
            report.warn(str(root / LLMS_NAME), "llms_txt", "llms-root-foreign",
                        f"the root llms.txt, linking each version's, not written: {error}")
            llms = None
    children = [child for name in versions.listed
                for child in _version_children(root, name, settings.filename, base_url)]
    children += [(url, None) for url in settings.extra_sitemaps if in_scope(url, base_url)]  # others: robots.txt
    children += [(base_url + file.name, lastmod) for series in aliases for file, lastmod in series.written]
    try:
        owned.check([settings.filename, *(final.name for series in aliases for final, _ in series.closed)])
        target = write_index(path, children, settings, sink)
    except BaseException:
        for series in aliases:
            series.abort()
        raise
    beside = []
    try:
        if llms is not None:
            beside.append(sink.open_target(root / LLMS_NAME))
            beside[0].write(llms)
        owned.expect([*target.close(), *(item for series in aliases for item in series.closed),
                      *(item for file in beside for item in file.close())])
        written = [path for series in aliases for path in series.commit()]
        written[:0] = target.commit()
        written += [path for file in beside for path in file.commit()]
    except BaseException:
        for series in aliases:
            series.abort()
        for file in beside:
            file.abort()
        target.abort()
        raise
    for series in aliases:
        report.url_counts.update(series.counts)
    keep = {file.name for file in written}
    extras = settings.extra_sitemaps if settings.robots_txt else ()
    owned.settle(written, sink.remove(owned.stale(keep)), version_keys(base_url, versions.chosen_out), extras,
                 elsewhere_keys(base_url, (extra.loc for extra in settings.extra_urls)))
    report.files.extend(written)
    report.url_counts[written[0]] = len(children)
    if settings.robots_txt:
        try:
            sync_robots_txt(root, [base_url + settings.filename, *extras],
                            [url for url in named_before if url not in extras], sink)
        except RobotsTooLarge as error:
            report.warn(str(error.path), "robots_txt", "robots-too-large",
                        f"robots.txt is {error.size:,} bytes, over the {ROBOTS_READ_BYTES:,} Google "
                        "reads: left as it is, without the Sitemap: line of the root index")
        else:
            report.files.append(root / "robots.txt")
    return report
