#!/bin/sh
# Builds the fixtures with the real generators (Hugo, Jekyll, Docusaurus, Eleventy) and records
# each one's version in GENERATED_BY: run it again after a change to a fixture's sources
# (tests/test_source_layouts_{hugo,jekyll,docusaurus_eleventy}.py read what it leaves).
#   public/         plain `hugo`: Hugo's own sitemaps are there (sitemap.xml, en/, fr/)
# The documented recipe (`HUGO_DISABLEKINDS=sitemap hugo`) is built too and must differ by
# those sitemap files only; it is not kept (the tests take public/ without them).
set -eu
cd "$(dirname "$0")"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
only_these_differ() {  # the plain build $1 and the recipe's $2 differ by the files $3 names, no more
    diff -rq "$1" "$2" | sed -e "s|^Only in $1/*||" -e 's|: |/|' -e 's|^/||' | sort > "$scratch/diff"
    printf '%s\n' $3 | sort | cmp -s - "$scratch/diff" || { echo "$2 differs from $1 beyond: $3" >&2; return 1; }
}
# hugo-permalinks: one language, `[permalinks]` for two sections (its one sitemap.xml).
for site in hugo-multilingual hugo-language-folders hugo-permalinks; do
    rm -rf "$site/public" "$site/resources"
    (cd "$site" && hugo --quiet && HUGO_DISABLEKINDS=sitemap hugo --quiet -d "$scratch/$site")
    case $site in
        hugo-permalinks) sitemaps="sitemap.xml" ;;
        *) sitemaps="sitemap.xml en/sitemap.xml fr/sitemap.xml" ;;
    esac
    only_these_differ "$site/public" "$scratch/$site" "$sitemaps"
    rm -rf "$site/resources" "$site/.hugo_build.lock"
    hugo version | sed 's/ BuildDate=.*//' > "$site/GENERATED_BY"
done
# Jekyll (with jekyll-sitemap, as GitHub Pages sites have it):
#   _site/          plain `jekyll build`: jekyll-sitemap's sitemap.xml and robots.txt are there
# The recipe (jekyll-sitemap removed from plugins) must differ by those two files only.
site=jekyll-blog
rm -rf "$site/_site" "$site/.jekyll-cache"
(cd "$site" && jekyll build --quiet && printf 'plugins: []\n' > "$scratch/recipe.yml" \
    && jekyll build --quiet --config "_config.yml,$scratch/recipe.yml" -d "$scratch/$site")
only_these_differ "$site/_site" "$scratch/$site" "sitemap.xml robots.txt"
rm -rf "$site/.jekyll-cache"
jekyll --version > "$site/GENERATED_BY"
# Jekyll with collections (`output: true`, a permalink or the default), `exclude`, a `.txt`
# document and jekyll-seo-tag, whose article:published_time of a collection's document is the
# build's time (as on choosealicense.com). No sitemap of its own.
#   _site/          plain `jekyll build`
site=jekyll-collection
rm -rf "$site/_site" "$site/.jekyll-cache"
(cd "$site" && jekyll build --quiet)
rm -rf "$site/.jekyll-cache"
jekyll --version > "$site/GENERATED_BY"
# Jekyll with `defaults:` that set permalinks (posts under a path, pages under docs/, the
# documents of a collection), a site-wide permalink template, a post's own permalink template
# and `collections_dir: content` (posts in content/_posts and content/news/_posts, a category).
#   _site/          plain `jekyll build`
site=jekyll-defaults
rm -rf "$site/_site" "$site/.jekyll-cache"
(cd "$site" && jekyll build --quiet)
rm -rf "$site/.jekyll-cache"
jekyll --version > "$site/GENERATED_BY"
# Jekyll's permalink styles: the same site built once per style (`permalink: date`, Jekyll's
# default, `pretty`, `ordinal`, `none`), each into _site-STYLE: the posts' URLs follow the style,
# the pages' only its ending; a page's own permalink template (extra.md).
site=jekyll-permalink-styles
rm -rf "$site"/_site-* "$site/.jekyll-cache"
for style in date pretty ordinal none; do
    printf 'permalink: %s\n' "$style" > "$scratch/$style.yml"
    (cd "$site" && jekyll build --quiet --config "_config.yml,$scratch/$style.yml" -d "_site-$style")
