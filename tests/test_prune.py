"""Pruning the store (support/prune.py): entries no build used for PRUNE_AFTER_DAYS days go, and the least recently
used above the cap; never what the last build used, never a file that is not lessonkit's."""
import os

import pytest

from lessonkit.support.prune import MAX_CACHE_BYTES, PRUNE_AFTER_DAYS, PRUNED_STAMP, prune, prune_when_due
from lessonkit.support.store import FONT, KINDS

DAY = 86400.0
NOW = 2_000_000_000.0   # a fixed "now": mtimes are set relative to it, nothing sleeps


def entry(folder, rel, age_days, size=10):
    """A cache file `rel` of `size` bytes last used `age_days` before NOW."""
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    os.utime(path, (NOW - age_days * DAY, NOW - age_days * DAY))
    return path


def present(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


H1, H2, H3, H4, H5 = (c * 64 for c in "abcde")


def test_prune_removes_what_no_build_used_for_30_days_and_only_lessonkit_entries(tmp_path):
    assert PRUNE_AFTER_DAYS == 30
    c = tmp_path / "cache"
    entry(c, f"figures/{H1}.svg", 31)
    entry(c, f"figures/{H1}.json", 31)               # the figure's data and palette go with it
    entry(c, f"figures/{H2}.svg", 29)
    entry(c, f"values/{H3}.pickle", 45)
    entry(c, "templates/__jinja2_0123abcd.cache", 31)
    entry(c, "templates/__jinja2_4567ef.cache", 2)
    entry(c, "mathml-3.81.1.json", 400)
    entry(c, "font.json", 1)
    entry(c, f"figures/.{H4}.svg.4242.tmp", 3)        # left by a build killed while writing
    entry(c, f"figures/.{H5}.svg.4243.tmp", 0.001)    # a build writing it right now
    entry(c, "notes.txt", 90)                         # not ours: never touched
    entry(c, "figures/README", 90)
    result = prune(c, now=NOW, used_since=NOW - 60)
    assert present(c) == sorted([f"figures/{H2}.svg", "templates/__jinja2_4567ef.cache", "font.json",
                                 f"figures/.{H5}.svg.4243.tmp", "notes.txt", "figures/README"])
    assert (result.files, result.bytes) == (6, 60)


def test_prune_keeps_the_cache_under_the_cap_removing_least_recently_used_first(tmp_path):
    assert MAX_CACHE_BYTES == 200 * 1024 * 1024
    c = tmp_path / "cache"
    ages = {H1: 5, H2: 1, H3: 4, H4: 2, H5: 3}           # all younger than 30 days
    for h, age in ages.items():
        entry(c, f"figures/{h}.svg", age, size=100)
    result = prune(c, now=NOW, used_since=NOW - 60, max_bytes=250)
    # 500 bytes, cap 250: the three least recently used (5, 4, 3 days) go, 200 bytes stay
    assert present(c) == sorted([f"figures/{H2}.svg", f"figures/{H4}.svg"])
    assert (result.files, result.bytes, result.kept_bytes) == (3, 300, 200)


def test_prune_never_removes_what_the_last_build_used_even_over_the_cap(tmp_path):
    c = tmp_path / "cache"
    entry(c, f"figures/{H1}.svg", 0.5, size=100)
    entry(c, f"figures/{H2}.svg", 0.0, size=100)   # used by the build that just ran
    entry(c, f"values/{H3}.pickle", 0.0, size=100)
    prune(c, now=NOW, used_since=NOW - 60, max_bytes=50)
    assert present(c) == sorted([f"figures/{H2}.svg", f"values/{H3}.pickle"])


def sample_key(kind):
    return "" if kind is FONT else H1 if kind.keys == "[0-9a-f]{64}" else "1.2.3"


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.entry(sample_key(k)))
def test_every_kind_of_entry_is_pruned_when_old_and_kept_when_used(tmp_path, kind):
    c = tmp_path / "cache"
    old = entry(c, kind.entry(sample_key(kind)), PRUNE_AFTER_DAYS + 1)
    assert prune(c, now=NOW, used_since=NOW - 60).files == 1 and not old.exists()
    recent = entry(c, kind.entry(sample_key(kind)), PRUNE_AFTER_DAYS - 1)
    assert prune(c, now=NOW, used_since=NOW - 60).files == 0 and recent.exists()


