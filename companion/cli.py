"""The command line: with no command it runs the app; `score FILE` prints a match file's sheet;
`export` and `import` back up and restore the history; `sync` syncs once; `ratings` prints the leaderboard."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from . import logs
from .engine.match import standing
from .engine.rules import RulesError
from .formats.matchfile import MAX_FILE_CHARS, FileSays, MatchFileError, loads, size
from .formats.presets import preset, preset_names
from .formats.sheet import sheet_json, sheet_text
from .i18n import LANGUAGES, Translator, first_spoken, system_language


def read_match_text(path: str) -> str:
    """The text of a match file, read no further than the longest match file (a 1 GB file is not loaded)."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_CHARS + 1)
    if len(data) > MAX_FILE_CHARS:
        raise MatchFileError(FileSays.TOO_BIG, size=size(MAX_FILE_CHARS))
    return data.decode("utf-8")


def score_command(path: str, as_json: bool, rules: str | None, lang: str = "en") -> int:
    """Print the score sheet of a match file; exit status 2 with a message on stderr if it cannot be read.
    The sheet and the message are in `lang`."""
    tr = Translator(lang)
    try:
        if rules is not None:
            preset(rules)
        match = loads(read_match_text(path), rules_override=rules)
    except (OSError, UnicodeDecodeError) as exc:
        # The system's own words for the fault (`No such file or directory`) stay inside the sentence.
        detail = exc.strerror if isinstance(exc, OSError) else str(exc)
        print(tr("cli.error.unreadable", path=path, detail=detail), file=sys.stderr)
        return 2
    except (MatchFileError, RulesError) as exc:
        print(tr("cli.error.file", path=path, problem=tr.say(exc)), file=sys.stderr)
        return 2
    st = standing(match, strict=rules is None)
    if as_json:
        print(json.dumps(sheet_json(match, st), ensure_ascii=False))
    else:
        print(sheet_text(match, tr, st=st))
    return 0


def store_command(command: str, paths: list[str], out: str | None, lang: str = "en") -> int:
    """`export` (all history as one zip) and `import` (match files or such zips), on the app's data folder.

    What it says is in `lang`; a storage fault is told in the storage's own (English) words.
    """
    from . import bootstrap
    from .service import DiskFault, StorageError

    tr = Translator(lang)
    try:
        # An export only reads: it needs neither the folder's lock (the app may be running) nor to write there.
        parts = bootstrap.build(bootstrap.open_folder(read_only=command == "export"))
    except StorageError as exc:  # held by another app, or a folder the disk refuses
        print(exc, file=sys.stderr)
        return 2
    with parts:
        library, backups = parts.services.library, parts.services.backups
        if command == "export":
            folder = Path(out) if out else (library.folder or Path.cwd()) / "exports"
            try:
                path = backups.export(folder, tr=tr)
            except OSError as exc:
                print(DiskFault("write the export", folder, exc), file=sys.stderr)
                return 2
            except StorageError as exc:
                print(tr("cli.export.failed", reason=str(exc)), file=sys.stderr)
                return 2
            print(tr.n("cli.export.done", len(library.matches()), path=str(path)))
            return 0
        report = backups.import_paths([Path(p) for p in paths])
        for name in report.imported:
            if name in report.differed:
                print(tr("cli.import.differed", name=name))
            else:
                print(tr("cli.import.done", name=name))
        for name in report.skipped:
            print(tr("cli.import.skipped", name=name))
        for name, why in report.failed:
            print(tr("cli.import.failed", name=name, reason=tr.say(why)), file=sys.stderr)
        if report.stopped is not None:
            if not isinstance(report.stopped, StorageError):
                raise report.stopped
            print(tr("cli.import.stopped", reason=str(report.stopped)), file=sys.stderr)
        return 2 if report.failed or report.stopped is not None else 0


PIPE_CLOSED = 141
"""The exit status when whoever read the output went away (`… | head`): what a shell shows for `cat` there
(128 + SIGPIPE)."""


class _Unwritten(Exception):
    """Standard output refused what a command printed (not an `OSError`, so no command mistakes it for its own)."""

    def __init__(self, error: OSError):
        super().__init__(error)
        self.error = error


class _Guarded:
    """Standard output, with what the system refuses raised as `_Unwritten`."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise _Unwritten(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise _Unwritten(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def finish_output(command: Callable[[], int], lang: str) -> int:
    """Run a command that prints, and see its output written: a reader that went away (`… | head`) ends it
    quietly, as it ends `cat` (`PIPE_CLOSED`); output the system refuses otherwise (`> /dev/full`) is said in
    one sentence on standard error, exit status 2. Either way nothing more is written to standard output."""
    real = sys.stdout
    sys.stdout = _Guarded(real)
    try:
        status = command()
        sys.stdout.flush()
        return status
    except _Unwritten as exc:
        _drop_output(real)
        if exc.error.errno == errno.EPIPE:
            return PIPE_CLOSED
        tr = Translator(lang)
        said = (tr("cli.error.output_full") if exc.error.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1))
                else tr("cli.error.output", detail=exc.error.strerror or type(exc.error).__name__))
        with contextlib.suppress(OSError):  # standard error refused too: nothing is left to say it on
            print(said, file=sys.stderr)
        return 2
    finally:
        sys.stdout = real


def _drop_output(stream: TextIO) -> None:
    """Send what is still buffered for `stream` nowhere: Python writes it out at exit, and would fail again
    there with a traceback of its own."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file (a test's capture): nothing is written at exit
    sink = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(sink, fd)
    finally:
        os.close(sink)


