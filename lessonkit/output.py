"""Write the site atomically: build into a temporary folder beside the target, then swap it in."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .errors import UsageError

MARKER = ".lessonkit-output"


def check_out_dir(out: Path, project: Path, protected: list[Path]) -> Path:
    """Refuse output folders whose replacement would destroy something that is not ours."""
    out = out.expanduser().resolve()
    dangerous = [Path("/"), Path.home().resolve(), project.resolve()] + [p.resolve() for p in protected]
    for place in dangerous:
        if out == place or out in place.parents:
            raise UsageError(f"refusing to write the site to {out}: it is, or contains, {place}")
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).exists())):
        raise UsageError(f"refusing to replace {out}: it exists and was not made by this tool (no {MARKER} file); "
                         "choose an empty or new folder with --out")
    return out


def write_site(pages: dict[str, bytes], out: Path) -> None:
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
    try:
        for rel, data in sorted(pages.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        (staging / MARKER).write_text("made by lessonkit; this folder is replaced on every build\n", encoding="utf-8")
        os.chmod(staging, 0o755)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


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
