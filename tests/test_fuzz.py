"""Fuzzing: any match file, and any sequence of taps and typing in the new-match form and the hand entry,
ends in a result or a message in words, within bounded time and memory, never a traceback.

In `make test` each runs a small fixed budget (a few seconds in all); `make fuzz` runs them long
(`XERI_FUZZ_EXAMPLES`, default there 2,000 each).
"""

from __future__ import annotations

import json
import os
import time
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.live import TapKind
from companion.engine import Match
from companion.formats.matchfile import MatchFileError, loads, match_to_dict
from companion.formats.presets import preset_names
from companion.formats.sheet import sheet_json, sheet_text
from companion.i18n import Translator
from companion.service import Services
from companion.storage import Store
from companion.ui.viewmodel import TIE, AppModel, Screen
from companion.ui.viewmodel.setup import GOAL_KINDS, LAYOUTS
from companion.engine.rules import SWITCHES

from tests.engine.strategies import matches

pytestmark = pytest.mark.fuzz

LONG = "XERI_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("XERI_FUZZ_EXAMPLES", "20"))


def fuzz(examples: int):
    """A fixed, derandomised budget in `make test` (the same examples every run, a second or two each);
    random and `XERI_FUZZ_EXAMPLES` long in `make fuzz`."""
    return settings(max_examples=EXAMPLES if LONG else examples, deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
SECONDS = 2.0
"""The most one input may take, whatever it holds (the slowest real ones take milliseconds)."""
MEGABYTES = 64
"""The most memory one input may take at its peak."""


# --- nasty values ---------------------------------------------------------------------------------

def long_number(digits: int) -> str:
    return "9" * digits


nasty_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(-10**30, 10**30),
    st.floats(allow_nan=False), st.sampled_from([0.5, 1.0, -0.0, 1e308]),
    st.text(max_size=12), st.sampled_from(["", " ", "anna", "ANNA", "\ud800", "A\x00B", "x" * 5000, "10D", "2S", "JJ"]),
)
json_values = st.recursive(nasty_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                   st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                           max_leaves=10)


