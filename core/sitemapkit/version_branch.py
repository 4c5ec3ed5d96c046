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
from sitemapkit.report import Problem, Report
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


def _on_branch(problem: Problem, root: Path, branch: Branch) -> Problem:
    """``problem`` with its place in the private copy told as a path on the branch (``gh-pages:1.0``)."""
    inside = problem.where.removeprefix(str(root)).lstrip("/")
    if inside == problem.where:
        return problem
    return problem._replace(where=f"{branch.name}:{inside}")


def root_on_branch(branch: Branch, settings: Settings, report: Report, *, dry_run: bool = False) -> BranchRoot:
    """Write the root index (and robots.txt line, root llms.txt, and own-files record) of
    the deployment on ``branch``; move the branch to the new commit only if it still is where it was read
    (``dry_run``: never)."""
    with tempfile.TemporaryDirectory(prefix="sitemapkit-branch-") as folder:
        root = Path(folder) / "root"
        root.mkdir()
        before = copy_out(branch, root, lambda path: path.endswith(_READ), MAX_BYTES + 1)
        versions = find_versions(root, settings.filename, settings.base_url, settings.exclude_versions)
        if versions is None:
            raise BranchError(f"branch {branch.name} holds no versioned deployment (no versions.json, "
                              "no version folders with sitemaps of their own)")
        # the private folder is gone when the user reads: every place is told as on the branch
        private = Report(on_warning=lambda problem: report.add(_on_branch(problem, root, branch)))
        write_version_index(root, versions, settings, private, branch_key(branch.ref))
        after = {path.name: path.read_bytes() for path in root.iterdir()
                 if path.is_file() and not path.is_symlink()}
    changed: dict[str, bytes | None] = {name: data for name, data in after.items() if before.get(name) != data}
    changed.update((name, None) for name in before if name not in after)
    report.files.extend(Path(path.name) for path in private.files)
    report.url_counts.update((Path(path.name), count) for path, count in private.url_counts.items())
    report.sizes.update((Path(path.name), size) for path, size in private.sizes.items())
    report.urls += private.urls
    for reason, count in private.left_out.items():
        report.left_out[reason] = report.left_out.get(reason, 0) + count
    listed = ", ".join(versions.listed) or "none"
    message = f"Root sitemap index of versions {listed} with sitemapkit {__version__}"
    commit = commit_top(branch, changed, message) if changed else None
    if commit is not None and not dry_run:
        move_branch(branch, commit, message)
    return BranchRoot(versions, commit, tuple(sorted(changed)))
