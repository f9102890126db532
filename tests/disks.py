"""Real disk faults for a command, each in a mount namespace of the command's own (nothing outside it sees the
mounts): a full disk (a 1 MB tmpfs holding a copy of a data folder, the rest filled with zeros), and a data
folder mounted read-only (which even root cannot write, unlike a folder without write permission).

They need `unshare` and the right to mount (root, as CI runs); without them the tests that use them skip,
saying so.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_FULL = r'''
mount -t tmpfs -o size=1m tmpfs "$DISK" || exit 90
mkdir -p "$DISK/data" && cp -a "$SEED/." "$DISK/data/" || exit 91
dd if=/dev/zero of="$DISK/filler" bs=1k 2>/dev/null
XERI_DATA_DIR="$DISK/data" "$PYTHON" -m companion "$@" > "$OUT/stdout" 2> "$OUT/stderr"
echo $? > "$OUT/status"
cd "$DISK" && find . -mindepth 1 ! -name filler > "$OUT/files"
'''

_READ_ONLY = r'''
mount --bind "$SEED" "$SEED" && mount -o remount,bind,ro "$SEED" || exit 90
touch "$SEED/.written" 2>/dev/null && exit 91
XERI_DATA_DIR="$SEED" "$PYTHON" -m companion "$@" > "$OUT/stdout" 2> "$OUT/stderr"
echo $? > "$OUT/status"
cd "$SEED" && find . -mindepth 1 > "$OUT/files"
'''


@functools.cache
def can_fill_a_disk() -> bool:
    """True when this machine lets a test mount a small disk of its own."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--mount", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


needs_a_disk_to_fill = pytest.mark.skipif(not can_fill_a_disk(), reason="a disk of its own to fill or to make "
                                                                         "read-only needs `unshare` and the right to "
                                                                         "mount (root)")


@dataclass
class OnFullDisk:
    """What a command did on a full disk, or on a read-only data folder."""

    status: int
    stdout: str
    stderr: str
    files: set[str]
    """Every file and folder then on the disk, as `data/matches/…` (the filler left out), or in the read-only
    data folder, as `matches/…`."""


def _run(script: str, tmp_path: Path, seed: Path, args: tuple[str, ...], disk: Path | None = None) -> OnFullDisk:
    out = tmp_path / "faulty-disk"
    out.mkdir(exist_ok=True)
    seed.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(LANG="C.UTF-8", PYTHONIOENCODING="utf-8", DISK=str(disk or ""), SEED=str(seed), OUT=str(out),
               PYTHON=sys.executable, PYTHONPATH=str(ROOT))
    done = subprocess.run(["unshare", "--mount", "sh", "-c", script, "sh", *args], cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, f"the faulty disk could not be made (step {done.returncode})"
    return OnFullDisk(int((out / "status").read_text()), (out / "stdout").read_text(encoding="utf-8"),
                      (out / "stderr").read_text(encoding="utf-8"),
                      {line[2:] for line in (out / "files").read_text(encoding="utf-8").splitlines()})


def on_full_disk(tmp_path: Path, seed: Path, *args: str) -> OnFullDisk:
    """`python -m companion *args` with a copy of the data folder `seed` on a full disk, mounted at
    `tmp_path / "disk"` (arguments may name paths under it: `…/disk/out`)."""
    disk = tmp_path / "disk"
    disk.mkdir(exist_ok=True)
    return _run(_FULL, tmp_path, seed, args, disk)


def on_read_only_folder(tmp_path: Path, data: Path, *args: str) -> OnFullDisk:
    """`python -m companion *args` on the data folder `data`, mounted read-only for the command alone."""
    return _run(_READ_ONLY, tmp_path, data, args)
