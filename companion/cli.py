"""The command line: with no command it runs the app; `score FILE` prints a match file's sheet;
`export` and `import` back up and restore the history."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .engine.match import standing
from .engine.rules import RulesError
from .formats.matchfile import MAX_FILE_CHARS, MatchFileError, loads
from .formats.presets import preset, preset_names
from .formats.sheet import sheet_json, sheet_text
from .i18n import LANGUAGES, Translator, first_spoken, system_language


def read_match_text(path: str) -> str:
    """The text of a match file, read no further than the longest match file (a 1 GB file is not loaded)."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_CHARS + 1)
    if len(data) > MAX_FILE_CHARS:
        raise MatchFileError(f"the file is larger than {MAX_FILE_CHARS // (1024 * 1024)} MB; no match file is that big")
    return data.decode("utf-8")


def score_command(path: str, as_json: bool, rules: str | None, lang: str = "en") -> int:
    """Print the score sheet of a match file; exit status 2 with a message on stderr if it cannot be read."""
    try:
        if rules is not None:
            preset(rules)
        match = loads(read_match_text(path), rules_override=rules)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{path}: cannot read the file ({exc.strerror if isinstance(exc, OSError) else exc})", file=sys.stderr)
        return 2
    except (MatchFileError, RulesError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    st = standing(match, strict=rules is None)
    if as_json:
        print(json.dumps(sheet_json(match, st), ensure_ascii=False))
    else:
        print(sheet_text(match, Translator(lang), st=st))
    return 0


def store_command(command: str, paths: list[str], out: str | None, lang: str = "en") -> int:
    """`export` (all history as one zip) and `import` (match files or such zips), on the app's data folder."""
    from .formats.archive import export_archive, import_paths
    from .service import DiskFault, Services, StorageError
    from .storage import Store

    try:
        store = Store()
    except StorageError as exc:  # held by another app, or a folder the disk refuses
        print(exc, file=sys.stderr)
        return 2
    with store:
        library = Services.over(store).library
        if command == "export":
            try:
                path = export_archive(library, Path(out) if out else store.folder / "exports", tr=Translator(lang))
            except OSError as exc:
                print(DiskFault("write the export", Path(out) if out else store.folder, exc), file=sys.stderr)
                return 2
            except StorageError as exc:
                print(f"could not export: {exc}", file=sys.stderr)
                return 2
            print(f"exported {len(library.matches())} matches to {path}")
            return 0
        report = import_paths(library, [Path(p) for p in paths])
        for name in report.imported:
            if name in report.differed:
                print(f"imported {name} as a new match: a stored match has its id but other hands")
            else:
                print(f"imported {name}")
        for name in report.skipped:
            print(f"already stored, skipped {name}")
        for name, why in report.failed:
            print(f"could not import {name}: {why}", file=sys.stderr)
        if report.stopped is not None:
            if not isinstance(report.stopped, StorageError):
                raise report.stopped
            print(f"the import stopped: {report.stopped}", file=sys.stderr)
        return 2 if report.failed or report.stopped is not None else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m companion",
        description="Xeri Companion: keep score of Xeri at a real table. With no command, start the app.")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the web app on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8550, help="port to serve the web app on (default 8550)")
    parser.add_argument("--no-browser", action="store_true", help="serve the app without opening a browser")
    parser.add_argument("--desktop", action="store_true", help="open Flet's desktop window (its client downloads once)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    score = sub.add_parser("score", help="print the score sheet of a match file",
                           description="Score a match file (see docs/match-file.md) and print its sheet.")
    score.add_argument("file", help="the match file (UTF-8 JSON)")
    score.add_argument("--json", action="store_true", help="print one JSON object instead of the sheet")
    score.add_argument("--rules", choices=preset_names(), help="rescore the same hands under these rules")
    spoken = first_spoken([system_language() or ""])
    languages = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    score.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                       help=f"the sheet's language: {languages}; default {spoken}, from the system's locale")
    export = sub.add_parser("export", help="write all history (match files and a CSV) into one zip",
                            description="Back up every stored match into one zip in the data folder's exports/.")
    export.add_argument("--out", help="the folder to write the zip into")
    export.add_argument("--lang", choices=list(LANGUAGES), default=spoken, metavar="LANG",
                        help=f"the language of the CSV's header: {languages}; default {spoken}")
    imp = sub.add_parser("import", help="import match files or a history zip, skipping matches already stored")
    imp.add_argument("files", nargs="+", help="match files (.json) or zips made by export")
    return parser


def main(argv: list[str] | None = None) -> int:
    # A name or file name that is not text in the terminal's encoding is shown escaped, never a traceback.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    if args.command == "score":
        return score_command(args.file, args.json, args.rules, args.lang)
    if args.command in ("export", "import"):
        return store_command(args.command, getattr(args, "files", []), getattr(args, "out", None),
                             getattr(args, "lang", "en"))
    from .ui.app import serve  # flet loads only when the app runs

    return serve(host=args.host, port=args.port, open_browser=not args.no_browser, desktop=args.desktop)


if __name__ == "__main__":
    sys.exit(main())
