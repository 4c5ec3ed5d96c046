"""Hostile input and faults, run as users run sitemapkit: the ``sitemapkit build`` command in a
child process. Each build writes and removes only sitemapkit's own files, reads only regular
files with bounded memory, and ends a fault in one line naming the file and the cause (exit
2, no traceback, no temporary file, the earlier output whole)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_checks import SITEMAP_NS, assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit import Page, Settings, SettingsError, generate
from sitemapkit.output.robots import sync_robots_txt
from sitemapkit.site.owned import RECORD

pytestmark = pytest.mark.slow  # builds in child processes, killed and fuzzed (make test-fast leaves them out)

BASE = "https://example.com/"
SITEMAPKIT = str(Path(sys.executable).parent / "sitemapkit")


def run(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SITEMAPKIT, "build", *args], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def page(site: Path, name: str, body: str = "<p>text</p>", head: str = "") -> Path:
    path = site / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<html><head><title>{name}</title>{head}</head><body><main>{body}</main></body></html>")
    return path


def doc(text: str) -> str:
    """A page's HTML: a whole document (a fragment is left out as no page)."""
    return f"<html><body><p>{text}</p></body></html>"


def site_of(folder: Path, count: int, prefix: str = "p") -> Path:
    for i in range(count):
        page(folder, f"{prefix}{i}.html")
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith("sitemapkit: "), line
    for word in words:
        assert word in line, line


def no_temporaries(folder: Path) -> None:
    assert not [p.name for p in folder.rglob(".*.tmp")]


# ------------------------------------------------------------- only our own files


@pytest.mark.parametrize("name", ["robots.txt", "index.html"])
def test_a_filename_that_would_replace_a_site_file_is_an_error_before_anything_is_written(tmp_path, name):
    site = site_of(tmp_path / "site", 2)
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n")
    page(site, "index.html")
    before = snapshot(site)
    result = run(str(site), "--base-url", BASE, "--filename", name)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert name in result.stderr
    assert snapshot(site) == before  # robots.txt keeps its Disallow rules, the home page stays


def test_filename_feed_xml_keeps_the_users_feed_files(tmp_path):
    site = site_of(tmp_path / "site", 12)
    users = {"feed.txt": b"my notes", "feed-2.xml": b"<rss>two</rss>", "feed.xml.gz": b"not ours"}
    for name, data in users.items():
        (site / name).write_bytes(data)
    assert run(str(site), "--base-url", BASE, "--filename", "feed.xml").returncode == 0
    assert run(str(site), "--base-url", BASE, "--filename", "feed.xml", "--max-urls", "5").returncode == 0
    assert assert_valid(site / "feed.xml").tag == f"{{{SITEMAP_NS}}}sitemapindex"
    assert run(str(site), "--base-url", BASE, "--filename", "feed.xml").returncode == 0
    for name, data in users.items():
        assert (site / name).read_bytes() == data
    # --gzip would replace the user's feed.xml.gz: refused, nothing written.
    before = snapshot(site)
    one_clear_line(run(str(site), "--base-url", BASE, "--filename", "feed.xml", "--gzip"), "feed.xml.gz")
    assert snapshot(site) == before


def test_cleanup_removes_only_what_the_record_lists_unchanged(tmp_path):
    site = site_of(tmp_path / "site", 12)
    assert run(str(site), "--base-url", BASE, "--max-urls", "5").returncode == 0
    children = sorted(p.name for p in site.glob("sitemap-*.xml"))
    assert len(children) == 3
    edited = site / children[0]
    edited.write_bytes(edited.read_bytes() + b"<!-- the user's -->")  # no longer as we left it
    assert run(str(site), "--base-url", BASE).returncode == 0
    assert sorted(p.name for p in site.glob("sitemap-*.xml")) == [children[0]]
    assert RECORD in os.listdir(site)


def test_a_hostile_record_deletes_nothing(tmp_path):
    site = site_of(tmp_path / "site", 2)
    (site / RECORD).write_text('{"sitemapkit_files": 1, "files": {"p0.html": [[1, "00"]], '
                               '"../outside": [[1, "00"]]}, "writing": ["p1.html", "/etc/passwd"]}')
    outside = tmp_path / "outside"
    outside.write_text("keep")
    assert run(str(site), "--base-url", BASE).returncode == 0
    assert (site / "p0.html").exists() and outside.read_text() == "keep"
    assert (site / "p1.html").exists()
    (site / RECORD).write_text("{" * 100_000)
    result = run(str(site), "--base-url", BASE)
    assert result.returncode == 0 and "record-unreadable" in result.stderr


