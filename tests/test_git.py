"""git dates from one batched pass, checked on real repositories made here."""

from __future__ import annotations

import random
import subprocess

import pytest
from git_helpers import commit, git, init, move, utc

from sitemapkit.lastmod.git import GitDates
from sitemapkit.lastmod.git_history import Repository, inspect, read_dates

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)


def test_last_commit_per_file_with_spaces_and_non_ascii(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T10:00:00", {"a b.md": "1", "docs/ü ñ.md": "1", "c.md": "1"})
    commit(repo, "2021-06-01T12:30:00", {"docs/ü ñ.md": "2"})
    commit(repo, "2022-03-04T05:06:07", {"c.md": "2"})
    dates = GitDates()
    assert dates.date(repo / "a b.md") == utc("2020-01-01T10:00:00")
    assert dates.date(repo / "docs" / "ü ñ.md") == utc("2021-06-01T12:30:00")
    assert dates.date(repo / "c.md") == utc("2022-03-04T05:06:07")
    assert not dates.untracked and not dates.failures


def test_pure_rename_keeps_the_old_date_an_edited_rename_does_not(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"old.md": "same text\n" * 20, "edit.md": "x\n" * 20})
    commit(repo, "2020-05-01T00:00:00", {"old.md": "changed\n" + "same text\n" * 20})
    move(repo, "old.md", "guide/new.md")
    move(repo, "edit.md", "edited.md")
    (repo / "edited.md").write_text("x\n" * 20 + "one more\n")
    commit(repo, "2023-01-01T00:00:00")
    dates = GitDates()
    assert dates.date(repo / "guide" / "new.md") == utc("2020-05-01T00:00:00")
    assert dates.date(repo / "edited.md") == utc("2023-01-01T00:00:00")


def test_a_chain_of_pure_renames_leads_back_to_the_last_edit(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"a.md": "alpha\n" * 30, "z.md": "zeta\n" * 30})
    commit(repo, "2020-06-01T00:00:00", {"a.md": "alpha\n" * 31})
    move(repo, "a.md", "b.md")
    commit(repo, "2021-01-01T00:00:00")
    move(repo, "b.md", "deep/c.md")
    commit(repo, "2022-01-01T00:00:00", {"z.md": "zeta\n" * 31})
    # a new file takes the freed old name: it must not inherit the renamed file's past
    commit(repo, "2023-01-01T00:00:00", {"a.md": "a new page\n"})
    dates = GitDates()
    assert dates.date(repo / "deep" / "c.md") == utc("2020-06-01T00:00:00")
    assert dates.date(repo / "a.md") == utc("2023-01-01T00:00:00")
    assert dates.date(repo / "z.md") == utc("2022-01-01T00:00:00")


def test_untracked_and_uncommitted_files_get_no_date(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"a.md": "1"})
    (repo / "new.md").write_text("draft")
    (repo / "staged.md").write_text("staged")
    git(repo, "add", "staged.md")
    dates = GitDates()
    assert dates.date(repo / "new.md") is None
    assert dates.date(repo / "staged.md") is None
    assert dates.date(repo / "a.md") == utc("2020-01-01T00:00:00")
    assert sorted(dates.untracked[repo.resolve()]) == ["new.md", "staged.md"]


def test_outside_any_repository_is_quietly_unknown(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.md").write_text("x")
    dates = GitDates()
    assert dates.date(plain / "a.md") is None
    assert not dates.untracked and not dates.failures


def test_each_repository_is_read_once(tmp_path):
    one = init(tmp_path / "one")
    two = init(tmp_path / "two")
    commit(one, "2020-01-01T00:00:00", {"a.md": "1", "b.md": "1"})
    commit(two, "2021-01-01T00:00:00", {"a.md": "1"})
    dates = GitDates()
    assert dates.date(one / "a.md") == utc("2020-01-01T00:00:00")
    assert dates.date(two / "a.md") == utc("2021-01-01T00:00:00")
    first = dates._repos[one.resolve()]
    assert dates.date(one / "b.md") == utc("2020-01-01T00:00:00")
    assert dates._repos[one.resolve()] is first and len(dates._repos) == 2


def test_shallow_clone_dates_only_what_its_history_shows(tmp_path):
    origin = init(tmp_path / "origin")
    commit(origin, "2020-01-01T00:00:00", {"old.md": "1", "recent.md": "1"})
    commit(origin, "2021-01-01T00:00:00", {"recent.md": "2"})
    commit(origin, "2022-01-01T00:00:00", {"newest.md": "1"})
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{origin}", str(clone))
    dates = GitDates()
    assert dates.date(clone / "newest.md") == utc("2022-01-01T00:00:00")
    # recent.md and old.md were last changed at or beyond the cut: unknown, not the cut's date.
    assert dates.date(clone / "recent.md") is None
    assert dates.date(clone / "old.md") is None
    assert sorted(dates.shallow[clone.resolve()]) == ["old.md", "recent.md"]
    assert not dates.untracked

    single = tmp_path / "single"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(single))
    assert GitDates().date(single / "newest.md") is None


