"""The group's address holds its password: `sync/group.json` is this device's user's only (#23)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from companion.storage.replica import GroupFile

ADDRESS = "https://anna:s3cret@couch.example.org/xeri-friends"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_groups_address_is_written_readable_by_this_user_only(tmp_path):
    kept = GroupFile(tmp_path / "sync")
    kept.keep(ADDRESS)
    assert mode(kept.path) == 0o600
    kept.keep(ADDRESS.replace("s3cret", "other"))     # replaced whole: the new file is private too
    assert mode(kept.path) == 0o600 and kept.address() == ADDRESS.replace("s3cret", "other")


def test_a_group_file_an_older_version_left_readable_by_all_is_made_private_when_read(tmp_path):
    kept = GroupFile(tmp_path / "sync")
    kept.path.parent.mkdir(parents=True)
    kept.path.write_text(json.dumps({"address": ADDRESS}), encoding="utf-8")
    os.chmod(kept.path, 0o644)
    assert kept.address() == ADDRESS
    assert mode(kept.path) == 0o600
