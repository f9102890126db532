"""A hostile zip picked in the browser: the served app refuses it in words, and its memory is where it was.

The server's memory is read from the kernel (`/proc/<pid>/status`) before and after, so the test sees what
a laptop running the app would: an import used to grow the server by 1.3 GB and keep it (2.2 GB after a
second import), because each refused entry stayed alive in the report.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.formats.zips import MiB, many_entries

pytestmark = [pytest.mark.e2e, pytest.mark.slow,
              pytest.mark.skipif(sys.platform != "linux", reason="reads the server's memory from /proc")]


def memory_mb(pid: int) -> dict[str, float]:
    """The process's resident memory now (VmRSS) and at its peak (VmHWM), in MB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return found


def pick(app, path: Path) -> None:
    with app.page.expect_file_chooser() as chooser:
        app.tap("import-files", wait=False)           # the app hears of it once a file is chosen
    chooser.value.set_files(str(path))


def test_hostile_zips_imported_through_the_app_leave_the_servers_memory_where_it_was(app, server, tmp_path):
    zips = [many_entries(tmp_path / "declared.zip", 300),                            # 1.5 MB, 300 x 5 MiB
            many_entries(tmp_path / "read.zip", 300, size=4 * MiB - 4096)]           # each read, then refused
    app.tap("open-history")
    app.wait_id("import-files")
    before = memory_mb(server.proc.pid)
    for _ in range(2):                                                               # a second import kept more
        for path, said in zip(zips, ["300 files could not be read (declared.zip:matches/00000.json: matches/"
                                     "00000.json is larger than 4 MB",
                                     "129 files could not be read (read.zip:matches/00000.json: not valid JSON"]):
            pick(app, path)
            app.see(said, timeout=90_000)   # the old code took a minute here
    after = memory_mb(server.proc.pid)
    grown = after["VmRSS"] - before["VmRSS"]
    assert grown < 60, f"the server grew from {before['VmRSS']:.0f} MB to {after['VmRSS']:.0f} MB and kept it"
    assert after["VmHWM"] < 400, f"the server reached {after['VmHWM']:.0f} MB"