done
rm -rf "$site/.jekyll-cache"
jekyll --version > "$site/GENERATED_BY"
# Docusaurus and Eleventy come from npm: each is built in a scratch copy (its node_modules
# never reaches the repository) with the exact versions its package.json pins.
same_but_sitemap() {  # $1 and $2 hold the same pages, bundle hashes aside; $1 has the sitemaps $3 too
    sitemaps=${3:-./sitemap.xml}
    (cd "$1" && find . -type f ! -path './assets/*' ! -path './*/assets/*' | sort) > "$scratch/first"
    (cd "$2" && find . -type f ! -path './assets/*' ! -path './*/assets/*' | sort) > "$scratch/second"
    for sitemap in $sitemaps; do
        grep -qx "$sitemap" "$scratch/first" || { echo "$1: no $sitemap" >&2; return 1; }
    done
    printf '%s\n' $sitemaps | grep -vxF -f - "$scratch/first" \
        | cmp -s - "$scratch/second" || { echo "$2: other files than $1 but $sitemaps" >&2; return 1; }
    for page in $(grep '\.html$' "$scratch/second"); do
        sed -E 's/\.[0-9a-f]{8}\.js/.js/g' "$1/$page" > "$scratch/a"
        sed -E 's/\.[0-9a-f]{8}\.js/.js/g' "$2/$page" > "$scratch/b"
        cmp -s "$scratch/a" "$scratch/b" || { echo "$page differs in $2 beyond bundle hashes" >&2; return 1; }
    done
}
# Docusaurus: the sources are `npx create-docusaurus@3.10.2 site classic --javascript
# --skip-install` with url set and one `last_update` added (docs/tutorial-basics/create-a-page.mdx).
#   build/          plain `docusaurus build`: its own sitemap.xml is there
# The recipe (recipe.config.js: `sitemap: false`) is built too and must differ by that one file
# only (and the hash in its bundle's name); it is not kept (the tests take build/ without
# sitemap.xml for it), to keep the fixture small.
# The JS/CSS bundles and images are dropped from build/: the tests read the HTML pages only.
site=docusaurus-classic
rm -rf "$site/build"
mkdir "$scratch/$site"
(cd "$site" && cp -R docs blog src static docusaurus.config.js recipe.config.js sidebars.js package.json \
    "$scratch/$site/")
(cd "$scratch/$site" && npm install --no-audit --no-fund --silent >/dev/null \
    && npx docusaurus build >/dev/null \
    && npx docusaurus build --config recipe.config.js --out-dir build-recipe >/dev/null \
    && same_but_sitemap build build-recipe \
    && rm -rf build/assets build/img build/favicon.ico build/.nojekyll)
cp -R "$scratch/$site/build" "$site/build"
version=$(cd "$scratch/$site" && npx docusaurus --version)
printf 'docusaurus %s (node %s)\n' "$version" "$(node --version)" > "$site/GENERATED_BY"
# Docusaurus in two languages (i18n: en, fr), made by hand like web-map-doc (Maps4HTML): docs
# translated in i18n/fr/docusaurus-plugin-content-docs/current/ but one, a translated blog
# post, a demo page in static/ (copied into / and /fr/).
#   build/          plain `docusaurus build`: its sitemaps are there (sitemap.xml, fr/sitemap.xml)
# The recipe (recipe.config.js) must differ by those two files only; it is not kept.
site=docusaurus-i18n
rm -rf "$site/build"
mkdir "$scratch/$site"
(cd "$site" && cp -R docs blog i18n src static docusaurus.config.js recipe.config.js package.json "$scratch/$site/")
(cd "$scratch/$site" && npm install --no-audit --no-fund --silent >/dev/null \
    && npx docusaurus build >/dev/null \
    && npx docusaurus build --config recipe.config.js --out-dir build-recipe >/dev/null \
    && same_but_sitemap build build-recipe "./sitemap.xml ./fr/sitemap.xml" \
    && rm -rf build/assets build/fr/assets build/img build/fr/img build/.nojekyll build/fr/.nojekyll)
cp -R "$scratch/$site/build" "$site/build"
version=$(cd "$scratch/$site" && npx docusaurus --version)
printf 'docusaurus %s (node %s)\n' "$version" "$(node --version)" > "$site/GENERATED_BY"
# Eleventy: its input folder src/ (.eleventy.js), no sitemap of its own.
#   _site/          plain `npx @11ty/eleventy`
site=eleventy-blog
rm -rf "$site/_site"
mkdir "$scratch/$site"
(cd "$site" && cp -R .eleventy.js package.json README.md src "$scratch/$site/")
(cd "$scratch/$site" && npm install --no-audit --no-fund --silent >/dev/null && npx @11ty/eleventy --quiet >/dev/null)
cp -R "$scratch/$site/_site" "$site/_site"
version=$(cd "$scratch/$site" && npx @11ty/eleventy --version)
printf 'eleventy %s (node %s)\n' "$version" "$(node --version)" > "$site/GENERATED_BY"
# Docusaurus in docs-only mode with renamed folders (docusaurus.config.js, made by hand): the
# docs plugin's `path: 'guides'` and `routeBasePath: '/'` (the doc whose slug is / is the home
# page), the blog's `path: "news"` and `routeBasePath: "updates"`, a second docs instance
# (plugins: @docusaurus/plugin-content-docs, id community) with its own path and routeBasePath.
#   build/          plain `docusaurus build`: its own sitemap.xml is there
# The recipe (recipe.config.js) must differ by that one file only; it is not kept.
site=docusaurus-routes
rm -rf "$site/build"
mkdir "$scratch/$site"
(cd "$site" && cp -R guides news community src docusaurus.config.js recipe.config.js package.json "$scratch/$site/")
(cd "$scratch/$site" && npm install --no-audit --no-fund --silent >/dev/null \
    && npx docusaurus build >/dev/null \
    && npx docusaurus build --config recipe.config.js --out-dir build-recipe >/dev/null \
    && same_but_sitemap build build-recipe \
    && rm -rf build/assets build/img build/.nojekyll)
cp -R "$scratch/$site/build" "$site/build"
version=$(cd "$scratch/$site" && npx docusaurus --version)
printf 'docusaurus %s (node %s)\n' "$version" "$(node --version)" > "$site/GENERATED_BY"
