"""Write the site atomically: build into a temporary folder beside the target, then swap it in.

A build adds to what the folder holds, it never clobbers it: the handouts and decks `pdf` and `slides` made of a
lesson page (SitePaths.made_from_page) stay while that page is the same; a build of one lesson (`--lesson X`)
into a site of other lessons too writes X's pages and leaves the rest of the site as it was (its index, glossary
and search: a whole build updates them)."""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from ..support.errors import UsageError
from ..support.messages import msg
from ..support.paths import SitePaths

MARKER = ".lessonkit-output"


def check_out_dir(out: Path, project: Path, protected: list[Path]) -> Path:
    """Refuse output folders whose replacement would destroy something that is not ours."""
    out = out.expanduser().resolve()
    sources = [p.resolve() for p in protected]
    dangerous = [Path("/"), Path.home().resolve(), project.resolve()] + sources
    for place in dangerous:
        if out == place or out in place.parents:
            raise UsageError(msg("refusing to write the site to {out}: it is, or contains, {place}", out=out,
                                 place=place))
    for place in sources:  # the site inside the lessons or the theme would be mixed into what it is built from
        if place in out.parents:
            raise UsageError(msg("refusing to write the site to {out}: it is inside {place}", out=out, place=place))
    if _not_ours(out):
        raise UsageError(msg("refusing to replace {out}: it exists and was not made by this tool (no {marker} file); "
                             "choose an empty or new folder with --out", out=out, marker=MARKER))
    return out


def _not_ours(out: Path) -> bool:
    """True for an existing file, or a folder with something in it but no marker: replacing it would lose data."""
    return out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).exists()))


def write_site(pages: dict[str, bytes], out: Path, lesson: str | None = None) -> int:
    """Write every page into a new folder beside `out`, then swap: `out` is the old site or the new one, whole.
    `lesson`: the one lesson this build made (`--lesson`). How many files of the old site it kept."""
    try:
        out = Path(out).resolve()
        written, kept = _kept(pages, out, lesson)
        _write_site(written, kept, out)
        return len(kept)
    except OSError as exc:  # disk full, no permission: the machine's problem, not a bug and not the lesson's
        raise UsageError(msg("cannot write the site to {out}: {reason}; the previous site (if any) is unchanged",
                             out=out, reason=str(exc))) from None


def _kept(pages: dict[str, bytes], out: Path, lesson: str | None) -> tuple[dict[str, bytes], dict[str, Path]]:
    """(the pages to write, the files of the site in `out` to keep, by path): what `pdf` and `slides` made of a page
    this build leaves as it was; in a build of `lesson` alone into a site that has other lessons too, that lesson's
    own files written and every other file of the site kept. (Only a `--lesson` build lists the old site.)"""
    if not out.is_dir() or _not_ours(out):
        return pages, {}
    kept: dict[str, Path] = {}
    slugs = {slug for rel in pages if (slug := SitePaths.lesson_slug(rel))}
    if lesson:
        old = {path.relative_to(out).as_posix(): path for path in out.rglob("*")
               if path.is_file() and path.name != MARKER}
        if {slug for rel in old if (slug := SitePaths.lesson_slug(rel))} - {lesson}:
            def own(rel: str) -> bool:
                return rel.startswith(f"{lesson}/") or rel in SitePaths.made_from_page(lesson)
            pages = {rel: data for rel, data in pages.items() if own(rel)}
            kept = {rel: path for rel, path in old.items() if not own(rel)}
            slugs = {lesson}
    for slug in slugs:
        made = [rel for rel in SitePaths.made_from_page(slug) if (out / rel).is_file()]
        page = out / SitePaths.lesson(slug)
        if made and page.is_file() and pages.get(SitePaths.lesson(slug)) == page.read_bytes():
            kept.update({rel: out / rel for rel in made})
    return pages, {rel: path for rel, path in kept.items() if rel not in pages}


def _write_site(pages: dict[str, bytes], kept: dict[str, Path], out: Path) -> None:
    if _not_ours(out):  # checked by the command line already; checked again for any other caller
        raise UsageError(msg("refusing to replace {out}: it was not made by this tool (no {marker} file)", out=out,
                             marker=MARKER))
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-{os.getpid()}-", dir=out.parent))
    try:
        # the marker first: a build killed from here on leaves a folder the next build can prove is its own
        (staging / MARKER).write_text("made by lessonkit; this folder is replaced on every build\n", encoding="utf-8")
        for rel, data in sorted(pages.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for rel, source in sorted(kept.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        os.chmod(staging, 0o755)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def recover_killed_build(out: Path) -> None:
    """A build killed outright (power cut, kill -9) may leave `.NAME-new-PID-*` (half written) or `.NAME-old-PID`
    (the previous site, if it died between the two renames). Put a lone old site back and remove the rest: only
    folders that carry our marker and whose build process is gone."""
    stale = [p for p in out.parent.glob(f".{out.name}-*")
             if _LEFTOVER.fullmatch(p.name[len(out.name) + 1:]) and p.is_dir() and (p / MARKER).exists()
             and not _running(int(_LEFTOVER.fullmatch(p.name[len(out.name) + 1:]).group(2)))]
    olds = sorted((p for p in stale if p.name.startswith(f".{out.name}-old-")), key=lambda p: p.stat().st_mtime)
    if not out.exists() and olds:
        olds.pop().rename(out)
    for folder in stale:
        if folder.exists():
            shutil.rmtree(folder)


_LEFTOVER = re.compile(r"-(new|old)-(\d+)(-\w+)?")


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return False  # an earlier build in this same process (tests, serve) that failed mid-way
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _swap(staging: Path, out: Path) -> None:
    if not out.exists():
        staging.rename(out)
        return
    old = out.parent / f".{out.name}-old-{os.getpid()}"
    out.rename(old)
    try:
        staging.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old)


def check_export_dir(out: Path, project: Path, protected: list[Path]) -> Path:
    """Where `export` may write its packages: a folder of its own, never the project, the site (output/) or the
    teacher's edition, the lessons, the theme or the installed package — nor inside or around one of them."""
    out = out.expanduser().resolve()
    places = [Path("/"), Path.home().resolve(), project.resolve()] + [p.resolve() for p in protected]
    for place in places:
        if out == place or out in place.parents:
            raise UsageError(msg("refusing to write the packages to {out}: it is, or contains, {place}", out=out,
                                 place=place))
    for place in protected:
        if place.resolve() in out.parents:
            raise UsageError(msg("refusing to write the packages to {out}: it is inside {place}", out=out,
                                 place=place.resolve()))
    if out.exists() and not out.is_dir():
        raise UsageError(msg("cannot write the packages to {out}: it is a file", out=out))
    return out


def write_files(files: dict[str, bytes], out: Path) -> list[Path]:
    """Each file written whole (a temporary file beside it, renamed), the folder's other files left as they are:
    `export scorm` and `export moodle` write into one folder."""
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            target = out / name
            temporary = out / f".{name}.{os.getpid()}.tmp"
            temporary.write_bytes(data)
            os.replace(temporary, target)
            written.append(target)
    except OSError as exc:
        raise UsageError(msg("cannot write to {out}: {reason}", out=out, reason=str(exc))) from None
    return written
