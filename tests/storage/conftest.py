"""Storage tests: the shared fixtures (a private data folder, `store`, `again`) are in tests/conftest.py;
this file reports the crash test's figures."""

from __future__ import annotations

import pytest


_REPORTS: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        _REPORTS.extend(value for name, value in report.user_properties if name == "crash_report")


def pytest_terminal_summary(terminalreporter) -> None:
    """Say how many kills the crash test survived, with or without `-s`."""
    for line in _REPORTS:
        terminalreporter.write_line(line)
