"""Where ``sitemapkit build`` keeps a site's state (``state_file``'s folder: the manifests, the
kept page facts, the key that signs the record of its own files) when no project says: never
in a folder that is deployed."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sitemapkit.lastmod.manifest import facts_file, site_manifest
from sitemapkit.report import Problem
from sitemapkit.settings import Settings
from sitemapkit.site.owned import record_key, record_signed_again
from sitemapkit.sources.project import CONFIG_FILES

GENERATOR_CONFIGS = (*CONFIG_FILES, "pelicanconf.py", "conf.py", "sitemapkit.toml")
"""Files that mark a project folder: the default manifest lives there."""


def project_folder(site_dir: Path, config: str | None, base_url: str) -> Path:
    """Where a relative ``state_file`` is anchored: the folder of ``--config``, else the
    nearest folder above ``site_dir`` holding a generator's configuration (mkdocs.yml,
    zensical.toml, pelicanconf.py, conf.py, sitemapkit.toml), else the nearest folder above
    it that is not served with it (``unserved_parent``)."""
    if config:
        return Path(config).resolve().parent
    parent = site_dir.resolve().parent
    for folder in (parent, *parent.parents)[:3]:
        if any((folder / name).is_file() for name in GENERATOR_CONFIGS):
            return folder
    return unserved_parent(site_dir.resolve(), base_url)


def unserved_parent(site_dir: Path, base_url: str) -> Path:
    """The nearest folder above ``site_dir`` that its base URL does not say is served too: a
    version's folder ``site/1.0`` served at ``/docs/1.0/`` has its parent ``site`` served at
    ``/docs/``, so its state goes above ``site``, where it is not deployed with the versions.
    Each folder up is served when its child's name is the URL path's last segment."""
    names = [unquote(name) for name in urlsplit(base_url).path.split("/") if name]
    folder = site_dir
    while names and folder.name == names[-1] and folder.parent != folder:
        names.pop()
        folder = folder.parent
    return folder.parent


def state_out_of_site(site_dir: Path, settings: Settings, project_dir: Path, *,
                      dry_run: bool) -> tuple[Problem | None, Path | None]:
    """Earlier builds kept the state of a build of ``site_dir`` in ``site_dir``'s parent even
    where that folder is served with it (a version's folder), and so deployed it. While such
    a folder is there, it is named in a warning, to be deleted (it is not deleted here); and
    the first build of the site in its new place takes the site's part of it
    (``state_taken``), so that no date and no record is lost. Returns the warning (or None)
    and, for a dry run (which moves nothing) whose real build would take the state, the
    folder it is read from (``generate``'s ``state_from``: that parent), so that it reads the
    state the real build would and tells what it would (else None: ``project_dir``)."""
    state = Path(settings.state_file)
    site_dir = site_dir.resolve()
    parent = site_dir.parent
    if state.is_absolute() or unserved_parent(site_dir, settings.base_url) == parent:
        return None, None
    old, new = parent / state, project_dir / state
    if old.parent == new.parent or old.parent.is_symlink() or not old.parent.is_dir():
        return None, None
    read_from = None
    if not dry_run:
        state_taken(site_dir, settings.base_url, old, parent, new, project_dir)
    elif _manifest_to_take(site_dir, settings.base_url, old, parent, new, project_dir) is not None:
        read_from = parent
    return Problem(str(old.parent), "state-in-site",
                   f"an earlier build kept sitemapkit's state here, in {parent}, which is served with the site and "
                   f"deployed with it (its record key published): builds now keep it in {new.parent}, and each "
                   "site's first build there takes its own manifest and record from here; delete this folder once "
                   "each site it served was built again", field="state_file"), read_from


def state_taken(site_dir: Path, base_url: str, old: Path, old_project: Path, new: Path, new_project: Path) -> None:
    """The site built into ``site_dir`` at ``base_url``, whose state was kept at ``old`` (a
    ``state_file`` relative to ``old_project``), has it at ``new`` (relative to
    ``new_project``), when it has no manifest there yet: its manifest and kept facts, under
    the names ``new`` gives them, and the record of ``site_dir``, when the key at ``old``
    signed it, signed with the key at ``new``. Only then: a key left in a served folder
    signs nothing once the site's state has moved."""
    taken = _manifest_to_take(site_dir, base_url, old, old_project, new, new_project)
    if taken is None:
        return
    before, after = taken
    try:
        after.parent.mkdir(parents=True, exist_ok=True)
        facts = facts_file(before)
        if facts.is_file() and not facts.is_symlink() and not facts_file(after).exists():
            shutil.move(facts, facts_file(after))
        shutil.move(before, after)
    except OSError:
        return  # the site starts a manifest of its own, as a first build does
    was = record_key(old, create=False)
    if was.secret is not None:
        record_signed_again(site_dir, was, record_key(new))


def _manifest_to_take(site_dir: Path, base_url: str, old: Path, old_project: Path, new: Path,
                      new_project: Path) -> tuple[Path, Path] | None:
    """The site's manifest at ``old`` and its name at ``new`` (see ``state_taken``), when it
    has one at ``old`` and none yet at ``new``: the state a build takes."""
    before = site_manifest(old, base_url, site_dir, old_project)
    after = site_manifest(new, base_url, site_dir, new_project)
    if not before.is_file() or before.is_symlink() or after.exists() or after.is_symlink():
        return None
    return before, after