def places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += places(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found += places(child, path + (i,))
    return found


def put(doc: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return doc


@st.composite
def match_file_texts(draw) -> str:
    """The text of a match file: a real one, then changed in a few places, then perhaps mangled as text."""
    match: Match = draw(matches(max_hands=6))
    doc = match_to_dict(match, meta=draw(st.one_of(st.none(), st.fixed_dictionaries({"id": st.text(max_size=40)}))))
    for _ in range(draw(st.integers(0, 3))):
        spots = places(doc)
        doc = put(doc, draw(st.sampled_from(spots)), draw(json_values))
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    way = draw(st.sampled_from(["as is", "bom", "cut", "duplicate key", "deep", "long number", "long name",
                                "bytes"]))
    if way == "bom":
        text = "\ufeff" + text
    elif way == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif way == "duplicate key":
        text = text.replace('"hands": [', '"hands": [], "hands": [', 1)
    elif way == "deep":
        depth = draw(st.integers(500, 50_000))
        text = text[:-1] + ', "meta": ' + "[" * depth + "]" * depth + "}" if text.endswith("}") else text
    elif way == "long number":
        text = text.replace("0", long_number(draw(st.integers(16, 6000))), 1)
    elif way == "long name":
        text = text.replace('"name": "', '"name": "' + "n" * draw(st.integers(30, 200_000)), 1)
    elif way == "bytes":
        text = draw(st.binary(max_size=200)).decode("utf-8", "replace")
    return text


def bounded(work, memory: bool = True) -> Any:
    """Run `work`, asserting it keeps to `SECONDS` (and `MEGABYTES`: memory is traced, which is slow)."""
    if memory:
        tracemalloc.start()
    try:
        started = time.perf_counter()
        result = work()
        assert time.perf_counter() - started < SECONDS
        if memory:
            assert tracemalloc.get_traced_memory()[1] < MEGABYTES * 1024 * 1024
    finally:
        if memory:
            tracemalloc.stop()
    return result


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    """One store for a test's examples: a store per example would spend the budget opening stores."""
    with Store(tmp_path_factory.mktemp("fuzz") / "data") as store:
        yield Services.over(store)


# --- match files ----------------------------------------------------------------------------------

@fuzz(60)
@given(text=match_file_texts())
def test_any_match_file_scores_or_is_refused_in_words(text):
    def read():
        try:
            match = loads(text)
        except MatchFileError as refused:
            return str(refused) + "\n" + Translator("tr").say(refused)     # in words, in any language
        sheet = sheet_text(match)
        json.dumps(sheet_json(match))
        sheet.encode("utf-8")                  # what `score` prints: never a UnicodeEncodeError
        return sheet

    said = bounded(read)
    assert said and len(said) < 200_000


@fuzz(20)
@given(texts=st.lists(match_file_texts(), min_size=1, max_size=4))
def test_any_match_files_imported_are_stored_or_reported(services, texts):
    before = len(services.library.matches())
    report = bounded(lambda: services.backups.import_files([(f"f{i}.json", t.encode("utf-8", "surrogatepass"))
                                                             for i, t in enumerate(texts)]))
    assert report.stopped is None
    assert len(report.imported) + len(report.skipped) + len(report.failed) == len(texts)
    greek = Translator("el")
    assert all(len(str(why)) < 1000 and len(greek.say(why)) < 1000 for _, why in report.failed)
    assert len(services.library.matches()) == before + len(report.imported)


# --- the forms ------------------------------------------------------------------------------------

texts = st.one_of(st.text(max_size=60), st.sampled_from(["", " ", "Anna", "anna ", "x" * 200, "\ud800", "Ά\u0301",
                                                         "²", "٣", "9" * 5000, "-1", "052", "1e3"]))


def setup_actions(app: AppModel):
    f = app.setup.form
    return st.one_of(
        st.tuples(st.just("set_layout"), st.sampled_from(LAYOUTS)),
        st.tuples(st.just("set_name"), st.integers(0, 3), texts),
        st.tuples(st.just("set_team_name"), st.integers(0, 1), texts),
        st.tuples(st.just("set_preset"), st.sampled_from(preset_names())),
        st.tuples(st.just("switch"), st.sampled_from([s.name for s in SWITCHES]), st.booleans()),
        st.tuples(st.just("set_goal_kind"), st.sampled_from(GOAL_KINDS)),
        st.tuples(st.just("step_target"), st.sampled_from([-100, -10, 10, 100])),
        st.tuples(st.just("step_hands"), st.sampled_from([-1, 1])),
        st.tuples(st.just("set_first_dealer"), st.one_of(st.none(), st.integers(0, 3))),
        st.tuples(st.just("start")),
    ) if f is not None else st.nothing()


@fuzz(25)
@given(data=st.data())
def test_any_taps_and_typing_in_the_new_match_form_end_in_a_match_or_a_reason(services, data):
    app = AppModel(services)
    app.setup.open()
    if app.session.question is not None:   # the store is shared: stop the last example's match, as a person agrees
        app.confirm()
    for _ in range(data.draw(st.integers(1, 20))):
        name, *args = data.draw(setup_actions(app))
        if name == "set_first_dealer" and args[0] is not None and args[0] >= app.setup.form.seats:
            continue                             # the form offers only the seats at the table
        bounded(lambda name=name, args=args: getattr(app.setup, name)(*args), memory=False)
        app.setup.missing_text(), app.setup.dealers(), app.setup.switches(), app.setup.goal_line()
        if app.screen is Screen.SCOREBOARD:
            assert app.scoreboard.match is not None
            return
        if name == "start":
            assert app.session.notice is not None and app.session.notice.text


def entry_actions(app: AppModel):
    sides = len(app.scoreboard.match.sides)
    cards = [c.code for c in app.entry.draft.scoring_cards()]
    return st.one_of(
        st.tuples(st.just("set_most"), st.sampled_from(list(range(sides)) + [TIE])),
        st.tuples(st.just("type_cards"), st.integers(0, sides - 1), texts),
        st.tuples(st.just("toggle_counts")),
        st.tuples(st.just("set_counting"), st.integers(0, sides - 1), st.integers(0, 20)),
        st.tuples(st.just("set_ten"), st.integers(0, sides - 1)),
        st.tuples(st.just("set_two"), st.integers(0, sides - 1)),
        st.tuples(st.just("step"), st.sampled_from(list(TapKind)), st.integers(0, sides - 1),
                  st.sampled_from([-1, 1])),
        st.tuples(st.just("set_exact"), st.booleans()),
        st.tuples(st.just("tap_card"), st.sampled_from(cards)),
        st.tuples(st.just("save")),
    )


@fuzz(25)
@given(data=st.data(), layout=st.sampled_from(["two", "three", "partners"]))
def test_any_taps_and_typing_in_the_hand_entry_end_in_a_saved_hand_or_a_reason(services, data, layout):
    app = AppModel(services)
    app.setup.open()
    if app.session.question is not None:         # the store is shared: stop the last example's match
        app.confirm()
    app.setup.set_layout(layout)
    for i in range(app.setup.form.seats):
        app.setup.set_name(i, f"P{i}")
    app.setup.start()
    assert app.screen is Screen.SCOREBOARD and len(app.scoreboard.match.sides) == (3 if layout == "three" else 2)
    app.scoreboard.end_hand()
    for _ in range(data.draw(st.integers(1, 30))):
        name, *args = data.draw(entry_actions(app))
        bounded(lambda name=name, args=args: getattr(app.entry, name)(*args), memory=False)
        if app.screen is Screen.SCOREBOARD:
            assert len(app.scoreboard.match.hands) == 1
            return
        reason = app.entry.save_reason()
        app.entry.problems(), app.entry.exact_cards(), app.entry.exact_counts()
        if name == "save":
            assert reason and app.session.notice.text == reason
