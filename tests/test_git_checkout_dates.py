"""Files copied out of a repository at a ref (``git archive``, as sphinx-multiversion does)
are dated from that ref's history in the repository, not from HEAD's and not left undated."""

from __future__ import annotations

import io
import subprocess
import tarfile

import pytest
from git_helpers import commit, git, init, utc

from sitemapkit.lastmod.git import Checkout, GitDates

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)


def archive(repo, ref, folder):
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format", "tar", ref], capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def test_a_copy_of_a_ref_is_dated_from_the_refs_history(tmp_path):
    repo = init(tmp_path / "repo")
    commit(repo, "2020-01-01T00:00:00", {"docs/a.md": "a", "docs/b.md": "b"})
    commit(repo, "2020-02-01T00:00:00", {"docs/a.md": "a2"})
    git(repo, "tag", "-a", "-m", "one", "v1")  # an annotated tag
    commit(repo, "2020-03-01T00:00:00", {"docs/a.md": "a3", "docs/b.md": "b3"})
    copy = archive(repo, "v1", tmp_path / "copy")

    dates = GitDates([copy / "docs"], [Checkout(copy, repo, "refs/tags/v1")])
    assert dates.date(copy / "docs" / "a.md") == utc("2020-02-01T00:00:00")
    assert dates.date(copy / "docs" / "b.md") == utc("2020-01-01T00:00:00")
    assert dates.date(repo / "docs" / "a.md") == utc("2020-03-01T00:00:00")  # the work tree: HEAD's
    dates.close()
    assert not dates.failures and not dates.untracked

    without = GitDates([copy / "docs"])
    assert without.date(copy / "docs" / "a.md") is None and without.outside


def test_a_ref_that_is_gone_leaves_the_files_undated(tmp_path):
    repo = init(tmp_path / "repo")
    commit(repo, "2020-01-01T00:00:00", {"docs/a.md": "a"})
    copy = archive(repo, "HEAD", tmp_path / "copy")
    dates = GitDates([copy / "docs"], [Checkout(copy, repo, "refs/tags/gone")])
    assert dates.date(copy / "docs" / "a.md") is None
    assert dates.untracked == {repo: ["docs/a.md"]}