def sync_command(server: str | None, forget: bool, lang: str = "en") -> int:
    """`sync`: one round with the device's group (joining it first with `--server`), or `--forget` it.

    Says what moved, in `lang`; every failure ends with exit status 2 and a sentence.
    """
    import asyncio

    from . import bootstrap
    from .engine.messages import SaidError
    from .service import StorageError
    from .sync.couch import CouchClient
    from .sync.remote import CouchRemote

    tr = Translator(lang)
    try:
        parts = bootstrap.build(bootstrap.open_folder())
    except StorageError as exc:  # held by another app, or a folder the disk refuses
        print(exc, file=sys.stderr)
        return 2
    with parts:
        group, sync = parts.services.group, parts.services.sync
        assert group is not None and sync is not None
        if forget:
            group.leave()
            print(tr("cli.sync.forgot"))
            return 0
        try:
            address = group.connector.parse(server) if server is not None else group.address()
        except SaidError as exc:
            print(tr("cli.sync.failed", reason=tr.say(exc)), file=sys.stderr)
            return 2
        if address is None:
            print(tr("cli.sync.no_group", option="--server", form="https://user:password@host/database"),
                  file=sys.stderr)
            return 2

        async def once():
            if server is not None:
                # Joined (the group before forgotten) only once the new one answers as a round needs it, and
                # before the round: what this device knew of another group must not be taken for this one's.
                found = await group.connector.check(address)
                if found.problem is not None:
                    raise found.problem
                group.join(server)
            async with CouchClient(address) as client:
                return await sync.once(CouchRemote(client))

        try:
            report = asyncio.run(once())
        except SaidError as exc:
            print(tr("cli.sync.failed", reason=tr.say(exc)), file=sys.stderr)
            return 2
        except StorageError as exc:
            print(tr("cli.sync.failed", reason=str(exc)), file=sys.stderr)
            return 2
        print(tr("cli.sync.done", server=group.connector.shown(address), sent=report.sent,
                 received=report.received, changed=len(report.stored)))
        refused = sync.refused()
        if refused:
            match, why = refused[0]
            print(tr.n("cli.sync.refused", len(refused), match=match[:8], reason=why), file=sys.stderr)
        if report.started_over is not None:
            print(tr("cli.sync.started_over", what=tr.say(report.started_over)))
        if report.conflicts:
            print(tr.n("cli.sync.conflicts", report.conflicts))
        if not report.in_step and not report.group_changed:
            print(tr("cli.sync.behind", command="python -m companion sync"))
        for problem in report.unreadable[:5]:
            print(tr("cli.sync.unreadable", reason=tr.say(problem)), file=sys.stderr)
        return 0


def season_of(said: str, today: date):
    """The season `--season` names: month, quarter, year, all, or FROM:TO (ISO dates, TO included); ValueError
    otherwise."""
    from .history.ratings import Season

    named = {"month": Season.month, "quarter": Season.quarter, "year": Season.year}
    if said in named:
        return named[said](today)
    if said == "all":
        return Season()
    start, sep, end = said.partition(":")
    if not sep:
        raise ValueError(said)
    return Season(date.fromisoformat(start) if start else None,
                  date.fromisoformat(end) + timedelta(days=1) if end else None)


