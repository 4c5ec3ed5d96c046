"""Authors' avatars beside a byline are the theme's, not the page's images: the same picture
on every page an author wrote (Docusaurus' ``avatar__photo``, Minimal Mistakes'
``author__avatar``), left out by the one image filter; a content image whose file is named
after avatars stays."""

from __future__ import annotations

import pytest

from sitemapkit.site.images import decorative


@pytest.mark.parametrize("attrs", [
    {"class": "avatar__photo authorImage_XqGP"},  # Docusaurus 3 blog byline
    {"class": "author__avatar"},  # Minimal Mistakes (Jekyll)
    {"class": "Avatar rounded"},
    {"id": "avatar"},
])
def test_an_image_whose_class_or_id_says_avatar_is_not_the_pages(attrs):
    assert decorative("https://github.com/slorber.png", attrs)


@pytest.mark.parametrize("src, attrs", [
    ("/img/avatars-of-vishnu.jpg", {"class": "figure"}),  # a content image named so
    ("/img/a.png", {"class": "navatarx"}),  # "avatar" inside another word
])
def test_content_images_stay(src, attrs):
    assert not decorative(src, attrs)