# ------------------------------------------------------------- bounded work


def peak_rss_build(site: Path, *args: str) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Run the build in a child process; its peak RSS (VmHWM) in bytes."""
    script = (
        "import sys\nfrom sitemapkit.cli import main\ncode = main(sys.argv[1:])\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print('VmHWM', hwm, file=sys.stderr)\nsys.exit(code)\n"
    )
    result = subprocess.run([sys.executable, "-c", script, "build", str(site), *args],
                            capture_output=True, text=True, timeout=120)
    hwm = next(line for line in result.stderr.splitlines() if line.startswith("VmHWM"))
    return int(hwm.split()[1]) * 1024, result


def test_a_20_mb_attribute_costs_little_memory_and_is_named(tmp_path):
    site = tmp_path / "site"
    page(site, "huge.html", body=f'<img src="/{"a" * 20_000_000}.png"><img src="/ok.png">'
                                 f'<div style="{"x" * 5_000_000}">text</div>')
    page(site, "plain.html")
    (site / "ok.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # a listed same-site image is a built file
    peak, result = peak_rss_build(site, "--base-url", BASE)
    assert result.returncode == 0, result.stderr
    assert peak < 100 * 2**20, f"peak RSS {peak / 2**20:.0f} MiB"
    assert "huge.html: img src:" in result.stderr and "[url-too-long]" in result.stderr
    assert "style" not in result.stderr  # not a URL attribute: cut without a word
    files = assert_valid_tree(site, BASE)
    images = etree.parse(str(files[0])).getroot().iter("{http://www.google.com/schemas/sitemap-image/1.1}loc")
    assert [i.text for i in images] == [BASE + "ok.png"]


@pytest.mark.parametrize("field", ["image", "video", "alternate"])
def test_urls_of_2048_characters_or_more_are_dropped_with_a_warning(tmp_path, field):
    long = BASE + "x" * 2100
    video = {"thumbnail_loc": long + ".jpg", "title": "T", "description": "D", "content_loc": "/v.mp4"}
    html = f'<html lang="en"><head></head><body><main><img src="{long}.png"></main></body></html>'
    given = {
        "image": Page(url="a.html", html=html),
        "video": Page(url="a.html", html=doc("a"), meta={"sitemap_video": video}),
        "alternate": Page(url="a.html", html=doc("a"), lang="en", translations={"fr": long}),
    }[field]
    report = generate([given], tmp_path, Settings(base_url=BASE), project_dir=tmp_path)
    (problem,) = report.warnings
    assert problem.where == "a.html" and "must be under 2048" in problem.message
    assert (problem.field, problem.rule) == {
        "image": ("image", "image-loc"), "video": ("sitemap_video.thumbnail_loc", "video-url"),
        "alternate": ("hreflang", "hreflang-href")}[field]
    assert_valid_tree(tmp_path, BASE)
    assert long not in (tmp_path / "sitemap.xml").read_text()


def test_pipes_sockets_and_devices_are_skipped_never_a_hang(tmp_path):
    site = site_of(tmp_path / "site", 1)
    os.mkfifo(site / "pipe.html")
    os.symlink("/dev/zero", site / "zero.html")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(site / "sock.html"))
        os.mkfifo(site / "robots.txt")
        result = run(str(site), "--base-url", BASE, "--no-robots-txt", timeout=30)
    assert result.returncode == 0, result.stderr
    for name, kind in (("pipe.html", "named pipe"), ("zero.html", "device"), ("sock.html", "socket")):
        assert f"{name}: output: page left out:" in result.stderr and kind in result.stderr
    assert locs(site / "sitemap.xml") == [BASE + "p0.html"]
    result = run(str(site), "--base-url", BASE, "-q", timeout=30)  # robots.txt a pipe: refused, no hang
    one_clear_line(result, "robots.txt", "named pipe")


# ------------------------------------------------------------- base_url and scope


@pytest.mark.parametrize(("url", "problem"), [
    ("https://user:pass@example.com/", "credentials"),
    ("https://example.com/?q=1", "query"),
    ("https://example.com/#top", "fragment"),
    ("https://example.com:99999/", "port"),
    ("https://exa mple.com/", "space"),
    ("ftp://example.com/", "http(s)"),
])
def test_base_url_problems_are_named(tmp_path, url, problem):
    result = run(str(site_of(tmp_path / "site", 1)), "--base-url", url)
    one_clear_line(result, "base_url", problem)
    assert "pass@" not in result.stderr
    assert not (tmp_path / "site" / "sitemap.xml").exists()


def test_upper_case_base_url_is_normalised(tmp_path):
    site = site_of(tmp_path / "site", 1)
    assert run(str(site), "--base-url", "HTTPS://EXAMPLE.COM:443/Docs").returncode == 0
    assert locs(site / "sitemap.xml") == ["https://example.com/Docs/p0.html"]
    assert robots_sitemaps(site / "robots.txt") == ["https://example.com/Docs/sitemap.xml"]


@pytest.mark.parametrize("url", ["../secret.html", "%2e%2e/secret.html", "a/%2E%2E/%2e%2e/secret.html"])
def test_dot_segments_are_resolved_before_the_scope_check(tmp_path, url):
    report = generate([Page(url=url, html=doc("x")), Page(url="a/./b/../c.html", html=doc("y"))],
                      tmp_path, Settings(base_url=BASE + "docs/"), project_dir=tmp_path)
    assert [(p.where, p.rule) for p in report.warnings] == [(url, "loc-scope")]
    assert locs(tmp_path / "sitemap.xml") == [BASE + "docs/a/c.html"]


# ------------------------------------------------------------- faults


def in_mount_namespace(script: str) -> subprocess.CompletedProcess[str]:
    """Run a shell script in a private mount namespace (its mounts vanish with it)."""
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-ec", script],
                          capture_output=True, text=True, timeout=120)


def test_disk_full_is_one_line_and_leaves_the_earlier_output_whole(tmp_path):
    """A real full disk: a 256 KiB tmpfs as the output folder."""
    site = site_of(tmp_path / "site", 3)
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "more").mkdir()
    for i in range(3000):
        page(tmp_path / "more", f"page-with-a-long-name-{i:05}.html")
    result = in_mount_namespace(
        f"mount -t tmpfs -o size=256k tmpfs {out}\n"
        f"{SITEMAPKIT} build {site} --base-url {BASE} --out {out} --gzip -q\n"
        f"cp {out}/sitemap.xml {tmp_path}/before.xml\n"
        f"cp -r {tmp_path}/more/. {site}/\n"
        f"{SITEMAPKIT} build {site} --base-url {BASE} --out {out} --gzip --txt && exit 9 || echo exit=$?\n"
        f"cmp {out}/sitemap.xml {tmp_path}/before.xml && echo intact\n"
        f"ls -A {out}\n"
    )
    assert "exit=2" in result.stdout and "intact" in result.stdout, result
    assert "No space left on device" in result.stderr and "Traceback" not in result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("sitemapkit:")] == [
        result.stderr.strip()
    ]
    assert ".tmp" not in result.stdout


def test_read_only_output_folder_is_one_line(tmp_path):
    """Root ignores chmod: the folder is a tmpfs remounted read-only."""
    site = site_of(tmp_path / "site", 2)
    out = tmp_path / "out"
    out.mkdir()
    result = in_mount_namespace(
        f"mount -t tmpfs tmpfs {out}\n"
        f"{SITEMAPKIT} build {site} --base-url {BASE} --out {out} -q\n"
        f"mount -o remount,ro {out}\n"
        f"{SITEMAPKIT} build {site} --base-url {BASE} --out {out} --max-urls 1 && exit 9 || echo exit=$?\n"
        f"cat {out}/sitemap.xml\n"
    )
    assert "exit=2" in result.stdout, result
    assert "Read-only file system" in result.stderr and str(out) in result.stderr
    assert "Traceback" not in result.stderr and "<urlset" in result.stdout


def test_out_naming_a_file_is_one_line(tmp_path):
    site = site_of(tmp_path / "site", 1)
    (tmp_path / "file").write_text("mine")
    one_clear_line(run(str(site), "--base-url", BASE, "--out", str(tmp_path / "file")), "is a file")
    assert (tmp_path / "file").read_text() == "mine"


def test_adapters_get_a_sitemap_error_that_is_also_an_os_error(tmp_path):
    from sitemapkit import SitemapError

    (tmp_path / "sitemap.xml").mkdir()
    with pytest.raises(SitemapError) as raised:
        generate([Page(url="a.html", html=doc("a"))], tmp_path, Settings(base_url=BASE), project_dir=tmp_path)
    assert isinstance(raised.value, OSError) and "sitemap.xml is a folder" in str(raised.value)


# ------------------------------------------------------------- killed mid-rename


def index_consistent(out: Path, builds: list[set[str]]) -> None:
    root = etree.parse(str(out / "sitemap.xml")).getroot()
    if root.tag == f"{{{SITEMAP_NS}}}urlset":
        return
    listed = set()
    for loc in root.iter(f"{{{SITEMAP_NS}}}loc"):
        child = out / loc.text.rsplit("/", 1)[1]
        assert child.is_file(), f"the index lists {child.name}, which is not there"
        listed.update(locs(child))
    assert listed in builds, "the index lists children of two builds"


def test_a_build_killed_at_each_rename_never_mixes_two_builds(tmp_path):
    """strace delivers a real SIGKILL at the Nth rename(2) of the second build."""
    if shutil.which("strace") is None:
        pytest.fail("strace is needed to kill the build at a rename")
    first, second = site_of(tmp_path / "a", 12, "a"), site_of(tmp_path / "b", 12, "b")
    builds = [{BASE + f"{prefix}{i}.html" for i in range(12)} for prefix in "ab"]
    step = 0
    while True:
        step += 1
        out = tmp_path / f"out{step}"
        assert run(str(first), "--base-url", BASE, "--out", str(out), "--max-urls", "5", "--gzip").returncode == 0
        killed = subprocess.run(
            ["strace", "-f", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
             "-e", f"inject=rename,renameat,renameat2:signal=KILL:when={step}",
             SITEMAPKIT, "build", str(second), "--base-url", BASE, "--out", str(out),
             "--max-urls", "5", "--gzip"], capture_output=True, text=True, timeout=60)
        index_consistent(out, builds)
        if killed.returncode == 0 or step > 40:
            break
    assert killed.returncode == 0 and step > 5  # every rename of a whole build was tried
    assert {loc for p in assert_valid_tree(out, BASE)[1:] for loc in locs(p)} == builds[1]


# ------------------------------------------------------------- robots.txt


@pytest.mark.parametrize("newline", [b"\r", b"\r\n", b"\n"])
def test_robots_txt_keeps_its_line_endings_and_knows_our_line_in_any_case(tmp_path, newline):
    original = newline.join([b"User-agent: *", b"Disallow: /x/", b"sitemap:  " + BASE.encode() + b"sitemap.xml", b""])
    (tmp_path / "robots.txt").write_bytes(original)
    sync_robots_txt(tmp_path, [BASE + "sitemap.xml"], ())
    assert (tmp_path / "robots.txt").read_bytes() == original  # recognised: not added twice
    sync_robots_txt(tmp_path, [BASE + "sitemap.xml", BASE + "sitemap-news.xml"], ())
    data = (tmp_path / "robots.txt").read_bytes()
    assert data == original + b"Sitemap: " + BASE.encode() + b"sitemap-news.xml" + newline
    assert robots_sitemaps(tmp_path / "robots.txt") == [BASE + "sitemap.xml", BASE + "sitemap-news.xml"]


# ------------------------------------------------------------- what validate flags, caught first


def test_future_lastmods_are_dropped_with_a_warning(tmp_path):
    report = generate([Page(url="a.html", html=doc("a"), meta={"sitemap_lastmod": "2999-01-01"}),
                       Page(url="b.html", html=doc("b"), modified=datetime(2999, 1, 1, tzinfo=timezone.utc))],
                      tmp_path, Settings(base_url=BASE, lastmod=("meta",)), project_dir=tmp_path)
    assert [(p.where, p.field, p.rule) for p in report.warnings] == [
        ("a.html", "sitemap_lastmod", "lastmod-future"), ("b.html", "modified", "lastmod-future")]
    assert "2999" not in (tmp_path / "sitemap.xml").read_text()


def test_a_lastmod_in_a_named_zone_is_dropped_only_past_the_build_time_and_a_days_slack(tmp_path, monkeypatch):
    """Dates in a zone of their own (Pelican's ``TIMEZONE``) are told from future ones by the
    instant, not by the wall clock: in a zone 14 hours ahead of UTC, and across the hour
    Paris repeats when it leaves summer time (02:10 CET is after 02:30 CEST)."""
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    now = datetime(2026, 10, 24, 0, 30, tzinfo=timezone.utc)  # now + the day's slack: 02:30 CEST
    latest = now + timedelta(days=1)
    paris, kiritimati = ZoneInfo("Europe/Paris"), ZoneInfo("Pacific/Kiritimati")
    moments = {
        "late-paris.html": datetime(2026, 10, 25, 1, 10, tzinfo=timezone.utc).astimezone(paris),  # 02:10 CET
        "kept-paris.html": datetime(2026, 10, 25, 0, 10, tzinfo=timezone.utc).astimezone(paris),  # 02:10 CEST
        "late-kiritimati.html": (latest + timedelta(seconds=1)).astimezone(kiritimati),
        "kept-kiritimati.html": (latest - timedelta(minutes=1)).astimezone(kiritimati),
    }
    wall = latest.astimezone(paris).replace(tzinfo=None)
    assert moments["late-paris.html"].replace(tzinfo=None) < wall  # earlier on the wall clock, later in time
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(now.timestamp())))
    report = generate([Page(url=url, html=doc(url), modified=moment) for url, moment in moments.items()],
                      tmp_path, Settings(base_url=BASE, lastmod=("meta",)), project_dir=tmp_path)
    assert sorted(p.where for p in report.warnings if p.rule == "lastmod-future") == [
        "late-kiritimati.html", "late-paris.html"]
    assert (tmp_path / "sitemap.xml").read_text().count("<lastmod>") == 2


@pytest.mark.parametrize(("key", "value", "words"), [
    ("x_default", "not a lang", "language code"),
    ("stylesheet", "javascript:alert(1)", "http(s) URL or a path"),
    ("stylesheet", "data:text/xsl,x", "http(s) URL or a path"),
    ("filename", ".hidden.xml", "plain file name"),
    ("filename", "ROBOTS.TXT", "plain file name"),
    ("gzip", "yes", "true or false"),
    ("max_urls", "10", "whole number"),
    ("exclude", [1, 2], "glob patterns"),
])
def test_wrong_option_values_are_clear_errors(key, value, words):
    with pytest.raises(SettingsError, match=rf"option '{key}' .*{words}".replace("(", r"\(").replace(")", r"\)")):
        Settings.from_mapping({"base_url": BASE, key: value})


def test_site_relative_stylesheet_and_language_codes_pass():
    chosen = Settings(base_url=BASE, stylesheet="/sitemap.xsl", x_default="pt_BR")
    assert (chosen.stylesheet, chosen.x_default) == ("/sitemap.xsl", "pt-BR")


# ------------------------------------------------------------- sitemap.xml stays the pages' urlset


@pytest.mark.parametrize("extra", [["--news", "publication=P,language=en"], ["--changes-feed", "5"],
                                   ["--filename", "map.xml"]])
def test_news_and_the_change_feed_never_turn_the_sitemap_into_an_index(tmp_path, extra):
    site = site_of(tmp_path / "site", 3)
    assert run(str(site), "--base-url", BASE, *extra, cwd=tmp_path).returncode == 0
    name = "map.xml" if "--filename" in extra else "sitemap.xml"
    assert assert_valid(site / name).tag == f"{{{SITEMAP_NS}}}urlset"
    assert len(locs(site / name)) == 3
    assert robots_sitemaps(site / "robots.txt")[0] == BASE + name


# ------------------------------------------------------------- fuzzing


_text = st.text(st.characters(codec="utf-8"), max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(urls=st.lists(_text, min_size=1, max_size=5), values=st.lists(_text, min_size=4, max_size=4))
def test_fuzzed_page_values_give_valid_xml_and_touch_nothing_outside(tmp_path_factory, urls, values):
    root = tmp_path_factory.mktemp("fuzz")
    site, sibling = root / "site", root / "sibling"
    page(sibling, "keep.html")
    before = snapshot(sibling)
    image, alternate, lastmod, title = values
    pages = [Page(url=url, html=f'<html><head><title>{title}</title></head><body><main>'
                                f'<img src="{image}"></main></body></html>',
                  meta={"sitemap_lastmod": lastmod, "sitemap_images": [image]},
                  translations={"fr": alternate}, lang="en")
             for url in urls]
    report = generate(pages, site, Settings(base_url=BASE + "docs/", gzip=True, txt=True), project_dir=root)
    if (site / "sitemap.xml").exists():
        assert_valid_tree(site, BASE + "docs/")
        assert all(loc.startswith(BASE + "docs/") for loc in locs(site / "sitemap.xml"))
    else:
        assert [p.rule for p in report.warnings][-1] == "no-pages"
    assert snapshot(sibling) == before
    no_temporaries(root)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.one_of(_text, st.builds(lambda a, b: f"{a}://{b}", st.sampled_from(["http", "HTTPS", "ftp"]), _text)))
def test_fuzzed_base_urls_build_or_exit_2_in_one_line(tmp_path_factory, url):
    root = tmp_path_factory.mktemp("base")
    site = site_of(root / "site", 1)
    page(root / "sibling", "keep.html")
    before = snapshot(root / "sibling")
    typeable = not url.startswith("-") and "\x00" not in url  # no command line holds a NUL
    result = run(str(site), "--base-url", url) if typeable else None
    if result is not None:
        assert "Traceback" not in result.stderr
        if result.returncode == 0:
            assert_valid(site / "sitemap.xml")
        else:
            one_clear_line(result)
    assert snapshot(root / "sibling") == before
    no_temporaries(root)
