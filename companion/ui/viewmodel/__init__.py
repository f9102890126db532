"""View models: plain Python, one per screen, tested without a page. They alone call the service, the
engine's values and the history's figures; the screens (`companion.ui.views`) only render them and send
their intents."""

from ...engine.live import TapKind
from ...net.access import Access, TableInfo
from .app import AppModel
from .entry import TIE
from .session import Detail, Notice, Place, Question, Screen, Session, Tone, intent

__all__ = ["Access", "AppModel", "Detail", "Notice", "Place", "Question", "Screen", "Session", "TableInfo", "TapKind",
           "TIE", "Tone", "intent"]
