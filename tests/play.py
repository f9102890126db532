"""Tests reach a store's matches as the app does, through the service step (`companion.service`)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from companion.engine import HandEntry, LiveHand, Match, Side
from companion.formats.presets import preset
from companion.service import Backups, Library, Services, Table

ROOT = Path(__file__).resolve().parent.parent


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


def cli(data: Path, *args: str) -> subprocess.CompletedProcess:
    """The command line on a machine without a locale (it speaks English unless told `--lang`)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(XERI_DATA_DIR=str(data), PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def finished_match(store, a: str, b: str) -> str:
    """A classic one-hand match that `a` won against `b`, stored; its id."""
    rules = preset("classic")
    match = Match.new(rules, [Side(a), Side(b)], rules.goal.__class__(hands=1))
    record = play(store).start(match)
    play(store).record_hand(record.id, HandEntry(xeris=(1, 0), jack_xeris=(0, 0), most_cards=0, counting=(12, 8),
                                           ten_of_diamonds=0, two=1))
    return record.id
