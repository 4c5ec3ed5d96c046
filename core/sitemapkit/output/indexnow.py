"""IndexNow: tell participating search engines which URLs were added, changed or removed.

The key file ``{key}.txt`` goes in the site root; URLs are POSTed in batches of at most
10,000 (indexnow.org, "Submitting set of URLs"). 200 and 202 are success; 429 is retried
with a bounded back-off; other answers and network failures are warnings, and the URLs not
sent are kept in the manifest for the next build.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from http.client import HTTPException
from pathlib import Path
from urllib.parse import urlsplit

from sitemapkit.lastmod.manifest import Changes
from sitemapkit.lastmod.state import atomic_text, save_unsent
from sitemapkit.output.names import key_url
from sitemapkit.report import Report, plural
from sitemapkit.settings import Settings
from sitemapkit.site.files import Sink
from sitemapkit.urls import in_scope, site_path

BATCH = 10_000
RETRIES = 4
MAX_WAIT = 60.0
USER_AGENT = "sitemapkit (IndexNow)"

_MEANING = {
    400: "bad request: the submission is not in IndexNow's format",
    403: "forbidden: the key is not valid (key file not found at {key_url}, "
    "or found without the key in it); deploy the site, then build again",
    422: "unprocessable: some URLs do not belong to the host, or the key does not match "
    "IndexNow's format",
    429: "too many requests: the engine sees this as potential spam",
}


def write_key_file(site_dir: Path, settings: Settings, sink: Sink | None = None) -> Path | None:
    """Write the key file into ``site_dir`` when its URL lies inside the site."""
    indexnow, base_url = settings.indexnow, settings.base_url
    location = key_url(indexnow, base_url)
    if not in_scope(location, base_url):
        return None  # served from elsewhere; the user puts it there
    path = site_dir / site_path(location, base_url)
    if not path.exists() or path.read_text(encoding="utf-8", errors="replace") != indexnow.key:
        with atomic_text(path, sink) as out:
            out.write(indexnow.key)
    return path


def payload(urls: list[str], settings: Settings) -> dict:
    indexnow, base_url = settings.indexnow, settings.base_url
    body = {"host": urlsplit(base_url).hostname, "key": indexnow.key}
    if indexnow.key_location or urlsplit(base_url).path not in ("", "/"):
        body["keyLocation"] = key_url(indexnow, base_url)  # anywhere but the host root
    body["urlList"] = urls
    return body


def _post(endpoint: str, body: bytes, timeout: float) -> tuple[int, str, str | None]:
    request = urllib.request.Request(
        endpoint, data=body, method="POST",
        headers={"Content-Type": "application/json; charset=utf-8", "User-Agent": USER_AGENT},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, "", None
    except urllib.error.HTTPError as error:
        text = error.read(500).decode("utf-8", "replace").strip()
        return error.code, text, error.headers.get("Retry-After")


def _wait(retry_after: str | None, attempt: int, backoff: float) -> float:
    seconds = backoff * 2**attempt
    if retry_after:
        try:
            seconds = float(retry_after)
        except ValueError:
            with contextlib.suppress(TypeError, ValueError):
                seconds = parsedate_to_datetime(retry_after).timestamp() - time.time()
    return max(0.0, min(seconds, MAX_WAIT))


def submit_changes(
    changes: Changes,
    site_dir: Path,
    settings: Settings,
    report: Report,
    sink: Sink | None = None,
    *,
    backoff: float = 2.0,
    retries: int = RETRIES,
    timeout: float = 30.0,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Write the key file, then submit ``changes``; return how many URLs were accepted. In a
    dry run (``sink``'s) print what would be sent, send nothing and count the files.

    ``backoff`` is the first wait after a 429 (doubled each retry, at most ``retries``
    retries, a ``Retry-After`` header wins up to a minute).
    """
    indexnow = settings.indexnow
    sink = sink if sink is not None else Sink()
    key_file = write_key_file(Path(site_dir), settings, sink)
    if key_file is not None:
        report.files.append(key_file)
    urls = changes.urls
    label = indexnow.endpoint
    if sink.dry_run:
        _print_dry_run(changes, urls, settings)
        _keep_unsent(changes, urls, report, sink)
        return 0
    sent = 0
    for start in range(0, len(urls), BATCH):
        batch = urls[start : start + BATCH]
        body = json.dumps(payload(batch, settings), ensure_ascii=False).encode("utf-8")
        for attempt in range(retries + 1):
            try:
                status, text, retry_after = _post(indexnow.endpoint, body, timeout)
            except (OSError, ValueError, HTTPException) as error:  # refused, timed out, cut
                reason = getattr(error, "reason", error)
                report.warn(
                    label, "indexnow", "indexnow-network",
                    f"could not reach the IndexNow endpoint ({reason}); {plural(len(urls) - sent, 'URL')} "
                    "not submitted, kept for the next build",
                )
                _keep_unsent(changes, urls[start:], report, sink)
                return sent
            if status != 429 or attempt == retries:
                break
            sleep(_wait(retry_after, attempt, backoff))
        if status in (200, 202):
            sent += len(batch)
            continue
        meaning = _MEANING.get(status, "unexpected answer").format(
            key_url=key_url(indexnow, settings.base_url)
        )
        tried = f" after {retries} retries" if status == 429 else ""
        report.warn(
            label, "indexnow", f"indexnow-{status}",
            f"HTTP {status}{tried}, {meaning}" + (f" ({text[:200]})" if text else "")
            + f"; {plural(len(urls) - sent, 'URL')} not submitted, kept for the next build",
        )
        _keep_unsent(changes, urls[start:], report, sink)
        return sent
    return sent


def _keep_unsent(changes: Changes, urls: list[str], report: Report, sink: Sink) -> None:
    if changes.state_file is None:
        return
    try:
        save_unsent(changes.state_file, urls, sink)
    except OSError as error:
        report.warn(
            str(changes.state_file), "state_file", "state-write",
            f"could not keep {len(urls)} unsent IndexNow URLs for the next build ({error})",
        )


def _print_dry_run(changes: Changes, urls: list[str], settings: Settings) -> None:
    indexnow = settings.indexnow
    if not urls:
        why = (
            "no manifest from an earlier build, so nothing is known to have changed"
            if changes.first_build else "nothing changed since the last build"
        )
        print(f"IndexNow (dry run): {why}; nothing would be sent")
        return
    batches = (len(urls) + BATCH - 1) // BATCH
    print(
        f"IndexNow (dry run): would POST {plural(len(urls), 'URL')} in {batches} "
        f"{'batch' if batches == 1 else 'batches'} to "
        f"{indexnow.endpoint} (key file {key_url(indexnow, settings.base_url)}): "
        f"{len(changes.added)} added, {len(changes.changed)} changed, "
        f"{len(changes.removed)} removed, {len(changes.unsent)} left from earlier builds"
    )
    for url in urls:
        print(f"  {url}")
