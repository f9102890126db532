"""The forms take any text a person can type or paste, and answer in words: names at most 40 characters,
numbers only as a deck can hold them."""

from companion.engine.limits import MAX_NAME
from companion.formats.matchfile import loads
from companion.ui.viewmodel import Screen

from .vm import start


def test_a_name_longer_than_40_characters_is_said_in_the_form_and_the_match_does_not_start(app):
    app.setup.open()
    app.setup.set_name(0, "A" * (MAX_NAME + 1))
    app.setup.set_name(1, "Ben")
    assert app.setup.missing_text() == "Player 1: a name has at most 40 characters."   # which field, in words
    assert app.setup.field_problem("player", 0) == "At most 40 characters" and not app.setup.field_problem("player", 1)
    app.setup.start()
    assert app.screen is Screen.SETUP and app.session.notice.text == "Player 1: a name has at most 40 characters."
    app.setup.set_name(0, "A" * MAX_NAME)
    app.setup.start()
    assert app.screen is Screen.SCOREBOARD


def test_a_pasted_book_of_a_name_is_kept_short_and_refused(app):
    app.setup.open()
    app.setup.set_name(0, "x" * 10_000_000)
    app.setup.set_name(1, "Ben")
    assert len(app.setup.form.names[0]) <= 4 * MAX_NAME
    assert app.setup.missing_text() == "Player 1: a name has at most 40 characters."


def test_a_team_name_too_long_is_said_with_its_team(app):
    app.setup.open()
    app.setup.set_layout("partners")
    for i, name in enumerate(("Nikos", "Sofia", "Eleni", "Petros")):
        app.setup.set_name(i, name)
    app.setup.set_team_name(1, "E" * (MAX_NAME + 1))
    assert app.setup.missing_text() == "Team 2: a name has at most 40 characters."
    assert app.setup.field_problem("team", 1) and not app.setup.field_problem("team", 0)


def test_an_unnamed_team_is_its_two_players_never_stored_cut_and_shortened_for_display_only(app, services):
    # It was "Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλ…" everywhere, the "…" stored as data and the second player
    # never named.
    long = "Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλος"[:MAX_NAME]
    names = [long, "Νίκος", "Eleni", "P" * 40]
    start(app, names=names, layout="partners")
    sides = app.scoreboard.match.sides
    assert [s.title for s in sides] == ["", ""]
    assert [s.name for s in sides] == [f"{long} & Νίκος", f"Eleni & {'P' * 40}"]     # whole, whatever its length
    # On screen, both players always appear: by first names, else each cut to half the room.
    assert app.scoreboard.side_names == ["Χαραλάμπης-Κωνσταντίνος & Νίκος", "Eleni & " + "P" * 17 + "…"]
    exported = services.library.export_match(app.scoreboard.record.id)
    assert "…" not in exported
    assert loads(exported).sides == sides
    assert services.library.matches()[0].sides == tuple(s.name for s in sides)


def test_two_teams_of_one_name_are_refused(app):
    app.setup.open()
    app.setup.set_layout("partners")
    for i, n in enumerate(["Nikos", "Sofia", "Eleni", "Petros"]):
        app.setup.set_name(i, n)
    app.setup.set_team_name(0, "Reds")
    app.setup.set_team_name(1, "reds ")
    assert app.setup.missing_text() == "Every player needs a different name."


def test_a_count_typed_in_other_digits_or_pasted_long_is_not_taken_as_a_number(app):
    start(app)
    app.scoreboard.end_hand()
    for text in ("²", "٣٠", "3" * 5000, "-3", "1e3", "30.0"):
        app.entry.type_cards(0, text)
        shown = text[:12]                       # what the field keeps of a pasted book
        assert app.entry.save_reason() == (f"Anna's captured cards: “{shown}” is not a whole number. "
                                           "Type a number from 0 to 52."), text
    app.entry.type_cards(0, "30")
    assert app.entry.draft.cards.values == [30, 22]


def test_a_name_with_control_invisible_or_broken_text_is_said_in_the_form(app):
    # Found by the fuzz test: a lone surrogate reached the players' file, which could not be written. A
    # right-to-left override (U+202E) would turn the name around on every screen, a zero-width space
    # (U+200B) make two players that look alike.
    app.setup.open()
    app.setup.set_name(1, "Ben")
    for name in ("\ud800", "A\x00", "Ann\u202ea", "\u200bBen", "An\u00adna", "\ufeffAnna"):
        app.setup.set_name(0, name)
        app.setup.start()
        assert app.screen is Screen.SETUP, repr(name)
        assert app.session.notice.text == ("A name is plain text: it cannot hold line breaks, control characters "
                                           "or invisible characters.")


def test_a_line_break_in_a_typed_name_is_a_space_and_emoji_sequences_are_names(app):
    app.setup.open()
    app.setup.set_name(0, "Anna\nMaria")
    app.setup.set_name(1, "👩\u200d👩\u200d👧 Ben")
    app.setup.start()
    assert app.screen is Screen.SCOREBOARD
    assert [s.name for s in app.scoreboard.match.sides] == ["Anna Maria", "👩\u200d👩\u200d👧 Ben"]
