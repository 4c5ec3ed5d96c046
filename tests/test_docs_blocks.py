"""Every block of docs/ a user would copy runs here as written, read from the page itself
(tests/docs_blocks.py): shell lines in a project made as the generator's quickstart makes it,
config snippets dropped into such a project and built by the real generator, Python run, the
CI workflows' ``run:`` lines run twice with the cache kept. Each page's snippets for one
generator go into one project, built once. What comes out is checked with the official XSDs
(lxml) and ``sitemapkit validate --strict``."""

from __future__ import annotations

import os
import re
import runpy
import shlex
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml
from docs_blocks import COPYABLE, Block, block, blocks, run_lines, shell_lines
from git_helpers import commit, init
from quickstarts import mkdocs_new, pelican_quickstart, sphinx_quickstart
from tool_venvs import packages, tool_venv

from sitemap_checks import REPO, assert_valid, assert_valid_tree, locs

BIN = Path(sys.executable).parent
BASE = "https://example.com/"
EPOCH = "1800000000"  # 2027-01-15: the builds' "now", pinned
TESTS = Path(__file__).resolve().parent
POSTS = {"hello.md": "Title: Hello\nDate: 2025-03-01 10:00\nCategory: News\n\nHi.\n",
         "pages/about.md": "Title: About\n\nAbout us.\n"}
HTML = "<!doctype html><html><head><title>{0}</title></head><body><main><h1>{0}</h1></main></body></html>"


# ------------------------------------------------------------------------- the marks


def test_every_copyable_block_is_named_or_says_why_it_is_not_run():
    unmarked = [f"{b.page}:{b.line}" for b in blocks()
                if b.lang in COPYABLE and not (b.name or b.not_run)]
    assert not unmarked, f"mark these with <!-- block: NAME --> or <!-- not run: REASON -->: {unmarked}"
    assert all(b.not_run.strip() for b in blocks() if b.not_run is not None)


def test_every_name_is_unique_and_asked_for_by_a_test():
    names = [b.name for b in blocks() if b.name]
    assert len(names) == len(set(names)), "a name given twice"
    asked = {name for path in TESTS.glob("test_*.py")
             for name in re.findall(r"""\bblock\(["']([^"']+)["']\)""", path.read_text(encoding="utf-8"))}
    assert not set(names) - asked, f"named blocks no test runs: {sorted(set(names) - asked)}"
    assert not asked - set(names), f"tests ask for blocks docs/ does not name: {sorted(asked - set(names))}"


# ------------------------------------------------------------------------- helpers


def sh(folder: Path, text: str, bin_dir: Path = BIN) -> list[subprocess.CompletedProcess]:
    """Each command line of a shell block, as a user types it in ``folder`` (``bin_dir`` on PATH);
    each must succeed."""
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "SOURCE_DATE_EPOCH": EPOCH}
    done = []
    for line in shell_lines(text):
        ran = subprocess.run(["bash", "-e", "-c", line], cwd=folder, env=env, capture_output=True, text=True,
                             timeout=300)
        assert ran.returncode == 0, f"{line}:\n{ran.stdout}{ran.stderr}"
        done.append(ran)
    return done


def installed_by(install: Block, request) -> Path:
    """The venv an install block makes (sitemapkit from this tree, editable, not from PyPI)."""
    (line,) = [line for line in shell_lines(install.text) if line.startswith("pip install")]
    return tool_venv(request.config, packages(line.split("#")[0].strip()), sitemapkit=True)


def checked(site: Path, base: str = BASE, filename: str = "sitemap.xml", target: str | None = None) -> list[str]:
    """The sitemap valid against the XSDs, sitemapkit's own validator clean with the site; its URLs."""
    assert_valid_tree(site, base, filename)
    sh(site, f"sitemapkit validate {target or filename} --site-dir . --strict")
    return locs(site / filename) if (site / filename).is_file() else []


