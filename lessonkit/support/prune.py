"""The store prunes itself after a successful build (site.py), at most once every PRUNE_EVERY_HOURS, as Cargo
cleans its cache: listing every entry takes longer than a rebuild after an edited paragraph spends on its page.
Reading an entry marks it used (its mtime, support/store.py), writing one is a use too (what a kept page is made of
is marked once an hour, and by every build that prunes: incremental.py MARKED_FOR); `prune` removes the entries
no build used for PRUNE_AFTER_DAYS days, then, while the store is over MAX_CACHE_BYTES, the least recently used —
never one the build that just ran used."""
from __future__ import annotations

import functools
import os
import re
import stat
from pathlib import Path

from .records import Mutable
from .store import KINDS, STALE_TMP

PRUNE_AFTER_DAYS = 30                 # an entry no build used for this long is removed after the next build
MAX_CACHE_BYTES = 200 * 1024 * 1024   # above this, least recently used entries go first
PRUNE_EVERY_HOURS = 24                # a build prunes when the store was last pruned longer ago than this
PRUNED_STAMP = ".pruned"              # in the store's folder: its mtime is when the store was last pruned



class Pruned(Mutable):
    files: int = 0
    bytes: int = 0
    kept_bytes: int = 0


def prune_when_due(folder: Path, now: float, used_since: float) -> Pruned | None:
    """`prune` if the store was last pruned PRUNE_EVERY_HOURS or more before `now` (or never, or its stamp is
    from the future: a clock put back), then stamp it; None when it was not due."""
    if not prune_due(folder, now):
        return None
    stamp = os.path.join(folder, PRUNED_STAMP)
    result = prune(folder, now, used_since)
    try:
        with open(stamp, "wb"):
            pass
        os.utime(stamp, (now, now))
    except OSError:   # a read-only store: prune again next time
        pass
    return result


def prune_due(folder: Path, now: float) -> bool:
    """Whether a build that ends now prunes the store: it was last pruned PRUNE_EVERY_HOURS or more before `now`, or
    never, or its stamp is from the future (a clock put back)."""
    try:
        last = os.stat(os.path.join(folder, PRUNED_STAMP)).st_mtime
    except OSError:
        return True
    return not now - PRUNE_EVERY_HOURS * 3600 < last <= now + 60


def prune(folder: Path, now: float, used_since: float, max_age_days: float = PRUNE_AFTER_DAYS,
          max_bytes: int = MAX_CACHE_BYTES) -> Pruned:
    """Remove the entries last used (mtime) more than `max_age_days` before `now`, then the least recently used
    until the store holds at most `max_bytes` — never an entry used at or after `used_since` (by the build that just
    ran: it needs them next time too, so only what it uses may exceed the cap). A temporary file a killed build
    left (a day old) goes too."""
    result = Pruned()

    def remove(size: int, path: str) -> None:
        try:
            os.unlink(path)
        except OSError:
            return
        result.files += 1
        result.bytes += size
    cutoff = now - max_age_days * 86400
    kept = []
    for mtime, size, path in sorted(_entries(folder, now), key=lambda e: (e[0], e[2])):
        if mtime < cutoff and mtime < used_since:
            remove(size, path)
        elif not STALE_TMP.fullmatch(os.path.basename(path)):
            kept.append((mtime, size, path))
    total = sum(size for _, size, _ in kept)
    for mtime, size, path in kept:              # oldest first
        if total <= max_bytes or mtime >= used_since:
            break
        remove(size, path)
        total -= size
    result.kept_bytes = total
    return result


@functools.cache  # (compiled when the store is pruned, at most once a day)
def _prunable() -> dict[str, re.Pattern]:
    """What prune may remove, by folder: lessonkit's own entries only, whatever else a --cache-dir folder holds
    stays."""
    return {folder: re.compile("|".join(k.pattern for k in KINDS if k.folder == folder))
            for folder in dict.fromkeys(k.folder for k in KINDS)}


def _entries(folder: Path, now: float) -> list[tuple[float, int, str]]:
    """(last used, size, path) of every entry and temporary file; a temporary file over a day old as never used.
    Paths as strings, and each entry's status from its directory listing: a store holds hundreds of entries, and
    making a Path object for each took longer than asking for its status."""
    entries: list[tuple[float, int, str]] = []
    for sub, pattern in _prunable().items():
        try:
            with os.scandir(os.path.join(folder, sub)) as listing:
                found = list(listing)
        except OSError:
            continue
        for entry in found:
            name = entry.name
            if not (pattern.fullmatch(name) or STALE_TMP.fullmatch(name)):
                continue
            try:
                st = entry.stat()
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            stale_tmp = STALE_TMP.fullmatch(name) and st.st_mtime < now - 86400
            entries.append((float("-inf") if stale_tmp else st.st_mtime, st.st_size, entry.path))
    return entries
