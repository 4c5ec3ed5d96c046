#!/bin/sh
# Builds the Hugo fixtures with a real Hugo and records its version: run it again after a
# change to a fixture's sources (tests/test_source_layouts_hugo.py reads what it leaves).
#   public/         plain `hugo`: Hugo's own sitemaps are there (sitemap.xml, en/, fr/)
#   public-recipe/  the documented recipe: `HUGO_DISABLEKINDS=sitemap hugo`, no Hugo sitemap
set -eu
cd "$(dirname "$0")"
for site in hugo-multilingual hugo-language-folders; do
    rm -rf "$site/public" "$site/public-recipe" "$site/resources"
    (cd "$site" && hugo --quiet && HUGO_DISABLEKINDS=sitemap hugo --quiet -d public-recipe)
    rm -rf "$site/resources" "$site/.hugo_build.lock"
    hugo version | sed 's/ BuildDate=.*//' > "$site/GENERATED_BY"
done
# Jekyll (with jekyll-sitemap, as GitHub Pages sites have it):
#   _site/          plain `jekyll build`: jekyll-sitemap's sitemap.xml is there
#   public-recipe/  the documented recipe: jekyll-sitemap removed from plugins
site=jekyll-blog
rm -rf "$site/_site" "$site/public-recipe" "$site/.jekyll-cache"
(cd "$site" && jekyll build --quiet && printf 'plugins: []\n' > ../recipe.yml \
    && jekyll build --quiet --config _config.yml,../recipe.yml -d public-recipe && rm ../recipe.yml)
rm -rf "$site/.jekyll-cache"
jekyll --version > "$site/GENERATED_BY"
