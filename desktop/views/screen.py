"""What every screen offers the main window (one protocol, no ``isinstance`` dispatch):
leaving, the console's availability and results, and refreshing itself from what an action
changed.

A screen never builds SQL and never calls the store: it runs ``question_db.actions`` through
``DbOps`` and shows their typed results.

Refreshing follows Anki's ``op_executed(changes, handler, focused)``: every action's changes
reach every screen with who ran it (``initiator``) and whether the screen is on top
(``focused``). A hidden screen only remembers what it missed and refreshes once, when it is
shown again (``show_again``); the initiator has its outcome from the action's ``on_done``
and does not reload what it has just set.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QWidget

from question_db.changes import NOTHING, Changes


class Screen(QWidget):
    """Base of the library and of the practice, exam, report, wrong-answer book, review and
    dashboard screens.

    The defaults do nothing, so a screen implements only what it shows.
    """

    _missed: Changes = NOTHING  # changed while hidden: refreshed from in show_again()

    sig_leave = Signal()
    """The learner wants to go back to the library."""

    sig_run_requested = Signal(str)
    """Run this code visibly in the console: (code)."""

    sig_check_requested = Signal(str, str)
    """Run a programming question's checks on this code: (question id, code)."""

    sig_verify_requested = Signal(str, str)
    """Run a question's verify snippet in the console: (question id, source)."""

    sig_console_kind = Signal(str)
    """The question on screen is of another kind for the console: 'code', 'verify' (it has
    a snippet to run) or 'other' (the console collapses to a bar by default)."""

    def enter(self, settings: QSettings) -> None:
        """The screen is on top now: restore its layout, take the focus."""

    def leave(self, settings: QSettings) -> None:
        """The screen goes away (or the app quits): save pending work and its layout, stop
        timers. Called once; the screen is deleted afterwards."""

    def wants_console(self) -> bool:
        """False while the console must stay hidden (a closed-book exam)."""
        return True

    def allows_search(self) -> bool:
        """False where search (Ctrl+K) must not open: a running exam."""
        return True

    def quit_warning(self) -> str | None:
        """What to ask before the learner quits examdesk on this screen (None: just quit)."""
        return None

    def set_console_available(self, available: bool) -> None:
        """A kernel is (no longer) ready: enable Run / Check / Verify."""

    def apply_check_result(self, question_id: str, checks: list[dict]) -> None:
        """The console ran ``question_id``'s checks: ``[{name, passed, required, …}]``."""

    def show_check_error(self, question_id: str, message: str) -> None:
        """The checks of ``question_id`` could not run (no kernel, the starter raised…)."""

    def apply_theme(self) -> None:
        """The palette changed (Settings ▸ Theme, or the desktop): re-render what was
        coloured from the theme's roles when it was built."""

    def apply_changes(self, changes: Changes, *, initiator: object | None = None,
                      focused: bool = True) -> None:
        """An action changed stored data: refresh what is shown of it now if the screen is
        on top (``focused``), else once it is shown again. ``initiator``: who ran the
        action (``DbOps.run``); it may be this screen."""
        if focused:
            self.refresh_from(changes, initiator=initiator)
        else:
            self._missed = self._missed | changes

    def show_again(self) -> None:
        """The screen is on top again: refresh from what changed while it was hidden (its
        own actions cannot have run then, so no initiator)."""
        missed, self._missed = self._missed, NOTHING
        if missed:
            self.refresh_from(missed, initiator=None)

    def refresh_from(self, changes: Changes, *, initiator: object | None) -> None:
        """Hook: reload what this screen shows of ``changes``; skip what the screen set
        itself (``initiator is self``) when its ``on_done`` already showed it."""
