"""A forged ``.sitemapkit-files.json`` never makes a build remove or change a file sitemapkit
did not write: a record this project's key did not sign is ignored (``record-unsigned``), and
even a signed one (a forger holding the key) counts only for names the current settings make
(``build.names``), whatever size and SHA-256 the record gives."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from sitemapkit import Page, Settings, generate
from sitemapkit.site.files import OutputError
from sitemapkit.site.owned import RECORD, record_key

BASE = "https://example.com/"


def identity(path: Path) -> list:
    data = path.read_bytes()
    return [len(data), hashlib.sha256(data).hexdigest()]


def forge(site: Path, entries: object, signed_in: Path | None = None, version: object = 1) -> None:
    """A record naming ``entries``; signed with the key of the project in ``signed_in``, as
    only someone holding that key could."""
    data = {"sitemapkit_files": version, "files": entries}
    if signed_in is not None:
        data["signature"] = record_key(signed_in / Settings().state_file).sign(data)
    (site / RECORD).write_text(json.dumps(data))


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry below ``folder``: a file's bytes, a link's target (never followed)."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(folder))] = os.readlink(path)
        elif path.is_file():
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def site_with_user_files(root: Path) -> Path:
    site = root / "site"
    site.mkdir(parents=True)
    (site / "index.html").write_text("<html><head><title>Home</title></head><body>home</body></html>")
    (site / "style.css").write_text("body { color: black }\n")
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n")
    return site


def test_the_forged_record_of_the_issue_deletes_nothing(tmp_path):
    site = site_with_user_files(tmp_path)
    forge(site, {name: [identity(site / name)] for name in ("index.html", "robots.txt", "style.css")})
    before = {name: (site / name).read_bytes() for name in ("index.html", "robots.txt", "style.css")}
    done = subprocess.run([sys.executable, "-m", "sitemapkit", "build", str(site), "--base-url", BASE,
                           "--no-robots-txt"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert {name: (site / name).read_bytes() for name in before} == before
    assert "[record-unsigned]" in done.stderr
    assert (site / "sitemap.xml").is_file()
    # the record is rewritten, signed, with sitemapkit's own files only: the warning is not repeated
    assert set(json.loads((site / RECORD).read_text())["files"]) == {"sitemap.xml"}
    again = subprocess.run([sys.executable, "-m", "sitemapkit", "build", str(site), "--base-url", BASE,
                            "--no-robots-txt"], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "record-" not in again.stderr


def test_a_record_signed_with_the_key_still_names_only_our_names(tmp_path):
    site = site_with_user_files(tmp_path)
    forge(site, {name: [identity(site / name)] for name in ("index.html", "robots.txt", "style.css")},
          signed_in=tmp_path)
    before = {name: (site / name).read_bytes() for name in ("index.html", "robots.txt", "style.css")}
    report = generate([Page(url="index.html", output=site / "index.html")], site,
                      Settings(base_url=BASE, robots_txt=False), project_dir=tmp_path)
    assert {name: (site / name).read_bytes() for name in before} == before
    assert [problem.rule for problem in report.warnings] == ["record-altered"]


def test_sitemap_like_names_the_settings_do_not_make_are_not_removed(tmp_path):
    # The user's own sitemap.html, sitemap.txt and a .gz file: sitemap names, but with
    # html_sitemap, txt and gzip off no build of these settings writes them.
    site = site_with_user_files(tmp_path)
    (site / "sitemap.html").write_text("<html><body><a href='/'>Home</a> (my own site map)</body></html>")
    (site / "sitemap.txt").write_text(f"{BASE}\n")
    (site / "sitemap.xml.gz").write_bytes(b"\x1f\x8b my own")
    (site / "sitemap-changes.atom").write_text("<feed>mine</feed>")
    names = ("sitemap.html", "sitemap.txt", "sitemap.xml.gz", "sitemap-changes.atom")
    forge(site, {name: [identity(site / name)] for name in names}, signed_in=tmp_path)
    before = snapshot(site)
    report = generate([Page(url="index.html", output=site / "index.html")], site, Settings(base_url=BASE),
                      project_dir=tmp_path)
    after = snapshot(site)
    assert {name: after.get(name) for name in names} == {name: before[name] for name in names}
    assert [note.rule for note in report.notes] == ["record-option-off"]  # not an attack: an option off
    assert all(name in report.notes[0].message for name in names)


# ------------------------------------------------------------------------------ property

OUTSIDE = "outside-secret.txt"
USER_FILES = {
    "index.html": b"<html><head><title>Home</title></head><body>home</body></html>",
    "style.css": b"body { color: black }\n",
    "robots.txt": b"User-agent: *\nDisallow:\n",
    "sitemap.html": b"<html>the user's own site map</html>",
    "sitemap.txt": BASE.encode() + b"\n",
    "sitemap-notes.xml": b"<notes/>",
    "sitemap-1.xml": b"<urlset/>",
    "sitemap-2-0123456789ab.xml.gz": b"not gzip",
    "sitemap-news.xml.gz": b"not gzip either",
    "0123456789abcdef.txt": b"0123456789abcdef",
    "sub/page.html": b"<html>sub</html>",
}
LINKS = {
    "link.xml": f"../{OUTSIDE}",
    "sitemap-9-0123456789ab.xml": f"../{OUTSIDE}",  # a name a build makes, as a link: not ours
}
NAME_POOL = [*USER_FILES, *LINKS, RECORD, f"../{OUTSIDE}", f"/{OUTSIDE}", "sub", "sub/page.html", ".", "..",
             "sitemap.xml", "sitemap-1-0123456789ab.xml", "sitemap-news.xml", "sitemap-changes.atom",
             "sitemap.xml.gz", "sitemap-2.txt", "", "a\x00b", "sitemap.xml/..", "\\index.html"]
OPTIONS = st.fixed_dictionaries({
    "gzip": st.booleans(), "txt": st.booleans(), "html_sitemap": st.booleans(),
    "changes_feed": st.sampled_from([None, 5]), "filename": st.sampled_from(["sitemap.xml", "map.xml"]),
    "robots_txt": st.just(False),  # robots.txt gets sitemapkit's Sitemap: line, on no record's word
})


def made_by(options: dict, name: str) -> bool:
    """The test's own account of the names a build with ``options`` writes (the docs'
    table in docs/output.md), independent of ``build.names``."""
    stem = re.escape(options["filename"][:-4])
    kinds = [rf"{stem}\.xml", rf"{stem}-[1-9][0-9]*-[0-9a-f]{{12}}\.xml", rf"{stem}-news(-[1-9][0-9]*)?\.xml"]
    if options["txt"]:
        kinds.append(rf"{stem}(-[1-9][0-9]*)?\.txt")
    if options["gzip"]:
        kinds += [kind + r"\.gz" for kind in kinds]
    if options["changes_feed"]:
        kinds.append(rf"{stem}-changes\.atom")
    if options["html_sitemap"]:
        kinds.append(r"sitemap\.html")
    return any(re.fullmatch(kind, name) for kind in kinds)


def build_tree(root: Path) -> tuple[Path, dict[str, list]]:
    """A site holding the user's files (and links out of it), beside a file outside it; the
    true identity of each, as a forger who has copies would write it."""
    if root.exists():
        shutil.rmtree(root)
    site = root / "site"
    (site / "sub").mkdir(parents=True)
    (root / OUTSIDE).write_bytes(b"SECRET outside the site")
    true = {f"../{OUTSIDE}": identity(root / OUTSIDE), f"/{OUTSIDE}": identity(root / OUTSIDE)}
    for name, data in USER_FILES.items():
        (site / name).write_bytes(data)
        true[name] = identity(site / name)
    for name, target in LINKS.items():
        (site / name).symlink_to(target)
        true[name] = identity(root / OUTSIDE)
    return site, true


identities = st.one_of(
    st.just("true"),
    st.lists(st.tuples(st.integers(-1, 1 << 20), st.text("0123456789abcdef", max_size=64)).map(list),
             max_size=3),
    st.sampled_from([None, 7, "x", [[1]], [["1", "00"]], {}]),
)
records = st.one_of(
    st.dictionaries(st.one_of(st.sampled_from(NAME_POOL), st.text(max_size=20)), identities, max_size=12),
    st.sampled_from([None, [], "files", 1]),
)


@hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=records, options=OPTIONS, version=st.sampled_from([1, 1, 1, 2, None]))
def test_no_record_removes_or_changes_a_file_outside_sitemapkits_own_names(tmp_path, record, options, version):
    root = tmp_path / "tree"
    site, true = build_tree(root)
    settings = Settings(base_url=BASE, **options)
    if isinstance(record, dict):
        record = {name: ([true[name]] if name in true else [[1, "00"]]) if ids == "true" else ids
                  for name, ids in record.items()}
    forge(site, record, signed_in=tmp_path, version=version)  # by a forger holding the key, even
    before = snapshot(root)

    with contextlib.suppress(OutputError):  # a user's file under an output name stops the build
        generate([Page(url="index.html", output=site / "index.html"),
                  Page(url="sub/page.html", output=site / "sub" / "page.html")],
                 site, settings, project_dir=tmp_path)

    after = snapshot(root)
    for name, content in before.items():
        inside = name.startswith("site/")
        own = inside and "/" not in name[5:] and made_by(options, name[5:]) and name[5:] not in LINKS
        if not own and name != f"site/{RECORD}":
            assert after.get(name) == content, (name, record)
    assert (root / OUTSIDE).read_bytes() == b"SECRET outside the site"
