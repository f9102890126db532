"""Tests reach a store's matches as the app does, through the service step (`companion.service`)."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import LiveHand
from companion.service import Backups, Library, Services, Table


def play(storage) -> Table:
    """The matches in play over `storage`, on its clock."""
    return Services.over(storage).table


def books(storage) -> Library:
    """The library (history, import, export, players, settings) over `storage`."""
    return Services.over(storage).library


def backups(storage) -> Backups:
    """Backups (all history out as one zip, match files and zips in) over `storage`."""
    return Services.over(storage).backups


def keep_live(storage, match_id: str, live: LiveHand):
    """Store these live taps for the match directly (as a restart would find them)."""
    return storage.put(replace(storage.get(match_id), live=live), None)
