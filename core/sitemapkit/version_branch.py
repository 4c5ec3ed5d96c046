"""The root entry point of a versioned deployment written on its git branch (mike's
``gh-pages``) itself, as mike writes its own commits: the branch's pages and sitemaps copied
out to a private folder, the root step run there (``version_index``), and the root files it
changed committed on top of the commit that was read, only when they changed."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from sitemapkit import __version__
from sitemapkit.branch import Branch, BranchError, commit_top, copy_out, move_branch
from sitemapkit.protocol import MAX_BYTES
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.site.owned import branch_key
from sitemapkit.site.pages import HTML_SUFFIXES
from sitemapkit.version_index import Versions, find_versions, write_version_index

_READ = (*HTML_SUFFIXES, ".xml", ".xml.gz", ".json", ".txt")
"""What the root step reads of a branch: pages (a root redirect, the heads of an alias's
pages), sitemaps, records, versions.json and robots.txt; never the assets."""


@dataclass(frozen=True, slots=True)
class BranchRoot:
    """What the root step made of a branch: the versions it found, and the commit it added
    (None: the root was already as it should be)."""

    versions: Versions
    commit: str | None
    changed: tuple[str, ...]


def root_on_branch(branch: Branch, settings: Settings, report: Report, *, dry_run: bool = False) -> BranchRoot:
    """Write the root index (and robots.txt line, and own-files record) of the deployment on
    ``branch``; move the branch to the new commit only if it still is where it was read
    (``dry_run``: never)."""
    with tempfile.TemporaryDirectory(prefix="sitemapkit-branch-") as folder:
        root = Path(folder) / "root"
        root.mkdir()
        before = copy_out(branch, root, lambda path: path.endswith(_READ), MAX_BYTES + 1)
        versions = find_versions(root, settings.filename, settings.base_url, settings.exclude_versions)
        if versions is None:
            raise BranchError(f"branch {branch.name} holds no versioned deployment (no versions.json, "
                              "no version folders with sitemaps of their own)")
        write_version_index(root, versions, settings, report, branch_key(branch.ref))
        after = {path.name: path.read_bytes() for path in root.iterdir()
                 if path.is_file() and not path.is_symlink()}
    changed: dict[str, bytes | None] = {name: data for name, data in after.items() if before.get(name) != data}
    changed.update((name, None) for name in before if name not in after)
    report.url_counts = {Path(path.name): count for path, count in report.url_counts.items()}
    report.files[:] = [Path(path.name) for path in report.files]  # the folder is gone: names on the branch
    listed = ", ".join(versions.listed) or "none"
    message = f"Root sitemap index of versions {listed} with sitemapkit {__version__}"
    commit = commit_top(branch, changed, message) if changed else None
    if commit is not None and not dry_run:
        move_branch(branch, commit, message)
    return BranchRoot(versions, commit, tuple(sorted(changed)))
