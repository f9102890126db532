"""The service's sync tests: a shared database in memory and the devices of its group."""

from __future__ import annotations

import pytest

from tests.service.devices import Device
from tests.service.shared_db import SharedDatabase


@pytest.fixture
def shared():
    return SharedDatabase()


@pytest.fixture
def device(tmp_path, shared):
    """Makes a device of the group by name (its folder under tmp_path); closes them all afterwards."""
    made: list[Device] = []

    def make(name: str) -> Device:
        made.append(Device(tmp_path / name, shared))
        return made[-1]

    yield make
    for d in made:
        d.close()