def test_git_missing_is_a_failure_note_not_a_crash(tmp_path, monkeypatch):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"a.md": "1"})
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    dates = GitDates()
    assert dates.date(repo / "a.md") is None
    assert "git is not installed" in dates.failures[repo.resolve()]


def test_files_in_a_submodule_are_set_aside(tmp_path):
    lib = init(tmp_path / "lib")
    commit(lib, "2019-01-01T00:00:00", {"page.md": "1"})
    main = init(tmp_path / "main")
    commit(main, "2020-01-01T00:00:00", {"index.md": "1"})
    git(main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", f"file://{lib}", "lib")
    commit(main, "2021-01-01T00:00:00")
    dates = GitDates()
    assert dates.date(main / "index.md") == utc("2020-01-01T00:00:00")
    assert dates.date(main / "lib" / "page.md") is None
    assert dates.submodule[(main / "lib").resolve()] == ["page.md"]


def test_a_surrounding_git_dir_does_not_redirect_the_pass(tmp_path, monkeypatch):
    repo = init(tmp_path / "r")
    other = init(tmp_path / "other")
    commit(repo, "2020-01-01T00:00:00", {"a.md": "1"})
    commit(other, "2024-01-01T00:00:00", {"a.md": "1"})
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert GitDates().date(repo / "a.md") == utc("2020-01-01T00:00:00")


@pytest.mark.parametrize("scope", [(), ("moved",), ("d1", "moved")])
def test_same_dates_as_one_git_log_per_file(tmp_path, scope):
    """The batched pass agrees with ``git log -1 -- FILE`` on a history with edits, adds,
    deletes and edited renames (pure renames are where the two differ, by design), whether
    it reads the whole repository or only the source folders."""
    repo = init(tmp_path / "r")
    rng = random.Random(7)
    names = [f"d{i % 3}/f {i}.md" for i in range(12)]
    alive: dict[str, int] = {}
    for day in range(1, 41):
        files = {}
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(names)
            alive[name] = alive.get(name, 0) + 1
            files[name] = f"{name}\n" * 20 + f"v{alive[name]}\n"
        commit(repo, f"2020-02-{day % 28 + 1:02d}T{day % 24:02d}:00:00", files)
        if day % 9 == 0 and len(alive) > 3:
            victim = sorted(alive)[day % len(alive)]
            git(repo, "rm", "-q", victim)
            alive.pop(victim)
            commit(repo, f"2020-03-{day % 28 + 1:02d}T00:00:00")
        if day % 7 == 0:
            source = sorted(alive)[0]
            target = f"moved/{day}.md"
            move(repo, source, target)
            (repo / target).write_text((repo / target).read_text() + "moved\n")
            alive[target] = alive.pop(source)
            commit(repo, f"2020-04-{day % 28 + 1:02d}T00:00:00")
    batched = Repository(root=repo)
    read_dates(batched, [f"{folder}/" for folder in scope])
    wanted = [name for name in alive if not scope or name.split("/")[0] in scope]
    for name in wanted:
        stamp = git(repo, "log", "-1", "--format=%ct", "--", name).strip()
        assert batched.dates[name] == int(stamp), name
    assert set(batched.dates) == set(wanted) and wanted


def test_inspect_reads_shallowness(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"a.md": "1"})
    assert inspect(repo).shallow is False
    assert subprocess.run(["git", "--version"], capture_output=True).returncode == 0


