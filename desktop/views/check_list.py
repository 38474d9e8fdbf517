"""A list of check boxes (papers, sections, types, topics…) for the study dialogs."""
from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget


class CheckList(QListWidget):
    """Items with a check box each; ``checked()`` gives the values of the ticked ones."""

    sig_changed = Signal()
    """A box was ticked or cleared."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.itemChanged.connect(lambda _item: self.sig_changed.emit())

    def set_items(self, items: Iterable[tuple[str, object]], checked: Iterable = ()) -> None:
        """Replace the items: (text, value); ``checked`` values start ticked."""
        ticked = set(checked)
        self.blockSignals(True)
        self.clear()
        for text, value in items:
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if value in ticked
                               else Qt.CheckState.Unchecked)
            self.addItem(item)
        self.blockSignals(False)
        self.sig_changed.emit()

    def values(self) -> list:
        return [self.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.count())]

    def checked(self) -> list:
        return [self.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.count())
                if self.item(i).checkState() == Qt.CheckState.Checked]

    def set_checked(self, values: Iterable) -> None:
        wanted = set(values)
        self.blockSignals(True)
        for i in range(self.count()):
            item = self.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole)
                               in wanted else Qt.CheckState.Unchecked)
        self.blockSignals(False)
        self.sig_changed.emit()