def ratings_command(season: str, rules: str | None, table: str | None, as_json: bool, lang: str = "en") -> int:
    """`ratings`: the group's leaderboard for a season (docs/ratings.md), from this device's history."""
    from . import bootstrap
    from .history.ratings import PROVISIONAL_MATCHES, Filter, leaderboard
    from .history.scored import player_names
    from .service import StorageError

    tr = Translator(lang)
    now = datetime.now(UTC)
    try:
        chosen = season_of(season, now.date())
    except ValueError:
        print(tr("cli.ratings.bad_season", option="--season", value=season, choices="month, quarter, year, all",
                 example="2026-01-01:2026-03-31"), file=sys.stderr)
        return 2
    try:
        parts = bootstrap.build(bootstrap.open_folder(read_only=True))   # only reads, beside a running app
    except StorageError as exc:
        print(exc, file=sys.stderr)
        return 2
    with parts:
        history = parts.history.scored(parts.services.library)
    board = leaderboard(history, now, Filter(chosen, rules, table))
    names = player_names(history)
    if as_json:
        print(json.dumps({"season": {"from": chosen.start.isoformat() if chosen.start else None,
                                     "until": chosen.end.isoformat() if chosen.end else None},
                          "rules": rules, "table": table, "matches": board.matches,
                          "players": [{"name": names.get(p.player_id, p.player_id), "rating": round(p.rating, 1),
                                       "mu": p.mu, "sigma": p.sigma, "matches": p.matches, "wins": p.wins,
                                       "provisional": p.provisional, "week_change": p.week_change,
                                       "form": list(p.form)} for p in board.ranked(names)]}, ensure_ascii=False))
        return 0
    print(tr.n("cli.ratings.title", board.matches))
    if not board.players:
        print(tr("cli.ratings.none"))
        return 0
    for place, p in enumerate(board.ranked(names), start=1):
        line = tr("cli.ratings.line", place=place, name=names.get(p.player_id, p.player_id),
                  rating=tr.decimal(p.rating, 0), matches=tr.n("cli.ratings.matches", p.matches),
                  wins=tr.n("cli.ratings.wins", p.wins))
        if p.week_change is not None and round(p.week_change):
            line += tr("cli.ratings.week", change=f"{round(p.week_change):+d}")
        if p.provisional:
            line += tr("cli.ratings.provisional")
        print(line)
    if any(p.provisional for p in board.players):
        print(tr.n("cli.ratings.provisional_note", PROVISIONAL_MATCHES))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m companion",
        description="Xeri Companion: keep score of Xeri at a real table. With no command, start the app.")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the web app on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8550, help="port to serve the web app on (default 8550)")
    parser.add_argument("--no-browser", action="store_true", help="serve the app without opening a browser")
    parser.add_argument("--desktop", action="store_true", help="open Flet's desktop window (its client downloads once)")
    spoken = first_spoken([system_language() or ""])
    languages = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    parser.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                        help=f"the language of what the served app says on this console: {languages}; default "
                             f"{spoken}, from the system's locale (each phone shows the app in its own)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    score = sub.add_parser("score", help="print the score sheet of a match file",
                           description="Score a match file (see docs/match-file.md) and print its sheet.")
    score.add_argument("file", help="the match file (UTF-8 JSON)")
    score.add_argument("--json", action="store_true", help="print one JSON object instead of the sheet")
    score.add_argument("--rules", choices=preset_names(), help="rescore the same hands under these rules")
    score.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                       help=f"the language of the sheet and of its messages: {languages}; default {spoken}, "
                            "from the system's locale")
    export = sub.add_parser("export", help="write all history (match files and a CSV) into one zip",
                            description="Back up every stored match into one zip in the data folder's exports/.")
    export.add_argument("--out", help="the folder to write the zip into")
    export.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                        help=f"the language of the CSV's header and of what it says: {languages}; default {spoken}")
    imp = sub.add_parser("import", help="import match files or a history zip, skipping matches already stored")
    imp.add_argument("files", nargs="+", help="match files (.json) or zips made by export")
    imp.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                     help=f"the language of what it says: {languages}; default {spoken}")
    sync = sub.add_parser("sync", help="sync this device's matches with its group's CouchDB database once",
                          description="Send this device's new matches, hands and taps to its group's database and "
                                      "bring back what the group's other devices saved (docs/sync.md).")
    sync.add_argument("--server", metavar="URL",
                      help="the group's database, https://user:password@host/database (kept for the next time)")
    sync.add_argument("--forget", action="store_true",
                      help="leave the group: forget its address and password (the matches stay)")
    sync.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                      help=f"the language of what it says: {languages}; default {spoken}")
    ratings = sub.add_parser("ratings", help="print the group's skill ratings for a season",
                             description="Rank the players by skill (openskill's conservative μ − 3σ) over the "
                                         "matches finished in a season (docs/ratings.md).")
    ratings.add_argument("--season", default="all", metavar="SEASON",
                         help="month, quarter, year (this one), all (the default), or FROM:TO as ISO dates")
    ratings.add_argument("--rules", choices=preset_names(), help="only matches played under these rules")
    ratings.add_argument("--table", choices=("2", "3", "4", "2x2"), help="only matches of this table size")
    ratings.add_argument("--json", action="store_true", help="print one JSON object")
    ratings.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                         help=f"the language of what it says: {languages}; default {spoken}")
    return parser


def main(argv: list[str] | None = None) -> int:
    # A name or file name that is not text in the terminal's encoding is shown escaped, never a traceback.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    if args.command is not None:
        logs.configure(command=True)   # what the storage notes meanwhile is for XERI_DEBUG=1
    if args.command == "score":
        return finish_output(lambda: score_command(args.file, args.json, args.rules, args.lang), args.lang)
    if args.command == "ratings":
        return finish_output(lambda: ratings_command(args.season, args.rules, args.table, args.json, args.lang),
                             args.lang)
    if args.command == "sync":
        return finish_output(lambda: sync_command(args.server, args.forget, args.lang), args.lang)
    if args.command in ("export", "import"):
        return finish_output(lambda: store_command(args.command, getattr(args, "files", []),
                                                   getattr(args, "out", None), getattr(args, "lang", "en")),
                             getattr(args, "lang", "en"))
    from .ui.served import serve  # flet loads only when the app runs

    return serve(host=args.host, port=args.port, open_browser=not args.no_browser, desktop=args.desktop,
                 lang=args.lang)


if __name__ == "__main__":
    sys.exit(main())