def test_a_repository_without_commits_has_only_untracked_files(tmp_path):
    repo = init(tmp_path / "r")
    (repo / "a.md").write_text("x")
    dates = GitDates()
    assert dates.date(repo / "a.md") is None
    assert dates.untracked[repo.resolve()] == ["a.md"] and not dates.failures


def test_a_broken_repository_is_a_failure_note(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"a.md": "x"})
    for obj in (repo / ".git" / "objects").rglob("*"):
        if obj.is_file() and obj.parent.name != "info":
            obj.write_bytes(b"garbage")
    dates = GitDates()
    assert dates.date(repo / "a.md") is None
    assert "failed" in dates.failures[repo.resolve()]


def test_only_the_source_folders_history_is_read(tmp_path):
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"docs/a.md": "a", "docs/b.md": "b", "README.md": "r"})
    for day in range(1, 20):
        commit(repo, f"2021-01-{day:02d}T00:00:00", {f"src/m{day}.py": "x", "src/all.py": str(day)})
    commit(repo, "2022-01-01T00:00:00", {"docs/b.md": "b2"})
    dates = GitDates(scope=[repo / "docs"])
    assert dates.date(repo / "docs" / "a.md") == utc("2020-01-01T00:00:00")
    (history,) = dates._repos[repo.resolve()].histories.values()
    assert history.pathspec == ["docs/"]
    # The pass stopped at a.md's last change... and b.md was reached on the way.
    assert set(history.dates) == {"docs/a.md", "docs/b.md"} and history._process is None
    assert dates.date(repo / "docs" / "b.md") == utc("2022-01-01T00:00:00")
    # A file outside the source folders has its own folder read when it is asked for.
    assert dates.date(repo / "README.md") == utc("2020-01-01T00:00:00")
    assert dates.date(repo / "src" / "all.py") == utc("2021-01-19T00:00:00")


def test_renames_into_the_source_folder_are_followed(tmp_path):
    """A pure rename from outside the folder read (``doc/`` renamed ``docs/``, a page moved
    in) keeps the date of the last edit, as a pass over the whole repository would."""
    repo = init(tmp_path / "r")
    commit(repo, "2020-01-01T00:00:00", {"doc/a.md": "alpha\n" * 20, "doc/b.md": "beta\n" * 20,
                                         "notes/c.md": "gamma\n" * 20})
    commit(repo, "2020-06-01T00:00:00", {"doc/b.md": "beta\n" * 21})
    commit(repo, "2020-07-01T00:00:00", {"misc/c.md": "gamma\n" * 20})
    move(repo, "doc/a.md", "docs/a.md")
    move(repo, "doc/b.md", "docs/b.md")
    commit(repo, "2021-01-01T00:00:00")
    move(repo, "notes/c.md", "docs/c.md")  # a pure rename, in a commit of its own
    (repo / "docs" / "new.md").write_text("a new page\n")
    commit(repo, "2022-01-01T00:00:00")
    whole, scoped = GitDates(), GitDates(scope=[repo / "docs"])
    for name, when in (("a.md", "2020-01-01"), ("b.md", "2020-06-01"), ("c.md", "2020-01-01"),
                       ("new.md", "2022-01-01")):
        assert scoped.date(repo / "docs" / name) == utc(f"{when}T00:00:00"), name
        assert whole.date(repo / "docs" / name) == utc(f"{when}T00:00:00"), name
    assert list(scoped._repos[repo.resolve()].histories) == ["docs/"]


def test_the_pass_stops_once_the_files_asked_for_are_dated(tmp_path):
    """An old image beside the pages is never asked for: the log is not read back to it."""
    repo = init(tmp_path / "r")
    commit(repo, "2019-01-01T00:00:00", {"docs/logo.png": "png", "docs/a.md": "a"})
    for day in range(1, 10):
        commit(repo, f"2020-01-{day:02d}T00:00:00", {"docs/a.md": f"a{day}", "docs/b.md": f"b{day}"})
    dates = GitDates(scope=[repo / "docs"])
    assert dates.date(repo / "docs" / "a.md") == utc("2020-01-09T00:00:00")
    assert dates.date(repo / "docs" / "b.md") == utc("2020-01-09T00:00:00")
    (history,) = dates._repos[repo.resolve()].histories.values()
    assert history.waiting == {"docs/logo.png"}  # its last change was never read
    dates.close()
    assert history._process is None