def test_a_file_named_like_another_kinds_entry_or_a_folder_is_not_lessonkits(tmp_path):
    c = tmp_path / "cache"
    entry(c, f"values/{H1}.json", 90)           # values are pickles: a .json there is not ours
    entry(c, f"scripts/{H1}.pickle", 90)        # scripts' checks are JSON
    entry(c, f"figures/{H2[:-1]}.svg", 90)      # 63 hex digits: no key
    entry(c, "mathml-.json", 90)                # a version is at least one character
    (c / "figures" / f"{H3}.svg").mkdir()        # a folder named like an entry
    os.utime(c / "figures" / f"{H3}.svg", (NOW - 90 * DAY, NOW - 90 * DAY))
    result = prune(c, now=NOW, used_since=NOW - 60, max_bytes=0)
    assert result.files == 0 and (c / "figures" / f"{H3}.svg").is_dir()
    assert present(c) == sorted([f"values/{H1}.json", f"scripts/{H1}.pickle", f"figures/{H2[:-1]}.svg",
                                 "mathml-.json"])


def test_an_entry_goes_once_it_is_more_than_30_days_unused(tmp_path):
    c = tmp_path / "cache"
    entry(c, f"figures/{H1}.svg", 30)                     # exactly 30 days: still kept
    entry(c, f"figures/{H2}.svg", 30 + 1 / 86400)         # 30 days and a second: gone
    prune(c, now=NOW, used_since=NOW - 60)
    assert present(c) == [f"figures/{H1}.svg"]


def test_a_temporary_file_counts_for_nothing_until_it_is_a_day_old(tmp_path):
    """A build writing an entry right now is not slowed down: its temporary file is neither removed nor counted
    against the cap; one left a day ago by a killed build goes, wherever it is."""
    c = tmp_path / "cache"
    entry(c, f"pages/.{H1}.pickle.77.tmp", 0.01, size=1000)
    entry(c, ".font.json.78.tmp", 1.5, size=7)
    entry(c, f"notebooks/.{H2}.ipynb.79.tmp", 2, size=5)
    entry(c, f"values/{H3}.pickle", 2, size=10)
    result = prune(c, now=NOW, used_since=NOW - 60, max_bytes=50)
    # the 1000-byte fresh temporary file stays and is not counted: 10 bytes kept (≤ 50), the two old ones (12) gone
    assert present(c) == sorted([f"pages/.{H1}.pickle.77.tmp", f"values/{H3}.pickle"])
    assert (result.files, result.bytes, result.kept_bytes) == (2, 12, 10)


# ---- how often: at most once a day, stamped in the store's folder ----

@pytest.mark.parametrize("stamp_age_hours, due", [(None, True), (0.5, False), (23.9, False), (24.1, True),
                                                    (24 * 40, True), (-30, True)])   # -30: a clock put back
def test_a_store_is_pruned_when_its_last_pruning_is_a_day_old(tmp_path, stamp_age_hours, due):
    c = tmp_path / "cache"
    old = entry(c, f"figures/{H1}.svg", 31)
    if stamp_age_hours is not None:
        entry(c, PRUNED_STAMP, stamp_age_hours / 24, size=0)
    result = prune_when_due(c, now=NOW, used_since=NOW - 60)
    assert (result is not None) == due and old.exists() != due
    if due:
        assert result.files == 1 and os.stat(c / PRUNED_STAMP).st_mtime == NOW   # stamped: not again today
        assert prune_when_due(c, now=NOW + 3600, used_since=NOW) is None
    else:
        assert os.stat(c / PRUNED_STAMP).st_mtime == NOW - stamp_age_hours * 3600   # left as it was


def test_the_stamp_is_not_an_entry_and_clean_may_still_delete_the_store(tmp_path):
    from lessonkit.support.store import looks_like_store

    c = tmp_path / "cache"
    entry(c, f"figures/{H2}.svg", 1)
    prune_when_due(c, now=NOW, used_since=NOW - 60)
    assert present(c) == [PRUNED_STAMP, f"figures/{H2}.svg"] and looks_like_store(c)
    assert prune(c, now=NOW + 100 * DAY, used_since=NOW + 100 * DAY).files == 1    # the entry, not the stamp
