"""What a session may do: a watching phone sees everything and changes nothing; the server decides, the
view model refuses in words whatever a page sends."""

from __future__ import annotations

import inspect
import random

import pytest

from companion.ui.viewmodel import Access, AppModel, Screen, Session, TableInfo
from companion.ui.viewmodel.scoreboard import ScoreboardModel
from companion.ui.viewmodel.session import ViewModel, intent
from companion.engine.live import TapKind

from .vm import enter, start

INFO = TableInfo(url="http://192.0.2.2:8550/", code="K7P2QX", join_url="http://192.0.2.2:8550/?code=K7P2QX",
                 qr_svg="<svg/>", qr_png="iVBOR")


def as_(services, access: Access) -> AppModel:
    return AppModel(services, session=Session(services, access=access, table=INFO))


def models(app: AppModel) -> dict[str, ViewModel]:
    """The app and each of its screens' view models, by name: everything a page can send an intent to."""
    return {"app": app, **{name: m for name, m in vars(app).items() if isinstance(m, ViewModel)}}


def intents(model: ViewModel, writes: bool) -> list[str]:
    """The intents of a view model marked as writing (private ones too), or those not marked, but for the
    private ones: the app's own callbacks after a marked intent (`_joined` after `join`), never a page's."""
    return sorted(name for name, member in inspect.getmembers(type(model), callable)
                  if hasattr(member, "writes") and member.writes is writes and (writes or not name.startswith("_")))


def parameters(member, required: bool = False) -> list[inspect.Parameter]:
    """The arguments an intent takes one by one (`required`: those without a default)."""
    return [p for p in inspect.signature(member).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            and not (required and p.default is not inspect.Parameter.empty)]


def arguments(member, rng: random.Random, match_id: str) -> list:
    """Values of the kinds a page sends (a seat, a side, a count, a name, a card, a switch, an id), some
    of them wrong on purpose: a page may send anything."""
    pool = [None, 0, 1, 2, -1, True, False, "", "el", "dark", "Zoe", "12", "AS", "TD", "hands", "points",
            "four_teams", "three", match_id, "nobody", TapKind.XERI, TapKind.JACK_XERI]
    return [rng.choice(pool) for _ in parameters(member)]


def wander(watcher: AppModel, rng: random.Random, match_id: str, steps: int) -> list[str]:
    """A watching phone does `steps` intents chosen at random among those not marked as writing, with
    arguments chosen at random (one that makes an intent fail is a page's mistake, not the question here);
    returns what it did, to say in a failure."""
    done = []
    every = [(screen, model, name) for screen, model in models(watcher).items()
             for name in intents(model, writes=False) if name != "reconnected"]  # the server's word, not a page's
    for _ in range(steps):
        screen, model, name = rng.choice(every)
        member = getattr(model, name)
        args = arguments(member, rng, match_id)
        done.append(f"{screen}.{name}{tuple(args)}")
        try:
            member(*args)
        except Exception:  # a wrong argument may fail an intent; what matters is the store
            pass
    return done