def write_files(root: Path, files: dict[str, str] | None) -> None:
    """``files`` (path below ``root`` -> text) written."""
    for name, text in (files or {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def merge(config: dict, snippet: dict) -> dict:
    """A ``mkdocs.yml`` snippet dropped into ``config``: ``plugins`` merged by plugin name."""
    for key, value in snippet.items():
        if key != "plugins":
            config[key] = value
            continue
        plugins: dict[str, dict] = {}
        for item in [*config.get("plugins", []), *value]:
            name, options = next(iter(item.items())) if isinstance(item, dict) else (item, None)
            plugins[name] = {**(plugins.get(name) or {}), **(options or {})}
        config["plugins"] = [{name: options} if options else name for name, options in plugins.items()]
    return config


def mkdocs_site(root: Path, *snippets: str, pages: dict[str, str] | None = None, bin_dir: Path = BIN,
                site_url: str = BASE, files: dict[str, str] | None = None) -> Path:
    """``mkdocs new`` with each YAML snippet dropped into its mkdocs.yml, ``pages`` in docs/ and
    ``files`` beside mkdocs.yml, committed, built."""
    mkdocs_new(root, bin_dir, site_url)
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    merge(config, {"plugins": ["search", "sitemapkit"]})
    for snippet in snippets:
        merge(config, yaml.safe_load(snippet))
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    write_files(root / "docs", pages)
    write_files(root, files)
    commit(init(root), "2024-03-05T10:00:00")
    sh(root, "mkdocs build", bin_dir)
    return root / "site"


def pelican_site(root: Path, *snippets: str, bin_dir: Path = BIN, files: dict[str, str] | None = None) -> Path:
    """pelican-quickstart's blog with each snippet added to pelicanconf.py (the SITEMAPKIT
    dicts of several merged) and ``files`` in the project, committed, built with publishconf.py."""
    pelican_quickstart(root, bin_dir, BASE, POSTS)
    write_files(root, files)
    lines = ['PLUGINS = ["sitemapkit_pelican"]', "_options = {}"]
    for snippet in snippets:
        lines += [snippet, "_options.update(globals().get('SITEMAPKIT', {}))"]
    with open(root / "pelicanconf.py", "a", encoding="utf-8") as conf:
        conf.write("\n".join([*lines, "SITEMAPKIT = _options", ""]))
    commit(init(root), "2024-03-05T10:00:00")
    sh(root, "pelican content -s publishconf.py", bin_dir)
    return root / "output"


def sphinx_site(root: Path, *snippets: str, bin_dir: Path = BIN, build: str | None = None,
                documents: dict[str, str] | None = None) -> Path:
    """sphinx-quickstart's project (``--sep``) with each snippet added to conf.py and
    ``documents`` (name -> reStructuredText) in its toctree, committed, built."""
    source = sphinx_quickstart(root, bin_dir, "--sep")
    index = source / "index.rst"
    toctree = ":caption: Contents:\n" + "".join(f"\n   {name}" for name in documents or {}) + "\n"
    index.write_text(index.read_text(encoding="utf-8").replace(":caption: Contents:\n", toctree), encoding="utf-8")
    write_files(source, {f"{name}.rst": text for name, text in (documents or {}).items()})
    with open(source / "conf.py", "a", encoding="utf-8") as conf:
        conf.write("\n".join(['extensions = ["sitemapkit_sphinx"]', f'html_baseurl = "{BASE}"', *snippets, ""]))
    (source / "_static" / ".gitkeep").touch()
    commit(init(root), "2024-03-05T10:00:00")
    sh(root, build or "sphinx-build -b html source build/html", bin_dir)
    return root / "build/html"


def script(folder: Path, python: Block) -> Path:
    """A Python block saved as a script, for runpy (tracebacks then name its lines)."""
    path = folder / f"{python.name}.py"
    path.write_text(python.text, encoding="utf-8")
    return path


def made_by(quickstart: str, root: Path, bin_dir: Path) -> Path:
    """The project a tool's quickstart makes in ``root`` (ProperDocs', Zensical's)."""
    root.mkdir(parents=True)
    sh(root, quickstart, bin_dir)
    return root


def html_site(folder: Path, *names: str) -> Path:
    """A folder of hand-written HTML pages, as `sitemapkit build` takes any generator's."""
    for name in names or ("index.html", "guide/index.html", "blog/post.html"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(HTML.format(name), encoding="utf-8")
    return folder


# ------------------------------------------------------------------------- the pages


@pytest.mark.slow
def test_api(tmp_path, monkeypatch, pin_now):
    pin_now(int(EPOCH))
    monkeypatch.chdir(tmp_path)
    site = html_site(tmp_path / "public", "index.html", "guide/index.html")
    given = {"site": site, "out_dir": tmp_path / "out"}  # the names the block leaves to its reader
    namespace = runpy.run_path(str(script(tmp_path, block("api-overview"))), init_globals=given)
    assert locs(tmp_path / "out/sitemap.xml") == [BASE, BASE + "guide/"]  # the same pages, listed again
    assert (site / "sitemap.xml.gz").is_file() and checked(site) == [BASE, BASE + "guide/"]
    assert namespace["problems"] == []
    given = {**namespace, "rows": [(BASE + "a", date(2025, 1, 2)), (BASE + "b", None)], "out_dir": tmp_path / "pairs"}
    runpy.run_path(str(script(tmp_path, block("api-pairs"))), init_globals=given)
    assert locs(tmp_path / "pairs/sitemap.xml") == [BASE + "a", BASE + "b"]
    assert_valid(tmp_path / "pairs/sitemap.xml")


@pytest.mark.slow
def test_validate_page(tmp_path, monkeypatch, capsys):
    public = html_site(tmp_path / "public")
    sh(tmp_path, f"sitemapkit build public --base-url {BASE}")
    (public / "feed.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>'
        f'<id>{BASE}</id><updated>2025-03-01T10:00:00Z</updated><entry><title>Post</title>'
        f'<id>{BASE}blog/post.html</id><link href="{BASE}blog/post.html"/><updated>2025-03-01T10:00:00Z</updated>'
        "</entry></feed>", encoding="utf-8")
    sh(tmp_path, block("validate-commands").text)  # each line clean
    broken = (public / "sitemap.xml").read_text().replace("</loc>", "</loc><priority>1.5</priority>", 1)
    (public / "sitemap.xml").write_text(broken)
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(script(tmp_path, block("validate-api"))))
    printed = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"public/sitemap\.xml:\d+: error: <priority> 1\.5 is outside 0\.0-1\.0 \[priority-range\]",
                        printed[-1]), printed  # as the block's comment shows it


def built_four_ways(tmp_path: Path, mkdocs: list[str], pelican: Block, sphinx: Block, cli: Block,
                    pages: dict[str, str] | None = None, files: dict[str, str] | None = None
                    ) -> tuple[Path, Path, Path, Path]:
    """A page's blocks for each front end, each in its project (the command line's on a folder
    public/ of HTML), built and checked; the four output folders."""
    outputs = (mkdocs_site(tmp_path / "mkdocs", *mkdocs, pages=pages, files=files),
               pelican_site(tmp_path / "pelican", pelican.text), sphinx_site(tmp_path / "sphinx", sphinx.text))
    public = html_site(tmp_path / "public")
    sh(tmp_path, cli.text)
    for output in outputs:
        assert checked(output)
    return (*outputs, public)


@pytest.mark.slow
def test_views_page(tmp_path):
    pages = {"paper.md": "# Paper\n\n[The paper](papers/a.pdf)\n", "papers/a.pdf": "%PDF-1.4\n"}
    theme = yaml.safe_dump({"theme": {"name": "mkdocs", "custom_dir": "overrides"}})  # holding your own
    built = built_four_ways(tmp_path, [block("views-mkdocs").text, block("views-include").text, theme],
                            block("views-pelican"), block("views-sphinx"), block("views-cli"), pages,
                            {"overrides/sitemap.html": block("views-own-template").text})
    assert all((output / "sitemap.html").is_file() for output in built) and checked(built[3])
    assert BASE + "papers/a.pdf" in locs(built[0] / "sitemap.xml")
    own = (built[0] / "sitemap.html").read_text(encoding="utf-8")
    assert "<h1>Everything on this site</h1>" in own and 'href="./paper/"' in own  # with the sections
    sh(tmp_path, block("views-report").text)
    assert "<html" in (tmp_path / "report.html").read_text(encoding="utf-8").lower()


@pytest.mark.slow
def test_output_page(tmp_path):
    site, out, html, public = built_four_ways(tmp_path, [block("output-mkdocs").text], block("output-pelican"),
                                              block("output-sphinx"), block("output-cli"))
    assert {"sitemap.xml.gz", "sitemap.txt"} <= {p.name for p in site.iterdir()}
    assert 'href="/assets/sitemap.xsl"' in (site / "sitemap.xml").read_text(encoding="utf-8")
    assert (out / "sitemap.txt").is_file() and (html / "sitemap.xml.gz").is_file()
    assert (public / "sitemap_index.xml.gz").is_file() and checked(public, filename="sitemap_index.xml")
    assert "Sitemap: https://example.com/sitemap_index.xml" in (public / "robots.txt").read_text()


@pytest.mark.slow
def test_options_page(tmp_path):
    root = tmp_path / "mkdocs"
    root.mkdir()
    (root / "site_hooks.py").write_text(block("options-transform-hook").text, encoding="utf-8")
    exclude = {"plugins": [{"sitemapkit": yaml.safe_load(block("options-exclude").text)}]}
    pages = {"blog/a.md": "# A\n", "blog/keep.md": "# Keep\n", "drafts/x.md": "# Draft\n",
             "guide/print/index.md": "# Print\n"}
    site = mkdocs_site(root, block("options-transform-mkdocs").text, yaml.safe_dump(exclude), pages=pages)
    listed = checked(site)
    assert BASE + "drafts/x/" not in listed and BASE + "guide/print/" not in listed
    assert BASE + "blog/a/" in listed
    assert "<changefreq>weekly</changefreq><priority>0.8</priority>" in (site / "sitemap.xml").read_text()


@pytest.mark.slow
def test_lastmod_page(tmp_path):
    site = mkdocs_site(tmp_path / "mkdocs", block("lastmod-sources-mkdocs").text,
                       block("lastmod-indexnow-mkdocs").text, block("lastmod-changes-feed-mkdocs").text)
    assert (site / "sitemap-changes.atom").is_file() and (site / "5f2b8c1d9e7a4b3c.txt").is_file()
    assert checked(site) and "<lastmod>2024-03-05" in (site / "sitemap.xml").read_text()
    pelican_and_sphinx = block("lastmod-sources-pelican-sphinx").text, block("lastmod-indexnow-pelican-sphinx").text
    assert checked(pelican_site(tmp_path / "pelican", *pelican_and_sphinx))
    html = sphinx_site(tmp_path / "sphinx", *pelican_and_sphinx)
    assert checked(html) and (html / "5f2b8c1d9e7a4b3c.txt").is_file()
    site = html_site(tmp_path / "site")
    sh(tmp_path, block("lastmod-sources-cli").text)
    assert "<lastmod>" not in (site / "sitemap.xml").read_text() and checked(site)  # its last line: false
    _, dry = sh(tmp_path, block("lastmod-indexnow-cli").text)  # a build, then a dry run
    assert (site / "5f2b8c1d9e7a4b3c.txt").read_text() == "5f2b8c1d9e7a4b3c" and "would" in dry.stdout + dry.stderr
    sh(tmp_path, block("lastmod-changes-feed-cli").text)
    assert (site / "sitemap-changes.atom").is_file() and checked(site)


@pytest.mark.slow
def test_mkdocs_page(tmp_path, request):
    bin_dir = installed_by(block("mkdocs-install"), request)
    pages = {"tour.md": "---\n" + block("mkdocs-page-nested").text.split("---\n")[1] + "---\n# Tour\n",
             "flat.md": "---\n" + block("mkdocs-page-flat").text.split("---\n")[1] + "---\n# Flat\n",
             "out.md": "---\n" + block("mkdocs-page-out").text.split("---\n")[1] + "---\n# Out\n",
             "hidden.md": "---\nrobots: noindex\n---\n# Hidden\n"}  # noindex by the theme override below
    theme = yaml.safe_dump({"theme": {"name": "mkdocs", "custom_dir": "overrides"}})
    site = mkdocs_site(tmp_path / "enabled", block("mkdocs-enable").text, theme, pages=pages, bin_dir=bin_dir,
                       files={"overrides/main.html": block("mkdocs-noindex-override").text})
    base = yaml.safe_load(block("mkdocs-enable").text)["site_url"]
    listed = checked(site, base)
    assert base + "out/" not in listed and {base + "tour/", base + "flat/"} <= set(listed)
    assert '<meta name="robots" content="noindex">' in (site / "hidden/index.html").read_text()
    assert base + "hidden/" not in listed
    xml = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<priority>0.9</priority>" in xml and "<lastmod>2026-05-06" in xml and "cdn.example.org/b.png" in xml
    options = mkdocs_site(tmp_path / "options", block("mkdocs-options").text, bin_dir=bin_dir,
                          site_url="https://docs.example.org/")  # the site whose base_url the block gives
    assert checked(options, "https://docs.example.org/")


@pytest.mark.slow
def test_pelican_page(tmp_path, request):
    bin_dir = installed_by(block("pelican-install"), request)
    root = tmp_path / "blog"
    (root / "content/extra").mkdir(parents=True)
    (root / "content/extra/robots.txt").write_text("User-agent: *\nDisallow: /private/\n", encoding="utf-8")
    assert checked(pelican_site(tmp_path / "enabled", block("pelican-enable").text, bin_dir=bin_dir))
    images = {f"content/images/{name}.png": "png" for name in ("ferry-cover", "ferry-thumb", "a", "b")}
    out = pelican_site(root, block("pelican-options").text, block("pelican-robots").text,  # with Markdown
                       files={"content/ferry.md": block("pelican-page-keys").text + "\nAt sunset.\n", **images})
    assert checked(out, "https://example.org/")
    assert (out / "robots.txt").read_text().startswith("User-agent: *\nDisallow: /private/\n")
    xml = (out / "sitemap.xml").read_text(encoding="utf-8")
    ferry = xml[xml.index("<loc>https://example.org/the-evening-ferry-filmed.html</loc>"):].split("</url>")[0]
    assert "<lastmod>2025-09-07" in ferry and "<priority>0.8</priority>" in ferry and "/images/b.png" in ferry
    assert "<video:content_loc>https://media.example.org/ferry.mp4" in ferry


@pytest.mark.slow
def test_sphinx_page(tmp_path, request):
    bin_dir = installed_by(block("sphinx-install"), request)
    html = sphinx_site(tmp_path / "enabled", block("sphinx-enable").text, block("sphinx-options").text,
                       bin_dir=bin_dir, documents={"internal": block("sphinx-page-out").text,
                                                   "configuring": block("sphinx-page-keys").text})
    listed = checked(html, "https://docs.example.org/")
    assert listed == ["https://docs.example.org/configuring.html", "https://docs.example.org/index.html"]
    xml = (html / "sitemap.xml").read_text(encoding="utf-8")
    assert "<lastmod>2026-11-21" in xml and "<priority>0.9</priority>" in xml and "cdn.example.org/t.mp4" in xml
    assert "https://docs.example.org/sitemap.xsl" in (html / "sitemap.xml").read_text()
    root = tmp_path / "languages"
    root.mkdir()
    (root / "docs").symlink_to("source")  # the block names the source folder docs/
    sphinx_site(root, block("sphinx-languages-conf").text, build=block("sphinx-languages-build").text)
    html = root / "_build/html"  # each build's own sitemap; the two list every page
    assert_valid_tree(html / "fr", "https://docs.example.org/fr/")
    assert checked(html, "https://docs.example.org/", target="sitemap.xml fr/sitemap.xml")


@pytest.mark.slow
def test_index_page(tmp_path, request):
    bin_dir = installed_by(block("index-install"), request)
    assert bin_dir == installed_by(block("mkdocs-install"), request)  # the same line: one venv
    site = mkdocs_site(tmp_path / "index", bin_dir=bin_dir)
    assert checked(site) == [BASE]


@pytest.mark.slow
def test_properdocs_page(tmp_path, request):
    bin_dir = installed_by(block("properdocs-install"), request)
    root = made_by("properdocs new .", tmp_path / "p", bin_dir)
    config = yaml.safe_load((root / "properdocs.yml").read_text(encoding="utf-8"))
    merge(config, yaml.safe_load(block("properdocs-enable").text))
    (root / "properdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    commit(init(root), "2024-03-05T10:00:00")
    sh(root, block("properdocs-build").text, bin_dir)
    sh(root / "site", "sitemapkit validate sitemap.xml --site-dir . --strict", bin_dir)
    assert_valid_tree(root / "site", "https://example.org/docs/")


@pytest.mark.slow
def test_zensical_page(tmp_path, request):
    bin_dir = installed_by(block("zensical-install"), request)
    root = made_by("zensical new .", tmp_path / "z", bin_dir)
    commit(init(root), "2024-03-05T10:00:00")
    _, *build = shell_lines(block("zensical-install").text)  # its pip line: installed_by
    for text in (*build, block("cli-zensical").text, block("zensical-validate").text):
        sh(root, text, bin_dir)


# Each recipe on its generator's real output, recorded (tests/generator_output/), at the site
# URL it was built for, which the blocks' https://example.com/ stands for.
RECORDED = {"hugo": ("hugo-multilingual", "https://hugo.example/"), "jekyll": ("jekyll-blog", "https://jekyll.example/"),
            "docusaurus": ("docusaurus-classic", "https://docusaurus.example/"),
            "@11ty/eleventy": ("eleventy-blog", "https://eleventy.example/")}


def recorded(generator: str, folder: Path) -> str:
    """The output ``generator`` recorded, copied to ``folder``, without the generator's own
    sitemaps (which the recipes turn off); the site URL it was built for."""
    fixture, url = RECORDED[generator]
    shutil.copytree(TESTS / "generator_output" / fixture, folder)
    for own in folder.rglob("sitemap.xml"):
        own.unlink()
    return url


@pytest.mark.slow
def test_cli_page(tmp_path):
    url = recorded("hugo", tmp_path / "hugo")
    (tmp_path / "hugo/pyproject.toml").write_text(block("cli-config-toml").text.replace(BASE, url), encoding="utf-8")
    (command,) = shell_lines(block("cli-hugo-config").text)
    generator, ours = command.split(" && ")
    assert generator == "hugo"
    sh(tmp_path / "hugo", ours)
    assert (tmp_path / "hugo/public/sitemap.xml.gz").is_file() and checked(tmp_path / "hugo/public", url)
    for recipe in block("cli-other-generators").text.split("\n\n"):
        build, *ours = shell_lines(recipe)
        generator = next(word for word in shlex.split(build) if word in RECORDED)
        project = tmp_path / f"recipe-{generator.strip('@/')}"
        url = recorded(generator, project)
        sh(project, "\n".join(ours).replace(BASE, url))


@pytest.mark.slow
def test_ci_page(tmp_path, request):
    github = yaml.safe_load(block("ci-github").text)
    (job,) = github["jobs"].values()
    assert [step["uses"] for step in job["steps"] if "uses" in step] == [
        "actions/checkout@v4", "actions/setup-python@v5", "actions/cache@v4"]  # GitHub's own: checkout
    install, *steps = run_lines(block("ci-github").text)  # with history, a Python, the cache kept
    bin_dir = tool_venv(request.config, packages(install), sitemapkit=True)
    gitlab = run_lines(block("ci-gitlab").text)[0].splitlines()
    assert gitlab[0] == install
    for name, lines, folder in (("github", steps, "site"), ("gitlab", gitlab[1:], "public")):
        root = tmp_path / name
        mkdocs_new(root, bin_dir, BASE)
        with open(root / "mkdocs.yml", "a", encoding="utf-8") as config:
            config.write("plugins:\n  - search\n  - sitemapkit\n")
        commit(init(root), "2024-03-05T10:00:00")
        sitemaps = []
        for _ in range(2):  # a first build, then one with the cache kept: nothing moves
            sh(root, "\n".join(lines), bin_dir)
            sitemaps.append((root / folder / "sitemap.xml").read_bytes())
        assert locs(root / folder / "sitemap.xml") == [BASE] and sitemaps[0] == sitemaps[1]
        assert b"<lastmod>2024-03-05T10:00:00Z</lastmod>" in sitemaps[0]  # the page's commit: full history


@pytest.mark.slow
def test_pre_commit_hook(tmp_path, request):
    # pre-commit clones the hook's repository at `rev`: here this one, tagged, for GitHub's copy.
    hooks = tmp_path / "sitemapkit"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(hooks)], check=True)
    config = block("ci-pre-commit").text
    (rev,) = re.findall(r"rev: (\S+)", config)
    subprocess.run(["git", "-C", str(hooks), "tag", rev], check=True)
    project = html_site(tmp_path / "project/public")
    sh(project, f"sitemapkit build . --base-url {BASE}")
    root = project.parent
    (root / ".pre-commit-config.yaml").write_text(
        config.replace("https://github.com/sitemapkit/sitemapkit", str(hooks)), encoding="utf-8")
    commit(init(root), "2024-03-05T10:00:00")
    bin_dir = tool_venv(request.config, ["pre-commit", "pre-commit-uv"])  # the hook's venv made by uv
    home = {"PRE_COMMIT_HOME": str(request.config.cache.mkdir("pre-commit"))}
    ran = subprocess.run([bin_dir / "pre-commit", "run", "--all-files"], cwd=root, capture_output=True, text=True,
                         env={**os.environ, **home}, timeout=600)
    assert ran.returncode == 0 and "sitemapkit validate" in ran.stdout, ran.stdout + ran.stderr
    broken = (project / "sitemap.xml").read_text().replace("</loc>", "</loc><priority>1.5</priority>")
    (project / "sitemap.xml").write_text(broken)
    ran = subprocess.run([bin_dir / "pre-commit", "run", "--all-files"], cwd=root, capture_output=True, text=True,
                         env={**os.environ, **home}, timeout=600)
    assert ran.returncode == 1 and "[priority-range]" in ran.stdout, ran.stdout  # a broken sitemap stops the commit
