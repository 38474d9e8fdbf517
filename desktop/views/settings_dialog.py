"""File → Settings…: the UI language and the script questions are shown in; the review
session's daily limits and when a wrong-answer book entry graduates (kept in the progress
file: ``study.study_settings``); and the one-time language offer of a first launch on a
system that is not Chinese.

The UI language applies when examdesk starts again (every screen is built translated; a
restart is honest where a half-retranslated window would not be). The question script
applies to every question screen opened from then on. The theme (system / light / dark)
applies at once: the palette changes, and every screen re-renders in it.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox,
                               QLabel, QMessageBox, QSpinBox, QVBoxLayout, QWidget)

from ..config import CHINESE, ENGLISH, Keys, ui_language
from ..theme import THEME_CHOICES, apply_theme_choice
from .question_script import SIMPLIFIED, TRADITIONAL, set_question_script
from .translation import tr

# Shown in their own language: a learner who cannot read the current UI still finds theirs.
LANGUAGES = ((ENGLISH, "English"), (CHINESE, "简体中文"))


def offer_restart(window: QWidget) -> None:
    """The new language comes with a restart: now (everything is saved first, an exam keeps
    its clock) or at the next start."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from ..relaunch import RESTART_PROPERTY

    box = QMessageBox(QMessageBox.Icon.Question, tr("Interface language"),
                      tr("The new language is used when examdesk starts again. Restart now? "
                         "Everything you did is saved first."), parent=window)
    box.setObjectName("restart_offer")
    now = box.addButton(tr("Restart now"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(tr("Later"), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    if box.clickedButton() is now:
        QApplication.instance().setProperty(RESTART_PROPERTY, True)
        window.close()
    box.deleteLater()


def offer_language(settings: QSettings, parent: QWidget) -> QMessageBox:
    """Once, after the first window of a first launch: English or 简体中文 (non-blocking)."""
    box = QMessageBox(QMessageBox.Icon.Question, "examdesk",
                      "examdesk speaks English and 简体中文. Which language do you want?\n"
                      "examdesk 支持英文和简体中文界面，请选择界面语言。\n\n"
                      "(File → Settings changes it later · 以后可在“文件 → 设置”中更改)",
                      QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName("language_offer")
    english = box.addButton("English", QMessageBox.ButtonRole.AcceptRole)
    chinese = box.addButton("简体中文（重新启动后生效）", QMessageBox.ButtonRole.AcceptRole)
    english.setObjectName("choose_en")
    chinese.setObjectName("choose_zh_CN")
    settings.setValue(Keys.UI_LANGUAGE, ENGLISH)  # offered once, whatever happens next

    def chosen(button) -> None:
        settings.setValue(Keys.UI_LANGUAGE, CHINESE if button is chinese else ENGLISH)
        settings.sync()
    box.buttonClicked.connect(chosen)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.show()
    return box


class SettingsDialog(QDialog):
    """UI language (on restart), question script (from the next question screen) and, with
    a ``db``, the study settings stored in the progress file (at once)."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None, *,
                 db=None) -> None:
        super().__init__(parent)
        self.setObjectName("settings_dialog")
        self.setWindowTitle(tr("Settings"))
        self.settings = settings
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.language = QComboBox()
        self.language.setObjectName("ui_language")
        for key, name in LANGUAGES:
            self.language.addItem(name, key)
        current = ui_language(settings) or ENGLISH
        self.language.setCurrentIndex(max(0, self.language.findData(current)))
        form.addRow(tr("Interface language"), self.language)
        form.addRow("", _note(tr("Takes effect when examdesk starts again (it offers to "
                                 "restart now).")))
        self.script = QComboBox()
        self.script.setObjectName("question_script")
        self.script.addItem(tr("Simplified Chinese (as the papers are written)"), SIMPLIFIED)
        self.script.addItem(tr("Traditional Chinese (Taiwan characters, OpenCC s2tw)"),
                            TRADITIONAL)
        script = str(settings.value(Keys.QUESTION_SCRIPT, SIMPLIFIED) or SIMPLIFIED)
        self.script.setCurrentIndex(max(0, self.script.findData(script)))
        form.addRow(tr("Questions shown in"), self.script)
        form.addRow("", _note(tr("Display only: answers typed in either script are graded "
                                 "alike. Applies to the questions you open from now on.")))
        self.theme = QComboBox()
        self.theme.setObjectName("theme")
        names = {"system": tr("As the system"), "light": tr("Light"), "dark": tr("Dark")}
        for key in THEME_CHOICES:
            self.theme.addItem(names[key], key)
        chosen = str(settings.value(Keys.THEME, "system") or "system")
        self.theme.setCurrentIndex(max(0, self.theme.findData(chosen)))
        form.addRow(tr("Theme"), self.theme)
        layout.addLayout(form)
        self.db = db
        self.study_loaded = None  # the StudySettings read from the progress file
        self.new_per_day = _spin("new_per_day", 0, 9999)
        self.reviews_per_day = _spin("reviews_per_day", 0, 99999)
        self.graduate_after = _spin("graduate_after", 1, 20)
        study_box = QGroupBox(tr("Review and the wrong-answer book"))
        study_form = QFormLayout(study_box)
        study_form.addRow(tr("New cards per day"), self.new_per_day)
        study_form.addRow(tr("Reviews per day"), self.reviews_per_day)
        study_form.addRow(tr("Leaves the wrong-answer book after"), self.graduate_after)
        study_form.addRow("", _note(tr("right answers in a row (it can be put back by hand). "
                                       "The daily limits apply to the review session (Due "
                                       "today).")))
        study_box.setEnabled(False)  # until read from the progress file
        self.study_box = study_box
        layout.addWidget(study_box)
        if db is not None:
            from question_db import study

            db.run(study.study_settings, on_done=self._study_loaded)
        else:
            study_box.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def accept(self) -> None:
        language_changed = self.language.currentData() != (ui_language(self.settings)
                                                            or ENGLISH)
        self.settings.setValue(Keys.UI_LANGUAGE, self.language.currentData())
        self.settings.setValue(Keys.QUESTION_SCRIPT, self.script.currentData())
        self.settings.sync()
        set_question_script(self.script.currentData())
        if self.theme.currentData() != str(self.settings.value(Keys.THEME, "system")):
            self.settings.setValue(Keys.THEME, self.theme.currentData())
            from PySide6.QtWidgets import QApplication

            apply_theme_choice(QApplication.instance(), self.theme.currentData())
        loaded = self.study_loaded
        chosen = (self.new_per_day.value(), self.reviews_per_day.value(),
                  self.graduate_after.value())
        if self.db is not None and loaded is not None and chosen != (
                loaded.new_per_day, loaded.reviews_per_day, loaded.graduate_after):
            from question_db import study

            self.db.run(study.set_study_settings, new_per_day=chosen[0],
                        reviews_per_day=chosen[1], graduate_after=chosen[2])
        window = self.parentWidget().window() if self.parentWidget() else None
        super().accept()  # the dialog may be deleted from here on
        if language_changed and window is not None:
            offer_restart(window)

    def _study_loaded(self, loaded) -> None:
        self.study_loaded = loaded
        self.new_per_day.setValue(loaded.new_per_day)
        self.reviews_per_day.setValue(loaded.reviews_per_day)
        self.graduate_after.setValue(loaded.graduate_after)
        self.study_box.setEnabled(True)


def _spin(name: str, low: int, high: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setObjectName(name)
    spin.setRange(low, high)
    return spin


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    # theme: secondary text takes the palette's placeholder colour
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label