def stored(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_intent_not_marked_as_writing_stores_nothing_for_a_watching_phone(services, store):
    # The marks decide what a watching phone is refused, so a writing intent left unmarked would let it
    # write: a watching phone wanders through every unmarked intent, and the data folder must not change.
    owner = AppModel(services)
    start(owner)
    enter(owner)
    match_id = owner.scoreboard.record.id
    before = stored(store.folder)
    for seed in range(5):
        watcher = as_(services, Access.WATCHER)
        done = wander(watcher, random.Random(seed), match_id, steps=300)
        assert stored(store.folder) == before, f"seed {seed}: stored something after {done[-20:]}"


def test_the_wandering_phone_finds_a_writing_intent_left_unmarked(services, store, monkeypatch):
    # The check above, shown to catch one: the scoreboard's Abandon with its mark taken off.
    owner = AppModel(services)
    start(owner)
    enter(owner)
    match_id = owner.scoreboard.record.id
    monkeypatch.setattr(ScoreboardModel, "abandon", intent(ScoreboardModel.abandon.__wrapped__))
    before = stored(store.folder)
    for seed in range(5):   # as many wanders as the check above: one of them reaches Abandon, and it is stored
        wander(as_(services, Access.WATCHER), random.Random(seed), match_id, steps=300)
    assert stored(store.folder) != before


def test_every_intent_marked_as_writing_is_refused_to_a_watching_phone_in_words_and_stores_nothing(services, store):
    # Whatever a page sends: each writing intent, with whatever arguments, on a phone that may only watch.
    owner = AppModel(services)
    start(owner)
    enter(owner)
    watcher = as_(services, Access.WATCHER)
    watcher.scoreboard.open()
    before = stored(store.folder)
    marked = [(screen, model, name) for screen, model in models(watcher).items()
              for name in intents(model, writes=True)]
    assert len(marked) >= 20, marked                          # every screen's writes, not an empty list
    for screen, model, name in marked:
        watcher.session.notice = None
        member = getattr(model, name)
        member(*[None] * len(parameters(member, required=True)))
        said = watcher.session.notice
        assert said is not None and said.text.startswith("This phone can only watch"), f"{screen}.{name}"
        assert stored(store.folder) == before, f"{screen}.{name} stored something for a watching phone"


def test_a_watching_phone_is_told_it_can_only_watch_and_nothing_is_stored(services):
    owner = AppModel(services)
    start(owner)
    enter(owner)
    watcher = as_(services, Access.WATCHER)
    assert not watcher.session.can_write and not watcher.session.is_owner
    watcher.scoreboard.open()                                 # looking is fine
    assert watcher.screen is Screen.SCOREBOARD
    before = services.table.get(owner.scoreboard.record.id)
    for act in (lambda: watcher.scoreboard.tap(0, TapKind.XERI), watcher.scoreboard.end_hand,
                watcher.scoreboard.ask_undo, watcher.scoreboard.abandon, watcher.setup.open,
                lambda: watcher.history.import_files([("x.json", b"{}")]), watcher.history.export_all):
        act()
        assert watcher.session.notice.text.startswith("This phone can only watch."), act
        assert watcher.session.question is None
    assert watcher.screen is Screen.SCOREBOARD
    assert services.table.get(owner.scoreboard.record.id) == before


@pytest.mark.parametrize("access", [Access.WATCHER, Access.PLAYER])
def test_settings_are_each_phones_own_and_only_the_laptops_are_stored(services, access):
    guest = as_(services, access)
    guest.settings.set_language("el")
    guest.settings.set_theme("dark")
    guest.settings.set_keep_awake(False)
    assert (guest.session.lang, guest.session.theme, guest.session.keep_awake) == ("el", "dark", False)
    assert guest.session.notice is None
    stored = services.library.settings()
    assert (stored["language"], stored["theme"], stored["keep_awake"], stored["language_chosen"]) == \
        ("en", "system", True, False)
    owner = as_(services, Access.OWNER)
    owner.settings.set_language("tr")
    assert services.library.settings()["language"] == "tr" and services.library.settings()["language_chosen"]


def test_each_phone_speaks_its_browsers_language_until_the_laptop_chooses_one(services):
    def lang(access, wanted):
        return Session(services, access=access, wanted=wanted).lang

    assert lang(Access.OWNER, ("ko", "en")) == "ko"
    assert lang(Access.PLAYER, ("fr", "tr")) == "tr"      # the first language the app speaks
    assert lang(Access.PLAYER, ("fr", "de")) == "en"      # none: the stored setting
    AppModel(services).settings.set_language("el")
    assert lang(Access.OWNER, ("ko",)) == "el"           # chosen on the laptop: kept there
    assert lang(Access.WATCHER, ("ko",)) == "ko"         # every other phone still reads its own
    assert lang(Access.WATCHER, ()) == "el"


def test_a_watching_phone_cannot_delete_a_past_match_even_through_a_question_it_was_asked(services):
    owner = AppModel(services)
    start(owner, goal={"goal_kind": "hands", "hands": 1})
    enter(owner)
    match_id = owner.scoreboard.record.id
    watcher = as_(services, Access.WATCHER)
    watcher.record.open(match_id)
    watcher.record.ask_delete()
    assert watcher.session.question is None
    watcher.record.delete()
    assert services.library.get(match_id).id == match_id


@pytest.mark.parametrize("access", [Access.OWNER, Access.PLAYER])
def test_the_owner_and_a_phone_with_the_code_keep_score_and_see_how_others_join(services, access):
    app = as_(services, access)
    start(app)
    app.scoreboard.tap(0, TapKind.XERI)
    assert app.scoreboard.seat_count(0, TapKind.XERI) == 1
    assert app.session.table_info == INFO
    assert app.session.is_owner is (access is Access.OWNER)


def test_a_watching_phone_is_never_shown_the_code(services):
    assert as_(services, Access.WATCHER).session.table_info is None


def test_a_tab_that_comes_back_with_the_code_may_write_from_then_on(services):
    app = as_(services, Access.WATCHER)
    app.setup.open()
    assert app.screen is Screen.HOME
    app.session.access = Access.PLAYER                   # the page sets it when the tab reconnects with the cookie
    app.setup.open()
    assert app.screen is Screen.SETUP
