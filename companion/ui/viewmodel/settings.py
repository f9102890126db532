"""Settings (language, theme, keeping the screen awake) and the rules page."""

from __future__ import annotations

from ...engine.rules import RuleSet
from ...formats.presets import preset, preset_names
from ...i18n import LANGUAGES
from ...i18n.explain import rules_text
from .session import THEMES, Screen, Session, ViewModel, intent

CURRENT = "current"
"""The rules page's choice for the rule set of the match in play."""


class SettingsModel(ViewModel):
    """The settings screen."""

    languages = LANGUAGES
    """Each language by code, named in itself."""
    themes = THEMES

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app

    @property
    def wants_wakelock(self) -> bool:
        """True while a match is on screen and the setting asks to keep the screen awake."""
        s = self.session
        return s.keep_awake and s.screen in (Screen.SCOREBOARD, Screen.ENTRY) and self.app.scoreboard.record is not None

    def data_folder(self) -> str | None:
        folder = self.services.library.folder
        return self.tr("settings.data_folder", folder=str(folder)) if folder is not None else None

    @intent
    def open(self) -> None:
        self.session.go(Screen.SETTINGS)

    def _keep(self, **changes) -> None:
        """Settings are each phone's own. On the device running the app they are stored (and the language
        kept over the browser's own); a phone that joined keeps them while its page is open, and another
        phone's choice never changes the laptop's."""
        if self.session.is_owner:
            # Stored first: if the disk refuses, the screen still shows the setting as it is stored.
            self.services.library.update_settings(**changes)

    @intent
    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES:
            self._keep(language=lang, language_chosen=True)
            self.session.lang = lang

    @intent
    def set_theme(self, theme: str) -> None:
        if theme in THEMES:
            self._keep(theme=theme)
            self.session.theme = theme

    @intent
    def set_keep_awake(self, on: bool) -> None:
        self._keep(keep_awake=bool(on))
        self.session.keep_awake = bool(on)


class RulesModel(ViewModel):
    """The rules page: any preset, or the rules of the match in play."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.shown: str = CURRENT if app.scoreboard.record else app.setup.form.preset

    def choices(self) -> list[tuple[str, str, bool]]:
        """(key, title, selected): the match in play's rules first, when there is one."""
        tr = self.tr
        out = [(CURRENT, tr("rules.this_match"), self.shown == CURRENT)] if self.app.scoreboard.record else []
        return out + [(n, tr(f"rules.{n}.title"), self.shown == n) for n in preset_names(self.session.lang)]

    def rules(self) -> RuleSet:
        record = self.app.scoreboard.record
        if record and self.shown == CURRENT:
            return record.match.rules
        return preset(self.shown) if self.shown in preset_names() else preset("classic")

    def description(self) -> str | None:
        return None if self.shown == CURRENT else self.tr(f"rules.{self.rules().name}.description")

    def lines(self) -> list[str]:
        return rules_text(self.rules(), self.tr)

    @intent
    def open(self, which: str | None = None) -> None:
        """The rules page; `which` a preset, `current` for the match in play, or None: the likeliest."""
        table = self.app.scoreboard
        self.shown = which or (CURRENT if table.record else self.app.setup.form.preset)
        self.session.go(Screen.RULES)

    @intent
    def show(self, which: str) -> None:
        self.shown = which
